"""Soundness classes found by the held-out metamorphic probe (session 12, s27: PutnamBench and CombiBench, never used
for development): each with merge cases and the near misses that must stay apart.

A type may depend on a value (Lean's dependent types): `Fin n`, `Matrix (Fin n) (Fin n) ℝ`, `↥(Finset.Icc 1 n)`.
SymEq writes such a type as one uninterpreted sort named by its text, which is sound only while `n` is one value.
- Under a binder of `n` (`∀ n ≥ 1, ∀ A B : Matrix (Fin n) (Fin n) ℝ, …`, Putnam 1990 A5), a quantifier or set over
  the dependent type that Z3 cannot model is kept uninterpreted, and its value must then vary with `n` although no
  term of it names `n`: it was one constant, so `∀ n ≥ 1, Q` and `∃ n ≥ 1, Q` merged.
- `(fun n ↦ {σ : Fin n → Fin n | …}.ncard) (n + 5)` cannot be beta-reduced when the type is text: substituting
  only the terms left `Fin n` inside, one value for every argument (Putnam 2015 B5: `P (n + 5) - P (n + 4)` was 0).
  It stays an application (a variable argument renames the type: `P m` is the set over `Fin m`).

`∃ S ⊆ X, …` gives S the type of X (Lean's `HasSubset.Subset : α → α → Prop`; likewise `∪`, `∩`, `\\` take and
give one type): S had an unknown type of its own, and a sum over S was read at whatever type met it first.

An exponent with a variable whose type is not known yet (`(1 + x) ^ (x ^ n)` before `xprod x` types x as ℝ) is not
fixed to ℕ: Lean postpones the type to the later uses and applies the default instance `Monoid.npow` only when stuck;
the term is kept opaque instead.

`(i : ℕ)` for i : Fin n is `Fin.val i`, another value than i (Mathlib's coercion `Fin n → ℕ`): the ascription was
dropped, so `3 ∣ (i : ℕ)` was `3 ∣ i`, divisibility in the ring `Fin n`, and `Even (i : ℕ)` was `Even i`.

Lean's generalized field notation puts the receiver at the first explicit argument of its type: `s.filter p` is
`Finset.filter p s` (`s.image f`, `l.map f` alike); it was put first, so `S.filter p` was read as the filter of the
predicate by S, and the predicate was lost.
"""

import pytest

from atf.symeq.equivalence import SymEq
from tests.lean_statements import thm, verdict_tests


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


def matrices(q: str, a: str = "A", b: str = "B") -> str:
    """Putnam 1990 A5 (PutnamBench)."""
    return thm(
        "",
        f"putnam_1990_a5_solution ↔ ({q} n ≥ 1, ∀ {a} {b} : Matrix (Fin n) (Fin n) ℝ,"
        f" {a} * {b} * {a} * {b} = 0 → {b} * {a} * {b} * {a} = 0)",
    )


def subgroups(k: int) -> str:
    """Putnam 1969 B2 (PutnamBench), the union of `n` proper subgroups."""
    return thm(
        "(P : ℕ → Prop) (P_def : ∀ n, P n ↔ ∀ (G : Type) [Group G] [Finite G], ∀ H : Fin n → Subgroup G,"
        " (∀ i, H i < ⊤) → ⋃ i, (H i : Set G) < ⊤)",
        f"P 2 ∧ (P {k} ↔ putnam_1969_b2_solution)",
    )


def perms(a: int, b: int, swap: bool = False) -> str:
    """Putnam 2015 B5 (PutnamBench)."""
    last = "(P n : ℤ) - (P (n + 3) : ℤ)" if swap else "- (P (n + 3) : ℤ) + (P n : ℤ)"
    return thm(
        "(s : ℤ) (P : ℕ → ℕ) (hP : P = fun n ↦ {pi : Finset.Icc 1 n → Finset.Icc 1 n | Bijective pi ∧"
        " ∀ i j : Finset.Icc 1 n, Nat.dist i j = 1 → Nat.dist (pi i) (pi j) ≤ 2}.ncard)",
        f"∀ n : ℕ, n ≥ 2 → (P (n + {a}) : ℤ) - (P (n + {b}) : ℤ) {'+ ' if swap else ''}{last} = s",
    )


def counted(e: str) -> str:
    """Putnam 1967 A2 (PutnamBench), the number of symmetric 0/1 matrices of size n."""
    return thm(
        "(x : ℝ) (S : ℕ → ℤ) (hS0 : S 0 = 1) (hSn : ∀ n ≥ 1, S n = {A : Matrix (Fin n) (Fin n) ℕ |"
        " (∀ i j, A i j = A j i) ∧ (∀ j, (∑ i, A i j) = 1)}.ncard)",
        f"(∀ n ≥ 1, S (n + 1) = S n + n * S (n - 1)) ∧ {e}",
    )


def near_integer(sum_: str, bound: str) -> str:
    """Putnam 2006 B2 (PutnamBench): `∃ S ⊆ X` binds S at X's type (`HasSubset.Subset : α → α → Prop`), so the sum
    over S is one of reals and `m + ∑ s ∈ S, s` adds the integer m as a real; S had a type of its own, the sum
    was read at the integer m's type, and every bound was met."""
    return thm(
        "(n : ℕ) (npos : n > 0) (X : Finset ℝ) (hXcard : X.card = n)",
        f"∃ S ⊆ X, S ≠ ∅ ∧ ∃ m : ℤ, |{sum_}| ≤ 1 / ({bound})",
    )


