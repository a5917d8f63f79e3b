"""HTTP tool servers with micro-batching: concurrent requests are gathered and checked as one batch.

The syntax check compiles a batch as grouped Lean commands and the consistency check sends a batch to
its judges at once, so both get faster per item when requests arrive together. `BatchQueue` collects
items for up to `max_wait_s` (or until `max_batch` items are waiting) and runs `fn(items)` in a worker
thread; each request awaits only its own results.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, Sequence, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")
R = TypeVar("R")


@dataclass
class _Pending(Generic[T]):
    items: list[T]
    future: asyncio.Future = field(repr=False)


class BatchQueue(Generic[T, R]):
    """Gather items from concurrent callers into batches for `fn: list[T] -> list[R]`.

    max_batch: most items handed to `fn` at once.
    max_wait_s: how long the first waiting item waits for company before the batch runs.
    """

    def __init__(self, fn: Callable[[list[T]], Sequence[R]], max_batch: int = 64, max_wait_s: float = 0.02):
        if max_batch < 1:
            raise ValueError("max_batch must be >= 1")
        self.fn = fn
        self.max_batch = max_batch
        self.max_wait_s = max_wait_s
        self._queue: asyncio.Queue[_Pending[T]] | None = None
        self._task: asyncio.Task | None = None
        self.batches_run = 0
        self.batch_sizes: list[int] = []

    def _ensure_started(self) -> asyncio.Queue:
        if self._queue is None:
            self._queue = asyncio.Queue()
            self._task = asyncio.get_running_loop().create_task(self._worker())
        return self._queue

    async def submit(self, items: list[T]) -> list[R]:
        """Results for `items`, in order, computed in whatever batch they landed in."""
        if not items:
            return []
        future = asyncio.get_running_loop().create_future()
        await self._ensure_started().put(_Pending(list(items), future))
        return await future

    async def _worker(self) -> None:
        assert self._queue is not None
        loop = asyncio.get_running_loop()
        while True:
            first = await self._queue.get()
            group = [first]
            count = len(first.items)
            deadline = loop.time() + self.max_wait_s
            while count < self.max_batch:
                timeout = deadline - loop.time()
                if timeout <= 0:
                    break
                try:
                    nxt = await asyncio.wait_for(self._queue.get(), timeout)
                except asyncio.TimeoutError:
                    break
                group.append(nxt)
                count += len(nxt.items)
            flat = [item for pending in group for item in pending.items]
            try:
                results = await asyncio.to_thread(self.fn, flat)
                if len(results) != len(flat):
                    raise RuntimeError(f"batch function returned {len(results)} results for {len(flat)} items")
            except Exception as err:  # every caller in the batch hears about it
                log.exception("batch of %d failed", len(flat))
                for pending in group:
                    if not pending.future.done():
                        pending.future.set_exception(err)
                continue
            self.batches_run += 1
            self.batch_sizes.append(len(flat))
            offset = 0
            for pending in group:
                n = len(pending.items)
                if not pending.future.done():
                    pending.future.set_result(list(results[offset : offset + n]))
                offset += n

    async def aclose(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass
            self._task = None
            self._queue = None


def serve(app: Any, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run a FastAPI app with uvicorn (one process; the batch queue lives in it)."""
    import uvicorn

    uvicorn.run(app, host=host, port=port, log_level="info")
