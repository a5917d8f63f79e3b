"""Expert iteration: sample with the current model through the agent loop, keep what worked, fine-tune.

Each round r (folder `<output_dir>/round_<r>/`):
  1. sample `samples_per_problem` rollouts per training problem with the round's starting model, with the
     real syntax check and the chosen consistency check; rollouts are appended to `samples.rank<k>.jsonl`
     as they finish (a rerun skips what is there);
  2. keep successes with fewer than `max_kept_revisions` revisions that follow the loop's rules;
  3. merge them with the earlier data (seed files and earlier rounds), deduplicated, into `train.jsonl`;
  4. SFT the round's starting model on that and save it to the round folder (marked `.complete`).
Under `accelerate launch` every process samples its share of the problems, then all train together. With
`sampler: vllm` each process keeps one colocated vLLM engine for all rounds, asleep while training
(atf.train.colocate, as TRL's GRPO colocate mode).
"""

from __future__ import annotations

import copy
import gc
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from atf.agent.loop import AgentConfig, ToolLoop
from atf.agent.tools import ConsistencyCheckTool, SyntaxCheckTool, Tool
from atf.agent.trajectory import Trajectory, read_jsonl, write_jsonl
from atf.agent.validate import rule_violations
from atf.data.benchmarks import BenchmarkProblem, load_benchmark, load_problems
from atf.train.colocate import is_group_leader, shard
from atf.train.data import keep_for_sft, load_trajectories, merge_dedupe, split_by_problem
from atf.train.reference import ReferenceConsistencyTool
from atf.train.sft import train_sft
from atf.train.synth import refuse_test_split

# The agent-loop settings an ExpertIterationArguments carries (same names as AgentConfig's fields).
LOOP_FIELDS = ("max_revisions", "max_turns", "max_new_tokens", "temperature", "repetition_penalty", "frequency_penalty")

log = logging.getLogger(__name__)


def training_problems(sources: Sequence[str], limit: int | None = None) -> list[BenchmarkProblem]:
    """`benchmark:split` names or JSONL files; test splits are refused."""
    out: list[BenchmarkProblem] = []
    for source in sources:
        name, _, split = source.partition(":")
        problems = (
            load_benchmark(name, split or None)
            if not Path(source).is_file() and ":" in source
            else load_problems(source)
        )
        out.extend(problems[:limit])
    refuse_test_split(out)
    return out


def make_tools(args: Any, problems: Sequence[BenchmarkProblem], engine: Any) -> list[Tool]:
    if args.consistency == "reference":
        missing = [p.id for p in problems if not p.formal]
        if missing:
            raise ValueError(
                f"consistency=reference needs gold statements; {len(missing)} problems have none (e.g. {missing[0]})"
            )
        consistency: Tool = ReferenceConsistencyTool({p.informal: p.formal for p in problems})
    else:
        from atf.judge import load_judge

        judges = [load_judge(spec) for spec in args.judges] or [engine]
        consistency = ConsistencyCheckTool.from_engines(judges)
    return [SyntaxCheckTool(), consistency]


def sample_round(
    engine: Any,
    problems: Sequence[BenchmarkProblem],
    args: Any,
    out_path: Path,
    round_index: int,
    tools: Sequence[Tool] | None = None,
) -> list[Trajectory]:
    """All rollouts of this process's problems for one round, resuming from `out_path`."""
    done = {(t.meta.get("id"), t.meta.get("sample")): t for t in read_jsonl(out_path)} if out_path.exists() else {}
    todo = [(p, j) for p in problems for j in range(args.samples_per_problem) if (p.id, j) not in done]
    if todo:
        config = AgentConfig(**{name: getattr(args, name) for name in LOOP_FIELDS})
        loop = ToolLoop(engine, tools or make_tools(args, problems, engine), config)
        metas = [
            {
                "id": p.id,
                "benchmark": p.benchmark,
                "split": p.split,
                "sample": j,
                "round": round_index,
                "reference": p.formal,
            }
            for p, j in todo
        ]
        loop.run(
            [p.informal for p, _ in todo],
            metas,
            on_done=lambda t: write_jsonl(out_path, [t], append=True),
            progress=True,
        )
    return list(read_jsonl(out_path))


def select(
    samples: Sequence[Trajectory], max_kept_revisions: int, max_revisions: int | None = None
) -> list[Trajectory]:
    """Successes with fewer than `max_kept_revisions` revisions that follow the loop's rules."""
    return [t for t in samples if keep_for_sft(t, max_kept_revisions) and not rule_violations(t, max_revisions)]


