"""The tool loop: the model writes a Lean statement, calls the checks, reads their verdicts, revises.

Many rollouts are in flight at once. Each step makes one `engine.generate` (or `engine.chat`) call for
every active rollout, then runs the tool calls they made, batched per tool. Rules:

  * every new statement must go through syntax_check (each submission is one revision);
  * consistency_check is refused, with a message, for a statement that has not passed syntax_check;
  * a rollout stops when both checks passed on its latest statement ("passed"), at the revision limit
    ("revision_limit"), when the model answers without a tool call ("no_tool_call"; its latest statement
    stands), at the turn / token limits ("turn_limit", "length"), or when the chat template cannot extend
    what the model sampled ("template_mismatch": that rollout only, the reason in `meta["error"]`).

Local engines run token-in/token-out: the trajectory keeps the ids the model sampled (mask 1) between
the ids the loop inserted (mask 0). HTTP engines run in chat mode; their token view is rebuilt by
re-tokenizing the conversation when the engine has a tokenizer.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tqdm.auto import tqdm

from atf.agent.parsing import ParsedCall, parse_tool_calls, strip_tool_calls
from atf.agent.prompts import SYSTEM_PROMPT, initial_messages
from atf.agent.tokens import (
    TemplateMismatch,
    continuation,
    encode,
    render_text,
    token_view_from_messages,
    turn_end_token,
)
from atf.agent.tools import CONSISTENCY_CHECK, SYNTAX_CHECK, Tool, ToolRequest, ToolResult, validate_arguments
from atf.agent.trajectory import ToolCall, Trajectory
from atf.llm.base import Engine, Message, SamplingParams
from atf.llm.templates import renders_tool_calls

log = logging.getLogger(__name__)


@dataclass
class AgentConfig:
    """How one rollout runs.

    max_revisions: most statements a rollout may submit to syntax_check.
    max_turns: most assistant turns.
    max_total_tokens: most tokens in a rollout (prompt + everything after); a turn starts only if
        `max_new_tokens` more still fit (the tool reply to the last turn may run past it).
    max_new_tokens: most tokens the model may write in one assistant turn.
    temperature: sampling temperature of every turn (0 = greedy).
    top_p: nucleus sampling mass of every turn.
    repetition_penalty: > 1 penalises tokens already in the conversation, against loops (1 = off; see
        atf.llm.SamplingParams; OpenAI's own API does not accept a value other than 1, vLLM servers do).
    frequency_penalty: > 0 lowers a token's logit by this much per earlier occurrence in the same turn, against
        loops, without penalising what the prompt shows (0 = off; see atf.llm.SamplingParams).
    seed: makes sampling repeatable where the engine allows it.
    max_calls_per_turn: tool calls read from one assistant turn; further ones get an error message.
    stop_after_tool_call: end a turn at `</tool_call>` so the model cannot invent the tool's answer
        (token mode only: HTTP servers drop stop strings from their output).
    mode: "tokens" (token-in/token-out), "chat" (text messages), or "auto" (tokens when the engine
        declares `capabilities.token_io` and has a tokenizer, chat otherwise).
    system_prompt: the instructions (training data must use the same).
    """

    max_revisions: int = 8
    max_turns: int = 16
    max_total_tokens: int = 8192
    max_new_tokens: int = SamplingParams.max_new_tokens
    # Expert iteration samples with this same value (ExpertIterationArguments reads it): the policy whose
    # successes are trained on is the one that is evaluated.
    temperature: float = SamplingParams.temperature
    top_p: float = SamplingParams.top_p
    repetition_penalty: float = SamplingParams.repetition_penalty
    frequency_penalty: float = SamplingParams.frequency_penalty
    seed: int | None = None
    max_calls_per_turn: int = 4
    stop_after_tool_call: bool = True
    mode: str = "auto"
    system_prompt: str = SYSTEM_PROMPT

    def __post_init__(self) -> None:
        if self.max_revisions < 1:
            raise ValueError(f"max_revisions must be >= 1, got {self.max_revisions}")
        if self.max_turns < 1:
            raise ValueError(f"max_turns must be >= 1, got {self.max_turns}")
        if self.mode not in ("auto", "tokens", "chat"):
            raise ValueError(f"mode must be auto, tokens or chat, got {self.mode!r}")

    def sampling(self, token_mode: bool) -> SamplingParams:
        stop = ("</tool_call>",) if (self.stop_after_tool_call and token_mode) else ()
        return SamplingParams(
            max_new_tokens=self.max_new_tokens,
            temperature=self.temperature,
            top_p=self.top_p,
            n=1,
            stop=stop,
            seed=self.seed,
            repetition_penalty=self.repetition_penalty,
            frequency_penalty=self.frequency_penalty,
        )


def _norm(statement: str) -> str:
    return statement.strip()


@dataclass
class _Rollout:
    """The mutable state of one rollout while it is in flight."""

    traj: Trajectory
    rendered: str = ""  # template text of the conversation so far (token mode)
    ids: list[int] = field(default_factory=list)
    mask: list[int] = field(default_factory=list)
    prompt_len: int = 0
    syntax_verdicts: dict[str, bool] = field(default_factory=dict)
    turns: int = 0
    sampled_eos: bool = False
    grace_turn: bool = False  # the one turn after the revision limit, to run consistency_check on the last statement
    done: bool = False
    reported: bool = False

    def stop(self, reason: str) -> None:
        self.traj.stop_reason = reason
        self.done = True


class ToolLoop:
    """Runs rollouts of `engine` with `tools` under `config`.

    tools: must include one named syntax_check and one named consistency_check; any others are
        offered to the model and called without extra rules.
    """

    def __init__(self, engine: Engine, tools: Sequence[Tool], config: AgentConfig | None = None):
        self.engine = engine
        self.config = config or AgentConfig()
        self.tools = {t.name: t for t in tools}
        for required in (SYNTAX_CHECK, CONSISTENCY_CHECK):
            if required not in self.tools:
                raise ValueError(f"the tool loop needs a {required!r} tool; got {sorted(self.tools)}")
        self.schemas = [t.schema for t in tools]
        tok = engine.tokenizer
        token_io = engine.capabilities.token_io and tok is not None
        mode = self.config.mode
        if mode == "auto":
            mode = "tokens" if token_io else "chat"
        if mode == "tokens" and not token_io:
            raise ValueError(f"token mode needs a token-in/token-out engine with a tokenizer; {engine.name!r} is not")
        self.token_mode = mode == "tokens"
        self.tokenizer = tok
        end = turn_end_token(tok) if self.token_mode else None
        self.turn_end_id = tok.convert_tokens_to_ids(end) if end else tok.eos_token_id if tok is not None else None

    # ------------------------------------------------------------------ public

    def run(
        self,
        problems: Sequence[str],
        metas: Sequence[dict[str, Any]] | None = None,
        on_done: Callable[[Trajectory], None] | None = None,
        progress: bool = False,
    ) -> list[Trajectory]:
        """One rollout per problem (repeat a problem for k samples). `on_done` sees each trajectory as
        soon as it finishes (for append-only writing); the result keeps the input order."""
        metas = list(metas) if metas is not None else [{} for _ in problems]
        if len(metas) != len(problems):
            raise ValueError("metas must match problems one to one")
        rollouts = [self._start(p, m) for p, m in zip(problems, metas)]
        bar = tqdm(total=len(rollouts), desc="rollouts", unit="rollout", disable=not progress)
        finished = 0
        try:
            while True:
                active = [r for r in rollouts if not r.done]
                self._enforce_budget(active)
                active = [r for r in active if not r.done]
                if active:
                    self._step(active)
                newly = [r for r in rollouts if r.done and not r.reported]
                for r in newly:
                    r.reported = True
                    self._finish(r)
                    if on_done is not None:
                        on_done(r.traj)
                finished += len(newly)
                bar.update(len(newly))
                if finished == len(rollouts):
                    break
        finally:
            bar.close()
        return [r.traj for r in rollouts]

    # ------------------------------------------------------------------ steps

    def _start(self, problem: str, meta: dict[str, Any]) -> _Rollout:
        messages = initial_messages(problem, self.config.system_prompt)
        traj = Trajectory(
            problem=problem,
            messages=messages,
            tools=self.schemas,
            meta={"engine": getattr(self.engine, "name", "?"), "mode": "tokens" if self.token_mode else "chat", **meta},
        )
        r = _Rollout(traj)
        if self.token_mode:
            r.rendered = render_text(self.tokenizer, messages, self.schemas, True)
            r.ids = encode(self.tokenizer, r.rendered)
            r.prompt_len = len(r.ids)
        return r

    def _enforce_budget(self, active: list[_Rollout]) -> None:
        for r in active:
            if r.turns >= self.config.max_turns:
                r.stop("turn_limit")
            elif self.token_mode and len(r.ids) + self.config.max_new_tokens > self.config.max_total_tokens:
                r.stop("length")

    def _step(self, active: list[_Rollout]) -> None:
        params = self.config.sampling(self.token_mode)
        if self.token_mode:
            outs = self.engine.generate([r.ids for r in active], params)
        else:
            outs = self.engine.chat([to_openai_messages(r.traj.messages) for r in active], params, tools=self.schemas)
        if len(outs) != len(active):
            raise RuntimeError(f"engine returned {len(outs)} results for {len(active)} prompts")
        pending: list[tuple[_Rollout, list[ParsedCall]]] = []
        for r, out in zip(active, outs):
            completion = out[0]
            r.turns += 1
            text = completion.text
            r.traj.messages.append({"role": "assistant", "content": text})
            if self.token_mode:
                sampled = list(completion.token_ids or [])
                r.ids += sampled
                r.mask += [1] * len(sampled)
                r.sampled_eos = bool(sampled) and sampled[-1] == self.turn_end_id
            calls = parse_tool_calls(text)
            if not calls:
                r.stop("length" if completion.finish_reason == "length" else "no_tool_call")
            pending.append((r, calls))
        self._run_calls([(r, c) for r, c in pending if c])
        for r, _ in pending:
            if not r.done:
                self._check_stop(r)
            if self.token_mode:
                self._close_turn(r)

    def _run_calls(self, pending: list[tuple[_Rollout, list[ParsedCall]]]) -> None:
        """Call round j handles the j-th call of every rollout, batched per tool, so a rollout's calls run
        in the order it wrote them (a consistency_check after a syntax_check in the same turn sees its verdict)."""
        limit = self.config.max_calls_per_turn
        rounds = max((len(c) for _, c in pending), default=0)
        for j in range(rounds):
            by_tool: dict[str, list[tuple[_Rollout, ParsedCall]]] = {}
            for r, calls in pending:
                if j >= len(calls) or r.done:
                    continue
                call = calls[j]
                reply = self._screen(r, call, over_limit=j >= limit)
                if reply is not None:
                    self._record(r, call, None, reply)
                    continue
                by_tool.setdefault(call.name, []).append((r, call))
            for name, items in by_tool.items():
                requests = [ToolRequest(r.traj.problem, call.arguments) for r, call in items]
                results = self.tools[name].call(requests)
                if len(results) != len(requests):
                    raise RuntimeError(f"tool {name} returned {len(results)} results for {len(requests)} calls")
                for (r, call), result in zip(items, results):
                    self._apply(r, call, ToolResult(*result))

    def _screen(self, r: _Rollout, call: ParsedCall, over_limit: bool) -> str | None:
        """Why this call is not run (the message the model gets instead), or None to run it."""
        if over_limit:
            return f"Not run: at most {self.config.max_calls_per_turn} tool calls per turn."
        if call.error:
            return (
                f"Error: {call.error}. Write exactly one JSON object per block: "
                + '{"name": "syntax_check", "arguments": {"statement": "..."}}'
            )
        if call.name not in self.tools:
            return f"Error: there is no tool named {call.name!r}. Available: {', '.join(self.tools)}."
        bad = validate_arguments(self.tools[call.name].schema, call.arguments)
        if bad:
            return f"Error: {bad}."
        if call.name == SYNTAX_CHECK and r.traj.revisions >= self.config.max_revisions:
            return f"Not run: the revision limit ({self.config.max_revisions} statements) is reached."
        if call.name == CONSISTENCY_CHECK:
            statement = _norm(call.arguments["statement"])
            verdict = r.syntax_verdicts.get(statement)
            if verdict is None:
                return (
                    "Refused: run syntax_check on this exact statement first; consistency_check only takes "
                    "statements that passed it."
                )
            if not verdict:
                return (
                    "Refused: this statement failed syntax_check. Fix the errors and run syntax_check again "
                    "before consistency_check."
                )
        return None

    def _apply(self, r: _Rollout, call: ParsedCall, result: ToolResult) -> None:
        statement = _norm(call.arguments["statement"]) if "statement" in call.arguments else None
        t = r.traj
        if call.name == SYNTAX_CHECK and result.error:
            pass  # no verdict: neither a revision nor a statement the loop knows anything about
        elif call.name == SYNTAX_CHECK:
            t.revisions += 1
            r.syntax_verdicts[statement] = result.passed
            t.statement, t.syntax_ok, t.consistency_ok = statement, result.passed, False
        elif call.name == CONSISTENCY_CHECK:
            # It passed syntax_check (screened), possibly as an earlier revision: it becomes the latest again.
            t.statement, t.syntax_ok, t.consistency_ok = statement, True, result.passed and not result.error
        self._record(r, call, result.passed and not result.error, result.feedback, result.error)

    def _record(self, r: _Rollout, call: ParsedCall, passed: bool | None, text: str, error: bool = False) -> None:
        r.traj.calls.append(ToolCall(call.name or "?", dict(call.arguments), passed, text, error))
        r.traj.messages.append({"role": "tool", "name": call.name or "?", "content": text})

    def _check_stop(self, r: _Rollout) -> None:
        t = r.traj
        if t.syntax_ok and t.consistency_ok:
            r.stop("passed")
        elif t.revisions >= self.config.max_revisions:
            judged = any(
                c.name == CONSISTENCY_CHECK
                and c.passed is not None
                and not c.error
                and _norm(c.arguments["statement"]) == t.statement
                for c in t.calls
            )
            if t.syntax_ok and not judged and not r.grace_turn:
                r.grace_turn = True  # one more turn so the last statement can get its consistency verdict
            else:
                r.stop("revision_limit")
        if not r.done and r.turns >= self.config.max_turns:
            r.stop("turn_limit")

    def _close_turn(self, r: _Rollout) -> None:
        """Insert the template's tokens after the sampled ones: end of turn, tool messages, next prompt."""
        text = r.traj.messages[-1 - _trailing_tools(r.traj.messages)]["content"]
        previous = r.rendered
        try:
            inserted, r.rendered = continuation(
                self.tokenizer,
                previous,
                r.traj.messages,
                self.schemas,
                text,
                r.sampled_eos,
                add_generation_prompt=not r.done,
            )
        except TemplateMismatch as err:  # this rollout's tokens cannot be continued; the others go on
            log.warning("rollout stopped: %s", err)
            r.traj.meta["error"] = str(err)
            r.stop("template_mismatch")
            return
        r.ids += inserted
        r.mask += [0] * len(inserted)

    def _finish(self, r: _Rollout) -> None:
        t = r.traj
        if self.token_mode:
            t.prompt_ids = r.ids[: r.prompt_len]
            t.completion_ids = r.ids[r.prompt_len :]
            t.completion_mask = list(r.mask)
        elif self.tokenizer is not None:
            try:
                t.prompt_ids, t.completion_ids, t.completion_mask = token_view_from_messages(
                    self.tokenizer, t.messages, t.tools
                )
            except TemplateMismatch as err:  # the text stays; training re-tokenizes or skips it
                t.meta["error"] = str(err)
        t.meta["turns"] = r.turns


def _trailing_tools(messages: list[Message]) -> int:
    n = 0
    for m in reversed(messages):
        if m["role"] != "tool":
            break
        n += 1
    return n


def to_openai_messages(messages: list[Message]) -> list[Message]:
    """Hermes text to the OpenAI wire form: assistant calls as `tool_calls` fields, tool messages answering
    them by id. A tool message with no parsed call to answer (a malformed block) goes as a user message."""
    out: list[Message] = []
    queue: list[str] = []
    for i, m in enumerate(messages):
        if m["role"] == "assistant":
            calls = [c for c in parse_tool_calls(m["content"]) if not c.error]
            queue = [f"call_{i}_{j}" for j in range(len(calls))]
            msg: Message = {"role": "assistant", "content": strip_tool_calls(m["content"]) if calls else m["content"]}
            if calls:
                msg["tool_calls"] = [
                    {
                        "id": cid,
                        "type": "function",
                        "function": {"name": c.name, "arguments": json.dumps(c.arguments, ensure_ascii=False)},
                    }
                    for cid, c in zip(queue, calls)
                ]
            out.append(msg)
        elif m["role"] == "tool":
            if queue:
                out.append({"role": "tool", "tool_call_id": queue.pop(0), "content": m["content"]})
            else:
                out.append({"role": "user", "content": f"<tool_response>\n{m['content']}\n</tool_response>"})
        else:
            out.append({"role": m["role"], "content": m["content"]})
    return out


def native_call_text(tokenizer: Any, text: str) -> str:
    """The assistant text a model with this chat template writes for the tool calls in `text`: exactly what the
    template renders for the same content and calls given as `tool_calls` fields, which is how an
    OpenAI-compatible server renders that turn when it comes back in the history. Qwen's templates render
    the content then `<tool_call>` blocks (so hermes text stays as it is); Llama 3.1's renders the call's JSON
    alone and drops the content. Text without a parsed call, a template that does not render tool calls (ATF's
    ChatML reads hermes text), or one whose rendering does not read back as the same calls: `text` unchanged."""
    calls = [c for c in parse_tool_calls(text) if not c.error]
    if not calls or not renders_tool_calls(tokenizer):
        return text
    end = turn_end_token(tokenizer)
    if end is None:
        return text
    user: list[Message] = [{"role": "user", "content": "atf-native-probe"}]
    (turn,) = to_openai_messages([{"role": "assistant", "content": text}])
    # arguments as objects: vLLM's chat_utils parses them back from the wire's JSON string before rendering
    turn["tool_calls"] = [
        {**c, "function": {**c["function"], "arguments": json.loads(c["function"]["arguments"])}}
        for c in turn["tool_calls"]
    ]
    before = render_text(tokenizer, user, None, True)
    after = render_text(tokenizer, [*user, turn], None, False)
    if not after.startswith(before) or end not in after[len(before) :]:
        return text
    native = after[len(before) :].split(end, 1)[0]
    again = [(c.name, c.arguments) for c in parse_tool_calls(native) if not c.error]
    return native if again == [(c.name, c.arguments) for c in calls] else text


def native_messages(tokenizer: Any, messages: list[Message]) -> list[Message]:
    """`messages` with each assistant turn written as `native_call_text` writes it."""
    return [
        {**m, "content": native_call_text(tokenizer, m["content"])} if m["role"] == "assistant" else m for m in messages
    ]


def run_agent(
    problems: Iterable[str],
    engine: Engine,
    tools: Sequence[Tool],
    config: AgentConfig | None = None,
    **kwargs: Any,
) -> list[Trajectory]:
    """Shorthand for `ToolLoop(engine, tools, config).run(problems)`."""
    return ToolLoop(engine, tools, config).run(list(problems), **kwargs)
