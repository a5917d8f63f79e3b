"""The logic IR both front-ends (Lean 4, Isabelle/HOL) produce and the Z3 translation consumes.

Terms are immutable trees. After elaboration (`atf.symeq.elaborate`) every node carries its type and
every coercion is an explicit `cast` node, so the translation never guesses.

    Var(name)               a free or bound variable (functions too: `f` in `f x` is a Var)
    Num(value)              a rational literal
    App(op, args)           a built-in operation; `call` applies args[0] to args[1:]. Ops: true false and or
                            not implies iff eq ne lt le gt ge dvd in notin (relations; `gt`/`ge` never survive
                            elaboration), add sub mul div neg inv, idiv mod ediv emod fdiv fmod tdiv tmod (`div`
                            on Nat/Int is resolved by system and type; the named ones are Lean's Int.{e,f,t}div),
                            pow rpow powr abs sqrt floor ceil round min max ite gcd lcm fact choose even odd
                            prime tonat natabs cast ascribe coe pair fst snd icc ico ioc ioo range setenum card
                            filter call
    Bind(kind, vars, body)  forall / exists / exists1 / lambda / sum / prod / setof, with an optional
                            domain `dom` (`∑ i in S`, `∀ x ∈ S`)
    Opaque(template, args)  a construct the front-end does not model: its text with the variables
                            occurring in it cut out as `{0}`, `{1}`, ... so that renaming still applies;
                            Z3 sees it as an uninterpreted function of those variables.

Types: the numeric tower NAT < INT < RAT < REAL < COMPLEX, BOOL, Fun(args, ret), Tup(items), and
Sort(name) for anything else (an uninterpreted sort: `G` in `(G : Type*) [Group G]`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

# ----------------------------------------------------------------------------------------------- types


@dataclass(frozen=True)
class Ty:
    def __str__(self) -> str:  # pragma: no cover - overridden
        return self.__class__.__name__


@dataclass(frozen=True)
class Base(Ty):
    name: str  # nat | int | rat | real | complex | bool

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Fun(Ty):
    args: tuple[Ty, ...]
    ret: Ty

    def __str__(self) -> str:
        return "(" + " -> ".join(str(t) for t in (*self.args, self.ret)) + ")"


@dataclass(frozen=True)
class Tup(Ty):
    items: tuple[Ty, ...]

    def __str__(self) -> str:
        return "(" + " * ".join(str(t) for t in self.items) + ")"


@dataclass(frozen=True)
class SetTy(Ty):
    """A set (or Finset) of elements; as a value it is an uninterpreted sort."""

    elem: Ty

    def __str__(self) -> str:
        return f"set[{self.elem}]"


@dataclass(frozen=True)
class Sort(Ty):
    """An uninterpreted sort, named by the type as written (type variables already renamed).

    coe: how a value of the sort applies to arguments, where it does (Lean's `CoeFun`: `φ : G →* H` applies as
    a `G → H`); not part of the sort's identity."""

    name: str
    coe: Fun | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, eq=False)
class TVar(Ty):
    """A type still to be inferred (only inside `elaborate`)."""

    id: int
    numeral: bool = False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TVar) and other.id == self.id

    def __hash__(self) -> int:
        return hash(("tvar", self.id))

    def __str__(self) -> str:
        return f"?{self.id}"


NAT, INT, RAT, REAL, COMPLEX, BOOL = (Base(n) for n in ("nat", "int", "rat", "real", "complex", "bool"))
NUMERIC_TOWER = (NAT, INT, RAT, REAL, COMPLEX)
_ELEMENT_NAMES = {"ℝ": REAL, "ℕ": NAT, "ℤ": INT, "ℚ": RAT, "ℂ": COMPLEX, "real": REAL, "nat": NAT, "int": INT}


_NAMESPACES = {NAT: "Nat", INT: "Int", RAT: "Rat", REAL: "Real", COMPLEX: "Complex"}


def namespace_of(ty: Ty | None) -> str | None:
    """The namespace Lean's dot notation looks in for a value of type ty (`Subgroup G` -> Subgroup), or None
    when the type's head is not known here (a type variable, an unknown type)."""
    if ty in _NAMESPACES:
        return _NAMESPACES[ty]
    if isinstance(ty, SetTy):
        return "Finset"
    if isinstance(ty, Tup):
        return "Prod"
    if isinstance(ty, Sort):
        head = ty.name.split()[0] if ty.name.split() else ""
        if head[:1].isupper() and head.replace(".", "").replace("_", "").isalnum():
            return head
    return None


