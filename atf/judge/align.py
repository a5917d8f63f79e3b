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
from collections.abc import Iterable, Sequence

from atf.judge.judge import Judge, Reply, ask
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


def occurrences(quote: str | None, text: str) -> list[tuple[int, int]]:
    """Every [start, end) where `quote` occurs in `text`: exact matches, else case-insensitive ones with any run
    of whitespace matching any other."""
    if not quote or not quote.split():
        return []
    exact = [(m.start(), m.start() + len(quote)) for m in re.finditer(re.escape(quote), text)]
    if exact:
        return exact
    pattern = r"\s+".join(re.escape(w) for w in quote.split())
    return [(m.start(), m.end()) for m in re.finditer(pattern, text, re.IGNORECASE)]


def locate(
    quote: str | None,
    text: str,
    context: str | None = None,
    occurrence: int | None = None,
    after: int = 0,
    taken: frozenset[tuple[int, int]] | set[tuple[int, int]] = frozenset(),
) -> tuple[int, int] | None:
    """[start, end) of `quote` in `text`, None when not found. A quote that occurs more than once is placed
    by, in order: the judge's `context` (a longer quote around it that occurs once), the judge's
    `occurrence` (1 = first), the first occurrence not `taken` by an earlier finding at or after `after`
    (findings come in reading order), the first not taken, else the first."""
    found = occurrences(quote, text)
    if len(found) <= 1:
        return found[0] if found else None
    around = occurrences(context, text) if context and quote and quote in context else []
    if len(around) == 1:
        inside = [f for f in found if around[0][0] <= f[0] and f[1] <= around[0][1]]
        if inside:
            return inside[0]
    if occurrence is not None and 1 <= occurrence <= len(found):
        return found[occurrence - 1]
    free = [f for f in found if f not in taken]
    return next((f for f in free if f[0] >= after), free[0] if free else found[0])


def where(span: tuple[int, int] | None, quote: str | None, text: str) -> str:
    """ "occurrence k of n, line l, column c" when the quote repeats in the text (1-based), else ""."""
    found = occurrences(quote, text)
    if span is None or len(found) < 2 or span not in found:
        return ""
    line = text.count("\n", 0, span[0]) + 1
    column = span[0] - (text.rfind("\n", 0, span[0]) + 1) + 1
    return f"occurrence {found.index(span) + 1} of {len(found)}, line {line}, column {column}"


def findings_from(raw: list[dict], problem: str, statement: str, judge: str) -> list[Finding]:
    out: list[Finding] = []
    after_i = after_l = 0
    for f in raw:
        # an occurrence an earlier finding took with a different counterpart is another place in the text
        taken_i = {g.informal_span for g in out if g.informal == f["informal"] and g.lean != f["lean"]}
        taken_l = {g.lean_span for g in out if g.lean == f["lean"] and g.informal != f["informal"]}
        informal = locate(
            f["informal"], problem, f.get("informal_context"), f.get("informal_occurrence"), after_i, taken_i
        )
        lean = locate(f["lean"], statement, f.get("lean_context"), f.get("lean_occurrence"), after_l, taken_l)
        after_i, after_l = (informal or (after_i, after_i))[0], (lean or (after_l, after_l))[0]
        notes = [
            f"{side} quote: {w}"
            for side, w in (
                ("problem", where(informal, f["informal"], problem)),
                ("Lean", where(lean, f["lean"], statement)),
            )
            if w
        ]
        out.append(
            Finding(
                informal=f["informal"],
                lean=f["lean"],
                label=f["label"],
                explanation=f["explanation"],
                informal_span=informal,
                lean_span=lean,
                judge=judge,
                where="; ".join(notes),
            )
        )
    return out


def _judge_vote(name: str, reply: Reply, problem: str, statement: str) -> tuple[Vote, list[Finding]]:
    texts = reply.texts
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
    findings: list[Finding] = []  # every readable sample that agrees with the verdict, each finding once
    for v, found in samples:
        seen = {(f.informal_span, f.lean_span, f.label) for f in findings}
        findings += [f for f in found if v == verdict and (f.informal_span, f.lean_span, f.label) not in seen]
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
        truncated=sum(reply.truncated),
    )
    return vote, findings


def run_align(judges: Sequence[Judge], items: Sequence[tuple[str, str]]) -> list[tuple[list[Vote], list[Finding]]]:
    """(votes[judge], findings of all judges) per item."""
    conversations = [align_messages(problem, statement) for problem, statement in items]
    out: list[tuple[list[Vote], list[Finding]]] = [([], []) for _ in items]
    for judge in judges:
        replies = ask(judge, conversations, ALIGN_PREFIX)
        for i, (problem, statement) in enumerate(items):
            if replies[i].error:
                out[i][0].append(failed_vote(judge, replies[i].error))
                continue
            vote, findings = _judge_vote(judge.name, replies[i], problem, statement)
            out[i][0].append(vote)
            out[i][1].extend(findings)
    return out
