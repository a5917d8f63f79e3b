"""Seconds per problem of reranking at k = 10 and k = 16 (SymEq, SemCo, and the whole Reranker).

    nice python tests/bench/bench_rerank.py --problems 20

Lean 4: FormalAlign's miniF2F misalignment set (test split), which has exactly 16 candidates per
problem (the gold statement and 15 misaligned variants); k = 10 takes the first 10. SemCo embeds the
statements themselves (no informalizer, so no LLM time is included).
Isabelle: the paper's MATH test candidates (k = 10, GPT-4, with back-translations); k = 16 adds six
rewritten copies of existing candidates (variables renamed, assumptions reordered; one numeral changed
in every other copy), so the extra candidates are a mix of equivalent and different ones.
Timings depend on the machine's load: run it on an idle machine for figures worth quoting.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time

from atf.data.isabelle import load_math
from atf.paths import shared_data_dir
from atf.rerank import Reranker, SymEq
from atf.rerank.semco import SemCo, default_embedder


def lean_problems(n: int) -> list[tuple[str, list[str]]]:
    path = shared_data_dir() / "formalalign/data/minif2f/misalignment/test_misalignment.json"
    rows = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for row in rows:
        outs = [o["response"] for o in row["outputs"]]
        if len(outs) < 16:
            continue
        problem = row["input"].split("Statement in natural language:\n", 1)[-1].split("\nTranslate", 1)[0]
        out.append((problem, [re.sub(r":=[\s\S]*$", "", o).rstrip() + " := by sorry" for o in outs[:16]]))
        if len(out) == n:
            break
    return out


def rewrite(statement: str, rng: random.Random, change_numeral: bool) -> str:
    """A variant of an Isabelle candidate: one fixed variable renamed, assumptions reordered."""
    m = re.search(r"fixes\s+([A-Za-z]\w*)", statement)
    out = statement
    if m:
        old = m.group(1)
        out = re.sub(rf"(?<![\w']){re.escape(old)}(?![\w'])", old + "v", out)
    lines = out.split("\n")
    assume = [i for i, ln in enumerate(lines) if ln.lstrip().startswith(("and ", "assumes "))]
    if len(assume) >= 3:
        i, j = assume[1], assume[2]
        lines[i], lines[j] = lines[j], lines[i]
    out = "\n".join(lines)
    if change_numeral:
        nums = list(re.finditer(r"(?<![\w.])(\d+)(?![\w.])", out.split("shows", 1)[-1]))
        if nums:
            k = nums[rng.randrange(len(nums))]
            head, tail = out.split("shows", 1)
            tail = tail[:k.start()] + str(int(k.group(1)) + 1) + tail[k.end():]
            out = head + "shows" + tail
    return out


def isabelle_problems(n: int, k: int) -> list[tuple[str, list[str], list[str]]]:
    rng = random.Random(0)
    out = []
    for p in load_math("test")[:n]:
        stmts, backs = list(p.statements), list(p.back_translations)
        for e in range(k - len(stmts)):
            src = e % len(p.statements)
            stmts.append(rewrite(p.statements[src], rng, change_numeral=e % 2 == 1))
            backs.append(p.back_translations[src])
        out.append((p.problem, stmts[:k], backs[:k]))
    return out


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def report(label: str, sym: list[float], sem: list[float], total: list[float]) -> None:
    def q90(xs):
        return sorted(xs)[int(0.9 * (len(xs) - 1))]

    print(f"{label:26s} SymEq {statistics.fmean(sym):6.2f} s (p90 {q90(sym):6.2f})   "
          f"SemCo {statistics.fmean(sem):5.2f} s   whole Reranker {statistics.fmean(total):6.2f} s per problem")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--problems", type=int, default=20, help="problems per setting")
    from atf.cliargs import add_seconds

    add_seconds(ap, "--timeout-s", 0.3, "Z3 timeout per query", old_ms=("--timeout-ms",))
    args = ap.parse_args(argv)
    emb = default_embedder()
    emb.encode(["warm up"])
    timeout_ms = round(args.timeout_s * 1000)
    reranker = Reranker(embedder=emb, timeout_ms=timeout_ms)
    print(f"{args.problems} problems per setting, Z3 timeout {timeout_ms} ms per query")
    lean = lean_problems(args.problems)
    for k in (10, 16):
        sym, sem, tot = [], [], []
        for problem, cands in lean:
            c = cands[:k]
            sym.append(timed(lambda: SymEq("lean", timeout_ms).cluster(c)))
            emb._cache.clear()
            sem.append(timed(lambda: SemCo(embedder=emb).score(problem, c)))
            emb._cache.clear()
            tot.append(timed(lambda: reranker.rerank(problem, c, language="lean")))
        report(f"Lean 4 (FormalAlign) k={k}", sym, sem, tot)
    for k in (10, 16):
        sym, sem, tot = [], [], []
        for problem, cands, backs in isabelle_problems(args.problems, k):
            sym.append(timed(lambda: SymEq("isabelle", timeout_ms).cluster(cands)))
            emb._cache.clear()
            sem.append(timed(lambda: SemCo(embedder=emb).score(problem, cands, backs)))
            emb._cache.clear()
            tot.append(timed(lambda: reranker.rerank(problem, cands, backs, language="isabelle")))
        report(f"Isabelle (MATH) k={k}", sym, sem, tot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