def collection_elem(ty: Ty | None) -> Ty | None:
    """The element type of a collection type kept as a sort name (`Set ℝ`, `Finset τ1`, Isabelle `real set`;
    a binder's `Set ℝ` stays a sort because it is not `Finset ℝ`), or None when it cannot be read."""
    if isinstance(ty, SetTy):
        return ty.elem
    if not isinstance(ty, Sort):
        return None
    words = ty.name.split()
    if len(words) > 2 and words[0] in ("Set", "Finset"):
        # `Set (Polynomial ℤ)`, `Set $ Polynomial ℤ` (`f $ x` is `f (x)`): the element type as a variable of it is
        # written, when it is a ring SymEq knows (a polynomial ring; other applied types stay unread)
        rest = words[2:-1] if words[1] == "(" and words[-1] == ")" else words[2:] if words[1] == "$" else []
        parts = rest[::2]
        if len(parts) > 1 and all(w == "×" for w in rest[1::2]) and all(w in _ELEMENT_NAMES for w in parts):
            # `Set (ℝ × ℝ)`: pairs of numbers (`×` associates to the right, `ℕ × ℕ × ℕ` is `ℕ × (ℕ × ℕ)`), as a
            # binder `(p : ℝ × ℝ)` reads them
            out: Ty = _ELEMENT_NAMES[parts[-1]]
            for w in reversed(parts[:-1]):
                out = Tup((_ELEMENT_NAMES[w], out))
            return out
        elem_ty = Sort(" ".join(rest))
        # `Finset (Fin n)`: its elements are of the sort a binder `(i : Fin n)` declares (Lean's `Membership α
        # (Finset α)` fixes a bound `∑ i ∈ s` to Fin n, where it had been read at a guessed ℕ)
        return elem_ty if rest and (commutative_ring(elem_ty) or rest[0] == "Fin") else None
    if len(words) != 2:
        return None
    head, elem = (words[0], words[1]) if words[0] in ("Set", "Finset") else (words[1], words[0])
    if head not in ("Set", "Finset", "set"):
        return None
    if elem in _ELEMENT_NAMES:
        return _ELEMENT_NAMES[elem]
    return Sort(elem) if elem.startswith("τ") or elem.startswith("'") else None


def is_numeric(t: Ty | None) -> bool:
    return t in NUMERIC_TOWER


def numeric_join(a: Ty, b: Ty) -> Ty:
    """The larger of two numeric types (where Lean's `binop%` puts the coercions)."""
    return a if NUMERIC_TOWER.index(a) >= NUMERIC_TOWER.index(b) else b


# ----------------------------------------------------------------------------------------------- terms


@dataclass(frozen=True)
class Term:
    def children(self) -> tuple[Term, ...]:
        return ()


@dataclass(frozen=True)
class Var(Term):
    name: str
    ty: Ty | None = None

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Num(Term):
    value: Fraction
    ty: Ty | None = None

    def __str__(self) -> str:
        v = self.value
        return str(v.numerator) if v.denominator == 1 else f"({v.numerator}/{v.denominator})"


@dataclass(frozen=True)
class App(Term):
    op: str
    args: tuple[Term, ...]
    ty: Ty | None = None
    # cast: the source type is args[0].ty, the target is ty; ascribe (parser only): target in `target`
    target: Ty | None = None

    def children(self) -> tuple[Term, ...]:
        return self.args

    def __str__(self) -> str:
        return show(self)


@dataclass(frozen=True)
class Bind(Term):
    kind: str  # forall | exists | exists1 | lambda | sum | prod | setof
    vars: tuple[tuple[str, Ty | None], ...]
    body: Term
    dom: Term | None = None
    ty: Ty | None = None

    def children(self) -> tuple[Term, ...]:
        return (self.body,) if self.dom is None else (self.dom, self.body)

    def __str__(self) -> str:
        return show(self)


@dataclass(frozen=True)
class Opaque(Term):
    template: str
    args: tuple[Term, ...] = ()
    ty: Ty | None = None

    def children(self) -> tuple[Term, ...]:
        return self.args

    def __str__(self) -> str:
        return show(self)


TRUE = App("true", ())
FALSE = App("false", ())


def app(op: str, *args: Term, ty: Ty | None = None) -> App:
    return App(op, tuple(args), ty)


def conj(items: Iterable[Term]) -> Term:
    items = [t for t in items if t != TRUE and not (isinstance(t, App) and t.op == "true")]
    if not items:
        return App("true", (), BOOL)
    return items[0] if len(items) == 1 else App("and", tuple(items), BOOL)


CHAINED = frozenset({"and", "or"})  # the associative connectives the front-ends read as one n-ary node (`chained`)


def chained(op: str, parts: Iterable[Term]) -> App:
    """The n-ary `op` ("and" or "or", associative) of parts, with any part that is itself an `op` spliced in: `(a ∧ b) ∧
    c`, `a ∧ (b ∧ c)` and `a ∧ b ∧ c` are one term, also where it stays opaque text."""
    out: list[Term] = []
    for p in parts:
        out.extend(p.args if isinstance(p, App) and p.op == op else (p,))
    return App(op, tuple(out))


def left_fold(op: str, items: Sequence[Term], ty: Ty | None = None) -> Term:
    """`items[0] op items[1] op …` nested to the left, as `a + b + c` is written (items nonempty)."""
    out = items[0]
    for x in items[1:]:
        out = App(op, (out, x), ty)
    return out


def flatten_and(t: Term) -> list[Term]:
    if isinstance(t, App) and t.op == "and":
        return [x for a in t.args for x in flatten_and(a)]
    if isinstance(t, App) and t.op == "true":
        return []
    return [t]


def type_of(t: Term) -> Ty | None:
    return getattr(t, "ty", None)


# ----------------------------------------------------------------------------------------------- walks


