"""n@k and labelling efficiency of SymEq/SemCo reranking on the Isa-AutoFormal GPT-4 candidates.

    nice python eval/rerank_eval.py --workers 2          # shares the cache of eval/table1.py (runs/rerank)

Prints, for MATH test (761, human labels) and miniF2F (488, ATP-oracle labels):
  n@k for n = 1..5 by method (picks remove their SymEq class; SemCo alone takes its top n);
  the alpha curve of each combination on MATH *train* (the only split alpha is chosen on), and the
  test numbers at the alpha chosen there;
  labelling efficiency: labels a human needs when one label per SymEq class is propagated to the class
  (to label all k candidates, and to find a correct one walking the ranked order), with the accuracy of
  the propagated labels.
With --lean-formalalign N it also clusters N FormalAlign miniF2F problems (Lean 4: the gold statement and
15 synthetically misaligned variants each) and reports how often a misaligned variant lands in the gold
statement's SymEq class (a misalignment that the hypotheses make harmless, such as `6 < b` next to
`b = 30`, is genuinely equivalent, so the rate is not an error rate).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file (python eval/rerank_eval.py): the repository root is the package root
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from atf.symeq.config import SymEqConfig
from eval.harness import (
    Method,
    labelling_efficiency,
    n_at_k,
    pass_at,
    score_isa_sets,
    tune_alpha,
)

COMBOS = ("log", "linear", "quadratic")


def main(argv: list[str] | None = None) -> int:
    from atf.cliargs import add_seconds

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--cache",
        type=Path,
        default=Path("runs/rerank"),
        help="per-problem score cache, shared with eval/table1.py (default %(default)s)",
    )
    p.add_argument("--workers", type=int, default=SymEqConfig.workers, help="processes for SymEq (default %(default)s)")
    add_seconds(p, "--timeout-s", SymEqConfig.timeout_ms / 1000, "Z3 timeout per query", old_ms=("--timeout-ms",))
    p.add_argument("--limit", type=int, default=None, help="first N problems of each set (a quick look)")
    p.add_argument("--max-n", type=int, default=5, help="n@k is reported for n = 1..max-n (default %(default)s)")
    p.add_argument(
        "--lean-formalalign", type=int, default=0, metavar="N", help="also cluster N FormalAlign (Lean 4) problems"
    )
    args = p.parse_args(argv)
    config = SymEqConfig(timeout_ms=round(args.timeout_s * 1000), workers=args.workers)
    if args.lean_formalalign:
        formalalign(args.lean_formalalign, config, args.cache)
    scored = score_isa_sets(args.cache, config, args.limit)
    train = scored["math_train"]
    ns = range(1, args.max_n + 1)

    print("alpha curve on MATH train (36 problems), 1@k in %:")
    grid = [i / 10 for i in range(11)]
    print("  alpha     " + " ".join(f"{a:5.1f}" for a in grid))
    alphas = {}
    for c in COMBOS:
        print(f"  {c:9s} " + " ".join(f"{100 * n_at_k(train, Method(c, a), 1):5.1f}" for a in grid))
        alphas[c], _ = tune_alpha(train, c)
    print("  chosen: " + ", ".join(f"{c} {a:.2f}" for c, a in alphas.items()))

    for name, ps in (("MATH test", scored["math_test"]), ("miniF2F", scored["minif2f"])):
        print(f"\n{name} ({len(ps)} problems, k=10): n@k in %")
        print(f"  {'method':28s} " + " ".join(f"{n}@k".rjust(6) for n in ns))
        print(f"  {'first n samples':28s} " + " ".join(f"{100 * pass_at(ps, n):6.1f}" for n in ns))
        methods = [("string majority", Method("majority")), ("SymEq", Method("symeq")), ("SemCo", Method("semco"))]
        methods += [(f"{c}-comb a={alphas[c]:.2f}", Method(c, alphas[c])) for c in COMBOS]
        for label, m in methods:
            print(f"  {label:28s} " + " ".join(f"{100 * n_at_k(ps, m, n):6.1f}" for n in ns))
        print(f"\n{name}: labelling efficiency with SymEq classes (order: log-comb a={alphas['log']:.2f})")
        eff = labelling_efficiency(ps, Method("log", alphas["log"]))
        print(
            f"  label every candidate: {eff.labels_all_plain:.2f} labels/problem without classes, "
            f"{eff.labels_all_classes:.2f} with one per class ({100 * eff.saved_all:.1f}% saved); "
            f"propagated labels agree with the human ones for {100 * eff.propagation_accuracy:.1f}% of candidates"
        )
        print(
            f"  find a correct candidate (ranked order): {eff.find_plain:.2f} labels/problem without classes, "
            f"{eff.find_classes:.2f} skipping labelled classes ({100 * eff.saved_find:.1f}% saved)"
        )
        sizes = [len(q.classes) for q in ps]
        print(
            f"  SymEq classes per problem: mean {sum(sizes) / len(sizes):.2f}; vacuous candidates "
            f"{sum(q.vacuous for q in ps)}; unparsed {sum(q.k - q.parsed for q in ps)} of {sum(q.k for q in ps)}"
        )
    return 0


def formalalign(n: int, config: SymEqConfig, cache: Path) -> None:
    import json
    import re
    from types import SimpleNamespace

    from atf.paths import shared_data_dir
    from atf.symeq.equivalence import VERSION
    from eval.harness import symeq_records

    path = shared_data_dir() / "formalalign/data/minif2f/misalignment/test_misalignment.json"
    rows = [r for r in json.loads(path.read_text(encoding="utf-8")) if len(r["outputs"]) >= 2][:n]
    problems = [
        SimpleNamespace(
            id=str(i),
            statements=[re.sub(r":=[\s\S]*$", "", o["response"]).rstrip() + " := by sorry" for o in row["outputs"]],
        )
        for i, row in enumerate(rows)
    ]
    records = symeq_records(
        problems, "lean", cache / f"formalalign_t{config.timeout_ms}_v{VERSION}.symeq.jsonl", config
    )
    merged, total, alone, parsed, cands, late = 0, 0, 0, 0, 0, 0
    by_type: dict[str, list[int]] = {}
    for p, row in zip(problems, rows):
        rec = records[p.id]
        outs = row["outputs"]
        gold = next(i for i, o in enumerate(outs) if o["label"])
        cls = set(next(c for c in rec["classes"] if gold in c))
        alone += cls == {gold}
        parsed += rec["parsed"]
        cands += len(outs)
        late += bool(rec.get("timed_out"))
        for i, o in enumerate(outs):
            if o["label"]:
                continue
            hit = int(i in cls)
            merged += hit
            total += 1
            by_type.setdefault(o.get("misalign_type") or "?", []).append(hit)
    print(
        f"\nFormalAlign miniF2F (Lean 4), {len(rows)} problems, {cands} candidates "
        f"({100 * parsed / cands:.1f}% parsed, "
        f"{late} problem(s) past the time budget):"
    )
    print(
        f"  gold statement alone in its class: {alone}/{len(rows)}; misaligned variants in the gold class: "
        f"{merged}/{total} ({100 * merged / max(total, 1):.1f}%)"
    )
    print("  by misalignment type: " + ", ".join(f"{t} {sum(v)}/{len(v)}" for t, v in sorted(by_type.items())))


if __name__ == "__main__":
    sys.exit(main())
