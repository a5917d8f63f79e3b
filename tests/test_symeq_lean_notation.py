"""Lean/Mathlib notation the front-end reads as Lean does: the structure arrows (`≃*`, `→*`, `→ₗ[R]`, ...) with
Mathlib's precedences, set ascriptions that do not change the set, `f = fun x => c` (funext), and dot notation on
a receiver whose type is not known here. Each "merge" pair means one thing written two ways; each "apart" pair
is a near miss that means something else."""

import pytest

from atf.symeq.equivalence import SymEq
from atf.symeq.lean_frontend import tokenize, tokens_to_type
from tests.lean_statements import apart, merged
from tests.lean_statements import thm as lean_thm

HEADER = "import Mathlib\nopen Function Fintype Subgroup Set\nopen scoped BigOperators\n\n"


def thm(binders: str, concl: str) -> str:
    return lean_thm(binders, concl, HEADER)


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


GROUPS = "{A B C : Type*} [Group A] [Group B] [Group C]"

MERGE = [
    # `infixl:25 " ≃* "` is looser than `×` (35): the parentheses are redundant, and it is `MulEquiv`
    (thm(GROUPS, "A × B ≃* B × A"), thm(GROUPS, "(A × B) ≃* (B × A)")),
    (thm(GROUPS, "Nonempty (A × B ≃* B × A)"), thm(GROUPS, "Nonempty (MulEquiv (A × B) (B × A))")),
    (thm(GROUPS, "Nonempty (A ≃* B ≃* C)"), thm(GROUPS, "Nonempty ((A ≃* B) ≃* C)")),  # infixl
    (thm(GROUPS, "Nonempty (A →* B →* C)"), thm(GROUPS, "Nonempty (A →* (B →* C))")),  # infixr
    (
        thm("(s t u : Set ℝ) (p : ℝ × ℝ × ℝ)", "p ∈ s ×ˢ t ×ˢ u"),
        thm("(s t u : Set ℝ) (p : ℝ × ℝ × ℝ)", "p ∈ s ×ˢ (t ×ˢ u)"),
    ),
    # the same arrows in binder types
    (
        thm(GROUPS + " (f : A × B →* C)", "Function.Injective f"),
        thm(GROUPS + " (g : (A × B) →* C)", "Injective g"),
    ),
    (
        thm("{R M : Type*} [Ring R] [AddCommGroup M] [Module R M] (f : M →ₗ[R] M)", "Function.Injective f"),
        thm("{R M : Type*} [Ring R] [AddCommGroup M] [Module R M] (f : M →ₗ[R] (M))", "Function.Injective f"),
    ),
    # a set ascription that says what the set's elements already are
    (
        thm("{G : Type*} [Group G] (a b : G)", "closure ({a, b} : Set G) = ⊤"),
        thm("{G : Type*} [Group G] (a b : G)", "Subgroup.closure {a, b} = ⊤"),
    ),
    (thm("(S : Set ℝ)", "S = ({1, 2} : Set ℝ)"), thm("(S : Set ℝ)", "S = {1, 2}")),
    (thm("(x : ℝ) (h : x ∈ ({1, 2} : Set ℝ))", "x > 0"), thm("(x : ℝ) (h : x = 1 ∨ x = 2)", "x > 0")),
    # function extensionality, with `fun`, `λ`, `=>` and `↦`
    (thm("(f : ℝ → ℝ) (c : ℝ)", "f = fun x => c"), thm("(f : ℝ → ℝ) (c : ℝ)", "∀ x, f x = c")),
    (thm("(f : ℝ → ℝ)", "∃ c, f = λ x => c"), thm("(f : ℝ → ℝ)", "∃ c : ℝ, ∀ y : ℝ, f y = c")),
    (thm("(f : ℕ → ℕ)", "(fun n ↦ 2 * n) = f"), thm("(f : ℕ → ℕ)", "∀ n, f n = n + n")),
    # the lambda's bound name is not the variable of the other side
    (thm("(g : ℝ → ℝ → ℝ) (x : ℝ)", "g x = fun x => x"), thm("(g : ℝ → ℝ → ℝ) (x : ℝ)", "∀ y, g x y = y")),
    # notations Lean reads as the function they stand for, or as what it inserts itself
    (
        thm("{G H : Type*} [Group G] [Group H] (φ : G →* H)", "Function.Surjective ⇑φ"),
        thm("{G H : Type*} [Group G] [Group H] (φ : G →* H)", "Function.Surjective φ"),
    ),
    (thm("", "¬ Nonempty (ℝˣ ≃* ℂˣ)"), thm("", "¬ Nonempty (MulEquiv (Units ℝ) ℂˣ)")),
    (thm("(n : ℕ) (u : (ZMod n)ˣ)", "u ^ 2 = 1"), thm("(n : ℕ) (u : Units (ZMod n))", "u ^ 2 = 1")),
    (thm("(I : Set (Set ℝ)) (U : Set ℝ)", "U = ⋃₀ I"), thm("(I : Set (Set ℝ)) (U : Set ℝ)", "U = Set.sUnion I")),
    (thm("(f : ℕ → ℝ)", "(∑' n : ℕ, f n) = 1"), thm("(f : ℕ → ℝ)", "(∑' k : ℕ, f k) = 1")),
    (thm("", "Continuous fun x : ℝ => x ^ 2"), thm("", "Continuous (fun y : ℝ => y ^ 2)")),
    (
        thm("", "Nonempty ({s : Set ℝ // IsOpen s} ≃ {s : Set ℝ // IsClosed s})"),
        thm("", "Nonempty (Equiv {t : Set ℝ // IsOpen t} {u : Set ℝ // IsClosed u})"),
    ),
    # `𝓝` is `nhds`; `fun n => a n` is `a` (η), where n's type is a's domain
    (
        thm("(a : ℕ → ℝ)", "Filter.Tendsto (fun n => a n) Filter.atTop (𝓝 0)"),
        thm("(a : ℕ → ℝ)", "Filter.Tendsto a Filter.atTop (nhds 0)"),
    ),
    # dot notation on `Subgroup.map φ N`, a Subgroup (the other statement names `Subgroup.Normal`)
    (
        thm("{G H : Type*} [Group G] [Group H] (φ : G →* H) (N : Subgroup G) [N.Normal]", "(Subgroup.map φ N).Normal"),
        thm(
            "{G : Type*} [Group G] (K : Subgroup G) {H : Type*} [Group H] (φ : G →* H) [hK : Subgroup.Normal K]",
            "Subgroup.Normal (Subgroup.map φ K)",
        ),
    ),
]

