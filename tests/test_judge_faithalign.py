"""FaithAlign scoring: every rule with a hand-computed expectation (the arithmetic is in the comments)."""

import json

import pytest

from atf.judge.faithalign import (
    as_region,
    credit,
    matches,
    max_matching,
    merge_findings,
    nonmath_mask,
    prf,
    score_files,
    score_findings,
)
from atf.judge.result import Finding


def F(inf, lean, label, informal="quote", lean_text="quote", judge=""):
    return Finding(
        informal=informal if inf else None,
        lean=lean_text if lean else None,
        label=label,
        informal_span=inf,
        lean_span=lean,
        judge=judge,
    )


def test_prf_edge_cases():
    assert prf(0, 0, 0) == (1.0, 1.0, 1.0) and prf(0, 3, 0) == (0.0, 0.0, 0.0)
    assert prf(2, 4, 2) == (0.5, 1.0, pytest.approx(2 / 3))


def test_endpoint_precision_and_recall_not_iou():
    gold = F((0, 10), (0, 10), "unfaithful")
    # 6 of 10 gold characters, 6 of 10 predicted: P = R = 0.6 on both sides -> a match (IoU would be 6/14 = 0.43)
    six = F((4, 14), (4, 14), "unfaithful")
    assert matches(gold, six)
    s = score_findings([[gold]], [[six]])
    assert (s.defect_precision, s.defect_recall, s.defect_f1) == (1.0, 1.0, 1.0)
    assert s.defect_weighted_f1 == pytest.approx(0.6)  # credit = endpoint F1 0.6 on both sides
    assert not matches(gold, F((0, 4), (0, 10), "unfaithful"))  # informal recall 4/10
    assert matches(gold, F((0, 20), (0, 10), "unfaithful"))  # informal precision 10/20 = 0.5 (>=)
    assert not matches(gold, F((0, 21), (0, 10), "unfaithful"))  # 10/21 < 0.5
    # a side the gold leaves without counterpart must have none in the prediction
    assert matches(F((0, 10), None, "unfaithful"), F((0, 10), None, "unfaithful"))
    assert not matches(F((0, 10), None, "unfaithful"), F((0, 10), (0, 3), "unfaithful"))
    assert credit(gold, F((20, 30), (0, 10), "unfaithful")) == 0.0  # one endpoint without overlap


def test_non_mathematical_lean_characters_are_trimmed():
    statement = "theorem foo (x : ℕ) (h : x > 2) : x ^ 2 > 4 := by sorry"
    goal = statement.index("x ^ 2 > 4")
    gold = F((0, 5), (goal, goal + len("x ^ 2 > 4")), "unfaithful")
    with_proof = F((0, 5), (goal, len(statement)), "unfaithful")  # "x ^ 2 > 4 := by sorry"
    mask = nonmath_mask(statement)
    assert all(i in mask for i in range(len("theorem foo")))  # the head carries no mathematics
    assert all(i in mask for i in range(statement.index(":= by sorry"), len(statement)))
    # untrimmed: 9 of 21 characters -> precision 0.43, no match; trimmed: "x^2>4" on both -> P = R = 1
    assert not matches(gold, with_proof) and matches(gold, with_proof, lean_mask=mask)
    assert score_findings([[gold]], [[with_proof]]).defect_f1 == 0.0
    assert score_findings([[gold]], [[with_proof]], statements=[statement]).defect_f1 == 1.0


def test_matching_is_maximum_not_greedy():
    # g1 = 0..10, g2 = 4..14 (informal only). p1 = 0..10 matches g1 (exact) and g2 (P = R = 0.6);
    # p2 = 0..6 matches g1 only (P = 1, R = 0.6). Greedy best-first takes p1-g1 and stops at 1 match.
    gold = [F((0, 10), None, "unfaithful"), F((4, 14), None, "unfaithful")]
    pred = [F((0, 10), None, "unfaithful"), F((0, 6), None, "unfaithful")]
    assert max_matching(2, 2, lambda g, p: matches(gold[g], pred[p])) == [(0, 1), (1, 0)]
    s = score_findings([gold], [pred], merge=False)
    assert (s.defect_precision, s.defect_recall) == (1.0, 1.0)
    # weighted: best assignment p1-g2 (F1 0.6) + p2-g1 (F1 2*1*0.6/1.6 = 0.75) = 1.35 beats p1-g1 + p2-g2
    # (1.0 + 0.25); P = R = 1.35 / 2
    assert s.defect_weighted_f1 == pytest.approx(0.675)


