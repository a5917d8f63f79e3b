"""The types written on variables bound inside an opaque term are part of its text (session 15). `ir.show` prints
binders without types, so inside a construct SymEq keeps opaque, `∀ k : Fin 0, P` (vacuous) and `∀ k : Fin 2, P`
read as one term, and two statements that differ only there merged. Found reading a held-out probe's merges (an
ill-typed mutant there); these cases are written here, valid Lean, with the near misses that must still merge."""

import pytest

from atf.symeq import ir
from atf.symeq.equivalence import SymEq


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=1000)


def perms(body: str, fun: str = "n") -> str:
    return (
        f"theorem t (P : ℕ → ℕ) (hP : P = fun {fun} ↦ {{f : Fin {fun} → Fin {fun} | Bijective f ∧ {body}}}.ncard) "
        ": P 3 = 1 := by sorry"
    )


APART = [
    pytest.param(
        perms("∀ i j : Fin n, ∀ k : Fin 0, i < j → f i < f j"),
        perms("∀ i j : Fin n, ∀ k : Fin 2, i < j → f i < f j"),
        id="vacuous-inner-binder",
    ),
    pytest.param(
        perms("∀ m : ℕ, (m : ℤ) - 1 ≥ -1 ∧ ∀ i : Fin n, f i = i"),
        perms("∀ m : ℤ, (m : ℤ) - 1 ≥ -1 ∧ ∀ i : Fin n, f i = i"),
        id="inner-binder-over-another-type",
    ),
    pytest.param(
        perms("∃ g : Fin n → Fin n, ∀ x : Fin n, f (g x) = x"),
        perms("∃ g : Fin n → Fin n, ∀ x : Fin n, f x = x"),
        id="control-different-body",
    ),
]
MERGE = [
    pytest.param(
        perms("∀ i j : Fin n, ∀ k : Fin 2, i < j → f i < f j"),
        perms("∀ x y : Fin n, ∀ z : Fin 2, x < y → f x < f y"),
        id="bound-names-renamed",
    ),
    pytest.param(
        perms("∀ i j : Fin n, i < j → f i < f j"),
        perms("∀ i j : Fin m, i < j → f i < f j", fun="m"),
        id="type-over-a-renamed-variable",
    ),
]


def test_bound_types_are_positional():
    body = ir.Bind(
        "forall",
        (("k", ir.Sort("Fin n")), ("x", None)),
        ir.App("eq", (ir.Var("k"), ir.Var("x"))),
    )
    assert ir.bound_types(body, {"n": "{0}"}) == "Fin {0}, _"
    assert ir.bound_types(ir.Bind("forall", (("k", None),), ir.Var("k")), {}) == ""  # nothing written: no marker
    nested = ir.Bind("forall", (("m", ir.NAT),), ir.Bind("forall", (("i", ir.Sort("Fin m")),), ir.Var("i")))
    assert ir.bound_types(nested, {}) == f"{ir.NAT}, Fin ·b1"


# ---------------------------------------- `∀ k : S, f k = e` defines f on S only
# A premise `∀ k. f k = e` is inlined as `f = λk. e` only where k ranges over f's whole domain: a subtype binder
# (`k : Set.Icc 1 3` is Lean's `↥(Set.Icc 1 3)`, coerced into `a : ℕ → ℤ`) or a smaller type (`n : ℕ` into
# `f : ℝ → ℝ`) says nothing of f elsewhere, and read as total it made `a 5 = 0` true.


def stmt(hyp: str, concl: str, fun: str = "a : ℕ → ℤ") -> str:
    return f"theorem t ({fun}) (ha : {hyp}) : {concl} := by sorry"


DOMAIN_APART = [
    pytest.param(
        stmt("∀ k : Set.Icc 1 3, a k = 0", "a 5 = 0"), stmt("∀ k : Set.Icc 1 7, a k = 0", "a 5 = 0"), id="set"
    ),
    pytest.param(
        stmt("∀ k : Finset.Icc 1 3, a k = 0", "a 0 = 0"), stmt("∀ k : ℕ, a k = 0", "a 0 = 0"), id="finset-vs-total"
    ),
    pytest.param(
        stmt("∀ k : Set.Icc 1 3, k < 2 → a k = 0", "a 5 = 0"),
        stmt("∀ k : Set.Icc 1 7, k < 2 → a k = 0", "a 5 = 0"),
        id="by-cases",
    ),
    pytest.param(
        stmt("∀ n : ℕ, f n = 0", "f (1 / 2) = 0", fun="f : ℝ → ℝ"),
        stmt("∀ x : ℝ, f x = 0", "f (1 / 2) = 0", fun="f : ℝ → ℝ"),
        id="naturals-into-reals",
    ),
]
DOMAIN_MERGE = [
    pytest.param(stmt("∀ k : ℕ, a k = 0", "a 5 = 0"), stmt("∀ j, a j = 0", "0 = a 5"), id="total"),
    pytest.param(
        "theorem t (n : ℕ) (a : Fin n → ℤ) (ha : ∀ k : Fin n, a k = 0) (x : Fin n) : a x = 0 := by sorry",
        "theorem t (n : ℕ) (a : Fin n → ℤ) (ha : ∀ j : Fin n, a j = 0) (y : Fin n) : 0 = a y := by sorry",
        id="its-own-domain",
    ),
]


@pytest.mark.parametrize("a,b", APART + DOMAIN_APART)
def test_statements_that_differ_stay_apart(symeq, a, b):
    res = symeq.compare(a, b)
    assert not res.equivalent, res.describe()


@pytest.mark.parametrize("a,b", MERGE + DOMAIN_MERGE)
def test_equivalent_statements_still_merge(symeq, a, b):
    res = symeq.compare(a, b)
    assert res.equivalent, res.describe()
