"""Simplification and the standard form of a statement, before any solver is asked.

`simplify` folds constants with each system's semantics (truncated ℕ subtraction, `x / 0 = 0`, Lean's
Euclidean and Isabelle's floor integer division), projects pairs, beta-reduces, and unrolls sums, products
and cardinalities over intervals with literal bounds.

`standardize` puts a statement into the form the equivalence check compares:
  1. leading `∀`/`→` of the conclusion become variables/premises (`⊢ ∀ x, P x → Q x` is `(x) (h : P x) ⊢ Q x`);
  2. conjunctive premises are split;
  3. definitions are inlined: a premise `v = e` (v a variable not in e), `∀ x y. f x y = e` (a total
     function definition) or `b ↔ e` is substituted away, and a function given by cases (`∀ x. x < 3 ⟶ f x = e`)
     becomes an if-then-else, until none is left;
  4. a numeric conclusion is oriented as `f(x) = α` (the answer on the right);
  5. variables that no longer occur are dropped.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

from atf.symeq import facts, ir
from atf.symeq.elaborate import BOUNDS, IMAGE_ARITY, IMAGE_KIND, RAYS, elem_of_set
from atf.symeq.ir import (
    BOOL,
    INT,
    NAT,
    RAT,
    REAL,
    App,
    Bind,
    Num,
    Opaque,
    Statement,
    Term,
    Tup,
    Ty,
    Var,
)
from atf.symeq.mathlib import digit_sum, divisors_of, nat_clog, nat_literal, nat_log, totient

MAX_UNROLL = 200
MAX_LITERAL_SUM = 5000  # terms of a sum over a literal range added up when every term is a number
# Work that reading one statement (`standardize`) may spend unrolling or adding up sums and products over literal
# ranges, in nodes simplified (each term costs the size of its summand and condition; about 10 µs a node on this
# project's machine). Nested sums multiply: `∑ j ∈ {0..n-1}. ∑ k ∈ {0..j}. binomial j k` at n = 2015 is two million
# terms (18 s), each sum within MAX_LITERAL_SUM. A sum that would pass the budget stays as written (symbolic), so the
# reading depends on the statement alone. The budget keeps a reading well inside the pool's 2.5 s step budget, about
# 0.6 s on a quiet machine: a MATH candidate whose double sum (33 x 99 and 99 x 98 pairs) needs 141,273 read in 1.8 s
# and was killed or not by the load (2 of 4 runs beside other work); it now keeps its outer sums symbolic in every
# run. The next largest use among the benchmarks' 15,129 statements is 20,030.
MAX_LITERAL_WORK = 60_000
FACTOR_WORK = 300  # what factoring one literal costs of it (`mathlib.factorize`, at most about 3 ms)
MAX_POW = 64
MAX_DIGITS = 400
MAX_RECURSION = 1000  # values of a recursively defined sequence computed, at most
MAX_RECURSION_SIZE = 200  # nodes in one such value, at most (a value that grows is not computed)


# ----------------------------------------------------------------------------------------------- arithmetic


def floor_div(a: int, b: int) -> int:
    return 0 if b == 0 else a // b


def euclid_div(a: int, b: int) -> int:
    if b == 0:
        return 0
    r = a % abs(b)
    return (a - r) // b


def trunc_div(a: int, b: int) -> int:
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def int_div(op: str, a: int, b: int, ty: Ty, system: str) -> int:
    """Integer quotient as `op` means it for `ty` in `system` (b == 0 gives 0 everywhere)."""
    if op in ("div", "idiv"):
        if ty == NAT:
            return floor_div(a, b)
        return euclid_div(a, b) if (system == "lean" and op == "div") else floor_div(a, b)
    return {"ediv": euclid_div, "fdiv": floor_div, "tdiv": trunc_div}[op](a, b)


def int_mod(op: str, a: int, b: int, ty: Ty, system: str) -> int:
    """Remainder as `op` means it (x mod 0 = x everywhere)."""
    if b == 0:
        return a
    if op == "mod":
        if ty == NAT:
            return a % b
        op = "emod" if system == "lean" else "fmod"
    if op == "emod":
        return a % abs(b)
    if op == "fmod":
        return a % b  # Python's % takes the divisor's sign: floor convention
    if op == "tmod":
        return a - b * trunc_div(a, b)
    raise ValueError(op)


def _num(v: Fraction | int, ty: Ty | None) -> Num:
    return Num(Fraction(v), ty)


def _is_int(v: Fraction) -> bool:
    return v.denominator == 1


def _small(v: Fraction) -> bool:
    return len(str(v.numerator)) < MAX_DIGITS and len(str(v.denominator)) < MAX_DIGITS


def _is_prime(n: int) -> bool:
    if n < 2:
        return False
    if n < 4:
        return True
    if n % 2 == 0:
        return False
    r = math.isqrt(n)
    f = 3
    while f <= r:
        if n % f == 0:
            return False
        f += 2
    return True


def _rational_sqrt(v: Fraction) -> Fraction | None:
    if v < 0:
        return None
    n, d = math.isqrt(v.numerator), math.isqrt(v.denominator)
    if n * n == v.numerator and d * d == v.denominator:
        return Fraction(n, d)
    return None


TRUE_B = App("true", (), BOOL)
FALSE_B = App("false", (), BOOL)


def _bool(b: bool) -> App:
    return TRUE_B if b else FALSE_B


def is_true(t: Term) -> bool:
    return isinstance(t, App) and t.op == "true"


def is_false(t: Term) -> bool:
    return isinstance(t, App) and t.op == "false"


# ----------------------------------------------------------------------------------------------- simplify


_DONE = "_simplified"  # attribute set on a term simplify returned: a second pass over it is skipped


class _Budget:
    """MAX_LITERAL_WORK, counted down while `standardize` reads one statement."""

    left = MAX_LITERAL_WORK


def _cost(t: Bind, cond: tuple[str, Term] | None) -> int:
    """Nodes one term of an unrolled sum or product copies and simplifies."""
    return ir.size(t.body) + (ir.size(cond[1]) if cond is not None else 0)


def _spend(work: int) -> bool:
    """Whether `work` more fits in what is left of the statement's MAX_LITERAL_WORK (and take it if so)."""
    if work > _Budget.left:
        return False
    _Budget.left -= work
    return True


_LIST_FOLDS = {"uf:sum_list": "add", "uf:prod_list": "mul", "uf:length": ""}


def _natural_fold(name: str, arg: Term, more: tuple[Term, ...] = ()) -> Term | None:
    """`Nat.sqrt` of a natural literal below 10^100, the sum of `Nat.digits b n` (`mathlib.digit_sum`), and at
    literals `Nat.totient`, `Nat.log`, `Nat.clog` (`mathlib`)."""
    if name == "uf:natsqrt":
        n = nat_literal(arg)
        return None if n is None or n >= 10**100 else _num(math.isqrt(n), NAT)
    if name == "uf:totient":
        n = nat_literal(arg)
        value = totient(n) if n is not None and _spend(FACTOR_WORK) else None
        return None if value is None else _num(value, NAT)
    if name in ("uf:natlog", "uf:natclog") and len(more) == 1:
        b, n = nat_literal(arg), nat_literal(more[0])
        if b is None or n is None or n >= 10**100:
            return None
        return _num((nat_log if name == "uf:natlog" else nat_clog)(b, n), NAT)
    head = arg.args[0] if isinstance(arg, App) and arg.op == "call" else None
    if isinstance(head, Var) and head.name == "uf:digits" and len(arg.args) == 3:
        total = digit_sum(arg.args[1], arg.args[2])
        return None if total is None else _num(total, NAT)
    return None


def _list_value(fn: str, xs: Term, ty: Ty | None, system: str) -> Term | None:
    """sum_list / prod_list / length of a literal list (a variable the premises define as one, substituted)."""
    if not (isinstance(xs, App) and xs.op == "list"):
        return None
    op = _LIST_FOLDS[fn]
    if not op:
        return Num(Fraction(len(xs.args)), NAT)
    if not xs.args:
        return _num(0 if op == "add" else 1, ty)
    return simplify(ir.left_fold(op, xs.args, ty), system)


def simplify(t: Term, system: str) -> Term:
    """Bottom-up simplification (semantics-preserving for `system`). A term it returned is marked, so that
    callers that rebuild around simplified parts (unrolled sums, folded casts) do not re-walk them: without
    this an unrolled sum of n terms costs O(n²) and nested ones more."""
    if t.__dict__.get(_DONE) == system:
        return t
    out = _simplify(t, system)
    object.__setattr__(out, _DONE, system)  # terms are frozen dataclasses; the mark is not a field
    return out


def _same(new: tuple, old: tuple) -> bool:
    return len(new) == len(old) and all(a is b for a, b in zip(new, old))


