"""Lean 4 front-end: `theorem name (x y : ℝ) (h₀ : ...) : conclusion := ...` into the logic IR.

The statement's structure (header, the last theorem/lemma/example, its binders and conclusion) comes from
`atf.lean.statement`, the project's one reader of Lean statements; this module parses only the
expressions inside. Its bracketed binders are sorted into variables (their type is a type: ℝ, ℕ → ℝ,
Finset ℕ, a declared `Type*`) and hypotheses (their type is a proposition), instance binders `[Group G]` become opaque
premises, and type variables are renamed by position (`(G : Type*)` and `(H : Type*)` read alike).

Expressions are read by a Pratt parser with Lean 4 / Mathlib precedences: `∀ ∃ ∃! fun λ`, `∧ ∨ ¬ → ↔`,
`= ≠ < > ≤ ≥ ∈ ∉ ∣`, `+ - * / % ^`, `|x|`, `√x`, `x⁻¹`, `n !`, `↑x`, `(x : ℝ)`, `⌊x⌋ ⌈x⌉ ⌊x⌋₊`,
`∑ i in s, f i` / `∑ i ∈ s, f i`, `{x | P x}`, `{a, b}`, `(· + 1)`, `if c then a else b`, dot notation
(`n.factorial`, `(Finset.range n).card`, `p.Prime`), `a ≡ b [MOD n]`, Mathlib's structure arrows as the
structures they denote (`A × B ≃* B × A` is `MulEquiv (A × B) (B × A)`, in types too), `Xˣ`, `⋃₀ s`, `⇑f`,
`f = fun x => c` as `∀ x, f x = c`. Anything else becomes an Opaque term; a hypothesis or conclusion that does
not parse at all becomes one opaque proposition. `lean_predicates` then reads Mathlib predicates (`CommGroup G`,
`Function.Injective f`, ...) as the propositions they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction

from atf.lean import lexer as lean_lexer
from atf.lean import statement as lean_statement
from atf.lean.statement import LeanStatement
from atf.symeq import builtins, ir, lean_predicates
from atf.symeq.ir import App, Bind, Num, ParseError, RawStatement, Term, TokenCursor, Ty, Var, opaque_from_tokens

# Identifiers are Lean's (atf.lean.lexer, after Init/Meta `isIdFirst`, `isIdRest`, `isLetterLike`): `ᶜ`, `ᵀ`, `ᵒᵈ` are
# no identifier characters there, so `Aᶜ` is `A` and the postfix `ᶜ` (read as one name `Aᶜ`, an opaque set unrelated
# to A, it merged `A = Set.Icc 0 1 → 2 ∈ Aᶜ` with `A = Set.Icc 0 3 → 2 ∈ Aᶜ`)
_IDENT = lean_lexer.IDENT
_OPS = sorted(
    [
        ":=",
        "↔",
        "→",
        "->",
        "<->",
        "←",
        "∧",
        "∨",
        "¬",
        "≠",
        "≤",
        "≥",
        "<=",
        ">=",
        "<",
        ">",
        "=",
        "==",
        "+",
        "-",
        "*",
        "/",
        "%",
        "^",
        "∣",
        "|",
        "∑",
        "∏",
        "√",
        "∀",
        "∃!",
        "∃",
        "λ",
        "=>",
        "↦",
        "⁻¹",
        "^[",
        "![",
        "!",
        "↑",
        "↥",
        "⌊",
        "⌋₊",
        "⌋",
        "⌈",
        "⌉₊",
        "⌉",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        "⟨",
        "⟩",
        ",",
        ":",
        "∈",
        "∉",
        "⊆",
        "⊂",
        "∩",
        "∪",
        "\\",
        "×",
        "•",
        "∘",
        "·",
        "..",
        ".",
        "$",
        "<|",
        "|>",
        "&&",
        "||",
        "≡",
        "‖",
        "⦃",
        "⦄",
        "@",
        "#",
        "∞",
        "ᶜ",
        "'",
        "∫",
        "∂",
        "≃",
        "≅",
        "⊤",
        "⊥",
        "∅",
        "⋃",
        "⋂",
        "∖",
        "⁺",
        "ᵀ",
        "†",
        "…",
        "?",
        "_",
        "''",
        "⁻¹'",
        "⊓",
        "⊔",
        "⨆",
        "⨅",
        "⧸",
        "→*",
        "→+",
        "→+*",
        "≃*",
        "≃+",
        "≃+*",
        "≃ₜ",
        "≃o",
        "→o",
        "×ˢ",
        "⇑",
        "⋃₀",
        "⋂₀",
        "∑'",
        "∏'",
        "//",
    ],
    key=len,
    reverse=True,
)
# Mathlib's arrows of structure-preserving maps, each the structure it denotes, applied to its two sides:
#   infixr:25 " →* " => MonoidHom, infixr:25 " →+ " => AddMonoidHom       (Mathlib/Algebra/Group/Hom/Defs.lean)
#   infixr:25 " →+* " => RingHom                                          (Mathlib/Algebra/Ring/Hom/Defs.lean)
#   infixl:25 " ≃* " => MulEquiv, infixl:25 " ≃+ " => AddEquiv           (Mathlib/Algebra/Group/Equiv/Defs.lean)
#   infixl:25 " ≃+* " => RingEquiv (Mathlib/Algebra/Ring/Equiv.lean), infixl:25 " ≃ " => Equiv
#   (Mathlib/Logic/Equiv/Defs.lean), infixl:25 " ≃ₜ " => Homeomorph (Mathlib/Topology/Homeomorph/Defs.lean)
#   infixr:25 " →o " => OrderHom, infixl:25 " ≃o " => OrderIso                   (Mathlib/Order/Hom/Basic.lean)
# token -> (left bp, right bp, structure): infixr:25 reads its right side at 25 (bp 24 here), infixl:25 at 26
ARROWS: dict[str, tuple[int, int, str]] = {
    "→*": (25, 24, "MonoidHom"),
    "→+": (25, 24, "AddMonoidHom"),
    "→+*": (25, 24, "RingHom"),
    "≃*": (25, 26, "MulEquiv"),
    "≃+": (25, 26, "AddEquiv"),
    "≃+*": (25, 26, "RingEquiv"),
    "≃": (25, 26, "Equiv"),
    "≃ₜ": (25, 26, "Homeomorph"),
    "→o": (25, 24, "OrderHom"),
    "≃o": (25, 26, "OrderIso"),
}
# The arrows over a ring, `M →ₗ[R] N`, with the structure's leading argument built from R:
#   notation:25 M " →ₗ[" R:25 "] " M₂:0 => LinearMap (RingHom.id R) M M₂   (Mathlib/Algebra/Module/LinearMap/Defs.lean)
#   notation:50 M " ≃ₗ[" R "] " M₂ => LinearEquiv (RingHom.id R) M M₂       (Mathlib/Algebra/Module/Equiv/Defs.lean)
#   notation:25 A " →ₐ[" R "] " B => AlgHom R A B, notation:50 A " ≃ₐ[" R "] " A' => AlgEquiv R A A'
#   notation:25 M " →L[" R "] " M₂ => ContinuousLinearMap (RingHom.id R) M M₂  (Mathlib/Topology/Algebra/Module/...)
# An argument a notation does not annotate is read at precedence 0, so the right side extends as far as it can.
# token (Lean's token includes the `[`; here `[` stays a token of its own so that brackets balance, and a text
# that joins tokens with spaces, `→ₗ [R]`, reads the same) ->
# (left bp, bp of R, structure, whether R enters as `RingHom.id R`)
SCALAR_ARROWS: dict[str, tuple[int, int, str, bool]] = {
    "→ₗ": (25, 25, "LinearMap", True),
    "≃ₗ": (50, 0, "LinearEquiv", True),
    "→ₐ": (25, 0, "AlgHom", False),
    "≃ₐ": (50, 0, "AlgEquiv", False),
    "→L": (25, 0, "ContinuousLinearMap", True),
}
# Lean 4's numeric literals (Lean/Parser/Basic.lean `numberFn`, `decimalNumberFn`): `0x1F`, `0b101`, `0o17`, and
# decimals with an optional fraction and exponent, `2.5e-1` (a scientific literal: `OfScientific`, 1/4 in ℝ). Digits
# are ASCII (`Char.isDigit`): Python's `\d` also matches `１` or `٣`, which Lean rejects
_NUMBER = r"0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?"
_TOKEN = re.compile(
    rf"(?P<ws>\s+)|(?P<num>{_NUMBER})|(?P<op>(?:{'|'.join(SCALAR_ARROWS)})(?=\s*\[))|(?P<ident>{_IDENT})"
    rf"|(?P<op2>{'|'.join(re.escape(o) for o in _OPS)})"
    r"|(?P<other>.)",
    re.S,
)

TYPE_NAMES = {
    "ℝ": ir.REAL,
    "Real": ir.REAL,
    "ℕ": ir.NAT,
    "Nat": ir.NAT,
    "ℤ": ir.INT,
    "Int": ir.INT,
    "ℚ": ir.RAT,
    "Rat": ir.RAT,
    "ℂ": ir.COMPLEX,
    "Complex": ir.COMPLEX,
    "Prop": ir.BOOL,
    "Bool": ir.BOOL,
}
# `NNReal` (ℝ≥0) and `PNat` (ℕ+) are not ℝ and ℕ: their elements are ≥ 0 and ≥ 1, and their subtraction truncates
# (Mathlib: `NNReal.coe_sub_def : ↑(r - p) = max (↑r - ↑p) 0`, `PNat.sub_coe : ↑(a - b) = if b < a then ↑a - ↑b else
# 1`); read as ℝ and ℕ, `(x : ℝ≥0) : 0 ≤ (x : ℝ)` merged with `(x : ℝ) : 0 ≤ x`. They stay uninterpreted sorts.
TYPE_HEADS = {
    "Set",
    "Finset",
    "Fin",
    "List",
    "Multiset",
    "Matrix",
    "Polynomial",
    "EuclideanSpace",
    "ZMod",
    "Function",
    "Option",
    "Equiv",
    "Module",
    "Submodule",
    "Subgroup",
    "Ideal",
    "MvPolynomial",
    "Array",
    "Sym2",
    "SimpleGraph",
    "Finsupp",
    "Filter",
    "MeasureTheory.Measure",
    "Type",
    "Sort",
    "Units",
    "PowerSeries",
    "Ring",
    "Field",
    "Quotient",
    "Metric.ball",
    "Cardinal",
    "Ordinal",
    "ENNReal",
    "NNReal",
    "NNRat",
    "PadicInt",
    "Padic",
    "PNat",
    "EReal",
    "Real.Angle",
    "Sequence",
    "Vector",
    "Finite",
    # structures (data, never propositions): a binder of one of these types declares a variable
    "Subfield",
    "Subring",
    "Subsemiring",
    "Submonoid",
    "AddSubgroup",
    "AddSubmonoid",
    "Subalgebra",
    "IntermediateField",
    "Module.End",
    "End",
    "LinearMap",
    "ContinuousLinearMap",
    "MonoidHom",
    "AddMonoidHom",
    "RingHom",
    "AlgHom",
    "LinearEquiv",
    "MulEquiv",
    "RingEquiv",
    "AlgEquiv",
    "Homeomorph",
    "Equiv.Perm",
    "Basis",
    "Sylow",
    "TopologicalSpace",
}
KEYWORDS = {
    "fun",
    "λ",
    "if",
    "then",
    "else",
    "let",
    "in",
    "have",
    "show",
    "from",
    "by",
    "at",
    "with",
    "match",
    "do",
    "Type",
    "Sort",
    "True",
    "False",
    "sorry",  # a term of any type that Lean never equates with another (no name: `(sorry : ℝ)` is no binder)
}

# Mathlib classes whose instance on a type gives it an element: `1` (`One`: monoids, groups, rings, fields), `0`
# (`Zero`: additive monoids and groups, modules' carriers), `⊤`/`⊥`, `default` (`Inhabited`, `Unique`), or say so
# (`Nonempty`; `Nontrivial`: two distinct elements)
INHABITING_CLASSES = frozenset(
    "Group CommGroup AddGroup AddCommGroup Monoid CommMonoid AddMonoid AddCommMonoid Ring CommRing Semiring"
    " CommSemiring Field DivisionRing EuclideanDomain NormedAddCommGroup SeminormedAddCommGroup NormedField"
    " NormedRing NormedCommRing LinearOrderedField LinearOrderedRing LinearOrderedCommRing OrderedRing"
    " OrderedCommRing StrictOrderedRing Zero One Nonempty Inhabited Unique Nontrivial OrderBot OrderTop"
    " BoundedOrder CompleteLattice".split()
)

# token -> (left bp, right bp, op)
INFIX: dict[str, tuple[int, int, str]] = {
    "↔": (20, 21, "iff"),
    "<->": (20, 21, "iff"),
    "→": (25, 24, "implies"),
    "->": (25, 24, "implies"),
    "∨": (30, 29, "or"),
    "||": (30, 29, "or"),
    "∧": (35, 34, "and"),
    "&&": (35, 34, "and"),
    "=": (50, 51, "eq"),
    "==": (50, 51, "eq"),
    "≠": (50, 51, "ne"),
    "<": (50, 51, "lt"),
    ">": (50, 51, "gt"),
    "≤": (50, 51, "le"),
    "<=": (50, 51, "le"),
    "≥": (50, 51, "ge"),
    ">=": (50, 51, "ge"),
    "∈": (50, 51, "in"),
    "∉": (50, 51, "notin"),
    "∣": (50, 51, "dvd"),
    "⊆": (50, 51, "op:subseteq"),
    "⊂": (50, 51, "op:ssubset"),
    "≡": (50, 51, "modeq"),
    "+": (65, 66, "add"),
    "-": (65, 66, "sub"),
    "∪": (65, 66, "op:union"),
    "∖": (70, 71, "op:sdiff"),
    "*": (70, 71, "mul"),
    "/": (70, 71, "div"),
    "%": (70, 71, "mod"),
    "∩": (70, 71, "op:inter"),
    "\\": (70, 71, "op:sdiff"),
    # Lean 4 core, Init/Prelude's notations: `infixr:73 " • " => HSMul.hSMul`, `infixr:80 " ^ " => HPow.hPow`
    # (x ^ k ^ 2 = x ^ (k ^ 2)) and `prefix:75 "-" => Neg.neg`, so `-x ^ 2` is `-(x ^ 2)` (see `prefix` below)
    "•": (73, 72, "op:smul"),
    "^": (80, 79, "pow"),
    "∘": (90, 90, "op:comp"),
    "×": (35, 34, "op:prod"),
    # Mathlib: `f '' s`, `f ⁻¹' s` (infix 80), `⊓` (69), `⊔` (68), `G ⧸ N` (35)
    "''": (80, 81, "op:image"),
    "⁻¹'": (80, 81, "op:preimage"),
    "⊓": (69, 70, "op:inf"),
    "⊔": (68, 69, "op:sup"),
    "⧸": (35, 36, "op:quot"),
    "×ˢ": (82, 81, "op:sprod"),  # `infixr:82 " ×ˢ " => SProd.sprod` (Mathlib/Data/SProd.lean)
}
# big operators kept opaque as a whole (their bound names are made canonical): Mathlib parses the body at 60
OPAQUE_BINDERS = {"∫": 60, "⋃": 60, "⋂": 60, "⨆": 60, "⨅": 60, "∑'": 66, "∏'": 66}  # -> the body's bp
# `scoped[Topology] notation "𝓝" => nhds` (Mathlib/Topology/Defs/Filter.lean)
NOTATION_NAMES = {"𝓝": "nhds"}
# `prefix:110 "⋃₀ " => sUnion`, `prefix:110 "⋂₀ " => sInter` (Mathlib/Order/SetNotation.lean)
SET_PREFIXES = {"⋃₀": "Set.sUnion", "⋂₀": "Set.sInter"}
# names Lean's autoImplicit binds when a statement uses them undeclared: single letters (not `I`, `X`, `C`,
# which `open Complex Polynomial` makes constants)
AUTO_BOUND = re.compile(r"(?![IXC](?![0-9₀-₉']))[A-Zα-ωΑ-Ω][0-9₀-₉']*")
RELATIONS = {"eq", "ne", "lt", "gt", "le", "ge", "in", "notin", "dvd"}
MAX_BP = 1024

# dot notation `e.f` on a value, by field name
FIELDS = {
    "card": "Finset.card",
    "factorial": "Nat.factorial",
    "Prime": "Nat.Prime",
    "succ": "Nat.succ",
    "sqrt": "Real.sqrt",
    "natAbs": "Int.natAbs",
    "toNat": "Int.toNat",
    "gcd": "Nat.gcd",
    "lcm": "Nat.lcm",
    "choose": "Nat.choose",
    "floor": "Int.floor",
    "ceil": "Int.ceil",
    "log": "Real.log",
    "exp": "Real.exp",
    "sum": "uf:sum",
    "prod": "uf:prod",
    "filter": "Finset.filter",
    "re": "Complex.re",
    "im": "Complex.im",
    "num": "Rat.num",
    "den": "Rat.den",
}


# Mathlib's nonnegative types (`lean_statement.TYPE_NOTATIONS`): one token each, read as the name (not `ℝ ≥ 0`, which
# made the binder `(x : ℝ≥0)` a hypothesis)
TYPE_NOTATIONS = lean_statement.TYPE_NOTATIONS
_TYPE_NOTATION = re.compile("|".join(re.escape(k) for k in sorted(TYPE_NOTATIONS, key=len, reverse=True)))
# `notation "ℤ_[" p "]" => PadicInt p` (Mathlib/NumberTheory/Padics/PadicIntegers.lean), `ℚ_[p]` => `Padic p`
_PADIC = re.compile(r"([ℤℚ])_\[([^\[\]]*)\]")


def tokenize(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    text = _TYPE_NOTATION.sub(lambda m: f" {TYPE_NOTATIONS[m.group()]} ", text)
    text = _PADIC.sub(lambda m: f" ({'PadicInt' if m.group(1) == 'ℤ' else 'Padic'} {m.group(2)}) ", text)
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        tok = m.group(kind)
        if kind == "ws":
            continue
        if kind == "ident":
            if tok in KEYWORDS:
                out.append(("op", tok))
            else:
                out.append(("ident", tok))
        elif kind in ("other", "op2"):
            out.append(("op", tok))
        elif kind == "num" and out and out[-1] == ("op", ".") and text[m.start() - 1] == ".":
            # after `p.` come field indices, digits only (Lean's `fieldIdx`): `p.2.1` is `(p.2).1`, no number 2.1
            for k, part in enumerate(tok.split(".")):
                out.extend([("op", ".")] if k else [])
                out.append(("num", part))
        else:
            out.append((kind, tok))
    return out


_LET_WORD = re.compile(r"(?<![\w.'])(?:let|have|letI|haveI)(?![\w'!?])")
_LET_OPENERS = frozenset(lean_statement.OPEN_TO_CLOSE) | {"![", "^["}
_LET_CLOSERS = frozenset(lean_statement.CLOSE_TO_OPEN) | {"⌋₊", "⌉₊"}
# infix operators: a line starting with one continues the term above it (a trailing parser has no column check)
_INFIX_START = frozenset(
    "+ - * / ^ % = ≠ < > ≤ ≥ ∧ ∨ ↔ → -> ∣ ∈ ∉ ∘ • ∩ ∪ \\ × ⊆ ⊂ ⊇ ⊃ ≡ ++ :: <| |> $ ∆ ⊔ ⊓ ∗ ⁻¹".split()
)


def tokenize_lines(text: str, first_col: int = 0) -> list[tuple[str, str]]:
    """`tokenize(text)` (text without comments), with the `;` that a line break stands for after a `let`/`have`
    value. Lean parses `let x := v` under `withPosition` and an application's arguments under `checkColGt`
    (Lean/Parser/Term.lean), so a line that starts at the `let`'s column or left of it ends the value and begins
    the body: `let m := n` over `E = m` is `let m := n; E = m`, where one line would read `n E = m`, `n` applied.
    A line starting with an infix operator continues the value. first_col: the column of text's first line."""
    out: list[tuple[str, str]] = []
    pending: list[int] = []  # columns of the `let`s whose value is still being read
    depth = 0
    for n, line in enumerate(text.split("\n")):
        toks = tokenize(line)
        if not toks:
            continue
        shift = first_col if n == 0 else 0
        col = shift + len(line) - len(line.lstrip())
        if pending and depth == 0 and col <= pending[-1] and toks[0][1] not in _INFIX_START and out[-1][1] != ";":
            while pending and col <= pending[-1]:
                pending.pop()
            out.append(("op", ";"))
        words = iter(m.start() + shift for m in _LET_WORD.finditer(line))
        for kind, t in toks:
            if t in _LET_OPENERS:
                depth += 1
            elif t in _LET_CLOSERS:
                depth -= 1
            elif t in ("let", "have", "letI", "haveI"):
                at = next(words, None)
                if depth == 0 and at is not None:
                    pending.append(at)
            elif depth == 0 and t == ";" and pending:
                pending.pop()
            out.append((kind, t))
    return out


