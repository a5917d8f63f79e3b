"""True facts SymEq gives Z3 about the functions it keeps uninterpreted (issue 10), from the both-correct pairs of the
MATH dev set kept apart by a counter-model that relies on an uninterpreted function ("model-uf").

`x ^ n` with a natural exponent the translation cannot expand (a variable) is an uninterpreted function of x and n;
without facts Z3 may take `x ^ n = 0` for x > 0, or `(1/2) ^ n = 5`. Each fact added is a lemma of Isabelle/HOL's
Power.thy (power_0, power_one_right, power_one, zero_power, zero_less_power, zero_le_power, zero_le_even_power,
power_le_one, one_le_power): true for every argument, so no two statements that differ in meaning merge (the near
misses below differ where those lemmas do not apply)."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.isabelle_statements import thm
from tests.lean_statements import verdict_tests


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


XYN = "x y :: real and n :: nat"

MERGE = [
    pytest.param(
        thm(XYN, ["x > 0", "x ^ n * y = 0"], "y = 0"),
        thm(XYN, ["x > 0", "y = 0"], "y = 0"),
        id="a-positive-base-has-a-positive-power",
    ),
    pytest.param(
        thm(XYN, ["y = (1 / 2) ^ n"], "y <= 1"),
        thm(XYN, ["y = (1 / 2) ^ n"], "0 < y & y <= 1"),
        id="a-base-in-the-unit-interval-has-a-power-in-it",
    ),
    pytest.param(
        thm(XYN, ["n < 1"], "x ^ n + y = 1"),
        thm(XYN, ["n < 1"], "y = 0"),
        id="the-zeroth-power-is-one",
    ),
    pytest.param(
        thm(XYN, ["0 < n", "n < 2"], "x ^ n = 3"),
        thm(XYN, ["0 < n", "n < 2"], "x = 3"),
        id="the-first-power-is-the-base",
    ),
    pytest.param(
        thm(XYN, ["x >= 1"], "x ^ n >= 1"),
        thm(XYN, ["x >= 1"], "True"),
        id="a-base-of-at-least-one-has-a-power-of-at-least-one",
    ),
    pytest.param(
        thm(XYN, ["even n"], "x ^ n + y ^ 2 >= 0"),
        thm(XYN, ["even n"], "True"),
        id="an-even-power-is-not-negative",
    ),
]

APART = [
    pytest.param(
        thm(XYN, ["x >= 0", "x ^ n * y = 0"], "y = 0"),
        thm(XYN, ["x >= 0", "y = 0"], "y = 0"),
        id="zero-has-power-zero",  # x = 0, n = 1: 0 ^ 1 * y = 0 for every y (zero_power)
    ),
    pytest.param(
        thm(XYN, ["y = (-1 / 2) ^ n"], "y <= 1"),
        thm(XYN, ["y = (-1 / 2) ^ n"], "0 < y & y <= 1"),
        id="a-negative-base-has-a-negative-power",  # n = 1
    ),
    pytest.param(
        thm(XYN, ["0 < n", "n < 3"], "x ^ n = 3"),
        thm(XYN, ["0 < n", "n < 3"], "x = 3"),
        id="the-second-power-is-not-the-base",
    ),
    pytest.param(
        thm(XYN, ["x < 0"], "x ^ n + y ^ 2 >= 0"),
        thm(XYN, ["x < 0"], "True"),
        id="an-odd-power-of-a-negative-base-is-negative",
    ),
    pytest.param(
        # `^` takes a natural exponent (Power.thy: power :: 'a ⇒ nat ⇒ 'a): with a real one it is no power, and
        # nothing is known about it
        thm("x y r :: real", ["x > 0", "x ^ r * y = 0"], "y = 0"),
        thm("x y r :: real", ["x > 0", "y = 0"], "y = 0"),
        id="no-power-facts-for-a-real-exponent",
    ),
]


test_power_facts_merge, test_power_near_misses_stay_apart = verdict_tests(MERGE, APART)
