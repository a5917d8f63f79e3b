"""Reading hermes-style tool calls out of what the model wrote.

The model calls a tool by writing

    <tool_call>
    {"name": "syntax_check", "arguments": {"statement": "import Mathlib\\n\\ntheorem ..."}}
    </tool_call>

inside its assistant message (the wire format of Qwen2.5 / vLLM's `--tool-call-parser hermes`). A message
with no such block that is itself a JSON call, `{"name": ..., "parameters": {...}}` (Llama 3.1's own tool-call
format, what its template renders for `tool_calls`; optionally after `<|python_tag|>`, several joined by `;`
as vLLM's `llama3_json` parser reads them), is read too.
A block whose JSON does not parse, or that lacks a name, is still reported (as a `ParsedCall` with
`error` set) so the loop can tell the model what was wrong instead of silently ignoring it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

OPEN, CLOSE = "<tool_call>", "</tool_call>"
_BLOCK = re.compile(re.escape(OPEN) + r"(.*?)(?:" + re.escape(CLOSE) + r"|\Z)", re.S)


@dataclass
class ParsedCall:
    """One `<tool_call>` block.

    name / arguments: the call, when the block parsed.
    error: why the block could not be used (bad JSON, no name, arguments not an object), else None.
    raw: the text between the tags.
    """

    name: str = ""
    arguments: dict[str, Any] = field(default_factory=dict)
    error: str | None = None
    raw: str = ""


PYTHON_TAG = "<|python_tag|>"
_JSON_CALL_START = re.compile(r'\A\s*(?:<\|python_tag\|>)?\s*\{\s*"name"\s*:')


def parse_tool_calls(text: str) -> list[ParsedCall]:
    """Every `<tool_call>` block in `text`, in order, else the message's JSON calls (see module doc). An
    unclosed last block (cut by a length limit or a server that drops the stop string) is read up to the end."""
    if OPEN not in text and _JSON_CALL_START.match(text):
        return _parse_json_calls(text)
    calls = []
    for match in _BLOCK.finditer(text):
        raw = match.group(1).strip()
        for cut in range(len(CLOSE) - 1, 1, -1):  # a closing tag cut short by the length limit
            if raw.endswith(CLOSE[:cut]):
                raw = raw[:-cut].rstrip()
                break
        calls.append(_parse_block(raw))
    return calls


def _parse_block(raw: str) -> ParsedCall:
    try:
        obj = json.loads(raw)
    except json.JSONDecodeError as err:
        return ParsedCall(error=f"the <tool_call> block is not valid JSON ({err.msg} at char {err.pos})", raw=raw)
    if not isinstance(obj, dict):
        return ParsedCall(
            error='the <tool_call> block must be a JSON object {"name": ..., "arguments": {...}}', raw=raw
        )
    name = obj.get("name")
    if not isinstance(name, str) or not name:
        return ParsedCall(error='the <tool_call> object has no "name"', raw=raw)
    args = obj.get("arguments", obj.get("parameters", {}))
    if isinstance(args, str):  # some models double-encode the arguments
        try:
            args = json.loads(args)
        except json.JSONDecodeError:
            return ParsedCall(name=name, error='"arguments" must be a JSON object', raw=raw)
    if not isinstance(args, dict):
        return ParsedCall(name=name, error='"arguments" must be a JSON object', raw=raw)
    return ParsedCall(name=name, arguments=args, raw=raw)


def _parse_json_calls(text: str) -> list[ParsedCall]:
    rest = text.strip().removeprefix(PYTHON_TAG).strip()
    decoder = json.JSONDecoder()
    calls = []
    while rest:
        try:
            _, end = decoder.raw_decode(rest)
        except json.JSONDecodeError:
            calls.append(_parse_block(rest))  # reports the JSON error
            break
        calls.append(_parse_block(rest[:end]))
        rest = rest[end:].strip().removeprefix(";").strip()
    return calls


def format_tool_call(name: str, arguments: dict[str, Any]) -> str:
    """The block a model should write for this call (what the chat template renders for `tool_calls`)."""
    return OPEN + "\n" + json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False) + "\n" + CLOSE


def strip_tool_calls(text: str) -> str:
    """The assistant text with its tool calls removed (for servers that take calls as fields)."""
    if OPEN not in text and _JSON_CALL_START.match(text):
        return ""
    return _BLOCK.sub("", text).strip()
