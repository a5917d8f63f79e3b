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


# ---------------------------------------------------------------- ℤ and ℕ over a type inferred later; set-builder logic
# Isabelle infers types over a whole proposition: in `{p. ∃x y. p = (x, y) ∧ x ∈ ℤ}` with p a pair of ints, x is an
# int and `x ∈ ℤ` holds (Int.thy: ℤ = range of_int, of_int the identity on int). Then the one-point rule
# (`(∃x. x = t ∧ P x) = P t`), `x ∈ {y. P y} = P x` (mem_Collect_eq), `(fst p, snd p) = p` (surjective_pairing) and
# `{x ∈ UNIV. P x} = {x. P x}` read the lattice points of MATH dev 917 as the pairs themselves.

LATTICE = "(int * int) set"

SETS_MERGE = [
    pytest.param(
        thm(
            f'L :: "{LATTICE}"',
            ["L = {p. (EX x y. p = (x, y) & x \\<in> \\<int> & y \\<in> \\<int>)}"],
            "card {p \\<in> L. fst p ^ 2 + snd p ^ 2 = 25} = 12",
        ),
        thm("n :: nat", [], "card {(x, y) :: int * int. x ^ 2 + y ^ 2 = 25} = 12"),
        id="lattice-points",
    ),
    pytest.param(
        thm(
            f'L :: "{LATTICE}"',
            ["L = {(x, y). x \\<in> \\<int> & y \\<in> \\<int>}", "ALL p \\<in> L. d p = fst p ^ 2 + snd p ^ 2"],
            "card {p \\<in> L. d p = 25} = 12",
        ),
        thm("n :: nat", [], "card {(x, y) :: int * int. x ^ 2 + y ^ 2 = 25} = 12"),
        id="lattice-points-defined-on-all",
    ),
    pytest.param(
        thm("y :: int", [], "EX x. x = y + 1 & x > 3"),
        thm("y :: int", [], "y + 1 > 3"),
        id="one-point",
    ),
    pytest.param(
        thm("a :: real", ["a \\<in> {x. x > 2}"], "a > 1"),
        thm("a :: real", ["a > 2"], "a > 1"),
        id="mem-collect",
    ),
]

SETS_APART = [
    # x of type real: x ∈ ℤ is a condition (of_int ⌊x⌋ = x)
    pytest.param(
        thm(
            'L :: "(real * real) set"',
            ["L = {p. (EX x y. p = (x, y) & x \\<in> \\<int> & y \\<in> \\<int>)}"],
            "card {p \\<in> L. fst p ^ 2 + snd p ^ 2 = 25} = 12",
        ),
        thm("n :: nat", [], "card {(x, y) :: real * real. x ^ 2 + y ^ 2 = 25} = 12"),
        id="real-lattice",
    ),
    # ℕ over int is the x ≥ 0 (of_nat's range)
    pytest.param(
        thm("y :: int", [], "EX x. x = y & x \\<in> \\<nat>"),
        thm("y :: int", [], "True"),
        id="nats-over-int",
    ),
    # the one-point rule substitutes the value it pins
    pytest.param(
        thm("y :: int", [], "EX x. x = y + 1 & x > 3"),
        thm("y :: int", [], "y > 3"),
        id="one-point-value",
    ),
    pytest.param(
        thm("a :: real", ["a \\<in> {x. x > 2}"], "a > 1"),
        thm("a :: real", ["a > 1"], "a > 1"),
        id="mem-collect-body",
    ),
]


@pytest.mark.parametrize("a, b", SETS_MERGE)
def test_sets_merge(symeq, a, b):
    assert symeq.compare(a, b).equivalent


@pytest.mark.parametrize("a, b", SETS_APART)
def test_sets_apart(symeq, a, b):
    assert not symeq.compare(a, b).equivalent


def test_ints_of_later_typed_variable_is_true(symeq):
    st = symeq.parse(thm(f'L :: "{LATTICE}"', ["L = {p. (EX x y. p = (x, y) & x \\<in> \\<int>)}"], "card L = 0"))
    assert "floor" not in str(st)