def _simplify(t: Term, system: str) -> Term:
    if isinstance(t, (Var, Num, Opaque)):
        if isinstance(t, Opaque):
            args = tuple(simplify(a, system) for a in t.args)
            return t if _same(args, t.args) else replace(t, args=args)
        return t
    if isinstance(t, Bind):
        dom = simplify(t.dom, system) if t.dom is not None else None
        body = simplify(t.body, system)
        if body is not t.body or dom is not t.dom:
            t = replace(t, body=body, dom=dom)
        if t.kind in ("sum", "prod"):
            return _unroll(t, system)
        if (
            t.kind == "setof"
            and isinstance(dom, Bind)
            and dom.kind == "setof"
            and dom.dom is None
            and is_true(dom.body)
        ):
            return replace(t, dom=None)  # {x ∈ UNIV. P x} = {x. P x} (UNIV = {x. True}, Set.thy: UNIV_def)
        if t.kind in ("forall", "exists") and (is_true(body) or is_false(body)):
            # `∀x. True` and `∃x. False` whatever x ranges over; `∀x. False` is False and `∃x. True` is True only
            # over a nonempty range (`∀ x : Fin 0, False` holds in Lean; `∃ x ∈ S, True` says S is nonempty)
            vacuous = is_true(body) == (t.kind == "forall")
            if vacuous or (t.dom is None and not any(ir.may_be_empty(ty, system) for _, ty in t.vars)):
                return body
        if t.kind == "exists" and t.dom is None:
            point = _one_point(t)
            if point is not None:
                return simplify(point, system)
            if (const := _constant(t)) is not None:
                return const
        return t
    assert isinstance(t, App)
    args = tuple(simplify(a, system) for a in t.args)
    if not _same(args, t.args):
        t = App(t.op, args, t.ty, t.target)
    op, ty = t.op, t.ty
    nums = [a.value for a in args if isinstance(a, Num)]
    all_num = len(nums) == len(args) and args
    if op == "and":
        flat: list[Term] = []
        for a in args:
            if is_false(a):
                return FALSE_B
            if is_true(a):
                continue
            flat.extend(a.args if isinstance(a, App) and a.op == "and" else [a])
        return ir.conj(flat) if flat else TRUE_B
    if op == "or":
        flat = []
        for a in args:
            if is_true(a):
                return TRUE_B
            if is_false(a):
                continue
            flat.extend(a.args if isinstance(a, App) and a.op == "or" else [a])
        if not flat:
            return FALSE_B
        return flat[0] if len(flat) == 1 else App("or", tuple(flat), BOOL)
    if op == "not":
        a = args[0]
        if is_true(a) or is_false(a):
            return _bool(is_false(a))
        if isinstance(a, App) and a.op == "not":
            return a.args[0]
        return t
    if op == "implies":
        a, b = args
        if is_true(a):
            return b
        if is_false(a) or is_true(b) or ir.alpha_key(a) == ir.alpha_key(b):
            return TRUE_B
        if is_false(b):
            return simplify(App("not", (a,), BOOL), system)
        return t
    if op == "iff":
        a, b = args
        if ir.alpha_key(a) == ir.alpha_key(b):
            return TRUE_B
        if is_true(a):
            return b
        if is_true(b):
            return a
        return t
    if op == "ite":
        c, a, b = args
        if is_true(c):
            return a
        if is_false(c):
            return b
        # one way to write a two-way choice: `if ¬c then a else b` is `if c then b else a`, and on a linear order
        # `if x ≤ y then a else b` is `if y < x then b else a` (the pieces of a function given by cases become
        # `if`s in an order of their own, which need not be the order a statement writes its `if` in)
        if isinstance(c, App) and c.op == "not":
            return simplify(App("ite", (c.args[0], b, a), ty), system)
        if isinstance(c, App) and c.op == "le" and ir.type_of(c.args[0]) in (NAT, INT, RAT, REAL):
            return App("ite", (App("lt", c.args[::-1], BOOL), b, a), ty)
        return t
    if op == "call":
        head = args[0]
        if isinstance(head, Bind) and head.kind == "lambda" and len(head.vars) == len(args) - 1:
            body = ir.beta(head, args[1:])
            return t if body is None else simplify(body, system)
        if isinstance(head, Var) and head.name in ("uf:natsqrt", "uf:listsum", "uf:totient") and len(args) == 2:
            # at a literal, once a premise gave one (`(h : n = 45) : (Nat.digits 10 n).sum = 9`): Mathlib's
            # `Nat.sqrt n` is ⌊√n⌋ (`Nat.sqrt_eq'`), and the digits' sum as `mathlib.elab_digits` folds it
            return _natural_fold(head.name, args[1]) or t
        if isinstance(head, Var) and head.name in ("uf:natlog", "uf:natclog") and len(args) == 3:
            return _natural_fold(head.name, args[1], args[2:]) or t
        if isinstance(head, Var) and head.name in _LIST_FOLDS and len(args) == 2:
            return _list_value(head.name, args[1], ty, system) or t
        if isinstance(head, Var) and head.name == "uf:suminf" and system == "isabelle" and len(args) == 2:
            return _geometric(args[1], system) or t
        if isinstance(head, Var) and head.name == "uf:summable" and system == "isabelle" and len(args) == 2:
            return TRUE_B if _summable(args[1]) else t
        if isinstance(head, Var) and head.name in ("uf:ratnum", "uf:ratden") and len(args) == 2:
            # a rational's fields are its lowest terms, the denominator positive (Batteries' `Rat`: `den_nz`,
            # `reduced`), as Fraction keeps them
            q = args[1]
            if isinstance(q, Num) and ir.type_of(q) in _FOLDABLE:
                return _num(q.value.numerator if head.name == "uf:ratnum" else q.value.denominator, ty)
            return t
        if isinstance(head, Var) and head.name == "uf:op:subseteq" and len(args) == 3:
            ext = _extensional(args[1], args[2], "implies", system)
            return t if ext is None else simplify(ext, system)
        return t
    if op in ("add", "sub", "neg") and system == "isabelle" and isinstance(ty, Tup) and len(ty.items) == 2:
        # on pairs, + - and unary - act on each component (Product_Plus.thy: plus_prod_def, minus_prod_def,
        # uminus_prod_def)
        parts = (App(op, tuple(App(p, (a,), u) for a in args), u) for p, u in zip(("fst", "snd"), ty.items))
        return simplify(App("pair", tuple(parts), ty), system)
    if op in ("fst", "snd"):
        a = args[0]
        if isinstance(a, App) and a.op == "pair":
            return a.args[0] if op == "fst" else a.args[1]
        return t
    if op == "pair" and len(args) == 2:
        # (fst p, snd p) = p (Product_Type.thy: surjective_pairing)
        a, b = args
        if isinstance(a, App) and a.op == "fst" and isinstance(b, App) and b.op == "snd" and a.args == b.args:
            return a.args[0]
        return t
    if op == "in":
        member = _member(args[0], args[1], system)
        return t if member is None else simplify(member, system)
    if op == "eq" and (ext := _extensional(args[0], args[1], "iff", system)) is not None:
        return simplify(ext, system)
    if op == "eq":
        a, b = args
        if isinstance(a, App) and a.op == "list" and isinstance(b, App) and b.op == "list":
            if len(a.args) != len(b.args):  # lists are a free datatype: [] ≠ x # xs, x # xs = y # ys ⟷ ...
                return FALSE_B
            return simplify(App("and", tuple(App("eq", (x, y), BOOL) for x, y in zip(a.args, b.args)), BOOL), system)
        if isinstance(a, App) and a.op == "pair" and isinstance(b, App) and b.op == "pair":
            return simplify(App("and", tuple(App("eq", (x, y), BOOL) for x, y in zip(a.args, b.args)), BOOL), system)
        if isinstance(ir.type_of(a), Tup) and (
            isinstance(a, App) and a.op == "pair" or isinstance(b, App) and b.op == "pair"
        ):
            parts = []
            for k, proj in enumerate(("fst", "snd")):
                ta = ir.type_of(a).items[k]
                parts.append(
                    App("eq", (simplify(App(proj, (a,), ta), system), simplify(App(proj, (b,), ta), system)), BOOL)
                )
            return simplify(App("and", tuple(parts), BOOL), system)
        if ir.alpha_key(a) == ir.alpha_key(b):
            return TRUE_B
    if op == "idiv" and system == "isabelle" and ty in _FIELDS:
        # Isabelle's `div` is the class `divide` (Rings.thy), and on a field `/` abbreviates it (Fields.thy:
        # `inverse_divide ≡ divide`): `(7::real) div 2 = 7 / 2`
        return simplify(App("div", args, ty), system)
    if op in ("prime", "even", "odd", "dvd") and ir.type_of(args[0]) in _FIELDS:
        # number theory's predicates on a field are not the integers' (read on ℤ they merged `Prime (2 : ℝ)` with
        # True): every nonzero element is a unit, so `a ∣ b` is `a ≠ 0 ∨ b = 0` (Mathlib `Dvd.dvd` is `∃ c, b =
        # a * c`, Isabelle's Rings.thy `dvd_def` the same); in Mathlib nothing is `Prime` (`Prime p` asks `¬IsUnit
        # p`, Algebra/Prime/Defs.lean) and everything is `Even` (`∃ r, a = r + r`) and `Odd` (`∃ m, a = 2 * m +
        # 1`, Algebra/Group/Even.lean); Isabelle's `even`/`odd` need `semiring_parity` (Parity.thy) and `prime`
        # a `normalization_semidom`, so there they stay as written
        return _field_predicate(op, args, system) or t
    if op == "card":
        return _card(t, system)
    if op == "powr" and system == "isabelle":
        base, e = args
        if isinstance(base, Num) and base.value > 0 and isinstance(e, App) and e.op == "cast":
            if ir.type_of(e.args[0]) == NAT:  # Transcendental.thy, powr_realpow: 0 < x ⟹ x powr real n = x ^ n
                return simplify(App("pow", (base, e.args[0]), ty), system)
    if op == "pow":
        base, e = args
        if isinstance(e, Num) and e.value == 1:
            return base
        if isinstance(e, Num) and e.value == 0:
            return _num(1, ty)
    if op in _UNITS and ty in _FOLDABLE and ty is not None:  # 0 + x, x - 0, 1 * x, x / 1 (also on nat, under Z3)
        unit, either_side = _UNITS[op]
        a, b = args
        for lit, other in ((b, a), (a, b)) if either_side else ((b, a),):
            if isinstance(lit, Num) and lit.value == unit and ir.type_of(other) == ty:
                return other
    if not all_num or not all(ir.type_of(a) in _FOLDABLE for a in args):
        return t  # numerals of an uninterpreted sort (a ring R) are not rationals: 0 = 1 may hold there
    if op in ("lt", "le") and any(ir.type_of(a) == ir.COMPLEX for a in args):
        return t
    return _fold(t, nums, system)


_FOLDABLE = {NAT, INT, RAT, REAL, ir.COMPLEX, None}
_FIELDS = {RAT, REAL, ir.COMPLEX}


def _field_predicate(op: str, args: tuple[Term, ...], system: str) -> Term | None:
    """`op` (prime, even, odd, dvd) of operands in a field, as `system` defines it there; None where it is not read."""
    if op == "dvd":
        a, b = args
        zero_a, zero_b = (App("eq", (x, _num(0, ir.type_of(x))), BOOL) for x in (a, b))
        return simplify(App("or", (App("not", (zero_a,), BOOL), zero_b), BOOL), system)
    if system == "lean":
        return FALSE_B if op == "prime" else TRUE_B
    return None


# op -> (its unit, whether the unit may stand on either side): the terms one side and the unit make, exactly
_UNITS = {
    "add": (0, True),
    "sub": (0, False),
    "mul": (1, True),
    **{d: (1, False) for d in ("div", "idiv", "ediv", "fdiv", "tdiv")},
}


def _written_set(s: Term, system: str) -> Ty | None:
    """The element type of a set written out, whose members SymEq can say: `{x | P x}`, `{a, b}`, an interval, a
    ray, `Finset.range n`, a union, intersection or difference of two of those (`_set_operands`), and Lean's image,
    range or preimage of any set under a function (`_image`); None for anything else (a variable) or an element
    type not known."""
    if (inner := _complement(s, system)) is not None:
        return _written_set(inner, system) if ir.type_of(inner) == s.ty else None
    if (image := _image(s, system)) is not None:
        return image[2].args[0] if image[0] == "preimage" else image[2].ret
    parts = _set_operands(s, system)
    if parts is not None:
        ety = _written_set(parts[1], system)
        return ety if ety is not None and _written_set(parts[2], system) == ety else None
    if isinstance(s, Bind) and s.kind == "setof" and len(s.vars) == 1:
        ety = s.vars[0][1]
    elif isinstance(s, App) and (
        s.op in BOUNDS and len(s.args) == 2 or s.op in (*RAYS, "range") and len(s.args) == 1 or s.op == "setenum"
    ):
        ety = s.ty.elem if isinstance(s.ty, ir.SetTy) else None
    else:
        return None
    if ety is None or isinstance(ety, ir.TVar) or isinstance(ety, ir.Sort) and ety.name.startswith("?"):
        return None
    if isinstance(s, App) and any(ir.type_of(a) != ety for a in s.args):
        return None  # (an interval of a type other than its bounds': not read)
    return ety


