"""eval/symeq_readings.py: a round's list of statements whose SymEq reading changed between two trees."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from eval import symeq_readings

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "eval" / "symeq_readings.py"


def test_a_reading_is_the_key_and_an_unreadable_statement_its_error():
    a = symeq_readings.reading("theorem t (x : ℝ) (h : 2 * x = 3) : x = 3 / 2 := by sorry", "lean")
    renamed = symeq_readings.reading("theorem u (x : ℝ)  (hx : 2*x = 3) :\n  x = 3 / 2 := by\n  sorry", "lean")
    other = symeq_readings.reading("theorem t (x : ℝ) (h : 2 * x = 3) : x = 2 / 3 := by sorry", "lean")
    assert a == renamed != other
    assert symeq_readings.reading("this is no statement", "lean").startswith("error: ")


def record(readings: dict, limit=None) -> dict:
    return {"symeq_version": 1, "limit": limit, "readings": readings}


def test_compare_counts_per_set_and_lists_the_changed():
    old = record(
        {"lean/minif2f/test/a": "1", "lean/minif2f/test/b": "2", "isabelle/math/p/0": "3", "lean/x/test/gone": "4"}
    )
    new = record({"lean/minif2f/test/a": "1", "lean/minif2f/test/b": "9", "isabelle/math/p/0": "8"})
    lines, changed = symeq_readings.compare(old, new)
    assert changed == ["lean/minif2f/test/b", "isabelle/math/p/0"]
    assert "2 of 3 readings changed" in lines[0]
    assert any(line.split() == ["lean/minif2f", "1", "/", "2"] for line in lines)
    assert any("1 statements are in one record only" in line for line in lines)


def test_records_of_different_coverage_are_not_compared():
    with pytest.raises(SystemExit, match="different statements"):
        symeq_readings.compare(record({}, limit=3), record({}, limit=None))


def test_the_command_writes_the_lean_ids_the_probe_reads(tmp_path):
    old, new, ids = tmp_path / "old.json", tmp_path / "new.json", tmp_path / "ids.txt"
    old.write_text(json.dumps(record({"lean/combibench/test/h4": "1", "isabelle/minif2f/p/1": "2"})))
    new.write_text(json.dumps(record({"lean/combibench/test/h4": "5", "isabelle/minif2f/p/1": "6"})))
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--compare", str(old), str(new), "--ids-out", str(ids)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "changed: isabelle/minif2f/p/1" in out
    assert ids.read_text() == "combibench/test/h4\n"  # the form of `eval/symeq_metamorphic.py --ids`


def test_a_tree_without_the_package_is_refused(tmp_path):
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--tree", str(tmp_path), "--output", str(tmp_path / "r.json")],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2 and "holds no atf/symeq package" in run.stderr
    assert not (tmp_path / "r.json").exists()


def test_a_record_covers_every_set(tmp_path):
    out = tmp_path / "r.json"
    subprocess.run([sys.executable, str(SCRIPT), "--output", str(out), "--limit", "1"], capture_output=True, check=True)
    data = json.loads(out.read_text())
    sets = {"/".join(k.split("/")[:2]) for k in data["readings"]}
    assert sets == {
        "lean/minif2f",
        "lean/proofnet",
        "lean/putnambench",
        "lean/combibench",
        "lean/formalmath-lite",
        "lean/proverbench",
        "isabelle/math",
        "isabelle/minif2f",
    }
    assert sum(k.startswith("isabelle/") for k in data["readings"]) == 20  # one problem of each set, k = 10
