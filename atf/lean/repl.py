"""Drive one Lean REPL process (`lake exe repl`), sandboxed, over its stdin/stdout pipes.

The process is started lazily, answers one request at a time, and is killed and restarted when it
runs past a request's timeout, exceeds the memory limit (resident memory of its whole process tree,
polled while waiting), dies, or breaks the protocol. Imported environments (`import Mathlib` takes the
REPL many seconds) are loaded once per process and reused through their `env` ids.

The channel cannot be spoofed by what the REPL (or Lean code it runs) prints on stderr, nor shifted by
an answer too many or too few:
- stderr is drained by its own thread into a bounded log (shown with crashes), never parsed;
- stdout is cut into answers by the protocol's framing (one JSON object, then a blank line); each
  chunk that starts like an object must be a well-formed JSON object of a known shape (other text,
  such as a build log, is logged and skipped: it cannot pass for an answer);
- command answers must carry a fresh environment id: the REPL numbers environments in the order it
  creates them (`recordCommandSnapshot` in REPL/Main.lean), so a stale or repeated answer has an id
  no larger than one already seen in this process;
- an answer left over before a request is sent (the REPL answered twice) is never read as the next
  request's answer.
Any violation kills the process and raises ReplFailure(kind="protocol"); the caller retries or fails
only the statements of that request (see atf.lean.batch).
"""

from __future__ import annotations

import collections
import json
import logging
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from atf.lean.protocol import (
    CommandResponse,
    ReplError,
    Response,
    command_request,
    encode_request,
    parse_response,
)
from atf.lean.sandbox import SandboxConfig, SandboxUnavailable, build_launch

log = logging.getLogger(__name__)

MAX_ANSWER_BYTES = 64 * 1024 * 1024
STDERR_LINES_KEPT = 200
# Requests whose answer creates a new environment (and so must carry a fresh `env` id).
_NEW_ENV_KEYS = ("cmd", "path", "unpickleEnvFrom")


class ReplFailure(RuntimeError):
    """The REPL process did not answer properly: kind is "timeout", "memory", "crash" or "protocol"
    (an extra, malformed, unknown-shape or stale answer). It has been killed."""

    def __init__(self, kind: str, message: str, output_tail: str = ""):
        super().__init__(message)
        self.kind = kind
        self.output_tail = output_tail


class ReplRefused(RuntimeError):
    """The REPL answered a command with an error object instead of running it."""


class LeanUnavailable(RuntimeError):
    """The REPL command could not be started at all (not installed, wrong path, no sandbox)."""


class HeaderError(RuntimeError):
    """Lean could not load a header (unknown module, ...). `messages` holds what Lean said."""

    def __init__(self, imports: Sequence[str], messages: list[str]):
        shown = "; ".join(messages) or "no message"
        super().__init__(f"Lean could not load the header ({', '.join(imports) or 'no imports'}): {shown}")
        self.imports = tuple(imports)
        self.messages = messages


@dataclass
class ReplStats:
    """Counters over the life of a `LeanRepl` (all its processes)."""

    starts: int = 0
    round_trips: int = 0
    header_loads: int = 0
    timeouts: int = 0
    crashes: int = 0
    memory_kills: int = 0
    protocol_errors: int = 0

    def add(self, other: ReplStats) -> ReplStats:
        return ReplStats(*(a + b for a, b in zip(vars(self).values(), vars(other).values())))


class _Process:
    """A started REPL: the Popen, a queue of framed stdout answers, and the tail of its stderr."""

    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self.answers: queue.Queue[tuple[str, str]] = queue.Queue()
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=STDERR_LINES_KEPT)
        self.max_env = -1
        self.max_proof_state = -1
        self.readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._drain_stderr, daemon=True),
        ]
        for thread in self.readers:
            thread.start()

    def _read_stdout(self) -> None:
        lines: list[str] = []
        size = 0
        stream = self.proc.stdout
        assert stream is not None
        try:
            while True:
                raw = stream.readline(MAX_ANSWER_BYTES + 1)
                if not raw:
                    break
                line = raw.decode("utf-8", errors="replace")
                size += len(raw)
                if size > MAX_ANSWER_BYTES:
                    self.answers.put(("oversize", f"an answer of more than {MAX_ANSWER_BYTES} bytes"))
                    return
                if line.strip():
                    lines.append(line)
                elif lines:
                    self.answers.put(("answer", "".join(lines)))
                    lines, size = [], 0
        except (OSError, ValueError):
            pass
        if lines:
            self.answers.put(("answer", "".join(lines)))  # an answer cut short by the exit: left to the parser
        self.answers.put(("eof", ""))

    def _drain_stderr(self) -> None:
        stream = self.proc.stderr
        assert stream is not None
        try:
            for raw in iter(lambda: stream.readline(65536), b""):
                line = raw.decode("utf-8", errors="replace").rstrip("\n")
                self.stderr_tail.append(line)
                log.debug("repl %s stderr: %s", self.proc.pid, line)
        except (OSError, ValueError):
            pass

    def tail(self) -> str:
        return "\n".join(self.stderr_tail)[-2000:]


