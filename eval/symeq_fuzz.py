"""Differential fuzzing of SymEq's Lean 4 reading of arithmetic against an independent evaluator of Lean's semantics.

    nice python eval/symeq_fuzz.py --seed 1000 --pairs 3000           # a report: merges, suspect merges, misses
    nice python eval/symeq_fuzz.py --seed 0 --pairs 500 --show 20      # a development run (seeds below 1000)

Random statements `theorem t (x : T) (y : T') (h : P) : Q := by sorry` over ℕ, ℤ, ℚ and ℝ are written as Lean text:
+ - * / %, unary minus, powers, `⁻¹`, `|…|`, `min`, `max`, `⌊…⌋`, `⌈…⌉`, `⌊…⌋₊`, `⌈…⌉₊`, `Real.sqrt` and `√`,
`Nat.sqrt`, `(Nat.divisors n).card`, `(Nat.digits 10 n).sum`, `Nat.factorial`, `Nat.choose`, `Nat.gcd`, `Nat.lcm`,
`Int.natAbs`, `Int.toNat`, `Nat.succ`, `Nat.pred`, `Int.gcd`, `Int.lcm`, Lean core's integer divisions `Int.ediv`,
`Int.emod`, `Int.fdiv`, `Int.fmod`, `Int.tdiv`, `Int.tmod`, `∑`/`∏` over `Finset.range n` and `Finset.Icc a b`
(`Ico`, `Ioc`, `Ioo`; written `∑ i ∈ s, f`, with the older `in`, or `Finset.sum s (fun i => f)`), `↑x`,
`(Finset.filter (fun i => P) s).card`, functions `(f g : T → T)` applied, type ascriptions, the six relations, `∣`,
`Even`, `Odd`, `Nat.Prime`, `Prime`, `Nat.Coprime a b`, `a ≡ b [MOD n]`, `a ≡ b [ZMOD n]` (and `Nat.ModEq n a b`,
`Int.ModEq n a b`), `x ∈ Set.Icc a b` (and `Ico`, `Ioc`, `Ioo`, `Finset.…`, `Finset.range n`), `∀ i : ℕ, i < n → …`,
`∃ i : ℕ, i < n ∧ …`, their binder-predicate forms `∀ i < n, …` and the connectives. A second statement is made from
the first by one or two small edits: a literal, an operator, a relation, an ascription added, removed or changed, a
binder's type, a bound variable renamed, a range rewritten as an interval (`Icc a b` as `Ico a (b + 1)`), a hypothesis
moved into the conclusion or two joined by `∧`, operands swapped, a definition unfolded (`Nat.Coprime a b` as
`Nat.gcd a b = 1`, `a ≡ b [MOD n]` as `a % n = b % n`, `Int.emod a b` as `(a % b : ℤ)`), one integer division for
another. SymEq compares the pair in its worker pool (`SymEqConfig`'s defaults).

The oracle is written apart from SymEq's reader. Its elaborator follows Lean's `binop%`/`binrel%` (Lean.Elab.Extra):
the leaves of one arithmetic tree, both sides of a relation included, are elaborated first without an expected type
(`processLeaf`), the largest of their types and the expected type wins, coercions `↑` go on the leaves, a tree of
numerals only is ℕ; a leaf whose type only numerals fix (`|2 - 5|`, `∑ i ∈ s, 2`) takes the tree's type; `x ^ n`
puts its base in the tree and elaborates the exponent apart. An application (`min a b`, `a ∣ b`, `Finset.Icc a b`)
is typed by its first argument that has a type of its own, the others are elaborated at that type; `Nat.factorial`
and its kin elaborate their arguments at ℕ (ℤ for `Int.natAbs`, `Int.toNat`); a big operator's body is typed by
itself (`∑ i ∈ Finset.range 3, i / 5` is a natural number, cast where it meets a real), but a lone application
elaborated against a type takes it first (`(∑ i ∈ s, (i - 1) : ℤ)` sums `↑i - 1`: `elabAppArgs` propagates the
expected type); a leaf `↑x` takes the tree's type without choosing it; `f a` elaborates a against f's domain; a
function binder ranges over four fixed pseudo-random tables (SymEq must treat f as uninterpreted). Statements Lean
rejects (`-x` or `|x|` at ℕ, `%` or `Finset.Icc` at a field, `⁻¹` at ℕ or ℤ, an ascription to a smaller type) are
dropped. Values are exact (Fractions): ℕ subtraction truncates; ℕ and ℤ division and remainder are Lean's
(`Nat.div`, `Int.ediv`/`Int.emod`: the remainder is never negative; `x / 0 = 0`, `x % 0 = x`); a field's `x / 0 = 0`
and `0⁻¹ = 0`; `a ∣ b` in a field holds iff `a ≠ 0 ∨ b = 0` (Mathlib's `semigroupDvd`); `Even` and `Odd` hold of
every element of a field, `Prime` of none (every nonzero element is a unit), and of an integer iff of its absolute
value (`Int.prime_iff_natAbs_prime`); `Int.fdiv` is floor division (`Int.fmod`'s remainder has the divisor's sign),
`Int.tdiv` rounds toward zero (`Int.tmod`'s remainder has the dividend's sign), each with `x / 0 = 0`, `x % 0 = x`;
`Int.gcd` and `Int.lcm` are those of the absolute values; `Nat.ModEq n a b` is `a % n = b % n` (Int.emod for
`Int.ModEq`), each argument elaborated at ℕ (ℤ); `Nat.choose n k = 0` for k > n; `Nat.pred 0 = 0`; `Int.toNat` and
`Nat.floor` of a negative are 0; `Nat.divisors 0` is empty and `Nat.digits 10 0` is `[]`.

Each statement means `∀ vars, hyps → concl`. The oracle evaluates both on a grid (ℕ 0..13, 16, 25, 49, 51, 100;
ℤ 27 values in -13..100; ℚ and ℝ 32 values in -9..51 with halves and thirds; 3,000 seeded points of a larger
product; a point where a value grows past 10^12 is left out) under every alignment SymEq could take (binders of one
type may be exchanged):
- a merge is **suspect** when no alignment makes the two agree at every grid point and not both are false at
  some point (two false propositions are one proposition, as SymEq's closed statements are): one is then false
  and the other may be true. Suspects are printed for reading: a value off the grid can still make the second
  false, so a suspect is a finding only once read.
- a pair left apart that agrees at every grid point is counted as a possible **miss**: an upper bound, since the
  grid proves no equivalence, and SymEq keeps candidates with contradictory premises out of every class.
Seeds below 1000 are for development, 1000 and above for reports.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

N, Z, Q, R = 0, 1, 2, 3
TYNAME = {N: "ℕ", Z: "ℤ", Q: "ℚ", R: "ℝ"}
GRID = {
    N: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 25, 49, 51, 100],
    Z: [-13, -9, -8, -7, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 25, 49, 51, 100],
    Q: [Fraction(v) for v in (-9, -7, -4, -3, -2, -1, Fraction(-1, 2), Fraction(-1, 3), 0, Fraction(1, 3))]
    + [Fraction(v) for v in (Fraction(1, 2), Fraction(2, 3), 1, Fraction(3, 2), 2, Fraction(5, 2), 3, 4, 5, 6, 7)]
    + [Fraction(v) for v in (-8, 8, 9, 10, 11, 12, 13, 16, 25, 49, 51)],
}
MAX_POINTS = 3000  # a larger product is sampled (seeded), its first points always included
GRID[R] = GRID[Q]


class Table:
    """One interpretation of a function binder `f : T → T`: a fixed pseudo-random table from T's grid to itself.
    SymEq must treat f as uninterpreted, so a merge may not depend on which table f is."""

    def __init__(self, ty: int, seed: int):
        self.ty, self.seed = ty, seed

    def __call__(self, v):
        vals = GRID[self.ty]
        return vals[hash((self.seed, Fraction(v))) % len(vals)]

    def __repr__(self) -> str:
        return f"table{self.seed}"


FUN = 10  # a type code 10 + T is the function type T → T
for _t in (N, Z, R):
    TYNAME[FUN + _t] = f"{TYNAME[_t]} → {TYNAME[_t]}"
    GRID[FUN + _t] = [Table(_t, seed) for seed in range(4)]
ARITH = ("+", "-", "*", "/", "%")
RELS = ("=", "≠", "<", "≤", ">", "≥")
PREDS = ("Even", "Odd", "Nat.Prime", "Prime")
CONVERSE = {"=": "=", "≠": "≠", "<": ">", ">": "<", "≤": "≥", "≥": "≤"}


class Ill(Exception):
    """Lean would reject the statement (no instance, no coercion down the tower, a name out of scope)."""


class Skip(Exception):
    """A value too large to evaluate here (the grid point is left out for both statements)."""


# ------------------------------------------------------------------------------------------ syntax
# terms: ("var", x) ("num", n) ("asc", e, T) ("bin", op, a, b) ("neg", a) ("pow", a, e) ("inv", a)
#   ("hom", f, args): f = abs, min, max (one type α for the arguments and the value)
#   ("nat", f, args): Nat.factorial, Nat.choose, Nat.gcd, Nat.lcm, ... (ℕ → ℕ); Int.natAbs, Int.toNat, Int.gcd (ℤ → ℕ)
#   ("int", f, [a, b]): Int.ediv ... Int.tmod (ℤ → ℤ → ℤ)
#   ("round", f, a): Int.floor ⌊a⌋, Int.ceil ⌈a⌉ (ℤ, ℚ or ℝ → ℤ)
#   ("big", op, i, dom, body, notation): op ∑ or ∏, dom ("range", t) or ("Icc", a, b) (Ico, Ioc, Ioo), notation
#   "∈", "in" or "app" (`Finset.sum s (fun i => body)`)
# propositions: ("rel", op, a, b) ("dvd", a, b) ("pred", f, a) (Even, Odd, Nat.Prime, Prime) ("coprime", a, b)
#   ("modeq", "MOD" | "ZMOD", n, a, b, "notation" | "app")
#   ("and"|"or"|"imp"|"iff", p, q) ("not", p) ("all"|"ex", i, bound, p): ∀ i : ℕ, i < bound → p / ∃ i : ℕ, i < bound ∧ p

PREC = {"+": 65, "-": 65, "*": 70, "/": 70, "%": 70}
NAT_FUNS = {
    "Nat.factorial": 1,
    "Nat.choose": 2,
    "Nat.gcd": 2,
    "Nat.lcm": 2,
    "Nat.sqrt": 1,
    "Nat.divisors.card": 1,  # (Nat.divisors n).card
    "Nat.digits.sum": 1,  # (Nat.digits 10 n).sum
    "Int.natAbs": 1,
    "Int.toNat": 1,
    "Nat.succ": 1,
    "Nat.pred": 1,  # Init/Prelude.lean: `Nat.pred 0 = 0`
    "Int.gcd": 2,  # `Int.gcd : ℤ → ℤ → ℕ`, the gcd of the absolute values (Init/Data/Int/Gcd.lean)
    "Int.lcm": 2,
}
# `ℤ → ℤ → ℤ` divisions of Lean core (Init/Data/Int/DivMod): E-rounding (`/`, `%`), F-rounding (floor; the remainder
# has the divisor's sign) and T-rounding (toward zero; the remainder has the dividend's sign); each `x / 0 = 0` and
# `x % 0 = x`
INT_FUNS = ("Int.ediv", "Int.emod", "Int.fdiv", "Int.fmod", "Int.tdiv", "Int.tmod")


def paren(text: str, needed: bool) -> str:
    return f"({text})" if needed else text


def show(t, ctx: int = 0) -> str:
    """Lean text; `ctx` is the precedence the context needs (parentheses where the term binds weaker)."""
    kind = t[0]
    if kind == "var":
        return t[1]
    if kind == "num":
        return str(t[1])
    if kind == "asc":
        return f"({show(t[1])} : {TYNAME[t[2]]})"
    if kind == "hom" and t[1] == "abs":
        return f"|{show(t[2][0])}|"
    if kind == "nat" and t[1] == "Nat.divisors.card":
        return f"(Nat.divisors {show(t[2][0], 1024)}).card"
    if kind == "nat" and t[1] == "Nat.digits.sum":
        return f"(Nat.digits 10 {show(t[2][0], 1024)}).sum"
    if kind in ("hom", "nat", "int"):
        text = " ".join([t[1], *(show(a, 1024) for a in t[2])])
        return paren(text, ctx > 1023)
    if kind == "round":
        sub = "₊" if t[1].startswith("Nat.") else ""  # Mathlib's ⌊x⌋₊ = Nat.floor x
        return f"⌊{show(t[2])}⌋{sub}" if t[1].endswith("floor") else f"⌈{show(t[2])}⌉{sub}"
    if kind == "inv":
        return f"{show(t[1], 1024)}⁻¹"
    if kind == "coe":
        return f"↑{show(t[1], 1024)}"
    if kind == "sqrt":
        if t[2] == "√":  # Mathlib's `prefix:100 "√" => Real.sqrt`
            return f"√{show(t[1], 1024)}"
        text = f"Real.sqrt {show(t[1], 1024)}"
        return paren(text, ctx > 1023)
    if kind == "app":
        text = f"{t[1]} {show(t[2], 1024)}"
        return paren(text, ctx > 1023)
    if kind == "card":
        _, i, (fam, a, b), body, style = t
        s = f"Finset.filter (fun {i} => {show(body)}) ({_show_set(fam, a, b)})"
        if style == "dot":
            return f"({s}).card"
        return f"(Finset.card ({s}))" if ctx > 1023 else f"Finset.card ({s})"
    if kind == "bin":
        p = PREC[t[1]]
        text = f"{show(t[2], p)} {t[1]} {show(t[3], p + 1)}"  # infixl: the right operand binds tighter
        return paren(text, p < ctx)
    if kind == "neg":
        text = f"-{show(t[1], 76)}"
        return paren(text, ctx > 75)
    if kind == "pow":
        text = f"{show(t[1], 76)} ^ {show(t[2], 75)}"  # infixr:75
        return paren(text, ctx > 75)
    if kind == "big":
        _, op, i, dom, body, notation = t
        s = _show_set(*as_finset(dom))
        if notation == "app":  # `∑ x ∈ s, f` is notation for `Finset.sum s (fun x ↦ f)` (Mathlib BigOperators)
            text = f"{'Finset.sum' if op == '∑' else 'Finset.prod'} ({s}) (fun {i} => {show(body)})"
            return paren(text, ctx > 1023)
        # Mathlib's `∑ x ∈ s, f` reads its body at precedence 67: `∑ i ∈ s, f i + 1` is `(∑ i ∈ s, f i) + 1`
        text = f"{op} {i} {notation} {s}, {show(body, 67)}"
        return paren(text, ctx > 67)
    if kind == "rel":
        text = f"{show(t[2], 51)} {t[1]} {show(t[3], 51)}"
        return paren(text, ctx > 50)
    if kind == "dvd":
        text = f"{show(t[1], 51)} ∣ {show(t[2], 51)}"
        return paren(text, ctx > 50)
    if kind == "pred":
        text = f"{t[1]} {show(t[2], 1024)}"
        return paren(text, ctx > 1023)
    if kind == "coprime":
        text = f"Nat.Coprime {show(t[1], 1024)} {show(t[2], 1024)}"
        return paren(text, ctx > 1023)
    if kind == "modeq":
        _, mod, n, a, b, style = t
        if style == "app":
            text = f"{'Nat' if mod == 'MOD' else 'Int'}.ModEq {show(n, 1024)} {show(a, 1024)} {show(b, 1024)}"
            return paren(text, ctx > 1023)
        # Mathlib Data/Nat/ModEq.lean, Data/Int/ModEq.lean: `notation:50 a " ≡ " b " [MOD " n "]" => Nat.ModEq n a b`
        text = f"{show(a, 51)} ≡ {show(b, 51)} [{mod} {show(n)}]"
        return paren(text, ctx > 50)
    if kind == "not":
        text = f"¬{show(t[1], 40)}"
        return paren(text, ctx > 40)
    if kind in ("all", "ex"):
        _, i, bound, body, style = t
        q = "∀" if kind == "all" else "∃"
        if style == "pred":  # Mathlib's binder predicate: `∀ i < n, P` is `∀ i, i < n → P`, i typed by n
            text = f"{q} {i} < {show(bound, 51)}, {show(body)}"
        else:
            link = "→" if kind == "all" else "∧"
            text = f"{q} {i} : ℕ, {i} < {show(bound, 51)} {link} {show(body, 25)}"
        return paren(text, ctx > 0)
    if kind == "mem":
        _, x, (fam, a, b) = t
        text = f"{show(x, 51)} ∈ {_show_set(fam, a, b)}"
        return paren(text, ctx > 50)
    op, p, left, right = {"and": ("∧", 35, 36, 35), "or": ("∨", 30, 31, 30), "imp": ("→", 25, 26, 25)}.get(
        kind, ("↔", 20, 21, 21)
    )
    text = f"{show(t[1], left)} {op} {show(t[2], right)}"
    return paren(text, ctx > p)


def group_binders(binders: dict[str, int]) -> list[tuple[list[str], int]]:
    """Consecutive binders of one type, as a statement writes them: `(x y : ℕ) (z : ℝ)`."""
    groups: list[tuple[list[str], int]] = []
    for name, ty in binders.items():
        if groups and groups[-1][1] == ty:
            groups[-1][0].append(name)
        else:
            groups.append(([name], ty))
    return groups


def _show_set(fam: str, a, b) -> str:
    """`Finset.range n`, `Set.Icc a b`, `Finset.Ioo a b`, ..."""
    if fam == "Finset.range":
        return f"Finset.range {show(a, 1024)}"
    return f"{fam} {show(a, 1024)} {show(b, 1024)}"


def statement(binders: dict[str, int], hyps: list, concl) -> str:
    parts = [f"({' '.join(names)} : {TYNAME[ty]})" for names, ty in group_binders(binders)]
    parts += [f"(h{i} : {show(h)})" for i, h in enumerate(hyps)]
    return f"theorem t {' '.join(parts)} : {show(concl)} := by sorry"


# ------------------------------------------------------------------------------------------ elaboration
# typed terms end with their type: ("var", x, T) ("num", n, T) ("cast", e, T) ("bin", op, a, b, T) ("neg", a, T)
# ("pow", a, e, T) ("inv", a, T) ("hom", f, args, T) ("nat", f, args, N) ("round", f, a, Z)
# ("big", op, i, dom, body, T); typed propositions keep the syntax shapes with typed terms inside.


def _leaves(t, out: list) -> None:
    if t[0] == "bin":
        _leaves(t[2], out)
        _leaves(t[3], out)
    elif t[0] in ("neg", "pow"):
        _leaves(t[1], out)  # a power's base is in the tree, its exponent is elaborated apart
    else:
        out.append(t)


def _numerals_only(t) -> bool:
    """No leaf with a type of its own: Lean leaves the type a metavariable until something fixes it."""
    kind = t[0]
    if kind == "num":
        return True
    if kind in ("bin",):
        return _numerals_only(t[2]) and _numerals_only(t[3])
    if kind in ("neg", "pow", "inv"):
        return _numerals_only(t[1])
    if kind == "hom":
        return all(_numerals_only(a) for a in t[2])
    if kind == "big":
        return _numerals_only(t[4])
    return False  # variables, ascriptions, `↑x`, applications of fixed type


class Elab:
    def __init__(self, scope: dict[str, int]):
        self.scope = scope

    def under(self, name: str, ty: int) -> Elab:
        return Elab({**self.scope, name: ty})

    def var(self, name: str) -> int:
        if name not in self.scope:
            raise Ill(f"{name} is not in scope")
        return self.scope[name]

    def leaf(self, t):
        """A leaf elaborated without an expected type (Lean's `processLeaf`: `elabTerm s none`): its typed term,
        or None while only numerals fix its type (the tree's type reaches it then)."""
        kind = t[0]
        if kind == "var":
            if self.var(t[1]) >= FUN:
                raise Ill("a function used as a number")
            return ("var", t[1], self.var(t[1]))
        if kind == "app":
            # `f a` with f : T → T: the argument is elaborated against T (a larger type is an error)
            fty = self.var(t[1])
            if fty < FUN:
                raise Ill("a number applied")
            dom = fty - FUN
            return ("app", t[1], self.coerce(self.tree([t[2]], dom)[0], dom), dom)
        if kind == "coe":
            return ("coe", self.tree([t[1]], None)[0])
        if kind == "card":
            _, i, dom, body, _ = t
            typed_dom, ity = self.finite_set(dom)
            return ("card", i, typed_dom, self.under(i, ity).prop(body), N)
        if kind == "asc":
            return self.coerce(self.tree([t[1]], t[2])[0], t[2])
        if kind == "nat":
            arg = Z if t[1].startswith("Int.") else N
            return ("nat", t[1], [self.coerce(self.tree([a], arg)[0], arg) for a in t[2]], N)
        if kind == "int":
            return ("int", t[1], [self.coerce(self.tree([a], Z)[0], Z) for a in t[2]], Z)
        if kind == "sqrt":  # `Real.sqrt : ℝ → ℝ`
            return ("sqrt", self.coerce(self.tree([t[1]], R)[0], R), R)
        if kind == "round":
            if _numerals_only(t[2]):
                raise Ill("⌊numeral⌋ defaults to ℕ, which is no FloorRing")
            a = self.tree([t[2]], None)[0]
            if t[1].startswith("Nat."):  # Nat.floor/Nat.ceil: ℕ of an ordered semifield's element
                if a[-1] not in (Q, R):
                    raise Ill("⌊·⌋₊ of a non-field here")
                return ("round", t[1], a, N)
            if a[-1] == N:
                raise Ill("⌊·⌋ at ℕ")
            return ("round", t[1], a, Z)
        if _numerals_only(t):
            return None
        if kind in ("hom", "inv"):
            return self.homogeneous(t, None)
        if kind == "big":
            return self.big(t, None)
        raise AssertionError(t)

    def homogeneous(self, t, ty: int | None):
        """`abs a`, `min a b`, `max a b`, `a⁻¹`: an ordinary application at one type α, the first argument that has a
        type of its own fixing α and the others elaborated at α (Lean's `elabAppArgs`, left to right)."""
        args = list(t[2]) if t[0] == "hom" else [t[1]]
        if ty is None:
            first = next(a for a in args if not _numerals_only(a))
            ty = self.tree([first], None)[0][-1]
        typed = [self.tree([a], ty)[0] for a in args]
        if any(a[-1] != ty for a in typed):
            raise Ill("an argument of a larger type")
        if (t[0] == "inv" and ty in (N, Z)) or (t[0] == "hom" and t[1] == "abs" and ty == N):
            raise Ill("no instance at this type")
        return ("inv", typed[0], ty) if t[0] == "inv" else ("hom", t[1], typed, ty)

    def big(self, t, ty: int | None):
        _, op, i, dom, body, _ = t
        (_, a, b), ity = self.finite_set(as_finset(dom))
        typed_dom = ("range", a) if dom[0] == "range" else (dom[0], a, b)
        inner = self.under(i, ity).tree([body], ty)[0]
        if ty is not None and inner[-1] != ty:
            raise Ill("a body of a larger type")
        return ("big", op, i, typed_dom, inner, inner[-1])

    def same_type(self, args: list):
        """Arguments of `f : α → α → …` (Dvd.dvd, Finset.Icc): the first with a type of its own fixes α."""
        first = next((a for a in args if not _numerals_only(a)), None)
        ty = N if first is None else self.tree([first], None)[0][-1]
        typed = [self.tree([a], ty)[0] for a in args]
        if any(a[-1] != ty for a in typed):
            raise Ill("arguments of two types")
        return typed

    def coerce(self, e, ty: int):
        if e[-1] == ty:
            return e
        if e[-1] > ty:
            raise Ill(f"no coercion from {TYNAME[e[-1]]} to {TYNAME[ty]}")
        return ("cast", e, ty)

    def tree(self, roots: list, expected: int | None) -> list:
        """Elaborate the roots as one binop% tree (binrel% passes both sides); expected seeds the max type."""
        if len(roots) == 1 and expected is not None and roots[0][0] in ("big", "hom", "inv", "coe"):
            # a lone application is no binop% tree: it is elaborated against the expected type, which fixes its
            # type before its arguments (`elabAppArgs` propagates it): `(∑ i ∈ s, (i - 1) : ℤ)` sums `↑i - 1`
            t = roots[0]
            if t[0] == "big":
                return [self.coerce(self.big(t, expected), expected)]
            if t[0] == "coe":
                return [self.coerce(self.tree([t[1]], None)[0], expected)]
            return [self.coerce(self.homogeneous(t, expected), expected)]
        leaves: list = []
        for r in roots:
            _leaves(r, leaves)
        typed = {id(leaf): (None if leaf[0] == "num" else self.leaf(leaf)) for leaf in leaves}
        # `↑x` leaves take the tree's type and do not choose it (Lean.Elab.Extra: a coercion leaf is elaborated
        # once the max type is known, `↑x` to that type)
        known = [e[-1] for e in typed.values() if e is not None and e[0] != "coe"]
        if expected is not None:
            known.append(expected)
        if not known and any(e is not None and e[0] == "coe" for e in typed.values()):
            raise Ill("↑x with no type to coerce to")
        ty = max(known) if known else N
        return [self.build(r, typed, ty) for r in roots]

    def build(self, t, typed: dict, ty: int):
        if t[0] == "bin":
            if t[1] == "%" and ty in (Q, R):
                raise Ill("% at a field")
            return ("bin", t[1], self.build(t[2], typed, ty), self.build(t[3], typed, ty), ty)
        if t[0] == "neg":
            if ty == N:
                raise Ill("-x at ℕ")
            return ("neg", self.build(t[1], typed, ty), ty)
        if t[0] == "pow":
            base = self.build(t[1], typed, ty)
            e = t[2]
            if e[0] == "num":
                exp = ("num", e[1], N)
            elif e[0] == "var" and self.var(e[1]) == N:
                exp = ("var", e[1], N)
            else:
                raise Ill("a power at a non-natural exponent")
            return ("pow", base, exp, ty)
        leaf = typed[id(t)]
        if leaf is None:  # numerals only: the tree's type reaches them
            if t[0] == "num":
                return ("num", t[1], ty)
            if t[0] in ("hom", "inv"):
                return self.homogeneous(t, ty)
            if t[0] == "big":
                return self.big(t, ty)
            raise AssertionError(t)
        if leaf[0] == "coe":
            return self.coerce(leaf[1], ty)
        return self.coerce(leaf, ty)

    def finite_set(self, dom):
        """(typed (family, a, b), the element type) of `Finset.range n`, `Finset.Icc a b`, ... (ℕ or ℤ)."""
        fam, a, b = dom
        if fam == "Finset.range":
            return (fam, self.coerce(self.tree([a], N)[0], N), None), N
        ta, tb = self.same_type([a, b])
        if ta[-1] not in (N, Z):
            raise Ill("a Finset interval over a field is not finite")
        return (fam, ta, tb), ta[-1]

    def prop(self, p):
        kind = p[0]
        if kind == "rel":
            a, b = self.tree([p[2], p[3]], None)
            return ("rel", p[1], a, b)
        if kind == "dvd":
            # `Dvd.dvd : α → α → Prop`, an ordinary application (numerals only on the left wait for the right)
            a, b = self.same_type([p[1], p[2]])
            return ("dvd", a, b)
        if kind == "pred":
            if p[1] == "Nat.Prime":
                return ("pred", p[1], self.coerce(self.tree([p[2]], N)[0], N))
            return ("pred", p[1], self.tree([p[2]], None)[0])
        if kind == "coprime":  # `Nat.Coprime (m n : ℕ) : Prop`
            return ("coprime", *(self.coerce(self.tree([x], N)[0], N) for x in p[1:3]))
        if kind == "modeq":  # `Nat.ModEq (n a b : ℕ)`, `Int.ModEq (n a b : ℤ)`: each argument against its type
            ty = N if p[1] == "MOD" else Z
            return ("modeq", p[1], *(self.coerce(self.tree([x], ty)[0], ty) for x in p[2:5]), p[5])
        if kind == "not":
            return ("not", self.prop(p[1]))
        if kind in ("all", "ex"):
            if p[4] == "pred" and (_numerals_only(p[2]) or self.tree([p[2]], None)[0][-1] != N):
                # `∀ i < n, P`: i has n's type; only a natural n bounds it here (else i ranges over ℤ or ℝ)
                raise Ill("a binder predicate not bounded by a natural number")
            inner = self.under(p[1], N)
            bound = inner.tree([("var", p[1]), p[2]], None)
            return (kind, p[1], bound, inner.prop(p[3]), p[4])
        if kind == "mem":
            # `x ∈ Set.Icc a b` with one type for x and the bounds (mixed types are not generated as Lean text here)
            fam, a, b = p[2]
            if fam.startswith("Finset"):
                typed_set, _ = self.finite_set(p[2])
                if fam == "Finset.range":
                    return ("mem", self.coerce(self.tree([p[1]], N)[0], N), typed_set)
            x = self.tree([p[1]], None)[0]
            if _numerals_only(p[1]):
                raise Ill("a numeral's membership: its type is the set's")
            ta, tb = self.tree([a], x[-1])[0], self.tree([b], x[-1])[0]
            if ta[-1] != x[-1] or tb[-1] != x[-1] or (fam.startswith("Finset") and x[-1] not in (N, Z)):
                raise Ill("membership across types")
            return ("mem", x, (fam, ta, tb))
        return (kind, self.prop(p[1]), self.prop(p[2]))


def elaborate(binders: dict[str, int], hyps: list, concl):
    el = Elab(dict(binders))
    return [el.prop(h) for h in hyps], el.prop(concl)


# ------------------------------------------------------------------------------------------ evaluation

LIMIT = 10**12


def value(t, env: dict):
    v = _value(t, env)
    if abs(v) > LIMIT:
        raise Skip
    return v


def _value(t, env: dict):
    kind = t[0]
    if kind == "var":
        return env[t[1]]
    if kind == "num":
        return t[1] if t[2] in (N, Z) else Fraction(t[1])
    if kind == "asc":
        return value(t[1], env)
    if kind == "cast":
        v = value(t[1], env)
        return Fraction(v) if t[2] in (Q, R) else v
    if kind == "neg":
        return -value(t[1], env)
    if kind == "inv":
        v = value(t[1], env)
        return Fraction(0) if v == 0 else 1 / Fraction(v)
    if kind == "pow":
        e = value(t[2], env)
        if e > 40:
            raise Skip
        return value(t[1], env) ** e
    if kind == "hom":
        vals = [value(a, env) for a in t[2]]
        return {"abs": lambda: abs(vals[0]), "min": lambda: min(vals), "max": lambda: max(vals)}[t[1]]()
    if kind == "nat":
        return _nat_fun(t[1], [value(a, env) for a in t[2]])
    if kind == "int":
        return _int_fun(t[1], *(value(a, env) for a in t[2]))
    if kind == "sqrt":
        # Real.sqrt: 0 below 0 (Mathlib `Real.sqrt_eq_zero'`); exact where the root is rational, else the point is out
        v = Fraction(value(t[1], env))
        if v <= 0:
            return Fraction(0)
        rn, rd = math.isqrt(v.numerator), math.isqrt(v.denominator)
        if rn * rn != v.numerator or rd * rd != v.denominator:
            raise Skip
        return Fraction(rn, rd)
    if kind == "round":
        v = Fraction(value(t[2], env))
        r = math.floor(v) if t[1].endswith("floor") else math.ceil(v)
        return max(r, 0) if t[1].startswith("Nat.") else r  # Nat.floor x = 0 for x < 0
    if kind == "app":
        return env[t[1]](value(t[2], env))
    if kind == "card":
        _, i, dom, body, _ = t
        idx = _elements(dom, env)
        return sum(1 for k in idx if holds(body, {**env, i: k}))
    if kind == "big":
        _, op, i, dom, body, ty = t
        acc = 0 if op == "∑" else 1
        for k in _elements(as_finset(dom), env):
            v = value(body, {**env, i: k})
            acc = acc + v if op == "∑" else acc * v
            if abs(acc) > LIMIT:
                raise Skip
        return Fraction(acc) if ty in (Q, R) else acc
    op, a, b, ty = t[1], value(t[2], env), value(t[3], env), t[4]
    if op == "+":
        return a + b
    if op == "*":
        return a * b
    if op == "-":
        return max(a - b, 0) if ty == N else a - b
    if ty in (Q, R):  # "/" (the elaborator refuses % here)
        return Fraction(0) if b == 0 else Fraction(a) / b
    if op in ("div", "mod"):  # Isabelle's: floor division, the remainder has the divisor's sign (Divides.thy)
        if b == 0:
            return 0 if op == "div" else a
        return a // b if op == "div" else a % b
    if b == 0:
        return 0 if op == "/" else a
    r = a % abs(b)  # Int.emod / Nat.mod: 0 ≤ r < |b|
    return (a - r) // b if op == "/" else r


def as_finset(dom):
    """A big operator's domain, `("range", n)` or `("Icc", a, b)` (`Ico`, ...), as the set `(family, a, b)` it ranges
    over."""
    return ("Finset.range", dom[1], None) if dom[0] == "range" else ("Finset." + dom[0], dom[1], dom[2])


def _elements(dom, env: dict) -> range:
    """The elements of a finite interval (ℕ or ℤ) at env."""
    fam, a, b = dom
    lo = 0 if fam == "Finset.range" else value(a, env)
    hi = value(a, env) - 1 if fam == "Finset.range" else value(b, env)
    lo += fam in ("Finset.Ioo", "Finset.Ioc")
    hi -= fam in ("Finset.Ioo", "Finset.Ico")
    idx = range(lo, hi + 1)
    if len(idx) > 60:
        raise Skip
    return idx


def _nat_fun(f: str, v: list[int]) -> int:
    if f == "Nat.factorial":
        if v[0] > 20:
            raise Skip
        return math.factorial(v[0])
    if f == "Nat.choose":
        return math.comb(v[0], v[1])  # 0 when k > n, as Nat.choose
    if f == "Nat.gcd":
        return math.gcd(v[0], v[1])
    if f == "Nat.lcm":
        return math.lcm(v[0], v[1])
    if f == "Int.natAbs":
        return abs(v[0])
    if f == "Nat.sqrt":
        return math.isqrt(v[0])
    if f == "Nat.succ":
        return v[0] + 1
    if f == "Nat.pred":
        return max(v[0] - 1, 0)
    if f == "Int.gcd":
        return math.gcd(v[0], v[1])  # of the absolute values, never negative
    if f == "Int.lcm":
        return abs(math.lcm(v[0], v[1]))
    if f in ("Nat.divisors.card", "Nat.digits.sum"):
        if v[0] > 10**6:
            raise Skip
        n = v[0]
        if f == "Nat.digits.sum":
            return sum(int(d) for d in str(n)) if n else 0  # Nat.digits 10 0 = []
        root = math.isqrt(n)  # Nat.divisors 0 = ∅
        return 2 * sum(1 for d in range(1, root + 1) if n % d == 0) - (root * root == n) if n else 0
    return max(v[0], 0)  # Int.toNat


def _int_fun(f: str, a: int, b: int) -> int:
    """Lean core's `Int.ediv` ... `Int.tmod` (INT_FUNS) at a, b."""
    if b == 0:
        return a if f.endswith("mod") else 0
    if f in ("Int.ediv", "Int.emod"):
        r = a % abs(b)  # 0 ≤ r < |b|
        return r if f == "Int.emod" else (a - r) // b
    if f in ("Int.fdiv", "Int.fmod"):
        return a // b if f == "Int.fdiv" else a % b  # Python's // and % are F-rounding
    q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)  # toward zero
    return q if f == "Int.tdiv" else a - b * q


def _is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, math.isqrt(n) + 1))


