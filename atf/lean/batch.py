"""Grouped batch compilation: many statements with the same imports checked in one REPL command.

Each statement's text after its imports becomes one block of the command:

    #check @_root_.t3              -- probes: does a name the batch declares exist already (at the root,
                                   -- or in a namespace its statement opens)?
    namespace ATF_9f2c4e1a_3       -- names cannot clash across statements; opens/options/variables stay inside
    <the statement's text>
    end ATF_9f2c4e1a_3
    #print "ATF_9f2c4e1a_3 done"   -- sentinel: proves the parser got cleanly past the block

Wrapper names and sentinels carry a per-command secret (`secrets`), so one statement can neither
`open` nor reference another's block, nor fake a sentinel. Messages are mapped back to a statement by
line range and shifted to its own coordinates. A block whose sentinel is missing broke the file (an
unterminated comment or string swallowed what followed): its verdict comes from checking it alone,
and the blocks after it are checked again as a new group.

A statement is checked alone, never grouped, whenever the wrapper could change its verdict or its
effects could outlive its block:
- scope commands that are not balanced inside it (`mutual` without `end` would consume the wrapper's
  `end`; a stray `end` closes the wrapper's namespace, since Lean pops scopes before checking names),
  and every `mutual` or `namespace`;
- names whose meaning depends on the namespace they are declared in: a dotted name (`def Nat.double`
  inside the wrapper is `ATF_..Nat.double`, so `n.double` no longer finds it), `_root_`, `protected`
  and `scoped` (errors at the root), and a name that already exists at the root (`theorem add_comm`
  clashes with Mathlib's when alone, not inside a namespace: the probes find these);
- global effects: instances, notations, attributes, `deriving`, `export`, `alias`, syntax and macros
  (the pre-check rejects the last ones; the batcher does not rely on it).

Scoped commands that are balanced (`open`, `variable`, `universe`, `set_option`, `local` instances,
notations and attributes, closed `section`s) mean the same inside the wrapper as at the root, and end
with it: the wrapper holds no names but the statement's own, so nothing resolves differently.

When a grouped command times out, crashes or breaks the protocol, its statements are checked one by
one (never bisected: every halving would wait the full timeout again), each with its own timeout,
so a statement that hangs Lean costs the group one timeout plus a restart.
"""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from atf.lean.protocol import CommandResponse, Message, Pos, ReplError, Sorry
from atf.lean.repl import HeaderError, LeanRepl, ReplFailure, ReplRefused
from atf.lean.statement import (
    DECLARATION_KEYWORDS,
    META_KEYWORDS,
    NOTATION_KEYWORDS,
    LeanStatement,
)

log = logging.getLogger(__name__)

WRAPPER_PREFIX = "ATF_"
_SCOPE_OPENERS = ("namespace", "section", "mutual")
_UNNAMED = ("example", "instance")


def new_tag() -> str:
    """A fresh secret for one grouped command's wrapper names and sentinels."""
    return secrets.token_hex(8)


def sentinel(tag: str, k: int | None = None) -> tuple[str, str]:
    """(the sentinel command, the info message Lean answers it with)."""
    text = f"{WRAPPER_PREFIX}{tag}" + ("" if k is None else f"_{k}") + " done"
    return f'#print "{text}"', text


@dataclass
class Prepared:
    """A statement ready for Lean: its imports, the text sent on top of them, and how to map lines back.

    line_offset: add to a line of `body` to get the line in the original statement.
    alone_reason: why it must be checked in a command of its own (None: it can be grouped).
    closers: `end` lines closing sections the body leaves open (needed inside a block).
    probe_names: names whose existence in the header's environment forces it alone: each undotted name it
        declares, and that name under each namespace it opens. At the root, its `foo` clashes with an
        existing `foo`, and competes with `O.foo` under `open O`; inside the wrapper, `ATF_..foo` clashes
        with nothing and shadows both (Lean's resolveGlobalName tries the current namespace first).
    """

    header: tuple[str, ...]
    body: str
    line_offset: int
    alone_reason: str | None = None
    closers: list[str] = field(default_factory=list)
    probe_names: tuple[str, ...] = ()

    @property
    def body_lines(self) -> int:
        return len(self.body.split("\n"))


