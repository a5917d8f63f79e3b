"""Token-in/token-out bookkeeping for multi-turn rollouts.

The loop keeps one token sequence per rollout: the rendered prompt, then alternately the ids the model
sampled (mask 1) and the ids the loop inserts (mask 0): the end of an assistant turn the model did not
close itself, tool messages, and the next generation prompt. Inserted ids are cut from the chat
template's own rendering of the conversation, so the sequence always equals the template's rendering
of `messages` whenever the model sampled the canonical tokenization of its text (tested).
"""

from __future__ import annotations

from typing import Any

from atf.llm.base import Message


def render_text(tokenizer: Any, messages: list[Message], tools: list[dict] | None, add_generation_prompt: bool) -> str:
    return tokenizer.apply_chat_template(
        messages, tools=tools or None, tokenize=False, add_generation_prompt=add_generation_prompt
    )


def encode(tokenizer: Any, text: str) -> list[int]:
    """Text from a chat template, to ids; special tokens in the text are read as special tokens."""
    return list(tokenizer.encode(text, add_special_tokens=False)) if text else []


class TemplateMismatch(RuntimeError):
    """The chat template does not render the conversation as an extension of what it rendered before."""


def continuation(
    tokenizer: Any,
    rendered: str,
    messages: list[Message],
    tools: list[dict] | None,
    assistant_text: str,
    sampled_eos: bool,
    add_generation_prompt: bool,
) -> tuple[list[int], str]:
    """Ids to insert after the model's last sampled token, and the new rendering.

    rendered: the template's text for the conversation before the last assistant turn (with generation prompt).
    messages: the conversation now (ending with that assistant turn and any tool messages after it).
    assistant_text: the content of that assistant turn (what the sampled ids decode to).
    sampled_eos: whether the sampled ids already end with the eos token (then it is not inserted again).
    """
    new = render_text(tokenizer, messages, tools, add_generation_prompt)
    if not new.startswith(rendered):
        raise TemplateMismatch("the chat template re-renders earlier turns differently; token-in/token-out needs a prefix-stable template")
    segment = new[len(rendered) :]
    if not segment.startswith(assistant_text):
        raise TemplateMismatch("the chat template changes the assistant text it renders; cannot align sampled tokens")
    rest = segment[len(assistant_text) :]
    eos = tokenizer.eos_token or ""
    if sampled_eos:
        if not rest.startswith(eos):
            raise TemplateMismatch(f"the model stopped on {eos!r} but the template does not end the turn with it")
        rest = rest[len(eos) :]
    return encode(tokenizer, rest), new


def token_view_from_messages(
    tokenizer: Any, messages: list[Message], tools: list[dict] | None, n_prompt_messages: int = 2
) -> tuple[list[int], list[int], list[int]]:
    """(prompt_ids, completion_ids, completion_mask) by re-tokenizing a finished conversation.

    For rollouts that came back as text (HTTP engines) and for synthesized data. The mask comes from the
    template's `{% generation %}` markers: assistant text and its end-of-turn token are 1, the rest 0.
    """
    prompt = encode(tokenizer, render_text(tokenizer, messages[:n_prompt_messages], tools, True))
    enc = tokenizer.apply_chat_template(
        messages, tools=tools or None, tokenize=True, return_dict=True, return_assistant_tokens_mask=True
    )
    ids, mask = list(enc["input_ids"]), list(enc["assistant_masks"])
    if ids[: len(prompt)] != prompt:
        raise TemplateMismatch("the rendered prompt is not a prefix of the rendered conversation")
    return prompt, ids[len(prompt) :], mask[len(prompt) :]
