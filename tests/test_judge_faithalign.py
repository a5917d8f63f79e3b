import pytest

from atf.judge.faithalign import prf, score_findings, span_iou, spans_overlap
from atf.judge.result import Finding


def F(inf, lean, label, informal="quote", lean_text="quote"):
    return Finding(informal=informal if inf else None, lean=lean_text if lean else None, label=label,
                   informal_span=inf, lean_span=lean)


def test_span_iou_and_overlap():
    assert span_iou((0, 10), (5, 15)) == pytest.approx(5 / 15)
    assert span_iou((0, 10), (10, 20)) == 0.0 and not spans_overlap((0, 10), (10, 20))
    assert span_iou(None, None) == 1.0 and spans_overlap(None, None)
    assert span_iou(None, (0, 1)) == 0.0 and not spans_overlap((0, 1), None)
    assert prf(0, 0, 0) == (1.0, 1.0, 1.0) and prf(0, 3, 0) == (0.0, 0.0, 0.0)


def hand_built():
    gold = [
        [F((0, 10), (0, 10), "faithful"), F((20, 30), (20, 30), "unfaithful"), F((40, 50), None, "unfaithful")],
        [F((0, 5), (0, 5), "faithful")],
    ]
    pred = [
        [
            F((2, 10), (0, 8), "faithful"),  # links g1
            F((20, 28), (22, 30), "unfaithful"),  # links g2; IoU 0.8 / 0.8: the defect is found
            F((45, 60), None, "unfaithful"),  # links g3 (overlap), but informal IoU 5/20 = 0.25 < 0.5
            F((70, 80), (70, 80), "faithful"),  # links nothing
        ],
        [
            F((0, 5), (10, 15), "undecidable"),  # Lean side does not overlap
            Finding(informal="abc", lean="(x)", label="faithful", informal_span=None, lean_span=(0, 5)),  # quote not located
        ],
    ]
    return gold, pred


def test_link_defect_and_verdict_scores_on_hand_built_findings():
    gold, pred = hand_built()
    s = score_findings(gold, pred)
    # links: 3 matched of 6 predicted and 4 gold
    assert (s.link_precision, s.link_recall) == (0.5, 0.75) and s.link_f1 == pytest.approx(0.6)
    # defects: 1 matched of 2 predicted and 2 gold
    assert (s.defect_precision, s.defect_recall, s.defect_f1) == (0.5, 0.5, 0.5)
    # item 1 unfaithful/unfaithful, item 2 faithful vs undecidable
    assert s.verdict_accuracy == 0.5
    assert (s.items, s.gold_findings, s.pred_findings, s.gold_defects, s.pred_defects) == (2, 4, 6, 2, 2)
    loose = score_findings(gold, pred, iou_threshold=0.2)
    assert loose.defect_f1 == 1.0 and loose.link_f1 == s.link_f1


def test_matching_is_one_to_one_and_prefers_the_better_pair():
    gold = [[F((0, 10), (0, 10), "unfaithful"), F((8, 20), (8, 20), "unfaithful")]]
    pred = [[F((0, 10), (0, 10), "unfaithful"), F((0, 9), (0, 9), "unfaithful"), F((1, 10), (1, 10), "unfaithful")]]
    s = score_findings(gold, pred)
    assert s.link_recall == 1.0 and s.link_precision == pytest.approx(2 / 3)
    # the exact pred takes g1; g2 (8..20) has IoU < 0.5 with the others
    assert s.defect_recall == 0.5


def test_given_verdicts_override_and_bad_input():
    gold, pred = hand_built()
    s = score_findings(gold, pred, gold_verdicts=["unfaithful", "faithful"], pred_verdicts=["unfaithful", "faithful"])
    assert s.verdict_accuracy == 1.0
    with pytest.raises(ValueError, match="2 gold items but 1 predicted"):
        score_findings(gold, pred[:1])
    with pytest.raises(ValueError, match="neither an informal nor a Lean span"):
        score_findings([[Finding("a", "b", "faithful")]], [[]])


def test_checker_align_output_scored_against_gold_files(tmp_path, monkeypatch):
    import json

    from test_judge_doubles import ScriptedEngine

    import atf.llm
    from atf.cli import main
    from atf.judge.faithalign import score_files

    problem = "Let n be a positive integer. Show that n^2 >= n."
    statement = "theorem t (n : ℕ) : n ^ 2 ≥ n := by sorry"
    reply = json.dumps({"findings": [
        {"informal": "Let n be a positive integer", "lean": "(n : ℕ)", "label": "faithful", "explanation": ""},
        {"informal": "n^2 >= n", "lean": "n ^ 2 ≥ n", "label": "faithful", "explanation": ""},
    ]})
    monkeypatch.setattr(atf.llm, "load_engine", lambda spec: ScriptedEngine("j", reply))
    items = tmp_path / "items.jsonl"
    items.write_text(json.dumps({"id": "a", "problem": problem, "statement": statement}) + "\n")
    pred = tmp_path / "pred.jsonl"
    assert main(["consistency-check", "--mode", "align", "--input", str(items), "--output", str(pred), "--judge", "tiny"]) == 0
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "a", "problem": problem, "statement": statement, "findings": [
        {"informal": "positive integer", "lean": "(n : ℕ)", "label": "unfaithful"},  # positivity dropped
        {"informal": "n^2 >= n", "lean": "n ^ 2 ≥ n", "label": "faithful"},
    ]}) + "\n" + json.dumps({"id": "b", "problem": "p", "statement": "s", "findings": [
        {"informal": "p", "lean": "s", "label": "faithful"}]}) + "\n")
    scores, missing = score_files(gold, pred)
    assert missing == ["b"]
    # both predicted findings link to gold ones; the gold defect is missed; verdicts: a wrong, b missing
    assert scores.link_precision == 1.0 and scores.link_recall == pytest.approx(2 / 3)
    assert scores.defect_recall == 0.0 and scores.pred_defects == 0 and scores.verdict_accuracy == 0.0
