"""DPO pairs from trajectories of the same problem: success beats failure, fewer revisions beat more.

A pair is conversational (TRL's preference format): `prompt` = the system and user messages shared by
both, `chosen` / `rejected` = the rest of each conversation (assistant turns and tool messages),
`tools` = the schemas as a JSON string.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from atf.agent.trajectory import Trajectory
from atf.train.args import DPOScriptArguments


def rank_key(t: Trajectory) -> tuple[int, int]:
    """Smaller is better: success first, then fewer revisions."""
    return (0 if t.success else 1, t.revisions)


def better(a: Trajectory, b: Trajectory) -> bool:
    return rank_key(a) < rank_key(b)


def build_pairs(
    trajectories: Iterable[Trajectory], max_pairs_per_problem: int = DPOScriptArguments.max_pairs_per_problem
) -> list[dict[str, Any]]:
    """For each problem: the best trajectory (a success) against each strictly worse one, worst first."""
    groups: dict[str, list[Trajectory]] = defaultdict(list)
    for t in trajectories:
        groups[t.problem.strip()].append(t)
    pairs = []
    for problem, ts in groups.items():
        ts = sorted(ts, key=rank_key)
        best = ts[0]
        if not best.success:
            continue  # without a success there is nothing to prefer
        worse = [t for t in ts[1:] if better(best, t) and t.messages[2:] != best.messages[2:]]
        for t in list(reversed(worse))[:max_pairs_per_problem]:
            if best.messages[:2] != t.messages[:2]:
                raise ValueError(
                    f"trajectories of {problem[:60]!r} start from different prompts; pairs need a shared prompt"
                )
            pairs.append(
                {
                    "id": best.meta.get("id", ""),
                    "prompt": best.messages[:2],
                    "chosen": best.messages[2:],
                    "rejected": t.messages[2:],
                    "tools": json.dumps(best.tools, ensure_ascii=False),
                    "chosen_revisions": best.revisions,
                    "rejected_revisions": t.revisions,
                    "rejected_success": t.success,
                }
            )
    return pairs


def write_pairs(path, pairs: list[dict[str, Any]]) -> int:
    from atf.jsonl import write_jsonl

    return write_jsonl(path, pairs)


def read_pairs(path) -> list[dict[str, Any]]:
    from atf.jsonl import read_jsonl

    return read_jsonl(path)
