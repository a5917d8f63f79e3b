"""A judge's technical failure is a third outcome, never a verdict, and never another item's verdict.

The judges here are `OpenAIEngine`s talking to a fake OpenAI-compatible server (in-process, http.server in a
thread) that fails chosen items: by a marker word in the problem text it answers 500, 429, garbage, a body
without choices, or too late."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from atf.agent.tools import ConsistencyCheckTool, ToolRequest
from atf.agent.trajectory import ToolCall, Trajectory, write_jsonl
from atf.http import RetryPolicy
from atf.judge import ConsistencyChecker, Judge
from atf.judge.result import UNAVAILABLE
from atf.llm.openai_engine import OpenAIEngine
from atf.train.data import keep_for_sft, load_trajectories

STATEMENT = "theorem t (n : ℕ) (hn : 0 < n) : Even (n ^ 2 + n) := by sorry"
OK = "VERDICT: consistent\nREASONS:\n- same variable, hypothesis and goal"
BAD = "VERDICT: inconsistent\nREASONS:\n- the bound differs"


class FakeOpenAI(BaseHTTPRequestHandler):
    """/v1/chat/completions. Markers in the request: FAIL500 (always 500), FLAKY (500 on the first try),
    RATE (429 with Retry-After on the first try), GARBAGE (200, not JSON), NOCHOICES (200, no choices),
    SLOW (answers after 4 s), REJECT (an inconsistent verdict); otherwise a consistent verdict."""

    seen: ClassVar[dict[str, int]] = {}
    lock = threading.Lock()

    def log_message(self, *args):  # keep pytest output clean
        pass

    def _send(self, status: int, body: bytes, headers: dict | None = None) -> None:
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except BrokenPipeError:  # the client timed out and left (the SLOW case)
            pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        text = body["messages"][-1]["content"]
        with self.lock:
            tries = self.seen[text] = self.seen.get(text, 0) + 1
        if "FAIL500" in text or ("FLAKY" in text and tries == 1):
            return self._send(500, b'{"error": "internal error at http://10.0.0.7:8000 (secret stack trace)"}')
        if "RATE" in text and tries == 1:
            return self._send(429, b'{"error": "slow down"}', {"Retry-After": "0"})
        if "GARBAGE" in text:
            return self._send(200, b"<html>proxy error</html>")
        if "NOCHOICES" in text:
            return self._send(200, b'{"object": "chat.completion"}')
        if "SLOW" in text:
            time.sleep(4.0)
        answer = BAD if "REJECT" in text else OK
        choices = [
            {"index": i, "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}
            for i in range(body.get("n", 1))
        ]
        self._send(200, json.dumps({"choices": choices}).encode())


class Server(ThreadingHTTPServer):
    request_queue_size = 128  # the default backlog of 5 refuses connections when 16 requests arrive at once
    daemon_threads = True


@pytest.fixture()
def server():
    FakeOpenAI.seen = {}
    httpd = Server(("127.0.0.1", 0), FakeOpenAI)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    httpd.shutdown()
    httpd.server_close()


def unreachable() -> str:
    """A local port nobody listens on: connection refused."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


def engine(url: str, **kw) -> OpenAIEngine:
    kw.setdefault("sleep", lambda s: None)  # backoff without waiting
    return OpenAIEngine(url, "judge", **kw)


def problems(*markers: str) -> list[tuple[str, str]]:
    return [(f"Problem {i} {m}: show that n^2 + n is even for positive n.", STATEMENT) for i, m in enumerate(markers)]


def test_one_failed_request_fails_only_its_item(server):
    items = problems("", "FAIL500", "", "GARBAGE", "REJECT", "NOCHOICES", "")
    results = ConsistencyChecker([engine(server, retries=1)]).check_many(items)
    assert [r.verdict for r in results] == [
        "consistent",
        "error",
        "consistent",
        "error",
        "inconsistent",
        "error",
        "consistent",
    ]
    for r in results:
        if r.errored:
            assert not r.consistent and r.feedback() == UNAVAILABLE
            assert r.votes[0].verdict == "error" and r.votes[0].error  # kept for the operator
            assert "10.0.0.7" not in r.feedback() and "http" not in r.feedback()
    by_text = FakeOpenAI.seen
    assert max(n for t, n in by_text.items() if "FAIL500" in t) == 2  # retried once (retries=1), then given up
    assert max(n for t, n in by_text.items() if "GARBAGE" in t) == 1  # an unreadable 200 is not retried


