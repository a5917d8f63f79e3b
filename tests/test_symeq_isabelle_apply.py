"""Application in Isabelle/HOL as SymEq reads it (issue 10), from the both-correct pairs of the MATH dev set that stayed
apart as "X applied but not a function" or `opaque (`.

Pure's application `t $ u` needs t of a function type, and HOL's types are disjoint: `fixes h :: real` then `h x`, a
bound number applied (`i pow 3` with i :: nat), a set applied (`B a` with B :: nat set) and `sum S` with S a set
(Groups_Big.thy: `sum :: ('b ⇒ 'a) ⇒ 'b set ⇒ 'a`) fail type inference ("Type unification failed: Clash of types").
Such a proposition is ill-typed and stays one unparsed proposition, never a reading. Application is curried and
left-associative, so `(f a) b` is `f a b`. HOL-Analysis's `M *v v` (Finite_Cartesian_Product.thy, matrix_vector_mult,
infixl "*v" 70) is one operator, not `M * v v`."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.isabelle_statements import thm, unparsed
from tests.lean_statements import verdict_tests

TRUE = 'theorem "True"'


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


H_REAL = "x h :: real"
H_FUN = 'x :: real and h :: "real => real"'
DEF_H = "ALL x. h x = sqrt ((x powr 3 + 72) / 2) + 1"


@pytest.mark.parametrize(
    "fixes,assumes,shows",
    [
        pytest.param(H_REAL, [DEF_H], "h 6 = 13", id="real-applied"),
        pytest.param("num_labels :: nat", [], "num_labels (1, 2) = 5", id="nat-applied-to-a-pair"),
        pytest.param('A B :: "nat set" and a :: nat', [], "card (B a) = 2", id="set-applied"),
        pytest.param('p m :: "real * real"', ["m p p = (1, 2)"], "p = (1, 2)", id="pair-applied"),
        pytest.param("n :: nat", [], "(SUM i \\<in> {1..n}. i pow 3) = 1", id="bound-number-applied"),
        pytest.param('S :: "real set"', [], "sum S = -102", id="sum-of-a-set-alone"),
    ],
)
def test_a_non_function_applied_is_ill_typed(symeq, fixes, assumes, shows):
    assert unparsed(symeq, thm(fixes, assumes, shows))


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(thm(H_FUN, [DEF_H], "h 6 = 13"), id="declared-function"),
        pytest.param(thm("x :: real", ["ALL x. h x = x + 1"], "h 6 = 7"), id="undeclared-name-is-a-function"),
        pytest.param(thm('S :: "real set"', [], "sum (%x. x) S = 3"), id="sum-with-its-function"),
        pytest.param(thm('f :: "real => real"', [], "sum f {1, 2} = 3"), id="sum-of-a-function"),
    ],
)
def test_a_function_applied_is_read(symeq, text):
    assert not unparsed(symeq, text)
    assert not symeq.parse(text).opaque


F3 = 'x :: real and f g :: "real => real"'
MERGE = [
    pytest.param(
        thm(F3, ["ALL x. g x = 2 * x"], "(coefficient g 3) x = 1"),
        thm(F3, ["ALL x. g x = 2 * x"], "coefficient g 3 x = 1"),
        id="application-is-curried",
    ),
    pytest.param(thm(F3, ["bij f"], "f x - (inv f) x = 0"), thm(F3, ["bij f"], "f x = inv f x"), id="inverse-applied"),
    pytest.param(
        thm("x :: real", ["ALL x::real. h x = x + 1"], "h 6 = 7"),
        thm('x :: real and h :: "real => real"', ["ALL y. h y = 1 + y"], "h 6 = 7"),
        id="undeclared-function-of-inferred-type-is-the-declared-one",
    ),
    pytest.param(
        thm('M :: "real^2^2" and v :: "real^2"', ["M *v v = v"], "v = v"),
        thm('M :: "real^2^2" and v :: "real^2"', ["v = M *v v"], "True"),
        id="matrix-vector-product",
    ),
]
APART = [
    pytest.param(
        thm(F3, ["bij f"], "(inv f) x = 0"), thm(F3, ["bij f"], "inv (f x) = 0"), id="inverse-of-the-value-differs"
    ),
    pytest.param(
        thm(F3, [], "(coefficient g 3) x = 1"), thm(F3, [], "coefficient g (3 * x) = 1"), id="curried-is-no-product"
    ),
    pytest.param(
        thm("x :: real", ["ALL x. h x = x + 1"], "h 6 = 7"),
        thm("x :: real", ["ALL x. h x = x + 2"], "h 6 = 7"),
        id="undeclared-functions-that-differ",
    ),
    pytest.param(
        thm(H_REAL, [DEF_H], "h 6 = 13"), thm(H_FUN, [DEF_H], "h 6 = 13"), id="ill-typed-is-no-declared-function"
    ),
    pytest.param(
        # nothing fixes the type of the bound x: Isabelle infers `h :: 'a ⇒ 'a` for a type variable 'a (of sort
        # numeral), a statement about every such type, not about real
        thm("x :: real", ["ALL x. h x = x + 1"], "h 6 = 7"),
        thm('x :: real and h :: "real => real"', ["ALL y. h y = 1 + y"], "h 6 = 7"),
        id="undeclared-function-of-unknown-type-is-no-real-function",
    ),
    pytest.param(
        thm('M :: "real^2^2" and v :: "real^2"', ["M *v v = v"], "True"),
        thm('M :: "real^2^2" and v :: "real^2"', ["M ** M = M"], "True"),
        id="matrix-vector-is-no-matrix-product",
    ),
]


test_genuine_equivalences_merge, test_statements_that_differ_in_meaning_stay_apart = verdict_tests(MERGE, APART)


def test_spaced_matrix_vector_only():
    """`2*v` (unspaced) stays a product: the lexer's `*v` exists only where HOL-Analysis is imported."""
    from atf.symeq.isabelle_frontend import tokenize

    assert ("op", "MATVEC") in tokenize("M *v v = v")
    assert ("op", "MATVEC") not in tokenize("x = 2*v") and ("op", "MATVEC") not in tokenize("x = 2 *var")


