"""Chat templates: the model's own (TRL's copies of Qwen2.5, Qwen3, Llama 3.1 templates under trl/chat_templates),
ATF's ChatML for models without tool support; rollouts, SFT rows, DPO masks and served prompts agree for each.

Tokenizers are SmolLM2's vocabulary (ChatML tokens included) with Llama 3's special tokens added where a Llama
template needs them; no model is downloaded."""

import json
from importlib import resources
from pathlib import Path

import httpx
import pytest

from atf.agent.loop import AgentConfig, ToolLoop, to_openai_messages
from atf.agent.parsing import format_tool_call, parse_tool_calls
from atf.agent.replay import ReplayEngine
from atf.agent.tokens import encode, render_text
from atf.agent.tools import SYNTAX_SCHEMA, FunctionTool, ToolResult
from atf.llm import SamplingParams
from atf.llm.base import atf_chat_template
from atf.llm.openai_engine import OpenAIEngine, tool_calls_to_text
from atf.llm.templates import apply_chat_template_choice, choose_chat_template, openai_tools, resolve_template
from atf.train.data import sft_rows
from atf.train.reference import ReferenceConsistencyTool

GOLD = "import Mathlib\n\ntheorem t (x : ℕ) (h : x + 1 = 3) : x = 2 := by sorry"
WRONG = GOLD.replace("x = 2 :=", "x = 3 :=")
LLAMA_SPECIAL = [
    "<|begin_of_text|>",
    "<|start_header_id|>",
    "<|end_header_id|>",
    "<|eot_id|>",
    "<|eom_id|>",
    "<|python_tag|>",
]


def trl_template(name):
    return resources.files("trl").joinpath("chat_templates", f"{name}.jinja").read_text()


def make_tokenizer(template_name):
    from transformers import AutoTokenizer

    from atf.llm.models import smollm2_tokenizer_dir

    tok = AutoTokenizer.from_pretrained(str(smollm2_tokenizer_dir()))
    if template_name.startswith("llama3"):
        tok.add_special_tokens({"additional_special_tokens": LLAMA_SPECIAL})
        tok.bos_token, tok.eos_token = "<|begin_of_text|>", "<|eot_id|>"
    tok.chat_template = trl_template(template_name)
    return tok


def syntax(requests):
    return [
        ToolResult(r.arguments["statement"].count("(") == r.arguments["statement"].count(")"), "checked ok")
        for r in requests
    ]


def hermes(name, statement):
    return format_tool_call(name, {"statement": statement})


def llama_json(name, statement):  # what Llama 3.1's template renders for a tool call, and its model writes
    return json.dumps({"name": name, "parameters": {"statement": statement}}, ensure_ascii=False)


THINK = "<think>\nCheck the statement.\n</think>\n\n"  # Qwen3 thinks first; its template renders these newlines


def qwen3(name, statement):
    return THINK + hermes(name, statement)


CASES = {  # TRL template file -> (ATF's choice, how its model writes a tool call)
    "qwen2_5": ("qwen2_5_training", hermes),
    "qwen3": ("qwen3_training", qwen3),
    "llama3_1": ("llama3_1", llama_json),
    "llama3": ("atf", hermes),  # Llama 3 (no tool support): ATF's ChatML, turns closed by <|eot_id|>
}


@pytest.fixture(scope="module", params=list(CASES))
def case(request):
    name = request.param
    tok = apply_chat_template_choice(make_tokenizer(name))
    return name, tok, CASES[name][1]


def rollouts(tok, scripts, mode="tokens"):
    tools = [FunctionTool("syntax_check", SYNTAX_SCHEMA, syntax), ReferenceConsistencyTool({p: GOLD for p in scripts})]
    return ToolLoop(ReplayEngine(scripts, tok), tools, AgentConfig(max_turns=10, mode=mode)).run(list(scripts))


