"""SymEq under a hard time bound: a reusable pool of worker processes that kills an overrunning step.

Z3 does not reliably stop at its own timeout (its maintainers say cancellation is checked only in some
places; a 300 ms query has run for minutes), so the only bound that holds is killing the process. A worker
runs `SymEq.events` for one problem and reports every step as it goes; the parent keeps the verdicts. When
one step (reading a candidate, deciding a pair) runs past `step_budget_s` (the worker's CPU time where the
platform reports it: STEP_CLOCK), the worker is killed, that step becomes "unknown" (or "unread"), and a fresh
worker resumes the problem from the verdicts already in; when the problem's `problem_budget_s` (wall clock) runs
out, what is undecided stays unmerged and the merges made so far stay. Workers are reused across problems (a
fresh one imports Z3 and the compiler, about a second), killed ones are reaped and replaced, and a worker exits when
the process that owns it is gone.

    with SymEqPool(workers=2) as pool:
        result = pool.cluster(candidates, "lean")                   # one problem
        for idx, result in pool.map([(cands, "isabelle"), ...]):    # many, as they finish
            ...
"""

from __future__ import annotations

import atexit
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Self

from atf.symeq.config import SymEqConfig
from atf.symeq.equivalence import ClusterBuilder, PairResult, SymEqResult, UnionFind

log = logging.getLogger(__name__)

Job = tuple[Sequence[str], str]  # (candidates, language)

# STEP_CLOCK: a step's budget counts its worker's CPU time where the platform reports it (Linux: /proc/<pid>/stat),
# not the wall clock. On a busy machine a worker gets a fraction of a core, and a step that takes 0.6 s on a quiet
# machine was killed at the 2.5 s step budget once the worker got less than a quarter of one: its pair became
# unknown, a verdict decided by the load. A step is stopped when its CPU time reaches the budget, or when it has
# run the budget on the wall clock while its worker got less than STALLED_SHARE of a core (a worker stopped, or
# waiting on something that is not Z3); the problem's budget stays on the wall clock and bounds a problem's time on
# any machine. Elsewhere the step budget is wall-clock time, as it was.
STALLED_SHARE = 0.05
MIN_CHECK_S = 0.01  # the pool looks at a step's clocks at most this often
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time of process pid so far (None where /proc does not say: not Linux, or it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read()
        fields = data[data.rindex(b")") + 2 :].split()  # (the command name may hold spaces and parentheses)
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, ValueError, IndexError):
        return None


def _watch_parent(parent: int) -> None:
    """Exit when the process that started this worker is gone, even while the main thread is inside Z3
    (Z3 calls release the GIL): no worker outlives the program that owns it."""
    import os

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def worker_main(fd: int, parent: int) -> None:
    """The body of a worker process: run SymEq jobs from the pipe `fd`, one event per message."""
    _watch_parent(parent)
    from atf.symeq.equivalence import SymEq

    conn = Connection(fd)
    conn.send((0, ("ready",)))  # imports done: step deadlines start now, not at the interpreter's start
    engines: dict[tuple, SymEq] = {}
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        job_id, candidates, language, config, resume = msg
        key = (language, config)
        engine = engines.get(key) or engines.setdefault(key, SymEq(language, config=config))
        t0 = time.perf_counter()

        def retrying(seconds: float, job_id: int = job_id) -> None:
            conn.send((job_id, ("retry", seconds)))  # before the retry starts: its allowance joins the deadline

        try:
            for event in engine.events(list(candidates), resume, retrying):
                if event[0] == "parsed" and event[2] is not None:
                    try:
                        conn.send((job_id, event))
                        continue
                    except (RecursionError, TypeError, AttributeError):  # a statement pickle cannot carry
                        event = (*event[:2], None, "statement too deep to return", event[4])
                conn.send((job_id, event))
            conn.send((job_id, ("done", time.perf_counter() - t0)))
        except OSError:  # the owner is gone
            return


@dataclass
class _Worker:
    proc: subprocess.Popen
    conn: Connection
    heard: bool = False  # it has sent something (a worker that dies before that could not start)

    def alive(self) -> bool:
        return self.proc.poll() is None


