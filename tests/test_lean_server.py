"""The HTTP tool server: concurrent requests are batched into grouped Lean commands."""

import asyncio
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

from atf.lean import SyntaxChecker
from atf.lean.server import RemoteSyntaxChecker, create_app, result_from_dict
from tests.sandbox_support import needs_bwrap

STANDIN = str(Path(__file__).parent / "lean_standin.py")
H = "import Mathlib\n\nopen Real\n\n"


@needs_bwrap
def test_with_share_commands_concurrent_requests_share_one_grouped_lean_command():
    checker = SyntaxChecker([sys.executable, STANDIN])
    app = create_app(checker, max_batch=64, max_wait_s=0.2, share_commands=True)
    statements = [H + f"theorem t{i} (x : ℝ) : x + {i} = {i} + x := by sorry" for i in range(10)]
    statements[3] = H + "theorem t3 : STANDIN_ERROR = 1 := by sorry"

    async def main():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            replies = await asyncio.gather(*(client.post("/check", json={"statement": s}) for s in statements))
            health = (await client.get("/health")).json()
            bad = await client.post("/check", json={})
            both = await client.post("/check", json={"statement": "x", "statements": ["y"]})
        await app.state.queue.aclose()
        return replies, health, bad, both

    try:
        replies, health, bad, both = asyncio.run(main())
    finally:
        checker.close()
    results = [r.json()["results"] for r in replies]
    assert all(len(r) == 1 for r in results)
    assert [r[0]["ok"] for r in results] == [i != 3 for i in range(10)]
    assert results[3][0]["errors"] == ["5:13: Unknown identifier `STANDIN_ERROR`"]
    assert results[0][0]["checked_by"] == "lean" and results[0][0]["feedback"].startswith("Syntax check passed")
    assert health["lean"] is True and health["batches"] == 1 and health["mean_batch_size"] == 10
    assert health["repl"]["round_trips"] == 2  # the header, then all ten statements in one command
    assert bad.status_code == 422 and both.status_code == 422


@needs_bwrap
def test_by_default_concurrent_requests_share_a_batch_but_never_a_lean_command():
    checker = SyntaxChecker([sys.executable, STANDIN])
    app = create_app(checker, max_batch=64, max_wait_s=0.2)
    requests = [
        [H + "theorem a : 1 = 1 := by sorry", H + "theorem b : 2 = 2 := by sorry"],
        [H + "theorem c : 3 = 3 := by sorry"],
        [H + "theorem d : STANDIN_ERROR = 1 := by sorry"],
    ]

    async def main():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            replies = await asyncio.gather(*(client.post("/check", json={"statements": r}) for r in requests))
            health = (await client.get("/health")).json()
        await app.state.queue.aclose()
        return replies, health

    try:
        replies, health = asyncio.run(main())
    finally:
        checker.close()
    assert [[x["ok"] for x in r.json()["results"]] for r in replies] == [[True, True], [True], [False]]
    assert health["batches"] == 1 and health["mean_batch_size"] == 4
    assert health["repl"]["round_trips"] == 4  # the header, then one command per request


def test_result_dicts_round_trip():
    with SyntaxChecker(use_lean=False) as c:
        r = c.check(H + "theorem t : (1 = 1 := by sorry")
    back = result_from_dict(r.to_dict())
    assert back == r and back.feedback() == r.feedback()


@pytest.fixture
def live_server():
    import uvicorn

    checker = SyntaxChecker(use_lean=False)
    config = uvicorn.Config(create_app(checker), host="127.0.0.1", port=0, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.time() + 10
    while not (server.started and server.servers):
        if time.time() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


def test_remote_checker_speaks_to_a_running_server(live_server):
    remote = RemoteSyntaxChecker(live_server)
    try:
        ok, bad = remote.check_many([H + "theorem t : 1 = 1 := by sorry", H + "#eval 1\ntheorem t : 1 = 1 := by sorry"])
    finally:
        remote.close()
    assert ok.ok and ok.checked_by == "precheck" and "Lean was not run" in ok.feedback()
    assert not bad.ok and bad.errors == ["5:0: `#eval` is not allowed: it runs code while Lean elaborates"]


@pytest.mark.integration
def test_a_clean_statement_batched_with_a_hung_one_is_answered_after_one_timeout():
    """Two clients' statements share one grouped Lean command; the group times out (the stand-in's
    STANDIN_SLOW hangs), each is rechecked alone on whichever worker is free, and the clean request is
    answered as soon as its own single check is done, not after the hung statement's second timeout."""
    repl = [sys.executable, STANDIN, "--slow-s", "60"]
    checker = SyntaxChecker(repl, timeout_s=2.0, sandbox="none", workers=2)
    app = create_app(checker, max_batch=64, max_wait_s=0.3)
    hung = H + "theorem h : STANDIN_SLOW = 1 := by sorry"
    clean = H + "theorem c (x : ℕ) : x + 0 = x := by sorry"

    async def main():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test", timeout=60) as client:
            t0 = time.perf_counter()

            async def timed(statement):
                r = await client.post("/check", json={"statement": statement})
                return time.perf_counter() - t0, r.json()["results"][0]

            out = await asyncio.gather(timed(hung), timed(clean))
        await app.state.queue.aclose()
        return out

    try:
        (t_hung, r_hung), (t_clean, r_clean) = asyncio.run(main())
    finally:
        checker.close()
    assert r_hung["failure"] == "timeout" and r_clean["ok"]
    assert t_clean < t_hung  # the clean one did not wait for the hung one's own recheck
