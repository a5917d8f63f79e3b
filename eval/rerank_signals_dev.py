"""Which candidate scores tell the correct candidates of a problem from its incorrect ones, on the DEV set (the
397 MATH problems outside the paper's 400: nothing is reported on them), k = 10 GPT-4 Isabelle candidates, human
labels. A screen for a new SemCo or a new tie-break before Table 1 sees it.

    nice python eval/rerank_signals_dev.py              # SymEq from the cache of eval/table1.py (runs/rerank)
    nice python eval/rerank_signals_dev.py --limit 100

The measure is the within-problem AUC (`eval.harness.within_problem_auc`): over every pair of a correct and an
incorrect candidate of one problem, the share where the correct one scores higher (ties half; 0.5 is no signal).
1@k on dev is no such screen: dev's labels favour sample 0 (45% of candidates 0 are correct, 25-33% of the
others; eval/table1.py prints the curve), so a score with many ties wins on dev by keeping the sampling order
(numeric literals below: 1@k far above MiniLM's on dev, an AUC under 0.5). The scores:

    symeq       the size of the candidate's SymEq class (what Table 1's SymEq ranks by)
    semco       MiniLM cosine of the candidate's back-translation with the problem (SemCo as shipped)
    consensus   mean MiniLM cosine of its back-translation with the other candidates' (a semantic majority)
    literals    the problem's numbers (its final answer included) found in the statement, plus half the share of
                the statement's numbers found in the problem (0 and 1 ignored)
    readable    0 where SymEq leaves a proposition unread (ill-typed, or text Isabelle's grammar rejects), else 1
    lm          with --lm N, on the first N problems only: the shipped SmolLM2-135M's log-likelihood of the problem
                after the statement (`Isabelle statement: ... The same problem in words:`), about 10 s a problem

Then 1@k (largest SymEq class, ties in sampling order) as is, and with unreadable candidates ranked last, as the
syntax check ranks candidates Isabelle rejects (the MATH set ships no syntax check).
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from contextlib import redirect_stderr
from dataclasses import replace
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm

from atf.data.isabelle import load_math_dev
from eval.harness import Method, n_at_k, score_isa_sets, within_problem_auc

_NUMBER = re.compile(r"(?<![A-Za-z_\d.])\d+(?:\.\d+)?")
_GROUPED = re.compile(r"(?<=\d)(?:\{,\}|,)(?=\d{3}(?!\d))")  # 1,000 and LaTeX's 1{,}000


def numbers(text: str) -> set[float]:
    """The numeric literals of a text, as values (`1{,}000` and `1000.0` are one; 0 and 1 left out)."""
    return {float(x) for x in _NUMBER.findall(_GROUPED.sub("", text))} - {0.0, 1.0}


def literal_agreement(problem: str, statement: str) -> float:
    """Recall of the problem's numbers in the statement, plus half the precision (0 where the problem has none)."""
    a, b = numbers(problem), numbers(statement)
    if not a:
        return 0.0
    common = len(a & b)
    return common / len(a) + (0.5 * common / len(b) if b else 0.0)


def unreadable(statement: str) -> bool:
    """SymEq leaves a proposition of the statement unread (Isabelle would reject it), or cannot read it at all."""
    from atf.symeq.equivalence import parse

    try:
        st = parse(statement, "isabelle")
    except Exception:  # noqa: BLE001 - a text the front-end rejects is as unread as an unread proposition
        return True
    return any(n.startswith("unparsed proposition") for n in st.opaque)


