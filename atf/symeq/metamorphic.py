"""Metamorphic variants of a Lean 4 statement, for testing SymEq on gold benchmark statements.

A *rewrite* keeps the meaning (SymEq must merge it with the original); a *mutation* changes it (SymEq must
not). Each works on the statement's tokens (`lean_frontend.tokenize`), and returns None where it does not
apply (no hypothesis to reorder, no literal to change, ...). Variants are printed with one space between
tokens, which Lean reads the same way.

Rewrites: rename every variable (also inside types, opaque terms and dotted names), reverse the hypotheses,
split a hypothesis `A ∧ B` in two, merge two hypotheses into `A ∧ B`, move the last hypothesis into the
conclusion as `A → C`, swap the sides of an equation, write `x ≠ y` as `¬ x = y`, write `a ≤ b` as `b ≥ a`,
write `2 * x` as `x * 2`, shift the index of a sum over `Finset.Icc 1 n` to `Finset.range n`; and (the
second set, added later) `x ^ 2` as `x * x`, `2 * x` as `x + x`, every order relation mirrored, `a ≤ b` as
`¬ b < a`, `a ∣ b` as `b % a = 0`, `Even`/`Odd` as `% 2`, `√`, `x⁻¹` as `1 / x`, explicit binders, all
hypotheses curried into the conclusion, `¬ ¬ C`, `n + 1` as `Nat.succ n`, bounds as interval membership,
reassociation of `+`/`*`, `a - b = c` as `a = c + b` (off ℕ); and (the third) `a * (b + c)` as `a * b + a * c`.
Mutations: change a literal, change a relation, drop a hypothesis, change a variable's type between ℕ, ℤ
and ℝ, widen a range or interval bound, change `+` into `-`; and (the second set) swap the operands of a
non-commutative operator, `*` into `+`, `/` into `*`, change an exponent, `∀` into `∃` and back, `∧`/`∨`/`↔`
swapped, negate the conclusion, one occurrence of a variable into another of its type, a function into a
sibling (`sin`/`cos`, `Icc`/`Ico`, ...), drop a cast. A mutation changes one place: the first it finds (the last
literal, the first hypothesis, ...), or with `variants(..., sites=N)` up to N places in turn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import update_wrapper

from atf.symeq.ir import ParseError, free_vars, scope_end, type_names
from atf.symeq.lean_frontend import (
    binder_roles,
    conclusion_tokens,
    read_statement,
    strip_comments,
    tokenize_lines,
)
from atf.symeq.lean_frontend import parse_statement as parse_lean

Tok = tuple[str, str]
# `![` (a vector literal) and `f^[n]` (iteration) close with `]`, `⌊` with `⌋` or `⌋₊` (Nat.floor); the other
# pairs are `atf.lean.lexer`'s
OPEN, CLOSE = (
    ("(", "[", "![", "^[", "{", "⟨", "⦃", "⌊", "⌈", "⟦", "⟪", "⁅"),
    (")", "]", "}", "⟩", "⦄", "⌋", "⌋₊", "⌉", "⌉₊", "⟧", "⟫", "⁆"),
)
_LOW = {
    "→",
    "->",
    "↔",
    "∨",
    "∧",
    "∀",
    "∃",
    "∃!",
    "fun",
    "λ",
    ",",
    "∑",
    "∏",
    "if",
    "then",
    "else",
    "=>",
    "↦",
    "$",
    "<|",
    "∫",
    "⋃",
    "⋂",
}
_REL = {"=", "≠", "<", ">", "≤", "≥"}


@dataclass
class Parts:
    """A statement cut into tokens: name, binder groups (each with its brackets), conclusion."""

    name: str
    binders: list[list[Tok]]
    conclusion: list[Tok]
    hyps: list[int] = field(default_factory=list)  # indices of binders that are hypotheses

    def text(self) -> str:
        groups = " ".join(_join(b) for b in self.binders)
        return f"theorem {self.name} {groups} : {_join(self.conclusion)} := by sorry"

    def copy(self) -> Parts:
        return Parts(self.name, [list(b) for b in self.binders], list(self.conclusion), list(self.hyps))


def _join(toks: list[Tok]) -> str:
    return " ".join(t for _, t in toks)


def cut(text: str) -> Parts | None:
    """The statement's parts, or None when it is not `theorem name binders : conclusion :=`. Read by the one
    statement reader (`atf.lean.statement`, through `read_statement`): it knows where the conclusion ends (the
    `:=` of a `let` inside it does not end it, `![` opens a bracket) and which binders are hypotheses."""
    try:
        st = read_statement(text)
        # roles as the front-end reads them, with the section's `variable {n : Type*}` among the type variables
        roles = binder_roles(st, section_variables=True)[len(st.included_variables()) :]
    except (ParseError, ValueError):
        return None
    if st.kind not in ("theorem", "lemma") or not st.name:
        return None
    names = [n for b in st.binders for n in b.names if n != "_"]
    if len(names) != len(set(names)):
        # a binder declared twice (miniF2F's `mathd_algebra_247`: `(n : ℤ) ... (n) (_ : n = 3)`): the later one
        # shadows the earlier, so reordering or currying the binders changes which one a hypothesis names
        return None
    binders = [tokenize_lines(strip_comments(b.text)) for b in st.binders]
    concl = conclusion_tokens(st)
    if not concl or not all(binders):
        return None
    parts = Parts(st.name, binders, concl)
    # which binders are hypotheses: as the SymEq front-end reads them (`(c : F)` under `{F V : Type*}` is a variable)
    parts.hyps = [k for k, (role, _, _) in enumerate(roles) if role == "hyp" and binders[k][0][1] == "("]
    return parts


def _close(toks: list[Tok], i: int) -> int | None:
    depth = 0
    for j in range(i, len(toks)):
        depth += toks[j][1] in OPEN
        depth -= toks[j][1] in CLOSE
        if depth == 0:
            return j
    return None


def _hyp(b: list[Tok]) -> tuple[list[Tok], list[Tok]]:
    """(names, proposition) of a hypothesis binder `(h : P)`."""
    inner = b[1:-1]
    colon = next(p for p, (_, t) in enumerate(inner) if t == ":")
    return inner[:colon], inner[colon + 1 :]


def _paren(toks: list[Tok]) -> list[Tok]:
    return [("op", "(")] + toks + [("op", ")")]


def _depth0(toks: list[Tok]) -> list[tuple[int, str]]:
    out, depth = [], 0
    for k, (_, t) in enumerate(toks):
        if t in OPEN:
            depth += 1
        elif t in CLOSE:
            depth -= 1
        elif depth == 0:
            out.append((k, t))
    return out


def _top_relation(toks: list[Tok]) -> int | None:
    """Index of the single relation of a proposition `a R b` with nothing of lower precedence around it."""
    top = _depth0(toks)
    if any(t in _LOW for _, t in top) or (top and top[0][1] == "¬"):
        return None
    rels = [k for k, t in top if t in _REL]
    return rels[0] if len(rels) == 1 else None


def variables(p: Parts) -> list[str]:
    out = []
    for k, b in enumerate(p.binders):
        if k in p.hyps or b[0][1] == "[":
            continue
        inner = b[1:-1]
        for kind, t in inner:
            if t == ":":
                break
            if kind == "ident":
                out.append(t)
    return out


# ----------------------------------------------------------------------------------------------- rewrites


def rename(p: Parts) -> Parts | None:
    """Every variable renamed `v₁`-style, wherever it occurs (types, opaque terms, `p.Prime`)."""
    names = variables(p)
    if not names:
        return None
    new = {n: f"var{k}" for k, n in enumerate(names)}

    def ren(toks: list[Tok]) -> list[Tok]:
        out = []
        for kind, t in toks:
            if kind == "ident":
                head, dot, rest = t.partition(".")
                if head in new:
                    t = new[head] + dot + rest
            out.append((kind, t))
        return out

    q = p.copy()
    q.binders = [ren(b) for b in q.binders]
    q.conclusion = ren(q.conclusion)
    return q


def reorder(p: Parts) -> Parts | None:
    if len(p.hyps) < 2:
        return None
    q = p.copy()
    hyps = [p.binders[k] for k in p.hyps]
    others = [b for k, b in enumerate(p.binders) if k not in p.hyps]
    q.binders = others + hyps[::-1]
    q.hyps = list(range(len(others), len(q.binders)))
    return q


def split_and(p: Parts) -> Parts | None:
    for k in p.hyps:
        names, prop = _hyp(p.binders[k])
        top = _depth0(prop)
        ands = [i for i, t in top if t == "∧"]
        if len(ands) != 1 or any(t in _LOW - {"∧"} for _, t in top) or (top and top[0][1] == "¬"):
            continue
        a, b = prop[: ands[0]], prop[ands[0] + 1 :]
        q = p.copy()
        h = names[0][1]
        q.binders[k : k + 1] = [
            _paren([("ident", h + "_l"), ("op", ":")] + a),
            _paren([("ident", h + "_r"), ("op", ":")] + b),
        ]
        q.hyps = [x if x <= k else x + 1 for x in p.hyps] + [k + 1]
        return q
    return None


def merge_and(p: Parts) -> Parts | None:
    if len(p.hyps) < 2:
        return None
    k1, k2 = p.hyps[-2], p.hyps[-1]
    (n1, a), (_, b) = _hyp(p.binders[k1]), _hyp(p.binders[k2])
    q = p.copy()
    q.binders[k1] = _paren(n1 + [("op", ":")] + _paren(a) + [("op", "∧")] + _paren(b))
    del q.binders[k2]
    q.hyps = [x for x in p.hyps if x != k2]
    return q


def hyp_to_conclusion(p: Parts) -> Parts | None:
    if not p.hyps or p.hyps[-1] != len(p.binders) - 1:
        return None
    k = p.hyps[-1]
    _, prop = _hyp(p.binders[k])
    q = p.copy()
    del q.binders[k]
    q.hyps = p.hyps[:-1]
    q.conclusion = _paren(prop) + [("op", "→")] + _paren(p.conclusion)
    return q


def _rewrite_conclusion_relation(p: Parts, f: Callable[[list[Tok], str, list[Tok]], list[Tok] | None]) -> Parts | None:
    r = _top_relation(p.conclusion)
    if r is None:
        return None
    out = f(p.conclusion[:r], p.conclusion[r][1], p.conclusion[r + 1 :])
    if out is None:
        return None
    q = p.copy()
    q.conclusion = out
    return q


def swap_sides(p: Parts) -> Parts | None:
    flip = {"=": "=", "≠": "≠", "<": ">", ">": "<", "≤": "≥", "≥": "≤"}
    return _rewrite_conclusion_relation(p, lambda a, r, b: b + [("op", flip[r])] + a)


def flip_relation(p: Parts) -> Parts | None:
    """`a ≤ b` as `b ≥ a` in the first hypothesis (or the conclusion) that is an order relation."""
    flip = {"<": ">", ">": "<", "≤": "≥", "≥": "≤"}
    for k in p.hyps:
        names, prop = _hyp(p.binders[k])
        r = _top_relation(prop)
        if r is not None and prop[r][1] in flip:
            q = p.copy()
            q.binders[k] = _paren(names + [("op", ":")] + prop[r + 1 :] + [("op", flip[prop[r][1]])] + prop[:r])
            return q
    return None


def ne_as_not_eq(p: Parts) -> Parts | None:
    for k in p.hyps:
        names, prop = _hyp(p.binders[k])
        r = _top_relation(prop)
        if r is not None and prop[r][1] == "≠":
            q = p.copy()
            q.binders[k] = _paren(names + [("op", ":"), ("op", "¬")] + _paren(prop[:r] + [("op", "=")] + prop[r + 1 :]))
            return q
    r = _top_relation(p.conclusion)
    if r is not None and p.conclusion[r][1] == "≠":
        q = p.copy()
        q.conclusion = [("op", "¬")] + _paren(p.conclusion[:r] + [("op", "=")] + p.conclusion[r + 1 :])
        return q
    return None


_MUL_BEFORE = {"(", "=", "+", "-", "<", "≤", ">", "≥", ",", "≠", ":", "∧", "∨", "→", "*"}
_MUL_AFTER = {")", "=", "+", "-", "<", "≤", ">", "≥", ",", "≠", "∧", "∨", "→", "*", ":"}


def commute_product(p: Parts) -> Parts | None:
    """`2 * x` as `x * 2` where the product stands alone (`2 * x ^ 2`, `a / 2 * x` are left as they are)."""

    def one(toks: list[Tok]) -> list[Tok] | None:
        for i in range(len(toks) - 2):
            if (
                toks[i][0] == "num"
                and toks[i + 1][1] == "*"
                and toks[i + 2][0] == "ident"
                and (i == 0 or toks[i - 1][1] in _MUL_BEFORE)
                and (i + 3 == len(toks) or toks[i + 3][1] in _MUL_AFTER)
            ):
                return toks[:i] + [toks[i + 2], toks[i + 1], toks[i]] + toks[i + 3 :]
        return None

    return _first_in_conclusion_or_hyps(p, one)


_BODY_END = frozenset({")", "]", "}", "+", "-", "=", "≠", "<", ">", "≤", "≥", "∧", "∨", "→", "↔", ",", ":="})


def shift_sum(p: Parts) -> Parts | None:
    """`∑ i in Finset.Icc 1 n, f i` as `∑ i in Finset.range n, (f (i + 1))` (an untyped index; the body is
    what Mathlib reads at precedence 67: up to a `+`, a relation or the enclosing bracket)."""

    def one(toks: list[Tok]) -> list[Tok] | None:
        for i in range(len(toks) - 7):
            if (
                toks[i][1] == "∑"
                and toks[i + 1][0] == "ident"
                and toks[i + 2][1] in ("in", "∈")
                and toks[i + 3][1] == "Finset.Icc"
                and toks[i + 4][1] == "1"
            ):
                v = toks[i + 1][1]
                end = (i + 5) if toks[i + 5][1] not in OPEN else _close(toks, i + 5)
                if end is None or end + 2 >= len(toks) or toks[end + 1][1] != "," or toks[end + 2][1] == "-":
                    continue
                k = scope_end(toks, end + 2, _BODY_END)
                new_body: list[Tok] = []
                for t in toks[end + 2 : k]:
                    new_body += _paren([("ident", v), ("op", "+"), ("num", "1")]) if t == ("ident", v) else [t]
                hi = toks[i + 5 : end + 1]
                return toks[: i + 3] + [("ident", "Finset.range")] + hi + [("op", ",")] + _paren(new_body) + toks[k:]
        return None

    out = one(p.conclusion)
    if out is None:
        return None
    q = p.copy()
    q.conclusion = out
    return q


# new rewrite kinds (session 9, s22): notations and spellings formalizers produce that the kinds above do not


def _var_types(p: Parts) -> dict[str, str]:
    """name -> type (as text) of each variable bound by a binder `(x y : T)` / `{x : T}`."""
    out = {}
    for k, b in enumerate(p.binders):
        if k in p.hyps or b[0][1] == "[":
            continue
        inner = b[1:-1]
        colon = next((i for i, (_, t) in enumerate(inner) if t == ":"), None)
        if colon is None:
            continue
        for kind, t in inner[:colon]:
            if kind == "ident":
                out[t] = _join(inner[colon + 1 :])
    return out


def _all_of(p: Parts, types: set[str]) -> bool:
    """Every variable of the statement has one of `types` (no functions, sets, structures)."""
    ts = _var_types(p)
    return bool(ts) and len(ts) == len(variables(p)) and all(t in types for t in ts.values())


def _every_prop(p: Parts, f: Callable[[list[Tok]], list[Tok] | None]) -> Parts | None:
    """`f` on every hypothesis's proposition and on the conclusion; None when it changes none of them."""
    q, changed = p.copy(), False
    for k in p.hyps:
        names, prop = _hyp(p.binders[k])
        out = f(prop)
        if out is not None and out != prop:
            q.binders[k] = _paren(names + [("op", ":")] + out)
            changed = True
    out = f(p.conclusion)
    if out is not None and out != p.conclusion:
        q.conclusion = out
        changed = True
    return q if changed else None


