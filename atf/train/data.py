"""Trajectories and pairs to the datasets the TRL trainers take.

SFT trains on the token view: `input_ids` = prompt_ids + completion_ids and `assistant_masks` = 0 on the
prompt, then the loop's completion mask. TRL's SFTTrainer turns a pre-tokenized dataset's
`assistant_masks` into labels, so the loss covers exactly the tokens the model sampled (mask 1) and never
tool output or template tokens. We use the token view rather than re-rendering `messages` with
`assistant_only_loss=True` because a rollout's sampled ids need not be the canonical tokenization of its
text: re-tokenizing would train on sequences the model never produced. Trajectories without a token view
(HTTP rollouts without a tokenizer) are tokenized here with the chat template's `{% generation %}`
markers, which gives the same mask for canonical text.

DPO trains on conversational pairs (see atf.train.pairs); TRL renders them with the chat template and
`ToolMaskedPreferenceCollator` removes tool-message tokens from the completion mask.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from atf.agent.tokens import token_view_from_messages
from atf.agent.trajectory import Trajectory, read_jsonl
from atf.llm.templates import openai_tools

log = logging.getLogger(__name__)


def load_trajectories(paths: Sequence[str | Path]) -> list[Trajectory]:
    """Every trajectory in `paths` except those where a tool call errored (`Trajectory.tool_errored`):
    the model was told "try again" there, which teaches nothing about the statement."""
    out: list[Trajectory] = []
    dropped = 0
    for path in paths:
        if not Path(path).is_file():
            raise FileNotFoundError(f"trajectory file {path} not found")
        for t in read_jsonl(path):
            if t.tool_errored:
                dropped += 1
            else:
                out.append(t)
    if dropped:
        log.warning("left out %d trajectories whose consistency check errored", dropped)
    return out


def trajectory_key(t: Trajectory) -> str:
    """Identity for deduplication: the problem and what the model wrote in every turn."""
    turns = [m["content"] for m in t.messages if m["role"] == "assistant"]
    return hashlib.sha1(json.dumps([t.problem.strip(), turns], ensure_ascii=False).encode()).hexdigest()


def merge_dedupe(*groups: Iterable[Trajectory]) -> list[Trajectory]:
    """Concatenate, keeping the first of trajectories with the same key (earlier data wins)."""
    seen, out = set(), []
    for group in groups:
        for t in group:
            key = trajectory_key(t)
            if key not in seen:
                seen.add(key)
                out.append(t)
    return out


def split_by_problem(items: Sequence[Any], problem_of: Callable[[Any], str], fraction: float) -> tuple[list, list]:
    """(train, eval): `fraction` of the distinct problems go to eval with all their items, so no problem is on both
    sides. The choice hashes the problem text: the same problems are held out on every run and every process."""
    if not 0 <= fraction < 1:
        raise ValueError(f"eval_fraction must be in [0, 1), got {fraction}")
    problems = sorted({problem_of(x).strip() for x in items}, key=lambda p: hashlib.sha1(p.encode()).hexdigest())
    n_eval = min(len(problems) - 1, math.ceil(fraction * len(problems))) if fraction > 0 else 0
    held = set(problems[:n_eval])
    return [x for x in items if problem_of(x).strip() not in held], [x for x in items if problem_of(x).strip() in held]


def keep_for_sft(t: Trajectory, max_revisions: int | None = None) -> bool:
    """Successes only, without an errored consistency check, and (for expert iteration) with fewer than
    `max_revisions` revisions."""
    return t.success and not t.tool_errored and (max_revisions is None or t.revisions < max_revisions)


def sft_rows(
    trajectories: Iterable[Trajectory], tokenizer: Any, retokenize: bool = False
) -> list[dict[str, list[int]]]:
    """`input_ids` + `assistant_masks` per trajectory (see module doc). retokenize: ignore stored ids
    (when they came from another tokenizer)."""
    rows = []
    for t in trajectories:
        if t.completion_ids is None or retokenize:
            prompt, completion, mask = token_view_from_messages(tokenizer, t.messages, t.tools)
        else:
            prompt, completion, mask = t.prompt_ids, t.completion_ids, t.completion_mask
        if not any(mask):
            log.warning("skipping a trajectory with no model tokens (%s)", t.meta.get("id"))
            continue
        rows.append({"input_ids": list(prompt) + list(completion), "assistant_masks": [0] * len(prompt) + list(mask)})
    return rows


def sft_dataset(trajectories: Iterable[Trajectory], tokenizer: Any, retokenize: bool = False):
    from datasets import Dataset

    rows = sft_rows(trajectories, tokenizer, retokenize)
    if not rows:
        raise ValueError("no trajectories to train on (SFT keeps successes with model tokens)")
    return Dataset.from_list(rows)


def _plain(messages: list[dict]) -> list[dict[str, str]]:
    # Arrow needs one schema for every message; the template reads only role and content.
    return [{"role": m["role"], "content": m["content"]} for m in messages]


def _wrapped_tools(tools: str | list[dict] | None) -> str:
    schemas = json.loads(tools) if isinstance(tools, str) else tools
    return json.dumps(openai_tools(schemas), ensure_ascii=False)


def dpo_dataset(pairs: Iterable[dict[str, Any]]):
    """TRL renders `tools` with the chat template: wrapped, as the agent loop and vLLM render them."""
    from datasets import Dataset

    rows = [
        {
            "prompt": _plain(p["prompt"]),
            "chosen": _plain(p["chosen"]),
            "rejected": _plain(p["rejected"]),
            "tools": _wrapped_tools(p["tools"]),
        }
        for p in pairs
    ]
    if not rows:
        raise ValueError("no preference pairs to train on")
    return Dataset.from_list(rows)