def test_choice_follows_tool_support_and_overrides(tmp_path):
    for name, (expected, _) in CASES.items():
        tok = make_tokenizer(name)
        template, _ = choose_chat_template(tok)
        assert template == (atf_chat_template() if expected == "atf" else trl_template(expected)), name
    tok = make_tokenizer("qwen2_5")
    assert choose_chat_template(tok, "atf") == (atf_chat_template(), "override")
    assert choose_chat_template(tok, "own")[0] == trl_template("qwen2_5")
    assert choose_chat_template(tok, "llama3_1")[0] == trl_template("llama3_1")
    (tmp_path / "t.jinja").write_text("{{ messages[0].content }}")
    assert resolve_template(str(tmp_path / "t.jinja")) == "{{ messages[0].content }}"
    with pytest.raises(ValueError, match="not 'atf', 'own'"):
        resolve_template("no-such-template")


def test_rollout_token_view_sft_rows_and_dpo_mask_for_every_template(case):
    name, tok, call = case
    good, bad = rollouts(
        tok,
        {
            "Find x.": [
                call("syntax_check", WRONG),
                call("consistency_check", WRONG),
                call("syntax_check", GOLD),
                call("consistency_check", GOLD),
            ],
            "Find x again.": [
                call("syntax_check", WRONG),
                call("consistency_check", WRONG),
                (THINK if name == "qwen3" else "") + "I give up.",
            ],
        },
    )
    assert good.stop_reason == "passed" and good.revisions == 2, (name, good.stop_reason, good.meta.get("error"))
    assert bad.stop_reason == "no_tool_call" and bad.revisions == 1
    # the token view is the template's rendering of the conversation
    full = tok.decode(good.prompt_ids + good.completion_ids, skip_special_tokens=False)
    assert full == render_text(tok, good.messages, good.tools, False)
    # SFT: loss on what the model wrote and its turn-end token; messages-only rows (HTTP rollouts) are the same
    (row,) = sft_rows([good], tok)
    kept = tok.decode([i for i, m in zip(row["input_ids"], row["assistant_masks"]) if m], skip_special_tokens=False)
    assert (
        len(parse_tool_calls(kept.replace(tok.eos_token, "\n"))) == 4
        and "checked ok" not in kept
        and "Find x" not in kept
    )
    assert kept.count(tok.eos_token) == 4  # the model learns to end every turn
    good.prompt_ids = good.completion_ids = good.completion_mask = None
    assert sft_rows([good], tok) == [row]
    # DPO: the collator finds this template's assistant turns; tool output stays out of the loss
    prompt = encode(tok, render_text(tok, good.messages[:2], good.tools, True))
    chosen = encode(tok, render_text(tok, good.messages, good.tools, False))[len(prompt) :]
    rejected = encode(tok, render_text(tok, good.messages[:2] + bad.messages[2:], good.tools, False))[len(prompt) :]
    # imported here: TRL's DPO module takes about 8 s to import, and every test worker collects this file
    from atf.train.collators import ToolMaskedPreferenceCollator

    batch = ToolMaskedPreferenceCollator.from_tokenizer(tok)(
        [{"prompt_ids": prompt, "chosen_ids": chosen, "rejected_ids": rejected}]
    )
    for r, turns in ((0, 4), (1, 3)):
        seq, mask = batch["input_ids"][r].tolist(), batch["completion_mask"][r].tolist()
        kept = tok.decode([i for i, m in zip(seq, mask) if m], skip_special_tokens=False)
        assert kept.count(tok.eos_token) == turns and "checked ok" not in kept and "Inconsistent" not in kept, (
            name,
            kept,
        )
        assert "checked ok" in tok.decode(seq)  # in the sequence, not in the loss


def served_prompt_ids(tok, body):
    """What vLLM's OpenAI server tokenizes for a chat request: the tokenizer's chat template applied to the request's
    messages with `tools=` the request's (wrapped) schemas, tool-call arguments parsed back to objects (vLLM's
    chat_utils does this before rendering), then encoded without adding special tokens."""
    messages = json.loads(json.dumps(body["messages"]))
    for m in messages:
        for c in m.get("tool_calls") or []:
            c["function"]["arguments"] = json.loads(c["function"]["arguments"])
    text = tok.apply_chat_template(messages, tools=body.get("tools"), add_generation_prompt=True, tokenize=False)
    return encode(tok, text), text