def map_children(t: Term, f: Callable[[Term], Term]) -> Term:
    """The same node with `f` applied to each child."""
    if isinstance(t, App):
        new = tuple(f(a) for a in t.args)
        return t if new == t.args else replace(t, args=new)
    if isinstance(t, Bind):
        body = f(t.body)
        dom = f(t.dom) if t.dom is not None else None
        return t if (body is t.body and dom is t.dom) else replace(t, body=body, dom=dom)
    if isinstance(t, Opaque):
        new = tuple(f(a) for a in t.args)
        return t if new == t.args else replace(t, args=new)
    return t


def walk(t: Term) -> Iterator[Term]:
    """t and its subterms, in preorder. A stack, not nested generators: each of those passes every term up through
    every level above it, quadratic in a deep tree's depth (a flat sum of n terms is n deep)."""
    stack = [t]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(reversed(x.children()))


def free_vars(t: Term, bound: frozenset[str] = frozenset()) -> set[str]:
    if isinstance(t, Var):
        return set() if t.name in bound else {t.name}
    if isinstance(t, Bind):
        inner = bound | {n for n, _ in t.vars}
        out = free_vars(t.body, inner)
        if t.dom is not None:
            out |= free_vars(t.dom, bound)
        return out
    out: set[str] = set()
    for c in t.children():
        out |= free_vars(c, bound)
    return out


def substitute(t: Term, mapping: dict[str, Term]) -> Term:
    """Capture-avoiding substitution of free variables."""
    if not mapping:
        return t
    if isinstance(t, Var):
        return mapping.get(t.name, t)
    if isinstance(t, Bind):
        names = {n for n, _ in t.vars}
        inner = {k: v for k, v in mapping.items() if k not in names}
        dom = substitute(t.dom, mapping) if t.dom is not None else None
        if not inner:
            return replace(t, dom=dom)
        clash = names & set().union(*(free_vars(v) for v in inner.values()))
        vars_, body = t.vars, t.body
        if clash:
            taken = clash | names | set(inner) | set().union(*(free_vars(v) for v in inner.values())) | free_vars(body)
            ren: dict[str, Term] = {}
            new_vars = []
            for n, ty in vars_:
                if n in clash:
                    fresh = fresh_name(n, taken)
                    taken.add(fresh)
                    ren[n] = Var(fresh, ty)
                    new_vars.append((fresh, ty))
                else:
                    new_vars.append((n, ty))
            body = substitute(body, ren)
            vars_ = tuple(new_vars)
        return replace(t, vars=vars_, body=substitute(body, inner), dom=dom)
    return map_children(t, lambda c: substitute(c, mapping))


def beta(f: Bind, args: tuple[Term, ...] | list[Term]) -> Term | None:
    """The body of the lambda f applied to args, or None where a parameter occurs in a type inside the body and its
    argument is not a variable: `(fun n ↦ {σ : Fin n → Fin n | …}.ncard) (n + 5)` has the type `Fin (n + 5)` inside,
    which a type written as text cannot carry, and substituting only the terms would leave `Fin n` there (one value
    for every argument). A variable argument renames the types too (`ir.rename_types_in`)."""
    params = [n for n, _ in f.vars]
    dependent = sort_names((), [f.body]) & set(params)
    body = f.body
    if dependent:
        if not all(isinstance(a, Var) for a, n in zip(args, params) if n in dependent):
            return None
        ren = {n: a.name for n, a in zip(params, args) if n in dependent and isinstance(a, Var) and a.name != n}
        if ren and set(ren.values()) & set(params):
            return None  # a swap of parameters (`(fun m n ↦ …) n m`): renaming types in one pass would capture
        body = rename_types_in(body, ren)
    return substitute(body, {n: a for n, a in zip(params, args)})


def rename_free(t: Term, mapping: dict[str, str]) -> Term:
    return substitute(t, {k: Var(v, None) for k, v in mapping.items()}) if mapping else t


def rename_free_typed(t: Term, mapping: dict[str, str]) -> Term:
    """Rename free variables keeping each occurrence's type."""
    if not mapping:
        return t

    def go(x: Term, bound: frozenset[str]) -> Term:
        if isinstance(x, Var):
            return replace(x, name=mapping[x.name]) if x.name in mapping and x.name not in bound else x
        if isinstance(x, Bind):
            names = {n for n, _ in x.vars}
            # a bound name that a renamed free variable would become is renamed first (`∀ x, x = g` with g -> x)
            incoming = {mapping[k] for k in free_vars(x.body) if k in mapping and k not in names and k not in bound}
            clash = names & incoming
            vars_, body = x.vars, x.body
            if clash:
                taken = names | set(mapping) | set(mapping.values()) | free_vars(body)
                fresh: dict[str, str] = {}
                for n in clash:
                    fresh[n] = fresh_name(n, taken)
                    taken.add(fresh[n])
                vars_ = tuple((fresh.get(n, n), ty) for n, ty in vars_)
                body = rename_free_typed(body, fresh)
            inner = bound | {n for n, _ in vars_}
            dom = go(x.dom, bound) if x.dom is not None else None
            return replace(x, vars=vars_, body=go(body, inner), dom=dom)
        return map_children(x, lambda c: go(c, bound))

    return go(t, frozenset())


