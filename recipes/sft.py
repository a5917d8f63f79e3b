"""SFT on tool-loop trajectories (cold start, or any successes).

    python recipes/sft.py --config configs/sft.yaml
    accelerate launch --config_file configs/accelerate/zero2.yaml recipes/sft.py --config configs/sft.yaml --use_peft

Loss is on the tokens the model sampled (the trajectory's completion mask), never on tool output; see
atf/train/data.py for why the token view is used rather than re-rendered messages. Eval during training:
--eval_files or --eval_fraction with --eval_strategy steps --eval_steps N. --push_to_hub --hub_model_id ORG/NAME
uploads the saved model. A run stopped by SIGUSR1 (Slurm preemption notice) saves a checkpoint and exits with 75.
"""

from trl import ModelConfig, SFTConfig, TrlParser

from atf.train.args import SFTScriptArguments
from atf.train.data import keep_for_sft, load_trajectories, split_by_problem
from atf.train.model import resolve_model_path
from atf.train.sft import train_sft


def main(script_args: SFTScriptArguments, training_args: SFTConfig, model_args: ModelConfig):
    if not script_args.train_files:
        raise ValueError("give --train_files (trajectory JSONL from data_gen/synthesize.py or atf formalize -o)")
    trajectories = [
        t for t in load_trajectories(script_args.train_files) if keep_for_sft(t, script_args.max_kept_revisions)
    ]
    if script_args.eval_files:
        held_out = [
            t for t in load_trajectories(script_args.eval_files) if keep_for_sft(t, script_args.max_kept_revisions)
        ]
    else:
        trajectories, held_out = split_by_problem(trajectories, lambda t: t.problem, script_args.eval_fraction)
    print(
        f"SFT on {len(trajectories)} successful trajectories from {', '.join(script_args.train_files)}"
        + (f"; {len(held_out)} held out for eval" if held_out else "")
    )
    model_path = resolve_model_path(model_args.model_name_or_path)
    trainer = train_sft(
        model_path,
        trajectories,
        training_args,
        model_args,
        script_args.retokenize,
        script_args.merge_lora,
        eval_trajectories=held_out,
        chat_template=script_args.chat_template,
    )
    trainer.accelerator.print(f"saved {training_args.output_dir}")
    return trainer


def parse(argv: list[str] | None = None):
    """`--config <yaml>` sets defaults, flags override them."""
    return TrlParser((SFTScriptArguments, SFTConfig, ModelConfig)).parse_args_and_config(argv)


if __name__ == "__main__":
    main(*parse())
