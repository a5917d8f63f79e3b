import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from atf.lean import precheck, run_precheck

OK = "import Mathlib\n\nopen Real\n\ntheorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := by sorry\n"


def _with(middle: str, theorem: str = "theorem t : (1 : ℕ) = 1 := by sorry") -> str:
    return f"import Mathlib\n{middle}\n{theorem}\n"


def test_a_plain_statement_passes():
    assert precheck(OK) == []


@pytest.mark.parametrize(
    "middle, expected",
    [
        ('#eval IO.println "hi"', "`#eval` is not allowed: it runs code"),
        ("#check Nat", "`#check` is not part of a statement"),
        ("#foo_cmd x", "`#foo_cmd` is not part of a statement"),
        ('run_cmd Lean.logInfo "x"', "`run_cmd` is not allowed"),
        ('elab "zero" : term => return Lean.mkNatLit 0', "`elab` is not allowed"),
        ('macro "zero" : term => `(0)', "`macro` is not allowed"),
        ("macro_rules | `(foo) => `(0)", "`macro_rules` is not allowed"),
        ('syntax "foo" : term', "`syntax` is not allowed"),
        ("initialize counter : Nat ← pure 0", "`initialize` is not allowed"),
        ('@[extern "c_fn"] opaque f : Nat → Nat', "`extern` is not allowed"),
        ("@[implemented_by g] def f : Nat := 1", "`implemented_by` is not allowed"),
        ("unsafe def f : Nat := 1", "`unsafe` is not allowed"),
        ('def f : IO Unit := IO.FS.writeFile "x" "y"', "it refers to IO"),
        ("@[norm_num Nat.succ _] def ext : Nat := 1", "attribute `norm_num` is not allowed"),
        ("attribute [simp] Nat.add_comm", ""),  # allowed (global attribute: checked alone, not rejected)
        ("attribute [local aesop safe tactic myTac] foo", "Aesop clauses with user tactics are not allowed"),
        ("axiom cheat : False", "`axiom` is not allowed"),
        ("set_option debug.skipKernelTC true", "`set_option debug.skipKernelTC` is not allowed"),
        ("set_option maxHeartbeats 400000", ""),
        ("end Foo", "2:0: `end Foo` closes more than is open here"),
        ("mutual\ndef f : ℕ := 1", "2:0: `mutual` is never closed"),
        ("namespace A\nend B", "`end B` does not match the `namespace` opened at 2:0 (expected `end A`)"),
        ("namespace A.B\nend A.B", ""),
        ("noncomputable section", ""),
        ('local notation3 "n" => (2 : ℕ)', ""),
        ("abbrev answer_solution : ℕ := sorry", ""),
    ],
)
def test_security_and_command_policy(middle, expected):
    errors = precheck(_with(middle))
    if expected:
        assert any(expected in e for e in errors), errors
    else:
        assert errors == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("theorem t : 1 = 1 := by sorry", "1:0: missing header"),
        ("", "empty statement"),
        ("import Mathlib\ntheorem t : (1 = 1 := by sorry", "2:12: `(` is never closed (expected `)`)"),
        ("import Mathlib\ntheorem t : 1 = 1) := by sorry", "2:17: unexpected `)`"),
        ("import Mathlib\n/- a note\ntheorem t : 1 = 1 := by sorry", "2:0: unterminated comment"),
        ("import Mathlib\ntheorem t : 1 = 1 := by simp", "2:21: no `sorry` body"),
        ("import Mathlib\ntheorem t : 1 = 1 := by decide +native", "2:32: `native` is not allowed: native evaluation"),
        ("import Mathlib\ntheorem t : sorry = 1 := by sorry", "2:12: `sorry` inside the statement itself"),
        ("import Mathlib\ntheorem t : 1 = 1 := by sorry\ndef after := 1", "3:0: `def` after the theorem"),
        ("import Mathlib\ndef f := 1\nimport Aesop\ntheorem t : 1 = 1 := by sorry", "3:0: `import` must come first"),
        ("import Mathlib\ndef f := 1", "no `theorem`, `lemma` or `example` found"),
        ("```lean\nimport Mathlib\ntheorem t : 1 = 1 := by sorry\n```\nDone.", "5:0: text after the code block"),
        ("import Mathlib\ntheorem t : 1 = 1 := by sorry\nThat is all.", "3:0: text after the proof: `That`"),
    ],
)
def test_shape_errors_are_precise(text, expected):
    errors = precheck(text)
    assert any(e.startswith(expected) or expected in e for e in errors), errors


