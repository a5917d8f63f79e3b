"""Token-in/token-out bookkeeping for multi-turn rollouts.

The loop keeps one token sequence per rollout: the rendered prompt, then alternately the ids the model
sampled (mask 1) and the ids the loop inserts (mask 0): the end of an assistant turn the model did not
close itself, tool messages, and the next generation prompt. Inserted ids are cut from the chat
template's own rendering of the conversation, so the sequence always equals the template's rendering
of `messages` whenever the model sampled the canonical tokenization of its text (tested).

Nothing here needs `{% generation %}` markers: an assistant turn is what the template adds between the
rendering before it (with the generation prompt) and the rendering after it, so any prefix-preserving
template works (ATF's, Qwen2.5, TRL's Qwen3 training variant, Llama 3.1, ...). Tool schemas are rendered
wrapped, as OpenAI-compatible servers pass them (`atf.llm.templates.openai_tools`).
"""

from __future__ import annotations

from typing import Any

from atf.llm.base import Message
from atf.llm.templates import openai_tools


def render_text(tokenizer: Any, messages: list[Message], tools: list[dict] | None, add_generation_prompt: bool) -> str:
    return tokenizer.apply_chat_template(
        messages, tools=openai_tools(tools), tokenize=False, add_generation_prompt=add_generation_prompt
    )


def encode(tokenizer: Any, text: str) -> list[int]:
    """Text from a chat template, to ids; special tokens in the text are read as special tokens."""
    return list(tokenizer.encode(text, add_special_tokens=False)) if text else []


class TemplateMismatch(RuntimeError):
    """The chat template does not render the conversation as an extension of what it rendered before."""


_PROBE = "atf-probe-7f3a"


def turn_end_token(tokenizer: Any) -> str | None:
    """The special token the template closes an assistant turn with (what the model emits to stop), found by
    rendering one: `<|im_end|>` for ChatML, `<|eot_id|>` for Llama 3; None if the template ends turns with plain
    text."""
    cached = getattr(tokenizer, "_atf_turn_end", (None, None))
    if cached[0] == tokenizer.chat_template:
        return cached[1]
    msgs = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": _PROBE},
        {"role": "user", "content": "hi"},
    ]
    text = render_text(tokenizer, msgs, None, False)
    rest = text[text.index(_PROBE) + len(_PROBE) :]
    ids = encode(tokenizer, rest)
    special = set(tokenizer.all_special_ids) | set(tokenizer.get_added_vocab().values())
    end = tokenizer.convert_ids_to_tokens(ids[0]) if ids and ids[0] in special else None
    try:
        tokenizer._atf_turn_end = (tokenizer.chat_template, end)
    except AttributeError:  # pragma: no cover - tokenizers that refuse new attributes
        pass
    return end


def assistant_header_text(tokenizer: Any) -> str:
    """What the template's generation prompt adds: `<|im_start|>assistant\n` in ChatML, `<|start_header_id|>assistant
    <|end_header_id|>\n\n` in Llama 3."""
    msgs = [{"role": "user", "content": "hi"}]
    closed, opened = render_text(tokenizer, msgs, None, False), render_text(tokenizer, msgs, None, True)
    if not opened.startswith(closed) or opened == closed:
        raise TemplateMismatch("the chat template has no generation prompt to find assistant turns by")
    return opened[len(closed) :]


def split_turn(
    tokenizer: Any,
    rendered: str,
    messages: list[Message],
    tools: list[dict] | None,
    assistant_text: str,
    add_generation_prompt: bool,
) -> tuple[str, str]:
    """(template text after the assistant's text, new rendering); raises TemplateMismatch when the template
    renders earlier turns or the assistant text differently."""
    new = render_text(tokenizer, messages, tools, add_generation_prompt)
    if not new.startswith(rendered):
        raise TemplateMismatch(
            "the chat template re-renders earlier turns differently; token-in/token-out needs a prefix-stable template"
        )
    segment = new[len(rendered) :]
    if not segment.startswith(assistant_text):
        raise TemplateMismatch(
            f"the chat template renders the assistant text differently ({segment[:60]!r} for {assistant_text[:60]!r}); "
            "cannot align sampled tokens"
        )
    return segment[len(assistant_text) :], new


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
    sampled_eos: whether the sampled ids already end with the turn-end token (then it is not inserted again).
    """
    rest, new = split_turn(tokenizer, rendered, messages, tools, assistant_text, add_generation_prompt)
    if sampled_eos:
        end = turn_end_token(tokenizer) or ""
        if not rest.startswith(end):
            raise TemplateMismatch(f"the model stopped on {end!r} but the template does not end the turn with it")
        rest = rest[len(end) :]
    return encode(tokenizer, rest), new


def token_view_from_messages(
    tokenizer: Any, messages: list[Message], tools: list[dict] | None, n_prompt_messages: int = 2
) -> tuple[list[int], list[int], list[int]]:
    """(prompt_ids, completion_ids, completion_mask) by re-tokenizing a finished conversation.

    For rollouts that came back as text (HTTP engines) and for synthesized data. Built as the loop builds it
    when the model samples the canonical tokens of each assistant text: the text and the template's turn-end
    token are 1 (what the model writes), everything the template adds around them is 0.
    """
    rendered = render_text(tokenizer, messages[:n_prompt_messages], tools, True)
    prompt = encode(tokenizer, rendered)
    end = turn_end_token(tokenizer)
    completion: list[int] = []
    mask: list[int] = []
    i = n_prompt_messages
    while i < len(messages):
        if messages[i]["role"] != "assistant":
            raise TemplateMismatch(
                f"message {i} is a {messages[i]['role']!r} turn where an assistant turn was expected"
            )
        j = i + 1
        while j < len(messages) and messages[j]["role"] != "assistant":
            j += 1
        text = messages[i]["content"]
        rest, rendered = split_turn(
            tokenizer, rendered, messages[:j], tools, text, add_generation_prompt=j < len(messages)
        )
        model = encode(tokenizer, text)
        if end and rest.startswith(end):
            model += encode(tokenizer, end)
            rest = rest[len(end) :]
        inserted = encode(tokenizer, rest)
        completion += model + inserted
        mask += [1] * len(model) + [0] * len(inserted)
        i = j
    return prompt, completion, mask
