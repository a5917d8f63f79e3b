"""Loading the model to train, saving what the agent loop and vLLM load back, resuming."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
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


def is_complete_checkpoint(folder: Path) -> bool:
    """The Trainer writes trainer_state.json last (after weights, optimizer, scheduler and RNG states): a run
    killed while saving leaves a checkpoint without it, or with it cut short."""
    try:
        json.loads((folder / "trainer_state.json").read_text())
    except (OSError, ValueError):
        return False
    return True


def last_complete_checkpoint(output_dir: str | Path) -> str | None:
    """The highest-numbered `checkpoint-<step>` in output_dir that was saved completely (None: none yet)."""
    root = Path(output_dir)
    if not root.is_dir():
        return None
    steps = sorted(
        (
            (int(m.group(1)), p)
            for p in root.iterdir()
            if p.is_dir() and (m := re.fullmatch(r"checkpoint-(\d+)", p.name))
        ),
        reverse=True,
    )
    for _, path in steps:
        if is_complete_checkpoint(path):
            return str(path)
        log.warning("skipping %s: incomplete (no readable trainer_state.json; killed while saving?)", path)
    return None


def resume_checkpoint(value: Any, output_dir: str) -> str | None:
    """`resume_from_checkpoint`: a checkpoint path, or true/auto for the last complete one in output_dir (none yet:
    start fresh)."""
    if value in (None, False, "", "false", "False", "no"):
        return None
    if value in (True, "true", "True", "auto", "last"):
        last = last_complete_checkpoint(output_dir)
        if last:
            log.info("resuming from %s", last)
        return last
    if not Path(value).is_dir():
        raise FileNotFoundError(f"checkpoint {value} not found")
    if not is_complete_checkpoint(Path(value)):
        raise ValueError(
            f"checkpoint {value} is incomplete (no readable trainer_state.json); give an earlier one or auto"
        )
    return str(value)


def require_eval_data(training_args: Any, eval_data: Sequence[Any]) -> None:
    """eval_strategy other than "no" needs an eval set: say how to give one."""
    strategy = str(getattr(training_args, "eval_strategy", "no"))
    if not eval_data and strategy.rsplit(".", 1)[-1].lower() != "no":
        raise ValueError(f"eval_strategy={strategy} needs eval data: give eval files or --eval_fraction (e.g. 0.05)")


def train_and_save(trainer: Any, tokenizer: Any, training_args: Any, merge_lora: bool = True) -> Any:
    """Run `trainer` (resuming as `training_args.resume_from_checkpoint` says) and save it for inference; push it
    when `push_to_hub`. On SIGUSR1 (Slurm's notice before a preemption or time limit, see slurm/train.sbatch) the
    current step ends with a checkpoint and `Preempted` is raised: the requeued job resumes from it."""
    from atf.train.preemption import Preempted, PreemptionCallback

    checkpoint = resume_checkpoint(training_args.resume_from_checkpoint, training_args.output_dir)
    if checkpoint:
        trainer.accelerator.print(f"resuming from {checkpoint}")
    preemption = PreemptionCallback()
    trainer.add_callback(preemption)
    try:
        trainer.train(resume_from_checkpoint=checkpoint)
    finally:
        preemption.restore()
    if preemption.stopped:
        raise Preempted(
            f"stopped on SIGUSR1 at step {trainer.state.global_step}; checkpoint saved in {training_args.output_dir}"
        )
    save_for_inference(trainer, tokenizer, training_args.output_dir, merge_lora)
    return trainer


def push_folder(folder: str | Path, training_args: Any) -> str:
    """Upload a merged LoRA model (+ tokenizer with its chat template, adapter in adapter/; not the checkpoint-*
    folders) to `hub_model_id` (default: the folder's name). Full models are pushed by `Trainer.save_model`."""
    from huggingface_hub import HfApi

    repo = training_args.hub_model_id or Path(folder).name
    api = HfApi(token=training_args.hub_token)
    api.create_repo(repo, private=training_args.hub_private_repo, exist_ok=True)
    api.upload_folder(repo_id=repo, folder_path=folder, ignore_patterns=["checkpoint-*/**", "round_*/**", "*.jsonl"])
    log.info("pushed %s to %s", folder, repo)
    return repo


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
            if getattr(trainer.args, "push_to_hub", False):
                push_folder(out, trainer.args)
    else:
        if trainer.accelerator.is_main_process:
            tokenizer.save_pretrained(out)  # first: with push_to_hub, save_model uploads the folder
        trainer.save_model(str(out))
    trainer.accelerator.wait_for_everyone()
    return str(out)
