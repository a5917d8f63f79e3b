"""Loading the model to train, saving what the agent loop and vLLM load back, resuming."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def resolve_model_path(name: str) -> str:
    """`smollm2` is the shipped SmolLM2-135M-Instruct (converted once); anything else is a path or hub id."""
    if name == "smollm2":
        from atf.llm.models import smollm2_dir

        return str(smollm2_dir())
    return name


def training_tokenizer(path: str, chat_template: str | None = None) -> Any:
    """The checkpoint's tokenizer with ATF's template choice (atf.llm.templates), the one the agent loop samples
    with: training and inference render conversations identically. Saved with the model."""
    from atf.llm.models import load_tokenizer

    return load_tokenizer(path, chat_template)


def load_model(model_args: Any, path: str) -> Any:
    """AutoModelForCausalLM from `path` with ModelConfig's dtype / attention settings."""
    import torch
    from transformers import AutoModelForCausalLM

    dtype = model_args.dtype
    if dtype in (None, "auto"):
        dtype = "auto"
    elif isinstance(dtype, str):
        dtype = getattr(torch, dtype)
    kwargs: dict[str, Any] = {"dtype": dtype}
    if model_args.attn_implementation:
        kwargs["attn_implementation"] = model_args.attn_implementation
    return AutoModelForCausalLM.from_pretrained(path, revision=model_args.model_revision, **kwargs)


def resume_checkpoint(value: Any, output_dir: str) -> str | None:
    """`resume_from_checkpoint`: a checkpoint path, or true/auto for the last one in output_dir (none yet: start fresh)."""
    if value in (None, False, "", "false", "False", "no"):
        return None
    if value in (True, "true", "True", "auto", "last"):
        from transformers.trainer_utils import get_last_checkpoint

        last = get_last_checkpoint(output_dir) if Path(output_dir).is_dir() else None
        if last:
            log.info("resuming from %s", last)
        return last
    if not Path(value).is_dir():
        raise FileNotFoundError(f"checkpoint {value} not found")
    return str(value)


def train_and_save(trainer: Any, tokenizer: Any, training_args: Any, merge_lora: bool = True) -> Any:
    """Run `trainer` (resuming as `training_args.resume_from_checkpoint` says) and save it for inference."""
    checkpoint = resume_checkpoint(training_args.resume_from_checkpoint, training_args.output_dir)
    if checkpoint:
        trainer.accelerator.print(f"resuming from {checkpoint}")
    trainer.train(resume_from_checkpoint=checkpoint)
    save_for_inference(trainer, tokenizer, training_args.output_dir, merge_lora)
    return trainer


def save_for_inference(trainer: Any, tokenizer: Any, output_dir: str, merge_lora: bool = True) -> str:
    """Save a checkpoint that `hf:<dir>` and vLLM load directly: LoRA adapters are merged (the adapter alone
    is kept in `<dir>/adapter`). Only the main process writes. Under ZeRO-3 set merge_lora false and merge
the saved adapter afterwards (partitioned weights cannot be merged in place)."""
    out = Path(output_dir)
    model = trainer.model
    if hasattr(model, "merge_and_unload") and merge_lora:
        if trainer.accelerator.is_main_process:
            model.save_pretrained(out / "adapter")
        merged = trainer.accelerator.unwrap_model(model).merge_and_unload()
        if trainer.accelerator.is_main_process:
            merged.save_pretrained(out)
            tokenizer.save_pretrained(out)
    else:
        trainer.save_model(str(out))
        if trainer.accelerator.is_main_process:
            tokenizer.save_pretrained(out)
    trainer.accelerator.wait_for_everyone()
    return str(out)
