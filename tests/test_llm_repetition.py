"""Repetition guards (repetition_penalty, frequency_penalty): one default each (SamplingParams), one meaning in every
engine, sent over HTTP only when set."""

from __future__ import annotations

import json
import sys
import types

import httpx
import pytest
import torch

from atf.agent.loop import AgentConfig
from atf.llm import SamplingParams, load_engine
from atf.llm.openai_engine import OpenAIEngine


def test_default_is_off_and_bad_values_are_refused():
    assert SamplingParams().repetition_penalty == 1.0
    assert AgentConfig().sampling(True).repetition_penalty == SamplingParams().repetition_penalty
    assert AgentConfig(repetition_penalty=1.15).sampling(False).repetition_penalty == 1.15
    for bad in (0.0, -1.0):
        with pytest.raises(ValueError, match="repetition_penalty"):
            SamplingParams(repetition_penalty=bad)
    assert SamplingParams().frequency_penalty == 0.0 == AgentConfig().sampling(True).frequency_penalty
    assert AgentConfig(frequency_penalty=0.3).sampling(True).frequency_penalty == 0.3
    with pytest.raises(ValueError, match="frequency_penalty"):
        SamplingParams(frequency_penalty=2.5)


def recording_server(seen: list) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(json.loads(request.content))
        if request.url.path.endswith("/chat/completions"):
            return httpx.Response(200, json={"choices": [{"message": {"content": "ok"}, "finish_reason": "stop"}]})
        return httpx.Response(200, json={"choices": [{"text": "ok", "finish_reason": "stop"}]})

    return httpx.MockTransport(handler)


def test_http_body_carries_the_penalty_only_when_set():
    seen: list = []
    eng = OpenAIEngine("http://x/v1", "m", transport=recording_server(seen))
    conv = [[{"role": "user", "content": "q"}]]
    eng.chat(conv, SamplingParams())
    eng.generate([[1, 2]], SamplingParams(temperature=0))
    assert all("repetition_penalty" not in body for body in seen)  # OpenAI's own API refuses unknown fields
    assert all("frequency_penalty" not in body for body in seen)
    seen.clear()
    eng.chat(conv, SamplingParams(repetition_penalty=1.2))
    eng.generate([[1, 2]], SamplingParams(repetition_penalty=0.9, frequency_penalty=0.4))
    assert [body["repetition_penalty"] for body in seen] == [1.2, 0.9]
    assert [body.get("frequency_penalty") for body in seen] == [None, 0.4]


def test_engine_spec_option_sets_the_penalty_of_every_call():
    seen: list = []
    eng = load_engine("openai:http://x/v1#m::repetition_penalty=1.3", transport=recording_server(seen))
    eng.chat([[{"role": "user", "content": "q"}]], SamplingParams())
    assert seen[0]["repetition_penalty"] == 1.3


@pytest.fixture(scope="module")
def fixed_logits_engine(tiny_engine):
    """The tiny model with an output head that ignores its input: every step's logits are the same vector, so what
    greedy decoding picks is decided by the logits processors alone."""
    from atf.llm.models import tiny_model
    from atf.llm.transformers_engine import TransformersEngine

    model, tok = tiny_model(tiny_engine.tokenizer)
    a, b = tok.convert_tokens_to_ids("x"), tok.convert_tokens_to_ids("y")
    head = torch.nn.Linear(model.config.hidden_size, model.config.vocab_size, bias=True)
    with torch.no_grad():
        head.weight.zero_()
        head.bias.fill_(-10.0)
        head.bias[a], head.bias[b] = 2.0, 1.9
    model.lm_head = head
    return TransformersEngine(model, tok), tok, a, b


def test_transformers_engine_penalises_tokens_already_generated(fixed_logits_engine):
    eng, tok, a, b = fixed_logits_engine
    prompt = tok.encode("Say something.", add_special_tokens=False)
    assert a not in prompt and b not in prompt
    plain = eng.generate([prompt], SamplingParams(max_new_tokens=4, temperature=0))[0][0]
    assert plain.token_ids == [a] * 4  # the loop: the same token, every step
    # 1.2: x's logit 2.0 becomes 1.67 once x is in the sequence, below y's 1.9; then y's becomes 1.58 < 1.67. The
    # penalty is applied once per distinct token, not once per occurrence (CTRL, vLLM, transformers): x wins again.
    guarded = eng.generate([prompt], SamplingParams(max_new_tokens=4, temperature=0, repetition_penalty=1.2))[0][0]
    assert guarded.token_ids == [a, b, a, a]
    # too small to reorder 2.0 and 1.9 (2.0 / 1.04 = 1.92)
    mild = eng.generate([prompt], SamplingParams(max_new_tokens=2, temperature=0, repetition_penalty=1.04))[0][0]
    assert mild.token_ids == [a, a]


