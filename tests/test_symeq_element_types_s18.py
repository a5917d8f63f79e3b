"""The type of a set's elements is the type of what is tested against it, in both languages.

`IsLeast s a` (Mathlib Order/Bounds/Basic.lean: `def IsLeast (s : Set α) (a : α) : Prop`) has one α: where the
elements are no numbers (sets under ⊆) it stays one opaque proposition, and SymEq elaborated s twice there, once to
learn α and once for the call, so the bound's type was linked to the first copy only. In
`IsLeast {T | 3 / 2 ∈ T} ({3 / 2} : Set ℝ)` the bound says T : Set ℝ, so the 3 / 2 inside is real as it is for Lean;
read apart it was a literal of a type of its own, and the same statement with `(3 / 2 : ℝ)` written out stayed apart.

Isabelle's `x ∈ {y :: int. P y}`: `op ∈ :: 'a ⇒ 'a set ⇒ bool` (Set.thy), so x is an int (a type constraint, no
coercion). SymEq substituted x into P without its type: `∃x. x ∈ {y::int. 2 * y = 3}` (false) was read with x real
and merged with `∃x::real. 2 * x = 3` (true)."""

import pytest

from atf.symeq.equivalence import SymEq

H = "import Mathlib\nopen Real\n"


def same_lean(a: str, b: str) -> bool:
    return (
        SymEq("lean", timeout_ms=1000)
        .compare(f"{H}theorem t : {a} := by sorry", f"{H}theorem t : {b} := by sorry")
        .equivalent
    )


def same_isabelle(a: str, b: str) -> bool:
    t = 'theorem\nfixes n :: real\nassumes h0 : "n > 0"\nshows "{}"'
    return SymEq("isabelle", timeout_ms=1000).compare(t.format(a), t.format(b)).equivalent


def test_the_bound_types_the_set_it_is_the_least_of():
    assert same_lean("IsLeast {T | 3 / 2 ∈ T} ({3 / 2} : Set ℝ)", "IsLeast {T | (3 / 2 : ℝ) ∈ T} {3 / 2}")


@pytest.mark.parametrize(
    "a,b",
    [
        ("IsLeast {T | 3 / 2 ∈ T} ({1} : Set ℝ)", "IsLeast {T | 1 ∈ T} ({1} : Set ℝ)"),  # 3 / 2 is no 1
        ("IsLeast {T | 3 / 2 ∈ T} ({3 / 2} : Set ℝ)", "IsLeast {T | 3 / 2 ∈ T} ({2 / 3} : Set ℝ)"),
        ("IsLeast {T | 3 / 2 ∈ T} ({3 / 2} : Set ℝ)", "IsGreatest {T | 3 / 2 ∈ T} ({3 / 2} : Set ℝ)"),
    ],
)
def test_another_bound_or_order_is_another_statement(a, b):
    assert not same_lean(a, b)


@pytest.mark.parametrize(
    "a,b",
    [
        (r"\<exists>x. x \<in> {y::int. 2 * y = 3}", r"\<exists>x::int. 2 * x = 3"),
        (r"card {x. x \<in> {y::int. 0 < y \<and> y < n}} = 3", r"card {x::int. 0 < x \<and> x < n} = 3"),
    ],
)
def test_isabelle_the_element_has_the_binders_type(a, b):
    assert same_isabelle(a, b)


@pytest.mark.parametrize(
    "a,b",
    [
        ("∃x. x ∈ {y::int. 2 * y = 3}", "∃x::real. 2 * x = 3"),
        # n = 3 / 2: the real x = 0.6 is one, no integer is
        ("∃x. x ∈ {y::int. 2 * y < n} ∧ 2 * x > 1", "∃x::real. 2 * x < n ∧ 2 * x > 1"),
    ],
)
def test_isabelle_an_integer_element_is_no_real_one(a, b):
    assert not same_isabelle(a, b)
