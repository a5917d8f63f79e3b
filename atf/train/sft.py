"""SFT on tool-loop trajectories: TRL's SFTTrainer on the token view (loss on model-sampled tokens only)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from atf.agent.trajectory import Trajectory
from atf.train.data import sft_dataset
from atf.train.model import load_model, require_eval_data, train_and_save, training_tokenizer


def train_sft(
    model_path: str,
    trajectories: Sequence[Trajectory],
    training_args: Any,
    model_args: Any,
    retokenize: bool = False,
    merge_lora: bool = True,
    eval_trajectories: Sequence[Trajectory] = (),
    chat_template: str | None = None,
    callbacks: Sequence[Any] = (),
) -> Any:
    """Fine-tune `model_path` on `trajectories` (successes, already filtered) and save to
    `training_args.output_dir`; returns the trainer. `eval_trajectories` are evaluated as
    `training_args.eval_strategy` says. callbacks: extra transformers TrainerCallbacks."""
    from trl import SFTTrainer, get_peft_config

    require_eval_data(training_args, eval_trajectories)
    tokenizer = training_tokenizer(model_path, chat_template)
    dataset = sft_dataset(trajectories, tokenizer, retokenize)
    trainer = SFTTrainer(
        model=load_model(model_args, model_path),
        args=training_args,
        train_dataset=dataset,
        eval_dataset=sft_dataset(eval_trajectories, tokenizer, retokenize) if eval_trajectories else None,
        processing_class=tokenizer,
        peft_config=get_peft_config(model_args),
        callbacks=list(callbacks) or None,
    )
    return train_and_save(trainer, tokenizer, training_args, merge_lora)