def test_transient_failures_are_retried_with_backoff(server):
    waits: list[float] = []
    judge = engine(server, retries=2, sleep=waits.append)
    results = ConsistencyChecker([judge]).check_many(problems("FLAKY", "RATE", ""))
    assert [r.verdict for r in results] == ["consistent"] * 3
    assert len(waits) == 2 and all(0 <= w <= RetryPolicy().max_backoff_s for w in waits)
    no_retry = ConsistencyChecker([engine(server, retries=0)]).check_many(problems("FLAKY again"))
    assert no_retry[0].verdict == "error"


def test_a_timeout_fails_its_item_in_bounded_time(server):
    start = time.monotonic()
    # 1 s leaves the other two items room to answer on a loaded machine
    results = ConsistencyChecker([engine(server, timeout=1.0, retries=1)]).check_many(problems("SLOW", "", "REJECT"))
    elapsed = time.monotonic() - start
    assert [r.verdict for r in results] == ["error", "consistent", "inconsistent"]
    assert elapsed < 3.5  # two tries of 1 s, not the server's 4 s (nor the old fixed 600 s)


def test_a_decided_item_stays_decided_when_another_judge_fails(server):
    ok, broken = Judge(engine(server, retries=0), name="ok"), Judge(engine(unreachable(), retries=0), name="down")
    results = ConsistencyChecker([ok, broken]).check_many(problems("", "REJECT"))
    assert [r.verdict for r in results] == ["error", "inconsistent"]  # a rejection needs no second vote


def test_retries_must_be_a_count():
    with pytest.raises(ValueError, match="retries"):
        OpenAIEngine("http://x/v1", "m", retries=-1)
    with pytest.raises(ValueError, match="timeout"):
        OpenAIEngine("http://x/v1", "m", timeout=0)


def test_timeout_and_retries_reach_the_engine_from_a_judge_spec(server):
    from atf.judge import load_judge

    judge = load_judge(f"openai:{server}#judge::timeout=7.5,retries=4,temperature=0")
    assert judge.engine.retry.retries == 4 and judge.engine._client.timeout.read == 7.5
    with pytest.raises(ValueError, match="unknown judge option 'colour'.*retries.*timeout"):
        load_judge(f"openai:{server}#judge::colour=blue")


def test_the_tool_reports_an_error_and_the_trajectory_is_kept_out_of_training(server, tmp_path):
    tool = ConsistencyCheckTool(ConsistencyChecker([engine(server, retries=0)]))
    got = tool.call([ToolRequest(p, {"statement": s}) for p, s in problems("FAIL500", "")])
    assert got[0].error and not got[0].passed and got[0].feedback == UNAVAILABLE
    assert not got[1].error and got[1].passed

    def traj(error: bool) -> Trajectory:
        calls = [
            ToolCall("syntax_check", {"statement": STATEMENT}, True, "ok"),
            ToolCall("consistency_check", {"statement": STATEMENT}, False, UNAVAILABLE, error=error),
            ToolCall("consistency_check", {"statement": STATEMENT}, True, "passed"),
        ]
        return Trajectory("p", [], statement=STATEMENT, syntax_ok=True, consistency_ok=True, calls=calls)

    clean, errored = traj(False), traj(True)
    assert errored.tool_errored and not clean.tool_errored
    assert keep_for_sft(clean) and not keep_for_sft(errored)
    path = tmp_path / "t.jsonl"
    write_jsonl(path, [clean, errored, clean])
    assert len(load_trajectories([path])) == 2


def test_cli_counts_errors_exits_nonzero_and_rechecks_them(server, tmp_path, capsys):
    from atf.cli import main

    items = tmp_path / "items.jsonl"
    items.write_text(
        "".join(
            json.dumps({"id": i, "problem": p, "statement": s}) + "\n"
            for i, (p, s) in enumerate(problems("", "FAIL500", "REJECT"))
        )
    )
    out = tmp_path / "out.jsonl"
    argv = ["consistency-check", "-i", str(items), "-o", str(out), "--judge", f"openai:{server}#judge::retries=0"]
    assert main(argv) == 1
    assert "1 of 3 consistent, 1 inconsistent, 1 errored" in capsys.readouterr().err
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["verdict"] for r in rows] == ["consistent", "error", "inconsistent"]
    # the rerun checks only the errored item again (still failing here), keeping one line per input
    assert main(argv) == 1
    assert "0 of 1 consistent, 0 inconsistent, 1 errored" in capsys.readouterr().err
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["id"] for r in rows) == [0, 1, 2]


