import pytest

from atf.lean import parse_statement
from atf.lean.lexer import bracket_problems, scan
from atf.lean.statement import StatementParseError, split_commands

MINIF2F_STYLE = """import Mathlib
import Aesop

set_option maxHeartbeats 400000

open BigOperators Real Nat Topology Rat

/-- Show that $x^2 > 0$. -/
theorem mathd_algebra_1 (x y : ℝ) {n : ℕ} [Fact (1 < n)] (h₀ : 0 < x) (hy : Continuous (fun t : ℝ => t * y))
    (f : ℕ → ℕ) :
    x ^ 2 > 0 := by
  sorry
"""


def test_parse_reads_header_binders_hypotheses_conclusion_and_body():
    st = parse_statement(MINIF2F_STYLE)
    assert st.header_imports == ["Mathlib", "Aesop"]
    assert st.header_opens == ["BigOperators", "Real", "Nat", "Topology", "Rat"]
    assert st.header_options == [("maxHeartbeats", "400000")]
    assert (st.kind, st.name) == ("theorem", "mathd_algebra_1")
    assert st.docstring == "Show that $x^2 > 0$."
    assert [(b.bracket, b.names, b.type) for b in st.binders] == [
        ("(", ["x", "y"], "ℝ"),
        ("{", ["n"], "ℕ"),
        ("[", [], "Fact (1 < n)"),
        ("(", ["h₀"], "0 < x"),
        ("(", ["hy"], "Continuous (fun t : ℝ => t * y)"),
        ("(", ["f"], "ℕ → ℕ"),
    ]
    assert [b.names for b in st.hypotheses] == [["h₀"], ["hy"]]
    assert [b.names for b in st.variables] == [["x", "y"], ["n"], [], ["f"]]
    assert st.conclusion == "x ^ 2 > 0"
    assert st.body == "by\n  sorry" and st.is_sorry_body()
    assert st.header_key == ("Aesop", "Mathlib")
    # what is sent on top of the imported environment starts right after the import lines
    assert st.body_line == 3 and st.body_text.startswith("\nset_option")


def test_answer_placeholder_and_let_in_conclusion_and_putnam_layout():
    text = """import Mathlib

open Real

noncomputable abbrev putnam_x_solution : ℝ := sorry

theorem putnam_x
(f : ℝ → ℝ)
(hf : ∀ x, f x = x ^ 2)
: let y := f 2; y = putnam_x_solution :=
sorry
"""
    st = parse_statement(text)
    assert st.name == "putnam_x"
    assert st.preamble == ["noncomputable abbrev putnam_x_solution : ℝ := sorry"]
    assert st.conclusion == "let y := f 2; y = putnam_x_solution"
    assert st.body == "sorry"
    assert [b.names for b in st.hypotheses] == [["hf"]]


def test_def_statement_when_there_is_no_theorem():
    # ProofNet phrases "construct X" problems as a def whose body is sorry
    st = parse_statement(
        "import Mathlib\n\ndef exercise (G : Type*) [Group G] (hG : Nat.card G = 5) :\n  CommGroup G := sorry"
    )
    assert (st.kind, st.name, st.conclusion) == ("def", "exercise", "CommGroup G")


def test_comments_and_strings_do_not_split_or_count():
    text = (
        "import Mathlib\n-- theorem fake : False := by sorry\n/- nested /- comment -/ theorem x -/\n"
        'theorem real (s : String) (h : s = "theorem := (") : True := by sorry'
    )
    st = parse_statement(text)
    assert st.name == "real"
    assert [b.type for b in st.binders] == ["String", 's = "theorem := ("']
    assert [c.keyword for c in split_commands(scan(text))] == ["import", "theorem"]


def test_prefixes_stay_with_their_declaration():
    text = "import Mathlib\nopen Real in\n@[simp]\nprivate theorem t : π > 3 := by sorry"
    cmds = split_commands(scan(text))
    assert [c.keyword for c in cmds] == ["import", "theorem"]
    assert cmds[1].scopes == ["open Real"] and cmds[1].attributes == ["simp"] and cmds[1].modifiers == ["private"]
    assert parse_statement(text).header_opens == ["Real"]


