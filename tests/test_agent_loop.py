"""The tool loop's rules and its token view, with deterministic tools and scripted models."""

import json

import httpx
import pytest

from atf.agent.loop import AgentConfig, ToolLoop, to_openai_messages
from atf.agent.parsing import format_tool_call, parse_tool_calls
from atf.agent.replay import ReplayEngine
from atf.agent.tokens import encode, render_text
from atf.agent.tools import CONSISTENCY_SCHEMA, SYNTAX_SCHEMA, FunctionTool, ToolResult

GOOD = "import Mathlib\n\ntheorem t (x : ℕ) (h : x + 1 = 3) : x = 2 := by sorry"
WRONG = "import Mathlib\n\ntheorem t (x : ℕ) (h : x + 1 = 3) : x = 5 := by sorry"
BROKEN = "import Mathlib\n\ntheorem t (x : ℕ) (h : x + 1 = 3) : x = 2 := by sorry)"


def syntax_fn(requests):
    out = []
    for r in requests:
        s = r.arguments["statement"]
        ok = s.count("(") == s.count(")")
        out.append(ToolResult(ok, "Syntax check passed." if ok else "error: unexpected token ')'"))
    return out


def consistency_fn(requests):
    return [
        ToolResult(
            "x = 2" in r.arguments["statement"],
            "consistent" if "x = 2" in r.arguments["statement"] else "conclusion should be x = 2",
        )
        for r in requests
    ]


class CountingTool(FunctionTool):
    def __init__(self, *a):
        super().__init__(*a)
        self.batches = []

    def call(self, requests):
        self.batches.append(len(requests))
        return super().call(requests)


def tools():
    return [
        CountingTool("syntax_check", SYNTAX_SCHEMA, syntax_fn),
        CountingTool("consistency_check", CONSISTENCY_SCHEMA, consistency_fn),
    ]


def sc(s):
    return format_tool_call("syntax_check", {"statement": s})


def cc(s):
    return format_tool_call("consistency_check", {"statement": s})


@pytest.fixture(scope="module")
def tok(tiny_engine):
    return tiny_engine.tokenizer


def run(tok, scripts, problems=None, mode="tokens", **cfg):
    engine = ReplayEngine(scripts, tok)
    ts = tools()
    loop = ToolLoop(engine, ts, AgentConfig(mode=mode, **cfg))
    return loop.run(problems or list(scripts)), engine, ts


def test_parse_tool_calls_reports_malformed_blocks():
    text = (
        "thinking\n"
        + sc("A")
        + "\n<tool_call>\n{not json}\n</tool_call>\n<tool_call>\n"
        + '{"name": "consistency_check", "arguments": {"statement": "B"}}'
    )
    calls = parse_tool_calls(text)
    assert [c.name for c in calls] == ["syntax_check", "", "consistency_check"]
    assert calls[0].arguments == {"statement": "A"} and calls[0].error is None
    assert "not valid JSON" in calls[1].error
    assert calls[2].arguments == {"statement": "B"}  # unclosed last block still read
    assert parse_tool_calls('<tool_call>{"name": "x", "arguments": "{\\"a\\": 1}"}</tool_call>')[0].arguments == {
        "a": 1
    }
    assert parse_tool_calls("no calls here") == []
    cut = parse_tool_calls(sc("A")[:-4])  # "</tool_call>" cut to "</tool_" by a length limit
    assert cut[0].arguments == {"statement": "A"} and cut[0].error is None


def test_revise_until_both_pass_with_batched_calls(tok):
    scripts = {
        "Problem one: x+1=3, find x.": [sc(BROKEN), sc(WRONG), cc(WRONG), sc(GOOD), cc(GOOD)],
        "Problem two: x+1=3, find x.": [sc(GOOD), cc(GOOD)],
    }
    trajs, engine, ts = run(tok, scripts)
    one, two = trajs
    assert one.stop_reason == "passed" and one.success and one.revisions == 3 and one.statement == GOOD
    assert [(c.name, c.passed) for c in one.calls] == [
        ("syntax_check", False),
        ("syntax_check", True),
        ("consistency_check", False),
        ("syntax_check", True),
        ("consistency_check", True),
    ]
    assert two.stop_reason == "passed" and two.revisions == 1 and len(two.calls) == 2
    # one generate per step for every rollout in flight, one tool call per tool per step
    assert engine.calls == 5
    assert ts[0].batches == [2, 1, 1] and ts[1].batches == [1, 1, 1]
    assert one.messages[-1]["role"] == "tool" and one.messages[2]["role"] == "assistant"


