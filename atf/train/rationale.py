"""Reasoning written before each tool call of a programmatic cold-start trajectory, so the model learns to think.

A direct attempt first reads the problem into Lean terms (the objects, the assumptions, the goal) from the
statement it is about to write; a correction names what was wrong with its own previous attempt and what
replaces it; the consistency call says what is being checked. The text is built from the statements
themselves, so it differs from problem to problem (no small set of stock sentences to memorise), and it
never claims anything the statement that follows does not do.
"""

from __future__ import annotations

import random
import re

from atf.lean.statement import StatementParseError, parse_statement
from atf.train.reference import differences

_PROP = re.compile(r"[=<>≤≥≠∣∧∨¬↔→∀∃∈∉⊆⊂]")


def read_statement(statement: str) -> tuple[list[str], list[str], str] | None:
    """(objects, assumptions, goal) of a theorem statement, or None when it cannot be read. Read by the one statement
    reader (`atf.lean.statement`): a `)` inside a string or a comment, `theorem t.{u}`, and the `:=` of a `let` in
    the conclusion are Lean's, not a regex's."""
    try:
        st = parse_statement(statement)
    except StatementParseError:
        return None
    if st.kind not in ("theorem", "lemma"):
        return None
    objects, assumptions = [], []
    for b in st.binders:
        (assumptions if b.type is not None and _PROP.search(b.type) else objects).append(" ".join(b.text.split()))
    return objects, assumptions, " ".join(st.conclusion.split())


def _join(items: list[str]) -> str:
    quoted = [f"`{x}`" for x in items]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def plan(statement: str, rng: random.Random) -> str:
    """Reasoning before a first attempt at `statement`."""
    read = read_statement(statement)
    if read is None:
        return rng.choice(["I will write the whole problem as one Lean theorem.", "Let me state the problem in Lean."])
    objects, assumptions, goal = read
    lines = []
    if objects:
        lines.append(
            rng.choice(["The problem is about {o}.", "The objects here are {o}.", "I need {o}."]).format(
                o=_join(objects)
            )
        )
    if assumptions:
        lines.append(
            rng.choice(["It assumes {a}.", "The hypotheses are {a}.", "Given: {a}."]).format(a=_join(assumptions))
        )
    elif objects:
        lines.append("There are no hypotheses beyond the types.")
    lines.append(
        rng.choice(["The goal is `{g}`.", "It asks to prove `{g}`.", "What must be shown: `{g}`."]).format(g=goal)
    )
    if not objects:
        lines.insert(0, rng.choice(["This is a closed claim with no variables.", "No variables are needed."]))
    lines.append(
        rng.choice(
            [
                "I write the theorem with `sorry` as its proof and check the syntax first.",
                "I state it with `:= by sorry` and run the syntax check.",
                "First the syntax check on this statement.",
            ]
        )
    )
    return " ".join(lines)


_SYNTAX_WHY = {
    "drop_closing_paren": "The brackets of my statement do not balance.",
    "misspell_theorem": "A declaration must start with the keyword `theorem`.",
    "lean3_proof": "`begin ... end` is Lean 3 syntax; Lean 4 writes the placeholder proof as `by sorry`.",
    "drop_assign": "The declaration has no body; it must end with `:= by sorry`.",
}


def _what_changes(diffs: list[tuple[str, str, str, str]]) -> list[str]:
    out = []
    for op, got, want, where in diffs[:3]:
        if op == "replace":
            out.append(f"in the {where}, `{got}` should be `{want}`")
        elif op == "add":
            out.append(f"`{got}` does not belong in the {where}")
        else:
            out.append(f"the {where} need `{want}`" if where == "hypotheses" else f"the conclusion needs `{want}`")
    return out


def fix_syntax(kind: str, previous: str, fixed: str, rng: random.Random) -> str:
    """Reasoning before the corrected statement, after the syntax check rejected `previous`."""
    head = rng.choice(["The syntax check failed.", "Lean did not accept that statement.", "That did not parse."])
    why = _SYNTAX_WHY.get(kind, "")
    changes = _what_changes(differences(previous, fixed))
    fix = ("Fix: " + "; ".join(changes) + ".") if changes else ""
    tail = rng.choice(["I check the corrected statement again.", "Here is the corrected statement."])
    return " ".join(x for x in (head, why, fix, tail) if x)


def fix_meaning(previous: str, fixed: str, rng: random.Random) -> str:
    """Reasoning before the corrected statement, after the consistency check objected to `previous`."""
    head = rng.choice(
        [
            "The judge says my statement does not match the problem.",
            "The consistency check found a mismatch.",
            "My statement says something other than the problem.",
        ]
    )
    changes = _what_changes(differences(previous, fixed))
    body = ("Rereading the problem: " + "; ".join(changes) + ".") if changes else "I reread the problem."
    return f"{head} {body} " + rng.choice(
        ["New statement, syntax check first.", "I revise it and check the syntax again."]
    )


def check_meaning(statement: str, rng: random.Random) -> str:
    """Reasoning before the consistency call on a statement that passed the syntax check."""
    read = read_statement(statement)
    if read is None:
        return rng.choice(
            [
                "The syntax check passed. Now the consistency check.",
                "No syntax errors; next, does it mean what the problem says?",
            ]
        )
    return rng.choice(
        [
            "The statement with goal `{g}` passed the syntax check; now I check that it is what the problem asks.",
            "No syntax errors in the statement proving `{g}`. Next: does it mean exactly what the problem says?",
            "`{g}` with these hypotheses passed the syntax check; "
            "the consistency check decides whether it matches the problem.",
        ]
    ).format(g=read[2])
