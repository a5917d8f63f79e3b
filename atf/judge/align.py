"""Align-then-label mode: judges link informal spans to Lean spans and label each link.

A judge answers with findings (informal quote, Lean quote, label, explanation); quotes are located in the
texts as character offsets. Verdicts follow the priority rule, for one judge's findings and again across
judges: any "unfaithful" finding -> unfaithful; else any "undecidable" -> undecidable; else faithful.
Only "faithful" passes the check. An unreadable answer counts as a defect (unfaithful, parsed=False).
With samples > 1 a judge's verdict is its most common sample verdict (ties go to the higher priority).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterable, Sequence

from atf.judge.judge import Judge, ask
from atf.judge.parsing import parse_findings
from atf.judge.prompts import ALIGN_PREFIX, align_messages
from atf.judge.result import Finding, Vote
from atf.judge.vote import failed_vote

PRIORITY = ("unfaithful", "undecidable", "faithful")


def priority_verdict(labels: Iterable[str]) -> str:
    """Any unfaithful -> unfaithful; else any undecidable -> undecidable; else faithful."""
    labels = set(labels)
    unknown = labels - set(PRIORITY)
    if unknown:
        raise ValueError(f"unknown finding labels {sorted(unknown)}")
    for label in PRIORITY[:2]:
        if label in labels:
            return label
    return "faithful"


def locate(quote: str | None, text: str) -> tuple[int, int] | None:
    """[start, end) of `quote` in `text`: exact, then case-insensitive, then with any run of whitespace
    matching any other; None when not found."""
    if not quote:
        return None
    i = text.find(quote)
    if i >= 0:
        return i, i + len(quote)
    words = quote.split()
    if not words:
        return None
    pattern = r"\s+".join(re.escape(w) for w in words)
    m = re.search(pattern, text, re.IGNORECASE)
    return (m.start(), m.end()) if m else None


def findings_from(raw: list[dict], problem: str, statement: str, judge: str) -> list[Finding]:
    return [
        Finding(
            informal=f["informal"],
            lean=f["lean"],
            label=f["label"],
            explanation=f["explanation"],
            informal_span=locate(f["informal"], problem),
            lean_span=locate(f["lean"], statement),
            judge=judge,
        )
        for f in raw
    ]


def _judge_vote(name: str, texts: list[str], problem: str, statement: str) -> tuple[Vote, list[Finding]]:
    samples: list[tuple[str, list[Finding]]] = []
    for text in texts:
        raw = parse_findings(text)
        if raw is None:
            samples.append(("unreadable", []))
        else:
            found = findings_from(raw, problem, statement, name)
            samples.append((priority_verdict(f.label for f in found), found))
    counts = Counter("unfaithful" if v == "unreadable" else v for v, _ in samples)
    top = max(counts.values())
    verdict = next(label for label in PRIORITY if counts.get(label) == top)
    findings = next((f for v, f in samples if v == verdict), [])
    readable = sum(v != "unreadable" for v, _ in samples)
    reasons = [f.explanation or f.describe() for f in findings if f.label != "faithful"]
    vote = Vote(
        name=name,
        verdict=verdict,
        reasons=reasons,
        parsed=readable == len(texts),
        samples=len(texts),
        samples_parsed=readable,
        raw=texts[:1],
    )
    return vote, findings


def run_align(judges: Sequence[Judge], items: Sequence[tuple[str, str]]) -> list[tuple[list[Vote], list[Finding]]]:
    """(votes[judge], findings of all judges) per item."""
    conversations = [align_messages(problem, statement) for problem, statement in items]
    out: list[tuple[list[Vote], list[Finding]]] = [([], []) for _ in items]
    for judge in judges:
        texts, error = ask(judge, conversations, ALIGN_PREFIX)
        for i, (problem, statement) in enumerate(items):
            if error:
                out[i][0].append(failed_vote(judge, "unfaithful", error))
                continue
            vote, findings = _judge_vote(judge.name, texts[i], problem, statement)
            out[i][0].append(vote)
            out[i][1].extend(findings)
    return out