# a token after which an atom starts a new operand (not an argument of an application, a cast or `√`)
_OPERAND_BEFORE = frozenset(
    {"(", "[", "{", "=", "≠", "<", ">", "≤", "≥", "+", "-", "*", "/", "%", "^", ",", ":", "∧", "∨", "→", "↔", "∣"}
)
# a token that may follow a complete operand of `^`/`*` without binding tighter to it
_OPERAND_AFTER = frozenset(
    {")", "]", "}", "=", "≠", "<", ">", "≤", "≥", "+", "-", "*", "/", "%", ",", ":", "∧", "∨", "→", "↔", "∣", ":="}
)


def _atom_before(toks: list[Tok], i: int) -> int | None:
    """Start of the atom (a name, a numeral or a bracketed group) that ends at `toks[i]`, when it stands as an
    operand (the token before it is an operator or an opening bracket, not a function it is applied to)."""
    if toks[i][0] in ("ident", "num"):
        s = i
    elif toks[i][1] == ")":
        depth, s = 0, None
        for j in range(i, -1, -1):
            depth += toks[j][1] in CLOSE
            depth -= toks[j][1] in OPEN
            if depth == 0:
                s = j
                break
        if s is None or toks[s][1] != "(":
            return None
    else:
        return None
    return s if s == 0 or toks[s - 1][1] in _OPERAND_BEFORE else None


