"""FaithAlign-style scoring of align-then-label findings against gold findings.

A finding links an informal span to a Lean span ([start, end) character offsets; None = "no counterpart
on this side"). For each item, predicted and gold findings are matched one-to-one, greedily by the
sum of the two sides' IoU (best pair first). Counts are summed over items (micro average).

    link P/R/F1      a pair matches when the spans overlap on both sides (None matches only None),
                     whatever the labels.
    defect P/R/F1@t  only findings labelled "unfaithful"; a pair matches when IoU >= t on both sides
                     (None vs None counts as IoU 1, None vs a span as 0). t = 0.5 by default.
    verdict accuracy item verdict by the priority rule over each side's labels (or given verdicts).
A predicted finding whose spans were not located in the text cannot match anything.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable, Sequence

from atf.judge.align import priority_verdict
from atf.judge.result import Finding

Span = tuple[int, int] | None


def span_iou(a: Span, b: Span) -> float:
    if a is None and b is None:
        return 1.0
    if a is None or b is None:
        return 0.0
    inter = max(0, min(a[1], b[1]) - max(a[0], b[0]))
    union = max(a[1], b[1]) - min(a[0], b[0])
    return inter / union if union > 0 else 0.0


def spans_overlap(a: Span, b: Span) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return min(a[1], b[1]) > max(a[0], b[0])


def _located(f: Finding) -> bool:
    """Both sides either absent on purpose or found in the text."""
    return (f.informal_span is not None or f.informal is None) and (f.lean_span is not None or f.lean is None) and (
        f.informal_span is not None or f.lean_span is not None
    )


def match(gold: Sequence[Finding], pred: Sequence[Finding], ok: Callable[[Finding, Finding], bool]) -> list[tuple[int, int]]:
    """Greedy one-to-one matching of (gold index, pred index) pairs that satisfy `ok`, best IoU sum first."""
    candidates = []
    for gi, g in enumerate(gold):
        for pi, p in enumerate(pred):
            if _located(p) and ok(g, p):
                score = span_iou(g.informal_span, p.informal_span) + span_iou(g.lean_span, p.lean_span)
                candidates.append((-score, gi, pi))
    used_g, used_p, pairs = set(), set(), []
    for _, gi, pi in sorted(candidates):
        if gi not in used_g and pi not in used_p:
            used_g.add(gi)
            used_p.add(pi)
            pairs.append((gi, pi))
    return pairs


def prf(tp: int, n_pred: int, n_gold: int) -> tuple[float, float, float]:
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
    defect_precision: float
    defect_recall: float
    defect_f1: float
    verdict_accuracy: float
    items: int
    gold_findings: int
    pred_findings: int
    gold_defects: int
    pred_defects: int
    iou_threshold: float

    def to_dict(self) -> dict:
        return asdict(self)


def score_findings(
    gold: Sequence[Sequence[Finding]],
    pred: Sequence[Sequence[Finding]],
    iou_threshold: float = 0.5,
    gold_verdicts: Sequence[str] | None = None,
    pred_verdicts: Sequence[str] | None = None,
) -> FaithAlignScores:
    """Score per-item predicted findings against gold findings (lists aligned by item)."""
    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold items but {len(pred)} predicted items")
    for i, findings in enumerate(gold):
        for f in findings:
            if f.informal_span is None and f.lean_span is None:
                raise ValueError(f"gold item {i}: a finding has neither an informal nor a Lean span")
    link_tp = defect_tp = correct = 0
    n_gold = n_pred = d_gold = d_pred = 0
    for i, (g, p) in enumerate(zip(gold, pred)):
        n_gold, n_pred = n_gold + len(g), n_pred + len(p)
        link_tp += len(
            match(g, p, lambda a, b: spans_overlap(a.informal_span, b.informal_span) and spans_overlap(a.lean_span, b.lean_span))
        )
        gd, pdf = [f for f in g if f.is_defect], [f for f in p if f.is_defect]
        d_gold, d_pred = d_gold + len(gd), d_pred + len(pdf)
        defect_tp += len(
            match(
                gd,
                pdf,
                lambda a, b: span_iou(a.informal_span, b.informal_span) >= iou_threshold
                and span_iou(a.lean_span, b.lean_span) >= iou_threshold,
            )
        )
        gv = gold_verdicts[i] if gold_verdicts is not None else priority_verdict(f.label for f in g)
        pv = pred_verdicts[i] if pred_verdicts is not None else priority_verdict(f.label for f in p)
        correct += gv == pv
    lp, lr, lf = prf(link_tp, n_pred, n_gold)
    dp, dr, df = prf(defect_tp, d_pred, d_gold)
    return FaithAlignScores(
        link_precision=lp,
        link_recall=lr,
        link_f1=lf,
        defect_precision=dp,
        defect_recall=dr,
        defect_f1=df,
        verdict_accuracy=correct / len(gold) if gold else 0.0,
        items=len(gold),
        gold_findings=n_gold,
        pred_findings=n_pred,
        gold_defects=d_gold,
        pred_defects=d_pred,
        iou_threshold=iou_threshold,
    )


def findings_from_record(record: dict) -> list[Finding]:
    """Findings of one JSONL record (gold file, or `atf consistency-check --mode align` output). Spans
    missing from a finding are located from its quotes when the record has "problem" and "statement"."""
    from atf.judge.align import locate

    out = []
    for i, d in enumerate(record.get("findings") or []):
        if not isinstance(d, dict) or d.get("label") not in ("faithful", "unfaithful", "undecidable"):
            raise ValueError(f"record {record.get('id')!r}: finding {i} needs a label faithful|unfaithful|undecidable")
        f = Finding.from_dict(d)
        if f.informal_span is None and f.informal and "problem" in record:
            f.informal_span = locate(f.informal, record["problem"])
        if f.lean_span is None and f.lean and "statement" in record:
            f.lean_span = locate(f.lean, record["statement"])
        out.append(f)
    return out


def load_findings_jsonl(path) -> dict[str, tuple[list[Finding], str | None]]:
    """{id: (findings, verdict or None)} from a JSONL file whose records carry "id" and "findings"."""
    import json
    from pathlib import Path

    out: dict[str, tuple[list[Finding], str | None]] = {}
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
        out[key] = (findings_from_record(record), verdict if verdict in ("faithful", "unfaithful", "undecidable") else None)
    return out


def score_files(gold_path, pred_path, iou_threshold: float = 0.5) -> tuple[FaithAlignScores, list[str]]:
    """Score a predictions JSONL against a gold JSONL, matched by id. Gold ids without a prediction are
    scored as no findings with a wrong verdict, and returned as the second value."""
    gold = load_findings_jsonl(gold_path)
    pred = load_findings_jsonl(pred_path)
    ids = list(gold)
    missing = [i for i in ids if i not in pred]
    gold_verdicts = [gold[i][1] or priority_verdict(f.label for f in gold[i][0]) for i in ids]
    pred_verdicts = []
    for i, gv in zip(ids, gold_verdicts):
        if i in missing:
            pred_verdicts.append("missing")
        else:
            pred_verdicts.append(pred[i][1] or priority_verdict(f.label for f in pred[i][0]))
    scores = score_findings(
        [gold[i][0] for i in ids],
        [pred[i][0] if i in pred else [] for i in ids],
        iou_threshold=iou_threshold,
        gold_verdicts=gold_verdicts,
        pred_verdicts=pred_verdicts,
    )
    return scores, missing
