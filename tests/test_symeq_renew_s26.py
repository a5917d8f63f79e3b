"""A query the backstop cut leaves the problem's Z3 context as the CPU clock left it: the problem goes on in a new one.

The cut search stops wherever the clock says, with the terms it made so far in the context, and those terms order
Z3's choices in the queries after it (term ids). miniF2F's mathd_numbertheory_234 has queries that Z3 cuts in every
run, each at another point: its classes differed between identical runs in 2 of 10 (`eval/symeq_repeat.py`). Now the
rest of the step (a pair, a vacuity check) in which the cut came runs each query in a context of its own, and the next
step starts a new context (`PairCache.renew`)."""

import pytest
import z3

from atf.symeq import backstop, smt
from atf.symeq.equivalence import PairCache, SymEq, equivalence, fresh_z3_context

pytestmark = pytest.mark.skipif(not backstop.AVAILABLE, reason="the backstop counts CPU time on Linux only")


def hard_query():
    a, b, c = z3.Reals("a b c")
    return z3.Implies(
        z3.And(a * a * a + b * b * b + c * c * c == 3 * a * b * c + 1, a * b * c > 7, a + b + c < 1), a > c
    )


def test_after_a_cut_the_step_runs_apart_and_the_next_step_in_a_new_context(monkeypatch):
    fresh_z3_context()
    first = z3.main_ctx()
    cache = PairCache(clock_retry_s=0)  # (no retry: the cut stands)
    tr = smt.Translator("isabelle")
    x = z3.Int("x")
    assert cache.solve(tr, x > 5, 100, ["x"]).status == "invalid" and len(cache.models) == 1
    cache.data[("z3", "prem", 0, ())] = "a translation in the first context"
    cache.data[("key", 0, ())] = "an alpha key"
    cache.renew()
    assert z3.main_ctx() is first  # nothing was cut: the same context
    monkeypatch.setattr(smt, "WALL_FACTOR", 1e-4)
    cut = cache.solve(tr, hard_query(), 1000, [])
    assert cut.clock and cache.tainted
    monkeypatch.setattr(smt, "WALL_FACTOR", 3)
    contexts = []
    real_solver = z3.Solver
    monkeypatch.setattr(z3, "Solver", lambda *a, **kw: (s := real_solver(*a, **kw), contexts.append(s.ctx))[0])
    assert cache.solve(tr, x * x >= 0, 100, []).status == "valid"
    assert contexts and all(c is not first for c in contexts)  # the rest of the step: a context of its own
    cache.renew()
    second = z3.main_ctx()
    assert second is not first and not cache.tainted
    assert cache.models[0].ctx is second and ("z3", "prem", 0, ()) not in cache.data
    assert cache.data[("key", 0, ())] == "an alpha key"
    # the counter-model carried over still refutes, in the new context, without the solver
    v = cache.solve(smt.Translator("isabelle"), z3.Int("x") > 7, 100, [])
    assert v.status == "invalid" and v.work_ms == 0.0 and z3.Int("x").ctx is second


def test_a_pair_after_a_cut_is_decided_in_a_new_context():
    sym = SymEq("lean")
    a = sym.parse("theorem a (x : ℕ) (h : x = 2) : x + 1 = 3 := by sorry")
    b = sym.parse("theorem b (y : ℕ) (h : y = 2) : y + 1 = 3 := by sorry")
    c = sym.parse("theorem c (y : ℕ) (h : y = 2) : y + 2 = 3 := by sorry")
    fresh_z3_context()
    first = z3.main_ctx()
    cache = PairCache()
    assert equivalence(a, c, cache=cache, i=0, j=2).status == "different"
    assert z3.main_ctx() is first
    cache.tainted = True  # as a cut leaves it
    res = equivalence(a, b, cache=cache, i=0, j=1)
    assert res.equivalent and z3.main_ctx() is not first and not cache.tainted
    assert equivalence(a, c, cache=cache, i=0, j=2).status == "different"
