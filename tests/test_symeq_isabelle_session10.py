"""Isabelle classes found on the MATH dev set in session 10 (issue 10): each has statements that must merge and
near misses that must stay apart (or stay unread)."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.isabelle_statements import thm, unparsed


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


# ---------------------------------------------------------------- a function where a number belongs
# HOL's types are disjoint and Complex_Main's coercions take numbers to numbers (of_nat, of_int, of_real): with
# `fixes x f g :: "real ⇒ real"`, `f x` fails type inference ("Clash of types"), as Isabelle rejects the statement.

ILL_TYPED = [
    pytest.param(thm('x f g :: "real => real"', ["ALL y. f y = 2 * y"], "g (f x) = 4"), id="function-argument"),
    pytest.param(thm('x g :: "real => real"', [], "g x = 3"), id="function-in-conclusion"),
    pytest.param(thm('x :: "real => real" and y :: real', ["y = sqrt x"], "y = 2"), id="function-under-sqrt"),
]


@pytest.mark.parametrize("text", ILL_TYPED)
def test_function_for_number_is_unread(symeq, text):
    assert unparsed(symeq, text)


WELL_TYPED = [
    # x is declared a function but only a bound x is applied: well-typed
    pytest.param(thm('x f :: "real => real"', ["ALL x. f x = 2 * x"], "f 3 = 6"), id="bound-shadows"),
    # nat to real is a coercion (Real.thy: declare [[coercion "of_nat :: nat ⇒ real"]])
    pytest.param(thm('n :: nat and g :: "real => real"', ["ALL y. g y = y + 1"], "g n = 4"), id="nat-coerced"),
    pytest.param(thm('f g :: "real => real"', ["ALL y. f y = g y + 1"], "f 0 = 1"), id="functions-applied"),
]


@pytest.mark.parametrize("text", WELL_TYPED)
def test_well_typed_is_read(symeq, text):
    assert not unparsed(symeq, text)


def test_ill_typed_stays_apart_from_its_reading(symeq):
    # before: `f (g x)` with x :: real ⇒ real was read as if x were a real (a premise that holds), and the statement
    # merged with the well-typed one (found on MATH dev: `fixes x f g :: "real ⇒ real"`)
    good = thm('x :: real and f g :: "real => real"', ["ALL x. f x = x + 1", "ALL x. g x = 2 * x"], "f (g 0) = 1")
    bad = thm(
        'x f g :: "real => real"', ["ALL x. f x = x + 1", "ALL x. g x = 2 * x", "f (g x) = g x + 1"], "f (g 0) = 1"
    )
    assert not symeq.compare(good, bad).equivalent


def test_shadowed_function_name_still_merges(symeq):
    a = thm('x f :: "real => real"', ["ALL x. f x = 2 * x"], "f 3 = 6")
    b = thm('f :: "real => real"', ["ALL t. f t = 2 * t"], "f 3 = 6")
    assert symeq.compare(a, b).equivalent


# ---------------------------------------------------------------- a function variable given at one point
# ∀R. R a = e ⟶ Φ (R a) iff Φ e when R occurs only as R a: some R has R a = e (HOL's functions are total). Found
# on MATH dev: `∀z. P z = …` and `P z * Q z = R z ⊢ R z = …` against the product written out.

POINT_MERGE = [
    pytest.param(
        thm('z :: real and R :: "real => real"', ["R z = z + 1"], "R z * 2 = 4"),
        thm("z :: real", [], "(z + 1) * 2 = 4"),
        id="one-point",
    ),
    pytest.param(
        thm("z :: real", ["ALL z. P z = z + 1", "ALL z. Q z = z - 1", "P z * Q z = R z"], "R z = 3"),
        thm(
            'z :: real and P Q R :: "real => real"',
            ["ALL z. P z = z + 1", "ALL z. Q z = z - 1", "ALL z. R z = P z * Q z"],
            "R z = 3",
        ),
        id="product-at-a-point",
    ),
    pytest.param(
        thm('x :: real and height :: "real => real"', ["height x = 3 * x", "x > 0"], "height x > 1"),
        thm("x :: real", ["x > 0"], "3 * x > 1"),
        id="declared-name",
    ),
]

POINT_APART = [
    # f is also used at 0, where the premise says nothing
    pytest.param(
        thm('x :: real and f :: "real => real"', ["f x = x + 1"], "f 0 = 1"),
        thm("x :: real", [], "x + 1 = 1"),
        id="other-point",
    ),
    pytest.param(
        thm('z :: real and R :: "real => real"', ["R z = z + 1"], "R z * 2 = 4"),
        thm("z :: real", [], "(z + 2) * 2 = 4"),
        id="value",
    ),
    # the x in the conclusion is another x
    pytest.param(
        thm('x :: real and f :: "real => real"', ["f x = 2"], "EX x. f x = 2 & x > 3"),
        thm("x :: real", [], "EX x. x > 3"),
        id="bound-argument",
    ),
    # an undeclared longer name may be a library constant (fib, HOL-Number_Theory): its premise may be false
    pytest.param(
        thm("x :: nat", ["fib x = 5"], "fib x > 4"),
        thm("x :: nat", [], "True"),
        id="undeclared-constant",
    ),
]


@pytest.mark.parametrize("a, b", POINT_MERGE)
def test_point_definition_merges(symeq, a, b):
    assert symeq.compare(a, b).equivalent


@pytest.mark.parametrize("a, b", POINT_APART)
def test_point_definition_apart(symeq, a, b):
    assert not symeq.compare(a, b).equivalent
