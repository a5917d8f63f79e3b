"""The leanprover-community/repl JSON protocol: requests, responses, and transcript files.

Requests are JSON objects written on one line and followed by a blank line; the REPL answers each with
one (pretty-printed, multi-line) JSON object followed by a blank line. Answers come in three shapes:

- command results  `{"env": n, "messages"?: [...], "sorries"?: [...], "tactics"?: [...], "infotree"?: ...}`
- tactic results   `{"proofState": n, "goals": [...], "proofStatus"?, "messages"?, "sorries"?, "traces"?}`
- errors           `{"message": "Unknown environment."}`, `{"message": "Lean error:\\n..."}`

The REPL reads a request as the lines up to a blank line, each right-trimmed and concatenated
(`getLines` in REPL/Main.lean), so a raw line break inside a JSON string disappears
(`invalid_line_break.in`); `read_requests` reproduces that.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Pos:
    """A Lean position: line from 1, column (code points) from 0."""

    line: int
    column: int

    @classmethod
    def from_json(cls, obj: dict | None) -> Pos | None:
        return None if obj is None else cls(int(obj["line"]), int(obj["column"]))

    def to_json(self) -> dict:
        return {"line": self.line, "column": self.column}


@dataclass
class Message:
    """A message Lean logged: severity "error" | "warning" | "info"; `data` is its text."""

    severity: str
    pos: Pos | None
    end_pos: Pos | None
    data: str

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    @property
    def is_sorry_warning(self) -> bool:
        return self.severity == "warning" and self.data in ("declaration uses 'sorry'", "declaration uses `sorry`")

    @classmethod
    def from_json(cls, obj: dict) -> Message:
        return cls(
            str(obj["severity"]),
            Pos.from_json(obj.get("pos")),
            Pos.from_json(obj.get("endPos")),
            str(obj.get("data", "")),
        )

    def to_json(self) -> dict:
        out: dict[str, Any] = {"severity": self.severity}
        if self.pos is not None:
            out["pos"] = self.pos.to_json()
        if self.end_pos is not None:
            out["endPos"] = self.end_pos.to_json()
        out["data"] = self.data
        return out


@dataclass
class Sorry:
    """A `sorry` Lean found, with the goal at that point and a proof state to continue from."""

    goal: str
    proof_state: int | None = None
    pos: Pos | None = None
    end_pos: Pos | None = None

    @classmethod
    def from_json(cls, obj: dict) -> Sorry:
        ps = obj.get("proofState")
        return cls(
            str(obj.get("goal", "")),
            None if ps is None else int(ps),
            Pos.from_json(obj.get("pos")),
            Pos.from_json(obj.get("endPos")),
        )

    def to_json(self) -> dict:
        out: dict[str, Any] = {}
        if self.proof_state is not None:
            out["proofState"] = self.proof_state
        if self.pos is not None:
            out["pos"] = self.pos.to_json()
        out["goal"] = self.goal
        if self.end_pos is not None:
            out["endPos"] = self.end_pos.to_json()
        return out


@dataclass
class Tactic:
    """One tactic of an `allTactics` answer."""

    tactic: str
    goals: str
    proof_state: int | None
    pos: Pos | None
    end_pos: Pos | None
    used_constants: list[str] | None = None

    @classmethod
    def from_json(cls, obj: dict) -> Tactic:
        ps = obj.get("proofState")
        used = obj.get("usedConstants")
        return cls(
            str(obj["tactic"]),
            str(obj.get("goals", "")),
            None if ps is None else int(ps),
            Pos.from_json(obj.get("pos")),
            Pos.from_json(obj.get("endPos")),
            None if used is None else [str(u) for u in used],
        )

    def to_json(self) -> dict:
        out: dict[str, Any] = {}
        if self.used_constants is not None:
            out["usedConstants"] = list(self.used_constants)
        out["tactic"] = self.tactic
        if self.proof_state is not None:
            out["proofState"] = self.proof_state
        if self.pos is not None:
            out["pos"] = self.pos.to_json()
        out["goals"] = self.goals
        if self.end_pos is not None:
            out["endPos"] = self.end_pos.to_json()
        return out


@dataclass
class CommandResponse:
    """The answer to a `cmd`, `path` or (un)pickle request: a new environment id and what Lean said.

    extra: any field this parser does not model, kept as is.
    """

    env: int
    messages: list[Message] = field(default_factory=list)
    sorries: list[Sorry] = field(default_factory=list)
    tactics: list[Tactic] | None = None
    infotree: Any = None
    extra: dict = field(default_factory=dict)

    @property
    def errors(self) -> list[Message]:
        return [m for m in self.messages if m.is_error]

    def to_json(self) -> dict:
        out: dict[str, Any] = {}
        if self.tactics is not None:
            out["tactics"] = [t.to_json() for t in self.tactics]
        if self.sorries:
            out["sorries"] = [s.to_json() for s in self.sorries]
        if self.messages:
            out["messages"] = [m.to_json() for m in self.messages]
        if self.infotree is not None:
            out["infotree"] = self.infotree
        out.update(self.extra)
        out["env"] = self.env
        return out


@dataclass
class ProofStepResponse:
    """The answer to a `tactic` request (or a proof-state unpickle)."""

    proof_state: int
    goals: list[str]
    proof_status: str | None = None
    messages: list[Message] = field(default_factory=list)
    sorries: list[Sorry] = field(default_factory=list)
    traces: list[str] = field(default_factory=list)
    extra: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        out: dict[str, Any] = {}
        if self.traces:
            out["traces"] = list(self.traces)
        if self.sorries:
            out["sorries"] = [s.to_json() for s in self.sorries]
        if self.proof_status is not None:
            out["proofStatus"] = self.proof_status
        out["proofState"] = self.proof_state
        if self.messages:
            out["messages"] = [m.to_json() for m in self.messages]
        out.update(self.extra)
        out["goals"] = list(self.goals)
        return out


@dataclass
class ReplError:
    """The REPL refused the request: unknown environment/proof state, a tactic failure, bad JSON."""

    message: str

    def to_json(self) -> dict:
        return {"message": self.message}


Response = CommandResponse | ProofStepResponse | ReplError

_COMMAND_KEYS = {"env", "messages", "sorries", "tactics", "infotree"}
_PROOF_KEYS = {"proofState", "goals", "proofStatus", "messages", "sorries", "traces"}


def parse_response(obj: Any) -> Response:
    """Turn one decoded REPL answer into its typed form; raises ValueError on an unknown shape."""
    if not isinstance(obj, dict):
        raise ValueError(f"REPL answer is not a JSON object: {obj!r:.200}")
    msgs = [Message.from_json(m) for m in obj.get("messages") or []]
    sorries = [Sorry.from_json(s) for s in obj.get("sorries") or []]
    if "proofState" in obj and ("goals" in obj or "proofStatus" in obj):
        return ProofStepResponse(
            proof_state=int(obj["proofState"]),
            goals=[str(g) for g in obj.get("goals") or []],
            proof_status=obj.get("proofStatus"),
            messages=msgs,
            sorries=sorries,
            traces=[str(t) for t in obj.get("traces") or []],
            extra={k: v for k, v in obj.items() if k not in _PROOF_KEYS},
        )
    if "env" in obj:
        tactics = obj.get("tactics")
        return CommandResponse(
            env=int(obj["env"]),
            messages=msgs,
            sorries=sorries,
            tactics=None if tactics is None else [Tactic.from_json(t) for t in tactics],
            infotree=obj.get("infotree"),
            extra={k: v for k, v in obj.items() if k not in _COMMAND_KEYS},
        )
    if "message" in obj:
        return ReplError(str(obj["message"]))
    raise ValueError(f"unrecognised REPL answer (no env, proofState or message): {json.dumps(obj)[:200]}")


def command_request(cmd: str, env: int | None = None, **options: Any) -> dict:
    """`{"cmd": ..., "env"?: ...}` plus options such as allTactics=True, infotree="full"."""
    req: dict[str, Any] = {"cmd": cmd}
    if env is not None:
        req["env"] = env
    req.update({k: v for k, v in options.items() if v is not None})
    return req


def encode_request(request: dict) -> str:
    """One line of JSON (newlines in strings escaped) and the blank line that ends a request."""
    return json.dumps(request, ensure_ascii=False) + "\n\n"


def split_chunks(text: str) -> list[list[str]]:
    """Blank-line separated chunks of lines (the framing of both directions of the protocol)."""
    chunks: list[list[str]] = []
    cur: list[str] = []
    for line in text.split("\n"):
        if line.strip():
            cur.append(line)
        elif cur:
            chunks.append(cur)
            cur = []
    if cur:
        chunks.append(cur)
    return chunks


def join_request_lines(lines: list[str]) -> str:
    """What the REPL makes of a request's lines: each right-trimmed, concatenated."""
    return "".join(line.rstrip() for line in lines)


def read_requests(path: str | Path) -> list[dict]:
    """The requests of a `.in` transcript, as the REPL reads them (comment chunks skipped)."""
    out = []
    for chunk in split_chunks(Path(path).read_text(encoding="utf-8")):
        query = join_request_lines(chunk)
        if query.startswith("#") or query.startswith("--"):
            continue
        out.append(json.loads(query))
    return out


def response_chunks(text: str) -> list[str]:
    """The answers of an `.expected.out` transcript (or of captured REPL output), as raw text."""
    return ["\n".join(chunk) for chunk in split_chunks(text)]


def read_responses(path: str | Path) -> list[dict]:
    return [json.loads(chunk) for chunk in response_chunks(Path(path).read_text(encoding="utf-8"))]
