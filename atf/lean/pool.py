"""A pool of REPL processes: independent jobs (groups of statements) run in parallel worker threads.

Each worker thread owns one `LeanRepl` for the pool's lifetime; imported environments are cached per
process, so a worker prefers jobs whose header its process has already loaded, then headers no other worker
has. Callers do not take turns: every `run` puts its jobs on one shared list and waits for its own, so a
job stuck on a hung statement holds one worker while the other workers keep serving everyone else.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from atf.lean.batch import GroupChecker, Prepared, Verdict
from atf.lean.repl import LeanRepl, ReplStats


@dataclass
class Job:
    """Statements of one header checked together (group=True) or one by one."""

    header: tuple[str, ...]
    items: list[Prepared]
    group: bool = True


@dataclass(eq=False)
class _Ticket:
    """One job of one `run` call, and where its verdicts go."""

    job: Job
    on_verdict: Callable[[int, Verdict], None] | None = None
    done: threading.Event = field(default_factory=threading.Event)
    verdicts: list[Verdict] | None = None
    error: BaseException | None = None


class ReplPool:
    """`size` REPL processes made by `make_repl`, each started when a job first needs it.

    make_checker: wraps a REPL in the GroupChecker that runs jobs on it (timeouts, splitting policy).
    """

    def __init__(self, make_repl: Callable[[], LeanRepl], size: int, make_checker: Callable[[LeanRepl], GroupChecker]):
        if size < 1:
            raise ValueError(f"pool size must be >= 1, got {size}")
        self.make_repl = make_repl
        self.make_checker = make_checker
        self.size = size
        self._repls: list[LeanRepl | None] = [None] * size
        self._busy: list[tuple[str, ...] | None] = [None] * size  # header each worker is running now
        self._pending: list[_Ticket] = []
        self._cond = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._closed = False

    def run(
        self, jobs: list[Job], on_verdict: Callable[[int, int, Verdict], None] | None = None
    ) -> list[list[Verdict]]:
        """Verdicts per job, in job order. Safe to call from many threads at once.

        on_verdict(job index, item index, verdict): called from a worker thread as each verdict is known.
        """
        tickets = [
            _Ticket(job, None if on_verdict is None else functools.partial(on_verdict, j)) for j, job in enumerate(jobs)
        ]
        with self._cond:
            if self._closed:
                raise RuntimeError("the REPL pool is closed")
            self._start_workers()
            self._pending.extend(tickets)
            self._cond.notify_all()
        for ticket in tickets:
            ticket.done.wait()
        for ticket in tickets:
            if ticket.error is not None:
                raise ticket.error
        return [t.verdicts if t.verdicts is not None else [] for t in tickets]

    def _start_workers(self) -> None:
        while len(self._threads) < self.size:
            w = len(self._threads)
            thread = threading.Thread(target=self._work, args=(w,), daemon=True, name=f"atf-repl-{w}")
            self._threads.append(thread)
            thread.start()

    def _pick(self, w: int) -> _Ticket | None:
        """The next job for worker `w`, if any suits it (called with the condition held)."""
        repl = self._repls[w]
        mine = repl.loaded_headers() if repl is not None else set()
        others: set[tuple[str, ...]] = {h for v, h in enumerate(self._busy) if v != w and h is not None}
        for v, other in enumerate(self._repls):
            if v != w and other is not None:
                others |= other.loaded_headers()
        if not self._pending:
            return None
        choice = next((t for t in self._pending if t.job.header in mine), None)
        if choice is None:
            choice = next((t for t in self._pending if t.job.header not in others), self._pending[0])
        self._pending.remove(choice)
        self._busy[w] = choice.job.header
        return choice

    def _work(self, w: int) -> None:
        checker: GroupChecker | None = None
        while True:
            with self._cond:
                while not self._closed and (ticket := self._pick(w)) is None:
                    self._cond.wait()
                if self._closed:
                    return
            try:
                if checker is None:
                    if self._repls[w] is None:
                        self._repls[w] = self.make_repl()
                    checker = self.make_checker(self._repls[w])
                    checker.spread = functools.partial(self._spread, w, checker)
                self._run_ticket(w, checker, ticket)
            except BaseException as err:  # noqa: BLE001 - re-raised in the caller's thread
                ticket.error = err
                ticket.done.set()

    def _run_ticket(self, w: int, checker: GroupChecker, ticket: _Ticket) -> None:
        try:
            ticket.verdicts = checker.check(
                ticket.job.header, ticket.job.items, group=ticket.job.group, on_verdict=ticket.on_verdict
            )
        except BaseException as err:  # noqa: BLE001 - re-raised in the caller's thread
            ticket.error = err
        finally:
            with self._cond:
                self._busy[w] = None
                self._cond.notify_all()
            ticket.done.set()

    def _spread(self, w: int, checker: GroupChecker, header: tuple[str, ...], items: list, emit) -> None:
        """Check a failed group's statements one by one on this worker and every idle one: a statement that
        hangs Lean then delays only the statements queued behind it on its own worker."""
        tickets = [_Ticket(Job(header, [it], group=False), functools.partial(_forward, emit, i)) for i, it in items]
        with self._cond:
            self._pending[0:0] = tickets  # ahead of new work: they belong to work already started
            self._cond.notify_all()
        while True:
            with self._cond:
                mine = next((t for t in tickets if t in self._pending), None)
                if mine is None:
                    break
                self._pending.remove(mine)
            try:
                mine.verdicts = checker.check(header, mine.job.items, group=False, on_verdict=mine.on_verdict)
            except BaseException as err:  # noqa: BLE001 - raised below, after the others finished
                mine.error = err
            mine.done.set()
        for ticket in tickets:
            ticket.done.wait()
            if ticket.error is not None:
                raise ticket.error

    def stats(self) -> ReplStats:
        total = ReplStats()
        for repl in self._repls:
            if repl is not None:
                total = total.add(repl.stats)
        return total

    def close(self) -> None:
        with self._cond:
            self._closed = True
            pending, self._pending = self._pending, []
            self._cond.notify_all()
        for ticket in pending:
            ticket.error = RuntimeError("the REPL pool was closed")
            ticket.done.set()
        for repl in self._repls:
            if repl is not None:
                repl.close()


def _forward(emit: Callable[[int, Verdict], None], i: int, _k: int, verdict: Verdict) -> None:
    emit(i, verdict)