def strip_comments(text: str) -> str:
    out, i, depth = [], 0, 0
    while i < len(text):
        if text.startswith("/-", i):
            depth += 1
            i += 2
        elif depth and text.startswith("-/", i):
            depth -= 1
            i += 2
        elif depth:
            i += 1
        elif text.startswith("--", i):
            j = text.find("\n", i)
            i = len(text) if j < 0 else j
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


ITERATE_UNROLL = 8  # `f^[k] x` with a literal k up to this is written out as k applications of f


def iterate(args: list[Term]) -> Term:
    """`Nat.iterate f k x rest…` (`f^[k] x`): Mathlib defines `Nat.iterate f 0 a = a` and `Nat.iterate f (k + 1) a =
    Nat.iterate f k (f a)` (Mathlib/Logic/Function/Iterate.lean), so with a literal k and an argument x it is
    `f (f (… (f x)))`, the rest of the arguments applied to that (`deriv^[2] f a` is `deriv (deriv f) a`). Otherwise
    it stays a call of `Nat.iterate`."""
    if len(args) >= 3 and isinstance(args[1], Num):
        k = args[1].value
        if k.denominator == 1 and 0 <= k <= ITERATE_UNROLL:
            f, x, rest = args[0], args[2], args[3:]
            for _ in range(int(k)):
                x = App("call", (f, x))
            if not rest:
                return x
            return App("call", (*x.args, *rest)) if isinstance(x, App) and x.op == "call" else App("call", (x, *rest))
    return App("call", (Var("Nat.iterate"), *args))


