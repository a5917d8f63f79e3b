"""A judge: an engine plus how it is sampled. Built from an `Engine`, or from a spec string on the CLI.

Spec: `<engine spec>[::key=value,key=value]`, e.g.

    smollm2
    smollm2::temperature=0.7,samples=3
    openai:http://localhost:8000/v1#qwen::max_new_tokens=1024,scoring=sample

keys: max_new_tokens, temperature, top_p, seed, samples, scoring, prefill, name (see `Judge`).
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass, field
from typing import Any, Literal, Sequence

from atf.llm import Engine, Message, SamplingParams, render_prompt

log = logging.getLogger(__name__)

Scoring = Literal["auto", "logprob", "sample"]


def default_params() -> SamplingParams:
    return SamplingParams(max_new_tokens=384, temperature=0.0)


@dataclass
class Judge:
    """One member of the ensemble.

    engine: any `atf.llm.Engine` (transformers, vLLM, OpenAI-compatible HTTP, a test double).
    params: sampling settings for this judge; greedy with 384 new tokens by default.
    samples: answers drawn per question. With samples > 1 (needs temperature > 0) the judge's verdict is
        the strict majority of its samples, unparseable samples counting against; OAP scores average them.
    scoring: how OAP yes/no and rating questions are scored. "logprob": next-token probabilities of
        yes/no (1-5) read from the model directly (transformers engines only); "sample": generate and parse;
        "auto": logprob when the engine is a local transformers model, else sample.
    prefill: start the judge's reply with the answer label ("VERDICT:", "ANSWER:", ...) so that small
        models answer in the format. Needs a token-in/token-out engine (transformers, vLLM); None = use it
        whenever the engine is one. The label is put back in front of the text before parsing. Turn it off
        for reasoning models that should think before answering (the label would skip their <think> block).
    name: shown in votes and feedback; defaults to the engine's name.
    """

    engine: Engine
    params: SamplingParams = field(default_factory=default_params)
    samples: int = 1
    scoring: Scoring = "auto"
    prefill: bool | None = None
    name: str = ""

    def __post_init__(self) -> None:
        if self.samples < 1:
            raise ValueError(f"samples must be >= 1, got {self.samples}")
        if self.samples > 1 and self.params.temperature == 0:
            raise ValueError("samples > 1 needs temperature > 0 (greedy decoding repeats the same answer)")
        if self.scoring not in ("auto", "logprob", "sample"):
            raise ValueError(f"scoring must be auto, logprob or sample, got {self.scoring!r}")
        if self.scoring == "logprob" and not supports_logprob(self.engine):
            raise ValueError(f"judge {self.engine.name!r}: logprob scoring needs a local transformers engine")
        if self.prefill and not supports_prefill(self.engine):
            raise ValueError(f"judge {self.engine.name!r}: prefill needs a token-in/token-out engine with a tokenizer")
        if self.prefill is None:
            self.prefill = supports_prefill(self.engine)
        self.name = self.name or getattr(self.engine, "name", "judge")

    @property
    def sampling(self) -> SamplingParams:
        """`params` with n = samples."""
        return dataclasses.replace(self.params, n=self.samples)

    @property
    def uses_logprob(self) -> bool:
        return self.scoring == "logprob" or (self.scoring == "auto" and supports_logprob(self.engine))


def ask(
    judge: Judge, conversations: Sequence[list[Message]], prefixes: Sequence[str] | str = ""
) -> tuple[list[list[str]], str | None]:
    """Every conversation goes to the judge in one call, so vLLM/HTTP engines get them in flight together.

    Returns the answer texts per conversation (`judge.samples` each), or ([], error) when the engine fails.
    prefixes: the answer label each reply starts with ("VERDICT:"); with `judge.prefill` it is put at the
    start of the assistant turn and in front of the returned text. A reply list shorter than asked is
    padded with empty answers, which parse as unreadable."""
    if not conversations:
        return [], None
    if isinstance(prefixes, str):
        prefixes = [prefixes] * len(conversations)
    prefill = bool(judge.prefill) and any(prefixes)
    try:
        if prefill:
            tok = judge.engine.tokenizer
            prompts = [
                render_prompt(tok, conv) + (tok.encode(pre, add_special_tokens=False) if pre else [])
                for conv, pre in zip(conversations, prefixes)
            ]
            outputs = judge.engine.generate(prompts, judge.sampling)
        else:
            outputs = judge.engine.chat(list(conversations), judge.sampling)
    except Exception as err:  # one judge failing must not take the others down; its votes count against
        log.exception("judge %s failed on a batch of %d", judge.name, len(conversations))
        return [], f"{type(err).__name__}: {err}"
    if len(outputs) != len(conversations):
        return [], f"engine returned {len(outputs)} replies for {len(conversations)} prompts"
    texts = []
    for out, pre in zip(outputs, prefixes):
        row = [(pre + c.text if prefill else c.text) for c in out][: judge.samples]
        texts.append(row + [""] * (judge.samples - len(row)))
    return texts, None


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
    base = default_params()
    params = SamplingParams(
        max_new_tokens=merged.get("max_new_tokens", base.max_new_tokens),
        temperature=merged.get("temperature", base.temperature),
        top_p=merged.get("top_p", base.top_p),
        seed=merged.get("seed"),
    )
    own = {key: merged[key] for key in ("samples", "scoring", "prefill", "name") if key in merged}
    return Judge(engine=cache[engine_spec], params=params, **own)  # the rest: Judge's defaults
