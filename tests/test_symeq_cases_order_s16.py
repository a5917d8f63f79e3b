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
