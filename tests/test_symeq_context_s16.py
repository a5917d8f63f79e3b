"""SymEq reads what comes before a Lean theorem: `variable`s join the theorem as Lean adds them (Lean 4's variable
inclusion), and any other declaration (`def`, `abbrev`, `notation`, ...) is the statement's context: statements under
different contexts are never merged, since the same words then mean different things."""

import pytest

from atf.lean.statement import parse_statement
from atf.symeq.equivalence import SymEq
from atf.symeq.lean_backend import build_goal

H = "import Mathlib\n"

CASES = [
    # (what, a, b, equivalent)
    (
        "section variable ℕ against ℝ",
        H + "variable (x : ℕ)\ntheorem t : x / 2 * 2 = x := by sorry",
        H + "variable (x : ℝ)\ntheorem t : x / 2 * 2 = x := by sorry",
        False,
    ),
    (
        "different def bodies under one theorem text",
        H + "def f (x : ℕ) : ℕ := x + 1\ntheorem t : f 2 = 3 := by sorry",
        H + "def f (x : ℕ) : ℕ := x + 2\ntheorem t : f 2 = 3 := by sorry",
        False,
    ),
    (
        "different answers in an abbrev",
        H + "abbrev ans : ℕ := 3\ntheorem t (x : ℕ) (h : x + 1 = 4) : x = ans := by sorry",
        H + "abbrev ans : ℕ := 4\ntheorem t (x : ℕ) (h : x + 1 = 4) : x = ans := by sorry",
        False,
    ),
    (
        "a notation that means something else",
        H + 'local notation "𝔽" => (2 : ℕ)\ntheorem t (x : ℕ) (h : x = 𝔽) : x > 1 := by sorry',
        H + 'local notation "𝔽" => (0 : ℕ)\ntheorem t (x : ℕ) (h : x = 𝔽) : x > 1 := by sorry',
        False,
    ),
    (
        "one def written twice (comments and layout differ)",
        H + "def f (x : ℕ) : ℕ := x + 1\ntheorem t : f 2 = 3 := by sorry",
        H + "/-- f -/\ndef f (x : ℕ) : ℕ :=\n  x + 1 -- one more\ntheorem t : f 2 = 3 := by sorry",
        True,
    ),
    (
        "a section variable is the binder Lean adds",
        H + "variable (x : ℕ)\ntheorem t : x / 2 * 2 = x := by sorry",
        H + "theorem t (x : ℕ) : x / 2 * 2 = x := by sorry",
        True,
    ),
    (
        "a hypothesis variable the theorem does not name is not assumed",
        H + "variable (p : ℕ) (hp : p.Prime)\ntheorem t : 2 ≤ p := by sorry",
        H + "theorem t (p : ℕ) (hp : p.Prime) : 2 ≤ p := by sorry",
        False,
    ),
    (
        "`include` adds it",
        H + "variable (p : ℕ) (hp : p.Prime)\ninclude hp\ntheorem t : 2 ≤ p := by sorry",
        H + "theorem t (p : ℕ) (hp : p.Prime) : 2 ≤ p := by sorry",
        True,
    ),
    (
        "a variable of an ended section is out of scope",
        H + "section\nvariable (x : ℝ)\nend\nvariable (x : ℕ)\ntheorem t : x / 2 * 2 = x := by sorry",
        H + "theorem t (x : ℕ) : x / 2 * 2 = x := by sorry",
        True,
    ),
    (
        "the theorem's own binder shadows a section variable",
        H + "variable (x : ℝ)\ntheorem t (x : ℕ) : x / 2 * 2 = x := by sorry",
        H + "theorem t (x : ℕ) : x / 2 * 2 = x := by sorry",
        True,
    ),
]


@pytest.mark.parametrize("what,a,b,equivalent", CASES, ids=[c[0] for c in CASES])
def test_compare_reads_the_declarations_before_the_theorem(what, a, b, equivalent):
    assert SymEq("lean", timeout_ms=1000).compare(a, b).equivalent is equivalent


def test_cluster_keeps_apart_the_same_theorem_under_different_defs():
    a, b = CASES[1][1], CASES[1][2]
    result = SymEq("lean", timeout_ms=1000).cluster([a, b, a])
    assert sorted(sorted(c) for c in result.classes) == [[0, 2], [1]]


def test_included_variables_follow_lean_4_inclusion():
    st = parse_statement(
        H
        + "variable {n : Type*} [Fintype n] [DecidableEq n] {m : Type*} [Fintype m]\n"
        + "variable (A : Matrix n n ℝ) (B : Matrix m m ℝ)\n"
        + "variable (k : ℝ) (hk : 0 < k)\n"
        + "theorem t : (k • A).det = k ^ Fintype.card n * A.det := by sorry"
    )
    got = [b.text for b in st.included_variables()]
    assert got == ["{n : Type*}", "[Fintype n]", "[DecidableEq n]", "(A : Matrix n n ℝ)", "(k : ℝ)"]


def test_context_drops_comments_and_the_commands_read_elsewhere():
    st = parse_statement(
        H + "open Real\n-- note\nsection\nvariable (x : ℝ)\nend\n/-- doc -/\nnoncomputable def g (y : ℝ) : ℝ := y\n"
        "theorem t : g 1 = 1 := by sorry"
    )
    assert st.context() == "noncomputable def g ( y : ℝ ) : ℝ := y"


def test_lean_goal_carries_the_context_and_refuses_two():
    a = H + "def f (x : ℕ) : ℕ := x + 1\ntheorem t (y : ℕ) : f y = y + 1 := by sorry"
    b = H + "def f (x : ℕ) : ℕ := x + 2\ntheorem t (y : ℕ) : f y = y + 1 := by sorry"
    goal = build_goal(a, a)
    assert goal.startswith("def f ( x : ℕ ) : ℕ := x + 1\n") and "theorem atf_symeq_goal" in goal
    with pytest.raises(ValueError, match="different things before the theorem"):
        build_goal(a, b)
