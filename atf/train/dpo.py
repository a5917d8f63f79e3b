"""DPO + NLL on preference pairs of trajectories: TRL's DPOTrainer with tool tokens masked out.

The NLL term is TRL's: `DPOConfig(loss_type=["sigmoid", "sft"], loss_weights=[1.0, alpha])` (TRL >= 0.29
removed `rpo_alpha`; the "sft" loss is the mean NLL of the chosen completion's tokens).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from atf.train.collators import ToolMaskedPreferenceCollator
from atf.train.data import dpo_dataset
from atf.train.model import load_model, require_eval_data, train_and_save, training_tokenizer


def train_dpo(
    model_path: str,
    pairs: Sequence[dict],
    training_args: Any,
    model_args: Any,
    merge_lora: bool = True,
    eval_pairs: Sequence[dict] = (),
    chat_template: str | None = None,
) -> Any:
    """Train `model_path` on `pairs` (atf.train.pairs format) and save to `training_args.output_dir`.
    The reference model is `model_path` itself (or the adapter-free base with LoRA). `eval_pairs` are evaluated
    as `training_args.eval_strategy` says."""
    from trl import DPOTrainer, get_peft_config

    require_eval_data(training_args, eval_pairs)
    tokenizer = training_tokenizer(model_path, chat_template)
    collator = ToolMaskedPreferenceCollator.from_tokenizer(
        tokenizer,
        max_length=training_args.max_length,
        truncation_mode=training_args.truncation_mode,
        pad_to_multiple_of=training_args.pad_to_multiple_of,
    )
    trainer = DPOTrainer(
        model=load_model(model_args, model_path),
        args=training_args,
        train_dataset=dpo_dataset(pairs),
        eval_dataset=dpo_dataset(eval_pairs) if eval_pairs else None,
        processing_class=tokenizer,
        data_collator=collator,
        peft_config=get_peft_config(model_args),
    )
    return train_and_save(trainer, tokenizer, training_args, merge_lora)