def test_served_prompt_has_the_trained_token_ids(case):
    """The request an OpenAI-compatible server gets renders to exactly the ids training uses, at every turn."""
    name, tok, call = case
    (t,) = rollouts(tok, {"Find x.": [call("syntax_check", GOLD), call("consistency_check", GOLD)]})
    bodies = []

    def handler(request):
        bodies.append(json.loads(request.content))
        return httpx.Response(200, json={"choices": [{"message": {"content": "ok"}, "finish_reason": "stop"}]})

    engine = OpenAIEngine("http://x/v1", "m", transport=httpx.MockTransport(handler))
    engine.chat(
        [to_openai_messages(t.messages[:2]), to_openai_messages(t.messages[:4])], SamplingParams(), tools=t.tools
    )
    # the engine sends the two requests from a thread pool: they arrive in either order
    first, second = sorted(bodies, key=lambda body: len(body["messages"]))
    assert len(first["messages"]) < len(second["messages"])
    assert first["tools"] == openai_tools(t.tools) and first["tools"][0]["type"] == "function"
    assert served_prompt_ids(tok, first)[0] == t.prompt_ids  # what training puts before the completion
    trained = encode(tok, render_text(tok, t.messages[:4], t.tools, True))
    ids, text = served_prompt_ids(tok, second)
    assert text == render_text(tok, t.messages[:4], t.tools, True) and ids == trained, name


def test_tool_schemas_render_wrapped(tiny_engine):
    tok = tiny_engine.tokenizer
    (t,) = rollouts(tok, {"Find x.": [hermes("syntax_check", GOLD), hermes("consistency_check", GOLD)]})
    wrapped = tok.apply_chat_template(
        t.messages[:2], tools=openai_tools(t.tools), add_generation_prompt=True, tokenize=True, return_dict=False
    )
    bare = tok.apply_chat_template(
        t.messages[:2], tools=t.tools, add_generation_prompt=True, tokenize=True, return_dict=False
    )
    assert t.prompt_ids == list(wrapped) and len(bare) < len(wrapped)
    assert '{"type": "function", "function": {"name": "syntax_check"' in tok.decode(t.prompt_ids)


def test_model_without_tool_support_ends_turns_on_its_own_eos():
    """Llama 3 (no tools in its template) gets ATF's ChatML, whose turns end on the tokenizer's `<|eot_id|>`: a model
    that stops there goes on to the next turn (it used to meet `<|im_end|>` and stop at the first turn)."""
    tok = apply_chat_template_choice(make_tokenizer("llama3"))
    (t,) = rollouts(tok, {"Find x.": [hermes("syntax_check", GOLD), hermes("consistency_check", GOLD)]})
    assert t.stop_reason == "passed" and t.meta["turns"] == 2
    assert tok.decode(t.completion_ids, skip_special_tokens=False).count("<|eot_id|>") == 4  # 2 turns + 2 tool turns
    assert "<|im_end|>" not in tok.decode(t.prompt_ids + t.completion_ids, skip_special_tokens=False)


def test_qwen3_thinking_spacing_mismatch_fails_that_rollout_only():
    tok = apply_chat_template_choice(make_tokenizer("qwen3"))
    squeezed = "<think>\nCheck.\n</think>\n" + hermes("syntax_check", GOLD)  # the template renders "</think>\n\n"
    good, bad = rollouts(
        tok,
        {
            "Find x.": [qwen3("syntax_check", GOLD), qwen3("consistency_check", GOLD)],
            "Find y.": [squeezed, qwen3("consistency_check", GOLD)],
        },
    )
    assert good.stop_reason == "passed"
    assert bad.stop_reason == "template_mismatch" and "renders the assistant text differently" in bad.meta["error"]
    assert not bad.success and bad.completion_mask is not None and len(bad.completion_mask) == len(bad.completion_ids)


def test_llama31_tool_calls_are_parsed():
    calls = parse_tool_calls(
        '<|python_tag|>{"name": "syntax_check", "parameters": {"statement": "s"}}; {"name": "x", "arguments": {}}'
    )
    assert [(c.name, c.arguments, c.error) for c in calls] == [
        ("syntax_check", {"statement": "s"}, None),
        ("x", {}, None),
    ]
    assert parse_tool_calls('{"name": "syntax_check", "parameters": {"statement": ')[0].error
    assert parse_tool_calls('The answer is {"a": 1}.') == [] and parse_tool_calls('{"a": 1}') == []