def test_consistency_before_syntax_is_refused(tok):
    scripts = {"p": [cc(GOOD), sc(BROKEN), cc(BROKEN), sc(GOOD) + "\n" + cc(GOOD)]}
    (t,), _, ts = run(tok, scripts)
    assert [(c.name, c.passed) for c in t.calls] == [
        ("consistency_check", None),
        ("syntax_check", False),
        ("consistency_check", None),
        ("syntax_check", True),
        ("consistency_check", True),
    ]
    assert "syntax_check on this exact statement first" in t.calls[0].result
    assert "failed syntax_check" in t.calls[2].result
    # syntax and consistency in one turn run in order: the consistency call sees the fresh verdict
    assert t.stop_reason == "passed" and t.revisions == 2 and t.meta["turns"] == 4
    assert sum(ts[1].batches) == 1  # refused calls never reach the tool


def test_stops_at_revision_limit_but_lets_the_last_statement_be_judged(tok):
    scripts = {
        "a": [sc(BROKEN), sc(BROKEN), sc(WRONG), cc(WRONG), sc(GOOD)],
        "b": [sc(BROKEN), sc(BROKEN), sc(BROKEN), sc(GOOD)],
    }
    (a, b), _, _ = run(tok, scripts, max_revisions=3)
    assert (
        a.stop_reason == "revision_limit"
        and a.revisions == 3
        and a.statement == WRONG
        and a.syntax_ok
        and not a.consistency_ok
    )
    assert [c.name for c in a.calls][-1] == "consistency_check"  # the grace turn ran the judge
    assert b.stop_reason == "revision_limit" and b.revisions == 3 and len(b.calls) == 3 and not b.syntax_ok


def test_no_tool_call_keeps_last_statement_and_turn_limit(tok):
    scripts = {"a": [sc(WRONG), "I am done."], "b": [sc(BROKEN)] * 10}
    (a, b), _, _ = run(tok, scripts, max_turns=3)
    assert a.stop_reason == "no_tool_call" and a.statement == WRONG and a.syntax_ok and not a.success
    assert b.stop_reason == "turn_limit" and b.meta["turns"] == 3 and b.revisions == 3


def test_malformed_and_unknown_calls_get_error_messages(tok):
    scripts = {
        "a": [
            "<tool_call>\n{oops}\n</tool_call>",
            format_tool_call("prove_it", {}),
            format_tool_call("syntax_check", {"stmt": "x"}),
            sc(GOOD),
            cc(GOOD),
        ]
    }
    (a,), _, _ = run(tok, scripts)
    assert [c.passed for c in a.calls] == [None, None, None, True, True] and a.revisions == 1
    assert "not valid JSON" in a.calls[0].result and "no tool named 'prove_it'" in a.calls[1].result
    assert 'needs the argument "statement"' in a.calls[2].result


def test_token_budget_stops_with_length(tok):
    scripts = {"a": [sc(BROKEN)] * 10}
    (a,), _, _ = run(tok, scripts, max_new_tokens=64, max_total_tokens=700)
    last_sampled = max(i for i, m in enumerate(a.completion_mask) if m)
    assert a.stop_reason == "length" and len(a.prompt_ids) + last_sampled < 700  # only the last tool reply runs past
    assert len(a.prompt_ids) + len(a.completion_ids) + 64 > 700  # and no further turn fitted


@pytest.mark.parametrize(
    "script", [[sc(BROKEN), sc(GOOD), cc(GOOD)], [sc(WRONG), "giving up"], ["text then " + sc(GOOD) + "\n" + cc(GOOD)]]
)
def test_token_view_equals_the_template_rendering(tok, script):
    (t,), _, _ = run(tok, {"Find x with x+1=3.": script})
    full = t.prompt_ids + t.completion_ids
    assert full == encode(tok, render_text(tok, t.messages, t.tools, False))
    assert t.prompt_ids == encode(tok, render_text(tok, t.messages[:2], t.tools, True))
    assert len(t.completion_mask) == len(t.completion_ids)
    # mask 1 = exactly the sampled replies (+ eos); mask 0 = tool responses and template
    sampled = [i for i, m in zip(t.completion_ids, t.completion_mask) if m]
    assert sampled == sum((encode(tok, s) + [tok.eos_token_id] for s in script), [])
    inserted = tok.decode([i for i, m in zip(t.completion_ids, t.completion_mask) if not m])
    assert "<tool_response>" in inserted and "theorem" not in inserted.split("<tool_response>")[0]


def test_inserted_end_of_turn_when_the_model_stops_on_the_stop_string(tok):
    class StopString(ReplayEngine):
        def _completion(self, text, params):
            c = super()._completion(text, params)
            return type(c)(c.text, c.token_ids[:-1], "stop")  # stopped on </tool_call>, no eos sampled

    engine = StopString({"p": [sc(GOOD), cc(GOOD)]}, tok)
    (t,) = ToolLoop(engine, tools(), AgentConfig(mode="tokens")).run(["p"])
    assert t.success and t.prompt_ids + t.completion_ids == encode(tok, render_text(tok, t.messages, t.tools, False))
    eos_positions = [m for i, m in zip(t.completion_ids, t.completion_mask) if i == tok.eos_token_id]
    assert eos_positions and all(m == 0 for m in eos_positions[:2])


