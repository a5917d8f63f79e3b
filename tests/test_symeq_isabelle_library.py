"""Isabelle constructs SymEq models exactly (issue 10, found on the MATH dev set), one section per class: rewrites
that keep the meaning must merge, near misses that change it must stay apart."""

import pytest

from atf.symeq.elaborate import elaborate
from atf.symeq.equivalence import SymEq
from atf.symeq.isabelle_frontend import parse_statement
from atf.symeq.normalize import standardize
from tests.isabelle_statements import thm


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


# ---------------------------------------- cases
# Functions given by cases (`∀x. x < -3 ⟶ f x = 3 * x + 5` and `∀x. x ≥ -3 ⟶ f x = 7 - 4 * x`), found on the MATH
# dev set: the premises hold exactly for `f = (λx. if x < -3 then 3 * x + 5 else ... f₀ x)` with f₀ any function,
# provided the pieces agree where guards overlap. Also functions defined on pairs by a pattern (`∀x1 y1 x2 y2.
# midpoint (x1, y1) (x2, y2) = ...`), and pair-valued definitions. Rewrites that keep the meaning must merge, near
# misses stay apart.

F = 'f :: "real => real"'
ITE = "ALL x. f x = (if x < -3 then 3 * x + 5 else 7 - 4 * x)"

CASES_MERGE = [
    pytest.param(
        thm(F, ["ALL x. x < -3 --> f x = 3 * x + 5", "ALL x. x >= -3 --> f x = 7 - 4 * x"], "f 5 = -13"),
        thm(F, [ITE], "f 5 = -13"),
        id="two-cases-and-if",
    ),
    pytest.param(
        thm(F, ["ALL x. x < -3 --> f x = 3 * x + 5", "ALL x. x >= -3 --> f x = 7 - 4 * x"], "f (-3) = 19"),
        thm(F, [ITE], "f (-3) = 19"),
        id="at-the-boundary",
    ),
    pytest.param(
        # overlapping guards that agree at x = 3 (9 - 2 * 3 = 3)
        thm(F, ["ALL x. x <= 3 --> f x = 9 - 2 * x", "ALL x. x >= 3 --> f x = x"], "f 5 = 5"),
        thm(F, ["ALL x. f x = (if x <= 3 then 9 - 2 * x else x)"], "f 5 = 5"),
        id="overlap-that-agrees",
    ),
    pytest.param(
        thm(
            F,
            ["ALL x. x < -2 --> f x = 1", "ALL x. -2 <= x & x <= 2 --> f x = x", "ALL x. x > 2 --> f x = 3"],
            "f 0 + f 3 = 3",
        ),
        thm(F, ["ALL x. f x = (if x < -2 then 1 else if x <= 2 then x else 3)"], "f 0 + f 3 = 3"),
        id="three-cases",
    ),
    pytest.param(
        # a partial definition (undefined at 0) used only where it is defined
        thm(F, ["ALL x. x ~= 0 --> f x = 1 / x"], "f 2 + f 4 = 3 / 4"),
        thm(F, ["ALL x. f x = 1 / x"], "f 2 + f 4 = 3 / 4"),
        id="partial-definition",
    ),
    pytest.param(
        thm('f :: "nat => nat"', ["ALL n. n >= 1 & n <= 12 --> f n = n"], "(SUM n=1..12. f n) = 78"),
        thm("n :: nat", ["n = 12"], "sum (%i. i) {1..n} = 78"),
        id="defined-on-the-summed-range",
    ),
    pytest.param(
        thm(
            'log :: "real => real => real"',
            ["ALL a x. a > 0 & a ~= 1 & x > 0 --> log a x = ln x / ln a"],
            "log 2 (8 * sqrt 2) = 7 / 2",
        ),
        thm('log :: "real => real => real"', ["ALL a b. log a b = ln b / ln a"], "log 2 (8 * sqrt 2) = 7 / 2"),
        id="two-arguments",
    ),
    pytest.param(
        thm('f :: "int => int"', ["ALL n. n <= 2 --> f n = 1", "ALL n. n >= 3 --> f n = 2"], "f 3 = 2"),
        thm('f :: "int => int"', ["ALL n. f n = (if n <= 2 then 1 else 2)"], "f 3 = 2"),
        id="integer-cases-cover",
    ),
]

