"""Cold-start trajectories from (problem, gold statement) pairs.

Two sources:
  * programmatic plans: a corrupted first attempt (a syntax error, or a wrong constant / relation /
    missing hypothesis), the tool feedback, then the revision to the gold statement;
  * a teacher: any Engine run through the tool loop; its successful rollouts are kept.

Every plan is played through the real `ToolLoop` (a `ReplayEngine` speaks the planned turns) with the
real tools, and kept only if the verdicts come out as planned and the trajectory passes
`rule_violations`; so what is kept is exactly what the loop would have recorded. Only dev splits
(valid) may feed training: test problems are refused.
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from atf.agent.loop import AgentConfig, ToolLoop
from atf.agent.parsing import format_tool_call
from atf.agent.replay import ReplayEngine
from atf.agent.tools import CONSISTENCY_CHECK, SYNTAX_CHECK, Tool
from atf.agent.trajectory import Trajectory
from atf.agent.validate import rule_violations
from atf.data.benchmarks import BenchmarkProblem
from atf.train.corrupt import MEANING_CORRUPTIONS, SYNTAX_CORRUPTIONS, corrupt

log = logging.getLogger(__name__)

FIRST = ["Here is my formalization.", "I will formalize the problem as follows.", "A first Lean 4 statement for this problem."]
AFTER_SYNTAX_ERROR = ["The syntax check reported an error. I will fix the statement.", "Lean rejected the statement; here is a corrected version."]
AFTER_SYNTAX_PASS = ["The syntax check passed. Now I check that it matches the problem.", "Syntax is fine; next, the consistency check."]
AFTER_MISMATCH = ["The consistency check found a mismatch with the problem. I will revise the statement.", "The statement does not say what the problem says; revising."]
GIVE_UP = ["I could not find a statement that passes both checks."]

# plan name -> attempts before the final one; "gold" ends with the gold statement, "give_up" stops after them
PLANS: dict[str, tuple[tuple[str, ...], str]] = {
    "direct": ((), "gold"),
    "fix_syntax": (("syntax",), "gold"),
    "fix_meaning": (("meaning",), "gold"),
    "fix_both": (("syntax", "meaning"), "gold"),
    "give_up": (("meaning",), "give_up"),
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
        raise ValueError(f"{len(test)} test-split problems (e.g. {test[0]}) given for training data; use valid splits only")


def _turn(rng: random.Random, lines: list[str], call: str, arguments: dict) -> str:
    return rng.choice(lines) + "\n" + format_tool_call(call, arguments)


def plan_script(gold: str, plan: str, rng: random.Random) -> tuple[list[str], list[tuple[str, bool]], list[str]] | None:
    """(assistant turns, expected (tool, verdict) sequence, corruption kinds) for one plan, or None when
    the statement offers no corruption of a needed kind."""
    attempts, ending = PLANS[plan]
    statements, kinds = [], []
    for kind in attempts:
        found = corrupt(gold, SYNTAX_CORRUPTIONS if kind == "syntax" else MEANING_CORRUPTIONS, rng)
        if found is None:
            return None
        kinds.append(found[0])
        statements.append((kind, found[1]))
    if ending == "gold":
        statements.append(("gold", gold))
    turns, expected = [], []
    lead = FIRST
    for kind, s in statements:
        turns.append(_turn(rng, lead, SYNTAX_CHECK, {"statement": s}))
        if kind == "syntax":
            expected.append((SYNTAX_CHECK, False))
            lead = AFTER_SYNTAX_ERROR
            continue
        expected.append((SYNTAX_CHECK, True))
        turns.append(_turn(rng, AFTER_SYNTAX_PASS, CONSISTENCY_CHECK, {"statement": s}))
        expected.append((CONSISTENCY_CHECK, kind == "gold"))
        lead = AFTER_MISMATCH
    if ending == "give_up":
        turns.append(rng.choice(GIVE_UP))
    return turns, expected, kinds


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
        scripts, expected, metas, problems_in = {}, {}, [], []
        for text, p in by_text.items():
            made = plan_script(p.formal, plan, rng)
            if made is None:
                stats.dropped[f"{plan}:no_corruption"] += 1
                continue
            scripts[text], expected[text] = made[0], made[1]
            problems_in.append(text)
            metas.append({"id": p.id, "benchmark": p.benchmark, "split": p.split, "source": f"synth:{plan}", "corruptions": made[2], "reference": p.formal})
        if not problems_in:
            continue
        engine = ReplayEngine(scripts, tokenizer, name=f"synth:{plan}")
        for t in ToolLoop(engine, tools, config).run(problems_in, metas):
            verdicts = [(c.name, c.passed) for c in t.calls]
            if verdicts != expected[t.problem.strip()]:
                stats.dropped[f"{plan}:verdicts_differ"] += 1
                continue
            violations = rule_violations(t, config.max_revisions, tokenizer)
            if violations:
                stats.dropped[f"{plan}:rules"] += 1
                log.debug("dropped %s: %s", t.meta["id"], violations)
                continue
            stats.kept[plan] += 1
            kept.append(t)
    return kept, stats


def teacher_trajectories(
    problems: Sequence[BenchmarkProblem],
    teacher: Any,
    tools: Sequence[Tool],
    config: AgentConfig | None = None,
    k: int = 1,
    progress: bool = False,
) -> tuple[list[Trajectory], SynthStats]:
    """Run the teacher through the loop (k samples per problem) and keep rule-abiding successes."""
    refuse_test_split(problems)
    config = config or AgentConfig()
    flat = [p for p in problems for _ in range(k)]
    metas = [{"id": p.id, "benchmark": p.benchmark, "split": p.split, "source": f"teacher:{teacher.name}", "sample": j % k, "reference": p.formal} for j, p in enumerate(flat)]
    stats = SynthStats()
    kept = []
    for t in ToolLoop(teacher, tools, config).run([p.informal for p in flat], metas, progress=progress):
        if not t.success:
            stats.dropped[f"teacher:{t.stop_reason}"] += 1
        elif rule_violations(t, config.max_revisions):
            stats.dropped["teacher:rules"] += 1
        else:
            stats.kept["teacher"] += 1
            kept.append(t)
    return kept, stats
