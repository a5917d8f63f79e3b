"""Cold-start trajectories from (problem, gold statement) pairs.

Two sources:
  * a teacher (the primary path, as in the ATF paper): any Engine run through the tool loop with the real
    tools; a rollout is kept only if it succeeded without the loop refusing any of its calls (every
    statement syntax-checked, consistency only after syntax passed, at most `AgentConfig.max_revisions`
    statements); rejections are counted by reason;
  * programmatic plans (a supplement): the gold statement directly, or a deliberately corrupted attempt
    (a syntax error, or a wrong constant / relation / missing hypothesis), the real tools' feedback on it,
    then the correction. Every turn starts with reasoning (atf/train/rationale.py). The corrupted attempt
    and the consistency call on it stay in the context but out of the loss (`UNDER_LOSS`): the model
    learns to read feedback and correct, never to make the mistake.

Every plan is played through the real `ToolLoop` (a `ReplayEngine` speaks the planned turns) with the
real tools, and kept only if the verdicts come out as planned and the trajectory passes
`rule_violations`; so what is kept is exactly what the loop would have recorded. Only dev splits
(valid) and users' training data may feed training: test problems are refused.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from atf.agent.loop import AgentConfig, ToolLoop, native_call_text, native_messages
from atf.agent.parsing import format_tool_call, parse_tool_calls
from atf.agent.replay import ReplayEngine
from atf.agent.tokens import token_view_from_messages
from atf.agent.tools import CONSISTENCY_CHECK, SYNTAX_CHECK, Tool, validate_arguments
from atf.agent.trajectory import Trajectory
from atf.agent.validate import rule_violations
from atf.data.benchmarks import BenchmarkProblem
from atf.train import rationale
from atf.train.corrupt import MEANING_CORRUPTIONS, SYNTAX_CORRUPTIONS, corrupt

log = logging.getLogger(__name__)

# plan name -> attempts before the final one; "gold" ends with the gold statement, "give_up" stops after them
PLANS: dict[str, tuple[tuple[str, ...], str]] = {
    "direct": ((), "gold"),
    "fix_syntax": (("syntax",), "gold"),
    "fix_meaning": (("meaning",), "gold"),
    "fix_both": (("syntax", "meaning"), "gold"),
    "give_up": (("meaning",), "give_up"),
}
GIVE_UP = "I could not find a statement that passes both checks."

# Kinds of assistant turn. A corrupted statement is a deliberate mistake: it stays in the context (the
# model must read the feedback on it) but is never under loss, nor is the consistency call on it.
UNDER_LOSS = {
    "direct": True,
    "correction": True,
    "check": True,
    "give_up": True,
    "corrupted": False,
    "corrupted_check": False,
}


@dataclass
class SynthStats:
    kept: Counter = field(default_factory=Counter)
    dropped: Counter = field(default_factory=Counter)

    def summary(self) -> str:
        kept = ", ".join(f"{k} {v}" for k, v in sorted(self.kept.items())) or "none"
        dropped = ", ".join(f"{k} {v}" for k, v in sorted(self.dropped.items())) or "none"
        return f"kept: {kept}; dropped: {dropped}"


def refuse_test_split(problems: Sequence[BenchmarkProblem]) -> None:
    test = [p.id for p in problems if p.split == "test"]
    if test:
        raise ValueError(
            f"{len(test)} test-split problems (e.g. {test[0]}) given for training data; use valid splits only"
        )


def _turn(reasoning: str, call: str, statement: str) -> str:
    return reasoning + "\n" + format_tool_call(call, {"statement": statement})


def plan_script(
    gold: str, plan: str, rng: random.Random
) -> tuple[list[str], list[tuple[str, bool]], list[str], list[str], list[str]] | None:
    """(assistant turns, expected (tool, verdict) sequence, corruption kinds, turn kinds, corrupted statements)
    for one plan, or None when the statement offers no corruption of a needed kind."""
    attempts, ending = PLANS[plan]
    # Built backwards from the gold: each attempt differs from the next one by exactly one mistake, so a
    # correction fixes that mistake and nothing else.
    statements, current = [], gold
    for kind in reversed(attempts):
        found = corrupt(current, SYNTAX_CORRUPTIONS if kind == "syntax" else MEANING_CORRUPTIONS, rng)
        if found is None:
            return None
        current = found[1]
        statements.insert(0, (kind, found[0], current))
    kinds = [c for _, c, _ in statements]
    if ending == "gold":
        statements.append(("gold", "", gold))
    turns, expected, turn_kinds = [], [], []
    previous: tuple[str, str, str] | None = None
    for kind, corruption, s in statements:
        if previous is None:
            reasoning = rationale.plan(s, rng)
        elif previous[0] == "syntax":
            reasoning = rationale.fix_syntax(previous[1], previous[2], s, rng)
        else:
            reasoning = rationale.fix_meaning(previous[2], s, rng)
        wrong = kind != "gold"
        turns.append(_turn(reasoning, SYNTAX_CHECK, s))
        turn_kinds.append("corrupted" if wrong else ("direct" if previous is None else "correction"))
        expected.append((SYNTAX_CHECK, kind != "syntax"))
        if kind != "syntax":
            turns.append(_turn(rationale.check_meaning(s, rng), CONSISTENCY_CHECK, s))
            turn_kinds.append("corrupted_check" if wrong else "check")
            expected.append((CONSISTENCY_CHECK, not wrong))
        previous = (kind, corruption, s)
    if ending == "give_up":
        turns.append(GIVE_UP)
        turn_kinds.append("give_up")
    return turns, expected, kinds, turn_kinds, [s for k, _, s in statements if k != "gold"]


def turn_spans(mask: Sequence[int]) -> list[tuple[int, int]]:
    """[start, end) of each run of 1s: the tokens of one assistant turn (turns are separated by inserted tokens)."""
    spans, start = [], None
    for i, m in enumerate(list(mask) + [0]):
        if m and start is None:
            start = i
        elif not m and start is not None:
            spans.append((start, i))
            start = None
    return spans


def mask_turns(t: Trajectory, turn_kinds: Sequence[str]) -> bool:
    """Record each assistant turn's token span and kind in `t.meta`, and take the turns that must not be
    imitated out of the loss. False when the token view does not split into one run per assistant turn."""
    spans = turn_spans(t.completion_mask or [])
    if len(spans) != len(turn_kinds) or len(spans) != sum(m["role"] == "assistant" for m in t.messages):
        return False
    mask = list(t.completion_mask or [])
    for (a, b), kind in zip(spans, turn_kinds):
        if not UNDER_LOSS[kind]:
            mask[a:b] = [0] * (b - a)
    t.completion_mask = mask
    t.meta["turn_spans"] = [list(s) for s in spans]
    t.meta["turn_kinds"] = list(turn_kinds)
    return True


def synthesize(
    problems: Sequence[BenchmarkProblem],
    tokenizer: Any,
    tools: Sequence[Tool],
    plans: Sequence[str] = tuple(PLANS),
    config: AgentConfig | None = None,
    seed: int = 0,
) -> tuple[list[Trajectory], SynthStats]:
    """Play every plan for every problem through the loop with `tools`; keep those that replay as planned."""
    refuse_test_split(problems)
    unknown = set(plans) - set(PLANS)
    if unknown:
        raise ValueError(f"unknown plans {sorted(unknown)}; choose from {', '.join(PLANS)}")
    config = config or AgentConfig(mode="tokens")
    stats = SynthStats()
    by_text: dict[str, BenchmarkProblem] = {}
    for p in problems:
        by_text.setdefault(p.informal.strip(), p)  # the same text twice would make the replay ambiguous
    kept: list[Trajectory] = []
    for plan in plans:
        rng = random.Random(f"{seed}:{plan}")
        scripts, expected, turn_kinds, metas, problems_in = {}, {}, {}, [], []
        for text, p in by_text.items():
            made = plan_script(p.formal, plan, rng)
            if made is None:
                stats.dropped[f"{plan}:no_corruption"] += 1
                continue
            # each turn as the student's chat template renders it back (Llama 3.1: the call's JSON alone)
            turns = [native_call_text(tokenizer, turn) for turn in made[0]] if tokenizer is not None else made[0]
            scripts[text], expected[text], turn_kinds[text] = turns, made[1], made[3]
            problems_in.append(text)
            metas.append(
                {
                    "id": p.id,
                    "benchmark": p.benchmark,
                    "split": p.split,
                    "source": f"synth:{plan}",
                    "corruptions": made[2],
                    "corrupted": made[4],
                    "reference": p.formal,
                }
            )
        if not problems_in:
            continue
        engine = ReplayEngine(scripts, tokenizer, name=f"synth:{plan}")
        for t in ToolLoop(engine, tools, config).run(problems_in, metas):
            verdicts = [(c.name, c.passed) for c in t.calls]
            if verdicts != expected[t.problem.strip()]:
                stats.dropped[f"{plan}:verdicts_differ"] += 1
                continue
            if not mask_turns(t, turn_kinds[t.problem.strip()]):
                stats.dropped[f"{plan}:turns_misaligned"] += 1
                continue
            violations = rule_violations(t, config.max_revisions, tokenizer)
            if violations:
                stats.dropped[f"{plan}:rules"] += 1
                log.debug("dropped %s: %s", t.meta["id"], violations)
                continue
            stats.kept[f"synth:{plan}"] += 1
            kept.append(t)
    return kept, stats


def refused_calls(t: Trajectory, schemas: dict[str, dict]) -> list[str]:
    """Why the loop refused each call it did not run (a teacher that broke a rule), from the record alone."""
    out = []
    for c in t.calls:
        if c.passed is not None:
            continue
        if c.name not in schemas:
            out.append("malformed_call" if c.name == "?" else "unknown_tool")
        elif validate_arguments(schemas[c.name], c.arguments):
            out.append("bad_arguments")
        elif c.name == CONSISTENCY_CHECK:
            out.append("consistency_before_syntax_pass")
        else:
            out.append("over_limit")
    return out


def teacher_verdict(t: Trajectory, max_revisions: int, schemas: dict[str, dict]) -> str | None:
    """None when a teacher rollout may train the student, else the reason it is rejected: the loop's rules
    (every statement syntax-checked, consistency only after syntax passed, stop when both pass, at most
    `max_revisions` statements) must hold without the loop having had to refuse anything."""
    if not t.success:
        return f"not_passed:{t.stop_reason}"
    refused = refused_calls(t, schemas)
    if refused:
        return f"broke_rule:{refused[0]}"
    if t.revisions > max_revisions:
        return "revision_limit"
    return "rules" if rule_violations(t, max_revisions) else None


def classify_turns(t: Trajectory) -> list[str]:
    """Kinds of a rollout's assistant turns: its first statement, later statements, consistency calls."""
    kinds, seen = [], False
    for m in t.messages:
        if m["role"] != "assistant":
            continue
        names = [c.name for c in parse_tool_calls(m["content"])]
        if SYNTAX_CHECK in names:
            kinds.append("correction" if seen else "direct")
            seen = True
        else:
            kinds.append("check" if CONSISTENCY_CHECK in names else "other")
    return kinds