CASES_APART = [
    pytest.param(
        # at -3 the first takes the second piece (19), the second the first (-4)
        thm(F, ["ALL x. x < -3 --> f x = 3 * x + 5", "ALL x. x >= -3 --> f x = 7 - 4 * x"], "f (-3) = 19"),
        thm(F, ["ALL x. f x = (if x <= -3 then 3 * x + 5 else 7 - 4 * x)"], "f (-3) = 19"),
        id="boundary-on-the-other-side",
    ),
    pytest.param(
        # pieces that disagree at 3 (3 and 4): no such f, the first is vacuous
        thm(F, ["ALL x. x <= 3 --> f x = 9 - 2 * x", "ALL x. x >= 3 --> f x = x + 1"], "f 5 = 6"),
        thm(F, ["ALL x. f x = (if x <= 3 then 9 - 2 * x else x + 1)"], "f 5 = 6"),
        id="overlap-that-disagrees",
    ),
    pytest.param(
        # f 0 is not given by either piece
        thm(F, ["ALL x. x < 0 --> f x = 1", "ALL x. x > 0 --> f x = 2"], "f 0 = 2"),
        thm(F, ["ALL x. f x = (if x < 0 then 1 else 2)"], "f 0 = 2"),
        id="gap-in-the-cases",
    ),
    pytest.param(
        # on ℤ, n ≤ 2 and n ≥ 4 leave 3 out
        thm('f :: "int => int"', ["ALL n. n <= 2 --> f n = 1", "ALL n. n >= 4 --> f n = 2"], "f 3 = 2"),
        thm('f :: "int => int"', ["ALL n. f n = (if n <= 2 then 1 else 2)"], "f 3 = 2"),
        id="integer-gap",
    ),
    pytest.param(
        thm('a :: real and f :: "real => real"', ["ALL x. a > 0 --> f x = x"], "f 2 = 2"),
        thm('a :: real and f :: "real => real"', ["ALL x. f x = x"], "f 2 = 2"),
        id="guard-on-another-variable",
    ),
    pytest.param(
        thm(F, ["ALL x. x ~= 0 --> f x = 1 / x"], "f 0 = 0"),
        thm(F, ["ALL x. f x = 1 / x"], "f 0 = 0"),
        id="partial-definition-outside-its-domain",
    ),
]

PP = 'A B M :: "real * real"'
POINTS = ["A = (-5, 5)", "B = (3, 7)"]
MID = "ALL (x1::real) (y1::real) x2 y2. midpoint (x1, y1) (x2, y2) = ((x1 + x2) / 2, (y1 + y2) / 2)"
# untyped, the bound names are of a type Isabelle leaves a variable (HOL-Analysis' `midpoint :: 'a ⇒ 'a ⇒ 'a` on
# real_vector fixes none, and the `fixes` type no bound name): the premise is about pairs of another type than A's
UNTYPED_MID = "ALL x1 y1 x2 y2. midpoint (x1, y1) (x2, y2) = ((x1 + x2) / 2, (y1 + y2) / 2)"
UNTYPED_PAIR_MID = "ALL p q. midpoint p q = ((fst p + fst q) / 2, (snd p + snd q) / 2)"
PATTERN_MERGE = [
    pytest.param(
        thm(PP, [*POINTS, "M = ((fst A + fst B) / 2, (snd A + snd B) / 2)"], "M = (-1, 6)"),
        thm(PP, [*POINTS, MID], "midpoint A B = (-1, 6)"),
        id="pair-patterns",
    ),
    pytest.param(
        thm(
            PP,
            [*POINTS, "ALL (p::real * real) q. midpoint p q = ((fst p + fst q) / 2, (snd p + snd q) / 2)"],
            "midpoint A B = (-1, 6)",
        ),
        thm(PP, POINTS, "((fst A + fst B) / 2, (snd A + snd B) / 2) = (-1, 6)"),
        id="pair-valued-definition",
    ),
    pytest.param(
        thm(PP + ' and f :: "real * real => real"', ["ALL x y. f (x, y) = x + y"], "f A = 3"),
        thm(PP, [], "fst A + snd A = 3"),
        id="one-pair-argument",
    ),
]
PATTERN_APART = [
    pytest.param(
        thm(PP, [*POINTS, "M = ((fst A + fst B) / 2, (snd A + snd B) / 2)"], "M = (-1, 6)"),
        thm(PP, [*POINTS, MID], "midpoint A B = (-1, 7)"),
        id="other-midpoint",
    ),
    pytest.param(
        thm(PP + ' and f :: "real * real => real"', ["ALL x y. f (x, y) = x + y"], "f A = 3"),
        thm(PP, [], "fst A - snd A = 3"),
        id="other-value",
    ),
    pytest.param(
        # defined on the diagonal only
        thm(PP + ' and f :: "real * real => real"', ["ALL x. f (x, x) = x + x"], "f A = 3"),
        thm(PP, [], "fst A + snd A = 3"),
        id="repeated-pattern-variable",
    ),
    pytest.param(
        thm(PP, [*POINTS, "M = ((fst A + fst B) / 2, (snd A + snd B) / 2)"], "M = (-1, 6)"),
        thm(PP, [*POINTS, UNTYPED_MID], "midpoint A B = (-1, 6)"),
        id="pattern-of-another-type",
    ),
    pytest.param(
        thm(PP, [*POINTS, UNTYPED_PAIR_MID], "midpoint A B = (-1, 6)"),
        thm(PP, POINTS, "((fst A + fst B) / 2, (snd A + snd B) / 2) = (-1, 6)"),
        id="definition-at-another-type",
    ),
]


