"""Variable alignment: the branch-and-bound search returns the cheapest matchings an exhaustive enumeration finds."""

import itertools
import random

import pytest

from atf.symeq.align import _max_cardinality, pair_costs, top_matchings
from atf.symeq.ir import INT, NAT, REAL


def brute_force(vars_a, vars_b, k, unmatched_cost=1.0):
    """Every injective partial matching of B's variables into A's, priced as top_matchings prices them."""
    costs = pair_costs(vars_a, vars_b)
    bs = list(vars_b)
    found = []
    for targets in itertools.product([None, *vars_a], repeat=len(bs)):
        chosen = [t for t in targets if t is not None]
        if len(set(chosen)) != len(chosen) or any(t is not None and (b, t) not in costs for b, t in zip(bs, targets)):
            continue
        m = {b: t for b, t in zip(bs, targets) if t is not None}
        unmatched_b = len(bs) - len(m)  # (top_matchings counts an unmatched B variable twice)
        total = sum(costs[(b, t)] for b, t in m.items()) + unmatched_cost * (2 * unmatched_b + len(vars_a) - len(m))
        found.append((total, m))
    found.sort(key=lambda x: x[0])
    return _max_cardinality(found[:k])


NAMES = ["a", "b", "c", "x", "y", "n", "A", "B", "total", "t1", "t2"]


@pytest.mark.parametrize("seed", range(40))
def test_search_finds_the_cheapest_matchings(seed):
    rng = random.Random(seed)
    pick = lambda n: {v: rng.choice([INT, REAL, NAT]) for v in rng.sample(NAMES, n)}  # noqa: E731
    vars_a, vars_b = pick(rng.randint(1, 5)), pick(rng.randint(1, 5))
    got = top_matchings(vars_a, vars_b, k=3)
    want = brute_force(vars_a, vars_b, k=3)
    assert [round(c, 9) for c, _ in got] == [round(c, 9) for c, _ in want]


def test_eight_same_typed_variables_with_unlike_names():
    # A..H against a..h: every pair costs about as much as leaving both unmatched (the case the bound prunes)
    vars_a = {n: INT for n in "abcdefgh"}
    vars_b = {n: INT for n in "ABCDEFGH"}
    got = top_matchings(vars_a, vars_b, k=3)
    assert got[0][1] == dict(zip("ABCDEFGH", "abcdefgh"))  # declaration order breaks the tie
    assert len(got) == 3 and all(len(m) == 8 for _, m in got)