# Power.thy: `power2 ("(_\<^sup>2)" [1000] 999)` is HOL's one superscript power; `\<^sup>` is no identifier
# character, so `x\<^sup>3` is no term (it read as x ^ 3 before)
@pytest.mark.parametrize("prop", ["x\\<^sup>3 = 8", "x\\<^sup>n = 8", "x\\<^sup>23 = 8"])
def test_only_the_square_is_a_superscript_power(symeq, prop):
    assert unparsed(symeq, thm("x :: real and n :: nat", [], prop))


def test_the_square_is_a_power(symeq):
    res = symeq.compare(thm("x :: real", [], "x\\<^sup>2 = 4"), thm("x :: real", [], "x ^ 2 = 4"))
    assert res.equivalent, res.describe()


# Orderings.thy, instantiation bool: le_bool_def `P ≤ Q ⟷ P ⟶ Q`, less_bool_def `P < Q ⟷ ¬P ∧ Q` (False < True);
# both read as P ⟷ Q before
PQ = "P Q :: bool and a b c :: real"
BOOL_MERGE = [
    pytest.param(thm(PQ, [], "P < Q"), thm(PQ, [], "~P & Q"), id="less-on-bool"),
    pytest.param(thm(PQ, [], "P <= Q"), thm(PQ, [], "P --> Q"), id="less-eq-on-bool"),
    pytest.param(thm(PQ, [], "Q > P"), thm(PQ, [], "~P & Q"), id="greater-on-bool"),
    pytest.param(thm(PQ, [], "(a < b) < (b < c)"), thm(PQ, [], "b <= a & b < c"), id="less-on-relations"),
    pytest.param(thm(PQ, [], "P ~= Q"), thm(PQ, [], "~(P = Q)"), id="not-equal-on-bool"),
]
BOOL_APART = [
    pytest.param(thm(PQ, [], "P < Q"), thm(PQ, [], "P = Q"), id="less-is-no-iff"),
    pytest.param(thm(PQ, [], "P <= Q"), thm(PQ, [], "P = Q"), id="less-eq-is-no-iff"),
    pytest.param(thm(PQ, [], "P < Q"), thm(PQ, [], "P <= Q"), id="less-is-strict"),
    pytest.param(thm(PQ, [], "P < (a < b)"), thm(PQ, [], "(a < b) < P"), id="less-is-not-symmetric"),
]


test_orders_on_bool_merge, test_orders_on_bool_stay_apart = verdict_tests(BOOL_MERGE, BOOL_APART)


