"""Judge-vs-label metrics. "Positive" means consistent: a false positive is an inconsistent statement
the judge lets through, which is the error that matters for a tool gating the formalizer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations


@dataclass
class BinaryScores:
    """n, base_rate (share of gold positives), accuracy, fpr, precision, recall; None where undefined."""

    n: int
    base_rate: float
    accuracy: float
    fpr: float | None
    precision: float | None
    recall: float | None


def binary_scores(pred: Sequence[bool], gold: Sequence[bool]) -> BinaryScores:
    if len(pred) != len(gold):
        raise ValueError(f"{len(pred)} predictions but {len(gold)} labels")
    if not gold:
        raise ValueError("no items to score")
    tp = sum(p and g for p, g in zip(pred, gold))
    fp = sum(p and not g for p, g in zip(pred, gold))
    tn = sum(not p and not g for p, g in zip(pred, gold))
    fn = sum(not p and g for p, g in zip(pred, gold))
    n = len(gold)
    return BinaryScores(
        n=n,
        base_rate=(tp + fn) / n,
        accuracy=(tp + tn) / n,
        fpr=fp / (fp + tn) if fp + tn else None,
        precision=tp / (tp + fp) if tp + fp else None,
        recall=tp / (tp + fn) if tp + fn else None,
    )


def exact_agreement(raters: Sequence[Sequence[bool]]) -> float:
    """Share of items on which all raters give the same label (raters[r][item])."""
    _check(raters)
    return sum(len(set(col)) == 1 for col in zip(*raters)) / len(raters[0])


def pairwise_agreement(raters: Sequence[Sequence[bool]]) -> float:
    """Mean, over all pairs of raters, of the share of items on which the pair agrees."""
    _check(raters)
    pairs = list(combinations(raters, 2))
    return sum(sum(a == b for a, b in zip(x, y)) / len(x) for x, y in pairs) / len(pairs)


def _check(raters: Sequence[Sequence[bool]]) -> None:
    if len(raters) < 2:
        raise ValueError("agreement needs at least two raters")
    if len({len(r) for r in raters}) != 1 or not raters[0]:
        raise ValueError("every rater must label the same, non-empty list of items")
