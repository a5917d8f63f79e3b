"""Isabelle has no numeric default: a type that no binder, signature or literal fixes stays a type variable, with the
sort its operations need, and a stored theorem holds for every type of that sort (its free type variables are
generalized). `theorem "x - 1 + 1 = x"` is about 'a::{minus,one,plus}: false for nat at x = 0, and `+`'s and `-`'s
sorts carry no axioms at all. SymEq read such a type as real, so that statement merged with True and with
`fixes x :: int shows "x - 1 + 1 = x"` (the 14th class of session 27's probes). It is now an uninterpreted sort whose
operations are uninterpreted functions: equivalences proved for every interpretation hold at every instance, and
nothing is proved from real arithmetic that the sort does not have."""

import pytest

from atf.symeq import ir
from atf.symeq.equivalence import SymEq
from tests.isabelle_statements import thm

TRUE = 'theorem "True"'


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


APART = [
    pytest.param('theorem "x - 1 + 1 = x"', TRUE, id="nat-counterexample"),
    pytest.param('theorem "x - 1 + 1 = x"', thm("x :: int", [], "x - 1 + 1 = x"), id="typed-at-int"),
    pytest.param('theorem "x - 1 + 1 = x"', thm("x :: real", [], "x - 1 + 1 = x"), id="typed-at-real"),
    pytest.param('theorem "x / 2 * 2 = x"', TRUE, id="division"),
    pytest.param('theorem "a + b = b + a"', TRUE, id="commutativity-is-no-axiom-of-plus"),
    pytest.param('theorem "x = 0.5 \\<Longrightarrow> 2 * x = 1"', TRUE, id="decimal"),
    pytest.param('theorem "prime p \\<Longrightarrow> p > 1"', TRUE, id="prime-on-any-semidom"),
    pytest.param('theorem "(\\<Sum>k = 1..10. k) = 55"', TRUE, id="interval-index"),
    # the bound names of `∀` are typed by their body, not by the `fixes` of the same names
    pytest.param(
        thm("P Q :: real", ["\\<forall> P Q. P * Q = (P + Q) / 2"], "P * Q = 1"),
        thm("P Q :: real", ["\\<forall> P Q :: real. P * Q = (P + Q) / 2"], "P * Q = 1"),
        id="bound-names-shadow-the-fixes",
    ),
    # numerals alone: `2 ^ n = 32` is at the numerals' type, powr's is real
    pytest.param(thm("n :: nat", [], "2 powr n = 32"), thm("n :: nat", [], "2 ^ n = 32"), id="numerals-alone"),
    # Transcendental.thy's `exp`, `sin`, `cos`, `tan` (real_normed_algebra_1, banach) and `ln` (class ln) are
    # polymorphic, real and complex instances; Archimedean_Field.thy's `floor` is on floor_ceiling (real, rat)
    pytest.param('theorem "exp x = 1 \\<Longrightarrow> x = 0"', TRUE, id="exp-at-complex"),
    pytest.param('theorem "sin x \\<le> 1"', thm("x :: real", [], "sin x \\<le> 1"), id="sin"),
    pytest.param('theorem "ln x = 0"', thm("x :: real", [], "ln x = 0"), id="ln"),
    pytest.param('theorem "floor x = 2"', thm("x :: real", [], "floor x = 2"), id="floor"),
    # `x + 3` and `3 + x`: `numeral`'s class is a semigroup under +, not a commutative one
    pytest.param(
        'theorem assumes "x + 3 = 5" shows "x = 2"', 'theorem assumes "3 + x = 5" shows "x = 2"', id="no-commutation"
    ),
]

MERGE = [
    pytest.param('theorem "x - 1 + 1 = x"', 'theorem "y - 1 + 1 = y"', id="renamed"),
    pytest.param('theorem "a + b = b + a"', 'theorem "b + a = a + b"', id="equality-is-symmetric"),
    pytest.param(
        'theorem assumes "x + 3 = 5" shows "x = 2"', 'theorem assumes "x + 3 = 5" shows "2 = x"', id="symmetric-goal"
    ),
    pytest.param('theorem assumes "x > 3" shows "3 < x"', 'theorem assumes "3 < x" shows "x > 3"', id="greater"),
    # a type fixed anywhere is the type everywhere it is unified (HM inference over the whole proposition)
    pytest.param('theorem "(x::real) - 1 + 1 = x"', TRUE, id="typed-once-inside"),
    pytest.param(thm("x :: real", [], "x / 2 * 2 = x"), TRUE, id="typed-by-fixes"),
    pytest.param(thm("n :: nat", [], "(2::int) ^ n > 0"), TRUE, id="typed-numeral"),
    pytest.param('theorem "sin (x::real) \\<le> 1"', TRUE, id="typed-sin"),
    pytest.param('theorem "exp x > (0::real)"', TRUE, id="typed-by-the-other-side"),
    pytest.param('theorem "sin x = 0"', 'theorem "sin y = 0"', id="polymorphic-renamed"),
]


@pytest.mark.parametrize("a,b", APART)
def test_a_type_variable_is_no_guessed_number_type(symeq, a, b):
    res = symeq.compare(a, b)
    assert not res.equivalent, res.describe()


@pytest.mark.parametrize("a,b", MERGE)
def test_what_holds_at_every_type_still_merges(symeq, a, b):
    res = symeq.compare(a, b)
    assert res.equivalent, res.describe()


