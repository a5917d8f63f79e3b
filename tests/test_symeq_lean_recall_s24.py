"""Lean recall classes (session 10, s24): rewrites inside binders Z3 does not model (`{x | x ^ 2 = 4}`), a set
variable defined by a set-builder, ring laws in ℂ and `R[X]` (distributivity), pointwise arithmetic on functions
(`1 / f` is `f⁻¹`); each with the near misses that must stay apart."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.lean_statements import thm, verdict_tests


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


C3 = "(a b c : ℂ)"
FN = "(f : ℝ → ℝ) (hf : Continuous f) (h : ∀ x, f x ≠ 0)"

# imo_1962_p4 (miniF2F valid)
COS2 = "Real.cos x ^ 2 + Real.cos (2 * x) ^ 2 + Real.cos (3 * x) ^ 2 = 1"
COS2_SUM = COS2.replace("2 * x", "x + x")
ROOTS = (
    "∃ m : ℤ, x = Real.pi / 2 + m * Real.pi ∨ x = Real.pi / 4 + m * Real.pi / 2 ∨ x = Real.pi / 6 + m * Real.pi / 6"
    " ∨ x = 5 * Real.pi / 6 + m * Real.pi / 6"
)

MERGE = [
    # a set-builder is its predicate as a function of the bound variable (`Set.ext`, `funext`): `sq x`
    (
        thm("(S : Set ℝ) (h : S = {x : ℝ | x ^ 2 = 4})", "S.ncard = 2"),
        thm("(S : Set ℝ) (h : S = {x : ℝ | x * x = 4})", "S.ncard = 2"),
    ),
    (thm("(a : ℝ)", "{x : ℝ | a * x ^ 2 = 1}.ncard = 2"), thm("(a : ℝ)", "{x : ℝ | a * (x * x) = 1}.ncard = 2")),
    (thm("", "{x : ℝ | ∃ y : ℝ, y ^ 2 = x}.ncard = 2"), thm("", "{x : ℝ | ∃ y : ℝ, y * y = x}.ncard = 2")),
    (
        thm("(n : ℕ)", "{x : ℕ | x ≤ n ∧ 2 ∣ x}.ncard = n / 2 + 1"),
        thm("(n : ℕ)", "{x : ℕ | 2 ∣ x ∧ n ≥ x}.ncard = n / 2 + 1"),
    ),
    # the key of a set does not depend on what was translated before it (Z3 orders `∨` by term ids)
    (
        thm(f"(S : Set ℝ) (h₀ : S = {{x : ℝ | {COS2}}})", f"S = {{x : ℝ | {ROOTS}}}"),
        thm(f"(S : Set ℝ) (h₀ : S = {{x : ℝ | {COS2_SUM}}})", f"S = {{x : ℝ | {ROOTS}}}"),
    ),
    # a set variable defined by a set-builder is that set (`S = e` substituted like any definition)
    (thm("(S : Set ℝ) (h : S = {x : ℝ | x ^ 2 = 4})", "S.ncard = 2"), thm("", "{x : ℝ | x ^ 2 = 4}.ncard = 2")),
    # ℂ is a commutative ring: `mul_add`, `mul_sub`, `add_sq`, `neg_sub`
    (thm(C3, "a * (b + c) = 5"), thm(C3, "a * b + a * c = 5")),
    (thm(C3, "a * (b - c) = 5"), thm(C3, "a * b - a * c = 5")),
    (thm(C3, "(a + b) * c = 5"), thm(C3, "c * b + a * c = 5")),
    (thm("(z w : ℂ) (h : z * (w + 1) = 3)", "z = 1"), thm("(z w : ℂ) (h : z * w + z = 3)", "z = 1")),
    (thm("(z : ℂ) (h : (z + 1) ^ 2 = 0)", "z = -1"), thm("(z : ℂ) (h : z ^ 2 + 2 * z + 1 = 0)", "z = -1")),
    (thm("(z : ℂ) (h : z - 2 = 0)", "z ^ 3 = 8"), thm("(z : ℂ) (h : -2 + z = 0)", "z * z * z = 8")),
    (thm("(p q : Polynomial ℝ)", "(p + q) * (p - q) = 1"), thm("(p q : Polynomial ℝ)", "p ^ 2 - q ^ 2 = 1")),
    # a sum or product over an interval is keyed by its summand as a polynomial (imo_1967_p3's `distribute`)
    (
        thm(
            "(n : ℕ) (c : ℕ → ℕ) (h₁ : ∀ s, c s = s * (s + 1))",
            "(∏ i in Finset.Icc 1 n, c i) ∣ ∏ i in Finset.Icc 1 n, c (n + i)",
        ),
        thm(
            "(n : ℕ) (c : ℕ → ℕ) (h₁ : ∀ s, c s = s * s + s * 1)",
            "(∏ i in Finset.Icc 1 n, c i) ∣ ∏ i in Finset.Icc 1 n, c (n + i)",
        ),
    ),
    # a power with a variable exponent stays one atom of the polynomial (no endless re-expansion)
    (
        thm("(n : ℕ) (h₀ : 0 < n) (h₁ : (∑ k in Finset.Icc 1 n, ↑k * Complex.I ^ k) = 48 + 49 * Complex.I)", "n = 97"),
        thm(
            "(n : ℕ) (h₀ : ¬ n ≤ 0) (h₁ : (∑ k in Finset.Icc 1 n, ↑k * Complex.I ^ k) = 48 + 49 * Complex.I)", "n = 97"
        ),
    ),
    (
        thm("(z : ℂ) (n : ℕ) (h : z ^ n * (z + 1) = 1)", "z = 1"),
        thm("(z : ℂ) (n : ℕ) (h : z * z ^ n + z ^ n = 1)", "z = 1"),
    ),
    # functions into a field form a `DivInvMonoid` pointwise (`Pi.divInvMonoid`): `one_div`
    (thm(FN, "Continuous f⁻¹"), thm(FN, "Continuous (1 / f)")),
]

FIELD = "{F : Type*} [Field F] [Fintype F] (hF : card F = 2)"
RING = "{R : Type*} [CommRing R] (a b : R)"
NCRING = "{R : Type*} [Ring R] (a b : R)"
GROUP = "{G : Type*} [Group G] (H : Subgroup G)"
MERGE += [
    # a type variable with a `Field`/`CommRing` instance is a commutative ring, and so are polynomials over it
    (
        thm(FIELD, "Irreducible (12 + X * 6 + X ^ 3 : Polynomial F)"),
        thm(FIELD, "Irreducible (12 + 6 * X + X ^ 3 : Polynomial F)"),
    ),
    (thm(f"{RING} (h : a * (b + 1) = 0)", "a = 0"), thm(f"{RING} (h : a * b + a = 0)", "a = 0")),
    # GaussianInt is a commutative ring (Zsqrtd.commRing)
    (thm("", "(⟨1, 1⟩ : GaussianInt) ^ 2 ∣ 2"), thm("", "(⟨1, 1⟩ : GaussianInt) * (⟨1, 1⟩ : GaussianInt) ∣ 2")),
    # a proposition the parser cannot read is cut at its logical structure first (`not_not`)
    (thm(GROUP, "¬ ¬ (H.Normal ↔ ⁅(⊤ : Subgroup G), H⁆ ≤ H)"), thm(GROUP, "H.Normal ↔ ⁅(⊤ : Subgroup G), H⁆ ≤ H")),
    (thm(GROUP, "(H.Normal ∧ ⁅(⊤ : Subgroup G), H⁆ ≤ H)"), thm(GROUP, "⁅(⊤ : Subgroup G), H⁆ ≤ H ∧ H.Normal")),
    (
        thm(GROUP, "¬ ¬ (⁅(⊤ : Subgroup G), H⁆ = ⊥ ↔ ∀ g : G, g ∈ H)"),
        thm(GROUP, "⁅(⊤ : Subgroup G), H⁆ = ⊥ ↔ ∀ g : G, g ∈ H"),
    ),
]

APART = [
    (
        thm("(S : Set ℝ) (h : S = {x : ℝ | x ^ 2 = 4})", "S.ncard = 2"),
        thm("(S : Set ℝ) (h : S = {x : ℝ | x ^ 2 = 5})", "S.ncard = 2"),
    ),
    (
        thm("(S : Set ℝ) (h : S = {x : ℝ | x ^ 2 = 4})", "S.ncard = 2"),
        thm("(S : Set ℝ) (h : S = {x : ℝ | x ^ 3 = 4})", "S.ncard = 2"),
    ),
    (
        thm("(S : Set ℕ) (h : S = {x : ℕ | x ^ 2 = 4})", "S.ncard = 1"),
        thm("(S : Set ℤ) (h : S = {x : ℤ | x ^ 2 = 4})", "S.ncard = 1"),
    ),
    (
        thm("(S : Set ℝ) (h : S = {x : ℝ | x ^ 2 = 4})", "S.ncard = 2"),
        thm("(S : Set ℝ) (h : S = {x : ℝ | x ^ 2 = 4})", "S.ncard = 3"),
    ),
    (thm("", "{x : ℝ | ∃ y : ℝ, y * y = x}.ncard = 2"), thm("", "{x : ℝ | ∃ y : ℝ, y * y = x + 1}.ncard = 2")),
    (
        thm("(n : ℕ)", "{x : ℕ | x ≤ n ∧ 2 ∣ x}.ncard = n / 2 + 1"),
        thm("(n : ℕ)", "{x : ℕ | x < n ∧ 2 ∣ x}.ncard = n / 2 + 1"),
    ),
    (thm("(a b : ℝ)", "{x : ℝ | a * x ^ 2 = b}.ncard = 2"), thm("(a b : ℝ)", "{x : ℝ | a * x ^ 2 = b + 1}.ncard = 2")),
    (thm(C3, "a * (b - c) = 5"), thm(C3, "a * b - c * a = 6")),
    (
        thm(f"(S : Set ℝ) (h₀ : S = {{x : ℝ | {COS2}}})", f"S = {{x : ℝ | {ROOTS}}}"),
        thm(f"(S : Set ℝ) (h₀ : S = {{x : ℝ | {COS2_SUM}}})", f"S = {{x : ℝ | {ROOTS.replace('5 *', '7 *')}}}"),
    ),
    (thm(C3, "a * (b - c) = 5"), thm(C3, "a * b + a * c = 5")),
    (thm(C3, "a * (b + c) = 5"), thm(C3, "a * b + c = 5")),
    (
        thm(
            "(n : ℕ) (c : ℕ → ℕ) (h₁ : ∀ s, c s = s * (s + 1))",
            "(∏ i in Finset.Icc 1 n, c i) ∣ ∏ i in Finset.Icc 1 n, c (n + i)",
        ),
        thm(
            "(n : ℕ) (c : ℕ → ℕ) (h₁ : ∀ s, c s = s * s + s * 2)",
            "(∏ i in Finset.Icc 1 n, c i) ∣ ∏ i in Finset.Icc 1 n, c (n + i)",
        ),
    ),
    (
        thm("(z : ℂ) (n : ℕ) (h : z ^ n * (z + 1) = 1)", "z = 1"),
        thm("(z : ℂ) (n : ℕ) (h : z * z ^ n + z = 1)", "z = 1"),
    ),
    (thm("(z w : ℂ) (h : z * (w + 1) = 3)", "z = 1"), thm("(z w : ℂ) (h : z * w + w = 3)", "z = 1")),
    (thm("(z : ℂ) (h : (z + 1) ^ 2 = 0)", "z = -1"), thm("(z : ℂ) (h : z ^ 2 + z + 1 = 0)", "z = -1")),
    (thm("(p q : Polynomial ℝ)", "(p + q) * (p - q) = 1"), thm("(p q : Polynomial ℝ)", "p ^ 2 + q ^ 2 = 1")),
    (thm(FN, "Continuous f⁻¹"), thm(FN, "Continuous (2 / f)")),
    (thm(FN, "Continuous f⁻¹"), thm(FN, "Continuous f")),
]

APART += [
    (
        thm(FIELD, "Irreducible (12 + X * 6 + X ^ 3 : Polynomial F)"),
        thm(FIELD, "Irreducible (12 + 7 * X + X ^ 3 : Polynomial F)"),
    ),
    # without a commutative instance, `*` does not commute
    (thm(f"{NCRING} (h : a * b = 0)", "a = 0"), thm(f"{NCRING} (h : b * a = 0)", "a = 0")),
    (thm(f"{RING} (h : a * b = 0)", "a = 0"), thm(f"{NCRING} (h : b * a = 0)", "a = 0")),
    (thm("", "(⟨1, 1⟩ : GaussianInt) ^ 2 ∣ 2"), thm("", "(⟨1, 1⟩ : GaussianInt) * (⟨1, 2⟩ : GaussianInt) ∣ 2")),
    (thm(GROUP, "¬ (H.Normal ↔ ⁅(⊤ : Subgroup G), H⁆ ≤ H)"), thm(GROUP, "H.Normal ↔ ⁅(⊤ : Subgroup G), H⁆ ≤ H")),
    (thm(GROUP, "H.Normal → ⁅(⊤ : Subgroup G), H⁆ ≤ H"), thm(GROUP, "⁅(⊤ : Subgroup G), H⁆ ≤ H → H.Normal")),
    (thm(GROUP, "¬ H.Normal ∧ ⁅(⊤ : Subgroup G), H⁆ ≤ H"), thm(GROUP, "¬ (H.Normal ∧ ⁅(⊤ : Subgroup G), H⁆ ≤ H)")),
    (
        thm(GROUP, "⁅(⊤ : Subgroup G), H⁆ = ⊥ → ∀ g : G, g ∈ H ↔ g = 1"),
        thm(GROUP, "(⁅(⊤ : Subgroup G), H⁆ = ⊥ → ∀ g : G, g ∈ H) ↔ ∀ g : G, g = 1"),
    ),
]

XY = "(x y : ℝ) (hx : 0 < x) (hy : 0 < y)"
MERGE += [
    # Mathlib readings of real functions, each for every argument (junk values included): `Real.log_mul`,
    # `Real.log_pow` (log (x ^ 2) = 2 * log x even for x < 0: log x = log |x|), `Real.log_zero`, `Real.exp_add`,
    # `Real.tan_eq_sin_div_cos`, `Int.fract`, `Nat.choose_two_right`, `Nat.gcd_mul_lcm`
    (
        thm(f"{XY} (h : Real.log (x * y) = 2)", "x * y = Real.exp 2"),
        thm(f"{XY} (h : Real.log x + Real.log y = 2)", "x * y = Real.exp 2"),
    ),
    (
        thm("(x : ℝ) (h : Real.log (x ^ 2) = 4)", "x ^ 2 = Real.exp 4"),
        thm("(x : ℝ) (h : 2 * Real.log x = 4)", "x ^ 2 = Real.exp 4"),
    ),
    (thm("", "Real.log 0 = 0"), thm("", "Real.log 1 = 0")),
    (
        thm("(x : ℝ) (h : Real.exp (x + 1) = 3)", "x = Real.log 3 - 1"),
        thm("(x : ℝ) (h : Real.exp x * Real.exp 1 = 3)", "x = Real.log 3 - 1"),
    ),
    (thm("(x : ℝ)", "Real.tan x = 2"), thm("(x : ℝ)", "Real.sin x / Real.cos x = 2")),
    (thm("(x : ℝ)", "Int.fract x = 1 / 2"), thm("(x : ℝ)", "x - ⌊x⌋ = 1 / 2")),
    (thm("(n : ℕ) (h : Nat.choose n 2 = 10)", "n = 5"), thm("(n : ℕ) (h : n * (n - 1) / 2 = 10)", "n = 5")),
    (
        thm("(a b : ℕ) (h₀ : Nat.gcd a b = 6) (h₁ : Nat.lcm a b = 36)", "a * b = 216"),
        thm("(a b : ℕ) (h₀ : Nat.gcd a b = 6) (h₁ : Nat.lcm a b = 36)", "True"),
    ),
]
APART += [
    (
        thm("(x : ℝ) (h : Real.log (x ^ 2) = 4)", "x ^ 2 = Real.exp 4"),
        thm("(x : ℝ) (h : 3 * Real.log x = 4)", "x ^ 2 = Real.exp 4"),
    ),
    (thm("(x : ℝ) (h : Real.log (x * 2) = 4)", "x = 1"), thm("(x : ℝ) (h : Real.log x + Real.log 3 = 4)", "x = 1")),
    (
        thm("(x : ℝ) (h : Real.exp (x + 1) = 3)", "x = Real.log 3 - 1"),
        thm("(x : ℝ) (h : Real.exp x + Real.exp 1 = 3)", "x = Real.log 3 - 1"),
    ),
    (thm("(x : ℝ)", "Real.tan x = 2"), thm("(x : ℝ)", "Real.cos x / Real.sin x = 2")),
    (thm("(x : ℝ)", "Int.fract x = 1 / 2"), thm("(x : ℝ)", "x - ⌈x⌉ = 1 / 2")),
    (thm("(n : ℕ) (h : Nat.choose n 2 = 10)", "n = 5"), thm("(n : ℕ) (h : n * (n + 1) / 2 = 10)", "n = 5")),
    # log x = 0 also at x = 0 and x = -1 (Real.log_zero, Real.log_neg_eq_log)
    (thm("(x : ℝ) (h : Real.log x = 0)", "x = 1"), thm("(x : ℝ) (h : Real.log x = 0)", "x = 1 ∨ x = 0 ∨ x = -1")),
    (
        thm("(a b : ℕ) (h₀ : Nat.gcd a b = 6) (h₁ : Nat.lcm a b = 36)", "a * b = 212"),
        thm("(a b : ℕ) (h₀ : Nat.gcd a b = 6) (h₁ : Nat.lcm a b = 36)", "True"),
    ),
]

test_merge, test_apart = verdict_tests(MERGE, APART)


# the metamorphic rewrite kind `distribute` (Mathlib `mul_add`): where it applies, and where it must not


def _distribute(text: str) -> str | None:
    from atf.symeq.metamorphic import REWRITES, cut

    q = REWRITES["distribute"](cut(text))
    return None if q is None else q.text()


@pytest.mark.parametrize(
    "text,expected",
    [
        (
            thm("(a b c : ℂ) (h : a * (b + c) = 5)", "a * b = 2 * (b + 1)"),
            "theorem t ( a b c : ℂ ) ( h : ( a * b + a * c ) = 5 ) : a * b = ( 2 * b + 2 * 1 ) := by sorry",
        ),
        # `x / a * (b + c)` is `(x / a) * (b + c)`; `a * (b + c) ^ 2` squares the bracket; `f a * (b + c)` applies f
        (thm("(x a b c : ℝ) (f : ℝ → ℝ)", "x / a * (b + c) = a * (b + c) ^ 2 + f a * (b + c)"), None),
        # pointwise `*` and `+` of sets do not distribute
        (thm("(s t u : Set ℕ)", "s * (t + u) = s * t + s * u"), None),
    ],
)
def test_distribute_rewrite(text, expected):
    assert _distribute(text) == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        ("¬ ¬ ( X ⁅ a ⁆ ↔ ∀ a , P a → Q )", ("not", ["¬ ( X ⁅ a ⁆ ↔ ∀ a , P a → Q )"])),
        ("A → ∀ x , B ↔ C", ("implies", ["A", "∀ x , B ↔ C"])),
        ("¬ A ∧ B ∨ C", ("or", ["¬ A ∧ B", "C"])),
        # a body or a branch runs to the end: its connectives are not the proposition's
        ("∀ᶠ x in l , A x ∧ B", None),
        ("⨆ i , f i ≤ 3 ∧ B", None),
        ("if c then A else B ∧ C", None),
        ("A ↔ B ↔ C", None),
    ],
)
def test_unreadable_proposition_is_cut_at_its_logical_structure(text, expected):
    from atf.symeq.lean_frontend import _logical_split, tokenize

    out = _logical_split(tokenize(text))
    assert (out and (out[0], [" ".join(t for _, t in p) for p in out[1]])) == expected
