"""The Isa-AutoFormal loader and the evaluation metrics."""

import json
from types import SimpleNamespace

import pytest

from atf.data.isabelle import load_math, load_math_dev, load_minif2f, minif2f_problem_text
from atf.symeq.config import SymEqConfig
from eval.harness import (
    COMBOS,
    Method,
    ScoredProblem,
    best_combination,
    category_of,
    correct_merged,
    labelling_efficiency,
    n_at_k,
    pass_at,
    pass_at_k,
    positional_correctness,
    random_pick,
    read_cache,
    symeq_records,
    tune,
    within_problem_auc,
)


def test_load_math_splits_and_labels(data_dir):
    test, train = load_math("test"), load_math("train")
    assert (len(test), len(train)) == (761, 36)
    assert all(len(p.candidates) == 10 for p in test)
    p = test[0]
    assert p.problem.endswith("The final answer is $5$.")
    assert p.candidates[0].statement.startswith("theorem") and p.candidates[0].back_translation
    labelled = sum(c.correct for q in test for c in q.candidates)
    assert labelled == 2925  # the PROVENANCE count of label=1 candidates on test
    with pytest.raises(ValueError):
        load_math("dev")


def test_the_papers_400_and_the_dev_set_split_math(data_dir):
    paper = [p for p in load_math("test") if p.in_paper_400]
    dev = load_math_dev()
    assert (len(paper), len(dev)) == (400, 397)  # the paper's random 400; the other 361 test and the 36 train
    assert not {p.id for p in paper} & {p.id for p in dev}


def test_load_minif2f_uses_the_oracle(data_dir):
    ps = load_minif2f()
    assert len(ps) == 488 and sum(p.meta["has_oracle"] for p in ps) == 256
    assert len(load_minif2f(oracle_only=True)) == 256
    assert all(not any(p.labels) for p in ps if not p.meta["has_oracle"])
    assert minif2f_problem_text("Find x. Show that it is 060.") == "Find x. The final answer is $060$."


def sp(labels, classes, symeq, semco, valid=None, pid="p"):
    return ScoredProblem(
        pid,
        "t",
        "test",
        labels,
        valid or [True] * len(labels),
        classes,
        symeq,
        semco,
        [[i] for i in range(len(labels))],
    )


def test_n_at_k_removes_classes_and_semco_takes_top_n():
    # classes {0,1,2} (wrong) and {3} (right): SymEq picks the big class first, then the next class
    p = sp([False, False, False, True], [[0, 1, 2], [3]], [0.75, 0.75, 0.75, 0.25], [0.9, 0.8, 0.7, 0.1])
    assert n_at_k([p], Method("symeq"), 1) == 0.0
    assert n_at_k([p], Method("symeq"), 2) == 1.0
    assert n_at_k([p], Method("semco"), 2) == 0.0  # its top 2 are both in the wrong class
    assert n_at_k([p], Method("semco"), 4) == 1.0
    assert pass_at([p], 3) == 0.0 and pass_at_k([p]) == 1.0 and random_pick([p]) == 0.25


def test_invalid_candidates_rank_last():
    p = sp([True, False], [[0], [1]], [0.5, 0.5], [0.2, 0.9], valid=[True, False])
    assert n_at_k([p], Method("semco"), 1) == 1.0
    assert n_at_k([p], Method("semco", syntax=False), 1) == 0.0


def test_tune_finds_the_alpha_plateau():
    # SemCo is right on p1 (SymEq wrong), SymEq right on p2 where SemCo's margin is tiny
    p1 = sp([False, True], [[0], [1]], [0.6, 0.4], [0.1, 0.9], pid="1")
    p2 = sp([True, False], [[0], [1]], [0.9, 0.1], [0.49, 0.51], pid="2")
    m, best = tune([p1, p2], "linear", tiebreaks=("index",))
    assert best == 1.0 and 0 < m.alpha < 1