# ---------------------------------------- dist
# Isabelle `dist` on ℝ and on products of ℝ, and product types (found on the MATH dev set): `dist` is |x - y| on ℝ
# (dist_real_def) and the Euclidean distance on ℝ × ℝ (dist_prod_def); `real * real * real` is `real * (real * real)`.
# Rewrites that keep the meaning must merge, near misses stay apart.

PAIRS = 'a b :: "real * real"'
EUCLID = "sqrt ((fst a - fst b) ^ 2 + (snd a - snd b) ^ 2) = 13"
SPACE = 'a b :: "real * real * real"'

DIST_MERGE = [
    pytest.param(
        thm(PAIRS, ["a = (1, 2)", "b = (-4, -10)"], "dist a b = 13"),
        thm(PAIRS, ["a = (1, 2)", "b = (-4, -10)"], EUCLID),
        id="points",
    ),
    pytest.param(thm(PAIRS, [], "dist a b = 13"), thm(PAIRS, [], EUCLID), id="any-points"),
    pytest.param(
        thm("d :: real", ["d = dist (9::real, 5::real) (-6, -3) - 5"], "d = 12"),
        thm("d :: real", ["d = sqrt ((9 + 6) powr 2 + (5 + 3) powr 2) - 5"], "d = 12"),
        id="literal-points",
    ),
    pytest.param(thm("x y :: real", [], "dist x y = 3"), thm("x y :: real", [], "abs (x - y) = 3"), id="real"),
    pytest.param(thm("x :: real", [], "dist x 2 = 3"), thm("x :: real", [], "x = 5 | x = -1"), id="real-solved"),
    pytest.param(
        thm(SPACE, [], "dist a b = 3"),
        thm(
            SPACE,
            [],
            "sqrt ((fst a - fst b)^2 + (fst (snd a) - fst (snd b))^2 + (snd (snd a) - snd (snd b))^2) = 3",
        ),
        id="space",
    ),
    pytest.param(thm('a :: "real * real * real"', ["a = (1, 2, 3)"], "snd (snd a) = 3"), 'theorem "True"', id="triple"),
]

DIST_APART = [
    pytest.param(
        thm(PAIRS, [], "dist a b = 13"),
        thm(PAIRS, [], "sqrt ((fst a - fst b) ^ 2 + (snd a + snd b) ^ 2) = 13"),
        id="sign",
    ),
    pytest.param(
        thm(PAIRS, [], "dist a b = 13"), thm(PAIRS, [], "(fst a - fst b) ^ 2 + (snd a - snd b) ^ 2 = 13"), id="no-root"
    ),
    pytest.param(
        thm(PAIRS, [], "dist a b = 13"), thm(PAIRS, [], "abs (fst a - fst b) + abs (snd a - snd b) = 13"), id="taxicab"
    ),
    pytest.param(thm("x y :: real", [], "dist x y = 3"), thm("x y :: real", [], "x - y = 3"), id="real-no-abs"),
    pytest.param(thm("z w :: complex", [], "dist z w = 3"), thm("z w :: complex", [], "dist z w = 4"), id="complex"),
    pytest.param(
        # `snd a` of a triple is a pair (ill-typed against a real): not its second item
        thm('a :: "real * real * real"', [], "snd a = 2"),
        thm('a :: "real * real * real"', [], "fst (snd a) = 2"),
        id="snd-of-triple",
    ),
]


