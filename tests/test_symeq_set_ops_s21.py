"""Set operations met after a definition is substituted, read as when they are written in place.

The elaborator reads `x ∈ Aᶜ`, `x ∈ A ∪ B`, ... by their parts where it meets them; the normaliser meets them again
once a set's definition is substituted (`B = Aᶜ`, `B = - {0..1}`), and read only unions, intersections and
differences of sets written out there. Now the complement too (Mathlib `Set.mem_compl_iff`, Isabelle Set.thy
`Compl_iff`), each part read or kept as the atom `x ∈ A` as the elaborator keeps it, and the operands have the
result's type (`HasCompl.compl : α → α`; Isabelle's `uminus`/`minus` are 'a ⇒ 'a and 'a ⇒ 'a ⇒ 'a): `{0..1}` in
`B = - {0..1}` with `B :: real set` is a set of reals, not of naturals. Lean's `-` between sets is pointwise
(Mathlib `Set.sub`, `Set.neg`, scoped in `Pointwise`): neither a difference nor a complement, at any stage."""

import pytest

from tests.symeq_pairs import same_isabelle, same_lean

OUTSIDE = "(x : ℝ) : x < 0 ∨ 1 < x"


@pytest.mark.parametrize(
    "a,b,same",
    [
        ("(x : ℝ) (B : Set ℝ) (hB : B = (Set.Icc 0 1)ᶜ) : x ∈ B", OUTSIDE, True),
        ("(x : ℝ) (A B : Set ℝ) (hA : A = Set.Icc 0 1) (hB : B = Aᶜ) : x ∈ B", OUTSIDE, True),
        (
            "(x : ℝ) (B : Set ℝ) (hB : B = (Set.Icc 0 1)ᶜ ∩ Set.Icc (-1) 5) : x ∈ B",
            "(x : ℝ) : (x < 0 ∨ 1 < x) ∧ -1 ≤ x ∧ x ≤ 5",
            True,
        ),
        # guards: other bounds, and the same set without its complement
        ("(x : ℝ) (A B : Set ℝ) (hA : A = Set.Icc 0 1) (hB : B = Aᶜ) : x ∈ B", "(x : ℝ) : x < 0 ∨ 2 < x", False),
        ("(x : ℝ) (B : Set ℝ) (hB : B = (Set.Icc 0 (3 / 2))ᶜ) : x ∈ B", OUTSIDE, False),
        ("(x : ℝ) (B : Set ℝ) (hB : B = (Set.Icc 0 1)ᶜ) : x ∈ B", "(x : ℝ) : 0 ≤ x ∧ x ≤ 1", False),
        # Lean's `-` between sets is pointwise: `Set.Icc 0 1 - {1}` is `Set.Icc (-1) 0`, `-Set.Icc 0 1` too
        ("(x : ℝ) : x ∈ Set.Icc 0 1 - {1}", "(x : ℝ) : 0 ≤ x ∧ x ≤ 1 ∧ x ≠ 1", False),
        ("(x : ℝ) (B : Set ℝ) (hB : B = Set.Icc 0 1 - {1}) : x ∈ B", "(x : ℝ) : 0 ≤ x ∧ x ≤ 1 ∧ x ≠ 1", False),
        ("(x : ℝ) : x ∈ -Set.Icc 0 1", OUTSIDE, False),
        ("(x : ℝ) (B : Set ℝ) (hB : B = -Set.Icc 0 1) : x ∈ B", OUTSIDE, False),
    ],
)
def test_lean_complements_met_after_substitution(a, b, same):
    assert same_lean(a, b) == same


X = 'fixes x :: real and A B :: "real set" '


@pytest.mark.parametrize(
    "a,b,same",
    [
        (X + 'assumes "B = - {0..1}" shows "x \\<in> B"', 'fixes x :: real shows "x < 0 \\<or> 1 < x"', True),
        (
            X + 'assumes "A = {0..1}" and "B = - A" shows "x \\<in> B"',
            'fixes x :: real shows "x < 0 \\<or> 1 < x"',
            True,
        ),
        (X + 'assumes "B = {0..1} - {1}" shows "x \\<in> B"', 'fixes x :: real shows "0 \\<le> x \\<and> x < 1"', True),
        (
            X + 'assumes "B = - {0..1} - {3}" shows "x \\<in> B"',
            'fixes x :: real shows "(x < 0 \\<or> 1 < x) \\<and> x \\<noteq> 3"',
            True,
        ),
        # `union :: 'a set ⇒ 'a set ⇒ 'a set`: the second operand is a set of reals too
        (
            X + 'assumes "B = {3/2} \\<union> {0..1}" shows "x \\<in> B"',
            'fixes x :: real shows "x = 3/2 \\<or> (0 \\<le> x \\<and> x \\<le> 1)"',
            True,
        ),
        (
            X + 'assumes "B = {0..2} \\<inter> {1..3}" shows "x \\<in> B"',
            'fixes x :: real shows "1 \\<le> x \\<and> x \\<le> 2"',
            True,
        ),
        # guards
        (
            X + 'assumes "B = {3/2} \\<union> {0..1}" shows "x \\<in> B"',
            'fixes x :: real shows "x = 1 \\<or> (0 \\<le> x \\<and> x \\<le> 1)"',
            False,
        ),
        (
            X + 'assumes "A = {0..1}" and "B = - A" shows "x \\<in> B"',
            'fixes x :: real shows "x < 0 \\<or> 2 < x"',
            False,
        ),
        (
            X + 'assumes "B = - {0..1}" shows "x \\<in> B"',
            'fixes x :: real shows "0 \\<le> x \\<and> x \\<le> 1"',
            False,
        ),
        (
            X + 'assumes "B = {0..1} - {1}" shows "x \\<in> B"',
            'fixes x :: real shows "0 \\<le> x \\<and> x \\<le> 1"',
            False,
        ),
    ],
)
def test_isabelle_complements_and_differences_met_after_substitution(a, b, same):
    assert same_isabelle(a, b) == same


def test_the_operands_of_a_set_complement_or_difference_have_its_type():
    from atf.symeq import ir, parse

    st = parse('theorem fixes B :: "real set" shows "B = - {0..1} - {3}"', "isabelle")
    sets = [t for t in ir.walk(st.conclusion) if isinstance(ir.type_of(t), ir.SetTy)]
    assert len(sets) == 5 and all(ir.type_of(t) == ir.SetTy(ir.REAL) for t in sets)
