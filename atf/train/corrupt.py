"""Programmatic corruptions of a gold Lean statement: realistic failed first attempts for cold-start data.

Syntax corruptions break the Lean text (what syntax_check catches); meaning corruptions keep it
well-formed but change what it says (what consistency_check catches). Each returns None when it does
not apply to the statement. Which ones the real tools actually catch is decided later, by replaying the
attempt through the loop with those tools.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

Corruption = Callable[[str, random.Random], "str | None"]


def _split_decl(statement: str) -> tuple[str, str, str] | None:
    """(before the conclusion, conclusion, proof part) around the last top-level ':' before ':='."""
    end = statement.rfind(":=")
    if end < 0:
        return None
    depth, colon = 0, -1
    for i, ch in enumerate(statement[:end]):
        if ch in "([{⦃":
            depth += 1
        elif ch in ")]}⦄":
            depth -= 1
        elif ch == ":" and depth == 0 and statement[i + 1 : i + 2] != "=":
            colon = i
    if colon < 0:
        return None
    return statement[: colon + 1], statement[colon + 1 : end], statement[end:]


# ---------------------------------------------------------------- syntax


def drop_closing_paren(statement: str, rng: random.Random) -> str | None:
    end = statement.rfind(":=")
    spots = [m.start() for m in re.finditer(r"\)", statement[:end])]
    if not spots:
        return None
    i = rng.choice(spots)
    return statement[:i] + statement[i + 1 :]


def misspell_theorem(statement: str, rng: random.Random) -> str | None:
    m = re.search(r"\b(theorem|lemma)\b", statement)
    if not m:
        return None
    typo = rng.choice(["theorm", "Theorem", "thm"])
    return statement[: m.start()] + typo + statement[m.end() :]


def lean3_proof(statement: str, rng: random.Random) -> str | None:
    if not statement.rstrip().endswith(":= by sorry"):
        return None
    return statement.rstrip()[: -len(":= by sorry")] + ":=\nbegin\n  sorry\nend"


def drop_assign(statement: str, rng: random.Random) -> str | None:
    end = statement.rfind(":=")
    return statement[:end].rstrip() if end > 0 else None


SYNTAX_CORRUPTIONS: dict[str, Corruption] = {
    "drop_closing_paren": drop_closing_paren,
    "misspell_theorem": misspell_theorem,
    "lean3_proof": lean3_proof,
    "drop_assign": drop_assign,
}

# ---------------------------------------------------------------- meaning

_NUM = re.compile(r"(?<![\w.₀-₉'])\d+(?![\w.₀-₉'])")
_FLIPS = {"≤": "<", "<": "≤", "≥": ">", ">": "≥", "≠": "="}


def change_constant(statement: str, rng: random.Random) -> str | None:
    parts = _split_decl(statement)
    if not parts:
        return None
    head, concl, tail = parts
    nums = list(_NUM.finditer(concl))
    if not nums:
        return None
    m = rng.choice(nums)
    value = int(m.group())
    new = rng.choice([value + 1, value - 1 if value > 1 else value + 2, value * 2 if value > 1 else value + 3])
    return head + concl[: m.start()] + str(new) + concl[m.end() :] + tail


def flip_relation(statement: str, rng: random.Random) -> str | None:
    parts = _split_decl(statement)
    if not parts:
        return None
    head, concl, tail = parts
    spots = [i for i, ch in enumerate(concl) if ch in _FLIPS and concl[i : i + 2] not in ("<;", "<|", "->", ">>")]
    spots = [i for i in spots if not (concl[i] in "<>" and i + 1 < len(concl) and concl[i + 1] in "=-")]
    if not spots:
        return None
    i = rng.choice(spots)
    return head + concl[:i] + _FLIPS[concl[i]] + concl[i + 1 :] + tail


def drop_hypothesis(statement: str, rng: random.Random) -> str | None:
    parts = _split_decl(statement)
    if not parts:
        return None
    head, concl, tail = parts
    groups = [m for m in re.finditer(r"\s*\((h[\w₀-₉']*)\s*:[^()]*(?:\([^()]*\)[^()]*)*\)", head)]
    if len(groups) < 1:
        return None
    m = rng.choice(groups)
    name = m.group(1)
    if re.search(rf"\b{re.escape(name)}\b", head[m.end() :] + concl):
        return None  # used later: dropping it would break the statement, not just its meaning
    return head[: m.start()] + head[m.end() :] + concl + tail


MEANING_CORRUPTIONS: dict[str, Corruption] = {
    "change_constant": change_constant,
    "flip_relation": flip_relation,
    "drop_hypothesis": drop_hypothesis,
}


def corrupt(statement: str, kinds: dict[str, Corruption], rng: random.Random) -> tuple[str, str] | None:
    """(kind, corrupted statement) from the first kind, in random order, that applies and changes it."""
    names = list(kinds)
    rng.shuffle(names)
    for name in names:
        out = kinds[name](statement, rng)
        if out is not None and out.strip() != statement.strip():
            return name, out
    return None
