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


def option_token_ids(tokenizer: Any, options: dict[str, Sequence[str]]) -> dict[str, list[tuple[int, ...]]]:
    """Token sequences of each option's surface forms; a sequence that two options share is dropped.

    Forms may take several tokens (SmolLM2 writes " 4" as " " + "4"): a form's probability is the product
    of its tokens' conditional probabilities."""
    seqs: dict[str, set[tuple[int, ...]]] = {}
    for option, forms in options.items():
        seqs[option] = {tuple(ids) for ids in (tokenizer.encode(f, add_special_tokens=False) for f in forms) if ids}
    shared = {q for a in seqs for b in seqs if a != b for q in seqs[a] & seqs[b]}
    out = {option: sorted(s - shared) for option, s in seqs.items()}
    empty = [o for o, s in out.items() if not s]
    if empty:
        raise ValueError(f"options {empty} have no token sequence of their own in this tokenizer")
    return out


@torch.no_grad()
def _next_token_probs(model: Any, prompts: list[list[int]], pad: int, batch_size: int) -> list[torch.Tensor]:
    device = next(model.parameters()).device
    out: list[torch.Tensor] = []
    for start in range(0, len(prompts), batch_size):
        batch = prompts[start : start + batch_size]
        width = max(len(p) for p in batch)
        input_ids = torch.tensor([[pad] * (width - len(p)) + p for p in batch], device=device)
        mask = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in batch], device=device)
        positions = (mask.cumsum(-1) - 1).clamp(min=0)
        logits = model(input_ids=input_ids, attention_mask=mask, position_ids=positions).logits[:, -1, :]
        out.extend(torch.softmax(logits.float(), dim=-1).cpu())
    return out


def option_probabilities(
    engine: Any,
    conversations: Sequence[list[Message]],
    answer_prefix: str,
    options: dict[str, Sequence[str]],
    batch_size: int = 8,
) -> list[tuple[dict[str, float], float]]:
    """For each conversation: ({option: probability renormalised over the options}, mass on the options).

    One forward pass per distinct proper prefix of the options' token sequences (usually one or two)."""
    model, tok = engine.model, engine.tokenizer
    option_seqs = option_token_ids(tok, options)
    contexts = sorted({seq[:i] for seqs in option_seqs.values() for seq in seqs for i in range(len(seq))})
    prefix_ids = tok.encode(answer_prefix, add_special_tokens=False)
    prompts = [render_prompt(tok, conv) + prefix_ids for conv in conversations]
    pad = tok.pad_token_id if tok.pad_token_id is not None else 0
    dists = {ctx: _next_token_probs(model, [p + list(ctx) for p in prompts], pad, batch_size) for ctx in contexts}
    results: list[tuple[dict[str, float], float]] = []
    for i in range(len(prompts)):
        mass = {}
        for option, seqs in option_seqs.items():
            total = 0.0
            for seq in seqs:
                p = 1.0
                for j, token in enumerate(seq):
                    p *= float(dists[seq[:j]][i][token])
                total += p
            mass[option] = total
        all_mass = sum(mass.values())
        results.append(({o: (m / all_mass if all_mass > 0 else 0.0) for o, m in mass.items()}, all_mass))
    return results
