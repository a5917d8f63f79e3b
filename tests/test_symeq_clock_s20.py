"""Z3's wall-clock backstop no longer decides verdicts by the machine's load.

A query's budget is Z3's step count (`SymEqConfig.rlimit_per_ms`), with a wall-clock backstop at `smt.WALL_FACTOR`
times its nominal time for queries that consume their steps slowly. The backstop still decided: on Table 1's 888
problems 97 of 17,218 queries were cut by the clock on a quiet machine, and a miniF2F proof that took 0.42 s against
the 0.45 s backstop put three candidates into another class under load. Now a query the clock cut is asked once more
at `smt.RETRY_WALL_FACTOR` times its nominal time (within `SymEqConfig.clock_retry_s` per problem), and one cut again
charges its whole nominal time to the problem's solver budget. A busy machine is modelled here by a backstop far
shorter than the queries need (`smt.WALL_FACTOR`), as a machine N times slower is a backstop N times shorter."""

import importlib

import pytest
import z3

from atf.data.isabelle import load_math_dev
from atf.symeq import smt
from atf.symeq.config import SymEqConfig
from atf.symeq.equivalence import PairCache, SymEq, fresh_z3_context


def hard_query():
    """A query Z3 decides (valid) in about 725 ms of its step budget, about 0.25 s of CPU here: long enough that a 1 ms
    backstop cuts it at any load. (The cubic query these tests used first took about 40 ms; a watchdog thread that
    waited that long for a core under a parallel test run woke after Z3 had answered, and the "cut" try was not cut.)"""
    x, y, z = z3.Ints("x y z")
    return z3.Implies(z3.And(x > 0, y > 0, z > 0, x * x * x + y * y * y == z * z * z + 7, x < 60, y < 60), x + y > z)


def test_the_verdict_says_when_the_clock_cut_the_query():
    fresh_z3_context()
    tr = smt.Translator("isabelle")
    quiet = smt.check_valid(tr, hard_query(), 10_000, [])
    assert quiet.status != "unknown" and not quiet.clock
    fresh_z3_context()
    cut = smt.check_valid(tr, hard_query(), 10_000, [], wall_factor=1e-4)  # a 1 ms backstop, 10 M steps
    assert cut.status == "unknown" and cut.clock and cut.reason.startswith("backstop")
    assert cut.work_ms < 10_000
    fresh_z3_context()
    spent = smt.check_valid(tr, hard_query(), 1000, [], rlimit_per_ms=1, wall_factor=1000)  # 1000 steps, 1000 s
    assert spent.status == "unknown" and not spent.clock and spent.reason.startswith("step budget spent")


def test_a_query_the_clock_cut_is_asked_again_with_a_longer_backstop(monkeypatch):
    fresh_z3_context()
    tr = smt.Translator("isabelle")
    quiet = smt.check_valid(tr, hard_query(), 1000, [])
    monkeypatch.setattr(smt, "WALL_FACTOR", 1e-3)  # a 1 ms backstop: the first try is cut
    monkeypatch.setattr(smt, "RETRY_WALL_FACTOR", 100)  # the retry's: 100 s
    fresh_z3_context()
    cache = PairCache(clock_retry_s=1000)
    v = cache.solve(tr, hard_query(), 1000, [])
    # decided within its step budget, as on a quiet machine (the step count itself is not compared: the retry runs in
    # a Z3 context of its own, and with this nonlinear integer query Z3's count there also moved with how far the cut
    # try had gone, 724.8 quiet against 684.3 and 636.2 beside two busy loops)
    assert quiet.status == "valid" and v.status == "valid" and not v.clock and v.work_ms < 1000
    assert cache.clock_retry_left_s == pytest.approx(1000 - 100)


def test_a_query_cut_again_charges_its_whole_nominal_time(monkeypatch):
    """What the clock cut consumed some steps, how many depends on the load: the problem's budget counts all."""
    monkeypatch.setattr(smt, "WALL_FACTOR", 1e-4)
    monkeypatch.setattr(smt, "RETRY_WALL_FACTOR", 1e-4)
    tr = smt.Translator("isabelle")
    fresh_z3_context()
    cache = PairCache(clock_retry_s=1.0)
    v = cache.solve(tr, hard_query(), 10_000, [])
    assert v.status == "unknown" and v.clock and v.work_ms == 10_000
    assert cache.clock_retry_left_s == pytest.approx(1.0 - 1e-3)  # the retry at 1e-4 x 10 s was paid for
    fresh_z3_context()
    none_left = PairCache(clock_retry_s=0.0)
    v = none_left.solve(tr, hard_query(), 10_000, [])
    assert v.clock and v.work_ms == 10_000 and none_left.clock_retry_left_s == 0.0