def _atom_after(toks: list[Tok], i: int) -> int | None:
    """End (inclusive) of the atom that starts at `toks[i]`: a name or numeral not followed by a field access,
    or a parenthesized group."""
    if toks[i][0] in ("ident", "num"):
        return i
    if toks[i][1] == "(":
        return _close(toks, i)
    return None


def square_as_product(p: Parts) -> Parts | None:
    """Every `x ^ 2` (an atom squared) as `(x * x)` (Mathlib `sq x : x ^ 2 = x * x`, any monoid)."""

    def f(toks: list[Tok]) -> list[Tok] | None:
        out, changed = list(toks), False
        i = len(out) - 3
        while i >= 0:
            if (
                out[i + 1][1] == "^"
                and out[i + 2] == ("num", "2")
                and (i + 3 == len(out) or out[i + 3][1] in _OPERAND_AFTER)
            ):
                s = _atom_before(out, i)
                if s is not None:
                    base = out[s : i + 1]
                    out[s : i + 3] = _paren(base + [("op", "*")] + base)
                    changed = True
                    i = s
            i -= 1
        return out if changed else None

    return _every_prop(p, f)


def double_as_sum(p: Parts) -> Parts | None:
    """Every `2 * x` (a name standing alone as a product) as `(x + x)` (Mathlib `two_mul`)."""

    def f(toks: list[Tok]) -> list[Tok] | None:
        out, changed = list(toks), False
        for i in range(len(out) - 3, -1, -1):
            if (
                out[i] == ("num", "2")
                and out[i + 1][1] == "*"
                and out[i + 2][0] == "ident"
                and (i == 0 or out[i - 1][1] in _OPERAND_BEFORE - {"*", "/", "%", "^"})
                and (i + 3 == len(out) or out[i + 3][1] in _OPERAND_AFTER - {"*", "/", "%"})
            ):
                out[i : i + 3] = _paren([out[i + 2], ("op", "+"), out[i + 2]])
                changed = True
        return out if changed else None

    return _every_prop(p, f)


_MIRROR = {"<": ">", ">": "<", "≤": "≥", "≥": "≤"}


def _conjuncts(prop: list[Tok]) -> list[list[Tok]] | None:
    """The conjuncts of `A ∧ B ∧ ...` (one when there is no `∧`), None when another connective is at the top."""
    top = _depth0(prop)
    if any(t in _LOW - {"∧"} for _, t in top) or (top and top[0][1] == "¬"):
        return None
    cuts = [k for k, t in top if t == "∧"]
    bounds = [-1] + cuts + [len(prop)]
    return [prop[a + 1 : b] for a, b in zip(bounds, bounds[1:], strict=False)]


def _join_and(parts: list[list[Tok]]) -> list[Tok]:
    out: list[Tok] = []
    for k, c in enumerate(parts):
        out += ([("op", "∧")] if k else []) + c
    return out


def mirror_all(p: Parts) -> Parts | None:
    """Every order relation `a ≤ b` standing as a hypothesis, the conclusion or one of their conjuncts written
    `b ≥ a` (and `<` as `>`, `≥` as `≤`, `>` as `<`): Lean's `GE.ge a b := LE.le b a`, `GT.gt a b := LT.lt b a`."""

    def f(prop: list[Tok]) -> list[Tok] | None:
        parts = _conjuncts(prop)
        if parts is None:
            return None
        out = []
        for c in parts:
            r = _top_relation(c)
            if r is not None and c[r][1] in _MIRROR:
                c = c[r + 1 :] + [("op", _MIRROR[c[r][1]])] + c[:r]
            out.append(c)
        return _join_and(out)

    return _every_prop(p, f)


_LINEAR = {"ℕ", "ℤ", "ℚ", "ℝ"}


def le_as_not_lt(p: Parts) -> Parts | None:
    """In a statement about numbers of ℕ/ℤ/ℚ/ℝ only, the first hypothesis (else the conclusion) `a ≤ b` as
    `¬ b < a` and `a < b` as `¬ b ≤ a` (Mathlib `not_lt`, `not_le`: linear orders only, hence the type check)."""
    if not _all_of(p, _LINEAR):
        return None
    flip = {"≤": "<", "<": "≤", "≥": ">", ">": "≥"}

    def one(prop: list[Tok]) -> list[Tok] | None:
        r = _top_relation(prop)
        if r is None or prop[r][1] not in flip:
            return None
        return [("op", "¬")] + _paren(prop[r + 1 :] + [("op", flip[prop[r][1]])] + prop[:r])

    return _first_in_conclusion_or_hyps(p, one)


