import io
import json
import sys
from pathlib import Path

import pytest

from atf.cli import main
from tests.sandbox_support import needs_bwrap

STANDIN = str(Path(__file__).parent / "lean_standin.py")
REPL = ["--repl", f"{sys.executable} {STANDIN}"]
GOOD = "import Mathlib\n\ntheorem t (x : ℕ) : x + 0 = x := by sorry"
BAD = "import Mathlib\n\ntheorem u : STANDIN_ERROR = 0 := by sorry"


def _rows(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


@needs_bwrap
def test_statements_as_arguments_give_jsonl_and_exit_status(capsys):
    assert main(["syntax-check", GOOD, BAD, *REPL]) == 1
    out, err = capsys.readouterr()
    rows = _rows(out)
    assert [(r["index"], r["ok"], r["checked_by"]) for r in rows] == [(0, True, "lean"), (1, False, "lean")]
    assert rows[1]["errors"] == ["3:12: Unknown identifier `STANDIN_ERROR`"]
    assert "2 checked: 1 ok, 1 failed (by lean: 2" in err
    assert main(["syntax-check", GOOD, *REPL]) == 0


@needs_bwrap
def test_jsonl_input_with_field_output_file_and_resume(tmp_path, capsys):
    inp = tmp_path / "in.jsonl"
    inp.write_text("\n".join(json.dumps({"name": f"p{i}", "formal": s}) for i, s in enumerate([GOOD, BAD, GOOD])))
    out = tmp_path / "out.jsonl"
    # a previous run that died after the first row and in the middle of writing the second
    out.write_text(json.dumps({"index": 0, "ok": True}) + "\n" + '{"index": 1, "ok"')
    assert main(["syntax-check", "-i", str(inp), "--field", "formal", "-o", str(out), "--resume", *REPL]) == 1
    rows = _rows(out.read_text())  # the torn fragment was cut, not kept beside its redone record
    assert [(r["index"], r.get("id"), r["ok"]) for r in rows] == [(0, None, True), (1, "p1", False), (2, "p2", True)]
    assert "1 already done" in capsys.readouterr().err


def test_lean_file_on_stdin_and_precheck_only(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(GOOD))
    assert main(["syntax-check", "-i", "-", "--precheck-only"]) == 0
    (row,) = _rows(capsys.readouterr().out)
    assert row["ok"] and row["checked_by"] == "precheck" and "Lean was not run" in row["feedback"]


def test_clear_errors_for_bad_input(tmp_path, capsys):
    assert main(["syntax-check", "--precheck-only"]) == 2
    assert "no statements" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"x": 1}\n')
    assert main(["syntax-check", "-i", str(bad), "--precheck-only"]) == 2
    assert "no statement field" in capsys.readouterr().err
    with pytest.raises(SystemExit) as e:
        main(["syntax-check", GOOD, "--repl", "/nonexistent/repl"])
    assert e.value.code == 2 and "Lean REPL command not found" in capsys.readouterr().err