@dataclass
class Verdict:
    """What Lean said about one statement, in the statement's own coordinates.

    failure: None when Lean answered; else "timeout", "memory", "crash", "protocol" or "header", with
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
    reason = alone_reason(st)
    return Prepared(
        header=st.header_key,
        body=st.body_text,
        line_offset=st.body_line - 1,
        alone_reason=reason,
        closers=[] if reason else _closers(st),
        probe_names=_probe_names(st),
    )


_NAME = re.compile(r"[^\W\d][\w'!?]*(?:\.[^\W\d][\w'!?]*)*")


def _probe_names(st: LeanStatement) -> tuple[str, ...]:
    """Only plain identifiers: a probe line must parse on its own, or its error could land on a block."""
    names = [n for n in declared_names(st) if _NAME.fullmatch(n) and "." not in n]
    opens = [o for o in (w.replace("«", "").replace("»", "") for w in st.header_opens) if _NAME.fullmatch(o)]
    return tuple(dict.fromkeys(names + [f"{o}.{n}" for o in opens for n in names]))


def declared_names(st: LeanStatement) -> list[str]:
    """The names the statement's declarations introduce, as written."""
    out = []
    for cmd in st.commands:
        toks = cmd.body_tokens
        if (
            cmd.keyword in DECLARATION_KEYWORDS
            and cmd.keyword not in _UNNAMED
            and len(toks) > 1
            and toks[1].kind == "ident"
        ):
            out.append(toks[1].text.replace("«", "").replace("»", ""))
    return out


def alone_reason(st: LeanStatement) -> str | None:
    """Why a statement cannot share a command with others (the wrapper could change its verdict, or its
    effects could outlive its block)."""
    reason = _scope_reason(st)
    if reason:
        return reason
    for name in declared_names(st):
        if not _NAME.fullmatch(name):
            return f"declares `{name}`, which the clash probes cannot name"
        if "." in name:
            return f"declares the dotted name `{name}` (its meaning depends on the enclosing namespace)"
    for cmd in st.commands:
        words = cmd.words()
        if "protected" in cmd.modifiers or "scoped" in cmd.modifiers:
            which = "protected" if "protected" in cmd.modifiers else "scoped"
            return f"uses `{which}` (its meaning depends on the enclosing namespace)"
        local = "local" in cmd.modifiers
        if cmd.keyword in META_KEYWORDS or cmd.keyword.startswith("#") or cmd.keyword == "alias":
            return f"uses `{cmd.keyword}` (its effects are not confined to a block)"
        if cmd.keyword == "instance" and not local:
            return "declares a global instance"
        if cmd.keyword in NOTATION_KEYWORDS and not local:
            return "declares a global notation"
        if cmd.keyword in ("deriving", "export") or "deriving" in words:
            return f"uses `{'deriving' if 'deriving' in words else cmd.keyword}`"
        if cmd.keyword == "attribute" and not re.search(r"\[\s*local\b", " ".join(words)):
            return "sets a global or scoped attribute"
        if any(not re.match(r"local\b", a) for a in cmd.attributes):
            return "tags a declaration with a global attribute"
        if any(
            t.kind == "ident" and (t.text.startswith("_root_") or t.text.startswith(WRAPPER_PREFIX)) for t in cmd.tokens
        ):
            return "names `_root_` or the wrapper's namespace"
    return None


def _scope_reason(st: LeanStatement) -> str | None:
    """Only `section`s that are closed in order (or left open, closed by us) may be grouped."""
    depth = 0
    for cmd in st.commands:
        if cmd.keyword in ("namespace", "mutual"):
            return f"opens a `{cmd.keyword}`"
        if cmd.keyword == "section":
            depth += 1
        elif cmd.keyword == "end":
            if depth == 0:
                return "has an `end` that closes a scope it did not open"
            depth -= 1
    return None


def _closers(st: LeanStatement) -> list[str]:
    """`end` lines for the sections the statement leaves open, innermost first, each with its name (Lean
    rejects a bare `end` for a named section)."""
    names: list[str] = []
    for cmd in st.commands:
        words = cmd.words()
        if cmd.keyword == "section":
            rest = words[2:] if words[0] == "noncomputable" else words[1:]
            names.append(rest[0] if rest else "")
        elif cmd.keyword == "end" and names:
            names.pop()
    return [f"end {n}".rstrip() for n in reversed(names)]