# ---------------------------------------- sets
# Isabelle sets read by membership (found on the MATH dev set: ranges, domains and solution sets): two sets are equal
# when they have the same members (Set.thy, set_eq_iff), and membership in `A ∪ B`, `A ∩ B`, `range f`, `f ` A` and
# UNIV is what Set.thy says (Un_iff, Int_iff, image_iff, UNIV_I). Rewrites that keep the meaning must merge, near
# misses stay apart.

FN = 'F :: "real => real"'
D = "ALL x. F x = abs (x + 1) + abs (x - 5)"
X = "x :: real"
UNION3 = "{x. x < -7} \\<union> {x. -7 < x & x < 3} \\<union> {x. x > 3}"

SETS_MERGE = [
    pytest.param(
        thm(FN, [D], "range F = {y. y >= 6}"), thm(FN, [D], "ALL y. (EX x. F x = y) = (y >= 6)"), id="range-members"
    ),
    pytest.param(thm(FN, [D], "range F = {y. y >= 6}"), thm(FN, [D], "F ` UNIV = {6..}"), id="range-is-image-of-UNIV"),
    pytest.param(
        thm(FN, [D], "range F = {6..}"), thm(FN, [D], "{y. EX x. F x = y} = {y. y >= 6}"), id="range-as-builder"
    ),
    pytest.param(
        thm(X, [], "{x. x^2 = 4} = {-2, 2}"), thm(X, [], "ALL x. x^2 = 4 <-> x = 2 | x = -2"), id="solution-set"
    ),
    pytest.param(
        thm(X, [], f"{UNION3} = {{x. x^2 + 4*x - 21 ~= 0}}"),
        thm(X, [], "{x. x^2 + 4*x - 21 ~= 0} = {..< -7} \\<union> {-7 <..< 3} \\<union> {3 <..}"),
        id="domain-as-union",
    ),
    pytest.param(
        thm(X, [], f"x \\<in> {UNION3}"),
        thm(X, [], "x \\<in> {..< -7} \\<union> {-7 <..< 3} \\<union> {3 <..}"),
        id="member-of-union",
    ),
    pytest.param(thm(X, [], "x \\<in> {1..5} \\<inter> {3..7}"), thm(X, [], "3 <= x & x <= 5"), id="member-of-inter"),
    pytest.param(
        thm(FN, [D], "6 \\<in> F ` {0..1}"), thm(FN, [D], "EX x. 0 <= x & x <= 1 & F x = 6"), id="member-of-image"
    ),
]

SETS_APART = [
    pytest.param(thm(FN, [D], "range F = {y. y >= 6}"), thm(FN, [D], "range F = {y. y > 6}"), id="range-bound"),
    pytest.param(thm(X, [], "{x. x^2 = 4} = {-2, 2}"), thm(X, [], "{x. x^2 = 4} = {2}"), id="missing-solution"),
    pytest.param(
        thm(X, [], "{x. x < -7} \\<union> {x. x > 3} = {x. x^2 + 4*x - 21 > 0}"),
        thm(X, [], "{x. x < -7} \\<inter> {x. x > 3} = {x. x^2 + 4*x - 21 > 0}"),
        id="union-not-inter",
    ),
    pytest.param(thm(X, [], "x \\<in> {1..5} \\<inter> {3..7}"), thm(X, [], "1 <= x & x <= 7"), id="inter-not-union"),
    pytest.param(
        thm(FN, [D], "6 \\<in> F ` {0..1}"), thm(FN, [D], "EX x. 6 <= x & x <= 7 & F x = 6"), id="image-domain"
    ),
    pytest.param(
        # a variable named `range` is not the library's range
        thm('F :: "real => real" and range :: "(real => real) => real set"', [], "range F = {y. y >= 6}"),
        thm(FN, [], "range F = {y. y >= 6}"),
        id="range-variable",
    ),
]


