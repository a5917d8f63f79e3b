"""Sums and products over integer ranges and intervals with symbolic bounds, for the Z3 translation.

Every domain `Finset.range n`, `Finset.Icc a b`, `Ico`, `Ioc`, `Ioo` of ℕ or ℤ is read as `lo + j` for
`j ∈ range len` (`Icc a b`: lo = a, len = b + 1 - a, truncated at 0), so `∑ i in Icc 1 n, f i` and
`∑ i in range n, f (i + 1)` become the same function of `len`: an uninterpreted function named by the
summand as Z3 simplifies it (the index and enclosing bound variables replaced by canonical constants).
Two facts about it are true for every summand and are added at the point of use:
    len = 0  →  S(len) = 0 (1 for a product)
    len ≥ 1  →  S(len) = S(len - 1) + f(len - 1)   (· for a product)
A sum whose summand is a polynomial in the index of degree d ≤ 3 (coefficients free of the index: outer variables,
uninterpreted terms) also gets its closed form, the polynomial of degree d + 1 in len through S(0), ..., S(d + 1)
(Lagrange, times (d + 1)! so that it stays in integers): `∑ i ∈ Finset.Icc 1 n, i` is n (n + 1) / 2, and
`∑ i ∈ Finset.range n, (2 * i + 1)` is n². ℕ subtraction is an `ite` in Z3: one whose condition, on the index alone,
holds at every index (`2 * i - 1` over `Finset.Icc 1 n`) is its branch; one whose condition is free of the index is
one branch or the other at each value of the outer variables, so the summand is still a polynomial there. Division,
`mod`, an uninterpreted function of the index, a truncation that happens on the domain: no closed form.
Literal bounds never get here: `normalize` unrolls them exactly.
"""

from __future__ import annotations

import hashlib
import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import z3

from atf.symeq import ir
from atf.symeq.ir import INT, NAT, RAT, REAL, App, Bind, Num, Term, Ty, Var

if TYPE_CHECKING:
    from atf.symeq.smt import Translator

INDEX = "·j"


def _n(v: int, ty: Ty) -> Num:
    return Num(Fraction(v), ty)


def interval(dom: Term) -> tuple[Term, Term, Ty] | None:
    """(lo, len, index type) of an integer range or interval domain; len is a natural number."""
    ety = ir.type_of(dom).elem if isinstance(ir.type_of(dom), ir.SetTy) else None
    if not isinstance(dom, App):
        return None
    if dom.op == "range":
        return _n(0, NAT), dom.args[0], NAT
    if dom.op not in ("icc", "ico", "ioc", "ioo") or ety not in (NAT, INT):
        return None
    a, b = dom.args
    lo = a if dom.op in ("icc", "ico") else App("add", (a, _n(1, ety)), ety)
    hi = App("add", (b, _n(1, ety)), ety) if dom.op in ("icc", "ioc") else b  # exclusive upper bound
    diff = App("sub", (hi, lo), ety)
    return lo, (diff if ety == NAT else App("tonat", (diff,), NAT)), ety