def run_expert_iteration(
    script_args: Any,
    training_args: Any,
    model_args: Any,
    model_path: str,
    engine_factory: Callable[[str], Any] | None = None,
) -> str:
    """All rounds; returns the last round's model folder. engine_factory(model_path) builds the sampler
    (default: `load_engine("hf:<path>")`, or the colocated vLLM engine for sampler=vllm)."""
    from accelerate import PartialState

    state = PartialState()
    root = Path(training_args.output_dir)
    problems = training_problems(script_args.problems, script_args.limit)
    tp = script_args.vllm_tensor_parallel_size if script_args.sampler == "vllm" and engine_factory is None else 1
    mine = shard(problems, state.process_index, state.num_processes, tp)
    samples_file = (
        f"samples.rank{state.process_index}.jsonl"
        if is_group_leader(state.process_index, tp)
        else f"tp_copy.rank{state.process_index}.jsonl"
    )
    data = (
        merge_dedupe([t for t in load_trajectories(script_args.seed_files) if t.success])
        if script_args.seed_files
        else []
    )
    sampler = Sampler(script_args, state, engine_factory)
    current = model_path
    for r in range(script_args.rounds):
        rdir = root / f"round_{r}"
        rdir.mkdir(parents=True, exist_ok=True)
        if (rdir / ".complete").exists():
            log.info("round %d already complete", r)
            data = merge_dedupe(data, read_jsonl(rdir / "kept.jsonl"))
            current = str(rdir)
            continue
        sample_round(sampler.engine_for(current), mine, script_args, rdir / samples_file, r)
        sampler.release()
        state.wait_for_everyone()
        samples = [t for f in sorted(rdir.glob("samples.rank*.jsonl")) for t in read_jsonl(f)]
        kept = select(samples, script_args.max_kept_revisions, script_args.max_revisions)
        data = merge_dedupe(data, kept)
        train_data, eval_data = split_by_problem(data, lambda t: t.problem, script_args.eval_fraction)
        if state.is_main_process:
            write_jsonl(rdir / "kept.jsonl", kept)
            write_jsonl(rdir / "train.jsonl", data)
        print(
            f"round {r}: {len(samples)} rollouts, {sum(t.success for t in samples)} successes, {len(kept)} kept, "
            f"{len(data)} to train on"
        )
        if not data:
            raise ValueError(
                "no successful trajectories to train on: give --seed_files with cold-start data "
                "(data_gen/synthesize.py)"
            )
        round_args = copy.copy(training_args)
        round_args.output_dir = str(rdir)
        train_sft(
            current,
            train_data,
            round_args,
            model_args,
            merge_lora=script_args.merge_lora,
            eval_trajectories=eval_data,
            chat_template=script_args.chat_template,
        )
        if state.is_main_process:
            (rdir / ".complete").write_text("ok\n")
        state.wait_for_everyone()
        current = str(rdir)
    return current


class Sampler:
    """The engine each round samples with: built per round from the round's checkpoint (hf, or a given
    engine_factory) and dropped before training, or one colocated vLLM engine put to sleep (sampler=vllm)."""

    def __init__(self, args: Any, state: Any, engine_factory: Callable[[str], Any] | None = None):
        self.args, self.state = args, state
        self.factory = engine_factory
        self.colocated: Any = None
        self.engine: Any = None

    def engine_for(self, model_path: str) -> Any:
        if self.factory is None and self.args.sampler == "vllm":
            if self.colocated is None:
                from atf.train.colocate import ColocatedSampler

                self.colocated = ColocatedSampler(model_path, self.args, self.state, self.args.chat_template)
            return self.colocated.engine_for(model_path)
        if self.factory is not None:
            self.engine = self.factory(model_path)
        else:
            from atf.llm import load_engine

            self.engine = load_engine(f"hf:{model_path}", chat_template=self.args.chat_template)
        return self.engine

    def release(self) -> None:
        """Give the accelerator's memory back to training."""
        if self.colocated is not None:
            self.colocated.sleep()
        self.engine = None
        _free_accelerator_memory()


def _free_accelerator_memory() -> None:
    gc.collect()
    try:
        import torch

        if torch.cuda.is_available():
            torch.cuda.empty_cache()
    except ImportError:  # pragma: no cover
        pass
