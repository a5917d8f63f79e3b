"""eval/symeq_coverage_dev.py's class variants and the AUC it prints beside 1@k."""

from types import SimpleNamespace

from eval.harness import Method, n_at_k
from eval.symeq_coverage_dev import as_scored, auc, contradictory_apart


def test_contradictory_candidates_become_classes_of_their_own():
    classes = [[0, 2, 3], [1, 4]]
    vacuous = [False, False, True, True, False]
    assert sorted(contradictory_apart(classes, vacuous)) == [[0], [1, 4], [2], [3]]
    assert contradictory_apart(classes, [False] * 5) == classes


def test_as_scored_ranks_by_class_size_and_the_auc_reads_it():
    p = SimpleNamespace(id="p", split="test", labels=[False, False, True, True, False])
    big_wrong = as_scored(p, [[0, 1], [2], [3], [4]])
    assert big_wrong.symeq == [0.4, 0.4, 0.2, 0.2, 0.2]
    assert n_at_k([big_wrong], Method("symeq"), 1) == 0.0
    # correct (2, 3) against incorrect (0, 1, 4): 2 ties with 4, both lose to 0 and 1 -> (0 + 0 + 0.5) * 2 / 6
    assert auc([big_wrong]).endswith(f"{1 / 6:.3f}")
    right = as_scored(p, [[2, 3], [0], [1], [4]])
    assert n_at_k([right], Method("symeq"), 1) == 1.0 and auc([right]).endswith("1.000")
