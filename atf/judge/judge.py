"""A judge: an engine plus how it is sampled. Built from an `Engine`, or from a spec string on the CLI.

Spec: `<engine spec>[::key=value,key=value]`, e.g.

    smollm2
    smollm2::temperature=0.7,samples=3
    openai:http://localhost:8000/v1#qwq::thinking=true,timeout=900,retries=3

judge keys: max_new_tokens, temperature, top_p, seed, samples, scoring, prefill, thinking, name (see `Judge`);
the engine's own keys (the OpenAI engine's timeout and retries, ...) stay in the engine spec.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

from atf.llm import Engine, Message, SamplingParams, render_prompt
from atf.llm.errors import PartialBatchError

log = logging.getLogger(__name__)

Scoring = Literal["auto", "logprob", "sample"]
THINK_OPEN = "<think>\n"
_THINK_CLOSE = re.compile(r"</think\s*>", re.IGNORECASE)

# Answer-only judges: a short, greedy reply. Thinking judges (QwQ-32B, Qwen3 in thinking mode) write a long
# <think> block first: their model cards advise sampling at temperature 0.6, top_p 0.95 (greedy decoding
# makes them repeat themselves) and budgets of thousands of tokens, so a 384-token cap cuts the thinking.
ANSWER_PARAMS = SamplingParams(max_new_tokens=384, temperature=0.0)
THINKING_PARAMS = SamplingParams(max_new_tokens=8192, temperature=0.6, top_p=0.95)


def default_params(thinking: bool = False) -> SamplingParams:
    return THINKING_PARAMS if thinking else ANSWER_PARAMS


@dataclass
class Judge:
    """One member of the ensemble.

    engine: any `atf.llm.Engine` (transformers, vLLM, OpenAI-compatible HTTP, a test double).
    params: sampling settings for this judge; None = `default_params(thinking)` (384 greedy tokens for
        answer-only judges, 8192 tokens at temperature 0.6 for thinking judges).
    samples: answers drawn per question. With samples > 1 (needs temperature > 0) the judge's verdict is
        the strict majority of its samples, unparseable samples counting against; OAP scores average them.
    scoring: how OAP yes/no and rating questions are scored. "logprob": next-token probabilities of
        yes/no (1-5) read from the model directly (transformers engines only); "sample": generate and parse;
        "auto": logprob when the engine is a local transformers model that does not think, else sample.
    prefill: start the judge's reply with the answer label ("VERDICT:", "ANSWER:", ...) so that small
        models answer in the format. Needs a token-in/token-out engine (transformers, vLLM); None = use it
        whenever the engine is one and the judge does not think. The label is put back in front of the
        text before parsing. Never with a thinking judge: the label would skip its <think> block.
    thinking: the judge reasons in a <think> block before answering. None = what the engine declares: a
        `thinking` attribute, else a chat template that handles <think> (QwQ, Qwen3); HTTP engines without
        a local tokenizer declare nothing, so say `thinking=true` in their spec.
    name: shown in votes and feedback; defaults to the engine's name.
    """

    engine: Engine
    params: SamplingParams | None = None
    samples: int = 1
    scoring: Scoring = "auto"
    prefill: bool | None = None
    thinking: bool | None = None
    name: str = ""

    def __post_init__(self) -> None:
        if self.thinking is None:
            self.thinking = declares_thinking(self.engine)
        if self.params is None:
            self.params = default_params(self.thinking)
        if self.samples < 1:
            raise ValueError(f"samples must be >= 1, got {self.samples}")
        if self.samples > 1 and self.params.temperature == 0:
            raise ValueError("samples > 1 needs temperature > 0 (greedy decoding repeats the same answer)")
        if self.scoring not in ("auto", "logprob", "sample"):
            raise ValueError(f"scoring must be auto, logprob or sample, got {self.scoring!r}")
        if self.scoring == "logprob" and not supports_logprob(self.engine):
            raise ValueError(f"judge {self.engine.name!r}: logprob scoring needs a local transformers engine")
        if self.thinking and self.scoring == "logprob":
            raise ValueError(f"judge {self.engine.name!r}: a thinking judge is scored by sampling, not logprob")
        if self.thinking and self.prefill:
            raise ValueError(f"judge {self.engine.name!r}: prefill would skip a thinking judge's <think> block")
        if self.prefill and not supports_prefill(self.engine):
            raise ValueError(f"judge {self.engine.name!r}: prefill needs a token-in/token-out engine with a tokenizer")
        if self.prefill is None:
            self.prefill = supports_prefill(self.engine) and not self.thinking
        self.name = self.name or getattr(self.engine, "name", "judge")

    @property
    def sampling(self) -> SamplingParams:
        """`params` with n = samples."""
        return dataclasses.replace(self.params, n=self.samples)

    @property
    def uses_logprob(self) -> bool:
        auto = self.scoring == "auto" and supports_logprob(self.engine) and not self.thinking
        return self.scoring == "logprob" or auto


class Reply(NamedTuple):
    """A judge's answers to one conversation: `samples` texts, which of them hit the token limit, and
    `error` (the engine's failure, for logs only) when the request failed; texts is then empty."""

    texts: list[str]
    truncated: list[bool]
    error: str | None = None


def _describe(err: BaseException) -> str:
    return f"{type(err).__name__}: {err}"


def _replies(judge: Judge, outputs: Sequence[Any], prefixes: Sequence[str], prefill: bool) -> list[Reply]:
    out = []
    for completions, pre in zip(outputs, prefixes):
        completions = list(completions)[: judge.samples]
        texts = [(pre + c.text if prefill else c.text) for c in completions]
        cut = [getattr(c, "finish_reason", "stop") == "length" for c in completions]
        if judge.thinking:
            # A thinking judge cut off before `</think>` wrote only thinking (its template may have opened the
            # block in the prompt): mark the block open so that no draft verdict in it is read as the answer.
            texts = [THINK_OPEN + t if c and not _THINK_CLOSE.search(t) else t for t, c in zip(texts, cut)]
        missing = judge.samples - len(texts)  # padded with empty answers, which parse as unreadable
        out.append(Reply(texts + [""] * missing, cut + [False] * missing))
    return out


def _call(judge: Judge, conversations: Sequence[list[Message]], prefixes: Sequence[str], prefill: bool) -> list[Any]:
    if prefill:
        tok = judge.engine.tokenizer
        prompts = [
            render_prompt(tok, conv) + (tok.encode(pre, add_special_tokens=False) if pre else [])
            for conv, pre in zip(conversations, prefixes)
        ]
        return judge.engine.generate(prompts, judge.sampling)
    return judge.engine.chat(list(conversations), judge.sampling)


def ask(judge: Judge, conversations: Sequence[list[Message]], prefixes: Sequence[str] | str = "") -> list[Reply]:
    """Every conversation goes to the judge in one call, so vLLM/HTTP engines get them in flight together.

    One `Reply` per conversation. A failure is isolated to the conversation it belongs to: engines that
    report per-request failures (`PartialBatchError`) keep the others' answers; after any other exception
    each conversation is asked again on its own, and only those that fail again are errors.
    prefixes: the answer label each reply starts with ("VERDICT:"); with `judge.prefill` it is put at the
    start of the assistant turn and in front of the returned text."""
    if not conversations:
        return []
    if isinstance(prefixes, str):
        prefixes = [prefixes] * len(conversations)
    prefill = bool(judge.prefill) and any(prefixes)
    try:
        outputs = _call(judge, conversations, prefixes, prefill)
    except PartialBatchError as err:
        log.warning("judge %s: %s", judge.name, err)
        replies: list[Reply] = []
        for result, error, pre in zip(err.results, err.errors, prefixes):
            if error is not None or result is None:
                replies.append(Reply([], [], _describe(error) if error else "no reply"))
            else:
                replies.extend(_replies(judge, [result], [pre], prefill))
        return replies
    except Exception as err:  # noqa: BLE001 - one request's failure must not decide the batch
        if len(conversations) == 1:
            log.warning("judge %s failed: %s", judge.name, _describe(err))
            return [Reply([], [], _describe(err))]
        log.warning("judge %s failed on a batch of %d (%s); asking each alone", judge.name, len(conversations), err)
        return [ask(judge, [conv], [pre])[0] for conv, pre in zip(conversations, prefixes)]
    if len(outputs) != len(conversations):
        error = f"engine returned {len(outputs)} replies for {len(conversations)} prompts"
        return [Reply([], [], error) for _ in conversations]
    return _replies(judge, outputs, prefixes, prefill)


def declares_thinking(engine: Any) -> bool:
    """The engine's declared `thinking` capability, else whether its chat template handles <think> blocks."""
    declared = getattr(engine, "thinking", None)
    if isinstance(declared, bool):
        return declared
    template = getattr(getattr(engine, "tokenizer", None), "chat_template", None)
    return isinstance(template, str) and "<think>" in template


def supports_logprob(engine: Engine) -> bool:
    """The engine declares that its next-token distribution can be read (a local model)."""
    return engine.capabilities.logprobs


def supports_prefill(engine: Engine) -> bool:
    """Token-in/token-out engines with a tokenizer: we can render the prompt and extend it with a label."""
    return engine.capabilities.token_io and engine.tokenizer is not None


def as_judges(judges: Sequence[Judge | Engine]) -> list[Judge]:
    """Wrap bare engines with default settings; names made unique (a, a#2, ...)."""
    if not judges:
        raise ValueError("the consistency check needs at least one judge")
    out = [j if isinstance(j, Judge) else Judge(engine=j) for j in judges]
    seen: dict[str, int] = {}
    for i, judge in enumerate(out):
        seen[judge.name] = seen.get(judge.name, 0) + 1
        if seen[judge.name] > 1:
            out[i] = dataclasses.replace(judge, name=f"{judge.name}#{seen[judge.name]}")
    return out


JUDGE_OPTIONS: dict[str, type] = {
    "max_new_tokens": int,
    "temperature": float,
    "top_p": float,
    "seed": int,
    "samples": int,
    "scoring": str,
    "prefill": bool,
    "thinking": bool,
    "name": str,
}


def parse_judge_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """(engine spec, judge options) from `<engine spec>[::key=value,...]`: the judge's keys (JUDGE_OPTIONS)
    are returned as options; the engine's own keys (batch_size, timeout, ...) stay in the engine spec."""
    from atf.llm import engine_options
    from atf.llm.spec import join_spec, parse_options, split_spec

    engine, text = split_spec(spec)
    if not engine:
        raise ValueError(f"empty engine spec in judge {spec!r}")
    if not text:
        return engine, {}
    options = parse_options(text, {**engine_options(engine), **JUDGE_OPTIONS}, spec, what="judge")
    own = {k: options.pop(k) for k in list(options) if k not in JUDGE_OPTIONS}
    return join_spec(engine, own), options


def load_judge(spec: str, defaults: dict[str, Any] | None = None, engines: dict[str, Engine] | None = None) -> Judge:
    """Build a `Judge` from a spec; `defaults` fill options the spec leaves out; `engines` caches loaded
    engines by engine spec so two judges on one model share its weights."""
    from atf.llm import load_engine

    engine_spec, options = parse_judge_spec(spec)
    merged = {**(defaults or {}), **options}
    cache = engines if engines is not None else {}
    if engine_spec not in cache:
        cache[engine_spec] = load_engine(engine_spec)
    engine = cache[engine_spec]
    thinking = merged["thinking"] if "thinking" in merged else declares_thinking(engine)
    base = default_params(thinking)
    params = SamplingParams(
        max_new_tokens=merged.get("max_new_tokens", base.max_new_tokens),
        temperature=merged.get("temperature", base.temperature),
        top_p=merged.get("top_p", base.top_p),
        seed=merged.get("seed"),
    )
    own = {key: merged[key] for key in ("samples", "scoring", "prefill", "name") if key in merged}
    return Judge(engine=engine, params=params, thinking=thinking, **own)  # the rest: Judge's defaults
