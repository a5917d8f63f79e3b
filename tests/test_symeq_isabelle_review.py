"""Adversarial review of the Isabelle readings of session 8 (issue 10): List.thy ranges and comprehensions,
Groups_List.thy sums over lists, `distinct` / `sorted` / `set` of literal lists, application as Pure/HOL types it,
HOL's order on bool (Orderings.thy), partial applications of binary builtins and ill-typed propositions.

Near misses that differ in meaning under Isabelle/HOL must stay apart; rewrites that keep it must merge. The rest are
the false merges and ill-typed readings the review found, each with the test that failed before its fix."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.isabelle_statements import thm, unparsed
from tests.lean_statements import verdict_tests


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=2000)


SN = "s t :: nat"
SI = "s t :: int"
SXI = "s t x :: int"
NN = "s t n :: nat"


def eq_t(fixes: str, rhs: str) -> str:
    """`s = rhs ⟹ s = t`: a statement whose meaning is rhs's value."""
    return thm(fixes, [f"s = {rhs}"], "s = t")


# ---------------------------------------------------------------------------------------------------- List.thy ranges
# upt: `[i..<j]` is nat, excludes j (upt_rec); upto: `[i..j]` is int, includes j (upto.simps); both empty out of order
LIST_APART = [
    pytest.param(eq_t(SN, "sum_list [1..<5]"), eq_t(SN, "15"), id="upt-excludes-its-upper-bound"),
    pytest.param(eq_t(SN, "sum_list [5..<2]"), eq_t(SN, "sum_list [2..<5]"), id="upt-out-of-order-is-empty"),
    pytest.param(eq_t(SI, "sum_list [-3..2]"), eq_t(SI, "sum_list [-2..2]"), id="upto-negative-lower-bound"),
    pytest.param(eq_t(SN, "sum_list [x - 3. x <- [0..<5]]"), eq_t(SN, "0"), id="nat-subtraction-truncates-in-map"),
    pytest.param(eq_t(SXI, "sum_list [x. x <- [1..3]]"), eq_t(SXI, "3 * x"), id="comprehension-binds-its-variable"),
    pytest.param(
        eq_t("s t y :: int", "sum_list [x + y. x <- [1..3]]"), eq_t("s t y :: int", "6 + y"), id="free-name-in-map"
    ),
    pytest.param(
        eq_t(SXI, "sum_list [(\\<Sum>x\\<leftarrow>[1..2]. x * y). y <- [x, 2*x]]"),
        eq_t(SXI, "3 * x + 6 * x * x"),
        id="substitution-does-not-capture",
    ),
    pytest.param(
        eq_t(SXI, "sum_list [sum_list [x*y. y <- [1..2]]. x <- [1..3]]"), eq_t(SXI, "12"), id="nested-comprehension"
    ),
    pytest.param(eq_t(SN, "sum_list [1..<300]"), eq_t(SN, "44851"), id="range-past-the-unroll-limit"),
    pytest.param(eq_t(SI, "sum_list [-300..301]"), eq_t(SI, "0"), id="long-upto"),
    pytest.param(eq_t(SN, "sum_list [0..<256]"), eq_t(SN, "sum_list [0..<257]"), id="unroll-limit-boundary"),
    pytest.param(eq_t(SN, "sum_list [2*k. k <- [0..<1000]]"), eq_t(SN, "sum_list [k. k <- [0..<1000]]"), id="long-map"),
    pytest.param(eq_t(SN, "length [0..<1000]"), eq_t(SN, "999"), id="long-length"),
    pytest.param(eq_t(NN, "(\\<Sum>n\\<leftarrow>[0..<n]. 1)"), eq_t(NN, "n + 1"), id="bound-name-is-the-bound"),
    pytest.param(eq_t(NN, "sum_list [n. n <- [0..<n]]"), eq_t(NN, "sum_list [n. k <- [0..<n]]"), id="shadowed-bound"),
    pytest.param(
        eq_t("s t m :: int", "(\\<Sum>m\\<leftarrow>[1..m]. m)"),
        eq_t("s t m :: int", "(\\<Sum>k\\<leftarrow>[1..m]. m)"),
        id="shadowed-bound-upto",
    ),
    pytest.param(
        eq_t("s t :: real and n :: nat", "(\\<Sum>k\\<leftarrow>[0..<n]. 2^k)"),
        eq_t("s t :: real and n :: nat", "2^(n+1) - 1"),
        id="symbolic-upt-geometric",
    ),
    pytest.param(
        eq_t(SI, "sum_list (filter (%x. x > 0) [-5..5])"), eq_t(SI, "sum_list [-5..5]"), id="filter-is-not-the-list"
    ),
    pytest.param(
        # `[1,3..49]` is Haskell's, not Isabelle's: one opaque list, never `[1, 3]`
        eq_t(SI, "(\\<Sum>n\\<leftarrow>[1,3..9]. n)"),
        eq_t(SI, "4"),
        id="stepped-range-is-no-pair",
    ),
    pytest.param(
        eq_t('s t c :: int and xs :: "int list"', "sum_list [x + c. x <- xs]"),
        eq_t('s t c :: int and xs :: "int list"', "sum_list [x + 1. x <- xs]"),
        id="map-over-a-list-variable",
    ),
]
LIST_MERGE = [
    pytest.param(eq_t(SN, "sum_list [1..<5]"), eq_t(SN, "10"), id="upt"),
    pytest.param(eq_t(SI, "sum_list [-3..2]"), eq_t(SI, "-3"), id="upto-negative"),
    pytest.param(eq_t(SN, "length [-3..2]"), eq_t(SN, "6"), id="length-of-upto"),
    pytest.param(eq_t(SN, "sum_list [x - 3. x <- [0..<5]]"), eq_t(SN, "1"), id="nat-subtraction-in-map"),
    pytest.param(eq_t(SXI, "sum_list [x. x <- [1..3]]"), eq_t(SXI, "6"), id="bound-shadows-fixed"),
    pytest.param(eq_t(SXI, "sum_list [x. y <- [1..3]]"), eq_t(SXI, "3 * x"), id="constant-body"),
    pytest.param(
        eq_t(SXI, "sum_list [(\\<Sum>x\\<leftarrow>[1..2]. x * y). y <- [x, 2*x]]"), eq_t(SXI, "9 * x"), id="no-capture"
    ),
    pytest.param(eq_t(SXI, "(\\<Sum>x\\<leftarrow>[1..3]. x) + x"), eq_t(SXI, "6 + x"), id="sum-scope-ends-at-paren"),
    pytest.param(eq_t(SN, "sum_list [1..<300]"), eq_t(SN, "44850"), id="long-upt"),
    pytest.param(eq_t(SN, "sum_list [2*k. k <- [0..<1000]]"), eq_t(SN, "999000"), id="long-map"),
    pytest.param(
        eq_t(NN, "(\\<Sum>n\\<leftarrow>[0..<n]. n)"), eq_t(NN, "(\\<Sum>k\\<leftarrow>[0..<n]. k)"), id="alpha"
    ),
]

