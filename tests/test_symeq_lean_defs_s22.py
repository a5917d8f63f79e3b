"""Mathlib definitions that formalizers state with, read as the propositions and sets they are (Lean front-end).

`Monotone f` is `∀ ⦃a b⦄, a ≤ b → f a ≤ f b` (Antitone: `f b ≤ f a`; StrictMono / StrictAnti: `<`), `MonotoneOn f s`
the same for a, b in s (Mathlib/Order/Monotone/Defs.lean); `Function.Periodic f c` is `∀ x, f (x + c) = f x`
(Mathlib/Algebra/Periodic.lean); `IsSquare a` is `∃ r, a = r * r` (Mathlib/Algebra/Group/Even.lean);
`upperBounds s = {x | ∀ ⦃a⦄, a ∈ s → a ≤ x}` and `BddAbove s` its nonemptiness (Mathlib/Order/Bounds/Defs.lean).
Membership in an image, a range or a preimage is what `Set.mem_image`, `Finset.mem_image`, `Set.mem_range` and
`Set.mem_preimage` say, however the set is written (`f '' s`, `Set.image f s`, `s.image f`, `f ⁻¹' s`). Before,
each stayed an uninterpreted atom, so a statement written with it never met the same statement written out; the
guards (`False` rows) are the near misses that must stay apart."""

import pytest

from tests.symeq_pairs import same_lean

SQ = "(f : ℝ → ℝ) (hf : ∀ x, f x = 2 * x) (y : ℝ)"


@pytest.mark.parametrize(
    "a,b,same",
    [
        ("(f : ℕ → ℕ) (hf : Monotone f) : f 1 ≤ f 2", "(f : ℕ → ℕ) (hf : ∀ a b, a ≤ b → f a ≤ f b) : f 1 ≤ f 2", True),
        (
            "(f : ℝ → ℝ) (hf : StrictMono f) (a : ℝ) : f a < f (a + 1)",
            "(f : ℝ → ℝ) (hf : ∀ x y, x < y → f x < f y) (a : ℝ) : f a < f (a + 1)",
            True,
        ),
        ("(f : ℝ → ℝ) (hf : Antitone f) : True", "(f : ℝ → ℝ) (hf : ∀ x y, y ≥ x → f y ≤ f x) : True", True),
        ("(f : ℝ → ℝ) (hf : StrictAnti f) : True", "(f : ℝ → ℝ) (hf : ∀ x y, x < y → f y < f x) : True", True),
        (
            "(f : ℝ → ℝ) (hf : StrictMonoOn f (Set.Ioi 0)) : True",
            "(f : ℝ → ℝ) (hf : ∀ x y, 0 < x → 0 < y → x < y → f x < f y) : True",
            True,
        ),
        (": StrictMono (fun x : ℝ => 2 * x + 1)", ": ∀ a b : ℝ, a < b → 2 * a + 1 < 2 * b + 1", True),
        (
            "(f : ℝ → ℝ) (hf : Function.Periodic f 2) : f 3 = f 1",
            "(f : ℝ → ℝ) (hf : ∀ x, f (x + 2) = f x) : f 3 = f 1",
            True,
        ),
        ("(n : ℕ) (h : IsSquare n) : n ≠ 2", "(n : ℕ) (h : ∃ r, n = r * r) : n ≠ 2", True),
        ("(s : Set ℝ) (x : ℝ) (h : x ∈ upperBounds s) : True", "(s : Set ℝ) (x : ℝ) (h : ∀ a ∈ s, a ≤ x) : True", True),
        ("(s : Set ℝ) (h : BddBelow s) : True", "(s : Set ℝ) (h : ∃ x, ∀ a ∈ s, x ≤ a) : True", True),
        ("(x : ℝ) (h : x ∈ upperBounds (Set.Icc (0:ℝ) 1)) : True", "(x : ℝ) (h : 1 ≤ x) : True", True),
        # guards
        ("(f : ℝ → ℝ) (hf : Monotone f) : True", "(f : ℝ → ℝ) (hf : StrictMono f) : True", False),
        ("(f : ℝ → ℝ) (hf : Monotone f) : True", "(f : ℝ → ℝ) (hf : Antitone f) : True", False),
        (
            "(f : ℝ → ℝ) (hf : StrictMonoOn f (Set.Ioi 0)) : True",
            "(f : ℝ → ℝ) (hf : StrictMonoOn f (Set.Ici 0)) : True",
            False,
        ),
        (": StrictMono (fun x : ℕ => x - 1)", ": Monotone (fun x : ℕ => x - 1)", False),
        ("(f : ℝ → ℝ) (hf : Function.Periodic f 2) : True", "(f : ℝ → ℝ) (hf : Function.Periodic f 3) : True", False),
        ("(n : ℕ) (h : IsSquare n) : True", "(n : ℕ) (h : Even n) : True", False),
        ("(n : ℤ) (h : IsSquare n) : n ≥ 0", "(n : ℤ) (h : IsSquare n) : n > 0", False),
        (
            "(s : Set ℝ) (x : ℝ) (h : x ∈ upperBounds s) : True",
            "(s : Set ℝ) (x : ℝ) (h : x ∈ lowerBounds s) : True",
            False,
        ),
        (
            "(x : ℝ) (h : x ∈ upperBounds (Set.Icc (0:ℝ) 1)) : 1 ≤ x",
            "(x : ℝ) (h : x ∈ upperBounds (Set.Icc (0:ℝ) 2)) : 1 ≤ x",
            False,
        ),
    ],
)
def test_lean_predicates_unfold(a, b, same):
    assert same_lean(a, b) == same