def dvd_as_mod(p: Parts) -> Parts | None:
    """In a statement about ℕ/ℤ numbers only, every `a ∣ b` (or `¬ a ∣ b`) standing as a hypothesis, the
    conclusion or a conjunct as `b % a = 0` (Mathlib `Nat.dvd_iff_mod_eq_zero`, `Int.dvd_iff_emod_eq_zero`)."""
    if not _all_of(p, {"ℕ", "ℤ"}):
        return None

    def one(c: list[Tok]) -> list[Tok]:
        neg = bool(c) and c[0][1] == "¬"
        body = c[1:] if neg else c
        top = _depth0(body)
        bars = [k for k, t in top if t == "∣"]
        if len(bars) != 1 or any(t in _LOW or t in _REL or t == "¬" for _, t in top):
            return c
        k = bars[0]
        new = _paren(body[k + 1 :]) + [("op", "%")] + _paren(body[:k]) + [("op", "="), ("num", "0")]
        return [("op", "¬")] + _paren(new) if neg else new

    def f(prop: list[Tok]) -> list[Tok] | None:
        top = _depth0(prop)
        if any(t in _LOW - {"∧"} for _, t in top):
            return None
        cuts = [k for k, t in top if t == "∧"]
        bounds = [-1] + cuts + [len(prop)]
        return _join_and([one(prop[a + 1 : b]) for a, b in zip(bounds, bounds[1:], strict=False)])

    return _every_prop(p, f)


_PARITY = {"Even": "0", "Odd": "1"}


def parity_as_mod(p: Parts) -> Parts | None:
    """`Even n` / `Odd n` of a ℕ or ℤ variable as `n % 2 = 0` / `n % 2 = 1` (Mathlib `Nat.even_iff`,
    `Nat.odd_iff`, `Int.even_iff`, `Int.odd_iff`)."""
    types = _var_types(p)

    def f(toks: list[Tok]) -> list[Tok] | None:
        out, changed = list(toks), False
        for i in range(len(out) - 2, -1, -1):
            t, (kind, v) = out[i][1], out[i + 1]
            if t in _PARITY and kind == "ident" and types.get(v) in ("ℕ", "ℤ"):
                if i + 2 < len(out) and out[i + 2][1] not in _OPERAND_AFTER:
                    continue
                out[i : i + 2] = _paren([out[i + 1], ("op", "%"), ("num", "2"), ("op", "="), ("num", _PARITY[t])])
                changed = True
        return out if changed else None

    return _every_prop(p, f)


def sqrt_notation(p: Parts) -> Parts | None:
    """Every `Real.sqrt x` (an atom argument) as `√ x` (Mathlib's `prefix:100 "√" => Real.sqrt`)."""

    def f(toks: list[Tok]) -> list[Tok] | None:
        out, changed = list(toks), False
        for i in range(len(out) - 2, -1, -1):
            if out[i] != ("ident", "Real.sqrt") or (i and out[i - 1][1] not in _OPERAND_BEFORE | {"¬", "√"}):
                continue
            e = _atom_after(out, i + 1)
            if e is None or (e + 1 < len(out) and out[e + 1][1] not in _OPERAND_AFTER | {"^"}):
                continue
            out[i : i + 1] = [("op", "√")]
            changed = True
        return out if changed else None

    return _every_prop(p, f)


def inv_as_one_div(p: Parts) -> Parts | None:
    """Every `x⁻¹` (an atom standing as an operand) as `(1 / x)` (Mathlib `one_div`, any `DivInvMonoid`). Not
    in a statement about `ZMod n`, which has `⁻¹` (`ZMod.inv`) but a `/` only as a field (`Fact n.Prime`)."""
    if any("ZMod" in t for b in p.binders for _, t in b) or any("ZMod" in t for _, t in p.conclusion):
        return None

    def f(toks: list[Tok]) -> list[Tok] | None:
        out, changed = list(toks), False
        for i in range(len(out) - 1, 0, -1):
            if out[i][1] != "⁻¹" or (i + 1 < len(out) and out[i + 1][1] not in _OPERAND_AFTER | {"^"}):
                continue
            if i + 1 < len(out) and out[i + 1][1] == "^":
                continue  # `x⁻¹ ^ n` is `(x⁻¹) ^ n`: kept simple
            s = _atom_before(out, i - 1)
            if s is None:
                continue
            out[s : i + 1] = _paren([("num", "1"), ("op", "/")] + out[s:i])
            changed = True
        return out if changed else None

    return _every_prop(p, f)


def explicit_binders(p: Parts) -> Parts | None:
    """Every implicit binder `{x : T}` made explicit `(x : T)`: a theorem's statement does not depend on
    which of its arguments are implicit."""
    if not any(b[0][1] == "{" for b in p.binders):
        return None
    q = p.copy()
    q.binders = [[("op", "(")] + b[1:-1] + [("op", ")")] if b[0][1] == "{" else b for b in p.binders]
    return q


def curry_all(p: Parts) -> Parts | None:
    """Every hypothesis moved into the conclusion, `(h₀ : A) (h₁ : B) : C` as `: A → B → C`, when no
    hypothesis is referred to by name (two or more hypotheses; one is `hyp_to_conclusion`)."""
    if len(p.hyps) < 2:
        return None
    names = {t for k in p.hyps for kind, t in _hyp(p.binders[k])[0] if kind == "ident"}
    rest = [t for k, b in enumerate(p.binders) if k not in p.hyps for _, t in b] + [t for _, t in p.conclusion]
    rest += [t for k in p.hyps for _, t in _hyp(p.binders[k])[1]]
    if any(t.partition(".")[0] in names for t in rest):
        return None
    q = p.copy()
    concl: list[Tok] = []
    for k in p.hyps:
        concl += _paren(_hyp(p.binders[k])[1]) + [("op", "→")]
    q.conclusion = concl + _paren(p.conclusion)
    q.binders = [b for k, b in enumerate(p.binders) if k not in p.hyps]
    q.hyps = []
    return q


def double_negation(p: Parts) -> Parts | None:
    """The conclusion `C` as `¬ ¬ C` (classical logic: Mathlib `not_not`)."""
    q = p.copy()
    q.conclusion = [("op", "¬"), ("op", "¬")] + _paren(p.conclusion)
    return q


_BINDS = frozenset({"∀", "∃", "∃!", "fun", "λ", "∑", "∏", "⋃", "⋂"})


def succ_notation(p: Parts) -> Parts | None:
    """Every `n + 1` of a ℕ variable `n` (standing as an operand) as `(Nat.succ n)` (`Nat.succ_eq_add_one`)."""
    nat = {v for v, t in _var_types(p).items() if t == "ℕ"}
    every = [b for k, b in enumerate(p.binders) if k in p.hyps] + [p.conclusion]
    # a name bound again inside the statement may have another type there
    rebound = {
        t for toks in every for i, (_, t) in enumerate(toks) if any(x[1] in _BINDS for x in toks[max(0, i - 4) : i])
    }
    nat -= rebound

    def f(toks: list[Tok]) -> list[Tok] | None:
        out, changed = list(toks), False
        for i in range(len(out) - 3, -1, -1):
            if (
                out[i][0] == "ident"
                and out[i][1] in nat
                and out[i + 1][1] == "+"
                and out[i + 2] == ("num", "1")
                and (i == 0 or out[i - 1][1] in _OPERAND_BEFORE - {"*", "/", "%", "^", "-", "+"})
                and (i + 3 == len(out) or out[i + 3][1] in _OPERAND_AFTER - {"*", "/", "%"})
            ):
                out[i : i + 3] = _paren([("ident", "Nat.succ"), out[i]])
                changed = True
        return out if changed else None

    return _every_prop(p, f)


_INTERVAL = {("≤", "≤"): "Set.Icc", ("<", "<"): "Set.Ioo", ("≤", "<"): "Set.Ico", ("<", "≤"): "Set.Ioc"}


