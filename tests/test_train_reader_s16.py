"""The training helpers read statements with the one statement reader (`atf.lean.statement`): the rationale's
objects/assumptions/goal and the reference judge's "hypotheses"/"conclusion"/"proof" places are Lean's, also where
a string or a comment holds a bracket or the proof holds a `:=` and a `:`."""

from atf.train.rationale import read_statement
from atf.train.reference import describe_difference, differences


def test_a_bracket_inside_a_string_does_not_end_a_binder():
    got = read_statement('theorem t (s : String) (h : s.length = ")".length) (n : ℕ) : n + 0 = n := by sorry')
    assert got == (["(s : String)", "(n : ℕ)"], ['(h : s.length = ")".length)'], "n + 0 = n")


def test_a_bracket_inside_a_comment_does_not_open_one():
    got = read_statement("theorem t (x : ℕ) -- the count (of apples\n  (h : 0 < x) : x ≥ 1 := by sorry")
    assert got == (["(x : ℕ)"], ["(h : 0 < x)"], "x ≥ 1")


def test_a_let_in_the_conclusion_stays_in_the_goal():
    got = read_statement("theorem t (x : ℕ) : let y : ℕ := x + 1; y > x := by sorry")
    assert got == (["(x : ℕ)"], [], "let y : ℕ := x + 1; y > x")


def test_the_reference_proof_does_not_move_the_conclusion():
    ref = "theorem t (x : ℕ) (h : 0 < x) : x ≥ 1 := by\n  have h2 : 1 ≤ x := h\n  exact h2"
    diffs = differences("theorem t (x : ℕ) (h : 0 < x) : x > 1 := by sorry", ref)
    assert diffs[0] == ("replace", ">", "≥", "conclusion")
    assert all(where == "proof" for *_, where in diffs[1:])
    assert describe_difference("theorem t (x : ℕ) (h : 0 < x) : x > 1 := by sorry", ref)[0] == (
        "`>` in the conclusion of the Lean statement does not say what the problem says"
    )


def test_a_missing_hypothesis_is_called_one():
    ref = "theorem t (x : ℕ) (h : 0 < x) : x ≥ 1 := by sorry"
    assert describe_difference("theorem t (x : ℕ) : x ≥ 1 := by sorry", ref) == [
        "the Lean statement is missing a hypothesis that the problem states"
    ]
