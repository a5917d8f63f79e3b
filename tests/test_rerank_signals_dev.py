"""eval/rerank_signals_dev.py's scores: numeric literals, and what SymEq leaves unread."""

from eval.rerank_signals_dev import literal_agreement, numbers, unreadable


def test_numbers_are_values_not_digits_of_names():
    assert numbers("Find $1{,}000 + 2.5$ and x2 + h0 + 3^{10}; 1,000 again") == {1000.0, 2.5, 3.0, 10.0}
    assert numbers("0 and 1 say little") == set()


def test_literal_agreement_rewards_the_problems_numbers_and_penalises_others():
    problem = "What is $12 + 30$? The final answer is $42$."
    right = 'theorem fixes x :: nat assumes h0 : "x = 12 + 30" shows "x = 42"'
    wrong = 'theorem fixes x :: nat assumes h0 : "x = 12 + 30" shows "x = 41"'
    assert literal_agreement(problem, right) == 1.5
    assert literal_agreement(problem, wrong) == 2 / 3 + 0.5 * 2 / 3
    assert literal_agreement("no numbers here", right) == 0.0


def test_unreadable_flags_what_isabelle_rejects():
    # `D :: real` applied to arguments: Isabelle's type clash, a proposition SymEq leaves unread
    assert unreadable('theorem fixes a D :: real assumes h0 : "D a = 1" shows "a = 1"')
    assert unreadable('theorem fixes x :: real assumes h0 : "sqrt (x + sqrt (x + ...)) = 5" shows "x = 20"')
    assert not unreadable('theorem fixes x :: real assumes h0 : "x + 1 = 3" shows "x = 2"')