@dataclass
class Block:
    item: Prepared
    namespace: str
    marker: str
    first_line: int
    body_first: int
    body_last: int
    sentinel_line: int


@dataclass
class GroupCommand:
    """A grouped command: probe lines (one root name each), then the blocks."""

    text: str
    blocks: list[Block]
    tag: str
    probes: dict[int, str] = field(default_factory=dict)  # line -> probed root name

    def block_at(self, line: int) -> int | None:
        for k, b in enumerate(self.blocks):
            if b.first_line <= line <= b.sentinel_line:
                return k
        return None


def build_group(items: list[Prepared], tag: str | None = None) -> GroupCommand:
    tag = tag or new_tag()
    lines: list[str] = []
    probes: dict[int, str] = {}
    for name in dict.fromkeys(n for it in items for n in it.probe_names):
        lines.append(f"#check @_root_.{name}")
        probes[len(lines)] = name
    blocks: list[Block] = []
    for k, item in enumerate(items):
        ns = f"{WRAPPER_PREFIX}{tag}_{k}"
        command, marker = sentinel(tag, k)
        first = len(lines) + 1
        lines.append(f"namespace {ns}")
        body_first = len(lines) + 1
        lines.extend(item.body.split("\n"))
        body_last = len(lines)
        lines.extend(item.closers)
        lines.append(f"end {ns}")
        lines.append(command)
        blocks.append(Block(item, ns, marker, first, body_first, body_last, len(lines)))
    return GroupCommand("\n".join(lines) + "\n", blocks, tag, probes)


def _shift(pos: Pos | None, block: Block | None, item: Prepared) -> Pos | None:
    if pos is None:
        return None
    end = Pos(item.line_offset + item.body_lines, len(item.body.split("\n")[-1]))  # where the statement ends
    if block is None:  # a statement checked alone: its body, then our sentinel line
        return end if pos.line > item.body_lines else Pos(max(1, pos.line) + item.line_offset, pos.column)
    if block.body_first <= pos.line <= block.body_last:
        return Pos(pos.line - block.body_first + 1 + item.line_offset, pos.column)
    return end  # on the wrapper's own lines (an end of input the statement ran into)


def _mapped(m: Message, block: Block | None, item: Prepared) -> Message:
    data = m.data if block is None else m.data.replace(block.namespace + ".", "")
    return Message(m.severity, _shift(m.pos, block, item), _shift(m.end_pos, block, item), data)


def _is_marker(m: Message) -> bool:
    return m.severity == "info" and m.data.startswith(WRAPPER_PREFIX) and m.data.endswith(" done")


def verdict_alone(resp: CommandResponse, item: Prepared) -> Verdict:
    return Verdict(
        messages=[_mapped(m, None, item) for m in resp.messages if not m.is_sorry_warning and not _is_marker(m)],
        goals=[s.goal for s in resp.sorries],
    )


def attribute(cmd: GroupCommand, resp: CommandResponse) -> tuple[list[Verdict | None], list[Message], set[str]]:
    """Per-block verdicts (None for a block whose sentinel did not answer: it broke the file), the
    messages that fell outside every block, and the probed names that exist at the root."""
    msgs: list[list[Message]] = [[] for _ in cmd.blocks]
    sorries: list[list[Sorry]] = [[] for _ in cmd.blocks]
    seen_sentinel = [False] * len(cmd.blocks)
    stray: list[Message] = []
    existing: set[str] = set()
    for m in resp.messages:
        line = m.pos.line if m.pos else None
        if line in cmd.probes:
            if m.severity == "info":
                existing.add(cmd.probes[line])
            continue
        k = cmd.block_at(line) if line else None
        if k is None:
            stray.append(m)
            continue
        if line == cmd.blocks[k].sentinel_line and m.severity == "info" and m.data == cmd.blocks[k].marker:
            seen_sentinel[k] = True
        elif _is_marker(m):
            stray.append(m)  # a marker that is not this block's: not an answer to this command
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
        out.append(
            Verdict(
                messages=[_mapped(m, block, block.item) for m in msgs[k]],
                goals=[s.goal.replace(block.namespace + ".", "") for s in sorries[k]],
            )
        )
    return out, stray, existing