def _set_operands(s: Term, system: str) -> tuple[str, Term, Term] | None:
    """("or" | "and" | "minus", A, B) for the elaborated `A ∪ B`, `A ∩ B`, `A \\ B` (Isabelle `A - B` on sets: Set.thy
    set_diff_eq; Lean's `A - B` between sets is Mathlib's pointwise subtraction `{a - b | a ∈ A, b ∈ B}`, scoped in
    `Pointwise`, and is not read)."""
    if isinstance(s, App) and s.op == "call" and len(s.args) == 3 and isinstance(s.args[0], Var):
        how = {"uf:op:union": "or", "uf:op:inter": "and", "uf:op:sdiff": "minus"}.get(s.args[0].name)
        return (how, s.args[1], s.args[2]) if how is not None else None
    if _isabelle_set_arith(s, system, "sub", 2):
        return ("minus", s.args[0], s.args[1])  # type: ignore[union-attr]
    return None


def _isabelle_set_arith(s: Term, system: str, op: str, arity: int) -> bool:
    """s is Isabelle's `op` (`-`, unary `-`) applied to sets: the instances Set.thy gives `'a set` (minus, uminus)."""
    return (
        system == "isabelle"
        and isinstance(s, App)
        and s.op == op
        and len(s.args) == arity
        and isinstance(s.ty, ir.SetTy)
    )


def _complement(s: Term, system: str) -> Term | None:
    """A of the elaborated complement `Aᶜ` (Mathlib `compl`) or Isabelle's `- A` on sets (Set.thy `Compl_iff`); Lean's
    `-A` between sets is pointwise negation `{-a | a ∈ A}` (Mathlib `Set.neg`, scoped in `Pointwise`), no complement."""
    if system == "lean" and isinstance(s, App) and s.op == "call" and len(s.args) == 2:
        return s.args[1] if _is_var(s.args[0], "uf:compl") else None
    if _isabelle_set_arith(s, system, "neg", 1):
        return s.args[0]  # type: ignore[union-attr]
    return None


# Mathlib's image, range and preimage where no membership read them (`S = f '' A`), typed by `Elaborator.elab_image`
_IMAGES = {"uf:" + name: kind for name, kind in IMAGE_KIND["lean"].items()}


def _image(s: Term, system: str) -> tuple[str, Term, ir.Fun, Term | None] | None:
    """(kind, f, f's type, A) for Lean's `f '' A` / `Set.image f A` / `Finset.image f A` ("image"), `Set.range f`
    ("range", A None) and `f ⁻¹' A` / `Set.preimage f A` ("preimage"), f a function of one argument."""
    if system != "lean" or not (isinstance(s, App) and s.op == "call" and isinstance(s.args[0], Var)):
        return None
    kind = _IMAGES.get(s.args[0].name)
    if kind is None or len(s.args) != 1 + IMAGE_ARITY[kind]:
        return None
    fty = ir.type_of(s.args[1])
    if not (isinstance(fty, ir.Fun) and len(fty.args) == 1):
        return None
    return kind, s.args[1], fty, s.args[2] if kind != "range" else None


def _image_member(x: Term, s: Term, system: str) -> Term | None:
    """`x ∈ f '' A` as `∃ y, y ∈ A ∧ f y = x` (Mathlib `Set.mem_image`, `Finset.mem_image`), `x ∈ Set.range f` as
    `∃ y, f y = x` (`Set.mem_range`), `x ∈ f ⁻¹' A` as `f x ∈ A` (`Set.mem_preimage`), as the elaborator reads them
    where it meets them; `y ∈ A` read or kept as an atom. None where s is none of these or x is not of its type."""
    parts = _image(s, system)
    if parts is None:
        return None
    kind, f, fty, dom = parts
    if kind == "preimage":
        if ir.type_of(x) != fty.args[0] or dom is None:
            return None
        return _member_or_atom(App("call", (f, x), fty.ret), dom, system)
    if ir.type_of(x) != fty.ret:
        return None
    y = Var(ir.fresh_name("y", ir.free_vars(x) | ir.free_vars(s)), fty.args[0])
    hit: Term = App("eq", (App("call", (f, y), fty.ret), x), BOOL)
    if dom is not None:
        inside = _member_or_atom(y, dom, system)
        if inside is None:
            return None
        hit = App("and", (inside, hit), BOOL)
    return Bind("exists", ((y.name, y.ty),), hit, None, BOOL)


def _member(x: Term, s: Term, system: str) -> Term | None:
    """`x ∈ s` as what it says of x, for s written out (`_written_set`) with x of its element type: the elaborator
    reads a membership so as it meets one; this one is met once a definition is substituted (`S = {n | n % 3 = 0}`
    makes `6 ∈ S` into `6 ∈ {n | n % 3 = 0}`, `6 % 3 = 0`). Mathlib `Set.mem_setOf_eq`, `Set.mem_Icc` (...),
    `Set.mem_Iic` (...), `Finset.mem_range`, `Set.mem_insert_iff`; Isabelle Set.thy `mem_Collect_eq`, `insert_iff`,
    Set_Interval.thy `atLeastAtMost_iff` (...). None where it cannot be said: `x ∈ {n | P n}` where a type inside P
    mentions n and x is no variable (`ir.beta`)."""
    if isinstance(s, Bind) and s.kind == "setof" and len(s.vars) == 1 and ir.type_of(x) == s.vars[0][1]:
        body = ir.beta(replace(s, kind="lambda", dom=None), (x,))
        if body is None:
            return None
        return body if s.dom is None else App("and", (App("in", (x, s.dom), BOOL), body), BOOL)
    if (inner := _complement(s, system)) is not None:  # Mathlib `Set.mem_compl_iff`; Isabelle `Compl_iff`
        m = _member_or_atom(x, inner, system)
        return None if m is None else App("not", (m,), BOOL)
    if (image := _image_member(x, s, system)) is not None:
        return image
    parts = _set_operands(s, system)
    if parts is not None:  # Mathlib `Set.mem_union`, `Set.mem_inter_iff`, `Set.mem_diff`; Un_iff, Int_iff, Diff_iff
        how, a, b = parts
        ma, mb = _member_or_atom(x, a, system), _member_or_atom(x, b, system)
        if ma is None or mb is None:
            return None
        if how == "minus":
            return App("and", (ma, App("not", (mb,), BOOL)), BOOL)
        return App(how, (ma, mb), BOOL)
    ety = _written_set(s, system)
    if ety is None or ir.type_of(x) != ety or not isinstance(s, App):
        return None
    if s.op in BOUNDS:
        lo_op, hi_op = BOUNDS[s.op]
        return App("and", (App(lo_op, (s.args[0], x), BOOL), App(hi_op, (x, s.args[1]), BOOL)), BOOL)
    if s.op in RAYS:
        rel, below = RAYS[s.op]
        return App(rel, (x, s.args[0]) if below else (s.args[0], x), BOOL)
    if s.op == "range":
        return App("lt", (x, s.args[0]), BOOL)
    parts = tuple(App("eq", (x, item), BOOL) for item in s.args)
    if not parts:
        return FALSE_B
    return App("or", parts, BOOL) if len(parts) > 1 else parts[0]


def _member_or_atom(x: Term, s: Term, system: str) -> Term | None:
    """`x ∈ s` read (`_member`), else kept as the atom `x ∈ s` where x has s's element type, else None. The parts of a
    complement, union, intersection or difference are read so whatever they are, as the elaborator reads
    `x ∈ A ∪ B` with A and B variables: a definition substituted later (`B = Aᶜ`, then A's) reads the same."""
    m = _member(x, s, system)
    if m is not None:
        return m
    return (
        App("in", (x, s), BOOL)
        if ir.type_of(x) is not None and ir.collection_elem(ir.type_of(s)) == ir.type_of(x)
        else None
    )


def _set_leaves(s: Term, system: str) -> list[Term]:
    """The sets a complement, union, intersection or difference is made of (s itself for any other set)."""
    if (inner := _complement(s, system)) is not None:
        return _set_leaves(inner, system)
    if (parts := _set_operands(s, system)) is not None:
        return _set_leaves(parts[1], system) + _set_leaves(parts[2], system)
    return [s]


def _extensional(a: Term, b: Term, rel: str, system: str) -> Term | None:
    """`a = b` (rel "iff") or `a ⊆ b` (rel "implies") of two sets written out (`_written_set`) with one element
    type, as `∀ x, x ∈ a ↔ x ∈ b` (→): Mathlib `Set.ext_iff`, `Finset.ext_iff`, `Set.subset_def`,
    `Finset.subset_iff`; Isabelle Set.thy `set_eq_iff`, `subset_eq`. `{x | x ^ 2 = 4} = {2, -2}` is then a
    statement about numbers. For `=` both sides are written out: `S = e` is a definition `standardize` substitutes.
    A subset may have one side of any set type with those elements (`S ⊆ Set.Icc 0 1` is `∀ x ∈ S, 0 ≤ x ∧ x ≤ 1`,
    its membership in S an atom)."""
    ea, eb = _written_set(a, system), _written_set(b, system)
    ety = ea if ea is not None else eb
    if ety is None:
        return None
    if (ea is None or eb is None) and rel == "implies":
        other = b if ea is not None else a
        if ir.collection_elem(ir.type_of(other)) != ety:
            return None
    elif ea != eb:
        return None
    taken = ir.free_vars(a) | ir.free_vars(b)
    taken |= {n for t in (a, b) for x in ir.walk(t) if isinstance(x, Bind) for n, _ in x.vars}
    v = Var(ir.fresh_name("x", taken), ety)
    body = App(rel, (App("in", (v, a), BOOL), App("in", (v, b), BOOL)), BOOL)
    return Bind("forall", ((v.name, ety),), body, None, BOOL)


def _one_point(t: Bind) -> Term | None:
    """`∃x. x = e ∧ P x` as `P e` (x not in e, e of x's type): HOL's one-point rule (simp_thms, ex_simps: `(∃x. x = t
    ∧ P x) = P t`); the binder keeps its other variables. None when no conjunct pins a bound variable."""
    parts = ir.flatten_and(t.body)
    tys = dict(t.vars)
    for k, c in enumerate(parts):
        if not (isinstance(c, App) and c.op == "eq"):
            continue
        for lhs, e in (c.args, c.args[::-1]):
            if isinstance(lhs, Var) and lhs.name in tys and lhs.name not in ir.free_vars(e):
                if ir.type_of(e) is None or ir.type_of(e) != (tys[lhs.name] or ir.type_of(lhs)):
                    continue
                rest = [ir.substitute(q, {lhs.name: e}) for j, q in enumerate(parts) if j != k]
                body = ir.conj(rest) if rest else TRUE_B
                vs = tuple(v for v in t.vars if v[0] != lhs.name)
                return Bind("exists", vs, body, None, t.ty) if vs else body
    return None


