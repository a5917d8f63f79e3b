"""Loader for the Isa-AutoFormal (SymEq/SemCo paper) GPT-4 Isabelle candidates.

    load_math(split)      797 MATH problems x 10 candidates, each with a human `label` (test 761 / train 36)
    load_minif2f(split)   488 miniF2F problems x 10 candidates; "correct" is membership in the
                          `equivalence_oracle` (the repo's ATP check against the gold statement; no humans)

Every candidate carries GPT-4's back-translation into natural language and, where the source has it,
`syntax` (1/0: Isabelle parsed and type-checked it; absent for about half of the MATH candidates, which
the source treats as 1).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from atf.paths import shared_data_dir

FOLDER = "isa-autoformal-assess"
MATH_FILE = "math_isabelle_candidates_labelled.jsonl"
MINIF2F_FILE = "minif2f_isabelle_candidates.jsonl"


@dataclass
class IsaCandidate:
    """One GPT-4 Isabelle formalization.

    statement: `theorem fixes/assumes/shows` text; back_translation: GPT-4's informalization of it;
    correct: the label the evaluation uses (MATH: human label; miniF2F: in the equivalence oracle);
    syntax: Isabelle's verdict (None when the source has none); extra: the source's own scores.
    """

    idx: int
    statement: str
    back_translation: str
    correct: bool
    syntax: int | None
    extra: dict = field(default_factory=dict)

    @property
    def usable(self) -> bool:
        """Correct and not rejected by Isabelle (a statement that does not type-check is no answer)."""
        return self.correct and self.syntax != 0


@dataclass
class IsaProblem:
    """problem: the informal statement, with the final answer appended as the source's prompts did
    ("... The final answer is $5$."); candidates in sampling order."""

    id: str
    dataset: str
    split: str
    problem: str
    candidates: list[IsaCandidate]
    gold: str | None = None
    meta: dict = field(default_factory=dict)

    @property
    def in_paper_400(self) -> bool:
        """One of the 400 MATH test problems Li et al. report on: in isa-autoformal-assess exactly those whose
        candidates all carry the authors' `semantic_score`."""
        return self.split == "test" and all(c.extra.get("semantic_score") is not None for c in self.candidates)

    @property
    def statements(self) -> list[str]:
        return [c.statement for c in self.candidates]

    @property
    def back_translations(self) -> list[str]:
        return [c.back_translation for c in self.candidates]

    @property
    def labels(self) -> list[bool]:
        return [c.usable for c in self.candidates]

    @property
    def syntax_ok(self) -> list[bool]:
        return [c.syntax != 0 for c in self.candidates]


def _path(name: str, data_dir: Path | str | None) -> Path:
    root = Path(data_dir) if data_dir is not None else shared_data_dir()
    path = root / FOLDER / name
    if not path.is_file():
        raise FileNotFoundError(f"{path} not found (see {root / FOLDER / 'PROVENANCE.md'})")
    return path


def _candidate(c: dict, correct: bool) -> IsaCandidate:
    extra = {k: c[k] for k in ("naive_label", "semantic_score", "symbolic_score") if k in c}
    return IsaCandidate(
        int(c["idx"]),
        c.get("formal_problem") or "",
        c.get("back_informal_problem") or "",
        correct,
        c.get("syntax"),
        extra,
    )


def load_math(split: Literal["all", "test", "train"] = "test", data_dir: Path | str | None = None) -> list[IsaProblem]:
    """MATH problems with human-labelled candidates (the paper reports on test)."""
    if split not in ("all", "test", "train"):
        raise ValueError(f"split must be all, test or train, got {split!r}")
    out = []
    with open(_path(MATH_FILE, data_dir), encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if split != "all" and row["split"] != split:
                continue
            problem = f"{row['natural_problem'].strip()} The final answer is ${row['natural_answer'].strip()}$."
            cands = [_candidate(c, c.get("label") == 1) for c in row["candidates_gpt4"]]
            out.append(
                IsaProblem(
                    row["id"],
                    "MATH",
                    row["split"],
                    problem,
                    cands,
                    meta={"type": row.get("type"), "level": row.get("level"), "answer": row.get("natural_answer")},
                )
            )
    return out


def load_math_dev(data_dir: Path | str | None = None) -> list[IsaProblem]:
    """The MATH problems outside the paper's 400 (the other 361 test problems and the 36 train ones): a
    development set for SymEq, where nothing is reported."""
    return [p for p in load_math("all", data_dir) if not p.in_paper_400]


_SHOW_THAT = re.compile(r"^(.*?)\s*Show that it is\s*(.+?)\.?\s*$", re.S)


def minif2f_problem_text(informal: str) -> str:
    """`... Show that it is 060.` -> `... The final answer is $060$.` (the form the candidates were made from)."""
    m = _SHOW_THAT.match(informal.strip())
    if not m:
        return informal.strip()
    return f"{m.group(1).strip()} The final answer is ${m.group(2).strip()}$."


def load_minif2f(
    split: Literal["all", "test", "valid"] = "all", data_dir: Path | str | None = None, oracle_only: bool = False
) -> list[IsaProblem]:
    """miniF2F problems; correct = in `equivalence_oracle`. oracle_only keeps the 256 problems that have one."""
    if split not in ("all", "test", "valid"):
        raise ValueError(f"split must be all, test or valid, got {split!r}")
    out = []
    with open(_path(MINIF2F_FILE, data_dir), encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            if split != "all" and row["split"] != split:
                continue
            oracle = row.get("equivalence_oracle")
            if oracle_only and oracle is None:
                continue
            good = set(oracle or [])
            cands = [_candidate(c, int(c["idx"]) in good) for c in row["candidates_gpt4"]]
            out.append(
                IsaProblem(
                    row["problem_name"],
                    "miniF2F",
                    row["split"],
                    minif2f_problem_text(row["informal_statement"]),
                    cands,
                    gold=row.get("oracle_isabelle"),
                    meta={"has_oracle": oracle is not None},
                )
            )
    return out
