"""Isabelle classes found on the MATH dev set in session 11 (issue 10): each has statements that must merge and
near misses that must stay apart."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.isabelle_statements import thm, unparsed


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=2000)


def same(symeq, a, b):
    return symeq.compare(a, b).equivalent


# ---------------------------------------------------------------- powr with an integer exponent
# Transcendental.thy: `x powr a = (if x = 0 then 0 else exp (a * ln x))`; `powr_realpow`: 0 < x ⟹ x powr real n =
# x ^ n; `powr_int`: 0 < x ⟹ x powr i = (if i ≥ 0 then x ^ nat i else 1 / x ^ nat (-i)). `ln_real_def`: ln x =
# (THE u. exp u = x), one value for every x ≤ 0, so x powr a = K powr a for x < 0 with K = exp (ln x) > 0 fixed.

POWR_MERGE = [
    pytest.param(
        thm("x y :: real and n :: nat", ["0 < x"], "x powr n = y"),
        thm("x y :: real and n :: nat", ["0 < x"], "x ^ n = y"),
        id="realpow",
    ),
    pytest.param(
        thm("x y :: real and n :: nat", ["0 < x"], "x powr (real n) = y"),
        thm("x y :: real and n :: nat", ["0 < x"], "x ^ n = y"),
        id="realpow-explicit-cast",
    ),
    pytest.param(
        # `x powr (n - 1)` is `x powr real (n - 1)` (coercion on the subtree): truncated like `x ^ (n - 1)`
        thm("x y :: real and n :: nat", ["0 < x"], "x powr (n - 1) = y"),
        thm("x y :: real and n :: nat", ["0 < x"], "x ^ (n - 1) = y"),
        id="realpow-nat-difference",
    ),
    pytest.param(
        thm("x y :: real and n :: nat", ["0 < x"], "x powr (2 * n) = y"),
        thm("x y :: real and n :: nat", ["0 < x"], "x ^ (2 * n) = y"),
        id="realpow-product",
    ),
    pytest.param(
        thm("x y :: real and i :: int", ["0 < x", "0 <= i"], "x powr i = y"),
        thm("x y :: real and i :: int", ["0 < x", "0 <= i"], "x ^ nat i = y"),
        id="powr-int-nonnegative",
    ),
    pytest.param(
        thm("x y :: real and i :: int", ["0 < x", "i < 0"], "x powr i = y"),
        thm("x y :: real and i :: int", ["0 < x", "i < 0"], "1 / x ^ nat (- i) = y"),
        id="powr-int-negative",
    ),
    pytest.param(
        thm("a :: real", [], "(-8) powr a = 2"),
        thm("a :: real", [], "(-27) powr a = 2"),
        id="negative-bases-one-value",
    ),
    pytest.param(
        thm("n :: nat", [], "(-2) powr n = 5"),
        thm("n :: nat", [], "(-3) powr n = 5"),
        id="negative-bases-natural-exponent",
    ),
]


@pytest.mark.parametrize("a, b", POWR_MERGE)
def test_powr_integer_exponent_merges(symeq, a, b):
    assert same(symeq, a, b)


POWR_APART = [
    # x = -3: (-3) powr 2 = K ^ 2, not 9
    pytest.param(thm("x :: real", [], "x powr 2 = 9"), thm("x :: real", [], "x ^ 2 = 9"), id="literal-any-base"),
    pytest.param(
        thm("x y :: real and n :: nat", [], "x powr n = y"),
        thm("x y :: real and n :: nat", [], "x ^ n = y"),
        id="natural-any-base",
    ),
    pytest.param(
        thm("x y :: real and n :: nat", ["x < 0"], "x powr n = y"),
        thm("x y :: real and n :: nat", ["x < 0"], "x ^ n = y"),
        id="natural-negative-base",
    ),
    # powr_0: 0 powr 0 = 0, but power_0: 0 ^ 0 = 1
    pytest.param(
        thm("x y :: real and n :: nat", ["0 <= x"], "x powr n = y"),
        thm("x y :: real and n :: nat", ["0 <= x"], "x ^ n = y"),
        id="natural-zero-base",
    ),
    # i = -2: x powr -2 = 1 / x ^ 2, x ^ nat (-2) = x ^ 0 = 1
    pytest.param(
        thm("x y :: real and i :: int", ["0 < x"], "x powr i = y"),
        thm("x y :: real and i :: int", ["0 < x"], "x ^ nat i = y"),
        id="int-exponent-may-be-negative",
    ),
    pytest.param(thm("a :: real", [], "(-8) powr a = 2"), thm("a :: real", [], "8 powr a = 2"), id="sign-of-base"),
    pytest.param(
        thm("x :: real", [], "x powr 100 = 4"), thm("x :: real", [], "x ^ 100 = 4"), id="large-literal-any-base"
    ),
]


@pytest.mark.parametrize("a, b", POWR_APART)
def test_powr_near_misses_stay_apart(symeq, a, b):
    assert not same(symeq, a, b)


def test_powr_large_literal_positive_base_merges(symeq):
    a = thm("x :: real", ["0 < x"], "x powr 100 = 4")
    b = thm("x :: real", ["0 < x"], "x ^ 100 = 4")
    assert same(symeq, a, b)


# ---------------------------------------------------------------- pattern abstraction and THE
# Product_Type.thy: `λ(x, y). b` is `case_prod (λx y. b)`, a function of one pair; HOL.thy: `THE x. P x` is a binder
# whose value has the bound variable's type (unspecified unless exactly one x has P). Both were unparsed on dev.

PARSED_MERGE = [
    pytest.param(
        thm('f :: "real * real => real"', ["f = (%(x, y). x + 2 * y)"], "f (1, 2) = 5"),
        thm('f :: "real * real => real"', ["ALL x y. f (x, y) = x + 2 * y"], "f (1, 2) = 5"),
        id="pair-lambda-definition",
    ),
    pytest.param(
        thm("a b :: real", [], "(%(x, y). x - y) (a, b) = 1"),
        thm("a b :: real", [], "a - b = 1"),
        id="pair-lambda-applied",
    ),
    pytest.param(
        thm("a b c :: real", [], "(\\<lambda>(x, y, z). x + y * z) (a, b, c) = 1"),
        thm("a b c :: real", [], "a + b * c = 1"),
        id="triple-lambda-applied",
    ),
    pytest.param(
        thm("a :: real", ["a = (THE x. 2 * x = 6)"], "a = 3"),
        thm("b :: real", ["b = (THE y. y * 2 = 6)"], "b = 3"),
        id="the-alpha-variant",
    ),
    pytest.param(
        thm('A C :: "real * real"', ["A = (0, 7)", "C = (12, -2)"], "(%(a, b) (c, d). (c - a) + (d - b)) A C = 3"),
        thm('A C :: "real * real"', ["A = (0, 7)", "C = (12, -2)"], "(fst C - fst A) + (snd C - snd A) = 3"),
        id="two-pair-patterns",
    ),
]


@pytest.mark.parametrize("a, b", PARSED_MERGE)
def test_pattern_lambda_and_the_merge(symeq, a, b):
    assert same(symeq, a, b)


PARSED_APART = [
    pytest.param(
        thm("a :: real", [], "(%(x, y). x - y) (3, 1) = a"),
        thm("a :: real", [], "(%(x, y). y - x) (3, 1) = a"),
        id="pair-lambda-component-order",
    ),
    pytest.param(
        thm('f :: "real * real => real"', ["f = (%(x, y). x + 2 * y)"], "f (1, 2) = 5"),
        thm('f :: "real * real => real"', ["f = (%(x, y). 2 * x + y)"], "f (1, 2) = 5"),
        id="pair-lambda-body",
    ),
    pytest.param(
        thm("a :: real", [], "(%(x, y) (z, w). x - z) (3, 1) (1, 0) = a"),
        thm("a :: real", [], "(%(x, y) (z, w). z - x) (3, 1) (1, 0) = a"),
        id="two-pair-patterns-order",
    ),
    pytest.param(
        thm("a :: real", ["a = (THE x. 2 * x = 6)"], "a = 3"),
        thm("a :: real", ["a = (LEAST x. 2 * x = 6)"], "a = 3"),
        id="the-is-not-least",
    ),
    pytest.param(
        thm("a :: real", ["a = (THE x. 2 * x = 6)"], "a = 3"),
        thm("a :: real", ["a = (THE x. 3 * x = 6)"], "a = 3"),
        id="the-body",
    ),
]


@pytest.mark.parametrize("a, b", PARSED_APART)
def test_pattern_lambda_and_the_near_misses(symeq, a, b):
    assert not same(symeq, a, b)


@pytest.mark.parametrize(
    "text",
    [
        thm("a :: real", ["a = (THE x. 2 * x = 6)"], "a = 3"),
        thm('f :: "real * real => real"', ["f = (%(x, y). x + 2 * y)"], "f (1, 2) = 5"),
    ],
)
def test_pattern_lambda_and_the_are_read(symeq, text):
    assert not unparsed(symeq, text)