@dataclass
class _Run:
    """One problem in flight: its events so far, the step in progress, its deadlines."""

    idx: int
    candidates: list[str]
    language: str
    config: SymEqConfig
    started: float = field(default_factory=time.monotonic)
    builder: ClusterBuilder = field(init=False)
    current: tuple | None = None  # ("parse", i, i) | ("pair", i, j) while that step runs
    last_event: float = field(default_factory=time.monotonic)
    run_started: float = field(default_factory=time.monotonic)
    seconds: float = 0.0  # time spent inside workers
    job_id: int = 0
    ready: bool = True  # False while its fresh worker is still importing (no step deadline then)
    suspects: set[int] = field(default_factory=set)  # candidates of a pair killed earlier in this problem
    retry_s: float = 0.0  # allowance of the clock retries the step in progress has started (the worker says)
    pid: int | None = None  # its worker's process id
    cpu_mark: float | None = None  # the worker's CPU time when the step in progress began (None: not known here)

    def __post_init__(self):
        self.builder = ClusterBuilder(len(self.candidates))

    def message(self) -> tuple:
        return (self.job_id, self.candidates, self.language, self.config, self.builder.resume)

    def mark(self) -> None:
        """A step begins now (an event came in): its clocks start."""
        self.last_event = time.monotonic()
        self.cpu_mark = _cpu_seconds(self.pid) if self.pid is not None else None

    def step_budget(self) -> float:
        step = self.config.step_budget_s + self.retry_s
        if self.current is not None and self.current[0] == "pair" and self.suspects.intersection(self.current[1:]):
            step = min(step, self.config.suspect_step_budget_s)
        return step

    def step_used(self, now: float) -> tuple[float, float | None]:
        """The step in progress so far: its wall time, and its worker's CPU time where the platform reports it."""
        cpu = _cpu_seconds(self.pid) if self.cpu_mark is not None else None
        return now - self.last_event, (None if cpu is None else cpu - self.cpu_mark)

    def left(self, now: float) -> float:
        """Seconds until the run may have to be stopped; <= 0: stop it now (see STEP_CLOCK)."""
        end = self.started + self.config.problem_budget_s - now
        if not self.ready:
            return end
        step = self.step_budget()
        wall = now - self.last_event
        if wall < step:  # neither clock can have run out: CPU time grows no faster than the wall clock (one thread)
            return min(end, step - wall)
        wall, cpu = self.step_used(now)
        if cpu is None or cpu >= step or cpu < STALLED_SHARE * wall:  # (None: no CPU clock, the wall clock ran out)
            return min(end, 0.0)
        return min(end, max(MIN_CHECK_S, min(step - cpu, 0.5)))  # look again as the CPU time could catch up

    def mark_suspects(self) -> None:
        """The step in progress is being killed: its candidates' later pairs get the shorter budget."""
        if self.current is not None and self.current[0] == "pair":
            self.suspects.update(self.current[1:])

    def apply(self, event: tuple) -> bool:
        """Fold one event in; True when the run is complete."""
        if event[0] == "retry":  # inside the step in progress: more time for it, the step goes on
            self.retry_s += event[1]
            return False
        self.mark()
        self.retry_s = 0.0
        if event[0] == "begin":
            self.current = event[1:]
            return False
        if event[0] == "done":
            self.seconds += event[1]
            return True
        self.current = None
        self.builder.add(event)
        return False

    def fail_current(self, why: str) -> bool:
        """Record the step in progress as undecided; False when no step was in progress."""
        if self.current is None:
            return False
        kind, i, j = self.current
        if kind == "parse":
            self.builder.fail_candidate(i, why)
        else:
            self.builder.record(PairResult(i, j, "unknown", detail=why))
        self.current = None
        return True

    def result(self, budget_exhausted: bool = False) -> SymEqResult:
        return self.builder.result(self.seconds, budget_exhausted)


