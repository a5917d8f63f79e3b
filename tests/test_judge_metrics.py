import pytest

from atf.judge.metrics import binary_scores, exact_agreement, pairwise_agreement


def test_binary_scores_by_hand():
    pred = [True, True, False, False, True]
    gold = [True, False, False, True, True]
    s = binary_scores(pred, gold)  # tp 2, fp 1, tn 1, fn 1
    assert (s.n, s.accuracy, s.fpr, s.precision, s.recall) == (5, 0.6, 0.5, 2 / 3, 2 / 3)
    assert s.base_rate == 0.6
    never = binary_scores([False] * 3, [True, False, False])
    assert never.precision is None and never.fpr == 0.0 and never.recall == 0.0
    with pytest.raises(ValueError, match="2 predictions but 1 labels"):
        binary_scores([True, False], [True])


def test_agreement_by_hand():
    h1 = [True, True, False, False]
    h2 = [True, False, False, True]
    h3 = [True, True, True, False]
    assert exact_agreement([h1, h2, h3]) == 0.25  # only item 0
    # pairs: (h1,h2) 2/4, (h1,h3) 3/4, (h2,h3) 1/4
    assert pairwise_agreement([h1, h2, h3]) == pytest.approx((0.5 + 0.75 + 0.25) / 3)
    assert exact_agreement([h1, h1]) == pairwise_agreement([h1, h1]) == 1.0
    with pytest.raises(ValueError, match="at least two raters"):
        pairwise_agreement([h1])
    with pytest.raises(ValueError, match="same, non-empty"):
        exact_agreement([h1, h2[:2]])