def test_http_tool_calls_keep_the_models_newline():
    block = '<tool_call>\n{"name": "a", "arguments": {}}\n</tool_call>'
    call = [{"function": {"name": "a", "arguments": "{}"}}]
    assert tool_calls_to_text("think\n", call) == "think\n" + block  # vLLM's hermes parser keeps the newline
    assert tool_calls_to_text("think", call) == "think\n" + block  # servers that strip it: as templates render it
    assert tool_calls_to_text(None, call) == block


@pytest.mark.integration
def test_inference_and_serving_use_the_training_choice(tmp_path, capsys):
    """`hf:<ckpt>` samples with the template training uses; `vllm serve` gets --chat-template only when the
    checkpoint's own template is not that one (python -m atf.llm.templates prints the file, or nothing)."""
    from atf.llm import load_engine
    from atf.llm.models import tiny_model
    from atf.llm.templates import main as templates_main
    from atf.train.model import training_tokenizer

    raw = make_tokenizer("qwen2_5")
    model, _ = tiny_model(raw, hidden_size=16, num_layers=1)
    model.save_pretrained(tmp_path / "qwen")
    raw.save_pretrained(tmp_path / "qwen")
    trained = training_tokenizer(str(tmp_path / "qwen"))
    assert (
        load_engine(f"hf:{tmp_path / 'qwen'}").tokenizer.chat_template
        == trained.chat_template
        == trl_template("qwen2_5_training")
    )
    assert load_engine(f"hf:{tmp_path / 'qwen'}", chat_template="atf").tokenizer.chat_template == atf_chat_template()
    templates_main([str(tmp_path / "qwen")])
    printed = capsys.readouterr().out.strip()
    assert printed and Path(printed).read_text() == trl_template("qwen2_5_training")  # served as trained
    trained.save_pretrained(tmp_path / "qwen")  # what training saves with the model
    templates_main([str(tmp_path / "qwen")])
    assert capsys.readouterr().out == ""  # the checkpoint carries it: no --chat-template needed
    with pytest.raises(ValueError, match="renders with its own template"):
        load_engine("openai:http://x/v1#m", chat_template="atf")


@pytest.mark.parametrize("name", ["llama3_1", "qwen3", "qwen2_5", "llama3"])
def test_synthesized_turns_are_what_the_students_template_renders_back(name):
    """Programmatic cold start writes each call as the student's template renders it in the history (Llama 3.1:
    the call's JSON alone; Qwen3: after its think block; Qwen2.5 and ATF's ChatML: hermes text), so the prompt a
    server renders from the structured calls is the one trained on, at every turn."""
    from atf.data.benchmarks import BenchmarkProblem
    from atf.train.synth import synthesize

    tok = apply_chat_template_choice(make_tokenizer(name))
    problems = [
        BenchmarkProblem(f"p{i}", "test", "valid", f"Find x (#{i}).", GOLD, "import Mathlib\n\n") for i in (0, 1)
    ]
    tools = [
        FunctionTool("syntax_check", SYNTAX_SCHEMA, syntax),
        ReferenceConsistencyTool({p.informal: GOLD for p in problems}),
    ]
    # chat mode: the test vocabulary (SmolLM2's) tokenizes "\n\n{" across the Llama header differently when encoded
    # whole, which a Llama 3 tokenizer does not; the text is what this test is about
    trajs, stats = synthesize(problems, tok, tools, plans=["direct", "fix_meaning"], config=AgentConfig(mode="chat"))
    assert len(trajs) == 4, stats.summary()
    for t in trajs:
        said = [m["content"] for m in t.messages if m["role"] == "assistant"]
        calls = [c for text in said for c in parse_tool_calls(text)]
        assert len(calls) == len(t.calls) and not any(c.error for c in calls)
        if name == "llama3_1":
            assert all(text.startswith('{"name": ') and "<tool_call>" not in text for text in said)
        else:
            assert all("<tool_call>" in text for text in said)
        for n in range(2, len(t.messages) + 1):
            if t.messages[n - 1]["role"] != "tool" or (n < len(t.messages) and t.messages[n]["role"] == "tool"):
                continue
            body = {"messages": to_openai_messages(t.messages[:n]), "tools": openai_tools(t.tools)}
            ids, text = served_prompt_ids(tok, body)
            assert text == render_text(tok, t.messages[:n], t.tools, True), (name, n)
