"""SymEq on metamorphic variants of gold benchmark statements (miniF2F / ProofNet, Lean 4; or Isabelle).

    nice python eval/symeq_metamorphic.py --split valid            # development split
    nice python eval/symeq_metamorphic.py --split test             # report split (nothing tuned on it)
    nice python eval/symeq_metamorphic.py --split valid --show 20  # print merged mutations / missed rewrites
    nice python eval/symeq_metamorphic.py --split valid --sites 4  # each mutation at 4 places
    nice python eval/symeq_metamorphic.py --lang isabelle --show 50  # Isabelle: MATH dev (see below)
    nice python eval/symeq_metamorphic.py --lang isabelle --split test   # Isabelle: Table 1's sets (report)

For each gold statement, every meaning-preserving rewrite of `atf.symeq.metamorphic` (rename variables,
reorder or split/merge hypotheses, move one into the conclusion, swap equation sides, ...) should land in
the statement's SymEq class, and no meaning-changing mutation (change a literal, a relation, a type, a
bound; drop a hypothesis) should. Prints the merge rate of rewrites and the merges of mutations by kind.
A mutation that merges because Z3 proves the original *and* the mutant outright (two true closed
propositions are logically equivalent) is counted apart from the false merges; every other merged mutation
is listed with --show for inspection.

With --lang isabelle the statements are Isabelle's (`atf.symeq.isabelle_metamorphic`): of each problem, its
first correct GPT-4 candidate (--nth-correct 1: its second distinct one, ...); --split valid reads the MATH dev
problems (the 397 outside the paper's 400, `load_math_dev`; human labels), --split test Table 1's sets (the
paper's 400 MATH problems, and miniF2F's 488 with the authors' ATP oracle as "correct"); --benchmarks does not
apply. A human-correct candidate need not be true in Isabelle (a wrong answer, `powr` at a
negative base), so two more kinds of merge are counted apart there: Z3 refutes both statements (the premises
fix a value and both conclusions are false of it: both universal closures are False), and either one's premises
are contradictory (such a candidate joins no SymEq class). The Lean golds are true theorems: there either would
point at a misreading, and stays a merge. These explaining checks run at --truth-timeout-s (3 s), not at SymEq's
--timeout-s: at 1 s their answer moved with the machine's load.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter, defaultdict
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from tqdm import tqdm

from atf.cliargs import add_seconds
from atf.data.benchmarks import load_benchmark
from atf.symeq import ir, isabelle_metamorphic, metamorphic
from atf.symeq.equivalence import SymEq, parse, truth

MODULES = {"lean": metamorphic, "isabelle": isabelle_metamorphic}


@lru_cache(maxsize=4096)
def _truth(text: str, timeout_ms: int, lang: str) -> str:
    """`truth` of a statement's text, asked once per worker (the gold statement is asked about for every merged
    mutant); "unknown" where it cannot be read."""
    try:
        return truth(parse(text, lang), timeout_ms)
    except Exception:  # noqa: BLE001 - undecided
        return "unknown"


@lru_cache(maxsize=4096)
def _contradictory(text: str, timeout_ms: int, lang: str) -> bool:
    """Whether Z3 proves the statement's premises contradictory (premises ⟹ False valid), asked once per worker."""
    try:
        st = parse(text, lang)
        return bool(st.premises) and truth(replace(st, conclusion=ir.FALSE), timeout_ms) == "valid"
    except Exception:  # noqa: BLE001 - undecided: not contradictory
        return False


def both_are(status: str, a: str, b: str, timeout_ms: int, lang: str) -> bool:
    """Whether Z3 finds both statements `status`: "valid" (proves both) or "invalid" (refutes both: a counter-model
    of each). `a` is asked first, `b` only if `a` is."""
    return _truth(a, timeout_ms, lang) == status and _truth(b, timeout_ms, lang) == status


def vacuous(a: str, b: str, timeout_ms: int, lang: str) -> bool:
    """Whether Z3 proves either statement's premises contradictory (such a candidate joins no SymEq class)."""
    return _contradictory(a, timeout_ms, lang) or _contradictory(b, timeout_ms, lang)


