"""HTTP consistency-check tool: concurrent requests are gathered (`atf.serving.BatchQueue`) and every judge
sees each gathered batch in one call.

    POST /check        {"problem": str, "statement": str}          -> ConsistencyResult as JSON (+ "feedback")
    POST /check_batch  {"items": [{"problem": .., "statement": ..}]} -> {"results": [...]}
    GET  /health       -> {"status": "ok", "mode": .., "judges": [..], "batches_run": ..}
"""

from __future__ import annotations

from contextlib import asynccontextmanager

from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel, Field

from atf.judge.checker import ConsistencyChecker, validate_item
from atf.serving import BatchQueue, ServeLimits, check_items, guard, until_disconnected


class CheckRequest(BaseModel):
    problem: str = Field(min_length=1, description="the informal (natural-language) problem")
    statement: str = Field(min_length=1, description="the Lean 4 statement to check")


class BatchRequest(BaseModel):
    items: list[CheckRequest] = Field(min_length=1)


def create_app(
    checker: ConsistencyChecker,
    max_batch: int = 32,
    max_wait_s: float = 0.05,
    raw: bool = False,
    *,
    limits: ServeLimits | None = None,
    api_key: str | None = None,
    concurrency: int = 1,
) -> FastAPI:
    """A FastAPI app serving `checker`; `raw` adds the judges' raw answers to each result.

    Limits, the API key and disconnect handling are those of the syntax server (`atf.serving`).
    """
    limits = limits or ServeLimits()
    queue: BatchQueue = BatchQueue(
        checker.check_many,
        max_batch=max_batch,
        max_wait_s=max_wait_s,
        concurrency=concurrency,
        max_queued=limits.max_queued_items,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        await queue.aclose()

    app = FastAPI(title="ATF consistency check", lifespan=lifespan)
    app.state.queue = queue
    guard(app, limits, api_key)

    async def run(items: list[CheckRequest], request: Request) -> list[dict]:
        check_items([(i.problem, i.statement) for i in items], limits, what="item")
        try:  # before queueing: one bad request must not fail the others batched with it
            pairs = [validate_item(n, (i.problem, i.statement)) for n, i in enumerate(items)]
        except ValueError as err:
            raise HTTPException(status_code=400, detail=str(err)[:500]) from err
        results = await until_disconnected(request, queue.submit(pairs))
        return [r.to_dict(raw=raw) for r in results]

    @app.post("/check")
    async def check(req: CheckRequest, request: Request) -> dict:
        return (await run([req], request))[0]

    @app.post("/check_batch")
    async def check_batch(req: BatchRequest, request: Request) -> dict:
        return {"results": await run(req.items, request)}

    @app.get("/health")
    async def health() -> dict:
        return {
            "status": "ok",
            "mode": checker.mode,
            "judges": [j.name for j in checker.judges],
            "batches_run": queue.batches_run,
            "queued": queue.queued,
            "running": queue.running,
        }

    return app
