"""FaithAlign-style scores of align-then-label findings: link / defect / undecidable F1@0.5 (endpoint precision
and recall), weighted credit, complete-defect identification, verdict accuracy, undecidable-item rate.

    atf consistency-check --mode align --input items.jsonl --output pred.jsonl   # items carry "id"
    python eval/faithalign_eval.py --gold gold.jsonl --pred pred.jsonl

gold.jsonl: {"id", "problem", "statement", "findings": [{"informal": quote|null, "lean": quote|null,
"label": faithful|unfaithful|undecidable, optional "informal_span"/"lean_span": [start, end] or a multi-span
region [[start, end], ...]}], optional "verdict"}. Quotes without spans are located in "problem"/"statement";
the gold "statement" is used to trim non-mathematical Lean characters. Several judges' findings in one
prediction are merged before scoring. Rules: atf/judge/faithalign.py. No FaithAlign gold set ships in
../shared/data (FormalAlign there has item labels, not spans), so bring your own.
"""

from __future__ import annotations

import argparse
import json
import sys

from atf.judge.faithalign import score_files


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--gold", required=True, help="gold findings JSONL")
    p.add_argument(
        "--pred", required=True, help="predicted findings JSONL (e.g. atf consistency-check --mode align output)"
    )
    p.add_argument(
        "--threshold", type=float, default=0.5, help="endpoint precision and recall a match needs on every side (0.5)"
    )
    p.add_argument("--json", action="store_true", help="print the scores as one JSON object")
    args = p.parse_args(argv)
    s, missing = score_files(args.gold, args.pred, args.threshold)
    if args.json:
        print(json.dumps({**s.to_dict(), "missing": missing}))
        return 0
    t = f"@{s.threshold:g}"
    print(
        f"items {s.items} (missing predictions: {len(missing)}), "
        f"findings gold {s.gold_findings} / pred {s.pred_findings}, "
        f"defects gold {s.gold_defects} / pred {s.pred_defects}"
    )
    print(f"{'metric':<20} {'P':>6} {'R':>6} {'F1':>6} {'wF1':>6}")
    print(f"{'link' + t:<20} {s.link_precision:6.3f} {s.link_recall:6.3f} {s.link_f1:6.3f} {s.link_weighted_f1:6.3f}")
    print(
        f"{'defect' + t:<20} {s.defect_precision:6.3f} {s.defect_recall:6.3f} {s.defect_f1:6.3f} "
        f"{s.defect_weighted_f1:6.3f}"
    )
    print(f"{'undecidable' + t:<20} {s.undecidable_precision:6.3f} {s.undecidable_recall:6.3f} {s.undecidable_f1:6.3f}")
    complete = "-" if s.complete_defect_identification is None else f"{s.complete_defect_identification:.3f}"
    print(f"complete-defect identification {complete} (of {s.defective_items} items with a gold defect)")
    print(
        f"verdict accuracy {s.verdict_accuracy:.3f}; undecidable items {s.undecidable_item_rate:.3f} "
        f"(gold {s.gold_undecidable_item_rate:.3f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
