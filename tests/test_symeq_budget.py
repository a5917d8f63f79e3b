"""How SymEq rations Z3 within one problem: earlier counter-models refute new queries without a search (but
never prove one), and a candidate Z3 cannot decide gets short timeouts on its later pairs."""

import importlib

import z3

from atf.symeq.config import SymEqConfig
from atf.symeq.equivalence import PairCache, SymEq, parse
from atf.symeq.ir import INT
from atf.symeq.smt import Translator, check_valid


def _int_var(tr: Translator, name: str):
    return tr.free_var(name, INT)


def test_an_earlier_counter_model_refutes_a_new_query_without_the_solver(monkeypatch):
    tr = Translator("lean")
    x = _int_var(tr, "x")
    models: list = []
    first = check_valid(tr, x > 0, 1000, ["x"], models)
    assert first.status == "invalid" and len(models) == 1
    bad = int(first.model["x"])  # a value with x ≤ 0

    def no_solver(*_a, **_k):
        raise AssertionError("the solver was asked although a stored model refutes the query")

    monkeypatch.setattr(z3, "Solver", no_solver)
    again = check_valid(tr, x > bad, 1000, ["x"], models)  # false at x = bad too
    assert again.status == "invalid" and again.model == {"x": str(bad)}
    assert len(models) == 1


def test_stored_models_never_make_a_valid_query_invalid():
    tr = Translator("lean")
    x, y = _int_var(tr, "x"), _int_var(tr, "y")
    models: list = []
    for f in (x > 0, y < x, x * y > 3, x == y):  # counter-models at many points
        check_valid(tr, f, 1000, [], models)
    assert len(models) >= 2  # (some refuted by an earlier one)
    assert check_valid(tr, x * x >= 0, 1000, [], models).status == "valid"
    assert check_valid(tr, z3.Implies(x > y, x - y > 0), 1000, [], models).status == "valid"


def test_a_candidate_with_undecided_queries_gets_the_short_timeout():
    cache = PairCache(solver_budget_s=10.0)
    assert cache.timeout_ms(300, (0, 1)) == 300
    for _ in range(cache.HARD_AFTER):
        cache.undecided_query((1, 2))
    assert cache.timeout_ms(300, (0, 1)) == 30  # 1 is hard
    assert cache.timeout_ms(300, (0, 3)) == 300  # the others keep the full timeout
    cache.spent(10.0)
    assert cache.timeout_ms(300, (0, 3)) == 30  # the problem's budget is spent


def test_a_candidate_whose_premises_z3_cannot_decide_is_hard_at_once():
    # x^3 + y^3 = z^3 with positive integers has no solution (Fermat, n = 3): Z3 cannot show it quickly
    hard = "theorem t (x y z : ℕ) (h₀ : 0 < x ∧ 0 < y ∧ 0 < z) (h₁ : x^3 + y^3 = z^3) : x = y := by sorry"
    easy = "theorem t (x : ℕ) (h₀ : 0 < x) : x = x + 0 := by sorry"
    symeq = SymEq("lean", timeout_ms=100)
    cache = PairCache()
    assert not symeq.is_vacuous(parse(hard, "lean"), cache, 0)
    assert not symeq.is_vacuous(parse(easy, "lean"), cache, 1)
    assert cache.timeout_ms(100, (0, 2)) == 10
    assert cache.timeout_ms(100, (1, 2)) == 100


def test_identical_classes_with_and_without_stored_models(monkeypatch):
    cands = [
        "theorem t (x y : ℝ) (h : x + y = 10) (h' : x - y = 2) : x = 6 := by sorry",
        "theorem t (a b : ℝ) (h : a - b = 2) (h' : a + b = 10) : a = 6 := by sorry",
        "theorem t (x y : ℝ) (h : x + y = 10) (h' : x - y = 2) : x = 7 := by sorry",
        "theorem t (x y : ℝ) (h : x + y = 10) (h' : x - y = 4) : x = 7 := by sorry",
        "theorem t (x y : ℝ) (h : y + x = 10) (h' : x = y + 2) : x = 6 := by sorry",
        "theorem t (x y : ℝ) (h : x + y = 10) : x = 6 := by sorry",
    ]
    with_models = SymEq("lean", timeout_ms=2000).cluster(cands)
    monkeypatch.setattr(PairCache, "KEEP_MODELS", 0)
    without = SymEq("lean", timeout_ms=2000).cluster(cands)
    assert with_models.classes == without.classes == [[0, 1, 4], [2], [3], [5]]


