"""Read judges' answers: tolerant of common deviations, never guessing.

Accepted deviations: case, markdown emphasis/headings/bullets around labels, a JSON object (also in a
```json fence), a one-word answer, a closed `<think>...</think>` block before the answer. Anything
else (no label, two labels that disagree, an unclosed think block, a label echoed from the template
like "consistent or inconsistent") is unparseable, and callers count it as the negative answer.
"""

from __future__ import annotations

import json
import re
from typing import Any

THINK_RE = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_DECOR = " \t*_`#>\"'.,;:!()[]{}"
_BULLET_RE = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


def strip_thinking(text: str) -> str | None:
    """The answer after any closed think blocks; None when a think block never closed (truncated)."""
    text = THINK_RE.sub("", text)
    if re.search(r"<think>", text, re.IGNORECASE):
        return None
    return text.strip()


def _json_objects(text: str) -> list[Any]:
    """Every JSON value that parses at a `{` or `[` in the text, outermost first, left to right."""
    decoder = json.JSONDecoder()
    found, i = [], 0
    while i < len(text):
        if text[i] in "{[":
            try:
                value, end = decoder.raw_decode(text, i)
            except json.JSONDecodeError:
                fixed = _relaxed_json(text, i)
                if fixed is None:
                    i += 1
                    continue
                value, end = fixed
            found.append(value)
            i = end
        else:
            i += 1
    return found


def _relaxed_json(text: str, start: int) -> tuple[Any, int] | None:
    """Trailing commas are the one JSON slip worth forgiving: `{"a": 1,}` / `[1, 2,]`."""
    closer = {"{": "}", "[": "]"}[text[start]]
    depth, in_str, esc = 0, False, False
    for j in range(start, len(text)):
        c = text[j]
        if in_str:
            esc = (c == "\\") and not esc
            if c == '"' and not esc:
                in_str = False
            continue
        if c == '"':
            in_str = True
        elif c in "{[":
            depth += 1
        elif c in "}]":
            depth -= 1
            if depth == 0:
                if c != closer:
                    return None
                chunk = re.sub(r",\s*([}\]])", r"\1", text[start : j + 1])
                try:
                    return json.loads(chunk), j + 1
                except json.JSONDecodeError:
                    return None
    return None


def _field(obj: dict, *names: str) -> Any:
    lowered = {str(k).lower(): v for k, v in obj.items()}
    for name in names:
        if name in lowered:
            return lowered[name]
    return None


def _label_lines(text: str, label: str) -> list[tuple[int, str]]:
    """(line index, value) for each line `LABEL: value` (markdown decoration around LABEL allowed)."""
    pattern = re.compile(rf"^[\s*_#>`-]*{label}[\s*_`]*\s*[:=\-–]\s*(.*)$", re.IGNORECASE)
    out = []
    for i, line in enumerate(text.splitlines()):
        m = pattern.match(line)
        if m:
            out.append((i, m.group(1)))
    return out


def _one_of(value: str, words: dict[str, str]) -> str | None:
    """Map `value` to a canonical word when it is exactly one of `words` (longest first), plus decoration
    or a trailing clause that names no other option."""
    value = value.strip(_DECOR).lower()
    for word in sorted(words, key=len, reverse=True):
        m = re.match(rf"{re.escape(word)}(?![\w-])(.*)$", value, re.DOTALL)
        if m:
            rest = m.group(1)
            if any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", rest) for w in words):
                return None  # "consistent or inconsistent": the template echoed back
            return words[word]
    return None


def _bare(text: str, words: dict[str, str]) -> str | None:
    """A whole answer that is just one option word (with decoration)."""
    stripped = text.strip(_DECOR).lower()
    return words.get(stripped)


_PLACEHOLDER_RE = re.compile(r"^<[^<>]*>$")


def _bullets(lines: list[str]) -> list[str]:
    """Reason lines without bullets; a template placeholder echoed back ("<one short reason>") is dropped."""
    out = []
    for line in lines:
        line = _BULLET_RE.sub("", line).strip().strip("*_").strip()
        if line and not _PLACEHOLDER_RE.match(line):
            out.append(line)
    return out


VERDICT_WORDS = {
    "consistent": "consistent",
    "inconsistent": "inconsistent",
    "not consistent": "inconsistent",
}


