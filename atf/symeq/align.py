"""Variable alignment: which variable of one statement plays the role of which in the other.

A bipartite matching between the two statements' free variables: only variables of the same type may
be matched, the cost of a pair is the normalized edit distance of the names (plus a small penalty for
a different declaration position, which breaks ties such as `x y` vs `a b`), a variable left
unmatched costs `unmatched_cost`, and only matchings pairing as many variables as the types allow are
kept. `top_matchings` returns the few cheapest matchings, best first
(exhaustive branch and bound for the small variable counts statements have; the Hungarian optimum
plus its single-pair swaps beyond that).
"""

from __future__ import annotations

import heapq
import itertools

import numpy as np

from atf.symeq.ir import Ty, type_shape

Matching = dict[str, str]  # name in B -> name in A
EXHAUSTIVE_LIMIT = 8


def edit_distance(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def name_cost(a: str, b: str) -> float:
    return edit_distance(a, b) / max(len(a), len(b), 1)


def pair_costs(vars_a: dict[str, Ty], vars_b: dict[str, Ty]) -> dict[tuple[str, str], float]:
    """Cost of matching b with a, for type-compatible pairs only."""
    na, nb = max(len(vars_a), 1), max(len(vars_b), 1)
    pos_a = {n: k / na for k, n in enumerate(vars_a)}
    pos_b = {n: k / nb for k, n in enumerate(vars_b)}
    out = {}
    shape_a = {a: type_shape(t, set(vars_a)) for a, t in vars_a.items()}  # `Fin n` and `Fin m` may match
    shape_b = {b: type_shape(t, set(vars_b)) for b, t in vars_b.items()}
    for b in vars_b:
        for a in vars_a:
            if shape_a[a] == shape_b[b]:
                out[(b, a)] = name_cost(a, b) + 0.05 * abs(pos_a[a] - pos_b[b])
    return out


def top_matchings(
    vars_a: dict[str, Ty], vars_b: dict[str, Ty], k: int = 3, unmatched_cost: float = 1.0
) -> list[tuple[float, Matching]]:
    """The k cheapest matchings as (cost, {b: a}), cheapest first, all of maximum cardinality."""
    costs = pair_costs(vars_a, vars_b)
    if max(len(vars_a), len(vars_b)) > EXHAUSTIVE_LIMIT:
        return _hungarian(vars_a, vars_b, costs, k, unmatched_cost)
    bs = sorted(vars_b, key=lambda b: sum(1 for (bb, _) in costs if bb == b))  # most constrained first
    best: list[tuple[float, int, Matching]] = []  # max-heap via negated cost
    counter = itertools.count()
    # the least the variables from idx on can still add (a lower bound: the search stays exact, but with eight
    # same-typed variables whose names all differ it no longer walks all 8! orders, a second per pair)
    least = [min([c for (bb, _), c in costs.items() if bb == b] + [unmatched_cost]) for b in bs]
    rest = [sum(least[i:]) - 1e-9 for i in range(len(bs) + 1)]

    def total(used: set[str], partial_cost: float, unmatched_b: int) -> float:
        return partial_cost + unmatched_cost * (unmatched_b + len(vars_a) - len(used))

    def search(idx: int, used: set[str], cur: Matching, cost: float, unmatched_b: int) -> None:
        if len(best) == k and cost + rest[idx] >= -best[0][0]:
            return
        if idx == len(bs):
            t = total(used, cost, unmatched_b)
            if len(best) < k:
                heapq.heappush(best, (-t, next(counter), dict(cur)))
            elif t < -best[0][0]:
                heapq.heapreplace(best, (-t, next(counter), dict(cur)))
            return
        b = bs[idx]
        options = sorted((c, a) for (bb, a), c in costs.items() if bb == b and a not in used)
        for c, a in options:
            cur[b] = a
            used.add(a)
            search(idx + 1, used, cur, cost + c, unmatched_b)
            used.discard(a)
            del cur[b]
        search(idx + 1, used, cur, cost + unmatched_cost, unmatched_b + 1)

    search(0, set(), {}, 0.0, 0)
    return _max_cardinality([(-c, m) for c, _, m in sorted(best, key=lambda x: (-x[0], x[1]))])


def _max_cardinality(results: list[tuple[float, Matching]]) -> list[tuple[float, Matching]]:
    """Keep only matchings that pair as many variables as possible: leaving a variable unmatched when
    it could be paired would let two statements agree merely because each is satisfiable."""
    if not results:
        return results
    most = max(len(m) for _, m in results)
    return [(c, m) for c, m in results if len(m) == most]


def _hungarian(vars_a, vars_b, costs, k, unmatched_cost) -> list[tuple[float, Matching]]:
    from scipy.optimize import linear_sum_assignment  # only statements with many variables get here

    a_names, b_names = list(vars_a), list(vars_b)
    n = len(a_names) + len(b_names)
    big = 1e6
    m = np.full((n, n), big)
    for i, b in enumerate(b_names):
        for j, a in enumerate(a_names):
            if (b, a) in costs:
                m[i, j] = costs[(b, a)]
        m[i, len(a_names) + i] = unmatched_cost
    for j in range(len(a_names)):
        m[len(b_names) + j, j] = unmatched_cost
    m[len(b_names) :, len(a_names) :] = 0.0

    def solve(mat) -> tuple[float, Matching]:
        rows, cols = linear_sum_assignment(mat)
        match = {
            b_names[r]: a_names[c]
            for r, c in zip(rows, cols)
            if r < len(b_names) and c < len(a_names) and mat[r, c] < big
        }
        return float(mat[rows, cols].sum()), match

    results = [solve(m)]
    base = results[0][1]
    for b, a in list(base.items()):
        if len(results) >= k:
            break
        alt = m.copy()
        alt[b_names.index(b), a_names.index(a)] = big  # Murty-style: forbid one pair of the optimum
        cost, match = solve(alt)
        if match != base and cost < big:
            results.append((cost, match))
    return _max_cardinality(sorted(results, key=lambda x: x[0])[:k])
