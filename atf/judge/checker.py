"""`ConsistencyChecker`: does a Lean 4 statement say what the informal problem says? Ask every judge.

    checker = ConsistencyChecker([load_engine("smollm2")], mode="vote")
    result = checker.check(problem, statement)
    result.consistent, result.feedback()

Modes:
    vote   each judge answers VERDICT + REASONS; consistent only when every judge says consistent.
    oap    nine atomic properties + a five-point rating per judge, grouped into LP/MC/FQ and weighted into a
           score, with FV (a Lean compile) as a veto (see atf.judge.oap); consistent when every judge passes.
    align  judges link informal spans to Lean spans and label them (see atf.judge.align); consistent when
           the priority-rule verdict is "faithful".
An answer that cannot be read always counts as inconsistent and is reported with parsed=False.
A judge whose request failed gives no verdict; see `decide` for what that does to the item.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Literal

from atf.judge.align import priority_verdict, run_align
from atf.judge.judge import Judge, as_judges
from atf.judge.oap import OAPConfig, run_oap
from atf.judge.result import ERROR, ConsistencyResult, Vote
from atf.judge.vote import run_vote
from atf.llm import Engine

log = logging.getLogger(__name__)

Mode = Literal["vote", "oap", "align"]
MODES = ("vote", "oap", "align")
FVSource = float | bool | Callable[[Sequence[str]], Sequence[float | bool]] | Literal["auto"] | None


def syntax_fv(statements: Sequence[str], checker: Any = None) -> list[float | None]:
    """FV from `atf.lean.SyntaxChecker`: 1.0 when Lean compiled the statement, 0.0 when Lean rejected it,
    None when Lean did not run on it (a pre-check result measures no formal validity)."""
    if checker is None:
        from atf.lean import SyntaxChecker

        checker = SyntaxChecker()
    return [(1.0 if r.ok else 0.0) if r.checked_by == "lean" else None for r in checker.check_many(list(statements))]


class ConsistencyChecker:
    """An ensemble of judges behind one check.

    judges: `atf.llm.Engine`s (default settings) or `Judge`s (own sampling params, samples, scoring).
    mode: "vote" | "oap" | "align" (see module doc).
    fv: oap mode's formal validity (a veto when 0). "auto": `atf.lean.SyntaxChecker`, counted only where
        Lean itself compiled the statement, else left out; a number for every item; a callable taking the
        batch's statements and returning one value (bool, 0..1, or None = unknown) each; None: left out.
    oap: weights, threshold and rating gate for oap mode.
    """

    def __init__(
        self,
        judges: Sequence[Judge | Engine],
        mode: Mode = "vote",
        fv: FVSource = "auto",
        oap: OAPConfig | None = None,
    ):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
        self.judges = as_judges(judges)
        self.mode = mode
        self.fv = fv
        self.oap = oap or OAPConfig()
        self._syntax_checker: Any = None

    def check(self, problem: str, statement: str) -> ConsistencyResult:
        return self.check_many([(problem, statement)])[0]

    def check_many(self, items: Sequence[tuple[str, str]]) -> list[ConsistencyResult]:
        """One result per (problem, statement), in order; each judge sees the whole batch in one call."""
        items = [validate_item(i, item) for i, item in enumerate(items)]
        if not items:
            return []
        if self.mode == "vote":
            return [self._result(item, votes) for item, votes in zip(items, run_vote(self.judges, items))]
        if self.mode == "oap":
            fv = self._fv_values([s for _, s in items])
            return [self._result(item, votes) for item, votes in zip(items, run_oap(self.judges, items, fv, self.oap))]
        aligned = run_align(self.judges, items)
        return [self._result(item, votes, findings) for item, (votes, findings) in zip(items, aligned)]

    def _result(self, item: tuple[str, str], votes: list[Vote], findings=()) -> ConsistencyResult:
        verdict = decide(votes, self.mode)
        ok = verdict in ("consistent", "faithful")
        return ConsistencyResult(item[0], item[1], self.mode, ok, verdict, votes, list(findings))

    def _fv_values(self, statements: list[str]) -> list[float | None]:
        fv = self.fv
        if fv is None:
            return [None] * len(statements)
        if isinstance(fv, (bool, int, float)):
            return [float(fv)] * len(statements)
        if fv == "auto":
            if self._syntax_checker is None:
                try:
                    from atf.lean import SyntaxChecker

                    self._syntax_checker = SyntaxChecker()
                except ImportError as err:
                    log.warning("FV left out of the OAP score: atf.lean.SyntaxChecker unavailable (%s)", err)
                    self.fv = None
                    return [None] * len(statements)
            return syntax_fv(statements, self._syntax_checker)
        if callable(fv):
            values = list(fv(statements))
            if len(values) != len(statements):
                raise ValueError(f"fv callable returned {len(values)} values for {len(statements)} statements")
            return [None if v is None else float(v) for v in values]
        raise ValueError(f"fv must be 'auto', a number, a callable or None, got {fv!r}")


def decide(votes: Sequence[Vote], mode: str) -> str:
    """The item's verdict from its judges' votes. Consistency needs every judge, so a rejection by any
    judge that answered decides the item (align: an "unfaithful" vote); otherwise a judge that failed to
    answer leaves the verdict open: "error", a third outcome that is neither pass nor fail."""
    answered = [v for v in votes if not v.errored]
    if mode == "align":
        labels = [v.verdict for v in answered]
        if "unfaithful" in labels:
            return "unfaithful"
        return ERROR if len(answered) < len(votes) else priority_verdict(labels)
    if any(not v.consistent for v in answered):
        return "inconsistent"
    return ERROR if len(answered) < len(votes) else "consistent"


def validate_item(index: int, item: Any) -> tuple[str, str]:
    try:
        problem, statement = item
    except (TypeError, ValueError):
        raise ValueError(f"item {index}: expected a (problem, statement) pair, got {type(item).__name__}") from None
    for name, value in (("problem", problem), ("statement", statement)):
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"item {index}: {name} must be a non-empty string")
    return problem, statement
