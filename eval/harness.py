"""What the reranking evaluations share: per-problem scores (cached, resumable) and the metrics.

`score_problems` runs SymEq (in worker processes) and SemCo over labelled problems and appends one JSON
line per problem to a cache file, so an interrupted run resumes where it stopped. The metrics then
work on those records:

    n@k              the problem counts as solved when one of n picks is correct (picks remove their
                     SymEq class, except for SemCo alone, which takes its top n as the paper does)
    labelling        human labels needed, when one label per SymEq class is propagated to the class
"""

from __future__ import annotations

import logging
import re
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from tqdm import tqdm

from atf.jsonl import JsonlWriter, resume_jsonl
from atf.rerank.combine import combine, rank, select
from atf.symeq.config import SymEqConfig
from atf.symeq.pool import SymEqPool

log = logging.getLogger(__name__)


@dataclass
class ScoredProblem:
    """One problem's candidates with their labels and both scores.

    labels[i]: candidate i is correct (and not rejected by the syntax check); valid[i]: passed the
    syntax check (True when unknown); classes: SymEq classes; symeq/semco: the two scores;
    repo_symeq/repo_semco: the scores the source data ships (the paper's own pipeline), when present.
    """

    id: str
    dataset: str
    split: str
    labels: list[bool]
    valid: list[bool]
    classes: list[list[int]]
    symeq: list[float]
    semco: list[float]
    string_classes: list[list[int]] = field(default_factory=list)
    repo_symeq: list[float] | None = None
    repo_semco: list[float] | None = None
    parsed: int = 0
    vacuous: int = 0
    pair_counts: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    timed_out: bool = False
    category: str = ""
    answers: list[str | None] = field(default_factory=list)
    in_paper_400: bool = False  # one of the 400 MATH problems Li et al. report on (`IsaProblem.in_paper_400`)

    @property
    def answer_classes(self) -> list[list[int]]:
        """Candidates stating the same literal answer form a class; one without a literal answer is alone."""
        groups: dict[str, list[int]] = {}
        out: list[list[int]] = []
        for i in range(self.k):
            a = self.answers[i] if i < len(self.answers) else None
            if a is None:
                out.append([i])
            else:
                groups.setdefault(a, []).append(i)
        return sorted(out + list(groups.values()), key=lambda g: (-len(g), g[0]))

    @property
    def k(self) -> int:
        return len(self.labels)


# ----------------------------------------------------------------------------------------------- scoring


def _answer(st) -> str | None:
    from atf.symeq.normalize import answer

    if st is None:
        return None
    try:
        a = answer(st)
    except Exception:  # noqa: BLE001 - no answer is a fine reading of an odd statement
        return None
    return None if a is None else str(a)


def _symeq_row(pid: str, res) -> dict:
    counts: dict[str, int] = {}
    for p in res.pairs:
        key = f"{p.status}:{p.method}" if p.method else p.status
        counts[key] = counts.get(key, 0) + 1
    return {
        "id": pid,
        "classes": res.classes,
        "symeq": res.scores,
        "parsed": res.parsed,
        "vacuous": sum(res.vacuous),
        "pair_counts": counts,
        "seconds": res.seconds,
        "timed_out": res.budget_exhausted,
        "answers": [_answer(st) for st in res.statements],
    }


def _string_classes(statements: Sequence[str]) -> list[list[int]]:
    groups: dict[str, list[int]] = {}
    for i, s in enumerate(statements):
        groups.setdefault(" ".join(s.split()), []).append(i)
    return sorted(groups.values(), key=lambda g: (-len(g), g[0]))


def read_cache(path: Path) -> dict[str, dict]:
    """Rows by id; a last line cut short by a crash is cut from the file, and its problem recomputed."""
    return {row["id"]: row for row in resume_jsonl(path)}


def symeq_records(
    problems: Sequence, language: str, cache: Path, config: SymEqConfig | None = None, pool: SymEqPool | None = None
) -> dict[str, dict]:
    """SymEq classes for every problem, appended to `cache` as they finish (resumable), in `config.workers`
    processes under SymEq's hard budgets: a problem that runs out of `config.problem_budget_s` keeps the
    merges made by then and is marked `timed_out`."""
    config = config or SymEqConfig()
    cache.parent.mkdir(parents=True, exist_ok=True)
    done = read_cache(cache)
    todo = [p for p in problems if p.id not in done]
    if todo:
        own = pool is None
        pool = pool or SymEqPool(config.workers)
        try:
            with JsonlWriter(cache) as out, tqdm(total=len(todo), desc=f"SymEq {cache.stem}") as bar:
                for idx, res in pool.map([(p.statements, language) for p in todo], config):
                    row = _symeq_row(todo[idx].id, res)
                    if res.budget_exhausted:
                        log.warning("SymEq on %s ran out of its %.0f s budget", row["id"], config.problem_budget_s)
                    out.write(row)
                    done[row["id"]] = row
                    bar.update()
        finally:
            if own:
                pool.close()
    return done


