"""pass@k of the syntax check (SC) and the consistency check (CC) over a benchmark split.

    nice python eval/passk.py --benchmark minif2f --split valid --limit 20 -n 4 -k 1 4 -o runs/passk_minif2f_valid.jsonl

Samples n tool-loop rollouts per problem with `--engine` (default: the shipped SmolLM2-135M) and the
real tools (syntax check; consistency check by `--judge`, default the same engine), appending them to
--output so an interrupted run resumes; then prints SC/CC pass@k for each k, with the split named.
Report test-split numbers only for a model and settings chosen without looking at them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from atf.agent.cli import LOOP_FLAGS
from atf.agent.loop import AgentConfig, ToolLoop
from atf.agent.metrics import passk_table
from atf.agent.tools import default_tools
from atf.agent.trajectory import resume_jsonl
from atf.data.benchmarks import load_benchmark
from atf.jsonl import JsonlWriter
from atf.llm import DEFAULT_ENGINE


def main(argv: list[str] | None = None) -> int:
    from atf.cliargs import add_engine, add_fields, add_judges, add_output

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--benchmark", default="minif2f", help="benchmark name or problems JSONL (default %(default)s)")
    p.add_argument("--split", default="valid", help="benchmark split (default %(default)s)")
    p.add_argument("--limit", type=int, default=None, help="first N problems")
    p.add_argument("-n", type=int, default=4, help="rollouts per problem (default %(default)s)")
    p.add_argument("-k", type=int, nargs="+", default=[1, 4], help="k values, each <= n (default %(default)s)")
    add_engine(p, "--engine", "formalizer engine (its batch size: smollm2::batch_size=16)", default=DEFAULT_ENGINE)
    add_judges(p, "a judge, repeatable (see `atf consistency-check --help`); default: the formalizer engine")
    add_fields(p.add_argument_group("tool loop (atf.agent.AgentConfig)"), AgentConfig, LOOP_FLAGS)
    p.set_defaults(seed=0)  # an evaluation repeats by default
    add_output(p, "trajectories JSONL, required (appended; an interrupted run resumes)", old=("--out",), type=Path)
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    args = p.parse_args(argv)
    if args.output is None:
        p.error("the following arguments are required: -o/--output")
    if max(args.k) > args.n:
        raise SystemExit(f"every k must be <= n={args.n}")

    problems = load_benchmark(args.benchmark, args.split)[: args.limit]
    done = {(t.meta["id"], t.meta["sample"]): t for t in resume_jsonl(args.output)}
    todo = [(q, j) for q in problems for j in range(args.n) if (q.id, j) not in done]
    start = time.time()
    if todo:
        from atf.judge import load_judge
        from atf.judge.judge import parse_judge_spec
        from atf.llm import load_engine

        engine = load_engine(args.engine)
        shared = {parse_judge_spec(args.engine)[0]: engine}  # judges on the formalizer's model share its weights
        judges = [load_judge(s, engines=shared) for s in (args.judges or [args.engine])]
        config = AgentConfig(**{name: getattr(args, name) for name in LOOP_FLAGS})
        loop = ToolLoop(engine, default_tools(judges), config)
        metas = [{"id": q.id, "benchmark": q.benchmark, "split": q.split, "sample": j} for q, j in todo]
        with JsonlWriter(args.output) as sink:

            def save(t):
                done[(t.meta["id"], t.meta["sample"])] = t
                sink.write(t.to_dict())

            loop.run([q.informal for q, _ in todo], metas, on_done=save, progress=True)
    trajs = [done[(q.id, j)] for q in problems for j in range(args.n)]
    table = passk_table(trajs, args.k)
    stops: dict[str, int] = {}
    for t in trajs:
        stops[t.stop_reason] = stops.get(t.stop_reason, 0) + 1
    if args.json:
        print(
            json.dumps(
                {
                    "benchmark": args.benchmark,
                    "split": args.split,
                    "problems": len(problems),
                    "n": args.n,
                    **table,
                    "stop_reasons": stops,
                }
            )
        )
        return 0
    print(
        f"{args.benchmark} {args.split}: {len(problems)} problems x {args.n} rollouts, engine {args.engine}, "
        f"judge {' '.join(args.judges or [args.engine])}, {time.time() - start:.0f} s sampling this run"
    )
    for name in ("SC", "CC"):
        print(f"  {name}  " + "  ".join(f"pass@{k} {100 * v:5.1f}%" for k, v in table[name].items()))
    print(f"  mean revisions {sum(t.revisions for t in trajs) / len(trajs):.2f}; stop reasons {stops}")
    if any("Lean was not run" in c.result for t in trajs for c in t.calls if c.name == "syntax_check"):
        print("  note: no Lean REPL here, so SC counts statements that passed the pre-checks only")
    return 0


if __name__ == "__main__":
    sys.exit(main())