def check_statement(gold: str, timeout_ms: int, lang: str = "lean", sites: int = 1, truth_ms: int = 3000) -> dict:
    """Every rewrite's and mutation's verdict against the gold statement (run in a worker process), and the texts
    of the missed rewrites and merged mutations (to list with --show).

    SymEq decides each pair at `timeout_ms` per Z3 query, as the reranker does; a merged mutation is then explained
    (both statements true, both false, one's premises contradictory) at `truth_ms`: those checks only sort the
    merges, and at the reranker's timeout their answer moved with the machine's load from run to run."""
    m = MODULES[lang]
    symeq = SymEq(lang, timeout_ms=timeout_ms)
    try:
        parse(gold, lang)
    except Exception:  # noqa: BLE001 - reported as a count
        return {"unparsed": True}
    rw, mu, texts = {}, {}, {}
    for kind, text in m.variants(gold, m.REWRITES).items():
        rw[kind] = symeq.compare(gold, text).equivalent
        if not rw[kind]:
            texts[kind] = text
    for kind, text in m.variants(gold, m.MUTATIONS, sites).items():
        mu[kind] = (
            "apart"
            if not symeq.compare(gold, text).equivalent
            else "both valid"
            if both_are("valid", gold, text, truth_ms, lang)
            else "both false"
            if lang == "isabelle" and both_are("invalid", gold, text, truth_ms, lang)
            else "vacuous"
            if lang == "isabelle" and vacuous(gold, text, truth_ms, lang)
            else "merged"
        )
        if mu[kind] == "merged":
            texts[kind] = text
    return {"unparsed": False, "rewrites": rw, "mutations": mu, "texts": texts}


def _serve(conn, timeout_ms: int, lang: str, sites: int, truth_ms: int) -> None:
    while (gold := conn.recv()) is not None:
        conn.send(check_statement(gold, timeout_ms, lang, sites, truth_ms))


ISABELLE_SETS = {"valid": ("math-dev",), "test": ("math-400", "minif2f")}


def isabelle_golds(name: str, limit: int | None, nth: int = 0) -> dict[str, str]:
    """id -> the nth (from 0) distinct correct candidate of each problem of an Isabelle set that has one: math-dev
    (the MATH problems outside the paper's 400, human labels; to develop on), math-400 (the paper's 400) or minif2f
    (all 488, correct = the authors' ATP oracle): the last two are Table 1's sets, to report on only."""
    from atf.data.isabelle import load_math, load_math_dev, load_minif2f

    problems = {
        "math-dev": load_math_dev,
        "math-400": lambda: [q for q in load_math("test") if q.in_paper_400],
        "minif2f": lambda: load_minif2f("all"),
    }[name]()
    out = {}
    for p in problems[:limit]:
        correct = list(dict.fromkeys(c.statement for c in p.candidates if c.correct))
        if nth < len(correct):
            out[p.id] = correct[nth]
    return out


def bounded(
    golds: list[str], timeout_ms: int, deadline_s: float, lang: str = "lean", sites: int = 1, truth_ms: int = 3000
):
    """(gold, result or None) for each statement, one worker process killed when a statement overruns
    `deadline_s` (Z3 does not always stop at its own timeout)."""
    import multiprocessing as mp

    ctx = mp.get_context("fork")
    proc = conn = None
    for gold in golds:
        if proc is None:
            conn, child = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(child, timeout_ms, lang, sites, truth_ms), daemon=True)
            proc.start()
        conn.send(gold)
        if conn.poll(deadline_s):
            yield gold, conn.recv()
        else:
            proc.kill()
            proc.join()
            proc = None
            yield gold, None
    if proc is not None:
        conn.send(None)
        proc.join(timeout=5)


def options(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, checked, with the per-statement deadline filled in."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument(
        "--split",
        default="valid",
        choices=("valid", "test"),
        help="valid to develop on, test to report (default %(default)s)",
    )
    p.add_argument("--benchmarks", default="minif2f,proofnet", help="comma-separated benchmark names")
    add_seconds(p, "--timeout-s", 1.0, "Z3 timeout per query of SymEq's verdict")
    add_seconds(
        p,
        "--truth-timeout-s",
        3.0,
        "Z3 timeout per query of the checks that explain a merged mutation (both true, both false, contradictory "
        "premises); longer than --timeout-s so that their answer does not move with the machine's load",
    )
    p.add_argument("--limit", type=int, default=None, help="at most this many statements per benchmark")
    p.add_argument(
        "--ids",
        type=Path,
        default=None,
        metavar="FILE",
        help="only the statements listed in FILE, one `benchmark/split/id` per line (a round re-reads the statements "
        "whose reading it changed: eval/symeq_reread/)",
    )
    add_seconds(
        p,
        "--deadline-s",
        None,
        "wall-clock bound per gold statement (all its variants); a worker past it is killed, and the statement is "
        "listed as skipped (when not given: 60 s for each place of --sites)",
    )
    p.add_argument("--show", type=int, default=0, help="print this many merged mutations and missed rewrites")
    p.add_argument(
        "--lang",
        default="lean",
        choices=tuple(MODULES),
        help="lean (default) or isabelle (Table 1's GPT-4 candidates: see above)",
    )
    p.add_argument(
        "--nth-correct", type=int, default=0, help="isabelle: probe the nth distinct correct candidate (default 0)"
    )
    p.add_argument(
        "--sites",
        type=int,
        default=1,
        help="each mutation at up to this many places of a statement (default 1: the first literal, the first `+`, "
        "...; the others spread over the places it applies to); the per-kind counts add them up",
    )
    args = p.parse_args(argv)
    if args.sites < 1:
        p.error("--sites must be at least 1")
    if args.ids is not None and args.lang != "lean":
        p.error("--ids lists Lean statements (benchmark/split/id)")
    if args.ids is not None and not args.ids.is_file():
        p.error(f"--ids: no file {args.ids}")
    if args.deadline_s is None:
        args.deadline_s = 60.0 * args.sites
    return args


