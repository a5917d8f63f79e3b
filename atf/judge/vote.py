"""Ensemble vote: each judge reads the problem and the Lean statement and answers VERDICT + REASONS.

All items go to a judge in one `chat` call, so vLLM/HTTP engines get them in flight together.
"""

from __future__ import annotations

import logging
from typing import Sequence

from atf.judge.judge import Judge
from atf.judge.parsing import parse_verdict
from atf.judge.prompts import VERDICT_PREFIX, vote_messages
from atf.judge.result import Vote
from atf.llm import Message, render_prompt

log = logging.getLogger(__name__)


def ask(
    judge: Judge, conversations: Sequence[list[Message]], prefixes: Sequence[str] | str = ""
) -> tuple[list[list[str]], str | None]:
    """The judge's answer texts per conversation (`judge.samples` each), or ([], error) when the engine fails.

    prefixes: the answer label each reply starts with ("VERDICT:"); with `judge.prefill` it is put at the
    start of the assistant turn and in front of the returned text. A reply list shorter than asked is
    padded with empty answers, which parse as unreadable."""
    if not conversations:
        return [], None
    if isinstance(prefixes, str):
        prefixes = [prefixes] * len(conversations)
    prefill = bool(judge.prefill) and any(prefixes)
    try:
        if prefill:
            tok = judge.engine.tokenizer
            prompts = [
                render_prompt(tok, conv) + (tok.encode(pre, add_special_tokens=False) if pre else [])
                for conv, pre in zip(conversations, prefixes)
            ]
            outputs = judge.engine.generate(prompts, judge.sampling)
        else:
            outputs = judge.engine.chat(list(conversations), judge.sampling)
    except Exception as err:  # one judge failing must not take the others down; its votes count against
        log.exception("judge %s failed on a batch of %d", judge.name, len(conversations))
        return [], f"{type(err).__name__}: {err}"
    if len(outputs) != len(conversations):
        return [], f"engine returned {len(outputs)} replies for {len(conversations)} prompts"
    texts = []
    for out, pre in zip(outputs, prefixes):
        row = [(pre + c.text if prefill else c.text) for c in out][: judge.samples]
        texts.append(row + [""] * (judge.samples - len(row)))
    return texts, None


def failed_vote(judge: Judge, verdict: str, error: str) -> Vote:
    return Vote(judge.name, verdict, parsed=False, samples=judge.samples, samples_parsed=0, error=error)


def vote_from_samples(name: str, texts: list[str]) -> Vote:
    """Strict majority of the samples; unreadable samples count as inconsistent."""
    parsed = [parse_verdict(t) for t in texts]
    readable = [(v, r) for v, r in parsed if v is not None]
    n_yes = sum(v == "consistent" for v, _ in readable)
    verdict = "consistent" if 2 * n_yes > len(texts) else "inconsistent"
    reasons = next((r for v, r in readable if v == verdict), [])
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
            columns.append([vote_from_samples(judge.name, row) for row in texts])
    return [list(row) for row in zip(*columns)] if columns else [[] for _ in items]