def test_the_loop_records_an_errored_check_and_the_model_may_try_again(tiny_engine):
    from atf.agent.loop import AgentConfig, ToolLoop
    from atf.agent.parsing import format_tool_call
    from atf.agent.replay import ReplayEngine
    from atf.agent.tools import (
        CONSISTENCY_SCHEMA,
        SYNTAX_SCHEMA,
        FunctionTool,
        ToolResult,
    )
    from atf.agent.validate import rule_violations

    good = "import Mathlib\n\n" + STATEMENT
    answers = iter([ToolResult(False, UNAVAILABLE, True), ToolResult(True, "passed")])
    tools = [
        FunctionTool("syntax_check", SYNTAX_SCHEMA, lambda reqs: [ToolResult(True, "ok") for _ in reqs]),
        FunctionTool("consistency_check", CONSISTENCY_SCHEMA, lambda reqs: [next(answers) for _ in reqs]),
    ]

    def call(name):
        return format_tool_call(name, {"statement": good})

    script = {"p": [call("syntax_check"), call("consistency_check"), call("consistency_check")]}
    (t,) = ToolLoop(ReplayEngine(script, tiny_engine.tokenizer), tools, AgentConfig()).run(["p"])
    assert [(c.name, c.passed, c.error) for c in t.calls] == [
        ("syntax_check", True, False),
        ("consistency_check", False, True),
        ("consistency_check", True, False),
    ]
    assert (
        [m["content"] for m in t.messages if m["role"] == "tool"][1] == UNAVAILABLE
        and t.success
        and t.stop_reason == "passed"
    )
    assert rule_violations(t) == []
    assert t.tool_errored and not keep_for_sft(t)  # it answered a failure once: not training data


def test_any_engine_that_fails_a_batch_is_asked_again_item_by_item():
    from test_judge_doubles import ScriptedEngine

    def reply(conv):
        if "FAIL500" in conv[-1]["content"]:
            raise RuntimeError("CUDA error on this prompt")
        return BAD if "REJECT" in conv[-1]["content"] else OK

    engine = ScriptedEngine("local", reply)
    results = ConsistencyChecker([engine]).check_many(problems("", "FAIL500", "REJECT"))
    assert [r.verdict for r in results] == ["consistent", "error", "inconsistent"]
    assert [n for n, _ in engine.calls] == [3, 1, 1, 1]  # the batch once, then each item alone


@pytest.mark.parametrize("mode, ok", [("oap", "consistent"), ("align", "faithful")])
def test_oap_and_align_isolate_a_failed_item_too(mode, ok):
    class Answers(FakeOpenAI):
        def do_POST(self):  # OAP and align prompts get their own answer formats
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            text = body["messages"][-1]["content"]
            if "FAIL500" in text:
                return self._send(500, b"{}")
            if "Rate how faithfully" in text:
                answer = "RATING: 5"
            elif "Align the problem" in text:
                answer = json.dumps(
                    {
                        "findings": [
                            {
                                "informal": "n^2 + n is even",
                                "lean": "Even (n ^ 2 + n)",
                                "label": "faithful",
                                "explanation": "same goal",
                            }
                        ]
                    }
                )
            else:
                answer = "ANSWER: yes\nWHY: kept"
            choice = {"index": 0, "message": {"role": "assistant", "content": answer}, "finish_reason": "stop"}
            self._send(200, json.dumps({"choices": [choice]}).encode())

    httpd = Server(("127.0.0.1", 0), Answers)
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
        checker = ConsistencyChecker([engine(url, retries=0)], mode=mode, fv=1.0)
        results = checker.check_many(problems("", "FAIL500", ""))
        assert [r.verdict for r in results] == [ok, "error", ok]
        assert results[1].feedback() == UNAVAILABLE
    finally:
        httpd.shutdown()
        httpd.server_close()
