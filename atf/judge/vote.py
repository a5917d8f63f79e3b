"""Ensemble vote: each judge reads the problem and the Lean statement and answers VERDICT + REASONS."""

from __future__ import annotations

from typing import Sequence

from atf.judge.judge import Judge, ask
from atf.judge.parsing import parse_verdict
from atf.judge.prompts import VERDICT_PREFIX, vote_messages
from atf.judge.result import Vote


def failed_vote(judge: Judge, verdict: str, error: str) -> Vote:
    return Vote(judge.name, verdict, parsed=False, samples=judge.samples, samples_parsed=0, error=error)


def vote_from_samples(name: str, texts: list[str], prompt: str = "") -> Vote:
    """Strict majority of the samples; unreadable samples count as inconsistent. Reason lines copied
    verbatim from the prompt (small models echo the instructions) are dropped."""
    parsed = [parse_verdict(t) for t in texts]
    readable = [(v, r) for v, r in parsed if v is not None]
    n_yes = sum(v == "consistent" for v, _ in readable)
    verdict = "consistent" if 2 * n_yes > len(texts) else "inconsistent"
    reasons = next((r for v, r in readable if v == verdict), [])
    reasons = [r for r in reasons if not (len(r) >= 12 and r in prompt)]
    return Vote(
        name=name,
        verdict=verdict,
        reasons=list(reasons),
        parsed=len(readable) == len(texts),
        samples=len(texts),
        samples_parsed=len(readable),
        raw=texts[:1],
    )


def run_vote(judges: Sequence[Judge], items: Sequence[tuple[str, str]]) -> list[list[Vote]]:
    """votes[item][judge]."""
    conversations = [vote_messages(problem, statement) for problem, statement in items]
    columns = []
    for judge in judges:
        texts, error = ask(judge, conversations, VERDICT_PREFIX)
        if error:
            columns.append([failed_vote(judge, "inconsistent", error) for _ in items])
        else:
            columns.append([vote_from_samples(judge.name, row, conv[-1]["content"]) for row, conv in zip(texts, conversations)])
    return [list(row) for row in zip(*columns)] if columns else [[] for _ in items]
