"""Table 1 of "Autoformalize Mathematical Statements by Symbolic Equivalence and Semantic Consistency" (Li et
al., NeurIPS 2024), recomputed with atf on the paper's own GPT-4 candidates (Isabelle, k = 10).

    nice python eval/table1.py --workers 2            # everything (cached under runs/rerank, resumable)
    nice python eval/table1.py --limit 40             # a quick look at the first 40 problems of each set
    nice python eval/table1.py --markdown             # also the README's table

Main table, on the problems the paper reports:
  MATH-400   the paper's random 400 MATH test problems (in isa-autoformal-assess exactly those whose
             candidates carry `semantic_score`), human labels; a candidate Isabelle rejects counts wrong.
  miniF2F    all 488; "correct" = in the source's `equivalence_oracle` (the authors' ATP check against
             the gold statement, 256 problems have one; the other 232 have no correct candidate).
Every knob (alpha of a combination, the tie-break among equal scores) is tuned on the *other* set: on
miniF2F for the MATH-400 column, on MATH-400 for the miniF2F column. Nothing is tuned on the other MATH
test problems (361) or on MATH train (36): their labels are biased toward sample 0 (the share of correct
candidates falls with the sample index, printed below), so they are shown apart, with that caveat.
The paper's numbers are printed beside ours and labelled as the paper's. The "ceiling" row is a diagnostic read
off the labels, not a method: SymEq's pick had it merged every candidate labelled correct (and changed nothing
else), i.e. the most that better SymEq recall can buy under the same tie-break. SymEq is ours (Z3, Isabelle
semantics, under the hard time budget of `SymEqConfig`); SemCo embeds the shipped GPT-4 back-translations
with MiniLM (the paper: e5-mistral-7b). "answer agreement" groups candidates whose conclusions state the
same literal answer (our reading of the authors' answer-agreement equivalence for MATH); "authors' shipped
scores" rank by the SymEq/SemCo scores the source data ships from the authors' own pipeline.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
from collections import defaultdict
from pathlib import Path

if __package__ in (None, ""):  # run as a file (python eval/table1.py): the repository root is the package root
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from atf.symeq.config import SymEqConfig
from eval.harness import (
    COMBOS,
    Method,
    ScoredProblem,
    best_combination,
    correct_merged,
    knobs_from,
    labelling_efficiency,
    n_at_k,
    pass_at,
    pass_at_k,
    positional_correctness,
    random_pick,
    score_isa_sets,
)

NS = (1, 2, 3)
# A diagnostic row, not a method: SymEq's pick (same tie-break) had it merged every candidate labelled correct.
CEILING = "ceiling: SymEq with every correct candidate merged (labels used)"

# The paper's Table 1, GPT-4, k = 10, n@k for n = 1/2/3 in % (../shared/DESIGN.md). log-comb: only its
# 1@k is given, as SymEq + 3.3 (MATH) and + 2.5 (miniF2F).
PAPER: dict[str, dict[str, tuple[float | None, ...]]] = {
    "MATH": {
        "Baseline": (37.5, 47.7, 53.5),
        "Naive": (24.5, 25.7, 26.5),
        "Cluster": (39.7, 48.0, 53.5),
        "SymEq": (42.0, 50.7, 54.5),
        "SemCo": (39.5, 47.2, 54.5),
        "log-comb": (45.3, None, None),
    },
    "miniF2F": {
        "Baseline": (32.9, 40.3, 43.4),
        "Naive": (24.6, 26.6, 27.0),
        "Cluster": (34.8, 41.3, 45.0),
        "SymEq": (41.1, 48.1, 49.3),
        "SemCo": (34.9, 41.7, 45.6),
        "log-comb": (43.6, None, None),
    },
}
TARGETS = {
    "MATH": (("best 1@k, knobs tuned on miniF2F", 50.5),),
    "miniF2F": (("SymEq 1@k", 41.1), ("best combination 1@k", 42.5)),
}


def fmt(x: float | None) -> str:
    return "    -" if x is None else f"{x:5.1f}"


def rows(problems: list[ScoredProblem], knobs: dict[str, Method], repo: bool) -> list[tuple[str, str, list]]:
    """(label, paper row, [n@k for n in NS]) in %."""

    def nk(m: Method) -> list[float]:
        return [100 * n_at_k(problems, m, n) for n in NS]

    out = [
        ("first samples (no reranking)", "Baseline", [100 * pass_at(problems, n) for n in NS]),
        ("random pick (expected)", "", [100 * random_pick(problems), None, None]),
        ("ATP proves it", "Naive", [None] * 3),
        ("k-means on BERT", "Cluster", [None] * 3),
        ("string majority", "", nk(Method("majority", tiebreak=knobs["majority"].tiebreak))),
        (f"SymEq (tie-break: {knobs['symeq'].tiebreak})", "SymEq", nk(knobs["symeq"])),
        ("SymEq, SemCo breaks ties", "", nk(Method("symeq", tiebreak="semco"))),
        ("SemCo", "SemCo", nk(Method("semco"))),
        (f"answer agreement (tie-break: {knobs['answer'].tiebreak})", "", nk(knobs["answer"])),
    ]
    for c in COMBOS:
        m = knobs[c]
        out.append((f"{c}-comb, {m.label().split(' ', 1)[1]}", "log-comb" if c == "log" else "", nk(m)))
    out.append(("log-comb, alpha = 0.5 (untuned)", "", nk(Method("log", 0.5))))
    if repo:
        out.append(("authors' shipped SymEq score", "", nk(Method("repo_symeq"))))
        out.append(("authors' shipped SemCo score", "", nk(Method("repo_semco"))))
    out.append(("pass@k (upper bound)", "", [100 * pass_at_k(problems), None, None]))
    merged = [correct_merged(q) for q in problems]
    out.append((CEILING, "", [100 * n_at_k(merged, knobs["symeq"], n) for n in NS]))
    return out


def print_table(
    title: str, problems: list[ScoredProblem], knobs: dict[str, Method], paper: str | None, repo: bool
) -> dict[str, float]:
    print(f"\n{title} ({len(problems)} problems, k = 10), n@k in %")
    head = f"{'method':44s} {'1@k':>5s} {'2@k':>5s} {'3@k':>5s}"
    print(head + (f" | paper's {'1@k':>5s} {'2@k':>5s} {'3@k':>5s}" if paper else ""))
    best: dict[str, float] = {}
    for label, paper_row, vals in rows(problems, knobs, repo):
        if all(v is None for v in vals):
            line = f"{label + ' (not reproduced)':44s} {'':5s} {'':5s} {'':5s}"
        else:
            line = f"{label:44s} " + " ".join(fmt(v) for v in vals)
        if paper:
            ref = PAPER[paper].get(paper_row)
            line += f" | {paper_row:>7s} " + " ".join(fmt(v) for v in ref) if ref else " |"
        print(line)
        if vals[0] is not None:
            best[label] = vals[0]
    return best


def per_category(problems: list[ScoredProblem], methods: dict[str, Method]) -> None:
    groups: dict[str, list[ScoredProblem]] = defaultdict(list)
    for p in problems:
        groups[p.category].append(p)
    names = list(methods)
    print(f"  {'category':24s} {'n':>4s} {'first':>6s} " + " ".join(f"{n:>8s}" for n in names))
    for cat, ps in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(
            f"  {cat[:24]:24s} {len(ps):4d} {100 * pass_at(ps, 1):6.1f} "
            + " ".join(f"{100 * n_at_k(ps, m, 1):8.1f}" for m in methods.values())
        )


def labelling(name: str, problems: list[ScoredProblem], m: Method) -> None:
    eff = labelling_efficiency(problems, m)
    print(
        f"  {name}: labelling every candidate takes {eff.labels_all_plain:.2f} labels/problem, "
        f"{eff.labels_all_classes:.2f} with one per SymEq class ({100 * eff.saved_all:.1f}% saved; propagated "
        f"labels agree with the human ones for {100 * eff.propagation_accuracy:.1f}% of candidates); finding a "
        f"correct one in the ranked order: {eff.find_plain:.2f} -> {eff.find_classes:.2f} labels "
        f"({100 * eff.saved_find:.1f}% saved)"
    )


def main(argv: list[str] | None = None) -> int:
    from atf.cliargs import add_seconds

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cache", type=Path, default=Path("runs/rerank"), help="per-problem score cache (resumable)")
    p.add_argument("--workers", type=int, default=SymEqConfig.workers, help="SymEq worker processes")
    add_seconds(p, "--timeout-s", SymEqConfig.timeout_ms / 1000, "Z3's own timeout per query", old_ms=("--timeout-ms",))
    add_seconds(p, "--budget-s", SymEqConfig.problem_budget_s, "hard SymEq wall clock per problem")
    p.add_argument("--limit", type=int, default=None, help="first N problems of each set (a quick look)")
    p.add_argument("--markdown", action="store_true", help="also print the README's table (Markdown)")
    args = p.parse_args(argv)
    config = SymEqConfig(timeout_ms=round(args.timeout_s * 1000), problem_budget_s=args.budget_s, workers=args.workers)
    load = os.getloadavg()
    scored = score_isa_sets(args.cache, config, args.limit, sets=("math_test", "minif2f", "math_train"))
    math_test, mf2f, train = scored["math_test"], scored["minif2f"], scored["math_train"]
    math400 = [q for q in math_test if q.in_paper_400]
    math361 = [q for q in math_test if not q.in_paper_400]

    knobs_math = knobs_from(mf2f)  # used on MATH-400
    knobs_mf2f = knobs_from(math400)  # used on miniF2F
    print("knobs tuned on miniF2F (for MATH): " + "; ".join(m.label() for m in knobs_math.values()))
    print("knobs tuned on MATH-400 (for miniF2F): " + "; ".join(m.label() for m in knobs_mf2f.values()))

    best_math = print_table("MATH-400, the paper's problems", math400, knobs_math, "MATH", repo=True)
    best_mf2f = print_table("miniF2F", mf2f, knobs_mf2f, "miniF2F", repo=True)

    print(
        "\nApart, with a caveat: the other MATH test problems and MATH train. Their labels are biased toward "
        "sample 0, so 'first sample' is flattered and nothing is tuned on them (knobs from miniF2F)."
    )
    print_table("MATH test outside the paper's 400", math361, knobs_math, None, repo=False)
    print("\nShare of correct candidates by sample index (0..9), in %:")
    for name, ps in (
        ("MATH-400", math400),
        ("MATH other 361", math361),
        ("MATH train 36", train),
        ("miniF2F 488", mf2f),
    ):
        print(f"  {name:16s} " + " ".join(f"{100 * x:5.1f}" for x in positional_correctness(ps)))

    print("\nLabelling efficiency (one label per SymEq class, ranked by log-comb with the tuned alpha):")
    labelling("MATH-400", math400, knobs_math["log"])
    labelling("miniF2F", mf2f, knobs_mf2f["log"])
    print("\n1@k per category, MATH-400 (knobs from miniF2F):")
    per_category(
        math400,
        {
            "SymEq": knobs_math["symeq"],
            "SemCo": Method("semco"),
            "log": knobs_math["log"],
            "answer": knobs_math["answer"],
        },
    )
    print("1@k per category, miniF2F (knobs from MATH-400):")
    per_category(
        mf2f,
        {
            "SymEq": knobs_mf2f["symeq"],
            "SemCo": Method("semco"),
            "log": knobs_mf2f["log"],
            "answer": knobs_mf2f["answer"],
        },
    )

    print("\nTargets (issue 10):")
    methods_m = {k: v for k, v in best_math.items() if not k.startswith(("pass@k", "authors'", "ceiling"))}
    best_m_label = max(methods_m, key=methods_m.get)
    best_m = methods_m[best_m_label]
    print(
        f"  MATH-400 best 1@k with knobs tuned on miniF2F >= 50.5: {best_m:.1f} ({best_m_label}) "
        f"{'met' if best_m >= 50.5 else 'NOT met'}; SymEq's ceiling (every correct candidate merged): "
        f"{best_math[CEILING]:.1f}"
    )
    sym = next(v for k, v in best_mf2f.items() if k.startswith("SymEq (tie"))
    combos = [v for k, v in best_mf2f.items() if "-comb" in k and "untuned" not in k]
    print(
        f"  miniF2F SymEq 1@k >= 41.1: {sym:.1f} {'met' if sym >= 41.1 else 'NOT met'}; best combination "
        f">= 42.5: {max(combos):.1f} {'met' if max(combos) >= 42.5 else 'NOT met'}; SymEq's ceiling: "
        f"{best_mf2f[CEILING]:.1f}"
    )

    for name, ps in (("MATH-400", math400), ("miniF2F", mf2f)):
        m, score = best_combination(ps)
        print(
            f"  {name}: the best combination with its knobs tuned on {name} itself (labels used; not a method) "
            f"reaches {100 * score:.1f} ({m.label()})"
        )

    for name, ps in (("MATH-400", math400), ("miniF2F", mf2f)):
        secs = sorted(q.seconds for q in ps)
        parsed = sum(q.parsed for q in ps) / max(sum(q.k for q in ps), 1)
        print(
            f"{name}: parsed {100 * parsed:.1f}% of candidates, {statistics.fmean(len(q.classes) for q in ps):.2f} "
            f"SymEq classes per problem, SymEq {statistics.median(secs):.2f} s median / {secs[-1]:.1f} s max per "
            f"problem, {sum(q.timed_out for q in ps)} past the {config.problem_budget_s:g} s budget"
        )
    import z3

    print(
        f"load average when started: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} ({os.cpu_count()} CPUs); Z3 "
        f"{z3.get_version_string()} (SymEq's budget counts this version's steps: another version may decide a query "
        "differently)"
    )
    if args.markdown:
        markdown(math400, mf2f, knobs_math, knobs_mf2f)
    return 0


def markdown(math400, mf2f, knobs_math, knobs_mf2f) -> None:
    print("\n| method | MATH-400 1@k / 2@k / 3@k | paper | miniF2F 1@k / 2@k / 3@k | paper |")
    print("|---|---|---|---|---|")
    for (label, paper_row, vm), (_, _, vf) in zip(rows(math400, knobs_math, False), rows(mf2f, knobs_mf2f, False)):
        if all(v is None for v in vm):
            continue
        pm = PAPER["MATH"].get(paper_row)
        pf = PAPER["miniF2F"].get(paper_row)

        def cell(vals):
            return " / ".join(fmt(v).strip() for v in vals if v is not None) if vals else ""

        label = label.split(" (tie-break")[0].split(", a=")[0]
        print(f"| {label} | {cell(vm)} | {cell(pm)} | {cell(vf)} | {cell(pf)} |")
    print(
        "\nKnobs (alpha, tie-break) tuned on miniF2F for the MATH-400 column and on MATH-400 for the miniF2F "
        "column: "
        + "; ".join(m.label() for m in knobs_math.values())
        + " / "
        + "; ".join(m.label() for m in knobs_mf2f.values())
        + "."
    )


if __name__ == "__main__":
    sys.exit(main())
