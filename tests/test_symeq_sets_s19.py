"""Sets: one element type on both sides of `=`, and sets read by their members.

Soundness. Lean elaborates `S = Set.Icc 0 (3 / 2)` with `S : Set ℝ` at S's type (`Eq` has one type argument), so
the bounds are reals. SymEq kept a binder's `Set ℝ` a sort of its own and a set it builds (`Set.Icc …`,
`{x | …}`) a set type, did not unify the two, and for Lean did not pass a set's type from one side of `=` to the
other at all: the numerals defaulted to ℕ, 3 / 2 became 1, and `S = Set.Icc 0 1` merged with
`S = Set.Icc 0 (3 / 2)` (and `{x : ℝ | 0 ≤ x ∧ x ≤ 1} = Set.Icc 0 1`, true, with the same for 3 / 2, false).

Recall. A set defined by a hypothesis (`S = {n | n % 3 = 0}`, or by its members, `∀ n, n ∈ S ↔ n % 3 = 0`) is
substituted, and what is then asked of it is read by its members: `6 ∈ {n | n % 3 = 0}` is `6 % 3 = 0`
(Mathlib `Set.mem_setOf_eq`, `Set.mem_Icc`, `Set.mem_insert_iff`), and two sets written out are equal, or one a
subset of the other, by their members (`Set.ext_iff`, `Set.subset_def`; Isabelle `set_eq_iff`, `subset_eq`).
A Finset defined by its members is not substituted: no Finset has infinitely many, and a statement assuming one
holds vacuously, where `7 % 3 = 0` in place of `7 ∈ S` does not.
"""

import pytest

from tests.symeq_pairs import same_isabelle, same_lean


@pytest.mark.parametrize(
    "a,b",
    [
        ("(S : Set ℝ) : S = Set.Icc 0 1", "(S : Set ℝ) : S = Set.Icc 0 (3 / 2)"),
        ("(S : Set ℝ) : Set.Icc 0 1 = S", "(S : Set ℝ) : Set.Icc 0 (3 / 2) = S"),
        ("(S : Set ℝ) : S = {1 / 2}", "(S : Set ℝ) : S = {0}"),
        (": {x : ℝ | 0 ≤ x ∧ x ≤ 1} = Set.Icc 0 1", ": {x : ℝ | 0 ≤ x ∧ x ≤ 1} = Set.Icc 0 (3 / 2)"),
        (": Set.Icc 0 1 = {x : ℝ | 0 ≤ x ∧ x ≤ 1}", ": Set.Icc 0 (3 / 2) = {x : ℝ | 0 ≤ x ∧ x ≤ 1}"),
    ],
)
def test_a_set_has_the_element_type_of_what_it_is_equal_to(a, b):
    assert not same_lean(a, b)


@pytest.mark.parametrize(
    "a,b",
    [
        ("(S : Set ℕ) (h : S = {n | n % 3 = 0}) : 6 ∈ S", ": 6 % 3 = 0"),
        ("(S : Set ℕ) (h : ∀ n, n ∈ S ↔ n % 3 = 0) : 6 ∈ S", "(S : Set ℕ) (h : S = {n | n % 3 = 0}) : 6 ∈ S"),
        (
            "(S : Set ℝ) (h : ∀ x, x ∈ S ↔ x ^ 2 = 4) : S = {2, -2}",
            "(S : Set ℝ) (h : S = {x | x ^ 2 = 4}) : S = {-2, 2}",
        ),
        ("(A : Set ℝ) (hA : A = Set.Icc 0 1) : A ⊆ Set.Icc 0 2", ": True"),
        (": {x : ℝ | 0 ≤ x ∧ x ≤ 1} = Set.Icc 0 1", ": True"),
        ("(s : Finset ℕ) (h : s = Finset.range 5) : s = {0, 1, 2, 3, 4}", ": True"),
    ],
)
def test_sets_are_read_by_their_members(a, b):
    assert same_lean(a, b)


@pytest.mark.parametrize(
    "a,b",
    [
        (
            "(S : Set ℝ) (h : ∀ x, x ∈ S ↔ x ^ 2 = 4) : S = {2, 3}",
            "(S : Set ℝ) (h : S = {x | x ^ 2 = 4}) : S = {-2, 2}",
        ),
        ("(A : Set ℝ) (hA : A = Set.Icc 0 1) : A ⊆ Set.Icc 0 (1 / 2)", ": True"),
        ("(s : Finset ℕ) (h : s = Finset.range 5) : s = {0, 1, 2, 3}", ": True"),
        ("(S : Set ℕ) (h : ∀ n, n ∈ S ↔ n % 3 = 0) : 7 ∈ S", "(S : Set ℕ) (h : ∀ n, n ∈ S ↔ n % 3 = 0) : 6 ∈ S"),
        # no Finset has every multiple of 3: the first holds vacuously, the second is false
        ("(S : Finset ℕ) (h : ∀ n, n ∈ S ↔ n % 3 = 0) : 7 ∈ S", ": 7 % 3 = 0"),
    ],
)
def test_sets_that_differ_stay_apart(a, b):
    assert not same_lean(a, b)


