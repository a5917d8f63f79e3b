"""Ensemble vote: each judge reads the problem and the Lean statement and answers VERDICT + REASONS."""

from __future__ import annotations

from collections.abc import Sequence

from atf.judge.judge import Judge, Reply, ask
from atf.judge.parsing import parse_verdict
from atf.judge.prompts import VERDICT_PREFIX, vote_messages
from atf.judge.result import ERROR, Vote


def failed_vote(judge: Judge, error: str) -> Vote:
    """The judge's request failed: no verdict ("error"); the message is for logs, not the formalizer."""
    return Vote(judge.name, ERROR, parsed=False, samples=judge.samples, samples_parsed=0, error=error)


def vote_from_samples(name: str, reply: Reply | list[str], prompt: str = "") -> Vote:
    """Strict majority of the samples; unreadable samples count as inconsistent. The reasons are those of
    every readable sample that agrees with the verdict (duplicates once); reason lines copied verbatim
    from the prompt (small models echo the instructions) are dropped and never read as contradictions."""
    if not isinstance(reply, Reply):
        reply = Reply(list(reply), [False] * len(reply))
    texts = reply.texts
    readable = [(v, r) for v, r in (parse_verdict(t, prompt) for t in texts) if v is not None]
    n_yes = sum(v == "consistent" for v, _ in readable)
    verdict = "consistent" if 2 * n_yes > len(texts) else "inconsistent"
    reasons: list[str] = []
    for v, rs in readable:
        reasons += [r for r in rs if v == verdict and r not in reasons]
    return Vote(
        name=name,
        verdict=verdict,
        reasons=reasons,
        parsed=len(readable) == len(texts),
        samples=len(texts),
        samples_parsed=len(readable),
        raw=texts[:1],
        truncated=sum(reply.truncated),
    )


def run_vote(judges: Sequence[Judge], items: Sequence[tuple[str, str]]) -> list[list[Vote]]:
    """votes[item][judge]."""
    conversations = [vote_messages(problem, statement) for problem, statement in items]
    columns = []
    for judge in judges:
        column = []
        for reply, conv in zip(ask(judge, conversations, VERDICT_PREFIX), conversations):
            if reply.error:
                column.append(failed_vote(judge, reply.error))
            else:
                column.append(vote_from_samples(judge.name, reply, conv[-1]["content"]))
        columns.append(column)
    return [list(row) for row in zip(*columns)] if columns else [[] for _ in items]
