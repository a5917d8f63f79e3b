"""Metamorphic variants of an Isabelle/HOL statement (`theorem fixes ... assumes ... shows ...`), for probing
SymEq's Isabelle front-end as `atf.symeq.metamorphic` probes the Lean one.

The statement is cut into the same `Parts` the Lean transformations work on: each `fixes x y :: T` is a
variable binder `( x y : T )` (nat/int/rat/real/complex written ℕ/ℤ/ℚ/ℝ/ℂ, any other type one token kept as
written), each `assumes h: "P"` a hypothesis binder `( h : P )`, the `shows` proposition the conclusion. The
propositions are Isabelle's inner-syntax tokens (`isabelle_frontend.tokenize`), with the connectives,
relations and binders spelled as Lean spells them (`\\<le>` as `≤`, `\\<forall>` as `∀`, `\\<Sum>` as `∑`,
`\\<lfloor>` as `⌊`), so the Lean module's token-level transformations apply unchanged; `IsaParts.text`
writes the variant back in Isabelle's symbols. Only the transformations whose reading is the same in both
languages are used (not `dvd_as_mod`: `%` is Isabelle's λ; not the Mathlib names), plus Isabelle's own:
the bound of an interval `{a..b}` / `{a..<b}` / `{..<n}` widened, a sibling function of HOL's library
(`sin`/`cos`, `ln`/`exp`, `floor`/`ceiling`, ...), an ascription `(e :: real)` or a cast `real e` dropped,
`^` into `powr` (or back), which differ at a negative base, a cast pushed through `-` / `div` (a meaning change on
nat); and one rewrite, a cast pushed through `+` / `*`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import partial

from atf.symeq import isabelle_frontend
from atf.symeq import metamorphic as lean
from atf.symeq.ir import ParseError
from atf.symeq.isabelle_frontend import (
    ELEMENT_WORDS,
    SYMBOLS,
    THEOREM_WORDS,
    _outer_tokens,
    _skip_name,
    tokenize,
)
from atf.symeq.metamorphic import (
    Mutation,
    Parts,
    Tok,
    _close,
    _in_conclusion_or_hyps,
    _paren,
)

# Isabelle's canonical token (as `tokenize` gives it) -> the Lean spelling the Lean transformations look for
_AS_LEAN = {
    "<=": "≤",
    ">=": "≥",
    "~=": "≠",
    "&": "∧",
    "|": "∨",
    "~": "¬",
    "-->": "→",
    "<->": "↔",
    "ALL": "∀",
    "EX": "∃",
    "SUM": "∑",
    "PROD": "∏",
    "LAMBDA": "λ",
    "LFLOOR": "⌊",
    "RFLOOR": "⌋",
    "LCEIL": "⌈",
    "RCEIL": "⌉",
    "dvd": "∣",
}
_FROM_LEAN = {v: k for k, v in _AS_LEAN.items()}
# canonical token -> Isabelle symbol (`ALL` -> `\<forall>`), for the variant's text
# (only the canonical words that are no Isabelle ASCII syntax: `<=`, `&`, `-->`, `*` are written as they are)
_ISABELLE = {}
for _sym, _canon in SYMBOLS.items():
    if _sym.startswith("\\<") and _canon.isupper():
        _ISABELLE.setdefault(_canon, _sym)
_TYPES = {"nat": "ℕ", "int": "ℤ", "rat": "ℚ", "real": "ℝ", "complex": "ℂ"}
_TYPE_NAMES = {v: k for k, v in _TYPES.items()}


def _lean_tokens(prop: str) -> list[Tok]:
    return [(kind, _AS_LEAN.get(t, t) if kind == "op" else t) for kind, t in tokenize(prop)]


def _isabelle(toks: list[Tok]) -> str:
    out = []
    for kind, t in toks:
        if kind == "sup":
            out.append("\\<^sup>" + t)
        elif kind == "op":
            t = _FROM_LEAN.get(t, t)
            out.append(_ISABELLE.get(t, t))
        else:
            out.append(t)
    return " ".join(out)


class IsaParts(Parts):
    """`Parts` of an Isabelle statement: `preamble` (definitions before the theorem) kept as written."""

    preamble: str = ""

    def copy(self) -> IsaParts:
        q = IsaParts(self.name, [list(b) for b in self.binders], list(self.conclusion), list(self.hyps))
        q.preamble = self.preamble
        return q

    def text(self) -> str:
        fixes, assumes = [], []
        for k, b in enumerate(self.binders):
            names, body = lean._hyp(b)
            if k in self.hyps:
                assumes.append(f'{names[0][1]}: "{_isabelle(body)}"')
            else:
                ty = " ".join(_TYPE_NAMES.get(t, t) for _, t in body)
                fixes.append(" ".join(t for _, t in names) + (f' :: "{ty}"' if ty else ""))
        out = self.preamble + "theorem " + self.name
        if fixes:
            out += "\n  fixes " + " and ".join(fixes)
        if assumes:
            out += "\n  assumes " + "\n    and ".join(assumes)
        return out + f'\n  shows "{_isabelle(self.conclusion)}"'


def _fixes(toks: list[tuple[str, str]], i: int) -> tuple[list[list[Tok]], int] | None:
    """The `fixes` groups as binders `( x y : T )` (None for a mixfix annotation or anything unusual)."""
    out = []
    while True:
        names = []
        while i < len(toks) and toks[i][0] == "word" and toks[i][1] not in ELEMENT_WORDS | {"::", "(", ")"}:
            names.append(("ident", toks[i][1]))
            i += 1
        if not names:
            return None
        ty: list[Tok] = []
        if i < len(toks) and toks[i] == ("word", "::"):
            if i + 1 >= len(toks):
                return None
            raw = " ".join(toks[i + 1][1].split())
            ty = [("op", _TYPES[raw]) if raw in _TYPES else ("type", raw)]
            i += 2
        if i < len(toks) and toks[i] == ("word", "("):
            return None
        out.append(_paren(names + [("op", ":")] + ty))
        if i < len(toks) and toks[i] == ("word", "and"):
            i += 1
            continue
        return out, i


def _props(toks: list[tuple[str, str]], i: int, label: str, start: int = 0) -> tuple[list[list[Tok]], int]:
    """Hypothesis binders `( h0 : P )` for the quoted propositions from `i` (the front-end's reading; their own
    names are not kept: `label` numbered from `start`)."""
    props, i = isabelle_frontend._props(toks, i, [])
    binders = [
        _paren([("ident", f"{label}{start + k}"), ("op", ":")] + _lean_tokens(prop)) for k, prop in enumerate(props)
    ]
    return binders, i


def cut(text: str) -> IsaParts | None:
    """The statement's parts, or None when it is not `theorem [name:] [fixes] [assumes] shows "P"` with one
    conclusion (or `theorem "P"`), or a proposition does not tokenize."""
    toks = _outer_tokens(text)
    start = next((k for k, (kind, w) in enumerate(toks) if kind == "word" and w in THEOREM_WORDS), None)
    if start is None:
        return None
    m = re.search(r"(?<![\w.])(theorem|lemma|corollary|proposition)(?![\w.'])", text)
    preamble = text[: m.start()] if m else ""
    i = start + 1
    name = "t"
    if i < len(toks) and toks[i][0] == "word" and toks[i][1] not in ELEMENT_WORDS:
        j = _skip_name(toks, i)
        if j != i:
            name, i = toks[i][1], j
    binders: list[list[Tok]] = []
    hyps: list[int] = []
    conclusion: list[list[Tok]] = []
    try:
        while i < len(toks):
            kind, word = toks[i]
            if kind == "str" and not conclusion and not binders:
                conclusion, i = _props(toks, i, "c")
            elif word == "fixes":
                got = _fixes(toks, i + 1)
                if got is None:
                    return None
                binders += got[0]
                i = got[1]
            elif word == "assumes":
                got_h, i = _props(toks, i + 1, "h", len(hyps))
                hyps += range(len(binders), len(binders) + len(got_h))
                binders += got_h
            elif word == "shows":
                conclusion, i = _props(toks, i + 1, "c")
                break
            else:
                return None  # defines, obtains, includes, ...: not cut
            if conclusion:
                break
    except ParseError:
        return None
    if len(conclusion) != 1:
        return None
    p = IsaParts(name, binders, lean._hyp(conclusion[0])[1], hyps)
    p.preamble = preamble
    return p


# ----------------------------------------------------------------------------------------------- Isabelle's own


@Mutation
def widen_bound(p: Parts) -> Iterator[Parts]:
    """The upper bound of the first interval `{a..b}`, `{a..<b}`, `{..<n}`, `{..n}` plus one (Set_Interval.thy
    `atLeastAtMost`, `atLeastLessThan`, `lessThan`, `atMost`)."""

    def one(toks: list[Tok]) -> list[Tok] | None:
        for i, (_, t) in enumerate(toks):
            if t in ("..", "..<") and i + 1 < len(toks):
                j = i + 1
                end = _close(toks, j) if toks[j][1] in lean.OPEN else j
                if end is None or end + 1 >= len(toks) or toks[end + 1][1] != "}":
                    continue
                return toks[: i + 1] + _paren(toks[j : end + 1] + [("op", "+"), ("num", "1")]) + toks[end + 1 :]
        return None

    yield from _in_conclusion_or_hyps(p, one)


# HOL's library names (Transcendental.thy, Archimedean_Field.thy, GCD.thy, Lattices.thy, Parity.thy)
SIBLINGS = {
    "sin": "cos",
    "cos": "sin",
    "tan": "sin",
    "ln": "exp",
    "exp": "ln",
    "sqrt": "ln",
    "log": "powr",
    "floor": "ceiling",
    "ceiling": "floor",
    "gcd": "lcm",
    "lcm": "gcd",
    "max": "min",
    "min": "max",
    "even": "odd",
    "odd": "even",
    "∑": "∏",
    "∏": "∑",
    "Max": "Min",
    "Min": "Max",
    "⌊": "⌈",
    "⌈": "⌊",
    "⌋": "⌉",
    "⌉": "⌋",
}
_CASTS = {("ident", c) for c in ("real", "int", "nat", "of_nat", "of_int", "real_of_nat", "real_of_int")}


@Mutation
def drop_cast(p: Parts) -> Iterator[Parts]:
    """The first ascription `(e :: real)` (nat, int, rat, real, complex) as `(e)`, else the first cast `real e`
    (`of_nat`, `int`, `nat`, ...) as `e`."""

    def one(toks: list[Tok]) -> list[Tok] | None:
        for i in range(len(toks) - 1):
            if toks[i][1] == "::" and toks[i + 1][1] in _TYPES:
                return toks[:i] + toks[i + 2 :]
        for i in range(len(toks) - 1):
            if toks[i] in _CASTS and toks[i + 1][1] not in (")", "::", "=", ","):
                return toks[:i] + toks[i + 1 :]
        return None

    yield from _in_conclusion_or_hyps(p, one)


@Mutation
def pow_powr(p: Parts) -> Iterator[Parts]:
    """The first `x ^ n` as `x powr n`, else the first `x powr a` as `x ^ a`, where the base is no numeral: Power.thy
    `power` and Transcendental.thy `powr` (`x powr a = (if x = 0 then 0 else exp (a * ln x))`) differ at a negative
    base (`(-2) ^ 2 = 4`, while `(-2) powr 2 = exp (2 * ln (-2))`, `ln` of a negative number being unspecified)."""
    for a, b in (("^", "powr"), ("powr", "^")):

        def one(toks: list[Tok], a: str = a, b: str = b) -> list[Tok] | None:
            for i in range(1, len(toks)):
                if toks[i][1] == a and toks[i - 1][0] != "num":
                    return toks[:i] + [("op", b)] + toks[i + 1 :]
            return None

        places = _in_conclusion_or_hyps(p, one)
        first = next(places, None)
        if first is not None:  # `^` wherever there is one; `powr` only where there is no `^`
            yield first
            yield from places
            return


_PUSHED = {"-": "-", "div": "/", "+": "+", "*": "*"}


def _push_cast(p: Parts, ops: set[str]) -> Iterator[Parts]:
    """The first cast of two atoms `real ( a OP b )` (`int`, `of_nat`, ... too) as `( real a OP' b )`, OP in `ops`
    (`div` pushed as `/`)."""

    def one(toks: list[Tok]) -> list[Tok] | None:
        for i in range(len(toks) - 5):
            c, o, a, op, b, e = toks[i : i + 6]
            if (
                c in _CASTS
                and o[1] == "("
                and e[1] == ")"
                and a[0] in ("ident", "num")
                and b[0] in ("ident", "num")
                and op[1] in ops
            ):
                pushed = [c, a, ("op", _PUSHED[op[1]]), c, b]
                return toks[:i] + _paren(pushed) + toks[i + 6 :]
        return None

    yield from _in_conclusion_or_hyps(p, one)


@Mutation
def push_cast_sub(p: Parts) -> Iterator[Parts]:
    """`real ( a - b )` as `( real a - real b )`, `real ( a div b )` as `( real a / real b )`: equal on int, not
    on nat, whose `-` truncates at 0 (Nat.thy `diff_nat`) and whose `div` rounds down (Euclidean_Division)."""
    yield from _push_cast(p, {"-", "div"})


def push_cast_add(p: Parts) -> Parts | None:
    """`real ( a + b )` as `( real a + real b )` (and `*`): Nat.thy / Int.thy `of_nat_add`, `of_nat_mult`."""
    return next(_push_cast(p, {"+", "*"}), None)


REWRITES: dict[str, Callable[[Parts], Parts | None]] = {
    k: lean.REWRITES[k]
    for k in (
        "rename",
        "reorder",
        "split_and",
        "merge_and",
        "hyp_to_conclusion",
        "swap_sides",
        "flip_relation",
        "ne_as_not_eq",
        "commute_product",
        "mirror_all",
        "le_as_not_lt",
        "curry_all",
        "double_negation",
        "reassociate",
    )
} | {"push_cast_add": push_cast_add}
MUTATIONS: dict[str, Mutation] = {
    **{
        k: lean.MUTATIONS[k]
        for k in (
            "change_literal",
            "change_relation",
            "drop_hypothesis",
            "change_type",
            "plus_to_minus",
            "times_to_plus",
            "div_to_times",
            "change_exponent",
            "swap_quantifier",
            "swap_connective",
            "negate_conclusion",
            "swap_variable",
        )
    },
    # Power.thy `^`, Transcendental.thy `powr`, Divides `div`/`mod`, Rings.thy `dvd`; and the sides of `<`
    "swap_operands": Mutation(partial(lean.swap_operands.places, ops=("-", "/", "^", "powr", "div", "mod", "∣", "<"))),
    "widen_bound": widen_bound,
    "swap_function": Mutation(partial(lean.swap_function.places, siblings=SIBLINGS)),
    "drop_cast": drop_cast,
    "pow_powr": pow_powr,
    "push_cast_sub": push_cast_sub,
}


def variants(text: str, kinds: dict[str, Callable[[Parts], Parts | None]], sites: int = 1) -> dict[str, str]:
    """name -> variant text for each transformation in `kinds` that applies to the statement (`lean.variants`, with
    Isabelle's cutter and no preamble)."""
    return lean.variants(text, kinds, sites, cut=cut, head="")