def _same_tokenizer(a: Any, b: Any) -> bool:
    return a is b or (
        a is not None and b is not None and a.get_vocab() == b.get_vocab() and a.chat_template == b.chat_template
    )


def teacher_trajectories(
    problems: Sequence[BenchmarkProblem],
    teacher: Any,
    tools: Sequence[Tool],
    config: AgentConfig | None = None,
    k: int = 1,
    progress: bool = False,
    tokenizer: Any | None = None,
    on_kept: Callable[[Trajectory], None] | None = None,
    skip: Collection[tuple[str, int]] = (),
    on_attempt: Callable[[dict, str | None], None] | None = None,
) -> tuple[list[Trajectory], SynthStats]:
    """Run the teacher through the loop (k samples per problem) and keep the successes that kept the rules.

    tokenizer: the student's; a teacher with another tokenizer (or none: HTTP) gets its token view rebuilt
        from the messages with it, so the file trains the student directly. on_kept: sees each kept
        trajectory as soon as its rollout ends (append-only writing). skip: (problem id, sample) pairs
        already attempted by an earlier run. on_attempt(meta, reason): after each rollout (and after
        on_kept), with the reason it was dropped or None when kept, so that a killed run can resume."""
    refuse_test_split(problems)
    config = config or AgentConfig()
    schemas = {t.name: t.schema for t in tools}
    retokenize = tokenizer is not None and not _same_tokenizer(getattr(teacher, "tokenizer", None), tokenizer)
    flat = [p for p in problems for _ in range(k)]
    metas = [
        {
            "id": p.id,
            "benchmark": p.benchmark,
            "split": p.split,
            "source": f"teacher:{teacher.name}",
            "sample": j % k,
            "reference": p.formal,
        }
        for j, p in enumerate(flat)
    ]
    if skip:
        todo = [n for n, m in enumerate(metas) if (m["id"], m["sample"]) not in skip]
        flat, metas = [flat[n] for n in todo], [metas[n] for n in todo]
    stats = SynthStats()
    kept: list[Trajectory] = []

    def judge(t: Trajectory) -> None:
        reason = keep(t)
        if on_attempt is not None:
            on_attempt(t.meta, reason)

    def keep(t: Trajectory) -> str | None:
        reason = teacher_verdict(t, config.max_revisions, schemas)
        if reason is not None:
            stats.dropped[f"teacher:{reason}"] += 1
            return reason
        if retokenize:
            t.messages = native_messages(tokenizer, t.messages)  # the teacher's calls as the student writes them
            t.prompt_ids, t.completion_ids, t.completion_mask = token_view_from_messages(tokenizer, t.messages, t.tools)
            t.meta["token_view"] = "retokenized"
        kinds = classify_turns(t)
        if t.completion_mask is not None and not mask_turns(t, kinds):
            stats.dropped["teacher:turns_misaligned"] += 1
            return "turns_misaligned"
        t.meta.setdefault("turn_kinds", kinds)
        stats.kept["teacher"] += 1
        kept.append(t)
        if on_kept is not None:
            on_kept(t)
        return None

    ToolLoop(teacher, tools, config).run([p.informal for p in flat], metas, on_done=judge, progress=progress)
    return kept, stats
