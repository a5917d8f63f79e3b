"""Type inference and desugaring: a RawStatement becomes a typed Statement.

Types are inferred by unification. Arithmetic is elaborated the way Lean's `binop%`/`binrel%` do it:
the leaves of a tree of `+ - * / %` (and the base of `^`), together with both sides of a relation, are
typed first, the largest numeric type among them wins, and the coercions go on the *leaves*: with
`n : ℕ` and `x : ℝ`, `x + (n - 1)` means `x + (↑n - 1)`, not `x + ↑(n - 1)`. Isabelle has no implicit
coercions, so well-typed Isabelle terms come out the same; numerals without any type default to ℕ in
Lean and to real in Isabelle.

Desugaring done here, while types are known: `x ∈ {a..b}` / `Finset.Icc` / `Finset.range` / `{a, b}`
/ `{x. P x}` into comparisons, bounded quantifiers into guards, `>`/`≥` into `<`/`≤`, `≠` into `¬ =`,
`Suc n` into `n + 1`, `sum f S` into a binder.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction

from atf.symeq import builtins, ir, mathlib
from atf.symeq.ir import (
    BOOL,
    COMPLEX,
    INT,
    NAT,
    RAT,
    REAL,
    App,
    Bind,
    Fun,
    Num,
    Opaque,
    ParseError,
    RawStatement,
    SetTy,
    Sort,
    Statement,
    Term,
    Tup,
    TVar,
    Ty,
    Var,
    is_numeric,
    numeric_join,
)

ARITH = {"add", "sub", "mul", "div", "neg", "mod", "idiv", "inv"}
REL = {"eq", "ne", "lt", "le", "gt", "ge"}
# one-sided intervals (Set_Interval.thy): {..u} atMost, {..<u} lessThan, {l..} atLeast, {l<..} greaterThan;
# op -> (the relation of a member x to the bound, whether x is on its left)
RAYS = {"iic": ("le", True), "iio": ("lt", True), "ici": ("le", False), "ioi": ("lt", False)}
BOUNDS = {"icc": ("le", "le"), "ico": ("le", "lt"), "ioc": ("lt", "le"), "ioo": ("lt", "lt")}  # lower, upper
_LEAN_RAYS = {"Iic": "iic", "Iio": "iio", "Ici": "ici", "Ioi": "ioi"}  # Set.Iic, Finset.Iic, ... (Mathlib)
SET_OPS = {*BOUNDS, "range", "setenum", *RAYS}
# A set's image under a function, a function's range, a preimage, by name: Mathlib's `f '' s`, `Set.image f s`,
# `Finset.image f s`, `Set.range f`, `f ⁻¹' s`, `Set.preimage f s`; Isabelle's `f ` A` and `range f`
IMAGE_KIND = {
    "lean": {
        "op:image": "image",
        "Set.image": "image",
        "Finset.image": "image",
        "Set.range": "range",
        "op:preimage": "preimage",
        "Set.preimage": "preimage",
    },
    "isabelle": {"op:image": "image", "range": "range"},
}
IMAGE_ARITY = {"image": 2, "range": 1, "preimage": 2}


_SAME_TYPE_OPERANDS = frozenset({"op:subseteq", "op:ssubset", "op:union", "op:inter", "op:sdiff"})
# library functions whose result has their (first) operand's type, by arity
_SAME_TYPE_RESULT = {"op:union": 2, "op:inter": 2, "op:sdiff": 2, "compl": 1}


class IllTyped(ParseError):
    """A proposition Isabelle rejects as ill-typed: it becomes one opaque proposition, never a guessed reading."""


def _field_op(t: Term) -> bool:
    """Whether an arithmetic tree divides (`/`, `inverse`) above its leaves."""
    if isinstance(t, App) and (t.op in ARITH or t.op == "pow"):
        return t.op in ("div", "inv") or any(_field_op(a) for a in (t.args[:1] if t.op == "pow" else t.args))
    return False


def set_of(elem: Ty) -> SetTy:
    return SetTy(elem)


def elem_of_set(t: Ty | None) -> Ty | None:
    return ir.collection_elem(t)


class Elaborator:
    def __init__(self, system: str):
        self.system = system
        self.default_num: Ty = REAL if system == "isabelle" else NAT
        self.bindings: dict[int, Ty] = {}
        self.numeral_ids: set[int] = set()
        self.counter = 0
        self.free: dict[str, Ty] = {}
        self.declared: list[str] = []
        self.fixed: set[str] = set()  # the free variables declared with a type
        self.globals: dict[str, list[Ty]] = {}  # the instances of each unknown constant
        self.scope: list[dict[str, Ty]] = []
        self.notes: list[str] = []
        self.partial: list[Term] = []  # Isabelle: opaque partial applications of binary builtins (`log 8`)
        # numeral types of interval bounds (`{1..5}`): default to ℕ, not to Isabelle's real
        self.index_vars: list[TVar] = []
        # result types of functions and terms we know nothing about, by name: Lean knows their type, we do
        # not, so an unconstrained one becomes an uninterpreted sort of its own, never a guessed ℕ
        # (every name given to a type variable is kept: the sort is named by the least, whatever the order of uses)
        self.unknown_types: dict[int, set[str]] = {}
        # Isabelle: the type variables inference leaves free, by first use (see `_default`)
        self.type_variables: dict[int, Sort] = {}
        self.unsettled_powers = False  # Lean: a power postponed by `elab_pow` waits for `settle_powers`
        self.once: dict[int, tuple] = {}  # `elab_once`: id of a term read with nothing expected -> its reading

    def is_unknown(self, t: Ty | None) -> bool:
        t = self.resolve(t)
        return isinstance(t, TVar) and bool(self.unknown_names(t))

    def unknown_names(self, t: TVar) -> set[str]:
        """The names `unknown` gave the type variable t (or a variable bound to it)."""
        return {n for i, names in self.unknown_types.items() if self.resolve(TVar(i)) == t for n in names}

    def unknown(self, ty: Ty, name: str) -> Ty:
        """Mark ty (the type of an unknown function's result or an opaque term) as not to be defaulted."""
        t = self.resolve(ty)
        if isinstance(t, TVar):
            self.unknown_types.setdefault(t.id, set()).add(name)
        elif isinstance(t, Fun) and self.system != "lean":
            self.unknown(t.ret, name)
        elif isinstance(t, Fun):  # Lean: every type inside, `Foo (Icc (3 / 2) 2)` is no set of ℕ (3 / 2 = 1) for Lean
            for a in (*t.args, t.ret):
                self.unknown(a, name)
        elif isinstance(t, Tup) and self.system == "lean":
            for a in t.items:
                self.unknown(a, name)
        elif isinstance(t, SetTy) and self.system == "lean":
            self.unknown(t.elem, name)
        return ty

    # ------------------------------------------------------------------ unification
    def fresh(self, numeral: bool = False) -> TVar:
        self.counter += 1
        if numeral:
            self.numeral_ids.add(self.counter)
        return TVar(self.counter)

    def resolve(self, t: Ty | None) -> Ty | None:
        while isinstance(t, TVar) and t.id in self.bindings:
            t = self.bindings[t.id]
        return t

    def deep(self, t: Ty | None) -> Ty | None:
        t = self.resolve(t)
        if isinstance(t, Fun):
            return Fun(tuple(self.deep(a) for a in t.args), self.deep(t.ret))
        if isinstance(t, Tup):
            return Tup(tuple(self.deep(a) for a in t.items))
        if isinstance(t, SetTy):
            return SetTy(self.deep(t.elem))
        return t

    def unify(self, a: Ty | None, b: Ty | None) -> bool:
        a, b = self.resolve(a), self.resolve(b)
        if a is None or b is None:
            return True
        if a == b:
            return True
        if isinstance(a, TVar):
            if isinstance(b, TVar) and a.id in self.numeral_ids:
                self.numeral_ids.add(b.id)
            if a.id in self.numeral_ids and not isinstance(b, TVar) and not is_numeric(b) and not isinstance(b, Sort):
                return False
            if self.occurs(a, b):
                return False
            names = self.unknown_names(a) if self.system == "lean" and isinstance(b, (Fun, Tup, SetTy)) else ()
            self.bindings[a.id] = b
            for name in sorted(names):
                # the value of a term we know nothing about (`closure S`, `foo x`) is a set, pair or function: its
                # parts have types Lean knows and we do not, so `closure S = Set.Icc 0 (3 / 2)` or `foo x = (3 / 2, 1)`
                # leave the numerals of an uninterpreted sort, never defaulted to ℕ (3 / 2 = 1, merged with
                # `Set.Icc 0 1`), as `unknown` does for a term whose type was already a set, pair or function
                self.unknown(b, name)
            return True
        if isinstance(b, TVar):
            return self.unify(b, a)
        if isinstance(a, Fun) and isinstance(b, Fun) and len(a.args) == len(b.args):
            return all(self.unify(x, y) for x, y in zip(a.args, b.args)) and self.unify(a.ret, b.ret)
        if isinstance(a, Tup) and isinstance(b, Tup) and len(a.items) == len(b.items):
            return all(self.unify(x, y) for x, y in zip(a.items, b.items))
        if isinstance(a, SetTy) and isinstance(b, SetTy):
            return self.unify(a.elem, b.elem)
        if isinstance(b, SetTy) and isinstance(a, Sort):
            a, b = b, a
        if isinstance(a, SetTy) and isinstance(b, Sort):
            # a collection a binder types (`S : Set ℝ`, kept a sort) and a set the elaborator builds (`Set.Icc 0 1`,
            # `{x | x ^ 2 = 4}`): Lean elaborates the one at the other's type (`S = Set.Icc 0 (3 / 2)` is an
            # interval of reals), so their elements have one type, never numerals defaulted to ℕ (3 / 2 = 1)
            if (el := elem_of_set(b)) is not None:
                return self.unify(a.elem, el)
            if self.system == "lean" and b.name.split()[0] in ("Set", "Finset"):
                # an element type SymEq cannot read (`Set (EuclideanSpace ℝ (Fin 2))`): Lean knows it, so the
                # elements of the set built here keep their numerals in an uninterpreted sort
                self.unknown(a.elem, "elem:" + b.name)
                return True
        return False

    def try_unify(self, a: Ty | None, b: Ty | None) -> bool:
        """unify, undone where it fails (a failed unification may have bound some type variables on its way)."""
        saved = dict(self.bindings), set(self.numeral_ids)
        if self.unify(a, b):
            return True
        self.bindings, self.numeral_ids = saved
        return False

    def global_const(self, gname: str, ty: Ty) -> Var:
        """An unknown constant used at type ty. Lean's constants take implicit type arguments, so
        `UniformContinuous f` and `UniformContinuous g` with f : α → β, g : β → γ apply two instances. A function
        is one instance per tuple of argument types: uses at the same argument types share it (and its result
        type); a use whose argument types are not known yet gets one of its own rather than the instance of
        whichever use came first, so the reading never depends on the order of hypotheses (the SMT symbol is
        keyed by name and type, so instances that end up alike are one symbol)."""
        ty = self.resolve(ty)
        if not (all(map(self.ground, ty.args)) if isinstance(ty, Fun) else self.ground(ty)):
            return Var(gname, self.unknown(ty, gname))  # argument types (or the value's type) not known yet
        for inst in self.globals.setdefault(gname, []):
            if self.try_unify(inst, ty):  # (ground arguments unify only with equal ones)
                return Var(gname, inst)
        self.globals[gname].append(self.unknown(ty, gname))
        return Var(gname, ty)

    def ground(self, t: Ty | None) -> bool:
        """No type variable left in t."""
        t = self.resolve(t)
        if isinstance(t, TVar):
            return False
        if isinstance(t, Fun):
            return all(map(self.ground, (*t.args, t.ret)))
        if isinstance(t, Tup):
            return all(map(self.ground, t.items))
        if isinstance(t, SetTy):
            return self.ground(t.elem)
        return True

    def occurs(self, v: TVar, t: Ty | None) -> bool:
        t = self.resolve(t)
        if isinstance(t, TVar):
            return t.id == v.id
        if isinstance(t, Fun):
            return any(self.occurs(v, a) for a in t.args) or self.occurs(v, t.ret)
        if isinstance(t, Tup):
            return any(self.occurs(v, a) for a in t.items)
        if isinstance(t, SetTy):
            return self.occurs(v, t.elem)
        return False

    def concrete_numeric(self, t: Ty | None) -> Ty | None:
        t = self.resolve(t)
        return t if is_numeric(t) else None

    # ------------------------------------------------------------------ variables
    def lookup(self, name: str) -> tuple[str, Ty] | None:
        """(kind, type) of a name in scope: kind is bound | free | global."""
        for frame in reversed(self.scope):
            if name in frame:
                return ("bound", frame[name])
        if name in self.free:
            return ("free", self.free[name])
        return None

    def declare_free(self, name: str, ty: Ty | None) -> None:
        if name not in self.free:
            self.free[name] = ty if ty is not None else self.fresh()
            self.declared.append(name)
        elif ty is not None:
            self.unify(self.free[name], ty)

    def fixed_only(self, t: Term) -> bool:
        """Every name in t is a free variable whose type the statement wrote (`fixes m :: int`), none bound here."""
        names = {x.name for x in ir.walk(t) if isinstance(x, Var)}
        return all(n in self.fixed and (hit := self.lookup(n)) is not None and hit[0] == "free" for n in names)

    def undeclared(self, name: str, ty: Ty) -> Var:
        """A name neither bound, declared nor built in."""
        if self.system == "isabelle" and "." not in name and name not in builtins.ISABELLE_CONSTANTS:
            self.declare_free(name, ty)  # Isabelle fixes free variables of a theorem implicitly
            return Var(name, self.free[name])
        return self.global_const("uf:" + name, ty)

    # ------------------------------------------------------------------ entry points
    def elab_prop(self, t: Term) -> Term:
        return self.elab(t, BOOL)

    def elab(self, t: Term, expected: Ty | None) -> Term:
        """Elaborate t; the result's type is unified with `expected` where no coercion applies."""
        out = self._elab(t, expected)
        if self.system == "isabelle" and self.resolve(expected) == BOOL and _arithmetic(out):
            # bool is no numeral type and no ring (Num.thy: class numeral): `(p = x * y) = -35 / 9` is ill-typed
            raise IllTyped(f"{ir.show(out)[:60]} is no truth value")
        if expected is not None:
            got = self.resolve(ir.type_of(out))
            if not self.unify(got, expected):
                exp = self.resolve(expected)
                if is_numeric(got) and is_numeric(exp):
                    if numeric_join(got, exp) != exp and (self.system == "lean" or self.fixed_only(t)):
                        # Lean's numeric coercions go up the tower ℕ → ℤ → ℚ → ℝ → ℂ only (`Int.toNat`, `Int.floor`,
                        # `Complex.re` are functions one writes): `(k : ℕ)` with k : ℤ, `Nat.gcd a b` with a : ℤ,
                        # `f x` with f : ℕ → ℝ and x : ℝ fail to elaborate; read as a cast they merged with `k = 2`.
                        # Isabelle's declared coercions go up the same tower (`int`, `real`, `of_int`, `of_rat`,
                        # `of_real`: Int.thy, Real.thy, Complex.thy; `nat` is no coercion): `fact m` with m :: int or
                        # real (`fact :: nat ⇒ 'a`) and `m choose 2` with m :: real are type errors. (Only where
                        # every name in the term has the type its `fixes` wrote: Isabelle infers a bound variable's
                        # type from all its uses, `∀k. k ≤ sqrt x ⟶ P (k + n)` with P :: nat ⇒ bool makes k a nat and
                        # coerces the first use, which this left-to-right reading, having made k real, cannot undo)
                        raise IllTyped(f"{ir.show(t)[:60]} is a {got}, which no coercion makes a {exp}")
                    out = App("cast", (out,), exp)
                elif self.system == "isabelle" and BOOL in (got, exp):
                    # HOL has no coercion between bool and another type, and bool is no numeral type: a number
                    # where a truth value belongs (`(n < 5) = 3`, `shows "LEAST n. P n"`) is a type error
                    raise IllTyped(f"{ir.show(t)[:60]} is a {got}, not a {exp}")
                elif self.system == "isabelle" and _function_for_value(self.deep(got), self.deep(exp)):
                    # HOL's types are disjoint and Complex_Main's coercions (of_nat, of_int, of_real, ...) take
                    # numbers to numbers: a function where a number or a truth value belongs (`g x` with `fixes
                    # x g :: "real ⇒ real"`) fails type inference, "Type unification failed: Clash of types".
                    raise IllTyped(f"{ir.show(t)[:60]} is a {self.deep(got)}, not a {self.deep(exp)}")
        return out

    def _elab(self, t: Term, expected: Ty | None) -> Term:
        if isinstance(t, (Num, Var)) or (
            isinstance(t, App) and (t.op in ARITH or t.op in ("pow", "powr", "coe", "ascribe"))
        ):
            return self.arith_tree([t], expected)[0]
        if isinstance(t, (App, Bind)) and expected is None:
            return self.elab_once(t)
        if isinstance(t, App):
            return self.elab_app(t, expected)
        if isinstance(t, Bind):
            return self.elab_bind(t, expected)
        if isinstance(t, Opaque):
            return self.elab_opaque(t, expected)
        raise TypeError(type(t))

    def elab_once(self, t: App | Bind) -> Term:
        """t read with nothing expected of it, once per occurrence and scope. Several readings read an operand
        first to learn its type, then again with the others (`arith_tree_or_unify`: a set's or list's items, gcd's
        operands; `elab_rel`: a relation's side), so each level of `card {card {… + a} + a}` read the level below
        twice: 2^depth readings (16 levels took 19 s). The second reading of a term with nothing expected is the
        first: its type variables are the same ones, unified since, and what it noted is noted again."""
        key = id(t)
        state = (tuple(map(id, self.scope)), self.name_types(t))
        hit = self.once.get(key)
        if hit is not None and hit[0] is t and hit[1] == state:
            self.notes.extend(hit[3])
            return hit[2]
        noted = len(self.notes)
        out = self.elab_app(t, None) if isinstance(t, App) else self.elab_bind(t, None)
        # (t and the frames are kept with the entry, so their ids are not reused while it stands)
        self.once[key] = (t, state, out, self.notes[noted:], list(self.scope))
        return out

    def name_types(self, t: Term) -> tuple:
        """What is known of the types of the names t uses. A reading of t is reused only while this stands: where the
        first reading taught a variable its type (`∀ x. ⌊x⌋ * x = …`, x : real from the product), the second
        reads `⌊x⌋` at that type, which the first could not."""
        names = sorted({x.name for x in ir.walk(t) if isinstance(x, Var)})
        return tuple((n, repr(self.deep(hit[1])) if (hit := self.lookup(n)) is not None else None) for n in names)

    def elab_opaque(self, t: Opaque, expected: Ty | None) -> Term:
        # fold arguments that are not variables back into the text; a dotted name on a variable (`H.Normal`)
        # keeps the variable as an argument, so renaming H renames it there too
        args: list[Term] = []
        texts: list[str] = []
        for a in t.args:
            head, dot, field = a.name.partition(".") if isinstance(a, Var) else ("", "", "")
            if isinstance(a, Var) and (hit := self.lookup(a.name)) is not None:
                texts.append("{" + str(len(args)) + "}")
                args.append(Var(a.name, hit[1]))
            elif dot and (hit := self.lookup(head)) is not None:
                texts.append("{" + str(len(args)) + "}." + field.replace("{", "{{").replace("}", "}}"))
                args.append(Var(head, hit[1]))
            else:
                # the variables in scope inside a folded argument stay arguments: `(e : ℕ)` substituted for n (x ∈
                # {n : ℕ | P n}, with P opaque), folded whole into the text, was one constant for every e, and
                # `∀ e ∈ S, e ≤ 109` read like `∀ e ∈ S, 109 ≤ e`
                text = str(a).replace("{", "{{").replace("}", "}}")
                free = ir.free_vars(a)
                for v in dict.fromkeys(x.name for x in ir.walk(a) if isinstance(x, Var) and x.name in free):
                    if (hit := self.lookup(v)) is not None:
                        text = re.sub(rf"(?<![\w'.]){re.escape(v)}(?![\w'])", "{" + str(len(args)) + "}", text)
                        args.append(Var(v, hit[1]))
                texts.append(text)
        try:
            template = t.template.format(*texts)
        except (IndexError, KeyError, ValueError):
            template = t.template
        self.notes.append("opaque: " + ir.show(t)[:120])
        ty = expected if expected is not None else (t.ty if t.ty is not None else self.fresh())
        return Opaque(template, tuple(args), self.unknown(ty, "opq:" + template))

    # ------------------------------------------------------------------ arithmetic
    def collect(self, t: Term, leaves: list[Term]) -> None:
        if isinstance(t, App) and t.op in ARITH:
            for a in t.args:
                self.collect(a, leaves)
        elif isinstance(t, App) and t.op == "pow":
            self.collect(t.args[0], leaves)
        else:
            leaves.append(t)

    def arith_tree(self, roots: list[Term], expected: Ty | None, typed_roots: bool = False) -> list[Term]:
        """Elaborate several arithmetic trees that must share one type (relation sides, max args). typed_roots:
        the roots have the expected type themselves (Isabelle `(t :: real)`), no coercion goes above them."""
        leaves: list[Term] = []
        for r in roots:
            self.collect(r, leaves)
        typed: dict[int, Term] = {}
        for leaf in leaves:
            if isinstance(leaf, Num) or (isinstance(leaf, App) and leaf.op == "coe"):
                continue
            typed[id(leaf)] = self.elab_leaf(leaf)
        numeric = [self.concrete_numeric(ir.type_of(x)) for x in typed.values()]
        numeric = [t for t in numeric if t is not None]
        exp = self.resolve(expected)
        if is_numeric(exp):
            numeric.append(exp)
        is_arith = any(isinstance(x, Num) for x in leaves) or any(
            isinstance(r, App) and r.op in ARITH | {"pow"} for r in roots
        )
        if (numeric or is_arith) and any(x is p for x in typed.values() for p in self.partial):
            # `a < log 2938 / log 8` (a :: int): +, -, *, /, < are homogeneous ('a ⇒ 'a ⇒ 'a) and a partial
            # application is a function, so no type fits both it and a number (HOL has no coercion from ⇒); nor
            # a numeral (`log (x * y) = 1`, `log 2 + log 3`: Complex_Main has no numerals or arithmetic on
            # functions, see below)
            what = numeric[0] if numeric else "numeral or arithmetic"
            raise IllTyped(f"a function among the {what} operands of {ir.show(roots[0])[:60]}")
        has_decimal = any(isinstance(x, Num) and x.value.denominator != 1 for x in leaves)
        others = [self.resolve(ir.type_of(x)) for x in typed.values()]
        others = [t for t in others if t is not None and not isinstance(t, TVar) and not is_numeric(t)]
        if self.system == "isabelle" and is_arith and any(isinstance(t, Fun) for t in others):
            # Complex_Main has no arithmetic on functions (pointwise `f + g`, `3 * f`, `f = 1` need
            # HOL-Library.Function_Algebras): `f (3 * z)` with `z :: real ⇒ real` is a type error (each of the 41
            # Isa-AutoFormal candidates this leaves unread that have a recorded verdict failed Isabelle's check)
            raise IllTyped(f"a function among the operands of {ir.show(roots[0])[:60]}")
        target: Ty
        if numeric:
            target = numeric[0]
            for t in numeric[1:]:
                target = numeric_join(target, t)
            if has_decimal and target in (NAT, INT):
                if self.system == "lean":
                    # a decimal is `OfScientific.ofScientific`, which Mathlib gives division rings (ℚ, ℝ, ℂ), not
                    # ℕ or ℤ: `n / 2 = 1.5` with n : ℕ fails to elaborate (read over ℝ, it merged with `n = 3`)
                    raise IllTyped(f"a decimal among the {target} operands of {ir.show(roots[0])[:60]}")
                target = REAL
            if self.system == "isabelle" and target in (NAT, INT) and any(_field_op(r) for r in roots):
                # Fields.thy: `/` and `inverse` exist in fields only (class inverse), so Isabelle coerces the
                # ℕ/ℤ leaves to real (`k / 2` with k :: nat is `real k / 2`, never the floor division)
                target = REAL
            unknown = [t for t in (self.resolve(ir.type_of(x)) for x in typed.values()) if self.is_unknown(t)]
            if unknown and target in (NAT, INT) and not is_numeric(exp):
                # `X = a` with X of a type we do not know and a : ℤ: Lean coerces to the larger of the two,
                # which may be X's (ℚ): the tree stays in X's uninterpreted sort, the integer leaves are cast
                target = unknown[0]
        elif exp is not None and not isinstance(exp, TVar):
            target = exp  # a boolean, function or uninterpreted-sort context
        elif others:
            target = others[0]
        else:
            target = exp if isinstance(exp, TVar) else self.fresh(numeral=is_arith)
            if is_arith:
                self.numeral_ids.add(target.id)
            if has_decimal and self.system == "lean":  # (Isabelle's `0.5` is `5 / 10` in any field: `type_variable`)
                self.unify(target, REAL)
        if (
            self.system == "isabelle"
            and BOOL in (*others, self.resolve(target))
            and (numeric or any(_arithmetic(r) for r in roots))
        ):
            # bool is no numeral type and no monoid (Num.thy, Groups.thy), and HOL has no coercion from bool: `n = P`,
            # `P + Q`, and `sum_list [k = 2. k ← xs]` (Groups_List.thy: sum_list :: 'a::monoid_add list ⇒ 'a) as its
            # unfolded items, are type errors
            raise IllTyped(f"{ir.show(roots[0])[:60]}: truth values among numbers")
        for x in typed.values():
            t = self.resolve(ir.type_of(x))
            if isinstance(t, TVar):
                self.unify(t, target)
            elif isinstance(t, SetTy) and isinstance(self.resolve(target), SetTy):
                # `A - B`, `- A` between sets: Isabelle's minus and uminus are 'a ⇒ 'a ⇒ 'a and 'a ⇒ 'a (Groups.thy;
                # Set.thy instantiates them on 'a set), Mathlib's pointwise `A - B` is `Set α → Set α → Set α`: the
                # operands have the result's type, so `B = {0..1} - {1}` with `B :: real set` has real bounds
                self.try_unify(t, target)
        if isinstance(exp, TVar):
            self.unify(exp, target)

        numeral = object()  # a subtree of numerals only: they take their siblings' type
        # `rebuild` asks `natural` and `commutes` at every level of a tree: remembered per subtree, or a flat sum of
        # n terms (a left-nested tree n deep) took time quadratic in n (750 terms: 7.5 s)
        naturals: dict[int, Ty | object | None] = {}
        commuting: dict[tuple[int, Ty], bool] = {}

        def natural(t: Term) -> Ty | object | None:
            """The type Isabelle gives a subtree on its own, the join of its leaves' types; `numeral` for numerals
            only (they take their siblings' type); None where the context decides (`of_nat x`, a decimal or negative
            numeral, or an operation the leaves' type lacks: `/` on ℕ and ℤ, `-x` on ℕ)."""
            if id(t) not in naturals:
                naturals[id(t)] = natural_of(t)
            return naturals[id(t)]

        def natural_of(t: Term) -> Ty | object | None:
            if isinstance(t, Num):
                return numeral if t.value.denominator == 1 and t.value >= 0 else None
            if isinstance(t, App) and (t.op in ARITH or t.op == "pow"):
                kids = [natural(a) for a in (t.args[:1] if t.op == "pow" else t.args)]
                if None in kids:
                    return None
                known = [k for k in kids if k is not numeral]
                if not known:
                    return None if t.op in ("div", "inv", "neg") else numeral
                out = known[0]
                for k in known[1:]:
                    out = numeric_join(out, k)
                if out in (NAT, INT) and (t.op in ("div", "inv") or (t.op == "neg" and out == NAT)):
                    return None
                return out
            if isinstance(t, App) and t.op == "coe" or id(t) not in typed:
                return None
            got = self.resolve(ir.type_of(typed[id(t)]))
            return got if is_numeric(got) else None

        def commutes(t: Term, target: Ty) -> bool:
            """Whether casting t's leaves to target gives what casting t does: `-` on ℕ truncates, `div`/`mod` on
            ℕ and ℤ are not field operations."""
            key = (id(t), target)
            if key not in commuting:
                commuting[key] = commutes_of(t, target)
            return commuting[key]

        def commutes_of(t: Term, target: Ty) -> bool:
            if not (isinstance(t, App) and (t.op in ARITH or t.op == "pow")):
                return True
            here = natural(t)
            if here is numeral or here is None:
                here = target
            if t.op == "sub" and here == NAT and target != NAT:
                return False
            if t.op in ("idiv", "mod") and here in (NAT, INT) and target not in (NAT, INT):
                return False
            return all(commutes(a, target) for a in (t.args[:1] if t.op == "pow" else t.args))

        def rebuild(t: Term, target: Ty, root: bool = False) -> Term:
            if self.system == "isabelle" and isinstance(t, App) and (t.op in ARITH or t.op == "pow"):
                # Isabelle's coercion inference (Traytel, Berghofer, Nipkow 2011) types a subtree by its own leaves
                # and coerces it where it meets a larger type: `x = n - 3` (n :: nat, x :: real) is
                # `x = real (n - 3)`, truncated at 0, not Lean's `x = ↑n - 3`.
                own = natural(t)
                if isinstance(own, Ty) and own != target and is_numeric(target) and not (root and typed_roots):
                    if numeric_join(own, target) == target and not commutes(t, target):
                        return self.coerce(rebuild(t, own), target)
            if isinstance(t, Num):
                return Num(t.value, target)
            if isinstance(t, App) and t.op == "coe":
                inner = self.elab(t.args[0], None)
                return self.coerce(inner, target)
            if isinstance(t, App) and t.op in ARITH:
                return App(t.op, tuple(rebuild(a, target) for a in t.args), target)
            if isinstance(t, App) and t.op == "pow":
                base = rebuild(t.args[0], target)
                return self.elab_pow(base, t.args[1], target)
            leaf = typed[id(t)]
            if self.is_unknown(target) and is_numeric(self.resolve(ir.type_of(leaf))):
                return App("cast", (leaf,), target)
            return self.coerce(leaf, target)

        return [rebuild(r, target, root=True) for r in roots]

    def coerce(self, t: Term, target: Ty) -> Term:
        src = self.resolve(ir.type_of(t))
        tgt = self.resolve(target)
        if is_numeric(src) and is_numeric(tgt) and src != tgt:
            if isinstance(t, Num):
                return Num(t.value, tgt)
            return App("cast", (t,), tgt)
        return t

    def elab_pow(self, base: Term, exponent: Term, target: Ty) -> Term:
        if self.system == "isabelle" and isinstance(exponent, App) and exponent.op == "neg":
            # Power.thy: `power :: 'a ⇒ nat ⇒ 'a`, and nat has no negation (no `uminus` instance): `3 ^ -1` and
            # `x ^ (-n)` are type errors, as Isabelle reports them (each of the 11 Isa-AutoFormal candidates with a
            # negated exponent of ^ that has a verdict was rejected); `inverse x` or `x powr -1` is Isabelle's spelling
            raise IllTyped(f"{ir.show(exponent)[:40]} as the exponent of ^, a nat, which has no negation")
        e = self.elab(exponent, None)
        et = self.resolve(ir.type_of(e))
        if isinstance(et, TVar):
            if self.system == "lean" and any(
                isinstance(self.resolve(ir.type_of(v)), TVar) for v in ir.walk(e) if isinstance(v, Var)
            ):
                # `∀ x ∈ Set.Ioo 0 1, … (1 + x) ^ (x ^ n) … f x` with f : ℝ → ℝ: Lean postpones x's type to its
                # later uses (ℝ, a real power) and applies the default instance `Monoid.npow` (ℕ) only when stuck,
                # once the term is elaborated (Lean's `synthesizeUsingDefault`, the last step of
                # `synthesizeSyntheticMVars`); fixing it to ℕ here made `0 < x < 1` vacuous. The power is settled
                # once its proposition is read (`settle_powers`): at the type its uses gave, else at ℕ
                self.unsettled_powers = True
                return App("pow?", (base, e), target)
            self.unify(et, NAT)  # `x ^ 2`: the exponent of a monoid power is a natural number
            et = NAT
        return self.typed_pow(base, e, et, target)

    def settle_powers(self, t: Term) -> Term:
        """t with each power whose exponent's type was not known when it was read (`elab_pow`) at the type the rest
        of its proposition gave the exponent, or ℕ, the default instance `Monoid.npow`, where nothing did."""
        t = ir.map_children(t, self.settle_powers)
        if isinstance(t, App) and t.op == "pow?":
            base, e = t.args
            et = self.resolve(ir.type_of(e))
            if isinstance(et, TVar):
                self.unify(et, NAT)
                et = NAT
            return self.typed_pow(base, e, et, t.ty)
        return t

    def typed_pow(self, base: Term, e: Term, et: Ty | None, target: Ty) -> Term:
        if self.system == "lean" and (
            (et == REAL and self.resolve(target) in (NAT, INT, RAT))
            or (et == INT and self.resolve(target) in (NAT, INT))
        ):
            # Mathlib's real powers are `Real.rpow : Pow ℝ ℝ`, `NNReal.rpow`, `ENNReal.rpow` and `Complex.cpow`, its
            # integer powers `DivInvMonoid.Pow : Pow α ℤ` (groups, fields): there is no `HPow ℕ ℝ`, `HPow ℤ ℝ`,
            # `HPow ℚ ℝ`, `HPow ℕ ℤ` or `HPow ℤ ℤ`. The base has the type of its `binop%` tree (a real leaf such as
            # `x = n ^ b` makes it `↑n : ℝ`), so `(4 : ℤ) ^ b = 16` and `4 ^ b = 16` (numerals default to ℕ) with
            # b : ℝ fail to elaborate; read as real powers they merged with `(4 : ℝ) ^ b = 16`
            raise IllTyped(f"{ir.show(base)[:40]} :: {self.resolve(target)} to the power of a {et}")
        if et == REAL and self.system == "lean" and isinstance(e, App) and e.op == "cast":
            src = self.resolve(ir.type_of(e.args[0]))
            if src in (NAT, INT) and self.resolve(target) == REAL:
                # a real power at a cast natural or integer exponent is the monoid or group power, at every base
                # (Mathlib `Real.rpow_natCast : x ^ (n : ℝ) = x ^ n`, `Real.rpow_intCast : x ^ (n : ℝ) = x ^ n`)
                return self.typed_pow(base, e.args[0], src, target)
        if et in (REAL, RAT) and self.system == "lean":
            return App("rpow", (base, e), target)
        if self.system == "isabelle" and et != NAT and (is_numeric(et) or et == BOOL):
            # Power.thy: `power :: 'a ⇒ nat ⇒ 'a` (`^`); HOL has no coercion from int or real to nat, so `x ^ n`
            # with `n :: int` fails type inference (the integer power is `power_int`, written `powi`)
            raise IllTyped(f"{ir.show(e)[:40]} :: {et} as the exponent of ^, which takes a nat")
        if et == INT:
            natural = _natural_exponent(e)
            if natural is not None and self.resolve(target) in (REAL, RAT, COMPLEX):
                # an integer power with a literal or cast natural exponent is the monoid power, and with a negated
                # one its inverse (Mathlib `zpow_natCast : a ^ (n : ℤ) = a ^ n`, `zpow_ofNat` for numerals, and
                # `zpow_neg : a ^ (-n) = (a ^ n)⁻¹`, in any division ring, where `0⁻¹ = 0`)
                n, negated = natural
                power = App("pow", (base, n), target)
                return App("inv", (power,), target) if negated else power
            return App(
                "call", (Var("uf:zpow", Fun((self.resolve(target), INT), self.resolve(target))), base, e), target
            )
        return App("pow", (base, e), target)

    def elab_leaf(self, t: Term) -> Term:
        if isinstance(t, Var):
            return self.elab_var(t, None)
        if isinstance(t, App) and t.op == "ascribe":
            inner = t.args[0]
            if self.system == "lean" and isinstance(inner, App) and inner.op == "setenum" and inner.args:
                x = self.elab_set(inner, t.target)
                if elem_of_set(ir.type_of(x)) == ir.collection_elem(self.deep(t.target)):
                    return x  # `({a, b} : Set G)` is the set {a, b} of elements of G
            if self.system == "isabelle" and isinstance(inner, App) and (inner.op in ARITH or inner.op == "pow"):
                x = self.arith_tree([inner], t.target, typed_roots=True)[0]  # `(n - 3 :: real)` is `real n - 3`
            elif (
                self.system == "lean"
                and isinstance(inner, Var)
                and (hit := self.lookup(inner.name)) is not None
                and hit[0] == "bound"
                and self.is_unknown(hit[1])
                and not isinstance(self.resolve(t.target), TVar)
            ):
                # `∀ i, Foo i → Even (i : ℕ)`: Lean typed i by Foo's signature, which SymEq does not know, so the
                # ascription may be the coercion `↑i` (Lean's `elabTypeAscription` inserts one where i's type is
                # another) rather than a declaration: an uninterpreted cast, i keeps a type of its own
                x = self.elab(inner, None)
                return App("cast", (x,), self.deep(t.target))
            else:
                x = self.elab(t.args[0], t.target)
            got, want = self.deep(ir.type_of(x)), self.deep(t.target)
            if isinstance(want, (Sort, SetTy)) and got != want and not isinstance(got, TVar):
                return App("cast", (x,), want)  # `({a} : Set (Fin 2))`: keep the type the text gives
            if self.system == "lean" and isinstance(got, Sort) and is_numeric(want):
                # `(x : ℕ)` with x : ℕ+ (or ℝ≥0, ...) is Lean's coercion `↑x` (`PNat.val`, `NNReal.toReal`), and
                # `(i : ℕ)` for i : Fin n is `Fin.val i` (Mathlib's coercion `Fin n → ℕ`): a value of the number type,
                # not x (an uninterpreted sort, see lean_frontend.TYPE_HEADS). Dropped, `(x : ℕ) - (y : ℕ)` was the
                # sort's own subtraction and `3 ∣ (i : ℕ)` divisibility in Fin n's ring. The coercion stays
                # uninterpreted.
                return App("cast", (x,), want)
            return x
        if isinstance(t, App) and t.op == "powr":
            a = self.elab(t.args[0], REAL)
            b = self.elab(t.args[1], REAL)
            return App("powr", (a, b), REAL)
        return self._elab(t, None)

    def field_access(self, name: str, args: list[Term]) -> Term | None:
        """Lean dot notation on a variable in scope: `S.card`, `x.gcd y` (None when it is not one)."""
        if self.system != "lean" or "." not in name:
            return None
        base, *fields = name.split(".")
        if not base or self.lookup(base) is None:
            return None
        out: Term = Var(base)
        for k, f in enumerate(fields):
            extra = args if k == len(fields) - 1 else []
            out = App("call", (Var("." + f), out, *extra))  # the receiver's type picks the namespace
        return out

    def bundled_field(self, field: str, ty: Ty | None, args: list[Term], expected: Ty | None) -> Term | None:
        """The function fields of a bundled map (a receiver, of type ty, whose sort applies through `CoeFun`):
        `φ.toFun x` is `φ x`; for an `Equiv` (fields toFun, invFun, left_inv, right_inv:
        Mathlib/Logic/Equiv/Defs.lean) `σ.1` is toFun, and `σ.2 y`, `σ.invFun y`, `σ.symm y` apply the inverse, one
        function of σ and y."""
        if not isinstance(ty, Sort) or ty.coe is None:
            return None
        equiv = ty.name.split()[0] == "Equiv"
        if field == "toFun" or (equiv and field == "1"):
            return (
                self.elab(args[0], expected)
                if len(args) == 1
                else self.elab_call(args[0], args[1:], expected, App("call", tuple(args)))
            )
        if equiv and field in ("2", "invFun", "symm") and len(args) == 2 and len(ty.coe.args) == 1:
            (dom,), cod = ty.coe.args, ty.coe.ret
            inv = Var("uf:coe.symm", Fun((ty, cod), dom))
            return App("call", (inv, self.elab(args[0], ty), self.elab(args[1], cod)), dom)
        return None

    def dot_target(self, field: str, receiver_ty: Ty | None) -> str:
        """Lean's generalized field notation: `x.f` with `x : C ...` is `C.f x` (`n.sqrt` is `Nat.sqrt n` for
        `n : ℕ`, `N.Normal` is `Subgroup.Normal N` for `N : Subgroup G`). Only where the receiver's type is
        unknown here is the usual reading of a few common fields assumed (`s.card` is `Finset.card s`)."""
        from atf.symeq.lean_frontend import FIELDS

        ns = ir.namespace_of(receiver_ty)
        if isinstance(receiver_ty, ir.SetTy) and field in _SET_ONLY_FIELDS:
            ns = "Set"  # a set-builder `{x | P x}` is a `Set`, and these are not `Finset` fields
        if ns is not None:
            return f"{ns}.{field}"
        return FIELDS.get(field, "." + field)

    def elab_var(self, t: Var, expected: Ty | None) -> Term:
        hit = self.lookup(t.name)
        if hit is not None:
            return Var(t.name, hit[1])
        dotted = self.field_access(t.name, [])
        if dotted is not None:
            return self.elab(dotted, expected)
        b = builtins.lookup(self.system, t.name)
        if b is not None and b.rule in ("const_real", "const_complex"):
            return Var(b.op, REAL if b.rule == "const_real" else COMPLEX)
        if t.name in ("Ints", "Nats", "Reals", "Rats"):
            return Var("set:" + t.name, Sort(t.name))
        return self.undeclared(t.name, expected if expected is not None else self.fresh())

    def dvd_operands(self, left: Term, joined: Ty | None) -> None:
        """Raise IllTyped where `a ∣ b` (Lean) has a divisor of a smaller type than the two operands' join: `∣` is
        a plain `infix:50 " ∣ " => Dvd.dvd` (no `binrel%`), whose arguments are elaborated left to right, so the
        divisor fixes the type and no coercion makes the dividend smaller: `p ∣ a` with p : ℕ, a : ℤ fails (it is
        `(p : ℤ) ∣ a` or `↑p ∣ a`). Only declared variables and ascriptions count as the divisor's leaves (a numeral
        or `↑x` takes the dividend's type)."""
        leaves: list[Term] = []
        self.collect(left, leaves)
        own: list[Ty] = []
        for x in leaves:
            if isinstance(x, Var) and self.lookup(x.name) is not None:
                own.append(self.resolve(self.lookup(x.name)[1]))
            elif isinstance(x, App) and x.op == "ascribe":
                own.append(self.resolve(x.target))
        own = [t for t in own if is_numeric(t)]
        target = self.resolve(joined)
        if own and is_numeric(target):
            mine = own[0]
            for t in own[1:]:
                mine = numeric_join(mine, t)
            if mine != target:
                raise IllTyped(f"{ir.show(left)[:40]} :: {mine} divides a {target}, which no coercion makes a {mine}")

    # ------------------------------------------------------------------ applications
    def elab_app(self, t: App, expected: Ty | None) -> Term:
        op = t.op
        if op in ("true", "false"):
            return App(op, (), BOOL)
        if op in ("and", "or"):
            return App(op, tuple(self.elab(a, BOOL) for a in t.args), BOOL)
        if op == "not":
            return App("not", (self.elab(t.args[0], BOOL),), BOOL)
        if op in ("implies", "iff"):
            return App(op, (self.elab(t.args[0], BOOL), self.elab(t.args[1], BOOL)), BOOL)
        if op in REL:
            return self.elab_rel(op, t.args[0], t.args[1])
        if op == "dvd":
            a, b = self.arith_tree(list(t.args), None)
            if self.system == "lean":
                self.dvd_operands(t.args[0], ir.type_of(a))
            return App("dvd", (a, b), BOOL)
        if op in ("in", "notin"):
            s = t.args[1]
            listed = self.list_function(s, "set")
            if listed is not None and len(listed) == 1:
                items = self.literal_items(listed[0])
                if items:  # `x ∈ set [a, b]` is `x ∈ {a, b}` (List.thy: set_simps)
                    s = App("setenum", tuple(items))
            m = self.membership(t.args[0], s)
            return App("not", (m,), BOOL) if op == "notin" else m
        if op == "ite":
            c = self.elab(t.args[0], BOOL)
            a, b = self.arith_tree_or_unify(list(t.args[1:]), expected)
            return App("ite", (c, a, b), ir.type_of(a))
        if op == "pair":
            items = [self.elab(a, None) for a in t.args]
            return self.nest_pair(items)
        if op in SET_OPS:
            return self.elab_set(t, expected)
        if op == "list":
            return self.elab_list(t, expected)
        if op in ("abs", "floor", "ceil", "fact", "choose", "sqrt", "min", "max", "gcd", "lcm"):
            return self.elab_builtin(builtins.Builtin(op, _DIRECT_RULES[op]), list(t.args), expected, t)
        if op == "call":
            return self.elab_call(t.args[0], list(t.args[1:]), expected, t)
        if op == "eq":
            return self.elab_rel(op, *t.args)
        self.notes.append(f"unknown op {op}")
        return self.fallback(t, expected)

    def arith_tree_or_unify(self, items: list[Term], expected: Ty | None) -> list[Term]:
        typed = [self.elab(a, None) for a in items]
        tys = [self.resolve(ir.type_of(x)) for x in typed]
        # (a list literal is no number: its items are not read again as one arithmetic tree, which read each level of
        # `[[[x]]]` twice, 2^depth elaborations: 14 levels took 80 s)
        lists = any(isinstance(a, App) and a.op == "list" for a in items)
        if all(is_numeric(t) or isinstance(t, TVar) for t in tys) and not any(t == BOOL for t in tys) and not lists:
            return self.arith_tree(items, expected)
        for x in typed[1:]:
            self.unify(ir.type_of(typed[0]), ir.type_of(x))
        return typed

    def nest_pair(self, items: list[Term]) -> Term:
        if len(items) == 1:
            return items[0]
        rest = self.nest_pair(items[1:])
        return App("pair", (items[0], rest), Tup((ir.type_of(items[0]), ir.type_of(rest))))

    def elab_rel(self, op: str, lhs: Term, rhs: Term) -> Term:
        flip = op in ("gt", "ge")
        if flip:
            op = "lt" if op == "gt" else "le"
            if self.system == "isabelle":
                # `x > y` is the input abbreviation `y < x` (Orderings.thy: `greater`), read before type inference
                lhs, rhs, flip = rhs, lhs, False
        # Lean: `a > b` is `binrel% GT.gt a b`, whose leaves are elaborated as written, left to right, and the first
        # use of an unannotated binder fixes its type: in `∀ n, a n > Real.sqrt (2 * n)` (a : ℕ → ℝ) `a n` makes
        # n : ℕ before `2 * n` is read as ℝ (read right to left, n was ℝ, `a n` ill-typed, the ∀ opaque)

        def ordered(x: Term, y: Term) -> tuple[Term, Term]:
            return (y, x) if flip else (x, y)

        if op in ("eq", "ne") and self.system == "lean" and (digits := mathlib.digits_equation(lhs, rhs)) is not None:
            out = self.elab(digits, BOOL)
            return App("not", (out,), BOOL) if op == "ne" else out
        if op in ("eq", "ne"):
            for s, other in ((lhs, rhs), (rhs, lhs)):
                empty = self.emptiness(s, "forall") if _is_empty_set(other) else None
                if empty is not None:  # `s = ∅` is `∀ x, x ∉ s` (Set.eq_empty_iff_forall_not_mem)
                    return App("not", (empty,), BOOL) if op == "ne" else empty
            if self.system == "isabelle" and _set_form(lhs, self.lookup) and _set_form(rhs, self.lookup):
                same = self.extensional(lhs, rhs)
                if same is not None:  # Set.thy, set_eq_iff: A = B ⟷ (∀x. x ∈ A ⟷ x ∈ B)
                    return App("not", (same,), BOOL) if op == "ne" else same
        a = self.elab(lhs, None)
        ta = self.resolve(ir.type_of(a))
        valued = (Fun, Tup, Sort, SetTy)
        if ta == BOOL or (op in ("eq", "ne") and isinstance(ta, valued) and not self._numeric_side(rhs)):
            b = self.elab(rhs, ta)
            if ta == BOOL:
                out = _bool_rel(op, *ordered(a, b))
            else:
                out = App("eq", (a, b), BOOL)
            return App("not", (out,), BOOL) if op == "ne" else out
        # numeric (or still unknown): both sides form one binrel% tree
        a, b = ordered(*self.arith_tree([lhs, rhs], None))
        tb = self.resolve(ir.type_of(b))
        if tb == BOOL:
            out = _bool_rel(op, a, b)
        else:
            out = App("eq" if op == "ne" else op, (a, b), BOOL)
        return App("not", (out,), BOOL) if op == "ne" else out

    def extensional(self, a: Term, b: Term) -> Term | None:
        """`∀x. x ∈ a ⟷ x ∈ b` for two sets, x of their element type (None where it cannot be told)."""
        el = None
        for side in (a, b):
            if not (isinstance(side, App) and side.op == "call"):  # (elaborating `range f` would declare it)
                el = elem_of_set(self.deep(ir.type_of(self.elab(side, None))))
            if el is not None and not isinstance(el, TVar):
                break
        if el is None:
            return None
        x = ir.fresh_name("x", ir.free_vars(a) | ir.free_vars(b))
        same = App("iff", (App("in", (Var(x), a)), App("in", (Var(x), b))))
        return self.elab(Bind("forall", ((x, el),), same), BOOL)

    def emptiness(self, s: Term, kind: str) -> Term | None:
        """`∀ x, x ∉ s` (kind forall) or `∃ x, x ∈ s` (exists: `s.Nonempty`, by definition) for a set s whose
        element type is known; None otherwise."""
        se = self.elab(s, None)
        el = elem_of_set(self.deep(ir.type_of(se)))
        if el is None or isinstance(el, TVar):
            return None
        mem = App("in", (Var("_e", el), se), BOOL)
        return Bind(kind, (("_e", el),), App("not", (mem,), BOOL) if kind == "forall" else mem, None, BOOL)

    def _numeric_side(self, t: Term) -> bool:
        return isinstance(t, Num)

    # ------------------------------------------------------------------ sets and membership
    def elab_set(self, t: App, expected: Ty | None = None) -> Term:
        if t.op == "range":
            n = self.elab(t.args[0], NAT)
            return App("range", (n,), set_of(NAT))
        if t.op == "setenum":
            if not t.args:
                return App("setenum", (), set_of(self.default_num))
            # Lean: where the set's type is known (`S = {1, 2}` with `S : Set ℝ`), so are its elements'
            el = ir.collection_elem(self.deep(expected)) if self.system == "lean" else None
            items = self.arith_tree_or_unify(list(t.args), el)
            return App("setenum", tuple(items), set_of(self.deep(ir.type_of(items[0]))))
        bounds = self.arith_tree(list(t.args), None)
        self._index_type(ir.type_of(bounds[0]))
        return App(t.op, tuple(bounds), set_of(self.deep(ir.type_of(bounds[0]))))

    def elab_list(self, t: App, expected: Ty | None) -> Term:
        """A literal list `[a, b]` of type `T list` (an uninterpreted sort, as `fixes xs :: "T list"` declares);
        kept opaque when T is not known (never guessed)."""
        items = self.arith_tree_or_unify(list(t.args), list_elem(self.resolve(expected))) if t.args else []
        el = self.deep(ir.type_of(items[0])) if items else list_elem(self.resolve(expected))
        if el is None or isinstance(el, TVar) or not isinstance(el, ir.Base):
            return self.fallback(t, expected)
        return App("list", tuple(items), Sort(f"{el} list"))

    def _index_type(self, t: Ty | None) -> None:
        t = self.resolve(t)
        if isinstance(t, TVar):
            self.index_vars.append(t)

    def interval_call(self, s: Term) -> Term:
        """`Set.Icc a b` (Ico, Ioc, Ioo, the rays `Set.Ioi a` ..., the `Finset` ones, `Finset.range n`) written as
        a call of the Mathlib name, read as the interval, so that membership unfolds as it does for the interval
        itself."""
        if not (isinstance(s, App) and s.op == "call" and isinstance(s.args[0], Var)):
            return s
        name = s.args[0].name
        if self.lookup(name) is not None:
            return s
        ray = _LEAN_RAYS.get(name.removeprefix("Set.").removeprefix("Finset.")) if self.system == "lean" else None
        if ray is not None and len(s.args) == 2:  # `Set.mem_Ioi : a ∈ Ioi b ↔ b < a`, `Set.mem_Iic`, ...
            return App(ray, s.args[1:])
        b = builtins.lookup(self.system, name)
        if b is not None and b.rule == "interval" and len(s.args) == 3:
            return App(b.op, s.args[1:])
        if b is not None and b.rule == "range" and len(s.args) == 2:
            return App("range", s.args[1:])
        return s

    def membership(self, x: Term, s: Term) -> Term:
        # Mathlib `Set.mem_Icc`, `Set.mem_Ico`, `Set.mem_Ioc`, `Set.mem_Ioo`, `Finset.mem_Icc` (...),
        # `Finset.mem_range`: membership of an interval is the conjunction of its two bounds
        s = self.interval_call(s)
        if self.system == "lean" and isinstance(s, App) and s.op == "ascribe" and isinstance(s.args[0], App):
            el = ir.collection_elem(self.deep(s.target))
            if el is not None and s.args[0].op == "setenum":  # `x ∈ ({1, 2} : Set ℝ)`: `(x : ℝ) ∈ {1, 2}`
                x, s = App("ascribe", (x,), target=el), s.args[0]
        if isinstance(s, App) and s.op in BOUNDS:
            xe, lo, hi = self.arith_tree([x, *s.args], None)
            lo_op, hi_op = BOUNDS[s.op]
            return App("and", (App(lo_op, (lo, xe), BOOL), App(hi_op, (xe, hi), BOOL)), BOOL)
        if isinstance(s, App) and s.op in RAYS:
            xe, bound = self.arith_tree([x, s.args[0]], None)
            op, below = RAYS[s.op]
            return App(op, (xe, bound) if below else (bound, xe), BOOL)
        if isinstance(s, App) and s.op == "range":
            xe, n = self.arith_tree([x, s.args[0]], NAT)
            return App("lt", (xe, n), BOOL)
        if isinstance(s, App) and s.op == "setenum":
            if not s.args:
                self.elab(x, None)
                return App("false", (), BOOL)
            parts = [self.elab_rel("eq", x, item) for item in s.args]
            return App("or", tuple(parts), BOOL) if len(parts) > 1 else parts[0]
        # `x ∈ {n | P n}` is `P x` (Set.mem_setOf_eq), unless a type inside P mentions n and x is no variable:
        # `13 ∈ {n | ∀ f : Fin n → Fin 12, …}` has `Fin 13` inside, which a type written as text cannot carry (with
        # the terms alone substituted, `Fin n` was left there, one type for every element: read so, `IsLeast` of
        # that set merged with `Fin 13` for `Fin 12`, with `∃ f`, with `IsGreatest`); it is then read as a membership
        # of the set, whose dependent binder stays opaque (`dependent_bind`).
        if isinstance(s, Bind) and s.kind == "setof":
            typed, ty = x, s.vars[0][1]
            if ty is None and s.dom is not None and self.system == "isabelle":
                # `{(x, y) ∈ A. x < y}` is `{p. p ∈ A ∧ (case p of (x, y) ⇒ x < y)}` (Set.thy): the pattern's names
                # have A's element type, and so has x in both conjuncts (each elaborates its own copy of x: read
                # apart, `(2, 3) ∈ {(x, y) ∈ A. x < y}` with A an `(int × int) set` compared 2 < 3 in a type of its
                # own). The domain is read once for its type (what that reading noted is dropped: read again below).
                noted = len(self.notes)
                el = elem_of_set(self.deep(ir.type_of(self.elab(s.dom, None))))
                del self.notes[noted:]
                if el is not None and self.ground(el):
                    ty = el
            # The element has the binder's type: Lean's `1 / 2 ∈ {u : ℝ | 2 * u = 1}` is `Membership ℝ (Set ℝ)`, so
            # 1 / 2 is real (substituted bare, its numerals defaulted to ℕ, 1 / 2 = 0, and `1 / 3 ∈ …` read the same);
            # Isabelle's `x ∈ {y :: int. P y}` is `x ∈ (… :: int set)`, `op ∈ :: 'a ⇒ 'a set ⇒ bool` makes x an int
            # (a type constraint there, no coercion: an x of another type is a type error).
            if ty is not None:
                hit = self.lookup(x.name) if isinstance(x, Var) else None
                if hit is None or self.deep(hit[1]) != ty:  # (a variable of that type stays a variable)
                    typed = App("ascribe", (x,), target=ty)
            body = ir.beta(replace(s, kind="lambda", vars=s.vars[:1], dom=None), (typed,))
            if body is not None:
                cond = self.elab(body, BOOL)
                if s.dom is not None:
                    return App("and", (self.membership(x, s.dom), cond), BOOL)
                return cond
        if self.system == "isabelle" and s == Var("UNIV") and self.lookup("UNIV") is None:
            self.elab(x, None)
            return App("true", (), BOOL)  # Set.thy: UNIV_I
        if _set_call(s, self.lookup, ("op:union", "op:inter"), 2):
            # Isabelle Set.thy: Un_iff, Int_iff; Mathlib `Set.mem_union`, `Set.mem_inter_iff`, `Finset.mem_union`,
            # `Finset.mem_inter` (and `Multiset.mem_union`, `List.mem_union_iff`: every `∪` Mathlib gives a `∈`)
            either = "or" if s.args[0].name == "op:union" else "and"  # type: ignore[union-attr]
            return App(either, (self.membership(x, s.args[1]), self.membership(x, s.args[2])), BOOL)
        if (self.system == "lean" and _set_call(s, self.lookup, ("compl",), 1)) or (
            self.system == "isabelle" and isinstance(s, App) and s.op == "neg" and len(s.args) == 1
        ):
            # Mathlib `Set.mem_compl_iff`, `Finset.mem_compl` (`Aᶜ`); Isabelle Set.thy `Compl_iff` (`- A` on sets)
            inner = s.args[-1]  # type: ignore[union-attr]
            return App("not", (self.membership(x, inner),), BOOL)
        minus = None  # (A, B) of `A \ B`, Mathlib `Set.mem_diff`, `Finset.mem_sdiff`; Isabelle `A - B`, Diff_iff
        if self.system == "lean" and _set_call(s, self.lookup, ("op:sdiff",), 2):
            minus = s.args[1:]  # type: ignore[union-attr]
        elif self.system == "isabelle" and isinstance(s, App) and s.op == "sub" and len(s.args) == 2:
            minus = s.args  # (`-` between two things `∈` reads as sets is `minus` on sets: Set.thy set_diff_eq)
        if minus is not None:
            keep, drop = minus
            return App("and", (self.membership(x, keep), App("not", (self.membership(x, drop),), BOOL)), BOOL)
        if self.system == "lean" and isinstance(s, App) and s.op == "call" and isinstance(s.args[0], Var):
            if s.args[0].name.startswith(".") and len(s.args) > 1:  # `(Finset.range 3).image f`
                receiver_ty = self.resolve(ir.type_of(self.elab(s.args[1], None)))
                s = self.dot_call(s.args[0].name, s.args[1:], receiver_ty) or s
        kind = _image_kind(s, self.lookup, self.system)
        if kind is not None and self.system == "lean":
            f = s.args[1]  # type: ignore[union-attr]
            if isinstance(f, Num) or _no_function(self.deep(ir.type_of(self.elab(f, None)))):
                kind = None  # (`Set.range 3` does not elaborate: left to the generic reading below)
        if kind == "preimage":
            # Mathlib `Set.mem_preimage`: `a ∈ f ⁻¹' s ↔ f a ∈ s` (the preimage is `{x | f x ∈ s}` by definition)
            return self.membership(App("call", (s.args[1], x)), s.args[2])  # type: ignore[union-attr]
        if kind is not None:
            # Mathlib `Set.mem_image` (`a ∈ f '' s ↔ ∃ x, x ∈ s ∧ f x = a`), `Finset.mem_image`, `Set.mem_range`
            # (`x ∈ Set.range f ↔ ∃ y, f y = x`); Isabelle Set.thy image_iff (`x ∈ f ` A ⟷ ∃y ∈ A. x = f y`),
            # range f = f ` UNIV (each written as its lemma writes it)
            f, dom = s.args[1], s.args[2] if kind == "image" else None  # type: ignore[union-attr]
            y = ir.fresh_name("y", ir.free_vars(x) | ir.free_vars(s))
            fy = App("call", (f, Var(y)))
            at = App("eq", (x, fy) if self.system == "isabelle" else (fy, x))
            return self.elab(Bind("exists", ((y, None),), at, dom=dom), BOOL)
        if isinstance(s, Var) and s.name in ("Ints", "Nats", "Reals", "Rats") and self.lookup(s.name) is None:
            xe = self.elab(x, None)
            t = self.resolve(ir.type_of(xe))
            if isinstance(t, TVar) and s.name in ("Ints", "Nats"):
                # Isabelle infers types over the whole proposition: in `{p. ∃x y. p = (x, y) ∧ x ∈ ℤ}` x's type
                # may come from p's later (an `(int × int) set`). ℤ and ℕ are sets of a number type (Int.thy: Ints
                # :: 'a::ring_1 set, Nats :: 'a::semiring_1 set): decided once the type is known (zonk)
                self.numeral_ids.add(t.id)
                return App("numset:" + s.name, (xe,), BOOL)
            if isinstance(t, TVar):
                self.unify(t, REAL)
                t = REAL
            if s.name == "Reals":
                return App("true", (), BOOL)
            if s.name in ("Ints", "Nats"):
                return _numset_member(s.name, xe, t)
        xe = self.elab(x, None)
        se = self.elab(s, set_of(self.deep(ir.type_of(xe))))
        sty = self.resolve(ir.type_of(se))
        if not isinstance(sty, (SetTy, TVar)):
            # a collection typed by its binder (`A : Set ℝ`): x has its element type, never a guessed one
            el = elem_of_set(sty)
            if el is None:
                self.unknown(ir.type_of(xe), "elem:" + str(sty))
            elif not self.unify(ir.type_of(xe), el):
                got = self.resolve(ir.type_of(xe))
                if is_numeric(got) and is_numeric(el):
                    xe = App("cast", (xe,), el)  # `(n : ℕ) ∈ A` with `A : Set ℝ` is `↑n ∈ A`
        return App("in", (xe, se), BOOL)

    # ------------------------------------------------------------------ binders
    def elab_bind(self, t: Bind, expected: Ty | None) -> Term:
        if self.system == "lean" and any(ty is None for _, ty in t.vars):
            fixed = self.index_types(t)
            if fixed:
                t = replace(t, vars=tuple((n, fixed.get(n, ty) if ty is None else ty) for n, ty in t.vars))
        # (`Fin l.length` mentions l: the head of a dotted name is a name too)
        deps = [n for _, ty in t.vars for m in ir.type_words(ty) for n in (m, m.split(".")[0]) if self.bound_value(n)]
        if deps:
            return self.dependent_bind(t, expected, list(dict.fromkeys(deps)))
        frame: dict[str, Ty] = {}
        vars_: list[tuple[str, Ty]] = []
        dom_e: Term | None = None
        if t.dom is not None:
            dom_e = self.elab(t.dom, None) if not (isinstance(t.dom, Bind)) else None
        for name, ty in t.vars:
            vt = ty if ty is not None else self.fresh()
            if dom_e is not None:
                el = elem_of_set(self.deep(ir.type_of(dom_e)))
                if el is not None and len(t.vars) == 1:
                    self.unify(vt, el)
                elif el is None and ty is None:  # a domain we cannot read: Lean knows the element type, we do not
                    self.unknown(vt, "elem:" + ir.show(ir.canonical_binds(t.dom))[:80])
            frame[name] = vt
            vars_.append((name, vt))
        self.scope.append(frame)
        try:
            if t.kind in ("forall", "exists", "exists1"):
                body = self.elab(t.body, BOOL)
                if t.dom is not None:
                    guard = self.membership(Var(vars_[0][0]), t.dom)
                    body = App("implies" if t.kind == "forall" else "and", (guard, body), BOOL)
                out = Bind(t.kind, tuple(vars_), body, None, BOOL)
            elif t.kind == "lambda":
                body = self.elab(t.body, None)
                out = Bind("lambda", tuple(vars_), body, None, Fun(tuple(v for _, v in vars_), ir.type_of(body)))
            elif t.kind in ("sum", "prod"):
                body = self.elab(t.body, expected)
                if self.system == "isabelle" and self.resolve(ir.type_of(body)) == BOOL:
                    # Groups_Big.thy: sum and prod need a comm_monoid_add / comm_monoid_mult, which bool is not
                    raise IllTyped(f"{ir.show(t)[:60]} sums truth values")
                if dom_e is None and t.dom is not None:
                    dom_e = self.elab(t.dom, None)
                    el = elem_of_set(self.deep(ir.type_of(dom_e)))
                    if el is not None and len(vars_) == 1:  # (`∑d ∈ {d. d dvd (12::nat)}. d`: d is a nat)
                        self.unify(vars_[0][1], el)
                out = Bind(t.kind, tuple(vars_), body, dom_e, ir.type_of(body))
            elif t.kind == "setof" and t.dom is None and len(vars_) == 1 and _listed(t) is not None:
                # `{x. x = a ∨ x = b}` is `{a, b}` (Set.thy: insert_compr, `insert a B = {x. x = a ∨ x ∈ B}`)
                self.scope.pop()
                items, ty = _listed(t), t.vars[0][1]
                items = [x if ty is None else App("ascribe", (x,), target=ty) for x in items]
                return self.elab(App("setenum", tuple(items)), expected)
            elif t.kind == "setof":
                body = self.elab(t.body, BOOL)
                out = Bind("setof", tuple(vars_), body, dom_e, set_of(vars_[0][1]))
            elif t.kind in ("least", "greatest") and len(vars_) == 1 and t.dom is None and _member_of_literal(t):
                # `LEAST x. x ∈ {a, b}` is Min {a, b} (Lattices_Big.thy, Least_Min: a finite nonempty set), GREATEST Max
                self.scope.pop()
                items, ty = t.body.args[1].args, t.vars[0][1]
                items = tuple(x if ty is None else App("ascribe", (x,), target=ty) for x in items)
                return self.elab_extremum(t.kind == "greatest", items, expected, t)
            elif t.kind in ("least", "greatest", "the") and len(vars_) == 1 and t.dom is None:
                if expected is not None:  # `LEAST x. P x` (and `THE x. P x`) has the type of x
                    self.unify(vars_[0][1], expected)
                body = self.elab(t.body, BOOL)
                out = Bind(t.kind, tuple(vars_), body, None, vars_[0][1])
            else:
                self.scope.pop()
                return self.fallback(t, expected)
        finally:
            if self.scope and self.scope[-1] is frame:
                self.scope.pop()
        return out

    def index_types(self, t: Bind) -> dict[str, Ty]:
        """The types Lean's unifier gives unannotated variables of t by their uses in dependent signatures: an index
        of a list, `l.get i` (`List.get : (l : List α) → Fin l.length → α`, Lean core), is an `i : Fin l.length`.
        An unannotated binder has a metavariable type that the first such use assigns; a later `(i : ℕ)` is then the
        coercion `Fin.val i`, not a declaration. Read at a default ℕ instead, `Even (i : ℕ)` and `Even i` (evenness
        in `Fin l.length`, true of every element when the length is odd) merged (PutnamBench 1989 A1's text)."""
        untyped = {n for n, ty in t.vars if ty is None}
        out: dict[str, Ty] = {}
        for x in ir.walk(t.body):
            if not (isinstance(x, App) and x.op == "call" and isinstance(x.args[0], Var)):
                continue
            name, rest = x.args[0].name, x.args[1:]
            if name in ("Polynomial.coeff", ".coeff") and len(rest) == 2 or name.endswith(".coeff") and len(rest) == 1:
                # `Polynomial.coeff : R[X] → ℕ → R` (Mathlib): the index of a coefficient is a natural number
                index = rest[-1]
                receiver = rest[0] if len(rest) == 2 else Var(name.split(".")[0])
                if name != "Polynomial.coeff" and not self.typed_as(receiver, "Polynomial"):
                    continue  # (`MvPolynomial.coeff`, `PowerSeries.coeff` take other indices)
                if isinstance(index, Var) and index.name in untyped:
                    out.setdefault(index.name, NAT)
                continue
            if name in ("List.get", ".get") and len(rest) == 2:
                receiver, index = rest
            elif name.endswith(".get") and name.count(".") == 1 and len(rest) == 1:
                receiver, index = Var(name.split(".")[0]), rest[0]
            else:
                continue
            if not (isinstance(index, Var) and index.name in untyped and index.name not in out):
                continue
            if isinstance(receiver, Var) and "." not in receiver.name:
                if not self.typed_as(receiver, "List"):
                    continue
                out[index.name] = Sort(f"Fin {receiver.name}.length")
            elif name != "List.get" and not (
                isinstance(receiver, App)
                and receiver.op == "call"
                and isinstance(receiver.args[0], Var)
                and receiver.args[0].name in ("Nat.digits", "digits", "List.range", "op:list")
            ):
                continue
            else:  # (`List.get` of any receiver, or `.get` of a list-valued call)
                out[index.name] = Sort(f"Fin ( {ir.show(receiver)} ) .length")
        return out

    def typed_as(self, t: Term, head: str) -> bool:
        """t is a variable in scope whose type is `head …` (`List ℕ`, `Polynomial ℝ`)."""
        hit = self.lookup(t.name) if isinstance(t, Var) else None
        ty = self.deep(hit[1]) if hit is not None else None
        return isinstance(ty, Sort) and ty.name.split(" ")[0] == head

    def bound_value(self, name: str) -> bool:
        """name is bound around here (a quantifier, λ or big operator) and is no type (`∀ X : Type, ∀ s : Set X`
        quantifies over a type, which SymEq reads as a sort variable)."""
        for frame in reversed(self.scope):
            if name in frame:
                ty = self.deep(frame[name])
                return not (isinstance(ty, Sort) and ty.name.split(" ")[0].rstrip("*") in ("Type", "Sort", "Prop"))
        return False

    def dependent_bind(self, t: Bind, expected: Ty | None, deps: list[str]) -> Term:
        """A binder whose type mentions a variable bound around it (`∀ k ∈ s, ∀ x : Fin k → ℤ, …`): Lean's type
        depends on k's value (`Fin k` has k elements), while SymEq names a type by its text, one sort for every k, so
        the body read k-independent and `∀ k ∈ Icc 1 n` collapsed to `0 < n` (`Icc 1 n` and `Icc 1 (n + 1)` merged).
        Kept opaque, over k as well as the variables the body uses; the types written are part of its text."""
        types = ", ".join(str(ty) for _, ty in t.vars if ty is not None)  # by position: bound names are not meaning
        for k, d in enumerate(deps):  # (nor the names of the values it depends on: `Fin l.length` is `Fin #0.length`)
            types = re.sub(rf"(?<![\w'.]){re.escape(d)}(?![\w'])", f"#{k}", types)
        marker = App("call", (Var(f"·types[{types}]"), *(Var(d) for d in deps)))
        return self.fallback(App("and", (replace(t, vars=tuple((n, None) for n, _ in t.vars)), marker)), expected)

    # ------------------------------------------------------------------ calls
    def elab_image(self, name: str, args: list[Term]) -> Term | None:
        """`f '' A` (`Set.image f A`, `Finset.image f A`), `Set.range f`, `f ⁻¹' A` (`Set.preimage f A`) with their
        Mathlib types where they stay atoms (`S = f '' A`): a set of f's codomain (preimage: of its domain), A of
        the other side's elements, so that the normaliser can read their members (`Set.mem_image`, ...). None
        where f is not a function of one argument or A's elements are of another type."""
        kind = IMAGE_KIND["lean"][name]
        if len(args) != IMAGE_ARITY[kind]:
            return None
        fe = self.elab(args[0], None)
        fty = self.deep(ir.type_of(fe))
        if not (isinstance(fty, Fun) and len(fty.args) == 1):
            return None
        src, dst = (fty.ret, fty.args[0]) if kind == "preimage" else (fty.args[0], fty.ret)
        if kind == "range":
            return App("call", (Var("uf:" + name, Fun((fty,), set_of(dst))), fe), set_of(dst))
        ae = self.elab(args[1], None)
        ety = self.deep(ir.type_of(ae))
        el = ir.collection_elem(ety)
        if el is None or not self.unify(el, src):
            return None
        return App("call", (Var("uf:" + name, Fun((fty, ety), set_of(dst))), fe, ae), set_of(dst))

    def dot_call(self, name: str, args: Sequence[Term], receiver_ty: Ty | None) -> App | None:
        """`s.filter p` (name `.filter`, args [s, p]) as the call it is, `Finset.filter p s`: the receiver goes to
        the first explicit argument of its type (RECEIVER_POSITION); None where the field is not resolved."""
        target = self.dot_target(name[1:], receiver_ty)
        if target == name:
            return None
        pos = RECEIVER_POSITION.get(target, 0)
        if pos and len(args) > pos:
            args = [*args[1 : pos + 1], args[0], *args[pos + 1 :]]
        return App("call", (Var(target), *args))

    def elab_call(self, head: Term, args: list[Term], expected: Ty | None, orig: Term) -> Term:
        if isinstance(head, Bind) and head.kind == "lambda" and len(head.vars) == len(args):
            if self.system == "lean":  # `(fun x : ℝ => ..) a`: a is elaborated as an ℝ
                args = [a if ty is None else App("ascribe", (a,), target=ty) for (_, ty), a in zip(head.vars, args)]
            body = ir.beta(head, args)  # (None: a type in the body mentions a parameter, see `ir.beta`)
            return self.elab(body, expected) if body is not None else self.fallback(orig, expected)
        if self.system == "isabelle" and isinstance(head, App) and head.op == "call":
            # Pure's application is curried and left-associative: `(f a) b` is the term `f a b` (`f $ a $ b`)
            return self.elab_call(head.args[0], [*head.args[1:], *args], expected, App("call", (*head.args, *args)))
        if not isinstance(head, Var):
            return self.fallback(orig, expected)
        name = head.name
        if name in _NOTATION_FUNCTIONS and len(args) == _NOTATION_FUNCTIONS[name][1] and self.lookup(name) is None:
            return self.elab(_NOTATION_FUNCTIONS[name][0](*args), expected)
        if name in ("IsLeast", "IsGreatest") and len(args) == 2 and self.system == "lean" and self.lookup(name) is None:
            return self.elab_extreme_member(name == "IsGreatest", args[0], args[1], expected, orig)
        if name in ("Set.Nonempty", "Finset.Nonempty") and len(args) == 1 and self.lookup(name) is None:
            nonempty = self.emptiness(args[0], "exists")
            if nonempty is not None:
                return nonempty
        if name.startswith(".") and args and self.system == "lean":
            receiver_ty = self.resolve(ir.type_of(self.elab(args[0], None)))
            bundled = self.bundled_field(name[1:], receiver_ty, args, expected)
            if bundled is not None:
                return bundled
            resolved = self.dot_call(name, args, receiver_ty)
            if resolved is not None:
                return self.elab_call(resolved.args[0], list(resolved.args[1:]), expected, orig)
        hit = self.lookup(name)
        if hit is None and self.system == "lean" and name.startswith(("Set.", "Finset.")) and len(args) == 1:
            ray = _LEAN_RAYS.get(name.split(".", 1)[1])
            if ray is not None:  # `Set.Ici a` wherever it is written, a ray as in a membership
                return self.elab(App(ray, tuple(args)), expected)
        if hit is None and self.system == "lean" and name in ("dist", "Dist.dist") and len(args) == 2:
            return self.elab_lean_dist(args, expected)
        if hit is None and self.system == "lean" and name in IMAGE_KIND["lean"]:
            typed = self.elab_image(name, args)
            if typed is not None:
                return typed
        if hit is None and name in _PRIME_FACTORS[self.system] and len(args) == 1:
            return self.elab(_prime_factors(self.system, args[0]), expected)
        if hit is None and name == "id" and len(args) == 1:
            return self.elab(args[0], expected)  # Fun.thy: id = (λx. x); Lean's Prelude.lean: `def id (a : α) : α := a`
        if hit is None and self.system == "isabelle" and name == "dist" and len(args) == 2:
            return self.elab_dist(args, expected, orig)
        if hit is None and self.system == "isabelle" and name == "midpoint" and len(args) == 2:
            return self.elab_midpoint(args, expected)
        if name == "op:scaleR" and len(args) == 2:
            return self.elab_scale(args[0], args[1], expected)
        if name == "op:divideR" and len(args) == 2:  # x /⇩R r ≡ inverse r *⇩R x (Real_Vector_Spaces.thy)
            return self.elab_scale(App("div", (Num(Fraction(1)), args[1])), args[0], expected)
        if hit is None and self.system == "isabelle" and name == "vector" and len(args) == 1:
            vec = self.elab_vector(args[0], expected)
            if vec is not None:
                return vec
        if hit is None and self.system == "isabelle" and name in _SERIES and args and isinstance(args[0], Bind):
            # Series.thy: suminf, summable :: (nat ⇒ 'a) ⇒ ..., so the index of `∑n. f n` is a natural number
            f = args[0]
            if f.kind == "lambda" and len(f.vars) == 1 and f.vars[0][1] is None:
                args = [replace(f, vars=((f.vars[0][0], NAT),)), *args[1:]]
        if hit is None and self.system == "isabelle" and name == "suminf" and len(args) == 1:
            series = self.elab_series(args[0], expected)
            if series is not None:
                return series
        if hit is None:
            dotted = self.field_access(name, args)
            if dotted is not None:
                return self.elab(dotted, expected)
            b = builtins.lookup(self.system, name)
            if b is not None and b.rule == "listprod" and not (len(args) == 1 and mathlib.literal_list(args[0])):
                b = None  # (the product of a list not written out stays the function it was: a group's, a ring's)
            if b is not None:
                return self.elab_builtin(b, args, expected, orig)
            if name.startswith("op:"):
                return self.elab_uf_call(Var(name), args, expected, global_=True)
            return self.elab_uf_call(head, args, expected, global_=False)
        return self.elab_uf_call(Var(name, hit[1]), args, expected, global_=False)

    def elab_extreme_member(self, greatest: bool, s: Term, a: Term, expected: Ty | None, orig: Term) -> Term:
        """Mathlib Order/Bounds/Basic.lean: `def IsLeast (s : Set α) (a : α) : Prop := a ∈ s ∧ a ∈ lowerBounds s`,
        `def lowerBounds (s : Set α) : Set α := {x | ∀ ⦃a⦄, a ∈ s → x ≤ a}`; IsGreatest with upperBounds (`a ≤ x`).
        Read so where the elements are numbers (ℕ, ℤ, ℚ, ℝ, or not known yet: Lean's numerals default to ℕ), whose
        order SymEq models. Of another element type (sets under ⊆, ENNReal, ...) it stays one opaque proposition,
        with the bound elaborated at the element type as Lean does (`IsLeast S (2 ^ (1 / 3 : ℝ))`: the 2 is real)."""
        se = self.elab(s, None)
        el = elem_of_set(self.deep(ir.type_of(se)))
        known = self.resolve(el)
        if not (known in (NAT, INT, RAT, REAL) or isinstance(known, TVar) and not self.is_unknown(known)):
            ae = self.elab(a, el)
            name = "uf:IsGreatest" if greatest else "uf:IsLeast"
            if el is None:  # (a set of a type we cannot read: Lean knows the bound's type, we do not; not ℕ)
                self.unknown(ir.type_of(ae), name + "#1")
            f = self.global_const(name, Fun((ir.type_of(se), ir.type_of(ae)), BOOL))
            return App("call", (f, se, ae), BOOL)
        # a name no variable, bound name or type of s and a uses (so that a type inside s that mentions the set's
        # element, `{n | ∀ f : Fin n → α, …}`, mentions the bound element once instantiated, see `membership`)
        words = {x.name for x in (*ir.walk(s), *ir.walk(a)) if isinstance(x, Var)} | ir.sort_names((), [s, a])
        words |= {n for t in (s, a) for x in ir.walk(t) if isinstance(x, Bind) for n, _ in x.vars}
        name = ir.fresh_name("elem", words | {n for frame in self.scope for n in frame})
        x = Var(name)
        bound = Bind("forall", ((name, None),), App("le", (x, a) if greatest else (a, x)), dom=s)
        return self.elab(App("and", (App("in", (a, s)), bound)), BOOL)

    def elab_dist(self, args: list[Term], expected: Ty | None, orig: Term) -> Term:
        """Isabelle `dist` on ℝ and on products of ℝ (Real_Vector_Spaces.thy, dist_real_def: `dist x y = |x - y|`;
        Product_Vector.thy, dist_prod_def: `dist x y = sqrt ((dist (fst x) (fst y))² + (dist (snd x) (snd y))²)`);
        on other types an uninterpreted function."""
        x, y = self.arith_tree_or_unify(list(args), None)
        ty = self.deep(ir.type_of(x))
        if isinstance(ty, TVar):
            self.unify(ty, REAL)
            ty = REAL

        def square(a: Term, b: Term) -> Term:
            return App("pow", (App("sub", (a, b), REAL), Num(Fraction(2), NAT)), REAL)

        if ty == REAL:
            return App("abs", (App("sub", (x, y), REAL),), REAL)
        sq = _by_component(x, y, ty, square, lambda parts, t: App("add", parts, REAL))
        if sq is None:
            return self.elab_uf_call(Var("dist"), args, expected, global_=False)
        return App("sqrt", (sq,), REAL)

    def elab_lean_dist(self, args: list[Term], expected: Ty | None) -> Term:
        """Mathlib's `dist` on numbers and pairs of them, a real number: `Real.dist_eq` (`dist x y = |x - y|`), on ℕ, ℤ
        and ℚ the same of the casts to ℝ (`Nat.dist_eq`, `Int.dist_eq`, `Rat.dist_eq`), and on a product the larger
        of the components' distances (`Prod.dist_eq`: the sup metric, not the Euclidean one); on any other type
        (`EuclideanSpace ℝ (Fin 2)`, ℂ, a metric space) an uninterpreted function."""
        x, y = self.arith_tree_or_unify(list(args), None)
        out = _by_component(
            x,
            y,
            self.deep(ir.type_of(x)),
            lambda a, b: App("abs", (App("sub", (a, b), REAL),), REAL),
            lambda parts, _: App("max", parts, REAL),
            (NAT, INT, RAT, REAL),
        )
        if out is None:
            return self.elab_uf_call(Var("dist"), args, expected, global_=False)
        return out

    def elab_series(self, f: Term, expected: Ty | None) -> Term | None:
        """`suminf f` with f a λ or a function of ℕ: `suminf :: (nat ⇒ 'a) ⇒ 'a` (Series.thy), so the sum has the terms'
        type (uninterpreted, one function per type); None for another f."""
        named = isinstance(f, Var) and (hit := self.lookup(f.name)) is not None and isinstance(self.deep(hit[1]), Fun)
        if not (isinstance(f, Bind) and f.kind == "lambda" or named):
            return None
        series = self.elab(f, None)
        fty = self.deep(ir.type_of(series))
        if not (isinstance(fty, Fun) and fty.args == (NAT,)):
            return self.fallback(App("call", (Var("suminf"), f)), expected)
        if expected is not None:
            self.unify(fty.ret, expected)
        return App("call", (Var("uf:suminf", Fun((fty,), fty.ret)), series), fty.ret)

    def elab_midpoint(self, args: list[Term], expected: Ty | None) -> Term:
        """Isabelle `midpoint :: 'a ⇒ 'a ⇒ 'a` (HOL-Analysis); what it means depends on 'a, known once every type is
        (`∀p q. midpoint p q = (.., fst p ..)`): `zonk` reads it with `_midpoint`."""
        a, b = self.arith_tree_or_unify(list(args), expected)
        ty = ir.type_of(a) if ir.type_of(a) is not None else self.fresh()
        if expected is not None:
            self.unify(ty, expected)
        return App("midpoint", (a, b), ty)

    def elab_scale(self, r: Term, v: Term, expected: Ty | None) -> Term:
        """Isabelle `r *⇩R v` (scaleR :: real ⇒ 'a ⇒ 'a): r is a real and the result has v's type; what it means
        depends on that type, known once every type is (`zonk` reads it with `_scale`)."""
        scalar = self.elab(r, REAL)
        vec = self.elab(v, expected)
        ty = ir.type_of(vec) if ir.type_of(vec) is not None else self.fresh()
        if isinstance(self.resolve(ty), TVar):
            self.unknown(ty, "scaleR")  # `2 *⇩R 3` alone says nothing about its type: never defaulted
        return App("scaleR", (scalar, vec), ty)

    def elab_vector(self, items: Term, expected: Ty | None) -> Term | None:
        """`vector [x₁, ..., xₙ] :: 'a^n` is the vector of those components (HOL-Analysis, vector_def; `'a^n` is read
        as a product, see isabelle_frontend.vector_type), when the type expected has n components; None otherwise."""
        ty = self.deep(expected)
        if not (isinstance(items, App) and items.op == "list" and isinstance(ty, Tup)):
            return None
        elem, comps, rest = ty.items[0], 1, ty.items[1]
        while isinstance(rest, Tup) and rest.items[0] == elem:
            comps, rest = comps + 1, rest.items[1]
        if rest != elem or comps + 1 != len(items.args):
            return None
        return self.nest_pair([self.elab(x, elem) for x in items.args])

    def elab_uf_call(self, head: Var, args: list[Term], expected: Ty | None, global_: bool) -> Term:
        """Apply a variable (or unknown constant) of function type."""
        hit = None if global_ else self.lookup(head.name)
        if hit is None:
            arg_e = [self.elab(a, None) for a in args]
            if head.name in _SAME_TYPE_OPERANDS and len(arg_e) == 2:
                # `HasSubset.Subset : α → α → Prop`, `Union.union : α → α → α`, ... (Mathlib Order.Notation, Lean core
                # Init.Core): both operands have one type, so `∃ S ⊆ X, ∑ s ∈ S, s` sums over X's element type; in
                # Isabelle too (Set.thy: union, inter :: 'a set ⇒ 'a set ⇒ 'a set, subset_eq :: 'a set ⇒ 'a set ⇒
                # bool): `{3/2} ∪ {0..1}` in a `real set` has real bounds, not natural ones
                self.try_unify(ir.type_of(arg_e[0]), ir.type_of(arg_e[1]))
            for k, a in enumerate(arg_e):  # `𝓝 (1 / 2)`: Lean knows the argument's type, we do not (not ℕ)
                self.unknown(ir.type_of(a), f"{head.name}#{k}")
            ret = expected if expected is not None else self.fresh()
            if _SAME_TYPE_RESULT.get(head.name) == len(arg_e) and (head.name != "compl" or self.system == "lean"):
                # `Union.union : α → α → α` (`Inter.inter`, `SDiff.sdiff`), `HasCompl.compl : α → α` (Mathlib
                # Order.Notation; Lean's postfix `ᶜ`); Isabelle `union :: 'a set ⇒ 'a set ⇒ 'a set`: the result has
                # the operands' type, so `S = Set.Icc 0 (3 / 2) ∪ {5}` with `S : Set ℝ`, or `B = (Set.Icc 0 1)ᶜ` with
                # `B : Set ℝ`, has real bounds (and their numerals are not left in a sort of their own)
                ret = ir.type_of(arg_e[0])
                if expected is not None:
                    self.try_unify(ret, expected)
            if head.name == "op:comp" and len(arg_e) == 2:
                g, f = (self.resolve(ir.type_of(a)) for a in arg_e)
                if isinstance(g, Fun) and isinstance(f, Fun) and len(g.args) == 1:
                    ret = Fun(f.args, g.ret)  # Function.comp : (β → γ) → (α → β) → α → γ
                    if expected is not None:
                        self.unify(ret, expected)
            if head.name == "intervalIntegral" and len(arg_e) == 3:
                f = self.resolve(ir.type_of(arg_e[0]))
                if isinstance(f, Fun) and len(f.args) == 1 and f.ret is not None:
                    ret = f.ret  # intervalIntegral : (ℝ → E) → ℝ → ℝ → Measure ℝ → E
                    if expected is not None:
                        self.unify(ret, expected)
            fty = Fun(tuple(ir.type_of(a) for a in arg_e), ret)
            own = self.free.get(head.name) if self.system == "isabelle" and not global_ else None
            if own is not None and not self.try_unify(own, fty):
                # a free variable has one type in a statement: `f a b f c` (f among its own arguments, as in
                # `(f a b) f c`) fails the occurs check of Isabelle's type inference
                raise IllTyped(f"{head.name} is applied at a type that is not its own")
            if global_:
                gname = head.name if head.name.startswith("op:") else "uf:" + head.name
                gname = "uf:" + head.name if head.name.startswith("op:") else gname
                f = self.global_const(gname, fty)
            else:
                f = self.undeclared(head.name, fty)
            ft = self.resolve(ir.type_of(f))
            ret = ft.ret if isinstance(ft, Fun) else self.fresh()
            return App("call", (f, *arg_e), ret)
        fty = self.resolve(hit[1])
        if isinstance(fty, TVar):
            arg_e = [self.elab(a, None) for a in args]
            new = Fun(tuple(ir.type_of(a) for a in arg_e), expected if expected is not None else self.fresh())
            if not self.unify(fty, new) and self.system == "isabelle":
                # a variable typed a number by an earlier proposition (`h = 3`, then `h 2 = 6`): no numeral type is a
                # function type (Num.thy: class numeral; Main instantiates none for ⇒), "Type unification failed";
                # or applied to itself (occurs check)
                raise IllTyped(f"{head.name} is applied, but its type is no function type")
            return App("call", (Var(head.name, new), *arg_e), new.ret)
        if isinstance(fty, Sort) and fty.coe is not None and len(args) == len(fty.coe.args):
            # `φ x` with `φ : G →* H` is `⇑φ x`: Lean applies φ through its coercion, one function of φ and x
            arg_e = [self.elab(a, p) for a, p in zip(args, fty.coe.args)]
            coe = Var("uf:coe", Fun((fty, *fty.coe.args), fty.coe.ret))
            return App("call", (coe, Var(head.name, fty), *arg_e), fty.coe.ret)
        if not isinstance(fty, Fun):
            if self.system == "isabelle" and _no_function(self.deep(fty)):
                # HOL's types are disjoint and application needs a function type (Pure's `$`): `h x` with
                # `fixes h :: real` (or a set, a pair, a bound number) fails type inference, "Type unification
                # failed: Clash of types "real" and "_ ⇒ _"". The proposition is ill-typed, never a reading.
                raise IllTyped(f"{head.name} :: {self.deep(fty)} is applied, but is no function")
            self.notes.append(f"{head.name} applied but not a function")
            return self.fallback(App("call", (head, *args)), expected)
        params = list(fty.args)
        if len(args) == 1 and len(params) > 1 and isinstance(args[0], App) and args[0].op == "pair":
            args = list(args[0].args)  # Isabelle `f(x, y)` written for `f x y`
        if len(args) != len(params):
            if len(args) < len(params):
                self.notes.append(f"partial application of {head.name}")
                return self.fallback(App("call", (head, *args)), expected)
            # curried result applied further: (f x) y with f : a -> (b -> c) written flat
            return self.fallback(App("call", (head, *args)), expected)
        arg_e = [self.elab(a, p) for a, p in zip(args, params)]
        return App("call", (Var(head.name, fty), *arg_e), fty.ret)

    def elab_builtin(self, b: builtins.Builtin, args: list[Term], expected: Ty | None, orig: Term) -> Term:
        rule, op = b.rule, b.op

        def need(n: int) -> bool:
            if len(args) != n:
                self.notes.append(f"{op} with {len(args)} arguments")
                return False
            return True

        def uf(name: str, arg_tys: tuple[Ty, ...], ret: Ty, values: list[Term]) -> Term:
            return App("call", (Var(name, Fun(arg_tys, ret)), *values), ret)

        arity = _ARITY.get(rule)
        if self.system == "isabelle" and arity is not None and len(args) > arity and rule in _NUMBER_RULES:
            # `gcd A B D` is `(gcd A B) D`: the number `log b x` (real), `n choose k` (nat) is no function
            raise IllTyped(f"{ir.show(orig)[:60]}: {op} of {arity} arguments is a number, applied further")
        if self.system == "isabelle" and rule == "same2" and len(args) > 2:
            ty = self.non_function(args[0])  # `min :: 'a ⇒ 'a ⇒ 'a`: its value has its arguments' type
            if ty is not None:
                raise IllTyped(f"{ir.show(orig)[:60]}: {op} of two {ty} is no function")
        if self.system == "isabelle" and rule in _BINARY_RULES and len(args) == 1:
            # Pure's application is curried: `log 8` (log :: real ⇒ real ⇒ real, Transcendental.thy) or `min e` is
            # a function, which no number and no truth value is (HOL's types are disjoint, no coercion from ⇒)
            if is_numeric(self.resolve(expected)) or self.resolve(expected) == BOOL:
                raise IllTyped(f"{ir.show(orig)[:60]} is a function, not a {self.resolve(expected)}")
            self.notes.append(f"{op} with 1 arguments")
            out = self.fallback(orig, expected)
            self.partial.append(out)
            return out
        if rule == "real1" and need(1):
            if self.system == "isabelle" and op in _ISABELLE_POLYMORPHIC:
                # `exp x` with x of no type written: Transcendental.thy's `exp :: 'a ⇒ 'a` (real_normed_algebra_1,
                # banach), `sin`, `cos`, `tan` alike, `ln :: 'a::ln ⇒ 'a`: real and complex are instances, and the
                # type stays a variable (`type_variable`: `exp x = 1 ⟹ x = 0` holds at real, not at complex)
                noted = len(self.notes)
                x = self.elab(args[0], expected if is_numeric(self.resolve(expected)) else None)
                t = self.resolve(ir.type_of(x))
                if isinstance(t, TVar) or t == REAL:  # (a real argument is read as at real: not read again, which
                    return uf(op, (t,), t, [x])  # made `sin (sin (… x))` exponential in its depth, 6 s at 16)
                if isinstance(x, App) and x.op in _SELF_TYPED and is_numeric(t):
                    # `sin ⌊y⌋`: floor reads its argument at a type of its own whatever is expected of it, so read at
                    # real it is this int cast (`elab`), and is not read again: `sin (floor (sin (floor …)))` read
                    # each floor's argument twice, 2^depth readings
                    return uf(op, (REAL,), REAL, [App("cast", (x,), REAL)])
                del self.notes[noted:]  # (read again below, at real, where its numbers are cast: `sin (n - 1)`)
            x = self.elab(args[0], REAL)
            if op == "sqrt":
                return App("sqrt", (x,), REAL)
            return uf(op, (REAL,), REAL, [x])
        if rule == "real2" and need(2):
            return uf(op, (REAL, REAL), REAL, [self.elab(args[0], REAL), self.elab(args[1], REAL)])
        if rule == "root" and need(2):
            return uf(op, (NAT, REAL), REAL, [self.elab(args[0], NAT), self.elab(args[1], REAL)])
        if rule == "inverse" and need(1):
            # Fields.thy: `inverse :: 'a ⇒ 'a` (class inverse, `inverse 0 = 0` in a field) is the `x⁻¹` of an
            # arithmetic tree, read there as `/` is (a tree of nat or int leaves is coerced to real)
            return self.arith_tree([App("inv", (args[0],))], expected)[0]
        if rule == "same1" and need(1):
            if op == "abs" and self.system == "lean" and self.resolve(ir.type_of(self.elab(args[0], None))) == COMPLEX:
                # ℂ has no lattice, so the root `abs` (|x|) does not apply: Lean resolves `abs z` to Complex.abs
                return self.elab_builtin(builtins.LEAN["Complex.abs"], args, expected, orig)
            if op.startswith("uf:"):
                x = self.elab(args[0], expected)
                t = self.resolve(ir.type_of(x))
                return uf(op, (t,), t, [x])
            x = self.arith_tree([args[0]], expected)[0]
            return App(op, (x,), ir.type_of(x))
        if rule == "same2" and need(2):
            a, c = self.arith_tree(list(args), expected)
            return App(op, (a, c), ir.type_of(a))
        if rule == "gcd_int" and need(2):
            a, c = self.arith_tree(list(args), INT)
            return App("tonat", (App(op, (a, c), INT),), NAT)
        if rule == "int2" and need(2):
            a, c = self.arith_tree(list(args), INT)
            return App(op, (a, c), INT)
        if rule == "nat1" and need(1):
            x = self.elab(args[0], NAT)
            if op.startswith("uf:"):
                return uf(op, (NAT,), NAT, [x])
            return App(op, (x,), NAT)
        if rule == "nat2" and need(2):
            xs = [self.elab(args[0], NAT), self.elab(args[1], NAT)]
            return uf(op, (NAT, NAT), NAT, xs) if op.startswith("uf:") else App(op, tuple(xs), NAT)
        if rule in ("pred1", "natpred1") and need(1):
            x = self.elab(args[0], NAT if rule == "natpred1" else None)
            t = self.resolve(ir.type_of(x))
            # (Lean's `Even : α → Prop` [Add α] fixes no type: an argument of an unknown function's, which Lean's
            # signature typed, is not read at a guessed ℕ; see `unknown`. Isabelle's are polymorphic, Factorial_Ring's
            # `prime` on normalization_semidom, Parity's `even` on semiring_parity: the type stays a variable)
            if self.system == "lean" and isinstance(t, TVar) and not (op != "prime" and self.is_unknown(t)):
                self.unify(t, NAT if op == "prime" else self.default_num)
            return App(op, (x,), BOOL)
        if rule in ("floor", "natfloor") and need(1):
            x = self.elab(args[0], None)
            t = self.resolve(ir.type_of(x))
            if isinstance(t, TVar) and self.system == "isabelle":
                # Archimedean_Field.thy: `floor :: 'a::floor_ceiling ⇒ int` (real, rat, ...), `ceiling`, `round` too
                return uf("uf:" + op, (t,), INT, [x])
            if isinstance(t, TVar):
                self.unify(t, REAL)
            elif t in (NAT, INT):
                x = App("cast", (x,), REAL)
            if rule == "natfloor":
                return App("tonat", (App("floor" if op == "natfloor" else "ceil", (x,), INT),), NAT)
            return App(op, (x,), INT)
        if rule in ("to_real", "to_int", "to_rat") and need(1):
            target = {"to_real": REAL, "to_int": INT, "to_rat": RAT}[rule]
            x = self.elab(args[0], None)
            t = self.resolve(ir.type_of(x))
            src = b.src or NAT
            if isinstance(t, TVar):
                self.unify(t, src)
            elif self.system == "isabelle" and is_numeric(t) and ir.numeric_join(t, src) != src:
                # Complex_Main's coercions only widen (nat → int → rat → real → complex): `real (k :: int)` is
                # rejected, as `real` takes a nat
                raise IllTyped(f"{ir.show(x)[:40]} :: {t} given to a cast that takes a {src}")
            return self.coerce(x, target) if self.resolve(ir.type_of(x)) != target else x
        if rule == "coe" and need(1):
            x = self.elab(args[0], None)
            t = self.resolve(ir.type_of(x))
            if isinstance(t, TVar):
                self.unify(t, b.src or INT)
            exp = self.resolve(expected)
            if is_numeric(exp):
                return self.coerce(x, exp)
            if self.system == "isabelle":
                # Nat.thy `of_nat :: nat ⇒ 'a::semiring_1`, Int.thy `of_int :: int ⇒ 'a::ring_1`: the result's type is
                # the context's, as the other operand's (`of_nat 3 dvd x` with x :: int is divisibility in int; read
                # at real it was `3 ≠ 0`, True). A type variable the tree or relation around it resolves; none left,
                # an uninterpreted sort (`type_variable`), as Isabelle leaves it polymorphic.
                out = exp if isinstance(exp, TVar) else self.fresh(numeral=True)
                return App("cast", (x,), out)
            return App("cast", (x,), REAL)
        if rule in ("tonat", "natabs") and need(1):
            x = self.elab(args[0], INT)
            return App(op, (x,), NAT)
        if rule == "pred" and need(1):
            return App("sub", (self.elab(args[0], NAT), Num(Fraction(1), NAT)), NAT)
        if rule == "succ" and need(1):
            x = self.elab(args[0], expected if expected is not None else NAT)
            t = self.resolve(ir.type_of(x))
            return App("add", (x, Num(Fraction(1), t)), t)
        if rule in ("const_real", "const_complex"):
            return Var(op, REAL if rule == "const_real" else COMPLEX)
        if rule in ("rat_int", "rat_nat") and need(1):
            return uf(op, (RAT,), INT if rule == "rat_int" else NAT, [self.elab(args[0], RAT)])
        if rule == "norm" and need(1):
            # Mathlib: `Real.norm_eq_abs` (‖r‖ = |r|), `Int.norm_eq_abs` and `Rat.norm_cast_real` (‖a‖ = |(a : ℝ)|),
            # `Complex.norm_eq_abs` (‖z‖ = Complex.abs z); a norm is a real. ℕ is no normed group (no `Norm ℕ`),
            # and a vector's or a function's norm is not modelled: opaque
            x = self.elab(args[0], None)
            t = self.resolve(ir.type_of(x))
            if t == COMPLEX:
                return uf("uf:cabs", (COMPLEX,), REAL, [x])
            if t in (REAL, RAT, INT):
                return App("abs", (self.coerce(x, REAL),), REAL)
            return self.fallback(orig, REAL)
        if rule == "complex_real" and need(1):
            return uf(op, (COMPLEX,), REAL, [self.elab(args[0], COMPLEX)])
        if rule == "complex1" and need(1):
            return uf(op, (COMPLEX,), COMPLEX, [self.elab(args[0], COMPLEX)])
        if rule in ("fst", "snd") and need(1):
            x = self.elab(args[0], None)
            t = self.resolve(ir.type_of(x))
            if isinstance(t, Tup):
                return App(rule, (x,), t.items[0] if rule == "fst" else t.items[1])
            if isinstance(t, TVar):
                a, c = self.fresh(), self.fresh()
                self.unify(t, Tup((a, c)))
                return App(rule, (x,), a if rule == "fst" else c)
            return self.fallback(orig, expected)
        if rule == "divisors" and need(1):
            # Mathlib NumberTheory/Divisors.lean: `def divisors : Finset ℕ := {d ∈ Ico 1 (n + 1) | d ∣ n}`,
            # `def properDivisors : Finset ℕ := {d ∈ Ico 1 n | d ∣ n}` (`normalize` lists them at a literal n)
            n = args[0]
            d = ir.fresh_name("d", ir.free_vars(n))
            hi = App("add", (n, Num(Fraction(1)))) if op == "divisors" else n
            dom = App("call", (Var("Finset.Ico"), Num(Fraction(1)), hi))
            return self.elab(Bind("setof", ((d, NAT),), App("dvd", (Var(d), n)), dom=dom), expected)
        if rule in ("digits", "listsum", "listprod") and need(len(args)):
            return mathlib.elab_digits(self, rule, args, expected, orig)
        if rule == "range" and need(1):
            head = orig.args[0] if isinstance(orig, App) and orig.op == "call" and orig.args else None
            a0 = args[0]
            hit = self.lookup(a0.name) if isinstance(a0, Var) else None
            function = hit is not None and isinstance(self.resolve(hit[1]), Fun)
            if function and isinstance(head, Var) and head.name == "range":
                # a bare `range f` of a function (`open Set Finset`): Lean's overload resolution keeps the reading
                # that elaborates, `Set.range f` (`Finset.range` takes a ℕ)
                return self.elab(App("call", (Var("Set.range"), a0)), expected)
            return App("range", (self.elab(args[0], NAT),), set_of(NAT))
        if rule == "interval" and need(2):
            lo, hi = self.arith_tree(list(args), None)
            self._index_type(ir.type_of(lo))
            return App(op, (lo, hi), set_of(self.deep(ir.type_of(lo))))
        if rule == "listfn" and op in ("uf:distinct", "uf:sorted", "uf:set"):
            # List.thy: distinct (x # xs) = (x ∉ set xs ∧ distinct xs); sorted (x # y # zs) = (x ≤ y ∧ sorted (y # zs))
            # (sorted2); set (x # xs) = insert x (set xs) (set_simps)
            items = self.literal_items(args[0]) if len(args) == 1 else None
            if not items:
                return self.unread_list_function(op[3:], args, expected, orig)
            if op == "uf:set":
                return self.elab(App("setenum", tuple(items)), expected)
            pairs = (
                [App("ne", (a, b)) for k, a in enumerate(items) for b in items[k + 1 :]]
                if op == "uf:distinct"
                else [App("le", (a, b)) for a, b in zip(items, items[1:])]
            )
            self.arith_tree_or_unify(items, None)  # (one element type, as the list has)
            return self.elab(ir.conj(pairs) if pairs else App("true", ()), expected)
        if rule == "listfn":
            items = self.literal_items(orig)
            if items is None:
                return self.unread_list_function(op[3:], args, expected, orig)
            if not items:
                ety = NAT if op == "uf:upt" else INT if op == "uf:upto" else list_elem(self.resolve(expected))
                return App("list", (), Sort(f"{ety} list")) if ety is not None else self.fallback(orig, expected)
            return self.elab(App("list", tuple(items)), expected)
        if rule == "listfold" and need(1):  # sum_list, prod_list (List.thy: foldr (+) xs 0, foldr (*) xs 1)
            add = "add" if op == "uf:sum_list" else "mul"
            literal = self.literal_items(args[0])
            if literal is None:
                over = self.range_fold("sum" if add == "add" else "prod", args[0])
                if over is not None:
                    return self.elab(over, expected)
            if literal is not None:
                items = literal or [Num(Fraction(0 if add == "add" else 1))]
                return self.elab(ir.left_fold(add, items), expected)
            xs = self.elab(args[0], None)
            el = list_elem(self.deep(ir.type_of(xs)))
            if el is None or (expected is not None and not self.unify(el, expected)):
                return self.fallback(orig, expected)
            return uf(op, (ir.type_of(xs),), el, [xs])
        if rule == "nth" and need(2):
            # List.thy `nth (x # xs) n = (case n of 0 ⇒ x | Suc k ⇒ xs ! k)`: of a literal list at a numeral index in
            # range, that item (at the type all items share); else (`[] ! n` is unspecified) a function of both
            literal = self.literal_items(args[0])
            i = args[1]
            if literal and isinstance(i, Num) and i.value.denominator == 1 and 0 <= i.value < len(literal):
                items = self.arith_tree_or_unify(literal, expected)
                return items[int(i.value)]
            xs = self.elab(args[0], None)
            el = list_elem(self.deep(ir.type_of(xs)))
            if el is None:
                return self.fallback(orig, expected)
            return uf(op, (ir.type_of(xs), NAT), el, [xs, self.elab(i, NAT)])
        if rule == "length" and need(1):
            literal = self.literal_items(args[0])
            if literal is not None:
                if literal:
                    self.arith_tree_or_unify(literal, None)  # (the items' variables keep their types)
                return Num(Fraction(len(literal)), NAT)
            xs = self.elab(args[0], None)
            if list_elem(self.deep(ir.type_of(xs))) is None:
                return self.fallback(orig, expected)
            return uf(op, (ir.type_of(xs),), NAT, [xs])
        if rule == "card" and need(1):
            s = self.elab(args[0], None)
            return App("card", (s,), NAT)
        if rule in ("sum", "prod") and self.system == "isabelle" and len(args) == 1:
            ty = self.non_function(args[0])
            if ty is not None:
                # Groups_Big.thy: `sum :: ('b ⇒ 'a) ⇒ 'b set ⇒ 'a` takes the function first; `sum S` with S a set
                # (HOL's `'b set` is a type of its own, no function) is ill-typed, not the sum of S's elements
                raise IllTyped(f"{op} {args[0].name}: {args[0].name} :: {ty} is no function")
        if rule in ("sum", "prod") and need(2):
            f, s = (args[0], args[1]) if self.system == "isabelle" else (args[1], args[0])
            if isinstance(f, Bind) and f.kind == "lambda" and len(f.vars) == 1:
                return self.elab(Bind(rule, f.vars, f.body, dom=s), expected)
            return self.elab(Bind(rule, (("_i", None),), App("call", (f, Var("_i"))), dom=s), expected)
        if rule == "filter" and need(2):
            p, s = args
            if isinstance(p, Bind) and p.kind == "lambda" and len(p.vars) == 1:
                return self.elab(Bind("setof", p.vars, p.body, dom=s), expected)
            return self.elab(Bind("setof", (("_i", None),), App("call", (p, Var("_i"))), dom=s), expected)
        if op in ("uf:Max", "uf:Min") and need(1) and _set_literal(args[0]):
            return self.elab_extremum(op == "uf:Max", args[0].args, expected, orig)
        if rule in ("setfn", "setpred") and need(1):
            s = self.elab(args[0], None)
            ret = BOOL if rule == "setpred" else (elem_of_set(self.deep(ir.type_of(s))) or self.fresh())
            return uf(op, (self.deep(ir.type_of(s)),), ret, [s])
        return self.fallback(orig, expected)

    def non_function(self, t: Term) -> Ty | None:
        """The type of t when t is a variable in scope whose type is no function type, else None."""
        hit = self.lookup(t.name) if isinstance(t, Var) else None
        ty = self.deep(hit[1]) if hit is not None else None
        return ty if _no_function(ty) else None

    def unread_list_function(self, name: str, args: list[Term], expected: Ty | None, orig: Term) -> Term:
        """List.thy's `name` applied where it makes no literal list: the unknown constant it was before it was read
        on literal lists (opaque where a theorem's own variable of that name hides it: `[e. x ← xs]` is List.map)."""
        if self.lookup(name) is not None:
            return self.fallback(orig, expected)
        return self.elab_uf_call(Var(name), args, expected, global_=False)

    def list_function(self, t: Term, *names: str) -> tuple[Term, ...] | None:
        """The arguments of `t` if it applies List.thy's constant of that name (not a variable so named)."""
        if not (isinstance(t, App) and t.op == "call" and isinstance(t.args[0], Var)):
            return None
        name = t.args[0].name
        if name not in names or ("." not in name and self.lookup(name) is not None):
            return None
        return t.args[1:]

    def literal_items(self, t: Term) -> list[Term] | None:
        """The items of a list term that is a literal list once unfolded, else None. List.thy: `upt i j` is
        `[i, ..., j - 1]` (nat; upt_rec), `upto i j` is `[i, ..., j]` (int; upto.simps), empty when the bounds are
        out of order; `map f [x, ...]` is `[f x, ...]`. Ranges of at most MAX_UNROLL items, literal bounds."""
        if isinstance(t, App) and t.op == "list":
            return list(t.args)
        for names, ety, _ in _RANGES:
            bounds = self.list_function(t, *names)
            if bounds is not None and len(bounds) == 2:
                lo, hi = (_ground_int(b, ety) for b in bounds)
                if lo is None or hi is None:
                    return None
                end = hi if ety == NAT else hi + 1
                if end - lo > MAX_UNROLL:
                    return None
                return [App("ascribe", (_int_num(k),), target=ety) for k in range(lo, end)]
        mapped = self.list_function(t, "map", "List.map")
        if mapped is not None and len(mapped) == 2:
            items = self.literal_items(mapped[1])
            return None if items is None else [_apply(mapped[0], x) for x in items]
        return None

    def range_fold(self, kind: str, t: Term) -> Term | None:
        """`sum_list (map f [i..<j])` as `∑x ∈ {i..<j}. f x` (nat), `sum_list (map f [i..j])` as `∑x ∈ {i..j}. f x`
        (int), prod_list likewise, and without the map: Groups_List.thy's sum_list_distinct_conv_sum_set and
        prod_list_distinct_conv_prod_set (`distinct xs ⟹ sum_list (map f xs) = sum f (set xs)`), as both ranges are
        distinct with `set [i..<j] = {i..<j}`, `set [i..j] = {i..j}` (List.thy: distinct_upt, set_upt, distinct_upto,
        set_upto). None for any other list."""
        f: Term | None = None
        mapped = self.list_function(t, "map", "List.map")
        if mapped is not None and len(mapped) == 2:
            f, t = mapped
        for names, ety, dom in _RANGES:
            bounds = self.list_function(t, *names)
            if bounds is not None and len(bounds) == 2:
                for b in bounds:
                    self.range_bound(b, ety, names[0])
                if isinstance(f, Bind) and f.kind == "lambda" and len(f.vars) == 1:
                    var, body = f.vars[0][0], f.body
                    if f.vars[0][1] not in (None, ety):
                        return None
                else:
                    var = ir.fresh_name("_i", ir.free_vars(t) | (ir.free_vars(f) if f is not None else set()))
                    body = Var(var) if f is None else App("call", (f, Var(var)))
                lo, hi = (App("ascribe", (b,), target=ety) for b in bounds)
                return Bind(kind, ((var, ety),), body, dom=App(dom, (lo, hi)))
        return None

    def range_bound(self, b: Term, ety: Ty, name: str) -> None:
        """Raise IllTyped where the bound b of a range cannot have type ety: List.thy's `upt :: nat ⇒ nat ⇒ nat list`
        and `upto :: int ⇒ int ⇒ int list`, and Isabelle coerces only upwards (nat to int, never int to nat): an
        arithmetic leaf of a wider type (`[0..<n]` with n :: int, `[1..x]` with x :: real) or a negation on nat."""
        if self.system != "isabelle":
            return
        wider = (INT, RAT, REAL, COMPLEX) if ety == NAT else (RAT, REAL, COMPLEX)
        if isinstance(b, App) and (b.op in ARITH or b.op == "pow"):
            if b.op == "neg" and ety == NAT:
                raise IllTyped(f"{name}: nat has no negation (-{ir.show(b.args[0])[:40]})")
            for a in b.args[:1] if b.op == "pow" else b.args:
                self.range_bound(a, ety, name)
            return
        ty: Ty | None = None
        if isinstance(b, Var) and (hit := self.lookup(b.name)) is not None:
            ty = self.deep(hit[1])
        elif isinstance(b, App) and b.op == "ascribe":
            ty = b.target
        elif isinstance(b, Num) and b.value.denominator != 1:
            ty = REAL
        if ty in wider:
            raise IllTyped(f"{name} of a {ty} bound {ir.show(b)[:40]}, no {ety}")

    def elab_extremum(self, greatest: bool, items: tuple[Term, ...], expected: Ty | None, orig: Term) -> Term:
        """`Max {a, b, c}` is `max a (max b c)`, `Min` likewise (Lattices_Big.thy: Max_singleton, and Max_insert for a
        finite nonempty set, which a set literal `insert a (insert b {c})` is); Max and Min need a linear order, so on
        another type (complex, pairs) the term stays opaque."""
        op = "max" if greatest else "min"
        tree = items[-1]
        for x in reversed(items[:-1]):
            tree = App(op, (x, tree))
        out = self.elab(tree, expected)
        ty = self.resolve(ir.type_of(out))
        if ty in (NAT, INT, RAT, REAL) or isinstance(ty, TVar):
            return out
        return self.fallback(orig, expected)

    # ------------------------------------------------------------------ fallbacks
    def fallback(self, t: Term, expected: Ty | None) -> Term:
        """An unmodelled construct: opaque over the variables in scope that occur in it."""
        self.notes.append("opaque: " + ir.show(t)[:120])
        if self.system == "lean":
            t = self.dotted_fields(t, frozenset())
        # in order of occurrence, not of name: renaming f to var2 must not reorder `(f n)`'s arguments
        free = {v for v in ir.free_vars(t) if self.lookup(v) is not None}
        fv = list(dict.fromkeys(x.name for x in ir.walk(t) if isinstance(x, Var) and x.name in free))
        args = tuple(Var(v, self.lookup(v)[1]) for v in fv)
        if self.system == "lean":  # Lean types them by the construct we do not read: never a guessed ℕ
            for a in args:
                self.unknown(a.ty, "opaque-arg")
        text = ir.show(ir.canonical_binds(ir.rename_free(t, {k: f"\x00{i}\x00" for i, k in enumerate(fv)})))
        types = ir.bound_types(t, {k: f"\x00{i}\x00" for i, k in enumerate(fv)})
        if types:  # `show` writes no binder types: `∀ k : Fin 0, P` (vacuous) and `∀ k : Fin 2, P` were one text
            text += f" ·bound[{types}]"
        text = text.replace("{", "{{").replace("}", "}}")
        for i in range(len(fv)):
            text = text.replace(f"\x00{i}\x00", "{" + str(i) + "}")
        return Opaque(text, args, expected if expected is not None else self.unknown(self.fresh(), "opq:" + text))

    def dotted_fields(self, t: Term, bound: frozenset[str]) -> Term:
        """`l.get` on a variable l in scope as the field applied to l, so that an opaque text is over l (renaming l,
        or the bound `∀ l` around it, renames it there too; as text, `l.get` and `m.get` were two constants)."""
        if isinstance(t, Var) and "." in t.name:
            head, _, field = t.name.partition(".")
            if head not in bound and self.lookup(head) is not None and self.lookup(t.name) is None:
                return App("call", (Var("·." + field), Var(head)))
            return t
        if isinstance(t, Bind):
            inner = bound | {n for n, _ in t.vars}
            dom = self.dotted_fields(t.dom, bound) if t.dom is not None else None
            return replace(t, body=self.dotted_fields(t.body, inner), dom=dom)
        return ir.map_children(t, lambda x: self.dotted_fields(x, bound))

    # ------------------------------------------------------------------ finishing
    def zonk(self, t: Term) -> Term:
        def ty(x: Ty | None) -> Ty | None:
            x = self.deep(x)
            return self._default(x)

        def go(x: Term) -> Term:
            if isinstance(x, Var):
                return replace(x, ty=ty(x.ty))
            if isinstance(x, Num):
                return replace(x, ty=ty(x.ty))
            if isinstance(x, App):
                args = tuple(go(a) for a in x.args)
                out = replace(x, args=args, ty=ty(x.ty))
                if out.op == "cast" and ir.type_of(args[0]) == out.ty:
                    return args[0]
                if out.op == "pow?":  # (settled with its proposition; any left is at the default exponent ℕ)
                    return replace(out, op="pow")
                if out.op in ("numset:Ints", "numset:Nats"):
                    return _numset_member(out.op[len("numset:") :], args[0], ir.type_of(args[0]))
                if out.op == "midpoint":
                    return _midpoint(*out.args, out.ty)
                if out.op == "scaleR":
                    return _scale(*out.args, out.ty)
                if out.op in ("iic", "iio") and out.ty == SetTy(NAT):  # on ℕ, {..u} is {0..u}
                    return App("icc" if out.op == "iic" else "ico", (Num(Fraction(0), NAT), args[0]), out.ty)
                return out
            if isinstance(x, Bind):
                return replace(
                    x,
                    vars=tuple((n, ty(v)) for n, v in x.vars),
                    body=go(x.body),
                    dom=go(x.dom) if x.dom is not None else None,
                    ty=ty(x.ty),
                )
            if isinstance(x, Opaque):
                return replace(x, args=tuple(go(a) for a in x.args), ty=ty(x.ty))
            return x

        return go(t)

    def type_variable(self, t: TVar) -> Sort:
        """Isabelle: a type no binder, signature or literal fixed (`theorem "x - 1 + 1 = x"`, `shows "3 * (6 * 8) = 5"`)
        is a type variable, with the sort its operations need ('a::{minus,one,plus}); Isabelle has no numeric default,
        and a theorem holds for every type of its sort (free type variables are generalized when it is stored), so the
        statement above says nothing about int or real: it fails for nat at x = 0, and the sorts of `+` and `-` alone
        (`plus`, `minus`) carry no axioms. It is read as an uninterpreted sort whose operations are uninterpreted
        functions (`smt.Translator.uf`), which ignores the axioms of the sort the operations need (`numeral`'s
        semigroup_add, `2 + 3 = 5`): every equivalence proved over all interpretations holds for every instance.
        (It was read as real: `x - 1 + 1 = x` merged with True, and with the same text at `x :: int`.) The sorts are
        named by order of first use, `'?1`, `'?2`, ..., which no written type variable (`'a`) can be."""
        if t.id not in self.type_variables:
            self.type_variables[t.id] = Sort(f"'?{len(self.type_variables) + 1}")
        return self.type_variables[t.id]

    def _default(self, t: Ty | None) -> Ty | None:
        if isinstance(t, TVar):
            # Lean: an argument of a function we do not know first, `image f (Icc (3 / 2) 2)` is typed by f, not by
            # the default of the interval's numerals (read as ℕ, 3 / 2 was 1). Isabelle has no default: a type
            # variable (`type_variable`), an interval's index too (`∑ k = 1..10. k` is no sum of naturals there).
            names = sorted(self.unknown_names(t))
            if names:
                return Sort("?" + names[0])
            if self.system == "isabelle":
                return self.type_variable(t)
            if any(self.resolve(v) == t for v in self.index_vars):
                return NAT
            return self.default_num
        if isinstance(t, Fun):
            return Fun(tuple(self._default(a) for a in t.args), self._default(t.ret))
        if isinstance(t, Tup):
            return Tup(tuple(self._default(a) for a in t.items))
        if isinstance(t, SetTy):
            return SetTy(self._default(t.elem))
        return t


def _by_component(
    x: Term,
    y: Term,
    t: Ty | None,
    real: Callable[[Term, Term], Term],
    join: Callable[[tuple, Ty], Term],
    numbers: tuple[Ty, ...] = (REAL,),
) -> Term | None:
    """real(x, y) for x, y of a type in `numbers` (cast to ℝ); for pairs (of pairs ...) of those, join((parts for fst,
    snd), t); None on other types."""
    if t in numbers:
        return real(*(a if t == REAL else App("cast", (a,), REAL) for a in (x, y)))
    if isinstance(t, Tup) and len(t.items) == 2:
        parts = [
            _by_component(App(p, (x,), u), App(p, (y,), u), u, real, join, numbers)
            for p, u in zip(("fst", "snd"), t.items)
        ]
        if None not in parts:
            return join(tuple(parts), t)
    return None


def _midpoint(a: Term, b: Term, ty: Ty | None) -> Term:
    """`midpoint a b = (1/2) *⇩R (a + b)` (HOL-Analysis, Line_Segment.thy, midpoint_def) on ℝ and on products of ℝ,
    where `+` and `*⇩R` act on each component (Product_Plus.thy, plus_prod_def; Product_Vector.thy, scaleR_prod_def);
    on other types an uninterpreted function."""

    def half_sum(x: Term, y: Term) -> Term:
        return App("div", (App("add", (x, y), REAL), Num(Fraction(2), REAL)), REAL)

    out = _by_component(a, b, ty, half_sum, lambda parts, t: App("pair", parts, t))
    return out if out is not None else App("call", (Var("uf:midpoint", Fun((ty, ty), ty)), a, b), ty)  # type: ignore[arg-type]


def _scale(r: Term, v: Term, ty: Ty | None) -> Term:
    """`r *⇩R v` on ℝ is r * v (Real_Vector_Spaces.thy, real_scaleR_def), on products of ℝ (and `real^n`, read as one)
    it scales each component (Product_Vector.thy, scaleR_prod_def; Finite_Cartesian_Product.thy, scaleR_vec_def);
    on other types an uninterpreted function."""
    if ty == REAL:
        return App("mul", (r, v), REAL)
    if isinstance(ty, Tup) and len(ty.items) == 2:
        return App("pair", tuple(_scale(r, App(p, (v,), u), u) for p, u in zip(("fst", "snd"), ty.items)), ty)
    return App("call", (Var("uf:scaleR", Fun((REAL, ty), ty)), r, v), ty)  # type: ignore[arg-type]


def list_elem(t: Ty | None) -> Ty | None:
    """T for the Isabelle list type `T list` (a Sort named so by the front-end), T a base type."""
    if isinstance(t, Sort) and t.name.endswith(" list") and " " not in t.name[: -len(" list")]:
        el = t.name[: -len(" list")]
        return ir.Base(el) if el in ("nat", "int", "rat", "real", "complex", "bool") else None
    return None


# Generalized field notation puts the receiver at the first explicit argument of its type, which is not always the
# first: `Finset.filter (p : α → Prop) [DecidablePred p] (s : Finset α)`, `Finset.image (f : α → β) (s : Finset α)`,
# `Set.image f s`, `Set.preimage f s`, `List.map f l`, `List.count a l`, `Polynomial.eval (x : R) (p : R[X])`,
# `Polynomial.eval₂ f x p` (Mathlib, Lean core), so `s.filter p` is `Finset.filter p s` and `p.eval x` is
# `Polynomial.eval x p`
RECEIVER_POSITION = {
    f"{ns}.{name}": 1
    for ns, names in (
        ("Finset", ("filter", "image", "map")),
        ("Set", ("image", "preimage")),
        ("List", ("map", "filter", "count")),
        ("Multiset", ("map", "filter", "count")),
        ("Polynomial", ("eval", "aeval")),
    )
    for name in names
} | {"Polynomial.eval₂": 2}
# fields of Mathlib's `Set` namespace with no `Finset` namesake (Data/Set/Card.lean `Set.ncard`, `Set.encard`;
# Data/Set/Finite `Set.Finite`, `Set.Infinite`, `Set.toFinset`): `{x | P x}.ncard` is `Set.ncard {x | P x}`
_SET_ONLY_FIELDS = {"ncard", "encard", "Finite", "Infinite", "toFinset"}
_SERIES = {"suminf", "prodinf", "summable", "sums"}
MAX_UNROLL = 256  # the longest literal range (`[1..<200]`) unfolded into its items
# List.thy's ranges: the names of the constant, its element type, and the interval of its items' set
# (`set [i..<j] = {i..<j}`, set_upt; `set [i..j] = {i..j}`, set_upto)
_RANGES = ((("upt", "List.upt"), NAT, "ico"), (("upto", "List.upto"), INT, "icc"))


def _no_function(ty: Ty | None) -> bool:
    """HOL's types are disjoint and application needs a function type: a base type, a set or a tuple is none."""
    return isinstance(ty, (ir.Base, SetTy, Tup))


def _numset_member(name: str, xe: Term, t: Ty | None) -> Term:
    """`x ∈ ℤ` / `x ∈ ℕ` for x of number type t. Int.thy: ℤ = range of_int and ℕ = range of_nat, so on int ℤ is
    everything and ℕ the x ≥ 0 (of_int and of_nat are the identity and the inclusion there), elsewhere x is an
    integer: of_int ⌊x⌋ = x (floor_of_int, Ints_of_int)."""
    if t in (NAT, INT):
        isint: Term = App("true", (), BOOL)
    else:
        isint = App("eq", (App("cast", (App("floor", (xe,), INT),), t), xe), BOOL)
    if name == "Nats":
        return App("and", (isint, App("le", (Num(Fraction(0), t), xe), BOOL)), BOOL)
    return isint


def _function_for_value(got: Ty | None, exp: Ty | None) -> bool:
    """One of two types that failed to unify is a function type and the other a number type or bool: no coercion
    relates them (a function type and a base type never unify in HOL)."""
    return any(isinstance(a, Fun) and (is_numeric(b) or b == BOOL) for a, b in ((got, exp), (exp, got)))


# the prime factors of a number as a set, by the lemma that says what is in it
_PRIME_FACTORS = {"isabelle": ("prime_factors",), "lean": ("Nat.primeFactors", "primeFactors")}  # (`open Nat`)


def _prime_factors(system: str, x: Term) -> Term:
    """Isabelle's `prime_factors x` (HOL-Computational_Algebra, Factorial_Ring.thy: `in_prime_factors_iff: p ∈
    prime_factors x ⟷ x ≠ 0 ∧ p dvd x ∧ prime p`), at x's type; Mathlib's `Nat.primeFactors n` (`Nat.mem_primeFactors:
    p ∈ n.primeFactors ↔ p.Prime ∧ p ∣ n ∧ n ≠ 0`), a Finset of the naturals 1..n (a divisor of n ≠ 0 is at most n)."""
    p = ir.fresh_name("p", ir.free_vars(x))
    prime = App("call", (Var("prime" if system == "isabelle" else "Nat.Prime"), Var(p)))
    nonzero = App("not", (App("eq", (x, Num(Fraction(0)))),))
    body = App("and", (nonzero, App("and", (App("dvd", (Var(p), x)), prime))))
    if system == "isabelle":
        return Bind("setof", ((p, None),), body)
    dom = App("call", (Var("Finset.Ico"), Num(Fraction(1)), App("add", (x, Num(Fraction(1))))))
    return Bind("setof", ((p, NAT),), body, dom=dom)


def _ground_int(t: Term, ty: Ty) -> int | None:
    """The value of a numeral expression of type ty (nat or int: `-30`, `2 * 5 + 1`), else None. On nat, `a - b` is
    truncated at 0 (Nat.thy: diff) and `-a` is no term."""
    if isinstance(t, Num):
        return int(t.value) if t.value.denominator == 1 else None
    if isinstance(t, App) and t.op == "ascribe":
        return _ground_int(t.args[0], ty) if t.target == ty else None
    if isinstance(t, App) and t.op == "neg" and ty == INT:
        v = _ground_int(t.args[0], ty)
        return None if v is None else -v
    if isinstance(t, App) and t.op in ("add", "sub", "mul") and len(t.args) == 2:
        a, b = (_ground_int(x, ty) for x in t.args)
        if a is None or b is None:
            return None
        if t.op == "sub":
            return a - b if ty == INT else max(a - b, 0)
        return a + b if t.op == "add" else a * b
    return None


def _int_num(k: int) -> Term:
    return Num(Fraction(k)) if k >= 0 else App("neg", (Num(Fraction(-k)),))


def _apply(f: Term, x: Term) -> Term:
    """`f x`, beta-reduced when f is a one-variable λ."""
    if isinstance(f, Bind) and f.kind == "lambda" and len(f.vars) == 1:
        ty = f.vars[0][1]
        body = ir.beta(f, (x if ty is None else App("ascribe", (x,), target=ty),))
        if body is not None:  # (None: a type in the body mentions the parameter, see `ir.beta`)
            return body
    return App("call", (f, x))


def _bool_rel(op: str, a: Term, b: Term) -> Term:
    """A relation between truth values (op one of eq, ne, lt, le: gt and ge come swapped). HOL orders bool with
    False < True (Orderings.thy, instantiation bool: le_bool_def `P ≤ Q ⟷ P ⟶ Q`, less_bool_def `P < Q ⟷ ¬P ∧ Q`);
    for ne the caller negates the iff."""
    if op == "lt":
        return App("and", (App("not", (a,), BOOL), b), BOOL)
    if op == "le":
        return App("implies", (a, b), BOOL)
    return App("iff", (a, b), BOOL)


def _set_call(t: Term, lookup, names: tuple[str, ...], *arity: int) -> bool:
    """t applies one of the library set functions `names` (not a variable of that name) to `arity` arguments."""
    return (
        isinstance(t, App)
        and t.op == "call"
        and isinstance(t.args[0], Var)
        and t.args[0].name in names
        and len(t.args) - 1 in arity
        and lookup(t.args[0].name) is None
    )


def _image_kind(s: Term, lookup, system: str) -> str | None:
    """ "image", "range" or "preimage" where s applies the system's library function of that kind (IMAGE_KIND) to
    its arguments, else None."""
    name = s.args[0].name if isinstance(s, App) and s.op == "call" and isinstance(s.args[0], Var) else None
    kind = IMAGE_KIND[system].get(name) if name is not None else None
    return kind if kind is not None and _set_call(s, lookup, (name,), IMAGE_ARITY[kind]) else None


def _set_form(t: Term, lookup) -> bool:
    """A set written so that membership in it has a meaning here (Isabelle): `{x. P x}`, intervals, rays, `{a, b}`,
    an image or range (`range f`, `f ` A`: IMAGE_KIND), and unions and intersections of those."""
    if isinstance(t, Bind):
        return t.kind == "setof"
    if isinstance(t, App) and t.op in SET_OPS:
        return True
    if _set_call(t, lookup, ("op:union", "op:inter"), 2):
        return all(_set_form(a, lookup) for a in t.args[1:])  # type: ignore[union-attr]
    return _image_kind(t, lookup, "isabelle") is not None


def _arithmetic(t: Term) -> bool:
    """A numeral or an arithmetic operation (+, -, *, /, div, mod, ^, powr): a number, never a truth value."""
    return isinstance(t, Num) or isinstance(t, App) and (t.op in ARITH or t.op in ("pow", "powr"))


def _set_literal(t: Term) -> bool:
    """`{a, b, c}`: a finite nonempty set."""
    return isinstance(t, App) and t.op == "setenum" and len(t.args) > 0


def _listed(t: Bind) -> list[Term] | None:
    """[a, b] for the body `x = a ∨ b = x` of `{x. ...}` (x named by neither a nor b), else None."""
    x, items = t.vars[0][0], []
    for d in _disjuncts(t.body):
        if not (isinstance(d, App) and d.op == "eq"):
            return None
        side = next((b for a, b in (d.args, d.args[::-1]) if a == Var(x) and x not in ir.free_vars(b)), None)
        if side is None:
            return None
        items.append(side)
    return items


def _disjuncts(t: Term) -> list[Term]:
    if isinstance(t, App) and t.op == "or":
        return [d for a in t.args for d in _disjuncts(a)]
    return [t]


def _member_of_literal(t: Bind) -> bool:
    """The body of `LEAST x. x ∈ {a, b}`: x in a set literal that does not name x."""
    body, x = t.body, t.vars[0][0]
    return (
        isinstance(body, App)
        and body.op == "in"
        and body.args[0] == Var(x)
        and _set_literal(body.args[1])
        and x not in ir.free_vars(body.args[1])
    )


def _is_empty_set(t: Term) -> bool:
    return (isinstance(t, App) and t.op == "setenum" and not t.args) or (isinstance(t, Var) and t.name == "∅")


def _nat(t: Term) -> Term:
    return App("ascribe", (t,), target=NAT)


def _modeq(ty: Ty):
    def build(n: Term, a: Term, b: Term) -> Term:
        return App("eq", (App("mod", (App("ascribe", (a,), target=ty), n)), App("mod", (b, n))))

    return build


# Functions that are what a notation means, applied as functions: `Int.ModEq n a b` is `a ≡ b [ZMOD n]`.
_NOTATION_FUNCTIONS = {
    "Int.ModEq": (_modeq(INT), 3),
    "Nat.ModEq": (_modeq(NAT), 3),
    "Dvd.dvd": (lambda a, b: App("dvd", (a, b)), 2),
    # `def Nat.Coprime (m n : ℕ) : Prop := Nat.gcd m n = 1`
    "Nat.Coprime": (lambda a, b: App("eq", (App("gcd", (_nat(a), _nat(b))), Num(Fraction(1)))), 2),
}

_BINARY_RULES = {"real2", "root", "same2", "nat2", "int2", "gcd_int"}  # builtins of two arguments
# Isabelle's polymorphic `real1` builtins (Transcendental.thy; `sqrt`, `arctan`, `arcsin`, `arccos` are real's alone)
_ISABELLE_POLYMORPHIC = {"uf:exp", "uf:sin", "uf:cos", "uf:tan", "uf:ln"}
# what the floor, nat1, nat2 and gcd rules build: their arguments are read at a type that does not depend on the
# type expected of the result (`elab_builtin`), so the result read at another number type is only cast
_SELF_TYPED = {"floor", "ceil", "tonat", "fact", "choose"}
_ARITY = {"real1": 1, "nat1": 1, **dict.fromkeys(_BINARY_RULES, 2)}
_NUMBER_RULES = {"real1", "real2", "root", "nat1", "nat2", "int2"}  # their value is a number of a fixed type

_DIRECT_RULES = {
    "abs": "same1",
    "floor": "floor",
    "ceil": "floor",
    "fact": "nat1",
    "choose": "nat2",
    "sqrt": "real1",
    "min": "same2",
    "max": "same2",
    "gcd": "same2",
    "lcm": "same2",
}


def _natural_exponent(e: Term) -> tuple[Term, bool] | None:
    """An integer exponent as (a natural number n, negated): `2` (a literal), `-2`, `(n : ℤ)` and `-(n : ℤ)` with
    n : ℕ; None for any other integer (a variable, a difference), whose sign is not known."""
    negated = False
    if isinstance(e, App) and e.op == "neg" and len(e.args) == 1:
        e, negated = e.args[0], True
    if isinstance(e, Num) and e.value.denominator == 1:
        k = int(e.value)
        if k < 0:
            k, negated = -k, not negated
        return Num(Fraction(k), NAT), negated
    if isinstance(e, App) and e.op == "cast" and ir.type_of(e.args[0]) == NAT:
        return e.args[0], negated
    return None


def _elab_prop(el: Elaborator, p: Term) -> Term | None:
    """p elaborated, or None (noted as an unparsed proposition, as the front-end notes a text that does not parse)
    when it is ill-typed: `_ill_typed` reads it once every proposition has been."""
    before = len(el.notes)
    try:
        out = el.elab_prop(p)
        if el.system == "lean":
            if el.unsettled_powers:  # (no walk of the proposition when none was postponed)
                out, el.unsettled_powers = el.settle_powers(out), False
            _real_powers_typed(el, out)
        else:
            _modulo_typed(el, out)
        return out
    except IllTyped as err:
        del el.notes[before:]  # (what the abandoned reading noted, `opaque: (log 8)`, is no part of the statement)
        el.notes.append(f"unparsed proposition {ir.show(p)!r}: {err}")
        return None


def _real_powers_typed(el: Elaborator, t: Term) -> None:
    """Raise IllTyped where a real power `a ^ (b : ℝ)` has a base of type ℕ, ℤ or ℚ once its proposition is read
    (see `elab_pow`): Lean elaborates each hypothesis on its own and gives numerals no other type fixes the default
    type ℕ, so `4 ^ b = 16` (b : ℝ) is `HPow ℕ ℝ ?`, which Mathlib lacks."""
    for x in ir.walk(t):
        if isinstance(x, App) and x.op == "rpow":
            ty = el.resolve(ir.type_of(x))
            if ty in (NAT, INT, RAT) or (isinstance(ty, TVar) and ty.id in el.numeral_ids):
                raise IllTyped(f"{ir.show(x)[:40]}: a real power of a {ty}")


def _modulo_typed(el: Elaborator, t: Term) -> None:
    """Raise IllTyped where Isabelle's `mod` (`class modulo`, Rings.thy; Complex_Main instantiates it at nat and int,
    not at a field) takes an operand whose type the statement fixed as real, rat or complex: `x mod 2 = 1` with
    `fixes x :: real` does not type-check (the 26 Isa-AutoFormal candidates on miniF2F valid that SymEq read with a
    real `mod` all failed Isabelle's check). Only a fixed variable decides it: numerals, `powr` (`'a::ln`) and
    variables whose type inference chooses leave a type variable with the sort `modulo` where this reading has real
    (`(29 powr 13 - 5 powr 13) mod 7 = 3` type-checks), or make an inferred variable an int that a coercion lifts;
    a `powr` of a fixed variable is real (`fixed_field_leaf`).
    (`div` at a field is `/`: Rings.thy's `divide`, which a field writes `/`.)"""

    def fixed_field_leaf(x: Term, bound: frozenset[str]) -> bool:
        if isinstance(x, App) and (x.op in ARITH or x.op == "pow"):
            return any(fixed_field_leaf(a, bound) for a in (x.args[:1] if x.op == "pow" else x.args))
        if isinstance(x, App) and x.op == "powr":
            # `powr :: 'a::ln ⇒ 'a ⇒ 'a` (Transcendental.thy; ln: real and complex): with a fixed variable inside,
            # its type is no variable but real, where Isabelle coerces a nat or int one (`a powr 2 mod 4`, a :: int;
            # the 17 Isa-AutoFormal miniF2F candidates with such a `mod` that have a verdict were all rejected)
            return any(isinstance(v, Var) and v.name in el.fixed and v.name not in bound for v in ir.walk(x))
        return (
            isinstance(x, Var)
            and x.name in el.fixed
            and x.name not in bound
            and el.resolve(el.free[x.name]) in (REAL, RAT, COMPLEX)
        )

    stack: list[tuple[Term, frozenset[str]]] = [(t, frozenset())]
    while stack:
        x, bound = stack.pop()
        if isinstance(x, App) and x.op == "mod" and any(fixed_field_leaf(a, bound) for a in x.args):
            ty = el.resolve(ir.type_of(x))
            raise IllTyped(f"{ir.show(x)[:40]}: mod of a {ty} the statement fixes, which has none")
        if isinstance(x, App) and x.op == "mod" and el.resolve(ir.type_of(x)) in (REAL, RAT, COMPLEX):
            names = {v.name for v in ir.walk(x) if isinstance(v, Var)}
            if names and not names & bound and el.fixed_only(x):
                # a field's value from names the statement fixed, none inferred: `(1 / a + 1 / b) mod 31` with
                # `a b :: int` (`/` is a field's, Fields.thy's class inverse, so a and b are coerced to real)
                raise IllTyped(f"{ir.show(x)[:40]}: mod of a {el.resolve(ir.type_of(x))}, which has none")
        inner = bound | {n for n, _ in x.vars} if isinstance(x, Bind) else bound
        stack.extend((c, inner) for c in x.children())


def _ill_typed(el: Elaborator, p: Term) -> Term:
    """An ill-typed proposition p as one opaque proposition over the variables it names, as a text the front-end
    cannot read is: with none, its premises about them would be projected away and every statement with the same
    ill-typed conclusion would merge. Read after every other proposition, so that it is over the free variables it
    names first as well (`h g = 1` with h :: real, then `g > 0`: the abandoned reading never reached g)."""
    noted = len(el.notes)
    out = el.fallback(p, BOOL)
    del el.notes[noted:]
    return out


def elaborate(raw: RawStatement) -> Statement:
    """Types, coercions and desugaring for a parsed statement (no simplification yet)."""
    el = Elaborator(raw.system)
    for name, ty in raw.variables:
        el.declare_free(name, ty)
        if ty is not None:
            el.fixed.add(name)
    props = [*raw.premises, *raw.conclusions]
    read = [_elab_prop(el, p) for p in props]
    read = [_ill_typed(el, p) if r is None else r for p, r in zip(props, read)]
    premises, conclusions = read[: len(raw.premises)], read[len(raw.premises) :]
    premises = [el.zonk(p) for p in premises]
    conclusion = el.zonk(ir.conj(conclusions) if len(conclusions) != 1 else conclusions[0])
    variables = {n: el._default(el.deep(el.free[n])) for n in el.declared}
    declared = frozenset(n for n, _ in raw.variables)
    return Statement(
        raw.system, variables, premises, conclusion, list(raw.opaque) + el.notes, raw.source, declared, raw.context
    )
