"""Lean 4 theorem statements for SymEq tests, written from their parts, and the two verdicts those tests check."""

from atf.symeq.equivalence import SymEq

# the header the BEq/ProofNet statements carry; names resolve through its `open`s
MATHLIB = "import Mathlib\nopen Fintype Subgroup Set\nopen scoped BigOperators\n\n"


def thm(binders: str, concl: str, header: str = "") -> str:
    """`theorem t <binders> : <concl> := by sorry`, after `header`."""
    return f"{header}theorem t {binders} : {concl} := by sorry"


def merged(symeq: SymEq, a: str, b: str) -> bool:
    return symeq.compare(a, b).equivalent


def apart(symeq: SymEq, a: str, b: str) -> bool:
    """Neither reading order merges the pair."""
    return not symeq.compare(a, b).equivalent and not symeq.compare(b, a).equivalent
