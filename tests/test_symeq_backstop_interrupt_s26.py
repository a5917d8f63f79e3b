"""An interrupt the backstop sends just after Z3 answered must not reach what the problem does next.

A query that spends its step budget in about the backstop's CPU time can answer, and then, before `disarm`, see its
deadline pass: the watchdog calls `ctx.interrupt()` on a context with no check running. Z3 keeps that interrupt in the
context's resource limit until the next check starts, and meanwhile a model evaluation raises "canceled" and
`z3.simplify` returns its argument as it is. SymEq reuses counter-models by evaluation, so a problem's later queries
went to the solver instead, and FormalAlign problem 122's verdicts differed between identical runs (5 of 60 in one
process; none with the watchdog off). Here the late interrupt is made to happen on every query."""

import time

import pytest
import z3

from atf.symeq import backstop, smt
from atf.symeq.equivalence import fresh_z3_context

pytestmark = pytest.mark.skipif(not backstop.AVAILABLE, reason="needs a per-thread CPU clock (Linux)")


def _wait_fired(job: backstop.Job) -> None:
    t0 = time.monotonic()
    while not job.fired and time.monotonic() - t0 < 10:
        time.sleep(0.001)
    assert job.fired


@pytest.fixture
def late_interrupt(monkeypatch):
    """Every armed query's deadline passes right after Z3 answered it and before `disarm` (the race, made certain)."""
    jobs: list[backstop.Job] = []
    real_arm, real_check = backstop.arm, z3.Solver.check

    def arm(ctx, seconds):
        job = real_arm(ctx, 3600.0)
        jobs.append(job)
        return job

    def check(self, *assumptions):
        r = real_check(self, *assumptions)
        if jobs and not jobs[-1].fired:
            job = jobs[-1]
            watchdog = backstop._WATCHDOG
            with watchdog._cv:
                job.deadline = time.clock_gettime(job.clock)
                watchdog._cv.notify()
            _wait_fired(job)
        return r

    monkeypatch.setattr(backstop, "arm", arm)
    monkeypatch.setattr(z3.Solver, "check", check)
    return jobs


def test_a_late_interrupt_is_cleared_by_disarm():
    fresh_z3_context()
    ctx = z3.main_ctx()
    x, y = z3.Ints("x y")
    s = z3.Solver()
    s.add(x * x + y > 3, y < 0)
    assert s.check() == z3.sat
    m = s.model()
    job = backstop.arm(ctx, 0.0)  # the deadline has passed: the watchdog interrupts a context that is not solving
    _wait_fired(job)
    backstop.disarm(job)
    assert z3.is_true(m.eval(x * x + y > 3, model_completion=True))
    assert str(z3.simplify(x + 1 + 2)) == "3 + x"


def test_a_counter_model_still_refutes_the_next_query_after_a_late_interrupt(late_interrupt):
    fresh_z3_context()
    x = z3.Int("x")
    tr = smt.Translator("isabelle")
    models: list = []
    first = smt.check_valid(tr, x > 5, 100.0, ["x"], models)
    assert first.status == "invalid" and late_interrupt[-1].fired and not first.clock and len(models) == 1
    # x <= 5 in that counter-model refutes x > 7 too: an evaluation answers, and the solver is not asked
    second = smt.check_valid(tr, x > 7, 100.0, ["x"], models)
    assert second.status == "invalid" and second.work_ms == 0.0 and len(late_interrupt) == 1
    third = smt.check_valid(tr, z3.Or(x > 7, x <= 7), 100.0, ["x"], models)
    assert third.status == "valid" and late_interrupt[-1].fired and len(late_interrupt) == 2
    assert str(z3.simplify(x + 1 + 2)) == "3 + x"


def test_a_late_interrupt_leaves_a_verdict_as_z3_gave_it(late_interrupt):
    """The query answered before the interrupt: its verdict is Z3's, not a backstop's cut."""
    fresh_z3_context()
    a, b, c = z3.Ints("a b c")
    tr = smt.Translator("isabelle")
    hard = z3.Not(z3.And(a * a * a + b * b * b == c * c * c, a > 0, b > 0, c > 0))
    v = smt.check_valid(tr, hard, 5.0, [])  # 5,000 steps: spent long before the 3,600 s deadline
    assert late_interrupt[-1].fired
    assert v.status == "unknown" and not v.clock and v.reason.startswith("step budget spent"), v
