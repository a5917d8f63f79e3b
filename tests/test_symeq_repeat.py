"""eval/symeq_repeat.py: which pairs' verdicts vary between identical runs."""

import pytest

from eval.symeq_repeat import formalalign_statements, varying


def test_varying_lists_only_pairs_that_differ_between_runs():
    same = ("equivalent", "")
    cut = ("unknown", "conclusions: step budget spent")
    runs = [{(0, 1): same, (0, 2): same}, {(0, 1): same, (0, 2): cut}, {(0, 1): same, (0, 2): same}]
    out = varying(runs)
    assert list(out) == [(0, 2)]
    assert out[(0, 2)][same] == 2 and out[(0, 2)][cut] == 1
    assert varying(runs[:1] * 3) == {}
    # a pair one run never decided (its budget ran out before) varies too
    assert varying([{(0, 1): same}, {}])[(0, 1)][("absent", "")] == 1


def test_formalalign_problems_are_numbered_as_the_evaluation_numbers_them(data_dir):
    statements = formalalign_statements(122)
    assert len(statements) == 16 and all(s.endswith(":= by sorry") for s in statements)
    assert "abs (a + b) / (1 + abs (a + b))" in statements[0] and "(4 + abs (a + b))" in statements[2]
    with pytest.raises(SystemExit, match="not in 0"):
        formalalign_statements(10_000)


def test_all_runs_every_problem_and_lists_none_that_does_not_vary(monkeypatch, capsys):
    import eval.symeq_repeat as repeat

    problems = [
        [
            "theorem a (x : ℕ) (h : x = 2) : x + 1 = 3 := by sorry",
            "theorem b (y : ℕ) (h : y = 2) : 3 = y + 1 := by sorry",
        ],
        ["theorem c (x : ℝ) : x ^ 2 ≥ 0 := by sorry", "theorem d (x : ℝ) : x ^ 2 > 0 := by sorry"],
    ]
    monkeypatch.setattr(repeat, "formalalign_problems", lambda: problems)
    assert repeat.main(["--formalalign", "all", "--runs", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 problems (lean), 2 runs (one pool)") and ": 0 with a pair whose verdict varies" in out
    assert "problem 0" not in out


def test_a_problem_is_an_index_or_all():
    import eval.symeq_repeat as repeat

    with pytest.raises(SystemExit):
        repeat.main(["--formalalign", "first", "--runs", "2"])


def test_table1_problems_are_found_by_id_in_math_and_minif2f(data_dir):
    from eval.symeq_repeat import math_statements

    assert len(math_statements("mathd_numbertheory_234")) == 10
    assert len(math_statements("task_test_gpt-4/48/number_theory/problem_234.json")) == 10
    with pytest.raises(SystemExit, match="no MATH or miniF2F problem"):
        math_statements("no_such_problem")