def test_multi_span_regions():
    gold = F([(0, 5), (10, 15)], None, "unfaithful")  # 10 characters in two pieces
    assert as_region([[10, 15], [0, 5]]) == [(0, 5), (10, 15)] and as_region([3, 7]) == [(3, 7)]
    assert matches(gold, F([(0, 5), (10, 13)], None, "unfaithful"))  # inter 8: P = 1, R = 0.8
    assert matches(gold, F((0, 15), None, "unfaithful"))  # inter 10: P = 10/15, R = 1
    assert matches(gold, F((0, 5), None, "unfaithful"))  # P = 1, R = 0.5
    assert not matches(gold, F((2, 5), None, "unfaithful"))  # R = 0.3
    with pytest.raises(ValueError, match="span must be"):
        as_region([[5, 2]])


def four_items():
    A = (  # gold: two defects and a faithful link; pred finds one defect, calls the other undecidable
        [F((0, 10), (0, 10), "unfaithful"), F((20, 30), (20, 30), "unfaithful"), F((40, 50), (40, 50), "faithful")],
        [F((0, 10), (0, 10), "unfaithful"), F((40, 50), (40, 50), "faithful"), F((20, 30), (20, 30), "undecidable")],
    )
    B = (  # one defect found, one extra defect
        [F((0, 10), None, "unfaithful")],
        [F((0, 10), None, "unfaithful"), F((50, 60), (50, 60), "unfaithful")],
    )
    C = (  # an undecidable link found
        [F((0, 10), (0, 10), "undecidable"), F((20, 30), (20, 30), "faithful")],
        [F((0, 10), (0, 10), "undecidable"), F((20, 30), (20, 30), "faithful")],
    )
    D = ([F((0, 10), (0, 10), "faithful")], [F((0, 10), (0, 10), "undecidable")])  # a faithful link doubted
    items = [A, B, C, D]
    return [g for g, _ in items], [p for _, p in items]


def test_link_defect_undecidable_complete_verdict_and_undecidable_rate():
    gold, pred = four_items()
    s = score_findings(gold, pred)
    # links (labels ignored): A 3 of 3, B 1 (2 predicted), C 2, D 1 -> tp 7, pred 8, gold 7
    assert (s.link_precision, s.link_recall) == (7 / 8, 1.0) and s.link_f1 == pytest.approx(14 / 15)
    # defects: A 1 (gold 2, pred 1), B 1 (gold 1, pred 2) -> tp 2 of 3 and 3
    assert (s.defect_precision, s.defect_recall) == (2 / 3, 2 / 3) and s.defect_f1 == pytest.approx(2 / 3)
    assert s.defect_weighted_f1 == pytest.approx(2 / 3)  # exact spans: credit 1 per match
    # undecidable: A 0 (pred 1), C 1, D 0 (pred 1) -> tp 1, pred 3, gold 1: P 1/3, R 1, F1 0.5
    assert (s.undecidable_precision, s.undecidable_recall, s.undecidable_f1) == (pytest.approx(1 / 3), 1.0, 0.5)
    # complete-defect identification: A misses one of its two defects, B finds its one -> 1 of 2
    assert s.complete_defect_identification == 0.5 and s.defective_items == 2
    # verdicts (priority rule): A unf/unf, B unf/unf, C und/und, D faithful/undecidable -> 3 of 4
    assert s.verdict_accuracy == 0.75
    assert s.undecidable_item_rate == 0.5 and s.gold_undecidable_item_rate == 0.25  # C, D predicted; C gold
    assert (s.items, s.gold_findings, s.pred_findings, s.gold_defects, s.pred_defects) == (4, 7, 8, 3, 3)


def test_an_ensembles_findings_are_merged_before_scoring():
    gold = [[F((0, 10), (0, 10), "unfaithful")]]
    two_judges = [F((0, 10), (0, 10), "unfaithful", judge="a"), F((1, 10), (0, 9), "unfaithful", judge="b")]
    merged = merge_findings(two_judges)
    assert len(merged) == 1 and merged[0].judge == "a+b"
    assert score_findings(gold, [two_judges]).defect_precision == 1.0  # one defect, found twice, counts once
    assert score_findings(gold, [two_judges], merge=False).defect_precision == 0.5
    disagree = merge_findings(
        [F((0, 10), (0, 10), "faithful", judge="a"), F((0, 10), (0, 10), "unfaithful", judge="b")]
    )
    assert [f.label for f in disagree] == ["unfaithful"]  # the priority rule labels the merged link


