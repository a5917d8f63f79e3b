"""SymEq's coverage on the DEV set: the MATH problems outside the paper's 400 (the other 361 test problems and the
36 train problems; nothing is reported on them), k = 10 GPT-4 Isabelle candidates, human labels.

    nice python eval/symeq_coverage_dev.py                  # the figures
    nice python eval/symeq_coverage_dev.py --show 5         # and 5 examples of every reason a pair stays apart
    nice python eval/symeq_coverage_dev.py --limit 50 --show-suspicious 20
    nice python eval/symeq_coverage_dev.py --false-apart         # and (e), below

Two candidates of one problem that humans both labelled correct should mean the same thing, so SymEq should
merge them: (a) counts the both-correct pairs SymEq merged (a recall proxy; labels are noisy, two correct
formalizations may differ harmlessly, e.g. one proves more). (b) counts merges of a correct with an incorrect
candidate: each is either a label error or a false merge (a soundness bug: read them with --show-suspicious).
(c) breaks the unmerged both-correct pairs down by the first reason found, and (d) is what Table 1 measures, on
dev: how often the largest class's first member is correct (read the misses with --show-picks); (e), with
--false-apart, is (d) had candidates false at every value not been merged by their truth; (f), with
--contradictory-apart, is (d) had each candidate with contradictory premises been a class of its own. Beside
(d)-(f), the within-problem AUC of the class size (eval.harness.within_problem_auc): dev's labels favour sample 0,
which 1@k's tie-break in sampling order inherits and the AUC does not, so a decision about classes is read on both.
Reasons in (c):

    unparsed       a candidate could not be read, or one of its propositions stayed one opaque blob
    vacuous        a candidate's premises are contradictory (it joins no class)
    opaque         a candidate keeps a construct the front-end or elaborator does not model (which: below)
    untranslatable a term with no translation to Z3 (which: below)
    z3-unknown     Z3 timed out or gave up
    model-uf       Z3 found a counter-model that relies on an uninterpreted function (may be spurious)
    model-exact    Z3 found a real counter-model: the two statements differ (or the modelling is wrong)
    no-verdict     the pair was never decided (the problem's time budget ran out)

SymEq runs in `SymEqPool` with `SymEqConfig`'s defaults, as in eval/symeq_speed_dev.py. The machine is shared:
the load average is printed beside the figures.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from atf.data.isabelle import IsaProblem, load_math_dev
from atf.rerank.combine import rank
from atf.symeq import ir
from atf.symeq.config import SymEqConfig
from atf.symeq.equivalence import PairResult, SymEqResult
from atf.symeq.ir import Statement
from atf.symeq.pool import SymEqPool
from eval.harness import Method, ScoredProblem, order_for, within_problem_auc

REASONS = ("unparsed", "vacuous", "opaque", "untranslatable", "z3-unknown", "model-uf", "model-exact", "no-verdict")


@dataclass
class Miss:
    """One unmerged both-correct pair and why it stayed apart (`what`: the construct, where known)."""

    problem: IsaProblem
    i: int
    j: int
    reason: str
    what: list[str]
    detail: str


def construct(note: str) -> str:
    """A short name for what an elaborator note says is kept opaque (`opaque: gcd {0} {1}` -> `gcd`)."""
    note = re.sub(r"\s+", " ", note)
    if note.startswith("unparsed proposition"):
        return "unparsed proposition"
    if note.startswith("opaque: "):
        body = note[len("opaque: ") :]
        head = re.match(r"[\\<>\w'.:]+|\S", body)
        return "opaque " + (head.group(0) if head else body[:20])
    return re.sub(r"'.*", "", note)[:40]


def _unmodelled(st: Statement | None) -> list[str]:
    return [] if st is None else [construct(n) for n in st.opaque]


def vocabulary(st: Statement) -> set[str]:
    """The operations, binders and variable types a statement uses (`pow`, `uf:ln`, `sum`, `x:real`)."""
    out = {str(t) for t in st.variables.values()}
    for t in [*st.premises, st.conclusion]:
        for x in ir.walk(t):
            if isinstance(x, ir.App):
                head = x.args[0] if x.op == "call" and x.args else None
                out.add(head.name if isinstance(head, ir.Var) and head.name.startswith("uf:") else x.op)
            elif isinstance(x, ir.Bind):
                out.add(x.kind)
    return out


def differences(a: Statement, b: Statement) -> list[str]:
    """What one statement uses and the other does not (`pow|powr`: pow in the first only, powr in the second)."""
    va, vb = vocabulary(a), vocabulary(b)
    only_a, only_b = sorted(va - vb), sorted(vb - va)
    return [",".join(only_a) + "|" + ",".join(only_b)] if only_a or only_b else ["same vocabulary"]


def classify(res: SymEqResult, verdicts: dict[tuple[int, int], PairResult], i: int, j: int) -> tuple[str, list, str]:
    """(reason, constructs, detail) for an unmerged pair (see the module doc for the reasons)."""
    sts = (res.statements[i], res.statements[j])
    notes = _unmodelled(sts[0]) + _unmodelled(sts[1])
    if None in sts:
        errs = [res.errors[x] for x in (i, j) if res.statements[x] is None]
        return "unparsed", [str(e)[:60] for e in errs], ""
    if "unparsed proposition" in notes:
        return "unparsed", [n for n in notes if n == "unparsed proposition"], ""
    if res.vacuous and (res.vacuous[i] or res.vacuous[j]):
        return "vacuous", [], ""
    v = verdicts.get((i, j))
    if v is None:
        return "no-verdict", notes, ""
    if v.status == "unknown" and "untranslatable" in v.detail:
        return "untranslatable", [v.detail.split(": ", 1)[-1][:40]], v.detail
    if notes:
        return "opaque", sorted(set(notes)), v.describe()
    if v.status == "unknown":
        return "z3-unknown", [], v.detail
    if v.status == "different":
        return ("model-exact" if v.exact else "model-uf"), differences(*sts), v.describe()
    return "no-verdict", [], v.describe()


def false_everywhere(st: Statement | None) -> bool:
    """Z3 proves premises ⟹ ¬conclusion and finds the premises satisfiable (1 s each): the statement is false at every
    value its premises allow, say `x = 2 + 3 ⟹ x = 7`, and reads like any other such statement."""
    import z3

    from atf.symeq.smt import Translator, check_valid, commutative_sorts

    if st is None:
        return False
    tr = Translator(st.system, comm_sorts=commutative_sorts(st.premises))
    try:
        prem = tr.prop(ir.conj(st.premises)) if st.premises else z3.BoolVal(True)
        names = list(st.variables)
        if check_valid(tr, z3.Implies(prem, z3.Not(tr.prop(st.conclusion))), 1000, names).status != "valid":
            return False
        return check_valid(tr, z3.Not(prem), 1000, names).status == "invalid"
    except Exception:  # noqa: BLE001 - untranslatable: not known false
        return False


def false_apart(classes: list[list[int]], statements: list, texts: list[str]) -> list[list[int]]:
    """The classes with each candidate false at every value taken out and grouped with those of equal text only."""
    out: list[list[int]] = []
    for c in classes:
        false = [x for x in c if false_everywhere(statements[x])]
        if rest := [x for x in c if x not in false]:
            out.append(rest)
        by_text: dict[str, list[int]] = {}
        for x in false:
            by_text.setdefault(" ".join(texts[x].split()), []).append(x)
        out.extend(by_text.values())
    return out


def contradictory_apart(classes: list[list[int]], vacuous: list[bool]) -> list[list[int]]:
    """The classes with each candidate whose premises are contradictory taken out into a class of its own."""
    rest = [r for r in ([x for x in c if not vacuous[x]] for c in classes) if r]
    return rest + [[x] for c in classes for x in c if vacuous[x]]


def as_scored(p: IsaProblem, classes: list[list[int]], valid: list[bool] | None = None) -> ScoredProblem:
    """p's labels with these classes, scored by class size (as SymEq scores), for the metrics of eval.harness."""
    k = len(p.labels)
    size = {x: len(c) / k for c in classes for x in c}
    return ScoredProblem(
        p.id, "MATH", p.split, p.labels, valid or [True] * k, classes, [size[x] for x in range(k)], [0.0] * k
    )