def interval_membership(p: Parts) -> Parts | None:
    """Two neighbouring conjuncts `a ≤ x ∧ x ≤ b` (of a hypothesis or the conclusion; `x` one name) as
    `x ∈ Set.Icc a b`, and likewise `Set.Ioo`, `Set.Ico`, `Set.Ioc` (Mathlib `Set.mem_Icc`, `Set.mem_Ioo`, ...)."""

    def f(prop: list[Tok]) -> list[Tok] | None:
        parts = _conjuncts(prop)
        if parts is None or len(parts) < 2:
            return None
        for k in range(len(parts) - 1):
            c1, c2 = parts[k], parts[k + 1]
            r1, r2 = _top_relation(c1), _top_relation(c2)
            if r1 is None or r2 is None or (c1[r1][1], c2[r2][1]) not in _INTERVAL:
                continue
            x = c1[r1 + 1 :]
            if len(x) != 1 or x[0][0] != "ident" or c2[:r2] != x:
                continue
            lo, hi = c1[:r1], c2[r2 + 1 :]
            mem = x + [("op", "∈"), ("ident", _INTERVAL[(c1[r1][1], c2[r2][1])])] + _paren(lo) + _paren(hi)
            return _join_and(parts[:k] + [mem] + parts[k + 2 :])
        return None

    return _every_prop(p, f)


# tokens after which a bracketed operand of `+` / `*` is complete (nothing binds tighter to it)
_SUM_AFTER = frozenset({")", "]", "}", "=", "≠", "<", ">", "≤", "≥", "+", "-", ",", ":", "∧", "∨", "→", "↔", "∣", ":="})


def reassociate(p: Parts) -> Parts | None:
    """Every `a + (b + c)` as `a + b + c` (`add_assoc`) and `a * (b * c)` as `a * b * c` (`mul_assoc`), where the
    bracket holds only that operation (`a + (b - c)` is not `a + b - c` on ℕ) and nothing after it binds tighter."""

    def f(toks: list[Tok]) -> list[Tok] | None:
        out, changed = list(toks), False
        for i in range(len(out) - 1, 0, -1):
            op = out[i - 1][1]
            if op not in ("+", "*") or out[i][1] != "(":
                continue
            j = _close(out, i)
            if j is None or i < 2 or out[i - 2][1] in _OPERAND_BEFORE:
                continue
            after = _SUM_AFTER if op == "+" else _SUM_AFTER | {"*"}
            if j + 1 < len(out) and out[j + 1][1] not in after:
                continue
            top = [t for _, t in _depth0(out[i + 1 : j])]
            if op not in top or any(not (t == op or t.isidentifier() or t.replace(".", "").isdigit()) for t in top):
                continue
            out[i : j + 1] = out[i + 1 : j]
            changed = True
        return out if changed else None

    return _every_prop(p, f)


# types whose `*` need not distribute over `+` (pointwise operations on sets and filters, ideals, subgroups)
_NOT_DISTRIBUTIVE = ("Set", "Finset", "Filter", "Ideal", "Submodule", "Subgroup", "AddSubgroup", "Subring")


def distribute(p: Parts) -> Parts | None:
    """Every `a * (b + c)` (an atom times a bracket holding one `+` of two atoms) as `(a * b + a * c)` (Mathlib
    `mul_add`, any `Distrib`: ℕ, ℤ, ℝ, ℂ, polynomials, matrices), where nothing around the product binds tighter
    (`x / a * (b + c)` is `(x / a) * (b + c)`, `a * (b + c) ^ 2` squares the bracket only). Not in a statement
    about sets, filters or substructures, whose `*` and `+` are pointwise or lattice operations."""
    if any(t in _NOT_DISTRIBUTIVE for b in p.binders for _, t in b) or any(
        t in _NOT_DISTRIBUTIVE for _, t in p.conclusion
    ):
        return None

    def f(toks: list[Tok]) -> list[Tok] | None:
        out, changed = list(toks), False
        for i in range(len(out) - 2, 0, -1):
            if out[i][1] != "*" or out[i + 1][1] != "(":
                continue
            j = _close(out, i + 1)
            if j is None or (j + 1 < len(out) and out[j + 1][1] not in _SUM_AFTER | {"*"}):
                continue
            inner = out[i + 2 : j]
            if len(inner) != 3 or inner[1][1] != "+" or any(t[0] not in ("ident", "num") for t in (inner[0], inner[2])):
                continue
            if out[i - 1][0] not in ("ident", "num"):
                continue
            s = i - 1
            if s > 0 and (out[s - 1][1] not in _OPERAND_BEFORE or out[s - 1][1] in ("*", "/", "%", "^", "-")):
                continue
            a, b, c = out[s], inner[0], inner[2]
            out[s : j + 1] = _paren([a, ("op", "*"), b, ("op", "+"), a, ("op", "*"), c])
            changed = True
            break  # one product per proposition: the positions after it have moved
        return out if changed else None

    return _every_prop(p, f)


def sub_as_add(p: Parts) -> Parts | None:
    """In a statement about ℤ/ℚ/ℝ numbers only, the first equation `a - b = c` (a hypothesis, else the conclusion;
    names and numerals only, no casts) as `a = c + b` (`sub_eq_iff_eq_add`: not on ℕ, where `-` truncates)."""
    if not _all_of(p, {"ℤ", "ℚ", "ℝ"}):
        return None
    names = set(variables(p))

    def one(prop: list[Tok]) -> list[Tok] | None:
        r = _top_relation(prop)
        if r is None or prop[r][1] != "=":
            return None
        lhs, rhs = prop[:r], prop[r + 1 :]
        if any((k == "ident" and t not in names) or t in (":", "↑", "•") for k, t in prop):
            return None
        top = _depth0(lhs)
        adds = [
            k
            for k, t in top
            if t in ("+", "-") and k > 0 and (lhs[k - 1][0] in ("ident", "num") or lhs[k - 1][1] == ")")
        ]
        if not adds or lhs[adds[-1]][1] != "-" or any(t in _LOW for _, t in top):
            return None
        k = adds[-1]
        return lhs[:k] + [("op", "=")] + _paren(rhs) + [("op", "+")] + _paren(lhs[k + 1 :])

    q = None
    for k in p.hyps:
        names_h, prop = _hyp(p.binders[k])
        out = one(prop)
        if out is not None:
            q = p.copy()
            q.binders[k] = _paren(names_h + [("op", ":")] + out)
            return q
    out = one(p.conclusion)
    if out is not None:
        q = p.copy()
        q.conclusion = out
    return q


REWRITES: dict[str, Callable[[Parts], Parts | None]] = {
    "rename": rename,
    "reorder": reorder,
    "split_and": split_and,
    "merge_and": merge_and,
    "hyp_to_conclusion": hyp_to_conclusion,
    "swap_sides": swap_sides,
    "flip_relation": flip_relation,
    "ne_as_not_eq": ne_as_not_eq,
    "commute_product": commute_product,
    "shift_sum": shift_sum,
    "square_as_product": square_as_product,
    "double_as_sum": double_as_sum,
    "mirror_all": mirror_all,
    "le_as_not_lt": le_as_not_lt,
    "dvd_as_mod": dvd_as_mod,
    "parity_as_mod": parity_as_mod,
    "sqrt_notation": sqrt_notation,
    "inv_as_one_div": inv_as_one_div,
    "explicit_binders": explicit_binders,
    "curry_all": curry_all,
    "double_negation": double_negation,
    "succ_notation": succ_notation,
    "interval_membership": interval_membership,
    "reassociate": reassociate,
    "sub_as_add": sub_as_add,
    "distribute": distribute,
}


