"""Would CVC5 pay as a second opinion on what Z3 leaves open? Measured on the DEV set only: the 397 MATH problems
outside the paper's 400, k = 10 GPT-4 Isabelle candidates (issue 10 asks to try it "if it pays").

    pip install cvc5 && nice python eval/symeq_cvc5_dev.py            # all dev problems
    nice python eval/symeq_cvc5_dev.py --limit 50 --timeout-s 0.3

SymEq runs as usual, in this process (one problem, precalculus/problem_829, is skipped: Z3 ignores its timeout
there for minutes, which the worker pool would kill). Every query Z3 answers "unknown" is written out as SMT-LIB
(`z3.Solver.to_smt2`) and given to CVC5 with the same time limit (at least --timeout-s); SymEq's own verdicts
are not changed. Printed: CVC5's answers (unsat: the query is valid, a proof Z3 missed; sat: a counter-model;
unknown; or an export CVC5 cannot read) with their count and seconds, and the load average.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from collections import Counter
from pathlib import Path

from tqdm import tqdm

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from atf.cliargs import add_seconds
from atf.data.isabelle import load_math_dev

SKIP = "task_test_gpt-4/5/precalculus/problem_829.json"


def cvc5_answer(smt2: str, timeout_ms: int) -> str:
    """CVC5's answer to an SMT-LIB script (`sat`, `unsat`, `unknown (...)`, or `unreadable: ...`)."""
    import cvc5

    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    solver.setOption("tlimit-per", str(timeout_ms))
    solver.setLogic("ALL")
    symbols = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, symbols)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, smt2, "query")
    answer = "no check-sat"
    try:
        while not (cmd := parser.nextCommand()).isNull():
            out = cmd.invoke(solver, symbols).strip()
            answer = out or answer
    except RuntimeError as err:  # cvc5's parse errors
        return "unreadable: " + str(err).split("\n")[0][:50]
    return answer


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=None, help="first N dev problems (default: all)")
    add_seconds(ap, "--timeout-s", 0.15, "CVC5's least time per query")
    args = ap.parse_args(argv)
    try:
        import cvc5  # noqa: F401
    except ImportError:
        ap.error("CVC5 is not installed: pip install cvc5")
    import z3

    least_ms = round(args.timeout_s * 1000)
    equivalence = importlib.import_module("atf.symeq.equivalence")  # (the package exports a function of that name)
    z3_check = equivalence.check_valid
    counts: Counter = Counter()
    seconds: Counter = Counter()

    def check_valid(tr, formula, timeout_ms, show_vars, models=None, *rest):  # rest: the rate, the wall factor
        verdict = z3_check(tr, formula, timeout_ms, show_vars, models, *rest)
        if verdict.status == "unknown":
            s = z3.Solver()
            s.add(*tr.axioms, *tr.domain, z3.Not(formula))
            t0 = time.perf_counter()
            answer = cvc5_answer(s.to_smt2(), max(timeout_ms, least_ms))
            key = answer.split(":")[0] if answer.startswith("unreadable") else answer
            counts[key] += 1
            seconds[key] += time.perf_counter() - t0
        return verdict

    equivalence.check_valid = check_valid
    symeq = equivalence.SymEq("isabelle")
    problems = [p for p in load_math_dev()[: args.limit] if p.id != SKIP]
    for p in tqdm(problems, desc="SymEq + CVC5", unit="problem"):
        symeq.cluster(p.statements)
    total = sum(counts.values())
    print(f"{len(problems)} dev problems; {total} queries Z3 left unknown; CVC5 (>= {least_ms} ms each):")
    for answer, n in counts.most_common():
        print(f"  {n:5d}  {seconds[answer]:7.1f} s  {answer}")
    print(f"(load {os.getloadavg()[0]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
