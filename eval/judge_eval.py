"""Judge accuracy on the human-labelled candidate sets; prints one table.

    nice python eval/judge_eval.py                           # default judge (SmolLM2-135M), vote mode, test split
    nice python eval/judge_eval.py --limit 20 --mode oap
    python eval/judge_eval.py --judge 'openai:http://localhost:8000/v1#qwen::max_new_tokens=2048' --judge smollm2

Sets (atf.data.labelled): BEq human equivalence (200), ProofNetVerif sample (100), FormalAlign 80 human-labelled.
BEq/ProofNetVerif labels say "the candidate is equivalent to the gold formalization" (human judgement);
the judge decides consistency from the informal statement only, which is the same notion when the gold
formalization is faithful. FormalAlign: label = majority of three humans; agreement with each human and
among humans is reported too, and accuracy against the synthetic gold/misaligned label.

Positive = consistent. FPR = inconsistent candidates the judge lets through / all inconsistent ones.
parse = share of answers the parser could read (unreadable answers count as inconsistent).
Items whose check errored (a judge request failed: no verdict) are left out of every figure, counted in the
"err" column, not saved, and checked again on rerun; the exit status is 1 when any errored.
Predictions are appended to --output (JSONL) and reused on rerun with the same settings.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tqdm import tqdm

from atf.data.labelled import LOADERS, SPLITS, LabelledItem, load_labelled
from atf.jsonl import JsonlWriter
from atf.judge import ConsistencyChecker, OAPConfig, load_judge
from atf.judge.metrics import binary_scores, exact_agreement, pairwise_agreement

SET_NAMES = {"beq": "BEq", "proofnetverif": "ProofNetVerif", "formalalign": "FormalAlign-80"}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    from atf.cliargs import add_batch_size, add_judges, add_output
    from atf.judge.oap import OAPConfig

    add_judges(p, "judge spec (see `atf consistency-check --help`); repeatable; default smollm2")
    p.add_argument(
        "--mode", choices=("vote", "oap", "align"), default="vote", help="how judges decide (default %(default)s)"
    )
    p.add_argument("--sets", default="beq,proofnetverif,formalalign", help="comma-separated: " + ",".join(LOADERS))
    p.add_argument("--split", choices=SPLITS, default="test", help="half of the problems (by sha1); default test")
    p.add_argument("--limit", type=int, help="first N items of each set (file order, after the split)")
    p.add_argument(
        "--max-new-tokens",
        type=int,
        help="for judges whose spec does not set it (default: the judge's, 384 or 8192 thinking)",
    )
    add_batch_size(p, 8, "items per judge call")
    p.add_argument("--fv", default="none", help="oap mode FV: none (default, judge only), auto, or a number")
    p.add_argument("--oap-threshold", type=float, default=OAPConfig.threshold, help="oap mode (default %(default)s)")
    add_output(
        p,
        "JSONL of per-item predictions (resumable; default %(default)s)",
        old=("--predictions",),
        default="runs/judge_eval/predictions.jsonl",
    )
    return p.parse_args(argv)


def config_key(args: argparse.Namespace, judges: list[str]) -> str:
    return json.dumps(
        {
            "mode": args.mode,
            "judges": judges,
            "max_new_tokens": args.max_new_tokens,
            "fv": args.fv,
            "oap_threshold": args.oap_threshold,
        }
    )


def load_done(path: Path, key: str) -> dict[tuple[str, str], dict]:
    from atf.jsonl import resume_jsonl

    return {(rec["set"], rec["id"]): rec for rec in resume_jsonl(path) if rec.get("config") == key}


def record(name: str, item: LabelledItem, result, key: str) -> dict:
    return {
        "config": key,
        "set": name,
        "id": item.id,
        "label": item.label,
        "human_labels": item.human_labels,
        "synthetic_label": item.meta.get("synthetic_label"),
        "consistent": result.consistent,
        "verdict": result.verdict,
        "votes": [
            {
                "name": v.name,
                "consistent": v.consistent,
                "parsed": v.parsed,
                "samples": v.samples,
                "samples_parsed": v.samples_parsed,
                **({"score": v.scores["score"], "rating": v.scores["rating"]} if v.scores else {}),
            }
            for v in result.votes
        ],
    }


def run_set(
    checker: ConsistencyChecker, name: str, items: list[LabelledItem], done: dict, sink, key: str, batch_size: int
) -> tuple[list[dict], float, int, int]:
    """(records of the items with a verdict, seconds, items judged now, items whose check errored)."""
    todo = [i for i in items if (name, i.id) not in done]
    errored = 0
    t0 = time.perf_counter()
    with tqdm(total=len(items), initial=len(items) - len(todo), desc=SET_NAMES[name], unit="item") as bar:
        for start in range(0, len(todo), batch_size):
            chunk = todo[start : start + batch_size]
            results = checker.check_many([(i.problem, i.candidate) for i in chunk])
            for item, result in zip(chunk, results):
                if result.errored:  # no verdict: not a prediction, so not saved; a rerun asks again
                    errored += 1
                    continue
                rec = record(name, item, result, key)
                done[(name, item.id)] = rec
                sink.write(rec)
            bar.update(len(chunk))
    return [done[(name, i.id)] for i in items if (name, i.id) in done], time.perf_counter() - t0, len(todo), errored


def fmt(x: float | None) -> str:
    return "  -  " if x is None else f"{x:5.3f}"


def parse_rate(votes: list[dict]) -> float | None:
    return sum(v["samples_parsed"] / v["samples"] for v in votes) / len(votes) if votes else None


def table(rows: list[tuple[str, str, list[bool], list[bool], float, int]]) -> list[str]:
    """rows: (set, rater, predictions, gold labels, parse rate, errored items left out)."""
    head = (
        f"{'set':<15} {'judge':<22} {'n':>4} {'pos':>5} {'acc':>5} {'FPR':>5} {'prec':>5} {'rec':>5} "
        f"{'parse':>5} {'err':>4}"
    )
    out = [head]
    for set_name, rater, preds, gold, parse, errored in rows:
        if not gold:
            out.append(f"{SET_NAMES[set_name]:<15} {rater:<22} {0:>4} (every item errored) {errored:>4}")
            continue
        s = binary_scores(preds, gold)
        out.append(
            f"{SET_NAMES[set_name]:<15} {rater:<22} {s.n:>4} {s.base_rate:5.3f} {s.accuracy:5.3f} "
            f"{fmt(s.fpr)} {fmt(s.precision)} {fmt(s.recall)} {fmt(parse)} {errored:>4}"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = [s for s in sets if s not in LOADERS]
    if unknown:
        print(f"unknown sets {unknown}; expected {sorted(LOADERS)}", file=sys.stderr)
        return 2
    specs = args.judges or ["smollm2"]
    engines: dict = {}
    defaults = {"max_new_tokens": args.max_new_tokens} if args.max_new_tokens else {}
    judges = [load_judge(spec, defaults, engines) for spec in specs]
    fv = None if args.fv == "none" else (args.fv if args.fv == "auto" else float(args.fv))
    checker = ConsistencyChecker(judges, mode=args.mode, fv=fv, oap=OAPConfig(threshold=args.oap_threshold))
    names = [j.name for j in checker.judges]
    key = config_key(args, specs)
    pred_path = Path(args.output)
    pred_path.parent.mkdir(parents=True, exist_ok=True)
    done = load_done(pred_path, key)

    rows, timing, per_set = [], [], {}
    total_errored = 0
    with JsonlWriter(pred_path) as sink:
        for name in sets:
            items = load_labelled(name, args.split)[: args.limit]
            recs, seconds, ran, errored = run_set(checker, name, items, done, sink, key, args.batch_size)
            total_errored += errored
            timing.append(
                f"{SET_NAMES[name]}: {len(items)} items, {ran} judged now in {seconds:.0f} s"
                + (f" ({seconds / ran:.1f} s/item)" if ran else " (all from --output)")
            )
            gold = [r["label"] for r in recs]
            for j, judge_name in enumerate(names):
                votes = [r["votes"][j] for r in recs]
                rows.append((name, judge_name, [v["consistent"] for v in votes], gold, parse_rate(votes), errored))
            if len(names) > 1:
                all_votes = [v for r in recs for v in r["votes"]]
                rows.append(
                    (
                        name,
                        "ensemble (all agree)",
                        [r["consistent"] for r in recs],
                        gold,
                        parse_rate(all_votes),
                        errored,
                    )
                )
            per_set[name] = recs

    limit = f"first {args.limit} per set" if args.limit else "all items"
    print()
    print(
        f"Judge evaluation: mode={args.mode}, judges={', '.join(specs)} "
        f"(max_new_tokens={args.max_new_tokens or 'judge default'} unless set), split={args.split}, {limit}"
    )
    print(
        "Labels: BEq/ProofNetVerif = human 'candidate equivalent to the gold formalization' (a faithful gold makes this"
    )
    print("the consistency a judge decides from the informal statement); FormalAlign = majority of 3 humans.")
    print("pos = share of consistent items; positive class = consistent; parse = share of judge answers read.")
    print()
    print("\n".join(table(rows)))
    if len(names) > 1:
        print()
        for name, recs in per_set.items():
            raters = [[r["votes"][j]["consistent"] for r in recs] for j in range(len(names))]
            print(
                f"{SET_NAMES[name]}: judges exact agreement {exact_agreement(raters):.3f}, "
                f"pairwise {pairwise_agreement(raters):.3f}"
            )
    if args.mode == "oap":
        print()
        print("OAP score (weighted LP/MC/FQ[/FV], before the threshold) by label: mean over items, per judge")
        for name, recs in per_set.items():
            for j, judge_name in enumerate(names):
                by = {True: [], False: []}
                for r in recs:
                    if r["votes"][j].get("score") is not None:
                        by[r["label"]].append(r["votes"][j]["score"])
                mean = lambda xs: f"{sum(xs) / len(xs):.3f} (n={len(xs)})" if xs else "-"  # noqa: E731
                print(
                    f"  {SET_NAMES[name]:<15} {judge_name:<12} consistent {mean(by[True])}   "
                    f"inconsistent {mean(by[False])}"
                )
    fa_recs = per_set.get("formalalign")
    if fa_recs:
        humans = [[r["human_labels"][k] for r in fa_recs] for k in range(3)]
        ensemble = [r["consistent"] for r in fa_recs]
        print()
        print(
            f"FormalAlign-80 agreement ({args.split} split, n={len(fa_recs)}; exact = all raters agree, "
            "pairwise = mean over rater pairs)"
        )
        print(
            f"  {'humans H1,H2,H3':<34} exact {exact_agreement(humans):.3f}  pairwise {pairwise_agreement(humans):.3f}"
        )
        for k in range(3):
            print(f"  {f'judge(s) vs H{k + 1}':<34} agreement {pairwise_agreement([ensemble, humans[k]]):.3f}")
        print(
            f"  {'judge(s) + 3 humans':<34} exact {exact_agreement([ensemble, *humans]):.3f}  "
            f"pairwise {pairwise_agreement([ensemble, *humans]):.3f}"
        )
        synthetic = [r["synthetic_label"] for r in fa_recs]
        print(f"  {'judge(s) vs synthetic gold label':<34} accuracy {binary_scores(ensemble, synthetic).accuracy:.3f}")
        print(
            f"  {'human majority vs synthetic label':<34} "
            f"accuracy {binary_scores([r['label'] for r in fa_recs], synthetic).accuracy:.3f}"
        )
    print()
    print("timing: " + "; ".join(timing))
    print(f"predictions: {pred_path}")
    if total_errored:
        print(
            f"{total_errored} item(s) errored (no verdict; left out above); rerun to check them again", file=sys.stderr
        )
    return 1 if total_errored else 0


if __name__ == "__main__":
    sys.exit(main())
