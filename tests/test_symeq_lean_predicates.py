"""Mathlib's predicates read as the propositions they are or formalizers state with them
(`atf.symeq.lean_predicates`): a conclusion `CommGroup G` under `[Group G]` is commutativity of G's
multiplication, `IsCommutative G op` is its one field, `Nat.card` is `Fintype.card`, a `Fintype` hypothesis is
`Finite`, `Function.Injective f` / `Surjective` / `Bijective` are their definitions, and a bundled morphism
applies through its coercion. The "apart" pairs are near misses that differ in meaning."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.lean_statements import MATHLIB, apart, merged
from tests.lean_statements import thm as lean_thm


def thm(binders: str, concl: str) -> str:
    return lean_thm(binders, concl, MATHLIB)


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


MERGE = [
    # the commutative class of the structure given
    (
        thm("(G : Type*) [Group G] [Fintype G] (hG : card G = 9)", "CommGroup G"),
        thm("[Group G] [Fintype G] (hG : Fintype.card G = 9)", "∀ a b : G, a * b = b * a"),
    ),
    (
        thm("{R : Type*} [Ring R] (hR : ∀ a : R, a ^ 2 = a)", "CommRing R"),
        thm("(R : Type*) [Ring R] (h : ∀ a : R, a * a = a)", "∀ a b : R, a * b = b * a"),
    ),
    (
        thm("{A : Type*} [AddGroup A] (h : ∀ a : A, a + a = 0)", "AddCommGroup A"),
        thm("{A : Type*} [AddGroup A] (h : ∀ a : A, a + a = 0)", "∀ x y : A, x + y = y + x"),
    ),
    # IsCommutative is its field `comm`, with the operation written in any of its forms
    (
        thm("[Group G] [Finite G] (hG : Nat.card G = 5)", "IsCommutative G Mul.mul"),
        thm("(G : Type*) [Group G] [Fintype G] (hG : card G = 5)", "CommGroup G"),
    ),
    (
        thm("{G : Type*} [Group G] (h : ∀ g : G, g * g = 1)", "IsCommutative G (· * ·)"),
        thm("{G : Type*} [Group G] (h : ∀ g : G, g * g = 1)", "∀ a b : G, a * b = b * a"),
    ),
    (
        thm("{G : Type*} [Group G] (h : ∀ g : G, g * g = 1)", "IsCommutative G (fun x y => HMul.hMul x y)"),
        thm("{G : Type*} [Group G] (h : ∀ g : G, g * g = 1)", "∀ a b : G, a * b = b * a"),
    ),
    # Nat.card of a finite type is Fintype.card; which Fintype instance a statement gets cannot matter
    (
        thm("{G : Type*} [Group G] [Finite G] (h : Nat.card G = 4)", "IsCyclic G"),
        thm("{G : Type*} [Group G] [Fintype G] (h : Fintype.card G = 4)", "IsCyclic G"),
    ),
]

FUNCTIONS = "{G H : Type*} [Group G] [Group H] (φ : G →* H)"
MERGE += [
    (
        thm(FUNCTIONS + " (h : Function.Injective φ)", "φ 1 = 1"),
        thm(FUNCTIONS + " (h : ∀ a b : G, φ a = φ b → a = b)", "φ 1 = 1"),
    ),
    (thm("(f : ℝ → ℝ)", "Function.Surjective f"), thm("(f : ℝ → ℝ)", "∀ y, ∃ x, f x = y")),
    (thm("", "Function.Injective (fun x : ℝ => x ^ 3)"), thm("", "∀ a b : ℝ, a ^ 3 = b ^ 3 → a = b")),
    (
        thm("(f : ℕ → ℕ) (h : Function.Bijective f)", "f 0 = 0"),
        thm("(f : ℕ → ℕ) (h₁ : Function.Injective f) (h₂ : Function.Surjective f)", "f 0 = 0"),
    ),
    (
        thm("(f : ℝ → ℝ) (h : ∀ x, f x = x ^ 2)", "Fintype (f ⁻¹' {4}) → f 2 = 4"),
        thm("(f : ℝ → ℝ) (h : (∀ x, f x = x ^ 2) ∧ Finite (f ⁻¹' {4}))", "f 2 = 4"),
    ),
    # `Fact P` is P; `Nat.Coprime a b` is `Nat.gcd a b = 1` by definition
    (
        thm("{p : ℕ} [Fact p.Prime] (a : ZMod p)", "a ^ p = a"),
        thm("(p : ℕ) (hp : Nat.Prime p) (a : ZMod p)", "a ^ p = a"),
    ),
    (thm("(a b : ℕ) (h : Nat.Coprime a b)", "a ∣ b → a = 1"), thm("(a b : ℕ) (h : a.gcd b = 1)", "a ∣ b → a = 1")),
    # the bound names of `∀ a b, φ a = φ b → a = b` are elements of G: φ applies as a `G → H`
    (thm(FUNCTIONS, "∀ a b, φ a = φ b → a = b"), thm(FUNCTIONS, "∀ x y : G, φ x = φ y → x = y")),
]

APART = [
    # a different law
    (
        thm("(G : Type*) [Group G] [Fintype G] (hG : card G = 9)", "CommGroup G"),
        thm("[Group G] [Fintype G] (hG : Fintype.card G = 9)", "∀ a b : G, a * b = a"),
    ),
    (
        thm("{R : Type*} [Ring R] (hR : ∀ a : R, a ^ 2 = a)", "CommRing R"),
        thm("{R : Type*} [Ring R] (hR : ∀ a : R, a ^ 2 = a)", "∀ a b : R, a + b = b + a"),
    ),
    # not the class the structure given is the commutative version of: CommGroup over a monoid adds inverses
    (
        thm("{M : Type*} [Monoid M] (h : ∀ a : M, a * a = 1)", "CommGroup M"),
        thm("{M : Type*} [Monoid M] (h : ∀ a : M, a * a = 1)", "∀ a b : M, a * b = b * a"),
    ),
    # as a hypothesis, `CommGroup G` is a second group structure on G, unrelated to `[Group G]`
    (
        thm("{G : Type*} [Group G] (h : CommGroup G) (x y : G)", "x * y * x⁻¹ = y"),
        thm("{G : Type*} [Group G] (h : ∀ a b : G, a * b = b * a) (x y : G)", "x * y * x⁻¹ = y"),
    ),
    (
        thm("{G : Type*} [Group G] (h : ∀ g : G, g * g = 1)", "IsCommutative G Mul.mul"),
        thm("{G : Type*} [Group G] (h : ∀ g : G, g * g = 1)", "IsCommutative G Add.add"),
    ),
    (
        thm("{G : Type*} [Group G] [Finite G] (h : Nat.card G = 4)", "IsCyclic G"),
        thm("{G : Type*} [Group G] [Fintype G] (h : Fintype.card G = 8)", "IsCyclic G"),
    ),
]


APART += [
    (thm("(f : ℝ → ℝ)", "Function.Injective f"), thm("(f : ℝ → ℝ)", "Function.Surjective f")),
    (thm("(f : ℝ → ℝ)", "Function.Injective f"), thm("(f : ℝ → ℝ)", "∀ a b, f a ≠ f b → a ≠ b")),
    (
        thm("{p : ℕ} [Fact p.Prime] (a : ZMod p)", "a ^ p = a"),
        thm("(p : ℕ) (hp : Odd p) (a : ZMod p)", "a ^ p = a"),
    ),
    (thm("(a b : ℕ) (h : Nat.Coprime a b)", "a ∣ b → a = 1"), thm("(a b : ℕ) (h : a.gcd b = 2)", "a ∣ b → a = 1")),
    # true on ℕ, false on ℝ: the binder's type is the bound names' type
    (thm("", "Function.Injective (fun x : ℝ => x ^ 2)"), thm("", "∀ a b : ℕ, a ^ 2 = b ^ 2 → a = b")),
    # f applies to something we cannot type: its arguments are never taken to be natural numbers
    (thm("(f : C(ℝ, ℝ))", "Function.Injective f"), thm("(f : C(ℝ, ℝ))", "∀ a b : ℕ, f a = f b → a = b")),
]


@pytest.mark.parametrize("a,b", MERGE)
def test_predicates_merge_with_what_they_state(symeq, a, b):
    assert merged(symeq, a, b)


@pytest.mark.parametrize("a,b", APART)
def test_predicates_stay_apart_from_near_misses(symeq, a, b):
    assert apart(symeq, a, b)
