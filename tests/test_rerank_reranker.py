"""The Reranker interface other parts code against."""

import pytest

from atf.rerank import Reranker, RerankResult

PROBLEM = "What is the value of 3 * (6 * 8) when P * Q means (P + Q) / 2? The final answer is 5."
CANDS = [  # from the Isa-AutoFormal MATH data: faithful candidates 2, 3, 5 and three wrong ones
    'theorem\nfixes P Q :: real\nassumes h0 : "P * Q = (P + Q) / 2"\nshows  "3 * (6 * 8) = 5"',
    'theorem\nfixes P Q :: real\nassumes h0 : "P * Q = (P + Q) / 2"\nshows  "3 * (6 * 8) = 5"',
    'theorem\nfixes P Q :: real and f :: "real \\<Rightarrow> real \\<Rightarrow> real"\n'
    'assumes h0 : "\\<forall> P Q. f P Q = (P + Q) / 2"\nshows  "f 3 (f 6 8) = 5"',
    'theorem\nfixes P Q :: real and ast :: "real \\<Rightarrow> real \\<Rightarrow> real"\n'
    'assumes h0 : "\\<forall> P Q. ast P Q = (P + Q) / 2"\nshows  "ast 3 (ast 6 8) = 5"',
    'theorem\nfixes P Q :: real\nassumes h0 : "\\<forall> P Q. P * Q = (P + Q) / 2"\nshows  "3 * (6 * 8) = 5"',
    'theorem\nfixes g :: "real \\<Rightarrow> real \\<Rightarrow> real"\n'
    'assumes h0 : "\\<forall> a b. g a b = (a + b) / 2"\nshows  "g 3 (g 6 8) = 5"',
]
BACK = [
    "Find P and Q with P times Q equal to their average; show 3 * (6 * 8) = 5.",
    "If P * Q = (P + Q) / 2, show that 3 * (6 * 8) = 5.",
    "Let f(P, Q) = (P + Q) / 2. Find f(3, f(6, 8)). The final answer is 5.",
    "Given ast(P, Q) = (P + Q) / 2, compute ast(3, ast(6, 8)). The final answer is 5.",
    "For all P and Q, P * Q = (P + Q) / 2. Show 3 * (6 * 8) = 5.",
    "Let g(a, b) be the average of a and b. Show that g(3, g(6, 8)) = 5.",
]


@pytest.fixture(scope="module")
def reranker():
    return Reranker(combine="log", alpha=0.5)


def test_rerank_result_fields(reranker):
    res = reranker.rerank(PROBLEM, CANDS, BACK, language="isabelle")
    assert isinstance(res, RerankResult)
    assert sorted(res.order) == list(range(6))
    assert len(res.scores) == len(res.symeq_scores) == len(res.semco_scores) == 6
    assert [2, 3, 5] in res.classes and [0, 1] in res.classes
    # `∀ P Q. P * Q = (P + Q) / 2` binds a P and Q of their own, of a type Isabelle leaves a variable (the `fixes`
    # do not type bound names): false at real, not at every type of its sort, so the statement is not vacuous
    assert not res.symeq.vacuous[4]
    assert res.order[0] in (2, 3, 5)  # the largest class is the faithful one
    two = res.select(2)
    assert len(two) == 2 and two[0] in (2, 3, 5) and two[1] not in (2, 3, 5)  # n@k picks distinct classes
    assert res.semco_source == "given"


def test_alpha_extremes(reranker):
    sym_only = Reranker(alpha=1.0).rerank(PROBLEM, CANDS, BACK, language="isabelle")
    sem_only = Reranker(alpha=0.0).rerank(PROBLEM, CANDS, BACK, language="isabelle")
    best_sem = max(range(6), key=lambda i: (sem_only.semco_scores[i], -i))
    assert sem_only.order[0] == best_sem
    assert sym_only.symeq_scores[sym_only.order[0]] == max(sym_only.symeq_scores)


def test_bad_input(reranker):
    with pytest.raises(ValueError):
        reranker.rerank(PROBLEM, [])
    with pytest.raises(ValueError):
        Reranker(combine="cubic")
    with pytest.raises(ValueError):
        reranker.rerank(PROBLEM, CANDS, BACK, language="coq")
