"""Rerank k sampled formalizations of one problem by SymEq and SemCo."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from atf.llm.base import Engine, SamplingParams
from atf.rerank.combine import combine, rank, select
from atf.rerank.semco import Embedder, SemCo
from atf.symeq.config import SymEqConfig
from atf.symeq.equivalence import SymEqResult
from atf.symeq.pool import SymEqPool, shared_pool


@dataclass
class RerankResult:
    """order: candidate indices best first; scores: the combined score of each candidate (by index);
    symeq_scores / semco_scores: the two components (class fraction, cosine); classes: SymEq classes,
    largest first; informalizations: the texts SemCo embedded; symeq: the full SymEq result (pair
    verdicts with counterexamples)."""

    order: list[int]
    scores: list[float]
    symeq_scores: list[float]
    semco_scores: list[float]
    classes: list[list[int]]
    informalizations: list[str] = field(default_factory=list)
    semco_source: str = ""
    symeq: SymEqResult | None = None

    def select(self, n: int) -> list[int]:
        """n@k: the n best candidates from n different equivalence classes."""
        return select(self.order, self.classes, n)

    @property
    def best(self) -> int:
        return self.order[0]


class Reranker:
    """SymEq + SemCo reranking.

    informalizer: engine that reads candidates back into natural language for SemCo (None: use the given
        back-translations, or embed the statements themselves).
    embedder: the sentence embedder (default: shipped MiniLM).
    combine: "log" | "linear" | "quadratic" (see `atf.rerank.combine`).
    alpha: weight of SymEq in the combination (1: SymEq only, 0: SemCo only).
    tau_symeq / tau_semco: softmax temperatures that put the two scores on one scale.
    symeq: SymEq's settings (Z3 timeout, alignments, the hard time budgets per step and per problem).
    pool: the worker processes SymEq runs in (default: the process-wide shared pool).
    lean: optional `LeanEquivalence` backend for pairs Z3 cannot decide.
    informalize_params: sampling settings for the informalizer.
    """

    def __init__(
        self,
        informalizer: Engine | None = None,
        embedder: Embedder | None = None,
        combine: str = "log",
        alpha: float = 0.5,
        tau_symeq: float = 0.25,
        tau_semco: float = 1 / 3,
        symeq: SymEqConfig | None = None,
        pool: SymEqPool | None = None,
        lean=None,
        informalize_params: SamplingParams | None = None,
    ):
        if combine not in ("log", "linear", "quadratic"):
            raise ValueError(f"combine must be log, linear or quadratic, got {combine!r}")
        if not 0.0 <= alpha <= 1.0:
            raise ValueError(f"alpha must be in [0, 1], got {alpha}")
        self.method = combine
        self.alpha = alpha
        self.tau_symeq = tau_symeq
        self.tau_semco = tau_semco
        self.symeq_config = symeq or SymEqConfig()
        self.pool = pool
        self.lean = lean
        self.semco = SemCo(informalizer, embedder, informalize_params)

    def rerank(
        self,
        problem: str,
        candidates: Sequence[str],
        back_translations: Sequence[str] | None = None,
        language: str = "lean",
        valid: Sequence[bool] | None = None,
    ) -> RerankResult:
        """Scores, classes and order for the k candidates of one problem.

        valid: optional per-candidate flags (e.g. passed the syntax check); invalid ones rank last.
        """
        if not candidates:
            raise ValueError("no candidates to rerank")
        if valid is not None and len(valid) != len(candidates):
            raise ValueError(f"{len(valid)} validity flags for {len(candidates)} candidates")
        pool = self.pool or shared_pool(self.symeq_config.workers)
        sym = pool.cluster(list(candidates), language, self.symeq_config, self.lean if language == "lean" else None)
        sem = self.semco.score(problem, candidates, back_translations, language)
        scores = combine(sym.scores, sem.scores, self.method, self.alpha, self.tau_symeq, self.tau_semco)
        return RerankResult(
            rank(scores, valid), scores, sym.scores, sem.scores, sym.classes, sem.informalizations, sem.source, sym
        )
