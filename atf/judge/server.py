"""HTTP consistency-check tool: concurrent requests are gathered (`atf.serving.BatchQueue`) and every judge
sees each gathered batch in one call.

    POST /check        {"problem": str, "statement": str}          -> ConsistencyResult as JSON (+ "feedback")
    POST /check_batch  {"items": [{"problem": .., "statement": ..}]} -> {"results": [...]}
    GET  /health       -> {"status": "ok", "mode": .., "judges": [..], "batches_run": ..}
"""

from __future__ import annotations

from contextlib import asynccontextmanager

from fastapi import FastAPI, HTTPException
from pydantic import BaseModel, Field

from atf.judge.checker import ConsistencyChecker, validate_item
from atf.serving import BatchQueue


class CheckRequest(BaseModel):
    problem: str = Field(min_length=1, description="the informal (natural-language) problem")
    statement: str = Field(min_length=1, description="the Lean 4 statement to check")


class BatchRequest(BaseModel):
    items: list[CheckRequest] = Field(min_length=1, max_length=4096)


def create_app(checker: ConsistencyChecker, max_batch: int = 32, max_wait_s: float = 0.05, raw: bool = False) -> FastAPI:
    """A FastAPI app serving `checker`; `raw` adds the judges' raw answers to each result."""
    queue: BatchQueue = BatchQueue(checker.check_many, max_batch=max_batch, max_wait_s=max_wait_s)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        await queue.aclose()

    app = FastAPI(title="ATF consistency check", lifespan=lifespan)
    app.state.queue = queue

    async def run(items: list[CheckRequest]) -> list[dict]:
        try:  # before queueing: one bad request must not fail the others batched with it
            pairs = [validate_item(n, (i.problem, i.statement)) for n, i in enumerate(items)]
        except ValueError as err:
            raise HTTPException(status_code=400, detail=str(err)) from err
        results = await queue.submit(pairs)
        return [r.to_dict(raw=raw) for r in results]

    @app.post("/check")
    async def check(req: CheckRequest) -> dict:
        return (await run([req]))[0]

    @app.post("/check_batch")
    async def check_batch(req: BatchRequest) -> dict:
        return {"results": await run(req.items)}

    @app.get("/health")
    async def health() -> dict:
        return {
            "status": "ok",
            "mode": checker.mode,
            "judges": [j.name for j in checker.judges],
            "batches_run": queue.batches_run,
        }

    return app
