"""FaithAlign-style scoring of align-then-label findings against gold findings.

A finding links an informal region to a Lean region and labels the link faithful, unfaithful (a defect) or
undecidable. A region is one [start, end) character span or several (a multi-span region, e.g. a hypothesis
split over two places); None means "no counterpart on this side".

We could not retrieve a published FaithAlign definition (searched the stored pages and docs); the rules below
are the ones issue 13 states, and each has a hand-computed test in tests/test_judge_faithalign.py:
  * trimming: on the Lean side, characters that carry no mathematics are not counted: whitespace, comments,
    `import`/`open`/`namespace`/`section`/`end` lines, the `theorem|lemma|example <name>` head, and the proof
    (`:= by sorry`, `:= sorry`, `:= by`). A region is its set of remaining characters.
  * match@t (t = 0.5): a predicted finding matches a gold finding when, at every endpoint that is non-empty
    in the gold (after trimming), the predicted region's character precision |G∩P|/|P| and recall |G∩P|/|G|
    are both >= t; a side with no counterpart in the gold must have none in the prediction either.
    (A prediction covering 6 of a 10-character gold span plus 4 characters outside it, on both sides, has
    precision = recall = 0.6 and matches, where IoU = 6/14 would not.)
  * matching is one-to-one and maximum (augmenting paths), never greedy; counts are summed over items (micro).
  * weighted credit: a matched pair earns the mean, over the gold's non-empty endpoints, of the endpoint's
    character F1; pairs are chosen by a maximum-weight one-to-one assignment over pairs with credit > 0
    (every gold endpoint overlapped). Weighted P = credit / predicted, R = credit / gold.
  * link F1@t over all findings whatever their labels; defect F1@t over "unfaithful" findings only;
    undecidable F1@t over "undecidable" findings only.
  * complete-defect identification: among items with at least one gold defect, the share whose every gold
    defect is matched by a predicted defect.
  * verdict accuracy: item verdicts by the priority rule (any unfaithful -> unfaithful, else any undecidable ->
    undecidable, else faithful) or given verdicts; undecidable-item rate: share of items whose predicted
    verdict is undecidable (the gold rate is reported beside it).
  * an ensemble's findings are merged before scoring: predicted findings of one item that match each other
    at t are one finding, labelled by the priority rule, so a defect found by two judges counts once.
A predicted finding whose quotes could not be located in the text matches nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from atf.judge.align import PRIORITY, priority_verdict
from atf.judge.result import Finding

Span = tuple[int, int]
Region = list[Span]


def as_region(value: Any) -> Region | None:
    """None, [start, end] or [[start, end], ...] as a sorted list of non-empty spans (None stays None)."""
    if value is None:
        return None
    if len(value) == 2 and all(isinstance(x, int) for x in value):
        value = [value]
    spans = []
    for span in value:
        if len(span) != 2 or not all(isinstance(x, int) for x in span) or span[0] < 0 or span[1] < span[0]:
            raise ValueError(f"a span must be [start, end) with 0 <= start <= end, got {span!r}")
        if span[1] > span[0]:
            spans.append((int(span[0]), int(span[1])))
    return sorted(spans)


_NONMATH = [
    re.compile(r"--[^\n]*"),
    re.compile(r"/-.*?-/", re.DOTALL),
    re.compile(r"^[ \t]*(?:import|open|namespace|section|end|set_option|universe|variable)\b[^\n]*", re.MULTILINE),
    re.compile(r"\b(?:theorem|lemma|example|def)\b(?:[ \t]+[^\s(\[{:]+)?"),
    re.compile(r":=\s*(?:by\s+sorry|sorry|by)\s*$", re.DOTALL),
    re.compile(r"\s+"),
]


def nonmath_mask(statement: str) -> set[int]:
    """Character offsets of the Lean text that carry no mathematics (see module doc)."""
    masked: set[int] = set()
    for pattern in _NONMATH:
        for m in pattern.finditer(statement):
            masked.update(range(m.start(), m.end()))
    return masked


def _chars(region: Region | None, mask: set[int]) -> set[int]:
    return set() if region is None else {i for s, e in region for i in range(s, e)} - mask


@dataclass
class _Side:
    gold: set[int]
    pred: set[int]
    gold_absent: bool
    pred_absent: bool


def _sides(g: Finding, p: Finding, lean_mask: set[int]) -> list[_Side]:
    gi, pi = as_region(g.informal_span), as_region(p.informal_span)
    gl, pl = as_region(g.lean_span), as_region(p.lean_span)
    return [
        _Side(_chars(gi, set()), _chars(pi, set()), g.informal_span is None, p.informal_span is None),
        _Side(_chars(gl, lean_mask), _chars(pl, lean_mask), g.lean_span is None, p.lean_span is None),
    ]


def endpoint_scores(g: Finding, p: Finding, lean_mask: set[int] = frozenset()) -> list[tuple[float, float]] | None:
    """(precision, recall) of the prediction at each of the gold's non-empty endpoints; None when a side the
    gold leaves without counterpart has one in the prediction (or the reverse)."""
    out = []
    for side in _sides(g, p, set(lean_mask)):
        if side.gold_absent or side.pred_absent:
            if side.gold_absent != side.pred_absent:
                return None
            continue
        if not side.gold:
            continue  # nothing mathematical on this side of the gold: not an endpoint to check
        inter = len(side.gold & side.pred)
        out.append((inter / len(side.pred) if side.pred else 0.0, inter / len(side.gold)))
    return out


def matches(g: Finding, p: Finding, t: float = 0.5, lean_mask: set[int] = frozenset()) -> bool:
    scores = endpoint_scores(g, p, lean_mask)
    return scores is not None and bool(scores) and all(pr >= t and rc >= t for pr, rc in scores)


def credit(g: Finding, p: Finding, lean_mask: set[int] = frozenset()) -> float:
    """Mean endpoint character F1 over the gold's non-empty endpoints; 0 unless every one overlaps."""
    scores = endpoint_scores(g, p, lean_mask)
    if not scores or any(pr == 0 or rc == 0 for pr, rc in scores):
        return 0.0
    return sum(2 * pr * rc / (pr + rc) for pr, rc in scores) / len(scores)


