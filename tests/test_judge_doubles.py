"""A scripted stand-in for `atf.llm.Engine` (shared by the judge tests; holds no tests itself)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from atf.llm import Capabilities, Completion, Message, SamplingParams


class ScriptedEngine:
    """Implements the Engine protocol; `reply(conversation)` gives one text or a list of `n` texts.

    calls: (number of conversations, params) for every `chat` call, to check batching and sampling.
    """

    tokenizer = None
    capabilities = Capabilities()  # chat only

    def __init__(self, name: str, reply: Callable[[list[Message]], str | list[str]] | str):
        self.name = name
        self.reply = reply if callable(reply) else (lambda conv, text=reply: text)
        self.calls: list[tuple[int, SamplingParams]] = []

    def generate(self, prompts: Sequence[list[int]], params: SamplingParams) -> list[list[Completion]]:
        raise NotImplementedError("the scripted engine only chats")

    def chat(self, conversations, params: SamplingParams, tools=None) -> list[list[Completion]]:
        self.calls.append((len(conversations), params))
        out = []
        for conv in conversations:
            texts = self.reply(conv)
            texts = [texts] * params.n if isinstance(texts, str) else list(texts)
            out.append([Completion(t) for t in texts])
        return out


def user_text(conv: list[Message]) -> str:
    return conv[-1]["content"]