# a pair's fields, however written (Prod in Init/Prelude.lean: `.1` is `.fst`)
MERGE += [
    (thm("(p : ℝ × ℝ) (h : p.1 = 2)", "p.2 = 3"), thm("(p : ℝ × ℝ) (h : Prod.fst p = 2)", "p.snd = 3")),
    (thm("(f : ℕ → ℕ × ℕ)", "(f 1).1 = 2"), thm("(f : ℕ → ℕ × ℕ)", "(f 1).fst = 2")),
    (thm("", "∀ p q : ℤ × ℤ, p.1 = q.1 ∧ p.2 = q.2 → p = q"), thm("", "True")),
]

APART = [
    (thm(GROUPS, "Nonempty (A ≃* B ≃* C)"), thm(GROUPS, "Nonempty (A ≃* (B ≃* C))")),
    (thm(GROUPS, "Nonempty (A →* B →* C)"), thm(GROUPS, "Nonempty ((A →* B) →* C)")),
    (thm(GROUPS, "A × B ≃* B × A"), thm(GROUPS, "A × B →* B × A")),
    (thm("", "Nonempty (ℕ →o ℕ)"), thm("", "Nonempty (ℕ ≃o ℕ)")),
    (
        thm("(s t u : Set ℝ) (p : ℝ × ℝ × ℝ)", "p ∈ s ×ˢ t ×ˢ u"),
        thm("(s t u : Set ℝ) (p : ℝ × ℝ × ℝ)", "p ∈ (s ×ˢ t) ×ˢ u"),
    ),
    (
        thm(GROUPS + " (f : A × B →* C)", "Function.Injective f"),
        thm(GROUPS + " (f : A × B → C)", "Function.Injective f"),
    ),
    (
        thm("{G : Type*} [Group G] (a b : G)", "closure ({a, b} : Set G) = ⊤"),
        thm("{G : Type*} [Group G] (a b : G)", "closure ({a} : Set G) = ⊤"),
    ),
    (thm("(S : Set ℝ)", "S = ({1, 2} : Set ℝ)"), thm("(S : Set ℝ)", "S = {1, 3}")),
    (thm("(x : ℝ) (h : x ∈ ({1, 2} : Set ℝ))", "x > 1"), thm("(x : ℝ) (h : x = 1 ∨ x = 3)", "x > 1")),
    (thm("(f : ℝ → ℝ) (c : ℝ)", "f = fun x => c + 1"), thm("(f : ℝ → ℝ) (c : ℝ)", "∀ x, f x = c")),
    (thm("(f : ℝ → ℝ)", "f ≠ fun x => 0"), thm("(f : ℝ → ℝ)", "∀ x, f x ≠ 0")),
    (thm("(g : ℝ → ℝ → ℝ) (x : ℝ)", "g x = fun x => x"), thm("(g : ℝ → ℝ → ℝ) (x : ℝ)", "∀ y, g y y = y")),
    (
        thm("{G H : Type*} [Group G] [Group H] (φ : G →* H)", "Function.Injective ⇑φ"),
        thm("{G H : Type*} [Group G] [Group H] (φ : G →* H)", "Function.Surjective φ"),
    ),
    (thm("", "¬ Nonempty (ℝˣ ≃* ℂˣ)"), thm("", "¬ Nonempty (ℝ ≃* ℂ)")),
    (thm("(n : ℕ) (u : (ZMod n)ˣ)", "u ^ 2 = 1"), thm("(n : ℕ) (u : ZMod n)", "u ^ 2 = 1")),
    (thm("(I : Set (Set ℝ)) (U : Set ℝ)", "U = ⋃₀ I"), thm("(I : Set (Set ℝ)) (U : Set ℝ)", "U = ⋂₀ I")),
    (thm("(f : ℕ → ℝ)", "(∑' n : ℕ, f n) = 1"), thm("(f : ℕ → ℝ)", "(∑' k : ℕ, f (k + 1)) = 1")),
    (thm("(f : ℕ → ℝ)", "(∑' n : ℕ, f n) * 2 = 1"), thm("(f : ℕ → ℝ)", "(∑' n : ℕ, f n * 2) = 1")),
    (thm("", "Continuous fun x : ℝ => x ^ 2"), thm("", "Continuous (fun y : ℝ => y ^ 3)")),
    (
        thm("", "Nonempty ({s : Set ℝ // IsOpen s} ≃ {s : Set ℝ // IsClosed s})"),
        thm("", "Nonempty ({s : Set ℝ // IsOpen s} ≃ {s : Set ℝ // IsOpen s})"),
    ),
    # `fun (n : ℕ) => f n` with `f : ℝ → ℝ` is f on the naturals (`f ↑n`), a sequence, not f
    (
        thm("(f : ℝ → ℝ)", "Filter.Tendsto (fun n : ℕ => f n) Filter.atTop (𝓝 0)"),
        thm("(f : ℝ → ℝ)", "Filter.Tendsto f Filter.atTop (𝓝 0)"),
    ),
    (
        thm("(a : ℕ → ℝ)", "Filter.Tendsto (fun n => a (n + 1)) Filter.atTop (𝓝 0)"),
        thm("(a : ℕ → ℝ)", "Filter.Tendsto a Filter.atTop (nhds 0)"),
    ),
    # `.Normal` on a function of another namespace is not read as `Subgroup.Normal`
    (
        thm("{G H : Type*} [Group G] [Group H] (φ : G →* H)", "(MonoidHom.range φ).Normal"),
        thm("{G H : Type*} [Group G] [Group H] (φ : G →* H)", "Subgroup.Normal (MonoidHom.range φ)"),
    ),
    (thm("(p : ℝ × ℝ) (h : p.1 = 2)", "p.2 = 3"), thm("(p : ℝ × ℝ) (h : p.2 = 2)", "p.1 = 3")),
    (thm("(p : ℕ × ℕ) (h : p.fst = 2)", "p.snd = 3"), thm("(p : ℕ × ℕ) (h : p.fst = 2)", "p.fst = 3")),
]