def _located(f: Finding) -> bool:
    """Both sides either absent on purpose or found in the text, and at least one present."""
    return (
        (f.informal_span is not None or f.informal is None)
        and (f.lean_span is not None or f.lean is None)
        and (f.informal_span is not None or f.lean_span is not None)
    )


def max_matching(n_gold: int, n_pred: int, ok: Callable[[int, int], bool]) -> list[tuple[int, int]]:
    """A maximum one-to-one matching of (gold, pred) index pairs satisfying `ok` (augmenting paths)."""
    edges = [[p for p in range(n_pred) if ok(g, p)] for g in range(n_gold)]
    owner: dict[int, int] = {}

    def augment(g: int, seen: set[int]) -> bool:
        for p in edges[g]:
            if p in seen:
                continue
            seen.add(p)
            if p not in owner or augment(owner[p], seen):
                owner[p] = g
                return True
        return False

    for g in range(n_gold):
        augment(g, set())
    return sorted((g, p) for p, g in owner.items())


def max_weight(weights: list[list[float]]) -> float:
    """The largest total weight of a one-to-one assignment (pairs of weight 0 add nothing)."""
    if not weights or not weights[0]:
        return 0.0
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(weights, maximize=True)
    return float(sum(weights[r][c] for r, c in zip(rows, cols)))


def merge_findings(findings: Iterable[Finding], t: float = 0.5, lean_mask: set[int] = frozenset()) -> list[Finding]:
    """One finding per link: findings (of several judges) that match each other at t become the first of them,
    labelled by the priority rule, with the judges joined by "+"."""
    merged: list[Finding] = []
    for f in findings:
        same = next((m for m in merged if _located(f) and _located(m) and matches(m, f, t, lean_mask)), None)
        if same is None:
            merged.append(Finding(**asdict(f)))
            continue
        same.label = min(same.label, f.label, key=PRIORITY.index)
        if f.judge and f.judge not in same.judge.split("+"):
            same.judge = f"{same.judge}+{f.judge}" if same.judge else f.judge
    return merged


