"""DPO pairs from trajectories: same problem, success beats failure, fewer revisions beat more.

    python data_gen/build_dpo_pairs.py --trajectories data/cold_start.jsonl runs/expert_iteration/round_0/samples.rank*.jsonl --out data/dpo_pairs.jsonl
"""

from __future__ import annotations

import argparse
import sys

from atf.train.data import load_trajectories, merge_dedupe
from atf.train.pairs import build_pairs, write_pairs


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--trajectories", nargs="+", required=True, help="trajectory JSONL files")
    p.add_argument("--out", required=True, help="pairs JSONL to write")
    p.add_argument("--max-pairs-per-problem", type=int, default=4)
    args = p.parse_args(argv)
    trajectories = merge_dedupe(load_trajectories(args.trajectories))
    pairs = build_pairs(trajectories, args.max_pairs_per_problem)
    n = write_pairs(args.out, pairs)
    fail = sum(not x["rejected_success"] for x in pairs)
    print(f"{n} pairs from {len(trajectories)} trajectories ({fail} against a failure, {n - fail} against more revisions) -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
