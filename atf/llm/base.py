"""The one small protocol every engine speaks, and the sampling settings they share.

An engine turns prompts into completions. Local engines (transformers, vLLM) are token-in/token-out:
`generate` takes prompt token ids and returns the generated ids, so a multi-turn rollout can be trained
on exactly the tokens the model sampled. HTTP engines speak text; they return token ids only when a
local tokenizer is given to re-encode the text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Protocol, runtime_checkable

Message = dict[str, Any]  # {"role": "system"|"user"|"assistant"|"tool", "content": str, ...}


@dataclass(frozen=True)
class SamplingParams:
    """Decoding settings shared by all engines.

    max_new_tokens: most tokens to generate per completion.
    temperature: 0 means greedy decoding.
    top_p: nucleus sampling mass (ignored when greedy).
    n: completions per prompt.
    stop: strings that end a completion (kept in the output).
    seed: makes sampling repeatable where the engine allows it.
    repetition_penalty: > 1 makes every token already in the prompt or the completion so far less likely (its
        logit divided by the penalty when positive, multiplied when negative: the CTRL penalty that transformers'
        generate and vLLM apply); 1 is off. Against the loops a small model falls into (one line repeated until
        max_new_tokens). HTTP engines send it only when it is not 1: vLLM servers accept it, OpenAI's API does not.
        Counting the prompt, it also makes the model avoid the words it must copy (the tool-call format, the header).
    frequency_penalty: subtracted from a token's logit once for every time the token already occurs in this
        completion; the prompt does not count (OpenAI's and vLLM's frequency_penalty, applied before temperature);
        0 is off. A loop pays more at every repetition, a token the prompt shows the model pays nothing.
    """

    max_new_tokens: int = 512
    temperature: float = 0.7
    top_p: float = 0.95
    n: int = 1
    stop: tuple[str, ...] = ()
    seed: int | None = None
    repetition_penalty: float = 1.0
    frequency_penalty: float = 0.0

    def __post_init__(self) -> None:
        if self.max_new_tokens < 1:
            raise ValueError(f"max_new_tokens must be >= 1, got {self.max_new_tokens}")
        if self.temperature < 0:
            raise ValueError(f"temperature must be >= 0, got {self.temperature}")
        if not 0 < self.top_p <= 1:
            raise ValueError(f"top_p must be in (0, 1], got {self.top_p}")
        if self.n < 1:
            raise ValueError(f"n must be >= 1, got {self.n}")
        if self.repetition_penalty <= 0:
            raise ValueError(f"repetition_penalty must be > 0 (1 is off), got {self.repetition_penalty}")
        if not -2 <= self.frequency_penalty <= 2:  # OpenAI's range
            raise ValueError(f"frequency_penalty must be in [-2, 2] (0 is off), got {self.frequency_penalty}")


@dataclass
class Completion:
    """One sampled continuation.

    text: the decoded continuation (special tokens removed).
    token_ids: exactly the ids the model generated, eos included when it stopped on eos; None when an
        HTTP engine has no local tokenizer.
    finish_reason: "stop" (eos or a stop string) or "length" (hit max_new_tokens).
    """

    text: str
    token_ids: list[int] | None = None
    finish_reason: str = "stop"
    logprobs: list[float] | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Capabilities:
    """What an engine can do, declared by the engine; callers choose behaviour from these, never from its name.

    token_io: `generate` takes prompt ids and returns exactly the ids the model sampled, so a rollout can
        run token-in/token-out and prompts can be extended at the token level (a prefilled answer label).
    logprobs: next-token probabilities can be read from the model directly (`engine.model`).
    tool_call_parsing: the server parses tool calls into structured fields and drops stop strings from its
        output (OpenAI-compatible servers); the loop then talks to it in chat mode.
    """

    token_io: bool = False
    logprobs: bool = False
    tool_call_parsing: bool = False


@runtime_checkable
class Engine(Protocol):
    """What the agent loop, judges and informalizer need from a model."""

    name: str
    tokenizer: Any  # a transformers tokenizer, or None for HTTP engines without one
    capabilities: Capabilities

    def generate(self, prompts: Sequence[list[int]], params: SamplingParams) -> list[list[Completion]]:
        """Token-in/token-out: `params.n` completions for each prompt (a list of token ids)."""
        ...

    def chat(
        self, conversations: Sequence[list[Message]], params: SamplingParams, tools: list[dict] | None = None
    ) -> list[list[Completion]]:
        """`params.n` assistant replies for each conversation."""
        ...


def atf_chat_template() -> str:
    """ChatML + hermes tool calls + `{% generation %}` markers (see chat_template.jinja)."""
    return resources.files("atf.llm").joinpath("chat_template.jinja").read_text()


def render_prompt(tokenizer: Any, messages: list[Message], tools: list[dict] | None = None) -> list[int]:
    """Token ids of `messages` followed by the assistant generation prompt."""
    ids = tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=True, tokenize=True)
    if isinstance(ids, dict) or hasattr(ids, "keys"):  # some tokenizers return a BatchEncoding
        ids = ids["input_ids"]
    return list(ids)


class TokenEngine:
    """Mixin for engines that implement `generate`: `chat` renders with the tokenizer's template."""

    tokenizer: Any
    capabilities = Capabilities(token_io=True)

    def generate(self, prompts: Sequence[list[int]], params: SamplingParams) -> list[list[Completion]]:
        raise NotImplementedError

    def chat(
        self, conversations: Sequence[list[Message]], params: SamplingParams, tools: list[dict] | None = None
    ) -> list[list[Completion]]:
        prompts = [render_prompt(self.tokenizer, conv, tools) for conv in conversations]
        return self.generate(prompts, params)


class WithSampling:
    """An engine whose spec set sampling options (`smollm2::max_new_tokens=8`): they override the caller's
    `SamplingParams` on every call. Everything else (name, tokenizer, capabilities, model) is the engine's."""

    def __init__(self, engine: Any, **overrides: Any):
        self.engine = engine
        self.overrides = overrides

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.engine, attr)

    def _params(self, params: SamplingParams) -> SamplingParams:
        return dataclasses.replace(params, **self.overrides)

    def generate(self, prompts: Sequence[list[int]], params: SamplingParams) -> list[list[Completion]]:
        return self.engine.generate(prompts, self._params(params))

    def chat(
        self, conversations: Sequence[list[Message]], params: SamplingParams, tools: list[dict] | None = None
    ) -> list[list[Completion]]:
        return self.engine.chat(conversations, self._params(params), tools)