@pytest.mark.parametrize(
    "a,b,same",
    [
        (f"{SQ} (hy : y ∈ f '' Set.Icc 0 1) : y ≤ 2", f"{SQ} (hy : ∃ x ∈ Set.Icc 0 1, f x = y) : y ≤ 2", True),
        (f"{SQ} (hy : y ∈ f ⁻¹' Set.Icc 0 1) : y ≤ 1/2", f"{SQ} (hy : f y ∈ Set.Icc 0 1) : y ≤ 1/2", True),
        (f"{SQ} (hy : y ∈ Set.image f (Set.Icc 0 1)) : True", f"{SQ} (hy : y ∈ f '' Set.Icc 0 1) : True", True),
        ("(f : ℝ → ℝ) (y : ℝ) (hy : y ∈ Set.range f) : True", "(f : ℝ → ℝ) (y : ℝ) (hy : ∃ x, f x = y) : True", True),
        (
            "(f : ℕ → ℕ) (y : ℕ) (hy : y ∈ (Finset.range 3).image f) : y ≤ 2",
            "(f : ℕ → ℕ) (y : ℕ) (hy : ∃ x < 3, f x = y) : y ≤ 2",
            True,
        ),
        (
            "(f : ℕ → ℝ) (hf : ∀ n, f n = n / 2) : (3/2 : ℝ) ∈ Set.range f",
            "(f : ℕ → ℝ) (hf : ∀ n, f n = n / 2) : ∃ n, f n = 3/2",
            True,
        ),
        # guards
        (
            "(f : ℝ → ℝ) (y : ℝ) (hy : y ∈ f '' Set.Icc 0 1) : True",
            "(f : ℝ → ℝ) (y : ℝ) (hy : y ∈ f ⁻¹' Set.Icc 0 1) : True",
            False,
        ),
        (
            "(f : ℝ → ℝ) (y : ℝ) (hy : y ∈ f '' Set.Icc 0 1) : True",
            "(f : ℝ → ℝ) (y : ℝ) (hy : y ∈ f '' Set.Icc 0 2) : True",
            False,
        ),
        (
            "(f : ℝ → ℝ) (y : ℝ) (hy : y ∈ Set.range f) : True",
            "(f : ℝ → ℝ) (y : ℝ) (hy : y ∈ f '' Set.Icc 0 1) : True",
            False,
        ),
        (
            "(f : ℕ → ℝ) (hf : ∀ n, f n = n / 2) : (1/2 : ℝ) ∈ Set.range f",
            "(f : ℕ → ℝ) (hf : ∀ n, f n = n / 2) : (1/3 : ℝ) ∈ Set.range f",
            False,
        ),
        ("(f : ℕ → ℕ) (y : ℕ) (hy : y ∈ f ⁻¹' {3}) : True", "(f : ℕ → ℕ) (y : ℕ) (hy : f y = 4) : True", False),
    ],
)
def test_lean_image_range_preimage_membership(a, b, same):
    assert same_lean(a, b) == same