class SymEqPool:
    """Worker processes for SymEq with a hard bound per step and per problem (see module doc)."""

    # what a worker process runs ({fd}: its end of the pipe, {parent}: this process's id)
    worker_code = "from atf.symeq.pool import worker_main; worker_main({fd}, {parent})"

    def __init__(self, workers: int = SymEqConfig.workers):
        if workers <= 0:
            raise ValueError(f"workers must be positive, got {workers}")
        self.workers = workers
        self._idle: list[_Worker] = []
        self._all: list[_Worker] = []
        self._lock = threading.Lock()
        self._next_job = 0
        self._closed = False
        self.started = 0  # worker processes started so far (reuse keeps it low)

    # ------------------------------------------------------------------------------------------- workers

    def _start(self) -> _Worker:
        # A fresh interpreter, not multiprocessing's spawn/forkserver: those re-import the caller's
        # __main__ in the child, which breaks scripts without a `__main__` guard.
        ours, theirs = socket.socketpair()
        code = self.worker_code.format(fd=theirs.fileno(), parent=os.getpid())
        proc = subprocess.Popen(
            [sys.executable, "-c", code],
            pass_fds=(theirs.fileno(),),
            stdin=subprocess.DEVNULL,
            env={**os.environ, "OMP_NUM_THREADS": "1"},
        )
        theirs.close()
        w = _Worker(proc, Connection(ours.detach()))
        self._all.append(w)
        self.started += 1
        return w

    def _take(self) -> _Worker:
        while self._idle:
            w = self._idle.pop()
            if w.alive():
                return w
            self._reap(w)  # died while idle (killed from outside): replaced
        return self._start()

    def _replace(self, w: _Worker) -> None:
        """Reap a killed or dead worker and keep a spare started, so that the next resumption does not wait
        for a fresh interpreter to import Z3 (seconds on a loaded machine)."""
        self._reap(w)
        if not self._closed and not any(x.alive() for x in self._idle):
            self._idle.append(self._start())

    def _reap(self, w: _Worker) -> None:
        if w.alive():
            w.proc.kill()
        w.proc.wait()
        w.conn.close()
        if w in self._all:
            self._all.remove(w)

    def pids(self) -> list[int]:
        """Process ids of the live workers (for tests and monitoring)."""
        return [w.proc.pid for w in self._all if w.alive()]

    def close(self) -> None:
        """Stop every worker and wait for it (no zombie is left)."""
        with self._lock:
            self._closed = True
            for w in list(self._all):
                try:
                    w.conn.send(None)
                except (OSError, BrokenPipeError):
                    pass
            for w in list(self._all):
                try:
                    w.proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    pass
                self._reap(w)
            self._idle.clear()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------------------------------- problems

    def cluster(
        self, candidates: Sequence[str], language: str, config: SymEqConfig | None = None, lean=None
    ) -> SymEqResult:
        """SymEq classes of one problem's candidates, within `config.problem_budget_s` (plus the time to
        kill a worker). `lean`: an optional `LeanEquivalence`, asked in this process afterwards about the
        pairs Z3 left undecided."""
        result = next(r for _, r in self.map([(candidates, language)], config))
        return lean_pass(result, list(candidates), lean) if lean is not None else result

    def map(self, jobs: Sequence[Job], config: SymEqConfig | None = None) -> Iterator[tuple[int, SymEqResult]]:
        """(index, result) for every job, as each finishes, `workers` problems at a time."""
        config = config or SymEqConfig(workers=self.workers)
        with self._lock:
            if self._closed:
                raise RuntimeError("the SymEq pool is closed")
            yield from self._map(jobs, config)

    def _map(self, jobs: Sequence[Job], config: SymEqConfig) -> Iterator[tuple[int, SymEqResult]]:
        queue = deque(enumerate(jobs))
        runs: dict[Connection, tuple[_Worker, _Run]] = {}

        def dispatch(run: _Run) -> None:
            w = self._take()
            self._next_job += 1
            run.job_id = self._next_job
            run.current, run.run_started, run.retry_s, run.pid = None, time.monotonic(), 0.0, w.proc.pid
            run.mark()
            run.ready = w.heard
            w.conn.send(run.message())
            runs[w.conn] = (w, run)

        try:
            while queue or runs:
                while queue and len(runs) < self.workers:
                    idx, (candidates, language) = queue.popleft()
                    if language not in ("lean", "isabelle"):
                        raise ValueError(f"language must be 'lean' or 'isabelle', got {language!r}")
                    run = _Run(idx, list(candidates), language, config)
                    if not run.candidates:
                        yield idx, run.result()
                        continue
                    dispatch(run)
                if not runs:
                    continue
                now = time.monotonic()
                timeout = max(0.0, min(r.left(now) for _, r in runs.values()))
                for conn in wait(list(runs), timeout):
                    w, run = runs[conn]
                    done, died = False, False
                    try:
                        while not done and conn.poll():
                            job_id, event = conn.recv()
                            w.heard = True
                            if job_id == 0:  # a fresh worker is ready
                                run.ready = True
                                run.mark()
                            elif job_id == run.job_id:
                                done = run.apply(event)
                    except (EOFError, OSError):
                        died = True
                    if done:
                        del runs[conn]
                        self._idle.append(w)
                        yield run.idx, run.result()
                    elif died:  # a crash inside Z3, or out of memory: that step is undecided
                        del runs[conn]
                        if not w.heard:
                            self._reap(w)
                            raise RuntimeError(
                                f"a SymEq worker exited at start (code {w.proc.returncode}); its error is on stderr"
                            )
                        run.seconds += time.monotonic() - run.run_started
                        self._replace(w)
                        log.warning("a SymEq worker died during %s", run.current)
                        if (
                            run.fail_current("the worker died on this step")
                            and time.monotonic() < run.started + config.problem_budget_s
                        ):
                            dispatch(run)
                        else:
                            yield run.idx, run.result(budget_exhausted=True)
                now = time.monotonic()
                for conn, (w, run) in list(runs.items()):
                    if run.left(now) > 0 or conn.poll():  # (what came in since `wait` is read first: a retry)
                        continue
                    wall, cpu = run.step_used(now)
                    del runs[conn]
                    self._replace(w)
                    run.seconds += now - run.run_started
                    out_of_budget = now >= run.started + config.problem_budget_s
                    why = f"killed after {wall:.1f} s" + ("" if cpu is None else f" ({cpu:.1f} s of CPU time)")
                    run.mark_suspects()
                    if not out_of_budget and run.fail_current(why):
                        dispatch(run)
                    else:
                        run.fail_current(f"{why} (problem budget {config.problem_budget_s:g} s)")
                        yield run.idx, run.result(budget_exhausted=True)
        finally:  # also when the caller stops early: nothing keeps running unobserved
            for w, _ in runs.values():
                self._reap(w)


