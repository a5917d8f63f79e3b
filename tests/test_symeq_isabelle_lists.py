"""Isabelle list constructs SymEq reads (issue 10, found on the MATH dev set): ranges `[i..<j]` (List.thy: upt, nat)
and `[i..j]` (upto, int), the comprehension `[e. x ← xs]` (map), `∑x←xs. b` / `∏x←xs. b` (Groups_List.thy: sum_list
and prod_list of a map), `length`, `distinct`, `sorted` and `set` of them, and Groups_Big.thy's `∑x | P. t`
(`sum (λx. t) {x. P}`). Literal ranges unfold into their items; a sum or product over a symbolic range is the sum
over the interval. Rewrites that keep the meaning must merge, near misses that change it must stay apart."""

import pytest

from atf.symeq.elaborate import elaborate
from atf.symeq.equivalence import SymEq
from atf.symeq.isabelle_frontend import parse_statement, parse_term
from atf.symeq.normalize import standardize
from tests.isabelle_statements import thm
from tests.lean_statements import verdict_tests


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


def _st(text: str):
    return standardize(elaborate(parse_statement(text)))


S_INT = "s t :: int"
S_NAT = "s t :: nat"
F_NAT = 'n :: nat and f :: "nat => real" and s t :: real'
G_INT = 'm :: int and g :: "int => int" and s t :: int'

MERGE = [
    pytest.param(
        thm(S_INT, ["s = sum_list [x. x <- [-30..26]]"], "s = t"),
        thm(S_INT, ["s = -114"], "s = t"),
        id="comprehension-over-int-range",
    ),
    pytest.param(
        thm(S_INT, ["s = sum_list [k^2. k \\<leftarrow> [1..4]]"], "s = t"),
        thm(S_INT, ["s = 1 + 4 + 9 + 16"], "s = t"),
        id="comprehension-symbol-arrow",
    ),
    pytest.param(
        thm(S_INT, ["s = (\\<Sum>k\\<leftarrow>[1..4]. k^2)"], "s = t"),
        thm(S_INT, ["s = 30"], "s = t"),
        id="sum-over-list-literal-range",
    ),
    pytest.param(
        thm(S_NAT, ["s = sum_list [0..<5]"], "s = t"),
        thm(S_NAT, ["s = 0 + 1 + 2 + 3 + 4"], "s = t"),
        id="upt-excludes-upper-bound",
    ),
    pytest.param(
        thm(S_NAT, ["s = prod_list [1..<6]"], "s = t"),
        thm(S_NAT, ["s = 120"], "s = t"),
        id="prod-list-of-upt",
    ),
    pytest.param(
        thm(S_NAT, ["s = length [3..<10]"], "s = t"),
        thm(S_NAT, ["s = 7"], "s = t"),
        id="length-of-upt",
    ),
    pytest.param(
        thm(S_INT, ["s = sum_list (map (\\<lambda>k. 2 * k) [1..3])"], "s = t"),
        thm(S_INT, ["s = 12"], "s = t"),
        id="map-over-range",
    ),
    pytest.param(
        thm(S_INT, ["s = sum_list [x. x <- [5..2]]"], "s = t"),
        thm(S_INT, ["s = 0"], "s = t"),
        id="empty-upto",
    ),
    pytest.param(
        thm(F_NAT, ["s = (\\<Sum>k\\<leftarrow>[0..<n]. f k)"], "s = t"),
        thm(F_NAT, ["s = (\\<Sum>k = 0..<n. f k)"], "s = t"),
        id="sum-over-symbolic-upt-is-interval-sum",
    ),
    pytest.param(
        thm(G_INT, ["s = sum_list [g k. k <- [1..m]]"], "s = t"),
        thm(G_INT, ["s = (\\<Sum>k = 1..m. g k)"], "s = t"),
        id="sum-over-symbolic-upto-is-interval-sum",
    ),
    pytest.param(
        thm(S_INT, ["s = (\\<Sum>x | x \\<in> {1..10::int} \\<and> 3 dvd x. x)"], "s = t"),
        thm(S_INT, ["s = 3 + 6 + 9"], "s = t"),
        id="sum-over-set-comprehension",
    ),
]

# `distinct`, `sorted` and `set` of a literal list say what List.thy's equations say of the items
ABCD = "a b c d :: int"
LITERAL_MERGE = [
    pytest.param(
        thm(ABCD, ["distinct [a, b, c]"], "d = a"),
        thm(ABCD, ["a ~= b & a ~= c & b ~= c"], "d = a"),
        id="distinct-literal",
    ),
    pytest.param(
        thm(ABCD, ["sorted [a, b, c]"], "d = a"),
        thm(ABCD, ["a <= b & b <= c"], "d = a"),
        id="sorted-literal",
    ),
    pytest.param(
        thm(ABCD, ["c \\<in> set [a, b]"], "d = a"),
        thm(ABCD, ["c = a | c = b"], "d = a"),
        id="set-of-literal",
    ),
]