def prf(tp: float, n_pred: int, n_gold: int) -> tuple[float, float, float]:
    """Precision, recall, F1; all 1.0 when there was nothing to find and nothing was predicted."""
    if n_pred == 0 and n_gold == 0:
        return 1.0, 1.0, 1.0
    p = tp / n_pred if n_pred else 0.0
    r = tp / n_gold if n_gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


@dataclass
class FaithAlignScores:
    link_precision: float
    link_recall: float
    link_f1: float
    link_weighted_f1: float
    defect_precision: float
    defect_recall: float
    defect_f1: float
    defect_weighted_f1: float
    undecidable_precision: float
    undecidable_recall: float
    undecidable_f1: float
    complete_defect_identification: float | None  # None when no item has a gold defect
    verdict_accuracy: float
    undecidable_item_rate: float
    gold_undecidable_item_rate: float
    items: int
    defective_items: int
    gold_findings: int
    pred_findings: int
    gold_defects: int
    pred_defects: int
    threshold: float

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class _Tally:
    tp: int = 0
    credit: float = 0.0
    n_gold: int = 0
    n_pred: int = 0

    def add(self, gold: list[Finding], pred: list[Finding], t: float, mask: set[int]) -> int:
        pred = [p for p in pred if _located(p)] + [p for p in pred if not _located(p)]
        located = sum(_located(p) for p in pred)
        pairs = max_matching(len(gold), located, lambda g, p: matches(gold[g], pred[p], t, mask))
        weights = [[credit(g, p, mask) for p in pred[:located]] for g in gold]
        self.tp += len(pairs)
        self.credit += max_weight(weights)
        self.n_gold += len(gold)
        self.n_pred += len(pred)
        return len(pairs)

    def scores(self) -> tuple[float, float, float, float]:
        p, r, f = prf(self.tp, self.n_pred, self.n_gold)
        return p, r, f, prf(self.credit, self.n_pred, self.n_gold)[2]


def score_findings(
    gold: Sequence[Sequence[Finding]],
    pred: Sequence[Sequence[Finding]],
    threshold: float = 0.5,
    gold_verdicts: Sequence[str] | None = None,
    pred_verdicts: Sequence[str] | None = None,
    statements: Sequence[str | None] | None = None,
    merge: bool = True,
) -> FaithAlignScores:
    """Score per-item predicted findings against gold findings (lists aligned by item). statements: each item's
    Lean text, for trimming (None: no trimming). merge: merge the predicted findings of each item first."""
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold items but {len(pred)} predicted items")
    if statements is not None and len(statements) != len(gold):
        raise ValueError(f"{len(statements)} statements for {len(gold)} items")
    if not 0 < threshold <= 1:
        raise ValueError(f"threshold must be in (0, 1], got {threshold}")
    for i, findings in enumerate(gold):
        for f in findings:
            if f.informal_span is None and f.lean_span is None:
                raise ValueError(f"gold item {i}: a finding has neither an informal nor a Lean span")
    links, defects, undecidables = _Tally(), _Tally(), _Tally()
    correct = complete = defective = pred_undecidable = gold_undecidable = 0
    for i, (g, p) in enumerate(zip(gold, pred)):
        mask = nonmath_mask(statements[i]) if statements is not None and statements[i] else set()
        g, p = list(g), merge_findings(p, threshold, mask) if merge else list(p)
        links.add(g, p, threshold, mask)
        gd = [f for f in g if f.label == "unfaithful"]
        found = defects.add(gd, [f for f in p if f.label == "unfaithful"], threshold, mask)
        if gd:
            defective += 1
            complete += found == len(gd)
        undecidables.add(
            [f for f in g if f.label == "undecidable"], [f for f in p if f.label == "undecidable"], threshold, mask
        )
        gv = gold_verdicts[i] if gold_verdicts is not None else priority_verdict(f.label for f in g)
        pv = pred_verdicts[i] if pred_verdicts is not None else priority_verdict(f.label for f in p)
        correct += gv == pv
        pred_undecidable += pv == "undecidable"
        gold_undecidable += gv == "undecidable"
    n = len(gold)
    lp, lr, lf, lw = links.scores()
    dp, dr, df, dw = defects.scores()
    up, ur, uf, _ = undecidables.scores()
    return FaithAlignScores(
        link_precision=lp, link_recall=lr, link_f1=lf, link_weighted_f1=lw,
        defect_precision=dp, defect_recall=dr, defect_f1=df, defect_weighted_f1=dw,
        undecidable_precision=up, undecidable_recall=ur, undecidable_f1=uf,
        complete_defect_identification=complete / defective if defective else None,
        verdict_accuracy=correct / n if n else 0.0,
        undecidable_item_rate=pred_undecidable / n if n else 0.0,
        gold_undecidable_item_rate=gold_undecidable / n if n else 0.0,
        items=n, defective_items=defective,
        gold_findings=links.n_gold, pred_findings=links.n_pred,
        gold_defects=defects.n_gold, pred_defects=defects.n_pred,
        threshold=threshold,
    )  # fmt: skip


