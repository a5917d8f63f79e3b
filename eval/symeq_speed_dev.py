"""SymEq's time knobs on the DEV set: the MATH problems outside the paper's 400 (the other 361 test problems and
the 36 train problems; nothing is reported on them), k = 10 GPT-4 Isabelle candidates.

    nice python eval/symeq_speed_dev.py                          # the defaults against 300 ms / 1 s
    nice python eval/symeq_speed_dev.py --config '{"timeout_ms": 100}' --config '{"solver_budget_s": 0.1}'

For each configuration (the first is the reference): seconds per problem inside the worker (median, p90,
max), the pairs its classes merge, the problems whose classes differ from the reference's, and what the second
pass (the pairs the quick pass left open, asked again at the full timeout) cost and merged. A faster
setting is only worth having where it changes no classes. The machine is shared: the load average is
printed beside the times.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

from tqdm import tqdm

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from atf.data.isabelle import load_math_dev
from atf.symeq.config import SymEqConfig
from atf.symeq.pool import SymEqPool

REFERENCE = {"timeout_ms": 300, "solver_budget_s": 1.0}


def run(jobs: list, config: SymEqConfig, desc: str = "SymEq") -> tuple[list[float], list[list[list[int]]], list]:
    """Seconds and classes per problem, and the pairs decided again in the second pass (PairResult.second_pass).
    With one worker the problems are read in the order given, in one process."""
    secs, parts, second = [0.0] * len(jobs), [[] for _ in jobs], []
    with SymEqPool(config.workers) as pool:
        for i, res in tqdm(pool.map(jobs, config), total=len(jobs), desc=desc, unit="problem"):
            secs[i], parts[i] = res.seconds, sorted(sorted(c) for c in res.classes)
            second += [p for p in res.pairs if p.second_pass]
    return secs, parts, second


def merged_pairs(parts: list[list[list[int]]]) -> int:
    """The pairs the classes of every problem merge."""
    return sum(len(c) * (len(c) - 1) // 2 for p in parts for c in p)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--config",
        action="append",
        type=json.loads,
        metavar="JSON",
        help=f"SymEqConfig fields to compare, repeatable (default: {json.dumps(REFERENCE)} and the defaults)",
    )
    ap.add_argument("--limit", type=int, default=None, help="first N dev problems")
    ap.add_argument("--workers", type=int, default=1, help="worker processes (default %(default)s)")
    args = ap.parse_args(argv)
    configs = args.config or [REFERENCE, {}]
    problems = load_math_dev()[: args.limit]
    jobs = [(p.statements, "isabelle") for p in problems]
    print(f"{len(problems)} dev problems, k = 10; {os.cpu_count()} CPUs", flush=True)
    reference = None
    for fields in configs:
        config = SymEqConfig(**{**fields, "workers": args.workers})
        secs, parts, second = run(jobs, config)
        reference = reference or parts
        xs = sorted(secs)
        merged = merged_pairs(parts)
        changed = [problems[i].id for i, (a, b) in enumerate(zip(reference, parts)) if a != b]
        print(
            f"timeout {config.timeout_ms} ms, solver budget {config.solver_budget_s:g} s: median "
            f"{statistics.median(xs):.3f} s  p90 {xs[int(0.9 * (len(xs) - 1))]:.3f} s  max {xs[-1]:.2f} s  "
            f"merged pairs {merged}  classes differ on {len(changed)} problems  (load {os.getloadavg()[0]:.2f})",
            flush=True,
        )
        print(
            f"    second pass: {len(second)} pairs asked again at the full timeout, "
            f"{sum(p.seconds for p in second):.1f} s, {sum(p.equivalent for p in second)} merged"
        )
        for pid in changed[:10]:
            print(f"    {pid}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
