"""A preference collator that keeps tool output out of the DPO loss.

TRL's DPO treats everything after the prompt as the completion, so in a multi-turn `chosen` the tool
responses (Lean errors, judge findings) would count as if the model had written them. This collator
takes TRL's batch and clears the completion mask outside assistant turns: a ChatML turn that opens with
`<|im_start|>assistant\\n` is the model's up to and including its `<|im_end|>`; everything else (tool turns
and the template tokens between turns) is masked.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch
from trl.trainer.dpo_trainer import DataCollatorForPreference


def assistant_token_mask(ids: list[int], start: int, turn_start: int, turn_end: int, header: tuple[int, ...]) -> list[int]:
    """1 on tokens of assistant turns from `start` on (the completion begins inside an assistant turn)."""
    mask = [0] * len(ids)
    inside = True
    i = start
    while i < len(ids):
        tok = ids[i]
        if tok == turn_start:
            inside = tuple(ids[i + 1 : i + 1 + len(header)]) == header
            i += 1 + (len(header) if inside else 0)
            continue
        if inside:
            mask[i] = 1
            if tok == turn_end:
                inside = False
        i += 1
    return mask


@dataclass
class ToolMaskedPreferenceCollator(DataCollatorForPreference):
    """DataCollatorForPreference + tool-token masking (see module doc).

    turn_start_id / turn_end_id: ids of `<|im_start|>` / `<|im_end|>`.
    assistant_header: ids of `assistant\\n` (what follows turn_start in an assistant turn).
    """

    turn_start_id: int = -1
    turn_end_id: int = -1
    assistant_header: tuple[int, ...] = ()

    @classmethod
    def from_tokenizer(cls, tokenizer: Any, **kwargs: Any) -> "ToolMaskedPreferenceCollator":
        start, end = tokenizer.convert_tokens_to_ids("<|im_start|>"), tokenizer.convert_tokens_to_ids("<|im_end|>")
        if start is None or end is None or start == tokenizer.unk_token_id:
            raise ValueError("ToolMaskedPreferenceCollator needs a ChatML tokenizer (<|im_start|>, <|im_end|>)")
        header = tuple(tokenizer.encode("assistant\n", add_special_tokens=False))
        return cls(pad_token_id=tokenizer.pad_token_id, turn_start_id=start, turn_end_id=end, assistant_header=header, **kwargs)

    def torch_call(self, examples: list[dict[str, Any]]) -> dict[str, Any]:
        out = super().torch_call(examples)
        ids, comp = out["input_ids"].tolist(), out["completion_mask"]
        keep = torch.zeros_like(comp)
        for row, (seq, m) in enumerate(zip(ids, comp.tolist())):
            if 1 not in m:
                continue
            first = m.index(1)
            keep[row] = torch.tensor(assistant_token_mask(seq, first, self.turn_start_id, self.turn_end_id, self.assistant_header))
        out["completion_mask"] = comp * keep
        return out
