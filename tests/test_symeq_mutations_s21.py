"""The mutations of `atf.symeq.metamorphic` that go beyond literals and relations (swap operands, change an
operator, an exponent, a quantifier, a connective, a variable, a function; negate the conclusion; drop a
cast): what each produces on sample statements, and where each declines."""

import pytest

from atf.symeq.equivalence import SymEq
from atf.symeq.metamorphic import MUTATIONS, cut
from tests.lean_statements import thm, verdict_tests

S1 = (
    "theorem t (x y : ℝ) (n : ℕ) (h₀ : 0 < x ∧ x < y) (h₁ : ∀ k : ℕ, k ≤ n → (k : ℝ) ≤ x) :"
    " Real.sin (x - y) / 2 * x ^ 2 = ↑n := by sorry"
)
S2 = "theorem t (a b : ℤ) (h : ∃ c, a ∣ b * c) : ⌊(a : ℝ) / b⌋ = a % b ↔ b ≠ 0 := by sorry"
HEAD1 = "theorem t ( x y : ℝ ) ( n : ℕ ) ( h₀ : 0 < x ∧ x < y ) ( h₁ : ∀ k : ℕ , k ≤ n → ( k : ℝ ) ≤ x ) : "
HEAD2 = "theorem t ( a b : ℤ ) ( h : ∃ c , a ∣ b * c ) : "
END = " := by sorry"


@pytest.mark.parametrize(
    "kind,text,want",
    [
        ("swap_operands", S1, HEAD1 + "Real.sin ( y - x ) / 2 * x ^ 2 = ↑ n"),
        ("swap_operands", S2, HEAD2 + "⌊ ( a : ℝ ) / b ⌋ = b % a ↔ b ≠ 0"),
        ("times_to_plus", S1, HEAD1 + "Real.sin ( x - y ) / 2 + x ^ 2 = ↑ n"),
        ("div_to_times", S1, HEAD1 + "Real.sin ( x - y ) * 2 * x ^ 2 = ↑ n"),
        ("change_exponent", S1, HEAD1 + "Real.sin ( x - y ) / 2 * x ^ 3 = ↑ n"),
        ("negate_conclusion", S1, HEAD1 + "¬ ( Real.sin ( x - y ) / 2 * x ^ 2 = ↑ n )"),
        ("swap_variable", S1, HEAD1 + "Real.sin ( y - y ) / 2 * x ^ 2 = ↑ n"),
        ("swap_variable", S2, HEAD2 + "⌊ ( b : ℝ ) / b ⌋ = a % b ↔ b ≠ 0"),
        ("swap_function", S1, HEAD1 + "Real.cos ( x - y ) / 2 * x ^ 2 = ↑ n"),
        ("swap_function", S2, HEAD2 + "⌈ ( a : ℝ ) / b ⌉ = a % b ↔ b ≠ 0"),
        ("drop_cast", S1, HEAD1 + "Real.sin ( x - y ) / 2 * x ^ 2 = n"),
        ("drop_cast", S2, HEAD2 + "⌊ ( a ) / b ⌋ = a % b ↔ b ≠ 0"),
        ("swap_connective", S2, HEAD2 + "⌊ ( a : ℝ ) / b ⌋ = a % b → b ≠ 0"),
    ],
)
def test_mutation_of_the_conclusion(kind, text, want):
    assert MUTATIONS[kind](cut(text)).text() == want + END


def test_mutations_of_a_hypothesis():
    """With nothing to change in the conclusion, the first hypothesis that has it changes."""
    p = cut(S1)
    assert (
        MUTATIONS["swap_quantifier"](p)
        .text()
        .startswith("theorem t ( x y : ℝ ) ( n : ℕ ) ( h₀ : 0 < x ∧ x < y ) ( h₁ : ∃ k : ℕ ,")
    )
    assert "( h₀ : 0 < x ∨ x < y )" in MUTATIONS["swap_connective"](p).text()
    q = cut("theorem t (a b : ℕ) (h : Nat.gcd a b = 1) (h' : a < b) : a + b > 1 := by sorry")
    assert "( h : Nat.lcm a b = 1 )" in MUTATIONS["swap_function"](q).text()
    r = cut("theorem t (n : ℕ) : ∏ i in Finset.range n, (i : ℝ) ≥ 0 := by sorry")
    assert ": ∑ i in Finset.range n , ( i : ℝ ) ≥ 0 :=" in MUTATIONS["swap_function"](r).text()