# List.thy: distinct.simps, sorted2 (sorted is ≤, not <), set_simps; HOL's ≤ on bool is ⟶
ABCD = "a b c d :: int"
LITERAL_APART = [
    pytest.param(thm(ABCD, ["distinct [a, b, a]"], "d = a"), thm(ABCD, [], "d = a"), id="distinct-with-a-duplicate"),
    pytest.param(
        thm(ABCD, ["sorted [a, b, c]"], "d = a"), thm(ABCD, ["a < b & b < c"], "d = a"), id="sorted-not-strict"
    ),
    pytest.param(
        thm(ABCD, ["sorted [a, b, c]"], "d = a"), thm(ABCD, ["a <= b & a <= c"], "d = a"), id="sorted-is-adjacent"
    ),
    pytest.param(thm(ABCD, ["c \\<in> set [a, b]"], "c = a"), thm(ABCD, ["c = a"], "c = a"), id="set-has-every-item"),
    pytest.param(
        thm("x :: real", ["sorted [x > 0, x > 1]"], "x > 5"),
        thm("x :: real", [], "x > 5"),
        id="sorted-bools-is-implication",
    ),
]
LITERAL_MERGE = [
    pytest.param(thm(ABCD, ["distinct [a, b, a]"], "d = a"), thm(ABCD, ["False"], "d = a"), id="duplicate-is-false"),
    pytest.param(thm(ABCD, ["sorted [a, b, a]"], "d = a"), thm(ABCD, ["a = b"], "d = a"), id="sorted-back-is-equal"),
    pytest.param(
        thm(ABCD, ["c \\<in> set [a, b, a]"], "d = a"), thm(ABCD, ["c = b | c = a"], "d = a"), id="set-of-a-duplicate"
    ),
    pytest.param(
        thm("x :: real", ["sorted [x > 0, x > 1]"], "x > 5"),
        thm("x :: real", ["x <= 0 | x > 1"], "x > 5"),
        id="sorted-bools",
    ),
]


