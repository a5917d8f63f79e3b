"""k tool-loop rollouts per problem, then one statement chosen by SymEq + SemCo reranking.

The choice is made among the final statements of the best tier that has any: both checks passed, else
syntax passed, else any statement. The reranker (atf.rerank.Reranker) scores all k statements (SymEq
counts agreement across them) with the others flagged invalid; one distinct statement in the tier needs
no reranking.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from atf.agent.loop import AgentConfig, ToolLoop
from atf.agent.tools import Tool
from atf.agent.trajectory import Trajectory
from atf.llm.base import Engine

log = logging.getLogger(__name__)


@dataclass
class Formalization:
    """The outcome for one problem.

    statement: the chosen Lean statement (None when no rollout produced one).
    chosen: index of the chosen rollout in `samples`.
    candidates: indices of the rollouts the reranker scored (or, without reranking, the best tier).
    scores: rerank score per candidate (same order as `candidates`), None without reranking.
    tier: the tier the choice was made in: "passed", "syntax_ok", "any" or "none".
    """

    problem: str
    statement: str | None
    chosen: int | None
    samples: list[Trajectory]
    candidates: list[int] = field(default_factory=list)
    scores: list[float] | None = None
    tier: str = "none"

    @property
    def trajectory(self) -> Trajectory | None:
        return self.samples[self.chosen] if self.chosen is not None else None

    def to_dict(self, with_samples: bool = True) -> dict[str, Any]:
        out = {
            "problem": self.problem,
            "statement": self.statement,
            "chosen": self.chosen,
            "candidates": self.candidates,
            "scores": self.scores,
            "tier": self.tier,
            "success": bool(self.trajectory and self.trajectory.success),
        }
        if with_samples:
            out["samples"] = [t.to_dict() for t in self.samples]
        return out


def candidate_pool(samples: Sequence[Trajectory]) -> tuple[list[int], str]:
    with_statement = [i for i, t in enumerate(samples) if t.statement]
    for tier, keep in (("passed", lambda t: t.success), ("syntax_ok", lambda t: t.syntax_ok)):
        pool = [i for i in with_statement if keep(samples[i])]
        if pool:
            return pool, tier
    return with_statement, "any" if with_statement else "none"


def choose(problem: str, samples: list[Trajectory], reranker: Any | None) -> Formalization:
    """Pick one statement among the samples of `problem`: the best-ranked one of the best tier. The reranker
    sees every sample's statement (SymEq's classes count agreement among all k), with the ones outside the
    best tier flagged invalid so that they rank last."""
    pool, tier = candidate_pool(samples)
    if not pool:
        return Formalization(problem, None, None, samples, tier="none")
    if reranker is None or len({samples[i].statement for i in pool}) == 1:
        return Formalization(problem, samples[pool[0]].statement, pool[0], samples, pool, None, tier)
    candidates = [i for i, t in enumerate(samples) if t.statement]
    result = reranker.rerank(problem, [samples[i].statement for i in candidates], valid=[i in pool for i in candidates])
    best = next(candidates[j] for j in result.order if candidates[j] in pool)
    return Formalization(
        problem, samples[best].statement, best, samples, candidates, [float(x) for x in result.scores], tier
    )


class Formalizer:
    """`formalize(problems)`: k rollouts each, in one batched tool loop, then reranking.

    reranker: an `atf.rerank.Reranker` (or anything with `.rerank(problem, candidates)`); None keeps
        the first candidate of the best tier.
    """

    def __init__(
        self,
        engine: Engine,
        tools: Sequence[Tool],
        reranker: Any | None = None,
        config: AgentConfig | None = None,
        k: int = 4,
    ):
        if k < 1:
            raise ValueError(f"k must be >= 1, got {k}")
        self.loop = ToolLoop(engine, tools, config)
        self.reranker = reranker
        self.k = k

    def formalize(
        self,
        problems: Sequence[str],
        metas: Sequence[dict[str, Any]] | None = None,
        on_done: Callable[[Trajectory], None] | None = None,
        progress: bool = False,
    ) -> list[Formalization]:
        metas = list(metas) if metas is not None else [{} for _ in problems]
        flat_problems = [p for p in problems for _ in range(self.k)]
        flat_metas = [{**m, "sample": j} for m in metas for j in range(self.k)]
        trajs = self.loop.run(flat_problems, flat_metas, on_done=on_done, progress=progress)
        return [choose(p, trajs[i * self.k : (i + 1) * self.k], self.reranker) for i, p in enumerate(problems)]


def format_trace(result: Formalization, width: int = 100) -> str:
    """Human-readable: every sample's outcome, the chosen rollout's tool calls and verdicts, the statement."""
    lines = [f"Problem: {result.problem}", ""]
    lines.append(f"{len(result.samples)} samples (reranked: {result.tier}):")
    score_of = dict(zip(result.candidates, result.scores or []))
    for i, t in enumerate(result.samples):
        mark = "*" if i == result.chosen else " "
        verdict = "passed" if t.success else ("syntax ok" if t.syntax_ok else "failed")
        score = f"  score {score_of[i]:.3f}" if i in score_of else ""
        lines.append(f" {mark} [{i}] {verdict:9s} revisions {t.revisions}  stop {t.stop_reason}{score}")
    chosen = result.trajectory
    if chosen is not None:
        lines += ["", f"Trace of sample {result.chosen}:"]
        for n, call in enumerate(chosen.calls, 1):
            verdict = {True: "PASS", False: "FAIL", None: "REFUSED"}[call.passed]
            lines.append(f"  {n}. {call.name} -> {verdict}")
            shown = call.result if len(call.result) <= width * 4 else call.result[: width * 4] + " ..."
            lines += ["       " + ln for ln in shown.splitlines()]
    lines += ["", "Chosen statement:" if result.statement else "No statement was produced."]
    if result.statement:
        lines.append(result.statement)
    return "\n".join(lines)