def test_mutations_that_do_not_apply_say_so():
    p = cut("theorem t (x : ℝ) (h : 0 < x) : x = x := by sorry")
    for kind in ("swap_operands", "times_to_plus", "div_to_times", "change_exponent", "swap_quantifier"):
        assert MUTATIONS[kind](p) is None, kind
    for kind in ("swap_connective", "swap_variable", "swap_function", "drop_cast"):
        assert MUTATIONS[kind](p) is None, kind
    # `x - x` swapped is `x - x`; `f a - b` does not have `a` as an operand of `-`
    assert MUTATIONS["swap_operands"](cut("theorem t (f : ℝ → ℝ) (a b : ℝ) : f a - b = a - a := by sorry")) is None
    # a variable that occurs nowhere else: replacing it would only rename it
    assert MUTATIONS["swap_variable"](cut("theorem t (x y : ℝ) : x ^ 2 ≥ 0 := by sorry")) is None
    # `∃ (c : ℝ), ...` declares c: its type is no cast to drop
    assert MUTATIONS["drop_cast"](cut("theorem t : ∃ (c : ℝ), c = 1 := by sorry")) is None
    # `⌊x⌋₊` has no `⌈x⌉` sibling written with the same closing token
    assert MUTATIONS["swap_function"](cut("theorem t (x : ℝ) : ⌊x⌋₊ = 1 := by sorry")) is None


# ------------------------------------------------------------------------------------------------ false merges

# A real power whose base has type ℕ, ℤ or ℚ is ill-typed in Lean (Mathlib's real powers are `Real.rpow`,
# `NNReal.rpow`, `ENNReal.rpow`, `Complex.cpow`; a numeral base no leaf types defaults to ℕ): SymEq read it as a real
# power and merged it with the well-typed statement. Found by drop_cast on mathd_algebra_59 (`(4 : ℝ) ^ b` as
# `(4) ^ b`). A real leaf in the tree makes the base real (`x = n ^ b` is `x = ↑n ^ b`), which still merges.
RPOW_MERGE = [
    (thm("(b x : ℝ) (h₀ : x = 4 ^ b)", "x = 16"), thm("(b x : ℝ) (h₀ : x = (4 : ℝ) ^ b)", "x = 16")),
    (thm("(n : ℕ) (b x : ℝ) (h₀ : x = n ^ b)", "x = 16"), thm("(n : ℕ) (b x : ℝ) (h₀ : x = (n : ℝ) ^ b)", "x = 16")),
    (thm("(b : ℝ) (h₀ : (4 : ℝ) ^ b + 2 ^ 3 = 12)", "b = 1"), thm("(b : ℝ) (h₀ : 12 = (4 : ℝ) ^ b + 8)", "b = 1")),
    (thm("(b : ℝ) (h₀ : 4 ^ b = 16)", "b = 2"), thm("(c : ℝ) (h₀ : 4 ^ c = 16)", "c = 2")),
]
RPOW_APART = [
    (thm("(b : ℝ) (h₀ : 4 ^ b + 2 ^ 3 = 12)", "b = 1"), thm("(b : ℝ) (h₀ : (4 : ℝ) ^ b + 2 ^ 3 = 12)", "b = 1")),
    (thm("(b : ℝ) (h₀ : (4 : ℤ) ^ b = 16)", "b = 2"), thm("(b : ℝ) (h₀ : (4 : ℝ) ^ b = 16)", "b = 2")),
    (thm("(b : ℝ) (h₀ : (4 : ℕ) ^ b = 16)", "b = 2"), thm("(b : ℝ) (h₀ : (4 : ℝ) ^ b = 16)", "b = 2")),
    (thm("(n : ℕ) (b : ℝ) (h₀ : n ^ b = 12)", "b = 1"), thm("(n : ℕ) (b : ℝ) (h₀ : (n : ℝ) ^ b = 12)", "b = 1")),
    (thm("(n : ℤ) (b : ℝ) (h₀ : n ^ b = 12)", "b = 1"), thm("(n : ℤ) (b : ℝ) (h₀ : (n : ℝ) ^ b = 12)", "b = 1")),
    (thm("(q : ℚ) (b : ℝ) (h₀ : q ^ b = 2)", "b = 1"), thm("(q : ℚ) (b : ℝ) (h₀ : (q : ℝ) ^ b = 2)", "b = 1")),
    (
        thm("(x : ℝ)", "(10 : ℤ) ^ x * 100 ^ (2 * x) = 1000 ^ 5"),
        thm("(x : ℝ)", "(10 : ℝ) ^ x * 100 ^ (2 * x) = 1000 ^ 5"),
    ),
    (thm("(n : ℕ) (k : ℤ) (h₀ : n ^ k = 8)", "k = 3"), thm("(n : ℕ) (k : ℤ) (h₀ : (n : ℝ) ^ k = 8)", "k = 3")),
]


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


