"""The Trajectory record: what one run of the tool loop produced, in the form every later stage reads.

Two views of the same run are kept:
  * `messages` (+ `tools`): the conversation in chat form (hermes tool calls inside assistant text,
    tool results as `tool` messages). SFT/DPO datasets and the chat template work from this.
  * `prompt_ids` / `completion_ids` / `completion_mask`: token-in/token-out, exactly the tokens the model
    sampled (mask 1) interleaved with tool and template tokens (mask 0). Present when the engine was local.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from atf import jsonl
from atf.llm.base import Message


@dataclass
class ToolCall:
    """One call the model made and what the tool answered.

    name / arguments: as parsed from the `<tool_call>` block.
    passed: the tool's verdict (syntax ok / consistent), None when the call itself was malformed.
    result: the text returned to the model.
    error: the tool failed to give a verdict (judges unavailable); passed is then False.
    """

    name: str
    arguments: dict[str, Any]
    passed: bool | None
    result: str
    error: bool = False


@dataclass
class Trajectory:
    """One problem, one rollout.

    problem: the informal statement given to the model.
    messages: the full conversation (system, user, assistant, tool, ...).
    tools: the tool schemas the model was shown.
    statement: the last Lean statement the model submitted (None if it never submitted one).
    syntax_ok / consistency_ok: the verdicts on that statement.
    revisions: how many statements the model submitted to the syntax check.
    calls: every tool call in order.
    prompt_ids / completion_ids / completion_mask: token view (see module doc), or None.
    stop_reason: "passed", "revision_limit", "no_tool_call", "length", "turn_limit", "template_mismatch".
    meta: free-form provenance (engine name, seed, source dataset id, ...).
    """

    problem: str
    messages: list[Message]
    tools: list[dict] = field(default_factory=list)
    statement: str | None = None
    syntax_ok: bool = False
    consistency_ok: bool = False
    revisions: int = 0
    calls: list[ToolCall] = field(default_factory=list)
    prompt_ids: list[int] | None = None
    completion_ids: list[int] | None = None
    completion_mask: list[int] | None = None
    stop_reason: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def success(self) -> bool:
        """Both checks passed on the final statement."""
        return self.syntax_ok and self.consistency_ok

    @property
    def tool_errored(self) -> bool:
        """A tool call in this rollout failed to give a verdict (judges or Lean server unavailable). The model
        was told to try again, so its next turns answer a failure, not a judgment: such trajectories are kept
        out of training data."""
        return any(c.error for c in self.calls)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, row: dict[str, Any]) -> Trajectory:
        row = dict(row)
        row["calls"] = [c if isinstance(c, ToolCall) else ToolCall(**c) for c in row.get("calls") or []]
        known = {f for f in cls.__dataclass_fields__}
        unknown = set(row) - known
        if unknown:
            raise ValueError(f"unknown Trajectory fields: {sorted(unknown)}")
        return cls(**row)


def write_jsonl(path: str | Path, trajectories: Iterable[Trajectory], append: bool = False) -> int:
    """Write (or append) one JSON object per line, fsynced per record (see atf.jsonl)."""
    return jsonl.write_jsonl(path, (t.to_dict() for t in trajectories), append=append)


def read_jsonl(path: str | Path) -> Iterator[Trajectory]:
    """Read trajectories back; an unfinished last line (a run still writing, or killed) is skipped with a warning."""
    for row in jsonl.read_jsonl(path, skip_torn_tail=True):
        yield Trajectory.from_dict(row)


def resume_jsonl(path: str | Path) -> list[Trajectory]:
    """The complete trajectories of a resumable output, its torn last line cut (see atf.jsonl.resume_jsonl)."""
    return [Trajectory.from_dict(row) for row in jsonl.resume_jsonl(path)]