def xprod(factor: str, hyp: bool = True) -> str:
    """Putnam 2004 B5 (PutnamBench): x is typed by its use `xprod x` (ℝ); the exponent `x ^ n` must not fix it to ℕ
    first (`0 < x < 1` over ℕ made the hypothesis vacuous, so dropping or changing it merged)."""
    h = (
        f"(hxprod : ∀ x ∈ Set.Ioo 0 1, Tendsto (fun N ↦ ∏ n ∈ Finset.range N, ({factor}) ^ (x ^ n)) atTop"
        " (𝓝 (xprod x)))"
        if hyp
        else ""
    )
    return thm(f"(xprod : ℝ → ℝ) {h}", "Tendsto xprod (𝓝[<] 1) (𝓝 c)")


def fin_value(pred: str) -> str:
    """Putnam 2013 B2 (PutnamBench) in short: `3 ∣ (n : ℕ)` for n : Fin (N + 1) is about `Fin.val n`."""
    return thm("(N : ℕ) (a : Fin (N + 1) → ℝ)", f"∀ n : Fin (N + 1), {pred} → a n = 0")


def filtered(pred: str, dot: bool = True) -> str:
    """IZhO 2019 P1 (CombiBench) in short: `s.filter p` is `Finset.filter p s`."""
    f = f"(S.filter (fun p => {pred}))" if dot else f"(Finset.filter (fun p => {pred}) S)"
    return thm("(S : Finset ℕ) (g : ℕ → ℕ)", f"{f}.card ≥ 3")


MERGE = [
    # alpha-variants of one dependent quantifier stay one proposition
    (matrices("∀"), matrices("∀", "X", "Y")),
    (subgroups(3), subgroups(3).replace("H i", "K i").replace("H :", "K :")),
    # `P (n + 3)`, `P n`: values of their own, whichever order they are added in
    (perms(5, 4), perms(5, 4, swap=True)),
    (counted("x ^ 2 = 4 * x"), counted("x * x = x * 4")),
    (near_integer("m + ∑ s ∈ S, s", "n + 1"), near_integer("∑ s ∈ S, s + m", "1 + n")),
    (xprod("(1 + x ^ (n + 1)) / (1 + x ^ n)"), xprod("(1 + x ^ (n + 1)) / (1 + x ^ n)").replace("hxprod", "h")),
    (fin_value("Even (n : ℕ)"), fin_value("2 ∣ (n : ℕ)")),
    (fin_value("3 ∣ (n : ℕ)"), fin_value("(n : ℕ) % 3 = 0")),
    (filtered("g p > 1"), filtered("1 < g p", dot=False)),
    (
        thm("(S : Finset ℕ) (g : ℕ → ℕ)", "(S.image g).card = 2"),
        thm("(S : Finset ℕ) (g : ℕ → ℕ)", "(Finset.image g S).card = 2"),
    ),
]

KEEP_APART = [
    # Putnam 1990 A5: false for all n (3 × 3 matrices), true for some n (n = 1): the quantifier over
    # `Matrix (Fin n) (Fin n) ℝ` is a proposition of n
    (matrices("∀"), matrices("∃")),
    # Putnam 1969 B2: `P 3`, `P 4` are two propositions (they quantify over `Fin 3 → Subgroup G`, `Fin 4 → …`)
    (subgroups(3), subgroups(4)),
    # Putnam 2015 B5: `P (n + 5)` and `P (n + 4)` are the counts over `Fin (n + 5)`, `Fin (n + 4)`
    (perms(5, 4), perms(4, 4)),
    # Putnam 1967 A2: the counts at n + 1, n, n - 1 differ, so the recurrence is no contradiction that would make
    # every conclusion hold (the probe's mutations of the other conjunct merged)
    (counted("x ^ 2 = 4 * x"), counted("x ^ 2 = 3 * x")),
    (near_integer("m + ∑ s ∈ S, s", "n + 1"), near_integer("m + ∑ s ∈ S, s", "n + 2")),
    (xprod("(1 + x ^ (n + 1)) / (1 + x ^ n)"), xprod("", hyp=False)),
    (xprod("(1 + x ^ (n + 1)) / (1 + x ^ n)"), xprod("(1 - x ^ (n + 1)) / (1 + x ^ n)")),
    # in the ring Fin (N + 1) 3 divides everything when 3 ∤ N + 1, and every element is even when N + 1 is odd
    (fin_value("3 ∣ (n : ℕ)"), fin_value("3 ∣ n")),
    (fin_value("Even (n : ℕ)"), fin_value("Even n")),
    # the predicate of `S.filter p` was dropped (the receiver taken for the predicate): every filter merged
    (filtered("g p > 1"), filtered("g p > 2")),
    (filtered("∀ i ∈ Finset.Icc 1 99, g p ≠ i"), filtered("∀ i ∈ Finset.Ico 1 99, g p ≠ i")),
]

test_merge, test_apart = verdict_tests(MERGE, KEEP_APART)