def _constant(t: Bind) -> Term | None:
    """`∃ c, ∀ x, e x = c` (Lean's `∃ c, f = fun x => c` after `funext`) as `∀ x y, e x = e y`: e is constant.
    The two say the same when c ranges over a type with an element (a number type here): e x = c = e y one way,
    c := e x₀ the other (any c when there is no x₀). None for any other shape."""
    if len(t.vars) != 1 or t.vars[0][1] not in (NAT, INT, RAT, REAL, ir.COMPLEX):
        return None
    (c, cty), inner = t.vars[0], t.body
    if not (isinstance(inner, Bind) and inner.kind == "forall" and inner.dom is None):
        return None
    if not (isinstance(inner.body, App) and inner.body.op == "eq") or c in {n for n, _ in inner.vars}:
        return None
    for e, rhs in (inner.body.args, inner.body.args[::-1]):
        if isinstance(rhs, Var) and rhs.name == c and c not in ir.free_vars(e) and ir.type_of(e) == cty:
            taken = ir.free_vars(inner) | {n for n, _ in inner.vars}
            copies: dict[str, Term] = {}
            for n, ty in inner.vars:
                new = ir.fresh_name(n, taken)
                taken.add(new)
                copies[n] = Var(new, ty)
            again = tuple((copies[n].name, ty) for n, ty in inner.vars)  # type: ignore[union-attr]
            body = App("eq", (e, ir.substitute(e, copies)), BOOL)
            return Bind("forall", inner.vars + again, body, None, t.ty)
    return None


