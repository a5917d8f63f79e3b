"""The function fields of bundled maps: `σ.1` and `σ.toFun` of `σ : ℝ ≃ ℝ` apply σ (Equiv's first field is toFun),
`σ.2`, `σ.invFun` and `σ.symm` apply its inverse; `φ.toFun x` is `φ x` for any map that coerces to a function.
The function and its inverse are not confused."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.lean_statements import thm, verdict_tests

EQ = "(x y : ℝ) (σ : Equiv ℝ ℝ)"


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


MERGE = [
    (
        thm(f"{EQ} (h₀ : ∀ x, σ.1 x = x * 5 - 12) (h₁ : σ.1 (x + 1) = σ.2 x)", "x = 47 / 24"),
        thm(f"{EQ} (h₀ : ∀ x, σ.1 x = 5 * x - 12) (h₁ : σ.1 (x + 1) = σ.2 x)", "x = 47 / 24"),
    ),
    (thm(EQ, "σ.1 x = 3"), thm(EQ, "σ x = 3")),
    (thm(EQ, "σ.toFun x = 3"), thm(EQ, "σ x = 3")),
    (thm(EQ, "σ.2 y = 3"), thm(EQ, "σ.symm y = 3")),
    (thm(EQ, "σ.invFun y = 3"), thm("(x y : ℝ) (σ : ℝ ≃ ℝ)", "σ.symm y = 3")),
    (thm("(φ : ℝ →+* ℝ)", "φ.toFun 2 = 4"), thm("(φ : ℝ →+* ℝ)", "φ 2 = 4")),
]

APART = [
    (thm(EQ, "σ.2 y = 3"), thm(EQ, "σ y = 3")),
    (thm(EQ, "σ.1 (x + 1) = σ.2 x"), thm(EQ, "σ.2 (x + 1) = σ.1 x")),
    (thm(EQ, "σ.symm y = 3"), thm(EQ, "σ.toFun y = 3")),
]


test_bundled_fields_merge, test_function_and_inverse_stay_apart = verdict_tests(MERGE, APART)
