"""FaithAlign-style scores of align-then-label findings: link F1, defect F1@IoU, verdict accuracy.

    atf consistency-check --mode align --input items.jsonl --output pred.jsonl   # items carry "id"
    python eval/faithalign_eval.py --gold gold.jsonl --pred pred.jsonl

gold.jsonl: {"id", "problem", "statement", "findings": [{"informal": quote|null, "lean": quote|null,
"label": faithful|unfaithful|undecidable, optional "informal_span"/"lean_span": [start, end]}], optional
"verdict"}. Quotes without spans are located in "problem"/"statement". Matching and metrics are defined
in atf/judge/faithalign.py. No FaithAlign gold set ships in ../shared/data, so bring your own.
"""

from __future__ import annotations

import argparse
import json
import sys

from atf.judge.faithalign import score_files


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gold", required=True, help="gold findings JSONL")
    p.add_argument("--pred", required=True, help="predicted findings JSONL (e.g. atf consistency-check --mode align output)")
    p.add_argument("--iou", type=float, default=0.5, help="IoU a defect match needs on both sides (default 0.5)")
    p.add_argument("--json", action="store_true", help="print the scores as one JSON object")
    args = p.parse_args(argv)
    scores, missing = score_files(args.gold, args.pred, args.iou)
    if args.json:
        print(json.dumps({**scores.to_dict(), "missing": missing}))
        return 0
    print(f"items {scores.items} (missing predictions: {len(missing)}), findings gold {scores.gold_findings} / pred {scores.pred_findings}, "
          f"defects gold {scores.gold_defects} / pred {scores.pred_defects}")
    print(f"{'metric':<18} {'P':>6} {'R':>6} {'F1':>6}")
    print(f"{'link':<18} {scores.link_precision:6.3f} {scores.link_recall:6.3f} {scores.link_f1:6.3f}")
    print(f"{f'defect@{scores.iou_threshold:g}':<18} {scores.defect_precision:6.3f} {scores.defect_recall:6.3f} {scores.defect_f1:6.3f}")
    print(f"verdict accuracy   {scores.verdict_accuracy:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
