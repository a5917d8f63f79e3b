"""Reranking k sampled formalizations: SymEq (symbolic equivalence classes via Z3, and Lean where
installed) and SemCo (informalize, embed with MiniLM, cosine), combined with weight alpha.

    from atf.rerank import Reranker
    result = Reranker(combine="log", alpha=0.5).rerank(problem, candidates, language="lean")
    result.order, result.classes, result.select(3)
"""

from atf.rerank.combine import combine, rank, select, softmax
from atf.rerank.reranker import Reranker, RerankResult
from atf.rerank.semco import Embedder, SemCo, SemCoResult, default_embedder
from atf.symeq.equivalence import PairResult, SymEq, SymEqResult, equivalence, parse

__all__ = [
    "Reranker",
    "RerankResult",
    "SymEq",
    "SymEqResult",
    "PairResult",
    "equivalence",
    "parse",
    "SemCo",
    "SemCoResult",
    "Embedder",
    "default_embedder",
    "combine",
    "rank",
    "select",
    "softmax",
]
