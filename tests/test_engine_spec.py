"""Engine specs (`<engine>[::key=value,...]`) and declared engine capabilities."""

from __future__ import annotations

import pytest

from atf.agent.loop import AgentConfig, ToolLoop
from atf.agent.replay import ReplayEngine
from atf.agent.tools import default_tools
from atf.judge.judge import Judge, load_judge, parse_judge_spec
from atf.llm import Capabilities, SamplingParams, engine_options, load_engine
from atf.llm.spec import parse_options, split_spec


@pytest.mark.parametrize(
    "spec,engine,options",
    [
        ("openai:http://[::1]:8000/v1#m", "openai:http://[::1]:8000/v1#m", ""),
        ("openai:http://[fe80::a:1]:80/v1#m::temperature=0.5", "openai:http://[fe80::a:1]:80/v1#m", "temperature=0.5"),
        ("openai:http://h:8000/v1#org/model::top_p=0.9", "openai:http://h:8000/v1#org/model", "top_p=0.9"),
        ("smollm2::max_new_tokens=8", "smollm2", "max_new_tokens=8"),
        ("smollm2", "smollm2", ""),
    ],
)
def test_split_never_cuts_inside_an_ipv6_host(spec, engine, options):
    assert split_spec(spec) == (engine, options)


def test_options_are_typed_and_unknown_keys_list_the_valid_ones():
    valid = engine_options("vllm:/m")
    assert parse_options(
        "tensor_parallel_size=4,enforce_eager=true,gpu_memory_utilization=0.8,temperature=0", valid, "s"
    ) == {"tensor_parallel_size": 4, "enforce_eager": True, "gpu_memory_utilization": 0.8, "temperature": 0.0}
    with pytest.raises(ValueError, match=r"unknown engine option 'max_tokens'.*valid: .*max_new_tokens"):
        load_engine("tiny::max_tokens=8")
    with pytest.raises(ValueError, match="must be int"):
        load_engine("tiny::batch_size=2.5")
    with pytest.raises(ValueError, match="must be bool"):
        parse_options("enforce_eager=maybe", valid, "s")
    with pytest.raises(ValueError, match="not key=value"):
        load_engine("tiny::batch_size")
    assert {"concurrency", "timeout", "api_key"} <= set(engine_options("openai:http://h/v1#m"))


def test_openai_spec_with_ipv6_host_builds_the_right_client():
    engine = load_engine("openai:http://[::1]:8000/v1#qwen::concurrency=3,max_new_tokens=7")
    assert engine.base_url == "http://[::1]:8000/v1" and engine.model == "qwen" and engine.concurrency == 3
    assert engine.capabilities == Capabilities(tool_call_parsing=True) and engine.overrides == {"max_new_tokens": 7}


def test_sampling_options_reach_the_engine(tiny_engine, monkeypatch):
    """`tiny::max_new_tokens=3` caps every call, whatever the caller asks for; constructor keys are set."""
    import atf.llm.models

    monkeypatch.setattr(atf.llm.models, "tiny_model", lambda: (tiny_engine.model, tiny_engine.tokenizer))
    engine = load_engine("tiny::max_new_tokens=3,temperature=0,batch_size=2")
    assert engine.batch_size == 2 and engine.name == "tiny" and engine.capabilities.token_io
    prompt = tiny_engine.tokenizer.encode("Show that 1 + 1 = 2.")
    out = engine.generate([prompt], SamplingParams(max_new_tokens=40, temperature=0.9))
    assert 1 <= len(out[0][0].token_ids) <= 3
    greedy = tiny_engine.generate([prompt], SamplingParams(max_new_tokens=3, temperature=0))
    assert out[0][0].token_ids == greedy[0][0].token_ids


def test_judge_spec_keeps_engine_keys_in_the_engine_and_judge_keys_in_the_judge():
    assert parse_judge_spec("openai:http://[::1]:8000/v1#q::samples=3,temperature=0.6,concurrency=4") == (
        "openai:http://[::1]:8000/v1#q::concurrency=4",
        {"samples": 3, "temperature": 0.6},
    )
    assert parse_judge_spec("openai:http://[::1]:8000/v1#q") == ("openai:http://[::1]:8000/v1#q", {})
    judge = load_judge("openai:http://[::1]:8000/v1#q::max_new_tokens=9,prefill=false,timeout=5")
    assert judge.params.max_new_tokens == 9 and judge.prefill is False and judge.engine._client.timeout.read == 5
    with pytest.raises(ValueError, match="unknown judge option 'temp'.*samples"):
        parse_judge_spec("smollm2::temp=1")


class Declared(ReplayEngine):
    """A replay engine whose capabilities are set by the test, whatever its name says."""

    def __init__(self, tokenizer, capabilities, name):
        super().__init__({}, tokenizer, name=name)
        self.capabilities = capabilities


def test_loop_mode_and_judge_scoring_follow_capabilities_not_names(tiny_engine):
    tok = tiny_engine.tokenizer
    chat_only = Declared(tok, Capabilities(tool_call_parsing=True), name="hf:looks-local")
    token_io = Declared(tok, Capabilities(token_io=True), name="openai:looks-remote")
    tools = default_tools([Judge(chat_only)])
    assert not ToolLoop(chat_only, tools).token_mode  # has a tokenizer, but re-encoded text is not what it sampled
    assert ToolLoop(token_io, tools).token_mode
    with pytest.raises(ValueError, match="token mode needs a token-in/token-out engine"):
        ToolLoop(chat_only, tools, AgentConfig(mode="tokens"))
    assert Judge(token_io).prefill is True and Judge(chat_only).prefill is False
    assert not Judge(token_io).uses_logprob and Judge(tiny_engine).uses_logprob
    with pytest.raises(ValueError, match="logprob"):
        Judge(token_io, scoring="logprob")


def test_a_judge_on_the_formalizer_spec_shares_its_engine_even_with_options(monkeypatch, tiny_engine):
    """`atf formalize --engine 'tiny::batch_size=2,max_new_tokens=8'` with no --judge loads the model once."""
    import argparse

    import atf.llm
    from atf.agent.cli import build_formalizer
    from atf.cli import build_parser

    loaded = []
    monkeypatch.setattr(atf.llm, "load_engine", lambda spec, **kw: loaded.append(spec) or tiny_engine)
    args = build_parser().parse_args(["formalize", "--engine", "tiny::max_new_tokens=8,batch_size=2", "-k", "1", "p"])
    formalizer = build_formalizer(argparse.Namespace(**vars(args)))
    assert loaded == ["tiny::max_new_tokens=8,batch_size=2"]
    (judge,) = formalizer.loop.tools["consistency_check"].checker.judges
    assert judge.engine is tiny_engine and judge.params.max_new_tokens == 8
