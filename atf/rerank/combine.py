"""Combining SymEq and SemCo scores, and n@k selection.

Both score vectors are first turned into distributions over the k candidates, `softmax(s / tau)`, so
that the two are on one scale whatever their raw ranges (class fractions vs cosines). Then, with
alpha the weight of SymEq:

    log        alpha * log p_sym + (1 - alpha) * log p_sem
    linear     alpha * p_sym     + (1 - alpha) * p_sem
    quadratic  alpha * p_sym**2  + (1 - alpha) * p_sem**2

(alpha = 1 ranks by SymEq alone, alpha = 0 by SemCo alone). n@k selection takes the best remaining
candidate n times, removing the chosen candidate's whole equivalence class each round, so the n picks
are n different meanings.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

METHODS = ("log", "linear", "quadratic")


def softmax(scores: Sequence[float], tau: float) -> list[float]:
    if not scores:
        return []
    if tau <= 0:
        raise ValueError(f"tau must be > 0, got {tau}")
    m = max(scores)
    ex = [math.exp((s - m) / tau) for s in scores]
    z = sum(ex)
    return [e / z for e in ex]


def combine(
    symeq: Sequence[float],
    semco: Sequence[float],
    method: str = "log",
    alpha: float = 0.5,
    tau_symeq: float = 0.25,
    tau_semco: float = 1 / 3,
) -> list[float]:
    """Combined scores (higher is better); see the module docstring."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha}")
    if len(symeq) != len(semco):
        raise ValueError(f"{len(symeq)} SymEq scores but {len(semco)} SemCo scores")
    p = softmax(symeq, tau_symeq)
    q = softmax(semco, tau_semco)
    if method == "log":
        return [alpha * math.log(a) + (1 - alpha) * math.log(b) for a, b in zip(p, q)]
    if method == "linear":
        return [alpha * a + (1 - alpha) * b for a, b in zip(p, q)]
    return [alpha * a * a + (1 - alpha) * b * b for a, b in zip(p, q)]


def rank(
    scores: Sequence[float], valid: Sequence[bool] | None = None, tiebreak: Sequence[float] | None = None
) -> list[int]:
    """Indices best first; ties go to the higher `tiebreak` score, then keep the sampling order;
    candidates marked invalid go last."""
    ok = valid if valid is not None else [True] * len(scores)
    tb = tiebreak if tiebreak is not None else [0.0] * len(scores)
    return sorted(range(len(scores)), key=lambda i: (not ok[i], -scores[i], -tb[i], i))


def select(order: Sequence[int], classes: Sequence[Sequence[int]] | None, n: int) -> list[int]:
    """n@k: up to n picks from `order`, each removing its equivalence class from the pool."""
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    class_of: dict[int, int] = {}
    for c, members in enumerate(classes or []):
        for m in members:
            class_of[m] = c
    taken: set[int] = set()
    picks: list[int] = []
    for i in order:
        c = class_of.get(i, -1 - i)  # an index in no class is its own class
        if c in taken:
            continue
        picks.append(i)
        taken.add(c)
        if len(picks) == n:
            break
    return picks
