"""Isabelle inner syntax the SymEq front-end reads as Isabelle/HOL does (issue 10), from the both-correct pairs of the
MATH dev set that stayed apart as `unparsed` or `opaque`: operators written with a subscript, the priorities of
application and `\\<^sup>2`, relations as operands, truth values that are numbers. One section per class: the
genuine equivalence merges, the near miss stays apart, and a text Isabelle rejects is never read as something else
(it stays one unparsed proposition)."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.isabelle_statements import thm, unparsed
from tests.lean_statements import verdict_tests

TRUE = 'theorem "True"'
SUB_R, SUB_V = "*\\<^sub>R", "*\\<^sub>v"
SQ = "\\<^sup>2"


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


def stmt(prop: str) -> str:
    return f'theorem "{prop}"'


# ---------------------------------------- operators with a subscript
# Real_Vector_Spaces.thy: `scaleR :: real ⇒ 'a ⇒ 'a (infixr "*\<^sub>R" 75)`, on real `a *\<^sub>R x = a * x`
# (real_scaleR_def), on pairs and `real^n` component by component (scaleR_prod_def, scaleR_vec_def); `x /\<^sub>R r`
# is `inverse r *\<^sub>R x`. The symbol was dropped, so `p *\<^sub>R M` read as `p * R M` (R a new function).

V = 'p q :: real and v w :: "real^2"'
PAIR = 'p :: real and v :: "real * real"'
M2 = 'M N :: "real^2^2" and p q :: real'
SCALE_MERGE = [
    pytest.param(
        thm(V, ["v = vector [1, 2]"], f"w = p {SUB_R} v + q {SUB_R} v"),
        thm(V, ["v = vector [1, 2]"], "w = vector [p + q, 2 * (p + q)]"),
        id="scaleR-on-vectors-by-component",
    ),
    pytest.param(thm("p x :: real", [], f"p {SUB_R} x = x * p"), TRUE, id="scaleR-on-real-is-times"),
    pytest.param(
        thm(PAIR, ["p = 2", "v = (1, 3)"], f"2 {SUB_R} p {SUB_R} v = (4, 12)"), TRUE, id="scaleR-is-right-associative"
    ),
    pytest.param(thm(PAIR, ["p = 2", "v = (4, 6)"], "v /\\<^sub>R p = (2, 3)"), TRUE, id="divideR-is-inverse-scale"),
    pytest.param(
        thm(M2, [f"M ** M = p {SUB_R} M + q {SUB_R} N"], "p = 4 & q = 1"),
        thm(M2, [f"M ** M = p {SUB_R} M + q {SUB_R} N"], "(p, q) = (4, 1)"),
        id="matrix-product-is-a-function",
    ),
]
SCALE_APART = [
    pytest.param(
        thm('p M :: real and R :: "real => real"', [], f"p {SUB_R} M = 1"),
        thm('p M :: real and R :: "real => real"', [], "p * R M = 1"),
        id="scaleR-is-no-product-with-R",
    ),
    pytest.param(thm(PAIR, ["p = 2", "v = (1, 3)"], f"p {SUB_R} v = (2, 3)"), TRUE, id="scaleR-scales-both"),
    pytest.param(
        thm(M2, [], "M ** M = N"),
        thm(M2, [], "M * M = N"),
        id="matrix-product-is-not-componentwise",
    ),
    pytest.param(
        thm('M :: "real^2^2" and v w :: "real^2"', [], f"M {SUB_V} v = w"),
        thm('M :: "real^2^2" and v w :: "real^2"', [], "M * v = w"),
        id="matrix-vector-product-is-its-own",
    ),
]


def test_an_unknown_subscripted_operator_does_not_parse(symeq):
    assert unparsed(symeq, thm("p x y :: real", [], "x +\\<^sub>R p = y"))
    assert not unparsed(symeq, thm("p x y :: real", [], f"x = p {SUB_R} y"))


@pytest.mark.parametrize("prop", ["x\\<^sup>+ y = 1", "(x)\\<^sub>1 = y", "x\\<^bsub>y\\<^esub> = 1"])
def test_a_script_that_is_no_name_and_no_square_does_not_parse(symeq, prop):
    # the control symbol was dropped: `x\<^sup>+ y` read as `x + y`
    assert unparsed(symeq, thm("x y :: real", [], prop))
    assert not unparsed(symeq, thm("x\\<^sub>1 y :: real", [], "x\\<^sub>1 + y\\<^sup>2 = 1"))


# ---------------------------------------- application and \<^sup>2
# Pure's grammar: application is `logic[1000] cargs[1000] => _applC (999)`; Power.thy: power2 `("(_\<^sup>2)" [1000]
# 999)`. A squared term has priority 999, so it is neither a function nor an argument without parentheses:
# `f x\<^sup>2` is no term (it read as `f (x\<^sup>2)`), `x\<^sup>2\<^sup>2` neither.

F = 'f :: "real => real" and x :: real'
POW_MERGE = [
    pytest.param(thm(F, [], f"(f x){SQ} = 1"), thm(F, [], "f x ^ 2 = 1"), id="squared-application"),
    pytest.param(thm(F, [], f"f (x{SQ}) = 1"), thm(F, [], "f (x * x) = 1"), id="application-to-a-square"),
    pytest.param(thm(F, [], f"- x{SQ} + (f 1){SQ} * 0 = -(x * x)"), TRUE, id="square-in-arithmetic"),
]
POW_APART = [
    pytest.param(thm(F, [], f"f x{SQ} = 1"), thm(F, [], f"f (x{SQ}) = 1"), id="square-is-no-argument"),
    pytest.param(thm(F, [], f"f x{SQ} = 1"), thm(F, [], f"(f x){SQ} = 1"), id="square-is-not-of-the-application"),
]


@pytest.mark.parametrize("prop", [f"f x{SQ} = 1", f"f{SQ} x = 1", f"x{SQ}{SQ} = 1", f"f 1{SQ} + x = 1"])
def test_a_square_without_parentheses_is_no_application(symeq, prop):
    assert unparsed(symeq, thm(F, [], prop))


# ---------------------------------------- relations and truth values
# HOL.thy: `=` is infixl 50 ([50, 51] 50); Orderings.thy: `<`, `≤` are `("(_/ < _)" [51, 51] 50)`, non-associative,
# as are ≠, ∈, dvd. `a < b < c` is no term, `a = b = c` is `(a = b) = c`, a type error on numbers (bool is no
# numeral type and HOL has no coercion to bool): both read as the chain `a < b ∧ b < c` before.

R3 = "a b c :: real"
REL_MERGE = [
    pytest.param(thm(R3, [], "a = b = (b = a)"), TRUE, id="equality-of-truth-values-is-left-associative"),
    pytest.param(thm(R3, [], "a < b = (b > a)"), TRUE, id="relation-then-equality"),
    pytest.param(
        thm("n :: nat", [], "(LEAST k::nat. 2 < k) = n"),
        thm("n :: nat", [], "n = (LEAST k::nat. k > 2)"),
        id="parenthesised-least",
    ),
]
REL_APART = [
    pytest.param(thm(R3, [], "a = b = c"), thm(R3, [], "a = b & b = c"), id="equality-chain-is-ill-typed"),
    pytest.param(thm(R3, [], "a <= b <= c"), thm(R3, [], "a <= b & b <= c"), id="order-chain-is-no-term"),
    pytest.param(thm(R3, [], "a = b < c"), thm(R3, [], "a = b & b < c"), id="mixed-chain-is-no-term"),
    pytest.param(
        thm("n :: nat", [], "LEAST k::nat. 2 < k = n"),
        thm("n :: nat", [], "(LEAST k::nat. 2 < k) = n"),
        id="least-body-takes-the-equation",
    ),
]


@pytest.mark.parametrize(
    "fixes,prop",
    [
        (R3, "a < b < c"),
        (R3, "a = b = c"),
        (R3, "a \\<in> {b} = c"),
        ("n :: nat", "LEAST k::nat. 2 < k = n"),
        ("n :: nat", "LEAST k::nat. 2 < k"),
        ("n :: nat", "n = 1 & 3"),
        ("a :: real", "GREATEST p. EX x y. p = x * y = 2 / 3"),
    ],
)
def test_ill_formed_relations_stay_unparsed(symeq, fixes, prop):
    assert unparsed(symeq, thm(fixes, [], prop))


@pytest.mark.parametrize("prop", ["a < b = (b > a)", "(a = b) = (b = a)", "a = b & b < c", "(a < b) = False"])
def test_well_formed_relations_parse(symeq, prop):
    assert not unparsed(symeq, thm(R3, [], prop))


# ---------------------------------------- Max, Min, LEAST and GREATEST of a set literal
# Lattices_Big.thy: Max_singleton `Max {x} = x`, Max_insert `finite A ⟹ A ≠ {} ⟹ Max (insert x A) = max x (Max A)`
# (Min alike); `{a, b}` is `insert a {b}`, finite and nonempty; Least_Min `(LEAST x. P x) = Min {x. P x}` for such a
# set. They were one uninterpreted function of the set.

AB = "a b :: real"
EXTREMUM_MERGE = [
    pytest.param(
        thm("A x y :: real", ["A = x * y"], "Max {A} = 9"),
        thm("A x y :: real", ["A = x * y"], "A = 9"),
        id="max-of-a-singleton",
    ),
    pytest.param(thm(AB, [], "Min {a, b, 3} = 2"), thm(AB, [], "min a (min b 3) = 2"), id="min-of-a-literal"),
    pytest.param(thm(AB, [], "Max {a, b} = max b a"), TRUE, id="max-of-a-pair"),
    pytest.param(thm(AB, [], "(LEAST x. x \\<in> {a, b}) = min a b"), TRUE, id="least-of-a-literal"),
    pytest.param(
        thm("n :: nat", [], "(GREATEST x::nat. x \\<in> {3, 5, 1}) = n"),
        thm("n :: nat", [], "n = 5"),
        id="greatest-of-a-literal",
    ),
]
EXTREMUM_APART = [
    pytest.param(thm(AB, [], "Max {a, b} = a"), TRUE, id="max-is-not-the-first"),
    pytest.param(thm(AB, [], "Max {a, b} = 2"), thm(AB, [], "Min {a, b} = 2"), id="max-is-not-min"),
    pytest.param(
        thm(AB, [], "(LEAST x. x \\<in> {a, b}) = 1"),
        thm(AB, [], "(GREATEST x. x \\<in> {a, b}) = 1"),
        id="least-is-not-greatest",
    ),
    pytest.param(
        thm("n :: nat", [], "(LEAST x::nat. x \\<in> {3, 5, 1}) = n"),
        thm("n :: nat", [], "n = 3"),
        id="least-is-the-smallest-not-the-first",
    ),
]


def test_max_of_complex_numbers_stays_opaque(symeq):
    st = symeq.parse(thm("a b :: complex", [], "Max {a, b} = 2"))  # complex is no linear order: no max to read
    assert any(n.startswith("opaque") for n in st.opaque)


# ---------------------------------------- a set listed by a disjunction
# Set.thy, insert_compr: `insert a B = {x. x = a ∨ x ∈ B}`, so `{x. x = a ∨ x = b}` is the literal `{a, b}` (card
# counts it; it was a comprehension card could not count).

CARD_MERGE = [
    pytest.param(stmt("card {x::nat. x = 1 \\<or> x = 2} = 2"), TRUE, id="card-of-two-listed"),
    pytest.param(thm("a b :: int", [], "{x. x = a \\<or> b = x} = {b, a}"), TRUE, id="listed-is-the-literal"),
    pytest.param(
        thm("a n :: int", [], "card {x. x = a \\<or> x = -a} = n"),
        thm("a n :: int", [], "n = card {a, -a}"),
        id="card-of-symbolic-listed",
    ),
]
CARD_APART = [
    pytest.param(stmt("card {x::nat. x = 1 \\<or> x = 2 \\<or> x = 1} = 3"), TRUE, id="a-repeat-counts-once"),
    pytest.param(thm("a :: int", [], "card {x. x = a \\<or> x = -a} = 2"), TRUE, id="a-may-equal-minus-a"),
    pytest.param(stmt("card {x::nat. x = 1 \\<or> x < 3} = 2"), TRUE, id="not-only-equations"),
]


# ---------------------------------------- a pair pattern with a domain or a type
# Set.thy: `{pat ∈ A. P}` is `{p. p ∈ A ∧ (case p of pat ⇒ P)}`; `{(x, y) :: T. P}` constrains the pattern's type.
# Both stayed one opaque set.

PA = 'A :: "(int * int) set"'
PATTERN_MERGE = [
    pytest.param(
        thm(PA, [], "(2, 3) \\<in> {(x, y) \\<in> A. x < y}"), thm(PA, [], "(2, 3) \\<in> A"), id="pattern-in-a-domain"
    ),
    pytest.param(stmt("{(x, y) :: int * int. x = y} = {p. fst p = snd p}"), TRUE, id="typed-pattern"),
]
PATTERN_APART = [
    pytest.param(
        thm(PA, [], "(3, 2) \\<in> {(x, y) \\<in> A. x < y}"), thm(PA, [], "(3, 2) \\<in> A"), id="the-condition-counts"
    ),
    pytest.param(stmt("{(x, y) :: int * int. x = y} = {p. fst p = snd p + 1}"), TRUE, id="typed-pattern-differs"),
]


MERGE = [*SCALE_MERGE, *POW_MERGE, *REL_MERGE, *EXTREMUM_MERGE, *CARD_MERGE, *PATTERN_MERGE]
APART = [*SCALE_APART, *POW_APART, *REL_APART, *EXTREMUM_APART, *CARD_APART, *PATTERN_APART]


# both reading orders merge / neither does
test_equivalent_statements_merge, test_near_misses_stay_apart = verdict_tests(MERGE, APART)


# ---------------------------------------- long identifiers
# isar-ref, Lexical matters: longident = ident(.ident)+, so `{x..y}` is the interval from x to y (x, `..`, y); it was
# read as the one-element set of a name `x..y`.

IDENT_MERGE = [
    (
        thm("a b :: int", ["a < b"], "card {a..b} = nat (b - a + 1)"),
        thm("a b :: int", ["a < b"], "card {a .. b} = nat (b - a + 1)"),
    ),
    (thm("n :: nat", [], "(\\<Sum>k\\<in>{1..n}. k) = n"), thm("n :: nat", [], "(\\<Sum>k\\<in>{1 .. n}. k) = n")),
    (thm("x y :: nat", ["x < y"], "sum id {x..y} > 0"), thm("x y :: nat", ["x < y"], "sum id {x .. y} > 0")),
]
IDENT_APART = [
    (thm("x y :: nat", ["x < y"], "card {x..y} = 1"), thm("x y :: nat", ["x < y"], "card {x} = 1")),
    (thm("x y :: nat", ["x < y"], "sum id {x..y} = 5"), thm("x y :: nat", ["x < y"], "sum id {x..<y} = 5")),
]
test_long_identifiers_merge, test_long_identifiers_apart = verdict_tests(IDENT_MERGE, IDENT_APART)
