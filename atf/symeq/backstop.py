"""A backstop for one Z3 query counted in the CPU time of the thread that runs it, not on the wall clock.

A query's budget is Z3's step count (`smt.RLIMIT_PER_MS`); a backstop stops a query that consumes its steps slowly.
Z3's own `timeout` is a wall clock: on a busy machine a query gets a fraction of a core, so the same query was cut
under load and decided on a quiet machine, and Z3's search depends on what its context did before, so the queries
after it could change too (beside 3 busy loops on 2 cores, tests/test_symeq_determinism_s18.py's dev problems
charged other work in 2 of 3 runs; beside a parallel test run, a dev problem of tests/test_symeq_clock_s20.py fell
into other classes). The CPU time a thread has consumed does not grow while the thread waits for a core, so a
backstop counted in it cuts the same queries at any load.

`arm(ctx, seconds)` before `Solver.check` and `disarm(job)` after it: a watchdog thread (one per process) calls
`ctx.interrupt()` once the calling thread has consumed `seconds` of CPU time since `arm` (z3py calls Z3 through
ctypes, which releases the GIL, so the watchdog runs while Z3 searches; Z3 then answers unknown, reason
"interrupted" or "canceled"; an interrupt that comes just after Z3 answered is cleared by `disarm`). The watchdog
sleeps until the earliest deadline could have passed (CPU time grows no faster than the wall clock), so it costs a
few wake-ups per query, not a polling loop. Where the platform has no per-thread CPU clock
(`time.pthread_getcpuclockid` is Linux and a few BSDs), `AVAILABLE` is False and callers keep
Z3's wall-clock timeout."""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import Any

MIN_WAIT_S = 0.0005  # the watchdog's shortest sleep (a deadline is met within about this much CPU time)


def _thread_cpu_clock() -> int | None:
    """The calling thread's CPU-time clock id, or None where the platform has none."""
    try:
        clk = time.pthread_getcpuclockid(threading.get_ident())
        time.clock_gettime(clk)
    except (AttributeError, OSError):
        return None
    return clk


AVAILABLE = _thread_cpu_clock() is not None


@dataclass(eq=False)
class Job:
    """One armed query: the thread's clock, its deadline on that clock, the Z3 context to interrupt."""

    clock: int
    deadline: float
    ctx: Any
    fired: bool = False


class _Watchdog:
    def __init__(self) -> None:
        self._cv = threading.Condition()
        self._jobs: list[Job] = []
        self._thread: threading.Thread | None = None

    def arm(self, ctx: Any, seconds: float) -> Job:
        clk = _thread_cpu_clock()
        if clk is None:
            raise RuntimeError("this platform has no per-thread CPU clock (check backstop.AVAILABLE)")
        job = Job(clk, time.clock_gettime(clk) + max(0.0, seconds), ctx)
        with self._cv:
            self._jobs.append(job)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="atf-z3-backstop", daemon=True)
                self._thread.start()
            self._cv.notify()
        return job

    def disarm(self, job: Job) -> None:
        """After the query returned: the watchdog no longer interrupts it (`job.fired` says whether it did). If it
        fired, the context's interrupt is cleared (`_clear_interrupt`)."""
        with self._cv:
            if job in self._jobs:
                self._jobs.remove(job)
        if job.fired:
            _clear_interrupt(job.ctx)

    def _run(self) -> None:
        with self._cv:
            while True:
                if not self._jobs:
                    self._cv.wait()
                    continue
                wait = None
                for job in list(self._jobs):
                    try:
                        left = job.deadline - time.clock_gettime(job.clock)
                    except OSError:  # the thread is gone (it cannot be inside a check): drop its job
                        self._jobs.remove(job)
                        continue
                    if left <= 0:
                        job.fired = True
                        job.ctx.interrupt()  # under the lock: disarm cannot run between the test and this
                        self._jobs.remove(job)
                    else:
                        wait = left if wait is None else min(wait, left)
                if wait is not None:
                    self._cv.wait(timeout=max(MIN_WAIT_S, wait))

    def _after_fork_in_child(self) -> None:
        # the parent's watchdog thread does not exist in the child, and its lock may have been held at the fork
        self.__init__()


def _clear_interrupt(ctx: Any) -> None:
    """Clear an interrupt that Z3 keeps in `ctx` until its next check. A deadline can pass after Z3 answered and before
    `disarm` (a query that spends its step budget in about the backstop's CPU time). `ctx.interrupt()` on a context
    with no check running leaves its resource limit cancelled, so what came next in the problem failed or did nothing:
    a model evaluation raised "canceled" (a known counter-model was skipped and the solver asked instead), and
    `z3.simplify` returned its argument unsimplified. One FormalAlign problem's verdicts differed between identical
    runs in 5 of 60 (`eval/symeq_repeat.py`); without the watchdog, in none. Z3 resets the limit when a check
    starts (an interrupt during a check ends with it), so an empty check clears it (under a millisecond)."""
    import z3

    ref = ctx.ref()
    solver = z3.Z3_mk_simple_solver(ref)
    z3.Z3_solver_inc_ref(ref, solver)
    try:
        z3.Z3_solver_check(ref, solver)
    finally:
        z3.Z3_solver_dec_ref(ref, solver)


_WATCHDOG = _Watchdog()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_WATCHDOG._after_fork_in_child)


def arm(ctx: Any, seconds: float) -> Job:
    """Interrupt `ctx` once the calling thread has consumed `seconds` more CPU time (until `disarm`)."""
    return _WATCHDOG.arm(ctx, seconds)


def disarm(job: Job) -> None:
    _WATCHDOG.disarm(job)
