import json

import httpx
import pytest

from atf.llm import SamplingParams, load_engine, render_prompt
from atf.llm.openai_engine import OpenAIEngine, tool_calls_to_text

TOOLS = [
    {
        "name": "syntax_check",
        "description": "compile",
        "parameters": {"type": "object", "properties": {"statement": {"type": "string"}}},
    }
]


def test_sampling_params_reject_bad_values():
    with pytest.raises(ValueError, match="temperature"):
        SamplingParams(temperature=-1)
    with pytest.raises(ValueError, match="n must"):
        SamplingParams(n=0)
    with pytest.raises(ValueError, match="top_p"):
        SamplingParams(top_p=0)


def test_unknown_engine_spec_says_what_is_allowed():
    with pytest.raises(ValueError, match="expected smollm2"):
        load_engine("gpt-17")
    with pytest.raises(ValueError, match="model name"):
        load_engine("openai:http://localhost:8000/v1")


def test_tiny_engine_token_in_token_out(tiny_engine):
    prompt = render_prompt(tiny_engine.tokenizer, [{"role": "user", "content": "hi"}])
    out = tiny_engine.generate([prompt, prompt[:-3]], SamplingParams(max_new_tokens=6, n=3, seed=1))
    assert len(out) == 2 and all(len(row) == 3 for row in out)
    for row in out:
        for c in row:
            assert 1 <= len(c.token_ids) <= 6
            assert c.text == tiny_engine.tokenizer.decode(c.token_ids, skip_special_tokens=True)
            if c.finish_reason == "length":
                assert len(c.token_ids) == 6


def test_greedy_is_deterministic_and_seed_repeats_sampling(tiny_engine):
    prompt = render_prompt(tiny_engine.tokenizer, [{"role": "user", "content": "2+2"}])
    g1 = tiny_engine.generate([prompt], SamplingParams(max_new_tokens=5, temperature=0))[0][0]
    g2 = tiny_engine.generate([prompt], SamplingParams(max_new_tokens=5, temperature=0))[0][0]
    assert g1.token_ids == g2.token_ids
    s1 = tiny_engine.generate([prompt], SamplingParams(max_new_tokens=8, seed=7))[0][0]
    s2 = tiny_engine.generate([prompt], SamplingParams(max_new_tokens=8, seed=7))[0][0]
    assert s1.token_ids == s2.token_ids


def test_chat_template_renders_hermes_tools_and_marks_only_assistant_tokens(tiny_engine):
    tok = tiny_engine.tokenizer
    msgs = [
        {"role": "user", "content": "Formalize: 1 + 1 = 2"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"function": {"name": "syntax_check", "arguments": {"statement": "theorem t : 1 + 1 = 2 := by sorry"}}}
            ],
        },
        {"role": "tool", "content": "ok"},
        {"role": "assistant", "content": "done"},
    ]
    text = tok.apply_chat_template(msgs, tools=TOOLS, tokenize=False)
    assert "<tools>\n" + json.dumps(TOOLS[0]) in text
    assert (
        '<tool_call>\n{"name": "syntax_check", "arguments": {"statement": "theorem t : 1 + 1 = 2 := by sorry"}}'
        "\n</tool_call><|im_end|>" in text
    )
    assert "<|im_start|>user\n<tool_response>\nok\n</tool_response><|im_end|>" in text
    enc = tok.apply_chat_template(msgs, tools=TOOLS, tokenize=True, return_dict=True, return_assistant_tokens_mask=True)
    kept = tok.decode([t for t, m in zip(enc["input_ids"], enc["assistant_masks"]) if m])
    assert kept.startswith("<tool_call>") and kept.endswith("done<|im_end|>")
    assert "tool_response" not in kept and "Formalize" not in kept


def test_openai_engine_over_a_fake_server_turns_tool_calls_into_hermes_text():
    seen = []

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        seen.append((request.url.path, body))
        if request.url.path.endswith("/chat/completions"):
            call = {
                "type": "function",
                "function": {"name": "syntax_check", "arguments": json.dumps({"statement": "s"})},
            }
            choices = [{"message": {"content": None, "tool_calls": [call]}, "finish_reason": "tool_calls"}] * body["n"]
        else:
            choices = [{"text": "abc", "finish_reason": "length"}]
        return httpx.Response(200, json={"choices": choices})

    eng = OpenAIEngine("http://x/v1", "m", transport=httpx.MockTransport(handler))
    out = eng.chat([[{"role": "user", "content": "q"}]], SamplingParams(n=2, max_new_tokens=9), tools=TOOLS)
    assert [c.text for c in out[0]] == [
        '<tool_call>\n{"name": "syntax_check", "arguments": {"statement": "s"}}\n</tool_call>'
    ] * 2
    path, body = seen[0]
    assert path == "/v1/chat/completions" and body["tools"][0]["type"] == "function" and body["max_tokens"] == 9
    gen = eng.generate([[1, 2, 3]], SamplingParams(temperature=0))
    assert gen[0][0].text == "abc" and gen[0][0].finish_reason == "length" and seen[1][1]["prompt"] == [1, 2, 3]
    assert "top_p" not in seen[1][1]


def test_openai_engine_reports_server_errors():
    eng = OpenAIEngine(
        "http://x/v1", "m", transport=httpx.MockTransport(lambda r: httpx.Response(503, text="overloaded"))
    )
    with pytest.raises(RuntimeError, match="503: overloaded"):
        eng.chat([[{"role": "user", "content": "q"}]], SamplingParams())


def test_tool_calls_to_text_keeps_content_first():
    assert (
        tool_calls_to_text("think", [{"name": "a", "arguments": {}}])
        == 'think\n<tool_call>\n{"name": "a", "arguments": {}}\n</tool_call>'
    )


@pytest.mark.slow
def test_shipped_smollm2_answers_a_chat(smollm2_engine):
    out = smollm2_engine.chat(
        [[{"role": "user", "content": "What is 2+2? Answer with a number."}]],
        SamplingParams(max_new_tokens=20, temperature=0),
    )
    assert "4" in out[0][0].text