# ----------------------------------------------------------------------------------------------- mutations


class Mutation:
    """A meaning-changing transformation. `places(p)` yields its variants of `p`, each changed at one place: first
    the one the probe changes by default (the last literal, the first `+`, the first hypothesis, ...), then the other
    places in a fixed order (`variants(..., sites=N)`; without them a misreading of a later hypothesis or operand is
    never put to SymEq). Called, it gives that first variant, or None where it applies nowhere."""

    def __init__(self, places: Callable[..., Iterator[Parts]]) -> None:
        self.places = places
        update_wrapper(self, places)

    def __call__(self, p: Parts) -> Parts | None:
        return next(iter(self.places(p)), None)


def _each_site(toks: list[Tok], f: Callable[[list[Tok]], list[Tok] | None]) -> list[list[Tok]]:
    """Every distinct result of `f` at each place of `toks` it applies to. `f` changes its first place scanning
    forward (or its last, scanning backward); run on each suffix `toks[i:]` and each prefix `toks[:j]`, it reaches
    each place in turn. A window's result counts only where the window one token wider gives the same one, so that a
    place is never read without the token before or after it (`(x : ℝ)` after `∀` is a binder, not a cast)."""

    def on(window: list[Tok]) -> list[Tok] | None:
        try:
            return f(window)
        except (IndexError, TypeError):  # a window cut inside a term `f` reads past (`Finset.Icc a` at its end)
            return None

    n = len(toks)
    suffix: list[list[Tok] | None] = []
    for i in range(n):
        r = on(toks[i:])
        suffix.append(None if r is None else toks[:i] + r)
    prefix: list[list[Tok] | None] = [None]
    for j in range(1, n + 1):
        r = on(toks[:j])
        prefix.append(None if r is None else r + toks[j:])
    out: list[list[Tok]] = []
    for k, r in enumerate(suffix):
        if r is not None and (k == 0 or suffix[k - 1] == r) and r != toks and r not in out:
            out.append(r)
    for k in range(1, n + 1):
        r = prefix[k]
        if r is not None and (k == n or prefix[k + 1] == r) and r != toks and r not in out:
            out.append(r)
    return out


def _first_in_conclusion_or_hyps(p: Parts, f: Callable[[list[Tok]], list[Tok] | None]) -> Parts | None:
    """`f`'s change of the conclusion, else of the first hypothesis it applies to."""
    out = f(p.conclusion)
    if out is not None:
        q = p.copy()
        q.conclusion = out
        return q
    for k in p.hyps:
        names, prop = _hyp(p.binders[k])
        out = f(prop)
        if out is not None:
            q = p.copy()
            q.binders[k] = _paren(names + [("op", ":")] + out)
            return q
    return None


def _in_conclusion_or_hyps(p: Parts, f: Callable[[list[Tok]], list[Tok] | None]) -> Iterator[Parts]:
    """`f`'s change of the conclusion or of a hypothesis at each place: first `_first_in_conclusion_or_hyps`'s, then
    every place of the conclusion, then of each hypothesis (`_each_site`); nothing where the first finds none."""
    first = _first_in_conclusion_or_hyps(p, f)
    if first is None:
        return
    yield first
    for out in _each_site(p.conclusion, f):
        q = p.copy()
        q.conclusion = out
        yield q
    for k in p.hyps:
        names, prop = _hyp(p.binders[k])
        for out in _each_site(prop, f):
            q = p.copy()
            q.binders[k] = _paren(names + [("op", ":")] + out)
            yield q


@Mutation
def change_literal(p: Parts) -> Iterator[Parts]:
    """The last numeral of the conclusion (else of a hypothesis) plus one."""

    def one(toks: list[Tok]) -> list[Tok] | None:
        for i in range(len(toks) - 1, -1, -1):
            kind, t = toks[i]
            if kind == "num" and "." not in t and not (i > 0 and toks[i - 1][1] in ("^", "MOD", "ZMOD")):
                return toks[:i] + [("num", str(int(t) + 1))] + toks[i + 1 :]
        return None

    yield from _in_conclusion_or_hyps(p, one)


@Mutation
def change_relation(p: Parts) -> Iterator[Parts]:
    swap = {"<": "≤", "≤": "<", ">": "≥", "≥": ">", "=": "≠", "≠": "="}

    def one(toks: list[Tok]) -> list[Tok] | None:
        for k, t in _depth0(toks):
            if t in swap:
                return toks[:k] + [("op", swap[t])] + toks[k + 1 :]
        return None

    yield from _in_conclusion_or_hyps(p, one)


@Mutation
def drop_hypothesis(p: Parts) -> Iterator[Parts]:
    """Each hypothesis dropped, the first first; not one whose name the statement uses (`(x : n → R)` under a section
    `variable {n R : Type*}` read as a hypothesis: dropping a variable leaves its uses unbound, no statement)."""
    used = _free_names(p)[0] or set()
    for n, k in enumerate(p.hyps):
        names = {t for kind, t in _hyp(p.binders[k])[0] if kind == "ident"}
        if names & used:
            continue
        q = p.copy()
        del q.binders[k]
        q.hyps = p.hyps[:n] + [x - 1 for x in p.hyps[n + 1 :]]
        yield q


@Mutation
def change_type(p: Parts) -> Iterator[Parts]:
    """The first variable binder of type ℕ, ℤ or ℝ whose variables the statement uses gets another of the three (a
    variable that occurs nowhere else, as an Isabelle `fixes` may declare, changes no meaning with its type; nor one
    that every use rebinds, as `(x : ℤ) : ∃ x, P x` does). A variable that a type depends on (`(n : ℕ) (x : Fin n)`)
    keeps ℕ: `Fin n` of an integer is no Lean."""
    other = {"ℕ": "ℤ", "ℤ": "ℝ", "ℝ": "ℕ"}
    used, in_types = _free_names(p)
    for k, b in enumerate(p.binders):
        if k in p.hyps:
            continue
        inner = b[1:-1]
        names = {t for kind, t in inner[:-2] if kind == "ident"}
        if used is None:  # not read: any occurrence elsewhere counts
            rest = [t for j, c in enumerate(p.binders) if j != k for _, t in c] + [t for _, t in p.conclusion]
            uses = names & set(rest)
        else:
            uses = names & used
        if len(inner) >= 3 and inner[-2][1] == ":" and inner[-1][1] in other and uses and not names & in_types:
            for ty in (other[inner[-1][1]], other[other[inner[-1][1]]]):
                q = p.copy()
                q.binders[k] = b[:-2] + [("op", ty), b[-1]]
                yield q


def _free_names(p: Parts) -> tuple[set[str] | None, set[str]]:
    """The names the statement's hypotheses, conclusion and variable types use free, as SymEq's front-end reads them
    (a name bound by `∃ x` or `fun x` inside is not a use of the binder `x`), None when it cannot read them; and
    those its variables' types use."""
    try:
        raw = parse_lean(p.text())
    except (ParseError, ValueError, RecursionError):
        return None, set()
    out: set[str] = set()
    for t in [*raw.premises, *raw.conclusions]:
        out |= free_vars(t)
    in_types = {n for _, ty in raw.variables if ty is not None for n in type_names(ty)}
    return out | in_types, in_types