def test_prose_and_fences_are_blanked_with_a_warning_keeping_line_numbers():
    text = "Here it is:\n```lean\nimport Mathlib\ntheorem t : 1 = 1 := by sorry\n```\n"
    report = run_precheck(text)
    assert report.ok and report.text == "\n\nimport Mathlib\ntheorem t : 1 = 1 := by sorry\n\n"
    assert [(w.line, w.rule) for w in report.warnings] == [(2, "prose")]
    assert report.statement.body_line == 4  # positions in what Lean gets are positions in the input
    report = run_precheck("Sure, the statement is\n\nimport Mathlib\ntheorem t : 1 = 1 := by sorry")
    assert report.ok and report.text.startswith("\n\nimport Mathlib") and report.warnings[0].rule == "prose"


@pytest.mark.parametrize(
    "option, asked, sent",
    [
        ("maxHeartbeats", "0", "1000000"),
        ("maxHeartbeats", "99999999", "1000000"),
        ("synthInstance.maxHeartbeats", "0", "400000"),
        ("maxRecDepth", "100000", "8192"),
        ("synthInstance.maxSize", "100000", "1024"),
        ("maxSynthPendingDepth", "50", "4"),
    ],
)
def test_options_that_lift_limits_are_clamped_in_the_text_sent_to_lean(option, asked, sent):
    for text in (
        f"import Mathlib\nset_option {option} {asked}\ntheorem t : 1 = 1 := by sorry",
        f"import Mathlib\nset_option {option} {asked} in\ntheorem t : 1 = 1 := by sorry",
        f"import Mathlib\ntheorem t : 1 = 1 := by\n  set_option {option} {asked} in sorry",
    ):
        report = run_precheck(text)
        assert report.ok, report.errors
        assert f"set_option {option} {sent}" in report.text and f"{option} {asked}" not in report.text
        assert report.statement.text == report.text
        assert [w.rule for w in report.warnings if w.rule == "option-clamped"] == ["option-clamped"]


def test_options_within_the_caps_are_sent_unchanged():
    text = "import Mathlib\nset_option maxHeartbeats 400000\ntheorem t : 1 = 1 := by sorry"
    report = run_precheck(text)
    assert report.ok and report.text == text and report.warnings == []


def test_unclosed_namespace_and_section_are_warned_and_closed():
    report = run_precheck("import Mathlib\nnamespace Foo\nnoncomputable section\ntheorem t : 1 = 1 := by sorry")
    assert report.ok
    assert [(w.line, w.rule) for w in report.warnings] == [(2, "scope"), (3, "scope")]
    assert report.statement.closers == ["end", "end Foo"]


def test_error_lists_are_bounded_on_hostile_input():
    report = run_precheck("import Mathlib\n" + "#eval 1\n" * 5000 + "theorem t : 1 = 1 := by sorry")
    assert len(report.errors) == 21 and report.errors[-1].message.startswith("... and ")


def test_fences_inside_a_doc_comment_are_lean_text():
    text = "import Mathlib\n/-- For example\n```lean\n#check 1\n```\n-/\ntheorem t : 1 = 1 := by sorry"
    report = run_precheck(text)
    assert report.ok and report.text == text and report.warnings == []
    fenced = "Answer:\n```lean\n" + text + "\n```\n"
    report = run_precheck(fenced)
    assert report.ok and report.text == "\n\n" + text + "\n\n", report.errors


def test_words_inside_comments_and_strings_are_not_commands():
    text = _with("-- #eval would be bad\n/- unsafe macro -/", 'theorem t : "#eval run_cmd".length = 12 := by sorry')
    assert precheck(text) == []


def test_require_header_can_be_turned_off():
    assert precheck("theorem t : 1 = 1 := by sorry", require_header=False) == []


def test_extra_tactics_in_the_body_are_a_warning_not_an_error():
    report = run_precheck("import Mathlib\ntheorem t : 1 = 1 := by\n  simp\n  sorry")
    assert report.ok and [w.message for w in report.warnings][0].startswith("the body has more than `sorry`")


def _bench_module():
    path = Path(__file__).parent / "bench" / "bench_syntax_precheck.py"
    spec = importlib.util.spec_from_file_location("bench_syntax_precheck", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_real_benchmark_statements_pass_the_precheck(data_dir):
    """Every miniF2F, ProofNet, PutnamBench, CombiBench and FormalMATH-Lite statement contains only
    harmless commands, so each must pass (tests/bench/bench_syntax_precheck.py prints the rates)."""
    counts = Counter()
    rejected = []
    for bench, name, text in _bench_module().benchmark_statements(data_dir):
        counts[bench] += 1
        errors = precheck(text)
        if errors:
            rejected.append((bench, name, errors))
    assert counts == {"miniF2F": 488, "ProofNet": 371, "PutnamBench": 672, "CombiBench": 100, "FormalMATH-Lite": 425}
    assert rejected == []
