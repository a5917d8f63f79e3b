"""Hand-written pairs of Lean (and Isabelle) statements on SymEq's typing and arithmetic, each with the verdict the
system's semantics gives.

    nice python eval/symeq_hostile_pairs.py            # how many pairs SymEq gets right, and every one it gets wrong

Each pair is two theorem signatures (`theorem t <signature> := by sorry`) and whether they mean the same: ℕ's
truncated subtraction and division, Int's Euclidean division, `x ^ (1 / 2)` on ℝ (a natural exponent, 0), casts,
ZMod, and numerals whose type Lean takes from the other side of `=` or from a binder (`S : Set ℝ`, `Set (ℝ × ℝ)`,
`closure S`, `foo x`): read as ℕ there, 3 / 2 is 1 and 1 / 2 is 0. Two closed false statements mean the same (both
False), and so do `Set.Icc 0 1` and `Set.Icc 0 (3 / 2)` over ℤ (3 / 2 = 1 there). Written for the session-19 round
(VERSION 33-36; the pairs it found wrong at 3e5c017 are also tests, tests/test_symeq_sets_s19.py), with the set
operations' memberships added in session 20 (tests/test_symeq_set_ops_s20.py), images, ranges, preimages, order
properties and `dist` in session 22 (tests/test_symeq_lean_defs_s22.py), number theory's predicates on a field in
session 27 (tests/test_symeq_probe_s27.py), Mathlib definitions read at literals in session 36
(tests/test_symeq_mathlib_s36.py). Not a benchmark: a check that a change to the reader keeps these right.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from atf.cliargs import add_seconds
from atf.symeq.equivalence import SymEq

# (signature a, signature b, the same meaning?)
PAIRS = [
    ("(n : ℕ) : n - 1 + 1 = n", "(n : ℕ) : n = n", False),
    ("(n : ℕ) (h : 0 < n) : n - 1 + 1 = n", "(n : ℕ) (h : 0 < n) : n = n", True),
    ("(a b : ℕ) (h : a / b = 2) : a = 2 * b", "(a b : ℕ) (h : a = 2 * b) : a / b = 2", False),
    (": (-7 : ℤ) / 2 = -4", ": (-7 : ℤ) / 2 = -3", False),
    (": (-7 : ℤ) % 2 = 1", ": (-7 : ℤ) % 2 = -1", False),
    ("(x : ℝ) : Real.sqrt (x ^ 2) = x", "(x : ℝ) : Real.sqrt (x ^ 2) = |x|", False),
    ("(a b : ℕ) : ((a - b : ℕ) : ℤ) = (a : ℤ) - (b : ℤ)", "(a b : ℕ) : (a : ℤ) - (b : ℤ) = (a : ℤ) - (b : ℤ)", False),
    ("(n : ℕ) : ((n / 2 : ℕ) : ℝ) = 3", "(n : ℕ) : (n : ℝ) / 2 = 3", False),
    ("(x : ℝ) (h : x = 4) : x ^ (1 / 2) = 2", "(x : ℝ) (h : x = 4) : x ^ ((1 : ℝ) / 2) = 2", False),
    ("(x : ℝ) (h : x = 4) : x ^ (1 / 2) = 1", "(x : ℝ) (h : x = 4) : True", True),
    (": ∑ i in Finset.range 10, i = 45", ": ∑ i in Finset.range 10, i = 55", False),
    (": ∑ i in Finset.range 11, i = 55", ": ∑ i in Finset.Icc 1 10, i = 55", True),
    ("(x : ℝ) : Real.log (x ^ 2) = 2 * Real.log x", "(x : ℝ) : True", True),
    ("(x : ℝ) (h : 0 < x) : Real.exp (Real.log x) = x", "(x : ℝ) : Real.exp (Real.log x) = x", False),
    ("(n : ℕ) (h : n % 4 = 3) : n % 2 = 1", "(n : ℕ) (h : n % 4 = 3) : True", True),
    ("(n : ℤ) : n / 0 = 0", "(n : ℤ) : n % 0 = n", True),
    ("(x : ℚ) : x / 0 = 0", "(x : ℚ) : x / 0 = 1", False),
    (
        "(f : ℕ → ℕ) (h : ∀ n, f (n + 1) = f n + 2) (h0 : f 0 = 1) : f 5 = 11",
        "(f : ℕ → ℕ) (h : ∀ n, f (n + 1) = f n + 2) (h0 : f 0 = 1) : f 5 = 12",
        False,
    ),
    (
        "(a : ℕ → ℝ) (h : ∀ n, a (n + 1) = a n / 2) : a 2 = a 0 / 4",
        "(a : ℕ → ℝ) (h : ∀ n, a (n + 1) = a n / 2) : True",
        True,
    ),
    ("(x : ℝ) : ⌊x⌋ ≤ x", "(x : ℝ) : ⌈x⌉ ≤ x", False),
    ("(x : ℕ) : Nat.choose 5 2 = 10", "(x : ℕ) : Nat.choose 5 2 = 20", False),
    (": Nat.factorial 5 = 120", ": (5 : ℕ)! = 120", True),
    (": Nat.gcd 12 18 = 6", ": Nat.lcm 12 18 = 6", False),
    ("(x : ℝ) (hx : 2 ≤ x) : x ^ 2 ≥ 4", "(x : ℝ) (hx : -2 ≥ x) : x ^ 2 ≥ 4", False),
    ("(a b : ℝ) (h : a < b) : ∃ c, a < c ∧ c < b", "(a b : ℤ) (h : a < b) : ∃ c, a < c ∧ c < b", False),
    (
        "(s : Finset ℕ) (h : s = Finset.filter (fun n => n % 3 = 0) (Finset.range 10)) : s.card = 4",
        "(s : Finset ℕ) (h : s = Finset.filter (fun n => n % 3 = 0) (Finset.range 10)) : s.card = 3",
        False,
    ),
    ("(x : ℝ) : deriv (fun y => y ^ 2) x = 2 * x", "(x : ℝ) : deriv (fun y => y ^ 2) x = 2 * x + 0", True),
    ("(x : ℝ) : deriv (fun y => y ^ 2) x = 2 * x", "(x : ℝ) : deriv (fun y => y ^ 3) x = 2 * x", False),
    ("(x y : ℝ) (h : x = y) : x ≤ y", "(x y : ℝ) (h : x ≤ y) : x = y", False),
    ("(z : ℂ) (h : z ^ 2 = -1) : z = Complex.I ∨ z = -Complex.I", "(z : ℂ) (h : z ^ 2 = -1) : z = Complex.I", False),
    ("(n : ℕ) (h : 2 ≤ n) : Nat.Prime n ∨ ¬ Nat.Prime n", "(n : ℕ) (h : 2 ≤ n) : True", True),
    (": Nat.Prime 91", ": Nat.Prime 97", False),
    (": (2 : ℝ) ^ (-1 : ℤ) = 1 / 2", ": (2 : ℝ) ^ (-1 : ℤ) = 2", False),
    ("(x : ℝ) : |x| = max x (-x)", "(x : ℝ) : |x| = min x (-x)", False),
    (": (10 : ℕ) - 20 = 0", ": (10 : ℤ) - 20 = 0", False),
    (": (7 : ℕ) / 2 = 3", ": (7 : ℝ) / 2 = 3", False),
    (
        "(f : ℝ → ℝ) (hf : ∀ x, f x = 2 * x + 1) : f⁻¹' {3} = {1}",
        "(f : ℝ → ℝ) (hf : ∀ x, f x = 2 * x + 1) : f⁻¹' {3} = {2}",
        False,
    ),
    ("(a : Fin 5) : (a : ℕ) < 5", "(a : Fin 5) : (a : ℕ) < 4", False),
    ("(a b : ZMod 7) (h : a = 3) : a * 5 = 1", "(a b : ZMod 7) (h : a = 3) : a * 5 = 15", True),
    ("(a : ZMod 7) (h : a = 3) : a * 5 = 1", "(a : ZMod 7) (h : a = 3) : a * 5 = 2", False),
    ("(S : Set ℝ) : S ∪ Set.Icc 0 1 = Set.univ", "(S : Set ℝ) : S ∪ Set.Icc 0 (3/2) = Set.univ", False),
    ("(S : Set ℝ) : S ∩ {x | 2 * x = 1} = ∅", "(S : Set ℝ) : S ∩ {x | 2 * x = 3} = ∅", False),
    ("(S : Set ℝ) (f : ℝ → ℝ) : f '' Set.Icc 0 1 ⊆ S", "(S : Set ℝ) (f : ℝ → ℝ) : f '' Set.Icc 0 (3/2) ⊆ S", False),
    ("(f : ℕ → Set ℝ) : f 1 = Set.Icc 0 1", "(f : ℕ → Set ℝ) : f 1 = Set.Icc 0 (3/2)", False),
    ("(S : Set ℝ) : S \\ Set.Icc 0 1 = ∅", "(S : Set ℝ) : S \\ Set.Icc 0 (3/2) = ∅", False),
    ("(S : Set ℝ) : Set.Icc 0 1 ⊆ S", "(S : Set ℝ) : Set.Icc 0 (3/2) ⊆ S", False),
    ("(S : Set ℝ) : S = Set.Ioo (1/2) 1", "(S : Set ℝ) : S = Set.Ioo 0 1", False),
    ("(S : Set ℝ) : S = {1/2, 1}", "(S : Set ℝ) : S = {0, 1}", False),
    ("(S : Set ℝ) : S ≠ Set.Icc 0 1", "(S : Set ℝ) : S ≠ Set.Icc 0 (3/2)", False),
    ("(S : Set ℝ) : Disjoint S (Set.Icc 0 1)", "(S : Set ℝ) : Disjoint S (Set.Icc 0 (3/2))", False),
    ("(S : Set ℝ) : (S ∩ Set.Icc 0 1).Nonempty", "(S : Set ℝ) : (S ∩ Set.Icc 0 (3/2)).Nonempty", False),
    ("(S : Set ℝ) : IsClosed (S ∪ Set.Icc 0 1)", "(S : Set ℝ) : IsClosed (S ∪ Set.Icc 0 (3/2))", False),
    ("(S : Set ℝ) : closure S = Set.Icc 0 1", "(S : Set ℝ) : closure S = Set.Icc 0 (3/2)", False),
    ("(S : Finset ℝ) : S = {1/2}", "(S : Finset ℝ) : S = {0}", False),
    ("(S : Set ℝ) : Set.Icc 0 1 ∈ ({S} : Set (Set ℝ))", "(S : Set ℝ) : Set.Icc 0 (3/2) ∈ ({S} : Set (Set ℝ))", False),
    ("(S : Set ℚ) : S = Set.Icc 0 1", "(S : Set ℚ) : S = Set.Icc 0 (3/2)", False),
    ("(S : Set ℤ) : S = Set.Icc 0 1", "(S : Set ℤ) : S = Set.Icc 0 (3/2)", True),
    # memberships of unions, intersections and differences (session 20): Mathlib `Set.mem_union`, `Set.mem_inter_iff`,
    # `Set.mem_diff`, `Finset.mem_inter`; `Union.union : α → α → α` gives the operands the result's type
    (
        "(x : ℝ) (h : x ∈ Set.Icc 0 1 ∪ Set.Icc 2 3) : x ≤ 3",
        "(x : ℝ) (h : (0 ≤ x ∧ x ≤ 1) ∨ (2 ≤ x ∧ x ≤ 3)) : x ≤ 3",
        True,
    ),
    ("(x : ℝ) : x ∈ Set.Icc 0 3 \\ Set.Ioo 1 2", "(x : ℝ) : x ∈ Set.Icc 0 1 ∪ Set.Icc 2 3", True),
    ("(n : ℕ) : n ∈ Finset.range 10 ∩ Finset.Icc 3 20", "(n : ℕ) : n ∈ Finset.Icc 3 9", True),
    ("(A B : Set ℝ) (x : ℝ) : x ∈ A ∪ B", "(A B : Set ℝ) (x : ℝ) : x ∈ B ∪ A", True),
    ("(A B : Set ℕ) (x : ℕ) : x ∈ A ∩ B ↔ x ∈ A ∧ x ∈ B", ": True", True),
    (
        "(S : Set ℝ) (h : S = Set.Icc 0 (3/2) ∪ {5}) : (5/4 : ℝ) ∈ S",
        "(S : Set ℝ) (h : S = Set.Icc 0 (3/2) ∪ {5}) : True",
        True,
    ),
    (
        "(S : Set ℝ) (h : S = Set.Icc 0 1 ∪ Set.Icc 2 3) : (3/2 : ℝ) ∈ S",
        "(S : Set ℝ) (h : S = Set.Icc 0 1 ∪ Set.Icc 2 3) : True",
        False,
    ),
    ("(x : ℝ) : x ∈ Set.Icc 0 (3/2) ∪ {5}", "(x : ℝ) : x ∈ Set.Icc 0 1 ∪ {5}", False),
    # (`x ∈ A \\ B` and `x ∈ B \\ A` for all A, B are one statement up to the names A and B: SymEq aligns them)
    ("(B : Set ℝ) (x : ℝ) : x ∈ Set.Icc 0 1 \\ B", "(B : Set ℝ) (x : ℝ) : x ∈ B \\ Set.Icc 0 1", False),
    ("(A B : Set ℝ) (x : ℝ) : x ∈ A \\ B", "(A B : Set ℝ) (x : ℝ) : x ∈ B \\ A", True),
    ("(A B : Set ℝ) (x : ℝ) : x ∈ A ∪ B", "(A B : Set ℝ) (x : ℝ) : x ∈ A ∩ B", False),
    ("(S T : Set ℝ) (h : T = S ∪ {1/2}) : T = S ∪ {0}", "(S T : Set ℝ) (h : T = S ∪ {0}) : True", False),
    # `ᶜ`, `ᵀ` are no identifier characters in Lean (Init/Meta `isLetterLike`): `Aᶜ` is A's complement
    ("(A : Set ℝ) (hA : A = Set.Icc 0 1) : (2 : ℝ) ∈ Aᶜ", "(A : Set ℝ) (hA : A = Set.Icc 0 3) : (2 : ℝ) ∈ Aᶜ", False),
    ("(M N : Matrix (Fin 2) (Fin 2) ℝ) (h : N = M) : Nᵀ = Mᵀ", "(M N : Matrix (Fin 2) (Fin 2) ℝ) : True", True),
    # a complement met once definitions are substituted; Lean's `-` between sets is pointwise (`Set.sub`, `Set.neg`)
    ("(x : ℝ) (A B : Set ℝ) (hA : A = Set.Icc 0 1) (hB : B = Aᶜ) : x ∈ B", "(x : ℝ) : x < 0 ∨ 1 < x", True),
    ("(x : ℝ) (B : Set ℝ) (hB : B = (Set.Icc 0 (3/2))ᶜ) : x ∈ B", "(x : ℝ) : x < 0 ∨ 1 < x", False),
    ("(x : ℝ) : x ∈ Set.Icc 0 1 - {1}", "(x : ℝ) : 0 ≤ x ∧ x ≤ 1 ∧ x ≠ 1", False),
    ("(x : ℝ) (B : Set ℝ) (hB : B = -Set.Icc 0 1) : x ∈ B", "(x : ℝ) : x < 0 ∨ 1 < x", False),
    (
        "(x : ℝ) (S : Set ℝ) (h : S = Set.Icc x 1) : x ∈ S",
        "(x : ℝ) (S : Set ℝ) (h : S = Set.Icc x (3/2)) : x ∈ S",
        False,
    ),
    ("(f : ℝ → ℝ) : Set.range f = Set.Icc 0 1", "(f : ℝ → ℝ) : Set.range f = Set.Icc 0 (3/2)", False),
    ("(f : ℝ → ℝ) (S : Set ℝ) : f '' S = Set.Icc 0 1", "(f : ℝ → ℝ) (S : Set ℝ) : f '' S = Set.Icc 0 (3/2)", False),
    ("(f : ℝ → ℝ) : f ⁻¹' {1/2} = ∅", "(f : ℝ → ℝ) : f ⁻¹' {0} = ∅", False),
    ("(S : Set ℝ) : S ⊆ {1/2}", "(S : Set ℝ) : S ⊆ {0}", False),
    ("(S : Set ℝ) : {1/2} ⊆ S", "(S : Set ℝ) : {0} ⊆ S", False),
    ("(S : Set ℝ) : S ∪ {1/2} = S", "(S : Set ℝ) : S ∪ {0} = S", False),
    ("(S : Set ℝ) : insert (1/2) S = S", "(S : Set ℝ) : insert 0 S = S", False),
    ("(p : ℝ × ℝ) : p = (1/2, 1)", "(p : ℝ × ℝ) : p = (0, 1)", False),
    ("(p : ℝ × ℝ) : (1/2, 1) = p", "(p : ℝ × ℝ) : (0, 1) = p", False),
    ("(f : ℕ → ℝ × ℝ) : f 0 = (1/2, 1)", "(f : ℕ → ℝ × ℝ) : f 0 = (0, 1)", False),
    ("(f : ℕ → ℝ × ℝ) : (1/2, 1) = f 0", "(f : ℕ → ℝ × ℝ) : (0, 1) = f 0", False),
    ("(x : ℝ) : foo x ∈ Set.Icc 0 1", "(x : ℝ) : foo x ∈ Set.Icc 0 (3/2)", False),
    ("(x : ℝ) : Set.Icc 0 1 = foo x", "(x : ℝ) : Set.Icc 0 (3/2) = foo x", False),
    ("(x : ℝ) : (3/2, 1) = foo x", "(x : ℝ) : (1, 1) = foo x", False),
    ("(x : ℝ) : foo x ≠ (3/2, 1)", "(x : ℝ) : foo x ≠ (1, 1)", False),
    ("(l : List ℝ) : l = [1/2, 1]", "(l : List ℝ) : l = [0, 1]", False),
    ("(x : ℝ) : foo x = [1/2, 1]", "(x : ℝ) : foo x = [0, 1]", False),
    ("(v : Fin 2 → ℝ) : v = ![1/2, 1]", "(v : Fin 2 → ℝ) : v = ![0, 1]", False),
    ("(x : ℝ) : foo x = ![1/2, 1]", "(x : ℝ) : foo x = ![0, 1]", False),
    ("(x : ℝ) : bar (foo x) (1/2) = 0", "(x : ℝ) : bar (foo x) 0 = 0", False),
    ("(x : ℝ) : foo x (1/2) = 0", "(x : ℝ) : foo x 0 = 0", False),
    ("(x : ℝ) : ∃ y, foo y = (1/2, x)", "(x : ℝ) : ∃ y, foo y = (0, x)", False),
    (": ∑ i in Finset.range 3, (i : ℝ) / 2 = 3/2", ": ∑ i in Finset.range 3, (i : ℝ) / 2 = 1", False),
    ("(f : ℝ → ℝ) : ∀ x ∈ Set.Icc 0 (3/2), f x ≥ 0", "(f : ℝ → ℝ) : ∀ x ∈ Set.Icc 0 1, f x ≥ 0", False),
    ("(f : ℝ → ℝ) : ∃ x ∈ Set.Ioo 0 (1/2), f x = 0", "(f : ℝ → ℝ) : ∃ x ∈ Set.Ioo 0 1, f x = 0", False),
    ("(f : ℝ → ℝ) : ∀ x ∈ ({1/2, 1} : Set ℝ), f x = 0", "(f : ℝ → ℝ) : ∀ x ∈ ({0, 1} : Set ℝ), f x = 0", False),
    ("(f : ℝ → ℝ) : ∀ x ∈ {1/2, 1}, f x = 0", "(f : ℝ → ℝ) : ∀ x ∈ {0, 1}, f x = 0", False),
    ("(s : Finset ℝ) : s.sum id = 3/2", "(s : Finset ℝ) : s.sum id = 1", False),
    ("(x : ℝ) : max (3/2) x = x", "(x : ℝ) : max 1 x = x", False),
    ("(f : ℝ → ℝ) : StrictMonoOn f (Set.Icc 0 (3/2))", "(f : ℝ → ℝ) : StrictMonoOn f (Set.Icc 0 1)", False),
    ("(f : ℝ → ℝ) : ContinuousOn f (Set.Ioo (1/2) 1)", "(f : ℝ → ℝ) : ContinuousOn f (Set.Ioo 0 1)", False),
    ("(f : ℝ → ℝ) : ∫ x in (0)..(3/2), f x = 0", "(f : ℝ → ℝ) : ∫ x in (0)..1, f x = 0", False),
    ("(f : ℝ → ℝ) : Tendsto f (𝓝 (1/2)) (𝓝 0)", "(f : ℝ → ℝ) : Tendsto f (𝓝 0) (𝓝 0)", False),
    ("(f : ℕ → ℝ) : Tendsto f atTop (𝓝 (1/2))", "(f : ℕ → ℝ) : Tendsto f atTop (𝓝 0)", False),
    ("(f : ℝ → ℝ) : deriv f (1/2) = 0", "(f : ℝ → ℝ) : deriv f 0 = 0", False),
    ("(f : ℝ → ℝ) : f (1/2) = 0", "(f : ℝ → ℝ) : f 0 = 0", False),
    ("(f : ℝ → ℝ) : (f ∘ f) (1/2) = 0", "(f : ℝ → ℝ) : (f ∘ f) 0 = 0", False),
    ("(f : ℝ → ℝ) : f^[2] (1/2) = 0", "(f : ℝ → ℝ) : f^[2] 0 = 0", False),
    ("(p : Polynomial ℝ) : p.eval (1/2) = 0", "(p : Polynomial ℝ) : p.eval 0 = 0", False),
    ("(p : Polynomial ℝ) : p.IsRoot (1/2)", "(p : Polynomial ℝ) : p.IsRoot 0", False),
    ("(v : EuclideanSpace ℝ (Fin 2)) : dist v 0 = 1/2", "(v : EuclideanSpace ℝ (Fin 2)) : dist v 0 = 0", False),
    ("(z : ℂ) : z = 1/2", "(z : ℂ) : z = 0", False),
    ("(z : ℂ) : Complex.abs z = 1/2", "(z : ℂ) : Complex.abs z = 0", False),
    ("(x : ℝ) : Int.floor (x + 1/2) = 0", "(x : ℝ) : Int.floor x = 0", False),
    ("(x : ℝ) : ⌊x⌋ = 1/2", "(x : ℝ) : ⌊x⌋ = 0", True),
    ("(M : Matrix (Fin 2) (Fin 2) ℝ) : M 0 0 = 1/2", "(M : Matrix (Fin 2) (Fin 2) ℝ) : M 0 0 = 0", False),
    (
        "(M : Matrix (Fin 2) (Fin 2) ℝ) : M = !![1/2, 0; 0, 1]",
        "(M : Matrix (Fin 2) (Fin 2) ℝ) : M = !![0, 0; 0, 1]",
        False,
    ),
    (
        "(a : ℕ → ℝ) (h : ∀ n, a (n+1) = a n / 2) : a 1 = 1/2",
        "(a : ℕ → ℝ) (h : ∀ n, a (n+1) = a n / 2) : a 1 = 0",
        False,
    ),
    # (this pair read `t / 2 + 1/2` against `t / 2` over t : ℝ as different: both ranges are all of ℝ, so Lean's verdict
    # is "the same", which SymEq gives since it reads the range's members (session 22); the numeral's type is
    # what the two pairs after it test)
    ("(x : ℝ) : x ∈ Set.range (fun t : ℝ => t / 2 + 1/2)", "(x : ℝ) : x ∈ Set.range (fun t : ℝ => t / 2)", True),
    ("(x : ℝ) : x ∈ Set.range (fun t : ℝ => t ^ 2 + 1/2)", "(x : ℝ) : x ∈ Set.range (fun t : ℝ => t ^ 2)", False),
    (
        "(x : ℝ) : x ∈ Set.range (fun t : ℕ => (t : ℝ) / 2 + 1/2)",
        "(x : ℝ) : x ∈ Set.range (fun t : ℕ => (t : ℝ) / 2)",
        False,
    ),
    (
        "(S : Set ℝ) (h : S = Set.range (fun n : ℕ => (n : ℝ) + 1/2)) : (1/2 : ℝ) ∈ S",
        "(S : Set ℝ) (h : S = Set.range (fun n : ℕ => (n : ℝ))) : (1/2 : ℝ) ∈ S",
        False,
    ),
    ("(S : Set (ℝ × ℝ)) : S = {(1/2, 1)}", "(S : Set (ℝ × ℝ)) : S = {(0, 1)}", False),
    ("(S : Set (ℝ × ℝ)) : (1/2, 1) ∈ S", "(S : Set (ℝ × ℝ)) : (0, 1) ∈ S", False),
    (
        "(S : Set (ℝ × ℝ)) (h : S = {p | p.1 = 1/2}) : (1/2, 1) ∈ S",
        "(S : Set (ℝ × ℝ)) (h : S = {p | p.1 = 0}) : (1/2, 1) ∈ S",
        False,
    ),
    ("(S : Set (Fin 3 → ℝ)) : S = {![1/2, 0, 0]}", "(S : Set (Fin 3 → ℝ)) : S = {![0, 0, 0]}", False),
    ("(S : Set (ℕ → ℝ)) : (fun n => (1/2 : ℝ)) ∈ S", "(S : Set (ℕ → ℝ)) : (fun n => (0 : ℝ)) ∈ S", False),
    ("(S : Set (ℕ → ℝ)) : (fun n => 1/2) ∈ S", "(S : Set (ℕ → ℝ)) : (fun n => 0) ∈ S", False),
    ("(S : Set (Set ℝ)) : {1/2} ∈ S", "(S : Set (Set ℝ)) : {0} ∈ S", False),
    ("(S : Set (Set ℝ)) : Set.Icc 0 (1/2) ∈ S", "(S : Set (Set ℝ)) : Set.Icc 0 0 ∈ S", False),
    ("(S : Set ℂ) : (1/2 : ℂ) ∈ S", "(S : Set ℂ) : (0 : ℂ) ∈ S", False),
    ("(S : Set ℂ) : 1/2 ∈ S", "(S : Set ℂ) : 0 ∈ S", False),
    ("(S : Set (Polynomial ℝ)) : Polynomial.C (1/2) ∈ S", "(S : Set (Polynomial ℝ)) : Polynomial.C 0 ∈ S", False),
    ("(S : Finset (ℝ × ℝ)) : S = {(1/2, 1)}", "(S : Finset (ℝ × ℝ)) : S = {(0, 1)}", False),
    ("(f : ℝ × ℝ → ℝ) : f (1/2, 1) = 0", "(f : ℝ × ℝ → ℝ) : f (0, 1) = 0", False),
    ("(S : Set (ℝ × ℝ)) : S ⊆ {p | p.1 < 1/2}", "(S : Set (ℝ × ℝ)) : S ⊆ {p | p.1 < 0}", False),
    ("(x : ℝ) : foo x = (3/2, 1)", "(x : ℝ) : foo x = (1, 1)", False),
    ("(x : ℝ) : foo x = fun y => y + 3/2", "(x : ℝ) : foo x = fun y => y + 1", False),
    ("(S : Set ℝ) : closure S = {1/2}", "(S : Set ℝ) : closure S = {0}", False),
    ("(S : Set ℝ) : interior S = {x | 2 * x = 1}", "(S : Set ℝ) : interior S = {x | 2 * x = 3}", False),
    ("(x : ℝ) : foo x = 3/2", "(x : ℝ) : foo x = 1", False),
    # images, ranges and preimages read by their members (session 22: Mathlib `Set.mem_image`, `Set.mem_range`,
    # `Set.mem_preimage`): the element takes the codomain's type, ℕ's `/` and `-` stay truncating inside
    ("(f : ℕ → ℝ) (hf : ∀ n, f n = n / 2) : 3/2 ∈ Set.range f", "(f : ℕ → ℝ) (hf : ∀ n, f n = n / 2) : True", True),
    ("(f : ℝ → ℕ) (hf : ∀ x, f x = 2) (y : ℝ) : y ∈ f ⁻¹' {2}", "(f : ℝ → ℕ) (hf : ∀ x, f x = 2) (y : ℝ) : True", True),
    (
        "(f : ℕ → ℕ) (hf : ∀ n, f n = n / 2) : 3 ∈ f '' Set.Icc 0 5",
        "(f : ℕ → ℕ) (hf : ∀ n, f n = n / 2) : 3 ∈ f '' Set.Icc 0 7",
        False,
    ),
    # the same sets compared whole (`f '' A = B`, `Set.range f ⊆ Set.Ici 0`): typed as Mathlib types them, a set of
    # f's codomain (preimage: domain), so `{1/2}` there is a set of reals, and ℕ's `/`, `-` stay truncating
    ("(f : ℕ → ℝ) (hf : ∀ n, f n = n / 2) : f '' {1} = {1/2}", "(f : ℕ → ℝ) (hf : ∀ n, f n = n / 2) : True", True),
    ("(f : ℕ → ℕ) (hf : ∀ n, f n = n / 2) : f '' {1} = {0}", "(f : ℕ → ℕ) (hf : ∀ n, f n = n / 2) : True", True),
    ("(f : ℕ → ℝ) (hf : ∀ n, f n = n / 2) : f '' {1} = {0}", "(f : ℕ → ℝ) (hf : ∀ n, f n = n / 2) : True", False),
    ("(f : ℝ → ℝ) (hf : ∀ x, f x = 2 * x) : f ⁻¹' {1} = {1/2}", "(f : ℝ → ℝ) (hf : ∀ x, f x = 2 * x) : True", True),
    ("(f : ℝ → ℝ) (hf : ∀ x, f x = 2 * x) : f ⁻¹' {1} = {0}", "(f : ℝ → ℝ) (hf : ∀ x, f x = 2 * x) : True", False),
    (
        "(f : ℤ → ℤ) (hf : ∀ x, f x = x - 5) : Set.range f ⊆ Set.Ici 0",
        "(f : ℤ → ℤ) (hf : ∀ x, f x = x - 5) : True",
        False,
    ),
    (
        "(f : ℕ → ℕ) (hf : ∀ x, f x = x - 5) : Set.range f ⊆ Set.Ici 0",
        "(f : ℕ → ℕ) (hf : ∀ x, f x = x - 5) : True",
        True,
    ),
    # `dist` on numbers is |x - y| of the casts to ℝ (`Nat.dist_eq`), on pairs the sup metric (`Prod.dist_eq`)
    ("(m n : ℕ) (h : dist m n = 2) : True", "(m n : ℕ) (h : m - n = 2) : True", False),
    ("(m n : ℕ) (h : dist m n = 2) : True", "(m n : ℕ) (h : |(m : ℝ) - n| = 2) : True", True),
    (": dist (3 : ℝ) (1/2) = 3", ": True", False),
    (
        "(p q : ℝ × ℝ) (h : dist p q = 1) : True",
        "(p q : ℝ × ℝ) (h : Real.sqrt ((p.1 - q.1)^2 + (p.2 - q.2)^2) = 1) : True",
        False,
    ),
    # order properties unfolded (Mathlib/Order/Monotone/Defs.lean)
    (": StrictMono (fun x : ℕ => x - 1)", ": Monotone (fun x : ℕ => x - 1)", False),
    (": StrictMono (fun x : ℤ => x - 1)", ": True", True),
    (": StrictAnti (fun x : ℕ => 10 - x)", ": Antitone (fun x : ℕ => 10 - x)", False),
    # number theory's predicates on a field (session 27): every nonzero element is a unit, so nothing is `Prime`,
    # `a ∣ b` is `a ≠ 0 ∨ b = 0`, and everything is `Even` and `Odd` (Algebra/Prime/Defs.lean, Group/Even.lean)
    (": Prime (2 : ℝ)", ": True", False),
    (": (2 : ℝ) ∣ 3", ": True", True),
    (": (4 : ℚ) ∣ 2", ": (4 : ℤ) ∣ 2", False),
    (": Even (3 : ℝ)", ": True", True),
    ("(n : ℕ) : Prime (n : ℝ)", "(n : ℕ) : Nat.Prime n", False),
    ("(n : ℕ) : Prime (n : ℤ)", "(n : ℕ) : Nat.Prime n", True),
    ("(x : ℚ) (h : x = 4) : ¬ Odd x", "(x : ℚ) (h : x = 4) : False", True),
    ("(x : ℝ) (h : x = 7) : Prime x", "(x : ℝ) (h : x = 7) : True", False),
    # session 36: Mathlib definitions read (divisors, totient, Nat.log, logb of literals, id, List.sum)
    (": ∑ k in Nat.divisors 500, k = 1092", ": True", True),
    (": ∑ k in Nat.properDivisors 500, k = 1092", ": True", False),
    ("(n : ℕ) : n.divisors.card = 3", "(n : ℕ) : n.properDivisors.card = 3", False),
    (": Nat.totient 10 = 4", ": True", True),
    (": Nat.log 2 8 = 3", ": Nat.clog 2 8 = 3", True),
    (": Nat.log 2 9 = 3", ": Nat.clog 2 9 = 3", False),
    (": Real.logb 2 8 = 3", ": True", True),
    (": Real.logb 2 3 = 1", ": False", False),
    (": (Finset.range 5).sum id = 10", ": True", True),
    (": [2, 3].prod = 5", ": False", True),
]

# Isabelle/HOL theorems (whole texts). Session 28: a type no binder, signature or literal fixes is a type variable, and
# the theorem holds at every type of its sort (Isabelle has no numeric default; free type variables are generalized),
# so an untyped statement is not its reading at real or int; bound names take no type from `fixes` of the same name.
ISABELLE_PAIRS = [
    ('theorem "n - 2 + 2 = n"', 'theorem fixes n :: real shows "n - 2 + 2 = n"', False),
    ('theorem "n - 2 + 2 = n"', 'theorem "m - 2 + 2 = m"', True),
    ('theorem "2 * x = x + x"', 'theorem "True"', False),
    ('theorem fixes x :: int shows "2 * x = x + x"', 'theorem "True"', True),
    ('theorem "x / 3 * 3 = x"', 'theorem fixes x :: rat shows "x / 3 * 3 = x"', False),
    ('theorem fixes x :: rat shows "x / 3 * 3 = x"', 'theorem "True"', True),
    ('theorem "(a::real) * b = b * a"', 'theorem "True"', True),
    ('theorem "a * b = b * a"', 'theorem "True"', False),
    ('theorem "4 * 5 = 20"', 'theorem "(4::nat) * 5 = 20"', False),
    ('theorem "(4::nat) * 5 = 20"', 'theorem "True"', True),
    ('theorem assumes "x = 0.25" shows "4 * x = 1"', 'theorem "True"', False),
    ('theorem assumes "x = (0.25::real)" shows "4 * x = 1"', 'theorem "True"', True),
    ('theorem "(\\<Sum>i = 1..4. i) = 10"', 'theorem "(\\<Sum>i::nat = 1..4. i) = 10"', False),
    ('theorem "(\\<Sum>i::int = 1..4. i) = 10"', 'theorem "True"', True),
    ('theorem "cos x \\<le> 1"', 'theorem fixes x :: real shows "cos x \\<le> 1"', False),
    ('theorem "exp (ln x) = x"', 'theorem fixes x :: real shows "exp (ln x) = x"', False),
    ('theorem "\\<lfloor>x\\<rfloor> = 2"', 'theorem fixes x :: real shows "\\<lfloor>x\\<rfloor> = 2"', False),
    ('theorem "even k \\<Longrightarrow> k \\<noteq> 1"', 'theorem "True"', False),
    (
        'theorem fixes P Q :: real assumes "\\<forall>P Q. P * Q = P + Q" shows "P * Q = P + Q"',
        'theorem fixes P Q :: real shows "P * Q = P + Q"',
        False,
    ),
    (
        'theorem fixes P Q :: real assumes "\\<forall>P Q. P * Q = P + Q" shows "P * Q = P + Q"',
        'theorem fixes P Q :: real assumes "\\<forall>P Q. P * Q = P + Q" shows "Q * P = Q + P"',
        True,
    ),
    ('theorem "a + 1 = 2 \\<and> b * 2 = 6"', 'theorem "v * 2 = 6 \\<and> u + 1 = 2"', True),
    ('theorem "a + 1 = 2 \\<and> b * 2 = 6"', 'theorem "v * 2 = 6 \\<and> v + 1 = 2"', False),
    ('theorem "card {d::int. d dvd 6} = 8"', 'theorem "True"', True),
    ('theorem "card {d::nat. d dvd 6} = 8"', 'theorem "True"', False),
    ('theorem "log 2 (8::real) = 3"', 'theorem "True"', True),
    ('theorem "(\\<Sum>d\\<in>{d. d dvd 12}. d) = 28"', 'theorem "True"', False),
]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_seconds(ap, "--timeout-s", 1.0, "Z3's budget per query in nominal seconds")
    args = ap.parse_args(argv)
    eq = SymEq("lean", timeout_ms=round(args.timeout_s * 1000))
    isa = SymEq("isabelle", timeout_ms=round(args.timeout_s * 1000))
    wrong = []
    for a, b, same in PAIRS:
        if eq.compare(f"theorem t {a} := by sorry", f"theorem t {b} := by sorry").equivalent != same:
            wrong.append((a, b, same))
    lean_wrong = len(wrong)
    for a, b, same in ISABELLE_PAIRS:
        if isa.compare(a, b).equivalent != same:
            wrong.append((a, b, same))
    total = len(PAIRS) + len(ISABELLE_PAIRS)
    print(
        f"{total - len(wrong)} of {total} pairs right (Lean {len(PAIRS) - lean_wrong} of {len(PAIRS)}, Isabelle "
        f"{len(ISABELLE_PAIRS) - len(wrong) + lean_wrong} of {len(ISABELLE_PAIRS)})"
    )
    for a, b, same in wrong:
        print(f"  {'MERGED, differ' if not same else 'APART, same'}: {a}  |  {b}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