def translate(tr: Translator, t: Bind, env: dict[str, Any]) -> Any:
    """The Z3 term of a sum or product over an integer interval (raises smt.Untranslatable otherwise)."""
    from atf.symeq.smt import Untranslatable, _canonical

    iv = interval(t.dom) if t.dom is not None and len(t.vars) == 1 else None
    if iv is None and tr.system == "isabelle" and t.ty in (NAT, INT, RAT, REAL) and len(t.vars) == 1:
        dense = dense_interval(tr, t, env)
        if dense is not None:
            return dense
    if iv is None or t.ty not in (NAT, INT, RAT, REAL):
        raise Untranslatable(f"{t.kind} over this domain")
    lo, length, ety = iv
    ((name, _),) = t.vars
    j = Var(INDEX, NAT)
    idx: Term = j if ety == NAT else App("cast", (j,), INT)
    if not (isinstance(lo, Num) and lo.value == 0):
        idx = App("add", (idx, lo), ety)
    body = ir.substitute(t.body, {name: idx})
    occurring = ir.free_vars(body)
    outer = list(
        dict.fromkeys(x.name for x in ir.walk(body) if isinstance(x, Var) and x.name in env and x.name in occurring)
    )  # first-occurrence order: alike for alpha-variants
    outer = [n for n in outer if not isinstance(env[n][1], ir.Fun) and not isinstance(env[n][0], tuple)]
    # the key: the summand with the index and the enclosing bound variables as canonical constants
    canon = {INDEX: (z3.Int("bigop!j"), NAT)}
    for k, n in enumerate(outer):
        canon[n] = (z3.Const(f"bigop!e{k}", tr.sort(env[n][1])), env[n][1])
    tr._sides.append([])
    try:
        shape = z3.simplify(
            tr.term(body, {**env, **canon}), som=True, arith_lhs=True, expand_power=True, sort_sums=True
        )
    finally:
        tr._sides.pop()
    # as a sum of monomials, `+`/`*`/`and`/`or`/`=` arguments sorted (`smt._canonical`): `s * (s + 1)` and
    # `s * s + s * 1` are one summand
    key = f"{t.kind}:" + hashlib.sha1(_canonical(shape).encode("utf-8")).hexdigest()[:12]
    arg_tys = (NAT, *(env[n][1] for n in outer))
    outer_vals = [env[n][0] for n in outer]
    n_z = tr.term(length, env)
    total = tr.uf(key, arg_tys, t.ty, [n_z, *outer_vals])
    prev = tr.uf(key, arg_tys, t.ty, [n_z - 1, *outer_vals])
    last = tr.term(ir.substitute(body, {INDEX: App("sub", (length, _n(1, NAT)), NAT)}), env)
    unit = z3.IntVal(0 if t.kind == "sum" else 1) if t.ty in (NAT, INT) else z3.RealVal(0 if t.kind == "sum" else 1)
    step = prev + last if t.kind == "sum" else prev * last
    tr.side(z3.Implies(n_z == 0, total == unit))
    tr.side(z3.Implies(n_z >= 1, total == step))
    degree = _degree(shape, canon[INDEX][0]) if t.kind == "sum" else None
    if degree is not None and degree <= MAX_DEGREE:
        tr.side(z3.Implies(n_z >= 0, _closed_form(tr, body, degree, env, n_z, total)))
    return total


MAX_DEGREE = 3


def _degree(e: z3.ExprRef, j: z3.ExprRef, memo: dict[int, int | None] | None = None) -> int | None:
    """The degree of e as a polynomial in j (+, -, *, numeral powers; any subterm free of j is a coefficient, of degree
    0), or None where j occurs under anything else (`div`, `mod`, an `ite` on it, an uninterpreted function). Once per
    node of the term's DAG: ℕ subtraction repeats its operands (`ite(a - b ≥ 0, a - b, 0)`), so `i - 1 - 1 - …` is a
    tree exponential in its depth."""
    memo = {} if memo is None else memo
    key = e.get_id()
    if key not in memo:
        memo[key] = _degree_of(e, j, memo)
    return memo[key]


def _degree_of(e: z3.ExprRef, j: z3.ExprRef, memo: dict[int, int | None]) -> int | None:
    if e.eq(j):
        return 1
    kids = e.children()
    if not kids:
        return 0
    kind = e.decl().kind() if z3.is_app(e) else None
    degrees = [_degree(k, j, memo) for k in kids]
    if kind in (z3.Z3_OP_ADD, z3.Z3_OP_SUB, z3.Z3_OP_UMINUS, z3.Z3_OP_TO_REAL):
        return None if None in degrees else max(degrees)
    if kind == z3.Z3_OP_MUL:
        return None if None in degrees else sum(degrees)
    if kind == z3.Z3_OP_DIV and degrees[1] == 0:  # a field's division by a coefficient
        return degrees[0]
    if kind == z3.Z3_OP_ITE and degrees[0] == 0:
        # a condition free of the index: at each value of the outer variables one branch, each a polynomial
        return None if None in degrees[1:] else max(degrees[1:])
    if kind == z3.Z3_OP_ITE and _has_only(kids[0], j, {}):
        # ℕ subtraction `2 * i - 1` over `Finset.Icc 1 n` is `ite(2 * j + 1 ≥ 0, 2 * j + 1, 0)` at j = i - 1 ≥ 0: a
        # condition on the index alone that holds (or fails) at every j ≥ 0 picks its branch
        branch = _constant_branch(kids[0], j)
        return None if branch is None else degrees[2 - branch]
    if kind == z3.Z3_OP_POWER and (z3.is_int_value(kids[1]) or z3.is_rational_value(kids[1])):
        k = Fraction(kids[1].as_long()) if z3.is_int_value(kids[1]) else kids[1].as_fraction()
        if degrees[0] == 0:
            return 0
        if degrees[0] is None or k.denominator != 1 or not 0 <= k <= MAX_DEGREE:
            return None
        return degrees[0] * int(k)
    return 0 if all(d == 0 for d in degrees) else None


