"""Polynomial rings over a concrete commutative ring (`Polynomial ℚ`, `ℤ[X]`, `MvPolynomial σ ℤ`, over `ZMod p`)
are commutative rings in Mathlib, so their `+` and `*` are read up to order and grouping; `R[X]` is notation for
`Polynomial R`. Subtraction, other coefficients, and rings not known to be commutative (matrices) stay apart."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.lean_statements import thm, verdict_tests


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


MAT = "(A B : Matrix (Fin 2) (Fin 2) ℚ)"

MERGE = [
    # inside a set builder SymEq keeps opaque, the key of the term is blind to the order too
    (
        thm("", "Infinite {a : ℤ | Irreducible (X ^ 7 - X * 30 + (a : Polynomial ℚ) : Polynomial ℚ)}"),
        thm("", "Infinite {a : ℤ | Irreducible (X ^ 7 - 30 * X + (a : Polynomial ℚ) : Polynomial ℚ)}"),
    ),
    (
        thm("", "Irreducible (X ^ 3 - X * 3 - 1 : Polynomial ℚ)"),
        thm("", "Irreducible (X ^ 3 - 3 * X - 1 : Polynomial ℚ)"),
    ),
    (
        thm("", "Irreducible (X ^ 3 + X * 3 + 1 : Polynomial ℤ)"),
        thm("", "Irreducible (1 + (3 * X + X ^ 3) : Polynomial ℤ)"),
    ),
    (thm("", "Irreducible (X ^ 2 + 1 : ℚ[X])"), thm("", "Irreducible (X ^ 2 + 1 : Polynomial ℚ)")),
    (thm("(p : ℤ[X]) (q : ℤ[X])", "Irreducible (p * q + X)"), thm("(p : ℤ[X]) (q : ℤ[X])", "Irreducible (X + q * p)")),
    (thm("", "Irreducible (X * 2 + 1 : Polynomial (ZMod 5))"), thm("", "Irreducible (2 * X + 1 : (ZMod 5)[X])")),
]

APART = [
    (
        thm("", "Infinite {a : ℤ | Irreducible (X ^ 7 - X * 30 + (a : Polynomial ℚ) : Polynomial ℚ)}"),
        thm("", "Infinite {a : ℤ | Irreducible (X ^ 7 - 31 * X + (a : Polynomial ℚ) : Polynomial ℚ)}"),
    ),
    (
        thm("", "Irreducible (X ^ 3 - X * 3 - 1 : Polynomial ℚ)"),
        thm("", "Irreducible (X ^ 3 - 4 * X - 1 : Polynomial ℚ)"),
    ),
    (thm("", "Irreducible (X - 3 : Polynomial ℚ)"), thm("", "Irreducible (3 - X : Polynomial ℚ)")),
    (thm("", "Irreducible (X ^ 2 + 1 : ℚ[X])"), thm("", "Irreducible (X ^ 2 + 1 : ℤ[X])")),
    (thm(f"{MAT} (hA : IsUnit A)", "IsUnit (A * B + B)"), thm(f"{MAT} (hA : IsUnit A)", "IsUnit (B * A + B)")),
    (thm("(p q : ℤ[X])", "Irreducible (p * q + X)"), thm("(p q : ℤ[X])", "Irreducible (p * X + q)")),
]


test_commutative_rings_merge, test_order_matters_elsewhere = verdict_tests(MERGE, APART)