def test_transformers_engine_counts_each_rows_own_prompt(fixed_logits_engine):
    """As vLLM does: tokens of the prompt are penalised too, each row by its own prompt in a left-padded batch."""
    eng, tok, a, b = fixed_logits_engine
    with_x = tok.encode("Say", add_special_tokens=False) + [a]
    short = tok.encode("Hi", add_special_tokens=False)
    assert len(short) < len(with_x)  # left-padded in the batch
    params = SamplingParams(max_new_tokens=1, temperature=0, repetition_penalty=1.2)
    first = eng.generate([with_x, short], params)
    assert first[0][0].token_ids == [b] and first[1][0].token_ids == [a]


def test_left_padding_is_not_penalised(fixed_logits_engine):
    """TransformersEngine pads with the end-of-turn token when a tokenizer has neither pad nor unk (Llama 3): a
    padded row must not be pushed away from stopping. Here x, the top token, is made the pad (and so an end)."""
    eng, tok, a, b = fixed_logits_engine
    long = tok.encode("Say something else.", add_special_tokens=False)
    short = tok.encode("Hi", add_special_tokens=False)
    assert a not in long + short and len(short) < len(long)
    saved = tok.pad_token
    tok.pad_token = "x"
    try:
        assert tok.pad_token_id == a
        params = SamplingParams(max_new_tokens=2, temperature=0.01, repetition_penalty=1.2, n=2, seed=0)  # ~greedy
        out = [c for row in eng.generate([long, short], params) for c in row]
    finally:
        tok.pad_token = saved
    # every row stops at once on x; counting the short rows' padding would have made them write y instead
    assert [(c.token_ids, c.finish_reason) for c in out] == [([], "stop")] * 4


def test_frequency_penalty_counts_occurrences_in_the_completion_only(fixed_logits_engine):
    eng, tok, a, b = fixed_logits_engine
    prompt = tok.encode("Say", add_special_tokens=False) + [a, a, a]
    params = SamplingParams(max_new_tokens=4, temperature=0, frequency_penalty=0.06)
    # x's 2.0 stays above y's 1.9 after one x (1.94), not after two (1.88); then 1.88 > 1.84: x again
    assert eng.generate([prompt], params)[0][0].token_ids == [a, a, b, a]  # the x's of the prompt cost nothing


def test_frequency_penalty_comes_before_temperature_and_top_p():
    """vLLM's order: penalised logits are divided by the temperature, then top-p cuts (generate alone would run its
    own warpers first)."""
    from atf.llm.transformers_engine import sampling_processors

    kwargs = sampling_processors(SamplingParams(temperature=0.5, top_p=0.5, frequency_penalty=1.0), 2)
    assert kwargs["temperature"] == 1.0 and kwargs["top_p"] == 1.0  # generate's own warpers are off
    ids = torch.tensor([[7, 7, 0, 0, 1]])  # a 2-token prompt (7 7); generated: 0 twice, 1 once
    scores = torch.tensor([[3.0, 1.0, 0.0, 2.0]])
    out = kwargs["logits_processor"](ids, scores.clone())
    # penalised: 1.0, 0.0, 0.0, 2.0; / 0.5: 2.0, 0.0, 0.0, 4.0; top-p 0.5 keeps only token 3 (p = 0.84)
    assert out[0, 3] == 4.0 and torch.isinf(out[0, :3]).all()


def test_vllm_engine_passes_the_penalty_to_vllm(monkeypatch, tiny_engine):
    """vllm is not installed here: a stand-in module records the SamplingParams the engine builds."""
    built: list[dict] = []
    fake = types.ModuleType("vllm")

    class LLM:
        def __init__(self, model, **kwargs):
            pass

        def get_tokenizer(self):
            return tiny_engine.tokenizer

    fake.LLM = LLM
    fake.SamplingParams = lambda **kwargs: built.append(kwargs) or kwargs
    monkeypatch.setitem(sys.modules, "vllm", fake)
    from atf.llm.vllm_engine import VLLMEngine

    eng = VLLMEngine("/m")
    eng._params(SamplingParams(repetition_penalty=1.1, frequency_penalty=0.2))
    eng._params(SamplingParams())
    assert [(kw["repetition_penalty"], kw["frequency_penalty"]) for kw in built] == [(1.1, 0.2), (1.0, 0.0)]


def test_formalize_cli_exposes_the_penalty_with_the_dataclass_default():
    from atf.cli import build_parser

    parser = build_parser()
    assert parser.parse_args(["formalize", "p"]).repetition_penalty == SamplingParams.repetition_penalty
    assert parser.parse_args(["formalize", "--repetition-penalty", "1.1", "p"]).repetition_penalty == 1.1