def test_independent_type_variables_are_sorts_of_their_own(symeq):
    st = symeq.parse('theorem "x + 1 = 2 \\<and> y * 3 = (4::int) \\<and> z * 2 = 6"')
    assert st.variables["y"] == ir.INT
    assert isinstance(st.variables["x"], ir.Sort) and isinstance(st.variables["z"], ir.Sort)
    assert st.variables["x"] != st.variables["z"]


def test_a_contradiction_at_a_type_variable_is_no_vacuity(symeq):
    # `∀ P Q :: real. P * Q = (P + Q) / 2` is false (P = Q = 1), so the statement is vacuous; untyped, the premise is
    # about a type of its own, where some interpretation of * and / satisfies it
    typed = thm("P Q :: real", ["\\<forall> P Q :: real. P * Q = (P + Q) / 2"], "3 * (6 * 8) = (5::real)")
    assert symeq.is_vacuous(symeq.parse(typed))
    assert not symeq.is_vacuous(symeq.parse(typed.replace("P Q :: real.", "P Q.")))


def test_a_pattern_with_a_domain_has_the_domain_element_type(symeq):
    # Set.thy: `{(x, y) ∈ A. P}` is `{p. p ∈ A ∧ (case p of (x, y) ⇒ P)}`: 2 < 3 is compared at int, and is true
    a = thm('A :: "(int * int) set"', [], "(2, 3) \\<in> {(x, y) \\<in> A. x < y}")
    st = symeq.parse(a)
    assert not any(isinstance(getattr(x, "ty", None), ir.Sort) for x in ir.walk(st.conclusion)), ir.show(st.conclusion)
    assert symeq.compare(a, thm('A :: "(int * int) set"', [], "(2, 3) \\<in> A")).equivalent


# Which names a statement's type variables have is no part of its meaning (a theorem holds at every instance): the
# inferred ones are named by order of first use (`'?1`, `'?2`), so swapping two conjuncts swaps them, and a written
# `'a` may be a `'b` elsewhere. A one-to-one renaming, as the matched variables pair them, compares the statements.
TYPE_RENAMED_MERGE = [
    pytest.param('theorem "x + 1 = 2 \\<and> y * 3 = 4"', 'theorem "y * 3 = 4 \\<and> x + 1 = 2"', id="swapped"),
    pytest.param('theorem "x + 1 = 2 \\<and> y * 3 = 4"', 'theorem "b * 3 = 4 \\<and> a + 1 = 2"', id="renamed-too"),
    pytest.param(
        thm('x :: "\'a::field"', [], "x + 1 > x"), thm('y :: "\'b::field"', [], "y < y + 1"), id="written-names"
    ),
]
TYPE_RENAMED_APART = [
    pytest.param('theorem "x + 1 = 2 \\<and> y * 3 = 4"', 'theorem "y * 3 = 4 \\<and> x + 1 = 3"', id="other-value"),
    # one type for both against two: no one-to-one renaming pairs them
    pytest.param('theorem "x + 1 = 2 \\<and> y * 3 = 4"', 'theorem "x + y = 2 \\<and> y * 3 = 4"', id="one-type"),
    pytest.param(
        thm('x :: "\'a::field"', [], "x * 2 = x + x"), thm('y :: "\'b::ring"', [], "y * 2 = y + y"), id="other-sort"
    ),
]


@pytest.mark.parametrize("a,b", TYPE_RENAMED_MERGE)
def test_type_variables_are_renamed_to_match(symeq, a, b):
    res = symeq.compare(a, b)
    assert res.equivalent, res.describe()


@pytest.mark.parametrize("a,b", TYPE_RENAMED_APART)
def test_a_type_variable_renaming_is_one_to_one(symeq, a, b):
    res = symeq.compare(a, b)
    assert not res.equivalent, res.describe()


def test_the_type_variables_of_one_statement_stay_apart_under_renaming():
    from atf.symeq.equivalence import _type_variable_renaming, _type_variables, parse

    a = parse('theorem "x + 1 = 2 \\<and> y * 3 = 4 \\<and> 2 + 3 = 5"', "isabelle")
    b = parse('theorem "2 + 3 = 5 \\<and> y * 3 = 4 \\<and> x + 1 = 2"', "isabelle")
    renaming = _type_variable_renaming(a, b, {"x": "x", "y": "y"}, _type_variables(a), _type_variables(b))
    assert renaming is not None
    full = {n: renaming.get(n, n) for n in ("'?1", "'?2", "'?3")}
    # B's three type variables go to A's three, one each: x's and y's as the variables pair them, the numerals' own
    # type to the one no variable pairs
    assert sorted(full.values()) == ["'?1", "'?2", "'?3"]
    assert all(full[b.variables[n].name] == a.variables[n].name for n in ("x", "y"))
    assert SymEq("isabelle").compare(a.source, b.source).equivalent


def test_nested_polymorphic_functions_are_read_once(elaborations):
    """A real argument of `sin` is not read a second time at real: `sin (sin (… x))` was read 2^depth times (6 s at
    depth 16). The elaborations are counted, not timed."""
    from atf.symeq.equivalence import parse

    for depth in (8, 16):
        elaborations.clear()
        st = parse('theorem fixes x :: real shows "' + "sin (" * depth + "x" + ")" * depth + ' = 0"', "isabelle")
        assert st.variables["x"] == ir.REAL
        assert len(elaborations) <= 3 * depth
