"""Offline vLLM engine: many prompts in flight on a GPU. vLLM is imported only when this is built."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from atf.llm.base import Completion, SamplingParams, TokenEngine


class VLLMEngine(TokenEngine):
    """Wraps `vllm.LLM`; prompts go in as token ids and come back as token ids.

    model: a local checkpoint or hub name that vLLM can load.
    chat_template: overrides ATF's template choice (see atf.llm.templates; the same choice training makes).
    **llm_kwargs: passed to `vllm.LLM` (tensor_parallel_size, gpu_memory_utilization, max_model_len, ...).
    """

    # The vllm.LLM arguments an engine spec may set (`vllm:/ckpt::tensor_parallel_size=4`).
    llm_options: dict[str, type] = {
        "tensor_parallel_size": int,
        "pipeline_parallel_size": int,
        "gpu_memory_utilization": float,
        "max_model_len": int,
        "max_num_seqs": int,
        "dtype": str,
        "quantization": str,
        "enforce_eager": bool,
        "enable_prefix_caching": bool,
        "trust_remote_code": bool,
    }

    def __init__(self, model: str, chat_template: str | None = None, name: str | None = None, **llm_kwargs: Any):
        try:
            import vllm
        except ImportError as err:  # pragma: no cover - depends on the [serve] extra
            raise ImportError("the vLLM engine needs vllm: pip install 'atf[serve]'") from err
        self._vllm = vllm
        self.llm = vllm.LLM(model=model, **llm_kwargs)
        from atf.llm.templates import apply_chat_template_choice

        self.tokenizer = apply_chat_template_choice(self.llm.get_tokenizer(), chat_template)
        self.name = name or f"vllm:{model}"

    def _params(self, params: SamplingParams) -> Any:
        return self._vllm.SamplingParams(
            n=params.n,
            temperature=params.temperature,
            top_p=params.top_p if params.temperature > 0 else 1.0,
            max_tokens=params.max_new_tokens,
            stop=list(params.stop) or None,
            include_stop_str_in_output=True,
            seed=params.seed,
            repetition_penalty=params.repetition_penalty,
            frequency_penalty=params.frequency_penalty,
        )

    def generate(self, prompts: Sequence[list[int]], params: SamplingParams) -> list[list[Completion]]:
        inputs = [{"prompt_token_ids": list(p)} for p in prompts]
        outputs = self.llm.generate(inputs, self._params(params), use_tqdm=len(inputs) > 1)
        eos = self.tokenizer.eos_token_id
        results = []
        for out in outputs:
            row = []
            for o in out.outputs:
                ids = list(o.token_ids)
                reason = "length" if o.finish_reason == "length" else "stop"
                if reason == "stop" and eos is not None and (not ids or ids[-1] != eos) and o.stop_reason is None:
                    ids.append(eos)  # vLLM drops the eos it stopped on; training must see it
                row.append(Completion(o.text, ids, reason))
            results.append(row)
        return results