def auc(problems: list[ScoredProblem]) -> str:
    """The within-problem AUC of the class size (0.5: no signal), which dev's sample-0 label bias, unlike 1@k's
    tie-break in sampling order, does not flatter."""
    return f"within-problem AUC of the class size {within_problem_auc(problems, lambda q: q.symeq):.3f}"


def shows(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def spread(pairs: list[tuple[IsaProblem, int, int]], seed: int) -> list[tuple[IsaProblem, int, int]]:
    """The pairs shuffled with `seed`, one per problem first, then a second per problem, and so on."""
    rng = random.Random(seed)
    by_problem: dict[str, list[tuple[IsaProblem, int, int]]] = {}
    for x in rng.sample(pairs, len(pairs)):
        by_problem.setdefault(x[0].id, []).append(x)
    rounds = max((len(v) for v in by_problem.values()), default=0)
    return [v[r] for r in range(rounds) for v in by_problem.values() if r < len(v)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=None, help="first N dev problems (default: all 397)")
    ap.add_argument("--workers", type=int, default=1, help="worker processes (default %(default)s)")
    ap.add_argument("--show", type=int, default=0, metavar="N", help="print N examples of every reason in (c)")
    ap.add_argument("--show-suspicious", type=int, default=0, metavar="N", help="print N merges of (b)")
    ap.add_argument(
        "--seed",
        type=int,
        default=None,
        help="with --show or --show-suspicious: a sample drawn with this seed, spread over problems "
        "(default: the first N)",
    )
    ap.add_argument(
        "--show-picks",
        type=int,
        default=0,
        metavar="N",
        help="print N problems whose SymEq pick is wrong although a candidate is correct, with their classes",
    )
    ap.add_argument(
        "--false-apart",
        action="store_true",
        help="also (e): 1@k had each candidate false at every value (satisfiable premises that refute the "
        "conclusion) been merged only with equal texts, not by its truth: a diagnostic of the decision that "
        "such statements, whatever answer they claim, are one class (Z3 checks at 1 s in this process)",
    )
    ap.add_argument(
        "--contradictory-apart",
        action="store_true",
        help="also (f): 1@k had each candidate with contradictory premises been a class of its own (since 6fbc004 "
        "copies of one contradictory text or standard form are one class): a diagnostic of that decision",
    )
    ap.add_argument("--reason", choices=REASONS, default=None, help="with --show: only this reason")
    ap.add_argument("--top", type=int, default=25, help="constructs listed under opaque/untranslatable")
    ap.add_argument(
        "--pairs",
        type=Path,
        default=None,
        metavar="FILE",
        help="write every labelled pair (problem, i, j, labels, merged) to FILE, to diff two runs",
    )
    args = ap.parse_args(argv)
    problems = load_math_dev()[: args.limit]
    jobs = [(p.statements, "isabelle") for p in problems]
    config = SymEqConfig(workers=args.workers)
    both = merged = suspicious_n = mixed = 0
    misses: list[Miss] = []
    suspicious: list[tuple[IsaProblem, int, int]] = []
    seconds: list[float] = []
    rows: list[str] = []
    picked_right = solvable = 0
    # each problem's labels with the class sizes of (d), (e) and (f), and how often (e)'s and (f)'s picks are right
    # and differ from (d)'s
    variants: dict[str, list[ScoredProblem]] = {"d": [], "e": [], "f": []}
    picked_other = {"e": 0, "f": 0}
    moved = {"e": 0, "f": 0}
    wrong_picks: list[tuple[IsaProblem, SymEqResult, int]] = []
    with SymEqPool(config.workers) as pool:
        for idx, res in tqdm(pool.map(jobs, config), total=len(jobs), desc="SymEq", unit="problem"):
            p = problems[idx]
            seconds.append(res.seconds)
            cls = {x: n for n, c in enumerate(res.classes) for x in c}
            verdicts = {(v.i, v.j): v for v in res.pairs}
            labels = p.labels
            readable = [st is not None for st in res.statements]
            pick = rank(res.scores, readable)[0]
            picked_right += bool(labels[pick])
            variants["d"].append(as_scored(p, res.classes, readable))
            others = {}
            if args.false_apart:
                others["e"] = false_apart(res.classes, res.statements, p.statements)
            if args.contradictory_apart:
                others["f"] = contradictory_apart(res.classes, res.vacuous)
            for line, classes in others.items():
                variants[line].append(as_scored(p, classes, readable))
                other = order_for(variants[line][-1], Method("symeq"))[0][0]
                picked_other[line] += bool(labels[other])
                moved[line] += other != pick
            if any(labels):
                solvable += 1
                if not labels[pick]:
                    wrong_picks.append((p, res, pick))
            for j in range(len(labels)):
                for i in range(j):
                    same = cls[i] == cls[j]
                    rows.append(f"{p.id}\t{i}\t{j}\t{int(labels[i])}{int(labels[j])}\t{int(same)}")
                    if labels[i] and labels[j]:
                        both += 1
                        merged += same
                        if not same:
                            misses.append(Miss(p, i, j, *classify(res, verdicts, i, j)))
                    elif labels[i] != labels[j]:
                        mixed += 1
                        if same:
                            suspicious_n += 1
                            suspicious.append((p, i, j))
    if args.pairs is not None:
        args.pairs.write_text("".join(r + "\n" for r in rows))
    load = os.getloadavg()
    print(f"{len(problems)} dev problems (MATH outside the paper's 400), k = 10, SymEqConfig defaults")
    print(f"(a) both-correct pairs merged: {merged} / {both} ({100 * merged / max(both, 1):.1f}%)")
    print(f"(b) correct-incorrect pairs merged: {suspicious_n} / {mixed} (label errors or false merges)")
    print(f"(c) both-correct pairs not merged, by reason: {len(misses)}")
    by_reason = Counter(m.reason for m in misses)
    for r in REASONS:
        if by_reason[r]:
            print(f"    {r:15s} {by_reason[r]}")
    what = Counter(w for m in misses if m.reason in ("opaque", "untranslatable", "unparsed") for w in set(m.what))
    if what:
        print(f"    constructs behind opaque/untranslatable/unparsed pairs (top {args.top}):")
        for w, n in what.most_common(args.top):
            print(f"        {n:5d}  {w}")
    diff = Counter(w for m in misses if m.reason.startswith("model") for w in m.what)
    if diff:
        print(f"    what one statement of a counter-model pair uses and the other not (top {args.top}):")
        for w, n in diff.most_common(args.top):
            print(f"        {n:5d}  {w}")
    print(
        f"(d) SymEq 1@k (largest class, ties in sampling order): {picked_right} / {len(problems)}; a correct "
        f"candidate exists in {solvable}, the pick is wrong in {len(wrong_picks)} of them; {auc(variants['d'])}"
    )
    if args.false_apart:
        print(
            f"(e) the same with candidates false at every value kept apart unless their texts are equal: "
            f"{picked_other['e']} / {len(problems)} (the pick moved in {moved['e']}); {auc(variants['e'])}"
        )
    if args.contradictory_apart:
        print(
            f"(f) the same with every candidate whose premises are contradictory a class of its own: "
            f"{picked_other['f']} / {len(problems)} (the pick moved in {moved['f']}); {auc(variants['f'])}"
        )
    print(f"seconds per problem inside the worker: total {sum(seconds):.1f}  (load {load[0]:.2f} {load[1]:.2f})")
    for r in REASONS if args.reason is None else (args.reason,):
        shown = [m for m in misses if m.reason == r]
        if args.seed is not None:
            order = spread([(m.problem, m.i, m.j) for m in shown], args.seed)
            where = {(q.id, i, j): n for n, (q, i, j) in enumerate(order)}
            shown = sorted(shown, key=lambda m: where[(m.problem.id, m.i, m.j)])
        for m in shown[: args.show]:
            print(f"\n--- {r}: {m.problem.id} #{m.i} #{m.j} {'; '.join(m.what)}\n    {m.detail}")
            for x in (m.i, m.j):
                print(f"    [{x}] {shows(m.problem.statements[x])}")
    for p, res, pick in wrong_picks[: args.show_picks]:
        print(f"\n--- wrong pick: {p.id} #{pick}; classes (members, label): ")
        print(f"    problem: {shows(p.problem)[:300]}")
        for c in res.classes:
            print("    class " + " ".join(f"#{x}{'+' if p.labels[x] else '-'}" for x in c))
            for x in c:
                print(f"      [{x}{'+' if p.labels[x] else '-'}] {shows(p.statements[x])[:400]}")
    if args.seed is not None:
        suspicious = spread(suspicious, args.seed)
    for p, i, j in suspicious[: args.show_suspicious]:
        print(f"\n--- merged, labels differ: {p.id} #{i} ({p.labels[i]}) #{j} ({p.labels[j]})")
        print(f"    problem: {shows(p.problem)[:300]}")
        for x in (i, j):
            print(f"    [{x}] {shows(p.statements[x])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