class _Parser(TokenCursor):
    """names: the dotted names written in the statements compared (see `field`)."""

    def __init__(self, tokens: list[tuple[str, str]], names: frozenset[str] = frozenset()):
        super().__init__(tokens)
        self.names = names
        self.abs_depth = 0
        self.norm_depth = 0  # inside `‖…‖`, where a `‖` closes the norm (`starts_atom`)
        self.fresh = 0

    def at(self, text: str) -> bool:
        t = self.peek()
        return t is not None and t[1] == text and t[0] != "num"

    # ------------------------------------------------------------------ expressions
    def expr(self, min_bp: int, stop: str | None = None) -> Term:
        """The term from here whose operators bind tighter than min_bp; `stop`: an op that ends it too (`chain`)."""
        left = self.prefix()
        while True:
            t = self.peek()
            if t is None or t[0] == "num":
                break
            text = t[1]
            if text == "|" and self.abs_depth:
                break
            if text in ("$", "<|") and min_bp < 10:  # `f $ x` is `f (x)`
                self.next()
                right = self.expr(9)
                left = (
                    App("call", (*left.args, right))
                    if isinstance(left, App) and left.op == "call"
                    else App("call", (left, right))
                )
                continue
            if text in ARROWS or text in SCALAR_ARROWS:
                if (ARROWS.get(text) or SCALAR_ARROWS[text])[0] <= min_bp:
                    break
                left = self.arrow(left)
                continue
            spec = INFIX.get(text)
            if spec is None:
                break
            lbp, rbp, op = spec
            if lbp <= min_bp or op == stop:
                break
            self.next()
            if op in ir.CHAINED:
                left = ir.chained(op, (left, *self.chain(op, rbp)))
                continue
            right = self.expr(rbp)
            if op == "modeq":
                left = self.modeq(left, right)
            elif op.startswith("op:"):
                left = App("call", (Var(op), left, right))
            elif (
                op in RELATIONS
                and isinstance(left, App)
                and left.op in RELATIONS
                and lbp == 50
                and op not in ("in", "notin")
            ):
                left = App("and", (left, App(op, (left.args[-1], right))))
            else:
                left = pointwise(op, left, right) or App(op, (left, right))
        return left

    def chain(self, op: str, bp: int) -> list[Term]:
        """The operands after the first `∧` (or `∨`) of a chain `a ∧ b ∧ c`, in a loop: Lean's `infixr:35 " ∧ "`
        (Init/Core.lean) is `a ∧ (b ∧ c)`, the same proposition as the n-ary `and` this reads, which is one level
        deep however long the chain (`ir.MAX_DEPTH`). Each operand is what the right operand of `∧` reads, bp, up to
        the next `∧` (`a ∧ b × c ∧ d`: × is `infixr:35` too, so the operands are a, `b × (c ∧ d)`)."""
        parts = [self.expr(bp, stop=op)]
        while (t := self.peek()) is not None and t[0] != "num" and INFIX.get(t[1], (0, 0, ""))[2] == op:
            self.next()
            parts.append(self.expr(bp, stop=op))
        return parts

    def arrow(self, left: Term) -> Term:
        """`A →* B` is `MonoidHom A B`, `M →ₗ[R] N` is `LinearMap (RingHom.id R) M N` (see ARROWS)."""
        text = self.next()[1]
        if text in ARROWS:
            _, rbp, structure = ARROWS[text]
            return App("call", (Var(structure), left, self.expr(rbp)))
        _, ring_bp, structure, ring_id = SCALAR_ARROWS[text]
        self.expect("[")
        ring = self.expr(ring_bp)
        self.expect("]")
        if ring_id:
            ring = App("call", (Var("RingHom.id"), ring))
        return App("call", (Var(structure), ring, left, self.expr(0)))

    def modeq(self, left: Term, right: Term) -> Term:
        """`a ≡ b [MOD n]` / `[ZMOD n]`: equal remainders."""
        if self.at("[") and self.peek(1) is not None and self.peek(1)[1] in ("MOD", "ZMOD", "PMOD"):
            self.next()
            kind = self.next()[1]
            n = self.expr(0)
            self.expect("]")
            if kind == "ZMOD":
                left = App("ascribe", (left,), target=ir.INT)
            if kind == "MOD":  # `Nat.ModEq (n a b : ℕ)`: of integers (ill-typed) it is `[ZMOD n]`
                left, right, n = (App("ascribe", (x,), target=ir.NAT) for x in (left, right, n))
            return App("eq", (App("mod", (left, n)), App("mod", (right, n))))
        return App("call", (Var("op:≡"), left, right))

    def prefix(self) -> Term:
        t = self.peek()
        if t is None:
            raise ParseError(self.END)
        kind, text = t
        if kind == "op":
            if text in ("∀", "∃", "∃!", "Π"):
                return self.quantifier()
            if text in ("fun", "λ"):
                self.next()
                vars_ = self.binders(stop=("=>", "↦", ","))
                if self.next()[1] == ",":  # Lean 3's `λ x, e`: Lean 4's `fun` takes `=>` or `↦` (Term.lean, basicFun)
                    raise ParseError("`λ x, e` is Lean 3; Lean 4 writes `fun x => e`")
                return eta(Bind("lambda", tuple(vars_), self.expr(0)))
            if text in ("∑", "∏"):
                return self.big_operator()
            if text == "∫" and (integral := self.interval_integral()) is not None:
                return integral
            if text in OPAQUE_BINDERS:
                return self.opaque_binder()
            if text in SET_PREFIXES:
                self.next()
                return App("call", (Var(SET_PREFIXES[text]), self.expr(110)))
            if text == "¬":
                self.next()
                return App("not", (self.expr(40),))
            if text == "-":
                # `prefix:75 "-"` is `notation:75 "-" arg:75`: the operand takes every trailing operator of
                # precedence >= 75 (`^` is 80), so `-x ^ 2` is `-(x ^ 2)` and `-a * b` is `(-a) * b`
                self.next()
                return App("neg", (self.expr(74),))
            if text == "↑":
                self.next()
                return App("coe", (self.expr(MAX_BP),))
            # CoeSort / CoeFun: what Lean inserts itself where a type or a function is expected, so `↥S` reads
            # as S and `⇑f` as f (`Function.Surjective φ` elaborates to `Function.Surjective ⇑φ`)
            if text in ("↥", "⇑"):
                self.next()
                return self.expr(MAX_BP)
            if text == "√":
                self.next()
                return App("sqrt", (self.expr(100),))
            if text == "⟪":
                return self.inner_product()
            if text == "if":
                self.next()
                if self.peek(1) is not None and self.peek(1)[1] == ":" and self.peek()[0] == "ident":
                    self.next()
                    self.next()
                c = self.expr(0)
                self.expect("then")
                a = self.expr(0)
                self.expect("else")
                b = self.expr(0)
                return App("ite", (c, a, b))
        return self.application()

    def inner_product(self) -> Term:
        """`⟪x, y⟫_𝕜`: Mathlib's `notation3:max "⟪" x ", " y "⟫_" 𝕜:max => @inner 𝕜 _ _ x y`
        (Mathlib/Analysis/InnerProductSpace/Defs.lean), an application of `inner` over the field 𝕜 (a function
        SymEq does not interpret, one per field); without the field, the scoped `⟪x, y⟫` of an open namespace."""
        self.next()
        x = self.expr(0)
        self.expect(",")
        y = self.expr(0)
        self.expect("⟫")
        field = ""
        if (t := self.peek()) is not None and t[0] == "ident" and t[1].startswith("_") and len(t[1]) > 1:
            field = self.next()[1]
        return App("call", (Var("inner" + field), x, y))

    def interval_integral(self) -> Term | None:
        """`∫ x in a..b, f x` as Mathlib elaborates it, `intervalIntegral (fun x => f x) a b volume` (its `notation3`
        in Mathlib/MeasureTheory/Integral/IntervalIntegral.lean): a function of the body as a function of x (x : ℝ,
        the notation is for `f : ℝ → E`) and of the bounds, which are real numbers. The body then reads like a
        `fun`'s, so `x * x` and `x ^ 2` inside are one integrand (`intervalIntegral.integral_congr`, `funext`).
        None (the position unchanged) for the other forms (`∫ x in s, f x`, `∫ x, f x ∂μ`): opaque as before."""
        start, abs_depth, fresh = self.i, self.abs_depth, self.fresh
        try:
            self.next()
            vars_ = self.binders(stop=("in",))
            self.expect("in")
            depth, k = 0, self.i
            while k < len(self.toks) and not (depth == 0 and self.toks[k][1] in ("..", ",")):
                depth += self.toks[k][1] in ("(", "[", "{", "⟨", "⦃")
                depth -= self.toks[k][1] in (")", "]", "}", "⟩", "⦄")
                k += 1
            if len(vars_) != 1 or k >= len(self.toks) or self.toks[k][1] != "..":
                raise ParseError("not an interval integral")
            lo = self.expr(0)
            self.expect("..")
            hi = self.expr(0)
            self.expect(",")
            body = self.expr(OPAQUE_BINDERS["∫"])
            if self.at("∂"):
                raise ParseError("an integral against another measure")
        except ParseError:
            self.i, self.abs_depth, self.fresh = start, abs_depth, fresh
            return None
        name, ty = vars_[0]
        lam = Bind("lambda", ((name, ty if ty is not None else ir.REAL),), body)
        bounds = (App("ascribe", (x,), target=ir.REAL) for x in (lo, hi))
        return App("call", (Var("intervalIntegral"), lam, *bounds))

    def opaque_binder(self) -> Term:
        """`∫ x in a..b, f x`, `⋃ i, s i`, `⨆ i, f i`, `∑' n, f n`: one opaque term up to the end of the body
        (Mathlib reads the body of `⋃` at 60, of `∑'` at 67)."""
        start = self.i
        body_bp = OPAQUE_BINDERS[self.next()[1]]
        depth = 0
        while True:
            t = self.next()
            if t[1] in ("(", "[", "{", "⟨", "⦃"):
                depth += 1
            elif t[1] in (")", "]", "}", "⟩", "⦄"):
                depth -= 1
            elif depth == 0 and t[1] == ",":
                break
        self.expr(body_bp)
        return opaque_from_tokens(self.toks[start : self.i])

    def quantifier(self) -> Term:
        q = self.next()[1]
        kind = {"∀": "forall", "Π": "forall", "∃": "exists", "∃!": "exists1"}[q]  # `Π x, β x` is `∀ x, β x`
        vars_, guard = self.binders_with_guard()
        self.expect(",")
        body = self.expr(0)
        if guard is not None:
            body = App("implies" if kind == "forall" else "and", (guard, body))
        return Bind(kind, tuple(vars_), body)

    def binders_with_guard(self) -> tuple[list[tuple[str, Ty | None]], Term | None]:
        vars_ = self.binders(stop=(",", ">", "<", "≥", "≤", "∈", "∉", "≠", "⊆", "∣"))
        guard = None
        t = self.peek()
        if t is not None and t[1] in (">", "<", "≥", "≤", "∈", "∉", "≠", "⊆", "∣"):
            op = INFIX[t[1]][2]
            self.next()
            bound = self.expr(51)
            parts = [
                App(op, (Var(n), bound)) if not op.startswith("op:") else App("call", (Var(op), Var(n), bound))
                for n, _ in vars_
            ]
            guard = parts[0] if len(parts) == 1 else App("and", tuple(parts))
        return vars_, guard

    def binders(self, stop: tuple[str, ...]) -> list[tuple[str, Ty | None]]:
        vars_: list[tuple[str, Ty | None]] = []
        pending: list[str] = []
        while True:
            t = self.peek()
            if t is None:
                raise ParseError("binder without body")
            if t[0] == "ident" or t[1] == "_":
                self.next()
                pending.append(t[1])
            elif t[1] in ("(", "{", "⦃", "[") and t[0] == "op":
                close = {"(": ")", "{": "}", "⦃": "⦄", "[": "]"}[t[1]]
                self.next()
                names = []
                while self.peek() is not None and (self.peek()[0] == "ident" or self.peek()[1] == "_"):
                    names.append(self.next()[1])
                ty = None
                if self.at(":"):
                    self.next()
                    ty = self.type_until(close)
                self.expect(close)
                vars_.extend((n, ty) for n in names)
            elif t[1] == ":" and pending:
                self.next()
                ty = self.type_until(*stop)
                vars_.extend((n, ty) for n in pending)
                pending = []
            else:
                break
        vars_.extend((n, None) for n in pending)
        if not vars_:
            raise ParseError("binder without variables")
        t = self.peek()
        if t is None or t[1] not in stop:
            raise ParseError(f"unexpected {t[1] if t else 'end'!r} in binder")
        return vars_

    def type_until(self, *stops: str) -> Ty:
        depth, start = 0, self.i
        while self.i < len(self.toks):
            text = self.toks[self.i][1]
            if depth == 0 and text in stops:
                break
            if text in ("(", "[", "{", "⟨", "⦃"):
                depth += 1
            elif text in (")", "]", "}", "⟩", "⦄"):
                if depth == 0:
                    break
                depth -= 1
            self.i += 1
        return tokens_to_type(self.toks[start : self.i])

    def big_operator(self) -> Term:
        start = self.i
        kind = "sum" if self.next()[1] == "∑" else "prod"
        vars_: list[tuple[str, Ty | None]] = []
        if self.at("("):
            self.next()
            names = []
            while self.peek() is not None and self.peek()[0] == "ident":
                names.append(self.next()[1])
            ty = None
            if self.at(":"):
                self.next()
                ty = self.type_until(")")
            self.expect(")")
            vars_ = [(n, ty) for n in names]
        else:
            t = self.next()
            if t[0] != "ident":
                raise ParseError("big operator without a variable")
            vars_ = [(t[1], None)]
            if self.at(":"):
                self.next()
                ty = self.type_until("in", "∈", ",")
                vars_ = [(t[1], ty)]
        dom = None
        if self.at("in") or self.at("∈"):
            self.next()
            dom = self.expr(0)
        elif self.at("<"):
            self.next()
            dom = App("range", (self.expr(51),))
        elif self.at("≤"):
            self.next()
            dom = App("icc", (Num(Fraction(0)), self.expr(51)))
        self.expect(",")
        body = self.expr(66)
        if dom is None:  # over a whole type (`∑ i : Fin n, f i`): opaque, bound names made canonical
            return opaque_from_tokens(self.toks[start : self.i])
        return Bind(kind, tuple(vars_), body, dom=dom)

    def starts_atom(self) -> bool:
        t = self.peek()
        if t is None:
            return False
        kind, text = t
        if kind in ("ident", "num"):
            return True
        if text == "![":
            return True
        if text == "[" and kind == "op":  # a list literal, not the `[MOD n]` of a congruence
            nxt = self.peek(1)
            return nxt is not None and nxt[1] not in ("MOD", "ZMOD", "PMOD")
        if text == "|" and kind == "op":
            # `Real.log |x|`: Mathlib's `macro:max atomic("|" noWs) a:term noWs "|" : term` (Mathlib/Algebra/Order/
            # Group/Unbundled/Abs.lean) is an argument like a parenthesis. Inside bars a bar closes them (the tokens
            # keep no spaces, which is how Lean tells `|f |x||` apart)
            return not self.abs_depth
        if text == "‖" and kind == "op":
            return not self.norm_depth
        return kind == "op" and text in (
            "(",
            "⟨",
            "⌊",
            "⌈",
            "{",
            "True",
            "False",
            "·",
            "∅",
            "↑",
            "↥",
            "⇑",
            "√",
            "⊤",
            "⊥",
            "@",
        )

    def application(self) -> Term:
        head = self.postfix(self.atom())
        if isinstance(head, App) and head.op == "call" and self.starts_atom():
            head_args = list(head.args)  # `(f a) b` is `f a b`
            head = head_args[0]
            pre = head_args[1:]
        else:
            pre = []
        args: list[Term] = []
        while self.starts_atom():
            if self.at("↑"):
                self.next()
                args.append(App("coe", (self.postfix(self.atom()),)))
            elif self.at("↥") or self.at("⇑"):
                self.next()
                args.append(self.postfix(self.atom()))
            elif self.at("√"):
                self.next()
                args.append(App("sqrt", (self.postfix(self.atom()),)))
            else:
                args.append(self.postfix(self.atom()))
        if self.at("fun") or self.at("λ"):  # `Continuous fun x => x ^ 2`: a `fun` is an argument (maxPrec)
            args.append(self.prefix())
        args = pre + args
        if isinstance(head, Var) and head.name in ("Nat.iterate", "iterate"):
            return iterate(args)
        return App("call", (head, *args)) if args else head

    def postfix(self, e: Term) -> Term:
        while True:
            t = self.peek()
            if t is None:
                return e
            if t[1] == "⁻¹":
                self.next()
                e = App("inv", (e,))
            elif t[1] == "ˣ":  # `postfix:1024 "ˣ" => Units` (Mathlib/Algebra/Group/Units/Defs.lean)
                self.next()
                e = App("call", (Var("Units"), e))
            elif t[1] in ("ᶜ", "ᵀ"):  # Mathlib `postfix:1024 "ᶜ" => compl` (Order/Notation), `Aᵀ` Matrix.transpose
                self.next()
                e = App("call", (Var("compl" if t[1] == "ᶜ" else "Matrix.transpose"), e))
            elif t[1] == "^[":  # `notation:max f "^["n"]" => Nat.iterate f n` (Mathlib/Logic/Function/Iterate.lean)
                self.next()
                n = self.expr(0)
                self.expect("]")
                e = App("call", (Var("Nat.iterate"), e, n))
            elif t[1] == "!" and t[0] == "op":
                self.next()
                e = App("fact", (e,))
            elif t[1] == "." and self.peek(1) is not None and self.peek(1)[0] in ("ident", "num"):
                self.next()
                field = self.next()[1]
                e = self.field(e, field)
            else:
                return e

    def field(self, e: Term, field: str) -> Term:
        """`e.f`, which the elaborator resolves from e's type (Lean's generalized field notation). Where e is
        `M.g ...`, a function we know no type of, and `M.f` is written in a statement compared: `M.f e`
        (`(Subgroup.map φ N).Normal` is `Subgroup.Normal (Subgroup.map φ N)`). A statement that compiles
        resolves `.f` in the namespace of e's type, and a function of namespace M that gives an M is the
        Mathlib convention (`Subgroup.map`, `Ideal.span`, `Set.image`); that `M.f` is written somewhere says
        it exists."""
        name = field.split(".")[0]
        head = e.args[0] if isinstance(e, App) and e.op == "call" else None
        if isinstance(head, Var) and "." in head.name and not builtins.is_builtin("lean", head.name):
            resolved = head.name.rsplit(".", 1)[0] + "." + name
            if resolved in self.names:
                return App("call", (Var(resolved), e))
        return App("call", (Var("." + name), e))

    def atom(self) -> Term:
        kind, text = self.next()
        if kind == "num":
            return Num(Fraction(int(text, 0)) if text[:2].lower() in ("0x", "0b", "0o") else Fraction(text))
        if kind == "ident":  # `x.succ` on a variable is resolved by the elaborator, which knows the scope
            return Var(NOTATION_NAMES.get(text, text))
        if text in ("True", "False"):
            return App(text.lower(), ())
        if text == "∅":
            return App("setenum", ())
        if text in ("[", "!["):  # a list; `![a, b]` is Mathlib's vector `Matrix.vecCons a ![b]` (Fin n → α)
            items = [] if self.at("]") else [self.expr(0)]
            while self.at(","):
                self.next()
                items.append(self.expr(0))
            self.expect("]")
            return App("call", (Var("op:list" if text == "[" else "op:vec"), *items))
        if text in ("⊤", "⊥"):
            return Var(text)  # the top / bottom element: an unknown constant of the type the context gives
        if text == "@" and self.peek() is not None and self.peek()[0] == "ident":
            return Var("@" + self.next()[1])  # explicit arguments: a different head from the implicit form
        if text == "·":
            self.fresh += 1
            return Var(f"·{self.fresh}")
        if text == "(":
            return self.paren()
        if text == "⟨":
            items = [self.expr(0)]
            while self.at(","):
                self.next()
                items.append(self.expr(0))
            self.expect("⟩")
            return items[0] if len(items) == 1 else App("pair", tuple(items))
        if text == "|":
            self.abs_depth += 1
            e = self.expr(0)
            self.abs_depth -= 1
            self.expect("|")
            return App("abs", (e,))
        if text == "‖":
            # `‖x‖` is `Norm.norm x` (Mathlib/Analysis/Normed/Group/Basic.lean: `@[notation_class] class Norm`,
            # `‖e‖` notation), typed by what x is; a term the bars do not close stays opaque text
            start, saved = self.i - 1, (self.abs_depth, self.norm_depth)
            self.abs_depth, self.norm_depth = 0, self.norm_depth + 1
            try:
                e = self.expr(0)
                self.expect("‖")
                return App("call", (Var("norm"), e))
            except ParseError:
                self.i = start + 1
                depth = 1
                while depth:
                    t = self.next()
                    if t[1] == "‖":
                        depth -= 1
                return opaque_from_tokens(self.toks[start : self.i])
            finally:
                self.abs_depth, self.norm_depth = saved
        if text == "⌊":
            e = self.expr(0)
            close = self.next()[1]
            if close == "⌋₊":
                return App("call", (Var("Nat.floor"), e))
            if close != "⌋":
                raise ParseError("unclosed floor")
            return App("floor", (e,))
        if text == "⌈":
            e = self.expr(0)
            close = self.next()[1]
            if close == "⌉₊":
                return App("call", (Var("Nat.ceil"), e))
            if close != "⌉":
                raise ParseError("unclosed ceiling")
            return App("ceil", (e,))
        if text == "{":
            return self.braces()
        raise ParseError(f"unexpected {text!r}")

    def paren(self) -> Term:
        start = self.fresh
        saved, self.abs_depth = self.abs_depth, 0
        saved_norm, self.norm_depth = self.norm_depth, 0
        e = self.expr(0)
        if self.at(":"):
            self.next()
            ty = self.type_until(")")
            self.abs_depth, self.norm_depth = saved, saved_norm
            self.expect(")")
            return App("ascribe", (e,), target=ty)
        items = [e]
        while self.at(","):
            self.next()
            items.append(self.expr(0))
        self.abs_depth, self.norm_depth = saved, saved_norm
        self.expect(")")
        out = items[0] if len(items) == 1 else App("pair", tuple(items))
        if self.fresh > start:  # `(· + 1)`: a function of its `·` placeholders
            names = [f"·{k}" for k in range(start + 1, self.fresh + 1)]
            self.fresh = start
            return Bind("lambda", tuple((n, None) for n in names), out)
        return out

    def braces(self) -> Term:
        start = self.i - 1
        depth, j, bar, subtype = 0, self.i, None, False
        while j < len(self.toks):
            text = self.toks[j][1]
            if text in ("(", "[", "{", "⟨"):
                depth += 1
            elif text in (")", "]", "⟩"):
                depth -= 1
            elif text == "}":
                if depth == 0:
                    break
                depth -= 1
            elif text == "|" and depth == 0 and bar is None:
                bar = j
            elif text == "//" and depth == 0:
                subtype = True
            j += 1
        if subtype:  # `{x : T // P}`: a type, kept opaque (its bound name made canonical)
            self.i = j + 1
            return opaque_from_tokens(self.toks[start : j + 1])
        if bar is not None:
            sub = _Parser(self.toks[self.i : bar], self.names)
            try:
                vars_, guard = sub.setof_binder()
            except ParseError:
                self.i = j + 1
                try:  # `{x ^ 2 | x ∈ s}`: a term before the bar
                    binders = _Parser(self.toks[bar + 1 : j], self.names).parse()
                except ParseError:
                    return opaque_from_tokens(self.toks[start : j + 1])
                return self.image_builder(start, bar, j, binders)
            body = _Parser(self.toks[bar + 1 : j], self.names).parse()
            self.i = j + 1
            if any("." in n for n, _ in vars_):
                # `{n.succ | n ∈ s}`: a single identifier before the bar is the set-builder's binder (Mathlib's image
                # notation wants it parenthesized, `{(n.succ) | n ∈ s}`), and a dotted one is no binder name Lean
                # accepts; read as a bound `n.succ`, the n of `n ∈ s` was a free constant. Kept opaque.
                return opaque_from_tokens(self.toks[start : j + 1])
            if len(vars_) > 1:
                return self.image_builder(start, bar, j, body)
            if guard is not None:
                if isinstance(guard, App) and guard.op == "in" and isinstance(guard.args[0], Var):
                    return Bind("setof", tuple(vars_), body, dom=guard.args[1])
                body = App("and", (guard, body))
            return Bind("setof", tuple(vars_), body)
        if self.at("}"):
            self.next()
            return App("setenum", ())
        items = [self.expr(0)]
        while self.at(","):
            self.next()
            items.append(self.expr(0))
        self.expect("}")
        return App("setenum", tuple(items))

    def image_builder(self, start: int, bar: int, end: int, binders: Term) -> Term:
        """`{f x | x ∈ s}`: before the bar a term, not names (Lean's set-builder binds one name, `{x | p x}`), so it is
        Mathlib's image notation (Mathlib/Data/Set/Defs.lean: `{ pat | binders }` is `{y | ∃ᵉ binders, pat = y}`): the
        set of the values of `f x` for x ∈ s. Read for one membership binder `x ∈ s`; another form stays opaque (read
        as `{f, x | …}` binding f, the set lost its dependence on f)."""
        if isinstance(binders, App) and binders.op == "in" and isinstance(binders.args[0], Var):
            try:
                pat = _Parser(self.toks[start + 1 : bar], self.names).parse()
            except ParseError:
                return opaque_from_tokens(self.toks[start : end + 1])
            x = binders.args[0].name
            y = "·img"
            member = Bind("exists", ((x, None),), App("and", (binders, App("eq", (pat, Var(y))))))
            return Bind("setof", ((y, None),), member)
        return opaque_from_tokens(self.toks[start : end + 1])

    def setof_binder(self) -> tuple[list[tuple[str, Ty | None]], Term | None]:
        """The part of `{x : T | P}` / `{x ∈ S | P}` / `{x > 0 | P}` before the bar (all remaining tokens)."""
        names: list[str] = []
        while self.peek() is not None and self.peek()[0] == "ident":
            names.append(self.next()[1])
        if not names:
            raise ParseError("set-builder without a variable")
        ty: Ty | None = None
        guard = None
        if self.at(":"):
            self.next()
            ty = tokens_to_type(self.toks[self.i :])
            self.i = len(self.toks)
        elif self.peek() is not None and self.peek()[1] in (">", "<", "≥", "≤", "∈", "∉", "≠"):
            op = INFIX[self.next()[1]][2]
            guard = App(op, (Var(names[0]), self.expr(51)))
        if self.peek() is not None:
            raise ParseError("bad set-builder binder")
        return [(n, ty) for n in names], guard


