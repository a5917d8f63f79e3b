"""The metamorphic rewrite kinds of session 9 (`atf.symeq.metamorphic`: `square_as_product` ... `interval_membership`):
what each produces on sample statements, and where each must not apply (a type it would not be meaning-preserving
for, an atom that is an argument of an application)."""

import pytest

from atf.symeq.metamorphic import REWRITES, cut


def rw(kind: str, text: str) -> str | None:
    q = REWRITES[kind](cut(text))
    return None if q is None else q.text()


def thm(binders: str, concl: str) -> str:
    return f"theorem t {binders} : {concl} := by sorry"


REAL = "(x y : ℝ) (h₀ : 0 < x ∧ x < 1) (h₁ : y ≠ 0)"
REAL_S = "( x y : ℝ ) ( h₀ : 0 < x ∧ x < 1 ) ( h₁ : y ≠ 0 )"
NAT = "(a b : ℕ) (h₀ : a ∣ b) (h₁ : ¬ 3 ∣ b) (h₂ : Odd a)"
NAT_S = "( a b : ℕ ) ( h₀ : a ∣ b ) ( h₁ : ¬ 3 ∣ b ) ( h₂ : Odd a )"

CASES = [
    (
        "square_as_product",
        thm(REAL, "2 * x + (x + y) ^ 2 ≥ Real.sqrt (x ^ 2)"),
        thm(REAL_S, "2 * x + ( ( x + y ) * ( x + y ) ) ≥ Real.sqrt ( ( x * x ) )"),
    ),
    # `f x ^ 2` is `(f x) ^ 2`, `√x ^ 2` is `(√x) ^ 2`, `x ^ 2 ^ 3` is `x ^ (2 ^ 3)`: left alone
    ("square_as_product", thm("(f : ℝ → ℝ) (x : ℝ)", "f x ^ 2 + √x ^ 2 = x ^ 2 ^ 3"), None),
    ("double_as_sum", thm(REAL, "2 * x + 1 = y"), thm(REAL_S, "( x + x ) + 1 = y")),
    # `a / 2 * x` is `(a / 2) * x`, `2 * x ^ 2` is `2 * (x ^ 2)`
    ("double_as_sum", thm(REAL, "y / 2 * x = 2 * x ^ 2"), None),
    (
        "mirror_all",
        thm(REAL, "2 * x ≥ y"),
        thm("( x y : ℝ ) ( h₀ : x > 0 ∧ 1 > x ) ( h₁ : y ≠ 0 )", "y ≤ 2 * x"),
    ),
    (
        "le_as_not_lt",
        thm("(a b : ℕ) (h : a ≤ b)", "a < 2 * b + 1"),
        thm("( a b : ℕ ) ( h : a ≤ b )", "¬ ( 2 * b + 1 ≤ a )"),
    ),
    # not on a partial order: a subgroup, a function, ℂ
    ("le_as_not_lt", thm("{G : Type*} [Group G] (H K : Subgroup G)", "H ≤ K"), None),
    ("le_as_not_lt", thm("(f g : ℝ → ℝ)", "f ≤ g"), None),
    (
        "dvd_as_mod",
        thm(NAT, "b + 1 ≤ a"),
        thm("( a b : ℕ ) ( h₀ : ( b ) % ( a ) = 0 ) ( h₁ : ¬ ( ( b ) % ( 3 ) = 0 ) ) ( h₂ : Odd a )", "b + 1 ≤ a"),
    ),
    # not in a field or a polynomial ring, where `∣` is not `% = 0`
    ("dvd_as_mod", thm("(x y : ℝ)", "x ∣ y"), None),
    (
        "parity_as_mod",
        thm(NAT, "Even b"),
        thm("( a b : ℕ ) ( h₀ : a ∣ b ) ( h₁ : ¬ 3 ∣ b ) ( h₂ : ( a % 2 = 1 ) )", "( b % 2 = 0 )"),
    ),
    ("parity_as_mod", thm("(f : ℕ → ℕ)", "Even (f 1)"), None),
    ("sqrt_notation", thm("(x : ℝ)", "Real.sqrt (x + 1) = Real.sqrt x ^ 2"), thm("( x : ℝ )", "√ ( x + 1 ) = √ x ^ 2")),
    # `Real.sqrt x⁻¹`, `Real.sqrt x.1`: the argument is not the atom alone
    ("sqrt_notation", thm("(x : ℝ)", "Real.sqrt x⁻¹ = 2"), None),
    ("inv_as_one_div", thm("{x : ℝ} (h : x ≠ 0)", "x⁻¹ * x = 1"), thm("{ x : ℝ } ( h : x ≠ 0 )", "( 1 / x ) * x = 1")),
    ("inv_as_one_div", thm("(x : ZMod 7)", "x = 3⁻¹"), None),
    ("inv_as_one_div", thm("(f : ℝ → ℝ) (x : ℝ)", "f x⁻¹ = 1"), None),
    ("explicit_binders", thm("{x : ℝ} (h : x ≠ 0)", "x = x"), thm("( x : ℝ ) ( h : x ≠ 0 )", "x = x")),
    ("explicit_binders", thm("(x : ℝ) [Fact (0 < x)]", "x = x"), None),
    ("curry_all", thm(REAL, "x = y"), thm("( x y : ℝ )", "( 0 < x ∧ x < 1 ) → ( y ≠ 0 ) → ( x = y )")),
    # a hypothesis used by name (`h₀.1`) cannot move into the conclusion
    ("curry_all", thm("(x : ℝ) (h₀ : 0 < x ∧ x < 1) (h₁ : x ≠ 0)", "(⟨x, h₀.1⟩ : {r : ℝ // 0 < r}).1 = x"), None),
    ("double_negation", thm("(x : ℝ)", "x = 1 ∨ x = 2"), thm("( x : ℝ )", "¬ ¬ ( x = 1 ∨ x = 2 )")),
    (
        "succ_notation",
        thm("(n : ℕ) (x : ℝ)", "(n + 1) * x = x ^ (n + 1)"),
        thm("( n : ℕ ) ( x : ℝ )", "( ( Nat.succ n ) ) * x = x ^ ( ( Nat.succ n ) )"),
    ),
    # `x` is real; `n` bound again by `∀`; `2 * n + 1` is `(2 * n) + 1`
    ("succ_notation", thm("(x : ℝ) (n : ℕ) (h : ∀ n : ℕ, n + 1 > n)", "x + 1 = 2 * n + 1"), None),
    (
        "interval_membership",
        thm("(x : ℝ) (h : 0 ≤ x ∧ x < 1 ∧ x ≠ 2)", "x < 3"),
        thm("( x : ℝ ) ( h : x ∈ Set.Ico ( 0 ) ( 1 ) ∧ x ≠ 2 )", "x < 3"),
    ),
    # two different middles: no interval
    ("interval_membership", thm("(x y : ℝ) (h : 0 ≤ x ∧ y ≤ 1)", "x < 3"), None),
]


@pytest.mark.parametrize("kind,text,expected", CASES)
def test_rewrite(kind, text, expected):
    assert rw(kind, text) == expected