def parse_verdict(text: str) -> tuple[str | None, list[str]]:
    """(verdict, reasons) from `VERDICT: consistent|inconsistent` + `REASONS:` lines, or a JSON object
    {"verdict": ..., "reasons": [...]}. verdict is None when the answer cannot be read."""
    answer = strip_thinking(text)
    if not answer:
        return None, []
    for obj in _json_objects(answer):
        if isinstance(obj, dict) and _field(obj, "verdict") is not None:
            verdict = _one_of(str(_field(obj, "verdict")), VERDICT_WORDS)
            reasons = _field(obj, "reasons", "reason", "explanation")
            if isinstance(reasons, str):
                reasons = [reasons]
            reasons = [str(r).strip() for r in (reasons or []) if str(r).strip()]
            return verdict, reasons
    lines = answer.splitlines()
    hits = _label_lines(answer, "verdict")
    if hits:
        verdicts = {_one_of(value, VERDICT_WORDS) for _, value in hits}
        if len(verdicts) != 1 or None in verdicts:
            return None, []
        reason_hits = _label_lines(answer, "reasons?")
        if reason_hits:
            first, inline = reason_hits[0]
            body = ([inline] if inline.strip() else []) + [
                ln for i, ln in enumerate(lines) if i > first and i not in {h for h, _ in hits}
            ]
        else:
            body = [ln for i, ln in enumerate(lines) if i not in {h for h, _ in hits}]
        return verdicts.pop(), _bullets(body)
    return _bare(answer, VERDICT_WORDS), []


YES_NO_WORDS = {"yes": "yes", "no": "no"}


def parse_yes_no(text: str) -> bool | None:
    """True/False from `ANSWER: yes|no` (or JSON {"answer": ...}, or a bare yes/no); None if unreadable."""
    answer = strip_thinking(text)
    if not answer:
        return None
    for obj in _json_objects(answer):
        if isinstance(obj, dict) and _field(obj, "answer") is not None:
            word = _one_of(str(_field(obj, "answer")), YES_NO_WORDS)
            return None if word is None else word == "yes"
    hits = _label_lines(answer, "answer")
    if hits:
        words = {_one_of(value, YES_NO_WORDS) for _, value in hits}
        if len(words) != 1 or None in words:
            return None
        return words.pop() == "yes"
    word = _bare(answer, YES_NO_WORDS)
    return None if word is None else word == "yes"


def parse_rating(text: str, low: int = 1, high: int = 5) -> int | None:
    """An integer in [low, high] from `RATING: n` (or JSON {"rating": n}, or a bare number); else None."""
    answer = strip_thinking(text)
    if not answer:
        return None

    def number(value: Any) -> int | None:
        m = re.fullmatch(r"\s*(\d+)\s*(?:/\s*\d+)?\s*", str(value).strip(_DECOR.replace("/", "")))
        if not m:
            return None
        n = int(m.group(1))
        return n if low <= n <= high else None

    for obj in _json_objects(answer):
        if isinstance(obj, dict) and _field(obj, "rating", "score") is not None:
            return number(_field(obj, "rating", "score"))
    hits = _label_lines(answer, "(?:rating|score)")
    if hits:
        values = {number(value) for _, value in hits}
        if len(values) != 1 or None in values:
            return None
        return values.pop()
    return number(answer)


FINDING_LABELS = {
    "faithful": "faithful",
    "unfaithful": "unfaithful",
    "not faithful": "unfaithful",
    "undecidable": "undecidable",
}


def parse_findings(text: str) -> list[dict[str, Any]] | None:
    """Findings from a JSON object {"findings": [...]} or a JSON list, each
    {"informal": str|null, "lean": str|null, "label": faithful|unfaithful|undecidable, "explanation": str}.
    None when there is no such list, it is empty, or any finding lacks a readable label."""
    answer = strip_thinking(text)
    if not answer:
        return None
    raw: list | None = None
    objects = _json_objects(answer)
    for obj in objects:
        if isinstance(obj, dict) and isinstance(_field(obj, "findings"), list):
            raw = _field(obj, "findings")
            break
        if isinstance(obj, list) and obj and all(isinstance(x, dict) for x in obj):
            raw = obj
            break
        if isinstance(obj, dict) and _field(obj, "label") is not None:  # one object per line
            raw = [o for o in objects if isinstance(o, dict) and _field(o, "label") is not None]
            break
    if not raw:
        return None
    findings = []
    for item in raw:
        if not isinstance(item, dict):
            return None
        label = _one_of(str(_field(item, "label", "verdict") or ""), FINDING_LABELS)
        if label is None:
            return None

        def span(*names: str) -> str | None:
            value = _field(item, *names)
            if value is None:
                return None
            value = str(value).strip()
            return value or None

        findings.append(
            {
                "informal": span("informal", "informal_span", "nl", "natural_language"),
                "lean": span("lean", "lean_span", "formal", "formal_span"),
                "label": label,
                "explanation": str(_field(item, "explanation", "reason", "why") or "").strip(),
            }
        )
    return findings