def _slow_proofs(monkeypatch, full_ms: int):
    """Z3 stand-in for one slow kind of proof: a valid query needs the full timeout (under it: unknown)."""
    from atf.symeq.smt import Verdict

    eq = importlib.import_module("atf.symeq.equivalence")  # the package exports a function of that name

    asked = []
    real = eq.check_valid

    def check(tr, formula, timeout_ms, show_vars, models=None, rlimit_per_ms=None, wall_factor=None, own_context=False):
        v = real(tr, formula, 5000, show_vars, models)
        asked.append(timeout_ms)
        return Verdict("unknown", reason="timeout") if v.status == "valid" and timeout_ms < full_ms else v

    monkeypatch.setattr(eq, "check_valid", check)
    return asked


def test_a_pair_the_quick_pass_leaves_open_is_asked_again_at_the_full_timeout(monkeypatch):
    asked = _slow_proofs(monkeypatch, 300)
    cands = [
        "theorem t (x y : ℝ) (h : x + y = 10) (h' : x - y = 2) : x = 6 := by sorry",
        "theorem t (a b : ℝ) (h : a - b = 2) (h' : b + a = 10) : 2 * a = 12 := by sorry",
    ]
    res = SymEq("lean", timeout_ms=300).cluster(cands)
    assert res.classes == [[0, 1]]
    assert 30 in asked and 300 in asked


def test_pairs_joined_in_the_quick_pass_are_not_asked_again(monkeypatch):
    asked = _slow_proofs(monkeypatch, 300)
    # 0 and 1 need a slow proof, 0 ≡ 2 and 1 ≡ 2 are quick (same standard form up to names): the slow one
    # is implied by transitivity before the second pass
    cands = [
        "theorem t (x y : ℝ) (h : x + y = 10) (h' : x - y = 2) : x = 6 := by sorry",
        "theorem t (a b : ℝ) (h : a - b = 2) (h' : b + a = 10) : a = 6 := by sorry",
        "theorem t (u v : ℝ) (h : u + v = 10) (h' : u - v = 2) : u = 6 := by sorry",
    ]
    res = SymEq("lean", timeout_ms=300).cluster(cands)
    assert res.classes == [[0, 1, 2]]
    assert 300 not in asked


def test_the_second_pass_stops_when_the_solver_budget_is_spent(monkeypatch):
    asked = _slow_proofs(monkeypatch, 300)
    cands = [
        "theorem t (x y : ℝ) (h : x + y = 10) (h' : x - y = 2) : x = 6 := by sorry",
        "theorem t (a b : ℝ) (h : a - b = 2) (h' : b + a = 10) : 2 * a = 12 := by sorry",
        "theorem t (x y : ℝ) (h : x + y = 12) (h' : x - y = 2) : x = 7 := by sorry",
        "theorem t (a b : ℝ) (h : a - b = 2) (h' : b + a = 12) : 2 * a = 14 := by sorry",
    ]
    rich = SymEq("lean", timeout_ms=300, config=SymEqConfig(solver_budget_s=60)).cluster(cands)
    assert rich.classes == [[0, 1], [2, 3]]
    full_queries = asked.count(300)
    asked.clear()
    poor = SymEq("lean", timeout_ms=300, config=SymEqConfig(solver_budget_s=1e-9)).cluster(cands)
    assert asked.count(300) == 1 < full_queries  # the first query at the full timeout spends it
    assert poor.classes == [[0, 1], [2], [3]]


def test_a_vacuity_the_quick_check_leaves_open_is_decided_before_a_merge(monkeypatch):
    asked = _slow_proofs(monkeypatch, 150)  # contradictions need the full vacuity timeout to be found
    cands = [
        "theorem t (x : ℝ) (h : x > 1) (h' : x < 0) : x = 5 := by sorry",
        "theorem t (y : ℝ) (h : y > 1) (h' : y < 0) : y = 5 := by sorry",  # the same up to names
        "theorem t (y : ℝ) (h : y < 0) (h' : y > 2) : y = 5 := by sorry",  # premises as contradictory
        "theorem t (x : ℝ) (h : x > 1) : x = 5 := by sorry",
    ]
    res = SymEq("lean", timeout_ms=300).cluster(cands)
    assert 30 in asked and 150 in asked
    assert res.classes == [[0], [1], [2], [3]]
    assert res.vacuous[:2] == [True, True] and not res.vacuous[3]  # (2 never came near a merge: left open)


