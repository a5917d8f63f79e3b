"""A problem's stored counter-models whose values are irrational algebraic numbers are evaluated once per point
(`smt.StoredModel`): evaluating a query at such a model is exact algebraic arithmetic (on MATH problem 956, 933
evaluations took 3.7 s of its 4.3 s), and the stored models mostly agreed on every symbol of the query. A model
whose values on the query's symbols equal those of one already tried on the query gives the same value; one that
differs on any of them, or on the universe of an uninterpreted sort, is still evaluated."""

import pytest
import z3

from atf.symeq import smt
from atf.symeq.equivalence import fresh_z3_context


@pytest.fixture
def evaluations(monkeypatch):
    """The models each `ModelRef.eval` call was made on, in order."""
    seen: list[z3.ModelRef] = []
    real_eval = z3.ModelRef.eval

    def counting(self, *a, **k):
        seen.append(self)
        return real_eval(self, *a, **k)

    monkeypatch.setattr(z3.ModelRef, "eval", counting)
    return seen


def model_of(*constraints) -> z3.ModelRef:
    s = z3.Solver()
    s.add(*constraints)
    assert s.check() == z3.sat
    return s.model()


def test_an_algebraic_model_at_a_point_already_tried_is_not_evaluated_again(evaluations):
    fresh_z3_context()
    x, y = z3.Reals("x y")
    m1, m2 = model_of(x * x * x == 2, y == 1), model_of(x * x * x == 2, y == 2)  # x = ∛2 in both; y not asked
    models = [smt.StoredModel(m1), smt.StoredModel(m2)]
    assert models[0].algebraic and models[1].algebraic
    v = smt.check_valid(smt.Translator("isabelle"), x > 1, 1000.0, ["x"], models)
    assert v.status == "invalid"  # (at some x ≤ 1: the solver's, as neither stored model refutes x > 1)
    assert evaluations.count(m2) == 1 and evaluations.count(m1) == 0  # the newest first; m1 is the same point


def test_a_model_that_differs_on_a_symbol_of_the_query_is_evaluated_and_refutes(evaluations):
    fresh_z3_context()
    x, y = z3.Reals("x y")
    refuting, other = model_of(x * x * x == 2, y == -1), model_of(x * x * x == 2, y == 2)
    models = [smt.StoredModel(refuting), smt.StoredModel(other)]
    v = smt.check_valid(smt.Translator("isabelle"), z3.Or(x < 1, y > 0), 1000.0, [], models)
    assert v.status == "invalid" and v.work_ms == 0.0  # refuted by a stored model, not by the solver
    assert evaluations[:2] == [other, refuting]  # the newest first; y differs, so the older one is evaluated too


def test_models_that_differ_only_in_a_function_the_query_applies_are_both_evaluated(evaluations):
    fresh_z3_context()
    x = z3.Real("x")
    f = z3.Function("f", z3.RealSort(), z3.RealSort())
    old = model_of(x * x == 2, x > 0, z3.ForAll([x], f(x) == 0))
    new = model_of(x * x == 2, x > 0, z3.ForAll([x], f(x) == 1))
    models = [smt.StoredModel(old), smt.StoredModel(new)]
    v = smt.check_valid(smt.Translator("isabelle"), f(x) > 0, 1000.0, ["x"], models)
    assert v.status == "invalid" and v.work_ms == 0.0  # f = 0 in the older model refutes f(x) > 0
    assert evaluations.count(new) >= 1 and evaluations.count(old) >= 1


def test_the_universe_of_an_uninterpreted_sort_is_part_of_the_point(evaluations):
    fresh_z3_context()
    srt = z3.DeclareSort("S")
    a, b = z3.Consts("a b", srt)
    x = z3.Real("x")
    one = model_of(x * x == 3, a == b)  # one element
    two = model_of(x * x == 3, a != b)  # two elements
    models = [smt.StoredModel(two), smt.StoredModel(one)]
    u, w = z3.Consts("u w", srt)
    everything_equal = z3.ForAll([u, w], u == w)  # mentions no constant of S, only its universe
    v = smt.check_valid(smt.Translator("isabelle"), z3.And(everything_equal, x > 0), 1000.0, [], models)
    assert v.status == "invalid" and evaluations.count(one) >= 1 and evaluations.count(two) >= 1


def test_rational_models_are_each_evaluated(evaluations):
    fresh_z3_context()
    x, y = z3.Ints("x y")
    models = [smt.StoredModel(model_of(x == 1, y == 1)), smt.StoredModel(model_of(x == 1, y == 2))]
    assert not models[0].algebraic and not models[1].algebraic
    smt.check_valid(smt.Translator("isabelle"), x > 0, 1000.0, [], models)
    assert evaluations == [models[1].model, models[0].model]  # (a rational model costs microseconds: no point compared)


def test_the_model_text_is_split_into_definitions_by_symbol():
    text = (
        ";; universe for S:\n;;   S!val!0\n(declare-fun S!val!0 () S)\n"
        ";; cardinality constraint:\n(forall ((x S)) (= x S!val!0))\n"
        "(define-fun |uf:exp_ln_negative:(real)| () Real\n  (root-obj (+ (^ x 3) (- 5)) 1))\n"
        "(define-fun x () Real (- 1.0))\n(define-fun |a (b)| () Int 0)\n"
    )
    forms, rest = smt._model_forms(text)
    assert [n for n, _ in forms] == ["S!val!0", "uf:exp_ln_negative:(real)", "x", "a (b)"]
    assert forms[1][1].endswith("1))") and "universe for S" in rest and "S!val!0" in rest
    assert "(forall ((x S)) (= x S!val!0))" in rest  # a form that defines no symbol stays in the point


def test_the_symbols_of_a_problems_recurring_propositions_are_collected_once(monkeypatch):
    """The query's symbols are what the points compare; a problem's queries share their propositions (premises,
    conclusions), whose symbols `smt.CounterModels` keeps."""
    fresh_z3_context()
    x, y, z = z3.Reals("x y z")
    models = smt.CounterModels([smt.StoredModel(model_of(x * x == 2, x > 0, y == 1, z == 1))] * 2)
    walked = []
    real = smt._atom_symbol_names
    monkeypatch.setattr(smt, "_atom_symbol_names", lambda e: walked.append(e.sexpr()) or real(e))
    premise, conclusion = x * y > 0, z > 1
    tr = smt.Translator("isabelle")
    smt.check_valid(tr, z3.Implies(premise, conclusion), 1000.0, [], models)
    first = len(walked)
    smt.check_valid(tr, z3.Implies(premise, z3.Not(conclusion)), 1000.0, [], models)
    assert first == 2 and walked[first:] == []  # x * y > 0 and z > 1, each once