def test_unlocated_predictions_match_nothing_and_bad_input():
    gold = [[F((0, 5), (0, 5), "faithful")]]
    lost = Finding(informal="abc", lean="(x)", label="faithful", informal_span=None, lean_span=(0, 5))
    s = score_findings(gold, [[lost]])
    assert (s.link_precision, s.link_recall) == (0.0, 0.0) and s.pred_findings == 1
    with pytest.raises(ValueError, match="1 gold items but 2 predicted"):
        score_findings(gold, [[], []])
    with pytest.raises(ValueError, match="neither an informal nor a Lean span"):
        score_findings([[Finding("a", "b", "faithful")]], [[]])
    s = score_findings(gold, [[]], gold_verdicts=["faithful"], pred_verdicts=["faithful"])
    assert s.verdict_accuracy == 1.0 and s.link_recall == 0.0


def test_multi_span_files_score_and_the_eval_script_runs(tmp_path, capsys):
    import importlib.util
    from pathlib import Path

    statement = "theorem t (a b : ℝ) (h : a < b) : a + 1 < b + 1 := by sorry"
    problem = "Let a and b be reals with a < b. Show a + 1 < b + 1."
    region = [
        [statement.index("(a b : ℝ)"), statement.index("(a b : ℝ)") + 9],
        [statement.index("(h"), statement.index("(h") + 9],
    ]
    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        json.dumps(
            {
                "id": "x",
                "problem": problem,
                "statement": statement,
                "findings": [
                    {
                        "informal": "Let a and b be reals with a < b",
                        "lean": None,
                        "lean_span": region,
                        "label": "faithful",
                        "informal_span": [0, 31],
                    }
                ],
            }
        )
        + "\n"
    )
    pred = tmp_path / "pred.jsonl"
    pred.write_text(
        json.dumps(
            {
                "id": "x",
                "verdict": "faithful",
                "findings": [
                    {
                        "informal": "reals with a < b",
                        "informal_span": [15, 31],
                        "lean": "x",
                        "lean_span": region,
                        "label": "faithful",
                    },
                ],
            }
        )
        + "\n"
    )
    scores, missing = score_files(gold, pred)
    # informal: P = 16/16, R = 16/31 = 0.516 -> a match; lean: the same region
    assert missing == [] and scores.link_f1 == 1.0 and scores.verdict_accuracy == 1.0
    path = Path(__file__).resolve().parents[1] / "eval" / "faithalign_eval.py"
    spec = importlib.util.spec_from_file_location("faithalign_eval", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--gold", str(gold), "--pred", str(pred), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["link_f1"] == 1.0 and printed["complete_defect_identification"] is None


def test_checker_align_output_scored_against_gold_files(tmp_path, monkeypatch):
    import json

    from test_judge_doubles import ScriptedEngine

    import atf.llm
    from atf.cli import main
    from atf.judge.faithalign import score_files

    problem = "Let n be a positive integer. Show that n^2 >= n."
    statement = "theorem t (n : ℕ) : n ^ 2 ≥ n := by sorry"
    reply = json.dumps(
        {
            "findings": [
                {"informal": "Let n be a positive integer", "lean": "(n : ℕ)", "label": "faithful", "explanation": ""},
                {"informal": "n^2 >= n", "lean": "n ^ 2 ≥ n", "label": "faithful", "explanation": ""},
            ]
        }
    )
    monkeypatch.setattr(atf.llm, "load_engine", lambda spec: ScriptedEngine("j", reply))
    items = tmp_path / "items.jsonl"
    items.write_text(json.dumps({"id": "a", "problem": problem, "statement": statement}) + "\n")
    pred = tmp_path / "pred.jsonl"
    argv = ["consistency-check", "--mode", "align", "--input", str(items), "--output", str(pred), "--judge", "tiny"]
    assert main(argv) == 0
    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        json.dumps(
            {
                "id": "a",
                "problem": problem,
                "statement": statement,
                "findings": [
                    {"informal": "positive integer", "lean": "(n : ℕ)", "label": "unfaithful"},  # positivity dropped
                    {"informal": "n^2 >= n", "lean": "n ^ 2 ≥ n", "label": "faithful"},
                ],
            }
        )
        + "\n"
        + json.dumps(
            {
                "id": "b",
                "problem": "p",
                "statement": "s",
                "findings": [{"informal": "p", "lean": "s", "label": "faithful"}],
            }
        )
        + "\n"
    )
    scores, missing = score_files(gold, pred)
    assert missing == ["b"]
    # both predicted findings link to gold ones; the gold defect is missed; verdicts: a wrong, b missing
    assert scores.link_precision == 1.0 and scores.link_recall == pytest.approx(2 / 3)
    assert scores.defect_recall == 0.0 and scores.pred_defects == 0 and scores.verdict_accuracy == 0.0
