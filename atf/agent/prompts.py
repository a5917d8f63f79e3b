"""The instructions the formalizer sees. Kept in one place: training data and inference must agree."""

from __future__ import annotations

from atf.llm.base import Message

SYSTEM_PROMPT = """You are a Lean 4 autoformalizer. \
Translate the user's math problem into one Lean 4 theorem statement \
over Mathlib that means exactly what the problem says, with `sorry` as the proof.

Work with the tools:
1. Write the full statement (`import Mathlib`, any `open` lines, then `theorem name ... := by sorry`) and call \
syntax_check on it.
2. If syntax_check reports errors, fix them and call syntax_check again.
3. When syntax_check passes, call consistency_check on that same statement.
4. If consistency_check reports a mismatch, revise the statement and start again from step 1.
Stop when both checks pass on your latest statement."""

USER_TEMPLATE = "Formalize this problem in Lean 4:\n\n{problem}"


def initial_messages(problem: str, system_prompt: str = SYSTEM_PROMPT) -> list[Message]:
    """The conversation every rollout starts from."""
    problem = problem.strip()
    if not problem:
        raise ValueError("empty problem: give the informal statement to formalize")
    return [
        {"role": "system", "content": system_prompt},
        {"role": "user", "content": USER_TEMPLATE.format(problem=problem)},
    ]
