"""Membership of a union, an intersection, a difference: read by its parts in Lean too.

`x ∈ A ∪ B` is `x ∈ A ∨ x ∈ B` (Mathlib `Set.mem_union`, `Finset.mem_union`; Isabelle Set.thy `Un_iff`), `x ∈ A ∩ B`
is `x ∈ A ∧ x ∈ B` (`Set.mem_inter_iff`, `Finset.mem_inter`; `Int_iff`), `x ∈ A \\ B` is `x ∈ A ∧ x ∉ B`
(`Set.mem_diff`, `Finset.mem_sdiff`; Isabelle writes `A - B`, `Diff_iff`). SymEq read the first two for Isabelle
only, so a Lean statement writing `x ∈ Set.Icc 0 1 ∪ Set.Icc 2 3` stayed apart from the same bounds written out,
and `x ∈ Set.Icc 0 1 ∪ {5}` apart from `x ∈ {5} ∪ Set.Icc 0 1`. Lean's `-` between sets is pointwise subtraction
(`Set.sub`, scoped in `Pointwise`), not a difference: it stays as it was."""

import pytest

from tests.symeq_pairs import same_isabelle, same_lean


@pytest.mark.parametrize(
    "a,b",
    [
        (
            "(x : ℝ) (h : x ∈ Set.Icc 0 1 ∪ Set.Icc 2 3) : x ≤ 3",
            "(x : ℝ) (h : (0 ≤ x ∧ x ≤ 1) ∨ (2 ≤ x ∧ x ≤ 3)) : x ≤ 3",
        ),
        ("(x : ℝ) : x ∈ Set.Icc 0 1 ∪ {5}", "(x : ℝ) : x ∈ ({5} : Set ℝ) ∪ Set.Icc 0 1"),
        ("(x : ℝ) : x ∈ Set.Ioo 0 2 ∩ Set.Ioo 1 3", "(x : ℝ) : 1 < x ∧ x < 2"),
        ("(n : ℕ) : n ∈ Finset.range 10 ∩ Finset.Icc 3 20", "(n : ℕ) : 3 ≤ n ∧ n < 10"),
        ("(x : ℝ) : x ∈ Set.Icc 0 3 \\ Set.Ioo 1 2", "(x : ℝ) : (0 ≤ x ∧ x ≤ 1) ∨ (2 ≤ x ∧ x ≤ 3)"),
        ("(n : ℕ) : n ∈ Finset.range 5 \\ {0}", "(n : ℕ) : 1 ≤ n ∧ n ≤ 4"),
        (
            "(S : Set ℝ) (h : S = Set.Icc 0 1 ∪ Set.Icc 2 3) : (5 / 2 : ℝ) ∈ S",
            "(S : Set ℝ) (h : S = Set.Icc 0 1 ∪ Set.Icc 2 3) : True",
        ),
    ],
)
def test_lean_memberships_of_unions_intersections_and_differences_are_read(a, b):
    assert same_lean(a, b)


@pytest.mark.parametrize(
    "a,b",
    [
        ("(x : ℝ) : x ∈ Set.Icc 0 1 ∪ Set.Icc 2 3", "(x : ℝ) : x ∈ Set.Icc 0 1 ∩ Set.Icc 2 3"),
        ("(x : ℝ) : x ∈ Set.Icc 0 3 \\ Set.Ioo 1 2", "(x : ℝ) : x ∈ Set.Icc 0 3 ∩ Set.Ioo 1 2"),
        ("(x : ℝ) : x ∈ Set.Icc 0 3 \\ Set.Ioo 1 2", "(x : ℝ) : x ∈ Set.Ioo 1 2 \\ Set.Icc 0 3"),
        # the numerals keep the element type: 3 / 2 is no 1 in a set of reals
        ("(x : ℝ) : x ∈ Set.Icc 0 (3 / 2) ∪ {5}", "(x : ℝ) : x ∈ Set.Icc 0 1 ∪ {5}"),
        (
            "(S : Set ℝ) (h : S = Set.Icc 0 1 ∪ Set.Icc 2 3) : (3 / 2 : ℝ) ∈ S",
            "(S : Set ℝ) (h : S = Set.Icc 0 1 ∪ Set.Icc 2 3) : True",
        ),
        # `-` between Lean sets is pointwise (`Set.sub`), not the difference
        ("(x : ℝ) : x ∈ Set.Icc 0 3 - Set.Ioo 1 2", "(x : ℝ) : x ∈ Set.Icc 0 3 \\ Set.Ioo 1 2"),
    ],
)
def test_lean_set_operations_that_differ_stay_apart(a, b):
    assert not same_lean(a, b)


def test_isabelle_set_difference_is_read():
    a = 'fixes x :: real shows "x \\<in> {0..3} - {1<..<2}"'
    b = 'fixes x :: real shows "(0 \\<le> x \\<and> x \\<le> 1) \\<or> (2 \\<le> x \\<and> x \\<le> 3)"'
    assert same_isabelle(a, b)
    c = 'fixes x :: real shows "x \\<in> {1<..<2} - {0..3}"'
    assert not same_isabelle(a, c)
    # `- A` on sets is the complement (Set.thy Compl_iff)
    outside = 'fixes x :: real shows "x \\<in> - {0..1}"'
    assert same_isabelle(outside, 'fixes x :: real shows "x < 0 \\<or> 1 < x"')
    assert not same_isabelle(outside, 'fixes x :: real shows "x \\<in> {0..1}"')


@pytest.mark.parametrize(
    "a,b,same",
    [
        # `ᶜ` is no identifier character in Lean (Init/Meta `isLetterLike`): `Aᶜ` is the complement of A. Read as one
        # name, `Aᶜ` was a set unrelated to A, and these two (true, false) merged
        (
            "(A : Set ℝ) (hA : A = Set.Icc 0 1) : (2 : ℝ) ∈ Aᶜ",
            "(A : Set ℝ) (hA : A = Set.Icc 0 3) : (2 : ℝ) ∈ Aᶜ",
            False,
        ),
        ("(M N : Matrix (Fin 2) (Fin 2) ℝ) (h : N = M) : Nᵀ = Mᵀ", "(M N : Matrix (Fin 2) (Fin 2) ℝ) : True", True),
        ("(A : Set ℝ) (x : ℝ) : x ∈ Aᶜ", "(A : Set ℝ) (x : ℝ) : x ∈ A", False),
        # and a membership of a complement is read (Mathlib `Set.mem_compl_iff`)
        ("(x : ℝ) : x ∈ (Set.Icc 0 1)ᶜ", "(x : ℝ) : x < 0 ∨ 1 < x", True),
        ("(A : Set ℝ) (x : ℝ) (h : x ∈ Aᶜ) : x ∉ A", "(A : Set ℝ) (x : ℝ) (h : x ∉ A) : x ∉ A", True),
        ("(x : ℝ) : x ∈ (Set.Icc 0 (3 / 2))ᶜ", "(x : ℝ) : x ∈ (Set.Icc 0 1)ᶜ", False),
    ],
)
def test_postfix_complement_and_transpose_apply_to_their_operand(a, b, same):
    assert same_lean(a, b) == same
