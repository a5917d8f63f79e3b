"""The pool's step budget counts the worker's CPU time (`atf.symeq.pool.STEP_CLOCK`), so a busy machine does not
kill a step a quiet one finishes.

On the wall clock, a step that takes 0.6 s on a quiet machine was killed at the 2.5 s step budget once its worker got
less than a quarter of a core, and its pair became unknown: a verdict decided by the load. Here the load is real:
busy processes pinned to the core the worker runs on."""

import os
import re
import textwrap
import time

import pytest

from atf.symeq.config import SymEqConfig
from atf.symeq.pool import SymEqPool, _cpu_seconds

pytestmark = pytest.mark.skipif(
    _cpu_seconds(os.getpid()) is None or not hasattr(os, "sched_setaffinity"), reason="needs /proc (Linux)"
)

CORE = min(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 0

# A worker pinned to CORE whose pair steps on BURN compute for 0.4 s of CPU time, and on SPIN never stop (a Z3 query
# past its own limits computes; it does not sleep).
WORKER = textwrap.dedent(f"""
    import os, sys, time
    os.sched_setaffinity(0, [{CORE}])
    import atf.symeq.equivalence
    e = sys.modules["atf.symeq.equivalence"]
    compare = e.SymEq.compare_statements
    def computing(self, sa, sb, ta, tb, i, j, cache=None, *rest):
        if "SPIN" in ta + tb:
            while True:
                pass
        if "BURN" in ta + tb:
            t0 = time.process_time()
            while time.process_time() - t0 < 0.4:
                pass
        return compare(self, sa, sb, ta, tb, i, j, cache, *rest)
    e.SymEq.compare_statements = computing
    from atf.symeq.pool import worker_main
    worker_main({{fd}}, {{parent}})
""")


class ComputingPool(SymEqPool):
    worker_code = WORKER


CANDS = [
    "theorem a (x : ℕ) (h : x + 1 = 3) : x = 2 := by sorry",
    "theorem BURN (y : ℕ) (h : y + 1 = 3) : y = 2 := by sorry",
]
CFG = SymEqConfig(step_budget_s=0.8, clock_retry_s=0.0, solver_budget_s=60.0, problem_budget_s=60)


def test_a_step_whose_worker_shares_its_core_is_not_killed_for_the_load(busy_core):
    with ComputingPool(1) as pool:
        pool.cluster(CANDS[:1], "lean")  # a started worker
        with busy_core(4, CORE):
            t0 = time.monotonic()
            res = pool.cluster(CANDS, "lean", CFG)
            wall = time.monotonic() - t0
    # the step took longer than its budget on the wall clock (a wall-clock budget killed it) but not in CPU time
    assert wall > CFG.step_budget_s, wall
    assert not any("killed" in p.detail for p in res.pairs), res.pairs
    assert res.classes == [[0, 1]]


def test_a_step_that_keeps_computing_is_killed_at_its_budget_of_cpu_time():
    with ComputingPool(1) as pool:
        pool.cluster(CANDS[:1], "lean")
        res = pool.cluster([CANDS[0], "theorem SPIN (z : ℕ) (h : z + 1 = 3) : z = 2 := by sorry"], "lean", CFG)
    (pair,) = res.pairs
    m = re.search(r"killed after ([\d.]+) s \(([\d.]+) s of CPU time\)", pair.detail)
    assert pair.status == "unknown" and m, pair
    assert float(m.group(2)) >= CFG.step_budget_s - 0.05 and float(m.group(1)) < 5 * CFG.step_budget_s
    assert res.classes == [[0], [1]]