def test_identical_candidates_whose_vacuity_is_open_report_a_truth_value(monkeypatch):
    """Identical candidates join at once, with their vacuity left open by the quick check: every flag of the result
    is a bool (an open one was passed on as None, and the evaluation harness summed the flags)."""
    _slow_proofs(monkeypatch, 150)
    same = "theorem t (x : ℝ) (h : x > 1) (h' : x < 0) : x = 5 := by sorry"
    res = SymEq("lean", timeout_ms=300).cluster([same, same, "theorem t (x : ℝ) (h : x > 1) : x = 5 := by sorry"])
    assert all(isinstance(v, bool) for v in res.vacuous)
    assert [0, 1] in res.classes


def test_the_full_vacuity_check_is_rationed_by_the_solver_budget(monkeypatch):
    eq_module = importlib.import_module("atf.symeq.equivalence")
    st = parse("theorem t (x : ℕ) (h₀ : 0 < x) (h₁ : x < 5) : x = x + 0 := by sorry", "lean")
    symeq = SymEq("lean", timeout_ms=100)
    spent = PairCache(solver_budget_s=0.0)
    calls = []
    real = eq_module.check_valid
    monkeypatch.setattr(eq_module, "check_valid", lambda *a, **k: calls.append(a) or real(*a, **k))
    assert symeq.is_vacuous(st, spent, 0) is False and not calls  # the budget is spent: not asked
    fresh = PairCache(solver_budget_s=10.0)
    assert symeq.is_vacuous(st, fresh, 0) is False and len(calls) == 1
    assert fresh.solver_left_s < 10.0  # the check's time came out of the budget


def test_pairs_the_quick_pass_leaves_open_are_decided_again_and_flagged(monkeypatch):
    eq_module = importlib.import_module("atf.symeq.equivalence")
    real = eq_module.check_valid
    full_ms = 500

    def slow_z3(tr, formula, timeout_ms, *rest, **kw):  # Z3 decides nothing at a pair's quick timeout (a tenth)
        if timeout_ms <= full_ms // 10:
            return eq_module.Verdict("unknown", reason="timeout")
        return real(tr, formula, timeout_ms, *rest, **kw)

    monkeypatch.setattr(eq_module, "check_valid", slow_z3)
    cands = [
        "theorem t (x : ℝ) (h : 2 * x = 6) : x = 3 := by sorry",
        "theorem t (x : ℝ) (h : x + x = 6) : x = 3 := by sorry",
        "theorem t (x : ℝ) (h : x + x = 6) : x = 3 := by sorry",  # the same text: joined without Z3
    ]
    res = SymEq("lean", config=SymEqConfig(timeout_ms=full_ms, solver_budget_s=10.0)).cluster(cands)
    assert res.classes == [[0, 1, 2]]
    by_pair = {(p.i, p.j): p for p in res.pairs}
    assert by_pair[(0, 1)].second_pass and by_pair[(0, 1)].equivalent
    assert not by_pair[(1, 2)].second_pass


def test_candidates_with_alpha_equal_premises_share_one_vacuity_check(monkeypatch):
    calls = []
    real = SymEq.is_vacuous
    monkeypatch.setattr(SymEq, "is_vacuous", lambda self, st, *a, **k: calls.append(st) or real(self, st, *a, **k))
    cands = [
        "theorem t (x : ℝ) (h₀ : 1 < x) (h₁ : x < 0) : x = 3 := by sorry",
        "theorem t (x : ℝ) (h₁ : x < 0) (h : 1 < x) : x = 4 := by sorry",  # the same premises, reordered
        "theorem t (x : ℝ) (h₀ : 1 < x) : x = 3 := by sorry",
    ]
    res = SymEq("lean").cluster(cands)
    assert res.vacuous == [True, True, False]
    assert len(calls) == 2  # one check for the first two, one for the third
    assert res.classes == [[0], [1], [2]]  # vacuous candidates join no class
