"""pass@k over tool-loop rollouts: SC (the final statement passed the syntax check) and CC (it passed
both checks, i.e. the consistency check on a statement that compiles)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from math import comb

from atf.agent.trajectory import Trajectory


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased estimate of P(at least one of k samples passes) from n samples with c passing."""
    if k > n:
        raise ValueError(f"k={k} needs at least k samples per problem, got n={n}")
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def passk_table(trajectories: Iterable[Trajectory], ks: Sequence[int], key: str = "id") -> dict[str, dict[int, float]]:
    """{"SC": {k: pass@k}, "CC": {k: pass@k}} averaged over problems (grouped by `meta[key]`, else the problem text).
    Every problem must have the same number of samples n >= max(ks)."""
    groups: dict[str, list[Trajectory]] = defaultdict(list)
    for t in trajectories:
        groups[str(t.meta.get(key, t.problem))].append(t)
    if not groups:
        raise ValueError("no trajectories")
    sizes = {len(v) for v in groups.values()}
    if len(sizes) != 1:
        raise ValueError(f"problems have different sample counts {sorted(sizes)}; finish the run first")
    n = sizes.pop()
    out: dict[str, dict[int, float]] = {"SC": {}, "CC": {}}
    for k in ks:
        out["SC"][k] = sum(pass_at_k(n, sum(t.syntax_ok for t in v), k) for v in groups.values()) / len(groups)
        out["CC"][k] = sum(pass_at_k(n, sum(t.success for t in v), k) for v in groups.values()) / len(groups)
    return out