@Mutation
def widen_bound(p: Parts) -> Iterator[Parts]:
    """`Finset.range n` / `Finset.Icc a b` (and Ico, Set.Icc, ...) with the upper bound plus one."""
    heads = {
        "Finset.range",
        "Finset.Icc",
        "Finset.Ico",
        "Finset.Ioc",
        "Finset.Ioo",
        "Set.Icc",
        "Set.Ico",
        "Set.Ioc",
        "Set.Ioo",
    }

    def one(toks: list[Tok]) -> list[Tok] | None:
        for i, (_, t) in enumerate(toks):
            if t in heads:
                j = i + 1
                if t != "Finset.range":  # skip the lower bound
                    j = _close(toks, j) + 1 if toks[j][1] in OPEN else j + 1
                if j >= len(toks):
                    return None
                end = _close(toks, j) if toks[j][1] in OPEN else j
                hi = toks[j : end + 1]
                return toks[:j] + _paren(hi + [("op", "+"), ("num", "1")]) + toks[end + 1 :]
        return None

    yield from _in_conclusion_or_hyps(p, one)


@Mutation
def plus_to_minus(p: Parts) -> Iterator[Parts]:
    def one(toks: list[Tok]) -> list[Tok] | None:
        for i, (_, t) in enumerate(toks):
            if t == "+":
                return toks[:i] + [("op", "-")] + toks[i + 1 :]
        return None

    yield from _in_conclusion_or_hyps(p, one)


# Mutations that exercise more of the statement than literals and relations (each changes the meaning in
# general; where one happens to keep it, as `x - x` swapped, it says None or the pair is judged by hand).

_MUT_ATOM_END = ("ident", "num")
_MUT_OPERAND_BEFORE = {"(", "[", "{", "⟨", ",", ":", "=", "≠", "<", ">", "≤", "≥", "∧", "∨", "→", "↔", "¬", "+", "*"}
_MUT_OPERAND_AFTER = {")", "]", "}", "⟩", ",", "=", "≠", "<", ">", "≤", "≥", "∧", "∨", "→", "↔", "+", "-", ":="}


def _operand_left(toks: list[Tok], i: int) -> int | None:
    """Start of the atom (a name, a numeral or a bracketed group) that ends just before `i`, when nothing binds
    it from the left (no function applied to it, no tighter operator)."""
    if i == 0:
        return None
    kind, t = toks[i - 1]
    if t in CLOSE:
        depth, s = 0, i - 1
        while s >= 0:
            depth += toks[s][1] in CLOSE
            depth -= toks[s][1] in OPEN
            if depth == 0:
                break
            s -= 1
        if s < 0:
            return None
    elif kind in _MUT_ATOM_END:
        s = i - 1
    else:
        return None
    return s if s == 0 or toks[s - 1][1] in _MUT_OPERAND_BEFORE else None


def _operand_right(toks: list[Tok], i: int) -> int | None:
    """End (exclusive) of the atom that starts at `i + 1`, when nothing after it extends it."""
    if i + 1 >= len(toks):
        return None
    kind, t = toks[i + 1]
    if t in OPEN:
        e = _close(toks, i + 1)
        if e is None:
            return None
        e += 1
    elif kind in _MUT_ATOM_END:
        e = i + 2
    else:
        return None
    return e if e == len(toks) or toks[e][1] in _MUT_OPERAND_AFTER else None


@Mutation
def swap_operands(p: Parts, ops: tuple[str, ...] = ("-", "/", "%", "^", "∣")) -> Iterator[Parts]:
    """`a - b`, `a / b`, `a % b`, `a ^ b` or `a ∣ b` (`ops`) as `b - a`, ... (the first such with two atoms as
    operands, not two equal ones)."""

    def one(toks: list[Tok]) -> list[Tok] | None:
        for i, (_, t) in enumerate(toks):
            if t not in ops:
                continue
            s, e = _operand_left(toks, i), _operand_right(toks, i)
            if s is None or e is None or toks[s:i] == toks[i + 1 : e]:
                continue
            return toks[:s] + toks[i + 1 : e] + [toks[i]] + toks[s:i] + toks[e:]
        return None

    yield from _in_conclusion_or_hyps(p, one)


def _replace_op(p: Parts, table: dict[str, str]) -> Iterator[Parts]:
    """The first binary operator of `table` into its image (wherever it stands: any of them changes the meaning)."""

    def one(toks: list[Tok]) -> list[Tok] | None:
        for i, (_, t) in enumerate(toks):
            if t in table and i > 0 and toks[i - 1][1] not in ("Type", "Sort"):
                return toks[:i] + [("op", table[t])] + toks[i + 1 :]
        return None

    yield from _in_conclusion_or_hyps(p, one)


@Mutation
def times_to_plus(p: Parts) -> Iterator[Parts]:
    """The first binary `*` into `+`."""
    yield from _replace_op(p, {"*": "+"})


@Mutation
def div_to_times(p: Parts) -> Iterator[Parts]:
    """The first binary `/` into `*`."""
    yield from _replace_op(p, {"/": "*"})


@Mutation
def change_exponent(p: Parts) -> Iterator[Parts]:
    """The first numeral exponent `x ^ 2` plus one (`change_literal` leaves exponents alone)."""

    def one(toks: list[Tok]) -> list[Tok] | None:
        for i in range(1, len(toks)):
            if toks[i][0] == "num" and "." not in toks[i][1] and toks[i - 1][1] == "^":
                return toks[:i] + [("num", str(int(toks[i][1]) + 1))] + toks[i + 1 :]
        return None

    yield from _in_conclusion_or_hyps(p, one)


def _first_token(p: Parts, table: dict[str, str]) -> Iterator[Parts]:
    """The first token of `table` (in the conclusion, else a hypothesis) into its image."""

    def one(toks: list[Tok]) -> list[Tok] | None:
        for i, (kind, t) in enumerate(toks):
            if t in table:
                return toks[:i] + [(kind, table[t])] + toks[i + 1 :]
        return None

    yield from _in_conclusion_or_hyps(p, one)


@Mutation
def swap_quantifier(p: Parts) -> Iterator[Parts]:
    """The first `∀` into `∃` or `∃` into `∀`."""
    yield from _first_token(p, {"∀": "∃", "∃": "∀"})


@Mutation
def swap_connective(p: Parts) -> Iterator[Parts]:
    """The first `∧` into `∨`, `∨` into `∧` or `↔` into `→`."""
    yield from _first_token(p, {"∧": "∨", "∨": "∧", "↔": "→"})


@Mutation
def negate_conclusion(p: Parts) -> Iterator[Parts]:
    """`C` into `¬ (C)`."""
    q = p.copy()
    q.conclusion = [("op", "¬")] + _paren(p.conclusion)
    yield q


@Mutation
def swap_variable(p: Parts) -> Iterator[Parts]:
    """The first occurrence in the conclusion of a variable declared with another of the same type (`(x y : ℝ)`,
    or two groups of one type) into that other variable."""
    typed: dict[str, str] = {}
    for k, b in enumerate(p.binders):
        if k in p.hyps or b[0][1] != "(":
            continue
        inner = b[1:-1]
        colon = next((j for j, (_, t) in enumerate(inner) if t == ":"), None)
        if colon is None:
            continue
        ty = _join(inner[colon + 1 :])
        for kind, t in inner[:colon]:
            if kind == "ident":
                typed[t] = ty
    # the other variable must occur in the statement (else the change is a renaming, `x ^ 2 ≥ 0` as `y ^ 2 ≥ 0`)
    used = {t for _, t in p.conclusion} | {t for k in p.hyps for _, t in _hyp(p.binders[k])[1]}
    for i, (kind, t) in enumerate(p.conclusion):
        if kind == "ident" and t in typed and "Type" not in typed[t] and "Sort" not in typed[t]:
            other = next((v for v, ty in typed.items() if v != t and ty == typed[t] and v in used), None)
            if other is not None:
                q = p.copy()
                q.conclusion = p.conclusion[:i] + [("ident", other)] + p.conclusion[i + 1 :]
                yield q
                return


