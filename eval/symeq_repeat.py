"""One problem's candidates through SymEq's pool N times: which pairs' verdicts vary between identical runs.

    nice python eval/symeq_repeat.py --formalalign 122 --runs 30          # FormalAlign miniF2F problem 122 (Lean)
    nice python eval/symeq_repeat.py --math task_test_gpt-4/1/algebra/problem_2058.json --runs 10
    nice python eval/symeq_repeat.py --formalalign 122 --runs 10 --fresh  # a new worker process for every run

SymEq's budgets count Z3's steps and the CPU time of the thread that runs a query, so the same candidates should get
the same verdicts in every run on a quiet machine. A pair listed here does not: its verdicts, with how often each
came, are printed with their details. The runs go one after another in one worker process (each problem in a fresh
Z3 context), or with --fresh each in a new pool, so a new interpreter (another hash seed, other addresses).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from atf.symeq.config import SymEqConfig
from atf.symeq.pool import SymEqPool


def formalalign_statements(index: int) -> list[str]:
    """The candidates of FormalAlign problem `index`, as `eval/rerank_eval.py --lean-formalalign` numbers them."""
    from atf.paths import shared_data_dir

    path = shared_data_dir() / "formalalign/data/minif2f/misalignment/test_misalignment.json"
    rows = [r for r in json.loads(path.read_text(encoding="utf-8")) if len(r["outputs"]) >= 2]
    if not 0 <= index < len(rows):
        raise SystemExit(f"--formalalign: {index} is not in 0..{len(rows) - 1}")
    return [re.sub(r":=[\s\S]*$", "", o["response"]).rstrip() + " := by sorry" for o in rows[index]["outputs"]]


def math_statements(pid: str) -> list[str]:
    from atf.data.isabelle import load_math

    for p in load_math("all"):
        if p.id == pid:
            return p.statements
    raise SystemExit(f"--math: no MATH problem {pid!r}")


def varying(runs: list[dict[tuple[int, int], tuple[str, str]]]) -> dict[tuple[int, int], Counter]:
    """The pairs whose (status, detail) is not the same in every run, with how often each came (a pair a run did not
    decide counts as "absent")."""
    pairs = sorted({ij for run in runs for ij in run})
    out: dict[tuple[int, int], Counter] = {}
    for ij in pairs:
        seen = Counter(run.get(ij, ("absent", "")) for run in runs)
        if len(seen) > 1:
            out[ij] = seen
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    which = ap.add_mutually_exclusive_group(required=True)
    which.add_argument("--formalalign", type=int, metavar="INDEX", help="a FormalAlign miniF2F problem (Lean)")
    which.add_argument("--math", metavar="ID", help="a MATH problem of Table 1's data (Isabelle), by its id")
    ap.add_argument("--runs", type=int, default=10, help="how many times (default %(default)s)")
    ap.add_argument("--fresh", action="store_true", help="a new pool (a new worker process) for every run")
    args = ap.parse_args(argv)
    if args.runs < 2:
        ap.error("--runs must be at least 2")
    if args.formalalign is not None:
        statements, language = formalalign_statements(args.formalalign), "lean"
    else:
        statements, language = math_statements(args.math), "isabelle"
    config = SymEqConfig()
    runs: list[dict[tuple[int, int], tuple[str, str]]] = []
    classes: Counter = Counter()

    def run(pool: SymEqPool) -> None:
        for _, res in pool.map([(statements, language)], config):
            runs.append({(p.i, p.j): (p.status, p.detail) for p in res.pairs})
            classes[json.dumps(res.classes)] += 1

    if args.fresh:
        for _ in range(args.runs):
            with SymEqPool(1) as pool:
                run(pool)
    else:
        with SymEqPool(1) as pool:
            for _ in range(args.runs):
                run(pool)
    load = os.getloadavg()
    print(
        f"{len(statements)} candidates ({language}), {args.runs} runs "
        f"({'a new pool each' if args.fresh else 'one pool'}), load {load[0]:.2f}: "
        f"{len(classes)} distinct class partitions"
    )
    for cls, n in classes.most_common():
        print(f"  {n:4d}x {cls}")
    vary = varying(runs)
    print(f"pairs whose verdict varies: {len(vary)} of {len(set().union(*runs))}")
    for (i, j), seen in vary.items():
        print(f"  ({i}, {j}): " + "; ".join(f"{n}x {s}{': ' + d if d else ''}" for (s, d), n in seen.most_common()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
