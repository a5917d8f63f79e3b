"""One problem's candidates through SymEq's pool N times: which pairs' verdicts vary between identical runs.

    nice python eval/symeq_repeat.py --formalalign 122 --runs 30          # FormalAlign miniF2F problem 122 (Lean)
    nice python eval/symeq_repeat.py --math task_test_gpt-4/1/algebra/problem_2058.json --runs 10
    nice python eval/symeq_repeat.py --math mathd_numbertheory_234 --runs 10  # a miniF2F problem of Table 1
    nice python eval/symeq_repeat.py --formalalign 122 --runs 10 --fresh  # a new worker process for every run
    nice python eval/symeq_repeat.py --formalalign all --runs 2           # all 243, listing those that vary

SymEq's budgets count Z3's steps and the CPU time of the thread that runs a query, so the same candidates should get
the same verdicts in every run on a quiet machine. A pair listed here does not: its verdicts, with how often each
came, are printed with their details. The runs go one after another in one worker process (each problem in a fresh
Z3 context), or with --fresh each in a new pool, so a new interpreter (another hash seed, other addresses). With
`--formalalign all` every problem is run, and only the problems whose verdicts vary are listed.
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


def formalalign_problems() -> list[list[str]]:
    """The candidates of every FormalAlign problem, numbered as `eval/rerank_eval.py --lean-formalalign` numbers
    them."""
    from atf.paths import shared_data_dir

    path = shared_data_dir() / "formalalign/data/minif2f/misalignment/test_misalignment.json"
    rows = [r for r in json.loads(path.read_text(encoding="utf-8")) if len(r["outputs"]) >= 2]
    return [[re.sub(r":=[\s\S]*$", "", o["response"]).rstrip() + " := by sorry" for o in r["outputs"]] for r in rows]


def formalalign_statements(index: int) -> list[str]:
    """The candidates of FormalAlign problem `index`."""
    problems = formalalign_problems()
    if not 0 <= index < len(problems):
        raise SystemExit(f"--formalalign: {index} is not in 0..{len(problems) - 1}")
    return problems[index]


def math_statements(pid: str) -> list[str]:
    """The candidates of a problem of Table 1's data: MATH (test and train) or miniF2F, by its id."""
    from atf.data.isabelle import load_math, load_minif2f

    for p in [*load_math("all"), *load_minif2f()]:
        if p.id == pid:
            return p.statements
    raise SystemExit(f"--math: no MATH or miniF2F problem {pid!r}")


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
    which.add_argument(
        "--formalalign", metavar="INDEX", help="a FormalAlign miniF2F problem (Lean), or 'all' for every one"
    )
    which.add_argument("--math", metavar="ID", help="a MATH or miniF2F problem of Table 1's data (Isabelle), by its id")
    ap.add_argument("--runs", type=int, default=10, help="how many times (default %(default)s)")
    ap.add_argument("--fresh", action="store_true", help="a new pool (a new worker process) for every run")
    args = ap.parse_args(argv)
    if args.runs < 2:
        ap.error("--runs must be at least 2")
    if args.formalalign == "all":
        problems, language = formalalign_problems(), "lean"
    elif args.formalalign is not None:
        try:
            index = int(args.formalalign)
        except ValueError:
            ap.error(f"--formalalign takes a problem's index or 'all', not {args.formalalign!r}")
        problems, language = [formalalign_statements(index)], "lean"
    else:
        problems, language = [math_statements(args.math)], "isabelle"
    config = SymEqConfig()
    runs: list[list[dict[tuple[int, int], tuple[str, str]]]] = [[] for _ in problems]
    classes: list[Counter] = [Counter() for _ in problems]

    def run(pool: SymEqPool) -> None:
        for idx, res in pool.map([(statements, language) for statements in problems], config):
            runs[idx].append({(p.i, p.j): (p.status, p.detail) for p in res.pairs})
            classes[idx][json.dumps(res.classes)] += 1

    if args.fresh:
        for _ in range(args.runs):
            with SymEqPool(1) as pool:
                run(pool)
    else:
        with SymEqPool(1) as pool:
            for _ in range(args.runs):
                run(pool)
    load = os.getloadavg()
    how = f"{args.runs} runs ({'a new pool each' if args.fresh else 'one pool'}), load {load[0]:.2f}"
    if len(problems) == 1:
        print(f"{len(problems[0])} candidates ({language}), {how}: {len(classes[0])} distinct class partitions")
        report(runs[0], classes[0], "")
        return 0
    vary = [i for i in range(len(problems)) if varying(runs[i]) or len(classes[i]) > 1]
    print(f"{len(problems)} problems ({language}), {how}: {len(vary)} with a pair whose verdict varies")
    for i in vary:
        print(f"problem {i}: {len(problems[i])} candidates, {len(classes[i])} distinct class partitions")
        report(runs[i], classes[i], "  ")
    return 0


def report(runs: list[dict[tuple[int, int], tuple[str, str]]], classes: Counter, indent: str) -> None:
    for cls, n in classes.most_common():
        print(f"{indent}  {n:4d}x {cls}")
    vary = varying(runs)
    print(f"{indent}pairs whose verdict varies: {len(vary)} of {len(set().union(*runs))}")
    for (i, j), seen in vary.items():
        details = "; ".join(f"{n}x {s}{': ' + d if d else ''}" for (s, d), n in seen.most_common())
        print(f"{indent}  ({i}, {j}): {details}")


if __name__ == "__main__":
    raise SystemExit(main())
