"""Sums with symbolic bounds whose summand is a polynomial in the index (degree ≤ 3) get their closed form in the Z3
translation (atf/symeq/bigops.py), so `∑ i ∈ Finset.Icc 1 n, i = n * (n + 1) / 2` is a theorem and
`∑ i ∈ Finset.range n, (2 * i + 1)` is `n ^ 2`. Before, the sum was an uninterpreted function of the length with two
recursion facts, which prove no closed form. A summand that is no polynomial (ℕ division, ℕ subtraction that truncates
on the domain) gets none, and a wrong closed form stays apart from a true one."""

import pytest
import z3

from atf.symeq.bigops import _degree
from atf.symeq.equivalence import SymEq
from tests.isabelle_statements import isa
from tests.lean_statements import thm, verdict_tests

N = "(n : ℕ)"
T = thm(N, "True")

MERGE = [
    (thm(N, "∑ i ∈ Finset.range n, 1 = n"), T),
    (thm(N, "∑ i ∈ Finset.range n, 3 = 3 * n"), T),
    (thm(N, "∑ i ∈ Finset.Icc 1 n, i = n * (n + 1) / 2"), T),
    (thm(N, "∑ i ∈ Finset.range n, (2 * i + 1) = n ^ 2"), T),
    (thm(N, "∑ i ∈ Finset.Ioo 0 n, 1 = n - 1"), T),
    (thm(N, "∑ i ∈ Finset.range n, i ^ 2 = n * (n - 1) * (2 * n - 1) / 6"), T),
    (thm(N, "∑ i ∈ Finset.range (n + 1), i ^ 3 = (∑ i ∈ Finset.range (n + 1), i) ^ 2"), T),
    # a rational coefficient at ℝ: the summand `↑i / 2` is a polynomial there
    (thm(N, "(∑ i ∈ Finset.range n, (i : ℝ) / 2) = n * (n - 1) / 4"), T),
    (thm("(n : ℤ) (h : 0 < n)", "∑ i ∈ Finset.Icc 1 n, (2 * i - 1) = 100"), thm("(n : ℤ) (h : 0 < n)", "n ^ 2 = 100")),
    (thm(N, "∑ i ∈ Finset.range n, i = 10"), thm(N, "n = 5")),
    # ℕ subtraction that never truncates on the domain (`2 * i - 1` for i ≥ 1) is the polynomial branch
    (thm(N, "∑ i ∈ Finset.Icc 1 n, (2 * i - 1) = n ^ 2"), T),
    (thm(N, "∑ i ∈ Finset.range n, (2 * i + 1) = 100"), thm(N, "∑ i ∈ Finset.Icc 1 n, (2 * i - 1) = 100")),
    # an outer variable in the summand is a coefficient
    (thm("(n a : ℕ)", "∑ i ∈ Finset.range n, (a + i) = n * a + n * (n - 1) / 2"), thm("(n a : ℕ)", "True")),
]
APART = [
    (thm(N, "∑ i ∈ Finset.range n, i = n * (n + 1) / 2"), T),  # off by n
    (thm(N, "∑ i ∈ Finset.range n, i ^ 2 = n * (n + 1) * (2 * n + 1) / 6"), T),
    (thm(N, "∑ i ∈ Finset.range n, i = 10"), thm(N, "n = 4")),
    # ℕ division in the summand is no polynomial: 0 + 0 + 1 + 1 = 2 against 4 * 3 / 4 = 3 at n = 4
    (thm(N, "∑ i ∈ Finset.range n, i / 2 = n * (n - 1) / 4"), T),
    (thm(N, "∏ i ∈ Finset.range n, 2 = 2 * n"), T),
    # over `range n` the first summand `2 * 0 - 1` truncates to 0: 0 + 1 = 1, not 2 ^ 2, at n = 2
    (thm(N, "∑ i ∈ Finset.range n, (2 * i - 1) = n ^ 2"), T),
]


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


test_merge, test_apart = verdict_tests(MERGE, APART)


@pytest.mark.parametrize(
    "fixes,shows,same",
    [
        ("n :: nat", "(\\<Sum>i<n. 2 * i + 1) = n ^ 2", True),
        ("n :: nat", "(\\<Sum>i=1..n. i) * 2 = n * (n + 1)", True),
        ("n :: nat", "4 * (\\<Sum>i=1..n. i ^ 3) = (n * (n + 1)) ^ 2", True),
        ("n :: int", "(\\<Sum>i=1..n. i ^ 3) = (\\<Sum>i=1..n. i) ^ 2", True),
        # {1..n} of a negative int is empty: the sum is 0, the right side is not
        ("n :: int", "4 * (\\<Sum>i=1..n. i ^ 3) = (n * (n + 1)) ^ 2", False),
        ("n :: nat", "(\\<Sum>i<n. i) = n * (n + 1) div 2", False),
    ],
)
def test_isabelle_sums(fixes, shows, same):
    symeq = SymEq("isabelle", timeout_ms=2000)
    res = symeq.compare(isa(fixes, shows), isa(fixes, "True"))
    assert res.equivalent == same, res.describe()


def test_degree_of_a_summand():
    j, a = z3.Int("j"), z3.Int("a")
    assert _degree(j * j + 3 * j + a, j) == 2
    assert _degree((j + a) ** 3, j) == 3
    assert _degree(z3.ToReal(j) / 2, j) == 1
    assert _degree(a * a, j) == 0
    assert _degree(j / 2, j) is None  # integer division
    assert _degree(z3.If(j > 0, j, 0), j) is None  # ℕ subtraction
    assert _degree(z3.Function("f", z3.IntSort(), z3.IntSort())(j), j) is None
    # a condition on the index alone that holds at every j ≥ 0 picks its branch; one that does not, no polynomial
    assert _degree(z3.If(2 * j + 1 >= 0, 2 * j + 1, 0), j) == 1
    assert _degree(z3.If(j - 1 >= 0, j - 1, 0), j) is None
    # a condition free of the index: at each value of `a`, one branch
    assert _degree(z3.If(a > 0, j * j, j), j) == 2


def test_degree_reads_each_node_of_a_shared_term_once():
    # ℕ subtraction repeats its operands: `i - 1 - 1 - …` 40 deep is a DAG of about 200 nodes and a tree of 2^40
    j = z3.Int("j")
    t = j
    for _ in range(40):
        t = z3.If(t - 1 >= 0, t - 1, 0)
    memo: dict = {}
    assert _degree(t, j, memo) is None  # `j - 1` truncates at j = 0
    assert len(memo) <= 5 * 40 + 5


def test_a_summands_key_stays_short_on_a_shared_term():
    # the key of a sum's uninterpreted function is a digest of its summand's canonical text: a subterm whose text is
    # long stands as its own digest, so the text of a 16-deep DAG as above is short, not 2^16 times longer
    from atf.symeq.smt import _canonical

    j = z3.Int("j")
    t = j
    for _ in range(16):
        t = z3.If(t - 1 >= 0, t - 1, 0)
    assert len(_canonical(t)) < 10_000  # (2,883,541 characters before)
    # and the text still names the structure: the same term built apart has the same text, another one another
    u = j
    for _ in range(16):
        u = z3.If(u - 1 >= 0, u - 1, 0)
    assert _canonical(u) == _canonical(t) != _canonical(z3.If(t - 2 >= 0, t - 2, 0))
    assert _canonical(j + 1 + 2 * j) == _canonical(2 * j + (1 + j))  # (as before: + sorted)
