"""Answer probabilities read from a local model's next-token distribution (OAP "logprob" scoring).

After the chat prompt and the answer prefix (e.g. "ANSWER:") we take one forward pass and compare the
probability mass on each option's tokens (" yes", "yes", " Yes", ... vs " no", ...). This gives a
graded score without sampling, as the epistemic-ensemble judges do with token log-probabilities. When
the options together get less than `min_mass` of the probability, the model is not answering the
question; the item is reported as unparsed rather than read from noise.
"""

from __future__ import annotations

from typing import Any, Sequence

import torch

from atf.llm import Message, render_prompt

YES_NO = {"yes": ("yes", " yes", "Yes", " Yes", "YES", " YES"), "no": ("no", " no", "No", " No", "NO", " NO")}
DIGITS_1_5 = {str(d): (str(d), f" {d}") for d in range(1, 6)}


def option_token_ids(tokenizer: Any, options: dict[str, Sequence[str]]) -> dict[str, list[int]]:
    """First token id of each surface form, per option; ids shared between options are dropped."""
    ids: dict[str, set[int]] = {}
    for option, forms in options.items():
        ids[option] = set()
        for form in forms:
            encoded = tokenizer.encode(form, add_special_tokens=False)
            if encoded:
                ids[option].add(encoded[0])
    shared = {i for a in ids for b in ids if a != b for i in ids[a] & ids[b]}
    out = {option: sorted(s - shared) for option, s in ids.items()}
    empty = [o for o, s in out.items() if not s]
    if empty:
        raise ValueError(f"options {empty} have no token of their own in this tokenizer")
    return out


@torch.no_grad()
def option_probabilities(
    engine: Any,
    conversations: Sequence[list[Message]],
    answer_prefix: str,
    options: dict[str, Sequence[str]],
    batch_size: int = 8,
) -> list[tuple[dict[str, float], float]]:
    """For each conversation: ({option: probability renormalised over the options}, mass on the options)."""
    model, tok = engine.model, engine.tokenizer
    option_ids = option_token_ids(tok, options)
    prefix_ids = tok.encode(answer_prefix, add_special_tokens=False)
    prompts = [render_prompt(tok, conv) + prefix_ids for conv in conversations]
    device = next(model.parameters()).device
    pad = tok.pad_token_id if tok.pad_token_id is not None else 0
    results: list[tuple[dict[str, float], float]] = []
    for start in range(0, len(prompts), batch_size):
        batch = prompts[start : start + batch_size]
        width = max(len(p) for p in batch)
        input_ids = torch.tensor([[pad] * (width - len(p)) + p for p in batch], device=device)
        mask = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in batch], device=device)
        positions = (mask.cumsum(-1) - 1).clamp(min=0)
        logits = model(input_ids=input_ids, attention_mask=mask, position_ids=positions).logits[:, -1, :]
        probs = torch.softmax(logits.float(), dim=-1)
        for row in probs:
            mass = {o: float(row[ids].sum()) for o, ids in option_ids.items()}
            total = sum(mass.values())
            normed = {o: (m / total if total > 0 else 0.0) for o, m in mass.items()}
            results.append((normed, total))
    return results