def holds(p, env: dict) -> bool:
    kind = p[0]
    if kind == "rel":
        a, b = value(p[2], env), value(p[3], env)
        return {"=": a == b, "≠": a != b, "<": a < b, "≤": a <= b, ">": a > b, "≥": a >= b}[p[1]]
    if kind == "dvd":
        a, b = value(p[1], env), value(p[2], env)
        if p[1][-1] in (Q, R):
            return a != 0 or b == 0
        return b == 0 if a == 0 else b % a == 0
    if kind == "pred":
        v = value(p[2], env)
        if p[1] == "Nat.Prime":
            return _is_prime(v)
        if p[1] == "Prime":  # `Prime p` (Mathlib): of an integer, |p| is a prime; no element of a field is one
            return p[2][-1] in (N, Z) and _is_prime(abs(v))
        if p[2][-1] in (Q, R):  # Even x ↔ ∃ r, x = r + r; Odd x ↔ ∃ m, x = 2 * m + 1: every element of a field
            return True
        return (v % 2 == 0) == (p[1] == "Even")
    if kind == "not":
        return not holds(p[1], env)
    if kind == "mem":
        _, x, (fam, a, b) = p
        v = value(x, env)
        if fam == "Finset.range":
            return 0 <= v < value(a, env)
        lo, hi = value(a, env), value(b, env)
        kind_ = fam.split(".")[1]
        return (lo < v if kind_[1] == "o" else lo <= v) and (v < hi if kind_[2] == "o" else v <= hi)
    if kind == "coprime":
        return math.gcd(value(p[1], env), value(p[2], env)) == 1
    if kind == "modeq":  # `a % n = b % n` (Nat.ModEq, Int.ModEq; `%` is Int.emod)
        n, a, b = (value(x, env) for x in p[2:5])
        return a == b if n == 0 else a % abs(n) == b % abs(n)
    if kind in ("all", "ex"):
        _, i, (_, bound), body, _ = p
        b = value(bound, env)
        top = math.ceil(b) if b > 0 else 0  # i < b for i = 0 .. top - 1
        if top > 60:
            raise Skip
        outcomes = (holds(body, {**env, i: k}) for k in range(top))
        return all(outcomes) if kind == "all" else any(outcomes)
    x, y = holds(p[1], env), holds(p[2], env)
    return {"and": x and y, "or": x or y, "imp": (not x) or y, "iff": x == y}[kind]


