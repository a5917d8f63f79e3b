"""Both tool servers behind `atf.serving.guard`: limits, short error bodies, API keys, 429, disconnects."""

import asyncio
import json
import threading

import httpx
import pytest
from fastapi.testclient import TestClient
from test_judge_doubles import ScriptedEngine

from atf.http import RetryPolicy, ToolRejected, ToolUnavailable, post_json
from atf.judge import ConsistencyChecker
from atf.judge.server import create_app as consistency_app
from atf.lean import SyntaxChecker
from atf.lean.server import create_app as syntax_app
from atf.serving import ServeLimits

H = "import Mathlib\n\n"
OK = H + "theorem t : 1 = 1 := by sorry"
LIMITS = ServeLimits(max_body_bytes=64 * 1024, max_items=8, max_item_bytes=2048, max_queued_items=100)


def apps(api_key=None, limits=LIMITS):
    yield "syntax", syntax_app(SyntaxChecker(use_lean=False), limits=limits, api_key=api_key)
    judge = ScriptedEngine("j", "VERDICT: consistent\nREASONS:\n- fine")
    yield "consistency", consistency_app(ConsistencyChecker([judge]), limits=limits, api_key=api_key, max_wait_s=0.0)


def payload(kind, statements):
    if kind == "syntax":
        return {"statements": statements}
    return {"items": [{"problem": "Show 1 = 1.", "statement": s} for s in statements]}


def path(kind):
    return "/check" if kind == "syntax" else "/check_batch"


@pytest.mark.parametrize("kind,app", list(apps()))
def test_oversized_and_malformed_requests_get_short_4xx_without_echo(kind, app):
    with TestClient(app) as client:
        big = b'{"statements": ["' + b"x" * 100_000 + b'"'  # over the body limit, and malformed
        r = client.post(path(kind), content=big, headers={"content-type": "application/json"})
        assert r.status_code == 413 and len(r.content) < 200
        r = client.post(path(kind), content=b"{" + b'"a": [1, ' * 5000, headers={"content-type": "application/json"})
        assert r.status_code == 422 and len(r.content) < 2000 and b"1, 1, 1" not in r.content
        r = client.post(path(kind), json=payload(kind, [OK] * 9))
        assert r.status_code == 413 and "limit is 8" in r.json()["detail"]
        r = client.post(path(kind), json=payload(kind, [H + "theorem t : " + "1 + " * 600 + "1 = 1 := by sorry"]))
        assert r.status_code == 413 and "bytes; the limit is 2048" in r.json()["detail"]
        wrong_types = {"statements": [1] * 8} if kind == "syntax" else {"items": [{"problem": 1}] * 8}
        r = client.post(path(kind), json=wrong_types)
        assert r.status_code == 422 and "+" in r.json()["detail"] and len(r.content) < 1200
        r = client.post(
            path(kind),
            content=json.dumps(payload(kind, [H + "theorem t : \ud800 = 1 := by sorry"])),
            headers={"content-type": "application/json"},
        )
        assert r.status_code == 422 and "unicode" in r.json()["detail"].lower() and len(r.content) < 500
        r = client.post(path(kind), json=payload(kind, [OK]))
        assert r.status_code == 200 and len(r.json()["results"]) == 1
        assert client.get("/health").status_code == 200


@pytest.mark.parametrize("kind,app", list(apps(api_key="s3cret")))
def test_api_key_guards_every_call_but_health(kind, app):
    with TestClient(app) as client:
        assert client.post(path(kind), json=payload(kind, [OK])).status_code == 401
        wrong = {"Authorization": "Bearer nope"}
        assert client.post(path(kind), json=payload(kind, [OK]), headers=wrong).status_code == 401
        good = {"Authorization": "Bearer s3cret"}
        assert client.post(path(kind), json=payload(kind, [OK]), headers=good).status_code == 200
        assert client.post(path(kind), json=payload(kind, [OK]), headers={"X-API-Key": "s3cret"}).status_code == 200
        assert client.get("/health").status_code == 200