@pytest.mark.parametrize(
    "a,b,same",
    [
        # where no membership reads them, images carry their Mathlib types (a set of f's codomain) and the normaliser
        # reads their members once a definition is substituted or a set equality / inclusion is read pointwise
        (
            "(f : ℝ → ℝ) (S : Set ℝ) (hS : S = f '' Set.Icc 0 1) (y : ℝ) (hy : y ∈ S) : True",
            "(f : ℝ → ℝ) (y : ℝ) (hy : ∃ x, 0 ≤ x ∧ x ≤ 1 ∧ f x = y) : True",
            True,
        ),
        (
            "(f : ℝ → ℝ) (S : Set ℝ) (hS : S = f ⁻¹' Set.Icc 0 1) (y : ℝ) (hy : y ∈ S) : True",
            "(f : ℝ → ℝ) (y : ℝ) (hy : 0 ≤ f y ∧ f y ≤ 1) : True",
            True,
        ),
        (
            "(f : ℝ → ℝ) (hf : ∀ x, f x = x ^ 2) : Set.range f = Set.Ici 0",
            "(f : ℝ → ℝ) (hf : ∀ x, f x = x ^ 2) : ∀ y, (∃ x, f x = y) ↔ 0 ≤ y",
            True,
        ),
        (
            "(f : ℝ → ℝ) (A : Set ℝ) : f '' A ⊆ Set.Icc 0 1",
            "(f : ℝ → ℝ) (A : Set ℝ) : ∀ x ∈ A, 0 ≤ f x ∧ f x ≤ 1",
            True,
        ),
        ("(f : ℕ → ℕ) (hf : ∀ n, f n = 2 * n) : f '' {1, 2} = {2, 4}", ": True", True),
        # guards
        ("(f : ℕ → ℕ) (hf : ∀ n, f n = 2 * n) : f '' {1, 2} = {2, 5}", ": True", False),
        (
            "(f : ℝ → ℝ) (S : Set ℝ) (hS : S = f '' Set.Icc 0 1) (y : ℝ) (hy : y ∈ S) : True",
            "(f : ℝ → ℝ) (S : Set ℝ) (hS : S = f ⁻¹' Set.Icc 0 1) (y : ℝ) (hy : y ∈ S) : True",
            False,
        ),
        ("(f : ℝ → ℝ) : Set.range f = Set.Icc 0 1", "(f : ℝ → ℝ) : Set.range f = Set.Icc 0 (3/2)", False),
        ("(f : ℝ → ℝ) (S : Set ℝ) : f '' S = Set.Icc 0 1", "(f : ℝ → ℝ) (S : Set ℝ) : f '' S = Set.Icc 0 (3/2)", False),
        ("(f : ℝ → ℝ) : f ⁻¹' {1/2} = ∅", "(f : ℝ → ℝ) : f ⁻¹' {0} = ∅", False),
    ],
)
def test_lean_images_read_after_substitution(a, b, same):
    assert same_lean(a, b) == same


@pytest.mark.parametrize(
    "a,b,same",
    [
        # Mathlib's `dist` on numbers: `Real.dist_eq` (|x - y|), `Nat.dist_eq`, `Int.dist_eq`, `Rat.dist_eq` (of the
        # casts to ℝ); on a product the sup metric (`Prod.dist_eq`), never the Euclidean distance
        ("(x y : ℝ) (h : dist x y = 3) : True", "(x y : ℝ) (h : |x - y| = 3) : True", True),
        ("(x : ℝ) (h : dist x 2 < 1) : 1 < x", "(x : ℝ) (h : |x - 2| < 1) : 1 < x", True),
        ("(m n : ℕ) (h : dist m n = 2) : True", "(m n : ℕ) (h : |(m : ℝ) - n| = 2) : True", True),
        ("(m n : ℤ) (h : dist m n = 2) : True", "(m n : ℤ) (h : |m - n| = 2) : True", True),
        (
            "(p q : ℝ × ℝ) (h : dist p q = 1) : True",
            "(p q : ℝ × ℝ) (h : max (|p.1 - q.1|) (|p.2 - q.2|) = 1) : True",
            True,
        ),
        (": dist (3 : ℕ) 5 = 2", ": True", True),
        # guards
        ("(m n : ℕ) (h : dist m n = 2) : True", "(m n : ℕ) (h : m - n = 2) : True", False),
        (
            "(p q : ℝ × ℝ) (h : dist p q = 1) : True",
            "(p q : ℝ × ℝ) (h : Real.sqrt ((p.1 - q.1)^2 + (p.2 - q.2)^2) = 1) : True",
            False,
        ),
        ("(x y : ℝ) (h : dist x y = 3) : True", "(x y : ℝ) (h : x - y = 3) : True", False),
        (": dist (3 : ℝ) (1/2) = 3", ": True", False),
    ],
)
def test_lean_dist_on_numbers(a, b, same):
    assert same_lean(a, b) == same


def test_an_image_of_no_function_is_not_unfolded():
    """`x ∈ Set.range 3`, `x ∈ y ⁻¹' {1}` (y : ℝ) do not elaborate in Lean: left as memberships of an opaque set, never
    read as `∃ t, 3 t = x`, which would meet a statement that applies a number the same way."""
    from atf.symeq import SymEq

    eq = SymEq("lean")
    for text in ("(x : ℝ) : x ∈ Set.range 3", "(x y : ℝ) : x ∈ y ⁻¹' {1}"):
        st = eq.parse(f"theorem t {text} := by sorry")
        assert "exists" not in str(st) and "∈" in str(st), str(st)
    assert not same_lean("(x : ℝ) : x ∈ Set.range 3", "(x : ℝ) : ∃ t, (3 : ℝ) * t = x")
