import asyncio
import threading

import pytest

from atf.serving import BatchQueue


def test_concurrent_submissions_share_batches_and_keep_order():
    calls = []

    def fn(items):
        calls.append(list(items))
        return [x * 10 for x in items]

    async def main():
        q = BatchQueue(fn, max_batch=100, max_wait_s=0.05)
        results = await asyncio.gather(*(q.submit([i, i + 100]) for i in range(10)))
        await q.aclose()
        return q, results

    q, results = asyncio.run(main())
    assert results == [[i * 10, (i + 100) * 10] for i in range(10)]
    assert sum(len(c) for c in calls) == 20 and len(calls) < 10


def test_max_batch_caps_group_size():
    sizes = []

    def fn(items):
        sizes.append(len(items))
        return items

    async def main():
        q = BatchQueue(fn, max_batch=3, max_wait_s=0.05)
        await asyncio.gather(*(q.submit([i]) for i in range(7)))
        await q.aclose()

    asyncio.run(main())
    assert max(sizes) <= 3 and sum(sizes) == 7


def test_a_failing_batch_fails_every_caller_in_it_and_the_queue_keeps_working():
    def fn(items):
        if "boom" in items:
            raise RuntimeError("checker crashed")
        return items

    async def main():
        q = BatchQueue(fn, max_batch=10, max_wait_s=0.05)
        bad = await asyncio.gather(q.submit(["boom"]), q.submit(["fine"]), return_exceptions=True)
        good = await q.submit(["later"])
        await q.aclose()
        return bad, good

    bad, good = asyncio.run(main())
    assert all(isinstance(r, RuntimeError) for r in bad)
    assert good == ["later"]