def main(argv: list[str] | None = None) -> int:
    args = options(argv)
    t0 = time.perf_counter()
    m = MODULES[args.lang]
    listed = set()
    if args.ids is not None:
        listed = {line.strip() for line in args.ids.read_text(encoding="utf-8").splitlines() if line.strip()}
    for bench in args.benchmarks.split(",") if args.lang == "lean" else ISABELLE_SETS[args.split]:
        if args.lang == "lean":
            golds = {p.id: p.formal.removeprefix(p.header) for p in load_benchmark(bench, args.split)[: args.limit]}
            if args.ids is not None:
                golds = {k: v for k, v in golds.items() if f"{bench}/{args.split}/{k}" in listed}
        else:
            golds = isabelle_golds(bench, args.limit, args.nth_correct)
        rw: dict[str, Counter] = defaultdict(Counter)
        mu: dict[str, Counter] = defaultdict(Counter)
        missed, merged, late = [], [], []
        unparsed = 0
        by_text = {g: pid for pid, g in golds.items()}
        timeout_ms, truth_ms = round(args.timeout_s * 1000), round(args.truth_timeout_s * 1000)
        for gold, res in tqdm(
            bounded(list(golds.values()), timeout_ms, args.deadline_s, args.lang, args.sites, truth_ms),
            total=len(golds),
            desc=f"{bench}",
        ):
            pid = by_text[gold]
            if res is None:
                late.append(pid)
                continue
            if res["unparsed"]:
                unparsed += 1
                continue
            texts = res["texts"]
            for kind, ok in res["rewrites"].items():
                rw[kind]["merged" if ok else "missed"] += 1
                if not ok:
                    missed.append((pid, kind, texts[kind]))
            for kind, verdict in res["mutations"].items():
                mu[kind.split("#")[0]][verdict] += 1
                if verdict == "merged":
                    merged.append((pid, kind, texts[kind]))
        n_rw = sum(sum(c.values()) for c in rw.values())
        n_rw_ok = sum(c["merged"] for c in rw.values())
        n_mu = sum(sum(c.values()) for c in mu.values())
        print(
            f"\n{bench} {args.split}: {len(golds)} gold statements "
            f"({unparsed} unparsed, skipped; "
            f"{len(late)} past the {args.deadline_s:.0f} s bound, skipped: {', '.join(late) or 'none'})"
        )
        print(f"  meaning-preserving rewrites merged: {n_rw_ok}/{n_rw} ({100 * n_rw_ok / max(n_rw, 1):.1f}%)")
        for kind in m.REWRITES:
            c = rw.get(kind, Counter())
            print(f"    {kind:18s} {c['merged']:4d}/{c['merged'] + c['missed']:<4d}")
        print(
            f"  meaning-changing mutations merged (each a false merge unless the pair is equivalent after all; "
            f"listed with --show): {sum(c['merged'] for c in mu.values())}/{n_mu}; "
            f"merged because Z3 proves both statements: {sum(c['both valid'] for c in mu.values())}; "
            f"refutes both: {sum(c['both false'] for c in mu.values())}; "
            f"because one's premises are contradictory: {sum(c['vacuous'] for c in mu.values())}"
        )
        for kind in m.MUTATIONS:
            c = mu.get(kind, Counter())
            print(
                f"    {kind:18s} merged {c['merged']:3d}, both valid {c['both valid']:3d}, "
                f"both false {c['both false']:3d}, vacuous {c['vacuous']:3d}, apart {c['apart']:4d}"
            )
        for pid, kind, text in merged[: args.show]:
            print(f"  MERGED mutation {kind} of {pid}: {text}")
        for pid, kind, text in missed[: args.show]:
            print(f"  missed rewrite {kind} of {pid}: {text}")
    print(f"\n{time.perf_counter() - t0:.1f} s; load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
