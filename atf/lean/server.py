"""HTTP syntax-check tool server, and a client with the SyntaxChecker interface.

    POST /check   {"statement": "..."} or {"statements": ["...", ...]}  ->  {"results": [SyntaxResult dict, ...]}
    GET  /health  ->  {"status": "ok", "lean": bool, "batches": n, "mean_batch_size": x, "repl": {...counters}}

Concurrent requests are gathered by `atf.serving.BatchQueue` and checked as one `check_many` call, so
statements from different callers share grouped Lean commands.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from dataclasses import asdict

from fastapi import FastAPI, HTTPException
from pydantic import BaseModel

from atf.lean.checker import Diagnostic, SyntaxChecker, SyntaxResult
from atf.serving import BatchQueue


class CheckRequest(BaseModel):
    """Either one statement or a list of them (full Lean text: imports + theorem ... := by sorry)."""

    statement: str | None = None
    statements: list[str] | None = None


def create_app(checker: SyntaxChecker, max_batch: int = 64, max_wait_s: float = 0.02) -> FastAPI:
    """A FastAPI app serving `checker`; it closes the checker on shutdown."""
    queue: BatchQueue[str, SyntaxResult] = BatchQueue(checker.check_many, max_batch=max_batch, max_wait_s=max_wait_s)

    @asynccontextmanager
    async def lifespan(app):
        yield
        await queue.aclose()
        checker.close()

    app = FastAPI(title="ATF Lean 4 syntax check", lifespan=lifespan,
                  description="Pre-checks and (when configured) Lean REPL compilation of Lean 4 statements.")
    app.state.queue = queue
    app.state.checker = checker

    @app.post("/check")
    async def check(req: CheckRequest) -> dict:
        if req.statement is not None and req.statements is not None:
            raise HTTPException(422, "give either `statement` or `statements`, not both")
        items = [req.statement] if req.statement is not None else list(req.statements or [])
        if not items:
            raise HTTPException(422, "give `statement` (a string) or `statements` (a non-empty list)")
        results = await queue.submit(items)
        return {"results": [r.to_dict() for r in results]}

    @app.get("/health")
    async def health() -> dict:
        sizes = queue.batch_sizes
        return {
            "status": "ok",
            "lean": checker.lean_available,
            "batches": queue.batches_run,
            "mean_batch_size": sum(sizes) / len(sizes) if sizes else 0.0,
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
    """`check`/`check_many` against a running `atf serve-syntax` (same results as SyntaxChecker)."""

    def __init__(self, base_url: str, timeout_s: float = 600.0):
        import httpx

        self.base_url = base_url.rstrip("/")
        self._client = httpx.Client(timeout=timeout_s)

    def check(self, statement: str) -> SyntaxResult:
        return self.check_many([statement])[0]

    def check_many(self, statements: list[str]) -> list[SyntaxResult]:
        if not statements:
            return []
        resp = self._client.post(f"{self.base_url}/check", json={"statements": list(statements)})
        resp.raise_for_status()
        return [result_from_dict(r) for r in resp.json()["results"]]

    def close(self) -> None:
        self._client.close()