class LeanRepl:
    """One REPL process at a time, restarted as needed.

    command: argv of the REPL, e.g. ["lake", "env", "/opt/repl/.lake/build/bin/repl"].
    cwd: where to run it (the Lean project whose packages the imports come from).
    env: extra environment variables for the REPL (the sandbox starts from an empty environment).
    max_memory_mb: kill the process when its tree's resident memory exceeds this (None: no limit).
    max_requests: restart after this many requests, since the REPL keeps every environment it
        produced in memory (None: never).
    poll_interval_s: how often the memory and the deadline are checked while waiting.
    sandbox: how the process is confined (default: bubblewrap, see atf.lean.sandbox).

    One LeanRepl serves one caller at a time; a pool runs one LeanRepl per worker.
    """

    def __init__(
        self,
        command: Sequence[str],
        cwd: str | Path | None = None,
        env: dict[str, str] | None = None,
        max_memory_mb: float | None = None,
        max_requests: int | None = None,
        poll_interval_s: float = 0.1,
        sandbox: SandboxConfig | str | None = None,
    ):
        if not command:
            raise ValueError("empty REPL command")
        self.argv = list(command)
        self.cwd = str(cwd) if cwd else None
        self.env = env
        self.max_memory_mb = max_memory_mb
        self.max_requests = max_requests
        self.poll_interval_s = poll_interval_s
        self.sandbox = SandboxConfig.parse(sandbox)
        self.stats = ReplStats()
        self._child: _Process | None = None
        self._requests_since_start = 0
        self._headers: dict[tuple[str, ...], int] = {}

    # -- process lifecycle -------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self._child is not None and self._child.proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self._child.proc.pid if self._child is not None else None

    def loaded_headers(self) -> set[tuple[str, ...]]:
        return set(self._headers.copy()) if self.alive else set()  # copy(): atomic while another thread loads

    def start(self) -> None:
        self.close()
        try:
            launch = build_launch(self.argv, self.cwd, self.env, self.sandbox)
            proc = subprocess.Popen(
                launch.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=launch.cwd,
                env=launch.env,
                start_new_session=True,
                bufsize=0,
            )
        except SandboxUnavailable as err:
            raise LeanUnavailable(str(err)) from err
        except (FileNotFoundError, PermissionError, NotADirectoryError) as err:
            raise LeanUnavailable(f"could not start the Lean REPL {' '.join(self.argv)!r}: {err}") from err
        self._child = _Process(proc)
        self._requests_since_start = 0
        self._headers.clear()
        self.stats.starts += 1
        log.debug("started Lean REPL pid %s (sandbox %s): %s", proc.pid, self.sandbox.mode, " ".join(self.argv))

    def close(self) -> None:
        """Kill the process (and its children; a sandbox's pid namespace dies with it)."""
        child, self._child = self._child, None
        self._headers.clear()
        if child is None:
            return
        proc = child.proc
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                proc.kill()
        try:
            proc.wait(timeout=10)
        except Exception:  # noqa: BLE001 - a zombie we cannot reap is not worth failing over
            pass
        # The readers see EOF once the process is dead. Close their pipes only after they stopped: a reader
        # between two reads of a pipe closed under it would read the fd number the next REPL's pipe reuses,
        # and steal the first line of that REPL's answer.
        for thread in child.readers:
            thread.join(timeout=5)
        streams = [proc.stdin] + [st for st, th in zip((proc.stdout, proc.stderr), child.readers) if not th.is_alive()]
        for stream in streams:
            try:
                if stream:
                    stream.close()
            except OSError:
                pass

    def __enter__(self) -> LeanRepl:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001
            pass

    # -- requests ----------------------------------------------------------------------------------
    def send(self, request: dict, timeout_s: float) -> dict:
        """Send one request and return its decoded JSON answer; raises ReplFailure (process killed)."""
        if self.max_requests is not None and self._requests_since_start >= self.max_requests:
            log.debug("restarting the REPL after %d requests", self._requests_since_start)
            self.close()
        if self._child is not None and not self.alive:  # died between requests
            self.close()
        if self._child is not None and not self._child.answers.empty():
            kind, text = self._child.answers.get_nowait()
            if kind != "eof":
                self._fail("protocol", f"the Lean REPL sent an answer nobody asked for: {text[:200]!r}")
            self.close()
        if self._child is None:
            self.start()
        child = self._child
        assert child is not None
        self._requests_since_start += 1
        self.stats.round_trips += 1
        try:
            assert child.proc.stdin is not None
            child.proc.stdin.write(encode_request(request).encode("utf-8"))
            child.proc.stdin.flush()
        except OSError as err:
            self._fail("crash", f"the Lean REPL stopped accepting input ({err})")
        obj = self._read_answer(child, timeout_s)
        self._check_binding(child, request, obj)
        return obj

    def run(self, request: dict, timeout_s: float) -> Response:
        return parse_response(self.send(request, timeout_s))

    def command(self, cmd: str, env: int | None = None, timeout_s: float = 60.0, **options) -> Response:
        return self.run(command_request(cmd, env, **options), timeout_s)

    def header_env(self, imports: Sequence[str], timeout_s: float) -> int:
        """The env id of `imports` loaded in this process, loading it if needed (raises HeaderError)."""
        key = tuple(imports)
        if self.alive and key in self._headers:
            return self._headers[key]
        text = "\n".join(f"import {m}" for m in key)
        self.stats.header_loads += 1
        resp = self.command(text, None, timeout_s)
        if isinstance(resp, ReplError):
            raise HeaderError(key, [resp.message])
        if not isinstance(resp, CommandResponse):
            raise HeaderError(key, [f"unexpected answer {resp!r:.200}"])
        if resp.errors:
            raise HeaderError(key, [m.data for m in resp.errors])
        self._headers[key] = resp.env
        return resp.env

    def forget_header(self, imports: Sequence[str]) -> None:
        self._headers.pop(tuple(imports), None)

    # -- reading -----------------------------------------------------------------------------------
    def _fail(self, kind: str, message: str) -> None:
        tail = self._child.tail() if self._child is not None else ""
        counter = {"timeout": "timeouts", "memory": "memory_kills", "crash": "crashes", "protocol": "protocol_errors"}
        setattr(self.stats, counter[kind], getattr(self.stats, counter[kind]) + 1)
        if kind == "protocol":
            log.warning("Lean REPL protocol error, restarting it: %s", message)
        self.close()
        raise ReplFailure(kind, message, tail)

    def _read_answer(self, child: _Process, timeout_s: float) -> dict:
        deadline = time.monotonic() + timeout_s
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self._fail("timeout", f"Lean did not answer within {timeout_s:g} s")
            try:
                kind, text = child.answers.get(timeout=min(self.poll_interval_s, remaining))
            except queue.Empty:
                self._check_memory(child)
                continue
            if kind == "eof":
                try:
                    code = child.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    code = None
                time.sleep(0.05)  # let the stderr thread take the last lines
                self._fail("crash", f"the Lean REPL exited ({_describe_exit(code)})")
            if kind == "oversize":
                self._fail("protocol", text)
            if not text.lstrip().startswith("{"):
                log.info("Lean REPL printed non-answer text on stdout (skipped): %.200r", text)
                continue  # cannot be taken for an answer (each is a JSON object), so it cannot shift one
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as err:
                self._fail("protocol", f"the Lean REPL sent a malformed answer ({err}): {text[:200]!r}")
            if not isinstance(obj, dict):
                self._fail("protocol", f"the Lean REPL sent a non-object answer: {text[:200]!r}")
            try:
                parse_response(obj)
            except (ValueError, TypeError, KeyError) as err:
                self._fail("protocol", f"the Lean REPL sent an answer of unknown shape ({err})")
            return obj

    def _check_binding(self, child: _Process, request: dict, obj: dict) -> None:
        """A command's answer must carry an environment id never seen before in this process."""
        if "env" in obj and "proofState" not in obj and any(k in request for k in _NEW_ENV_KEYS):
            env = obj["env"]
            if not isinstance(env, int) or env <= child.max_env or env <= request.get("env", -1):
                self._fail(
                    "protocol",
                    f"the Lean REPL answered with env {env!r}, not newer than env "
                    f"{max(child.max_env, request.get('env', -1))}: a stale or repeated answer",
                )
            child.max_env = env
        elif "proofState" in obj and "tactic" in request:
            ps = obj["proofState"]
            if not isinstance(ps, int) or ps <= child.max_proof_state:
                self._fail(
                    "protocol",
                    f"the Lean REPL answered with proof state {ps!r}, not newer than "
                    f"{child.max_proof_state}: a stale or repeated answer",
                )
            child.max_proof_state = ps

    def _check_memory(self, child: _Process) -> None:
        if self.max_memory_mb is None:
            return
        rss = tree_rss_mb(child.proc.pid)
        if rss > self.max_memory_mb:
            self._fail("memory", f"Lean used {rss:.0f} MB, over the {self.max_memory_mb:g} MB limit")


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def tree_rss_mb(pid: int) -> float:
    """Resident memory (MB) of a process and all its descendants, from /proc (0 where unavailable)."""
    total_kb = 0
    todo = [pid]
    seen: set[int] = set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open(f"/proc/{p}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total_kb += int(line.split()[1])
                        break
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue
    return total_kb / 1024
