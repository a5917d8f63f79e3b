"""How SymEq's Z3 translation models Isabelle constants whose value is partly unspecified (issue 10, solver side,
found on the MATH dev set). Each class: rewrites that keep the meaning in Isabelle/HOL must merge, near misses that
change it must stay apart, and a counter-model is called exact only where every value it picks is a possible one."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.isabelle_statements import thm
from tests.lean_statements import verdict_tests


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


# ---------------------------------------- powr of a negative base
# Transcendental.thy: `x powr a = (if x = 0 then 0 else exp (a * ln x))` and `ln_real x = (THE u. exp u = x)`.
# For x < 0 no u has exp u = x, so every `λu. exp u = x` is `λu. False` and ln x is one unspecified value c for
# all x < 0: x powr a = exp (a * c) = K powr a with K = exp c > 0 unknown. The laws of powr (powr_add, powr_powr)
# hold for every x; `x powr 2 = x ^ 2` holds only for x ≥ 0.
R = "x y :: real"
NEG = ["x < 0", "y < 0"]
POWR_MERGE = [
    pytest.param(thm(R, NEG, "x powr 2 = y powr 2"), thm(R, NEG, "True"), id="one-value-for-negative-bases"),
    pytest.param(thm(R, [], "x powr 2 * x powr 3 = y"), thm(R, [], "x powr 5 = y"), id="powr-add"),
    pytest.param(thm(R, [], "(x powr 2) powr (1/2) = y"), thm(R, [], "x powr 1 = y"), id="powr-powr"),
    pytest.param(thm(R, ["x < 0"], "x powr (-2) * x powr 2 = y"), thm(R, ["x < 0"], "y = 1"), id="powr-inverse"),
]
POWR_APART = [
    # the dev set's `powr|pow` pairs: x = -3/2 (or y = -12) satisfies the ^ version, the powr one only if K = 3/2
    pytest.param(thm(R, [], "x powr 2 = 9 / 4"), thm(R, [], "x ^ 2 = 9 / 4"), id="powr-is-not-power"),
    pytest.param(
        thm(R, ["x + y = 7", "3 * x + y = 45"], "x powr 2 - y powr 2 = 217"),
        thm(R, ["x + y = 7", "3 * x + y = 45"], "x ^ 2 - y ^ 2 = 217"),
        id="negative-solution",
    ),
    pytest.param(thm(R, ["x < 0", "y > 0"], "x powr 2 = y powr 2"), thm(R, NEG, "True"), id="signs-differ"),
    pytest.param(thm(R, ["x < 0"], "x powr 2 = y"), thm(R, ["x < 0"], "x powr 3 = y"), id="exponent"),
    pytest.param(thm(R, [], "x powr 2 * x powr 3 = y"), thm(R, [], "x powr 6 = y"), id="powr-add-wrong"),
    pytest.param(thm(R, [], "x powr 1 = y"), thm(R, [], "x = y"), id="powr-one-of-negative"),
    pytest.param(thm(R, ["x < 0"], "x powr (1/3) = y"), thm(R, ["x < 0"], "root 3 x = y"), id="powr-third-is-not-root"),
]

test_powr_laws_merge, test_powr_near_misses_stay_apart = verdict_tests(POWR_MERGE, POWR_APART)


def test_powr_counter_model_is_exact(symeq):
    """Only positive K are possible values of exp (ln x), and every one is: a model with literal exponents is real."""
    res = symeq.compare(thm(R, [], "x powr 2 = 9 / 4"), thm(R, [], "x ^ 2 = 9 / 4"))
    assert res.status == "different" and res.exact, res.describe()
    res = symeq.compare(thm(R, [], "x powr y = 2"), thm(R, [], "x ^ 2 = 2"))
    assert res.status == "different" and not res.exact, res.describe()  # a non-literal exponent stays uninterpreted


# ---------------------------------------- big operators over infinite sets
# Groups_Big.thy: `sum` and `prod` are `comm_monoid_set` operations, 0 and 1 on an infinite set (`sum.infinite`,
# `prod.infinite`). `∑i=1..250. i` with `i :: real` sums over the real interval [1, 250]: it is 0. A ray `{a..}` is
# infinite in every type; an interval of ℝ or ℚ is infinite when its bounds are in order, `{a..a} = {a}`.
M = "m :: real"
BIGOP_MERGE = [
    pytest.param(thm(M, ["m = (\\<Sum>i=1..3. i)"], "m = 0"), 'theorem "True"', id="real-interval-sum"),
    pytest.param(thm(M, ["m = (\\<Prod>i\\<in>{1<..<(3::real)}. i)"], "m = 1"), 'theorem "True"', id="real-prod"),
    pytest.param(thm("a :: real", [], "(\\<Sum>i\\<in>{1..}. a * (1/2) ^ (i - 1)) = 0"), 'theorem "True"', id="ray"),
    pytest.param(
        thm("x y :: real", [], "(\\<Sum>i\\<in>{x .. y}. i) = 0"), thm("x y :: real", [], "x ~= y | x = 0"), id="point"
    ),
]
BIGOP_APART = [
    pytest.param(thm(M, ["m = (\\<Sum>i=1..3. i)"], "m = 6"), 'theorem "True"', id="real-interval-is-not-unrolled"),
    pytest.param(thm(M, ["m = (\\<Sum>i=1..3. real i)"], "m = 0"), 'theorem "True"', id="nat-interval-cast"),
    pytest.param(thm("m :: nat", ["m = (\\<Sum>i=1..3. i)"], "m = 0"), 'theorem "True"', id="nat-interval"),
    pytest.param(thm("x y :: real", [], "(\\<Sum>i\\<in>{x .. y}. i) = 0"), 'theorem "True"', id="point-value"),
]

test_infinite_bigops_merge, test_finite_bigops_stay_apart = verdict_tests(BIGOP_MERGE, BIGOP_APART)


# ---------------------------------------- log
# Transcendental.thy: `log a x = ln x / ln a` for every a and x (Mathlib's `Real.logb b x = log x / log b` too), with
# ln uninterpreted: log is ln's quotient, nothing more is known.
X = "x :: real"
LOG_MERGE = [
    pytest.param(thm(X, [], "log 2 x = 3"), thm(X, [], "ln x / ln 2 = 3"), id="definition"),
    pytest.param(
        thm(X, ["x = log 2 (8 * sqrt 2)"], "x = 7 / 2"), thm(X, [], "ln (8 * sqrt 2) / ln 2 = 7 / 2"), id="value"
    ),
    pytest.param(thm(X, [], "log 1 x = 0"), 'theorem "True"', id="base-one"),  # ln 1 = 0, and x / 0 = 0
]
LOG_APART = [
    pytest.param(thm(X, [], "log 2 x = 3"), thm(X, [], "ln 2 / ln x = 3"), id="arguments-swapped"),
    pytest.param(thm(X, [], "log 2 x = 3"), thm(X, [], "log 3 x = 3"), id="base"),
    pytest.param(thm(X, [], "log 2 x = 3"), thm(X, [], "x = 8"), id="ln-of-negative-is-unspecified"),
    pytest.param(thm(X, [], "log x 2 = 3"), thm(X, [], "log 2 x = 3"), id="base-and-argument"),
]

test_log_is_a_quotient_of_ln, test_log_near_misses_stay_apart = verdict_tests(LOG_MERGE, LOG_APART)


def test_lean_logb_is_a_quotient_of_log():
    """The same definition on the Lean side (`Real.logb` and `Real.log` share the translation)."""
    lean = SymEq("lean", timeout_ms=1000)
    a = "theorem t (x : ℝ) (h : Real.logb 2 x = 3) : x > 0 := by sorry"
    assert lean.compare(a, "theorem t (x : ℝ) (h : Real.log x / Real.log 2 = 3) : x > 0 := by sorry").equivalent
    assert not lean.compare(a, "theorem t (x : ℝ) (h : Real.log 2 / Real.log x = 3) : x > 0 := by sorry").equivalent


# ---------------------------------------- summable
# Series.thy: summable_geometric (|r| < 1), summable_mult/_divide (a constant factor) and summable_comparison_test
# (|cos (n θ) * r ^ n| ≤ |r| ^ n): such a `summable` hypothesis is a true fact and drops; other series keep it.
T = "theta :: real"
SUM = "suminf (%n. cos (n * theta) / 2 ^ n) = 6 / 7"
SUMMABLE_MERGE = [
    pytest.param(
        thm(T, ["cos theta = 1/5", "summable (%n. cos (n * theta) / 2 ^ n)"], SUM),
        thm(T, ["cos theta = 1/5"], SUM),
        id="bounded-times-geometric",
    ),
    pytest.param(thm(X, ["summable (%n. x * (-1/3) ^ n)"], "x > 0"), thm(X, [], "x > 0"), id="geometric"),
    pytest.param(
        thm(X, ["summable (%n. sin (x * n) * x / 3 ^ n)"], "x > 0"), thm(X, [], "x > 0"), id="sin-and-constant"
    ),
]
SUMMABLE_APART = [
    pytest.param(thm(X, ["summable (%n. x * 2 ^ n)"], "x > 0"), thm(X, [], "x > 0"), id="ratio-above-one"),
    pytest.param(
        thm(X, ["summable (%n. cos (x * n) * 2 ^ n)"], "x > 0"), thm(X, [], "x > 0"), id="bounded-times-growing"
    ),
    pytest.param(
        thm("f :: nat => real", ["summable (%n. f n / 2 ^ n)"], "f 0 > 0"),
        thm("f :: nat => real", [], "f 0 > 0"),
        id="unbounded-factor",
    ),
]

test_known_summable_hypothesis_drops, test_other_summable_hypotheses_stay = verdict_tests(
    SUMMABLE_MERGE, SUMMABLE_APART
)
