"""Drive one Lean REPL process (`lake exe repl`) over pexpect.

The process is started lazily, answers one request at a time, and is killed and restarted when it
runs past a request's timeout, exceeds the memory limit (resident memory of its whole process tree,
polled while waiting) or dies. Imported environments (`import Mathlib` takes the REPL many seconds)
are loaded once per process and reused through their `env` ids.

pexpect's `PopenSpawn` (pipes) is used rather than a pty: a pty's canonical mode caps an input line at
4095 bytes, far less than a grouped command, and echoes input back.
"""

from __future__ import annotations

import json
import logging
import os
import re
import signal
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import pexpect
from pexpect.popen_spawn import PopenSpawn

from atf.lean.protocol import CommandResponse, ReplError, Response, command_request, encode_request, parse_response

log = logging.getLogger(__name__)

_BLANK_LINE = re.compile(r"\r?\n[ \t]*\r?\n")


class ReplFailure(RuntimeError):
    """The REPL process did not answer: kind is "timeout", "memory" or "crash". It has been killed."""

    def __init__(self, kind: str, message: str, output_tail: str = ""):
        super().__init__(message)
        self.kind = kind
        self.output_tail = output_tail


class ReplRefused(RuntimeError):
    """The REPL answered a command with an error object instead of running it."""


class LeanUnavailable(RuntimeError):
    """The REPL command could not be started at all (not installed, wrong path)."""


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

    def add(self, other: ReplStats) -> ReplStats:
        return ReplStats(*(a + b for a, b in zip(vars(self).values(), vars(other).values())))


class LeanRepl:
    """One REPL process at a time, restarted as needed.

    command: argv of the REPL, e.g. ["lake", "env", "/opt/repl/.lake/build/bin/repl"].
    cwd: where to run it (the Lean project whose packages the imports come from).
    max_memory_mb: kill the process when its tree's resident memory exceeds this (None: no limit).
    max_requests: restart after this many requests, since the REPL keeps every environment it
        produced in memory (None: never).
    poll_interval_s: how often the memory and the deadline are checked while waiting.
    """

    def __init__(
        self,
        command: Sequence[str],
        cwd: str | Path | None = None,
        env: dict[str, str] | None = None,
        max_memory_mb: float | None = None,
        max_requests: int | None = None,
        poll_interval_s: float = 0.1,
    ):
        if not command:
            raise ValueError("empty REPL command")
        self.argv = list(command)
        self.cwd = str(cwd) if cwd else None
        self.env = env
        self.max_memory_mb = max_memory_mb
        self.max_requests = max_requests
        self.poll_interval_s = poll_interval_s
        self.stats = ReplStats()
        self._child: PopenSpawn | None = None
        self._requests_since_start = 0
        self._headers: dict[tuple[str, ...], int] = {}

    # -- process lifecycle -------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self._child is not None and self._child.proc.poll() is None

    @property
    def pid(self) -> int | None:
        return self._child.pid if self._child is not None else None

    def loaded_headers(self) -> set[tuple[str, ...]]:
        return set(self._headers.copy()) if self.alive else set()  # copy(): atomic while another thread loads

    def start(self) -> None:
        self.close()
        try:
            child = PopenSpawn(
                self.argv, cwd=self.cwd, env=self.env, encoding="utf-8", codec_errors="replace",
                preexec_fn=os.setsid, maxread=65536,
            )
        except (FileNotFoundError, PermissionError, NotADirectoryError) as err:
            raise LeanUnavailable(f"could not start the Lean REPL {' '.join(self.argv)!r}: {err}") from err
        child.delayafterread = 0.001  # PopenSpawn polls its reader queue; keep that loop from spinning
        self._child = child
        self._requests_since_start = 0
        self._headers.clear()
        self.stats.starts += 1
        log.debug("started Lean REPL pid %s: %s", child.pid, " ".join(self.argv))

    def close(self) -> None:
        """Kill the process (and its children); a later request starts a fresh one."""
        child, self._child = self._child, None
        self._headers.clear()
        if child is None:
            return
        if child.proc.poll() is None:
            try:
                os.killpg(child.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                child.proc.kill()
        try:
            child.proc.wait(timeout=10)
        except Exception:  # noqa: BLE001 - a zombie we cannot reap is not worth failing over
            pass
        for stream in (child.proc.stdin, child.proc.stdout):
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
        """Send one request and return the decoded JSON answer; raises ReplFailure (process killed)."""
        if self.max_requests is not None and self._requests_since_start >= self.max_requests:
            log.debug("restarting the REPL after %d requests", self._requests_since_start)
            self.close()
        if not self.alive:
            if self._child is not None:  # died between requests
                self.close()
            self.start()
        child = self._child
        assert child is not None
        self._requests_since_start += 1
        self.stats.round_trips += 1
        try:
            child.send(encode_request(request))
        except OSError as err:
            tail = self._tail(child)
            self.stats.crashes += 1
            self.close()
            raise ReplFailure("crash", f"the Lean REPL stopped accepting input ({err})", tail) from err
        return self._read_answer(child, timeout_s)

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
    def _read_answer(self, child: PopenSpawn, timeout_s: float) -> dict:
        deadline = time.monotonic() + timeout_s
        text = ""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.stats.timeouts += 1
                self.close()
                raise ReplFailure("timeout", f"Lean did not answer within {timeout_s:g} s", text[-2000:])
            try:
                child.expect([_BLANK_LINE, pexpect.EOF], timeout=min(self.poll_interval_s, remaining))
            except pexpect.TIMEOUT:
                self._check_memory(child, text)
                continue
            text += child.before if isinstance(child.before, str) else ""
            if child.after is pexpect.EOF:
                code = child.proc.wait()
                self.stats.crashes += 1
                self.close()
                raise ReplFailure("crash", f"the Lean REPL exited ({_describe_exit(code)})", text[-2000:])
            text += child.after if isinstance(child.after, str) else ""
            obj = _decode_answer(text)
            if obj is not None:
                return obj

    def _check_memory(self, child: PopenSpawn, text: str) -> None:
        if self.max_memory_mb is None:
            return
        rss = tree_rss_mb(child.pid)
        if rss > self.max_memory_mb:
            self.stats.memory_kills += 1
            self.close()
            raise ReplFailure("memory", f"Lean used {rss:.0f} MB, over the {self.max_memory_mb:g} MB limit",
                              text[-2000:])

    @staticmethod
    def _tail(child: PopenSpawn) -> str:
        try:
            return child.read_nonblocking(65536, timeout=0.2)
        except Exception:  # noqa: BLE001
            return ""


def _decode_answer(text: str) -> dict | None:
    """The JSON object in `text` (skipping any non-JSON noise before it), or None if incomplete."""
    decoder = json.JSONDecoder()
    for m in re.finditer(r"(?m)^\{", text):  # the REPL starts each answer at column 0; nested objects are indented
        try:
            obj, _ = decoder.raw_decode(text, m.end() - 1)
        except json.JSONDecodeError:
            continue
        if isinstance(obj, dict):
            return obj
    return None


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
