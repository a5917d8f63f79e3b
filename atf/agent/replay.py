"""An engine that replays written assistant turns, so a planned conversation runs through the real loop.

data_gen writes cold-start attempts (a corrupted statement, then the revision) and plays them through
`ToolLoop` with the real tools: the loop's rules and the tools' verdicts decide whether the
conversation is valid, and the trajectory comes out with exactly the loop's token view. Tests use it as
a deterministic model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from atf.agent.tokens import assistant_header_text, turn_end_token
from atf.llm.base import Capabilities, Completion, Message, SamplingParams


class ReplayEngine:
    """Engine protocol over fixed scripts.

    scripts: problem text -> the assistant turns to give, in order (a script answers the user message
        that is, or ends with, its problem). After the last one it answers
        `fallback` (default: an empty reply, which ends a rollout with "no_tool_call").
    tokenizer: the tokenizer whose ids it returns (token mode) and whose template it reads prompts with.
    """

    def __init__(self, scripts: dict[str, list[str]], tokenizer: Any, name: str = "replay", fallback: str = ""):
        self.scripts = {k.strip(): list(v) for k, v in scripts.items()}
        self.tokenizer = tokenizer
        self.capabilities = Capabilities(token_io=tokenizer is not None)
        self.name = name
        self.fallback = fallback
        self.calls = 0  # generate/chat calls made (tests check batching with it)

    def _reply(self, problem_text: str, turn: int, closed_by: str | None = None) -> str:
        """closed_by: the problem is a user message ending with this token inside `problem_text` (a rendered prompt)."""
        problem_text = problem_text.strip()
        if closed_by:
            keys = [k for k in self.scripts if f"\n{k}{closed_by}" in problem_text]
        else:
            keys = [k for k in self.scripts if problem_text == k or problem_text.endswith("\n" + k)]
        if not keys:
            raise KeyError(f"no script for prompt: {problem_text[:200]!r}")
        turns = self.scripts[max(keys, key=len)]
        return turns[turn] if turn < len(turns) else self.fallback

    def _completion(self, text: str, params: SamplingParams) -> Completion:
        ids = list(self.tokenizer.encode(text, add_special_tokens=False)) if self.tokenizer is not None else None
        if ids is not None and len(ids) >= params.max_new_tokens:
            ids = ids[: params.max_new_tokens]
            return Completion(self.tokenizer.decode(ids, skip_special_tokens=True), ids, "length")
        if ids is not None:
            end = turn_end_token(self.tokenizer)
            ids.append(self.tokenizer.convert_tokens_to_ids(end) if end else self.tokenizer.eos_token_id)
        return Completion(text, ids, "stop")

    def generate(self, prompts: Sequence[list[int]], params: SamplingParams) -> list[list[Completion]]:
        self.calls += 1
        header = assistant_header_text(self.tokenizer)  # any template: turns so far = generation prompts seen
        end = turn_end_token(self.tokenizer) or ""
        out = []
        for ids in prompts:
            text = self.tokenizer.decode(ids, skip_special_tokens=False)
            turn = text.count(header) - 1
            out.append([self._completion(self._reply(text, turn, closed_by=end), params) for _ in range(params.n)])
        return out

    def chat(
        self, conversations: Sequence[list[Message]], params: SamplingParams, tools: list[dict] | None = None
    ) -> list[list[Completion]]:
        self.calls += 1
        out = []
        for conv in conversations:
            user = next(m["content"] for m in conv if m["role"] == "user")
            turn = sum(1 for m in conv if m["role"] == "assistant")
            out.append([self._completion(self._reply(user, turn), params) for _ in range(params.n)])
        return out