def lean_pass(result: SymEqResult, candidates: list[str], lean) -> SymEqResult:
    """Ask Lean about the pairs Z3 left undecided between different classes (in this process)."""
    if lean is None or not getattr(lean, "available", False):
        return result
    uf = UnionFind(len(candidates))
    for c in result.classes:
        for x in c[1:]:
            uf.union(c[0], x)
    pairs = []
    for p in result.pairs:
        undecided = p.status == "unknown" or (p.status == "different" and not p.exact)
        if undecided and uf.find(p.i) != uf.find(p.j):
            verdict = lean.check(candidates[p.i], candidates[p.j], p.alignment or None)
            if verdict.status == "equivalent":
                uf.union(p.i, p.j)
                p = PairResult(p.i, p.j, "equivalent", "lean", p.alignment, seconds=p.seconds + verdict.seconds)
        pairs.append(p)
    classes = uf.classes()
    size = {x: len(c) for c in classes for x in c}
    k = len(candidates)
    return SymEqResult(
        classes,
        [size[i] / k for i in range(k)],
        result.statements,
        result.errors,
        pairs,
        result.seconds,
        result.vacuous,
        result.budget_exhausted,
    )


_shared: SymEqPool | None = None
_shared_lock = threading.Lock()


def shared_pool(workers: int = SymEqConfig.workers) -> SymEqPool:
    """The process-wide pool (`atf rerank`, the formalize reranker): started on first use, reused after,
    closed at exit. Asking for more workers than it has grows it."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared._closed:
            _shared = SymEqPool(workers)
            atexit.register(_shared.close)
        elif workers > _shared.workers:
            _shared.workers = workers
        return _shared
