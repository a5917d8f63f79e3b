"""Score combinations, ranking and n@k selection."""

import math

import pytest

from atf.rerank.combine import combine, rank, select, softmax


def test_softmax_is_a_distribution_and_temperature_sharpens():
    p = softmax([0.2, 0.5, 0.3], 0.25)
    assert abs(sum(p) - 1) < 1e-12 and p[1] == max(p)
    assert softmax([0.2, 0.5, 0.3], 0.05)[1] > p[1]
    with pytest.raises(ValueError):
        softmax([1.0], 0)


def test_combination_formulas():
    sym, sem = [0.6, 0.3, 0.1], [0.2, 0.9, 0.5]
    p, q = softmax(sym, 0.25), softmax(sem, 1 / 3)
    a = 0.3
    log = combine(sym, sem, "log", a)
    lin = combine(sym, sem, "linear", a)
    quad = combine(sym, sem, "quadratic", a)
    for i in range(3):
        assert log[i] == pytest.approx(a * math.log(p[i]) + (1 - a) * math.log(q[i]))
        assert lin[i] == pytest.approx(a * p[i] + (1 - a) * q[i])
        assert quad[i] == pytest.approx(a * p[i] ** 2 + (1 - a) * q[i] ** 2)


def test_alpha_extremes_reduce_to_one_score():
    sym, sem = [0.6, 0.3, 0.1], [0.2, 0.9, 0.5]
    for method in ("log", "linear", "quadratic"):
        assert rank(combine(sym, sem, method, 1.0)) == rank(sym)
        assert rank(combine(sym, sem, method, 0.0)) == rank(sem)


def test_combination_changes_the_winner_with_alpha():
    sym, sem = [0.5, 0.5, 0.2, 0.2], [0.30, 0.31, 0.95, 0.94]
    assert rank(combine(sym, sem, "log", 0.9))[0] == 1  # class tie broken by SemCo
    assert rank(combine(sym, sem, "log", 0.1))[0] == 2


def test_bad_arguments():
    with pytest.raises(ValueError):
        combine([0.1], [0.2], "cubic")
    with pytest.raises(ValueError):
        combine([0.1], [0.2], "log", 1.5)
    with pytest.raises(ValueError):
        combine([0.1, 0.2], [0.2], "log")


def test_rank_is_stable_and_puts_invalid_last():
    assert rank([0.5, 0.9, 0.5, 0.1]) == [1, 0, 2, 3]
    assert rank([0.5, 0.9, 0.5, 0.1], valid=[True, False, True, True]) == [0, 2, 3, 1]


def test_select_removes_the_chosen_class_each_round():
    order = [3, 0, 1, 4, 2]
    classes = [[0, 1, 3], [2], [4]]
    assert select(order, classes, 1) == [3]
    assert select(order, classes, 2) == [3, 4]
    assert select(order, classes, 3) == [3, 4, 2]
    assert select(order, classes, 10) == [3, 4, 2]  # only three meanings exist
    assert select(order, None, 2) == [3, 0]
    with pytest.raises(ValueError):
        select(order, classes, 0)


def test_rank_breaks_ties_by_the_second_score_then_by_sampling_order():
    from atf.rerank.combine import rank

    assert rank([0.5, 0.5, 0.9, 0.5], tiebreak=[0.1, 0.3, 0.0, 0.3]) == [2, 1, 3, 0]
    assert rank([0.5, 0.5], valid=[False, True], tiebreak=[0.9, 0.1]) == [1, 0]