_SIBLINGS = {
    "Real.sin": "Real.cos",
    "Real.cos": "Real.sin",
    "Real.tan": "Real.sin",
    "Real.log": "Real.exp",
    "Real.exp": "Real.log",
    "Real.sqrt": "Real.log",
    "Real.logb": "Real.rpow",
    "Int.floor": "Int.ceil",
    "Int.ceil": "Int.floor",
    "Nat.floor": "Nat.ceil",
    "Nat.ceil": "Nat.floor",
    "Nat.gcd": "Nat.lcm",
    "Nat.lcm": "Nat.gcd",
    "Int.gcd": "Int.lcm",
    "Int.lcm": "Int.gcd",
    "gcd": "lcm",
    "lcm": "gcd",
    "max": "min",
    "min": "max",
    "∑": "∏",
    "∏": "∑",
    "Even": "Odd",
    "Odd": "Even",
    "IsLeast": "IsGreatest",
    "IsGreatest": "IsLeast",
    "Nat.divisors": "Nat.properDivisors",
    "Nat.properDivisors": "Nat.divisors",
    "Finset.Icc": "Finset.Ico",
    "Finset.Ico": "Finset.Icc",
    "Finset.Ioc": "Finset.Icc",
    "Finset.Ioo": "Finset.Icc",
    "Set.Icc": "Set.Ico",
    "Set.Ico": "Set.Icc",
    "Set.Ioc": "Set.Icc",
    "Set.Ioo": "Set.Icc",
    "Function.Injective": "Function.Surjective",
    "Function.Surjective": "Function.Injective",
    "IsOpen": "IsClosed",
    "IsClosed": "IsOpen",
    "sSup": "sInf",
    "sInf": "sSup",
    "⌊": "⌈",
    "⌈": "⌊",
    "⌋": "⌉",
    "⌉": "⌋",
}


@Mutation
def swap_function(p: Parts, siblings: dict[str, str] = _SIBLINGS) -> Iterator[Parts]:
    """The first named function, big operator or interval with a sibling (`Real.sin`/`Real.cos`, `Int.floor`/
    `Int.ceil`, `Nat.gcd`/`Nat.lcm`, `∑`/`∏`, `Finset.Icc`/`Finset.Ico`, `⌊x⌋`/`⌈x⌉`, ...) into the sibling
    (`siblings`: another language's names)."""
    closing = {"⌊": "⌋", "⌈": "⌉"}

    def one(toks: list[Tok]) -> list[Tok] | None:
        for i, (kind, t) in enumerate(toks):
            if t in closing:  # `⌊x⌋` (not `⌊x⌋₊`, whose closing is a token of its own) as `⌈x⌉`
                e = next((j for j in range(i + 1, len(toks)) if toks[j][1] in ("⌋", "⌉", "⌋₊", "⌉₊")), None)
                if e is None or toks[e][1] != closing[t]:
                    continue
                return (
                    toks[:i] + [(kind, siblings[t])] + toks[i + 1 : e] + [(kind, siblings[toks[e][1]])] + toks[e + 1 :]
                )
            if t in siblings and t not in ("⌋", "⌉"):
                return toks[:i] + [(kind, siblings[t])] + toks[i + 1 :]
        return None

    yield from _in_conclusion_or_hyps(p, one)


_BINDER_BEFORE = {"∀", "∃", "∃!", "fun", "λ", "∑", "∏", ")"}  # `∃ (c : ℝ) (w : ℂ),`: binders, no ascriptions


@Mutation
def drop_cast(p: Parts) -> Iterator[Parts]:
    """The first type ascription `(e : ℝ)` (ℕ, ℤ, ℚ, ℝ, ℂ) as `(e)`, else the first `↑e` as `e`."""
    numeric = {"ℕ", "ℤ", "ℚ", "ℝ", "ℂ"}

    def one(toks: list[Tok]) -> list[Tok] | None:
        for i in range(len(toks) - 3):
            if toks[i][1] == "(" and (i == 0 or toks[i - 1][1] not in _BINDER_BEFORE):
                e = _close(toks, i)
                if e is not None and e - i >= 4 and toks[e - 2][1] == ":" and toks[e - 1][1] in numeric:
                    if all(t != ":" for _, t in _depth0(toks[i + 1 : e - 2])):
                        return toks[: e - 2] + toks[e:]
        for i, (_, t) in enumerate(toks):
            if t == "↑":
                return toks[:i] + toks[i + 1 :]
        return None

    yield from _in_conclusion_or_hyps(p, one)


MUTATIONS: dict[str, Mutation] = {
    "change_literal": change_literal,
    "change_relation": change_relation,
    "drop_hypothesis": drop_hypothesis,
    "change_type": change_type,
    "widen_bound": widen_bound,
    "plus_to_minus": plus_to_minus,
    "swap_operands": swap_operands,
    "times_to_plus": times_to_plus,
    "div_to_times": div_to_times,
    "change_exponent": change_exponent,
    "swap_quantifier": swap_quantifier,
    "swap_connective": swap_connective,
    "negate_conclusion": negate_conclusion,
    "swap_variable": swap_variable,
    "swap_function": swap_function,
    "drop_cast": drop_cast,
}


def preamble(text: str) -> str:
    """What comes before the theorem's keyword (imports, `open`s, `variable`s, `def`s, its `@[...]` and `open ... in`
    prefixes), comments removed: a variant keeps it, since the `open`s decide what a bare name is (`open Real` makes
    `cos` Real.cos) and the rest what the statement's names are."""
    body = strip_comments(text)
    try:
        st = read_statement(body)
    except ParseError:
        return ""
    return body[: st.main.tokens[st.main.head].start]


def apply(f: Callable[[Parts], Parts | None], p: Parts, sites: int = 1) -> list[Parts]:
    """`f`'s variants of `p`: the one `f` gives, and for a `Mutation` with `sites` > 1 up to `sites` - 1 more from the
    other places it applies to (spread evenly over them, in a fixed order), each changed at one place only."""
    if not isinstance(f, Mutation):  # a rewrite: one variant
        q = f(p)
        return [] if q is None else [q]
    places = iter(f.places(p))
    first = next(places, None)
    if first is None:
        return []
    if sites <= 1:
        return [first]
    seen, rest = {first.text()}, []
    for q in places:  # each distinct place once, the first excepted
        if (t := q.text()) not in seen:
            seen.add(t)
            rest.append(q)
    step = max(1, -(-len(rest) // (sites - 1)))
    return [first] + rest[::step][: sites - 1]


def variants(
    text: str,
    kinds: dict[str, Callable[[Parts], Parts | None]],
    sites: int = 1,
    cut: Callable[[str], Parts | None] = cut,
    head: str | None = None,
) -> dict[str, str]:
    """name -> variant text for each transformation in `kinds` that applies to the statement (with its preamble,
    or `head`); with `sites` > 1, up to that many places per transformation, the first under `name` and the others
    under `name#2`, `name#3`, ... (`cut`: another language's statement cutter)."""
    p = cut(text)
    if p is None:
        return {}
    head = preamble(text) if head is None else head
    out = {}
    for name, f in kinds.items():
        for n, q in enumerate(apply(f, p, sites), 1):
            out[name if n == 1 else f"{name}#{n}"] = head + q.text()
    return out
