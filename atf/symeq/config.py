"""The settings of SymEq, each default defined here once (the CLI, the Reranker and the eval scripts read it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SymEqConfig:
    """timeout_ms: Z3's budget per query, in nominal milliseconds: a resource limit of that many times
        `smt.RLIMIT_PER_MS` of Z3's own steps, so that a verdict does not depend on the machine's load (a backstop
        stays, at three times this in the CPU time of the thread that runs the query: `atf.symeq.backstop`).
        Neither is a hard limit: Z3 checks both only in some places, and a 300 ms query has run for minutes,
        which is why the budgets below exist.
    top_k: variable alignments tried per pair of candidates.
    solver_budget_s: Z3 work one problem may spend at the full `timeout_ms` per query (nominal seconds: the
        resource units its queries consumed over `smt.RLIMIT_PER_MS`, not the clock). Every pair is first
        decided at a tenth of it (most verdicts take milliseconds); only the pairs that leaves open, and that
        transitivity has not joined, are asked again at the full timeout, while this budget lasts. A problem
        whose pairs all time out (quantified recursive definitions) then costs a second, not minutes.
        The defaults (150 ms, 0.15 s) were chosen on the dev set, the 397 MATH problems outside the paper's 400
        (`eval/symeq_speed_dev.py`): 150 ms gives the same classes as 300 ms on 396 or all 397 of those problems
        (runs differ by a timing-bound pair), in about half the time at the 90th percentile; Z3 decides 95% of
        what it decides at 300 ms within 100 ms. The second pass rarely merges: with a 0.3 s budget it asked
        305 dev pairs again (30.7 s) and 4 merged, with 0.15 s 179 pairs (16.8 s) and 3 merged; the classes
        merged 6493 and 6499 pairs (timing-bound pairs differ between runs), p90 1.12 s and 0.93 s (load 2).
    step_budget_s: hard bound on one step (reading one candidate, or deciding one pair) inside a worker
        process, in the worker's CPU time (Linux; the wall clock elsewhere; a stalled worker is stopped at this
        on the wall clock: `pool.STEP_CLOCK`); a step that runs longer is killed with its worker: that pair
        becomes "unknown" (that candidate unread) and the other steps keep their verdicts.
        A legitimate step stays under it: a pair asks at most about six queries at `timeout_ms`, and fewer
        once `solver_budget_s` is spent. A step that asks a query again (`clock_retry_s`) has that retry's
        allowance added to its budget when the retry starts (the worker reports it); a step that asks none, such
        as one query Z3 will not stop, is killed at this budget (before, every step had `clock_retry_s` added).
    suspect_step_budget_s: the step budget, after a kill, of every later pair of the problem that involves
        a candidate of the killed pair. Z3 ignores its timeout on a formula's shape (nonlinear premises
        under sqrt, quantified recursion), and a candidate's other pairs carry the same premises: what Z3
        decides there it decides in milliseconds, so a second hang costs this much, not a full step.
    problem_budget_s: hard wall clock for one problem's SymEq (all k candidates, all pairs); when it runs
        out, the pairs not decided yet count as not equivalent and the merges made so far stay.
    workers: worker processes of the shared pool (problems are spread over them; one problem uses one).
    clock_retry_s: time one problem may spend asking again the queries the backstop cut before their step
        budget was spent (each such query once, at `smt.RETRY_WALL_FACTOR` times its nominal time, which this
        counts). Where the backstop is Z3's wall clock (no per-thread CPU clock), a verdict then depends on the
        load only for a query that consumes its units far slower than usual (see `smt.RETRY_WALL_FACTOR`); 1.5 s
        is one retry at the full timeout or ten in the quick pass.
    rlimit_per_ms: Z3 resource units per nominal millisecond of `timeout_ms` (see `smt.RLIMIT_PER_MS`: 1000
        was chosen on the dev set, `eval/symeq_rlimit_dev.py`); 0 runs on Z3's wall-clock timeout alone, as
        SymEq did before VERSION 31, whose verdicts depended on the machine's load (for comparisons only).
    """

    timeout_ms: int = 150
    top_k: int = 3
    solver_budget_s: float = 0.15
    step_budget_s: float = 2.5
    suspect_step_budget_s: float = 0.75
    problem_budget_s: float = 30.0
    workers: int = 1
    rlimit_per_ms: int = 1000
    clock_retry_s: float = 1.5

    def __post_init__(self):
        if self.rlimit_per_ms < 0:
            raise ValueError(f"rlimit_per_ms must not be negative: {self}")
        if self.timeout_ms <= 0 or self.top_k <= 0 or self.workers <= 0:
            raise ValueError(f"timeout_ms, top_k and workers must be positive: {self}")
        if min(self.step_budget_s, self.suspect_step_budget_s, self.problem_budget_s) <= 0:
            raise ValueError(f"the budgets must be positive: {self}")
        if self.clock_retry_s < 0:
            raise ValueError(f"clock_retry_s must not be negative: {self}")
