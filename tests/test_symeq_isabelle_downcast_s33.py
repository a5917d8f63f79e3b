"""Isabelle's coercions go up the numeric tower only (the declared coercions `int`, `real`, `of_int`, `of_rat`,
`of_real` of Int.thy, Real.thy and Complex.thy; `nat :: int ⇒ nat` is a function one writes, no coercion). So
`fact m` with `m :: int` (`fact :: nat ⇒ 'a`), `m choose 2` with `m :: real`, or `z powr 2` with `z :: complex`
(Complex_Main's `powr` is real's) are type errors, which SymEq leaves unread as Isabelle rejects them. It read them
with a cast down (`fact (m :: nat)`), a guessed meaning, as Lean's reader already refused to.

Only where every name in the term has the type its `fixes` wrote: Isabelle infers an unannotated bound variable's type
from all its uses (`∀k. k ≤ sqrt n ⟶ P (k + n)` with `P :: nat ⇒ bool` makes k a nat and coerces it in the first
use), which SymEq's left-to-right reading does not undo, so there the cast stays.

Checked against Isabelle's own verdicts (the Isa-AutoFormal `syntax` field): at VERSION 84, 90 candidates read
differently, and each one with a recorded verdict (83) was rejected by Isabelle; no accepted candidate became
unread."""

import pytest

from atf.symeq.equivalence import parse
from tests.isabelle_statements import isa, minif2f_valid_readings, unread


@pytest.mark.parametrize(
    "fixes, shows",
    [
        ("m :: int", "fact m = 2"),
        ("m :: real", "fact m = 2"),
        ("m :: real", "m choose 2 = 3"),
        ("m :: int", "m choose 2 = 3"),
        ("z :: complex", "Im (z powr 2) = 1"),
        ('P :: "int \\<Rightarrow> int" and x :: real', "P (x + 1) = 0"),
    ],
)
def test_a_cast_down_the_tower_is_a_type_error(fixes, shows):
    assert unread(isa(fixes, shows)), parse(isa(fixes, shows), "isabelle")


@pytest.mark.parametrize(
    "fixes, shows",
    [
        ("m :: nat", "fact m = 2"),
        ("m :: int", "fact (nat m) = 2"),
        ("m :: nat and x :: real", "real (fact m) = x"),
        ("m :: int and x :: real", "x + m = 2"),
        # k's type comes from P, and its first use is coerced: Isabelle accepts it
        ('P :: "nat \\<Rightarrow> bool" and n :: nat', "\\<forall>k. k \\<le> sqrt n \\<longrightarrow> P (k + n)"),
    ],
)
def test_casts_up_and_inferred_bound_variables_are_still_read(fixes, shows):
    assert not unread(isa(fixes, shows)), parse(isa(fixes, shows), "isabelle").opaque


def test_every_candidate_read_as_a_cast_down_is_one_isabelle_rejected():
    """miniF2F valid: every candidate with such a type error by SymEq's reading failed Isabelle's check."""
    verdicts = [v for _, v, _, notes in minif2f_valid_readings() if any("which no coercion makes" in n for n in notes)]
    assert len(verdicts) >= 10 and set(verdicts) == {0}, verdicts


# Rings.thy's `class modulo`: Complex_Main instantiates it at nat and int, not at a field


@pytest.mark.parametrize(
    "fixes, shows",
    [("x :: real", "x mod 2 = 1"), ("q :: rat", "(q + 1) mod 3 = 0"), ("x :: real and n :: nat", "n = x mod 5")],
)
def test_mod_of_a_fixed_real_is_a_type_error(fixes, shows):
    assert unread(isa(fixes, shows)), parse(isa(fixes, shows), "isabelle")


@pytest.mark.parametrize(
    "fixes, shows, assumes",
    [
        # numerals and powr leave a type variable of sort {ln, modulo}: Isabelle accepts the polymorphic statement
        ("x :: nat", "(29 powr 13 - 5 powr 13) mod 7 = 3", None),
        # the bound n is not the fixed real n
        ("n :: real", "finite {n. n mod 4 = 0}", None),
        # y's type is inferred: an int lifted by a coercion into the real equation
        ("x :: int", "y mod 100 = 52", ["x powr 2 + 1 = y"]),
        ("n :: int", "n mod 4 = 1", None),
    ],
)
def test_mod_where_isabelle_infers_or_keeps_a_type_variable_is_read(fixes, shows, assumes):
    assert not unread(isa(fixes, shows, assumes)), parse(isa(fixes, shows, assumes), "isabelle").opaque


def test_every_candidate_with_mod_of_a_fixed_real_is_one_isabelle_rejected():
    verdicts = [
        v
        for _, v, _, notes in minif2f_valid_readings()
        if any("the statement fixes, which has none" in n for n in notes)
    ]
    assert len(verdicts) >= 3 and set(verdicts) == {0}, verdicts


# Complex_Main has no arithmetic on functions (HOL-Library.Function_Algebras gives the pointwise one)

FUNS = 'f g z :: "real \\<Rightarrow> real" and x :: real'


@pytest.mark.parametrize("shows", ["f (3 * z) = 7", "z + 1 = 7", "f = 1", "f * g = g", "2 * f = g"])
def test_arithmetic_on_a_function_is_a_type_error(shows):
    assert unread(isa(FUNS, shows)), parse(isa(FUNS, shows), "isabelle")


@pytest.mark.parametrize(
    "shows", ["f x + 1 = 7", "f = (\\<lambda>t. t + 1)", "f (g x) = 2 * x", "(f \\<circ> g) x = 1"]
)
def test_arithmetic_on_function_values_is_read(shows):
    assert not unread(isa(FUNS, shows)), parse(isa(FUNS, shows), "isabelle").opaque