def test_tune_chooses_the_tie_break_and_alpha_from_the_problems_it_is_given():
    # two SymEq classes of equal size: only SemCo's opinion separates them, and it is right here
    tie = sp([False, False, True, True], [[0, 1], [2, 3]], [0.5] * 4, [0.1, 0.2, 0.9, 0.8], pid="tie")
    m, best = tune([tie], "symeq")
    assert m.tiebreak == "semco" and best == 1.0
    assert n_at_k([tie], Method("symeq"), 1) == 0.0  # sampling order picks the wrong class
    # where SemCo is wrong on ties, sampling order is kept
    wrong = sp([True, True, False, False], [[0, 1], [2, 3]], [0.5] * 4, [0.1, 0.2, 0.9, 0.8], pid="w")
    assert tune([wrong], "symeq")[0].tiebreak == "index"


def test_best_combination_is_the_most_any_knobs_reach_on_those_problems():
    # p1: SymEq's big class is wrong and SemCo is right; p2: SymEq is right and SemCo is slightly wrong. Neither score
    # alone gets both; a combination whose alpha lets SymEq's margin win on p2 and SemCo's on p1 gets both.
    p1 = sp([False, False, True], [[0, 1], [2]], [2 / 3, 2 / 3, 1 / 3], [0.1, 0.1, 0.9], pid="1")
    p2 = sp([True, True, False], [[0, 1], [2]], [2 / 3, 2 / 3, 1 / 3], [0.5, 0.5, 0.6], pid="2")
    ps = [p1, p2]
    assert n_at_k(ps, Method("symeq"), 1) == 0.5 and n_at_k(ps, Method("semco"), 1) == 0.5
    m, best = best_combination(ps)
    assert best == 1.0 and m.name in COMBOS and 0 < m.alpha < 1
    assert n_at_k(ps, m, 1) == best
    # no alpha of any combination does better than what it reports
    assert all(n_at_k(ps, Method(c, a / 20), 1) <= best for c in COMBOS for a in range(21))
    # where one score is right everywhere, that is what it finds
    assert best_combination([p2])[1] == 1.0


def test_within_problem_auc_compares_candidates_of_one_problem_only():
    p1 = sp([True, False, False], [[0], [1], [2]], [0.3, 0.3, 0.3], [0.9, 0.1, 0.5], pid="1")
    p2 = sp([False, True], [[0], [1]], [0.5, 0.5], [0.2, 0.2], pid="2")
    assert within_problem_auc([p1], lambda q: q.semco) == 1.0
    assert within_problem_auc([p1], lambda q: [-x for x in q.semco]) == 0.0
    assert within_problem_auc([p2], lambda q: q.semco) == 0.5  # a tie counts half
    # three pairs: two won (p1), one tie (p2); a problem's scores are never compared with another's
    assert within_problem_auc([p1, p2], lambda q: q.semco) == pytest.approx(2.5 / 3)
    # sampling order plays no part: a constant score is no signal, whichever candidate is correct
    assert within_problem_auc([p1, p2], lambda q: [0.0] * q.k) == 0.5
    only_wrong = sp([False, False], [[0, 1]], [1.0, 1.0], [0.1, 0.2], pid="w")
    assert within_problem_auc([only_wrong], lambda q: q.semco) != within_problem_auc([only_wrong], lambda q: q.semco)
    with pytest.raises(ValueError, match="2 scores for 3"):
        within_problem_auc([p1], lambda q: [0.0, 1.0])


def test_answer_agreement_classes_and_positional_bias():
    p = sp([True, False, True, False], [[0], [1], [2], [3]], [0.25] * 4, [0.5] * 4)
    p.answers = ["5", None, "5", "7"]
    assert p.answer_classes == [[0, 2], [1], [3]]
    assert n_at_k([p], Method("answer"), 1) == 1.0
    q = sp([True, False, False, False], [[0], [1], [2], [3]], [0.25] * 4, [0.5] * 4)
    assert positional_correctness([p, q]) == [1.0, 0.0, 0.5, 0.0]
    assert category_of(SimpleNamespace(id="mathd_numbertheory_12", meta={})) == "mathd_numbertheory"
    assert category_of(SimpleNamespace(id="amc12b_2002_p3", meta={})) == "amc12"
    assert category_of(SimpleNamespace(id="x", meta={"type": "Geometry"})) == "Geometry"


