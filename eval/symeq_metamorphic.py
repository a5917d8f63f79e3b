"""SymEq on metamorphic variants of gold benchmark statements (miniF2F / ProofNet, Lean 4).

    nice python eval/symeq_metamorphic.py --split valid            # development split
    nice python eval/symeq_metamorphic.py --split test             # report split (nothing tuned on it)
    nice python eval/symeq_metamorphic.py --split valid --show 20  # print merged mutations / missed rewrites

For each gold statement, every meaning-preserving rewrite of `atf.symeq.metamorphic` (rename variables,
reorder or split/merge hypotheses, move one into the conclusion, swap equation sides, ...) should land in
the statement's SymEq class, and no meaning-changing mutation (change a literal, a relation, a type, a
bound; drop a hypothesis) should. Prints the merge rate of rewrites and the merges of mutations by kind.
A mutation that merges because Z3 proves the original *and* the mutant outright (two true closed
propositions are logically equivalent) is counted apart from the false merges; every other merged
mutation is listed with --show for inspection.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter, defaultdict

from tqdm import tqdm

from atf.data.benchmarks import load_benchmark
from atf.symeq.equivalence import SymEq, parse, truth
from atf.symeq.metamorphic import MUTATIONS, REWRITES, variants


def both_valid(a: str, b: str, timeout_ms: int) -> bool:
    try:
        return truth(parse(a, "lean"), timeout_ms) == "valid" and truth(parse(b, "lean"), timeout_ms) == "valid"
    except Exception:  # noqa: BLE001 - undecided: not both valid
        return False


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--split", default="valid", choices=("valid", "test"))
    p.add_argument("--benchmarks", default="minif2f,proofnet", help="comma-separated benchmark names")
    p.add_argument("--timeout-ms", type=int, default=1000, help="Z3 timeout per query")
    p.add_argument("--limit", type=int, default=None, help="at most this many statements per benchmark")
    p.add_argument("--show", type=int, default=0, help="print this many merged mutations and missed rewrites")
    args = p.parse_args(argv)
    symeq = SymEq("lean", timeout_ms=args.timeout_ms)
    t0 = time.perf_counter()
    for bench in args.benchmarks.split(","):
        problems = load_benchmark(bench, args.split)[: args.limit]
        rw: dict[str, Counter] = defaultdict(Counter)
        mu: dict[str, Counter] = defaultdict(Counter)
        missed, merged = [], []
        unparsed = 0
        for prob in tqdm(problems, desc=f"{bench} {args.split}"):
            gold = prob.formal[len(prob.header):] if prob.formal.startswith(prob.header) else prob.formal
            try:
                parse(gold, "lean")
            except Exception:  # noqa: BLE001 - reported as a count
                unparsed += 1
                continue
            for kind, text in variants(gold, REWRITES).items():
                ok = symeq.compare(gold, text).equivalent
                rw[kind]["merged" if ok else "missed"] += 1
                if not ok:
                    missed.append((prob.id, kind, text))
            for kind, text in variants(gold, MUTATIONS).items():
                if not symeq.compare(gold, text).equivalent:
                    mu[kind]["apart"] += 1
                elif both_valid(gold, text, args.timeout_ms):
                    mu[kind]["both valid"] += 1
                else:
                    mu[kind]["merged"] += 1
                    merged.append((prob.id, kind, text))
        n_rw = sum(sum(c.values()) for c in rw.values())
        n_rw_ok = sum(c["merged"] for c in rw.values())
        n_mu = sum(sum(c.values()) for c in mu.values())
        print(f"\n{bench} {args.split}: {len(problems)} gold statements ({unparsed} unparsed, skipped)")
        print(f"  meaning-preserving rewrites merged: {n_rw_ok}/{n_rw} ({100 * n_rw_ok / max(n_rw, 1):.1f}%)")
        for kind in REWRITES:
            c = rw.get(kind, Counter())
            print(f"    {kind:18s} {c['merged']:4d}/{c['merged'] + c['missed']:<4d}")
        print(f"  meaning-changing mutations merged (false merges): {sum(c['merged'] for c in mu.values())}/{n_mu}; "
              f"merged because Z3 proves both statements: {sum(c['both valid'] for c in mu.values())}")
        for kind in MUTATIONS:
            c = mu.get(kind, Counter())
            print(f"    {kind:18s} merged {c['merged']:3d}, both valid {c['both valid']:3d}, apart {c['apart']:4d}")
        for pid, kind, text in merged[: args.show]:
            print(f"  MERGED mutation {kind} of {pid}: {text}")
        for pid, kind, text in missed[: args.show]:
            print(f"  missed rewrite {kind} of {pid}: {text}")
    print(f"\n{time.perf_counter() - t0:.1f} s; load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
