"""Read judges' answers: the final answer only, tolerant of format, never guessing, never charitable.

1. Thinking is not the answer. Everything up to the last `</think>` is thinking, whether or not an opening tag
   appears (QwQ's template opens `<think>` in the prompt, so only `</think>` is generated). An opening `<think>`
   that never closes is a truncated answer: unreadable.
2. The last answer statement wins: the last `VERDICT:` (ANSWER:, RATING:) line, JSON object with that field, or
   `\\boxed{...}`. Labels may carry markdown (bold, headings, bullets, code), any letter case (Unicode folded,
   full-width forms included), and the value may sit on the line after a heading.
3. A label that is negated, hedged or taken back is unreadable: a question mark or hedge on the value
   (`consistent? No.`, `consistent (not really: ...)`, `probably consistent`), or, after a positive label, a
   retraction ("Actually, ... inconsistent") or a reason that states the opposite ("the statement is not
   consistent"). Callers count unreadable as the negative answer and report it (`Reading.why`).
Accepted bare answers: one word ("Consistent.", "yes", "4").
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

_DECOR = " \t*_`#>\"'.,;:!()[]{}"
_BULLET_RE = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_PLACEHOLDER_RE = re.compile(r"^<[^<>]*>$")
_THINK_CLOSE = re.compile(r"</think\s*>", re.IGNORECASE)
_THINK_OPEN = re.compile(r"<think\s*>", re.IGNORECASE)

# On the value of a label ("consistent ..."): anything that makes it less than a plain statement.
_HEDGE = re.compile(
    r"\?|\b(?:but|however|although|though|except|unless|mostly|partially|partly|largely|probably|likely|maybe|"
    r"perhaps|possibly|somewhat|arguably|almost|nearly|roughly|approximately|if|assuming|seems?|appears?|unsure|"
    r"uncertain|unclear|i think|i believe|i guess|kind of|sort of|not sure|not really|not quite)\b"
)
_NEGATION = re.compile(r"\b(?:not|no|never|nope|neither|nor|cannot|wrong|incorrect|false)\b|n't\b")
# A negation that denies a defect ("no differences", "without changes") supports a positive label.
_BENIGN_NEGATION = re.compile(
    r"\b(?:no|not|never|without)\b(?:\s+\w+){0,2}?\s+(?:differences?|changes?|changed|mismatch(?:es)?|issues?|"
    r"problems?|errors?|defects?|discrepanc(?:y|ies)|dropped|missing|omitted|added|altered|modified|lost)\b"
)
_RETRACT = re.compile(
    r"\b(?:actually|wait|on second thought|on reflection|correction|scratch that|i was wrong|i made a mistake|"
    r"let me reconsider|reconsider(?:ing)?|retract|revis(?:e|ing) (?:my|the) (?:verdict|answer)|hmm+)\b"
)
# Said after a positive verdict, these contradict it: the statement is not consistent, or has a defect.
_CONTRARY = re.compile(
    r"\b(?:inconsistent|not consistent|unfaithful|not faithful|not equivalent|not (?:the )?same|mismatch(?:es|ed)?|"
    r"(?:does|do|is|are)(?: not|n't) (?:match|correspond|consistent|faithful|equivalent|correct)|"
    r"incorrect(?:ly)?|wrong)\b"
)
_DEFECT = re.compile(
    r"\b(?:drops?|dropped|omit(?:s|ted)?|missing|lacks?|lacking|differs?|different|changed?|should be|instead of|"
    r"(?:not|n't) (?:preserved|captured|kept|stated|included))\b"
)
_NEGATOR = re.compile(r"\b(?:no|not|nothing|none|never|neither|nor|without)\b|n't\b")


def _contradicts(text: str) -> bool:
    """A positive answer's later text states the opposite: a contrary word ("inconsistent", "does not match",
    "wrong") or a defect word ("drops", "missing", "should be") in a clause that does not negate it before
    ("nothing is missing", "no constant is wrong" are fine)."""
    for clause in re.split(r"[.;:,\n]|\bbut\b", text):
        for pattern in (_CONTRARY, _DEFECT):
            m = pattern.search(clause)
            if m and not _NEGATOR.search(clause[: m.start()]):
                return True
    return False


_LEAD_IN = re.compile(
    r"^(?:the (?:lean(?: 4)? )?(?:statement|formali[sz]ation|theorem)(?: is)?|it is|it's|this is|answer is)\s+"
)


def fold(text: str) -> str:
    """Case- and width-insensitive form: NFKD (full-width letters become ASCII), combining marks dropped
    (Turkish dotted İ), casefolded."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def final_answer(text: str) -> str | None:
    """The answer after the thinking (see module doc); None when a think block never closed."""
    closes = list(_THINK_CLOSE.finditer(text))
    if closes:
        text = text[closes[-1].end() :]
    if _THINK_OPEN.search(text):
        return None
    return text.strip()


