"""Engines behind one protocol (`Engine`): transformers (CPU default), vLLM offline, OpenAI-compatible HTTP.

`load_engine(spec)` builds one from a short string, `<engine>[::key=value,...]`:

    smollm2                          the shipped SmolLM2-135M-Instruct (default)
    tiny                             a random 2-layer model with SmolLM2's tokenizer (tests, dry runs)
    hf:<path-or-name>                any local transformers checkpoint
    vllm:<path-or-name>              vLLM offline (needs the [serve] extra and a GPU)
    openai:<base_url>#<model>        an OpenAI-compatible server, e.g. openai:http://[::1]:8000/v1#atf

Options: the sampling keys (max_new_tokens, temperature, top_p, seed, repetition_penalty, frequency_penalty)
override every call's settings; the others go to the engine's constructor (batch_size; concurrency, timeout,
api_key; vLLM's tensor_parallel_size, ...). `smollm2::max_new_tokens=8,batch_size=4`.
"""

from __future__ import annotations

from typing import Any

from atf.llm.base import (
    Capabilities,
    Completion,
    Engine,
    Message,
    SamplingParams,
    WithSampling,
    atf_chat_template,
    render_prompt,
)
from atf.llm.spec import constructor_options, parse_options, split_spec

__all__ = [
    "Capabilities",
    "Completion",
    "Engine",
    "Message",
    "SamplingParams",
    "atf_chat_template",
    "engine_options",
    "load_engine",
    "render_prompt",
]

ENGINE_SPECS = "smollm2 | tiny | hf:<path> | vllm:<path> | openai:<base_url>#<model>, each [::key=value,...]"
DEFAULT_ENGINE = "smollm2"
SAMPLING_OPTIONS: dict[str, type] = {
    "max_new_tokens": int,
    "temperature": float,
    "top_p": float,
    "seed": int,
    "repetition_penalty": float,
    "frequency_penalty": float,
}


def _engine_class(kind: str) -> type:
    if kind in ("smollm2", "tiny", "hf"):
        from atf.llm.transformers_engine import TransformersEngine

        return TransformersEngine
    if kind == "vllm":
        from atf.llm.vllm_engine import VLLMEngine

        return VLLMEngine
    from atf.llm.openai_engine import OpenAIEngine

    return OpenAIEngine


def engine_options(engine: str) -> dict[str, type]:
    """The option keys (and their types) a spec for `engine` (its part before `::`) may set."""
    kind = engine.partition(":")[0]
    if kind not in ("smollm2", "tiny", "hf", "vllm", "openai"):
        raise ValueError(f"unknown engine spec {engine!r}; expected {ENGINE_SPECS}")
    cls = _engine_class(kind)
    own = constructor_options(cls, skip=("model", "tokenizer", "base_url", "transport", "chat_template", "sleep"))
    if kind == "vllm":
        own.update(cls.llm_options)  # passed through to vllm.LLM
    return {**own, **SAMPLING_OPTIONS}


def load_engine(spec: str = DEFAULT_ENGINE, **kwargs: Any) -> Engine:
    """Build an engine from `spec` (see module doc). kwargs go to the engine's constructor; `chat_template`
    overrides ATF's template choice for local engines (see atf.llm.templates)."""
    base, text = split_spec(spec)
    options = parse_options(text, engine_options(base), spec) if text else {}
    sampling = {k: options.pop(k) for k in list(options) if k in SAMPLING_OPTIONS}
    engine = _build(base, {**options, **kwargs})
    return WithSampling(engine, **sampling) if sampling else engine


def _build(spec: str, kwargs: dict[str, Any]) -> Engine:
    import torch

    kind, _, rest = spec.partition(":")
    if kind == "smollm2" and not rest:
        from atf.llm.models import smollm2_dir

        return _build(f"hf:{smollm2_dir()}", {"name": "smollm2", **kwargs})
    if kind == "tiny" and not rest:
        from atf.llm.models import tiny_model
        from atf.llm.transformers_engine import TransformersEngine

        model, tok = tiny_model()
        template = kwargs.pop("chat_template", None)
        if template:
            from atf.llm.templates import apply_chat_template_choice

            apply_chat_template_choice(tok, template)
        return TransformersEngine(model, tok, **{"name": "tiny", **kwargs})
    if kind == "hf" and rest:
        from transformers import AutoModelForCausalLM

        from atf.llm.models import load_tokenizer
        from atf.llm.transformers_engine import TransformersEngine

        device = "cuda" if torch.cuda.is_available() else "cpu"
        dtype = torch.bfloat16 if device == "cuda" else torch.float32
        model = AutoModelForCausalLM.from_pretrained(rest, dtype=dtype).to(device)
        name = kwargs.pop("name", f"hf:{rest}")
        tokenizer = load_tokenizer(rest, kwargs.pop("chat_template", None))
        return TransformersEngine(model, tokenizer, name=name, **kwargs)
    if kind == "vllm" and rest:
        from atf.llm.vllm_engine import VLLMEngine

        return VLLMEngine(rest, **kwargs)
    if kind == "openai" and rest:
        from atf.llm.openai_engine import OpenAIEngine

        if kwargs.pop("chat_template", None):
            raise ValueError("an OpenAI-compatible server renders with its own template: start it with --chat-template")
        base_url, sep, model = rest.partition("#")
        if not sep or not model:
            raise ValueError(f"openai engine needs a model name: openai:{base_url}#<model>")
        return OpenAIEngine(base_url, model, **kwargs)
    raise ValueError(f"unknown engine spec {spec!r}; expected {ENGINE_SPECS}")
