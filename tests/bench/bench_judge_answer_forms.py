"""How the verdict parser reads the table of answer forms in tests/test_judge_answer_forms.py.

    python tests/bench/bench_judge_answer_forms.py

Prints, per kind of form (plain consistent, plain inconsistent, and forms that end inconsistent, hedge or
retract), how many there are, how many are read as expected, and how many are read as consistent; then every
positive label form followed by every negating continuation. The target is 0 forms that end inconsistent, hedge
or retract read as consistent.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from test_judge_answer_forms import FORMS, HEADS, NEGATIVE_TAILS

from atf.judge.parsing import read_verdict

KINDS = {"pos": "plain consistent", "plain-neg": "plain inconsistent", "neg": "ends inconsistent/hedges/retracts"}


def main() -> int:
    total, expected, consistent = Counter(), Counter(), Counter()
    for text, want, kind in FORMS:
        got = read_verdict(text).value
        total[kind] += 1
        expected[kind] += got == want
        consistent[kind] += got == "consistent"
    print(f"{'kind':<36} {'forms':>5} {'as expected':>11} {'read consistent':>15}")
    for kind, name in KINDS.items():
        print(f"{name:<36} {total[kind]:>5} {expected[kind]:>11} {consistent[kind]:>15}")
    wrong = consistent["neg"] + consistent["plain-neg"]
    print(
        f"all {sum(total.values())} forms; answers that end inconsistent, hedge or retract read as consistent: {wrong}"
    )
    combos = [head + tail for head in HEADS for tail in NEGATIVE_TAILS]
    crossed = sum(read_verdict(c).value == "consistent" for c in combos)
    print(
        f"{len(HEADS)} positive label forms x {len(NEGATIVE_TAILS)} negating continuations = {len(combos)}; "
        f"read as consistent: {crossed}"
    )
    return 0 if wrong == 0 and crossed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
