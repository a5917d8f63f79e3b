"""The tools the formalizer can call, behind one small interface.

A tool has a `name`, a JSON `schema` (what the model is shown, hermes/OpenAI function form) and a
batched `call(requests) -> list[ToolResult]`: the loop gathers every pending call to one tool across all
rollouts in flight and makes one call, so a Lean worker pool or a judge ensemble sees whole batches.

`SyntaxCheckTool` and `ConsistencyCheckTool` adapt `atf.lean.SyntaxChecker` and
`atf.judge.ConsistencyChecker`; tests inject small deterministic tools with the same interface.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, runtime_checkable

from atf.judge.result import (
    UNAVAILABLE as CONSISTENCY_UNAVAILABLE,  # what the formalizer reads on an error
)

log = logging.getLogger(__name__)

SYNTAX_CHECK = "syntax_check"
SYNTAX_UNAVAILABLE = "Syntax check unavailable (the Lean server did not answer), try again."
CONSISTENCY_CHECK = "consistency_check"


class ToolResult(NamedTuple):
    """passed: the verdict. feedback: the text returned to the model as the tool message.
    error: the tool itself failed (no verdict; passed is False); such a trajectory is not training data."""

    passed: bool
    feedback: str
    error: bool = False


@dataclass(frozen=True)
class ToolRequest:
    """One call: the problem being formalized (the consistency check needs it) and the call's arguments."""

    problem: str
    arguments: dict[str, Any]


@runtime_checkable
class Tool(Protocol):
    name: str
    schema: dict[str, Any]

    def call(self, requests: Sequence[ToolRequest]) -> list[ToolResult]:
        """One result per request, in order."""
        ...


def statement_schema(name: str, description: str) -> dict[str, Any]:
    return {
        "name": name,
        "description": description,
        "parameters": {
            "type": "object",
            "properties": {
                "statement": {
                    "type": "string",
                    "description": "The complete Lean 4 text: `import Mathlib`, any `open` lines, then the theorem "
                    "ending in `:= by sorry`.",
                }
            },
            "required": ["statement"],
        },
    }


SYNTAX_SCHEMA = statement_schema(
    SYNTAX_CHECK,
    "Compile a Lean 4 theorem statement (with `sorry` as its proof) against Mathlib and report errors. "
    "Call it on every new or revised statement.",
)
CONSISTENCY_SCHEMA = statement_schema(
    CONSISTENCY_CHECK,
    "Judge whether a Lean 4 statement that already passed syntax_check means exactly what the problem says "
    "(same hypotheses, same conclusion, same constants). Reports the mismatches it finds.",
)


def validate_arguments(schema: dict[str, Any], arguments: dict[str, Any]) -> str | None:
    """A short reason why `arguments` do not fit the schema's required string fields, else None."""
    params = schema.get("parameters", {})
    props = params.get("properties", {})
    for key in params.get("required", []):
        if key not in arguments:
            return f'{schema["name"]} needs the argument "{key}"'
    for key, value in arguments.items():
        if key not in props:
            return f'{schema["name"]} has no argument "{key}" (it takes: {", ".join(props) or "nothing"})'
        if props[key].get("type") == "string" and not isinstance(value, str):
            return f'"{key}" must be a string'
        if props[key].get("type") == "string" and not value.strip():
            return f'"{key}" is empty'
    return None


@dataclass
class FunctionTool:
    """A tool from a plain batched function; what tests and small experiments use."""

    name: str
    schema: dict[str, Any]
    fn: Callable[[Sequence[ToolRequest]], list[ToolResult]]

    def call(self, requests: Sequence[ToolRequest]) -> list[ToolResult]:
        return list(self.fn(requests))


