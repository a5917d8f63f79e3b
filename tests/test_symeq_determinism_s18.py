"""SymEq's verdicts do not depend on the machine's load or on what the process decided before.

Two runs of Table 1 whose readings differ in one candidate of another problem put 10 of 888 problems into other
classes: Z3's budget per query was a wall-clock timeout (150 ms; the quick pass 15 ms), so a loaded machine decided
fewer pairs, and the problem's solver budget was counted on the clock too. And Z3's search depends on the terms its
context built before, so one worker's earlier problems could change a later problem's verdicts (on the clock, a second
run of the dev set in reverse order, beside two busy loops, put 6 of 397 problems into other classes:
`eval/symeq_rlimit_dev.py`). Now a query's budget is a Z3 resource limit (`SymEqConfig.rlimit_per_ms` units per nominal
ms), the budget counts the units consumed, and every problem starts a Z3 context of its own."""

import time

import pytest
import z3

from atf.data.isabelle import load_math_dev
from atf.symeq import smt
from atf.symeq.config import SymEqConfig
from atf.symeq.equivalence import PairCache, SymEq, fresh_z3_context

CANDIDATES = [
    'theorem\nfixes x y :: real\nassumes h0 : "x + y = 10" and h1 : "x - y = 2"\nshows "x = 6"',
    'theorem\nfixes a b :: real\nassumes h0 : "a - b = 2" and h1 : "b + a = 10"\nshows "6 = a"',
    'theorem\nfixes x y :: real\nassumes h0 : "x + y = 10" and h1 : "x - y = 2"\nshows "y = 4"',
    'theorem\nfixes x y :: real\nassumes h0 : "x + y = 10" and h1 : "x - y = 2"\nshows "x = 5"',
    'theorem\nfixes x y :: real\nassumes h0 : "x * y = 24" and h1 : "x ^ 3 + y ^ 3 = 280"\nshows "x + y = 10"',
]


def hard_query(tr: smt.Translator):
    a, b, c = z3.Reals("a b c")
    return z3.Implies(
        z3.And(a * a * a + b * b * b + c * c * c == 3 * a * b * c + 1, a * b * c > 7, a + b + c < 1), a > c
    )


def test_a_query_does_the_same_work_every_time():
    """The work is Z3's step count, not the clock: the same query in a fresh context costs the same units."""
    works, statuses = [], []
    for _ in range(3):
        fresh_z3_context()
        tr = smt.Translator("isabelle")
        v = smt.check_valid(tr, hard_query(tr), 150, [])
        works.append(v.work_ms)
        statuses.append(v.status)
    assert len(set(works)) == 1 and works[0] > 0
    assert len(set(statuses)) == 1


def test_the_budget_is_a_resource_limit():
    """A query past its steps stops as undecided, whatever the clock says; a budget large enough decides it.
    (A second of nominal time at a low rate: the wall-clock backstop, 3 s, is far.)"""
    tr = smt.Translator("isabelle")
    fresh_z3_context()
    full = smt.check_valid(tr, hard_query(tr), 10_000, [])
    steps = full.work_ms * SymEqConfig.rlimit_per_ms
    assert full.status != "unknown" and steps > 100
    fresh_z3_context()
    rate = max(1, int(steps / 4 / 1000))  # a quarter of the steps it needs, over 1000 nominal ms
    tiny = smt.check_valid(tr, hard_query(tr), 1000, [], rlimit_per_ms=rate)
    assert tiny.status == "unknown" and tiny.reason.startswith("step budget spent")  # (Z3 itself says "canceled")
    assert tiny.work_ms * rate <= steps / 4 * 1.5  # (Z3 checks its limit every few steps)


def dev_problem(name: str) -> list[str]:
    return [c.statement for p in load_math_dev() if p.id.endswith(name) for c in p.candidates]


@pytest.mark.integration  # 3-7 s: a fuzz sample or two dev problems through Z3
@pytest.mark.parametrize("name", ["1/algebra/problem_2106.json", "10/algebra/problem_1760.json"])
def test_the_clock_does_not_change_what_the_budget_counts(monkeypatch, name):
    """A machine under load: every reading of the clock comes 5 s after the last. The problem's solver budget
    (0.15 s of Z3 at the full timeout per problem) was counted on it, so it ran out at the first full query and
    the pairs the quick pass left open were not asked again. It counts Z3's work now: the same charges, the same
    classes. (Two MATH dev problems whose second pass asks Z3 again.)"""
    candidates = dev_problem(name)
    assert len(candidates) == 10
    # Z3's own timer is the machine's clock, which this test cannot fake: set its backstop far away, so a loaded
    # machine (a parallel test run) cannot cut a query and this test sees only what the faked clock changes
    monkeypatch.setattr(smt, "WALL_FACTOR", 1000)

    spent = PairCache.spent

    def run() -> tuple[list[float], list[list[int]]]:
        charges: list[float] = []
        monkeypatch.setattr(PairCache, "spent", lambda self, s: (charges.append(s), spent(self, s))[1])
        classes = sorted(map(sorted, SymEq("isabelle").cluster(candidates).classes))
        return charges, classes

    want_charges, want = run()
    real = time.perf_counter
    ticks = iter(range(10**9))
    monkeypatch.setattr(time, "perf_counter", lambda: real() + 5.0 * next(ticks))
    charges, classes = run()
    assert len(want_charges) > 1  # the second pass ran
    assert charges == want_charges and classes == want
    assert sum(charges) < 1.0  # nominal seconds of Z3 work, not the clock's 5 s steps


def test_every_problem_has_a_z3_context_of_its_own():
    before = z3.main_ctx()
    classes = SymEq("isabelle").cluster(CANDIDATES).classes
    assert z3.main_ctx() is not before
    assert sorted(map(sorted, classes)) == [[0, 1, 2], [3], [4]]


@pytest.mark.parametrize("rate", [0, SymEqConfig.rlimit_per_ms])
def test_both_budgets_decide_the_easy_pairs(rate):
    """rlimit_per_ms = 0 is the wall clock alone (what eval/symeq_rlimit_dev.py compares against)."""
    classes = SymEq("isabelle", config=SymEqConfig(rlimit_per_ms=rate)).cluster(CANDIDATES).classes
    assert sorted(map(sorted, classes)) == [[0, 1, 2], [3], [4]]


def test_the_rate_is_the_configs():
    """A tenth of the rate is a tenth of the units: a query that needs more stays undecided."""
    tr = smt.Translator("isabelle")
    fresh_z3_context()
    full = smt.check_valid(tr, hard_query(tr), 10_000, [])
    fresh_z3_context()
    assert smt.check_valid(tr, hard_query(tr), 10_000, [], rlimit_per_ms=1).status == "unknown"
    fresh_z3_context()
    again = smt.check_valid(tr, hard_query(tr), 10_000, [], rlimit_per_ms=SymEqConfig.rlimit_per_ms)
    assert again.status == full.status and again.work_ms == full.work_ms
    with pytest.raises(ValueError, match="rlimit_per_ms"):
        SymEqConfig(rlimit_per_ms=-1)


def test_a_pair_is_compared_in_a_context_of_its_own():
    before = z3.main_ctx()
    assert SymEq("isabelle").compare(CANDIDATES[0], CANDIDATES[1]).equivalent
    assert z3.main_ctx() is not before
