"""Differential fuzzing of SymEq's Isabelle/HOL reading of arithmetic against an independent evaluator.

    nice python eval/symeq_fuzz_isabelle.py --seed 1000 --pairs 3000       # a report
    nice python eval/symeq_fuzz_isabelle.py --seed 0 --pairs 500 --show 20  # development (seeds below 1000)

The Isabelle sibling of eval/symeq_fuzz.py (same grid, oracle and report). Statements are written the way the
Isa-AutoFormal candidates are (`theorem fixes x :: nat and y :: real assumes h0: "…" shows "…"`, Isabelle's `\\<…>`
symbols) over nat, int, rat and real, typed as they are generated: every arithmetic tree has one type, numerals take
it, and a change of type is written out (`of_nat n`, `of_int k`, `nat k`, `floor x`, `ceiling x`), so that no
statement depends on Isabelle's coercion inference; a relation whose sides have no typed leaf gets an annotation `(…
:: int)`. Operators: + - * (all), `/` and `inverse` (rat, real), `div` and `mod` (nat, int), unary minus (not nat),
`^` with a natural exponent, `abs` (not nat), `min`, `max`, `fact`, `choose`, `gcd`, `lcm` (nat, int), `Suc`, sums and
products `(\\<Sum>i<n. …)`, `(\\<Sum>i=a..b. …)`, `(\\<Sum>i=a..<b. …)`, functions `fixes f g :: "T ⇒ T"` applied
(each one of four tables, as in the Lean fuzzer); relations, `dvd`, `even`, `odd`, `prime` (nat, int), congruences
`[a = b] (mod m)` and `[a ≠ b] (mod m)` (nat, int), bounded quantifiers `(\\<forall>i<n. …)`, `(\\<exists>i<n. …)`
and the connectives. Edits keep every type: a literal, an operator, a relation, operands swapped, a subterm replaced
by another of its type, `{..<n}` written `{0..n-1}`, `{a..b}` written `{a..<b + 1}`, a bound variable renamed, a
congruence unfolded (`[a = b] (mod m)` as `a mod m = b mod m`) or its sides swapped, a hypothesis moved into the
conclusion or two joined by `∧`.

Semantics (Isabelle/HOL, Complex_Main): nat subtraction truncates; `div` and `mod` on nat and int are floor division
and its remainder, which has the divisor's sign (Divides.thy / Euclidean_Division.thy: `-7 mod 2 = 1`,
`7 mod -2 = -1`), `x div 0 = 0`, `x mod 0 = x`; a field's `x / 0 = 0` and `inverse 0 = 0`; `gcd` and `lcm` of ints are
never negative; `n choose k = 0` for k > n; `nat k = 0` for k < 0; `a dvd b` in a field holds iff `a ≠ 0 ∨ b = 0`;
`prime` of an int asks `normalize p = p` (Factorial_Ring.thy), so no negative int is prime; `[a = b] (mod m)` is
`a mod m = b mod m` (Cong.thy `cong_def`), true iff m divides a - b (`a = b` where m = 0).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from eval.symeq_fuzz import CONVERSE, FUN, RELS, N, Q, R, Z, group_binders, move_hypotheses, paren, rename, replace

TYNAME = {N: "nat", Z: "int", Q: "rat", R: "real"}
for _t in (N, Z, R):
    TYNAME[FUN + _t] = f'"{TYNAME[_t]} \\<Rightarrow> {TYNAME[_t]}"'
SYM = {"≠": "\\<noteq>", "≤": "\\<le>", "≥": "\\<ge>", "<": "<", ">": ">", "=": "="}
PREC = {"+": 65, "-": 65, "*": 70, "/": 70, "div": 70, "mod": 70}
BOUND = ("i", "j", "k")
FIELD = (Q, R)


# ------------------------------------------------------------------------------------------ typed terms
# the shapes of eval/symeq_fuzz.py's typed terms (its `value`/`holds` evaluate them), plus ("asc", e, T)


def ty_of(t) -> int:
    return t[-1]


def rigid(t) -> bool:
    """Some leaf of the tree fixes its type (a variable, an annotation, a function whose result type is fixed)."""
    kind = t[0]
    if kind in ("var", "asc", "round", "app"):
        return True
    if (
        kind == "nat"
    ):  # choose and nat give a nat, gcd and lcm their arguments' type, fact any semiring (`fact n :: 'a`)
        fixed = ("Nat.choose", "Int.toNat", "Nat.succ")  # `Suc :: nat ⇒ nat`
        return t[1] in fixed or (t[1] != "Nat.factorial" and any(rigid(a) for a in t[2]))
    if kind == "bin":
        return rigid(t[2]) or rigid(t[3])
    if kind in ("neg", "pow", "inv"):
        return rigid(t[1])
    if kind == "hom":
        return any(rigid(a) for a in t[2])
    if kind == "big":
        return rigid(t[4])
    return False  # numerals, of_nat, of_int


def show(t, ctx: int = 0) -> str:
    kind = t[0]
    if kind == "var":
        return t[1]
    if kind == "num":
        return str(t[1])
    if kind == "asc":
        return f"({show(t[1])} :: {TYNAME[t[2]]})"
    if kind == "cast":
        return _app("of_nat" if ty_of(t[1]) == N else "of_int", [t[1]], ctx)
    if kind == "bin":
        p = PREC[t[1]]
        text = f"{show(t[2], p)} {t[1]} {show(t[3], p + 1)}"
        return paren(text, ctx > p)
    if kind == "neg":
        text = f"- {show(t[1], 81)}"
        return paren(text, ctx > 80)
    if kind == "pow":
        text = f"{show(t[1], 81)} ^ {show(t[2], 80)}"
        return paren(text, ctx > 80)
    if kind == "inv":
        return _app("inverse", [t[1]], ctx)
    if kind == "app":
        return _app(t[1], [t[2]], ctx)
    if kind == "hom":
        return _app(t[1], t[2], ctx)
    if kind == "nat":
        if t[1] == "Nat.choose":
            text = f"{show(t[2][0], 66)} choose {show(t[2][1], 66)}"
            return paren(text, ctx > 65)
        name = {"Nat.factorial": "fact", "Nat.gcd": "gcd", "Nat.lcm": "lcm", "Int.toNat": "nat", "Nat.succ": "Suc"}[
            t[1]
        ]
        return _app(name, t[2], ctx)
    if kind == "round":
        return _app("floor" if t[1] == "Int.floor" else "ceiling", [typed(t[2])], ctx)
    if kind == "big":
        _, op, i, dom, body, _ = t
        sym = "\\<Sum>" if op == "∑" else "\\<Prod>"
        if dom[0] == "range":
            rng = f"{i}<{show(typed(dom[1]), 51)}"
        else:
            lo = dom[1] if rigid(dom[2]) else typed(dom[1])
            rng = f"{i}={show(lo, 51)}{'..<' if dom[0] == 'Ico' else '..'}{show(dom[2], 51)}"
        return f"({sym}{rng}. {show(body)})"
    raise AssertionError(t)


def typed(t):
    """t, annotated with its type where no leaf fixes it (an index `i<5` or `i=1..6` is of any ordered type with
    numerals otherwise, and over an infinite type such as real the set is infinite and a sum over it 0)."""
    return t if rigid(t) else ("asc", t, ty_of(t))


def _app(name: str, args: list, ctx: int) -> str:
    text = " ".join([name, *(show(a, 1000) for a in args)])
    return paren(text, ctx >= 1000)


def show_prop(p, ctx: int = 0) -> str:
    kind = p[0]
    if kind == "rel":
        text = f"{show(p[2], 51)} {SYM[p[1]]} {show(p[3], 51)}"
        return paren(text, ctx > 50)
    if kind == "dvd":
        text = f"{show(p[1], 51)} dvd {show(p[2], 51)}"
        return paren(text, ctx > 50)
    if kind == "pred":
        p = ("pred", p[1], typed(p[2]))
        return _app({"Even": "even", "Odd": "odd", "Nat.Prime": "prime"}[p[1]], [p[2]], ctx)
    if kind == "modeq" or kind == "not" and p[1][0] == "modeq":
        # HOL-Number_Theory Cong.thy: `[b = c] (mod a)` is `cong b c a`, `[b ≠ c] (mod a)` its negation (notcong)
        _, _, n, a, b, _ = p if kind == "modeq" else p[1]
        if not (rigid(a) or rigid(b) or rigid(n)):
            a = ("asc", a, ty_of(a))
        return f"[{show(a)} {'=' if kind == 'modeq' else SYM['≠']} {show(b)}] (mod {show(n)})"
    if kind == "not":
        text = f"\\<not> {show_prop(p[1], 40)}"
        return paren(text, ctx > 40)
    if kind in ("all", "ex"):
        _, i, (_, bound), body = p
        q = "\\<forall>" if kind == "all" else "\\<exists>"
        return f"({q}{i}<{show(typed(bound), 51)}. {show_prop(body)})"
    sym, prec, left, right = {
        "and": ("\\<and>", 35, 36, 35),
        "or": ("\\<or>", 30, 31, 30),
        "imp": ("\\<longrightarrow>", 25, 26, 25),
        "iff": ("\\<longleftrightarrow>", 25, 26, 26),
    }[kind]
    text = f"{show_prop(p[1], left)} {sym} {show_prop(p[2], right)}"
    return paren(text, ctx > prec)


def statement(binders: dict[str, int], hyps: list, concl) -> str:
    groups = group_binders(binders)
    lines = ["theorem", "fixes " + " and ".join(f"{' '.join(ns)} :: {TYNAME[ty]}" for ns, ty in groups)]
    if hyps:
        lines.append("assumes " + "\n    and ".join(f'h{i} : "{show_prop(h)}"' for i, h in enumerate(hyps)))
    lines.append(f'shows "{show_prop(concl)}"')
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------ generation


class Gen:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def binders(self) -> dict[str, int]:
        k = self.rng.choice((1, 2, 2, 3))
        if self.rng.random() < 0.5:
            tys = [self.rng.choice((N, Z, R))] * k
        else:
            tys = [self.rng.choice((N, N, Z, Z, Q, R, R)) for _ in range(k)]
        out = dict(zip(("x", "y", "z")[:k], tys, strict=True))
        if self.rng.random() < 0.3:  # uninterpreted functions `fixes f g :: "T ⇒ T"`
            fty = FUN + self.rng.choice((N, Z, R))
            out.update(dict.fromkeys(("f", "g")[: self.rng.choice((1, 1, 2))], fty))
        return out

    def term(self, env: dict[str, int], ty: int, depth: int):
        rng = self.rng
        mine = [n for n, t in env.items() if t == ty]
        funs = [n for n, t in env.items() if t == FUN + ty]
        if funs and rng.random() < 0.15:
            return ("app", rng.choice(funs), self.term(env, ty, depth - 1), ty)
        if depth <= 0 or rng.random() < 0.3:
            if mine and rng.random() < 0.65:
                return ("var", rng.choice(mine), ty)
            return ("num", rng.choice((0, 1, 2, 2, 3, 4, 5, 7, 10)), ty)
        sub = lambda t=ty: self.term(env, t, depth - 1)  # noqa: E731
        r = rng.random()
        if r < 0.45:
            ops = ["+", "-", "-", "*"] + (["/", "/"] if ty in FIELD else ["div", "div", "mod"])
            return ("bin", rng.choice(ops), sub(), sub(), ty)
        if r < 0.52 and ty != N:
            return ("neg", sub(), ty)
        if r < 0.6:
            e = ("num", rng.choice((0, 1, 2, 2, 3)), N)
            nats = [n for n, t in env.items() if t == N]
            if nats and rng.random() < 0.2:
                e = ("var", rng.choice(nats), N)
            return ("pow", sub(), e, ty)
        if r < 0.67:
            f = rng.choice(("min", "max") if ty == N else ("abs", "min", "max"))
            return ("hom", f, [sub()] if f == "abs" else [sub(), sub()], ty)
        if r < 0.74 and ty != Q:
            src = rng.choice([t for t in (N, Z) if t < ty] or [None])
            if src is not None:
                return ("cast", self.term(env, src, depth - 1), ty)
        if r < 0.8 and ty in (N, Z):
            f = rng.choice(
                ("Nat.gcd", "Nat.lcm", "Nat.factorial")
                if ty == Z
                else ("Nat.gcd", "Nat.lcm", "Nat.choose", "Nat.factorial", "Int.toNat", "Nat.succ")
            )
            if f in ("Nat.factorial", "Nat.succ"):
                return ("nat", f, [self.term(env, N, depth - 1)], ty)
            if f == "Int.toNat":
                return ("nat", f, [self.term(env, Z, depth - 1)], N)
            return ("nat", f, [sub(), sub()], ty)
        if r < 0.85 and ty == Z:
            return ("round", rng.choice(("Int.floor", "Int.ceil")), self.term(env, rng.choice(FIELD), depth - 1), Z)
        if r < 0.88 and ty in FIELD:
            return ("inv", sub(), ty)
        i = rng.choice([b for b in BOUND if b not in env] or ["w"])
        if rng.random() < 0.6:
            dom = ("range", self.small(env, N))
            ity = N
        else:
            ity = rng.choice((N, Z))
            dom = (rng.choice(("Icc", "Icc", "Ico")), self.small(env, ity), self.small(env, ity))
        body = self.term({**env, i: ity}, ty, depth - 1)
        return ("big", rng.choice(("∑", "∑", "∏")), i, dom, body, ty)

    def small(self, env: dict[str, int], ty: int):
        r = self.rng.random()
        mine = [n for n, t in env.items() if t == ty]
        if r < 0.4 or not mine:
            return ("num", self.rng.choice((0, 1, 2, 3, 4, 5, 6)), ty)
        v = ("var", self.rng.choice(mine), ty)
        return v if r < 0.75 else ("bin", self.rng.choice(("+", "-")), v, ("num", self.rng.choice((1, 2)), ty), ty)

    def pick_type(self, env: dict[str, int]) -> int:
        values = [t for t in env.values() if t < FUN]
        if values and self.rng.random() < 0.8:
            return self.rng.choice(values)
        return self.rng.choice((N, Z, Q, R))

    def atom(self, env: dict[str, int]):
        rng = self.rng
        r = rng.random()
        ty = self.pick_type(env)
        if r < 0.1 and ty != Q:
            return fix(("dvd", self.term(env, ty, 1), self.term(env, ty, 2)))
        if r < 0.17:
            f = rng.choice(("Even", "Odd", "Nat.Prime"))  # `prime` of an int: Factorial_Ring's, no negative is one
            return ("pred", f, self.term(env, rng.choice((N, Z)), 1))
        if r < 0.22 and ty in (N, Z):
            return ("modeq", "MOD", self.small(env, ty), self.term(env, ty, 1), self.term(env, ty, 1), "notation")
        if r < 0.24:
            i = rng.choice([b for b in BOUND if b not in env] or ["w"])
            bound = self.small(env, N)
            return (rng.choice(("all", "ex")), i, [("var", i, N), bound], self.atom({**env, i: N}))
        return fix(("rel", rng.choice(RELS), self.term(env, ty, 2), self.term(env, ty, 2)))

    def prop(self, env: dict[str, int], depth: int):
        if depth <= 0 or self.rng.random() < 0.6:
            return self.atom(env)
        kind = self.rng.choice(("and", "and", "or", "imp", "not", "iff"))
        if kind == "not":
            return ("not", self.prop(env, depth - 1))
        return (kind, self.prop(env, depth - 1), self.prop(env, depth - 1))

    def statement(self):
        binders = self.binders()
        hyps = [self.prop(binders, 1) for _ in range(self.rng.choice((0, 1, 1, 2)))]
        return binders, hyps, self.prop(binders, 1)

    # -------------------------------------------------------------------------------------- edits

    def edit(self, st):
        binders, hyps, concl = st[0], list(st[1]), st[2]
        r = self.rng.random()
        moved = move_hypotheses(self.rng, r, hyps, concl, 0.08, 0.13)
        if moved is not None:
            return binders, *moved
        props = [*hyps, concl]
        i = self.rng.randrange(len(props))
        sites = list(_sites(props[i], (), dict(binders)))
        path, node, env = self.rng.choice(sites)
        props[i] = replace(props[i], path, self.edit_node(node, env))
        return binders, props[:-1], props[-1]

    def edit_node(self, node, env: dict[str, int]):
        rng = self.rng
        kind = node[0]
        if kind == "rel":
            r = rng.random()
            if r < 0.4:
                return fix(("rel", CONVERSE[node[1]], node[3], node[2]))
            if r < 0.7:
                return ("rel", rng.choice(RELS), node[2], node[3])
            return ("not", node)
        if kind in ("and", "or", "iff"):
            return (kind, node[2], node[1]) if rng.random() < 0.6 else (rng.choice(("and", "or", "imp")), *node[1:])
        if kind == "not":
            return node[1]
        if kind == "imp":
            return ("imp", node[2], node[1])
        if kind == "dvd":
            return fix(("dvd", node[2], node[1]))
        if kind == "pred":
            if node[1] == "Nat.Prime":
                return ("pred", "Odd", node[2])
            return ("pred", "Odd" if node[1] == "Even" else "Even", node[2])
        if kind == "modeq":
            _, mod, n, a, b, style = node
            r = rng.random()
            if r < 0.3:  # cong_sym_eq
                return ("modeq", mod, n, b, a, style)
            if r < 0.6:  # cong_def: `[b = c] (mod a) ⟷ b mod a = c mod a`
                t = ty_of(a)
                return fix(("rel", "=", ("bin", "mod", a, n, t), ("bin", "mod", b, n, t)))
            if r < 0.8:
                return ("not", node)
            return ("modeq", mod, ("bin", "+", n, ("num", 1, ty_of(n)), ty_of(n)), a, b, style)
        if kind in ("all", "ex"):
            r = rng.random()
            if r < 0.35:
                j = next(b for b in (*BOUND, "w") if b != node[1] and b not in env)
                return (kind, j, [("var", j, N), node[2][1]], rename(node[3], node[1], j))
            if r < 0.7:
                return ("ex" if kind == "all" else "all", *node[1:])
            return (kind, node[1], [node[2][0], ("bin", "+", node[2][1], ("num", 1, N), N)], node[3])
        ty = ty_of(node)
        if kind == "num":
            return ("num", max(0, node[1] + rng.choice((-1, 1, 2))), ty)
        if kind == "bin":
            r = rng.random()
            if r < 0.3 and node[1] in ("+", "*"):
                return ("bin", node[1], node[3], node[2], ty)
            if r < 0.7:
                ops = ["+", "-", "*"] + (["/"] if ty in FIELD else ["div", "mod"])
                return ("bin", rng.choice(ops), node[2], node[3], ty)
            if node[1] == "-" and ty != N:
                return ("bin", "+", node[2], ("neg", node[3], ty), ty)
        if kind == "big":
            _, op, i, dom, body, _ = node
            r = rng.random()
            if r < 0.3:
                j = next(b for b in (*BOUND, "w") if b != i and b not in env)
                return ("big", op, j, dom, rename(body, i, j), ty)
            if r < 0.55 and dom[0] == "range":
                hi = ("bin", "-", dom[1], ("num", 1, N), N)
                return ("big", op, i, ("Icc", ("num", 0, N), hi), body, ty)
            if r < 0.7 and dom[0] == "range":
                return ("big", op, i, ("Icc", ("num", 1, N), dom[1]), body, ty)
            if r < 0.7 and dom[0] == "Icc":  # `{a..b} = {a..<b + 1}` (nat, int)
                hi = ("bin", "+", dom[2], ("num", 1, ty_of(dom[2])), ty_of(dom[2]))
                return ("big", op, i, ("Ico", dom[1], hi), body, ty)
            return ("big", "∏" if op == "∑" else "∑", i, dom, body, ty)
        if kind == "hom" and node[1] != "abs":
            return ("hom", "max" if node[1] == "min" else "min", node[2][::-1] if rng.random() < 0.5 else node[2], ty)
        if kind == "app":
            others = [f for f, t in env.items() if t == FUN + ty and f != node[1]]
            if others:
                return ("app", rng.choice(others), node[2], ty)
        if kind == "pow" and node[2][0] == "num" and node[2][1] == 2:
            return ("bin", "*", node[1], node[1], ty)
        return self.term(env, ty, 1)


def fix(p):
    """A relation (or dvd) whose sides have no typed leaf is annotated on its left: Isabelle would otherwise read
    it at a type variable."""
    a, b = (p[2], p[3]) if p[0] == "rel" else (p[1], p[2])
    if rigid(a) or rigid(b):
        return p
    a = ("asc", a, ty_of(a))
    return ("rel", p[1], a, b) if p[0] == "rel" else ("dvd", a, b)


def _sites(p, path, env):
    """(path, node, the variables in scope) for every proposition and term node."""
    yield path, p, env
    kind = p[0]
    if kind in ("and", "or", "imp", "iff"):
        yield from _sites(p[1], (*path, 1), env)
        yield from _sites(p[2], (*path, 2), env)
    elif kind == "not":
        yield from _sites(p[1], (*path, 1), env)
    elif kind in ("all", "ex"):
        yield from _sites(p[3], (*path, 3), {**env, p[1]: N})
    elif kind == "rel":
        yield from _term_sites(p[2], (*path, 2), env)
        yield from _term_sites(p[3], (*path, 3), env)
    elif kind in ("dvd", "pred"):
        yield from _term_sites(p[-2] if kind == "dvd" else p[2], (*path, 1 if kind == "dvd" else 2), env)
    elif kind == "modeq":
        for k in (2, 3, 4):
            yield from _term_sites(p[k], (*path, k), env)


def _term_sites(t, path, env):
    yield path, t, env
    kind = t[0]
    if kind == "bin":
        yield from _term_sites(t[2], (*path, 2), env)
        yield from _term_sites(t[3], (*path, 3), env)
    elif kind in ("neg", "pow", "inv", "cast", "asc"):
        yield from _term_sites(t[1], (*path, 1), env)
    elif kind == "app":
        yield from _term_sites(t[2], (*path, 2), env)
    elif kind == "big":
        ity = N if t[3][0] == "range" else ty_of(t[3][1])
        yield from _term_sites(t[4], (*path, 4), {**env, t[2]: ity})


def make_pairs(seed: int, count: int):
    rng = random.Random(seed)
    gen = Gen(rng)
    pairs = []
    while len(pairs) < count:
        a = gen.statement()
        b = gen.edit(a)
        if rng.random() < 0.4:
            b = gen.edit(b)
        text_a, text_b = statement(*a), statement(*b)
        if text_a != text_b:
            pairs.append((text_a, text_b, (a[0], (a[1], a[2])), (b[0], (b[1], b[2]))))
    return pairs


def main(argv: list[str] | None = None) -> int:
    from eval.symeq_fuzz import add_fuzz_arguments, check_fuzz_arguments, report

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_fuzz_arguments(ap)
    args = ap.parse_args(argv)
    check_fuzz_arguments(ap, args)

    t0 = time.time()
    pairs = make_pairs(args.seed, args.pairs)
    return report(pairs, "isabelle", args, f"seed {args.seed}: {len(pairs)} pairs of Isabelle statements", t0)


if __name__ == "__main__":
    raise SystemExit(main())
