"""Work bounds inside one SymEq step: literal sums whose nesting multiplies their terms, and the pool's kill deadline
for a step that asks Z3 no query again."""

import re
import textwrap
import time

from atf.symeq import normalize
from atf.symeq.config import SymEqConfig
from atf.symeq.equivalence import parse
from atf.symeq.pool import SymEqPool

# ∑ j ∈ {0..2014}. ∑ k ∈ {0..j}. C(j, k): each sum is within MAX_LITERAL_SUM, together two million terms (18 s to
# add up before the budget; a MATH-400 candidate reads so and was killed at the step budget in every run)
NESTED = (
    'theorem fixes f :: "nat \\<Rightarrow> int" assumes h1 : "\\<forall> n. n \\<ge> 2015 \\<longrightarrow> '
    "f n = (\\<Sum> i \\<in> {0..n}. binomial n i) - (\\<Sum> j \\<in> {0..n-1}. \\<Sum> k \\<in> {0..j}. "
    'binomial j k)" shows "f 2015 = 1"'
)


def counted_simplify(monkeypatch) -> list[int]:
    calls = [0]
    inner = normalize.simplify

    def counting(t, system):
        calls[0] += 1
        return inner(t, system)

    monkeypatch.setattr(normalize, "simplify", counting)  # (simplify's recursion goes through the module name)
    return calls


def test_nested_literal_sums_stop_at_the_work_budget_and_stay_symbolic(monkeypatch):
    # (a tenth of the default budget keeps this test short; the default spends about 1.7 s here)
    monkeypatch.setattr(normalize, "MAX_LITERAL_WORK", normalize.MAX_LITERAL_WORK // 10)
    calls = counted_simplify(monkeypatch)
    st = parse(NESTED, "isabelle")
    assert calls[0] < 100_000  # two million terms, several calls each, without the budget
    shown = str(st)
    assert "sum j ∈ icc(0, 2014)" in shown and "sum k ∈ icc(0, j)" in shown  # as written, not a wrong number
    assert str(parse(NESTED, "isabelle")) == shown  # the budget counts work, not time: the same reading again
    # the budget is per statement, not per process: the next statement's sum is added up
    assert str(parse('theorem shows "(\\<Sum> k \\<in> {1..100::nat}. k) = 5050"', "isabelle")).endswith("⊢ True")


def test_a_double_sum_within_the_budget_is_still_added_up():
    # 29 even x below 60, each with the 58 y in 1..59 other than x: 29 * 58 pairs
    body = (
        'theorem fixes p :: nat assumes h0 : "p = (\\<Sum>x\\<in>{x::nat. 1 \\<le> x \\<and> x < 60 \\<and> '
        'x mod 2 = 0}. \\<Sum>y\\<in>{y::nat. 1 \\<le> y \\<and> y < 60 \\<and> y \\<noteq> x}. 1)" '
    )
    assert str(parse(body + 'shows "p = 29 * 58"', "isabelle")).endswith("⊢ True")
    assert str(parse(body + 'shows "p = 29 * 57"', "isabelle")).endswith("⊢ False")


# A worker whose pair steps on RETRY report a clock retry of 3 s (as PairCache.solve does before asking a query again
# with the longer backstop) and then take 1.5 s; steps on HANG never return, as a Z3 query past its own limits.
RETRY_WORKER = textwrap.dedent("""
    import sys, time
    import atf.symeq.equivalence
    e = sys.modules["atf.symeq.equivalence"]
    compare = e.SymEq.compare_statements
    def slow_compare(self, sa, sb, ta, tb, i, j, cache=None, *rest):
        if "HANG" in ta + tb:
            time.sleep(3600)
        if "RETRY" in ta + tb:
            cache.on_retry(3.0)
            time.sleep(1.5)
        return compare(self, sa, sb, ta, tb, i, j, cache, *rest)
    e.SymEq.compare_statements = slow_compare
    from atf.symeq.pool import worker_main
    worker_main({fd}, {parent})
""")


class RetryPool(SymEqPool):
    worker_code = RETRY_WORKER


CANDS = [
    "theorem a (x : ℕ) (h : x + 1 = 3) : x = 2 := by sorry",
    "theorem b (y : ℕ) (h : y + 1 = 3) : y = 2 := by sorry",
]


def test_a_hung_step_is_killed_at_the_step_budget_without_the_retry_allowance():
    # before: every step had clock_retry_s added, so a query Z3 never stops cost step + retry seconds
    cfg = SymEqConfig(step_budget_s=1.0, clock_retry_s=5.0, solver_budget_s=60.0, problem_budget_s=60)
    with RetryPool(1) as pool:
        pool.cluster(CANDS[:1], "lean")  # a started worker
        res = pool.cluster([*CANDS, "theorem HANG (z : ℕ) (h : z + 1 = 3) : z = 2 := by sorry"], "lean", cfg)
    killed = [p for p in res.pairs if "killed" in p.detail]
    assert killed and all(2 in (p.i, p.j) for p in killed)
    first = float(re.search(r"killed after ([\d.]+) s", killed[0].detail).group(1))
    assert 1.0 <= first < 3.0
    assert [0, 1] in res.classes


def test_a_step_that_reports_a_retry_gets_its_allowance():
    cfg = SymEqConfig(step_budget_s=1.0, clock_retry_s=5.0, solver_budget_s=60.0, problem_budget_s=60)
    with RetryPool(1) as pool:
        pool.cluster(CANDS[:1], "lean")
        t0 = time.monotonic()
        res = pool.cluster([*CANDS, "theorem RETRY (z : ℕ) (h : z + 1 = 3) : z = 2 := by sorry"], "lean", cfg)
        assert time.monotonic() - t0 >= 1.5
    assert not any("killed" in p.detail for p in res.pairs)  # 1.5 s against 1 s + the 3 s it reported
    assert res.classes == [[0, 1, 2]]
