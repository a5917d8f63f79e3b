"""Grouped batch compilation: many statements with the same imports checked in one REPL command.

Each statement's text after its imports becomes one block of the command:

    namespace ATF_S3          -- names cannot clash across statements; opens/options/variables stay inside
    <the statement's text>
    end ATF_S3
    #check Nat                -- sentinel: its info message proves the parser got cleanly past the block

Messages are mapped back to a statement by line range and shifted to its own coordinates. A block
whose sentinel is missing broke the file (an unterminated comment or string swallowed what followed):
its verdict comes from checking it alone, and the blocks after it are checked again as a new group.
When the whole command fails (timeout, crash, memory limit), the group is bisected; a single statement
that still fails gets that failure as its verdict.

Statements with effects that would leak into later blocks (global instances, notations or attributes,
`deriving`, `export`, `_root_` names, their own `namespace`) are checked alone, never grouped.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from atf.lean.protocol import CommandResponse, Message, Pos, ReplError, Sorry
from atf.lean.repl import HeaderError, LeanRepl, ReplFailure, ReplRefused
from atf.lean.statement import NOTATION_KEYWORDS, LeanStatement

log = logging.getLogger(__name__)

SENTINEL = "#check Nat"


@dataclass
class Prepared:
    """A statement ready for Lean: its imports, the text sent on top of them, and how to map lines back.

    line_offset: add to a line of `body` to get the line in the original statement.
    alone_reason: why it must be checked in a command of its own (None: it can be grouped).
    closers: `end` lines closing sections the body leaves open (needed inside a block).
    """

    header: tuple[str, ...]
    body: str
    line_offset: int
    alone_reason: str | None = None
    closers: list[str] = field(default_factory=list)

    @property
    def body_lines(self) -> int:
        return len(self.body.split("\n"))


@dataclass
class Verdict:
    """What Lean said about one statement, in the statement's own coordinates.

    failure: None when Lean answered; else "timeout", "memory", "crash" or "header", with
    failure_message saying what happened.
    """

    messages: list[Message] = field(default_factory=list)
    goals: list[str] = field(default_factory=list)
    failure: str | None = None
    failure_message: str | None = None

    @property
    def errors(self) -> list[Message]:
        return [m for m in self.messages if m.is_error]

    @property
    def ok(self) -> bool:
        return self.failure is None and not self.errors


def prepare(st: LeanStatement) -> Prepared:
    body = st.body_text
    return Prepared(
        header=st.header_key,
        body=body,
        line_offset=st.body_line - 1,
        alone_reason=alone_reason(st),
        closers=_closers(st),
    )


def alone_reason(st: LeanStatement) -> str | None:
    """Why a statement cannot share a command with others (its effects outlive its namespace)."""
    for cmd in st.commands:
        words = cmd.words()
        local = "local" in cmd.modifiers or "scoped" in cmd.modifiers
        if cmd.keyword == "namespace":
            return "opens its own namespace"
        if cmd.keyword == "instance" and not local:
            return "declares a global instance"
        if cmd.keyword in NOTATION_KEYWORDS and not local:
            return "declares a global notation"
        if cmd.keyword in ("deriving", "export") or "deriving" in words:
            return f"uses `{'deriving' if 'deriving' in words else cmd.keyword}`"
        if cmd.keyword == "attribute" and not re.search(r"\[\s*(local|scoped)\b", " ".join(words)):
            return "sets a global attribute"
        if any(not re.match(r"(local|scoped)\b", a) for a in cmd.attributes):
            return "tags a declaration with a global attribute"
        if any(t.kind == "ident" and t.text.startswith("_root_") for t in cmd.tokens):
            return "declares a `_root_` name"
    return None


def _closers(st: LeanStatement) -> list[str]:
    depth = 0
    for cmd in st.commands:
        if cmd.keyword == "section":
            depth += 1
        elif cmd.keyword == "end" and depth:
            depth -= 1
    return ["end"] * depth


@dataclass
class Block:
    item: Prepared
    namespace: str
    first_line: int
    body_first: int
    body_last: int
    sentinel_line: int


@dataclass
class GroupCommand:
    text: str
    blocks: list[Block]

    def block_at(self, line: int) -> int | None:
        for k, b in enumerate(self.blocks):
            if b.first_line <= line <= b.sentinel_line:
                return k
        return None


def build_group(items: list[Prepared]) -> GroupCommand:
    lines: list[str] = []
    blocks: list[Block] = []
    for k, item in enumerate(items):
        ns = f"ATF_S{k}"
        first = len(lines) + 1
        lines.append(f"namespace {ns}")
        body = item.body.split("\n")
        body_first = len(lines) + 1
        lines.extend(body)
        body_last = len(lines)
        lines.extend(item.closers)
        lines.append(f"end {ns}")
        lines.append(SENTINEL)
        blocks.append(Block(item, ns, first, body_first, body_last, len(lines)))
    return GroupCommand("\n".join(lines) + "\n", blocks)


def _shift(pos: Pos | None, block: Block | None, item: Prepared) -> Pos | None:
    if pos is None:
        return None
    if block is None:  # a statement checked alone: its body is the whole command
        line = pos.line
        if line > item.body_lines:
            return Pos(item.line_offset + item.body_lines, 0)
        return Pos(max(1, line) + item.line_offset, pos.column)
    if block.body_first <= pos.line <= block.body_last:
        return Pos(pos.line - block.body_first + 1 + item.line_offset, pos.column)
    return Pos(item.line_offset + item.body_lines, 0)  # on the wrapper's own lines: the statement's end


def _mapped(m: Message, block: Block | None, item: Prepared) -> Message:
    data = m.data if block is None else m.data.replace(block.namespace + ".", "")
    return Message(m.severity, _shift(m.pos, block, item), _shift(m.end_pos, block, item), data)


def verdict_alone(resp: CommandResponse, item: Prepared) -> Verdict:
    return Verdict(
        messages=[_mapped(m, None, item) for m in resp.messages if not m.is_sorry_warning],
        goals=[s.goal for s in resp.sorries],
    )


def attribute(cmd: GroupCommand, resp: CommandResponse) -> tuple[list[Verdict | None], list[Message]]:
    """Per-block verdicts (None for a block whose sentinel did not answer: it broke the file), and the
    messages that fell outside every block."""
    msgs: list[list[Message]] = [[] for _ in cmd.blocks]
    sorries: list[list[Sorry]] = [[] for _ in cmd.blocks]
    seen_sentinel = [False] * len(cmd.blocks)
    stray: list[Message] = []
    for m in resp.messages:
        k = cmd.block_at(m.pos.line) if m.pos else None
        if k is None:
            stray.append(m)
            continue
        if m.pos.line == cmd.blocks[k].sentinel_line and m.severity == "info":
            seen_sentinel[k] = True
        elif not m.is_sorry_warning:
            msgs[k].append(m)
    for s in resp.sorries:
        k = cmd.block_at(s.pos.line) if s.pos else None
        if k is not None:
            sorries[k].append(s)
    out: list[Verdict | None] = []
    for k, block in enumerate(cmd.blocks):
        if not seen_sentinel[k]:
            out.append(None)
            continue
        out.append(Verdict(messages=[_mapped(m, block, block.item) for m in msgs[k]],
                           goals=[s.goal.replace(block.namespace + ".", "") for s in sorries[k]]))
    return out, stray


def _failure_text(f: ReplFailure, timeout_s: float, max_memory_mb: float | None) -> str:
    if f.kind == "timeout":
        return (f"Lean did not finish checking this statement within {timeout_s:g} s and was stopped "
                "(look for expensive coercions, instance searches or huge numerals)")
    if f.kind == "memory":
        return f"Lean ran out of memory on this statement ({f}) and was stopped"
    tail = " ".join(f.output_tail.split())[-300:]
    return f"the Lean REPL crashed while checking this statement ({f})" + (f": {tail}" if tail else "")


class GroupChecker:
    """Checks statements of one header on one REPL, grouping, attributing and bisecting.

    timeout_s: the most seconds Lean may spend on one statement.
    group_extra_s: the extra seconds a grouped command gets per additional statement.
    header_timeout_s: the most seconds loading the imports may take.
    split: how to retry a group whose command failed: "bisect" (halves) or "singles" (one by one).
    """

    def __init__(
        self,
        repl: LeanRepl,
        timeout_s: float = 60.0,
        group_extra_s: float = 2.0,
        header_timeout_s: float = 600.0,
        split: str = "bisect",
    ):
        if split not in ("bisect", "singles"):
            raise ValueError(f"split must be 'bisect' or 'singles', got {split!r}")
        self.repl = repl
        self.timeout_s = timeout_s
        self.group_extra_s = group_extra_s
        self.header_timeout_s = header_timeout_s
        self.split = split

    def check(self, header: tuple[str, ...], items: list[Prepared], group: bool = True) -> list[Verdict]:
        """Verdicts for `items` (all with imports `header`), in order."""
        try:
            if not group:
                return [self._single(header, it) for it in items]
            out: list[Verdict | None] = [None] * len(items)
            groupable = [i for i, it in enumerate(items) if it.alone_reason is None]
            for i, it in enumerate(items):
                if it.alone_reason is not None:
                    out[i] = self._single(header, it)
            for i, v in zip(groupable, self._group(header, [items[i] for i in groupable])):
                out[i] = v
            return [v if v is not None else Verdict(failure="crash", failure_message="no verdict") for v in out]
        except HeaderError as err:
            return [Verdict(failure="header", failure_message=str(err)) for _ in items]

    def _env(self, header: tuple[str, ...]) -> int:
        try:
            return self.repl.header_env(header, self.header_timeout_s)
        except ReplFailure as first:
            log.warning("loading header %s failed (%s); retrying on a fresh REPL", header, first)
            try:
                return self.repl.header_env(header, self.header_timeout_s)
            except ReplFailure as second:
                raise HeaderError(header, [str(second)]) from second

    def _command(self, header: tuple[str, ...], text: str, timeout_s: float) -> CommandResponse:
        """Run `text` on the header's environment; raises ReplFailure, or ReplRefused."""
        for attempt in range(2):
            env = self._env(header)
            resp = self.repl.command(text, env, timeout_s)
            if isinstance(resp, CommandResponse):
                return resp
            if isinstance(resp, ReplError) and "Unknown environment" in resp.message and attempt == 0:
                self.repl.forget_header(header)
                continue
            raise ReplRefused(f"the Lean REPL refused the command: {getattr(resp, 'message', resp)}")
        raise AssertionError("unreachable")

    def _single(self, header: tuple[str, ...], item: Prepared, retry_crash: bool = True) -> Verdict:
        try:
            resp = self._command(header, item.body, self.timeout_s)
        except ReplFailure as f:
            if f.kind == "crash" and retry_crash:
                log.warning("REPL crashed on a single statement; retrying once: %s", f)
                return self._single(header, item, retry_crash=False)
            return Verdict(failure=f.kind, failure_message=_failure_text(f, self.timeout_s, self.repl.max_memory_mb))
        except ReplRefused as err:
            return Verdict(failure="crash", failure_message=str(err))
        return verdict_alone(resp, item)

    def _group(self, header: tuple[str, ...], items: list[Prepared]) -> list[Verdict]:
        if not items:
            return []
        if len(items) == 1:
            return [self._single(header, items[0])]
        cmd = build_group(items)
        budget = self.timeout_s + self.group_extra_s * (len(items) - 1)
        try:
            resp = self._command(header, cmd.text, budget)
        except (ReplFailure, ReplRefused) as f:
            log.info("grouped command of %d statements failed (%s); splitting", len(items), f)
            if self.split == "singles":
                return [self._single(header, it) for it in items]
            mid = len(items) // 2
            return self._group(header, items[:mid]) + self._group(header, items[mid:])
        verdicts, stray = attribute(cmd, resp)
        broken = next((k for k, v in enumerate(verdicts) if v is None), None)
        if broken is None and stray:
            # every block answered, yet Lean said something outside them all: trust no block
            log.warning("grouped command produced messages outside its blocks (%s); checking one by one",
                        "; ".join(m.data for m in stray)[:300])
            return [self._single(header, it) for it in items]
        if broken is None:
            return verdicts  # type: ignore[return-value]
        log.info("block %d of %d broke the grouped command; checking it alone and regrouping the rest",
                 broken, len(items))
        return (
            verdicts[:broken]  # type: ignore[operator]
            + [self._single(header, items[broken])]
            + self._group(header, items[broken + 1 :])
        )
