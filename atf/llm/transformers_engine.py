"""Local engine on Hugging Face transformers: the CPU default, and what tests use with tiny models."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from atf.llm.base import Capabilities, Completion, SamplingParams, TokenEngine


class FrequencyPenalty:
    """A logits processor: `penalty` times the number of earlier occurrences of each token among the generated ones
    (positions from `start` on: the prompt does not count) is subtracted from its logit, as vLLM and OpenAI do."""

    def __init__(self, penalty: float, start: int):
        self.penalty = penalty
        self.start = start

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        generated = input_ids[:, self.start :]
        if generated.shape[1] == 0:
            return scores
        counts = torch.zeros_like(scores).scatter_add_(1, generated, torch.ones_like(generated, dtype=scores.dtype))
        return scores - self.penalty * counts


def sampling_processors(params: SamplingParams, prompt_width: int) -> dict[str, Any]:
    """generate() kwargs for the decoding settings. With a frequency penalty the temperature and top-p warpers are
    passed after it (generate would run its own warpers first): penalty, then temperature, then top-p, as vLLM."""
    from transformers import LogitsProcessorList, TemperatureLogitsWarper, TopPLogitsWarper

    kwargs: dict[str, Any] = {"repetition_penalty": params.repetition_penalty}  # prompt and output, not padding
    greedy = dict(do_sample=False, temperature=None, top_p=None, top_k=None)
    if not params.frequency_penalty:
        if params.temperature > 0:
            return kwargs | dict(do_sample=True, temperature=params.temperature, top_p=params.top_p, top_k=0)
        return kwargs | greedy
    processors = [FrequencyPenalty(params.frequency_penalty, prompt_width)]
    if params.temperature == 0:
        return kwargs | greedy | {"logits_processor": LogitsProcessorList(processors)}
    processors.append(TemperatureLogitsWarper(params.temperature))
    if params.top_p < 1:
        processors.append(TopPLogitsWarper(params.top_p))
    return (
        kwargs
        | dict(do_sample=True, temperature=1.0, top_p=1.0, top_k=0)
        | {"logits_processor": LogitsProcessorList(processors)}
    )


class TransformersEngine(TokenEngine):
    """Token-in/token-out generation with `model.generate`, batched with left padding.

    model / tokenizer: loaded objects (see `atf.llm.load_engine` for loading by name).
    batch_size: prompts per forward batch (each expanded to `n` samples).
    """

    capabilities = Capabilities(token_io=True, logprobs=True)

    def __init__(self, model: Any, tokenizer: Any, name: str = "transformers", batch_size: int = 8):
        self.model = model.eval()
        self.tokenizer = tokenizer
        self.name = name
        self.batch_size = batch_size
        if tokenizer.pad_token_id is None or tokenizer.pad_token_id == tokenizer.eos_token_id:
            # A pad distinct from eos keeps "stopped on eos" readable in padded batches.
            unk = tokenizer.unk_token_id
            if unk is not None and unk != tokenizer.eos_token_id:
                tokenizer.pad_token = tokenizer.unk_token
            elif tokenizer.pad_token_id is None:
                tokenizer.pad_token = tokenizer.eos_token

    @property
    def device(self) -> torch.device:
        return next(self.model.parameters()).device

    def _end_ids(self) -> set[int]:
        ends = {self.tokenizer.eos_token_id, self.tokenizer.pad_token_id}
        gen_eos = getattr(self.model.generation_config, "eos_token_id", None)
        if isinstance(gen_eos, int):
            ends.add(gen_eos)
        elif gen_eos:
            ends.update(gen_eos)
        return {i for i in ends if i is not None}

    def _trim(self, ids: list[int], params: SamplingParams) -> tuple[list[int], str]:
        ends = self._end_ids()
        for i, tok in enumerate(ids):
            if tok in ends:
                if tok == self.tokenizer.pad_token_id and tok != self.tokenizer.eos_token_id:
                    return ids[:i], "stop"  # padding after a stop string: not generated
                return ids[: i + 1], "stop"
        if params.stop:
            text = ""
            for i in range(len(ids)):
                text = self.tokenizer.decode(ids[: i + 1], skip_special_tokens=True)
                if any(s in text for s in params.stop):
                    return ids[: i + 1], "stop"
        return ids, "length"

    @torch.no_grad()
    def generate(self, prompts: Sequence[list[int]], params: SamplingParams) -> list[list[Completion]]:
        if params.seed is not None:
            torch.manual_seed(params.seed)
        results: list[list[Completion]] = []
        pad = self.tokenizer.pad_token_id
        for start in range(0, len(prompts), self.batch_size):
            batch = [list(p) for p in prompts[start : start + self.batch_size]]
            if any(len(p) == 0 for p in batch):
                raise ValueError("empty prompt: every prompt needs at least one token")
            width = max(len(p) for p in batch)
            input_ids = torch.tensor([[pad] * (width - len(p)) + p for p in batch], device=self.device)
            attention = torch.tensor([[0] * (width - len(p)) + [1] * len(p) for p in batch], device=self.device)
            kwargs: dict[str, Any] = dict(
                max_new_tokens=params.max_new_tokens,
                num_return_sequences=params.n,
                pad_token_id=pad,
                **sampling_processors(params, width),
            )
            if params.stop:
                kwargs.update(stop_strings=list(params.stop), tokenizer=self.tokenizer)
            out = self.model.generate(input_ids=input_ids, attention_mask=attention, **kwargs)
            new = out[:, width:].tolist()
            for b in range(len(batch)):
                row = []
                for j in range(params.n):
                    ids, reason = self._trim(new[b * params.n + j], params)
                    row.append(Completion(self.tokenizer.decode(ids, skip_special_tokens=True), ids, reason))
                results.append(row)
        return results
