"""Read-only walks over Z3 terms through Z3's C API, without z3py's wrappers.

z3py wraps every node it hands out in an `AstRef` (a reference count taken and dropped, a context check after each
C call). The walks SymEq makes over its own translations (the names a query mentions, whether a binder's body
mentions a counter-named constant, a binder's canonical text) visited about a million nodes on the 50 MATH-400
problems around p90, and the wrappers cost more than the walks (`tests/bench/bench_rerank.py --profile`). Here a node
is the C pointer itself: a child stays alive while its parent does, and the caller holds the root. Nothing here
builds a term, so Z3's search, which depends on the terms its context built before, is unchanged.

Each function falls back to z3py where the C entry points are not where z3core keeps them (another z3 release)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import z3
from z3 import z3core


def _raw(wrapper: Callable) -> Callable | None:
    """The ctypes function behind a z3core wrapper (its `Elementaries` default argument), or None."""
    defaults = getattr(wrapper, "__defaults__", None) or ()
    f = getattr(defaults[-1], "f", None) if defaults else None
    return f if callable(f) else None


_KIND = _raw(z3core.Z3_get_ast_kind)
_ID = _raw(z3core.Z3_get_ast_id)
_NUM_ARGS = _raw(z3core.Z3_get_app_num_args)
_ARG = _raw(z3core.Z3_get_app_arg)
_DECL = _raw(z3core.Z3_get_app_decl)
_DECL_KIND = _raw(z3core.Z3_get_decl_kind)
_DECL_NAME = _raw(z3core.Z3_get_decl_name)
_SYMBOL_KIND = _raw(z3core.Z3_get_symbol_kind)
_SYMBOL_STRING = _raw(z3core.Z3_get_symbol_string)
_SYMBOL_INT = _raw(z3core.Z3_get_symbol_int)
_BODY = _raw(z3core.Z3_get_quantifier_body)
_INDEX = _raw(z3core.Z3_get_index_value)
_TO_STRING = _raw(z3core.Z3_ast_to_string)
_STATS = _raw(z3core.Z3_solver_get_statistics)
_STATS_INC, _STATS_DEC = _raw(z3core.Z3_stats_inc_ref), _raw(z3core.Z3_stats_dec_ref)
_STATS_SIZE, _STATS_KEY = _raw(z3core.Z3_stats_size), _raw(z3core.Z3_stats_get_key)
_STATS_IS_UINT = _raw(z3core.Z3_stats_is_uint)
_STATS_UINT, _STATS_DOUBLE = _raw(z3core.Z3_stats_get_uint_value), _raw(z3core.Z3_stats_get_double_value)
# every entry point above was found; where one is not, each function takes its z3py path
AVAILABLE = None not in (
    _KIND,
    _ID,
    _NUM_ARGS,
    _ARG,
    _DECL,
    _DECL_KIND,
    _DECL_NAME,
    _SYMBOL_KIND,
    _SYMBOL_STRING,
    _SYMBOL_INT,
    _BODY,
    _INDEX,
    _TO_STRING,
    _STATS,
    _STATS_INC,
    _STATS_DEC,
    _STATS_SIZE,
    _STATS_KEY,
    _STATS_IS_UINT,
    _STATS_UINT,
    _STATS_DOUBLE,
)

_APP, _NUMERAL, _QUANTIFIER = z3.Z3_APP_AST, z3.Z3_NUMERAL_AST, z3.Z3_QUANTIFIER_AST
_UNINTERPRETED = z3.Z3_OP_UNINTERPRETED


def _name(ctx: Any, decl: Any) -> str:
    """A declaration's name as z3py's `FuncDeclRef.name()` gives it (`k!7` for a numbered symbol)."""
    sym = _DECL_NAME(ctx, decl)
    if _SYMBOL_KIND(ctx, sym) == z3.Z3_INT_SYMBOL:
        return f"k!{_SYMBOL_INT(ctx, sym)}"
    return _SYMBOL_STRING(ctx, sym).decode("utf-8")


def _applications(e: z3.ExprRef) -> Iterator[tuple[Any, Any, int]]:
    """(context, node, number of arguments) for each application and numeral in e, once each, under quantifiers too."""
    ctx = e.ctx.ref()
    seen: set[int] = set()
    todo = [e.as_ast()]
    while todo:
        x = todo.pop()
        key = _ID(ctx, x)
        if key in seen:
            continue
        seen.add(key)
        kind = _KIND(ctx, x)
        if kind == _QUANTIFIER:
            todo.append(_BODY(ctx, x))
        elif kind == _APP or kind == _NUMERAL:
            n = _NUM_ARGS(ctx, x)
            yield ctx, x, n
            todo.extend(_ARG(ctx, x, k) for k in range(n))


def uninterpreted_names(e: z3.ExprRef) -> frozenset[str]:
    """The names of the uninterpreted constants and functions e mentions (under quantifiers too)."""
    if not AVAILABLE:
        return _uninterpreted_names_z3py(e)
    out: set[str] = set()
    for ctx, x, _ in _applications(e):
        decl = _DECL(ctx, x)
        if _DECL_KIND(ctx, decl) == _UNINTERPRETED:
            out.add(_name(ctx, decl))
    return frozenset(out)


def _applications_z3py(e: z3.ExprRef) -> Iterator[z3.ExprRef]:
    """`_applications` through z3py: each application and numeral in e, once each."""
    seen: set[int] = set()
    todo = [e]
    while todo:
        x = todo.pop()
        if x.get_id() in seen:
            continue
        seen.add(x.get_id())
        if z3.is_quantifier(x):
            todo.append(x.body())
        elif z3.is_app(x):
            yield x
            todo.extend(x.children())


def _uninterpreted_names_z3py(e: z3.ExprRef) -> frozenset[str]:
    return frozenset(x.decl().name() for x in _applications_z3py(e) if x.decl().kind() == _UNINTERPRETED)


def any_constant_named(e: z3.ExprRef, match: Callable[[str], Any]) -> bool:
    """Whether e mentions an uninterpreted constant (a symbol of no arguments) whose name `match`es."""
    if not AVAILABLE:
        return _any_constant_named_z3py(e, match)
    for ctx, x, n in _applications(e):
        if n == 0:
            decl = _DECL(ctx, x)
            if _DECL_KIND(ctx, decl) == _UNINTERPRETED and match(_name(ctx, decl)):
                return True
    return False


def _any_constant_named_z3py(e: z3.ExprRef, match: Callable[[str], Any]) -> bool:
    return any(
        x.num_args() == 0 and x.decl().kind() == _UNINTERPRETED and match(x.decl().name())
        for x in _applications_z3py(e)
    )


_VAR = z3.Z3_VAR_AST


def canonical(e: z3.ExprRef, ac_kinds: frozenset[int], digest: Callable[[str], str]) -> str:
    """e as text, the arguments of the operations in `ac_kinds` sorted and bound variables by de Bruijn index; each
    subterm's text passes through `digest` (which may shorten it). The text is z3py's: an application is
    `(name:kind args…)`, a leaf its `sexpr()`, a quantifier `(forall [sorts] body)` with its sorts as z3py prints
    them (`smt._canonical`)."""
    if not AVAILABLE:
        return _canonical_z3py(e, ac_kinds, digest)
    ctx_obj = e.ctx
    ctx = ctx_obj.ref()
    memo: dict[int, str] = {}

    def go(x: Any) -> str:
        key = _ID(ctx, x)
        if key in memo:
            return memo[key]
        kind = _KIND(ctx, x)
        if kind == _QUANTIFIER:
            q = z3.QuantifierRef(x, ctx_obj)  # (z3py's printer names the sorts; quantifiers are few)
            name = "forall" if q.is_forall() else "exists" if q.is_exists() else "lambda"
            sorts = ",".join(str(q.var_sort(i)) for i in range(q.num_vars()))
            out = f"({name} [{sorts}] {go(_BODY(ctx, x))})"
        elif kind == _VAR:
            out = f"#{_INDEX(ctx, x)}"
        elif (kind == _APP or kind == _NUMERAL) and (n := _NUM_ARGS(ctx, x)) > 0:
            kids = [go(_ARG(ctx, x, k)) for k in range(n)]
            decl = _DECL(ctx, x)
            op = _DECL_KIND(ctx, decl)
            if op in ac_kinds:
                kids.sort()
            out = f"({_name(ctx, decl)}:{op} {' '.join(kids)})"
        else:
            out = _TO_STRING(ctx, x).decode("utf-8")
        out = memo[key] = digest(out)
        return out

    return go(e.as_ast())


def _canonical_z3py(e: z3.ExprRef, ac_kinds: frozenset[int], digest: Callable[[str], str]) -> str:
    memo: dict[int, str] = {}

    def go(x: z3.ExprRef) -> str:
        key = x.get_id()
        if key in memo:
            return memo[key]
        if z3.is_quantifier(x):
            kind = "forall" if x.is_forall() else "exists" if x.is_exists() else "lambda"
            sorts = ",".join(str(x.var_sort(i)) for i in range(x.num_vars()))
            out = f"({kind} [{sorts}] {go(x.body())})"
        elif z3.is_var(x):
            out = f"#{z3.get_var_index(x)}"
        elif z3.is_app(x) and x.num_args() > 0:
            kids = [go(c) for c in x.children()]
            if x.decl().kind() in ac_kinds:
                kids.sort()
            out = f"({x.decl().name()}:{x.decl().kind()} {' '.join(kids)})"
        else:
            out = x.sexpr()
        out = memo[key] = digest(out)
        return out

    return go(e)


def statistic(s: z3.Solver, name: bytes) -> int | None:
    """One of a solver's statistics by its key (`b"rlimit count"`), or None where it has none: what
    `s.statistics()` gives, without building the whole table in Python."""
    if not AVAILABLE:
        st = s.statistics()
        key = name.decode()
        return next((int(st.get_key_value(k)) for k in st.keys() if k == key), None)
    ctx = s.ctx.ref()
    stats = _STATS(ctx, s.solver)
    _STATS_INC(ctx, stats)
    try:
        for i in range(_STATS_SIZE(ctx, stats)):
            if _STATS_KEY(ctx, stats, i) == name:
                uint = _STATS_IS_UINT(ctx, stats, i)
                return int(_STATS_UINT(ctx, stats, i) if uint else _STATS_DOUBLE(ctx, stats, i))
        return None
    finally:
        _STATS_DEC(ctx, stats)