def strip_thinking(text: str) -> str | None:
    """Kept for callers of the old name: `final_answer`."""
    return final_answer(text)


@dataclass
class Reading:
    """What an answer says: `value` (a canonical word, bool or int) or None when unreadable, with `why`."""

    value: Any = None
    reasons: list[str] = field(default_factory=list)
    why: str = ""
    source: str = ""  # "label", "json", "boxed" or "bare": what the value was read from

    @property
    def readable(self) -> bool:
        return self.value is not None


def _json_objects(text: str) -> list[tuple[int, int, Any]]:
    """(start, end, value) of every JSON value that parses at a `{` or `[`, outermost, left to right."""
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
            found.append((i, end, value))
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
    lowered = {fold(str(k)): v for k, v in obj.items()}
    for name in names:
        if name in lowered:
            return lowered[name]
    return None


@dataclass
class _Statement:
    """One answer statement in the text: its raw value, where it ends, and reasons it carries (JSON)."""

    start: int
    end: int
    value: str
    reasons: list[str] | None = None
    source: str = "json"


def _label_statements(answer: str, label: str) -> list[_Statement]:
    """`LABEL: value` lines (markdown around LABEL allowed; a heading's value may be on the next line)."""
    pattern = re.compile(
        rf"^[\s*_#>`\-]*(?:final\s+)?(?:{label})[\s*_`]*(?:[:=\-–—]\s*|\s+(?:is\s*:?\s*)?)?(.*)$", re.IGNORECASE
    )
    lines = answer.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    out = []
    for i, line in enumerate(lines):
        m = pattern.match(fold(line.rstrip("\r\n")))
        if not m:
            continue
        value, end = m.group(1).strip(), starts[i + 1]
        if not value.strip(_DECOR):  # a heading: the value is the next non-empty line
            j = next((j for j in range(i + 1, len(lines)) if lines[j].strip()), None)
            if j is not None:
                value, end = fold(lines[j].strip()), starts[j + 1]
        out.append(_Statement(starts[i], end, value, source="label"))
    return out


def _boxed(answer: str) -> list[_Statement]:
    pattern = re.compile(r"\\boxed\{\s*(?:\\text\{)?([^{}]*)\}?\s*\}", re.IGNORECASE)
    return [_Statement(m.start(), m.end(), fold(m.group(1)), source="boxed") for m in pattern.finditer(answer)]


def _json_statements(answer: str, keys: tuple[str, ...]) -> list[_Statement]:
    out = []
    for start, end, obj in _json_objects(answer):
        if isinstance(obj, dict) and _field(obj, *keys) is not None:
            value = _field(obj, *keys)
            reasons = _field(obj, "reasons", "reason", "explanation", "why")
            reasons = [reasons] if isinstance(reasons, str) else reasons
            out.append(
                _Statement(start, end, fold(str(value)), [str(r).strip() for r in reasons or [] if str(r).strip()])
            )
    return out


def _match_word(value: str, words: dict[str, Any]) -> tuple[Any, str] | None:
    """(canonical, rest) when the value is one of `words` (after a lead-in like "the statement is"),
    followed by a rest that names no other option (of the same kind: a "no" after "consistent" is judged by
    the hedge rules, not taken for a template echo); else None."""
    value = _LEAD_IN.sub("", value.strip(_DECOR.replace("?", "")).strip()).strip(_DECOR.replace("?", ""))
    for word in sorted(words, key=len, reverse=True):
        m = re.match(rf"{re.escape(word)}(?![\w-])(.*)$", value, re.DOTALL)
        if m:
            rest = m.group(1)
            kind = [w for w in words if (w in YES_NO_WORDS) == (word in YES_NO_WORDS)]
            if any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", rest) for w in kind):
                return None  # "consistent or inconsistent": the template echoed back
            return words[word], rest
    return None


def _echoed(line: str, prompt: str) -> bool:
    """A line copied from the prompt (small models echo the instructions): not something the judge said."""
    core = _BULLET_RE.sub("", line).strip(_DECOR + "-")
    return len(core) >= 12 and core in prompt


