"""Expert iteration: sample with the current model via the agent loop, keep successes under the revision limit,
merge with earlier data (deduplicated), fine-tune; repeat for `rounds`.

    python recipes/expert_iteration.py --config configs/expert_iteration.yaml
    accelerate launch --config_file configs/accelerate/ddp.yaml recipes/expert_iteration.py \\
        --config configs/expert_iteration.yaml --sampler vllm

Every round lives in <output_dir>/round_<r>/ (samples, kept, train data, model); rerunning resumes.
"""

from trl import ModelConfig, SFTConfig, TrlParser

from atf.train.args import ExpertIterationArguments
from atf.train.expert_iteration import run_expert_iteration
from atf.train.model import resolve_model_path


def main(script_args: ExpertIterationArguments, training_args: SFTConfig, model_args: ModelConfig, engine_factory=None):
    model_path = resolve_model_path(model_args.model_name_or_path)
    final = run_expert_iteration(script_args, training_args, model_args, model_path, engine_factory)
    print(f"expert iteration done: {final}")
    return final


def parse(argv: list[str] | None = None):
    """`--config <yaml>` sets defaults, flags override them."""
    return TrlParser((ExpertIterationArguments, SFTConfig, ModelConfig)).parse_args_and_config(argv)


if __name__ == "__main__":
    main(*parse())
