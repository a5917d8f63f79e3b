"""The synthesis summary of any trajectory file: mix of sources, tokens under loss per kind of turn, and whether
deliberate mistakes are trained (first statement under loss not the final one; statements under loss that differ
from the final statement; distinct lead sentences).

    python data_gen/synthesis_report.py data/cold_start.jsonl [more.jsonl ...]
"""

from __future__ import annotations

import argparse
import sys

from atf.train.data import load_trajectories
from atf.train.synth_report import report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("trajectories", nargs="+", help="trajectory JSONL files")
    args = p.parse_args(argv)
    print(report(load_trajectories(args.trajectories)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
