"""SymEq as an equivalence judge on BEq's human-labelled Lean 4 pairs (candidate vs ProofNet gold).

    nice python eval/rerank_beq.py                     # all 200 pairs (nothing is tuned here)
    nice python eval/rerank_beq.py --show 10           # also print some verdicts with their reasons

SymEq says "equivalent" only when it proves it (standard forms agree, or Z3 proves premises and
conclusions equivalent), "different" when Z3 finds a counter-model, and "unknown" otherwise. Most
ProofNet statements are about groups, topology, linear algebra: the front-end keeps those as opaque or
uninterpreted terms, so coverage (pairs decided) is reported next to precision/recall of "equivalent".
A "different" whose counter-model relies on an uninterpreted function is not trustworthy and is
counted as undecided here.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from tqdm import tqdm

from atf.data.labelled import load_beq
from atf.symeq.config import SymEqConfig
from atf.symeq.pool import SymEqPool


def verdicts(items, config: SymEqConfig):
    """(item, verdict, reason, fully modelled) per pair, each decided in a worker under SymEq's hard budgets.
    Both statements are read under the pair's header (its `open`s decide what an unqualified name means)."""
    with SymEqPool(config.workers) as pool:
        jobs = [([it.header + it.gold, it.header + it.candidate], "lean") for it in items]
        for idx, result in pool.map(jobs, config):
            yield (items[idx], *verdict(result))


def verdict(result) -> tuple[str, str, bool]:
    """(verdict, reason, fully modelled) from the SymEq result on [gold, candidate]."""
    gold, cand = result.statements
    if gold is None or cand is None:
        return "unknown", f"unparsed: {result.errors[0] or result.errors[1]}", False
    res = next((p for p in result.pairs if p.status != "skipped"), None)
    if res is None:
        return "unknown", "vacuous premises" if any(result.vacuous) else "not compared", False
    modelled = gold.fully_modelled and cand.fully_modelled
    if res.status == "equivalent":
        return "equivalent", res.method, modelled
    if res.status == "different" and res.exact:
        return "different", res.describe(), modelled
    return "unknown", res.describe(), modelled


def main(argv: list[str] | None = None) -> int:
    from atf.cliargs import add_seconds

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_seconds(p, "--timeout-s", 2.0, "Z3 timeout per query", old_ms=("--timeout-ms",))
    p.add_argument(
        "--split",
        default="all",
        choices=("all", "dev", "test"),
        help="which BEq pairs (dev/test halves, or all; default %(default)s)",
    )
    p.add_argument("--workers", type=int, default=SymEqConfig.workers, help="SymEq worker processes")
    p.add_argument("--show", type=int, default=0, help="print this many verdicts with reasons")
    args = p.parse_args(argv)
    items = load_beq(args.split)
    config = SymEqConfig(timeout_ms=round(args.timeout_s * 1000), workers=args.workers)
    t0 = time.perf_counter()
    rows = list(tqdm(verdicts(items, config), total=len(items), desc="BEq pairs"))
    secs = (time.perf_counter() - t0) / max(len(items), 1)

    def report(name, rs):
        n = len(rs)
        pos = sum(it.label for it, *_ in rs)
        pred_eq = [(it, v) for it, v, *_ in rs if v == "equivalent"]
        tp = sum(it.label for it, _ in pred_eq)
        decided = [r for r in rs if r[1] != "unknown"]
        dec_ok = sum((v == "equivalent") == it.label for it, v, *_ in decided)
        prec = tp / len(pred_eq) if pred_eq else float("nan")
        rec = tp / pos if pos else float("nan")
        print(f"{name}: {n} pairs ({pos} human-equivalent)")
        print(
            f"  decided {len(decided)} ({100 * len(decided) / n:.1f}% coverage): "
            f"{len(pred_eq)} 'equivalent', {len(decided) - len(pred_eq)} 'different'; "
            f"{dec_ok}/{len(decided)} agree with the humans"
        )
        print(
            f"  'equivalent': precision {100 * prec:.1f}% ({tp}/{len(pred_eq)}), recall {100 * rec:.1f}% ({tp}/{pos})"
        )
        print(f"  fully modelled by the front-end (no opaque part): {sum(r[3] for r in rs)} pairs")

    print(
        f"SymEq on BEq human-equivalence pairs (split={args.split}; Z3 timeout {round(args.timeout_s * 1000)} ms; "
        f"{secs:.2f} s/pair)"
    )
    report("all", rows)
    for gen in sorted({it.meta["generator"] for it, *_ in rows}):
        report(gen, [r for r in rows if r[0].meta["generator"] == gen])
    print("verdicts x human label:", dict(Counter((v, it.label) for it, v, *_ in rows)))
    for it, v, why, _ in rows[: args.show]:
        print(f"\n[{v} | human {'≡' if it.label else '≢'}] {it.id}: {why[:200]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
