"""`atf.symeq.z3raw`: the walks through Z3's C API give what the z3py walks they replace gave.

The walks feed binder keys (`smt._canonical`), the counter-named-constant check (`smt._fresh_constant`) and the
symbol names a counter-model's point is taken over (`smt._symbol_names`): a different answer would change verdicts.
So each raw walk is compared with its z3py walk on hand-made terms that reach every kind of node (numerals, numbered
and fresh symbols, bound variables, quantifiers and lambdas, uninterpreted sorts, arrays) and on the Z3 translations
of real candidates."""

from __future__ import annotations

import pytest
import z3

from atf.data.isabelle import load_math_dev
from atf.symeq import smt, z3raw
from atf.symeq.equivalence import parse


def _terms() -> list[z3.ExprRef]:
    x, y = z3.Ints("x y")
    r = z3.Real("r")
    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    s = z3.DeclareSort("S")
    g = z3.Function("g", s, s, z3.BoolSort())
    a = z3.Const("a", s)
    arr = z3.Array("arr", z3.IntSort(), z3.RealSort())
    fresh = z3.FreshConst(z3.IntSort(), "n")  # named `n!0`: what `Translator.fresh` names look like
    ctx = z3.main_ctx()
    numbered = z3.ArithRef(  # a symbol numbered 7, which z3py names `k!7`
        z3.Z3_mk_const(ctx.ref(), z3.Z3_mk_int_symbol(ctx.ref(), 7), z3.IntSort().ast), ctx
    )
    return [
        x + 2 * y * x - 3,
        z3.And(x > y, z3.Or(f(x) == y, y == f(x)), z3.Not(g(a, a))),
        z3.ForAll([x], z3.Exists([y], f(y) > x + fresh)),
        z3.ForAll([a], z3.Implies(g(a, a), z3.Exists([x], x * x == y + 1))),
        z3.Lambda([x], f(x) + 1) == z3.Lambda([y], f(y) + 1),
        z3.Select(z3.Store(arr, x, r), y) == r / 3 + z3.RealVal("1/7"),
        z3.Sqrt(r) * z3.Sqrt(r) == r,  # an algebraic root in the printed text
        numbered + fresh == x,
        z3.If(x - y >= 0, x - y, 0) == z3.ToInt(r),
        z3.BoolVal(True),
        z3.IntVal(5),
        z3.Distinct(x, y, f(x)),
    ]


def _translations(n: int = 60) -> list[z3.ExprRef]:
    """Z3 terms of candidates of MATH dev problems (none of the paper's 400): real statements, binders and all."""
    try:
        problems = load_math_dev()
    except (OSError, ValueError):
        return []
    out: list[z3.ExprRef] = []
    for p in problems:
        for text in p.statements[:3]:
            try:
                st = parse(text, "isabelle")
                tr = smt.Translator("isabelle")
                out.append(tr.prop(st.conclusion))
                out.extend(tr.prop(q) for q in st.premises)
                out.extend(tr.axioms)
            except Exception:  # noqa: BLE001 - a candidate that does not read or translate is skipped here
                continue
        if len(out) >= n:
            break
    return out


@pytest.fixture(scope="module")
def terms() -> list[z3.ExprRef]:
    return _terms() + _translations()


def test_the_c_entry_points_are_found():
    # (without them every walk falls back to z3py: correct, but the speed-up is gone)
    assert z3raw.AVAILABLE


def test_real_candidates_are_among_the_terms(terms):
    assert len(terms) > len(_terms()) + 40


def test_names_as_z3py_gives_them(terms):
    for t in terms:
        assert z3raw.uninterpreted_names(t) == z3raw._uninterpreted_names_z3py(t), t.sexpr()[:200]
    x = z3.Int("x")
    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    assert z3raw.uninterpreted_names(z3.ForAll([x], f(x) > z3.Int("c"))) == {"f", "c"}  # not the bound x
    assert {"k!7", "x"} <= z3raw.uninterpreted_names(_terms()[7])


def test_fresh_constants_as_z3py_finds_them(terms):
    for t in terms:
        assert z3raw.any_constant_named(t, smt._FRESH.search) == z3raw._any_constant_named_z3py(t, smt._FRESH.search)
    x = z3.Int("x")
    assert smt._fresh_constant(x + z3.FreshConst(z3.IntSort(), "x"))
    assert not smt._fresh_constant(z3.ForAll([x], x > z3.Int("y")))
    # a function symbol is no constant, whatever its name
    assert not smt._fresh_constant(z3.Function("h!3", z3.IntSort(), z3.IntSort())(x) > 0)


def test_canonical_text_as_z3py_writes_it(terms):
    for t in terms:
        assert z3raw.canonical(t, smt._AC_KINDS, smt._digest) == z3raw._canonical_z3py(t, smt._AC_KINDS, smt._digest), (
            t.sexpr()[:200]
        )
    x, y = z3.Ints("x y")
    assert smt._canonical(x + y * 2) == smt._canonical(2 * y + x)  # arguments of + and * sorted
    assert smt._canonical(x - y) != smt._canonical(y - x)
    assert smt._canonical(z3.ForAll([x], x > y)) == smt._canonical(z3.ForAll([z3.Int("z")], z3.Int("z") > y))


def test_statistic_is_the_solver_count():
    s = z3.Solver()
    x = z3.Int("x")
    s.add(x * x == 2 * x + 3)
    s.check()
    st = s.statistics()
    want = next(int(st.get_key_value(k)) for k in st.keys() if k == "rlimit count")
    assert z3raw.statistic(s, b"rlimit count") == want > 0
    assert z3raw.statistic(s, b"no such statistic") is None