@pytest.mark.parametrize("a,b", MERGE)
def test_one_meaning_written_two_ways_merges(symeq, a, b):
    assert merged(symeq, a, b)


@pytest.mark.parametrize("a,b", APART)
def test_near_misses_stay_apart(symeq, a, b):
    assert apart(symeq, a, b)


@pytest.mark.parametrize(
    "text,name",
    [
        ("A × B ≃* B × A", "MulEquiv ( A × B ) ( B × A )"),
        ("(A × B) ≃* (B × A)", "MulEquiv ( A × B ) ( B × A )"),
        ("G →+* H →* K", "RingHom G ( MonoidHom H K )"),
        ("M →ₗ[R] N", "LinearMap ( RingHom.id R ) M N"),
        ("Set (G →* H)", "Set ( MonoidHom G H )"),
        ("ℕ →o ℕ", "OrderHom ℕ ℕ"),
        ("V →ₗ [K] V", "LinearMap ( RingHom.id K ) V V"),  # tokens joined with spaces read the same
    ],
)
def test_structure_arrows_in_types_are_the_structures(text, name):
    assert tokens_to_type(tokenize(text)).name == name


def test_a_function_type_ending_in_a_structure_arrow_stays_a_function():
    ty = tokens_to_type(tokenize("A → B →* C"))
    assert [str(a) for a in ty.args] == ["A"] and ty.ret.name == "MonoidHom B C"
