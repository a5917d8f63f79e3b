"""Consistency check: an ensemble of LLM judges decides whether a Lean 4 statement says what the problem says.

from atf.judge import ConsistencyChecker, ConsistencyResult
checker = ConsistencyChecker(judges, mode="vote" | "oap" | "align")
checker.check(problem, statement) -> ConsistencyResult (.consistent, .votes, .findings, .feedback())
"""

from atf.judge.checker import ConsistencyChecker
from atf.judge.judge import Judge, load_judge
from atf.judge.oap import OAPConfig
from atf.judge.result import ConsistencyResult, Finding, Vote

__all__ = ["ConsistencyChecker", "ConsistencyResult", "Finding", "Judge", "OAPConfig", "Vote", "load_judge"]