test_rpow_merge, test_rpow_apart = verdict_tests(RPOW_MERGE, RPOW_APART)


# Lean's numeric coercions go up the tower ℕ → ℤ → ℚ → ℝ → ℂ only: an ascription, argument or `Nat.gcd`/`Nat.lcm`
# operand of a larger type than the place expects is ill-typed, and SymEq read it as a cast (merging `(k : ℕ) = 2`
# with `k = 2`). Found by probing the drop_cast/retarget hunt's neighbourhood. Widening still merges.
NARROW_MERGE = [
    (thm("(n : ℕ)", "(n : ℤ) = 2"), thm("(n : ℕ)", "n = 2")),
    (thm("(n : ℕ) (f : ℝ → ℝ)", "f n = 2"), thm("(n : ℕ) (f : ℝ → ℝ)", "f (n : ℝ) = 2")),
    (thm("(a b : ℕ)", "Nat.gcd a b = 2"), thm("(a b : ℕ)", "Nat.gcd b a = 2")),
    (thm("(a b : ℕ)", "Nat.lcm (a + 1) b = 6"), thm("(a b : ℕ)", "Nat.lcm b (1 + a) = 6")),
    (thm("(a b : ℤ)", "Int.gcd a b = 2"), thm("(a b : ℤ)", "Int.gcd b a = 2")),
]
NARROW_APART = [
    (thm("(k : ℤ) (h : 0 < k)", "(k : ℕ) = 2"), thm("(k : ℤ) (h : 0 < k)", "k = 2")),
    (thm("(k : ℤ)", "(k : ℕ) = 2"), thm("(k : ℤ)", "k = 2")),
    (thm("(q : ℚ)", "(q : ℤ) = 2"), thm("(q : ℚ)", "q = 2")),
    (thm("(x : ℝ) (f : ℕ → ℝ) (h : 0 < x)", "f x = 2"), thm("(x : ℝ) (f : ℕ → ℝ) (h : 0 < x)", "f ⌊x⌋₊ = 2")),
    (thm("(a b : ℤ) (h : 0 < a)", "Nat.gcd a b = 2"), thm("(a b : ℤ) (h : 0 < a)", "Int.gcd a b = 2")),
    (thm("(a b : ℤ)", "Nat.lcm a b = 6"), thm("(a b : ℤ)", "Int.lcm a b = 6")),
]

test_narrow_merge, test_narrow_apart = verdict_tests(NARROW_MERGE, NARROW_APART)


# A decimal is `OfScientific.ofScientific`, which Mathlib gives division rings (ℚ, ℝ, ℂ), not ℕ or ℤ: a decimal among
# ℕ/ℤ operands is ill-typed, and SymEq read the tree over ℝ (merging `n / 2 = 1.5` with `n = 3`, and `⌊x⌋ = 2.5`
# with `False`). Decimals among real operands, or cast ones, still merge.
DECIMAL_MERGE = [
    (thm("(n : ℕ) (h : n < 5)", "(n : ℝ) / 2 = 1.5"), thm("(n : ℕ) (h : n < 5)", "n = 3")),
    (thm("(x : ℝ) (h : x < 5)", "x / 2 = 1.5"), thm("(x : ℝ) (h : x < 5)", "x = 3")),
    (thm("(x : ℝ) (h : x < 5)", "x = 2.5 * 2"), thm("(x : ℝ) (h : x < 5)", "x = 5")),
]
DECIMAL_APART = [
    (thm("(n : ℕ) (h : n < 5)", "n / 2 = 1.5"), thm("(n : ℕ) (h : n < 5)", "n = 3")),
    (thm("(n : ℤ) (h : n < 5)", "n / 2 = 1.5"), thm("(n : ℤ) (h : n < 5)", "n = 3")),
    (thm("(n : ℕ) (h : n < 5)", "n / 2 = 1.5"), thm("(n : ℕ) (h : n < 5)", "(n : ℝ) / 2 = 1.5")),
    (thm("(x : ℝ)", "⌊x⌋ = 2.5"), thm("(x : ℝ)", "False")),
    (thm("(n : ℕ)", "n = 2.5"), thm("(n : ℕ)", "n ≠ n")),
    (thm("(n : ℕ) (h : n < 5)", "2 * n = 2.5 * 2"), thm("(n : ℕ) (h : n < 5)", "False")),
]