def lm_scores(problems: list, threads: int = 2) -> dict[str, list[float]]:
    """SmolLM2's log-likelihood of each problem's text after each of its statements (the shipped model, on CPU), by
    problem id."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from atf.llm.models import smollm2_dir

    torch.set_num_threads(threads)
    path = str(smollm2_dir())
    tok = AutoTokenizer.from_pretrained(path)
    model = AutoModelForCausalLM.from_pretrained(path).eval()

    def loglik(prefix: str, target: str) -> float:
        a = tok(prefix, add_special_tokens=False)["input_ids"]
        b = tok(target, add_special_tokens=False)["input_ids"]
        ids = torch.tensor([a + b])
        with torch.no_grad():
            logp = torch.log_softmax(model(ids).logits[0, :-1].float(), -1)
        return float(logp[torch.arange(len(a) - 1, ids.shape[1] - 1), ids[0, len(a) :]].sum())

    return {
        p.id: [loglik(f"Isabelle statement: {s}\nThe same problem in words: ", p.problem) for s in p.statements]
        for p in tqdm(problems, desc="SmolLM2", unit="problem")
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cache", type=Path, default=Path("runs/rerank"), help="eval/table1.py's score cache")
    ap.add_argument("--limit", type=int, default=None, help="first N dev problems (default: all 397)")
    ap.add_argument("--lm", type=int, default=0, metavar="N", help="also SmolLM2's likelihood, on the first N problems")
    args = ap.parse_args(argv)

    dev = {p.id: p for p in load_math_dev()[: args.limit]}
    with redirect_stderr(io.StringIO()):  # the cache's progress bars
        scored = score_isa_sets(args.cache, sets=("math_test", "math_train"))
    problems = [q for name in ("math_test", "math_train") for q in scored[name] if q.id in dev]
    print(f"{len(problems)} dev problems (MATH outside the paper's 400), k = 10; SymEq and SemCo from {args.cache}")

    from atf.rerank.semco import Embedder

    embedder = Embedder()
    consensus: dict[str, list[float]] = {}
    for q in problems:
        v = embedder.encode(dev[q.id].back_translations)
        sims = v @ v.T
        consensus[q.id] = [float((sims[i].sum() - sims[i, i]) / (q.k - 1)) for i in range(q.k)]
    readable = {q.id: [0.0 if unreadable(s) else 1.0 for s in dev[q.id].statements] for q in problems}

    signals = {
        "symeq": lambda q: q.symeq,
        "semco": lambda q: q.semco,
        "consensus": lambda q: consensus[q.id],
        "literals": lambda q: [literal_agreement(dev[q.id].problem, s) for s in dev[q.id].statements],
        "readable": lambda q: readable[q.id],
    }
    print("within-problem AUC (0.5: no signal), and 1@k ranking by the score alone (ties in sampling order):")
    for name, f in signals.items():
        by_score = [replace(q, semco=list(f(q))) for q in problems]
        print(
            f"  {name:10s} AUC {within_problem_auc(problems, f):.3f}   "
            f"1@k {100 * n_at_k(by_score, Method('semco'), 1):5.1f}"
        )
    if args.lm:
        some = problems[: args.lm]
        lm = lm_scores([dev[q.id] for q in some])
        print(
            f"  {'lm':10s} AUC {within_problem_auc(some, lambda q: lm[q.id]):.3f}   on the first {len(some)} "
            f"problems (SemCo there: {within_problem_auc(some, lambda q: q.semco):.3f}, SymEq "
            f"{within_problem_auc(some, lambda q: q.symeq):.3f})"
        )
    n_unread = sum(v == 0.0 for r in readable.values() for v in r)
    n_unread_ok = sum(readable[q.id][i] == 0.0 and q.labels[i] for q in problems for i in range(q.k))
    n_all, n_all_ok = sum(q.k for q in problems), sum(sum(q.labels) for q in problems)
    print(
        f"unreadable candidates: {n_unread} of {n_all}; labelled correct {n_unread_ok} "
        f"({100 * n_unread_ok / max(n_unread, 1):.1f}%; all candidates {100 * n_all_ok / n_all:.1f}%)"
    )
    last = [replace(q, valid=[v == 1.0 for v in readable[q.id]]) for q in problems]
    for m in (Method("symeq"), Method("symeq", tiebreak="semco")):
        a, b = (round(n_at_k(ps, m, 1) * len(problems)) for ps in (problems, last))
        print(f"1@k, {m.label()}: {a} of {len(problems)} as is, {b} with unreadable candidates ranked last")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
