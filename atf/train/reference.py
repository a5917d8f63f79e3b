"""A consistency check against a known reference statement, for problems that come with a gold one.

Cold-start synthesis and expert iteration on benchmark dev splits know the gold statement, so their
consistency verdict can be exact where an LLM judge would be noisy: a statement is consistent when it
matches the reference up to whitespace, header and the theorem's name (anything else, even a renamed
binder, counts as a difference: a conservative check). The feedback
names the differing pieces the way a judge's findings would ("the statement has `25` where the
problem needs `26`"). Use `consistency="judge"` in data_gen to get real judge verdicts instead.
"""

from __future__ import annotations

import difflib
import re
from typing import Sequence

from atf.agent.tools import CONSISTENCY_CHECK, CONSISTENCY_SCHEMA, ToolRequest, ToolResult

_TOKEN = re.compile(r"\w+|[^\w\s]")


def normalize(statement: str) -> str:
    return " ".join(_TOKEN.findall(statement))


def _theorem_part(statement: str) -> str:
    """The declaration after `theorem <name>` (header and name do not change the meaning)."""
    m = re.search(r"\b(theorem|lemma)\s+\S+", statement)
    return statement[m.end() :] if m else statement


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


def describe_difference(statement: str, reference: str, limit: int = 3) -> list[str]:
    """Up to `limit` findings, each quoting the differing pieces of text."""
    a_text, b_text = _theorem_part(statement), _theorem_part(reference)
    a_spans = [m.span() for m in _TOKEN.finditer(a_text)]
    b_spans = [m.span() for m in _TOKEN.finditer(b_text)]
    got = [a_text[i:j] for i, j in a_spans]
    want = [b_text[i:j] for i, j in b_spans]

    def quote(text: str, spans: list[tuple[int, int]], lo: int, hi: int) -> str:
        return " ".join(text[spans[lo][0] : spans[hi - 1][1]].split())

    findings = []
    for op, a0, a1, b0, b1 in difflib.SequenceMatcher(a=got, b=want, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        if op == "replace":
            findings.append(f"the statement has `{quote(a_text, a_spans, a0, a1)}` where the problem needs `{quote(b_text, b_spans, b0, b1)}`")
        elif op == "delete":
            a0, a1 = _slide(got, a0, a1)
            findings.append(f"the statement adds `{quote(a_text, a_spans, a0, a1)}`, which the problem does not say")
        else:
            b0, b1 = _slide(want, b0, b1)
            findings.append(f"the statement is missing `{quote(b_text, b_spans, b0, b1)}` from the problem")
    return findings[:limit]


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
            if normalize(_theorem_part(statement)) == normalize(_theorem_part(ref)):
                out.append(ToolResult(True, "Consistent: the statement matches the problem."))
            else:
                findings = describe_difference(statement, ref) or ["the statement does not match the problem"]
                out.append(ToolResult(False, "Inconsistent:\n" + "\n".join(f"- {f}" for f in findings)))
        return out