def test_tiny_model_rollouts_keep_mask_and_ids_aligned(tiny_engine):
    cfg = AgentConfig(max_new_tokens=12, max_turns=2, seed=0)
    trajs = ToolLoop(tiny_engine, tools(), cfg).run(["Show that 1 + 1 = 2."] * 2)
    for t in trajs:
        assert t.stop_reason in ("no_tool_call", "length")  # a random model writes no tool call
        assert len(t.completion_ids) == len(t.completion_mask) and t.completion_mask[0] == 1
        n_sampled = sum(t.completion_mask)
        assert 1 <= n_sampled <= 12
        assert t.messages[-1]["role"] == "assistant"


def test_chat_mode_over_openai_wire_rebuilds_the_token_view(tok):
    from atf.llm.openai_engine import OpenAIEngine

    script = [sc(BROKEN), sc(GOOD), cc(GOOD)]
    seen = []

    def handler(request):
        body = json.loads(request.content)
        seen.append(body)
        turn = sum(1 for m in body["messages"] if m["role"] == "assistant")
        call = parse_tool_calls(script[turn])[0]
        msg = {
            "content": None,
            "tool_calls": [
                {
                    "id": "x",
                    "type": "function",
                    "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
                }
            ],
        }
        return httpx.Response(200, json={"choices": [{"message": msg, "finish_reason": "tool_calls"}]})

    engine = OpenAIEngine("http://x/v1", "atf", tokenizer=tok, transport=httpx.MockTransport(handler))
    (t,) = ToolLoop(engine, tools(), AgentConfig()).run(["Find x."])
    assert t.meta["mode"] == "chat" and t.success and t.revisions == 2
    last = seen[-1]["messages"]
    assert (
        last[2]["tool_calls"][0]["function"]["name"] == "syntax_check"
        and last[3]["role"] == "tool"
        and last[3]["tool_call_id"]
    )
    assert "stop" not in seen[0]  # servers drop stop strings from their output
    assert t.prompt_ids + t.completion_ids == encode(tok, render_text(tok, t.messages, t.tools, False))
    assert sum(t.completion_mask) > 0 and len(t.completion_mask) == len(t.completion_ids)


def test_to_openai_messages_sends_malformed_replies_as_user_text():
    msgs = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "<tool_call>{bad</tool_call>"},
        {"role": "tool", "content": "Error"},
    ]
    out = to_openai_messages(msgs)
    assert "tool_calls" not in out[1] and out[2] == {
        "role": "user",
        "content": "<tool_response>\nError\n</tool_response>",
    }


def test_bad_config_and_missing_tools_are_clear_errors(tok):
    with pytest.raises(ValueError, match="max_revisions"):
        AgentConfig(max_revisions=0)
    with pytest.raises(ValueError, match="consistency_check"):
        ToolLoop(ReplayEngine({}, tok), tools()[:1])
    with pytest.raises(ValueError, match="empty problem"):
        ToolLoop(ReplayEngine({}, tok), tools()).run(["  "])


def test_an_unavailable_syntax_server_fails_that_call_only_and_the_rollout_goes_on(tok):
    from atf.agent.tools import SYNTAX_UNAVAILABLE, SyntaxCheckTool
    from atf.http import ToolUnavailable

    class FlakyChecker:
        """Down for its first call (a Lean server that dropped the connection), then a real verdict."""

        def __init__(self):
            self.calls = 0

        def check_many(self, statements):
            self.calls += 1
            if self.calls == 1:
                raise ToolUnavailable("http://tools:8001/check failed 5 times; last: ReadError")
            from atf.lean import SyntaxChecker

            with SyntaxChecker(use_lean=False) as c:
                return c.check_many(statements)

    scripts = {"p": [sc(GOOD), sc(GOOD), cc(GOOD)], "q": [sc(GOOD), sc(GOOD), cc(GOOD)]}
    engine = ReplayEngine(scripts, tok)
    syntax = SyntaxCheckTool(FlakyChecker())
    judge = CountingTool("consistency_check", CONSISTENCY_SCHEMA, consistency_fn)
    trajs = ToolLoop(engine, [syntax, judge], AgentConfig(mode="tokens")).run(list(scripts))
    for t in trajs:
        assert t.calls[0].error and t.calls[0].result == SYNTAX_UNAVAILABLE and not t.calls[0].passed
        assert t.stop_reason == "passed" and t.revisions == 1  # the failed call was not a revision
        assert t.tool_errored  # answered a failure once: kept out of training data
