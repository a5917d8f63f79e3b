"""SymEq's Z3 budget on the DEV set: a resource limit per query (`smt.RLIMIT_PER_MS`) against the wall clock.

The dev set: the MATH problems outside the paper's 400 (the other 361 test problems and the 36 train problems;
nothing is reported on them), k = 10 GPT-4 Isabelle candidates, `SymEqConfig`'s defaults but the rate, run in
`SymEqPool` (one worker, so that each run reads the problems in its order).

    nice python eval/symeq_rlimit_dev.py                            # rates 0 (the clock), 700, 1000, 2500
    nice python eval/symeq_rlimit_dev.py --rates 1000 --load 3      # is 1000 deterministic with 3 busy loops?

For each rate (Z3 resource units per nominal millisecond; 0 runs on Z3's wall-clock timeout alone, as SymEq did
before VERSION 31, though each problem now has a Z3 context of its own at every rate) it prints the pairs SymEq's
classes merge, the seconds the whole set took, and the problems whose classes differ from a second run over the
problems in reverse order (one worker reads all problems, so the second run sees another history; with --load N, N
busy loops run beside the second run, so it is slower by that much). A rate whose two runs differ in no problem
gives the same classes on any machine and load; the one to use merges as many pairs as the clock in no more time.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from atf.data.isabelle import load_math_dev
from atf.symeq import smt
from atf.symeq.config import SymEqConfig
from eval.symeq_speed_dev import merged_pairs, run


def _busy() -> None:
    while True:
        pass


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rates", default="0,700,1000,2500", help="comma-separated RLIMIT_PER_MS values (0: the clock)")
    ap.add_argument("--limit", type=int, default=None, help="first N dev problems (default: all 397)")
    ap.add_argument("--load", type=int, default=0, help="busy loops beside the reverse-order run (default 0)")
    args = ap.parse_args(argv)
    try:
        rates = [int(r) for r in args.rates.split(",")]
    except ValueError:
        ap.error(f"--rates takes integers, got {args.rates!r}")
    if any(r < 0 for r in rates) or args.load < 0:
        ap.error("rates and --load must not be negative")
    problems = load_math_dev()[: args.limit]
    jobs = [(p.statements, "isabelle") for p in problems]
    print(
        f"{len(problems)} dev problems (MATH outside the paper's 400), k = 10, SymEqConfig defaults "
        f"(timeout_ms {SymEqConfig.timeout_ms}, solver budget {SymEqConfig.solver_budget_s} s); "
        f"wall factor {smt.WALL_FACTOR}; the shipped rate is {SymEqConfig.rlimit_per_ms}"
    )
    for rate in rates:
        config = SymEqConfig(rlimit_per_ms=rate)
        t0 = time.perf_counter()
        forward = run(jobs, config, f"rate {rate}")[1]
        secs = time.perf_counter() - t0
        busy = [mp.Process(target=_busy, daemon=True) for _ in range(args.load)]
        for b in busy:
            b.start()
        try:
            t0 = time.perf_counter()
            backward = run(jobs[::-1], config, f"rate {rate}, reverse")[1][::-1]
            back_secs = time.perf_counter() - t0
        finally:
            for b in busy:
                b.terminate()
        differ = [p.id for p, a, b in zip(problems, forward, backward) if a != b]
        name = "clock" if rate == 0 else f"{rate:>5}"
        print(
            f"rate {name}: merged pairs {merged_pairs(forward)}, {secs:.1f} s; reverse order"
            f"{f' beside {args.load} busy loops' if args.load else ''}: {back_secs:.1f} s, "
            f"{len(differ)} problems with other classes{': ' + ', '.join(differ[:5]) if differ else ''}"
        )
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
