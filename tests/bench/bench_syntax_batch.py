"""Grouped batch compilation vs one-by-one, measured against the protocol stand-in.

    python tests/bench/bench_syntax_batch.py                 # N=200 statements over H=4 headers
    python tests/bench/bench_syntax_batch.py --crash         # also inject a statement that crashes the REPL
    python tests/bench/bench_syntax_batch.py --hung --workers 2 --timeout-s 5   # 7 clean statements + 1 that hangs

This runs tests/lean_standin.py, a test double that speaks the Lean REPL protocol, NOT Lean: its time
model is a fixed cost per header load (--import-delay-s, standing in for `import Mathlib`), per command
(--cmd-delay-s) and per declaration (--decl-delay-s). The counts (header loads, round trips) are what the
driver would do with a real REPL; the wall times only show how those counts translate under that model.

Statements are real miniF2F statements (all splits; their text only sets command sizes) spread over H
headers; every 20th gets an error marker and one swallows the rest of its command (like an unterminated
comment), so attribution and recovery are exercised. Modes:
  grouped            SyntaxChecker as shipped: header env loaded once, up to --group-size statements per command
  one-by-one         one command per statement on the cached header env
  one-by-one+import  one command per statement, each importing its header again (no env reuse)
Verdicts of every mode are compared with one-by-one's; a mismatch is printed.

--hung sends 7 clean statements together with one that hangs Lean (the stand-in sleeps for an hour) and
reports how long their verdicts take: the whole batch through SyntaxChecker, and, on one REPL, when each
verdict is known (GroupChecker's on_verdict). Issue 9's target on a 2-core machine with 2 workers and
--timeout-s 5: all 8 verdicts within 12 s (before: 43 s, when a timed-out group was bisected).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
STANDIN = HERE.parent / "lean_standin.py"
HEADERS = [
    ("Mathlib",),
    ("Mathlib", "Aesop"),
    ("Mathlib.Tactic",),
    ("Mathlib.Analysis.SpecialFunctions.Pow.Real",),
    ("Mathlib.Data.Real.Basic",),
    ("Mathlib.NumberTheory.Basic",),
    ("Mathlib.Combinatorics.Basic",),
    ("Mathlib.Topology.Basic",),
]


def make_statements(n: int, n_headers: int, crash: bool) -> list[str]:
    from atf.paths import shared_data_dir

    rows = [
        json.loads(line) for line in open(shared_data_dir() / "minif2f-deepseek" / "minif2f.jsonl", encoding="utf-8")
    ]
    out = []
    for i in range(n):
        r = rows[i % len(rows)]
        header = "".join(f"import {m}\n" for m in HEADERS[i % n_headers])
        body = r["formal_statement"].rstrip() + " sorry"
        if i % 20 == 7:
            body = _mark(body, "STANDIN_ERROR")
        if i == n // 2:
            body = _mark(body, "STANDIN_SWALLOW")
        if crash and i == n // 3:
            body = _mark(body, "STANDIN_CRASH")
        out.append(
            header
            + "\nset_option maxHeartbeats 400000\n\nopen BigOperators Real Nat Topology Rat\n\n"
            + r["informal_prefix"]
            + body
            + f"\n-- variant {i}\n"
        )
    return out


def _mark(body: str, marker: str) -> str:
    """Put a stand-in marker into the conclusion (before the body's `:=`)."""
    head, sep, tail = body.rpartition(":=")
    return f"{head}∧ {marker} {sep}{tail}"


def summary(results) -> list[tuple]:
    return [(r.ok, r.failure, tuple(r.errors)) for r in results]


SANDBOX = "bwrap"  # set from --sandbox


def run_checker(argv, statements, **kwargs):
    from atf.lean import SyntaxChecker

    t0 = time.perf_counter()
    with SyntaxChecker(argv, sandbox=SANDBOX, **kwargs) as checker:
        results = checker.check_many(statements)
        stats = checker.stats()
    return results, stats, time.perf_counter() - t0


def run_fresh_imports(argv, statements, timeout_s: float):
    """No env reuse: every statement is sent with its imports (what a naive driver does)."""
    from atf.lean import LeanRepl
    from atf.lean.protocol import CommandResponse

    t0 = time.perf_counter()
    oks = []
    with LeanRepl(argv, sandbox=SANDBOX) as repl:
        for s in statements:
            try:
                resp = repl.command(s, None, timeout_s)
                oks.append(isinstance(resp, CommandResponse) and not resp.errors)
            except Exception:  # noqa: BLE001 - a crash is a failed statement here
                oks.append(False)
        stats = repl.stats
    return oks, stats, time.perf_counter() - t0


def run_hung(argv, n_clean: int, hung_at: int, workers: int, timeout_s: float) -> None:
    from atf.lean import LeanRepl, SyntaxChecker, parse_statement
    from atf.lean.batch import GroupChecker, prepare

    rows = make_statements(n_clean + 1, 1, crash=False)
    clean = [s.replace("STANDIN_SWALLOW", "1").replace("STANDIN_ERROR", "1") for s in rows[:n_clean]]
    hung = _mark(rows[n_clean].rsplit("\n-- variant", 1)[0], "STANDIN_SLOW") + "\n-- hung\n"
    stmts = clean[:hung_at] + [hung] + clean[hung_at:]
    print(
        f"hung-statement case: {n_clean} clean statements + 1 that hangs (at position {hung_at}), "
        f"--timeout-s {timeout_s:g}, {workers} worker(s)"
    )
    t0 = time.perf_counter()
    with SyntaxChecker(argv + ["--slow-s", "3600"], workers=workers, timeout_s=timeout_s, sandbox=SANDBOX) as checker:
        results = checker.check_many(stmts)
        stats = checker.stats()
    wall = time.perf_counter() - t0
    failures = [r.failure for r in results]
    print(
        f"  SyntaxChecker.check_many: all {len(stmts)} verdicts in {wall:.2f} s; failures {failures}; "
        f"timeouts {stats.timeouts}, REPL starts {stats.starts}, round trips {stats.round_trips}"
    )
    items = [prepare(parse_statement(s)) for s in stmts]
    known: list[tuple[int, float]] = []
    with LeanRepl(argv + ["--slow-s", "3600"], sandbox=SANDBOX) as repl:
        t0 = time.perf_counter()
        repl.header_env(items[0].header, 60)
        GroupChecker(repl, timeout_s=timeout_s).check(
            items[0].header, items, on_verdict=lambda i, v: known.append((i, time.perf_counter() - t0))
        )
    clean_times = [t for i, t in known if i != hung_at]
    print(
        f"  one REPL, verdicts as they are known: clean ones at {', '.join(f'{t:.1f}' for t in clean_times)} s; "
        f"the hung one at {dict(known)[hung_at]:.1f} s"
    )


def main() -> int:
    from atf.cliargs import add_seconds

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=200, help="statements")
    ap.add_argument("--headers", type=int, default=4, help=f"distinct headers (at most {len(HEADERS)})")
    ap.add_argument("--group-size", type=int, default=32, help="statements per grouped command (default %(default)s)")
    ap.add_argument("--workers", type=int, default=1, help="REPL processes (default %(default)s)")
    add_seconds(ap, "--import-delay-s", 0.25, "stand-in seconds per header load", old_s=("--import-delay",))
    add_seconds(ap, "--cmd-delay-s", 0.02, "stand-in seconds per command", old_s=("--cmd-delay",))
    add_seconds(ap, "--decl-delay-s", 0.005, "stand-in seconds per declaration", old_s=("--decl-delay",))
    ap.add_argument("--crash", action="store_true", help="one statement crashes the REPL (compares singles/bisect)")
    ap.add_argument("--skip-fresh", action="store_true", help="skip the slow one-by-one+import mode")
    ap.add_argument("--hung", action="store_true", help="only the hung-statement case (see above)")
    ap.add_argument("--hung-at", type=int, default=3, help="position of the hung statement among the 8")
    add_seconds(ap, "--timeout-s", 5.0, "seconds Lean may spend on one statement", old_s=("--timeout",))
    ap.add_argument("--sandbox", choices=("bwrap", "none"), default="bwrap", help="how each REPL is confined")
    args = ap.parse_args()
    global SANDBOX
    SANDBOX = args.sandbox
    if not 1 <= args.headers <= len(HEADERS):
        ap.error(f"--headers must be in 1..{len(HEADERS)}")

    argv = [
        sys.executable,
        str(STANDIN),
        "--import-delay",
        str(args.import_delay_s),
        "--cmd-delay",
        str(args.cmd_delay_s),
        "--decl-delay",
        str(args.decl_delay_s),
    ]
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)")
    if args.hung:
        run_hung(argv, 7, args.hung_at, args.workers, args.timeout_s)
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        return 0
    statements = make_statements(args.n, args.headers, args.crash)
    print(
        f"bench_syntax_batch: N={args.n} statements over H={args.headers} headers, group size {args.group_size}, "
        f"{args.workers} worker(s)"
    )
    print(
        f"against the protocol STAND-IN (tests/lean_standin.py), not Lean: {args.import_delay_s} s per header load, "
        f"{args.cmd_delay_s} s per command, {args.decl_delay_s} s per declaration; sandbox {args.sandbox}\n"
    )

    modes = [("grouped", dict(max_group_size=args.group_size, workers=args.workers))]
    if args.crash:
        modes.append(
            ("grouped, split=bisect", dict(max_group_size=args.group_size, workers=args.workers, split="bisect"))
        )
    modes.append(("one-by-one", dict(group=False, workers=args.workers)))
    rows = {}
    for name, kwargs in modes:
        results, stats, wall = run_checker(argv, statements, **kwargs)
        rows[name] = (summary(results), stats, wall)
    reference = rows["one-by-one"][0]
    print(
        f"{'mode':<24} {'header loads':>12} {'round trips':>12} {'restarts':>9} {'wall s':>8} {'ok':>5} "
        f"{'verdicts = one-by-one':>22}"
    )
    for name, (summ, stats, wall) in rows.items():
        same = sum(a == b for a, b in zip(summ, reference))
        ok = sum(s[0] for s in summ)
        print(
            f"{name:<24} {stats.header_loads:>12} {stats.round_trips:>12} {stats.starts - args.workers:>9} "
            f"{wall:>8.2f} {ok:>5} {same:>15}/{len(summ)}"
        )
        for i, (a, b) in enumerate(zip(summ, reference)):
            if a != b:
                print(f"   MISMATCH statement {i}: {a} vs one-by-one {b}")
    if not args.skip_fresh:
        oks, stats, wall = run_fresh_imports(argv, statements, timeout_s=60)
        same = sum(a == b[0] for a, b in zip(oks, reference))
        print(
            f"{'one-by-one+import':<24} {stats.round_trips:>12} "
            f"{stats.round_trips:>12} {stats.starts - 1:>9} {wall:>8.2f} {sum(oks):>5} {same:>15}/{len(oks)}"
            "  (ok flags only)"
        )
    g = rows["grouped"]
    o = rows["one-by-one"]
    print(
        f"\ngrouped vs one-by-one: {o[1].round_trips / g[1].round_trips:.1f}x fewer round trips, "
        f"{o[2] / g[2]:.1f}x less wall time (stand-in time model)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