# ---------------------------------------------------------------------------------------------------- HOL order on bool
# Orderings.thy, instantiation bool: le_bool_def `P ≤ Q ⟷ P ⟶ Q`, less_bool_def `P < Q ⟷ ¬P ∧ Q`; ≥ and > swap.
# (Variables P, Q alone would not do: a statement holds for all P and Q, and `P ⟶ Q`, `Q ⟶ P` are one up to renaming)
X = "x :: real"
BOOL_APART = [
    pytest.param(thm(X, [], "(x > 1) >= (x > 0)"), thm(X, [], "x > 1 --> x > 0"), id="ge-swaps"),
    pytest.param(thm(X, [], "(x > 1) > (x > 0)"), thm(X, [], "0 < x & x <= 1"), id="gt-swaps"),
    pytest.param(thm(X, [], "(x > 1) = (x > 0)"), thm(X, [], "(x > 1) <= (x > 0)"), id="le-is-no-iff"),
    pytest.param(thm(X, ["(x > 2) <= (x > 1)"], "x <= 1 | x > 2"), thm(X, [], "True"), id="le-premise-direction"),
    pytest.param(
        thm('P Q :: "real => bool"', [], "P <= Q"), thm('P Q :: "real => bool"', [], "P = Q"), id="pointwise-le-no-eq"
    ),
    pytest.param(
        thm('P Q :: "real => bool"', [], "P < Q"), thm('P Q :: "real => bool"', [], "P <= Q"), id="pointwise-lt-strict"
    ),
    pytest.param(thm("P Q :: bool", [], "max P Q"), thm("P Q :: bool", [], "P & Q"), id="max-on-bool-is-no-and"),
]
BOOL_MERGE = [
    pytest.param(thm(X, [], "(x > 1) >= (x > 0)"), thm(X, [], "x > 0 --> x > 1"), id="ge"),
    pytest.param(thm(X, [], "(x > 0) >= (x > 1)"), thm(X, [], "True"), id="ge-valid"),
    pytest.param(thm(X, [], "(x > 0) > (x > 1)"), thm(X, [], "0 < x & x <= 1"), id="gt"),
    pytest.param(thm(X, [], "(x > 1) < (x > 0)"), thm(X, [], "0 < x & x <= 1"), id="lt"),
    pytest.param(thm(X, ["Q >= (x > 0)"], "x > 0 --> Q"), thm(X, [], "True"), id="undeclared-bool"),
]


# ---------------------------------------------------------------------------------------------------- application
F2 = 'a b :: real and f :: "real => real => real" and g :: "real => real"'
APPLY_APART = [
    pytest.param(thm(F2, [], "(f a) b = 1"), thm(F2, [], "f (g a) b = 1"), id="curried-is-not-nested"),
    pytest.param(thm("x :: real", [], "f (a b) = 1"), thm("x :: real", [], "(f a) b = 1"), id="f-of-a-b"),
    pytest.param(thm("x :: real", [], "min a b c = 1"), thm("x :: real", [], "min a b = 1"), id="min-past-arity"),
    pytest.param(thm("x :: real", [], "(min a b) c = 1"), thm("x :: real", [], "min a b = 1"), id="min-applied"),
    pytest.param(thm("a b :: real", [], "log 2 = log b"), thm("a b :: real", [], "log 3 = log b"), id="partial-logs"),
    pytest.param(eq_t("s t :: int", "sum_list (map (min 3) [1, 5])"), eq_t("s t :: int", "6"), id="partial-min-mapped"),
    pytest.param(
        eq_t("s t :: real", "sum (log 2) {2, 4}"), eq_t("s t :: real", "log 2 2 + log 2 5"), id="partial-log-summed"
    ),
    pytest.param(thm("h :: real", [], "h 6 = 13"), thm("h :: real", [], "h * 6 = 13"), id="ill-typed-is-no-product"),
    pytest.param(
        thm("h k :: real", ["k > 0"], "h k = 13"), thm("h k :: real", ["k < 0"], "h k = 13"), id="ill-typed-premises"
    ),
    pytest.param(thm("h k :: real", ["h 6 = 13"], "k = 1"), thm("h k :: real", [], "k = 1"), id="ill-typed-premise"),
    pytest.param(thm(X, ["x > 0"], "x\\<^sup>3 = 8"), thm(X, ["x < 0"], "x\\<^sup>3 = 8"), id="cube-premises"),
]
APPLY_MERGE = [
    pytest.param(thm(F2, [], "(f a) b = 1"), thm(F2, [], "f a b = 1"), id="curried"),
    pytest.param(
        eq_t("s t :: real", "sum (log 2) {2, 4}"), eq_t("s t :: real", "log 2 2 + log 2 4"), id="sum-of-log-2"
    ),
    pytest.param(eq_t("s t :: int", "sum_list (map (min 3) [1, 5])"), eq_t("s t :: int", "4"), id="map-min-3"),
]


