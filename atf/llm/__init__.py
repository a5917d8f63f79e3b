"""Engines behind one protocol (`Engine`): transformers (CPU default), vLLM offline, OpenAI-compatible HTTP.

`load_engine(spec)` builds one from a short string:

    smollm2                          the shipped SmolLM2-135M-Instruct (default)
    tiny                             a random 2-layer model with SmolLM2's tokenizer (tests, dry runs)
    hf:<path-or-name>                any local transformers checkpoint
    vllm:<path-or-name>              vLLM offline (needs the [serve] extra and a GPU)
    openai:<base_url>#<model>        an OpenAI-compatible server, e.g. openai:http://localhost:8000/v1#atf
"""

from __future__ import annotations

from typing import Any

from atf.llm.base import Completion, Engine, Message, SamplingParams, atf_chat_template, render_prompt

__all__ = ["Completion", "Engine", "Message", "SamplingParams", "atf_chat_template", "load_engine", "render_prompt"]

ENGINE_SPECS = "smollm2 | tiny | hf:<path> | vllm:<path> | openai:<base_url>#<model>"


def load_engine(spec: str = "smollm2", **kwargs: Any) -> Engine:
    """Build an engine from `spec` (see module doc). kwargs go to the engine's constructor; `chat_template`
    overrides ATF's template choice for local engines (see atf.llm.templates)."""
    import torch

    kind, _, rest = spec.partition(":")
    if kind == "smollm2" and not rest:
        from atf.llm.models import smollm2_dir

        return load_engine(f"hf:{smollm2_dir()}", name="smollm2", **kwargs)
    if kind == "tiny" and not rest:
        from atf.llm.models import tiny_model
        from atf.llm.transformers_engine import TransformersEngine

        model, tok = tiny_model()
        if kwargs.get("chat_template"):
            from atf.llm.templates import apply_chat_template_choice

            apply_chat_template_choice(tok, kwargs["chat_template"])
        kwargs.pop("chat_template", None)
        return TransformersEngine(model, tok, name="tiny", **kwargs)
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
