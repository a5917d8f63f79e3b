"""Mathlib concepts Z3 now sees: sums and products over symbolic ranges/intervals, primes, gcd/lcm,
factorial/choose, exp/log/sin, digits. Each pair below is decided the right way; 11 of the 13 "merge"
pairs did not merge before (those concepts were opaque), and the "apart" pairs guard soundness."""

import pytest

from atf.symeq.equivalence import SymEq, parse
from tests.lean_statements import apart, merged, thm


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


MERGE = [
    # an index shift: Icc 1 n is range n moved by one (ℕ and ℤ), casts on the summand included
    (
        thm("(n : ℕ) (a : ℕ → ℝ)", "(∑ k in Finset.Icc 1 n, (a k : ℝ) / k ^ 2) ≥ 0"),
        thm("(n : ℕ) (a : ℕ → ℝ)", "(∑ k in Finset.range n, ((a (k + 1) : ℝ) / (k + 1) ^ 2)) ≥ 0"),
    ),
    (
        thm("(n : ℕ)", "∑ i in Finset.Icc 1 n, i = n * (n + 1) / 2"),
        thm("(n : ℕ)", "∑ i in Finset.range n, (i + 1) = n * (n + 1) / 2"),
    ),
    (
        thm("(a b : ℤ) (h : a ≤ b)", "∑ i in Finset.Icc a b, i = 0"),
        thm("(a b : ℤ) (h : a ≤ b)", "∑ i ∈ Finset.Ico a (b + 1), i = 0"),
    ),
    # the last term split off
    (
        thm("(n : ℕ) (f : ℕ → ℕ) (h : ∑ i in Finset.range (n + 1), f i = 10)", "f n = 3"),
        thm("(n : ℕ) (f : ℕ → ℕ) (h : (∑ i in Finset.range n, f i) + f n = 10)", "f n = 3"),
    ),
    (
        thm("(n : ℕ) (f : ℕ → ℕ → ℕ)", "∀ m : ℕ, ∑ i in Finset.Icc 1 n, f m i ≥ m"),
        thm("(n : ℕ) (f : ℕ → ℕ → ℕ)", "∀ k : ℕ, ∑ i in Finset.range n, f k (i + 1) ≥ k"),
    ),
    # primes are at least 2 and 2 is the only even one
    (thm("(p : ℕ) (hp : Nat.Prime p) (h : p < 3)", "p = 2"), thm("(p : ℕ) (hp : Nat.Prime p)", "p ≤ 2 → p = 2")),
    (thm("(p : ℕ) (hp : Nat.Prime p) (h : Even p)", "p = 2"), thm("(p : ℕ) (hp : p.Prime) (h : 2 ∣ p)", "p = 2")),
    # exp > 0, log x > 0 for x > 1, gcd a b ≤ a for a > 0, choose n k = 0 for k > n: such conjuncts are redundant
    (thm("(x : ℝ)", "Real.exp x > 0 ∧ x = 1"), thm("(x : ℝ)", "x = 1")),
    (thm("(x : ℝ) (h : 1 < x)", "Real.log x > 0 ∧ x = 2"), thm("(x : ℝ) (h : 1 < x)", "x = 2")),
    (thm("(a b : ℕ) (ha : 0 < a)", "Nat.gcd a b ≤ a ∧ b = 1"), thm("(a b : ℕ) (ha : 0 < a)", "b = 1")),
    (thm("(n : ℕ)", "Nat.choose n (n + 1) = 0 ∧ n = 3"), thm("(n : ℕ)", "n = 3")),
    (thm("(x : ℝ)", "Real.sin x ≤ 1 ∧ x = 3"), thm("(x : ℝ)", "x = 3")),
    # digit sums of literals are numbers
    (thm("(n : ℕ) (h : n = 5)", "(Nat.digits 10 1998).sum = 27"), thm("(n : ℕ) (h : n = 5)", "True")),
]

APART = [
    (
        thm("(n : ℕ)", "∑ i in Finset.Icc 0 n, i = n * (n + 1) / 2"),
        thm("(n : ℕ)", "∑ i in Finset.range n, i = n * (n + 1) / 2"),
    ),
    (thm("(n : ℕ)", "∑ i in Finset.range n, (i + 1) = 6"), thm("(n : ℕ)", "∏ i in Finset.range n, (i + 1) = 6")),
    (thm("(n : ℕ)", "∑ i in Finset.range n, i ^ 2 = 5"), thm("(n : ℕ)", "∑ i in Finset.range n, i ^ 3 = 5")),
    (
        thm("(a b : ℤ) (h : a ≤ b)", "∑ i in Finset.Icc a b, i = 0"),
        thm("(a b : ℤ) (h : a ≤ b)", "∑ i in Finset.Ico a b, i = 0"),
    ),
    (
        thm("(n : ℕ) (f : ℕ → ℕ → ℕ)", "∀ m : ℕ, ∑ i in Finset.range n, f m i ≥ m"),
        thm("(n : ℕ) (f : ℕ → ℕ → ℕ)", "∀ m : ℕ, ∑ i in Finset.range n, f 0 i ≥ m"),
    ),
    (
        thm("(n : ℕ) (f : ℕ → ℕ → ℕ)", "∀ m k : ℕ, ∑ i in Finset.range n, f m k ≥ m"),
        thm("(n : ℕ) (f : ℕ → ℕ → ℕ)", "∀ m k : ℕ, ∑ i in Finset.range n, f k m ≥ m"),
    ),
    # Lean's `Prime` on ℤ holds for -3: primes are not assumed positive there
    (thm("(p : ℤ) (hp : Prime p)", "p ≥ 2 ∨ p = 0"), thm("(p : ℤ) (hp : Prime p)", "True")),
    (thm("(x : ℝ)", "Real.sin x = 1/2"), thm("(x : ℝ)", "Real.sin x = 1/3")),
    (thm("(n : ℕ) (h : (Nat.digits 10 n).sum = 5)", "n > 0"), thm("(n : ℕ) (h : (Nat.digits 10 n).sum = 6)", "n > 0")),
    (thm("(x : ℝ) (h : 0 < x)", "Real.log x < 0"), thm("(x : ℝ) (h : 0 < x)", "x < 1 ∧ x ≠ 1 / 2")),
]


@pytest.mark.parametrize("a,b", MERGE)
def test_modelled_concepts_merge(symeq, a, b):
    assert merged(symeq, a, b)


@pytest.mark.parametrize("a,b", APART)
def test_modelled_concepts_keep_apart(symeq, a, b):
    assert apart(symeq, a, b)


def test_digit_sum_of_a_literal_is_folded():
    st = parse(thm("", "(Nat.digits 10 1998).sum = 27"), "lean")
    assert str(st.conclusion) == "True"
