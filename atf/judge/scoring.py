"""Answer probabilities read from a local model's next-token distribution (OAP "logprob" scoring).

After the chat prompt and the answer prefix (e.g. "ANSWER:") we take one forward pass and compare the
probability mass on each option's tokens (" yes", "yes", " Yes", ... vs " no", ...). This gives a
graded score without sampling, as the epistemic-ensemble judges do with token log-probabilities. When
the options together get less than `min_mass` of the probability, the model is not answering the
question; the item is reported as unparsed rather than read from noise.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Sequence
from typing import Any

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


def _common_prefix(a: list[int], b: list[int]) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


def _groups(seqs: list[list[int]], min_shared: int) -> list[tuple[int, int, int]]:
    """(start, end, shared length): runs of consecutive sequences sharing the prefix that the run's first
    two share (when that is >= min_shared tokens). The shared part stops one token short of every row,
    so each row keeps a suffix. The nine OAP questions of one item form one run; the next item, sharing
    only the system prompt, starts a new one."""
    groups, start = [], 0

    def lcp(i: int, j: int) -> int:
        return min(_common_prefix(seqs[i], seqs[j]), len(seqs[i]) - 1, len(seqs[j]) - 1)

    while start < len(seqs):
        if start + 1 < len(seqs) and lcp(start, start + 1) >= min_shared:
            shared, end = lcp(start, start + 1), start + 2
            while end < len(seqs) and lcp(start, end) >= shared:
                end += 1
            groups.append((start, end, shared))
        else:
            end = start + 1
            groups.append((start, end, 0))
        start = end
    return groups


@torch.no_grad()
def _next_token_probs(
    model: Any, seqs: list[list[int]], pad: int, batch_size: int, min_shared: int = 32
) -> list[torch.Tensor]:
    """Next-token distribution after each sequence. Consecutive sequences with a common prefix (the nine
    OAP questions about one item) run that prefix once and reuse its KV cache; rows are right-padded."""
    device = next(model.parameters()).device
    # transformers 5.2x renamed forward's `past_key_values` to `cache`; older versions only know the former
    cache_kw = "cache" if "cache" in inspect.signature(model.forward).parameters else "past_key_values"
    out: list[torch.Tensor] = [None] * len(seqs)  # type: ignore[list-item]
    for g_start, g_end, shared in _groups(seqs, min_shared):
        prefix_cache = None
        if shared:
            prefix = torch.tensor([seqs[g_start][:shared]], device=device)
            result = model(input_ids=prefix, use_cache=True)
            prefix_cache = getattr(result, "cache", None) or result.past_key_values
        for start in range(g_start, g_end, batch_size):
            rows = [seqs[i][shared:] for i in range(start, min(start + batch_size, g_end))]
            width = max(len(r) for r in rows)
            input_ids = torch.tensor([r + [pad] * (width - len(r)) for r in rows], device=device)
            mask = torch.tensor([[1] * (shared + len(r)) + [0] * (width - len(r)) for r in rows], device=device)
            positions = torch.arange(shared, shared + width, device=device).expand(len(rows), -1)
            kwargs: dict[str, Any] = {}
            if prefix_cache is not None:
                cache = copy.deepcopy(prefix_cache)
                cache.batch_repeat_interleave(len(rows))
                kwargs[cache_kw] = cache
            logits = model(input_ids=input_ids, attention_mask=mask, position_ids=positions, **kwargs).logits
            last = torch.tensor([len(r) - 1 for r in rows], device=device)
            probs = torch.softmax(logits[torch.arange(len(rows), device=device), last].float(), dim=-1).cpu()
            for j, row in enumerate(probs):
                out[start + j] = row
    return out


def option_probabilities(
    engine: Any,
    conversations: Sequence[list[Message]],
    answer_prefix: str,
    options: dict[str, Sequence[str]],
    batch_size: int = 16,
    min_shared: int = 32,
) -> list[tuple[dict[str, float], float]]:
    """For each conversation: ({option: probability renormalised over the options}, mass on the options).

    Each prompt is extended by every proper prefix of the options' token sequences (usually just the
    empty one, plus " " for digits). Adjacent prompts sharing >= min_shared leading tokens (use a huge
    value to turn it off) compute that prefix once."""
    model, tok = engine.model, engine.tokenizer
    option_seqs = option_token_ids(tok, options)
    contexts = sorted({seq[:i] for seqs in option_seqs.values() for seq in seqs for i in range(len(seq))})
    prefix_ids = tok.encode(answer_prefix, add_special_tokens=False)
    prompts = [render_prompt(tok, conv) + prefix_ids for conv in conversations]
    pad = tok.pad_token_id if tok.pad_token_id is not None else 0
    seqs = [p + list(ctx) for p in prompts for ctx in contexts]  # a prompt's contexts stay adjacent: shared prefix
    flat = _next_token_probs(model, seqs, pad, batch_size, min_shared)
    dists = {ctx: flat[k :: len(contexts)] for k, ctx in enumerate(contexts)}
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