def _failure_text(f: ReplFailure, timeout_s: float) -> str:
    if f.kind == "timeout":
        return (
            f"Lean did not finish checking this statement within {timeout_s:g} s and was stopped "
            "(look for expensive coercions, instance searches or huge numerals)"
        )
    if f.kind == "memory":
        return f"Lean ran out of memory on this statement ({f}) and was stopped"
    if f.kind == "protocol":
        return f"the Lean REPL gave no valid answer for this statement ({f}) and was restarted"
    tail = " ".join(f.output_tail.split())[-300:]
    return f"the Lean REPL crashed while checking this statement ({f})" + (f": {tail}" if tail else "")


OnVerdict = Callable[[int, Verdict], None]


class GroupChecker:
    """Checks statements of one header on one REPL, grouping, attributing and isolating failures.

    timeout_s: the most seconds Lean may spend on one statement, and by default on one grouped command:
        a group that runs longer is checked one by one, each statement with its own timeout_s, so a
        statement that hangs costs its group one timeout. group_extra_s: seconds a group gets on top,
        per additional statement (for statements that each take a large part of timeout_s).
    header_timeout_s: the most seconds loading the imports may take.
    split: how to retry a group whose command crashed or broke the protocol: "singles" (one by one,
        the default) or "bisect" (halves). A group that timed out is always retried one by one.

    A GroupChecker drives one LeanRepl and holds no other state: a pool runs one per worker, each
    independently and concurrently.
    """

    def __init__(
        self,
        repl: LeanRepl,
        timeout_s: float = 60.0,
        group_extra_s: float = 0.0,
        header_timeout_s: float = 600.0,
        split: str = "singles",
    ):
        if split not in ("bisect", "singles"):
            raise ValueError(f"split must be 'bisect' or 'singles', got {split!r}")
        self.repl = repl
        self.timeout_s = timeout_s
        self.group_extra_s = group_extra_s
        self.header_timeout_s = header_timeout_s
        self.split = split
        # How a failed group's statements are checked one by one: None here, in order on this REPL; a pool
        # sets a function (header, [(index, item)], emit) that spreads them over its idle workers.
        self.spread: Callable[[tuple[str, ...], list[tuple[int, Prepared]], OnVerdict], None] | None = None

    def check(
        self, header: tuple[str, ...], items: list[Prepared], group: bool = True, on_verdict: OnVerdict | None = None
    ) -> list[Verdict]:
        """Verdicts for `items` (all with imports `header`), in order. `on_verdict(index, verdict)` is
        called as soon as each verdict is known (before the slower ones of the same call)."""
        out: list[Verdict | None] = [None] * len(items)

        def emit(i: int, v: Verdict) -> None:
            out[i] = v
            if on_verdict is not None:
                on_verdict(i, v)

        try:
            indexed = list(enumerate(items))
            for i, it in indexed:
                if not group or it.alone_reason is not None:
                    emit(i, self._single(header, it))
            if group:
                self._group(header, [(i, it) for i, it in indexed if it.alone_reason is None], emit)
        except HeaderError as err:
            for i in range(len(items)):
                if out[i] is None:
                    emit(i, Verdict(failure="header", failure_message=str(err)))
        return [v if v is not None else Verdict(failure="crash", failure_message="no verdict") for v in out]

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
        """Run `text` on the header's environment; raises ReplFailure, or ReplRefused. A protocol
        failure (an extra, stale or malformed answer) is retried once on a fresh process."""
        for attempt in range(3):
            env = self._env(header)
            try:
                resp = self.repl.command(text, env, timeout_s)
            except ReplFailure as f:
                if f.kind == "protocol" and attempt == 0:
                    log.warning("retrying a command after a protocol error: %s", f)
                    continue
                raise
            if isinstance(resp, CommandResponse):
                return resp
            if isinstance(resp, ReplError) and "Unknown environment" in resp.message and attempt < 2:
                self.repl.forget_header(header)
                continue
            raise ReplRefused(f"the Lean REPL refused the command: {getattr(resp, 'message', resp)}")
        raise ReplRefused("the Lean REPL kept refusing the command")

    def _distrust(self, why: str) -> None:
        """The REPL's answer was not bound to our command: restart the process."""
        log.warning("Lean REPL answer rejected (%s); restarting it", why)
        self.repl.stats.protocol_errors += 1
        self.repl.close()

    def _single(self, header: tuple[str, ...], item: Prepared, retry: bool = True) -> Verdict:
        command, marker = sentinel(new_tag())
        try:
            resp = self._command(header, item.body + "\n" + command + "\n", self.timeout_s)
            problem = _single_answer_problem(resp, marker)
            if problem:
                self._distrust(problem)
                raise ReplFailure("protocol", problem)
        except ReplFailure as f:
            if f.kind in ("crash", "protocol") and retry:
                log.warning("REPL %s on a single statement; retrying once: %s", f.kind, f)
                return self._single(header, item, retry=False)
            return Verdict(failure=f.kind, failure_message=_failure_text(f, self.timeout_s))
        except ReplRefused as err:
            return Verdict(failure="crash", failure_message=str(err))
        return verdict_alone(resp, item)

    def _singles(self, header: tuple[str, ...], items: list[tuple[int, Prepared]], emit) -> None:
        if self.spread is not None and len(items) > 1:
            self.spread(header, items, emit)
            return
        for i, it in items:
            emit(i, self._single(header, it))

    def _group(self, header: tuple[str, ...], items: list[tuple[int, Prepared]], emit) -> None:
        if not items:
            return
        if len(items) == 1:
            emit(items[0][0], self._single(header, items[0][1]))
            return
        cmd = build_group([it for _, it in items])
        budget = self.timeout_s + self.group_extra_s * (len(items) - 1)
        try:
            resp = self._command(header, cmd.text, budget)
        except (ReplFailure, ReplRefused) as f:
            kind = f.kind if isinstance(f, ReplFailure) else "refused"
            log.info("grouped command of %d statements failed (%s: %s); checking them one by one", len(items), kind, f)
            if self.split == "bisect" and kind != "timeout":
                mid = len(items) // 2
                self._group(header, items[:mid], emit)
                self._group(header, items[mid:], emit)
            else:
                self._singles(header, items, emit)
            return
        verdicts, stray, existing = attribute(cmd, resp)
        if any(_is_marker(m) for m in stray):
            self._distrust("a grouped answer carried another command's sentinel")
            self._singles(header, items, emit)
            return
        clash = [k for k, (_, it) in enumerate(items) if existing.intersection(it.probe_names)]
        for k in clash:  # the wrapper namespace hid a clash with an existing root name: Lean must see it alone
            verdicts[k] = None
        broken = next((k for k, v in enumerate(verdicts) if v is None and k not in clash), None)
        if broken is None and stray:
            # every block answered, yet Lean said something outside them all: trust no block
            log.warning(
                "grouped command produced messages outside its blocks (%s); checking one by one",
                "; ".join(m.data for m in stray)[:300],
            )
            self._singles(header, items, emit)
            return
        upto = len(items) if broken is None else broken
        for k in range(upto):
            i, it = items[k]
            emit(i, self._single(header, it) if k in clash else verdicts[k])  # type: ignore[arg-type]
        if broken is None:
            return
        log.info(
            "block %d of %d broke the grouped command; checking it alone and regrouping the rest", broken, len(items)
        )
        emit(items[broken][0], self._single(header, items[broken][1]))
        self._group(header, items[broken + 1 :], emit)


def _single_answer_problem(resp: CommandResponse, marker: str) -> str | None:
    """A single statement's answer carries its own sentinel, unless the statement broke the file (then
    Lean reported an error); another command's sentinel means the answer is not ours."""
    markers = [m.data for m in resp.messages if _is_marker(m)]
    if any(d != marker for d in markers):
        return "the answer carries another command's sentinel"
    if not markers and not resp.errors:
        return "the answer has neither this command's sentinel nor an error"
    return None