def findings_from_record(record: dict) -> list[Finding]:
    """Findings of one JSONL record (gold file, or `atf consistency-check --mode align` output). Spans may be
    [start, end] or a list of them; spans missing from a finding are located from its quotes when the record
    has "problem" and "statement"."""
    from atf.judge.align import locate

    out = []
    for i, d in enumerate(record.get("findings") or []):
        if not isinstance(d, dict) or d.get("label") not in PRIORITY:
            raise ValueError(f"record {record.get('id')!r}: finding {i} needs a label faithful|unfaithful|undecidable")
        try:
            f = Finding.from_dict(d)
        except (TypeError, ValueError) as err:
            raise ValueError(f"record {record.get('id')!r}: finding {i}: {err}") from None
        if f.informal_span is None and f.informal and "problem" in record:
            f.informal_span = locate(f.informal, record["problem"])
        if f.lean_span is None and f.lean and "statement" in record:
            f.lean_span = locate(f.lean, record["statement"])
        out.append(f)
    return out


def load_findings_jsonl(path) -> dict[str, tuple[list[Finding], str | None, str | None]]:
    """{id: (findings, verdict or None, statement or None)} from a JSONL file whose records carry "id" and
    "findings"."""
    import json
    from pathlib import Path

    out: dict[str, tuple[list[Finding], str | None, str | None]] = {}
    for lineno, line in enumerate(Path(path).read_text(encoding="utf-8").split("\n"), 1):  # never U+2028
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            key = str(record["id"])
        except (json.JSONDecodeError, KeyError, TypeError) as err:
            raise ValueError(f"{path}:{lineno}: expected a JSON object with an 'id': {err}") from None
        if key in out:
            raise ValueError(f"{path}:{lineno}: duplicate id {key!r}")
        verdict = record.get("verdict")
        statement = record.get("statement") if isinstance(record.get("statement"), str) else None
        # a check that errored gave no verdict: scored as wrong, never as the verdict of its (empty) findings
        out[key] = (findings_from_record(record), verdict if verdict in (*PRIORITY, "error") else None, statement)
    return out


def score_files(gold_path, pred_path, threshold: float = 0.5) -> tuple[FaithAlignScores, list[str]]:
    """Score a predictions JSONL against a gold JSONL, matched by id. Gold ids without a prediction are
    scored as no findings with a wrong verdict, and returned as the second value."""
    gold = load_findings_jsonl(gold_path)
    pred = load_findings_jsonl(pred_path)
    ids = list(gold)
    missing = [i for i in ids if i not in pred]
    gold_verdicts = [gold[i][1] or priority_verdict(f.label for f in gold[i][0]) for i in ids]
    pred_verdicts = []
    for i in ids:
        if i in missing:
            pred_verdicts.append("missing")
            continue
        mask = nonmath_mask(gold[i][2]) if gold[i][2] else set()
        pred_verdicts.append(
            pred[i][1] or priority_verdict(f.label for f in merge_findings(pred[i][0], threshold, mask))
        )
    scores = score_findings(
        [gold[i][0] for i in ids],
        [pred[i][0] if i in pred else [] for i in ids],
        threshold=threshold,
        gold_verdicts=gold_verdicts,
        pred_verdicts=pred_verdicts,
        statements=[gold[i][2] for i in ids],
    )
    return scores, missing