def points(grids: list[list]) -> list[tuple]:
    """The grid's product, or MAX_POINTS of it (the same for the same grids) when it is larger."""
    size = 1
    for g in grids:
        size *= len(g)
    if size <= MAX_POINTS:
        return list(itertools.product(*grids))
    rng = random.Random(size)
    small = [g[:: max(1, len(g) // 4)] for g in grids]
    out = list(itertools.product(*small))
    out += [tuple(rng.choice(g) for g in grids) for _ in range(MAX_POINTS - len(out))]
    return out


def _truth(typed, env) -> bool | None:
    hyps, concl = typed
    try:
        return not all(holds(h, env) for h in hyps) or holds(concl, env)
    except (Skip, OverflowError, ZeroDivisionError, ValueError):
        return None


def false_somewhere(binders: dict[str, int], typed) -> bool:
    names = list(binders)
    return any(
        _truth(typed, dict(zip(names, vals, strict=True))) is False
        for vals in points([GRID[binders[n]] for n in names])
    )


class Verdict(NamedTuple):
    """The oracle on a pair: they agree at every grid point under some alignment; A, B false at some point."""

    agree: bool
    false_a: bool
    false_b: bool

    @property
    def suspect(self) -> bool:
        """A merge of the two would be suspect: they disagree under every alignment, and not both are false somewhere
        (two false statements are one proposition)."""
        return not self.agree and not (self.false_a and self.false_b)


def oracle(sa, sb) -> Verdict:
    """The oracle's verdict on two (binders, typed statement) pairs."""
    (ba, ta), (bb, tb) = sa, sb
    false_a, false_b = false_somewhere(ba, ta), false_somewhere(bb, tb)
    names_a = list(ba)
    for perm in _alignments(ba, bb):
        rest = [n for n in bb if perm.get(n) is None]
        grids = [GRID[ba[n]] for n in names_a] + [GRID[bb[n]] for n in rest]
        agree = True
        for vals in points(grids):
            env_a = dict(zip(names_a, vals, strict=False))
            free = dict(zip(rest, vals[len(names_a) :], strict=True))
            env_b = {n: (env_a[perm[n]] if perm.get(n) else free[n]) for n in bb}
            x, y = _truth(ta, env_a), _truth(tb, env_b)
            if x is not None and y is not None and x != y:
                agree = False
                break
        if agree:
            return Verdict(True, false_a, false_b)
    return Verdict(False, false_a, false_b)


def is_suspect(sa, sb) -> bool:
    """A merge of these two would be suspect (`Verdict.suspect`)."""
    return oracle(sa, sb).suspect


def _alignments(ba: dict[str, int], bb: dict[str, int]):
    """B's binder -> A's binder (None: unmatched), types equal; every bijection between binders of one type."""
    by_type: dict[int, tuple[list[str], list[str]]] = {}
    for n, ty in ba.items():
        by_type.setdefault(ty, ([], []))[0].append(n)
    for n, ty in bb.items():
        by_type.setdefault(ty, ([], []))[1].append(n)
    options = []
    for names_a, names_b in by_type.values():
        maps = []
        k = min(len(names_a), len(names_b))
        for chosen in itertools.permutations(names_a, k):
            for picked in itertools.combinations(names_b, k):
                m = dict(zip(picked, chosen, strict=True))
                maps.append({n: m.get(n) for n in names_b})
        options.append(maps or [{}])
    for combo in itertools.product(*options):
        merged: dict = {}
        for m in combo:
            merged.update(m)
        yield merged


# ------------------------------------------------------------------------------------------ generation

BOUND = ("i", "j", "k")


class Gen:
    def __init__(self, rng: random.Random):
        self.rng = rng

    funs: list[str] = []

    def binders(self) -> dict[str, int]:
        k = self.rng.choice((1, 2, 2, 3))
        tys = [self.rng.choice((N, N, Z, Z, Q, R, R))] * k
        if self.rng.random() < 0.5:
            tys = [self.rng.choice((N, Z, Q, R)) for _ in range(k)]
        out = dict(zip(("x", "y", "z")[:k], tys, strict=True))
        if self.rng.random() < 0.3:  # uninterpreted functions `(f g : T → T)`
            fty = FUN + self.rng.choice((N, Z, R))
            out.update(dict.fromkeys(("f", "g")[: self.rng.choice((1, 1, 2))], fty))
        return out

    def small(self, names: list[str]):
        """A bound: a variable, a numeral or a variable plus a numeral."""
        r = self.rng.random()
        if r < 0.4:
            return ("num", self.rng.choice((0, 1, 2, 3, 4, 5, 6)))
        v = ("var", self.rng.choice(names))
        return v if r < 0.75 else ("bin", self.rng.choice(("+", "-")), v, ("num", self.rng.choice((1, 2))))

    def term(self, names: list[str], depth: int):
        rng = self.rng
        if self.funs and rng.random() < 0.12:
            return ("app", rng.choice(self.funs), self.term(names, depth - 1))
        if depth <= 0 or rng.random() < 0.3:
            if rng.random() < 0.6:
                return ("var", rng.choice(names))
            return ("num", rng.choice((0, 1, 2, 2, 3, 4, 5, 7, 10)))
        sub = lambda: self.term(names, depth - 1)  # noqa: E731
        r = rng.random()
        if r < 0.45:
            return ("bin", rng.choice(("+", "-", "-", "*", "/", "/", "%")), sub(), sub())
        if r < 0.52:
            return ("asc", sub(), rng.choice((N, Z, Q, R)))
        if r < 0.58:
            return ("neg", sub())
        if r < 0.66:
            e = ("num", rng.choice((0, 1, 2, 2, 3))) if rng.random() < 0.8 else ("var", rng.choice(names))
            return ("pow", sub(), e)
        if r < 0.73:
            f = rng.choice(("abs", "min", "max"))
            return ("hom", f, [sub()] if f == "abs" else [sub(), sub()])
        if r < 0.78:
            f = rng.choice(list(NAT_FUNS))
            return ("nat", f, [sub() for _ in range(NAT_FUNS[f])])
        if r < 0.8:
            return ("int", rng.choice(INT_FUNS), [sub(), sub()])
        if r < 0.85:
            return ("round", rng.choice(("Int.floor", "Int.ceil", "Nat.floor", "Nat.ceil")), sub())
        if r < 0.865:
            return ("inv", sub())
        if r < 0.88:
            return ("sqrt", sub(), rng.choice(("√", "Real.sqrt")))
        if r < 0.91:
            return ("coe", ("var", rng.choice(names)))
        if r < 0.94:
            i = rng.choice([b for b in BOUND if b not in names] or ["w"])
            dom = self.interval(names)
            if not dom[0].startswith("Finset"):
                dom = ("Finset" + dom[0][3:], *dom[1:])
            return ("card", i, dom, self.atom([*names, i, i]), rng.choice(("dot", "app")))
        i = rng.choice([b for b in BOUND if b not in names] or ["w"])
        fam = rng.choice(("range", "range", "range", "Icc", "Icc", "Ico", "Ioc", "Ioo"))
        dom = ("range", self.small(names)) if fam == "range" else (fam, self.small(names), self.small(names))
        body = self.term([*names, i, i], depth - 1)
        return ("big", rng.choice(("∑", "∑", "∏")), i, dom, body, rng.choice(("∈", "∈", "in", "app")))

    def atom(self, names: list[str]):
        r = self.rng.random()
        if r < 0.1:
            return ("dvd", self.term(names, 1), self.term(names, 2))
        if r < 0.17:
            return ("pred", self.rng.choice(PREDS), self.term(names, 1))
        if r < 0.24:
            i = self.rng.choice([b for b in BOUND if b not in names] or ["w"])
            body = self.atom([*names, i, i])
            style = self.rng.choice(("typed", "pred"))
            return (self.rng.choice(("all", "ex")), i, self.small(names), body, style)
        if r < 0.3:
            return ("mem", self.term(names, 1), self.interval(names))
        if r < 0.35:
            mod, style = self.rng.choice(("MOD", "ZMOD")), self.rng.choice(("notation", "app"))
            return ("modeq", mod, self.small(names), self.term(names, 1), self.term(names, 1), style)
        if r < 0.38:
            return ("coprime", self.term(names, 1), self.term(names, 1))
        return ("rel", self.rng.choice(RELS), self.term(names, 2), self.term(names, 2))

    def interval(self, names: list[str]):
        fam = self.rng.choice(("Set", "Finset")) + "." + self.rng.choice(("Icc", "Ico", "Ioc", "Ioo"))
        if self.rng.random() < 0.15:
            return ("Finset.range", self.small(names), None)
        return (fam, self.small(names), self.small(names))

    def prop(self, names: list[str], depth: int):
        if depth <= 0 or self.rng.random() < 0.6:
            return self.atom(names)
        kind = self.rng.choice(("and", "and", "or", "imp", "not", "iff"))
        if kind == "not":
            return ("not", self.prop(names, depth - 1))
        return (kind, self.prop(names, depth - 1), self.prop(names, depth - 1))

    def statement(self):
        binders = self.binders()
        names = [n for n, t in binders.items() if t < FUN]
        self.funs = [n for n, t in binders.items() if t >= FUN]
        hyps = [self.prop(names, 1) for _ in range(self.rng.choice((0, 1, 1, 2)))]
        return binders, hyps, self.prop(names, 1)

    # -------------------------------------------------------------------------------------- edits

    def edit(self, st):
        binders, hyps, concl = dict(st[0]), list(st[1]), st[2]
        self.funs = [n for n, t in binders.items() if t >= FUN]
        r = self.rng.random()
        if r < 0.1:
            name = self.rng.choice([n for n, t in binders.items() if t < FUN])
            binders[name] = self.rng.choice([t for t in (N, Z, Q, R) if t != binders[name]])
            return binders, hyps, concl
        moved = move_hypotheses(self.rng, r, hyps, concl, 0.17, 0.22)
        if moved is not None:
            return binders, *moved
        props = [*hyps, concl]
        i = self.rng.randrange(len(props))
        props[i] = self.edit_prop(props[i], [n for n, t in binders.items() if t < FUN])
        return binders, props[:-1], props[-1]

    def edit_prop(self, p, names: list[str]):
        sites = list(_prop_sites(p))
        path, node = self.rng.choice(sites)
        return replace(p, path, self.edit_node(node, names))

    def edit_node(self, node, names: list[str]):
        kind = node[0]
        rng = self.rng
        if kind == "rel":
            r = rng.random()
            if r < 0.4:
                return ("rel", CONVERSE[node[1]], node[3], node[2])
            if r < 0.7:
                return ("rel", rng.choice(RELS), node[2], node[3])
            return ("not", ("rel", node[1], node[2], node[3]))
        if kind in ("and", "or", "iff"):
            return (kind, node[2], node[1]) if rng.random() < 0.6 else (rng.choice(("and", "or", "imp")), *node[1:])
        if kind in ("not", "imp", "dvd"):
            return node[1] if kind == "not" else (kind, node[2], node[1])
        if kind == "pred":
            return ("pred", rng.choice([f for f in PREDS if f != node[1]]), node[2])
        if kind == "coprime":
            r = rng.random()
            if r < 0.4:
                return ("coprime", node[2], node[1])
            if r < 0.8:  # `Nat.Coprime m n` is by definition `Nat.gcd m n = 1`
                return ("rel", "=", ("nat", "Nat.gcd", [node[1], node[2]]), ("num", 1))
            return ("not", node)
        if kind == "modeq":
            _, mod, n, a, b, style = node
            r = rng.random()
            if r < 0.25:
                return ("modeq", mod, n, a, b, "app" if style == "notation" else "notation")
            if r < 0.45:  # ModEq is symmetric
                return ("modeq", mod, n, b, a, style)
            if r < 0.6:
                return ("modeq", "ZMOD" if mod == "MOD" else "MOD", n, a, b, style)
            if r < 0.8:  # its definition, `a % n = b % n`, each side typed as ModEq types it
                ty = N if mod == "MOD" else Z
                return ("rel", "=", ("asc", ("bin", "%", a, n), ty), ("asc", ("bin", "%", b, n), ty))
            return ("modeq", mod, ("bin", "+", n, ("num", 1)), a, b, style)
        if kind == "int":
            r = rng.random()
            if r < 0.5:
                return ("int", rng.choice([f for f in INT_FUNS if f != node[1]]), node[2])
            if r < 0.75 and node[1] in ("Int.ediv", "Int.emod"):  # `/` and `%` at ℤ are Int.ediv and Int.emod
                return ("asc", ("bin", "/" if node[1] == "Int.ediv" else "%", *node[2]), Z)
            return ("asc", node, rng.choice((Q, R)))
        if kind in ("all", "ex"):
            r = rng.random()
            if r < 0.25:  # rename the bound variable
                j = next(b for b in (*BOUND, "w") if b != node[1] and b not in names)
                return (kind, j, node[2], rename(node[3], node[1], j), node[4])
            if r < 0.45:
                return (kind, *node[1:4], "pred" if node[4] == "typed" else "typed")
            if r < 0.7:
                return ("ex" if kind == "all" else "all", *node[1:])
            return (kind, node[1], ("bin", "+", node[2], ("num", 1)), *node[3:])
        if kind == "mem":
            fam, a, b = node[2]
            r = rng.random()
            if r < 0.3 and fam != "Finset.range":
                other = ("Finset." if fam.startswith("Set") else "Set.") + fam.split(".")[1]
                return ("mem", node[1], (other, a, b))
            if r < 0.6 and fam != "Finset.range":
                fam2 = fam.split(".")[0] + "." + rng.choice(("Icc", "Ico", "Ioc", "Ioo"))
                return ("mem", node[1], (fam2, a, b))
            if r < 0.8 and fam != "Finset.range":  # a ≤ x ∧ x ≤ b
                lo = ("rel", "<" if fam[-2] == "o" else "≤", a, node[1])
                hi = ("rel", "<" if fam[-1] == "o" else "≤", node[1], b)
                return ("and", lo, hi)
            return ("not", ("not", node))
        if kind == "coe":
            return node[1] if rng.random() < 0.5 else ("asc", node[1], rng.choice((Z, Q, R)))
        if kind == "app":
            others = [f for f in self.funs if f != node[1]]
            if others and rng.random() < 0.5:
                return ("app", rng.choice(others), node[2])
            return ("asc", node, rng.choice((Z, Q, R)))
        if kind == "card":
            _, i, dom, body, style = node
            r = rng.random()
            if r < 0.3:
                return ("card", i, dom, body, "app" if style == "dot" else "dot")
            if r < 0.5:
                j = next(b for b in (*BOUND, "w") if b != i and b not in names)
                return ("card", j, dom, rename(body, i, j), style)
            if r < 0.75:
                return ("card", i, dom, ("not", body), style)
            return ("card", i, dom, self.atom([*names, i]), style)
        if kind == "num":
            return ("num", max(0, node[1] + rng.choice((-1, 1, 2))))
        if kind == "var":
            if rng.random() < 0.5:
                return ("asc", node, rng.choice((N, Z, Q, R)))
            return ("var", rng.choice(names))
        if kind == "asc":
            r = rng.random()
            if r < 0.4:
                return node[1]
            if r < 0.7:
                return ("asc", node[1], rng.choice([t for t in (N, Z, Q, R) if t != node[2]]))
            return ("asc", ("asc", node[1], rng.choice((N, Z))), node[2])
        if kind == "bin":
            r = rng.random()
            if r < 0.3 and node[1] in ("+", "*"):
                return ("bin", node[1], node[3], node[2])
            if r < 0.6:
                return ("bin", rng.choice(ARITH), node[2], node[3])
            if r < 0.8:
                return ("asc", node, rng.choice((N, Z, Q, R)))
            if node[1] == "-":
                return ("bin", "+", node[2], ("neg", node[3]))
            return node
        if kind == "neg":
            return node[1] if rng.random() < 0.5 else ("bin", "*", ("neg", ("num", 1)), node[1])
        if kind == "pow":
            e = node[2]
            if e[0] == "num" and rng.random() < 0.5:
                return ("pow", node[1], ("num", max(0, e[1] + rng.choice((-1, 1)))))
            if e[0] == "num" and e[1] == 2:
                return ("bin", "*", node[1], node[1])
            return ("asc", node, rng.choice((Z, R)))
        if kind == "hom":
            if node[1] == "abs":
                return node[2][0] if rng.random() < 0.5 else ("hom", "abs", [("neg", node[2][0])])
            if rng.random() < 0.5:
                return ("hom", node[1], node[2][::-1])
            return ("hom", "max" if node[1] == "min" else "min", node[2])
        if kind == "nat":
            if len(node[2]) == 2 and rng.random() < 0.5:
                return ("nat", node[1], node[2][::-1])
            return ("asc", node, rng.choice((Z, Q, R)))
        if kind == "round":
            fam, f = node[1].split(".")
            if rng.random() < 0.5:
                return ("round", f"{fam}.{'ceil' if f == 'floor' else 'floor'}", node[2])
            return ("round", f"{'Nat' if fam == 'Int' else 'Int'}.{f}", node[2])
        if kind == "sqrt":
            if rng.random() < 0.5:
                return ("sqrt", node[1], "Real.sqrt" if node[2] == "√" else "√")
            return ("pow", node, ("num", 2))
        if kind == "inv":
            return ("bin", "/", ("num", 1), node[1])
        if kind == "big":
            _, op, i, dom, body, notation = node
            r = rng.random()
            if r < 0.1:
                return ("asc", node, rng.choice((Z, Q, R)))
            if r < 0.25:
                return ("big", op, i, dom, body, "in" if notation == "∈" else "∈")
            if r < 0.45:
                j = next(b for b in (*BOUND, "w") if b != i and b not in names)
                return ("big", op, j, dom, rename(body, i, j), notation)
            if r < 0.65 and dom[0] == "range":
                return ("big", op, i, ("Icc", ("num", 0), ("bin", "-", dom[1], ("num", 1))), body, notation)
            if r < 0.8 and dom[0] == "range":
                return ("big", op, i, ("Icc", ("num", 1), dom[1]), body, notation)
            if r < 0.8 and dom[0] == "Icc":  # `Finset.Icc a b = Finset.Ico a (b + 1)` over ℕ and ℤ
                return ("big", op, i, ("Ico", dom[1], ("bin", "+", dom[2], ("num", 1))), body, notation)
            if r < 0.8:
                return ("big", op, i, (rng.choice(("Icc", "Ico", "Ioc", "Ioo")), *dom[1:]), body, notation)
            return ("big", "∏" if op == "∑" else "∑", i, dom, body, notation)
        return node


def move_hypotheses(rng: random.Random, r: float, hyps: list, concl, move: float, join: float):
    """Below `move`, a hypothesis moved into the conclusion (`h → concl`); below `join`, the last two joined by `∧`
    (meaning-preserving both); else None. Returns (hypotheses, conclusion)."""
    if r < move and hyps:
        h = hyps.pop(rng.randrange(len(hyps)))
        return hyps, ("imp", h, concl)
    if r < join and len(hyps) >= 2:
        a, b = hyps.pop(), hyps.pop()
        return [*hyps, ("and", b, a)], concl
    return None


def rename(t, old: str, new: str):
    """t with the variable `old` named `new` (a typed variable keeps its type)."""
    if isinstance(t, tuple):
        if t[:2] == ("var", old):
            return ("var", new, *t[2:])
        return tuple(rename(x, old, new) for x in t)
    if isinstance(t, list):
        return [rename(x, old, new) for x in t]
    return t


def _prop_sites(p, path=()):
    """(path, node) for every proposition and term node of p."""
    yield path, p
    kind = p[0]
    if kind in ("and", "or", "imp", "iff"):
        yield from _prop_sites(p[1], (*path, 1))
        yield from _prop_sites(p[2], (*path, 2))
    elif kind == "not":
        yield from _prop_sites(p[1], (*path, 1))
    elif kind in ("all", "ex"):
        yield from _term_sites(p[2], (*path, 2))
        yield from _prop_sites(p[3], (*path, 3))
    elif kind == "mem":
        yield from _term_sites(p[1], (*path, 1))
    elif kind == "rel":
        yield from _term_sites(p[2], (*path, 2))
        yield from _term_sites(p[3], (*path, 3))
    elif kind == "dvd":
        yield from _term_sites(p[1], (*path, 1))
        yield from _term_sites(p[2], (*path, 2))
    elif kind == "pred":
        yield from _term_sites(p[2], (*path, 2))
    elif kind == "coprime":
        yield from _term_sites(p[1], (*path, 1))
        yield from _term_sites(p[2], (*path, 2))
    elif kind == "modeq":
        for k in (2, 3, 4):
            yield from _term_sites(p[k], (*path, k))


def _term_sites(t, path):
    yield path, t
    kind = t[0]
    if kind == "bin":
        yield from _term_sites(t[2], (*path, 2))
        yield from _term_sites(t[3], (*path, 3))
    elif kind in ("neg", "asc", "pow", "inv", "sqrt"):
        yield from _term_sites(t[1], (*path, 1))
    elif kind == "round":
        yield from _term_sites(t[2], (*path, 2))
    elif kind == "big":
        yield from _term_sites(t[4], (*path, 4))
    elif kind == "card":
        yield from _prop_sites(t[3], (*path, 3))
    elif kind == "app":
        yield from _term_sites(t[2], (*path, 2))
    elif kind in ("hom", "nat", "int"):
        for k, a in enumerate(t[2]):
            yield from _term_sites(a, (*path, 2, k))


def replace(node, path, new):
    """node with the part at `path` (indices into nested tuples) replaced by `new`."""
    if not path:
        return new
    i = path[0]
    return (*node[:i], replace(node[i], path[1:], new), *node[i + 1 :])


def make_pairs(seed: int, count: int):
    """count pairs (text A, text B, oracle input A, oracle input B) of well-typed statements."""
    rng = random.Random(seed)
    gen = Gen(rng)
    pairs = []
    dropped = 0
    while len(pairs) < count:
        a = gen.statement()
        b = gen.edit(a)
        if rng.random() < 0.4:
            b = gen.edit(b)
        try:
            ta, tb = elaborate(*a), elaborate(*b)
        except Ill:
            dropped += 1
            continue
        text_a, text_b = statement(*a), statement(*b)
        if text_a == text_b:
            continue
        pairs.append((text_a, text_b, (a[0], ta), (b[0], tb)))
    return pairs, dropped


# ------------------------------------------------------------------------------------------ main


def add_fuzz_arguments(ap: argparse.ArgumentParser) -> None:
    """The fuzzers' options (this one's and eval/symeq_fuzz_isabelle.py's)."""
    ap.add_argument("--seed", type=int, default=1000, help="random seed (below 1000: development; default %(default)s)")
    ap.add_argument("--pairs", type=int, default=2000, help="pairs to compare (default %(default)s)")
    ap.add_argument("--workers", type=int, default=2, help="SymEq worker processes (default %(default)s)")
    ap.add_argument("--show", type=int, default=10, help="print up to N suspect merges, possible misses, unread")


def check_fuzz_arguments(ap: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.pairs < 1 or args.workers < 1 or args.show < 0:
        ap.error("--pairs and --workers take a positive number, --show one that is not negative")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_fuzz_arguments(ap)
    args = ap.parse_args(argv)
    check_fuzz_arguments(ap, args)
    t0 = time.time()
    pairs, dropped = make_pairs(args.seed, args.pairs)
    header = f"seed {args.seed}: {len(pairs)} pairs of well-typed Lean statements ({dropped} ill-typed drafts dropped)"
    return report(pairs, "lean", args, header, t0)


def report(pairs: list, language: str, args: argparse.Namespace, header: str, t0: float) -> int:
    """Compare every pair with SymEq (its worker pool) and with the oracle; print the counts and examples."""
    from atf.symeq.config import SymEqConfig
    from atf.symeq.pool import SymEqPool

    merged = suspects = misses = unread = agree_grid = undecided = 0
    slowest = (0.0, "")
    shown: dict[str, list[str]] = {"suspect merges": [], "possible misses": [], "unread": []}
    with SymEqPool(workers=args.workers) as pool:
        jobs = [([a, b], language) for a, b, _, _ in pairs]
        for idx, res in pool.map(jobs, SymEqConfig(workers=args.workers)):
            a, b, oa, ob = pairs[idx]
            if any(s is None for s in res.statements):
                unread += 1
                if len(shown["unread"]) < args.show:
                    shown["unread"].append(f"  {a}\n  {b}\n    {[e for e in res.errors if e]}")
                continue
            same = len(res.classes) == 1
            undecided += any(pr.status == "unknown" for pr in res.pairs) or res.budget_exhausted
            if res.seconds > slowest[0]:
                slowest = (res.seconds, f"{a}\n  {b}")
            verdict = oracle(oa, ob)
            agree_grid += verdict.agree
            merged += same
            if same and verdict.suspect:
                suspects += 1
                if len(shown["suspect merges"]) < args.show:
                    where = "A" if verdict.false_a else "B"
                    shown["suspect merges"].append(
                        f"  {a}\n  {b}\n    ({where} is false at a grid point, the other at none)"
                    )
            if verdict.agree and not same:
                misses += 1
                if len(shown["possible misses"]) < args.show:
                    shown["possible misses"].append(f"  {a}\n  {b}")
    print(f"{header}, {time.time() - t0:.0f} s")
    print(f"  unread by SymEq:                          {unread}")
    print(f"  merged by SymEq:                          {merged}")
    print(f"  undecided (Z3 unknown, or a step killed): {undecided}")
    print(f"  slowest pair:                             {slowest[0]:.2f} s")
    print(f"  agreeing at every grid point:             {agree_grid}")
    print(f"  suspect merges (read each):               {suspects}")
    print(f"  possible misses (apart, agree on grid):   {misses}")
    if slowest[1]:
        shown["slowest pair"] = [f"  {slowest[1]}"]
    for title, lines in shown.items():
        if lines:
            print(f"{title}:")
            print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
