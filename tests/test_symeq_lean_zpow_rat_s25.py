"""Lean integer powers with a natural exponent, and a rational's numerator and denominator, read as Mathlib defines
them (SymEq VERSION 49). Before, `x ^ (2 : ℤ)` was an uninterpreted `zpow`, and `Rat.num`/`Rat.den` two functions into
one unknown sort (so `q.num + q.den` and `q.den + q.num` differed, and `q.den - 5` was no truncated subtraction)."""

import pytest

from atf.symeq.equivalence import parse
from atf.symeq.normalize import is_true
from tests.symeq_pairs import same_lean


@pytest.mark.parametrize(
    "a, b, same",
    [
        # `zpow_ofNat`, `zpow_natCast`: a ^ (n : ℤ) = a ^ n
        ("(x : ℝ) (h : x ^ (2:ℤ) = 4) : x = 2 ∨ x = -2", "(x : ℝ) (h : x ^ 2 = 4) : x = 2 ∨ x = -2", True),
        ("(x : ℝ) (n : ℕ) (h : x ^ (n:ℤ) = 8) : 0 < x", "(x : ℝ) (n : ℕ) (h : x ^ n = 8) : 0 < x", True),
        ("(q : ℚ) (h : q ^ (3:ℤ) = 8) : q = 2", "(q : ℚ) (h : q * q * q = 8) : q = 2", True),
        # `zpow_neg`: a ^ (-n) = (a ^ n)⁻¹, with Lean's 0⁻¹ = 0
        ("(x : ℝ) (h : x ^ (-1:ℤ) = 2) : x = 1/2", "(x : ℝ) (h : x⁻¹ = 2) : x = 1/2", True),
        ("(x : ℝ) (h : x ^ (-1:ℤ) = 2) : x = 1/2", "(x : ℝ) (h : 1 / x = 2) : x = 1/2", True),
        ("(x : ℝ) (h : x ^ (-1:ℤ) = 0) : x < 1", "(x : ℝ) (h : x = 0) : x < 1", True),
        ("(x : ℝ) (n : ℕ) (h : x ^ (-(n:ℤ)) = 2) : x ≠ 0", "(x : ℝ) (n : ℕ) (h : (x ^ n)⁻¹ = 2) : x ≠ 0", True),
        # the sign matters, and so does the exponent
        ("(x : ℝ) (h : x ^ (-2:ℤ) = 4) : 0 < x", "(x : ℝ) (h : x ^ 2 = 4) : 0 < x", False),
        ("(x : ℝ) (h : x ^ (3:ℤ) = 8) : 0 < x", "(x : ℝ) (h : x ^ 2 = 8) : 0 < x", False),
        # an exponent of unknown sign stays an integer power
        ("(x : ℝ) (k : ℤ) (h : x ^ k = 4) : 0 < x", "(x : ℝ) (k : ℤ) (h : x ^ (-k) = 4) : 0 < x", False),
        # `Rat.num : ℚ → ℤ`, `Rat.den : ℚ → ℕ`
        ("(q : ℚ) (h : q = 3/4) : q.num + q.den = 7", "(r : ℚ) (h : r = 3/4) : r.den + r.num = 7", True),
        ("(q : ℚ) : q.den - 5 = 0", "(q : ℚ) : q.den ≤ 5", True),  # natural subtraction truncates
        ("(q : ℚ) : q.num - 5 = 0", "(q : ℚ) : q.num ≤ 5", False),  # integer subtraction does not
        ("(q : ℚ) (h : q = 6/8) : q.num = 3", "(q : ℚ) (h : q = 6/8) : Rat.num q = 6", False),  # lowest terms
    ],
)
def test_lean_zpow_and_rat_fields(a, b, same):
    assert same_lean(a, b) == same


@pytest.mark.parametrize(
    "claim, true",
    [
        ("((6:ℚ) / 8).num = 3", True),
        ("((6:ℚ) / 8).den = 4", True),
        ("((-3:ℚ) / 4).num = -3", True),
        ("((-3:ℚ) / 4).den = 4", True),
        ("((5:ℚ)).den = 1", True),
        ("((6:ℚ) / 8).num = 6", False),
        ("(2:ℝ) ^ (-2:ℤ) = 1/4", True),
        ("(0:ℝ) ^ (-2:ℤ) = 0", True),
    ],
)
def test_literal_values(claim, true):
    st = parse(f"import Mathlib\ntheorem t : {claim} := by sorry", "lean")
    assert is_true(st.conclusion) == true