def fresh_name(base: str, taken: set[str]) -> str:
    i = 1
    while f"{base}_{i}" in taken:
        i += 1
    return f"{base}_{i}"


def size(t: Term) -> int:
    return sum(1 for _ in walk(t))


# ----------------------------------------------------------------------------------------------- keys


# Operations whose arguments may be reordered in a key (arguments of `and`/`or` are a set of
# conjuncts/disjuncts; `a = b` is `b = a`).
COMMUTATIVE = {"and", "or", "eq", "iff", "add", "mul", "min", "max", "gcd", "lcm"}
# polynomial rings over a commutative coefficient ring written as a concrete type: Mathlib's
# `Polynomial.commRing`/`MvPolynomial.instCommRing` (Polynomial R is commutative when R is), so + and * on them
# are associative and commutative
_COMMUTATIVE_RING = re.compile(
    r"(Polynomial|MvPolynomial (\S+|\( .* \))) (ℕ|ℤ|ℚ|ℝ|ℂ|Nat|Int|Rat|Real|Complex|\( ZMod \S+ \))"
    r"|GaussianInt"  # NumberTheory/Zsqrtd/GaussianInt.lean: `GaussianInt := ℤ√-1`, a `CommRing` (Zsqrtd.commRing)
)


def commutative_ring(ty: Ty | None) -> bool:
    """A ring sort whose `+` and `*` commute although SymEq keeps its elements uninterpreted."""
    return isinstance(ty, Sort) and _COMMUTATIVE_RING.fullmatch(ty.name) is not None


def _atom(s: str) -> str:
    return f"{len(s)}#{s}"  # length-prefixed, so that no name or template can be confused with structure


def alpha_key(t: Term, free_map: dict[str, str] | None = None) -> str:
    """A key equal for alpha-equivalent terms (bound names become de Bruijn levels; arguments of a
    commutative operation are a multiset).

    The key is a string built bottom-up, each child's once, so a term costs O(size · log) rather than
    re-rendering subtrees at every level. free_map renames free variables first (used after alignment)."""
    free_map = free_map or {}

    def go(x: Term, env: dict[str, int], depth: int) -> str:
        if isinstance(x, Var):
            if x.name in env:
                return f"b{env[x.name]}"
            return "v" + _atom(free_map.get(x.name, x.name))
        if isinstance(x, Num):
            return f"n{x.value}|" + _atom(str(x.ty))
        if isinstance(x, App):
            kids = [go(a, env, depth) for a in x.args]
            if x.op in COMMUTATIVE and (x.op not in ("add", "mul") or is_numeric(x.ty) or commutative_ring(x.ty)):
                kids.sort()  # `*` in a group or on matrices does not commute
            return "a" + _atom(x.op) + (_atom(str(x.ty)) if x.op == "cast" else "") + "(" + ",".join(kids) + ")"
        if isinstance(x, Bind):
            inner = dict(env)
            for i, (n, _) in enumerate(x.vars):
                inner[n] = depth + i
            dom = go(x.dom, env, depth) if x.dom is not None else "-"
            tys = "".join(_atom(str(ty)) for _, ty in x.vars)
            return "q" + _atom(x.kind) + "[" + tys + "]" + dom + ";" + go(x.body, inner, depth + len(x.vars))
        if isinstance(x, Opaque):
            return "o" + _atom(x.template) + _atom(str(x.ty)) + "(" + ",".join(go(a, env, depth) for a in x.args) + ")"
        raise TypeError(type(x))

    return go(t, {}, 0)


# ----------------------------------------------------------------------------------------------- printing

_INFIX = {
    "add": "+",
    "sub": "-",
    "mul": "*",
    "div": "/",
    "eq": "=",
    "ne": "≠",
    "lt": "<",
    "le": "≤",
    "gt": ">",
    "ge": "≥",
    "and": "∧",
    "or": "∨",
    "implies": "→",
    "iff": "↔",
    "pow": "^",
    "mod": "%",
    "idiv": "div",
    "dvd": "∣",
    "in": "∈",
    "notin": "∉",
    "rpow": "^r",
    "powr": "powr",
}


def show(t: Term) -> str:
    """A readable rendering (for messages and counterexamples, not for re-parsing)."""
    if isinstance(t, (Var, Num)):
        return str(t)
    if isinstance(t, App):
        if t.op in ("true", "false"):
            return "True" if t.op == "true" else "False"
        if t.op in _INFIX and len(t.args) >= 2:
            return "(" + f" {_INFIX[t.op]} ".join(show(a) for a in t.args) + ")"
        if t.op == "not":
            return f"¬{show(t.args[0])}"
        if t.op == "neg":
            return f"-{show(t.args[0])}"
        if t.op == "cast":
            return f"({show(t.args[0])} : {t.ty})"
        if t.op == "ascribe":  # the written type is part of the meaning of an opaque `(f : ℕ → ℕ) i`
            return f"({show(t.args[0])} : {t.target})"
        if t.op == "call":
            return "(" + " ".join(show(a) for a in t.args) + ")"
        return f"{t.op}(" + ", ".join(show(a) for a in t.args) + ")"
    if isinstance(t, Bind):
        vs = " ".join(n for n, _ in t.vars)
        dom = f" ∈ {show(t.dom)}" if t.dom is not None else ""
        return f"({t.kind} {vs}{dom}. {show(t.body)})"
    if isinstance(t, Opaque):
        try:
            return t.template.format(*(show(a) for a in t.args))
        except (IndexError, KeyError, ValueError):
            return t.template
    return repr(t)


