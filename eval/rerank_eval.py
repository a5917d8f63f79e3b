"""n@k for n = 1..5 of SymEq/SemCo reranking on the Isa-AutoFormal GPT-4 candidates, and SymEq on FormalAlign (Lean 4).

    nice python eval/rerank_eval.py --workers 2          # shares the cache of eval/table1.py (runs/rerank)
    nice python eval/rerank_eval.py --lean-formalalign 40

Prints n@k for n = 1..--max-n on the sets Table 1 reports (MATH-400 and miniF2F 488; see eval/table1.py,
which also prints labelling efficiency and the categories), every knob (alpha, tie-break) tuned on the
*other* set as there: never on MATH train, whose labels favour sample 0.
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
from eval.harness import Method, knobs_from, n_at_k, pass_at, score_isa_sets


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
    scored = score_isa_sets(args.cache, config, args.limit, sets=("math_test", "minif2f"))
    math400 = [q for q in scored["math_test"] if q.in_paper_400]
    mf2f = scored["minif2f"]
    ns = range(1, args.max_n + 1)
    for name, ps, knobs in (("MATH-400", math400, knobs_from(mf2f)), ("miniF2F", mf2f, knobs_from(math400))):
        print(f"\n{name} ({len(ps)} problems, k=10; knobs tuned on the other set): n@k in %")
        print(f"  {'method':40s} " + " ".join(f"{n}@k".rjust(6) for n in ns))
        print(f"  {'first n samples':40s} " + " ".join(f"{100 * pass_at(ps, n):6.1f}" for n in ns))
        for m in [Method("semco"), *knobs.values()]:
            print(f"  {m.label():40s} " + " ".join(f"{100 * n_at_k(ps, m, n):6.1f}" for n in ns))
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