# ---------------------------------------- series
# The index of an Isabelle series is a natural number (Series.thy: `suminf :: (nat ⇒ 'a) ⇒ 'a`, and `∑n. f n` is
# `suminf f`), also where the text does not say so (found on the MATH dev set): `cos (n * θ)` is then
# `cos (real n * θ)`, as a `fixes f :: "nat ⇒ real"` gives it. Rewrites that keep the meaning must merge, near misses
# stay apart.

THETA = "theta :: real"
H = ["cos theta = 1 / 5"]

SERIES_MERGE = [
    pytest.param(
        thm('theta :: real and f :: "nat => real"', [*H, "ALL n. f n = cos (n * theta) / 2 ^ n"], "suminf f = 6 / 7"),
        thm(THETA, H, "suminf (%n. cos (n * theta) / 2^n) = 6 / 7"),
        id="declared-sequence",
    ),
    pytest.param(
        thm(THETA, H, "(\\<Sum>n. cos (n * theta) / 2^n) = 6 / 7"),
        thm(THETA, H, "suminf (%n::nat. cos (real n * theta) / 2^n) = 6 / 7"),
        id="binder-and-typed-lambda",
    ),
    pytest.param(
        thm(THETA, H, "summable (%n. cos (n * theta) / 2^n)"),
        thm(THETA, H, "summable (%n::nat. cos (real n * theta) / 2^n)"),
        id="summable",
    ),
]

SERIES_APART = [
    pytest.param(
        thm(THETA, H, "(\\<Sum>n. cos (n * theta) / 2^n) = 6 / 7"),
        thm(THETA, H, "(\\<Sum>n. cos (n * theta) / 3^n) = 6 / 7"),
        id="ratio",
    ),
    pytest.param(
        # a lambda over the reals is another function (not a sequence): not the same series
        thm(THETA, H, "suminf (%n. cos (n * theta) / 2^n) = 6 / 7"),
        thm(THETA, H, "suminf (%n::real. cos (n * theta) / 2 powr n) = 6 / 7"),
        id="real-index",
    ),
]


# ---------------------------------------- powr
# `b powr real n` with a positive literal base b is `b ^ n` (Transcendental.thy, powr_realpow), found on the MATH dev
# set (`∑n. cos (n * θ) / 2 powr n`); with a negative base or a non-natural exponent it is not. Rewrites that keep the
# meaning must merge, near misses stay apart.

POWR_MERGE = [
    pytest.param(thm("n :: nat", [], "2 powr n = 32"), thm("n :: nat", [], "(2::real) ^ n = 32"), id="nat-exponent"),
    pytest.param(
        thm("theta :: real", [], "(\\<Sum>n. cos (n * theta) / 2^n) = 6 / 7"),
        thm("theta :: real", [], "suminf (%n. cos (n * theta) / 2 powr n) = 6 / 7"),
        id="series-term",
    ),
    pytest.param(
        thm("n :: nat", [], "(1/2) powr n < 1 / 100"),
        thm("n :: nat", [], "(1/2::real) ^ n < 1 / 100"),
        id="fraction-base",
    ),
]

POWR_APART = [
    pytest.param(thm("n :: nat", [], "2 powr n = 32"), thm("n :: nat", [], "3 ^ n = 32"), id="base"),
    # ln of a negative number is unspecified in Isabelle: (-2) powr n is not (-2) ^ n
    pytest.param(thm("n :: nat", [], "(-2) powr n = 4"), thm("n :: nat", [], "(-2) ^ n = 4"), id="negative-base"),
    pytest.param(thm("n :: int", [], "2 powr n = 1 / 4"), thm("n :: int", [], "n = -3"), id="int-exponent"),
    pytest.param(thm("x :: real", [], "2 powr x = 32"), thm("x :: real", [], "x = 6"), id="real-exponent"),
    # `powr` is real's (or complex's, class ln); `2 ^ n = 32` untyped is at a type of its own (its numerals')
    pytest.param(thm("n :: nat", [], "2 powr n = 32"), thm("n :: nat", [], "2 ^ n = 32"), id="untyped-power"),
]


# ---------------------------------------- finite sets
# Finite sets of integers written as builders (found on the MATH dev set): `{x::int. -5 < x ∧ x < 5 ∧ P x}` is
# counted and summed over {-4..4} (literal bounds among its conjuncts), a set variable of type `int set` defined as
# one is inlined, and `id` is the identity (Fun.thy). Rewrites that keep the meaning must merge, near misses stay
# apart.

TRUE = 'theorem "True"'
S = 'S :: "int set"'