def category_of(p) -> str:
    """MATH: the subject (Algebra, Number Theory, ...); miniF2F: the source (aime, amc12, mathd_algebra, imo, ...)."""
    meta = getattr(p, "meta", {}) or {}
    if meta.get("type"):
        return str(meta["type"])
    parts = str(p.id).split("/")[-1].split("_")
    head = "_".join(parts[:2]) if parts[0] == "mathd" and len(parts) > 1 else parts[0]
    return re.sub(r"(?<=\d)[ab]$", "", head) or "other"


def semco_records(problems: Sequence, cache: Path, embedder=None) -> dict[str, list[float]]:
    """SemCo cosines from the problems' back-translations (cached)."""
    done = {k: v["semco"] for k, v in read_cache(cache).items()}
    todo = [p for p in problems if p.id not in done]
    if todo:
        from atf.rerank.semco import cosine_scores, default_embedder

        emb = embedder or default_embedder()
        texts = [t for p in todo for t in [p.problem, *p.back_translations]]
        emb.encode(texts)  # one batched pass; cosine_scores then reads the cache
        cache.parent.mkdir(parents=True, exist_ok=True)
        with JsonlWriter(cache) as out:
            for p in tqdm(todo, desc=f"SemCo {cache.stem}"):
                scores = cosine_scores(emb, p.problem, p.back_translations)
                out.write({"id": p.id, "semco": scores})
                done[p.id] = scores
    return done


def score_problems(
    problems: Sequence, language: str, cache_dir: Path, name: str, config: SymEqConfig | None = None, embedder=None
) -> list[ScoredProblem]:
    sym = symeq_records(problems, language, cache_dir / f"{name}.symeq.jsonl", config)
    from atf.rerank.semco import VERSION as SEMCO_VERSION

    sem = semco_records(problems, cache_dir / f"{name}.semco_v{SEMCO_VERSION}.jsonl", embedder)
    out = []
    for p in problems:
        s = sym[p.id]
        repo_sy = [c.extra.get("symbolic_score") for c in p.candidates]
        repo_se = [c.extra.get("semantic_score") for c in p.candidates]
        out.append(
            ScoredProblem(
                p.id,
                p.dataset,
                p.split,
                p.labels,
                p.syntax_ok,
                s["classes"],
                s["symeq"],
                sem[p.id],
                _string_classes(p.statements),
                repo_sy if all(x is not None for x in repo_sy) else None,
                repo_se if all(x is not None for x in repo_se) else None,
                s["parsed"],
                s["vacuous"],
                s["pair_counts"],
                s["seconds"],
                s.get("timed_out", False),
                category_of(p),
                s.get("answers") or [None] * len(p.statements),
                p.in_paper_400,
            )
        )
    return out


# ----------------------------------------------------------------------------------------------- metrics


@dataclass(frozen=True)
class Method:
    """How candidates are ordered: name in symeq | semco | log | linear | quadratic | majority | answer |
    repo_symeq | repo_semco; alpha for the combinations; tiebreak: "index" (sampling order) or "semco"
    (the higher SemCo score first) among equal scores; syntax: invalid candidates last."""

    name: str
    alpha: float = 0.5
    syntax: bool = True
    tau_symeq: float = 0.25
    tau_semco: float = 1 / 3
    tiebreak: str = "index"

    def label(self) -> str:
        alpha = f" a={self.alpha:.2f}" if self.name in ("log", "linear", "quadratic") else ""
        return f"{self.name}{alpha}{', SemCo breaks ties' if self.tiebreak == 'semco' else ''}"