@dataclass
class Statement:
    """A formal statement as premises ⟹ conclusion over typed free variables.

    system: "lean" or "isabelle": which semantics the operations follow.
    variables: free variables and their types, in order of declaration.
    premises: boolean terms (assumptions, binder hypotheses, definitions of defined constants).
    conclusion: a boolean term.
    opaque: descriptions of the pieces the front-end could not model (kept as Opaque terms).
    source: the text the statement came from.
    declared: the variables the text declares (Isabelle `fixes`, constants defined before the theorem); the
        others are fixed implicitly, and may be library constants SymEq does not know.
    context: the declarations before the theorem that SymEq does not model (Lean `def`s, `notation`s, ...), as
        text: they give the statement's names their meaning, so statements under different contexts are never
        equivalent (`def f x := x + 1` against `def f x := x + 2` before the same `f 2 = 3`).
    """

    system: str
    variables: dict[str, Ty]
    premises: list[Term]
    conclusion: Term
    opaque: list[str] = field(default_factory=list)
    source: str = ""
    declared: frozenset[str] = frozenset()
    context: str = ""

    def key(self, free_map: dict[str, str] | None = None) -> tuple:
        """Alpha-equivalence key: premises as a multiset, conclusion as is, then the type signatures of each
        (alpha keys alone do not see `Fin n` against `Fin k`)."""
        return (
            tuple(sorted(alpha_key(p, free_map) for p in self.premises)),
            alpha_key(self.conclusion, free_map),
            type_signature(self.premises, free_map),
            type_signature([self.conclusion], free_map),
            self.context,
        )

    @property
    def fully_modelled(self) -> bool:
        return not self.opaque

    def __str__(self) -> str:
        vs = ", ".join(f"{n} : {t}" for n, t in self.variables.items())
        ps = "; ".join(show(p) for p in self.premises)
        return f"[{vs}] {ps} ⊢ {show(self.conclusion)}"


@dataclass
class RawStatement:
    """What a front-end parsed, before types are inferred.

    variables: declared free variables (type None when not given; Sort("Type") for type variables).
    premises / conclusions: untyped terms.
    opaque: notes on constructs the parser kept opaque.
    """

    system: str
    variables: list[tuple[str, Ty | None]]
    premises: list[Term]
    conclusions: list[Term]
    opaque: list[str] = field(default_factory=list)
    source: str = ""
    type_vars: list[str] = field(default_factory=list)
    context: str = ""


class ParseError(ValueError):
    """The text is not a statement the front-end can read at all."""


MAX_DEPTH = 150
"""The deepest term a front-end passes on (`depth`). The statement compiler's passes recurse once per level, several
Python frames each, so a term a few hundred levels deep overran Python's stack somewhere between parsing and Z3, after
work quadratic in its depth (a hostile `x + 1 + 1 + …`, `¬ ¬ ¬ …`, `((((…))))`). A chain of `∧` or `∨` is one level
however long (`chained`). Of the 15,129 statements `eval/symeq_readings.py` reads (benchmarks and candidates), none
nests deeper than 23 levels as parsed; their standard forms, sums unrolled, reach 203 levels, which the passes after
the parser handle."""


class TooDeep(ParseError):
    """A proposition nests deeper than `MAX_DEPTH` (or than Python's stack allows the parser)."""


def depth(t: Term) -> int:
    """The number of nodes on t's longest path from the root (a variable: 1), without recursion."""
    best, stack = 0, [(t, 1)]
    while stack:
        x, d = stack.pop()
        best = max(best, d)
        stack.extend((c, d + 1) for c in x.children())
    return best


def opaque_from_tokens(tokens: list[tuple[str, str]], ty: Ty | None = None) -> Opaque:
    """An Opaque term from (kind, text) tokens: identifier tokens become arguments.

    At elaboration, arguments that are not variables in scope are folded back into the text."""
    parts: list[str] = []
    args: list[Term] = []
    for kind, text in canonical_bound_tokens(tokens):
        if kind == "ident":
            parts.append("{" + str(len(args)) + "}")
            args.append(Var(text))
        else:
            parts.append(text.replace("{", "{{").replace("}", "}}"))
    return Opaque(" ".join(parts), tuple(args), ty)


