"""What the consistency check returns: per-judge votes, findings, and the feedback text for the formalizer."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

MAX_REASONS = 4
MAX_CHARS = 240
# All the formalizer is told when the check itself failed: no URL, no server text, no verdict.
UNAVAILABLE = "Consistency check unavailable, try again."
ERROR = "error"


def _short(text: str, limit: int = MAX_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class Finding:
    """One aligned pair of spans and its label (align-then-label mode).

    informal / lean: the quoted span texts (None when that side has no counterpart).
    label: "faithful" | "unfaithful" | "undecidable".
    informal_span / lean_span: [start, end) character offsets of the quote in the problem / statement (or, for
        a region in several pieces, a tuple of such spans), None when the quote is absent or not located.
    judge: the judge that reported it.
    where: which occurrence a quote that repeats in its text points at, and its line and column.
    """

    informal: str | None
    lean: str | None
    label: str
    explanation: str = ""
    informal_span: tuple[int, int] | None = None
    lean_span: tuple[int, int] | None = None
    judge: str = ""
    where: str = ""

    def describe(self) -> str:
        left = f'"{_short(self.informal, 80)}"' if self.informal else "(nothing in the problem)"
        right = f"`{_short(self.lean, 80)}`" if self.lean else "(nothing in the Lean statement)"
        lost = (self.informal and not self.informal_span) or (self.lean and not self.lean_span)
        located = " [quote not found in the text]" if lost else (f" [{self.where}]" if self.where else "")
        why = f": {_short(self.explanation)}" if self.explanation else ""
        return f"{self.label}: {left} <-> {right}{located}{why}"

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Finding:
        def span(v: Any) -> Any:  # [start, end], or a multi-span region [[start, end], ...]
            if v is None:
                return None
            return tuple(tuple(x) for x in v) if v and isinstance(v[0], (list, tuple)) else tuple(v)

        return cls(
            informal=d.get("informal"),
            lean=d.get("lean"),
            label=d["label"],
            explanation=d.get("explanation", ""),
            informal_span=span(d.get("informal_span")),
            lean_span=span(d.get("lean_span")),
            judge=d.get("judge", ""),
            where=d.get("where", ""),
        )


@dataclass
class Vote:
    """One judge's answer about one item.

    name: the judge.
    verdict: vote/oap modes: "consistent" | "inconsistent"; align mode: "faithful" | "unfaithful" | "undecidable".
    reasons: the judge's reasons (vote), weakest properties (oap), or defect explanations (align).
    parsed: False when an answer could not be read; such a vote is counted as inconsistent.
    samples / samples_parsed: answers drawn, and how many of them could be read (oap: questions asked,
        nine properties + rating, and how many were answered readably).
    scores: oap mode only: {"properties": {name: p}, "LP": .., "MC": .., "FQ": .., "FV": .., "score": ..,
        "rating": 1-5 or None, "unparsed": [names]}.
    raw: the judge's raw answer texts (first sample of each question).
    error: set when the engine itself failed (HTTP error, timeout, crash); the vote's verdict is then
        "error": no verdict at all, for logs and operators only, never shown to the formalizer.
    truncated: answers that stopped at the token limit (finish_reason "length").
    """

    name: str
    verdict: str
    reasons: list[str] = field(default_factory=list)
    parsed: bool = True
    samples: int = 1
    samples_parsed: int = 1
    scores: dict[str, Any] | None = None
    raw: list[str] = field(default_factory=list, repr=False)
    error: str | None = None
    truncated: int = 0

    @property
    def consistent(self) -> bool:
        return self.verdict in ("consistent", "faithful")

    @property
    def errored(self) -> bool:
        return self.error is not None


@dataclass
class ConsistencyResult:
    """The consistency check of one (problem, statement) pair.

    consistent: True only when every judge finds the statement consistent (align: every judge "faithful").
    verdict: "consistent" | "inconsistent" (vote, oap), or "faithful" | "unfaithful" | "undecidable" (align,
        by the priority rule: any defect -> unfaithful, else any undecidable -> undecidable), or "error":
        a judge failed to answer and the judges that did answer leave the verdict open (had it answered,
        it could have changed it). When the answering judges already reject the statement, the verdict
        stands: consistency needs every judge, so a missing vote cannot turn a rejection around.
    votes: one per judge, in judge order.
    findings: align mode: every judge's findings, spans located in the texts.
    """

    problem: str
    statement: str
    mode: str
    consistent: bool
    verdict: str
    votes: list[Vote]
    findings: list[Finding] = field(default_factory=list)

    @property
    def errored(self) -> bool:
        """The check produced no verdict; callers retry it and keep it out of training data."""
        return self.verdict == ERROR

    def feedback(self) -> str:
        """Concise text for the formalizer: which judge objected, why, which spans."""
        n = len(self.votes)
        if self.errored:
            return UNAVAILABLE
        if self.consistent:
            return f"Consistency check passed: all {n} judge(s) find the Lean statement consistent with the problem."
        objecting = [v for v in self.votes if not v.consistent and not v.errored]
        head = f"Consistency check failed ({self.verdict}): {len(objecting)} of {n} judge(s) object."
        lines = [head]
        for vote in objecting:
            lines.extend(self._judge_lines(vote))
        silent = sum(v.errored for v in self.votes)
        if silent:
            lines.append(f"- {silent} judge(s) did not answer; the objections above decide the verdict.")
        return "\n".join(lines)

    def _judge_lines(self, vote: Vote) -> list[str]:
        notes = []
        unread = vote.samples - vote.samples_parsed
        if unread:
            notes.append(f"{unread} of {vote.samples} answer(s) could not be read and count as inconsistent")
        if vote.truncated:
            notes.append(f"{vote.truncated} of {vote.samples} answer(s) were cut off at the judge's token limit")
        head = f"- {vote.name}: {vote.verdict}" + (f" ({'; '.join(notes)})" if notes else "") + "."
        if self.mode == "oap" and vote.scores is not None:
            s = vote.scores
            groups = ", ".join(f"{g} {s[g]:.2f}" for g in ("LP", "MC", "FQ", "FV") if s.get(g) is not None)
            rating = f"; rating {s['rating']:.1f}/5" if s.get("rating") is not None else ""
            score = f"score {s['score']:.3f} (threshold {s['threshold']:.2f}; {groups}{rating})"
            lines = [head[:-1] + f": {score}."]
            lines += [f"  - {_short(r)}" for r in vote.reasons[:MAX_REASONS]]
            return lines
        lines = [head]
        if self.mode == "align":
            bad = [f for f in self.findings if f.judge == vote.name and f.label != "faithful"]
            lines += [f"  - {f.describe()}" for f in bad[:MAX_REASONS]]
            if bad:
                return lines
        lines += [f"  - {_short(r)}" for r in vote.reasons[:MAX_REASONS]]
        if not vote.reasons and not unread:
            lines.append("  - (no reasons given)")
        if len(vote.reasons) > MAX_REASONS:
            lines.append(f"  - ... {len(vote.reasons) - MAX_REASONS} more")
        return lines

    def to_dict(self, raw: bool = False) -> dict[str, Any]:
        """JSON-ready; the judges' raw texts only when `raw`."""
        d = asdict(self)
        if not raw:
            for vote in d["votes"]:
                vote.pop("raw", None)
        d["feedback"] = self.feedback()
        return d
