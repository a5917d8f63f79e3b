"""The Lean-tactic equivalence backend: goal construction, and its handling of REPL answers recorded
from the real leanprover-community/repl (no Lean needed)."""

import json

import pytest

from atf.symeq.equivalence import SymEq
from atf.symeq.lean_backend import LeanEquivalence, build_goal, split_parts, tactic_succeeded

A = "theorem a (x y : ℝ) (h₀ : x + y = 10) (h₁ : x - y = 2) : x * y = 24 := by sorry"
B = "theorem b (p q : ℝ) (h₁ : p - q = 2) (h₀ : q + p = 10) (extra : ℕ) : q * p = 24 := by sorry"


def recorded(data_dir, name):
    text = (data_dir / "lean-repl-transcripts" / name).read_text()
    return [json.loads(chunk) for chunk in text.split("\n\n") if chunk.strip()]


def test_split_parts():
    parts = split_parts("import Mathlib\nopen Real\n/-- doc -/\n" + A)
    assert parts.variables == [(["x", "y"], "ℝ")]
    assert parts.hypotheses == ["x + y = 10", "x - y = 2"]
    assert parts.conclusion == "x * y = 24"


def test_goal_mirrors_the_z3_check():
    goal = build_goal(A, B, {"p": "x", "q": "y"})
    assert goal.startswith("theorem atf_symeq_goal (x y : ℝ) (extra : ℕ) :")
    # premises equivalent, and conclusions equivalent under both, with B renamed into A's names
    assert "((x + y = 10) ∧ (x - y = 2)) ↔ ((x - y = 2) ∧ (y + x = 10))" in goal
    assert "(y * x = 24)" in goal and "p" not in goal.replace("atf_symeq_goal", "")
    assert goal.rstrip().endswith(":= by sorry")


def test_goal_renames_clashing_unmatched_variables():
    goal = build_goal(
        "theorem a (x : ℝ) (h : x > 0) : x = x := by sorry",
        "theorem b (x : ℕ) (h : x > 0) : x = x := by sorry",
        alignment={},
    )
    assert "(x' : ℕ)" in goal and "(x' > 0)" in goal


class RecordedRepl:
    """Answers with recorded REPL outputs, in order, and remembers the requests."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.requests = []

    def send(self, request, timeout_s):
        self.requests.append(request)
        return self.answers.pop(0)


def test_backend_with_recorded_answers(data_dir):
    proved = recorded(data_dir, "assumption_proof.expected.out")  # sorry state, then "Completed"
    failed = recorded(data_dir, "invalid_tactic.expected.out")  # sorry state, then an error
    assert tactic_succeeded(proved[1]) and not tactic_succeeded(failed[1])
    header = {"env": 0}
    repl = RecordedRepl([header, proved[0], failed[1], proved[1]])
    backend = LeanEquivalence(repl=repl, tactics=("exact my_fake_premise", "assumption", "never_reached"))
    v = backend.check(A, B, {"p": "x", "q": "y"})
    assert v.status == "equivalent" and v.tactic == "assumption"
    assert repl.requests[0]["cmd"].startswith("import Mathlib")
    assert repl.requests[1]["env"] == 0 and "atf_symeq_goal" in repl.requests[1]["cmd"]
    assert repl.requests[2] == {"tactic": "exact my_fake_premise", "proofState": 0}
    assert "Unknown identifier" in v.messages[0]


def test_backend_reports_goal_errors_and_unknown(data_dir):
    mismatch = recorded(data_dir, "app_type_mismatch.expected.out")[0]
    backend = LeanEquivalence(repl=RecordedRepl([{"env": 0}, mismatch]), tactics=("simp",))
    assert backend.check(A, B).status == "error"
    failed = recorded(data_dir, "invalid_tactic.expected.out")
    backend = LeanEquivalence(repl=RecordedRepl([{"env": 0}, failed[0], failed[1]]), tactics=("bad",))
    assert backend.check(A, B).status == "unknown"


def test_unavailable_without_lean():
    backend = LeanEquivalence(repl=None)
    assert not backend.available and backend.check(A, B).status == "unavailable"


def test_symeq_asks_lean_only_when_z3_cannot_decide(data_dir):
    proved = recorded(data_dir, "assumption_proof.expected.out")
    repl = RecordedRepl([{"env": 0}, proved[0], proved[1]])
    se = SymEq("lean", lean=LeanEquivalence(repl=repl, tactics=("assumption",)))
    # arctan is uninterpreted for Z3, so it cannot show arctan x < 2 (Real.arctan_lt_pi_div_two); Lean is asked
    a = "theorem a (x : ℝ) (hx : 0 < x) : Real.arctan x < 2 := by sorry"
    b = "theorem b (x : ℝ) (hx : 0 < x) : x ≤ x := by sorry"
    z3_only = SymEq("lean").compare(a, b)
    assert z3_only.status == "different" and not z3_only.exact
    res = se.compare(a, b)
    assert res.status == "equivalent" and res.method == "lean"
    assert "Real.arctan x < 2" in repl.requests[1]["cmd"]
    # a pair Z3 separates with an exact counterexample never reaches Lean
    repl2 = RecordedRepl([])
    se2 = SymEq("lean", lean=LeanEquivalence(repl=repl2))
    r2 = se2.compare(
        "theorem a (x : ℝ) (h : x > 1) : x > 0 := by sorry", "theorem b (x : ℝ) (h : x > 2) : x > 0 := by sorry"
    )
    assert r2.status == "different" and r2.exact and repl2.requests == []


# ----------------------------------------------------------------------------------------------- one reader

READER_CASES = [
    # universe parameters after the name
    ("theorem t.{u} {α : Type u} (s : Finset α) (h : 0 < s.card) : s.Nonempty := by sorry", ["s"], 1),
    # a string literal with a closing bracket inside a binder must not end the binder
    ('theorem t (n : ℕ) (h : toString n ≠ ")") (m : ℕ) (h₁ : n = 2) : n + 1 = 3 := by sorry', ["n", "m"], 2),
    # a comment with brackets and `:=` between binders
    ("theorem t (x : ℝ) /- (y : ℝ) := -/ (h : x = 1) : x + 1 = 2 := by sorry", ["x"], 1),
    # a nested block comment
    ("theorem t (x : ℕ) /- a /- b ) -/ c -/ (h : x = 1) : x = 1 := by sorry", ["x"], 1),
]


@pytest.mark.parametrize("text,variables,hypotheses", READER_CASES)
def test_front_end_and_backend_read_binders_as_the_statement_reader_does(text, variables, hypotheses):
    from atf.lean.statement import parse_statement as read
    from atf.symeq import lean_frontend

    st = read(text)
    assert [n for b in st.binders for n in b.names if n in variables] == variables
    parts = split_parts(text)
    assert [n for names, _ in parts.variables for n in names if not names[0].startswith("α")] == variables
    assert len(parts.hypotheses) == hypotheses
    assert parts.conclusion == st.conclusion.strip()
    raw = lean_frontend.parse_statement(text)
    assert [n for n, _ in raw.variables] == variables
    assert len(raw.premises) == hypotheses


def test_universe_parameters_do_not_change_the_meaning():
    a = "theorem t.{u} (x : ℕ) (h : x + 1 = 3) : x = 2 := by sorry"
    b = "theorem t (x : ℕ) (h : x + 1 = 3) : x = 2 := by sorry"
    assert SymEq("lean").compare(a, b).equivalent