_OPENERS = ("(", "[", "{", "⟨")
_CLOSERS = (")", "]", "}", "⟩")


def _strip_parens(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Tokens without parentheses around all of them (`((A × B))` -> `A × B`)."""
    while len(tokens) > 2 and tokens[0][1] == "(" and tokens[-1][1] == ")":
        depth = 0
        for k, (_, t) in enumerate(tokens):
            depth += (t in _OPENERS) - (t in _CLOSERS)
            if depth == 0 and k < len(tokens) - 1:
                return tokens
        tokens = tokens[1:-1]
    return tokens


def spell_out_arrows(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A type with Mathlib's structure arrows written as the structures they denote, with the precedences of
    ARROWS / SCALAR_ARROWS: `A × B ≃* B × A` and `(A × B) ≃* (B × A)` both become `MulEquiv (A × B) (B × A)`,
    `G →* H → K` becomes `MonoidHom G (H → K)`, and `(ZMod n)ˣ` becomes `Units (ZMod n)`. Plain arrows stay
    (`tokens_to_type` reads them)."""
    segments: list[list[tuple[str, str]]] = [[]]
    ops: list[str] = []
    depth, group = 0, 0
    for tok in tokens:
        t = tok[1]
        if t in _CLOSERS:
            depth -= 1
            if depth == 0 and t == ")":  # a parenthesized group: its arrows are spelled out too
                segments[-1][group:] = [("op", "("), *spell_out_arrows(segments[-1][group + 1 :]), tok]
                continue
        if depth == 0 and t == "ˣ" and segments[-1]:  # `postfix:1024 "ˣ" => Units`
            start = group if segments[-1][-1][1] == ")" else len(segments[-1]) - 1
            segments[-1][start:] = [("op", "("), ("ident", "Units"), *segments[-1][start:], ("op", ")")]
            continue
        if depth == 0 and (t in ARROWS or t in SCALAR_ARROWS or t in ("→", "->")):
            ops.append(t)
            segments.append([])
            continue
        if t in _OPENERS:
            if depth == 0:
                group = len(segments[-1])
            depth += 1
        segments[-1].append(tok)
    if not any(op in ARROWS or op in SCALAR_ARROWS for op in ops):
        out = segments[0]
        for op, seg in zip(ops, segments[1:]):
            out = [*out, ("op", op), *seg]
        return out

    def operand(toks: list[tuple[str, str]]) -> list[tuple[str, str]]:
        toks = _strip_parens(toks)
        return toks if len(toks) == 1 else [("op", "("), *toks, ("op", ")")]

    def parse(min_bp: int, pos: int) -> tuple[list[tuple[str, str]], int]:
        left, i = segments[pos], pos
        while i < len(ops):
            op = ops[i]
            lbp, rbp = (25, 24) if op in ("→", "->") else ARROWS[op][:2] if op in ARROWS else SCALAR_ARROWS[op][:2]
            if lbp <= min_bp:
                break
            ring: list[tuple[str, str]] = []
            if op in SCALAR_ARROWS:  # the segment after `→ₗ` starts with `[R]`
                rhs = segments[i + 1]
                close = next((k for k, (_, t) in enumerate(rhs) if t == "]"), None)
                if not rhs or rhs[0][1] != "[" or close is None:
                    raise ParseError(f"{op} without [ring]")
                ring, segments[i + 1] = _strip_parens(rhs[1:close]), rhs[close + 1 :]
                rbp = 0
            right, i = parse(rbp, i + 1)
            if op in ("→", "->"):
                # right-associative: a left side that is itself an arrow keeps its parentheses
                lhs = operand(left) if any(t in ("→", "->") for _, t in left) else left
                left = [*lhs, ("op", "→"), *right]
            elif op in ARROWS:
                left = [("ident", ARROWS[op][2]), *operand(left), *operand(right)]
            else:
                structure, ring_id = SCALAR_ARROWS[op][2], SCALAR_ARROWS[op][3]
                ring = [("op", "("), ("ident", "RingHom.id"), *operand(ring), ("op", ")")] if ring_id else operand(ring)
                left = [("ident", structure), *ring, *operand(left), *operand(right)]
        return left, i

    return parse(-1, 0)[0]


def eta(lam: Bind) -> Term:
    """`fun x => f x` is `f` (η, a definitional equality in Lean 4), where the binder has no type written: x then
    has f's domain as its type. `fun (n : ℕ) => f n` with `f : ℝ → ℝ` is `fun n => f ↑n`, not f: kept."""
    body, names = lam.body, [n for n, _ in lam.vars]
    if any(ty is not None for _, ty in lam.vars) or not (isinstance(body, App) and body.op == "call"):
        return lam
    k = len(names)
    if len(body.args) <= k or list(body.args[-k:]) != [Var(n) for n in names]:
        return lam
    rest = body.args[:-k]
    if ir.free_vars(App("call", rest)) & set(names):
        return lam
    return rest[0] if len(rest) == 1 else App("call", rest)


def _is_lambda(t: Term) -> bool:
    return isinstance(t, Bind) and t.kind == "lambda"


def pointwise(op: str, left: Term, right: Term) -> Term | None:
    """`f = fun x => c` is `∀ x, f x = c` (function extensionality, `funext`); `≠` its negation. None when
    neither side is a `fun`."""
    if op not in ("eq", "ne") or not (_is_lambda(left) or _is_lambda(right)):
        return None
    lam, other = (right, left) if _is_lambda(right) else (left, right)
    taken = ir.free_vars(other) | ir.free_vars(lam)
    names: dict[str, Term] = {}
    for n, _ in lam.vars:  # the bound names, apart from the names the other side uses
        fresh = n if n not in taken else ir.fresh_name(n, taken)
        taken.add(fresh)
        names[n] = Var(fresh)
    xs = tuple(names[n] for n, _ in lam.vars)
    head = other.args if isinstance(other, App) and other.op == "call" else (other,)
    applied = App("call", (*head, *xs))
    body = ir.beta(lam, xs)  # (fresh names: the types inside are renamed with them, `ir.rename_types_in`)
    if body is None:
        return None
    eq = App("eq", (applied, body) if lam is right else (body, applied))
    out = Bind("forall", tuple((names[n].name, ty) for n, ty in lam.vars), eq)
    return App("not", (out,)) if op == "ne" else out


def tokens_to_type(tokens: list[tuple[str, str]]) -> Ty:
    """A Lean type written as tokens -> IR type (anything unknown is an uninterpreted sort)."""
    if not tokens:
        raise ParseError("empty type")
    if any(t in ARROWS or t in SCALAR_ARROWS or t == "ˣ" for _, t in tokens):
        tokens = _strip_parens(spell_out_arrows(tokens))
    if len(tokens) >= 4 and [t for _, t in tokens[-3:]] == ["[", "X", "]"] and _one_atom(tokens[:-3]):
        tokens = [("ident", "Polynomial"), *tokens[:-3]]  # `R[X]` is Mathlib's notation for `Polynomial R`
    text = " ".join(t for _, t in tokens).strip()
    # arrows at depth 0
    depth, parts, cur = 0, [], []
    for tok in tokens:
        if tok[1] in ("(", "[", "{", "⟨"):
            depth += 1
        elif tok[1] in (")", "]", "}", "⟩"):
            depth -= 1
        if depth == 0 and tok[1] in ("→", "->"):
            parts.append(cur)
            cur = []
        else:
            cur.append(tok)
    parts.append(cur)
    if len(parts) > 1:
        tys = [tokens_to_type(p) for p in parts]
        return ir.Fun(tuple(tys[:-1]), tys[-1])
    depth, items, cur = 0, [], []
    for tok in tokens:
        if tok[1] in ("(", "[", "{", "⟨"):
            depth += 1
        elif tok[1] in (")", "]", "}", "⟩"):
            depth -= 1
        if depth == 0 and tok[1] == "×":
            items.append(cur)
            cur = []
        else:
            cur.append(tok)
    items.append(cur)
    if len(items) > 1:
        tys = [tokens_to_type(p) for p in items]
        out = tys[-1]
        for t in reversed(tys[:-1]):
            out = ir.Tup((t, out))
        return out
    if tokens[0][1] == "(" and tokens[-1][1] == ")":
        return tokens_to_type(tokens[1:-1])
    if len(tokens) == 1 and tokens[0][1] in TYPE_NAMES:
        return TYPE_NAMES[tokens[0][1]]
    if len(tokens) > 1 and tokens[0][1] in TYPE_NAMES and (tokens[1][1] == "(" or tokens[1][0] in ("ident", "num")):
        # `ℝ (n : ℝ) → ℝ`: ℝ is a type, no function, so Lean rejects it applied to an argument ("function expected");
        # read as a sort named by its text, such a statement merged with its well-formed original
        raise ParseError(f"{text}: the type {tokens[0][1]} applied to an argument")
    return ir.Sort(text, _coercion(tokens))


def _one_atom(tokens: list[tuple[str, str]]) -> bool:
    """A single token or one parenthesised group."""
    if len(tokens) == 1:
        return True
    if tokens[0][1] != "(" or tokens[-1][1] != ")":
        return False
    depth = 0
    for k, (_, t) in enumerate(tokens):
        depth += (t in _OPENERS) - (t in _CLOSERS)
        if depth == 0 and k < len(tokens) - 1:
            return False
    return True


# the structures of ARROWS / SCALAR_ARROWS -> how many arguments precede the domain (the ring of `→ₗ[R]`)
_MAPS = {**{s: 0 for _, _, s in ARROWS.values()}, **{s: 1 for _, _, s, _ in SCALAR_ARROWS.values()}}


def _coercion(tokens: list[tuple[str, str]]) -> ir.Fun | None:
    """`MonoidHom G H` (`G →* H`) applies to an element of G and gives one of H (its `FunLike` coercion). A matrix
    `Matrix m n α` applies to a row and a column index (Mathlib: `def Matrix (m n α) := m → n → α`), so `A i j`
    types i : m and j : n, as Lean's unifier does for an unannotated `∀ i j, A i j = …`."""
    if not tokens or tokens[0][1] not in (*_MAPS, "Matrix"):
        return None
    atoms: list[list[tuple[str, str]]] = []
    depth = 0
    for tok in tokens[1:]:
        if depth == 0:
            atoms.append([])
        atoms[-1].append(tok)
        depth += (tok[1] in _OPENERS) - (tok[1] in _CLOSERS)
    try:
        if tokens[0][1] == "Matrix":
            if len(atoms) != 3:
                return None
            rows, cols, entry = (tokens_to_type(_strip_parens(a)) for a in atoms)
            return ir.Fun((rows, cols), entry)
        if len(atoms) != _MAPS[tokens[0][1]] + 2:
            return None
        return ir.Fun((tokens_to_type(_strip_parens(atoms[-2])),), tokens_to_type(_strip_parens(atoms[-1])))
    except ParseError:
        return None


def _group_end(texts: list[str]) -> int:
    """Index of the bracket that closes the one opening `texts` (-1 when none does)."""
    depth = 0
    for k, t in enumerate(texts):
        if t in ("(", "[", "{", "⟨"):
            depth += 1
        elif t in (")", "]", "}", "⟩"):
            depth -= 1
            if depth == 0:
                return k
    return -1


def is_type_binder(type_tokens: list[tuple[str, str]], type_vars: set[str]) -> bool:
    """Does a binder's type denote a type (so the binder declares variables) rather than a proposition?"""
    if not type_tokens:
        return True
    texts = [t for _, t in type_tokens]
    head = texts[0]
    if head in ("Type", "Sort") or head.startswith("Type"):
        return True
    core = texts
    while len(core) > 2 and core[0] == "(" and _group_end(core) == len(core) - 1:
        core = core[1:-1]  # `(h : (n % 2 = 1))`: parentheses around a proposition leave it one
    depth = 0
    for t in core:
        if t in ("(", "[", "{", "⟨"):
            depth += 1
        elif t in (")", "]", "}", "⟩"):
            depth -= 1
        elif depth == 0 and t in (
            "=",
            "≠",
            "<",
            ">",
            "≤",
            "≥",
            "∈",
            "∉",
            "∣",
            "∧",
            "∨",
            "¬",
            "↔",
            "∀",
            "∃",
            "∃!",
            "⊆",
            "≡",
            "True",
            "False",
        ):
            return False
    if head in TYPE_NAMES or head in TYPE_HEADS or head in type_vars or head == "(":
        return True
    if "→" in texts or "->" in texts:
        parts = [texts[0]]
        return (
            all(
                p in TYPE_NAMES or p in TYPE_HEADS or p in type_vars or p in ("(", ")", "→", "->")
                for p in texts
                if p not in parts
            )
            or head in TYPE_NAMES
        )
    return False


# ----------------------------------------------------------------------------------------------- statement


def read_statement(text: str) -> LeanStatement:
    """The statement's structure from `atf.lean`'s statement reader (the one reader of theorem headers,
    binders and `:=` that knows Lean's lexer: strings, nested comments, `«»` names, `t.{u}`). A candidate
    written without a body is read as if it ended in `:= sorry`."""
    try:
        return lean_statement.parse_statement(text)
    except lean_statement.StatementParseError as err:
        if "missing `:=`" not in err.bare:
            raise ParseError(str(err)) from err
    try:
        return lean_statement.parse_statement(text.rstrip() + " := sorry")
    except lean_statement.StatementParseError as err:
        raise ParseError(str(err)) from err


def conclusion_tokens(st: LeanStatement) -> list[tuple[str, str]]:
    """The conclusion's tokens, with the `;` its line breaks stand for (`tokenize_lines`)."""
    at = st.text.rfind(st.conclusion, 0, st.body_start)
    return tokenize_lines(strip_comments(st.conclusion), at - st.text.rfind("\n", 0, at) - 1 if at >= 0 else 0)


def _is_universe(type_text: str) -> bool:
    toks = tokenize(type_text)
    return bool(toks) and (toks[0][1] in ("Type", "Sort") or toks[0][1].startswith("Type"))


def binder_groups(st: LeanStatement, section_variables: bool = False) -> list[tuple[str, list[str], str]]:
    """Each binder as (kind, names, type text): kind "inst" (an instance `[Group G]`), "vars" (names with
    no type: `{n}`), "type" (a type variable `(α : Type*)`) or "typed" (a variable or a hypothesis).
    section_variables: the `variable`s Lean adds to the theorem first (`LeanStatement.included_variables`)."""
    out = []
    for b in [*st.included_variables(), *st.binders] if section_variables else st.binders:
        type_text = strip_comments(b.type or "")
        if b.bracket == "[" and len(b.names) != 1:
            out.append(("inst", [], type_text))
        elif b.type is None:
            out.append(("vars", list(b.names), ""))
        elif _is_universe(type_text):
            out.append(("type", list(b.names), type_text))
        else:
            out.append(("typed", list(b.names), type_text))
    return out


def binder_roles(st: LeanStatement, section_variables: bool = False) -> list[tuple[str, list[str], str]]:
    """`binder_groups` with each "typed" binder told apart as "var" (its type denotes a type) or "hyp" (a
    proposition), given the type variables of the `(α : Type*)` groups before it."""
    type_vars: set[str] = set()
    out = []
    for kind, names, ty in binder_groups(st, section_variables):
        if kind == "type":
            type_vars.update(names)
        elif kind == "typed":
            kind = "var" if is_type_binder(tokenize(ty), type_vars) else "hyp"
        out.append((kind, names, ty))
    return out


def parse_prop(tokens: list[tuple[str, str]], notes: list[str], names: frozenset[str] = frozenset()) -> Term:
    try:
        return _Parser(tokens, names).parse()
    except (ParseError, ValueError, ZeroDivisionError, RecursionError) as err:
        split = None if isinstance(err, (ir.TooDeep, RecursionError)) else _logical_split(tokens)
        if split is not None:
            op, parts = split
            if op == "paren":
                return parse_prop(parts[0], notes, names)
            read = [parse_prop(p, notes, names) for p in parts]
            return ir.chained(op, read) if op in ir.CHAINED else App(op, tuple(read))
        notes.append(f"unparsed {' '.join(t for _, t in tokens)[:80]!r}: {err}")
        return opaque_from_tokens(tokens, ir.BOOL)


def _logical_split(tokens: list[tuple[str, str]]) -> tuple[str, list[list[tuple[str, str]]]] | None:
    """A proposition the parser could not read, cut at its outermost logical structure: `(op, parts)` for
    `A ↔ B`, `A → B`, `A ∨ B`, `A ∧ B` (the connective of lowest precedence at bracket depth 0, the first of a
    right-associative chain), `¬ A`, or `( A )` ("paren"), so that only the unreadable parts stay opaque
    (`¬ ¬ (X ↔ Y)` is then `X ↔ Y` up to double negation). None when there is no such structure; connectives
    after a binder, a branch or a bar are not looked at (`∀ x, A → B` is one body)."""
    if len(tokens) < 2:
        return None
    depth, top, blocked = 0, [], False
    for k, (_, t) in enumerate(tokens):
        if t in _PROP_OPEN:
            depth += 1
        elif t in _PROP_CLOSE:
            depth -= 1
            if depth < 0:
                return None
        elif depth == 0 and not blocked:
            # a body or branch from here to the end: its connectives are its own (also `∑'`, `⨆`, `∀ᶠ`, ...)
            blocked = t in _PROP_BLOCKERS or t[:1] in _BINDER_HEADS
            if not blocked:
                top.append((k, t))
    if depth != 0:
        return None
    for sym, op in _CONNECTIVES:
        at = [k for k, t in top if t == sym or (sym == "→" and t == "->")]
        if not at or (sym == "↔" and len(at) > 1):
            continue
        if op in ir.CHAINED:  # every operand of the chain at once, as `chain` reads it: no re-reading of the rest
            parts = [tokens[a + 1 : b] for a, b in zip([-1, *at], [*at, len(tokens)])]
            return (op, parts) if all(parts) else None
        k = at[0]
        left, right = tokens[:k], tokens[k + 1 :]
        return (op, [left, right]) if left and right else None
    if tokens[0][1] == "¬":
        return "not", [tokens[1:]]
    if tokens[0][1] == "(" and tokens[-1][1] == ")" and _closes_at_end(tokens) and len(tokens) > 2:
        return "paren", [tokens[1:-1]]
    return None


def _closes_at_end(tokens: list[tuple[str, str]]) -> bool:
    """Whether the bracket opened by the first token is closed by the last."""
    depth = 0
    for k, (_, t) in enumerate(tokens):
        depth += (t in _PROP_OPEN) - (t in _PROP_CLOSE)
        if depth == 0:
            return k == len(tokens) - 1
    return False


_BINDING = ("∀", "∃", "∃!", "λ", "fun", "∑", "∏", "⋃", "⋂", "Π", "Σ", "∫")

_PROP_OPEN, _PROP_CLOSE = ("(", "[", "{", "⟨", "⦃", "⁅", "⟪"), (")", "]", "}", "⟩", "⦄", "⁆", "⟫")
# tokens after which a connective at bracket depth 0 may belong to a body or a branch that extends to the end (the
# connectives before the first of them are the proposition's own: `A → ∀ x, B ↔ C` is `A → (∀ x, B ↔ C)`)
_BINDER_HEADS = frozenset("∀∃λΠΣ∑∏⋃⋂∫⨆⨅∮")
_PROP_BLOCKERS = {*_BINDING, "fun", "if", "then", "else", "$", "<|", "match", "let", "have", "show", "by", "|"}
# Lean 4 core (Init/Core.lean, Prelude): `↔` is `infix:20` (no chaining), `→` `infixr:25`, `∨` `infixr:30`, `∧`
# `infixr:35`, and `¬ p` is `notation:max "¬" p:40`, so `¬ a ∧ b` is `(¬ a) ∧ b`
_CONNECTIVES = (("↔", "iff"), ("→", "implies"), ("∨", "or"), ("∧", "and"))


def bound_names(tokens: list[tuple[str, str]]) -> set[str]:
    """Names a statement binds: the identifiers between a binder and its `,` / `=>` that are not in a type
    (`∃ (S : End ℂ V), ...` binds S only) or a bound (`∀ x ∈ A, ...`), and the first identifier of
    `{x | ...}` / `{x : T // ...}` (an over-approximation errs towards not resolving a name)."""
    out: set[str] = set()
    binding = typing = False
    depth = 0
    for k, (kind, text) in enumerate(tokens):
        if text in _BINDING:
            binding, typing, depth = True, False, 0
        elif not binding:
            if text == "{" and k + 1 < len(tokens) and tokens[k + 1][0] == "ident":
                out.add(tokens[k + 1][1])
        elif text in ("(", "{", "[", "⦃"):
            depth += 1
            typing = False
        elif text in (")", "}", "]", "⦄"):
            depth -= 1
            typing = False
        elif depth <= 0 and text in (",", "=>", "↦"):
            binding = False
        elif text == ":" or (depth <= 0 and text in ("∈", "∉", "<", ">", "≤", "≥", "≠", "⊆", "∣", "in")):
            typing = True
        elif kind == "ident" and not typing:
            out.add(text)
    return out


def qualified_names(texts: Iterable[str]) -> frozenset[str]:
    """The dotted identifiers written in some texts (`Fintype.card`, `Subgroup.closure`): where one of them is
    written, that declaration exists."""
    return frozenset(
        tok for text in texts for kind, tok in tokenize(strip_comments(text)) if kind == "ident" and "." in tok
    )


def open_resolution(opens: Iterable[str], qualified: Iterable[str], protected: set[str]) -> dict[str, str]:
    """Unqualified name -> the declaration it resolves to under `open N`, where that is decided: `f` is `N.f`
    when N is open and `N.f` is written in one of the statements compared (so it exists), and no other open
    namespace M has an `M.f` written. A statement that compiles has exactly one reading of an overloaded `f`
    (Lean reports ambiguity otherwise), and `N.f` type-checks with the same arguments in the other statement.
    `protected`: the statement's own variables and bound names, which shadow any declaration."""
    opened = set(opens)
    readings: dict[str, set[str]] = {}
    for q in qualified:
        parts = q.split(".")
        for k in range(1, len(parts)):
            if ".".join(parts[:k]) in opened:
                readings.setdefault(".".join(parts[k:]), set()).add(q)
    return {short: next(iter(qs)) for short, qs in readings.items() if len(qs) == 1 and short not in protected}


# Bare names that several Mathlib namespaces define with different meanings. Which one a bare name is depends on the
# namespaces the header opens (Lean's name resolution: under `open Nat` alone `sqrt n` is `Nat.sqrt n`, under `open
# Int` alone `floor x` is `Int.floor x`, under `open Set` alone `range f` is `Set.range f`). With several of them open,
# Lean keeps the readings that elaborate and rejects an ambiguous one; the second value says what is read then: a
# reading ("Real.sqrt": with a ℕ argument `Nat.sqrt` and `Real.sqrt ↑n` both elaborate, an ambiguity, so a statement
# that compiles takes `Real.sqrt`), the set of readings the name as written tells apart by its argument's type and
# count (`log x` is Real.log, `log b n` Nat.log; `range n` a Finset, `range f` a Set), kept bare when the open ones are
# among them, or None (the argument types decide, which the reader cannot see here: the name stays an unknown function).
OVERLOADED: dict[str, tuple[tuple[str, ...], str | frozenset[str] | None]] = {
    "sqrt": (("Real.sqrt", "Nat.sqrt", "NNReal.sqrt", "Int.sqrt"), "Real.sqrt"),
    "floor": (("Int.floor", "Nat.floor"), None),
    "ceil": (("Int.ceil", "Nat.ceil"), None),
    "exp": (("Real.exp", "Complex.exp"), None),
    "sin": (("Real.sin", "Complex.sin"), None),
    "cos": (("Real.cos", "Complex.cos"), None),
    "tan": (("Real.tan", "Complex.tan"), None),
    "log": (("Real.log", "Nat.log", "Complex.log", "Int.log"), frozenset({"Real.log", "Nat.log", "Int.log"})),
    "range": (("Finset.range", "Set.range", "List.range"), frozenset({"Finset.range", "Set.range", "List.range"})),
}


def overload_resolution(opens: Iterable[str], names: Iterable[str]) -> dict[str, str]:
    """Bare name -> what it reads as under the header's `open`s, for the names of `OVERLOADED` (see there; a name kept
    bare has no entry). A name no open namespace defines is not Mathlib's (an auto-bound implicit or an unknown
    constant): `_root_.<name>`, which no builtin reads."""
    opened = set(opens)
    out: dict[str, str] = {}
    for name in set(names) & OVERLOADED.keys():
        readings, several = OVERLOADED[name]
        providers = [q for q in readings if q.rsplit(".", 1)[0] in opened]
        if len(providers) == 1:
            out[name] = providers[0]
        elif isinstance(several, frozenset) and providers and set(providers) <= several:
            continue
        elif isinstance(several, str) and several in providers:
            out[name] = several
        else:
            out[name] = "_root_." + name
    return out


def _unshadow(groups: list, concl: list[tuple[str, str]]) -> tuple[list, list[tuple[str, str]]]:
    """Binders with a name declared again later renamed apart: in `(n : ℕ) (hn : n = 2) (n : ℕ) : n = 2` the second n
    shadows the first (Lean makes it inaccessible, `n✝`), so hn speaks of one n and the conclusion of the other
    (read as one variable, the statement merged with True). Each earlier declaration and the uses up to the next
    become `n'shadowedK` (`'` may continue a Lean name; no binder of a statement is written so)."""
    total: dict[str, int] = {}
    for _, names, _ in groups:
        for n in names:
            total[n] = total.get(n, 0) + 1
    if all(c == 1 for c in total.values()):
        return groups, concl
    seen: dict[str, int] = {}
    current: dict[str, str] = {}

    def rename(toks: list[tuple[str, str]]) -> list[tuple[str, str]]:
        return [(kd, current.get(t, t) if kd == "ident" else t) for kd, t in toks]

    out = []
    for kind, names, toks in groups:
        toks = rename(toks)
        renamed = []
        for n in names:
            seen[n] = seen.get(n, 0) + 1
            current[n] = n if seen[n] == total[n] else f"{n}'shadowed{seen[n]}"
            renamed.append(current[n])
        out.append((kind, renamed, toks))
    return out, rename(concl)


_LOCAL_NOTATIONS = {"notation", "notation3", "infix", "infixl", "infixr", "prefix", "postfix", "macro", "syntax"}


def names_in_scope(st: LeanStatement) -> tuple[list[str], dict[str, str], set[str]]:
    """What the theorem's unqualified names may resolve to, as Lean scopes it: the namespaces opened (a plain `open N`
    in force at the theorem: one inside a `section`/`namespace` that has ended is not, and the namespaces the
    theorem sits in count as open, `namespace Nat` making `sqrt` `Nat.sqrt`), explicit single names (`open Real (pi)`
    opens `pi` alone; `open N renaming a → b` makes b `N.a`; `open N hiding a` is read as these too: N stays closed,
    so no name is guessed from it), and the names the text's own commands declare (`def choose`, `local notation
    "π" => ...`, `macro "π" : term => ...`): those shadow Mathlib's, so no builtin reads them."""
    scopes: list[tuple[list[str], dict[str, str], list[str]]] = [([], {}, [])]  # opens, explicit, namespace parts
    declared: set[str] = set()

    def open_words(words: list[str]) -> None:
        opens, explicit, _ = scopes[-1]
        words = [w for w in words if w not in ("in",)]
        if not words or words[0] == "scoped":
            return
        if len(words) > 1 and words[1] in ("hiding", "renaming", "("):
            ns = words[0]
            if words[1] == "(":
                for w in words[2:]:
                    if w != ")":
                        explicit[w] = f"{ns}.{w}"
            elif words[1] == "renaming":
                rest = words[2:]
                for k in range(len(rest) - 2):
                    if rest[k + 1] in ("→", "->"):
                        explicit[rest[k + 2]] = f"{ns}.{rest[k]}"
            return
        opens.extend(words)

    main = st.commands[st.main_index]
    for cmd in st.commands[: st.main_index]:
        toks = cmd.body_tokens
        words = [t.text for t in toks]
        opened, closed = lean_statement.scope_step(cmd)
        if opened or closed:
            scopes.extend(([], {}, [name] if of_namespace else []) for name, of_namespace in opened)
            del scopes[len(scopes) - min(len(scopes) - 1, closed) :]
        elif cmd.keyword == "open" and not cmd.scopes:
            open_words(words[1:])
        elif cmd.keyword in lean_statement.DECLARATION_KEYWORDS and len(toks) > 1 and toks[1].kind == "ident":
            declared.add(toks[1].text.replace("«", "").replace("»", "").rsplit(".", 1)[-1])
        if cmd.keyword in _LOCAL_NOTATIONS:
            declared.update(t.text.strip('"').strip() for t in toks if t.kind == "string" and t.text.strip('"').strip())
    for scope in main.scopes:
        if scope.split()[:1] == ["open"]:
            open_words(scope.split()[1:])
    opens = [o for sc in scopes for o in sc[0]]
    explicit = {k: v for sc in scopes for k, v in sc[1].items()}
    namespace = [p for sc in scopes for p in sc[2] if p]
    opens.extend(".".join(namespace[: k + 1]) for k in range(len(namespace)))
    return list(dict.fromkeys(opens)), explicit, declared


def parse_statement(text: str, qualified: Iterable[str] = ()) -> RawStatement:
    """Read the last theorem/lemma/example of a Lean 4 text. qualified: the dotted names written in the
    statements it is compared with (see `open_resolution`); the text's own are always included."""
    st = read_statement(text)
    concl_tokens = conclusion_tokens(st)
    if not concl_tokens:
        raise ParseError("empty conclusion")
    groups = [(kind, names, tokenize(ty)) for kind, names, ty in binder_groups(st, section_variables=True)]
    groups, concl_tokens = _unshadow(groups, concl_tokens)
    resolve: dict[str, str] = {}
    every = [*concl_tokens, *(t for _, _, toks in groups for t in toks)]
    written = frozenset({*qualified, *(t for kind, t in every if kind == "ident" and "." in t)})
    opened, explicit, declared = names_in_scope(st)
    protected = {n for _, names, _ in groups for n in names} | bound_names(every)
    if opened:
        overloaded = overload_resolution(opened, {t for kind, t in every if kind == "ident"} - protected)
        # a name the builtins read already (`sqrt`, `exp`, `card`) keeps that reading: which namespace's `sqrt`
        # Lean picks depends on the argument's type, and the statement naming `Nat.sqrt` may apply it elsewhere
        builtin = {t for kind, t in every if kind == "ident" and builtins.is_builtin("lean", t)}
        resolve = open_resolution(opened, written, protected | builtin)
        resolve.update(overloaded)
    resolve.update({short: full for short, full in explicit.items() if short not in protected})
    # the text's own declarations shadow Mathlib's names: one opaque constant each (the compared texts declare the
    # same, `statement_context`), never the builtin of that name
    resolve.update({n: f"_local_.{n}" for n in declared if n not in protected})

    notes: list[str] = []
    type_vars: dict[str, str] = {}
    variables: list[tuple[str, Ty | None]] = []
    premises: list[Term] = []
    for kind, names, ty_toks in groups:  # type variables first, so that they can be renamed
        if kind == "type":
            # `Type*` / `Type u` are universe-polymorphic, `Type` is `Type 0`: a less general statement
            level = "".join(t for _, t in ty_toks[1:])
            mark = "" if level and level != "0" else "₀"
            for n in names:
                type_vars[n] = f"τ{len(type_vars) + 1}{mark}"
    declared = {n for _, names, _ in groups for n in names}
    for kind, _, ty_toks in groups:  # `[Group G]` with G declared nowhere: Lean auto-binds G : Type u_1
        if kind == "inst":
            for kd, t in ty_toks[1:]:
                if kd == "ident" and AUTO_BOUND.fullmatch(t) and t not in declared and t not in type_vars:
                    type_vars[t] = f"τ{len(type_vars) + 1}"

    # `#s`: `scoped[Finset] prefix:arg "#" => Finset.card` (Mathlib/Data/Finset/Card.lean); under `open Cardinal`,
    # `#α` is `Cardinal.mk α` (Mathlib/SetTheory/Cardinal/Defs.lean); `#[a, b]` is an array literal
    cardinal = "Cardinal" in st.header_opens
    hash_card = ("ident", "Cardinal.mk" if cardinal else "Finset.card")

    def rename(toks: list[tuple[str, str]]) -> list[tuple[str, str]]:
        out = []
        for k, (kd, t) in enumerate(toks):
            if kd == "ident":  # a field after `.` (`(f x).Normal`) is not a name in scope
                t = type_vars.get(t, t if k and toks[k - 1][1] == "." else resolve.get(t, t))
            elif (kd, t) == ("op", "#") and k + 1 < len(toks) and toks[k + 1][1] != "[":
                kd, t = hash_card
            out.append((kd, t))
        return out

    tv = set(type_vars.values())
    for kind, names, ty_toks in groups:
        if kind == "inst":  # `[IsSolvable G]` assumes what `(h : IsSolvable G)` does
            inst = rename(ty_toks)
            premises.append(parse_prop(inst, notes, written))
            notes.append("instance binder " + " ".join(t for _, t in ty_toks))
            if len(inst) == 2 and inst[0][1] in INHABITING_CLASSES and inst[1][1] in tv:
                # `[Group G]` gives G an element (`1`): a type that may be empty (`ir.may_be_empty`) is inhabited
                premises.append(ir.inhabited(ir.Sort(inst[1][1])))
            continue
        if kind == "vars":
            variables.extend((n, None) for n in names)
            continue
        if kind == "type":
            continue
        ty_toks = rename(ty_toks)
        if is_type_binder(ty_toks, tv):
            try:
                ty = tokens_to_type(ty_toks)
            except ParseError:
                ty = ir.Sort(" ".join(t for _, t in ty_toks))
            variables.extend((n, ty) for n in names if n != "_")
        else:
            premises.append(parse_prop(ty_toks, notes, written))
    conclusion = parse_prop(rename(concl_tokens), notes, written)

    def denoted_type(t: Term) -> Ty | None:  # the type a term names: a type variable or ℝ, ℕ, ...
        return (
            tokens_to_type([("ident", t.name)])
            if isinstance(t, Var) and (t.name in tv or t.name in TYPE_NAMES)
            else None
        )

    premises, conclusion = lean_predicates.read_classes(premises, conclusion, denoted_type)
    return RawStatement(
        "lean", variables, premises, [conclusion], notes, text, list(type_vars.values()), context=st.context()
    )
