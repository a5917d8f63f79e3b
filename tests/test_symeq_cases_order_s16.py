"""A function given by cases reads the same whatever the order of its hypotheses (the `if`s it becomes were nested in
hypothesis order, so reversing the hypotheses left two readings that Z3 could not tell equal in time)."""

import pytest

from atf.symeq.equivalence import SymEq

H = "import Mathlib\n"
PIECES = ["(h₀ : ∀ x, (-1 ≤ x ∧ x < 1) → f x = x)", "(h₁ : ∀ y, (1 ≤ y ∧ y < 3) → f y = 2 - y)"]
REST = "(h₂ : ∀ x, f x = f (x + 4)) (S : Finset ℝ) (h₃ : ∀ x, x ∈ S ↔ x = 34 * (f x) ^ 2) : ∑ x in S, f x = 1 / 2"


def statement(pieces: list[str]) -> str:
    return H + f"theorem t (f : ℝ → ℝ) {' '.join(pieces)} {REST} := by sorry"


def test_pieces_in_either_order_are_one_definition():
    r = SymEq("lean", timeout_ms=1000).compare(statement(PIECES), statement(PIECES[::-1]))
    assert r.equivalent and r.method == "syntactic"


@pytest.mark.parametrize("change", [("2 - y", "3 - y"), ("y < 3", "y < 4"), ("-1 ≤ x", "-2 ≤ x")])
def test_a_changed_piece_is_still_another_definition(change):
    other = (
        [PIECES[1].replace(*change), PIECES[0]] if change[0] in PIECES[1] else [PIECES[1], PIECES[0].replace(*change)]
    )
    assert not SymEq("lean", timeout_ms=1000).compare(statement(PIECES), statement(other)).equivalent


@pytest.mark.parametrize(
    "a,b",
    [
        (  # pieces by cases against the `if` a statement writes, in either order
            "(h₀ : ∀ x, x < -5 → f x = x ^ 2 + 9) (h₁ : ∀ x, -5 ≤ x → f x = 3 * x - 8)",
            "(h : ∀ x, f x = if x < -5 then x ^ 2 + 9 else 3 * x - 8)",
        ),
        (
            "(h₁ : ∀ x, -5 ≤ x → f x = 3 * x - 8) (h₀ : ∀ x, x < -5 → f x = x ^ 2 + 9)",
            "(h : ∀ x, f x = if -5 ≤ x then 3 * x - 8 else x ^ 2 + 9)",
        ),
        ("(h : ∀ x, f x = if ¬ (x < 2) then x else 0)", "(h : ∀ x, f x = if x < 2 then 0 else x)"),
    ],
)
def test_one_two_way_choice_however_written(a, b):
    sa = H + f"theorem t (f : ℝ → ℝ) (y : ℝ) {a} (hy : f y = 10) : y = 6 := by sorry"
    sb = H + f"theorem t (f : ℝ → ℝ) (y : ℝ) {b} (hy : f y = 10) : y = 6 := by sorry"
    r = SymEq("lean", timeout_ms=1000).compare(sa, sb)
    assert r.equivalent and r.method == "syntactic"


def test_a_choice_on_sets_keeps_its_order():
    # `≤` on sets is `⊆`, no linear order: `if s ≤ t then a else b` is not `if t < s then b else a`
    a = H + "theorem t (s u : Set ℕ) (x : ℕ) (h : x = if s ≤ u then 1 else 2) : x = 1 := by sorry"
    b = H + "theorem t (s u : Set ℕ) (x : ℕ) (h : x = if u < s then 2 else 1) : x = 1 := by sorry"
    assert not SymEq("lean", timeout_ms=1000).compare(a, b).equivalent
