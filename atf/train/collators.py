"""A preference collator that keeps tool output out of the DPO loss, for any chat template.

TRL's DPO treats everything after the prompt as the completion, so in a multi-turn `chosen` the tool
responses (Lean errors, judge findings) would count as if the model had written them. This collator
takes TRL's batch and clears the completion mask outside assistant turns. The template's assistant header
(what the generation prompt adds: `<|im_start|>assistant\\n` in ChatML, `<|start_header_id|>assistant
<|end_header_id|>\\n\\n` in Llama 3) and its turn-end token (`<|im_end|>`, `<|eot_id|>`) are found by rendering
probe conversations with the tokenizer's template: an assistant turn runs from after its header up to and
including the turn-end token; tool turns and the template tokens between turns are masked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch
from trl.trainer.dpo_trainer import DataCollatorForPreference

from atf.agent.tokens import assistant_header_text, encode, turn_end_token


def assistant_token_mask(
    ids: list[int],
    start: int,
    header: tuple[int, ...],
    turn_end: int,
    is_space: Callable[[int], bool] = lambda i: False,
) -> list[int]:
    """1 on tokens of assistant turns from `start` on (the completion begins inside an assistant turn).
    header: the header without its trailing whitespace, whose tokens merge differently with what follows in context;
    `is_space(id)` tells the whitespace-only tokens right after it, which are the template's, not the model's."""
    mask = [0] * len(ids)
    inside = True
    i = start
    while i < len(ids):
        if not inside and tuple(ids[i : i + len(header)]) == header:
            inside = True
            i += len(header)
            while i < len(ids) and is_space(ids[i]):
                i += 1
            continue
        if inside:
            mask[i] = 1
            if ids[i] == turn_end:
                inside = False
        i += 1
    return mask


@dataclass
class ToolMaskedPreferenceCollator(DataCollatorForPreference):
    """DataCollatorForPreference + tool-token masking (see module doc).

    assistant_header: ids the template opens an assistant turn with (trailing whitespace left out).
    turn_end_id: id of the token that closes an assistant turn.
    tokenizer: reads which tokens are whitespace only.
    """

    assistant_header: tuple[int, ...] = ()
    turn_end_id: int = -1
    tokenizer: Any = field(default=None, repr=False)

    @classmethod
    def from_tokenizer(cls, tokenizer: Any, **kwargs: Any) -> ToolMaskedPreferenceCollator:
        end = turn_end_token(tokenizer)
        if end is None:
            raise ValueError("the chat template closes assistant turns with no special token; cannot find turn ends")
        return cls(
            pad_token_id=tokenizer.pad_token_id,
            assistant_header=tuple(encode(tokenizer, assistant_header_text(tokenizer).rstrip())),
            turn_end_id=tokenizer.convert_tokens_to_ids(end),
            tokenizer=tokenizer,
            **kwargs,
        )

    def _is_space(self, token_id: int) -> bool:
        return self.tokenizer is not None and not self.tokenizer.decode([token_id]).strip()

    def torch_call(self, examples: list[dict[str, Any]]) -> dict[str, Any]:
        out = super().torch_call(examples)
        ids, comp = out["input_ids"].tolist(), out["completion_mask"]
        keep = torch.zeros_like(comp)
        for row, (seq, m) in enumerate(zip(ids, comp.tolist())):
            if 1 not in m:
                continue
            first = m.index(1)
            keep[row] = torch.tensor(
                assistant_token_mask(seq, first, self.assistant_header, self.turn_end_id, self._is_space)
            )
        out["completion_mask"] = comp * keep
        return out