def _read(
    text: str,
    label: str,
    json_keys: tuple[str, ...],
    words: dict[str, Any],
    positive: Any,
    boxed: bool = True,
    prompt: str = "",
) -> Reading:
    """The generic reader behind parse_verdict / parse_yes_no (see module doc); lines echoed from `prompt`
    are not read as contradicting the answer."""
    answer = final_answer(text)
    if answer is None:
        return Reading(why="a <think> block never closed (truncated?)")
    if not answer:
        return Reading(why="no answer after the thinking" if text.strip() else "empty answer")
    statements = _label_statements(answer, label) + _json_statements(answer, json_keys)
    if boxed:
        statements += _boxed(answer)
    if not statements:  # a bare answer word, alone or on the first line (read like a label line)
        first = answer.splitlines()[0]
        bare = _match_word(fold(first), words)
        if bare is None or bare[1].strip(_DECOR):
            return Reading(why=f"no {label.split('|')[0].upper()} label or JSON answer")
        statements = [_Statement(0, len(first), fold(first), source="bare")]
    last = max(statements, key=lambda s: (s.start, s.end))
    hit = _match_word(last.value, words)
    if hit is None:
        return Reading(why=f"the last answer {last.value[:60]!r} is not one of {', '.join(map(str, words))}")
    value, rest = hit
    after = fold(answer[last.end :])
    if last.end and answer[last.end - 1] != "\n":  # what follows a JSON object or \boxed{} on its line
        line_rest, _, after = after.partition("\n")
        rest = rest + " " + line_rest
    if value == positive:
        negated = _NEGATION.search(_BENIGN_NEGATION.sub(" ", rest))
        if _HEDGE.search(rest) or negated or _RETRACT.search(rest) or _contradicts(rest):
            return Reading(why=f"the positive answer is hedged or negated: {last.value[:80]!r}")
        said = after.splitlines() + [fold(r) for r in last.reasons or []]
        said_later = "\n".join(line for line in said if not _echoed(line, fold(prompt)))
        if _RETRACT.search(said_later) or _contradicts(said_later):
            return Reading(why="a positive answer followed by a retraction or a contrary statement")
    elif (
        re.search(r"\?", rest)
        or _RETRACT.search(rest + "\n" + after)
        or re.match(r"\W*(?:probably|likely|maybe|perhaps|possibly)\b", rest)
    ):
        return Reading(why=f"the answer is hedged or taken back: {last.value[:80]!r}")
    return Reading(value, list(last.reasons or []), source=last.source)


VERDICT_WORDS = {
    "consistent": "consistent",
    "inconsistent": "inconsistent",
    "not consistent": "inconsistent",
    "yes": "consistent",
    "no": "inconsistent",
}


def _bullets(lines: list[str]) -> list[str]:
    """Reason lines without bullets; a template placeholder echoed back ("<one short reason>") is dropped."""
    out = []
    for line in lines:
        line = _BULLET_RE.sub("", line).strip().strip("*_").strip()
        if line and not _PLACEHOLDER_RE.match(line):
            out.append(line)
    return out


def _reason_lines(answer: str) -> list[str]:
    """The REASONS block (or, without one, the lines that are not VERDICT lines)."""
    lines = answer.splitlines()
    verdict_re = re.compile(r"^[\s*_#>`\-]*(?:final\s+)?(?:verdict\b|answer\b)|\\boxed\{", re.IGNORECASE)
    reasons_re = re.compile(r"^[\s*_#>`\-]*reasons?[\s*_`]*[:=\-–—]?\s*(.*)$", re.IGNORECASE)
    for i, line in enumerate(lines):
        m = reasons_re.match(line)
        if m:
            inline = m.group(1).strip().strip("*_").strip()
            body = [inline] if inline else []
            return _bullets(body + [ln for ln in lines[i + 1 :] if not verdict_re.match(ln)])
    return _bullets([ln for ln in lines if not verdict_re.match(ln) and ln.strip().strip(_DECOR)])


def read_verdict(text: str, prompt: str = "") -> Reading:
    """ "consistent" | "inconsistent" from `VERDICT:` + `REASONS:` lines, a JSON object {"verdict", "reasons"},
    or `\\boxed{...}`; value None (with `why`) when unreadable. Reason lines echoed from `prompt` are dropped."""
    reading = _read(text, "verdict", ("verdict",), VERDICT_WORDS, "consistent", prompt=prompt)
    if reading.readable and reading.source in ("label", "boxed", "bare"):
        answer = final_answer(text) or ""
        reading.reasons = _reason_lines(answer.partition("\n")[2] if reading.source == "bare" else answer)
    if prompt:
        reading.reasons = [r for r in reading.reasons if not _echoed(r, prompt)]
    return reading


