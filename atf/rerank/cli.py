"""`atf rerank`: score, group and select among k candidate formalizations of a problem."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from atf.symeq.config import SymEqConfig

EPILOG = """\
input (--input FILE, or stdin with -):
  a JSON object   {"problem": "...", "candidates": ["theorem ...", ...],
                   "back_translations": [...] (optional), "language": "lean" (optional), "id": "..." (optional)}
  a JSON list of such objects, or JSONL with one per line (batch mode: results are appended to --output,
  and problems already there are skipped, so an interrupted run resumes)
  a JSON list of strings: the candidates, with --problem giving the problem

examples:
  atf rerank --input cands.json                       # Lean candidates, log-combination, alpha 0.5
  atf rerank --input cands.json --explain             # also print why classes differ (counterexamples)
  atf rerank --input isa.jsonl --language isabelle -o ranked.jsonl
  atf rerank --input cands.json --informalizer smollm2 --combine linear --alpha 0.7 -n 3
SemCo embeds the given back-translations; without them it informalizes with --informalizer, or, when
none is given, embeds the statements themselves.
"""


def add_parser(sub) -> None:
    from atf.cliargs import add_engine, add_input, add_output, add_seconds, default_of
    from atf.rerank.reranker import Reranker

    p = sub.add_parser(
        "rerank",
        help="rank k candidate formalizations by SymEq + SemCo",
        description="Group candidates into classes of symbolically equivalent statements (Z3, with Lean's or "
        "Isabelle's semantics), score each by its class size (SymEq) and by how well its "
        "informalization matches the problem (SemCo, MiniLM cosine), combine, and select n@k.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input(p, "JSON/JSONL file with problem and candidates ('-' = stdin)", required=True)
    p.add_argument("--problem", help="the problem text, when the input is a bare list of candidates")
    p.add_argument(
        "--language",
        choices=("lean", "isabelle"),
        default=None,
        help="formal language of the candidates (default: the input's, else lean)",
    )
    p.add_argument(
        "--combine",
        choices=("log", "linear", "quadratic"),
        default=default_of(Reranker, "combine"),
        help="how SymEq and SemCo are combined, each first softmaxed over the k candidates: log "
        "(alpha*log p_sym + (1-alpha)*log p_sem), linear (alpha*p_sym + (1-alpha)*p_sem) or "
        "quadratic (the same on squares) (default %(default)s)",
    )
    p.add_argument(
        "--alpha",
        type=float,
        default=default_of(Reranker, "alpha"),
        help="weight of SymEq (1: SymEq only, 0: SemCo only; default %(default)s)",
    )
    p.add_argument("-n", type=int, default=1, help="how many candidates to select (n@k, one per class; default 1)")
    add_seconds(
        p,
        "--timeout-s",
        default_of(SymEqConfig, "timeout_ms") / 1000,
        f"Z3's budget per query in nominal seconds: a resource limit of {SymEqConfig.rlimit_per_ms} Z3 steps per ms "
        "(SymEqConfig.rlimit_per_ms), so verdicts are the same on any machine and load (soft: Z3 may overrun it; "
        "the budgets below are hard)",
        old_ms=("--timeout-ms",),
    )
    add_seconds(
        p,
        "--budget-s",
        default_of(SymEqConfig, "problem_budget_s"),
        "hard wall clock of SymEq per problem: pairs undecided by then stay unmerged",
    )
    add_seconds(
        p,
        "--step-budget-s",
        default_of(SymEqConfig, "step_budget_s"),
        "hard wall clock per pair (or per candidate read), plus the allowance of each clock retry the pair starts: "
        "an overrunning one is killed and counts as undecided",
    )
    add_engine(p, "--informalizer", "engine for SemCo informalization (default: none, see below)")
    p.add_argument(
        "--lean",
        action="store_true",
        help="also try Lean tactics for pairs Z3 cannot decide (needs a configured Lean REPL; see atf syntax-check)",
    )
    p.add_argument("--explain", action="store_true", help="print the pair verdicts and counterexamples")
    add_output(p, "append JSON results here, one line per problem (resumable)", old=("--out",))
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=run)


def _read(args) -> list[dict]:
    text = sys.stdin.read() if args.input == "-" else Path(args.input).read_text(encoding="utf-8")
    text = text.strip()
    if not text:
        raise ValueError("empty input")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        from atf.jsonl import read_text_jsonl

        data = [row for _, row in read_text_jsonl(text, args.input)]
    if isinstance(data, dict):
        data = [data]
    if isinstance(data, list) and data and all(isinstance(x, str) for x in data):
        if not args.problem:
            raise ValueError("the input is a list of candidates: give the problem with --problem")
        data = [{"problem": args.problem, "candidates": data}]
    items = []
    for k, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("candidates"), list) or not item["candidates"]:
            raise ValueError(f"item {k}: expected an object with a non-empty 'candidates' list")
        problem = item.get("problem") or args.problem
        if not problem:
            raise ValueError(f"item {k}: no 'problem' (give it in the input or with --problem)")
        items.append({**item, "problem": problem, "id": str(item.get("id", k))})
    return items


def run(args) -> int:
    from atf.jsonl import JsonlWriter, resume_jsonl
    from atf.rerank import Reranker

    items = _read(args)
    informalizer = None
    if args.informalizer:
        from atf.llm import load_engine

        informalizer = load_engine(args.informalizer)
    lean = None
    if args.lean:
        from atf.symeq.lean_backend import LeanEquivalence

        lean = LeanEquivalence()
        if not lean.available:
            print("atf rerank: no Lean REPL configured; the Lean backend is skipped", file=sys.stderr)
    config = SymEqConfig(
        timeout_ms=round(args.timeout_s * 1000), step_budget_s=args.step_budget_s, problem_budget_s=args.budget_s
    )
    reranker = Reranker(informalizer=informalizer, combine=args.combine, alpha=args.alpha, symeq=config, lean=lean)
    done = {str(row["id"]) for row in resume_jsonl(args.output)} if args.output else set()
    sink = JsonlWriter(args.output) if args.output else None
    for item in items:
        if item["id"] in done:
            continue
        language = args.language or item.get("language") or "lean"
        res = reranker.rerank(item["problem"], item["candidates"], item.get("back_translations"), language)
        picks = res.select(args.n)
        record = {
            "id": item["id"],
            "language": language,
            "order": res.order,
            "selected": picks,
            "scores": res.scores,
            "symeq": res.symeq_scores,
            "semco": res.semco_scores,
            "classes": res.classes,
            "semco_source": res.semco_source,
            "budget_exhausted": res.symeq.budget_exhausted,
            "symeq_seconds": round(res.symeq.seconds, 3),
            "unparsed": {i: e for i, e in enumerate(res.symeq.errors) if e},
            "pairs": [
                {
                    "i": p.i,
                    "j": p.j,
                    "status": p.status,
                    "method": p.method,
                    "detail": p.detail,
                    "counterexample": p.counterexample,
                }
                for p in res.symeq.pairs
            ],
        }
        if sink is not None:
            sink.write(record)
        if args.json:
            print(json.dumps(record, ensure_ascii=False))
        else:
            _print(item, res, picks, args.explain)
    if sink is not None:
        sink.close()
    return 0


def _print(item: dict, res, picks: list[int], explain: bool) -> None:
    class_id = {i: c for c, members in enumerate(res.classes) for i in members}
    print(
        f"problem {item['id']}: {len(item['candidates'])} candidates, {len(res.classes)} SymEq classes "
        f"(SemCo from {res.semco_source})"
    )
    print(f"{'rank':>4} {'#':>3} {'score':>8} {'symeq':>6} {'semco':>6} {'class':>5}  statement")
    for r, i in enumerate(res.order, 1):
        first = " ".join(item["candidates"][i].split())[:70]
        err = res.symeq.errors[i]
        note = f"  [unparsed: {err[:40]}]" if err else ("  [vacuous]" if res.symeq.vacuous[i] else "")
        print(
            f"{r:>4} {i:>3} {res.scores[i]:>8.3f} {res.symeq_scores[i]:>6.2f} {res.semco_scores[i]:>6.3f} "
            f"{class_id[i]:>5}  {first}{note}"
        )
    print(f"selected ({len(picks)}@{len(item['candidates'])}): {picks}")
    if res.symeq.budget_exhausted:
        print("note: SymEq's time budget ran out; the pairs it had not decided stay unmerged (see --budget-s)")
    if explain:
        for p in res.symeq.pairs:
            print("  " + p.describe())