class TokenCursor:
    """The token-stream half of a front-end's Pratt parser: `toks` are (kind, text) pairs; subclasses add
    `at` (which kinds a keyword may be) and the grammar, starting at `expr(min_bp)`."""

    END = "unexpected end"

    def __init__(self, tokens: list[tuple[str, str]]):
        self.toks = tokens
        self.i = 0

    def peek(self, k: int = 0) -> tuple[str, str] | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def next(self) -> tuple[str, str]:
        t = self.peek()
        if t is None:
            raise ParseError(self.END)
        self.i += 1
        return t

    def expect(self, text: str) -> None:
        t = self.next()
        if t[1] != text:
            raise ParseError(f"expected {text!r}, found {t[1]!r}")

    def parse(self) -> Term:
        """The whole token stream as one term; TooDeep past `MAX_DEPTH` levels."""
        try:
            e = self.expr(0)
        except RecursionError:
            raise TooDeep(f"nests deeper than {MAX_DEPTH} levels") from None
        if self.peek() is not None:
            raise ParseError(f"unexpected {self.peek()[1]!r}")
        if (d := depth(e)) > MAX_DEPTH:
            raise TooDeep(f"nests {d} levels deep, more than {MAX_DEPTH}")
        return e

    def expr(self, min_bp: int) -> Term:
        raise NotImplementedError


# ----------------------------------------------------------------------------------------------- dependent types


def _receiver(token: str) -> str | None:
    """`T` of a dotted token `T.Eigenvalues` (a field of the value T), None for a token without a dot."""
    head, dot, _ = token.partition(".")
    return head if dot and head else None


def type_words(ty: Ty | None) -> list[str]:
    """The identifiers written inside a type's uninterpreted sorts, in order (`Fin k → ℤ`: Fin, k; `Fin l.length`:
    Fin, l.length)."""
    if isinstance(ty, Sort):
        return re.findall(r"[^\W\d][\w'.]*", ty.name)
    if isinstance(ty, Fun):
        return [w for a in (*ty.args, ty.ret) for w in type_words(a)]
    if isinstance(ty, Tup):
        return [w for a in ty.items for w in type_words(a)]
    if isinstance(ty, SetTy):
        return type_words(ty.elem)
    return []


def type_names(ty: Ty | None) -> set[str]:
    """Identifiers written inside uninterpreted sorts (`n` in `Fin n`, `T` in `T.Eigenvalues`): the variables a
    type may depend on."""
    words = type_words(ty)
    return set(words) | {r for r in map(_receiver, words) if r is not None}


# Lean types known to have an element. Lean, unlike Isabelle/HOL (HOL.thy: every type is nonempty), has empty types:
# `Fin 0`, `Empty`, a type variable `(X : Type*)` (X may be `Empty`), a subtype `{x // P x}`, the elements `↥S` of
# a set; `∀ x : Fin 0, False` and `(X : Type) : ¬ ∃ x : X, True` are theorems of Mathlib. These heads are
# inhabited: `0 ∈ ZMod n` and `Polynomial R` (Mathlib: `Zero`), `∅ : Set α`/`Finset α`, `[] : List α`, `0 : Multiset`,
# `none : Option α`, `⊥` in `Ideal`/`Subgroup`/`Submodule`/`Subring`/`Subfield`/`Filter`, `1 : ℕ+`, `0 : ℝ≥0`/
# `ℝ≥0∞`/`EReal`/`GaussianInt`/`EuclideanSpace ℝ n` (a function space into ℝ), `Fin (k + 1)` (`0 : Fin (k + 1)`).
# A head counts when its arguments follow (`Set X`); `Set.Icc a b` used as a type is its elements, maybe none.
_INHABITED_HEAD = re.compile(
    r"(ZMod|Polynomial|MvPolynomial|Set|Finset|List|Multiset|Option|Ideal|Subgroup|Submodule|Subring|Subfield"
    r"|Filter|ENNReal|EReal|ℝ≥0∞|GaussianInt|EuclideanSpace ℝ|Type\*?|Sort\*?)( |$)"
)
_FIN_SUCC = re.compile(r"Fin (0*[1-9]\d*|\( ?.* \+ 0*[1-9]\d* ?\))")


def may_be_empty(ty: Ty | None, system: str) -> bool:
    """Whether a type may have no element in the system's semantics (never in Isabelle/HOL; in Lean, an
    uninterpreted sort not known inhabited, see `_INHABITED_HEAD`). A universe (`Type*`) has elements.
    Quantifiers over such a type cannot be dropped or read over a Z3 sort (every Z3 sort is nonempty)."""
    if system != "lean" or ty is None:
        return False
    if isinstance(ty, Sort):
        return not (_INHABITED_HEAD.match(ty.name) or _FIN_SUCC.fullmatch(ty.name))
    if isinstance(ty, Tup):
        return any(may_be_empty(t, system) for t in ty.items)
    if isinstance(ty, Fun):  # `α → β` has `fun _ => b` when β has b
        return may_be_empty(ty.ret, system)
    return False


def inhabited(ty: Ty) -> Term:
    """`∃ _ : ty, True`: the premise that a type has an element (a variable of it or an instance says so)."""
    return Bind("exists", (("_", ty),), App("true", (), BOOL), None, BOOL)


def instance_sorts(premises: Iterable[Term], classes: frozenset[str]) -> frozenset[str]:
    """The type variables that instance premises (`[Group G]`, `[Field F]`, read as `uf:Group uf:G`) declare an
    instance of one of these classes, by name."""
    out = set()
    for p in premises:
        if isinstance(p, App) and p.op == "call" and len(p.args) == 2:
            cls, ty = p.args
            if (
                isinstance(cls, Var)
                and cls.name.removeprefix("uf:") in classes
                and isinstance(ty, Var)
                and ty.name.startswith("uf:")
            ):
                out.add(ty.name.removeprefix("uf:"))
    return frozenset(out)


