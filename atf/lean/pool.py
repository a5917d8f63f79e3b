"""A pool of REPL processes: independent jobs (groups of statements) run in parallel threads.

Each worker thread owns one `LeanRepl`; imported environments are cached per process, so a worker
prefers jobs whose header its process has already loaded, then headers no other worker has.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable

from atf.lean.batch import GroupChecker, Prepared, Verdict
from atf.lean.repl import LeanRepl, ReplStats


@dataclass
class Job:
    """Statements of one header checked together (group=True) or one by one."""

    header: tuple[str, ...]
    items: list[Prepared]
    group: bool = True


class ReplPool:
    """`size` REPL processes made by `make_repl`, started only when a job needs them.

    make_checker: wraps a REPL in the GroupChecker that runs jobs on it (timeouts, splitting policy).
    """

    def __init__(self, make_repl: Callable[[], LeanRepl], size: int, make_checker: Callable[[LeanRepl], GroupChecker]):
        if size < 1:
            raise ValueError(f"pool size must be >= 1, got {size}")
        self.make_repl = make_repl
        self.make_checker = make_checker
        self.size = size
        self._repls: list[LeanRepl | None] = [None] * size
        self._run_lock = threading.Lock()

    def _repl(self, w: int) -> LeanRepl:
        repl = self._repls[w]
        if repl is None:
            repl = self._repls[w] = self.make_repl()
        return repl

    def run(self, jobs: list[Job]) -> list[list[Verdict]]:
        """Verdicts per job, in job order. One `run` at a time; concurrent callers wait their turn."""
        with self._run_lock:
            results: list[list[Verdict] | None] = [None] * len(jobs)
            pending = list(range(len(jobs)))
            lock = threading.Lock()
            claimed: dict[int, tuple[str, ...]] = {}
            errors: list[BaseException] = []

            def pick(w: int) -> int | None:
                with lock:
                    if not pending or errors:
                        return None
                    mine = self._repl(w).loaded_headers() | ({claimed[w]} if w in claimed else set())
                    others = {h for v, h in claimed.items() if v != w}
                    for v in range(self.size):
                        if v != w and self._repls[v] is not None:
                            others |= self._repls[v].loaded_headers()
                    choice = next((j for j in pending if jobs[j].header in mine), None)
                    if choice is None:
                        choice = next((j for j in pending if jobs[j].header not in others), pending[0])
                    pending.remove(choice)
                    claimed[w] = jobs[choice].header
                    return choice

            def work(w: int) -> None:
                try:
                    checker = self.make_checker(self._repl(w))
                    while (j := pick(w)) is not None:
                        results[j] = checker.check(jobs[j].header, jobs[j].items, group=jobs[j].group)
                except BaseException as err:  # noqa: BLE001 - re-raised in the caller's thread
                    with lock:
                        errors.append(err)

            n_threads = min(self.size, len(jobs))
            if n_threads <= 1:
                work(0)
            else:
                threads = [threading.Thread(target=work, args=(w,), daemon=True) for w in range(n_threads)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
            if errors:
                raise errors[0]
            return [r if r is not None else [] for r in results]

    def stats(self) -> ReplStats:
        total = ReplStats()
        for repl in self._repls:
            if repl is not None:
                total = total.add(repl.stats)
        return total

    def close(self) -> None:
        for repl in self._repls:
            if repl is not None:
                repl.close()