def order_for(p: ScoredProblem, m: Method) -> tuple[list[int], list[list[int]] | None]:
    """(order, classes used by n@k selection) of one problem under a method."""
    valid = p.valid if m.syntax else None
    tb = p.semco if m.tiebreak == "semco" else None
    k = p.k

    def by_class_size(classes: list[list[int]]) -> list[int]:
        size = {i: len(c) / k for c in classes for i in c}
        return rank([size[i] for i in range(k)], valid, tb)

    if m.name == "symeq":
        return rank(p.symeq, valid, tb), p.classes
    if m.name == "semco":
        return rank(p.semco, valid), None
    if m.name in ("log", "linear", "quadratic"):
        return rank(combine(p.symeq, p.semco, m.name, m.alpha, m.tau_symeq, m.tau_semco), valid, tb), p.classes
    if m.name == "majority":
        return by_class_size(p.string_classes), p.string_classes
    if m.name == "answer":
        return by_class_size(p.answer_classes), p.answer_classes
    if m.name == "repo_symeq" and p.repo_symeq is not None:
        return rank(p.repo_symeq, valid, tb), None
    if m.name == "repo_semco" and p.repo_semco is not None:
        return rank(p.repo_semco, valid), None
    raise ValueError(f"method {m.name} not available for {p.id}")


def n_at_k(problems: Iterable[ScoredProblem], m: Method, n: int) -> float:
    hits, total = 0, 0
    for p in problems:
        order, classes = order_for(p, m)
        picks = select(order, classes, n) if classes is not None else order[:n]
        hits += any(p.labels[i] for i in picks)
        total += 1
    return hits / total if total else float("nan")


def pass_at(problems: Iterable[ScoredProblem], n: int) -> float:
    """The first n samples in sampling order (no reranking)."""
    ps = list(problems)
    return sum(any(p.labels[:n]) for p in ps) / len(ps) if ps else float("nan")


def pass_at_k(problems: Iterable[ScoredProblem]) -> float:
    ps = list(problems)
    return sum(any(p.labels) for p in ps) / len(ps) if ps else float("nan")


def correct_merged(p: ScoredProblem) -> ScoredProblem:
    """`p` with every candidate labelled correct in one SymEq class (its other classes lose those members): what
    SymEq would pick if it merged all correct candidates and nothing else changed. A ceiling for what more SymEq
    recall can buy, computed from the labels, not a method (the wrong candidates keep the classes SymEq gave them,
    which may be fewer merges than their meaning allows, so the ceiling errs high)."""
    good = [i for i in range(p.k) if p.labels[i]]
    classes = ([good] if good else []) + [r for r in ([i for i in c if not p.labels[i]] for c in p.classes) if r]
    size = {i: len(c) / p.k for c in classes for i in c}
    return replace(p, classes=classes, symeq=[size[i] for i in range(p.k)])


def random_pick(problems: Iterable[ScoredProblem]) -> float:
    """Expected 1@k of a uniformly random pick."""
    ps = list(problems)
    return statistics.fmean(sum(p.labels) / p.k for p in ps) if ps else float("nan")


COMBOS = ("log", "linear", "quadratic")


def knobs_from(problems: Sequence[ScoredProblem]) -> dict[str, Method]:
    """Each method's knobs (alpha, tie-break) tuned on `problems`: to be used on *another* set."""
    return {name: tune(problems, name)[0] for name in ("symeq", "answer", "majority", *COMBOS)}