# Transcendental.thy `log :: real ⇒ real ⇒ real`, Orderings.thy `min :: 'a ⇒ 'a ⇒ 'a`: given one argument they are a
# function, and +, /, < are homogeneous, so a function among numbers is a type clash whatever the imports
@pytest.mark.parametrize(
    "fixes,prop",
    [
        ("a :: int and b :: real", "a < log 2938 / log b"),
        ("a :: int and b :: real", "log 2938 / log 8 < a"),
        ("x y :: real", "sqrt (log 2) = x"),
        ("x y :: real", "min (x + y) + 1 = x"),
        ("x y :: real", "2 powr (log 2) = x"),
    ],
)
def test_a_partial_application_among_numbers_is_ill_typed(symeq, fixes, prop):
    assert unparsed(symeq, thm(fixes, [], prop))


@pytest.mark.parametrize("prop", ["log 2 = log b", "log 2 b = a", "(log 2) b = a", "min a b = a"])
def test_a_full_or_function_valued_application_is_no_type_error(symeq, prop):
    assert not unparsed(symeq, thm("a b :: real", [], prop))


# a free variable has one type: `(f a b) f c` is `f a b f c`, f among its own arguments (occurs check); it read as
# a function of four arguments before, and merged with `(g a b) g c`
V3 = 'a b c :: "real^3"'


def test_a_function_applied_to_itself_is_ill_typed(symeq):
    assert unparsed(symeq, thm(V3, [], "(crossproduct a b) crossproduct c = a"))
    assert not unparsed(symeq, thm(V3, [], "crossproduct (crossproduct a b) c = a"))


def test_an_ill_typed_conclusion_keeps_its_premises(symeq):
    """The ill-typed `sum S = 3` stays opaque over S: two statements with it and different premises about S differ."""
    a = thm('S :: "real set"', ["S = {1, 2}"], "sum S = 3")
    b = thm('S :: "real set"', ["S = {3}"], "sum S = 3")
    assert unparsed(symeq, a)
    res = symeq.compare(a, b)
    assert not res.equivalent, res.describe()


# `(log b x) y`, `(gcd A B) D`: a builtin's value is a number (log :: real ⇒ real ⇒ real; gcd :: 'a ⇒ 'a ⇒ 'a at
# A's type), which is no function
@pytest.mark.parametrize(
    "prop", ["log 2 x 3 = 1", "sqrt x 2 = 1", "gcd a b c = 1", "(log 2 x) 3 = 1", "binomial a 2 b = 1"]
)
def test_a_builtin_applied_past_its_arguments_is_ill_typed(symeq, prop):
    assert unparsed(symeq, thm("x :: real and a b c :: nat", [], prop))


def test_an_abandoned_reading_leaves_no_notes(symeq):
    st = symeq.parse(thm("a :: int and b :: real", [], "a < log 2938 / log b"))
    assert [n for n in st.opaque if not n.startswith("unparsed proposition")] == []


@pytest.mark.parametrize(
    "fixes,assumes,shows",
    [
        pytest.param("x :: real and n :: int", ["n > 0"], "x ^ n = 1", id="int-exponent"),
        pytest.param("a :: real and n :: int", [], "a = (1/2) ^ (n - 1)", id="int-expression-exponent"),
        pytest.param("x r :: real", [], "x ^ r = 1", id="real-exponent"),
        pytest.param("x :: real", [], "x ^ (2::int) = 4", id="ascribed-int-exponent"),
    ],
)
def test_a_power_with_an_exponent_that_is_no_nat_is_ill_typed(symeq, fixes, assumes, shows):
    # Power.thy: power :: 'a ⇒ nat ⇒ 'a, and HOL does not coerce int or real to nat (the integer power is powi)
    assert unparsed(symeq, thm(fixes, assumes, shows))


@pytest.mark.parametrize(
    "fixes,shows",
    [
        pytest.param("x :: real and n :: nat", "x ^ n = 1", id="nat-exponent"),
        pytest.param("x :: real and n :: nat", "x ^ (n - 1) = 1", id="nat-expression-exponent"),
        pytest.param("x :: real", "x ^ 2 = 4", id="numeral-exponent"),
        pytest.param("x :: real and n :: int", "x ^ nat n = 1", id="int-made-nat"),
        pytest.param("x :: real", "(ALL n. x ^ n = 1)", id="exponent-typed-by-its-use"),
    ],
)
def test_a_power_with_a_nat_exponent_is_read(symeq, fixes, shows):
    text = thm(fixes, [], shows)
    assert not unparsed(symeq, text) and not symeq.parse(text).opaque