def _fold(t: App, v: list[Fraction], system: str) -> Term:
    op, ty = t.op, t.ty
    integral = ty in (NAT, INT)
    try:
        if op == "add":
            return _num(v[0] + v[1], ty)
        if op == "sub":
            r = v[0] - v[1]
            return _num(max(r, 0) if ty == NAT else r, ty)
        if op == "mul":
            r = v[0] * v[1]
            return _num(r, ty) if _small(r) else t
        if op == "neg":
            return _num(-v[0], ty) if ty != NAT else t
        if op in ("div", "idiv", "ediv", "fdiv", "tdiv"):
            if integral and all(_is_int(x) for x in v):
                return _num(int_div(op, int(v[0]), int(v[1]), ty, system), ty)
            if ty in (REAL, RAT) and op == "div":
                return _num(0 if v[1] == 0 else v[0] / v[1], ty)
            return t
        if op in ("mod", "emod", "fmod", "tmod"):
            if all(_is_int(x) for x in v) and integral:
                return _num(int_mod(op, int(v[0]), int(v[1]), ty, system), ty)
            return t
        if op == "inv":
            return _num(0 if v[0] == 0 else 1 / v[0], ty)
        if op == "pow":
            if _is_int(v[1]) and 0 <= v[1] <= MAX_POW and abs(v[0].numerator) < 10**6:
                r = v[0] ** int(v[1])
                return _num(r, ty) if _small(r) else t
            return t
        if op == "eq":
            return _bool(v[0] == v[1])
        if op == "lt":
            return _bool(v[0] < v[1])
        if op == "le":
            return _bool(v[0] <= v[1])
        if op == "dvd":
            if all(_is_int(x) for x in v):
                a, b = int(v[0]), int(v[1])
                return _bool(b == 0 if a == 0 else b % a == 0)
            return t
        if op == "abs":
            return _num(abs(v[0]), ty)
        if op == "min":
            return _num(min(v), ty)
        if op == "max":
            return _num(max(v), ty)
        if op == "floor":
            return _num(math.floor(v[0]), ty)
        if op == "ceil":
            return _num(math.ceil(v[0]), ty)
        if op == "round":
            # halves round up in both systems: Isabelle's Archimedean_Field.thy `round x = ⌊x + 1/2⌋`, Mathlib's
            # `round_eq` (`round (-1/2) = 0`, `round_neg_two_inv`; not away from zero, as this read Lean before)
            return _num(math.floor(v[0] + Fraction(1, 2)), ty)
        if op == "sqrt":
            r = _rational_sqrt(abs(v[0]))
            if r is None:
                return t
            if v[0] < 0:
                return _num(0 if system == "lean" else -r, ty)
            return _num(r, ty)
        if op in ("gcd", "lcm") and all(_is_int(x) for x in v):
            a, b = abs(int(v[0])), abs(int(v[1]))
            return _num(math.gcd(a, b) if op == "gcd" else (a * b // math.gcd(a, b) if a and b else 0), ty)
        if op == "fact" and _is_int(v[0]) and 0 <= v[0] <= 200:
            return _num(math.factorial(int(v[0])), ty)
        if op == "choose" and all(_is_int(x) and x >= 0 for x in v) and v[0] <= 1000:
            return _num(math.comb(int(v[0]), int(v[1])), ty)
        if op == "prime" and _is_int(v[0]) and abs(v[0]) < 10**12:
            return _bool(_is_prime(int(v[0])) if (v[0] >= 0 or system == "isabelle") else _is_prime(int(-v[0])))
        if op in ("even", "odd") and _is_int(v[0]):
            return _bool((int(v[0]) % 2 == 0) == (op == "even"))
        if op == "cast":
            src = ir.type_of(t.args[0])
            if ty == NAT and src != NAT:
                return t
            return _num(v[0], ty)
        if op in ("tonat", "natabs"):
            return _num(max(v[0], 0) if op == "tonat" else abs(v[0]), ty)
        if op == "ite":
            return t
    except (ZeroDivisionError, OverflowError, ValueError):
        return t
    return t


# ----------------------------------------------------------------------------------------------- finite domains


def _geometric_terms(f: Term) -> tuple[Fraction, list[Term], list[Term], list[Term]] | None:
    """For `λn. c * r ^ n` (also `c / b ^ n`, r = 1/b) with a literal |r| < 1, on ℝ: r, the factors and divisors free
    of n (c), and the factors bounded by 1 in absolute value that depend on n (`cos (n * θ)`); None otherwise."""
    if not (isinstance(f, Bind) and f.kind == "lambda" and len(f.vars) == 1 and ir.type_of(f.body) == REAL):
        return None
    n = f.vars[0][0]
    factors, divisors = [f.body], []
    while any(isinstance(x, App) and x.op in ("mul", "div") for x in factors):
        x = next(x for x in factors if isinstance(x, App) and x.op in ("mul", "div"))
        factors.remove(x)
        factors.append(x.args[0])
        (factors if x.op == "mul" else divisors).append(x.args[1])
    bounded = [x for x in factors if n in ir.free_vars(x) and _bounded_by_one(x)]
    powers = [x for x in (*factors, *divisors) if n in ir.free_vars(x) and not any(x is y for y in bounded)]
    if len(powers) != 1:
        return None
    p = powers[0]
    if not (isinstance(p, App) and p.op == "pow" and p.args[1] == Var(n, NAT) and isinstance(p.args[0], Num)):
        return None
    r = p.args[0].value if p in factors else 1 / p.args[0].value if p.args[0].value else None
    if r is None or abs(r) >= 1:
        return None
    rest = [x for x in factors if x is not p and not any(x is y for y in bounded)]
    return r, rest, [x for x in divisors if x is not p], bounded


def _bounded_by_one(t: Term) -> bool:
    head = t.args[0] if isinstance(t, App) and t.op == "call" and len(t.args) == 2 else None
    return isinstance(head, Var) and facts.bounded_by_one(head.name)


def _geometric(f: Term, system: str) -> Term | None:
    """`∑n. c * r ^ n` (also `c / b ^ n`, r = 1/b) for a literal |r| < 1 and c free of n is c / (1 - r) (Series.thy:
    suminf_geometric, suminf_mult, suminf_divide; summable_geometric), on ℝ; None for another series."""
    parts = _geometric_terms(f)
    if parts is None or parts[3]:
        return None
    r, factors, divisors, _ = parts
    value: Term = _num(1 / (1 - r), REAL)
    for x in factors:
        value = App("mul", (x, value), REAL)
    for x in divisors:
        value = App("div", (value, x), REAL)
    return simplify(value, system)


def _summable(f: Term) -> bool:
    """Whether `summable f` is known true: f is c * r ^ n as above, times factors bounded by 1 such as `cos (n * θ)`
    (Series.thy: summable_geometric, summable_mult, summable_divide, and summable_comparison_test with
    |g n * c * r ^ n| ≤ |c| * |r| ^ n)."""
    return _geometric_terms(f) is not None


def _literal_bounds(dom: Term) -> tuple[int, int, Ty] | None:
    """(a, b, element type) for an interval or range of ℕ or ℤ with literal bounds: its elements are a..b."""
    if isinstance(dom, App) and dom.op in ("icc", "ico", "ioc", "ioo"):
        lo, hi = dom.args
        if not (isinstance(lo, Num) and isinstance(hi, Num)):
            return None
        el = elem_of_set(ir.type_of(dom))
        ety = el if el is not None else ir.type_of(lo)
        if ety not in (NAT, INT):
            return None
        a, b = math.ceil(lo.value), math.floor(hi.value)
        if dom.op in ("ioc", "ioo") and lo.value == a:
            a += 1
        if dom.op in ("ico", "ioo") and hi.value == b:
            b -= 1
        return a, b, ety
    if isinstance(dom, App) and dom.op == "range":
        n = dom.args[0]
        if isinstance(n, Num) and n.value >= 0:
            return 0, math.ceil(n.value) - 1, NAT
    return None


def _divisor_elements(x: str, cond: Term, dom: Term | None) -> tuple[list[Num], Term | None] | None:
    """`{x ∈ dom | x ∣ N ∧ rest}` with N a nonzero literal and dom a literal interval of ℕ or ℤ (Mathlib's
    `Nat.divisors N`, Isabelle's `{d. d dvd N}`): the divisors of N in dom, listed from N's factors however wide
    dom is, and what is left of the condition (None: nothing). None where the condition has no such conjunct."""
    bounds = _literal_bounds(dom) if dom is not None else None
    if bounds is None:
        return None
    a, b, ety = bounds
    conjuncts = ir.flatten_and(cond)
    for k, c in enumerate(conjuncts):
        if not (isinstance(c, App) and c.op == "dvd" and isinstance(c.args[0], Var) and c.args[0].name == x):
            continue
        n = c.args[1]
        if not (isinstance(n, Num) and n.value.denominator == 1 and n.value != 0):
            continue
        divisors = divisors_of(abs(int(n.value))) if _spend(FACTOR_WORK) else None
        if divisors is None:
            return None
        signed = divisors if ety == NAT else [-d for d in reversed(divisors)] + divisors
        rest = conjuncts[:k] + conjuncts[k + 1 :]
        elems = [Num(Fraction(d), ety) for d in signed if a <= d <= b]
        return elems, (ir.conj(rest) if rest else None)
    return None


def _literal_elements(dom: Term | None, limit: int = MAX_UNROLL) -> list[Num] | None:
    """The elements of a finite set with literal bounds, in order (None when not literal or more than limit)."""
    if dom is None:
        return None
    bounds = _literal_bounds(dom)
    if bounds is not None:
        a, b, ety = bounds
        if b - a + 1 > limit:
            return None
        return [Num(Fraction(k), ety) for k in range(a, b + 1)]
    if isinstance(dom, App) and dom.op == "setenum":
        if all(isinstance(a, Num) for a in dom.args):
            seen: dict[Fraction, Num] = {}
            for a in dom.args:
                seen.setdefault(a.value, a)
            return list(seen.values())
        return None
    return None


def _unroll(t: Bind, system: str) -> Term:
    if len(t.vars) != 1:
        return t
    name, _ = t.vars[0]
    dom, cond = t.dom, None
    if isinstance(dom, Bind) and dom.kind == "setof" and len(dom.vars) == 1:
        cond = (dom.vars[0][0], dom.body)
        dom = dom.dom if dom.dom is not None else _bounded_domain(dom)
        while isinstance(dom, Bind) and dom.kind == "setof" and len(dom.vars) == 1 and dom.dom is not None:
            # {x ∈ {y ∈ D | P y} | Q x} is {x ∈ D | P x ∧ Q x} (`Finset.filter_filter`)
            inner = dom.vars[0][0]
            if cond[0] in ir.free_vars(dom.body) - {inner}:
                break
            cond = (cond[0], App("and", (ir.substitute(dom.body, {inner: Var(cond[0], dom.vars[0][1])}), cond[1])))
            dom = dom.dom
    divisors = _divisor_elements(cond[0], cond[1], dom) if cond is not None else None
    if divisors is not None:
        elems: list[Num] | None = divisors[0]
        cond = None if divisors[1] is None else (cond[0], divisors[1])
    else:
        elems = _literal_elements(dom)
    if elems is None:
        return _literal_sum(t, name, cond, dom, system)
    ty = t.ty
    unit = _num(0 if t.kind == "sum" else 1, ty)
    terms: list[Term] = []
    cost = _cost(t, cond)
    for e in elems:
        if not _spend(cost):
            return t
        body = ir.substitute(t.body, {name: e})
        if cond is not None:
            c = simplify(ir.substitute(cond[1], {cond[0]: e}), system)
            body = App("ite", (c, body, unit), ty)
        terms.append(simplify(body, system))
    if not terms:
        return unit
    op = "add" if t.kind == "sum" else "mul"
    acc = terms[0]
    for x in terms[1:]:
        acc = simplify(App(op, (acc, x), ty), system)
    return acc


def _literal_sum(t: Bind, name: str, cond: tuple[str, Term] | None, dom: Term | None, system: str) -> Term:
    """A sum over a literal range too long to unroll (`∑i = 1..250. i`), added up when every term is a number;
    t unchanged otherwise."""
    elems = _literal_elements(dom, MAX_LITERAL_SUM) if t.kind == "sum" and cond is None else None
    if elems is None:
        return t
    total = Fraction(0)
    cost = _cost(t, cond)
    for e in elems:
        if not _spend(cost):
            return t
        v = simplify(ir.substitute(t.body, {name: e}), system)
        if not isinstance(v, Num):
            return t
        total += v.value
    return _num(total, t.ty)


def _bounded_domain(s: Bind) -> Term | None:
    """`{x :: int. -3 ≤ x ∧ x < 4 ∧ ...}` is finite: its domain is {-3..3} (literal bounds among the conjuncts; on ℕ
    an upper one is enough)."""
    if len(s.vars) != 1 or s.vars[0][1] not in (NAT, INT):
        return None
    name, ty = s.vars[0]
    conjuncts = ir.flatten_and(s.body)
    bounds = [c for c in conjuncts if _interval(c, name, ty) is not None]
    iv = _interval(ir.conj(bounds), name, ty) if bounds else None
    lo, hi = (iv[0], iv[2]) if iv is not None else (Fraction(0) if ty == NAT else None, None)
    for c in conjuncts:
        # x ∣ N with N ≠ 0 a literal: |x| ≤ |N| (0 divides only 0; Mathlib `Nat.le_of_dvd`, `Int.le_of_dvd`)
        if isinstance(c, App) and c.op == "dvd" and isinstance(c.args[0], Var) and c.args[0].name == name:
            n = c.args[1]
            if isinstance(n, Num) and n.value.denominator == 1 and n.value != 0:
                m = abs(n.value)
                hi = m if hi is None else min(hi, m)
                lo = -m if lo is None else max(lo, -m)
    if lo is None or hi is None:
        return None
    return App("icc", (Num(lo, ty), Num(hi, ty)), ir.SetTy(ty))


def _card(t: App, system: str) -> Term:
    s = t.args[0]
    if isinstance(s, Bind) and s.kind == "setof" and s.dom is None:
        dom = _bounded_domain(s)
        if dom is not None:
            s = replace(s, dom=dom)
    if isinstance(s, Bind) and s.kind == "setof":
        counted = Bind("sum", s.vars, _num(1, NAT), dom=s, ty=NAT)
        out = _unroll(counted, system)
        return out if out is not counted else t
    elems = _literal_elements(s)
    if elems is not None:
        return _num(len(elems), NAT)
    if isinstance(s, App) and s.op == "range":
        return s.args[0]
    if isinstance(s, App) and s.op in _INTERVAL_CARD and ir.type_of(s.args[0]) in (NAT, INT):
        # Mathlib `Nat.card_Icc : (Icc a b).card = b + 1 - a`, `card_Ico`/`card_Ioc` `b - a`, `card_Ioo` `b - a - 1`,
        # on ℤ the same through `toNat` (`Int.card_Icc : (Icc a b).card = (b + 1 - a).toNat`, ...); Isabelle's
        # `card_atLeastAtMost : card {l..u} = Suc u - l`, `card_atLeastLessThan`, `card_atLeastAtMost_int : card
        # {l..u} = nat (u - l + 1)`, ...
        lo, hi = s.args
        ty = ir.type_of(lo)
        lo_add, hi_add = _INTERVAL_CARD[s.op]
        upper = App("add", (hi, _num(hi_add, ty)), ty) if hi_add else hi
        lower = App("add", (lo, _num(lo_add, ty)), ty) if lo_add else lo
        count = App("sub", (upper, lower), ty)
        return simplify(count if ty == NAT else App("tonat", (count,), NAT), system)
    return t


# op -> (what the lower bound gains, what the upper bound gains): the count is (hi + b) - (lo + a), truncated at 0
_INTERVAL_CARD = {"icc": (0, 1), "ico": (0, 0), "ioc": (0, 0), "ioo": (1, 0)}


# ----------------------------------------------------------------------------------------------- statements


def _lift(st: Statement) -> Statement:
    variables = dict(st.variables)
    premises = list(st.premises)
    concl = st.conclusion
    for _ in range(32):
        if isinstance(concl, Bind) and concl.kind == "forall":
            ren: dict[str, Term] = {}
            taken = set(variables) | ir.free_vars(concl)
            for n, ty in concl.vars:
                new = n if n not in variables else ir.fresh_name(n, taken)
                taken.add(new)
                variables[new] = ty
                if new != n:
                    ren[n] = Var(new, ty)
            concl = ir.substitute(concl.body, ren)
        elif isinstance(concl, App) and concl.op == "implies":
            premises.append(concl.args[0])
            concl = concl.args[1]
        elif (
            isinstance(concl, Bind)
            and concl.kind == "exists"
            and concl.dom is None
            and (const := _constant(concl)) is not None
        ):
            concl = const  # `∃ c, f = fun _ => c` is `∀ x y, f x = f y`: lifted as that is
        elif (
            isinstance(concl, App)
            and concl.op == "not"
            and isinstance(concl.args[0], App)
            and concl.args[0].op == "not"
        ):
            # `¬ ¬ P` is `P` (Mathlib `not_not`, classical; Isabelle `not_not`): lifted as `P` is
            concl = concl.args[0].args[0]
        else:
            break
    return replace(st, variables=variables, premises=premises, conclusion=concl)


# Mathlib classes whose `a / b` is `a * b⁻¹` (`div_eq_mul_inv`: DivInvMonoid) and whose `1 * a` is `a` (`one_mul`)
_DIV_INV_CLASSES = frozenset(
    {"Group", "CommGroup", "DivInvMonoid", "DivisionMonoid", "DivisionCommMonoid", "DivisionRing", "Field"}
)


def _div_inv_sorts(premises: list[Term]) -> set[str]:
    """The sorts an instance premise `[Group G]`, `[Field K]`, ... declares a `DivInvMonoid` (by name)."""
    return set(ir.instance_sorts(premises, _DIV_INV_CLASSES))


def _pointwise_field(ty: Ty | None) -> bool:
    """Functions into ℝ, ℚ or ℂ: Mathlib's `Pi.divInvMonoid` (Algebra/Group/Pi/Basic.lean) makes them a
    `DivInvMonoid` pointwise (`Pi.div_apply`, `Pi.inv_apply`, `Pi.one_apply`), so `1 / f = f⁻¹` (`one_div`)."""
    return isinstance(ty, ir.Fun) and ty.ret in (REAL, RAT, ir.COMPLEX)


def _div_as_mul_inv(t: Term, sorts: set[str], pointwise: bool = False) -> Term:
    """`a / b` as `a * b⁻¹` and `1 * a`, `a * 1` as `a` at the sorts of `_div_inv_sorts` (SymEq leaves their
    operations uninterpreted, so `1 / x` and `x⁻¹` were two unrelated terms)."""
    t = ir.map_children(t, lambda a: _div_as_mul_inv(a, sorts, pointwise))
    if not (
        isinstance(t, App)
        and len(t.args) == 2
        and (pointwise and _pointwise_field(t.ty) or isinstance(t.ty, ir.Sort) and t.ty.name in sorts)
    ):
        return t
    one = [isinstance(a, Num) and a.value == 1 for a in t.args]
    if t.op == "div":
        inv = App("inv", (t.args[1],), t.ty)
        return inv if one[0] else App("mul", (t.args[0], inv), t.ty)
    if t.op == "mul" and any(one):
        return t.args[1] if one[0] else t.args[0]
    return t


def _ranges_over_domain(fty: Ty | None, params: list[Term], vtys: dict[str, Ty | None]) -> bool:
    """Each bound parameter of `∀ k. f k = e` has the type of the argument of f it stands at. A binder over a subtype
    or a smaller type defines f there only: `∀ k : Set.Icc 1 3, a k = 0` (Lean's `↥(Set.Icc 1 3)`, coerced into
    `a : ℕ → ℤ`) read as `a = λk. 0` made `a 5 = 0` true, and `∀ n : ℕ, f n = 0` says nothing of `f : ℝ → ℝ` at 1/2."""
    if not isinstance(fty, ir.Fun):
        return True
    for k, a in enumerate(params):
        if isinstance(a, Var) and k < len(fty.args):
            ty, dom = vtys.get(a.name), fty.args[k]
            if ty is not None and not isinstance(ty, ir.TVar) and not isinstance(dom, ir.TVar) and ty != dom:
                return False
    return True


def _definition(p: Term, variables: dict[str, Ty], system: str, terms: tuple[Term, ...]) -> tuple[str, Term] | None:
    """(v, e) when premise p defines variable v as e (`terms`: the premises, p among them, and the conclusion, which
    a set defined by its members may appear in only as `_members_only` says; p itself does)."""
    if (pointwise := _pointwise_set(p, variables, system)) is not None:
        return pointwise if all(_members_only(pointwise[0], t, system) for t in terms) else None
    if isinstance(p, App) and p.op in ("eq", "iff"):
        for lhs, rhs in (p.args, p.args[::-1]):
            if isinstance(lhs, Var) and lhs.name in variables and lhs.name not in ir.free_vars(rhs):
                if ir.type_of(lhs) == ir.type_of(rhs) or ir.type_of(rhs) is None or _same_collection(lhs, rhs):
                    return lhs.name, rhs
    if isinstance(p, Bind) and p.kind == "forall" and isinstance(p.body, App) and p.body.op == "eq":
        for lhs, rhs in (p.body.args, p.body.args[::-1]):
            if (
                isinstance(lhs, App)
                and lhs.op == "call"
                and isinstance(lhs.args[0], Var)
                and lhs.args[0].name in variables
            ):
                params = lhs.args[1:]
                names = [n for a in params for n in _pattern_names(a)]
                bound = [n for n, _ in p.vars]
                if (
                    all(_pattern_names(a) for a in params)
                    and sorted(names) == sorted(bound)
                    and len(set(names)) == len(names)
                    and lhs.args[0].name not in ir.free_vars(rhs)
                    and _ranges_over_domain(variables[lhs.args[0].name], list(params), dict(p.vars))
                ):
                    fty = variables[lhs.args[0].name]
                    vtys = dict(p.vars)
                    if all(isinstance(a, Var) for a in params):
                        lam = Bind("lambda", tuple((n, vtys[n]) for n in names), rhs, None, fty)
                        return lhs.args[0].name, lam
                    # `∀x1 y1 x2 y2. f (x1, y1) (x2, y2) = e`: every pair is (fst p, snd p), so f is λp q. e with
                    # x1 = fst p, y1 = snd p, ... (Product_Type.thy, surjective_pairing)
                    taken = set(bound) | ir.free_vars(rhs)
                    lam_vars, access = [], {}
                    for a in params:
                        name = a.name if isinstance(a, Var) else ir.fresh_name("p", taken)
                        taken.add(name)
                        lam_vars.append((name, ir.type_of(a)))
                        access.update(_pattern_access(a, Var(name, ir.type_of(a))))
                    lam = Bind("lambda", tuple(lam_vars), ir.substitute(rhs, access), None, fty)
                    return lhs.args[0].name, lam
    return None


def _predicate_set(ty: Ty | None, system: str) -> Ty | None:
    """The element type of a variable's type when its values are all sets of those elements: Lean `Set α` (a
    binder's type, kept a sort), Isabelle `'a set`; not Lean `Finset α` (only the finite ones)."""
    if system == "isabelle" and isinstance(ty, ir.SetTy):
        return ty.elem
    if system == "lean" and isinstance(ty, ir.Sort) and ty.name.split()[0] == "Set":
        return ir.collection_elem(ty)
    return None


def _pointwise_set(p: Term, variables: dict[str, Ty], system: str) -> tuple[str, Term] | None:
    """(S, `{x | P x}`) when premise p is `∀ x, x ∈ S ↔ P x` (either side first) for a variable S of a set type
    (`_predicate_set`), S not in P: exactly one set has those members (Mathlib `Set.ext`; Isabelle `set_eq_iff`),
    so the premise defines S as `S = {x | P x}` does. Not for a Finset: where P holds of infinitely many x no
    Finset has those members, and the statement then holds vacuously, which `P 7` in place of `7 ∈ S` need not."""
    if not (isinstance(p, Bind) and p.kind == "forall" and p.dom is None and len(p.vars) == 1):
        return None
    (x, xty), body = p.vars[0], p.body
    if not (isinstance(body, App) and len(body.args) == 2):
        return None
    if body.op != "iff" and not (body.op == "eq" and ir.type_of(body.args[0]) == BOOL):
        return None
    for mem, pred in (body.args, body.args[::-1]):
        if not (isinstance(mem, App) and mem.op == "in" and all(isinstance(a, Var) for a in mem.args)):
            continue
        elem, (_, s) = mem.args[0], mem.args
        if elem.name != x or s.name == x or s.name not in variables or s.name in ir.free_vars(pred):
            continue
        if xty is not None and _predicate_set(variables[s.name], system) == xty:
            return s.name, Bind("setof", ((x, xty),), pred, None, ir.SetTy(xty))
    return None


def _members_only(name: str, t: Term, system: str) -> bool:
    """Every free occurrence of the variable in t asks for its members: `a ∈ S`, or S equal to (or a subset of, or
    a superset of) a set written out (`_extensional` reads those once S is one too). Substituted elsewhere
    (`f '' S`, `S.ncard`, `S = T`), the set written out would leave a term Z3 is given as a value it cannot
    read, where the variable was one it could."""
    if isinstance(t, Var):
        return t.name != name
    if isinstance(t, Bind):
        if any(n == name for n, _ in t.vars):
            return t.dom is None or _members_only(name, t.dom, system)
        return _members_only(name, t.body, system) and (t.dom is None or _members_only(name, t.dom, system))
    if isinstance(t, App) and t.op == "in" and len(t.args) == 2:
        # `a ∈ S`, and `a ∈ Sᶜ`, `a ∈ S ∪ T`, ... (`_member` reads them by their parts)
        leaves = _set_leaves(t.args[1], system)
        if any(_is_var(leaf, name) for leaf in leaves):
            return all(_members_only(name, u, system) for u in [t.args[0], *leaves] if not _is_var(u, name))
    operands: tuple[Term, ...] = ()
    if isinstance(t, App) and t.op == "eq" and len(t.args) == 2:
        operands = t.args
    elif isinstance(t, App) and t.op == "call" and len(t.args) == 3 and _is_var(t.args[0], "uf:op:subseteq"):
        operands = t.args[1:]
    for side, other in (operands, operands[::-1]) if operands else ():
        if _is_var(side, name) and _written_set(other, system) is not None:
            return _members_only(name, other, system)
    return all(_members_only(name, c, system) for c in t.children())


def _is_var(t: Term, name: str) -> bool:
    return isinstance(t, Var) and t.name == name


def _same_collection(v: Var, e: Term) -> bool:
    """A variable `S : Set ℝ` (a binder's collection type stays a sort name) defined by a set the elaborator built
    (`{x | P x}`, `{1, 2}`, `Finset.Icc 1 n`: a `SetTy` of the same element type): Lean elaborates the right-hand
    side at the variable's type, so `S = e` makes S that set."""
    ety = ir.type_of(e)
    return isinstance(ety, ir.SetTy) and isinstance(v.ty, ir.Sort) and ir.collection_elem(v.ty) == ety.elem


def _pattern_names(t: Term) -> list[str]:
    """The variables of a pattern made of variables and pairs (`(x, (y, z))`), [] when t is not one."""
    if isinstance(t, Var):
        return [t.name]
    if isinstance(t, App) and t.op == "pair":
        parts = [_pattern_names(a) for a in t.args]
        return [n for part in parts for n in part] if all(parts) and len(t.args) == 2 else []
    return []


def _pattern_access(t: Term, at: Term) -> dict[str, Term]:
    """For a pattern t matched against the value `at`: each of its variables as a projection of `at`."""
    if isinstance(t, Var):
        return {t.name: at}
    out: dict[str, Term] = {}
    for proj, part in zip(("fst", "snd"), t.args):  # type: ignore[union-attr]
        out.update(_pattern_access(part, App(proj, (at,), ir.type_of(part))))
    return out


def _guarded_body(t: Term) -> tuple[list[Term], Term]:
    """`g₁ ⟶ g₂ ⟶ b` as ([g₁, g₂], b)."""
    guards: list[Term] = []
    while isinstance(t, App) and t.op == "implies":
        guards.append(t.args[0])
        t = t.args[1]
    return guards, t


def _guarded(p: Term, variables: dict[str, Ty]) -> tuple[str, tuple[tuple[str, Ty | None], ...], Term, Term] | None:
    """(f, params, guard, value) when premise p is `∀xs. guard ⟶ f xs = value` (one piece of a function defined
    by cases): f a variable of function type applied to the distinct bound names, f in neither guard nor value."""
    if not (isinstance(p, Bind) and p.kind == "forall" and p.dom is None):
        return None
    guards, body = _guarded_body(p.body)
    if not guards or not (isinstance(body, App) and body.op == "eq"):
        return None
    guard = ir.conj(guards) if len(guards) > 1 else guards[0]
    vtys = dict(p.vars)
    for lhs, rhs in (body.args, body.args[::-1]):
        if not (isinstance(lhs, App) and lhs.op == "call" and isinstance(lhs.args[0], Var)):
            continue
        f = lhs.args[0].name
        names = [a.name for a in lhs.args[1:] if isinstance(a, Var)]
        if (
            isinstance(variables.get(f), ir.Fun)
            and len(names) == len(lhs.args) - 1
            and len(set(names)) == len(names)
            and sorted(names) == sorted(vtys)
            and f not in ir.free_vars(rhs) | ir.free_vars(guard)
            and _ranges_over_domain(variables[f], list(lhs.args[1:]), vtys)
        ):
            return f, tuple((n, vtys[n]) for n in names), guard, rhs
    return None


def _interval(guard: Term, x: str, ty: Ty | None) -> tuple[Fraction | None, bool, Fraction | None, bool] | None:
    """The set of values of x a guard made of literal bounds on x admits: (lo, lo_closed, hi, hi_closed), None
    for an unbounded side; on ℕ and ℤ the bounds are integers and closed. None when the guard is not such."""
    lo: tuple[Fraction | None, bool] = (Fraction(0), True) if ty == NAT else (None, False)
    hi: tuple[Fraction | None, bool] = (None, False)
    for c in ir.flatten_and(guard):
        negated = isinstance(c, App) and c.op == "not"
        if negated:
            c = c.args[0]
        if not (isinstance(c, App) and c.op in ("lt", "le")):
            return None
        strict = (c.op == "lt") != negated
        a, b = c.args if not negated else c.args[::-1]
        if isinstance(a, Var) and a.name == x and isinstance(b, Num):  # x < b
            bound, upper = b.value, True
        elif isinstance(b, Var) and b.name == x and isinstance(a, Num):  # a < x
            bound, upper = a.value, False
        else:
            return None
        if ty in (NAT, INT):
            if upper:
                bound, strict = Fraction(math.ceil(bound) - 1 if strict else math.floor(bound)), False
            else:
                bound, strict = Fraction(math.floor(bound) + 1 if strict else math.ceil(bound)), False
        elif ty not in (REAL, RAT):
            return None
        if upper and (hi[0] is None or bound < hi[0] or bound == hi[0] and strict):
            hi = (bound, not strict)
        if not upper and (lo[0] is None or bound > lo[0] or bound == lo[0] and strict):
            lo = (bound, not strict)
    return lo[0], lo[1], hi[0], hi[1]


def _partition(guards: list[Term], x: str, ty: Ty | None) -> tuple[bool, bool]:
    """(disjoint, exhaustive) for guards on one variable, as far as literal bounds show (False when unknown)."""
    ivs = [_interval(g, x, ty) for g in guards]
    if any(iv is None for iv in ivs):
        return False, False
    discrete = ty in (NAT, INT)
    ivs = sorted(ivs, key=lambda iv: (iv[0] is not None, iv[0] or 0, not iv[1]))  # type: ignore[index]
    disjoint, exhaustive = True, ivs[0][0] is None or (ty == NAT and ivs[0][0] == 0)
    for (_, _, hi, hi_c), (lo, lo_c, _, _) in zip(ivs, ivs[1:]):
        if hi is None or lo is None:
            return False, False
        if discrete:
            disjoint &= hi < lo
            exhaustive &= lo <= hi + 1
        else:
            disjoint &= hi < lo or hi == lo and not (hi_c and lo_c)
            exhaustive &= lo < hi or lo == hi and (hi_c or lo_c)
    return disjoint, exhaustive and ivs[-1][2] is None


def _complementary(a: Term, b: Term) -> bool:
    """b is the negation of a, as the elaborator writes it (`x < c` and `c ≤ x`, `P` and `¬ P`)."""
    for p, q in ((a, b), (b, a)):
        if isinstance(p, App) and p.op == "not" and ir.alpha_key(p.args[0]) == ir.alpha_key(q):
            return True
        if isinstance(p, App) and isinstance(q, App) and {p.op, q.op} == {"lt", "le"}:
            if [ir.alpha_key(x) for x in p.args] == [ir.alpha_key(x) for x in q.args[::-1]]:
                return True
    return False


def _cases_definition(premises: list[Term], variables: dict[str, Ty]) -> tuple[str, Term, list[int], list[Term]] | None:
    """A function given by cases, `∀x. g₁ x ⟶ f x = e₁ x`, ..., `∀x. gₖ x ⟶ f x = eₖ x`, as a substitution:
    (f, λx. if g₁ x then e₁ x else ... else f x, the premises it replaces, the premises it adds). The f that
    is left is any function: the premises hold exactly for the functions of that form for which the pieces
    agree where guards overlap (`∀x. gᵢ x ∧ gⱼ x ⟶ eᵢ x = eⱼ x`, added unless the guards are disjoint); where
    the guards cover every x, no `f x` is left."""
    pieces: dict[str, list[tuple[int, tuple, Term, Term]]] = {}
    for k, p in enumerate(premises):
        g = _guarded(p, variables)
        if g is not None:
            pieces.setdefault(g[0], []).append((k, *g[1:]))
    if not pieces:
        return None
    f, found = next(iter(pieces.items()))
    # the pieces in an order of their own, not the hypotheses': `h₀ : x < 1 → f x = x` and `h₁ : 1 ≤ x → f x = 1`
    # written in either order are one definition (under the agreement premises added below, any order of the
    # `if`s is the same function)
    found = sorted(found, key=lambda piece: repr(ir.alpha_key(Bind("lambda", piece[1], App("eq", piece[2:], BOOL)))))
    # Each piece names the arguments itself; they are renamed to one set of names, which must not occur free in
    # any piece (`∀x. x < 0 ⟶ f x = 0` and `∀y. y ≥ 0 ⟶ f y = x`, x a fixed variable: renaming y to x captures it)
    outer = {f}
    for _, ps, guard, value in found:
        outer |= (ir.free_vars(guard) | ir.free_vars(value)) - {n for n, _ in ps}
    taken = outer | {n for _, ps, _, _ in found for n, _ in ps}
    params_list: list[tuple[str, Ty | None]] = []
    for n, ty in found[0][1]:
        name = n if n not in outer else ir.fresh_name(n, taken)
        taken.add(name)
        params_list.append((name, ty))
    params = tuple(params_list)
    guards, values = [], []
    for _, ps, guard, value in found:
        ren = {n: Var(m, ty) for (n, _), (m, ty) in zip(ps, params) if n != m}
        guards.append(ir.substitute(guard, ren))
        values.append(ir.substitute(value, ren))
    fty = variables[f]
    assert isinstance(fty, ir.Fun)
    if len(params) == 1:
        disjoint, exhaustive = _partition(guards, params[0][0], params[0][1])
    else:
        disjoint = exhaustive = False
    if len(guards) == 2 and _complementary(*guards):
        disjoint = exhaustive = True
    args = tuple(Var(n, ty) for n, ty in params)
    body: Term = values[-1] if exhaustive else App("call", (Var(f, fty), *args), fty.ret)
    for g, v in reversed(list(zip(guards, values))[: len(guards) - 1 if exhaustive else len(guards)]):
        body = App("ite", (g, v, body), fty.ret)
    added: list[Term] = []
    if not disjoint:
        for i in range(len(guards)):
            for j in range(i + 1, len(guards)):
                both = App("and", (guards[i], guards[j]), BOOL)
                agree = App("implies", (both, App("eq", (values[i], values[j]), BOOL)), BOOL)
                added.append(Bind("forall", params, agree, None, BOOL))
    return f, Bind("lambda", params, body, None, fty), [k for k, *_ in found], added


def _calls(t: Term, f: str) -> list[App] | None:
    """The applications of the free function variable f in t; None when f also occurs otherwise (as an argument)."""
    out: list[App] = []

    def go(x: Term, bound: frozenset[str]) -> bool:
        if f in bound:
            return True  # a bound f is another variable
        if isinstance(x, App) and x.op == "call" and isinstance(x.args[0], Var) and x.args[0].name == f:
            out.append(x)
            return all(go(a, bound) for a in x.args[1:])
        if isinstance(x, Var):
            return x.name != f
        if isinstance(x, Bind):
            return (x.dom is None or go(x.dom, bound)) and go(x.body, bound | {n for n, _ in x.vars})
        return all(go(c, bound) for c in x.children())

    return out if go(t, frozenset()) else None


def _recurrence_step(p: Term, f: str) -> tuple[int, int | None, str, int, Term] | None:
    """(m0, m1, n, shift, e) when premise p gives f m from f (m - 1) for every m0 ≤ m ≤ m1 (m1 None: no end) and
    says nothing else: `∀n. [a ≤ n ≤ b ⟶] f (n + 1) = e` (shift 1: n = m - 1) or `∀n. b ≤ n [≤ c] ⟶ f n = e` with
    b ≥ 1 (shift 0: n = m), e applying f only to the previous index (`f n`, `f (n - 1)`)."""
    if not (isinstance(p, Bind) and p.kind == "forall" and p.dom is None and len(p.vars) == 1):
        return None
    n, nty = p.vars[0]
    if nty != NAT:
        return None
    guards, body = _guarded_body(p.body)
    if not (isinstance(body, App) and body.op == "eq"):
        return None
    bounds = _interval(ir.conj(guards), n, NAT) if guards else (Fraction(0), True, None, False)
    if bounds is None or bounds[0] is None or any(_calls(g, f) != [] for g in guards):
        return None
    lo, hi = int(bounds[0]), None if bounds[2] is None else int(bounds[2])
    one = Num(Fraction(1), NAT)
    for lhs, e in (body.args, body.args[::-1]):
        if not (isinstance(lhs, App) and lhs.op == "call" and lhs.args[0] == Var(f, lhs.args[0].ty)):
            continue
        index = lhs.args[1:]
        if index == (App("add", (Var(n, NAT), one), NAT),):
            shift, prev = 1, Var(n, NAT)
        elif index == (Var(n, NAT),) and lo >= 1:
            shift, prev = 0, App("sub", (Var(n, NAT), one), NAT)
        else:
            continue
        calls = _calls(e, f)
        if calls is not None and all(c.args[1:] == (prev,) for c in calls):
            return lo + shift, None if hi is None else hi + shift, n, shift, e
    return None


def _recurrence(
    premises: list[Term], concl: Term, variables: dict[str, Ty], declared: frozenset[str], system: str
) -> tuple[list[Term], Term, dict[str, Ty]] | None:
    """A sequence given by a recurrence and used elsewhere only at literal indices it reaches, in terms of its
    first value: with `∀n. f (n + 1) = e n (f n)`, `f 1 = 3 ⊢ P (f 5)` becomes `v₁ = 3 ⊢ P v₅` where v₀ is a new
    variable and vₘ = e (m - 1) vₘ₋₁. The recurrence holds for some f whatever v₀ and the other variables are
    (f m = vₘ where it reaches, anything elsewhere: it defines each f m once, from f (m - 1)), and for each f it
    holds for, f m = vₘ with v₀ = f m₀₋₁; so `∀f. rec f ⟶ Φ (f j)` iff `∀v₀. Φ vⱼ`. Only for a declared,
    ℕ-indexed f (an undeclared name may be a library constant). None when there is no such sequence."""
    for f, fty in variables.items():
        if f not in declared or not (isinstance(fty, ir.Fun) and fty.args == (NAT,)):
            continue
        steps = [(k, found) for k, p in enumerate(premises) if (found := _recurrence_step(p, f)) is not None]
        if len(steps) != 1:
            continue
        step_at, (m0, m1, n, shift, e) = steps[0]
        rest = [p for k, p in enumerate(premises) if k != step_at]
        uses = [_calls(t, f) for t in [*rest, concl]]
        if any(u is None for u in uses):
            continue
        indices = [c.args[1] for u in uses for c in u]  # type: ignore[union-attr]
        if not all(isinstance(i, Num) and i.value.denominator == 1 and m0 - 1 <= i.value for i in indices):
            continue
        top = int(max((i.value for i in indices), default=m0 - 1))  # type: ignore[union-attr]
        if top - m0 >= MAX_RECURSION or m1 is not None and top > m1:
            continue
        taken = ir.free_vars(e) | set(variables)
        prev, first = ir.fresh_name("prev", taken), ir.fresh_name(f + "_" + str(m0 - 1), taken)
        e = _replace_calls(e, f, Var(prev, fty.ret))
        values: dict[int, Term] = {m0 - 1: Var(first, fty.ret)}
        base = next((k for k, p in enumerate(rest) if _first_value(p, f, m0 - 1) is not None), None)
        if base is not None:  # `f k = c`: v₀ is c (what the definition v₀ = c would give)
            values[m0 - 1] = _first_value(rest.pop(base), f, m0 - 1)  # type: ignore[assignment]
            first = ""
        for m in range(m0, top + 1):
            v = simplify(ir.substitute(e, {n: Num(Fraction(m - shift), NAT), prev: values[m - 1]}), system)
            if ir.size(v) > MAX_RECURSION_SIZE:
                break
            values[m] = v
        else:
            out = [_replace_calls(t, f, values) for t in [*rest, concl]]
            variables = {k: v for k, v in variables.items() if k != f}
            if first:
                variables[first] = fty.ret
            return out[:-1], out[-1], variables
    return None


def _point_definition(
    premises: list[Term], concl: Term, variables: dict[str, Ty], declared: frozenset[str]
) -> tuple[list[Term], Term, str] | None:
    """A function variable f given at one point by a premise `f a = e` (or `e = f a`) and used nowhere else but as
    that same `f a` (same arguments, none of their or e's variables bound there): `f a` is e, and the premise goes.
    For all f, `f a = e ⟶ Φ (f a)` is `Φ e` when f a = e and vacuous otherwise, and some f has f a = e (λ_. e:
    HOL's functions are total), so `∀f. f a = e ⟶ Φ (f a)` iff `Φ e`. Only for a declared f or a one-letter
    name (an undeclared longer name may be a library constant, whose value at a is fixed: then the premise may
    be false and the statement vacuous)."""
    for k, p in enumerate(premises):
        if not (isinstance(p, App) and p.op == "eq"):
            continue
        for lhs, e in (p.args, p.args[::-1]):
            if not (isinstance(lhs, App) and lhs.op == "call" and isinstance(lhs.args[0], Var)):
                continue
            f = lhs.args[0].name
            if not isinstance(variables.get(f), ir.Fun) or not (f in declared or len(f) == 1):
                continue
            args = lhs.args[1:]
            if f in ir.free_vars(e) or any(f in ir.free_vars(a) for a in args):
                continue
            if ir.type_of(e) is not None and ir.type_of(e) != ir.type_of(lhs):
                continue
            keep = ir.free_vars(e) | {n for a in args for n in ir.free_vars(a)}
            rest = [q for j, q in enumerate(premises) if j != k]
            if all(_only_at(t, f, args, keep, frozenset()) for t in [*rest, concl]):
                out = [_replace_calls(t, f, e) for t in [*rest, concl]]
                return out[:-1], out[-1], f
    return None


def _only_at(t: Term, f: str, args: tuple[Term, ...], keep: set[str], bound: frozenset[str]) -> bool:
    """Whether f occurs in t only applied to exactly args, where no binder binds a name of keep (nor f)."""
    if isinstance(t, App) and t.op == "call" and isinstance(t.args[0], Var) and t.args[0].name == f:
        return t.args[1:] == args and not (bound & (keep | {f}))
    if isinstance(t, Var):
        return t.name != f
    if isinstance(t, Bind):
        inner = bound | {n for n, _ in t.vars}
        return (t.dom is None or _only_at(t.dom, f, args, keep, bound)) and _only_at(t.body, f, args, keep, inner)
    return all(_only_at(c, f, args, keep, bound) for c in t.children())


def _first_value(p: Term, f: str, k: int) -> Term | None:
    """c when premise p is `f k = c` (or `c = f k`) with c free of f."""
    if isinstance(p, App) and p.op == "eq":
        for lhs, c in (p.args, p.args[::-1]):
            if isinstance(lhs, App) and lhs.op == "call" and lhs.args[1:] == (Num(Fraction(k), NAT),):
                if isinstance(lhs.args[0], Var) and lhs.args[0].name == f and _calls(c, f) == []:
                    return c
    return None


def _replace_calls(t: Term, f: str, value: Term | dict[int, Term]) -> Term:
    """t with each free application of f replaced by value (a dict: by the value at the call's literal index)."""
    if isinstance(t, App) and t.op == "call" and isinstance(t.args[0], Var) and t.args[0].name == f:
        if isinstance(value, dict):
            return value[int(t.args[1].value)]  # type: ignore[union-attr]
        return value
    if isinstance(t, Bind) and any(n == f for n, _ in t.vars):
        return t
    return ir.map_children(t, lambda c: _replace_calls(c, f, value))


def _conjuncts(t: Term, system: str) -> list[Term]:
    """A hypothesis as the hypotheses it amounts to: `∀x. P ∧ Q` is `∀x. P` and `∀x. Q`, and `A ⟶ P ∧ Q` is
    `A ⟶ P` and `A ⟶ Q`. In Isabelle/HOL every type is inhabited, so `∀x. P` is P where x does not occur in
    P (in Lean `∀ x : Fin 0, False` holds: the binder stays there)."""
    if isinstance(t, App) and t.op == "and":
        return [c for a in t.args for c in _conjuncts(a, system)]
    if isinstance(t, Bind) and t.kind == "forall" and t.dom is None:
        parts = _conjuncts(t.body, system)
        if len(parts) > 1 or system == "isabelle":
            out = []
            for part in parts:
                fv = ir.free_vars(part)
                vs = tuple(v for v in t.vars if v[0] in fv or system != "isabelle")
                out.append(Bind("forall", vs, part, None, t.ty) if vs else part)
            return out
    if isinstance(t, App) and t.op == "implies":
        parts = _conjuncts(t.args[1], system)
        if len(parts) > 1:
            return [App("implies", (t.args[0], part), t.ty) for part in parts]
    return ir.flatten_and(t)


def standardize(st: Statement) -> Statement:
    """The standard form described in the module docstring."""
    sys = st.system
    _Budget.left = MAX_LITERAL_WORK  # one budget for the statement: it is simplified many times over (`_spend`)
    st = _lift(st)
    variables = dict(st.variables)
    premises, concl = list(st.premises), st.conclusion
    groups = _div_inv_sorts(premises)
    pointwise = sys == "lean" and any(
        _pointwise_field(x.ty) for p in [concl, *premises] for x in ir.walk(p) if isinstance(x, App)
    )
    if groups or pointwise:
        premises = [_div_as_mul_inv(p, groups, pointwise) for p in premises]
        concl = _div_as_mul_inv(concl, groups, pointwise)
    # A variable a type depends on (`n` in `x : ZMod n`, `Fin n`) is never substituted: the types would keep
    # the name and lose what the premise said about it (`n = 6` gone, `ZMod n` read for every n).
    dependent = ir.sort_names(variables.values(), [concl, *premises]) & set(variables)
    definable = {n: t for n, t in variables.items() if n not in dependent}
    for _ in range(64):  # function definitions first: simplification splits `∀x. f x = (a, b)` into projections
        terms = (*premises, concl)
        found = ((k, _definition(p, definable, sys, terms)) for k, p in enumerate(premises) if isinstance(p, Bind))
        k, d = next(((k, d) for k, d in found if d is not None), (None, None))
        if d is None:
            break
        del premises[k]
        name, value = d
        premises = [ir.substitute(p, {name: value}) for p in premises]
        concl = ir.substitute(concl, {name: value})
        variables.pop(name, None)
        definable.pop(name, None)
    premises = [simplify(p, sys) for p in premises]
    concl = simplify(concl, sys)
    for _ in range(64):
        flat: list[Term] = []
        for p in premises:
            flat.extend(_conjuncts(p, sys))
        premises = [p for p in flat if not is_true(p)]
        hit = None
        terms = (*premises, concl)
        for k, p in enumerate(premises):
            d = _definition(p, definable, sys, terms)
            if d is not None:
                hit = (k, d)
                break
        if hit is None:
            cases = _cases_definition(premises, definable)
            if cases is None:
                found = None
                if sys == "isabelle":  # (not measured on Lean statements yet)
                    found = _recurrence(premises, concl, variables, st.declared, sys)
                    point = None if found is not None else _point_definition(premises, concl, definable, st.declared)
                    if point is not None:
                        rest, concl, name = point
                        premises = [simplify(p, sys) for p in rest]
                        concl = simplify(concl, sys)
                        variables.pop(name, None)
                        definable.pop(name, None)
                        continue
                if found is None:
                    break
                premises, concl, variables = found
                premises = [simplify(p, sys) for p in premises]
                concl = simplify(concl, sys)
                continue
            name, value, used, added = cases
            premises = [p for k, p in enumerate(premises) if k not in used] + added
            premises = [simplify(ir.substitute(p, {name: value}), sys) for p in premises]
            concl = simplify(ir.substitute(concl, {name: value}), sys)
            continue
        k, (name, value) = hit
        del premises[k]
        premises = [simplify(ir.substitute(p, {name: value}), sys) for p in premises]
        concl = simplify(ir.substitute(concl, {name: value}), sys)
        variables.pop(name, None)
        definable.pop(name, None)
    concl = _orient(concl)
    used: set[str] = set(ir.free_vars(concl))
    for p in premises:
        used |= ir.free_vars(p)
    # `n` in `(x : Fin n)` stays: a type depends on it
    used |= ir.sort_names([variables[n] for n in used if n in variables], [concl, *premises]) & set(variables)
    # A Lean variable of a type that may be empty says the type has an element: `(X : Type) (x : X) : ¬ ∀ y : X,
    # False` holds, `(X : Type) : ¬ ∀ y : X, False` does not (X may be `Empty`). That stays a premise `∃ _ : T,
    # True`, also when the variable is unused and dropped below.
    inhabited = {ty for ty in variables.values() if ir.may_be_empty(ty, sys)}
    for ty in sorted(inhabited, key=str):
        if (fact := ir.inhabited(ty)) not in premises:
            premises.append(fact)
    variables = {n: t for n, t in variables.items() if n in used}
    return replace(st, variables=variables, premises=premises, conclusion=concl)


def _orient(t: Term) -> Term:
    if isinstance(t, App) and t.op == "eq" and isinstance(t.args[0], Num) and not isinstance(t.args[1], Num):
        return App("eq", (t.args[1], t.args[0]), t.ty)
    if isinstance(t, App) and t.op == "and":
        return App("and", tuple(_orient(a) for a in t.args), t.ty)
    return t


def answer(st: Statement) -> Fraction | None:
    """α when the conclusion is `f(x) = α` with α a literal (the standardized numeric answer)."""
    c = st.conclusion
    if isinstance(c, App) and c.op == "eq" and isinstance(c.args[1], Num):
        return c.args[1].value
    return None