def tune(
    problems: Sequence[ScoredProblem],
    name: str,
    alphas: Sequence[float] | None = None,
    tiebreaks: Sequence[str] = ("index", "semco"),
) -> tuple[Method, float]:
    """The knobs (alpha for a combination, the tie-break) that maximize 1@k on `problems`: (method, 1@k).
    Among equal scores: the middle of the best alpha plateau, and sampling order before SemCo."""
    if name in COMBOS:
        grid = list(alphas) if alphas is not None else [i / 20 for i in range(21)]
    else:
        grid = [0.5]
    best: tuple[float, list[Method]] = (-1.0, [])
    for tiebreak in tiebreaks:
        for a in grid:
            m = Method(name, a, tiebreak=tiebreak)
            score = n_at_k(problems, m, 1)
            if score > best[0] + 1e-12:
                best = (score, [m])
            elif abs(score - best[0]) <= 1e-12:
                best[1].append(m)
    score, top = best
    first = [m for m in top if m.tiebreak == top[0].tiebreak]
    return first[len(first) // 2], score


def best_combination(problems: Sequence[ScoredProblem]) -> tuple[Method, float]:
    """The combination (method, alpha, tie-break) with the highest 1@k on `problems` themselves: (method, 1@k).
    Labels choose the knobs, so this is a diagnostic, not a method: the most any knobs reach with these SymEq and
    SemCo scores (a target above it needs other scores, not other knobs)."""
    best = [tune(problems, c) for c in COMBOS]
    return max(best, key=lambda t: t[1])


def within_problem_auc(problems: Iterable[ScoredProblem], score: Callable[[ScoredProblem], Sequence[float]]) -> float:
    """How well a candidate score separates correct from incorrect candidates of one problem: over every pair (a
    correct and an incorrect candidate of the same problem), the share where the correct one scores higher, ties
    counting half (0.5: no signal; nan: no such pair). Unlike 1@k it has no tie-break, so it does not inherit the
    sampling order, which the labels of the dev set favour (`positional_correctness`)."""
    wins = pairs = 0.0
    for p in problems:
        s = list(score(p))
        if len(s) != p.k:
            raise ValueError(f"{p.id}: {len(s)} scores for {p.k} candidates")
        good = [s[i] for i in range(p.k) if p.labels[i]]
        bad = [s[i] for i in range(p.k) if not p.labels[i]]
        for a in good:
            for b in bad:
                pairs += 1
                wins += 1.0 if a > b else 0.5 if a == b else 0.0
    return wins / pairs if pairs else float("nan")


def positional_correctness(problems: Sequence[ScoredProblem]) -> list[float]:
    """Share of correct candidates at each sample index (a flat curve is what unbiased labels give)."""
    k = max((p.k for p in problems), default=0)
    return [statistics.fmean(p.labels[i] for p in problems if p.k > i) for i in range(k)] if problems else []


@dataclass
class Labelling:
    """Human labelling effort with SymEq classes, averaged over problems.

    labels_all_plain / labels_all_classes: labels to label every candidate without / with propagating
    one label per class (k vs the number of classes); propagation_accuracy: share of candidates whose
    propagated label equals their own; find_plain / find_classes: labels spent, walking the ranked
    order, until a correct candidate is found (or all are labelled), without / with skipping
    candidates whose class is already labelled.
    """

    problems: int
    labels_all_plain: float
    labels_all_classes: float
    propagation_accuracy: float
    find_plain: float
    find_classes: float

    @property
    def saved_all(self) -> float:
        return 1 - self.labels_all_classes / self.labels_all_plain

    @property
    def saved_find(self) -> float:
        return 1 - self.find_classes / self.find_plain


def labelling_efficiency(problems: Sequence[ScoredProblem], m: Method) -> Labelling:
    all_plain, all_cls, agree, total, find_plain, find_cls = [], [], 0, 0, [], []
    for p in problems:
        order, _ = order_for(p, m)
        all_plain.append(p.k)
        all_cls.append(len(p.classes))
        for cls in p.classes:
            rep = min(cls, key=order.index)
            agree += sum(p.labels[i] == p.labels[rep] for i in cls)
            total += len(cls)
        spent = next((n + 1 for n, i in enumerate(order) if p.labels[i]), p.k)
        find_plain.append(spent)
        class_of = {i: c for c, cls in enumerate(p.classes) for i in cls}
        seen: set[int] = set()
        cost = 0
        for i in order:
            if class_of[i] in seen:
                continue
            seen.add(class_of[i])
            cost += 1
            if p.labels[i]:
                break
        find_cls.append(cost)
    return Labelling(
        len(problems),
        statistics.fmean(all_plain),
        statistics.fmean(all_cls),
        agree / total if total else float("nan"),
        statistics.fmean(find_plain),
        statistics.fmean(find_cls),
    )


def score_isa_sets(
    cache: Path,
    config: SymEqConfig | None = None,
    limit: int | None = None,
    sets: Sequence[str] = ("math_train", "math_test", "minif2f"),
) -> dict[str, list[ScoredProblem]]:
    """The Isa-AutoFormal sets scored with one shared cache (eval/table1.py and eval/rerank_eval.py)."""
    from atf.data.isabelle import load_math, load_minif2f
    from atf.symeq.equivalence import VERSION

    config = config or SymEqConfig()
    tag = f"t{config.timeout_ms}_b{config.solver_budget_s:g}_v{VERSION}"
    suffix = f".first{limit}" if limit else ""
    loaders = {
        "math_train": lambda: load_math("train"),
        "math_test": lambda: load_math("test"),
        "minif2f": lambda: load_minif2f(),
    }
    out = {}
    for name in sets:
        problems = loaders[name]()
        if limit and name != "math_train":
            problems = problems[:limit]
        out[name] = score_problems(
            problems, "isabelle", cache, f"{name}_{tag}{suffix if name != 'math_train' else ''}", config
        )
    return out