class SyntaxCheckTool:
    """`syntax_check` backed by `atf.lean.SyntaxChecker` (Lean REPL when configured, else pre-checks)."""

    name = SYNTAX_CHECK
    schema = SYNTAX_SCHEMA

    def __init__(self, checker: Any | None = None):
        if checker is None:
            from atf.lean import SyntaxChecker

            checker = SyntaxChecker()
        self.checker = checker

    def call(self, requests: Sequence[ToolRequest]) -> list[ToolResult]:
        from atf.http import ToolRejected

        try:
            results = self.checker.check_many([r.arguments["statement"] for r in requests])
        except ToolRejected:
            raise  # a wrong API key or limit: trying again cannot help, the user must hear of it
        except Exception as err:  # noqa: BLE001 - the rollouts go on; each is told to try again
            log.warning("syntax check failed for %d calls: %s", len(requests), err)
            return [ToolResult(False, SYNTAX_UNAVAILABLE, True) for _ in requests]
        return [ToolResult(bool(r.ok), r.feedback()) for r in results]


class ConsistencyCheckTool:
    """`consistency_check` backed by `atf.judge.ConsistencyChecker` (an ensemble of LLM judges)."""

    name = CONSISTENCY_CHECK
    schema = CONSISTENCY_SCHEMA

    def __init__(self, checker: Any):
        self.checker = checker

    @classmethod
    def from_engines(cls, judges: list[Any], mode: str = "vote") -> ConsistencyCheckTool:
        from atf.judge import ConsistencyChecker

        return cls(ConsistencyChecker(judges, mode=mode))

    def call(self, requests: Sequence[ToolRequest]) -> list[ToolResult]:
        results = self.checker.check_many([(r.problem, r.arguments["statement"]) for r in requests])
        return [ToolResult(bool(r.consistent), r.feedback(), bool(r.errored)) for r in results]


class RemoteConsistencyTool:
    """consistency_check served by `atf serve-consistency` (POST /check_batch), e.g. judges on other nodes.

    api_key: Bearer token (default `$ATF_API_KEY`); retry: how transient failures (connection errors, 429,
    502-504) are retried. A call that still fails (`atf.http.ToolUnavailable`), or an item the server could not
    judge (verdict "error"), is an error result: the model reads "try again", the trajectory is not training data.
    """

    name = CONSISTENCY_CHECK
    schema = CONSISTENCY_SCHEMA

    def __init__(
        self,
        base_url: str,
        timeout_s: float = 600.0,
        client: Any = None,
        *,
        api_key: str | None = None,
        retry: Any = None,
    ):
        import httpx

        from atf.http import RetryPolicy, auth_headers
        from atf.serving import resolve_api_key

        self.base_url = base_url.rstrip("/")
        self.headers = auth_headers(resolve_api_key(api_key))
        self.retry = retry or RetryPolicy()
        self._client = client or httpx.Client(timeout=timeout_s)

    def call(self, requests: Sequence[ToolRequest]) -> list[ToolResult]:
        from atf.http import ToolUnavailable, post_json

        if not requests:
            return []
        items = [{"problem": r.problem, "statement": r.arguments["statement"]} for r in requests]
        try:
            reply = post_json(self._client, f"{self.base_url}/check_batch", {"items": items}, self.retry, self.headers)
        except ToolUnavailable as err:  # the rollouts go on: the model is told to try again, nothing else
            log.warning("consistency server unavailable: %s", err)
            return [ToolResult(False, CONSISTENCY_UNAVAILABLE, True) for _ in requests]
        return [
            ToolResult(False, CONSISTENCY_UNAVAILABLE, True)
            if r.get("verdict") == "error"
            else ToolResult(bool(r["consistent"]), r["feedback"])
            for r in reply["results"]
        ]


def remote_syntax_tool(base_url: str) -> SyntaxCheckTool:
    """syntax_check served by `atf serve-syntax` (a Lean worker pool on another node)."""
    from atf.lean.server import RemoteSyntaxChecker

    return SyntaxCheckTool(RemoteSyntaxChecker(base_url))


def default_tools(judges: list[Any], syntax_checker: Any | None = None, mode: str = "vote") -> list[Tool]:
    """The real pair: the Lean syntax check and the judge ensemble."""
    return [SyntaxCheckTool(syntax_checker), ConsistencyCheckTool.from_engines(judges, mode=mode)]
