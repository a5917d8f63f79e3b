"""OpenAI-compatible HTTP engine: a vLLM server (`vllm serve`), or any hosted API, as judge or formalizer."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from atf.http import RetryPolicy, post_json
from atf.llm.base import Capabilities, Completion, Message, SamplingParams
from atf.llm.errors import PartialBatchError
from atf.llm.templates import openai_tools

DEFAULT_TIMEOUT_S = 600.0
DEFAULT_RETRIES = 3
# What is worth sending again: the server was overloaded or down (429, 5xx) or the connection failed or
# timed out. A 4xx answer or an unreadable 200 would fail the same way again.
RETRY_STATUS = frozenset({429, 500, 502, 503, 504})


def tool_calls_to_text(content: str | None, tool_calls: list[dict] | None) -> str:
    """Servers with a tool parser return calls as structured fields; the loop reads hermes text. The text is what
    the model wrote: vLLM's hermes parser returns the content before `<tool_call>` as is (its trailing newline
    included), so a newline is added only where the content does not end with one (servers that strip it),
    as chat templates render `content + '\n' + call`."""
    text = content or ""
    for call in tool_calls or []:
        fn = call.get("function", call)
        args = fn.get("arguments", {})
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except json.JSONDecodeError:
                pass
        block = (
            "<tool_call>\n"
            + json.dumps({"name": fn.get("name"), "arguments": args}, ensure_ascii=False)
            + "\n</tool_call>"
        )
        text = f"{text}{block}" if not text or text.endswith("\n") else f"{text}\n{block}"
    return text


class OpenAIEngine:
    """Chat and completions over HTTP.

    base_url: e.g. http://localhost:8000/v1
    model: the served model name.
    api_key: defaults to $OPENAI_API_KEY (vLLM accepts anything).
    tokenizer: optional local tokenizer; with it, completions carry token ids and `generate` accepts ids.
    concurrency: requests in flight at once.
    timeout: seconds one HTTP request may take (connect, read, write).
    retries: times a request is sent again after a connection error, timeout, 429 or 5xx, with jittered
        exponential backoff; other failures are not retried. A request that still fails fails only its
        own item: the call raises `PartialBatchError` carrying the other items' replies.
    """

    # Re-encoded text is not the sampled ids, and servers drop stop strings: chat mode, never token mode.
    capabilities = Capabilities(tool_call_parsing=True)

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        tokenizer: Any = None,
        concurrency: int = 16,
        timeout: float = DEFAULT_TIMEOUT_S,
        retries: int = DEFAULT_RETRIES,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ):
        if timeout <= 0:
            raise ValueError(f"timeout must be > 0 seconds, got {timeout}")
        if retries < 0:
            raise ValueError(f"retries must be >= 0, got {retries}")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.tokenizer = tokenizer
        self.name = f"openai:{model}"
        self.concurrency = concurrency
        self.retry = RetryPolicy(retries=retries)
        self._sleep = sleep
        key = api_key or os.environ.get("OPENAI_API_KEY", "EMPTY")
        self._client = httpx.Client(
            base_url=self.base_url, headers={"Authorization": f"Bearer {key}"}, timeout=timeout, transport=transport
        )

    def _post(self, path: str, payload: dict) -> dict:
        """POST with bounded, jittered exponential retries (`atf.http.post_json`); an answer without a
        'choices' list is a failure, not retried."""
        data = post_json(self._client, path, payload, self.retry, sleep=self._sleep, retry_status=RETRY_STATUS)
        if not isinstance(data, dict) or not isinstance(data.get("choices"), list):
            raise ValueError(f"{self.base_url}{path} answered 200 without a 'choices' list")
        return data

    def _common(self, params: SamplingParams) -> dict:
        body: dict[str, Any] = {
            "model": self.model,
            "n": params.n,
            "temperature": params.temperature,
            "max_tokens": params.max_new_tokens,
        }
        if params.temperature > 0:
            body["top_p"] = params.top_p
        if params.stop:
            body["stop"] = list(params.stop)
        if params.seed is not None:
            body["seed"] = params.seed
        if params.repetition_penalty != SamplingParams.repetition_penalty:
            # An extra field vLLM's server reads; OpenAI's API rejects unknown fields, so it goes only when set.
            body["repetition_penalty"] = params.repetition_penalty
        if params.frequency_penalty != SamplingParams.frequency_penalty:
            body["frequency_penalty"] = params.frequency_penalty
        return body

    def _ids(self, text: str) -> list[int] | None:
        if self.tokenizer is None:
            return None
        return self.tokenizer.encode(text, add_special_tokens=False)

    def _map(self, fn, items):
        """fn over items, `concurrency` at a time; a failed item fails alone (see `PartialBatchError`)."""

        def guarded(item):
            try:
                return fn(item), None
            except Exception as err:  # noqa: BLE001 - reported per item below
                return None, err

        with ThreadPoolExecutor(max_workers=max(1, min(self.concurrency, len(items)))) as pool:
            outcomes = list(pool.map(guarded, items))
        errors = [e for _, e in outcomes]
        if any(e is not None for e in errors):
            raise PartialBatchError([r for r, _ in outcomes], errors)
        return [r for r, _ in outcomes]

    def chat(
        self, conversations: Sequence[list[Message]], params: SamplingParams, tools: list[dict] | None = None
    ) -> list[list[Completion]]:
        def one(conv: list[Message]) -> list[Completion]:
            body = {**self._common(params), "messages": conv}
            if tools:
                body["tools"] = openai_tools(tools)
            data = self._post("/chat/completions", body)
            out = []
            for choice in data["choices"]:
                msg = choice.get("message", {})
                text = tool_calls_to_text(msg.get("content"), msg.get("tool_calls"))
                reason = "length" if choice.get("finish_reason") == "length" else "stop"
                out.append(Completion(text, self._ids(text), reason))
            return out

        return self._map(one, list(conversations))

    def generate(self, prompts: Sequence[list[int]], params: SamplingParams) -> list[list[Completion]]:
        def one(ids: list[int]) -> list[Completion]:
            data = self._post("/completions", {**self._common(params), "prompt": list(ids)})
            out = []
            for choice in data["choices"]:
                text = choice.get("text", "")
                reason = "length" if choice.get("finish_reason") == "length" else "stop"
                out.append(Completion(text, self._ids(text), reason))
            return out

        return self._map(one, list(prompts))
