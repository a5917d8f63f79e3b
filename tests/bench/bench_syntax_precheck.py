"""Pre-check figures: its worst case per KB over adversarial inputs, and its pass rate over the real
benchmark statements (miniF2F, ProofNet, PutnamBench, CombiBench, FormalMATH-Lite), per benchmark, with
every rejection printed.

    python tests/bench/bench_syntax_precheck.py            # both
    python tests/bench/bench_syntax_precheck.py --worst    # only the adversarial timing

Timings are in-process CPU and wall time, best of 5, and depend on the machine's load: the load average is
printed beside them.

Statements are assembled as each PROVENANCE.md says: miniF2F/ProofNet `header + informal_prefix +
formal_statement + " sorry"`, PutnamBench/CombiBench the Lean file as is, FormalMATH-Lite
`autoformalization + " sorry"`. All splits are used (this is not an evaluation of a model).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path


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


# Adversarial inputs: each repeats one construct up to TARGET_BYTES, so the cost per KB shows any
# super-linear path (the issue found `@[simp]` x 5,500 and `open Nat in` x 4,000 taking 15-60 s).
TARGET_BYTES = 50_000
_HEAD = "import Mathlib\n"
_TAIL = "theorem t : (1 : ℕ) = 1 := by sorry\n"
ADVERSARIAL: dict[str, str] = {
    "@[simp] prefixes": "@[simp] ",
    "@[simp] lines": "@[simp]\n",
    "open Nat in": "open Nat in\n",
    "open Nat in (one line)": "open Nat in ",
    "set_option ... in": "set_option maxHeartbeats 0 in\n",
    "native tokens": "native ",
    "decide +native": "decide +native ",
    "#eval lines": "#eval 1\n",
    "#s card terms": "(#s) + ",
    "open brackets (": "(",
    "close brackets )": ")",
    "mismatched ([": "([",
    "anonymous ⟨": "⟨",
    "attribute brackets @[": "@[",
    "nested comments /-": "/- ",
    "comment closers -/": "-/ ",
    "line comments": "-- x\n",
    "doc comments": "/-- d -/\n",
    'quotes "': '"',
    "strings with braces": '"{x}" ',
    "ambiguous braces": '"{\\" }" ',
    "s! interpolation nesting": 's!"{',
    "s! interpolation flat": 's!"a{x}b" ',
    "char literals": "'a' ",
    "lone quotes": "' ",
    "image notation ''": "f '' s ",
    "raw strings r#": 'r#"a"# ',
    'raw unterminated r##"': 'r##"',
    "guillemets «": "«",
    "guillemet names": "«IO».x ",
    "identifiers": "abcdefgh ",
    "dotted identifier": "a.",
    "numbers": "12345 ",
    "namespace": "namespace A\n",
    "end": "end\n",
    "mutual": "mutual\n",
    "section/end": "section\nend\n",
    "noncomputable def": "noncomputable def f : ℕ := 1\n",
    "aesop clauses": "aesop (add safe tactic t) ",
    "aesop nested": "aesop (",
    "theorem lines": "theorem x : True := by sorry\n",
    "sorry": "sorry ",
    "markdown fences": "```\n",
    "tabs": "\t",
    "backslashes": "\\",
    "newlines": "\n",
    "unicode symbols": "∀∃ℝ→⟨⟩",
    "set_option tokens": "set_option ",
    "name literals": "`IO.x ",
    "quotations": "`(",
    "structure instances": "{ x := ",
    "primed names": "h' ",
    "escaped quotes": '"\\"',
    "lambdas": "fun x => ",
    "theorem heads": "theorem t : ",
    "universe args .{u}": ".{u} ",
}


def adversarial_inputs(target: int = TARGET_BYTES):
    """(name, text) of about `target` UTF-8 bytes each: a header, a construct repeated, a theorem."""
    for name, unit in ADVERSARIAL.items():
        n = max(1, (target - len(_HEAD) - len(_TAIL)) // len(unit.encode()))
        yield name, _HEAD + unit * n + "\n" + _TAIL


def worst_case(run, target: int = TARGET_BYTES, repeats: int = 5) -> list[tuple[str, int, float, float]]:
    """(name, bytes, CPU seconds, wall seconds), each the best of `repeats`, per adversarial input, by CPU
    time, slowest first. CPU time is what the pre-check costs; wall time adds the machine's load."""
    rows = []
    for name, text in adversarial_inputs(target):
        timings = [_timed(run, text) for _ in range(repeats)]
        rows.append((name, len(text.encode()), min(t[0] for t in timings), min(t[1] for t in timings)))
    return sorted(rows, key=lambda r: -r[2])


def _timed(run, text: str) -> tuple[float, float]:
    c0, t0 = time.process_time(), time.perf_counter()
    run(text)
    return time.process_time() - c0, time.perf_counter() - t0


def print_worst_case() -> None:
    from atf.lean import run_precheck

    load = os.getloadavg()
    rows = worst_case(run_precheck)
    print(
        f"pre-check on adversarial inputs (~{TARGET_BYTES // 1000} KB each, best of 5; load average "
        f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs)"
    )
    print(f"{'input':<28} {'bytes':>7} {'CPU ms':>8} {'ms/KB':>7} {'wall ms':>8}")
    for name, size, cpu, wall in rows:
        print(f"{name:<28} {size:>7} {1000 * cpu:>8.1f} {1000 * cpu / (size / 1000):>7.2f} {1000 * wall:>8.1f}")
    name, size, cpu, wall = rows[0]
    print(
        f"worst case: {name!r}: {1000 * cpu:.1f} ms CPU ({1000 * wall:.1f} ms wall) for {size / 1000:.1f} KB = "
        f"{1000 * cpu / (size / 1000):.2f} ms CPU per KB\n"
    )


def main() -> int:
    print_worst_case()
    if "--worst" in sys.argv[1:]:
        return 0
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