test_decimal_merge, test_decimal_apart = verdict_tests(DECIMAL_MERGE, DECIMAL_APART)


# `Nat.Prime : ℕ → Prop` and `Nat.ModEq (n a b : ℕ)` (`a ≡ b [MOD n]`) of integers are ill-typed: SymEq read them as
# `Prime k` and `[ZMOD n]`, with which they merged. Of natural numbers they read as before.
NAT_PRED_MERGE = [
    (thm("(a b n : ℕ)", "a ≡ b [MOD n]"), thm("(a b n : ℕ)", "a % n = b % n")),
    (thm("(a b n : ℕ)", "a ≡ b [MOD n]"), thm("(a b n : ℕ)", "Nat.ModEq n a b")),
    (thm("(n : ℕ) (h : 2 < n)", "171 ≡ 80 [MOD n]"), thm("(n : ℕ) (h : 2 < n)", "171 % n = 80 % n")),
    (thm("(p : ℕ)", "Nat.Prime p"), thm("(p : ℕ)", "p.Prime")),
    (thm("(p : ℕ)", "Nat.Prime (p + 2)"), thm("(p : ℕ)", "Nat.Prime (2 + p)")),
]
NAT_PRED_APART = [
    (thm("(k : ℤ) (h : 0 < k)", "Nat.Prime k"), thm("(k : ℤ) (h : 0 < k)", "Prime k")),
    (thm("(k : ℤ)", "k ≡ 1 [MOD 4]"), thm("(k : ℤ)", "k ≡ 1 [ZMOD 4]")),
    (thm("(k : ℤ)", "1 ≡ k [MOD 4]"), thm("(k : ℤ)", "1 ≡ k [ZMOD 4]")),
    (thm("(a : ℕ) (n : ℤ)", "a ≡ 1 [MOD n]"), thm("(a : ℕ) (n : ℤ)", "(a : ℤ) ≡ 1 [ZMOD n]")),
]

test_nat_pred_merge, test_nat_pred_apart = verdict_tests(NAT_PRED_MERGE, NAT_PRED_APART)


# `∣` is a plain `infix:50 " ∣ " => Dvd.dvd` (no `binrel%`): the divisor fixes the type, and no coercion makes the
# dividend smaller, so `p ∣ a` with p : ℕ, a : ℤ is ill-typed; SymEq joined the two and merged it with `(p : ℤ) ∣ a`.
# Found by drop_cast on exercise_5_37 (`¬ ((p : ℤ) ∣ a)` as `¬ ((p) ∣ a)`). A numeral or `↑p` divisor takes the
# dividend's type, and a larger divisor coerces the dividend: those still merge.
Q = "(p : ℕ) (a : ℤ) (h : 0 < a)"
DVD_MERGE = [
    (thm(Q, "↑p ∣ a"), thm(Q, "(p : ℤ) ∣ a")),
    (thm(Q, "a ∣ p"), thm(Q, "a ∣ (p : ℤ)")),
    (thm(Q, "2 ∣ a"), thm(Q, "(2 : ℤ) ∣ a")),
    (thm("(p q : ℕ)", "p ∣ q"), thm("(p q : ℕ)", "(p : ℤ) ∣ q")),
]
DVD_APART = [
    (thm(Q, "p ∣ a"), thm(Q, "(p : ℤ) ∣ a")),
    (thm(Q, "p + 1 ∣ a"), thm(Q, "(p : ℤ) + 1 ∣ a")),
    (thm(Q, "p ∣ a * 2"), thm(Q, "(p : ℤ) ∣ a * 2")),
    (thm("(p : ℕ) (x : ℝ)", "p ∣ x"), thm("(p : ℕ) (x : ℝ)", "(p : ℝ) ∣ x")),
]

test_dvd_merge, test_dvd_apart = verdict_tests(DVD_MERGE, DVD_APART)
