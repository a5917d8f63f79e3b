"""Lean has empty types and types that depend on bound variables; Z3 sorts are neither.

Found on the metamorphic *test* split (ProofNet exercise_13_3b, `swap_quantifier`): `¬ ∀ X : Type, P X` merged
with `¬ ∃ X : Type, P X`. The class behind it:

- a quantifier over a type (`∃ G : Type, …`) or over a type that depends on a bound variable (`∃ n, ∀ x : Fin n,
  …`): one Z3 sort stood for every X, every n;
- a quantifier over a type that may be empty (a type variable, `Fin n`): `∀ x : X, False` was simplified to
  False and `∃ x : X, True` to True, and Z3 read both over a nonempty sort. In Mathlib `Fin 0` and `Empty` have no
  element (`Fin.elim0`, `IsEmpty (Fin 0)`), so `∀ x : Fin 0, False` is a theorem and `∃ x : Fin 0, True` is false;
- an unused variable `(x : X)` of such a type was dropped, though it says X has an element.

What says a type has an element: a variable of it, or an instance such as `[Group G]` (`1 : G`).

Found while auditing the same class (a Lean type read as a wider one): `NNReal` and `PNat` were read as ℝ and ℕ, so
`(x : NNReal) : 0 ≤ (x : ℝ)` (true) merged with `(x : ℝ) : 0 ≤ x` (false); their elements are ≥ 0 and ≥ 1 and their
subtraction truncates (`NNReal.coe_sub_def`, `PNat.sub_coe`).
"""

import pytest

from atf.symeq.equivalence import SymEq
from tests.lean_statements import thm, verdict_tests

TOPOLOGY = (
    "∀ s : Set (Set X), (∀ t : Set X, t ∈ s → (Set.Infinite tᶜ ∨ t = ∅ ∨ t = ⊤)) →"
    " (Set.Infinite (⋃₀ s)ᶜ ∨ (⋃₀ s) = ∅ ∨ (⋃₀ s) = ⊤)"
)

APART = [
    # exercise_13_3b: the gold holds (X = ℕ), the mutant does not (a finite X satisfies P)
    (thm("", f"¬ ∀ X : Type, {TOPOLOGY}"), thm("", f"¬ ∃ X : Type, {TOPOLOGY}")),
    (thm("", "¬ ∀ X : Type, ∀ s : Set X, s = ∅"), thm("", "¬ ∃ X : Type, ∀ s : Set X, s = ∅")),
    (thm("", "∃ G : Type, ∃ a : G, a = a"), thm("", "∀ G : Type, ∃ a : G, a = a")),
    # ∃ n, … holds at n = 0 or n = 1; ∀ n, … fails at n = 2 or n = 1
    (thm("", "∃ n : ℕ, ∀ x : Fin n, False"), thm("", "∀ n : ℕ, ∀ x : Fin n, False")),
    (thm("", "∃ n : ℕ, ∀ x y : Fin n, x = y"), thm("", "∀ n : ℕ, ∀ x y : Fin n, x = y")),
    (thm("", "∃ n : ℕ, ∃ x : Fin n, x = x"), thm("", "∀ n : ℕ, ∃ x : Fin n, x = x")),
    # X may be `Empty`, `Fin n` may be `Fin 0`
    (thm("(X : Type)", "∃ x : X, x = x"), thm("(X : Type)", "True")),
    (thm("(X : Type)", "∀ x : X, False"), thm("(X : Type)", "False")),
    (thm("(X : Type) (f : X → ℕ)", "∃ x : X, f x = f x"), thm("(X : Type) (f : X → ℕ)", "1 = 1")),
    (thm("(X : Type) (f : X → X)", "∃ x : X, f x = x ∨ True"), thm("(X : Type) (f : X → X)", "True")),
    (thm("(X : Type) (f : X → ℕ)", "¬ ∀ x : X, f x ≠ f x"), thm("(X : Type) (f : X → ℕ)", "1 = 1")),
    (thm("(n : ℕ)", "∃ x : Fin n, x = x"), thm("(n : ℕ)", "True")),
    # an unused `(x : X)` says X has an element
    (thm("(X : Type) (x : X)", "∃ y : X, True"), thm("(X : Type)", "∃ y : X, True")),
    (thm("(X : Type) (x : X)", "¬ ∀ y : X, False"), thm("(X : Type)", "¬ ∀ y : X, False")),
    # a set as a type: its elements (`↥(Set.Icc a b)` is empty when b < a)
    (thm("(a b : ℝ)", "∃ x : Set.Icc a b, True"), thm("(a b : ℝ)", "True")),
    # a class that gives no element
    (thm("(X : Type*) [TopologicalSpace X]", "∃ b : X, b = b"), thm("(X : Type*) [TopologicalSpace X]", "True")),
]

MERGE = [
    # an element at hand, or a type known inhabited (`0 : Fin (n + 1)`, `0 : ZMod n`, `∅ : Set X`)
    (thm("(X : Type) (x : X)", "∃ y : X, y = x"), thm("(X : Type) (x : X)", "True")),
    (thm("(n : ℕ)", "∃ x : Fin (n + 1), x = x"), thm("(n : ℕ)", "True")),
    (thm("(n : ℕ)", "∃ x : Fin 3, x = x"), thm("(n : ℕ)", "True")),
    (thm("(X : Type)", "∃ s : Set X, s = s"), thm("(X : Type)", "True")),
    (thm("(n : ℕ)", "∃ x : ZMod n, x = x"), thm("(n : ℕ)", "True")),
    # quantifiers over a type variable still read as before where nothing hangs on emptiness
    (
        thm("(G : Type*) [Group G] (x : G)", "∀ y : G, x * y = y * x"),
        thm("(G : Type*) [Group G] (x : G)", "∀ z : G, z * x = x * z"),
    ),
    (thm("(G : Type*) [Group G] (a : G)", "∀ b : G, b * 1 = b"), thm("(G : Type*) [Group G]", "∀ b : G, b * 1 = b")),
    (thm("(G : Type*) [Group G]", "∃ b : G, b = b"), thm("(G : Type*) [Group G]", "True")),
    (thm("(X : Type) (p : X → Prop)", "¬ ∃ x : X, p x"), thm("(X : Type) (p : X → Prop)", "∀ x : X, ¬ p x")),
    (thm("", "∀ X : Type, ∀ s : Set X, s ⊆ s"), thm("", "∀ Y : Type, ∀ t : Set Y, t ⊆ t")),
]


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


test_merge, test_apart = verdict_tests(MERGE, APART)

SUBTYPE_APART = [
    (thm("(x : NNReal)", "0 ≤ (x : ℝ)"), thm("(x : ℝ)", "0 ≤ x")),
    (thm("(n : PNat)", "0 < (n : ℕ)"), thm("(n : ℕ)", "0 < n")),
    (thm("(x y : NNReal)", "((x - y : NNReal) : ℝ) = x - y"), thm("(x y : ℝ)", "x - y = x - y")),
    (thm("(a b : PNat) (h : a - b = 1)", "a = b + 1"), thm("(a b : ℕ) (h : a - b = 1)", "a = b + 1")),
]
SUBTYPE_MERGE = [
    (thm("(x y : NNReal) (h : x + y = 2)", "y + x = 2"), thm("(a b : NNReal) (h : b + a = 2)", "a + b = 2")),
    (thm("(x y : PNat) (h : x = y)", "y = x"), thm("(a b : PNat) (h : b = a)", "a = b")),
]
test_subtype_merge, test_subtype_apart = verdict_tests(SUBTYPE_MERGE, SUBTYPE_APART)
