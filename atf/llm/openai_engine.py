"""OpenAI-compatible HTTP engine: a vLLM server (`vllm serve`), or any hosted API, as judge or formalizer."""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Sequence

import httpx

from atf.llm.base import Capabilities, Completion, Message, SamplingParams
from atf.llm.templates import openai_tools


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
        block = "<tool_call>\n" + json.dumps({"name": fn.get("name"), "arguments": args}, ensure_ascii=False) + "\n</tool_call>"
        text = f"{text}{block}" if not text or text.endswith("\n") else f"{text}\n{block}"
    return text


class OpenAIEngine:
    """Chat and completions over HTTP.

    base_url: e.g. http://localhost:8000/v1
    model: the served model name.
    api_key: defaults to $OPENAI_API_KEY (vLLM accepts anything).
    tokenizer: optional local tokenizer; with it, completions carry token ids and `generate` accepts ids.
    concurrency: requests in flight at once.
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
        timeout: float = 600.0,
        transport: httpx.BaseTransport | None = None,
    ):
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.tokenizer = tokenizer
        self.name = f"openai:{model}"
        self.concurrency = concurrency
        key = api_key or os.environ.get("OPENAI_API_KEY", "EMPTY")
        self._client = httpx.Client(
            base_url=self.base_url, headers={"Authorization": f"Bearer {key}"}, timeout=timeout, transport=transport
        )

    def _post(self, path: str, payload: dict) -> dict:
        resp = self._client.post(path, json=payload)
        if resp.status_code != 200:
            raise RuntimeError(f"{self.base_url}{path} answered {resp.status_code}: {resp.text[:500]}")
        return resp.json()

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
        return body

    def _ids(self, text: str) -> list[int] | None:
        if self.tokenizer is None:
            return None
        return self.tokenizer.encode(text, add_special_tokens=False)

    def _map(self, fn, items):
        with ThreadPoolExecutor(max_workers=max(1, min(self.concurrency, len(items)))) as pool:
            return list(pool.map(fn, items))

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
