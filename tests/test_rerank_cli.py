"""`atf rerank` end to end (real SymEq, real MiniLM)."""

import json

from atf.cli import main

CANDS = [
    "theorem a (x y : ℝ) (h₀ : x + y = 10) (h₁ : x - y = 2) : x * y = 24 := by sorry",
    "theorem b (p q : ℝ) (h₁ : p - q = 2) (h₀ : q + p = 10) : q * p = 24 := by sorry",
    "theorem c (x y : ℝ) (h₀ : x + y = 10) : x * y = 24 := by sorry",
]
PROBLEM = "Two numbers sum to 10 and differ by 2. Show that their product is 24."


def test_cli_table_and_selection(tmp_path, capsys):
    f = tmp_path / "in.json"
    f.write_text(json.dumps({"problem": PROBLEM, "candidates": CANDS}))
    assert main(["rerank", "--input", str(f), "-n", "2", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "3 candidates, 2 SymEq classes" in out
    assert "selected (2@3): [" in out and "≢" in out and "premises differ" in out


def test_cli_batch_jsonl_resumes(tmp_path, capsys):
    f = tmp_path / "in.jsonl"
    items = [
        {"id": "p1", "problem": PROBLEM, "candidates": CANDS},
        {
            "id": "p2",
            "problem": "Show that 2 + 2 = 4.",
            "language": "isabelle",
            "candidates": ['theorem\nshows "(2::nat) + 2 = 4"', 'theorem\nshows "2 + 2 = (4::int)"'],
            "back_translations": ["Show that two plus two is four.", "Prove 2 + 2 = 4."],
        },
    ]
    f.write_text("\n".join(json.dumps(x) for x in items))
    out = tmp_path / "out.jsonl"
    assert main(["rerank", "--input", str(f), "-o", str(out), "--json"]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["p1", "p2"]
    assert rows[0]["classes"] == [[0, 1], [2]] and rows[0]["selected"] == [rows[0]["order"][0]]
    assert rows[1]["language"] == "isabelle" and rows[1]["semco_source"] == "given"
    capsys.readouterr()
    assert main(["rerank", "-i", str(f), "-o", str(out)]) == 0  # nothing left to do
    assert len(out.read_text().splitlines()) == 2
    assert capsys.readouterr().out == ""


def test_cli_bare_list_needs_a_problem(tmp_path, capsys):
    f = tmp_path / "in.json"
    f.write_text(json.dumps(CANDS))
    assert main(["rerank", "--input", str(f)]) == 2
    assert "--problem" in capsys.readouterr().err
    assert main(["rerank", "--input", str(f), "--problem", PROBLEM, "--json"]) == 0