def sort_names(
    types: Iterable[Ty], terms: Iterable[Term], names: Callable[[Ty | None], set[str]] | None = None
) -> set[str]:
    """Names written inside the uninterpreted sorts of these types and of every node and binder of the terms
    (a variable of type `Subgroup (D n)` inlined away leaves terms of that type behind); `names` reads them from
    one type (default `type_names`)."""
    names = names or type_names
    out: set[str] = set()
    for t in types:
        out |= names(t)
    for p in terms:
        for x in walk(p):
            out |= names(getattr(x, "ty", None))
            if isinstance(x, Bind):
                for _, ty in x.vars:
                    out |= names(ty)
    return out


def type_variable_names(ty: Ty | None) -> set[str]:
    """The Isabelle type variables inside a type: the tokens of its sorts that start with `'` (written, `'a`,
    `'a::field`, or left by inference, `'?1`; `Elaborator.type_variable`)."""
    if isinstance(ty, Sort):
        return {w for w in ty.name.split() if w.startswith("'")}
    if isinstance(ty, Fun):
        return {w for a in (*ty.args, ty.ret) for w in type_variable_names(a)}
    if isinstance(ty, Tup):
        return {w for a in ty.items for w in type_variable_names(a)}
    if isinstance(ty, SetTy):
        return type_variable_names(ty.elem)
    return set()


def rename_type(ty: Ty | None, mapping: dict[str, str]) -> Ty | None:
    """The type with the variables it depends on renamed (`Fin n` -> `Fin m`). Sort names are the type's
    tokens joined by spaces, so a variable is a whole token."""
    if not mapping or ty is None:
        return ty
    if isinstance(ty, Sort):
        parts = ty.name.split()
        new = [
            mapping[r] + p[len(r) :] if (r := _receiver(p)) in mapping and p not in mapping else mapping.get(p, p)
            for p in parts
        ]
        return ty if new == parts else replace(ty, name=" ".join(new))
    if isinstance(ty, Fun):
        return Fun(tuple(rename_type(a, mapping) for a in ty.args), rename_type(ty.ret, mapping))
    if isinstance(ty, Tup):
        return Tup(tuple(rename_type(a, mapping) for a in ty.items))
    if isinstance(ty, SetTy):
        return SetTy(rename_type(ty.elem, mapping))
    return ty


def type_shape(ty: Ty | None, names: set[str]) -> Ty | None:
    """The type with every variable it depends on replaced by `_` (what alignment compares), and every Isabelle type
    variable's name by `'` (`'?1`, `'a::field` -> `'::field`: the statement compared renames them to match,
    `equivalence._type_variable_renaming`)."""
    renaming = {n: "_" for n in type_names(ty) & names}
    renaming.update({n: "'" + (n[n.index("::") :] if "::" in n else "") for n in type_variable_names(ty)})
    return rename_type(ty, renaming)


def rename_types_in(t: Term, mapping: dict[str, str]) -> Term:
    """Rename free variables inside the types carried by t's nodes (a binder of the same name shadows)."""
    if not mapping:
        return t

    def go(x: Term, m: dict[str, str]) -> Term:
        if isinstance(x, (Var, Num)):
            ty = rename_type(x.ty, m)
            return x if ty is x.ty else replace(x, ty=ty)
        if isinstance(x, Bind):
            inner = {k: v for k, v in m.items() if k not in {n for n, _ in x.vars}}
            return replace(
                x,
                vars=tuple((n, rename_type(ty, m)) for n, ty in x.vars),
                ty=rename_type(x.ty, m),
                body=go(x.body, inner),
                dom=go(x.dom, m) if x.dom is not None else None,
            )
        if isinstance(x, App):
            return replace(
                x, args=tuple(go(a, m) for a in x.args), ty=rename_type(x.ty, m), target=rename_type(x.target, m)
            )
        if isinstance(x, Opaque):
            return replace(x, args=tuple(go(a, m) for a in x.args), ty=rename_type(x.ty, m))
        return x

    return go(t, mapping)


# ----------------------------------------------------------------------------------------------- bound names


BINDER_TOKENS = {"fun", "λ", "∀", "∃", "∃!", "∑", "∏", "∑'", "∏'", "∫", "⋃", "⋂", "⨆", "⨅", "Π", "Σ", "∮"}


