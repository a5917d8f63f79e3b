"""DPO pairs from trajectories: same problem, success beats failure, fewer revisions beat more.

    python data_gen/build_dpo_pairs.py -i data/cold_start.jsonl runs/expert_iteration/round_0/samples.rank0.jsonl \\
        -o data/dpo_pairs.jsonl
"""

from __future__ import annotations

import argparse
import sys

from atf.train.data import load_trajectories, merge_dedupe
from atf.train.pairs import build_pairs, write_pairs


def main(argv: list[str] | None = None) -> int:
    from atf.cliargs import add_input, add_output, alias, default_of
    from atf.train.args import DPOScriptArguments

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_input(p, "trajectory JSONL files (required)", nargs="+")
    alias(p, "--trajectories", "--input", "input", nargs="+")
    add_output(p, "pairs JSONL to write (required)", old=("--out",))
    p.add_argument(
        "--max-pairs-per-problem",
        type=int,
        default=default_of(DPOScriptArguments, "max_pairs_per_problem"),
        help="pairs built per problem (default %(default)s)",
    )
    args = p.parse_args(argv)
    if not args.input or not args.output:
        p.error("the following arguments are required: -i/--input, -o/--output")
    trajectories = merge_dedupe(load_trajectories(args.input))
    pairs = build_pairs(trajectories, args.max_pairs_per_problem)
    n = write_pairs(args.output, pairs)
    fail = sum(not x["rejected_success"] for x in pairs)
    print(
        f"{n} pairs from {len(trajectories)} trajectories ({fail} against a failure, "
        f"{n - fail} against more revisions) -> {args.output}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
