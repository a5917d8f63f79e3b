"""Cold-start trajectories from (problem, gold statement) pairs of dev splits.

    python data_gen/synthesize.py --benchmarks minif2f proofnet --split valid -o data/cold_start.jsonl
    python data_gen/synthesize.py --teacher vllm:Qwen/Qwen2.5-7B-Instruct --teacher-samples 4 -o data/teacher.jsonl

Programmatic plans (a corrupted first attempt, the tool's feedback, the fix) and/or a teacher engine's
rollouts; every kept trajectory replayed through the real tool loop with the real syntax check (see
atf/train/synth.py). Test splits are refused.
"""

from __future__ import annotations

import argparse
import sys

from atf.agent.loop import AgentConfig
from atf.agent.tools import ConsistencyCheckTool, SyntaxCheckTool
from atf.agent.trajectory import write_jsonl
from atf.data.benchmarks import load_problems
from atf.llm import DEFAULT_ENGINE
from atf.train.model import resolve_model_path, training_tokenizer
from atf.train.reference import ReferenceConsistencyTool
from atf.train.synth import PLANS, synthesize, teacher_trajectories


def build_parser() -> argparse.ArgumentParser:
    from atf.cliargs import add_engine, add_judges, add_output, default_of

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--benchmarks", nargs="+", default=["minif2f", "proofnet"],
                   help="benchmarks (or problem JSONL files with 'formal') (default %(default)s)")
    p.add_argument("--split", default="valid", help="split to use (valid; test is refused)")
    p.add_argument("--limit", type=int, default=None, help="first N problems of each benchmark")
    add_output(p, "output trajectories JSONL (required)", old=("--out",))
    p.add_argument("--append", action="store_true", help="append to --output instead of overwriting it")
    p.add_argument("--tokenizer", default=DEFAULT_ENGINE,
                   help="model whose tokenizer the token views use (the model you will train; default %(default)s)")
    p.add_argument("--plans", nargs="*", default=list(PLANS),
                   help=f"programmatic plans ({', '.join(PLANS)}); none: teacher only")
    add_engine(p, "--teacher", "teacher engine; its successful rollouts are kept too")
    p.add_argument("--teacher-samples", type=int, default=1, help="teacher rollouts per problem (default %(default)s)")
    p.add_argument("--consistency", choices=["reference", "judge"], default="reference",
                   help="reference: compare with the gold statement (exact); judge: the LLM judge ensemble")
    add_judges(p, f"a judge for --consistency judge, repeatable: engine[::key=value,...] (default {DEFAULT_ENGINE})")
    p.add_argument("--max-revisions", type=int, default=default_of(AgentConfig, "max_revisions"),
                   help="revision limit of the replayed loop (default %(default)s)")
    p.add_argument("--seed", type=int, default=0, help="seed of the programmatic plans (default %(default)s)")
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.output is None:
        parser.error("the following arguments are required: -o/--output")
    problems = [p for name in args.benchmarks for p in load_problems(name, args.split)[: args.limit]]
    if not problems:
        raise SystemExit(f"no problems in {args.benchmarks} split {args.split}")
    tokenizer = training_tokenizer(resolve_model_path(args.tokenizer))
    if args.consistency == "reference":
        consistency = ReferenceConsistencyTool({p.informal: p.formal for p in problems})
    else:
        from atf.judge import load_judge

        consistency = ConsistencyCheckTool.from_engines([load_judge(s) for s in args.judges or [DEFAULT_ENGINE]])
    tools = [SyntaxCheckTool(), consistency]
    config = AgentConfig(max_revisions=args.max_revisions)
    kept, stats = synthesize(problems, tokenizer, tools, args.plans, config, args.seed) if args.plans else ([], None)
    print(f"programmatic: {stats.summary() if stats else 'skipped'}", file=sys.stderr)
    if args.teacher:
        from atf.llm import load_engine

        more, tstats = teacher_trajectories(problems, load_engine(args.teacher), tools, config, args.teacher_samples, progress=True)
        print(f"teacher: {tstats.summary()}", file=sys.stderr)
        kept += more
    n = write_jsonl(args.output, kept, append=args.append)
    print(f"wrote {n} trajectories ({sum(t.success for t in kept)} successes) from {len(problems)} problems to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