def test_the_retry_allowance_is_rationed_per_problem(monkeypatch):
    monkeypatch.setattr(smt, "WALL_FACTOR", 1e-4)
    monkeypatch.setattr(smt, "RETRY_WALL_FACTOR", 1e-4)
    tr = smt.Translator("isabelle")
    cache = PairCache(clock_retry_s=2.5e-3)  # two retries of 1 ms each
    calls = []
    real = smt.check_valid
    module = importlib.import_module("atf.symeq.equivalence")  # (the package exports a function of that name)
    monkeypatch.setattr(module, "check_valid", lambda *a, **kw: calls.append(a[2]) or real(*a, **kw))
    for _ in range(4):
        fresh_z3_context()
        assert cache.solve(tr, hard_query(), 10_000, []).clock
    assert len(calls) == 4 + 2


def dev_problem(name: str) -> list[str]:
    return [c.statement for p in load_math_dev() if p.id.endswith(name) for c in p.candidates]


def classes(candidates: list[str], config: SymEqConfig) -> list[list[int]]:
    return sorted(map(sorted, SymEq("isabelle", config=config).cluster(candidates).classes))


# Since VERSION 62 (Isabelle type variables as uninterpreted sorts) problem 704 has a query that a quiet machine leaves
# undecided at its step budget in the problem's Z3 context, while a busy machine's retry, in a context of its own,
# decides it: quiet [[0, 3, 8], [6], ...], busy [[0, 3, 6, 8], ...] in one process, and the other way round in
# others (the search depends on the context's history). That is the history dependence issue 10 leaves open, not a
# clock effect, so the case is expected to fail until each query's verdict stops depending on its context.
HISTORY_DEPENDENT = pytest.mark.xfail(reason="704: a verdict that depends on the Z3 context's history", strict=False)


# The integration tier (one process): this test makes queries sit at the backstop (a sixth or a tenth of it), where
# the few percent that CPU time per Z3 step moves with what runs beside it (the default tier runs on every core)
# decides which queries are cut; a fresh-clone run with the default tier in parallel put candidate 6 of 704 into
# another class once. Real load is tested at the real backstop in tests/test_symeq_cpu_backstop_s24.py.
@pytest.mark.integration
@pytest.mark.parametrize(
    "name,slower",
    [pytest.param("5/algebra/problem_704.json", 6, marks=HISTORY_DEPENDENT), ("11/algebra/problem_301.json", 10)],
)
def test_a_busy_machine_gives_the_quiet_machines_classes(monkeypatch, name, slower):
    """A machine `slower` times slower for the first try of each query: its backstop that much shorter (the
    retry's kept). Queries are cut; asked again, each gets the quiet machine's verdict, and the classes are the
    quiet machine's. (Two dev problems whose classes changed under 8 busy loops on 2 cores.)"""
    candidates = dev_problem(name)
    assert len(candidates) == 10
    quiet = classes(candidates, SymEqConfig())
    monkeypatch.setattr(smt, "WALL_FACTOR", smt.WALL_FACTOR / slower)
    cut = []
    real = smt.check_valid
    module = importlib.import_module("atf.symeq.equivalence")
    monkeypatch.setattr(module, "check_valid", lambda *a, **kw: (v := real(*a, **kw), cut.append(v.clock))[0])
    assert classes(candidates, SymEqConfig(clock_retry_s=1000)) == quiet
    assert any(cut)  # (the clock did cut queries)


def test_a_query_asked_again_leaves_the_problems_context_as_it_was(monkeypatch):
    """Z3's search depends on the terms its context built before: the retry runs in a context of its own, so the
    queries after it see what they would have seen had the first try not been cut."""
    monkeypatch.setattr(smt, "WALL_FACTOR", 1e-4)
    fresh_z3_context()
    tr = smt.Translator("isabelle")
    main = z3.main_ctx()
    seen = []
    real_solver = z3.Solver
    monkeypatch.setattr(z3, "Solver", lambda *a, **kw: (s := real_solver(*a, **kw), seen.append(s.ctx))[0])
    PairCache(clock_retry_s=1000).solve(tr, hard_query(), 1000, [])
    assert len(seen) == 2 and seen[0] is main and seen[1] is not main


def test_the_setting_is_checked():
    with pytest.raises(ValueError, match="clock_retry_s"):
        SymEqConfig(clock_retry_s=-1)