test_equivalent_variants_merge, test_near_misses_stay_apart = verdict_tests(
    [*LIST_MERGE, *LITERAL_MERGE, *BOOL_MERGE, *APPLY_MERGE], [*LIST_APART, *LITERAL_APART, *BOOL_APART, *APPLY_APART]
)


# ---------------------------------------------------------------------------------------------------- found and fixed
def test_an_ill_typed_proposition_is_over_the_variables_it_names_first(symeq):
    """`h g = 1` with h :: real is ill-typed and names g before any other proposition does; its opaque reading left g
    out, so the premise `g > 0` about g was projected away and the two statements merged (both ill-typed, but with
    premises that differ: the class of `sum S = -102`)."""
    a = thm("h :: real", ["h g = 1", "g > 0"], "h = 1")
    b = thm("h :: real", ["h g = 1"], "h = 1")
    assert unparsed(symeq, a)
    res = symeq.compare(a, b)
    assert not res.equivalent, res.describe()
    res = symeq.compare(a, thm("h :: real", ["h g = 1", "g < 0"], "h = 1"))
    assert not res.equivalent, res.describe()


def test_an_undeclared_number_applied_is_ill_typed(symeq):
    """`h = 3` types h a number; `h 2 = 6` then fails Isabelle's type inference (no numeral type is a function). It
    read as `3 2 = 6` with no note (the failed unification was ignored)."""
    assert unparsed(symeq, thm(X, ["h = 3"], "h 2 = 6"))
    assert unparsed(symeq, thm(X, [], "h = 3 & h 2 = 6"))
    assert not unparsed(symeq, thm(X, ["h 3 = 6"], "h 2 = 6"))  # a function, applied twice


@pytest.mark.parametrize(
    "rhs",
    [
        "sum_list [k = 2. k <- [1..4]]",
        "(\\<Sum>k\\<leftarrow>[1..4]. k = 2)",
        "sum_list [True, False]",
        "prod_list [k = 2. k <- [1..4]]",
    ],
)
def test_a_list_sum_of_truth_values_is_ill_typed(symeq, rhs):
    """Groups_List.thy: sum_list :: 'a::monoid_add list ⇒ 'a (prod_list: monoid_mult), which bool is not. The items of
    a literal list were added as truth values (`s ↔ False + True + False + False` with s :: nat)."""
    assert unparsed(symeq, thm(SN, [], f"s = {rhs}"))


def test_truth_values_among_numbers_are_ill_typed(symeq):
    """HOL has no coercion from bool (`of_bool` is written): `n = P + Q`, `n = P` read `P + Q` as a sum of bools."""
    for prop in ("n = P + Q", "n = P", "n < (x > 0)"):
        assert unparsed(symeq, thm("P Q :: bool and n :: nat and x :: real", [], prop))
    assert not unparsed(symeq, thm("P Q :: bool and n :: nat", [], "P = (n = 1)"))
    assert not unparsed(symeq, thm("P Q :: bool and n :: nat", [], "n = of_bool P + of_bool Q"))


def test_a_range_bound_of_a_wider_type_is_ill_typed(symeq):
    """List.thy: upt :: nat ⇒ nat ⇒ nat list, upto :: int ⇒ int ⇒ int list, and Isabelle coerces only upwards. With
    n :: int, `sum_list [0..<n]` read as the sum over {0..<n} with n cast to nat and merged with the well-typed
    `∑k = 0..<nat n. k`; `-2` on nat is no term either."""
    fixes = "n :: int and s t :: nat"
    a = thm(fixes, ["s = sum_list [0..<n]"], "s = t")
    assert unparsed(symeq, a)
    res = symeq.compare(a, thm(fixes, ["s = (\\<Sum>k = 0..<nat n. k)"], "s = t"))
    assert not res.equivalent, res.describe()
    assert unparsed(symeq, thm(SN, [], "s = sum_list [-2..<3]"))
    assert unparsed(symeq, thm("x :: real and s :: int", [], "s = sum_list [1..x]"))
    # nat to int is a coercion (Int.thy: of_nat), so `[1..n]` with n :: nat is `[1..int n]`
    fixes = "n :: nat and s t :: int"
    a = thm(fixes, ["s = sum_list [1..n]"], "s = t")
    assert not unparsed(symeq, a)
    res = symeq.compare(a, thm(fixes, ["s = (\\<Sum>k = 1..int n. k)"], "s = t"))
    assert res.equivalent, res.describe()