def test_the_ceiling_merges_every_correct_candidate_and_keeps_the_rest():
    # SymEq split the two correct candidates (0, 3) and merged two wrong ones (1, 2): it picks the wrong class
    p = sp([True, False, False, True, False], [[0], [1, 2], [3, 4]], [0.2, 0.4, 0.4, 0.4, 0.4], [0.5] * 5)
    assert n_at_k([p], Method("symeq"), 1) == 0.0
    q = correct_merged(p)
    assert q.classes == [[0, 3], [1, 2], [4]] and q.symeq == [0.4, 0.4, 0.4, 0.4, 0.2]
    assert n_at_k([q], Method("symeq"), 1) == 1.0  # tied with {1, 2}: sampling order gives candidate 0
    assert p.classes == [[0], [1, 2], [3, 4]]  # the problem itself is not changed
    none = sp([False, False], [[0, 1]], [1.0, 1.0], [0.5, 0.5])
    assert correct_merged(none).classes == [[0, 1]]


def test_labelling_efficiency():
    p = sp([True, True, False, False], [[0, 1], [2, 3]], [0.5, 0.5, 0.5, 0.5], [0.1, 0.2, 0.9, 0.8])
    eff = labelling_efficiency([p], Method("semco"))
    assert eff.labels_all_plain == 4 and eff.labels_all_classes == 2 and eff.propagation_accuracy == 1.0
    # SemCo's order is 2, 3, 1, 0: three labels to reach a correct one, two when 3 is skipped (class of 2)
    assert eff.find_plain == 3 and eff.find_classes == 2
    assert eff.saved_all == 0.5


def test_read_cache_cuts_a_truncated_line(tmp_path):
    f = tmp_path / "c.jsonl"
    f.write_text('{"id": "a", "x": 1}\n{"id": "b", "x"')  # a crash mid-write: the last line has no newline
    assert list(read_cache(f)) == ["a"] and f.read_text() == '{"id": "a", "x": 1}\n'  # b is recomputed


LEAN_CANDS = [
    "theorem a (x : ℕ) (h : x + 1 = 3) : x = 2 := by sorry",
    "theorem b (y : ℕ) (h : y + 1 = 3) : y = 2 := by sorry",
    "theorem c (x : ℕ) (h : x + 1 = 3) : x = 3 := by sorry",
]


def test_symeq_records_in_workers_are_cached_and_resumed(tmp_path):
    problems = [SimpleNamespace(id=f"p{i}", statements=LEAN_CANDS) for i in range(3)]
    cache = tmp_path / "s.jsonl"
    rows = symeq_records(problems[:2], "lean", cache, SymEqConfig(workers=2))
    assert rows["p0"]["classes"] == [[0, 1], [2]] and not rows["p0"].get("timed_out")
    assert len(cache.read_text().splitlines()) == 2
    rows = symeq_records(problems, "lean", cache, SymEqConfig(workers=1))  # only p2 is computed
    assert rows["p2"]["classes"] == [[0, 1], [2]]
    ids = [json.loads(x)["id"] for x in cache.read_text().splitlines()]
    assert sorted(ids[:2]) == ["p0", "p1"] and ids[2] == "p2"  # two workers finish in either order


def test_a_problem_past_its_budget_is_recorded_unmerged_and_the_rest_go_on(tmp_path):
    # A fresh worker needs a few hundred ms to import z3 and atf, so 10 ms is always exceeded; each
    # worker past the budget is killed and replaced, and every problem still gets its line.
    problems = [SimpleNamespace(id=f"p{i}", statements=LEAN_CANDS) for i in range(2)]
    rows = symeq_records(problems, "lean", tmp_path / "s.jsonl", SymEqConfig(problem_budget_s=0.01))
    for r in rows.values():
        assert r["timed_out"] and r["classes"] == [[0], [1], [2]] and r["symeq"] == [1 / 3] * 3
    assert len((tmp_path / "s.jsonl").read_text().splitlines()) == 2
