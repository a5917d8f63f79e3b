"""Stored counter-models are tried before the solver (`smt.check_valid`), and evaluating a formula at a model whose
values are irrational algebraic numbers is exact algebraic arithmetic: on MATH problem 956 such evaluations took
4.3 s of the problem's 6 s and refuted nothing. `smt.CounterModels` stops trying a problem's algebraic models after
`ALGEBRAIC_MISSES` such evaluations in a row refuted nothing; rational models are always tried, a refutation resets
the count, and the count (not a clock) decides, so which models are tried does not depend on the machine."""

import z3

from atf.symeq import smt
from atf.symeq.equivalence import fresh_z3_context


def model(*constraints):
    s = z3.Solver()
    s.add(*constraints)
    assert s.check() == z3.sat
    return s.model()


def test_algebraic_models_are_rationed_by_count():
    fresh_z3_context()
    x = z3.Real("x")
    tr = smt.Translator("isabelle")
    cube_root = model(x * x * x == 2)  # x = 2^(1/3), an algebraic value
    one = model(x == 1)
    models = smt.CounterModels()
    models.extend([one, cube_root])  # (newest last: the algebraic one is tried first)
    assert models.algebraic(cube_root) and not models.algebraic(one)
    calls = []
    real_eval = z3.ModelRef.eval
    try:
        z3.ModelRef.eval = lambda self, *a, **k: calls.append(self) or real_eval(self, *a, **k)
        valid = x * x >= 0  # refuted by no model, and the solver adds none
        for _ in range(smt.CounterModels.ALGEBRAIC_MISSES):
            assert smt.check_valid(tr, valid, 1000, [], models).status == "valid"
        assert models.misses == smt.CounterModels.ALGEBRAIC_MISSES
        tried = len(calls)
        calls.clear()
        assert smt.check_valid(tr, valid, 1000, [], models).status == "valid"
        # past the count, only the rational model is evaluated
        assert [m is one for m in calls] == [True] and tried == 2 * smt.CounterModels.ALGEBRAIC_MISSES
    finally:
        z3.ModelRef.eval = real_eval


def test_a_refutation_resets_the_count():
    fresh_z3_context()
    x = z3.Real("x")
    tr = smt.Translator("isabelle")
    cube_root = model(x * x * x == 2)
    models = smt.CounterModels()
    models.append(cube_root)
    models.misses = smt.CounterModels.ALGEBRAIC_MISSES - 1
    # x * x * x ≠ 2 is refuted by the stored model itself
    v = smt.check_valid(tr, x * x * x != 2, 1000, [], models)
    assert v.status == "invalid" and models.misses == 0
    models.misses = smt.CounterModels.ALGEBRAIC_MISSES - 1
    smt.check_valid(tr, x * x >= 0, 1000, [], models)  # not refuted by it: the count reaches the limit
    assert models.misses == smt.CounterModels.ALGEBRAIC_MISSES and not models.worth(cube_root)
