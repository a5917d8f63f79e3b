"""What a set of cold-start trajectories teaches: the mix of sources, what was rejected and why, which turns are
under loss, and the figures that show whether deliberate mistakes are being trained.

Works on any trajectory file (`data_gen/synthesis_report.py`), including ones written before turn kinds were
recorded: then turns are told apart by the runs of the completion mask.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from atf.agent.parsing import parse_tool_calls
from atf.agent.trajectory import Trajectory
from atf.train.synth import SynthStats, classify_turns, turn_spans

_SENTENCE_END = re.compile(r"(?<=[.!?])\s|\n")


@dataclass
class Turn:
    kind: str
    text: str
    under_loss: bool
    tokens: int  # tokens of the turn in the token view (0 without one)
    loss_tokens: int


def turns(t: Trajectory) -> list[Turn]:
    """The assistant turns of `t` with their kind and whether (and how many of) their tokens are under loss."""
    texts = [m["content"] for m in t.messages if m["role"] == "assistant"]
    kinds = t.meta.get("turn_kinds") or classify_turns(t)
    mask = t.completion_mask or []
    spans = [tuple(s) for s in t.meta.get("turn_spans") or turn_spans(mask)]
    if len(spans) != len(texts):
        return [Turn(k, x, True, 0, 0) for k, x in zip(kinds, texts)]
    out = []
    for kind, text, (a, b) in zip(kinds, texts, spans):
        loss = sum(mask[a:b])
        out.append(Turn(kind, text, loss > 0, b - a, loss))
    return out


def lead_sentence(text: str) -> str:
    return _SENTENCE_END.split(text.split("<tool_call>", 1)[0].strip(), 1)[0].strip()


def _statements(turn: Turn) -> list[str]:
    return [
        str(c.arguments.get("statement", "")).strip()
        for c in parse_tool_calls(turn.text)
        if not c.error and "statement" in c.arguments
    ]


@dataclass
class Figures:
    """The issue's three measurements, for one group of trajectories.

    first_wrong / successes: successful trajectories whose first statement under loss is not their final one
        (for programmatic data: a deliberate corruption trained as the first attempt).
    differing / under_loss: statements in turns under loss that differ from the trajectory's final statement.
    leads: distinct first sentences of the turns under loss of successful trajectories.
    """

    successes: int = 0
    first_wrong: int = 0
    under_loss: int = 0
    differing: int = 0
    leads: set[str] = field(default_factory=set)
    loss_tokens: Counter = field(default_factory=Counter)
    masked_tokens: Counter = field(default_factory=Counter)

    def add(self, t: Trajectory) -> None:
        final = (t.statement or "").strip()
        first = None
        for turn in turns(t):
            if t.success:
                self.loss_tokens[turn.kind] += turn.loss_tokens
                self.masked_tokens[turn.kind] += turn.tokens - turn.loss_tokens
            if not turn.under_loss:
                continue
            stated = _statements(turn)
            self.under_loss += len(stated)
            self.differing += sum(s != final for s in stated)
            if first is None and stated:
                first = stated[0]
            if t.success:
                self.leads.add(lead_sentence(turn.text))
        if t.success:
            self.successes += 1
            self.first_wrong += first is not None and first != final

    def lines(self) -> list[str]:
        share = 100 * self.first_wrong / self.successes if self.successes else 0.0
        kinds = sorted(set(self.loss_tokens) | set(self.masked_tokens))
        masking = ", ".join(f"{k} {self.loss_tokens[k]}/{self.loss_tokens[k] + self.masked_tokens[k]}" for k in kinds)
        return [
            f"  first statement under loss is not the final one: {self.first_wrong} of {self.successes} successes "
            f"({share:.0f}%)",
            f"  statements under loss that differ from the final statement: {self.differing} of {self.under_loss}",
            f"  distinct lead sentences (turns under loss of successes): {len(self.leads)}",
            f"  tokens under loss / all, per kind of turn (successes, what SFT trains on): {masking or 'none'}",
        ]


def group_of(t: Trajectory) -> str:
    source = str(t.meta.get("source", "?"))
    return "teacher" if source.startswith("teacher") else "programmatic" if source.startswith("synth") else source


def report(trajectories: Sequence[Trajectory], stats: Iterable[SynthStats] = ()) -> str:
    """The synthesis summary: mix, rejections by reason, masking and the figures, per group of sources."""
    lines = []
    kept, dropped = Counter(), Counter()
    for s in stats:
        kept.update(s.kept)
        dropped.update(s.dropped)
    if not kept:
        kept.update(str(t.meta.get("source", "?")) for t in trajectories)
    lines.append("mix (kept): " + (", ".join(f"{k} {v}" for k, v in sorted(kept.items())) or "none"))
    lines.append("rejected: " + (", ".join(f"{k} {v}" for k, v in sorted(dropped.items())) or "none"))
    groups: dict[str, Figures] = {}
    for t in trajectories:
        groups.setdefault(group_of(t), Figures()).add(t)
    for name, fig in sorted(groups.items()):
        n = sum(group_of(t) == name for t in trajectories)
        lines.append(f"{name}: {n} trajectories, {fig.successes} successes")
        lines.extend(fig.lines())
    return "\n".join(lines)
