"""Loaders for the human-labelled candidate sets, as one uniform record (`LabelledItem`).

    load_beq()            BEq human equivalence: 200 LLM Lean 4 formalizations of ProofNet problems
    load_proofnetverif()  a 100-row third-party sample of ProofNetVerif (valid split)
    load_formalalign()    FormalAlign: 80 miniF2F statements (gold or synthetically misaligned), 3 human labels each

What the labels mean: BEq and ProofNetVerif label whether the candidate is *equivalent to the reference
(gold) formalization*, as judged by humans. That is the notion of consistency a judge decides from the
informal statement alone: a candidate equivalent to a faithful reference is faithful to the problem.
FormalAlign's humans were asked whether the statement is aligned with the informal problem; `label` is
the majority of the three, the synthetic gold/misaligned label is kept in `meta["synthetic_label"]`.

Every loader takes `split`: "all", or "dev" / "test", a fixed half of the *problems* (sha1 of the
informal text), so all candidates of one problem land on the same side. Tune on dev, report test.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from atf.paths import shared_data_dir

Split = Literal["all", "dev", "test"]
SPLITS = ("all", "dev", "test")

BEQ_FILE = "beq-human-equivalence/human_equivalence_joined.jsonl"
PROOFNETVERIF_FILE = "proofnetverif-sample/proofnetverif_valid_100.json"
FORMALALIGN_FILE = "formalalign/annotation/merged_gt_label_with_human_label.json"

_FA_PREFIX = "Statement in natural language:\n"
_FA_SUFFIX = "\nTranslate the statement in natural language to Lean:"


@dataclass
class LabelledItem:
    """One (problem, candidate Lean statement) pair with human judgement(s).

    source: "beq" | "proofnetverif" | "formalalign".
    id: unique within its source (built from the source's own ids).
    problem: the informal statement.
    candidate: the candidate Lean 4 statement, as written (theorem ... := ...; no header).
    label: True when the candidate is consistent with the problem (see the module doc for each source).
    human_labels: every individual human judgement (one for BEq/ProofNetVerif, three for FormalAlign).
    gold: the reference Lean 4 formalization, when the source has one.
    header: imports/opens the candidate was written against ("" when the source gives none).
    meta: source-specific extras (generator, misalign_type, synthetic_label, ...).
    """

    source: str
    id: str
    problem: str
    candidate: str
    label: bool
    human_labels: list[bool]
    gold: str | None = None
    header: str = ""
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def split(self) -> str:
        return split_of(self.problem)

    def full_candidate(self, default_header: str = "import Mathlib\n\n") -> str:
        """Header + candidate, closed with `by sorry` when it ends at `:=`: a text the syntax check accepts."""
        body = self.candidate.rstrip()
        if body.endswith(":="):
            body += " by sorry"
        return (self.header or default_header) + body + "\n"


def split_of(problem: str) -> str:
    """ "dev" or "test": a fixed half of problems, by the sha1 of the informal text."""
    digest = hashlib.sha1(problem.strip().encode("utf-8")).hexdigest()
    return "dev" if int(digest[:8], 16) % 2 == 0 else "test"


def _path(relative: str, data_dir: Path | str | None, split: str) -> Path:
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    root = Path(data_dir) if data_dir is not None else shared_data_dir()
    path = root / relative
    if not path.is_file():
        raise FileNotFoundError(f"labelled data file not found: {path}")
    return path


def _select(items: list[LabelledItem], split: str) -> list[LabelledItem]:
    return items if split == "all" else [item for item in items if item.split == split]


def load_beq(split: Split = "all", data_dir: Path | str | None = None) -> list[LabelledItem]:
    """BEq human equivalence (200 candidates, 70 equivalent). id = "<generator>/<ProofNet full_name>"."""
    path = _path(BEQ_FILE, data_dir, split)
    items = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                label = row["human_equivalent"]
                if not isinstance(label, bool):
                    raise TypeError(f"human_equivalent is {label!r}, expected a bool")
                items.append(
                    LabelledItem(
                        source="beq",
                        id=f"{row['generator']}/{row['full_name']}",
                        problem=row["informal_stmt"],
                        candidate=row["candidate_formal_stmt"],
                        label=label,
                        human_labels=[label],
                        gold=row["gold_formal_stmt"],
                        header=row.get("header", ""),
                        meta={"generator": row["generator"], "full_name": row["full_name"]},
                    )
                )
            except (KeyError, TypeError, json.JSONDecodeError) as err:
                raise ValueError(f"{path}:{lineno}: malformed BEq record: {err}") from err
    return _select(items, split)


def load_proofnetverif(split: Split = "all", data_dir: Path | str | None = None) -> list[LabelledItem]:
    """ProofNetVerif sample (100 rows, 30 equivalent). Its ids repeat, so id = "<id>#<row index>"."""
    path = _path(PROOFNETVERIF_FILE, data_dir, split)
    rows = json.loads(path.read_text(encoding="utf-8"))
    items = []
    for i, row in enumerate(rows):
        try:
            label = row["label_equiv"]
            if not isinstance(label, bool):
                raise TypeError(f"label_equiv is {label!r}, expected a bool")
            items.append(
                LabelledItem(
                    source="proofnetverif",
                    id=f"{row['id']}#{i}",
                    problem=row["nl"],
                    candidate=row["candidate"],
                    label=label,
                    human_labels=[label],
                    gold=row["lean"],
                    header=row.get("imports", ""),
                    meta={"problem_id": row["id"]},
                )
            )
        except (KeyError, TypeError) as err:
            raise ValueError(f"{path}: row {i}: malformed ProofNetVerif record: {err}") from err
    return _select(items, split)


def formalalign_problem(prompt: str) -> str:
    """The informal statement inside FormalAlign's translation prompt."""
    if not prompt.startswith(_FA_PREFIX) or not prompt.endswith(_FA_SUFFIX):
        raise ValueError(f"unexpected FormalAlign prompt shape: {prompt[:80]!r}")
    return prompt[len(_FA_PREFIX) : -len(_FA_SUFFIX)].strip()


def load_formalalign(split: Split = "all", data_dir: Path | str | None = None) -> list[LabelledItem]:
    """FormalAlign's 80 human-labelled samples. label = majority of the 3 humans; id = "fa80-<index>"."""
    path = _path(FORMALALIGN_FILE, data_dir, split)
    rows = json.loads(path.read_text(encoding="utf-8"))
    items = []
    for i, row in enumerate(rows):
        try:
            humans = [row[f"human_label_{k}"] for k in (1, 2, 3)]
            if not all(isinstance(h, bool) for h in humans):
                raise TypeError(f"human labels are {humans!r}, expected bools")
            items.append(
                LabelledItem(
                    source="formalalign",
                    id=f"fa80-{i}",
                    problem=formalalign_problem(row["input"]),
                    candidate=row["response"],
                    label=sum(humans) >= 2,
                    human_labels=humans,
                    gold=None,
                    meta={"synthetic_label": bool(row["label"]), "misalign_type": row.get("misalign_type")},
                )
            )
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"{path}: row {i}: malformed FormalAlign record: {err}") from err
    return _select(items, split)


LOADERS = {"beq": load_beq, "proofnetverif": load_proofnetverif, "formalalign": load_formalalign}


def load_labelled(name: str, split: Split = "all", data_dir: Path | str | None = None) -> list[LabelledItem]:
    """One of LOADERS by name."""
    if name not in LOADERS:
        raise ValueError(f"unknown labelled set {name!r}; expected one of {sorted(LOADERS)}")
    return LOADERS[name](split=split, data_dir=data_dir)
