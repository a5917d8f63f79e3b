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


def test_a_failing_request_fails_alone_and_the_queue_keeps_working():
    seen = []

    def fn(items):
        seen.append(list(items))
        if "boom" in items:
            raise RuntimeError("checker crashed")
        return items

    async def main():
        q = BatchQueue(fn, max_batch=10, max_wait_s=0.05)
        bad, fine = await asyncio.gather(q.submit(["boom"]), q.submit(["fine"]), return_exceptions=True)
        good = await q.submit(["later"])
        await q.aclose()
        return bad, fine, good

    bad, fine, good = asyncio.run(main())
    assert isinstance(bad, RuntimeError)
    assert fine == ["fine"] and good == ["later"]
    assert seen[0] == ["boom", "fine"]  # they were batched together, then retried apart


def test_a_stuck_batch_holds_one_slot_and_later_requests_pass_it():
    release = threading.Event()

    def fn(items):
        if "hang" in items:
            release.wait(10)
        return items

    async def main():
        q = BatchQueue(fn, max_batch=10, max_wait_s=0.01, concurrency=2)
        stuck = asyncio.ensure_future(q.submit(["hang"]))
        await asyncio.sleep(0.1)
        quick = await asyncio.wait_for(q.submit(["quick"]), 5)
        was_stuck = not stuck.done()
        release.set()
        await stuck
        await q.aclose()
        return quick, was_stuck

    quick, was_stuck = asyncio.run(main())
    assert quick == ["quick"] and was_stuck


def test_a_huge_request_is_interleaved_with_small_ones():
    batches = []

    def fn(items):
        batches.append(list(items))
        return items

    async def main():
        q = BatchQueue(fn, max_batch=8, max_wait_s=0.0)
        big = asyncio.ensure_future(q.submit([f"b{i}" for i in range(200)]))
        await asyncio.sleep(0)
        small = await q.submit(["s"])
        small_batch = len(batches)
        await big
        await q.aclose()
        return small, small_batch

    small, small_batch = asyncio.run(main())
    assert small == ["s"]
    assert max(len(b) for b in batches) <= 8
    assert small_batch < len(batches) // 2  # answered early, not after all 25 batches of the big request


def test_a_full_queue_refuses_new_work():
    from atf.serving import QueueFull

    release = threading.Event()

    def fn(items):
        release.wait(10)
        return items

    async def main():
        q = BatchQueue(fn, max_batch=2, max_wait_s=0.0, max_queued=4)
        first = asyncio.ensure_future(q.submit(["a", "b"]))  # taken by the only slot
        await asyncio.sleep(0.05)
        waiting = asyncio.ensure_future(q.submit(["c", "d", "e"]))
        await asyncio.sleep(0.05)
        with pytest.raises(QueueFull):
            await q.submit(["f", "g"])
        release.set()
        out = await asyncio.gather(first, waiting)
        await q.aclose()
        return out

    assert asyncio.run(main()) == [["a", "b"], ["c", "d", "e"]]


def test_a_caller_that_leaves_takes_its_waiting_items_out_of_the_queue():
    release = threading.Event()
    seen = []

    def fn(items):
        seen.extend(items)
        release.wait(10)
        return items

    async def main():
        q = BatchQueue(fn, max_batch=1, max_wait_s=0.0)
        first = asyncio.ensure_future(q.submit(["first"]))
        await asyncio.sleep(0.05)
        leaver = asyncio.ensure_future(q.submit(["gone"]))
        await asyncio.sleep(0.05)
        assert q.queued == 1
        leaver.cancel()
        await asyncio.sleep(0.05)
        queued_after = q.queued
        release.set()
        await first
        later = await q.submit(["later"])
        await q.aclose()
        return queued_after, later

    queued_after, later = asyncio.run(main())
    assert queued_after == 0 and later == ["later"]
    assert "gone" not in seen


def test_a_streaming_batch_answers_each_request_as_its_items_are_done():
    release = threading.Event()

    def fn(items, on_result):
        for n, item in enumerate(items):
            if item != "hang":
                on_result(n, item.upper())
        release.wait(10)
        return [item.upper() for item in items]

    async def main():
        q = BatchQueue(fn, max_batch=10, max_wait_s=0.1, streams=True)
        stuck = asyncio.ensure_future(q.submit(["hang"]))
        quick = await asyncio.wait_for(q.submit(["quick", "also"]), 5)
        was_stuck = not stuck.done()
        release.set()
        out = await stuck
        await q.aclose()
        return quick, was_stuck, out, q.batches_run

    quick, was_stuck, out, batches = asyncio.run(main())
    assert quick == ["QUICK", "ALSO"] and was_stuck and out == ["HANG"] and batches == 1


def test_a_streaming_batch_that_fails_retries_only_the_missing_items():
    calls = []

    def fn(items, on_result):
        calls.append(list(items))
        if "boom" in items and len(items) > 1:
            on_result(items.index("ok"), "OK")
            raise RuntimeError("died after handing over one result")
        if "boom" in items:
            raise RuntimeError("boom alone")
        return [i.upper() for i in items]

    async def main():
        q = BatchQueue(fn, max_batch=10, max_wait_s=0.1, streams=True)
        out = await asyncio.gather(q.submit(["ok"]), q.submit(["boom"]), return_exceptions=True)
        await q.aclose()
        return out

    ok, boom = asyncio.run(main())
    assert ok == ["OK"] and isinstance(boom, RuntimeError)
    assert calls == [["ok", "boom"], ["boom"]]  # "ok" was not checked twice


def test_an_owning_batch_tells_fn_which_request_each_item_came_from():
    calls = []

    def fn(items, owners):
        calls.append((list(items), list(owners)))
        return [f"{item}@{owner}" for item, owner in zip(items, owners)]

    async def main():
        q = BatchQueue(fn, max_batch=10, max_wait_s=0.1, owners=True)
        out = await asyncio.gather(q.submit(["a", "b"]), q.submit(["c"]), q.submit(["d", "e"]))
        await q.aclose()
        return out

    out = asyncio.run(main())
    assert calls == [(["a", "b", "c", "d", "e"], [0, 0, 1, 2, 2])]
    assert out == [["a@0", "b@0"], ["c@1"], ["d@2", "e@2"]]