def canonical_bound_tokens(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Tokens with the names bound inside them (`fun x =>`, `∀ x,`, `∫ x in a..b,`, `{x | ...}`) renamed to
    canonical ones by binder order, so that an opaque text does not depend on bound names.

    A binder's scope is the rest of its enclosing bracket (Lean's binders extend as far right as possible)."""
    toks = list(tokens)
    opens, closes = {"(", "[", "{", "⟨", "⦃"}, {")", "]", "}", "⟩", "⦄"}
    count = 0
    for i, (kind, text) in enumerate(toks):
        is_setof = (
            text == "{"
            and i + 2 < len(toks)
            and toks[i + 1][0] == "ident"
            and "." not in toks[i + 1][1]  # `{n.succ | n ∈ s}` binds no `n.succ` (lean_frontend.braces)
            and toks[i + 2][1] in ("|", ":")
        )
        if kind == "ident" or (text not in BINDER_TOKENS and not is_setof):
            continue
        names: list[str] = []
        j = i + 1
        while j < len(toks):
            k2, t2 = toks[j]
            if k2 == "ident":
                names.append(t2)
                j += 1
            elif t2 in ("(", "{", "⦃", "⟨") and j + 1 < len(toks) and toks[j + 1][0] == "ident":
                j += 1  # a group `(x y : T)`: its names, then skip the type; a pattern `(x, y)`, `⟨x, y⟩`: its names
                while j < len(toks) and (toks[j][0] == "ident" or toks[j][1] == ","):
                    if toks[j][0] == "ident":
                        names.append(toks[j][1])
                    j += 1
                depth = 0
                while j < len(toks) and not (depth == 0 and toks[j][1] in (")", "}", "⦄", "⟩")):
                    depth += toks[j][1] in opens
                    depth -= toks[j][1] in closes
                    j += 1
                j += 1
            else:
                break
        if not names:
            continue
        ren = {}
        for n in names:
            count += 1
            ren[n] = f"·b{count}"
        for k in range(i + 1, scope_end(toks, i + 1)):  # the scope: to the end of the enclosing bracket
            if toks[k][0] != "ident":
                continue
            name = toks[k][1]
            if name in ren:
                toks[k] = ("ident", ren[name])
            elif (r := _receiver(name)) in ren:  # `x.succ` is a field of the bound x (generalized field notation)
                toks[k] = ("ident", ren[r] + name[len(r) :])
    return toks


def scope_end(toks: list[tuple[str, str]], start: int, stops: frozenset[str] = frozenset()) -> int:
    """Index of the first token from `start` on that closes the enclosing bracket or is a `stops` token
    outside any bracket (len(toks) when there is none)."""
    depth = 0
    for k in range(start, len(toks)):
        t = toks[k][1]
        if t in ("(", "[", "{", "⟨", "⦃"):
            depth += 1
        elif t in (")", "]", "}", "⟩", "⦄"):
            if depth == 0:
                return k
            depth -= 1
        elif depth == 0 and t in stops:
            return k
    return len(toks)


def type_signature(terms: list[Term], free_map: dict[str, str] | None = None) -> tuple:
    """The multiset of (node, type) over the terms: `alpha_key` ignores most types (two statements alike up
    to `Fin 2` / `Fin 3` inside an opaque term, or ℕ / ℤ of a variable, have one alpha key); this tells them
    apart while staying blind to the order of commutative arguments."""
    free_map = free_map or {}
    out: dict[tuple[str, str], int] = {}
    for t in terms:
        for x in walk(t):
            if isinstance(x, Var):
                label = "v"  # names are alpha_key's business (bound names must not count)
            elif isinstance(x, App):
                label = "a:" + x.op
            elif isinstance(x, Opaque):
                label = "o:" + x.template
            else:
                label = type(x).__name__
            k = (label, str(getattr(x, "ty", None)))
            out[k] = out.get(k, 0) + 1
    return tuple(sorted(out.items()))


def bound_types(t: Term, free: dict[str, str]) -> str:
    """The written types of the variables bound inside t, in the pre-order `canonical_binds` names them, for an
    opaque term's text: `show` prints binders without their types, so `∀ k : Fin 0, P` and `∀ k : Fin 2, P` (vacuous
    or not) read as one term. Names in a type are written positionally: a variable bound around it as its `·bK`, a
    free one as `free[name]` (its placeholder). "" when no binder inside t has a written type."""
    out: list[str] = []
    written = False
    count = 0

    def text(ty: Ty, names: dict[str, str]) -> str:
        s = str(ty)
        for name, new in sorted(names.items(), key=lambda kv: -len(kv[0])):
            s = re.sub(rf"(?<![\w'.·]){re.escape(name)}(?![\w'])", new, s)
        return s

    def go(x: Term, names: dict[str, str]) -> None:
        nonlocal count, written
        if isinstance(x, Bind):
            inner = dict(names)
            for n, _ in x.vars:
                count += 1
                inner[n] = f"·b{count}"
            for _, ty in x.vars:
                written = written or ty is not None
                out.append("_" if ty is None else text(ty, inner))
            if x.dom is not None:
                go(x.dom, names)
            go(x.body, inner)
            return
        for c in x.children():
            go(c, names)

    go(t, dict(free))
    return ", ".join(out) if written else ""


def canonical_binds(t: Term) -> Term:
    """t with every bound name renamed `·b1`, `·b2`, ... in pre-order (for printing an opaque term)."""
    count = 0

    def go(x: Term) -> Term:
        nonlocal count
        if isinstance(x, Bind):
            ren: dict[str, str] = {}
            for n, _ in x.vars:
                count += 1
                ren[n] = f"·b{count}"
            dom = go(x.dom) if x.dom is not None else None
            body = go(rename_free_typed(x.body, ren))
            return replace(x, vars=tuple((ren[n], ty) for n, ty in x.vars), body=body, dom=dom)
        return map_children(x, go)

    return go(t)
