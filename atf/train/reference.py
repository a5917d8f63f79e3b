"""A consistency check against a known reference statement, for problems that come with a gold one.

Cold-start synthesis and expert iteration on benchmark dev splits know the gold statement, so their
consistency verdict can be exact where an LLM judge would be noisy: a statement is consistent when it
matches the reference up to whitespace, header and the theorem's name (anything else, even a renamed
binder, counts as a difference: a conservative check). The feedback is rendered by the judges' own
`ConsistencyResult.feedback` and quotes only the statement under review, never the reference: an
inference-time judge does not know the gold statement, so a model trained on feedback that quoted it would
learn to copy fixes out of feedback. Use `consistency="judge"` in data_gen to get real judge verdicts instead.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from atf.agent.tools import (
    CONSISTENCY_CHECK,
    CONSISTENCY_SCHEMA,
    ToolRequest,
    ToolResult,
)
from atf.judge.result import ConsistencyResult, Vote
from atf.lean.statement import LeanStatement, StatementParseError, parse_statement

JUDGE_NAME = "judge"

_TOKEN = re.compile(r"\w+|[^\w\s]")


def normalize(statement: str) -> str:
    return " ".join(_TOKEN.findall(statement))


def _theorem_part(statement: str) -> str:
    """The declaration after `theorem <name>` (header and name do not change the meaning)."""
    st = _read(statement)
    if st is not None:
        return statement[st.head_end :]
    m = re.search(r"\b(theorem|lemma)\s+\S+", statement)
    return statement[m.end() :] if m else statement


def _read(statement: str) -> LeanStatement | None:
    try:
        return parse_statement(statement)
    except StatementParseError:
        return None


def _balanced(tokens: list[str]) -> bool:
    depth = 0
    for t in tokens:
        depth += (t in "([{") - (t in ")]}")
        if depth < 0:
            return False
    return depth == 0


def _slide(tokens: list[str], lo: int, hi: int) -> tuple[int, int]:
    """A pure insertion/deletion can sit anywhere in a run of repeats; prefer the bracket-balanced place."""
    while not _balanced(tokens[lo:hi]) and hi < len(tokens) and tokens[lo] == tokens[hi]:
        lo, hi = lo + 1, hi + 1
    return lo, hi


def _split_at_colon(text: str) -> int:
    """Offset of the top-level ':' that starts the conclusion (before ':='), or -1; for text the one statement
    reader cannot read, the last ':' outside brackets before the last ':='."""
    end = text.rfind(":=")
    depth, colon = 0, -1
    for i, ch in enumerate(text[: end if end >= 0 else len(text)]):
        depth += (ch in "([{⦃") - (ch in ")]}⦄")
        if ch == ":" and depth == 0 and text[i + 1 : i + 2] != "=":
            colon = i
    return colon


def _parts(statement: str) -> tuple[str, int, int]:
    """The declaration after the name (`_theorem_part`), the offsets in it of the conclusion's `:` and of the body's
    `:=` (-1 where none is found)."""
    st = _read(statement)
    if st is not None:
        return statement[st.head_end :], st.colon_start - st.head_end, st.body_start - 2 - st.head_end
    text = _theorem_part(statement)
    return text, _split_at_colon(text), text.rfind(":=")


def differences(statement: str, reference: str) -> list[tuple[str, str, str, str]]:
    """(op, got, want, where) per differing run of tokens: op is replace / add / miss, `got` the statement's
    text, `want` the reference's, `where` "hypotheses", "conclusion" or "proof" (of the reference side)."""
    a_text = _theorem_part(statement)
    b_text, b_colon, b_proof = _parts(reference)
    a_spans = [m.span() for m in _TOKEN.finditer(a_text)]
    b_spans = [m.span() for m in _TOKEN.finditer(b_text)]
    got = [a_text[i:j] for i, j in a_spans]
    want = [b_text[i:j] for i, j in b_spans]

    def quote(text: str, spans: list[tuple[int, int]], lo: int, hi: int) -> str:
        return " ".join(text[spans[lo][0] : spans[hi - 1][1]].split()) if hi > lo else ""

    def where(b0: int) -> str:
        at = b_spans[b0][0] if b0 < len(b_spans) else len(b_text)
        if 0 <= b_proof <= at:
            return "proof"
        return "hypotheses" if 0 <= b_colon and at < b_colon else "conclusion"

    out = []
    for op, a0, a1, b0, b1 in difflib.SequenceMatcher(a=got, b=want, autojunk=False).get_opcodes():
        if op == "delete":
            a0, a1 = _slide(got, a0, a1)
        elif op == "insert":
            b0, b1 = _slide(want, b0, b1)
        if op != "equal":
            kind = {"replace": "replace", "delete": "add", "insert": "miss"}[op]
            out.append((kind, quote(a_text, a_spans, a0, a1), quote(b_text, b_spans, b0, b1), where(b0)))
    return out


def describe_difference(statement: str, reference: str, limit: int = 3) -> list[str]:
    """Up to `limit` findings in a judge's words: they quote the statement under review, never the reference."""
    findings = []
    for op, got, _want, where in differences(statement, reference):
        if op == "replace":
            findings.append(f"`{got}` in the {where} of the Lean statement does not say what the problem says")
        elif op == "add":
            findings.append(f"the Lean statement adds `{got}`, which the problem does not state")
        else:
            part = "a hypothesis" if where == "hypotheses" else "part of the conclusion"
            findings.append(f"the Lean statement is missing {part} that the problem states")
    return findings[:limit]


def judge_feedback(problem: str, statement: str, consistent: bool, reasons: list[str]) -> str:
    """The text a one-judge ensemble in vote mode would return for this verdict."""
    verdict = "consistent" if consistent else "inconsistent"
    vote = Vote(JUDGE_NAME, verdict, reasons=[] if consistent else reasons)
    return ConsistencyResult(problem, statement, "vote", consistent, verdict, [vote]).feedback()


class ReferenceConsistencyTool:
    """consistency_check that compares with `references[problem]` (the gold statement)."""

    name = CONSISTENCY_CHECK
    schema = CONSISTENCY_SCHEMA

    def __init__(self, references: dict[str, str]):
        self.references = {k.strip(): v for k, v in references.items()}

    def call(self, requests: Sequence[ToolRequest]) -> list[ToolResult]:
        out = []
        for r in requests:
            ref = self.references.get(r.problem.strip())
            if ref is None:
                raise KeyError(f"no reference statement for problem {r.problem[:80]!r}")
            statement = r.arguments["statement"]
            same = normalize(_theorem_part(statement)) == normalize(_theorem_part(ref))
            findings = [] if same else describe_difference(statement, ref)
            findings = findings if same or findings else ["the Lean statement does not match the problem"]
            out.append(ToolResult(same, judge_feedback(r.problem, statement, same, findings)))
        return out
