"""Check a trajectory against the loop's rules, wherever it came from (the loop, a teacher, a file).

Training data that breaks the rules would teach the model to break them, so data_gen and the recipes
drop such trajectories. `rule_violations` returns human-readable reasons; empty means valid.
"""

from __future__ import annotations

from typing import Any

from atf.agent.parsing import parse_tool_calls
from atf.agent.tools import CONSISTENCY_CHECK, SYNTAX_CHECK
from atf.agent.trajectory import Trajectory


def rule_violations(t: Trajectory, max_revisions: int | None = None, tokenizer: Any | None = None) -> list[str]:
    problems: list[str] = []
    roles = [m["role"] for m in t.messages]
    if roles[:2] != ["system", "user"] or len(roles) < 3 or roles[2] != "assistant":
        problems.append("must start system, user, assistant")
    written = [c for m in t.messages if m["role"] == "assistant" for c in parse_tool_calls(m["content"])]
    if len(written) != len(t.calls):
        problems.append(f"{len(written)} tool calls in the text but {len(t.calls)} recorded")
    if sum(1 for r in roles if r == "tool") != len(t.calls):
        problems.append("every tool call needs exactly one tool message")
    passed_syntax: set[str] = set()
    latest, syntax_ok, consistency_ok, revisions = None, False, False, 0
    for c in t.calls:
        if c.passed is None:
            continue
        statement = str(c.arguments.get("statement", "")).strip()
        if c.name == SYNTAX_CHECK:
            revisions += 1
            latest, syntax_ok, consistency_ok = statement, c.passed, False
            if c.passed:
                passed_syntax.add(statement)
        elif c.name == CONSISTENCY_CHECK:
            if statement not in passed_syntax:
                problems.append("consistency_check judged a statement that had not passed syntax_check")
            latest, syntax_ok, consistency_ok = statement, True, c.passed
    if revisions != t.revisions:
        problems.append(f"revisions is {t.revisions} but {revisions} statements were syntax-checked")
    if (latest, syntax_ok, consistency_ok) != (t.statement, t.syntax_ok, t.consistency_ok):
        problems.append("final statement/verdicts do not follow from the calls")
    if max_revisions is not None and revisions > max_revisions:
        problems.append(f"{revisions} revisions exceed the limit {max_revisions}")
    if t.success and t.stop_reason != "passed":
        problems.append(f"both checks passed but stop_reason is {t.stop_reason!r}")
    if t.completion_ids is not None:
        if t.completion_mask is None or len(t.completion_mask) != len(t.completion_ids):
            problems.append("completion_mask does not match completion_ids")
        elif not any(t.completion_mask):
            problems.append("no model tokens in the completion")
    if tokenizer is not None and t.completion_ids is not None and t.meta.get("mode") != "chat":
        from atf.agent.tokens import encode, render_text

        if t.prompt_ids + t.completion_ids != encode(tokenizer, render_text(tokenizer, t.messages, t.tools, False)):
            problems.append("token view differs from the chat template's rendering of the messages")
    return problems
