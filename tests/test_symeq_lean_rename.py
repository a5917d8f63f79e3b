"""Renaming a variable reaches every place Lean reads it: the receiver of a dotted name inside an opaque term
(`H.Normal` next to a commutator SymEq does not parse) and inside a type (`∃ l : T.Eigenvalues, ...`). Two
variables of one type must still not be confused there."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.lean_statements import thm, verdict_tests

GROUP = "{G : Type*} [Group G]"
ENDO = "{𝕜 E : Type*} [RCLike 𝕜] [NormedAddCommGroup E] [InnerProductSpace 𝕜 E]"


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


MERGE = [
    (
        thm(f"{GROUP} (H : Subgroup G)", "H.Normal ↔ ⁅(⊤ : Subgroup G), H⁆ ≤ H"),
        thm(f"{GROUP} (K : Subgroup G)", "K.Normal ↔ ⁅(⊤ : Subgroup G), K⁆ ≤ K"),
    ),
    (
        thm(f"{ENDO} {{T : Module.End 𝕜 E}} {{l : 𝕜}}", "∃ l' : T.Eigenvalues, ‖l - l'‖ < 1"),
        thm(f"{ENDO} {{S : Module.End 𝕜 E}} {{c : 𝕜}}", "∃ m : S.Eigenvalues, ‖c - m‖ < 1"),
    ),
]

APART = [
    (
        thm(f"{GROUP} (H K : Subgroup G)", "H.Normal ↔ ⁅(⊤ : Subgroup G), H⁆ ≤ H"),
        thm(f"{GROUP} (H K : Subgroup G)", "K.Normal ↔ ⁅(⊤ : Subgroup G), H⁆ ≤ H"),
    ),
    (
        thm(f"{ENDO} {{S T : Module.End 𝕜 E}} (hT : IsSelfAdjoint T) {{l : 𝕜}}", "∃ l' : T.Eigenvalues, ‖l - l'‖ < 1"),
        thm(f"{ENDO} {{S T : Module.End 𝕜 E}} (hT : IsSelfAdjoint T) {{l : 𝕜}}", "∃ l' : S.Eigenvalues, ‖l - l'‖ < 1"),
    ),
]


test_renamed_receivers_merge, test_distinct_receivers_stay_apart = verdict_tests(MERGE, APART)