LITERAL_APART = [
    pytest.param(
        thm(ABCD, ["distinct [a, b, c]"], "d = a"),
        thm(ABCD, ["a ~= b & b ~= c"], "d = a"),
        id="distinct-is-pairwise",
    ),
    pytest.param(
        thm(ABCD, ["sorted [a, b, c]"], "d = a"),
        thm(ABCD, ["a < b & b < c"], "d = a"),
        id="sorted-is-not-strict",
    ),
]

APART = [
    pytest.param(
        thm(S_NAT, ["s = sum_list [k^2. k <- [1..<4]]"], "s = t"),
        thm(S_NAT, ["s = 1 + 4 + 9 + 16"], "s = t"),
        id="upt-is-not-upto",
    ),
    pytest.param(
        thm(S_NAT, ["s = length [3..10]"], "s = t"),
        thm(S_NAT, ["s = length [3..<10]"], "s = t"),
        id="length-upto-vs-upt",
    ),
    pytest.param(
        thm(F_NAT, ["s = (\\<Sum>k\\<leftarrow>[1..<n]. f k)"], "s = t"),
        thm(F_NAT, ["s = (\\<Sum>k = 0..<n. f k)"], "s = t"),
        id="symbolic-range-lower-bound",
    ),
    pytest.param(
        thm(G_INT, ["s = sum_list [g k. k <- [1..m]]"], "s = t"),
        thm(G_INT, ["s = (\\<Sum>k = 1..<m. g k)"], "s = t"),
        id="upto-includes-upper-bound",
    ),
    pytest.param(
        thm(S_INT, ["s = (\\<Prod>k\\<leftarrow>[1..4]. k)"], "s = t"),
        thm(S_INT, ["s = (\\<Sum>k\\<leftarrow>[1..4]. k)"], "s = t"),
        id="prod-is-not-sum",
    ),
    pytest.param(
        # a guard is not read: the comprehension stays opaque, never the unguarded list
        thm(S_INT, ["s = sum_list [x. x <- [1..4], x > 1]"], "s = t"),
        thm(S_INT, ["s = sum_list [x. x <- [1..4]]"], "s = t"),
        id="guarded-comprehension-is-not-the-list",
    ),
    pytest.param(
        thm(S_INT, ["s = (\\<Sum>x | x \\<in> {1..10::int} \\<and> 3 dvd x. x)"], "s = t"),
        thm(S_INT, ["s = (\\<Sum>x | x \\<in> {1..10::int} \\<and> 2 dvd x. x)"], "s = t"),
        id="set-comprehension-condition",
    ),
    pytest.param(
        # a theorem's own `upto` is not List.thy's
        thm('s t :: int and upto :: "int => int => int list"', ["s = sum_list (upto 1 3)"], "s = t"),
        thm(S_INT, ["s = sum_list [1..3]"], "s = t"),
        id="fixed-upto-is-a-variable",
    ),
]


test_list_variants_merge, test_list_near_misses_stay_apart = verdict_tests(
    [*MERGE, *LITERAL_MERGE], [*APART, *LITERAL_APART]
)


def test_literal_ranges_unfold_into_their_items():
    st = _st(thm(S_INT, [], "sum_list [x. x <- [-30..26]] = -114"))
    assert not st.opaque and st.conclusion.op == "true"
    st = _st(thm(S_NAT, [], "length [2..<2] = 0 & sum_list [5-7+3..<4] = 3"))  # nat: 5 - 7 = 0
    assert not st.opaque and st.conclusion.op == "true"


def test_a_long_range_is_not_unfolded():
    st = _st(thm('s :: int and xs :: "int list"', [], "[x. x <- [1..100000]] = xs"))
    assert len(str(st.conclusion)) < 200  # map of upto, unknown constants
    st = _st(thm(S_INT, [], "sum_list [1..100000] = s"))  # the sum over the interval {1..100000}
    assert not st.opaque and st.conclusion.args[0].kind == "sum"


def test_ascii_less_minus_is_still_less_than_a_negation():
    assert str(parse_term("x<-1")) == str(parse_term("x < -1"))


def test_a_sum_of_truth_values_is_ill_typed():
    # `∑x | P. x = c` reads `sum (λx. x = c) {x. P}` (the body extends to the right): bool is no comm_monoid_add,
    # so Isabelle rejects it; never the sum of the indicators, nor `(∑x | P. x) = c`
    for shows in ("\\<Sum> x | x < 3 & 0 < x. x = 3", "\\<Sum>x\\<in>{1, 2}. x = 1"):
        st = _st(thm("x :: nat", [], shows))
        assert any(n.startswith("unparsed proposition") for n in st.opaque), st.conclusion