def parse_verdict(text: str, prompt: str = "") -> tuple[str | None, list[str]]:
    """(verdict, reasons); verdict None when the answer cannot be read (see `read_verdict`)."""
    reading = read_verdict(text, prompt)
    return reading.value, (reading.reasons if reading.readable else [])


YES_NO_WORDS = {"yes": True, "no": False}


def parse_yes_no(text: str) -> bool | None:
    """True/False from `ANSWER: yes|no` (or JSON {"answer": ...}, or a bare yes/no); None if unreadable."""
    return _read(text, "answer", ("answer",), YES_NO_WORDS, True, boxed=False).value


def parse_explanation(text: str) -> str:
    """The one-line `WHY:` (or JSON "why"/"explanation") of a property answer; "" when absent."""
    answer = final_answer(text) or ""
    for _, _, obj in reversed(_json_objects(answer)):
        if isinstance(obj, dict):
            why = _field(obj, "why", "explanation", "reason")
            if why:
                return " ".join(str(why).split())
    hits = re.findall(
        r"^[\s*_#>`\-]*(?:why|explanation|reason)[\s*_`]*[:=\-–—]\s*(.+)$", answer, re.IGNORECASE | re.MULTILINE
    )
    return " ".join(hits[-1].strip().strip("*_").split()) if hits else ""


def parse_rating(text: str, low: int = 1, high: int = 5) -> int | None:
    """An integer in [low, high] from the last `RATING: n` (or JSON {"rating": n}, or a bare number); else None."""
    answer = final_answer(text)
    if not answer:
        return None

    def number(value: Any) -> int | None:
        m = re.fullmatch(r"\s*(\d+)\s*(?:/\s*\d+)?\s*", str(value).strip(_DECOR.replace("/", "")))
        if not m:
            return None
        n = int(m.group(1))
        return n if low <= n <= high else None

    statements = _label_statements(answer, "rating|score") + _json_statements(answer, ("rating", "score"))
    if not statements:
        return number(answer)
    last = max(statements, key=lambda s: (s.start, s.end))
    if _RETRACT.search(fold(answer[last.end :])):
        return None
    return number(last.value)


FINDING_LABELS = {
    "faithful": "faithful",
    "unfaithful": "unfaithful",
    "not faithful": "unfaithful",
    "undecidable": "undecidable",
}


def _one_label(value: str) -> str | None:
    hit = _match_word(fold(value), FINDING_LABELS)
    if hit is None or (hit[0] == "faithful" and (_HEDGE.search(hit[1]) or _NEGATION.search(hit[1]))):
        return None
    return hit[0]


def _quote(item: dict, *names: str) -> str | None:
    value = _field(item, *names)
    return (str(value).strip() or None) if value is not None else None


_PLACING = ("informal_context", "lean_context", "informal_occurrence", "lean_occurrence")


def parse_findings(text: str) -> list[dict[str, Any]] | None:
    """Findings from the last JSON object {"findings": [...]} or JSON list in the final answer, each
    {"informal": str|null, "lean": str|null, "label": faithful|unfaithful|undecidable, "explanation": str}.
    None when there is no such list, it is empty, or any finding lacks a readable label."""
    answer = final_answer(text)
    if not answer:
        return None
    objects = [o for _, _, o in _json_objects(answer)]
    raw: list | None = None
    for obj in reversed(objects):
        if isinstance(obj, dict) and isinstance(_field(obj, "findings"), list):
            raw = _field(obj, "findings")
            break
        if isinstance(obj, list) and obj and all(isinstance(x, dict) for x in obj):
            raw = obj
            break
    if raw is None:  # one object per line
        raw = [o for o in objects if isinstance(o, dict) and _field(o, "label") is not None] or None
    if not raw:
        return None
    findings = []
    for item in raw:
        if not isinstance(item, dict):
            return None
        label = _one_label(str(_field(item, "label", "verdict") or ""))
        if label is None:
            return None

        findings.append(
            {
                "informal": _quote(item, "informal", "informal_span", "nl", "natural_language"),
                "lean": _quote(item, "lean", "lean_span", "formal", "formal_span"),
                "label": label,
                "explanation": str(_field(item, "explanation", "reason", "why") or "").strip(),
                **{k: v for k in _PLACING if isinstance(v := _field(item, k), (str, int)) and not isinstance(v, bool)},
            }
        )
    return findings