def test_serve_refuses_a_public_address_without_a_key():
    from atf.serving import serve

    with pytest.raises(SystemExit, match="without an API key"):
        serve(object(), host="0.0.0.0", port=1)


def test_a_full_queue_answers_429_and_others_are_still_served():
    release = threading.Event()

    def reply(conv):
        release.wait(10)
        return "VERDICT: consistent\nREASONS:\n- fine"

    limits = ServeLimits(max_queued_items=2)
    app = consistency_app(ConsistencyChecker([ScriptedEngine("j", reply)]), limits=limits, max_batch=1, max_wait_s=0.0)
    item = {"problem": "Show 1 = 1.", "statement": OK}

    async def go():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            running = asyncio.ensure_future(client.post("/check", json=item))
            await asyncio.sleep(0.2)
            queued = asyncio.ensure_future(client.post("/check_batch", json={"items": [item, item]}))
            await asyncio.sleep(0.2)
            refused = await client.post("/check", json=item)
            release.set()
            done = await asyncio.gather(running, queued)
        await app.state.queue.aclose()
        return refused, done

    refused, done = asyncio.run(go())
    assert refused.status_code == 429 and refused.headers["retry-after"] == "1"
    assert [r.status_code for r in done] == [200, 200]


class FlakyClient:
    """An httpx-like client that fails the first `n` posts the way a busy cluster network does."""

    def __init__(self, failures):
        self.failures = list(failures)
        self.calls = 0

    def post(self, url, json=None, headers=None):
        self.calls += 1
        if self.failures:
            kind = self.failures.pop(0)
            if kind == "read":
                raise httpx.ReadError("connection reset")
            return httpx.Response(kind, text="busy", headers={"retry-after": "0"}, request=httpx.Request("POST", url))
        return httpx.Response(200, json={"ok": True}, request=httpx.Request("POST", url))


def test_clients_retry_transient_failures_and_give_up_after_the_bound():
    waits = []
    policy = RetryPolicy(retries=3, backoff_s=0.1)
    client = FlakyClient(["read", 503, 429])
    assert post_json(client, "http://x/check", {}, policy, sleep=waits.append) == {"ok": True}
    assert client.calls == 4 and len(waits) == 3
    client = FlakyClient(["read"] * 10)
    with pytest.raises(ToolUnavailable, match="failed 4 times; last: ReadError"):
        post_json(client, "http://x/check", {}, policy, sleep=waits.append)
    client = FlakyClient([400])
    with pytest.raises(ToolRejected, match="answered 400"):
        post_json(client, "http://x/check", {}, policy, sleep=waits.append)
    assert client.calls == 1  # a client error is not retried


@pytest.mark.integration
def test_work_of_a_disconnected_client_is_dropped_from_the_queue():
    import socket
    import time

    import uvicorn

    release = threading.Event()
    seen = []

    def reply(conv):
        seen.append(conv[-1]["content"])
        release.wait(10)
        return "VERDICT: consistent\nREASONS:\n- fine"

    app = consistency_app(ConsistencyChecker([ScriptedEngine("j", reply)]), max_batch=1, max_wait_s=0.0)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not (server.started and server.servers):
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]

    def raw_post(problem):
        body = json.dumps({"problem": problem, "statement": OK}).encode()
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(
            b"POST /check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        return s

    try:
        first = raw_post("Show FIRST.")
        time.sleep(0.3)
        leaver = raw_post("Show LEAVER.")
        time.sleep(0.3)
        assert app.state.queue.queued == 1
        leaver.close()
        deadline = time.time() + 5
        while app.state.queue.queued and time.time() < deadline:
            time.sleep(0.05)
        assert app.state.queue.queued == 0
        release.set()
        assert b"200 OK" in first.recv(65536)
        first.close()
        time.sleep(0.3)
        assert not any("LEAVER" in s for s in seen)
    finally:
        release.set()
        server.should_exit = True
        thread.join(timeout=10)
