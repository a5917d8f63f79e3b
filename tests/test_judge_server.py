import asyncio
import json

import httpx
from fastapi.testclient import TestClient
from test_judge_doubles import ScriptedEngine, user_text

import atf.llm
from atf.cli import main
from atf.judge import ConsistencyChecker
from atf.judge.server import create_app

OK = "VERDICT: consistent\nREASONS:\n- matches"
BAD = "VERDICT: inconsistent\nREASONS:\n- the constant 3 became 4"


def judge_reply(conv):
    return BAD if "= 4 :=" in user_text(conv) else OK


def test_check_batch_and_health():
    engine = ScriptedEngine("j", judge_reply)
    app = create_app(ConsistencyChecker([engine]), max_wait_s=0.01)
    with TestClient(app) as client:
        r = client.post("/check", json={"problem": "Show 1 + 2 = 3.", "statement": "theorem t : 1 + 2 = 3 := by sorry"})
        assert r.status_code == 200
        body = r.json()
        assert body["consistent"] is True and body["votes"][0]["name"] == "j" and "passed" in body["feedback"]
        r = client.post(
            "/check_batch",
            json={
                "items": [
                    {"problem": "Show 1 + 2 = 3.", "statement": s}
                    for s in ("theorem t : 1 + 2 = 3 := by sorry", "theorem t : 1 + 2 = 4 := by sorry")
                ]
            },
        )
        results = r.json()["results"]
        assert [x["consistent"] for x in results] == [True, False]
        assert "the constant 3 became 4" in results[1]["feedback"]
        health = client.get("/health").json()
        assert health == {"status": "ok", "mode": "vote", "judges": ["j"], "batches_run": 2, "queued": 0, "running": 0}


def test_bad_requests_are_rejected_without_touching_the_judges():
    engine = ScriptedEngine("j", OK)
    with TestClient(create_app(ConsistencyChecker([engine]))) as client:
        assert client.post("/check", json={"problem": "x"}).status_code == 422
        assert client.post("/check", json={"problem": "", "statement": "s"}).status_code == 422
        r = client.post("/check", json={"problem": "   ", "statement": "theorem t : True := trivial"})
        assert r.status_code == 400 and "problem must be a non-empty string" in r.json()["detail"]
        assert client.post("/check_batch", json={"items": []}).status_code == 422
    assert engine.calls == []


def test_concurrent_requests_share_judge_calls():
    engine = ScriptedEngine("j", OK)
    app = create_app(ConsistencyChecker([engine]), max_batch=64, max_wait_s=0.2)

    async def go():
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            replies = await asyncio.gather(
                *(
                    client.post(
                        "/check", json={"problem": f"Show {i} = {i}.", "statement": f"theorem t : {i} = {i} := rfl"}
                    )
                    for i in range(8)
                )
            )
        await app.state.queue.aclose()
        return replies

    replies = asyncio.run(go())
    assert all(r.status_code == 200 and r.json()["consistent"] for r in replies)
    assert [r.json()["problem"] for r in replies] == [f"Show {i} = {i}." for i in range(8)]
    assert sum(n for n, _ in engine.calls) == 8 and len(engine.calls) < 8


def test_cli_jsonl_in_out_and_resume(tmp_path, monkeypatch, capsys):
    engine = ScriptedEngine("scripted", judge_reply)
    monkeypatch.setattr(atf.llm, "load_engine", lambda spec: engine)
    src = tmp_path / "items.jsonl"
    rows = [
        {"id": f"r{i}", "problem": "Show 1 + 2 = 3.", "statement": f"theorem t : 1 + 2 = {3 + (i == 1)} := by sorry"}
        for i in range(3)
    ]
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out.jsonl"
    assert (
        main(["consistency-check", "--input", str(src), "--output", str(out), "--judge", "tiny", "--batch-size", "2"])
        == 0
    )
    got = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(g["id"], g["input_line"], g["consistent"]) for g in got] == [
        ("r0", 1, True),
        ("r1", 2, False),
        ("r2", 3, True),
    ]
    assert [n for n, _ in engine.calls] == [2, 1]

    # a crash after the first record, mid-write of the second: resume redoes only what is missing
    lines = out.read_text().splitlines(keepends=True)
    out.write_text(lines[0] + lines[1][:20])
    engine.calls.clear()
    assert main(["consistency-check", "--input", str(src), "--output", str(out), "--judge", "tiny"]) == 0
    got = [json.loads(line) for line in out.read_text().splitlines()]
    assert [g["id"] for g in got] == ["r0", "r1", "r2"] and [n for n, _ in engine.calls] == [2]
    assert "resuming: 1 of 3" in capsys.readouterr().err


def test_cli_reports_bad_input(tmp_path, capsys):
    src = tmp_path / "bad.jsonl"
    src.write_text('{"problem": "p"}\n')
    assert main(["consistency-check", "--input", str(src)]) == 2
    assert "bad.jsonl:1: field 'statement' must be a non-empty string" in capsys.readouterr().err
    assert main(["consistency-check", "--input", str(tmp_path / "missing.jsonl")]) == 2
    assert "input not found" in capsys.readouterr().err
