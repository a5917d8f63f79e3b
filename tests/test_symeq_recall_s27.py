"""Meaning-preserving pairs the session-27 probe found kept apart, each a Mathlib or Isabelle lemma that holds at
every value (so reading it can merge nothing that differs):

- a real power at a cast natural or integer exponent is the monoid (group) power, at any base: Mathlib
  `Real.rpow_natCast : x ^ (n : ℝ) = x ^ n`, `Real.rpow_intCast`;
- the number of elements of an interval of ℕ or ℤ: Mathlib `Nat.card_Icc : (Icc a b).card = b + 1 - a`,
  `Nat.card_Ico`, `Nat.card_Ioc` (`b - a`), `Nat.card_Ioo` (`b - a - 1`), on ℤ through `toNat` (`Int.card_Icc`);
  Isabelle `card_atLeastLessThan`, `card_atLeastAtMost_int`, ...;
- `Nat.pred n` is `n - 1` (Init/Prelude.lean);
- gcd and lcm with a zero operand: `Nat.gcd_zero_right`, `Int.gcd_zero_right`, `lcm_zero_right`; Isabelle
  `gcd_0_int`, `lcm_0_right`;
- `Nat.sqrt` at a literal (⌊√n⌋, `Nat.sqrt_eq'`), and the sum of `Nat.digits` once a premise gave the literal.
"""

import pytest

from tests.symeq_pairs import same_isabelle, same_lean


@pytest.mark.parametrize(
    "a",
    [
        "(x : ℝ) (n : ℕ) : x ^ (n : ℝ) = x ^ n",
        "(n : ℕ) : (2 : ℝ) ^ (n : ℝ) = 2 ^ n",
        "(x : ℝ) (n : ℤ) : x ^ (n : ℝ) = x ^ n",
        "(n : ℕ) : (Finset.Ico 1 n).card = n - 1",
        "(n : ℕ) : (Finset.Ioo 1 n).card = n - 2",
        "(n : ℕ) : (Finset.Ioc 3 n).card = n - 3",
        "(a b : ℤ) : (Finset.Icc a b).card = (b + 1 - a).toNat",
        "(n : ℕ) : Nat.pred n = n + 1 - 2",
        "(n : ℕ) : Nat.gcd n 0 = n",
        "(n : ℕ) : Nat.lcm 0 n = 0",
        "(i : ℤ) : Int.gcd i 0 = i.natAbs",
        ": Nat.sqrt 10 = 3",
    ],
)
def test_lean_identities_that_hold_at_every_value(a):
    assert same_lean(a, ": True")


@pytest.mark.parametrize(
    "a",
    [
        "(x : ℝ) (n : ℕ) : x ^ (n : ℝ) = x ^ (n + 1)",
        "(x : ℝ) (q : ℚ) : x ^ (q : ℝ) = x ^ (2 : ℕ)",
        "(a b : ℤ) : (Finset.Ico a b).card = (b - a).natAbs",
        "(n : ℕ) : (Finset.Ioo 1 n).card = n - 1",
        "(n : ℕ) : Nat.pred n = n + 1",
        "(n : ℕ) : Nat.gcd n 1 = n",
        "(n : ℕ) : Nat.lcm 1 n = 0",
        ": Nat.sqrt 10 = 4",
        "(n : ℕ) : Nat.sqrt n = 3",
    ],
)
def test_lean_near_misses_stay_apart(a):
    assert not same_lean(a, ": True")


@pytest.mark.parametrize(
    "a,same",
    [
        ('fixes n :: nat shows "card {2..<n} = n - 2"', True),
        ('fixes a b :: int shows "card {a..b} = nat (b - a + 1)"', True),
        ('fixes a b :: int shows "card {a<..<b} = nat (b - a - 1)"', True),
        ('fixes a b :: int shows "card {a<..<b} = nat (b - a)"', False),
        ('fixes x :: int shows "gcd x 0 = \\<bar>x\\<bar>"', True),
        ('fixes x :: int shows "gcd x 0 = x"', False),
    ],
)
def test_isabelle_interval_cards_and_gcd_with_zero(a, same):
    assert same_isabelle(a, '"True"') == same


@pytest.mark.parametrize(
    "a,b,same",
    [
        ("(n : ℕ) (h : n = 45) : (Nat.digits 10 n).sum = 9", "(n : ℕ) (h : n = 45) : True", True),
        ("(n : ℕ) (h : n = 45) : (Nat.digits 10 n).sum = 10", "(n : ℕ) (h : n = 45) : True", False),
        ("(n : ℕ) (h : n = 10) : Nat.sqrt n = 3", "(n : ℕ) (h : n = 10) : True", True),
        ("(n : ℕ) (h : n = 10) : Nat.sqrt n = 2", "(n : ℕ) (h : n = 10) : True", False),
    ],
)
def test_natural_functions_at_a_literal_a_premise_gives(a, b, same):
    assert same_lean(a, b) == same