FINITE_MERGE = [
    pytest.param(
        thm(S, ["S = {x. -30 <= x & x <= 26}"], "sum id S = -114"),
        thm(S, [], "sum (%x. x) {-30..26::int} = -114"),
        id="sum-id-over-builder",
    ),
    pytest.param(thm("x :: int", [], "card {x::int. -5 < x & x < 5 & x mod 2 = 0} = 5"), TRUE, id="count-ints"),
    pytest.param(
        thm("n :: nat", [], "card {x::nat. 3 <= x & x <= 40 & prime x} = 11"), TRUE, id="count-nats-two-bounds"
    ),
    pytest.param(
        thm(S, ["S = {x. 1 <= x & x <= 10 & 3 dvd x}"], "card S = 3"),
        thm("n :: nat", [], "card {x::int. 0 < x & x < 11 & x mod 3 = 0} = 3"),
        id="set-variable",
    ),
]

FINITE_APART = [
    pytest.param(thm("x :: int", [], "card {x::int. -5 < x & x < 5 & x mod 2 = 0} = 4"), TRUE, id="count-off-by-one"),
    pytest.param(
        thm(S, ["S = {x. -30 <= x & x <= 26}"], "sum id S = -114"),
        thm(S, [], "sum (%x. x) {-30..25::int} = -114"),
        id="sum-bound",
    ),
    # no lower bound: not a finite set of integers (its card is 0 in Isabelle, never 5)
    pytest.param(thm("x :: int", [], "card {x::int. x < 5 & x mod 2 = 0} = 5"), TRUE, id="unbounded-below"),
    pytest.param(
        thm(S, ["S = {x. 1 <= x & x <= 10 & 3 dvd x}"], "card S = 3"),
        thm(S, ["S = {x. 1 <= x & x <= 10 & 3 dvd x}"], "card S = 4"),
        id="count-value",
    ),
]


MERGE = [*CASES_MERGE, *PATTERN_MERGE, *DIST_MERGE, *SETS_MERGE, *SERIES_MERGE, *POWR_MERGE, *FINITE_MERGE]
APART = [*CASES_APART, *PATTERN_APART, *DIST_APART, *SETS_APART, *SERIES_APART, *POWR_APART, *FINITE_APART]


@pytest.mark.parametrize("a,b", MERGE)
def test_library_variants_merge(symeq, a, b):
    res = symeq.compare(a, b)
    assert res.equivalent, res.describe()


@pytest.mark.parametrize("a,b", APART)
def test_library_near_misses_stay_apart(symeq, a, b):
    res = symeq.compare(a, b)
    assert not res.equivalent, res.describe()


def test_exhaustive_cases_leave_no_unknown_function():
    text = thm(F, ["ALL x. x < 1 --> f x = 0", "ALL x. 1 <= x --> f x = x"], "f 2 = 2")
    st = standardize(elaborate(parse_statement(text)))
    assert not st.premises and "f" not in st.variables and st.conclusion.op == "true"


def test_vacuous_cases_are_vacuous(symeq):
    a = thm(F, ["ALL x. x <= 3 --> f x = 9 - 2 * x", "ALL x. x >= 3 --> f x = x + 1"], "f 5 = 6")
    assert symeq.is_vacuous(symeq.parse(a))


def test_a_function_of_a_nested_product_is_applied_to_its_flattened_components():
    # `real * real * real` is `real * (real * real)`: its values are nested tuples, and an uninterpreted
    # function of such a variable takes all three components (this raised Z3's "parser error").
    a = (
        'theorem\nfixes point :: "real * real * real"\n'
        'and rot_y :: "real * real * real \\<Rightarrow> real * real * real"\n'
        'and ref_yz :: "real * real * real \\<Rightarrow> real * real * real"\n'
        'assumes h0 : "point = (1, 1, 1)"\nand h1 : "rot_y point = (-1, 1, -1)"\n'
        'and h2 : "ref_yz (rot_y point) = (-1, 1, 1)"\nshows  "ref_yz (rot_y point) = (-1, 1, 1)"'
    )
    b = a.replace('shows  "ref_yz (rot_y point) = (-1, 1, 1)"', 'shows  "ref_yz (rot_y point) = (-1, 1, 2)"')
    res = SymEq("isabelle").compare(a, b)
    assert (res.status, res.detail) == ("different", "conclusions")