def test_parse_errors_have_positions():
    with pytest.raises(StatementParseError, match="no `theorem`"):
        parse_statement("import Mathlib\ndef f := 1")
    with pytest.raises(StatementParseError) as e:
        parse_statement("import Mathlib\ntheorem t (x : ℕ) x = x := by sorry")
    assert (e.value.line, e.value.col) == (2, 18) and "expected `:`" in str(e.value)
    with pytest.raises(StatementParseError, match="missing `:=`"):
        parse_statement("import Mathlib\ntheorem t : 1 = 1")


def test_lexer_positions_char_literals_and_primes():
    s = scan("theorem t (f' : ℕ → ℕ) (c : Char) (h : c = '(') : f '' {1} = {f 1} := by sorry")
    idents = [t.text for t in s.tokens if t.kind == "ident"]
    assert "f'" in idents
    assert [t.text for t in s.tokens if t.kind == "char"] == ["'('"]
    assert bracket_problems(s) == []
    assert s.position(0) == (1, 0)


def test_lexer_reports_unterminated_comment_and_string_and_brackets():
    s = scan('import Mathlib\ntheorem t : "abc = 1 := by sorry')
    assert [str(p) for p in s.problems] == ['2:12: unterminated string literal: `"` is never closed']
    s = scan("theorem t : 1 = 1 := by sorry\n/- open")
    assert [p.line for p in s.problems] == [2]
    assert [str(p) for p in bracket_problems(scan("(a ⟨b) c)"))] == [
        "1:3: `⟨` is not closed (expected `⟩` before the `)` at 1:5)",
        "1:8: unexpected `)`: no bracket is open here",
    ]


def test_universe_parameters_and_binders_holding_brackets_in_strings_and_chars():
    text = (
        "import Mathlib\ntheorem t.{u, v} (α : Type u) (s : String) (h : s = \")\") (c : Char) (hc : c = '(')\n"
        '    (g : String → ℕ) (hg : g "{" = 1) : s.length = 1 := by sorry'
    )
    st = parse_statement(text)
    assert st.name == "t"
    assert [(b.names, b.type) for b in st.binders] == [
        (["α"], "Type u"),
        (["s"], "String"),
        (["h"], 's = ")"'),
        (["c"], "Char"),
        (["hc"], "c = '('"),
        (["g"], "String → ℕ"),
        (["hg"], 'g "{" = 1'),
    ]
    assert st.conclusion == "s.length = 1"


def test_commands_start_anywhere_outside_brackets_but_not_inside_terms():
    text = "import Mathlib\ntheorem a : 1 = 1 := by sorry def x := 1\ntheorem t (h : ∀ n, n = n) : True := by sorry"
    assert [c.keyword for c in split_commands(scan(text))] == ["import", "theorem", "def", "theorem"]
    # `open ... in` inside a proof and `deriving`/`class abbrev` continuations do not split
    text = (
        "import Mathlib\nclass abbrev R (α : Type) := Ring α\nstructure P where\n  x : ℕ\nderiving Repr\n"
        "theorem t : 1 = 1 := by\n  open Nat in simp\n  sorry"
    )
    assert [c.keyword for c in split_commands(scan(text))] == ["import", "class", "structure", "theorem"]


def test_long_prefix_chains_are_read_once():
    text = "import Mathlib\n" + "open Nat in\n" * 300 + "@[simp]\n" * 300 + "theorem t : 1 = 1 := by sorry"
    cmds = split_commands(scan(text))
    assert [c.keyword for c in cmds] == ["import", "theorem"]
    assert len(cmds[1].scopes) == 300 and cmds[1].attributes == ["simp"] * 300
    assert parse_statement(text).header_opens == ["Nat"] * 300


def test_guillemet_theorem_name_and_closers():
    st = parse_statement("import Mathlib\nnamespace A.B\nsection S\ntheorem «my thm» : 1 = 1 := by sorry")
    assert st.name == "«my thm»"
    assert st.closers == ["end S", "end B", "end A"]
