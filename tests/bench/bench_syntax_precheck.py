"""Pre-check pass rate over the real benchmark statements (miniF2F, ProofNet, PutnamBench, CombiBench,
FormalMATH-Lite), per benchmark, with every rejection printed.

    python tests/bench/bench_syntax_precheck.py

Statements are assembled as each PROVENANCE.md says: miniF2F/ProofNet `header + informal_prefix +
formal_statement + " sorry"`, PutnamBench/CombiBench the Lean file as is, FormalMATH-Lite
`autoformalization + " sorry"`. All splits are used (this is not an evaluation of a model).
"""

from __future__ import annotations

import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Iterator


def benchmark_statements(data: Path) -> Iterator[tuple[str, str, str]]:
    """(benchmark, problem name, full statement text)."""
    with open(data / "minif2f-deepseek" / "minif2f.jsonl", encoding="utf-8") as f:
        for r in map(json.loads, f):
            yield "miniF2F", r["name"], r["header"] + r["informal_prefix"] + r["formal_statement"] + " sorry"
    with open(data / "proofnet-deepseek" / "proofnet.jsonl", encoding="utf-8") as f:
        for r in map(json.loads, f):
            yield "ProofNet", r["name"], r["header"] + r["informal_prefix"] + r["formal_statement"] + " sorry"
    with open(data / "putnambench" / "putnambench_lean4_joined.jsonl", encoding="utf-8") as f:
        for r in map(json.loads, f):
            yield "PutnamBench", r["name"], r["lean_file"]
    with open(data / "combibench" / "combibench.jsonl", encoding="utf-8") as f:
        for r in map(json.loads, f):
            yield "CombiBench", r["theorem_name"], r["lean_file"]
    with open(data / "formalmath-lite" / "FormalMATH_lite.json", encoding="utf-8") as f:
        for r in json.load(f):
            yield "FormalMATH-Lite", r["theorem_names"], r["autoformalization"] + " sorry"


def main() -> int:
    from atf.lean import run_precheck
    from atf.paths import shared_data_dir

    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    warned: dict[str, int] = defaultdict(int)
    t0 = time.perf_counter()
    n = 0
    for bench, name, text in benchmark_statements(shared_data_dir()):
        report = run_precheck(text)
        totals[bench][0] += report.ok
        totals[bench][1] += 1
        warned[bench] += bool(report.warnings)
        n += 1
        if not report.ok:
            print(f"REJECTED {bench} {name}: " + "; ".join(map(str, report.errors)))
        for w in report.warnings:
            print(f"warning  {bench} {name}: {w}")
    dt = time.perf_counter() - t0
    print(f"\n{'benchmark':<16} {'pass':>6} {'total':>6} {'rate':>8} {'warned':>7}")
    for bench, (ok, total) in totals.items():
        print(f"{bench:<16} {ok:>6} {total:>6} {100 * ok / total:>7.1f}% {warned[bench]:>7}")
    all_ok = sum(v[0] for v in totals.values())
    print(f"{'all':<16} {all_ok:>6} {n:>6} {100 * all_ok / n:>7.1f}%   ({1000 * dt / n:.2f} ms per statement)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
