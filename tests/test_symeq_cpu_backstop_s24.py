"""The backstop of a Z3 query counts the CPU time of the thread that runs it (`atf.symeq.backstop`), so a busy
machine cuts no query a quiet one decides.

A query's budget is Z3's step count; the backstop stops one that consumes its steps slowly. It was Z3's wall-clock
timeout: with the query's core shared by other processes, a query the quiet machine decides was cut, and asked again
in a context of its own, where Z3 searches differently (beside 3 busy loops on 2 cores, the dev problems of
tests/test_symeq_determinism_s18.py charged other work in 2 of 3 runs; beside a parallel test run, a dev problem of
tests/test_symeq_clock_s20.py fell into other classes). Here the load is real: busy processes pinned to the core the
query runs on."""

import multiprocessing as mp
import os
import threading
import time

import pytest
import z3

from atf.symeq import backstop, smt
from atf.symeq.equivalence import fresh_z3_context

pytestmark = pytest.mark.skipif(
    not backstop.AVAILABLE or not hasattr(os, "sched_setaffinity"), reason="needs a per-thread CPU clock (Linux)"
)


def slow_query() -> z3.BoolRef:
    """Satisfiable; Z3's nlsat needs about 0.09 s of CPU for it on this machine (valid: the negation is asked)."""
    xs = z3.Reals("x0 x1 x2 x3 x4")
    body = [x * x * x - 2 * x + 1 >= 0 for x in xs]
    body += [z3.Sum(xs) == 1, z3.Sum([x * y for x, y in zip(xs, xs[1:])]) > 0.3]
    return z3.Not(z3.And(*body))


def never_decided() -> z3.BoolRef:
    a, b, c = z3.Ints("a b c")
    return z3.Not(z3.And(a * a * a + b * b * b == c * c * c, a > 0, b > 0, c > 0))


def ask(formula, backstop_ms: float) -> tuple[smt.Verdict, float]:
    """The query with a step budget it cannot reach and a backstop of backstop_ms; the verdict and its wall time."""
    tr = smt.Translator("isabelle")
    t0 = time.perf_counter()
    v = smt.check_valid(tr, formula, 100.0, [], rlimit_per_ms=10**7, wall_factor=backstop_ms / 100.0)
    return v, time.perf_counter() - t0


def test_a_query_the_quiet_machine_decides_is_decided_with_its_core_shared(busy_core):
    cpu = []
    for _ in range(3):
        fresh_z3_context()
        c0 = time.thread_time()
        v, _ = ask(slow_query(), 60_000)
        cpu.append(time.thread_time() - c0)
        assert v.status == "invalid"
    # The backstop is 3 times the slowest of three quiet runs. The same steps cost more CPU time on a shared core
    # (each switch to a busy loop evicts the query's caches): at 1.5 times, a CI run beside a parallel test worker
    # cut the query after 179 ms of CPU time against a quiet 120 ms. Beside 8 busy loops the thread gets about 1/9
    # of the core, so the wall clock still passes 3 times the CPU time the query needs.
    need_s = max(cpu)
    before = os.sched_getaffinity(0)
    core = min(before)
    with busy_core(8, core):
        os.sched_setaffinity(0, {core})  # this thread (Linux: pid 0 is the calling thread) shares the core with 8
        try:
            fresh_z3_context()
            v, wall_s = ask(slow_query(), 3 * need_s * 1000)
        finally:
            os.sched_setaffinity(0, before)
    # the wall clock passed the backstop (a wall-clock backstop cut this query); the CPU time did not
    assert wall_s > 3 * need_s, (wall_s, need_s)
    assert v.status == "invalid" and not v.clock, v


def test_a_query_past_its_cpu_time_is_cut_and_says_so():
    fresh_z3_context()
    c0 = time.thread_time()
    v, wall_s = ask(never_decided(), 50)
    used = time.thread_time() - c0
    assert v.status == "unknown" and v.clock and v.reason.startswith("backstop (50 ms of CPU time)")
    assert 0.05 <= used < 1.0 and wall_s < 2.0


def test_each_thread_is_cut_at_its_own_deadline():
    """Two threads' queries at once, each in a context of its own: each is interrupted by its own CPU time."""
    out: dict[str, tuple] = {}

    def run(name: str, ms: float) -> None:
        ctx = z3.Context()
        a, b, c = z3.Ints("a b c", ctx)
        s = z3.Solver(ctx=ctx)
        s.add(a * a * a + b * b * b == c * c * c, a > 0, b > 0, c > 0)
        c0 = time.thread_time()
        job = backstop.arm(ctx, ms / 1000)
        try:
            r = s.check()
        finally:
            backstop.disarm(job)
        out[name] = (r, job.fired, time.thread_time() - c0)

    threads = [threading.Thread(target=run, args=(n, ms)) for n, ms in (("short", 30), ("long", 300))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert out["short"][:2] == (z3.unknown, True) and out["long"][:2] == (z3.unknown, True)
    assert 0.03 <= out["short"][2] < 0.25 <= 0.3 <= out["long"][2] < 1.5, out


def test_a_disarmed_query_is_not_interrupted_later():
    fresh_z3_context()
    ctx = z3.main_ctx()
    job = backstop.arm(ctx, 0.01)
    backstop.disarm(job)
    t0 = time.thread_time()
    while time.thread_time() - t0 < 0.05:  # spend the deadline's CPU time after the disarm
        pass
    v, _ = ask(slow_query(), 60_000)
    assert not job.fired and v.status == "invalid"


def _cut_in_child(q) -> None:
    fresh_z3_context()
    v, wall_s = ask(never_decided(), 40)
    q.put((v.status, v.clock, wall_s))


def test_a_forked_worker_has_a_backstop_of_its_own():
    """Pool workers are forked: the parent's watchdog thread (and its lock) do not survive a fork."""
    fresh_z3_context()
    ask(never_decided(), 20)  # the parent's watchdog is running
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_cut_in_child, args=(q,))
    p.start()
    try:
        status, clock, wall_s = q.get(timeout=20)
    finally:
        p.join(5)
        if p.is_alive():
            p.kill()
    assert status == "unknown" and clock and wall_s < 5
