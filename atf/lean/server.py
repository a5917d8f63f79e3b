"""HTTP syntax-check tool server, and a client with the SyntaxChecker interface.

    POST /check   {"statement": "..."} or {"statements": ["...", ...]}  ->  {"results": [SyntaxResult dict, ...]}
    GET  /health  ->  {"status": "ok", "lean": bool, "batches": n, "mean_batch_size": x, "queued": n, ...}

Each request is pre-checked on its own (off the event loop, within `ServeLimits.precheck_cpu_s`), so a
statement the pre-check rejects is answered at once. What passes goes to Lean: concurrent requests are
gathered by `atf.serving.BatchQueue` into `check_many` calls, one running per Lean worker, so statements
from different callers share grouped Lean commands and a hung statement holds one worker, not the server.
Limits, the API key and 413/429 answers come from `atf.serving.guard`.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from dataclasses import asdict

from fastapi import FastAPI, HTTPException, Request
from pydantic import BaseModel

from atf.http import RetryPolicy, auth_headers, post_json
from atf.lean.checker import Diagnostic, SyntaxChecker, SyntaxResult
from atf.serving import BatchQueue, ServeLimits, check_items, guard, until_disconnected


class CheckRequest(BaseModel):
    """Either one statement or a list of them (full Lean text: imports + theorem ... := by sorry)."""

    statement: str | None = None
    statements: list[str] | None = None


def create_app(
    checker: SyntaxChecker,
    max_batch: int = 64,
    max_wait_s: float = 0.02,
    *,
    limits: ServeLimits | None = None,
    api_key: str | None = None,
    concurrency: int | None = None,
    share_commands: bool = False,
) -> FastAPI:
    """A FastAPI app serving `checker`; it closes the checker on shutdown.

    concurrency: Lean batches running at once (default: the checker's worker count).
    share_commands: compile statements of different requests in one grouped Lean command. Fewer round trips
        when many single-statement requests arrive at once, but a statement that hangs Lean then costs every
        request of its group one timeout. By default each request's statements are grouped only with each
        other (requests still share a batch, workers and the imported header).
    """
    limits = limits or ServeLimits()
    queue: BatchQueue[str, SyntaxResult] = BatchQueue(
        checker.check_many,
        max_batch=max_batch,
        max_wait_s=max_wait_s,
        concurrency=concurrency or max(1, checker.workers),
        max_queued=limits.max_queued_items,
        streams=True,
        owners=not share_commands,
    )

    @asynccontextmanager
    async def lifespan(app):
        yield
        await queue.aclose()
        checker.close()

    app = FastAPI(
        title="ATF Lean 4 syntax check",
        lifespan=lifespan,
        description="Pre-checks and (when configured) Lean REPL compilation of Lean 4 statements.",
    )
    app.state.queue = queue
    app.state.checker = checker
    guard(app, limits, api_key)

    async def verdicts(items: list[str]) -> list[SyntaxResult]:
        early = await asyncio.to_thread(checker.precheck_many, items, limits.precheck_cpu_s)
        todo = [s for s, v in zip(items, early) if v is None]
        compiled = iter(await queue.submit(todo) if todo else [])
        return [v if v is not None else next(compiled) for v in early]

    @app.post("/check")
    async def check(req: CheckRequest, request: Request) -> dict:
        if req.statement is not None and req.statements is not None:
            raise HTTPException(422, "give either `statement` or `statements`, not both")
        items = [req.statement] if req.statement is not None else list(req.statements or [])
        if not items:
            raise HTTPException(422, "give `statement` (a string) or `statements` (a non-empty list)")
        check_items([[s] for s in items], limits)
        results = await until_disconnected(request, verdicts(items))
        return {"results": [r.to_dict() for r in results]}

    @app.get("/health")
    async def health() -> dict:
        return {
            "status": "ok",
            "lean": checker.lean_available,
            "workers": checker.workers,
            "batches": queue.batches_run,
            "mean_batch_size": queue.mean_batch_size,
            "queued": queue.queued,
            "running": queue.running,
            "repl": asdict(checker.stats()),
        }

    return app


def result_from_dict(row: dict) -> SyntaxResult:
    """Inverse of `SyntaxResult.to_dict` (the `feedback` field is recomputed, not read)."""
    diags = [Diagnostic(**d) for d in row.get("diagnostics", [])]
    return SyntaxResult(
        statement=row["statement"],
        ok=bool(row["ok"]),
        checked_by=row["checked_by"],
        errors=list(row.get("errors", [])),
        warnings=list(row.get("warnings", [])),
        goals=list(row.get("goals", [])),
        failure=row.get("failure"),
        note=row.get("note"),
        diagnostics=diags,
    )


class RemoteSyntaxChecker:
    """`check`/`check_many` against a running `atf serve-syntax` (same results as SyntaxChecker).

    api_key: sent as a Bearer token (default `$ATF_API_KEY`); retry: how transient failures are retried;
    batch_size: most statements per request (the server's `max_items` is 4096 by default).
    """

    def __init__(
        self,
        base_url: str,
        timeout_s: float = 600.0,
        *,
        api_key: str | None = None,
        retry: RetryPolicy = RetryPolicy(),
        batch_size: int = 1024,
    ):
        import httpx

        from atf.serving import resolve_api_key

        self.base_url = base_url.rstrip("/")
        self.headers = auth_headers(resolve_api_key(api_key))
        self.retry = retry
        self.batch_size = batch_size
        self._client = httpx.Client(timeout=timeout_s)

    def check(self, statement: str) -> SyntaxResult:
        return self.check_many([statement])[0]

    def check_many(self, statements: list[str]) -> list[SyntaxResult]:
        out: list[SyntaxResult] = []
        for k in range(0, len(statements), self.batch_size):
            chunk = list(statements[k : k + self.batch_size])
            reply = post_json(self._client, f"{self.base_url}/check", {"statements": chunk}, self.retry, self.headers)
            out.extend(result_from_dict(r) for r in reply["results"])
        return out

    def close(self) -> None:
        self._client.close()
