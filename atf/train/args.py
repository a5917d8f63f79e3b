"""The ATF-specific arguments of each recipe. TRL's SFTConfig / DPOConfig / ModelConfig hold the rest
(eval_strategy / eval_steps, push_to_hub / hub_model_id, save_steps, resume_from_checkpoint, ...); TrlParser reads
all of them from `--config <yaml>` and CLI flags (flags win)."""

from __future__ import annotations

from dataclasses import dataclass, field

from atf.agent.loop import AgentConfig
from atf.llm.templates import CHAT_TEMPLATE_HELP

EVAL_FRACTION_HELP = "share of problems held out as the eval set when no eval files are given (0: none)"


@dataclass
class SFTScriptArguments:
    """recipes/sft.py

    train_files: trajectory JSONL files (from data_gen/synthesize.py or `atf formalize -o`).
    max_kept_revisions: keep successes with fewer revisions than this (None: every success).
    retokenize: rebuild token views from the messages with this model's tokenizer (use when the
        trajectories were sampled by a model with another tokenizer).
    merge_lora: with --use_peft, save the merged model (and the adapter in `adapter/`).
    eval_files: trajectory files evaluated during training (eval_strategy / eval_steps say when).
    eval_fraction: or this share of the training problems, held out (all trajectories of a problem on one side).
    chat_template: see atf.llm.templates (default: the model's own when it supports tools, else ATF's).
    """

    train_files: list[str] = field(default_factory=list, metadata={"help": "trajectory JSONL files"})
    eval_files: list[str] = field(default_factory=list, metadata={"help": "trajectory JSONL files to evaluate on"})
    eval_fraction: float = field(default=0.0, metadata={"help": EVAL_FRACTION_HELP})
    chat_template: str | None = field(default=None, metadata={"help": CHAT_TEMPLATE_HELP})
    max_kept_revisions: int | None = field(
        default=None, metadata={"help": "keep successes with fewer revisions than this"}
    )
    retokenize: bool = field(default=False, metadata={"help": "rebuild token views from messages with this tokenizer"})
    merge_lora: bool = field(default=True, metadata={"help": "save the LoRA-merged model for inference"})


@dataclass
class DPOScriptArguments:
    """recipes/dpo.py

    pair_files: preference pairs JSONL (data_gen/build_dpo_pairs.py).
    trajectory_files: or trajectories, paired here (same problem: success beats failure, fewer revisions beat more).
    max_pairs_per_problem: pairs built per problem from trajectory_files.
    merge_lora: with --use_peft, save the merged model (and the adapter in `adapter/`).
    eval_pair_files: pairs evaluated during training (eval_strategy / eval_steps say when).
    eval_fraction: or this share of the pairs' problems, held out.
    chat_template: see atf.llm.templates.
    """

    pair_files: list[str] = field(default_factory=list, metadata={"help": "preference pairs JSONL files"})
    eval_pair_files: list[str] = field(
        default_factory=list, metadata={"help": "preference pairs JSONL files to evaluate on"}
    )
    eval_fraction: float = field(default=0.0, metadata={"help": EVAL_FRACTION_HELP})
    chat_template: str | None = field(default=None, metadata={"help": CHAT_TEMPLATE_HELP})
    trajectory_files: list[str] = field(default_factory=list, metadata={"help": "trajectory files to build pairs from"})
    max_pairs_per_problem: int = field(default=4, metadata={"help": "pairs per problem built from trajectory_files"})
    merge_lora: bool = field(default=True, metadata={"help": "save the LoRA-merged model for inference"})