def _has_only(e: z3.ExprRef, j: z3.ExprRef, memo: dict[int, bool]) -> bool:
    """e's only constant is j (numerals aside), once per node."""
    key = e.get_id()
    if key not in memo:
        if z3.is_const(e):
            memo[key] = e.eq(j) or z3.is_int_value(e) or z3.is_rational_value(e) or z3.is_true(e) or z3.is_false(e)
        else:
            memo[key] = all(_has_only(k, j, memo) for k in e.children())
    return memo[key]


def _constant_branch(cond: z3.ExprRef, j: z3.ExprRef) -> int | None:
    """1 where cond holds at every j ≥ 0, 0 where it fails at every one, else None (also where Z3 cannot tell within
    a small step budget)."""
    for branch, claim in ((1, cond), (0, z3.Not(cond))):
        solver = z3.Solver(ctx=cond.ctx)
        solver.set("rlimit", 20000)
        solver.add(j >= 0, z3.Not(claim))
        if solver.check() == z3.unsat:
            return branch
    return None


def _closed_form(tr: Translator, body: Term, degree: int, env: dict[str, Any], n_z: Any, total: Any):
    """`D! · S(len) = Σ_m S(m) · D!/(m! (D - m)!) · (-1)^(D - m) · Π_{r ≠ m} (len - r)` with D = degree + 1 and S(m) the
    sum of the first m summands, exact for a summand that is a polynomial of that degree in the index."""
    top = degree + 1
    sums, acc = {}, None  # S(1), ..., S(top): the summands at 0, ..., top - 1 (S(0) = 0 adds nothing)
    for m in range(top):
        term = tr.term(ir.substitute(body, {INDEX: _n(m, NAT)}), env)
        acc = term if acc is None else acc + term
        sums[m + 1] = acc
    rhs = None
    for m in range(1, top + 1):
        weight = math.comb(top, m) * (-1) ** (top - m)
        part = sums[m] * weight
        for r in range(top + 1):
            if r != m:
                part = part * (n_z - r)
        rhs = part if rhs is None else rhs + part
    return math.factorial(top) * total == rhs


def dense_interval(tr: Translator, t: Bind, env: dict[str, Any]) -> Any:
    """Isabelle's sum or product over a ray `{a..}`, `{a<..}` (of any type) or an interval of ℝ or ℚ, or None.
    Groups_Big.thy: both are `comm_monoid_set` operations, 0 (1 for a product) on an infinite set (`sum.infinite`,
    `prod.infinite`), so `(∑i=1..250. i) / 250 = 125.5` with `i :: real` is false. A ray is infinite; an interval of
    a dense order is infinite when its bounds are in order, `{a..a} = {a}`, and empty otherwise."""
    dom = t.dom
    ety = ir.type_of(dom).elem if isinstance(ir.type_of(dom), ir.SetTy) else None
    if not isinstance(dom, App) or ety not in (NAT, INT, RAT, REAL):
        return None
    unit = z3.IntVal(0 if t.kind == "sum" else 1) if t.ty in (NAT, INT) else z3.RealVal(0 if t.kind == "sum" else 1)
    if dom.op in ("ici", "ioi"):
        return unit
    if dom.op not in ("icc", "ico", "ioc", "ioo") or ety not in (RAT, REAL):
        return None
    if dom.op != "icc":
        return unit  # infinite or empty
    a, b = dom.args
    ((name, _),) = t.vars
    only = tr.term(ir.substitute(t.body, {name: a}), env)
    if t.ty in (RAT, REAL) and z3.is_int(only):
        only = z3.ToReal(only)
    return z3.If(tr.term(a, env) == tr.term(b, env), only, unit)
