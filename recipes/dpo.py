"""DPO + NLL on preference pairs of trajectories (success beats failure, fewer revisions beat more).

    python recipes/dpo.py --config configs/dpo.yaml
    accelerate launch --config_file configs/accelerate/zero3.yaml recipes/dpo.py --config configs/dpo.yaml

configs/dpo.yaml sets `loss_type: [sigmoid, sft]` and `loss_weights: [1.0, alpha]`: the DPO loss plus
alpha times the NLL of the chosen trajectory (TRL's replacement for the removed `rpo_alpha`).
"""

import json

from trl import DPOConfig, ModelConfig, TrlParser

from atf.train.args import DPOScriptArguments
from atf.train.data import load_trajectories, split_by_problem
from atf.train.dpo import train_dpo
from atf.train.model import resolve_model_path
from atf.train.pairs import build_pairs, read_pairs


def main(script_args: DPOScriptArguments, training_args: DPOConfig, model_args: ModelConfig):
    pairs = [p for path in script_args.pair_files for p in read_pairs(path)]
    if script_args.trajectory_files:
        pairs += build_pairs(load_trajectories(script_args.trajectory_files), script_args.max_pairs_per_problem)
    if not pairs:
        raise ValueError(
            "no preference pairs: give --pair_files or --trajectory_files with successes and worse attempts"
        )
    if script_args.eval_pair_files:
        held_out = [p for path in script_args.eval_pair_files for p in read_pairs(path)]
    else:
        pairs, held_out = split_by_problem(pairs, lambda p: json.dumps(p["prompt"]), script_args.eval_fraction)
    print(
        f"DPO on {len(pairs)} pairs; loss {training_args.loss_type} weights {training_args.loss_weights}"
        + (f"; {len(held_out)} pairs held out for eval" if held_out else "")
    )
    model_path = resolve_model_path(model_args.model_name_or_path)
    trainer = train_dpo(
        model_path,
        pairs,
        training_args,
        model_args,
        script_args.merge_lora,
        eval_pairs=held_out,
        chat_template=script_args.chat_template,
    )
    trainer.accelerator.print(f"saved {training_args.output_dir}")
    return trainer


def parse(argv: list[str] | None = None):
    """`--config <yaml>` sets defaults, flags override them."""
    return TrlParser((DPOScriptArguments, DPOConfig, ModelConfig)).parse_args_and_config(argv)


if __name__ == "__main__":
    main(*parse())
