"""The judges' prompts. Each asks for a strict answer format that `atf.judge.parsing` reads.

Prompts were written from the task definitions, not tuned on any labelled set.
"""

from __future__ import annotations

from dataclasses import dataclass

from atf.llm import Message

SYSTEM = (
    "You are an expert in mathematics and in Lean 4 with Mathlib. You check whether a Lean 4 theorem "
    "statement is a faithful formalization of a natural-language math problem: the same objects and types, "
    "the same hypotheses, the same quantifiers, the same conclusion, nothing added and nothing dropped. "
    "Proofs do not matter (`sorry` is fine). Answer only in the format you are asked for."
)


VERDICT_PREFIX = "VERDICT:"
ANSWER_PREFIX = "ANSWER:"
RATING_PREFIX = "RATING:"
WHY_LABEL = "WHY:"
ALIGN_PREFIX = '{"findings": ['


def _pair(problem: str, statement: str) -> str:
    return f"Natural-language problem:\n{problem.strip()}\n\nLean 4 statement:\n```lean\n{statement.strip()}\n```\n"


def vote_messages(problem: str, statement: str) -> list[Message]:
    user = (
        _pair(problem, statement)
        + "\nIs the Lean 4 statement consistent with the problem? Answer in exactly this format, nothing else:\n"
        "VERDICT: consistent\n"
        "REASONS:\n"
        "- <one short reason per line>\n\n"
        "Write `VERDICT: inconsistent` instead when anything differs, and say in REASONS what differs."
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


@dataclass(frozen=True)
class Property:
    """One operable atomic property (OAP): asked on its own, answered yes (holds) or no.

    name: identifier used in scores and feedback.
    group: "LP" (logical preservation), "MC" (mathematical consistency) or "FQ" (formal quality).
    question: the yes/no question; "yes" always means the property holds.
    hint: what to fix when it fails, as told to the formalizer.
    """

    name: str
    group: str
    question: str
    hint: str


OAP_PROPERTIES: tuple[Property, ...] = (
    Property(
        "pre_arg_structure",
        "LP",
        "Does the Lean statement keep the problem's premise/argument structure: every object the problem introduces "
        "is a variable, every assumption is a hypothesis, the goal is the conclusion, and nothing is moved between "
        "hypotheses and conclusion?",
        "check that every object is a variable, every assumption a hypothesis, the goal the conclusion",
    ),
    Property(
        "quantification",
        "LP",
        "Are the quantifiers preserved: each 'for all', 'there exists' and 'there is a unique' becomes the matching "
        "∀, ∃ or ∃! over the same domain, in the same order and scope?",
        "check each ∀/∃/∃! and its domain, order and scope",
    ),
    Property(
        "formula",
        "LP",
        "Does the Lean conclusion state the same formula as the problem asks for (the same equation, inequality, "
        "value or property)?",
        "check that the conclusion is the formula the problem asks for",
    ),
    Property(
        "relation",
        "LP",
        "Are the relations preserved (=, ≠, <, ≤, >, ≥, divides, ∈, ⊆, ...), with the same direction and strictness?",
        "check =, ≠, <, ≤, ∣, ∈ and their direction/strictness",
    ),
    Property(
        "concept",
        "MC",
        "Is every mathematical concept (prime, continuous, group, real number, integer, ...) mapped to the right Lean "
        "or Mathlib notion and type, over the right number system (ℕ, ℤ, ℚ, ℝ, ℂ)?",
        "check the Mathlib notions and number types (ℕ/ℤ/ℚ/ℝ/ℂ)",
    ),
    Property(
        "constant",
        "MC",
        "Are all numbers and specific values of the problem kept exactly, with none changed, dropped or added?",
        "check every number of the problem",
    ),
    Property(
        "operator",
        "MC",
        "Are the operations right (+, -, *, /, powers, roots, sums, products, functions), respecting Lean's semantics "
        "such as truncated subtraction and division on ℕ?",
        "check the operations, incl. ℕ subtraction/division",
    ),
    Property(
        "conciseness",
        "FQ",
        "Is the Lean statement concise: no redundant or unused hypotheses or variables and no needless complication "
        "beyond what the problem states?",
        "drop redundant or unused hypotheses",
    ),
    Property(
        "logical_consistency",
        "FQ",
        "Are the hypotheses of the Lean statement consistent with each other (not contradictory, so the theorem is "
        "not vacuously true), and is the statement not trivially true by construction?",
        "check the hypotheses are not contradictory or trivial",
    ),
)

OAP_GROUPS = ("LP", "MC", "FQ")


def property_messages(problem: str, statement: str, prop: Property) -> list[Message]:
    user = (
        _pair(problem, statement) + f"\nQuestion: {prop.question}\n"
        f"Answer in exactly this format, nothing else:\n{ANSWER_PREFIX} yes or no\n"
        f"{WHY_LABEL} <one line: what in the Lean statement makes the answer so>"
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def rating_messages(problem: str, statement: str) -> list[Message]:
    user = (
        _pair(problem, statement) + "\nRate how faithfully the Lean 4 statement formalizes the problem:\n"
        "5 = exactly faithful; 4 = faithful up to a harmless difference; 3 = partly faithful, one real difference; "
        "2 = several real differences; 1 = unrelated or wrong.\n"
        f"Answer in exactly this format, nothing else:\n{RATING_PREFIX} <1-5>"
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def align_messages(problem: str, statement: str) -> list[Message]:
    user = (
        _pair(problem, statement)
        + "\nAlign the problem with the Lean statement, then label each alignment. For every part of the problem "
        "(an object, an assumption, the goal) and every hypothesis or term of the Lean statement, write one finding:\n"
        '- "informal": an exact quote from the problem (null if the Lean part has no counterpart in the problem)\n'
        '- "lean": an exact quote from the Lean statement (null if the problem part is missing from the Lean)\n'
        '- "label": "faithful", "unfaithful" (a real difference) or "undecidable" (the problem is ambiguous)\n'
        '- "explanation": one short sentence\n'
        '- when a quote occurs more than once in its text: "informal_occurrence" / "lean_occurrence", which one '
        "you mean (1 = first)\n"
        "Answer with one JSON object and nothing else, for example:\n"
        '{"findings": [{"informal": "n is a positive integer", "lean": "(n : ℕ) (hn : 0 < n)", "label": "faithful", '
        '"explanation": "positivity is kept as a hypothesis"}]}'
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]
