"""pass@k of the syntax check (SC) and the consistency check (CC) over a benchmark split.

    nice python eval/passk.py --benchmark minif2f --split valid --limit 20 -n 4 -k 1 4 --out runs/passk_minif2f_valid.jsonl

Samples n tool-loop rollouts per problem with `--engine` (default: the shipped SmolLM2-135M) and the
real tools (syntax check; consistency check by `--judge`, default the same engine), appending them to
--out so an interrupted run resumes; then prints SC/CC pass@k for each k, with the split named.
Report test-split numbers only for a model and settings chosen without looking at them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from atf.agent.loop import AgentConfig, ToolLoop
from atf.agent.metrics import passk_table
from atf.agent.tools import default_tools
from atf.agent.trajectory import read_jsonl, write_jsonl
from atf.data.benchmarks import load_benchmark


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--benchmark", default="minif2f")
    p.add_argument("--split", default="valid")
    p.add_argument("--limit", type=int, default=None, help="first N problems")
    p.add_argument("-n", type=int, default=4, help="rollouts per problem")
    p.add_argument("-k", type=int, nargs="+", default=[1, 4], help="k values (each <= n)")
    p.add_argument("--engine", default="smollm2")
    p.add_argument("--judge", nargs="+", default=None, help="judge engine specs (default: the formalizer engine)")
    p.add_argument("--max-revisions", type=int, default=8)
    p.add_argument("--max-turns", type=int, default=16)
    p.add_argument("--max-new-tokens", type=int, default=512)
    p.add_argument("--temperature", type=float, default=0.7)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--batch-size", type=int, default=None, help="prompts per forward batch for transformers engines")
    p.add_argument("--out", type=Path, required=True, help="trajectories JSONL (appended; resumes)")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    args = p.parse_args(argv)
    if max(args.k) > args.n:
        raise SystemExit(f"every k must be <= n={args.n}")

    problems = load_benchmark(args.benchmark, args.split)[: args.limit]
    done = {(t.meta["id"], t.meta["sample"]): t for t in read_jsonl(args.out)} if args.out.exists() else {}
    todo = [(q, j) for q in problems for j in range(args.n) if (q.id, j) not in done]
    start = time.time()
    if todo:
        from atf.llm import load_engine

        engine = load_engine(args.engine, **({"batch_size": args.batch_size} if args.batch_size else {}))
        from atf.judge import load_judge

        judges = [load_judge(s, engines={args.engine: engine}) for s in (args.judge or [args.engine])]
        config = AgentConfig(max_revisions=args.max_revisions, max_turns=args.max_turns, max_new_tokens=args.max_new_tokens,
                             temperature=args.temperature, seed=args.seed)
        loop = ToolLoop(engine, default_tools(judges), config)
        metas = [{"id": q.id, "benchmark": q.benchmark, "split": q.split, "sample": j} for q, j in todo]

        def save(t):
            done[(t.meta["id"], t.meta["sample"])] = t
            write_jsonl(args.out, [t], append=True)

        loop.run([q.informal for q, _ in todo], metas, on_done=save, progress=True)
    trajs = [done[(q.id, j)] for q in problems for j in range(args.n)]
    table = passk_table(trajs, args.k)
    stops: dict[str, int] = {}
    for t in trajs:
        stops[t.stop_reason] = stops.get(t.stop_reason, 0) + 1
    if args.json:
        print(json.dumps({"benchmark": args.benchmark, "split": args.split, "problems": len(problems), "n": args.n, **table, "stop_reasons": stops}))
        return 0
    print(f"{args.benchmark} {args.split}: {len(problems)} problems x {args.n} rollouts, engine {args.engine}, "
          f"judge {' '.join(args.judge or [args.engine])}, {time.time() - start:.0f} s sampling this run")
    for name in ("SC", "CC"):
        print(f"  {name}  " + "  ".join(f"pass@{k} {100 * v:5.1f}%" for k, v in table[name].items()))
    print(f"  mean revisions {sum(t.revisions for t in trajs) / len(trajs):.2f}; stop reasons {stops}")
    if any("Lean was not run" in c.result for t in trajs for c in t.calls if c.name == "syntax_check"):
        print("  note: no Lean REPL here, so SC counts statements that passed the pre-checks only")
    return 0


if __name__ == "__main__":
    sys.exit(main())
