"""Lean soundness classes from the held-out metamorphic probe (session 12, s28: FormalMATH-Lite and ProverBench test),
each with merge cases and the near misses that must stay apart:

- generalized field notation passes the receiver as the first explicit argument of its type: `s.filter p` is
  `Finset.filter p s` (the predicate was lost: AIME 2001 I 1 merged `∀ d ∈ digits, n % d = 0` with `∃ d …`);
- `{f x | x ∈ s}` is Mathlib's image notation `{y | ∃ x ∈ s, f x = y}`, not a set-builder binding f and x (the set lost
  its dependence on f: dropping `f = λ x => x ^ 2 + 2 * x + 11` merged);
- `(x : ℕ)` with x : ℕ+ is the coercion `↑x`, not x (`(x : ℕ) - (y : ℕ)` was ℕ+'s own subtraction, and
  `∃ z : ℕ+, ↑x - ↑y = ↑z` read as true);
- a binder whose type depends on a bound variable (`∀ k ∈ Icc 1 n, ∀ x : Fin k → ℤ, …`) stays opaque over k (one
  sort for every `Fin k` made the body k-independent: `Icc 1 n` and `Icc 1 (n + 1)` merged)."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.lean_statements import thm, verdict_tests


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


S = "(s : Finset ℕ)"
ICC = "(Finset.Icc 10 99)"


def digits(quant: str, rel: str) -> str:
    """AIME 2001 I 1 (FormalMATH-Lite)."""
    return thm("", f"∑ n in {ICC}.filter (fun n => {quant} d ∈ Nat.digits 10 n, {rel}), n = 630")


MERGE = [
    # `s.filter p` is `Finset.filter p s` (Mathlib: `Finset.filter (p : α → Prop) [DecidablePred p] (s : Finset α)`)
    (thm(S, "(s.filter (fun n => n % 2 = 0)).card = 3"), thm(S, "(Finset.filter (fun n => n % 2 = 0) s).card = 3")),
    (
        thm("", f"({ICC}.filter (fun n => n % 2 = 0)).card = 45"),
        thm("", f"(Finset.filter (fun n => 2 ∣ n) {ICC}).card = 45"),
    ),
    (thm(S, "(s.image (fun n => n + 1)).card = 3"), thm(S, "(Finset.image (fun n => n + 1) s).card = 3")),
]
APART = [
    (thm(S, "(s.filter (fun n => n % 2 = 0)).card = 3"), thm(S, "(s.filter (fun n => n % 3 = 0)).card = 3")),
    # 45 even numbers in [10, 99], 30 multiples of 3
    (
        thm("", f"({ICC}.filter (fun n => n % 2 = 0)).card = 45"),
        thm("", f"({ICC}.filter (fun n => n % 3 = 0)).card = 45"),
    ),
    (digits("∀", "n % d = 0"), digits("∃", "n % d = 0")),
    (digits("∀", "n % d = 0"), digits("∀", "d % n = 0")),
    (thm(S, "(s.image (fun n => n + 1)).card = 3"), thm(S, "(s.image (fun n => n + 2)).card = 3")),
]

# `{f x | x ∈ s}` (Mathlib/Data/Set/Defs.lean: `{ pat | binders }` is `{y | ∃ᵉ binders, pat = y}`)
F = "(f g : ℝ → ℝ) (t : ℝ)"
FH = F + " (h : ∀ x, f x = x)"  # f and g both used: which of them the set is made of counts
SQ = "(f : ℝ → ℝ) (hf : f = λ x => x ^ 2 + 2 * x + 11) (t : ℝ)"
MERGE += [
    (thm(F, "sInf {f x | x ∈ Set.Icc t (t + 1)} = 0"), thm(F, "sInf {f y | y ∈ Set.Icc t (t + 1)} = 0")),
    (thm(F, "(2 : ℝ) ∈ {f x | x ∈ Set.Icc (0 : ℝ) 1}"), thm(F, "∃ x ∈ Set.Icc (0 : ℝ) 1, f x = 2")),
    (thm(F, "(2 : ℝ) ∈ {x ^ 2 | x ∈ Set.Icc (0 : ℝ) 1}"), thm(F, "∃ x ∈ Set.Icc (0 : ℝ) 1, x * x = 2")),
]
APART += [
    # quantitative_reasoning_zh_blue_559 without its definition of f
    (
        thm(SQ, "sInf {f x | x ∈ Set.Icc t (t + 1)} = 10"),
        thm("(f : ℝ → ℝ) (t : ℝ)", "sInf {f x | x ∈ Set.Icc t (t + 1)} = 10"),
    ),
    (thm(FH, "sInf {f x | x ∈ Set.Icc t (t + 1)} = 0"), thm(FH, "sInf {g x | x ∈ Set.Icc t (t + 1)} = 0")),
    (thm(F, "sInf {f x | x ∈ Set.Icc t (t + 1)} = 0"), thm(F, "sInf {f x | x ∈ Set.Icc t (t + 2)} = 0")),
    (thm(FH, "(2 : ℝ) ∈ {f x | x ∈ Set.Icc (0 : ℝ) 1}"), thm(FH, "∃ x ∈ Set.Icc (0 : ℝ) 1, g x = 2")),
]

# `(x : ℕ)` with x : ℕ+ is `↑x` (Mathlib `PNat.val`, the coercion `ℕ+ → ℕ`), a value of ℕ; ℕ's subtraction truncates
P = "{x y : PNat}"
MERGE += [
    (thm(f"{P} (h : (x : ℕ) - (y : ℕ) = 2)", "(x : ℕ) = 5"), thm(f"{P} (h : (x : ℕ) = (y : ℕ) + 2)", "(x : ℕ) = 5")),
]
APART += [
    # number_theory__p27 (ProverBench): `∃ z : ℕ+, ↑x - ↑y = ↑z` says y < x, `∃ z : ℕ, …` nothing
    (
        thm(f"{P} (h : ∃ z : PNat, (x : ℕ) - (y : ℕ) = z)", "y < x"),
        thm(f"{P} (h : ∃ z : ℕ, (x : ℕ) - (y : ℕ) = z)", "y < x"),
    ),
    (thm(f"{P} (h : ∃ z : PNat, (x : ℕ) - (y : ℕ) = z)", "y < x"), thm(P, "y < x")),
    (thm(f"{P} (h : (x : ℕ) - (y : ℕ) = 2)", "(x : ℕ) = 5"), thm(f"{P} (h : (x : ℕ) - (y : ℕ) = 3)", "(x : ℕ) = 5")),
]

# a type that depends on a bound value (theorem_proving_zh_blue_671, FormalMATH-Lite): `Fin k` has k elements
FS = "(F : Finset ℤ) (h : ∃ n : ℕ, 0 < n ∧ ∀ k ∈ Finset.Icc 1 {0}, ∀ x : Fin k → ℤ, (∀ i, x i ∈ F) → ∑ i, x i ≠ 0)"
MERGE += [
    (thm(FS.format("n"), "∀ a ∈ F, ∀ b ∈ F, a + b ≠ 0"), thm(FS.format("n"), "∀ a ∈ F, ∀ b ∈ F, ¬ b + a = 0")),
]
APART += [
    # 0 ∉ F (k = 1) against also no a + b = 0 (k = 2): F = {1, -1}
    (thm(FS.format("n"), "∀ a ∈ F, ∀ b ∈ F, a + b ≠ 0"), thm(FS.format("(n + 1)"), "∀ a ∈ F, ∀ b ∈ F, a + b ≠ 0")),
    (
        thm("(n : ℕ) (hn : 0 < n) (h : ∀ k ∈ Finset.Icc 1 n, ∀ x : Fin k → ℤ, ∑ i, x i ≠ 5)", "n = 1"),
        thm("(n : ℕ) (hn : 0 < n) (h : ∀ k ∈ Finset.Icc 1 (n + 1), ∀ x : Fin k → ℤ, ∑ i, x i ≠ 5)", "n = 1"),
    ),
]


# FormalAlign miniF2F (mathd_algebra_171, "variable_new" misalignments): `ℝ (n : ℝ) → ℝ` applies the type ℝ to an
# argument, which Lean rejects ("function expected"); it is no statement, and merged with none
F171 = "(h₀ : ∀x, f x = 5 * x + 4)"
MERGE += [(thm(f"(f : ℝ → ℝ) {F171}", "f 1 = 9"), thm(f"(g : ℝ → ℝ) {F171.replace('f', 'g')}", "g 1 = 9"))]
APART += [
    (thm(f"(f : ℝ → ℝ) {F171}", "f 1 = 9"), thm(f"(f : ℝ (n : ℝ) → ℝ) {F171}", "f 1 = 9")),
    (thm(f"(f : ℝ → ℝ) {F171}", "f 1 = 9"), thm(f"(f : ℝ (x : ℝ) → ℝ) {F171}", "f 1 = 9")),
]

# `{p.1 | p ∈ S}` (a projection, no identifier) is the image notation; `{n.succ | n ∈ S}` is not: a single identifier
# before the bar is the set-builder's binder (Mathlib/Data/Set/Defs.lean: the image notation's pattern "must be
# parenthesized" when it is one identifier), and `n.succ` is no binder name; kept opaque, the name counts
PS = "(S : Set (ℕ × ℕ))"
NS = "(S : Set ℕ)"
MERGE += [(thm(PS, "(3 : ℕ) ∈ {p.1 | p ∈ S}"), thm(PS, "∃ p ∈ S, p.1 = 3"))]
APART += [
    (thm(PS, "(3 : ℕ) ∈ {p.1 | p ∈ S}"), thm(PS, "(3 : ℕ) ∈ {p.2 | p ∈ S}")),
    (thm(NS, "(3 : ℕ) ∈ {n.succ | n ∈ S}"), thm(NS, "(3 : ℕ) ∈ {n.factorial | n ∈ S}")),
]

test_merge, test_apart = verdict_tests(MERGE, APART)