@dataclass
class ExpertIterationArguments:
    """recipes/expert_iteration.py: sample with the current model through the agent loop, keep successes
    with fewer than `max_kept_revisions` revisions, merge with earlier data (deduplicated), fine-tune.

    problems: where training problems come from: `benchmark:split` (valid splits only) or JSONL files.
    limit: first N problems of each source.
    seed_files: earlier trajectories (the cold-start set) merged into every round's training data.
    rounds: expert-iteration rounds; round r trains the model of round r-1.
    samples_per_problem: rollouts per problem per round.
    max_kept_revisions: keep a success only with fewer revisions than this.
    sampler: how the current checkpoint is loaded for sampling: "hf" (transformers) or "vllm".
    consistency: "reference" compares with the problems' gold statements; "judge" asks judge engines.
    judges: judge engine specs for consistency="judge" (default: the model being trained).
    max_revisions / max_turns / max_new_tokens / temperature / repetition_penalty / frequency_penalty: the agent
        loop during sampling.
    eval_fraction: share of each round's training problems' trajectories held out for eval during training.
    chat_template: see atf.llm.templates; sampling and training use the same.
    vllm_*: sampler=vllm runs one vLLM engine per process next to training, as TRL's GRPO `vllm_mode="colocate"`
        does (atf.train.colocate): its share of GPU memory, tensor-parallel size (must divide the process count;
        ranks of a group sample the same problems), sleep mode (weights and KV cache released while training),
        and the longest sequence it serves.
    """

    problems: list[str] = field(
        default_factory=lambda: ["minif2f:valid", "proofnet:valid"], metadata={"help": "benchmark:split or JSONL files"}
    )
    limit: int | None = field(default=None, metadata={"help": "first N problems of each source"})
    seed_files: list[str] = field(
        default_factory=list, metadata={"help": "earlier trajectory files merged into the data"}
    )
    rounds: int = field(default=1, metadata={"help": "expert-iteration rounds"})
    samples_per_problem: int = field(default=4, metadata={"help": "rollouts per problem per round"})
    max_kept_revisions: int = field(
        default=AgentConfig.max_revisions, metadata={"help": "keep successes with fewer revisions than this"}
    )
    sampler: str = field(
        default="hf", metadata={"help": "load the checkpoint for sampling with hf or vllm", "choices": ["hf", "vllm"]}
    )
    consistency: str = field(
        default="reference",
        metadata={"help": "reference (gold statements) or judge", "choices": ["reference", "judge"]},
    )
    judges: list[str] = field(default_factory=list, metadata={"help": "judge engine specs for consistency=judge"})
    # The agent loop's settings: defaults are AgentConfig's, so sampling here matches `atf formalize`.
    max_revisions: int = field(
        default=AgentConfig.max_revisions, metadata={"help": "agent loop: most statements per rollout"}
    )
    max_turns: int = field(default=AgentConfig.max_turns, metadata={"help": "agent loop: most assistant turns"})
    max_new_tokens: int = field(
        default=AgentConfig.max_new_tokens, metadata={"help": "agent loop: most tokens per turn"}
    )
    temperature: float = field(default=AgentConfig.temperature, metadata={"help": "agent loop: sampling temperature"})
    repetition_penalty: float = field(
        default=AgentConfig.repetition_penalty,
        metadata={
            "help": "agent loop: repetition penalty (1 = off; counts the prompt too, as transformers and vLLM do)"
        },
    )
    frequency_penalty: float = field(
        default=AgentConfig.frequency_penalty,
        metadata={"help": "agent loop: frequency penalty on this completion's own tokens (0 = off; -2..2)"},
    )
    merge_lora: bool = field(default=True, metadata={"help": "save the LoRA-merged model each round"})
    eval_fraction: float = field(default=0.0, metadata={"help": EVAL_FRACTION_HELP})
    chat_template: str | None = field(default=None, metadata={"help": CHAT_TEMPLATE_HELP})
    vllm_gpu_memory_utilization: float = field(
        default=0.3, metadata={"help": "sampler=vllm: GPU memory share per process"}
    )
    vllm_tensor_parallel_size: int = field(default=1, metadata={"help": "sampler=vllm: GPUs per vLLM engine"})
    vllm_enable_sleep_mode: bool = field(
        default=True, metadata={"help": "sampler=vllm: free vLLM's GPU memory while training"}
    )
    vllm_max_model_length: int | None = field(
        default=None, metadata={"help": "sampler=vllm: longest sequence (default: the model's)"}
    )
