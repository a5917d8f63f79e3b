"""Does the chain learn? Fine-tune the shipped SmolLM2-135M on cold-start trajectories of VALID splits for a fixed
budget, then compare before and after on held-out miniF2F TEST problems.

    nice python eval/learning_check.py --threads 1 --max-steps 170 --eval-limit 24 -o runs/learning_check
    nice python eval/learning_check.py --max-steps 200 --eval-limit 40 -o runs/learning_check

Training data: data_gen's programmatic cold start (atf/train/synth.py) on miniF2F and ProofNet valid
(decontaminated against every benchmark test split), the real syntax check, reference consistency; SFT with
the recipe's code (atf/train/sft.py `train_sft`, TRL's SFTTrainer, loss only on the turns under loss),
ATF's ChatML template (SmolLM2's own has no tool support). Training stops at --max-steps or when
--budget-s of wall time are spent, whichever comes first: the budget is in steps (170, about 25 minutes on a
quiet 2-core machine) so that the result does not depend on the machine's load; the time is only a cap.
On a 2-core CPU a step is the cost: only the top --train-top-layers blocks are trained (the backward pass
stops there) and sequences are cut at --max-length (the prompt and the first turn fit), so 25 minutes buy
~170 one-trajectory steps instead of ~30.

Measured on --eval-limit miniF2F test problems (never trained or tuned on), same sampling before and after
(the temperature and the repetition guards were compared on a miniF2F VALID probe, see --help):
  * tool-call block: share of rollouts that wrote a `<tool_call>` block at all (well-formed or not);
  * well-formed tool call: share of rollouts with at least one syntax_check call that parsed and was run;
  * pre-check pass: share whose final statement passed the syntax check (the pre-check, without Lean);
  * mean revisions: statements submitted to syntax_check per rollout.
Target: well-formed tool calls from 0% to at least 50%. This is a benchmark, not a test; the machine's load
average is printed beside the times.

The trained model loops (a line or a name repeated until the token limit, so the call is never closed). The guard
against it was chosen on 12 miniF2F VALID problems held out of an 89-step run (`--eval-split valid --eval-limit 12
--max-steps 100 --budget-s 900`, then `--trained` with each setting; load 1.2-2.2): well-formed calls at
repetition penalty 1.0 / 1.1 / 1.2: 4 / 2 / 0 of 12 (it counts the prompt: the model is pushed off the tool-call
format it must copy, into gibberish); at frequency penalty 0.1 / 0.3 (this turn's tokens only): 7 / 11 of 12, and
rollouts ending at the token limit 3 -> 1 -> 0.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from atf.agent.loop import AgentConfig, ToolLoop
from atf.agent.tools import SYNTAX_CHECK, SyntaxCheckTool
from atf.agent.trajectory import Trajectory, write_jsonl
from atf.cliargs import add_output, add_seconds, alias
from atf.data.benchmarks import BenchmarkProblem, load_benchmark
from atf.train.reference import ReferenceConsistencyTool

TRAIN_SOURCES = ("minif2f", "proofnet")
# The repetition guards, chosen on the valid probe (module doc): counting the prompt, a repetition penalty hurt.
REPETITION_PENALTY = 1.0
FREQUENCY_PENALTY = 0.3


@dataclass
class Measure:
    rollouts: int
    tool_call_block: float
    well_formed_call: float
    precheck_pass: float
    mean_revisions: float
    stop_reasons: dict[str, int]
    seconds: float


def measure(trajs: Sequence[Trajectory], seconds: float) -> Measure:
    n = len(trajs) or 1
    well_formed = sum(any(c.name == SYNTAX_CHECK and c.passed is not None for c in t.calls) for t in trajs)
    stops: dict[str, int] = {}
    for t in trajs:
        stops[t.stop_reason] = stops.get(t.stop_reason, 0) + 1
    blocks = sum(any("<tool_call>" in m["content"] for m in t.messages if m["role"] == "assistant") for t in trajs)
    return Measure(
        len(trajs),
        blocks / n,
        well_formed / n,
        sum(t.syntax_ok for t in trajs) / n,
        sum(t.revisions for t in trajs) / n,
        stops,
        seconds,
    )


def length_share(m: Measure) -> float:
    """Share of rollouts whose last turn ran out of tokens: where a repetition loop ends."""
    return m.stop_reasons.get("length", 0) / (m.rollouts or 1)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def eval_problems(limit: int, split: str = "test") -> list[BenchmarkProblem]:
    """Every k-th miniF2F problem of `split`, so the sample spans the set's subjects (it is ordered by source)."""
    problems = load_benchmark("minif2f", split)
    step = max(1, len(problems) // limit)
    return problems[::step][:limit]


def rollouts(
    engine: Any, problems: Sequence[BenchmarkProblem], config: AgentConfig, out: Path
) -> tuple[Measure, list[Trajectory]]:
    tools = [SyntaxCheckTool(), ReferenceConsistencyTool({p.informal: p.formal for p in problems})]
    metas = [{"id": p.id, "benchmark": p.benchmark, "split": p.split} for p in problems]
    start = time.time()
    trajs = ToolLoop(engine, tools, config).run([p.informal for p in problems], metas, progress=True)
    write_jsonl(out, trajs)
    return measure(trajs, time.time() - start), trajs


def cold_start(
    tokenizer: Any, limit: int | None, plans: Sequence[str], seed: int, held_out: Sequence[BenchmarkProblem] = ()
) -> tuple[list[Trajectory], str]:
    from atf.data.decontaminate import decontaminate, summary
    from atf.train.synth import synthesize
    from atf.train.synth_report import report

    skip = {(p.benchmark, p.id) for p in held_out}
    problems = [
        p for name in TRAIN_SOURCES for p in load_benchmark(name, "valid")[:limit] if (p.benchmark, p.id) not in skip
    ]
    kept, dropped = decontaminate(problems)
    tools = [SyntaxCheckTool(), ReferenceConsistencyTool({p.informal: p.formal for p in kept})]
    trajs, stats = synthesize(kept, tokenizer, tools, plans, AgentConfig(mode="tokens"), seed)
    return [t for t in trajs if t.success], summary(len(problems), dropped) + "\n" + report(trajs, [stats])


def budget_callback(seconds: float) -> Any:
    """A TrainerCallback that stops training once `seconds` of wall time have passed."""
    from transformers import TrainerCallback

    class Budget(TrainerCallback):
        start = time.time()

        def on_step_end(self, args, state, control, **kwargs):
            if time.time() - self.start >= seconds:
                control.should_training_stop = True
            return control

    return Budget()


def freeze_callback(top_layers: int) -> Any:
    """A TrainerCallback that, before the first step, freezes the embeddings (tied to the output head in SmolLM2)
    and every transformer block but the top `top_layers`: the backward pass then stops at the lowest trained block,
    which halves the cost of a step on CPU, so the budget buys twice the steps."""
    import torch
    from transformers import TrainerCallback

    class FreezeLower(TrainerCallback):
        def on_train_begin(self, args, state, control, model=None, **kwargs):
            n = model.config.num_hidden_layers
            blocks = next(m for m in model.modules() if isinstance(m, torch.nn.ModuleList) and len(m) == n)
            model.get_input_embeddings().weight.requires_grad_(False)
            for block in blocks[: max(0, n - top_layers)]:
                block.requires_grad_(False)
            return control

    return FreezeLower()


def train(trajs: list[Trajectory], model_path: str, out: Path, args: argparse.Namespace) -> dict[str, Any]:
    from trl import ModelConfig, SFTConfig

    from atf.train.sft import train_sft

    prompt = min(len(t.prompt_ids or []) for t in trajs)
    if args.max_length <= prompt:
        raise SystemExit(
            f"--max-length {args.max_length} leaves no trained token: every prompt has at least {prompt} tokens"
        )
    training_args = SFTConfig(
        output_dir=str(out),
        max_steps=args.max_steps,
        per_device_train_batch_size=1,
        gradient_accumulation_steps=args.grad_accum,
        learning_rate=args.learning_rate,
        lr_scheduler_type="constant_with_warmup",
        warmup_steps=5,
        max_length=args.max_length,
        use_cpu=True,
        bf16=False,
        logging_steps=5,
        save_strategy="no",
        report_to="none",
        dataloader_num_workers=0,
        seed=args.seed,
        gradient_checkpointing=False,
    )
    model_args = ModelConfig(model_name_or_path=model_path, dtype="float32")
    start = time.time()
    callbacks = [budget_callback(args.budget_s)]
    if args.train_top_layers:
        callbacks.append(freeze_callback(args.train_top_layers))
    trainer = train_sft(model_path, trajs, training_args, model_args, callbacks=callbacks)
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    return {
        "steps": trainer.state.global_step,
        "samples": trainer.state.global_step * args.grad_accum,
        "seconds": time.time() - start,
        "first_loss": losses[0] if losses else None,
        "last_loss": losses[-1] if losses else None,
    }


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_output(
        p,
        "folder for the model, rollouts and results (default %(default)s)",
        old=("--out",),
        type=Path,
        default=Path("runs/learning_check"),
    )
    add_seconds(p, "--budget-s", 40 * 60.0, "wall-time cap of the training (the budget is --max-steps)")
    alias(p, "--budget-minutes", "--budget-s", "budget_s", type=float, scale=60.0)
    p.add_argument(
        "--max-steps", type=int, default=170, help="optimizer-step budget of the training (default %(default)s)"
    )
    p.add_argument("--train-limit", type=int, default=None, help="first N valid problems of each training benchmark")
    p.add_argument("--eval-limit", type=int, default=12, help="miniF2F test problems measured before and after")
    p.add_argument(
        "--eval-split",
        choices=["test", "valid"],
        default="test",
        help="valid: a probe for choosing sampling settings without touching test; the --eval-limit miniF2F valid "
        "problems measured are then held out of training (default %(default)s)",
    )
    p.add_argument(
        "--plans",
        nargs="+",
        default=["direct", "fix_syntax"],
        help="programmatic plans of the training data (atf/train/synth.py PLANS); the longer ones cost more per step",
    )
    p.add_argument(
        "--train-top-layers",
        type=int,
        default=10,
        help="train only the top N transformer blocks (embeddings and lower blocks frozen: a step costs about half); "
        "0 trains everything (default %(default)s)",
    )
    p.add_argument("--learning-rate", type=float, default=5e-4, help="peak learning rate (default %(default)s)")
    p.add_argument("--grad-accum", type=int, default=1, help="trajectories per optimizer step (default %(default)s)")
    p.add_argument(
        "--max-length",
        type=int,
        default=1024,
        help="longest training sequence, longer ones are truncated (default %(default)s: the ~600-token prompt and the "
        "first turn fit; a step's cost grows with it)",
    )
    p.add_argument(
        "--max-new-tokens",
        type=int,
        default=384,
        help="tokens per turn when measuring (default %(default)s; a direct attempt in the training data has ~240)",
    )
    p.add_argument(
        "--max-turns",
        type=int,
        default=2,
        help="assistant turns per rollout when measuring (each turn re-reads the whole prompt: minutes on CPU)",
    )
    p.add_argument(
        "--temperature",
        type=float,
        default=AgentConfig.temperature,
        help="sampling temperature when measuring (default %(default)s, the agent's). On 8 miniF2F VALID problems, "
        "0.7 / 0.3 / 0 gave 2 / 3 / 5 well-formed calls after a 32-step run but 3 / 2 / 2 after the 124-step one: "
        "greedy decoding of the trained model loops",
    )
    p.add_argument(
        "--repetition-penalty",
        type=float,
        default=REPETITION_PENALTY,
        help="repetition penalty when measuring, before and after (default %(default)s; 1 is off, see "
        "atf.llm.SamplingParams). Chosen on a miniF2F VALID probe, see the module doc",
    )
    p.add_argument(
        "--frequency-penalty",
        type=float,
        default=FREQUENCY_PENALTY,
        help="frequency penalty when measuring, before and after (default %(default)s; 0 is off, see "
        "atf.llm.SamplingParams). Chosen on a miniF2F VALID probe, see the module doc",
    )
    p.add_argument(
        "--model", default="smollm2", help="model to fine-tune: smollm2 (the shipped one) or a checkpoint folder"
    )
    p.add_argument(
        "--trained", type=Path, default=None, help="measure this checkpoint of an earlier run instead of training"
    )
    p.add_argument("--skip-before", action="store_true", help="reuse before.json from --output (same eval settings)")
    p.add_argument(
        "--threads",
        type=int,
        default=1,
        help="torch CPU threads (default %(default)s: faster than more on a machine others load; 0 = torch's choice)",
    )
    p.add_argument("--seed", type=int, default=0, help="seed of training and sampling (default %(default)s)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from atf.llm import load_engine
    from atf.train.model import resolve_model_path, training_tokenizer

    args.output.mkdir(parents=True, exist_ok=True)
    if args.threads:  # before anything builds a model: training and sampling both use it
        import torch

        torch.set_num_threads(args.threads)
    print(f"command: python eval/learning_check.py {' '.join(argv if argv is not None else sys.argv[1:])}", flush=True)
    print(f"load average at start: {load()} on {os.cpu_count()} CPUs", flush=True)
    model_path = resolve_model_path(args.model)
    tokenizer = training_tokenizer(model_path)
    problems = eval_problems(args.eval_limit, args.eval_split)
    config = AgentConfig(
        max_new_tokens=args.max_new_tokens,
        max_turns=args.max_turns,
        temperature=args.temperature,
        repetition_penalty=args.repetition_penalty,
        frequency_penalty=args.frequency_penalty,
        seed=args.seed,
        mode="tokens",
    )

    held_out = problems if args.eval_split == "valid" else ()
    trajs, synth_summary = cold_start(tokenizer, args.train_limit, args.plans, args.seed, held_out)
    print(synth_summary, flush=True)
    write_jsonl(args.output / "cold_start.jsonl", trajs)

    before_path = args.output / "before.json"
    if args.skip_before and before_path.exists():
        before = Measure(**json.loads(before_path.read_text()))
    else:
        before, _ = rollouts(
            load_engine(args.model if args.model == "smollm2" else f"hf:{model_path}", batch_size=len(problems)),
            problems,
            config,
            args.output / "before.jsonl",
        )
        before_path.write_text(json.dumps(asdict(before)))
    print(f"before: {before}  (load {load()})", flush=True)

    model_dir = args.trained or args.output / "model"
    if args.trained:
        trained = (
            json.loads((args.trained.parent / "results.json").read_text())["training"]
            if (args.trained.parent / "results.json").exists()
            else {}
        )
    else:
        trained = train(trajs, model_path, model_dir, args)
    print(f"trained: {trained}  (load {load()})", flush=True)
    after, _ = rollouts(
        load_engine(f"hf:{model_dir}", batch_size=len(problems)), problems, config, args.output / "after.jsonl"
    )
    print(f"after: {after}  (load {load()})", flush=True)

    results = {
        "args": {k: str(v) for k, v in vars(args).items()},
        "eval": f"minif2f {args.eval_split}, {len(problems)} problems",
        "train": f"{', '.join(TRAIN_SOURCES)} valid, {len(trajs)} successful trajectories",
        "before": asdict(before),
        "after": asdict(after),
        "training": trained,
        "load_end": load(),
    }
    (args.output / "results.json").write_text(json.dumps(results, indent=1))
    print(f"\n{'':24}{'before':>10}{'after':>10}")
    for key, label in (
        ("tool_call_block", "tool-call block"),
        ("well_formed_call", "well-formed tool call"),
        ("precheck_pass", "pre-check pass"),
    ):
        print(f"{label:24}{getattr(before, key):>10.0%}{getattr(after, key):>10.0%}")
    print(f"{'mean revisions':24}{before.mean_revisions:>10.2f}{after.mean_revisions:>10.2f}")
    print(f"{'ended at token limit':24}{length_share(before):>10.0%}{length_share(after):>10.0%}")
    print(f"target well-formed >= 50%: {'met' if after.well_formed_call >= 0.5 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