def test_isabelle_sets_defined_by_their_members():
    by_members = (
        'fixes S :: "nat set" assumes h0 : "\\<forall>n. n \\<in> S \\<longleftrightarrow> n mod 3 = 0" '
        'shows "6 \\<in> S"'
    )
    by_equation = 'fixes S :: "nat set" assumes h0 : "S = {n. n mod 3 = 0}" shows "6 \\<in> S"'
    assert same_isabelle(by_members, by_equation)
    seven = 'fixes S :: "nat set" assumes h0 : "S = {n. n mod 3 = 0}" shows "7 \\<in> S"'
    assert not same_isabelle(by_members, seven)


@pytest.mark.parametrize(
    "a,b",
    [
        ("(S : Set ℝ) : closure S = Set.Icc 0 1", "(S : Set ℝ) : closure S = Set.Icc 0 (3 / 2)"),
        ("(S : Set ℝ) : closure S = {1 / 2}", "(S : Set ℝ) : closure S = {0}"),
        ("(S : Set ℝ) : interior S = {x | 2 * x = 1}", "(S : Set ℝ) : interior S = {x | 2 * x = 3}"),
        ("(x : ℝ) : foo x = (3 / 2, 1)", "(x : ℝ) : foo x = (1, 1)"),
    ],
)
def test_the_parts_of_a_value_of_unknown_type_are_never_defaulted_to_nat(a, b):
    """`closure S` (a function SymEq does not know) has a type Lean knows: a set, pair or function equal to it keeps
    its numerals in an uninterpreted sort; defaulted to ℕ, 3 / 2 was 1 and 1 / 2 was 0."""
    assert not same_lean(a, b)


def test_over_the_integers_three_halves_is_one():
    # Int division: `(3 / 2 : ℤ) = 1`, so the two intervals are one set
    assert same_lean("(S : Set ℤ) : S = Set.Icc 0 1", "(S : Set ℤ) : S = Set.Icc 0 (3 / 2)")


@pytest.mark.parametrize(
    "a,b",
    [
        ("(S : Set (ℝ × ℝ)) : S = {(1 / 2, 1)}", "(S : Set (ℝ × ℝ)) : S = {(0, 1)}"),
        ("(S : Finset (ℝ × ℝ)) : S = {(1 / 2, 1)}", "(S : Finset (ℝ × ℝ)) : S = {(0, 1)}"),
        (
            "(S : Set (EuclideanSpace ℝ (Fin 2))) : S = {v | v 0 = 1 / 2}",
            "(S : Set (EuclideanSpace ℝ (Fin 2))) : S = {v | v 0 = 0}",
        ),
    ],
)
def test_a_set_of_pairs_or_of_elements_symeq_cannot_read_keeps_its_numerals(a, b):
    """`Set (ℝ × ℝ)` is read as pairs of reals; a collection whose element type is not read at all leaves the
    elements of a set equal to it in an uninterpreted sort. Both had their numerals defaulted to ℕ (1 / 2 = 0)."""
    assert not same_lean(a, b)


def test_a_set_of_pairs_defined_by_its_members():
    assert same_lean("(S : Set (ℝ × ℝ)) (h : ∀ p, p ∈ S ↔ p.1 = p.2) : (1 / 2, 1 / 2) ∈ S", ": True")


def test_a_subset_of_a_set_written_out_is_read_by_its_members():
    # Set.subset_def: `A ⊆ B` is `∀ x, x ∈ A → x ∈ B`, also where B is a variable
    assert same_lean("(A B : Set ℕ) (h : A = {1, 2}) : A ⊆ B", "(A B : Set ℕ) (h : A = {1, 2}) : 1 ∈ B ∧ 2 ∈ B")
    assert same_lean("(S : Set ℝ) (h : S ⊆ Set.Icc 0 1) : True", "(S : Set ℝ) (h : ∀ x ∈ S, 0 ≤ x ∧ x ≤ 1) : True")
    assert not same_lean("(A B : Set ℕ) (h : A = {1, 2}) : A ⊆ B", "(A B : Set ℕ) (h : A = {1, 2}) : 1 ∈ B")
    assert not same_lean("(S : Set ℝ) : {1 / 2} ⊆ S", "(S : Set ℝ) : {0} ⊆ S")
