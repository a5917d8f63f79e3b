"""Isabelle statements SymEq once read with a meaning they do not have in Isabelle/HOL (issue 10: "never a merge of
statements that differ in meaning"), found by an audit of the correct-incorrect merges on the MATH dev set and near
variants of them. One section per class of defect: the pair that differs in meaning stays apart, and the genuine
equivalence nearby still merges (the fix is not a blanket refusal)."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.isabelle_statements import thm

TRUE = 'theorem "True"'
FALSE = 'theorem "False"'


def stmt(prop: str) -> str:
    return f'theorem "{prop}"'


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


# ---------------------------------------- infix associativity
# HOL Power.thy declares `power (infixr "^" 80)` and Transcendental.thy `powr (infixr "powr" 80)`: `2 ^ 3 ^ 2` is
# `2 ^ 9 = 512`, not `(2 ^ 3) ^ 2 = 64` (read left-associatively, the false `2 ^ 3 ^ 2 = 64` merged with True).

N = "n :: nat"
ASSOC_MERGE = [
    pytest.param(stmt("(2::nat) ^ 3 ^ 2 = 512"), TRUE, id="power-is-right-associative"),
    pytest.param(thm(N, [], "2 ^ 2 ^ n = 2 ^ (2 ^ n)"), TRUE, id="power-tower"),
    pytest.param(thm("x :: real", [], "x powr 2 powr 3 = x powr (2 powr 3)"), TRUE, id="powr-is-right-associative"),
    pytest.param(stmt("- 2 ^ 2 = (-4::int)"), TRUE, id="minus-binds-looser-than-power"),
]
ASSOC_APART = [
    pytest.param(stmt("(2::nat) ^ 3 ^ 2 = 64"), TRUE, id="power-read-left"),
    pytest.param(thm(N, [], "2 ^ 2 ^ n = (2 ^ 2) ^ n"), TRUE, id="power-tower-read-left"),
    pytest.param(thm("x :: real", ["x > 0"], "x powr 2 powr 3 = x powr 6"), TRUE, id="powr-read-left"),
]


# ---------------------------------------- relations as operands
# HOL's `=` is infixl 50 and a parenthesised relation is a boolean operand: `(P = Q) = R` compares the truth of
# `P = Q` with R. `(P = Q) = R` read as the chain `P = Q ∧ Q = R` merged with it (P = Q = False, R = True tells them
# apart), and a proposition or truth value on the right (`a < b = (b < c)`, `a < b = False`) is compared, not
# chained. The other relations are `infix 50` (non-associative): `a < b < c` is no term in Isabelle, so it is not
# read as the chain `a < b ∧ b < c` (tests/test_symeq_isabelle_frontend2.py has the rest).

B = "P Q R :: bool"
R3 = "a b c :: real"
R4 = "a b c d :: real"
REL_MERGE = [
    pytest.param(thm(B, [], "(P = Q) = R"), thm(B, [], "(P <-> Q) <-> R"), id="boolean-equality-of-a-relation"),
    pytest.param(thm(R3, [], "(a < b) = (b < c)"), thm(R3, [], "a < b <-> b < c"), id="equal-truth-values"),
    pytest.param(thm(R3, [], "a < b = (b < c)"), thm(R3, [], "a < b <-> b < c"), id="a-proposition-on-the-right"),
    pytest.param(thm(R3, [], "a < b = False"), thm(R3, [], "b <= a"), id="compared-with-a-truth-value"),
]
REL_APART = [
    pytest.param(thm(B, [], "(P = Q) = R"), thm(B, [], "P = Q & Q = R"), id="parenthesised-relation-is-no-chain"),
    pytest.param(thm(R3, [], "(a < b) = (b < c)"), thm(R3, [], "a < b & b = (b < c)"), id="no-chain-into-a-bool"),
    pytest.param(thm(R3, [], "(a < b) = (b < c)"), thm(R3, [], "a < b & b < c"), id="truth-values-not-both-true"),
    pytest.param(thm(R3, [], "a < b = (b < c)"), thm(R3, [], "a < b & b < c"), id="proposition-is-no-chain-link"),
    pytest.param(thm(R3, [], "a < b = False"), thm(R3, [], "a < b"), id="truth-value-is-no-chain-link"),
    pytest.param(thm(R3, ["a < b < c"], "a < c"), TRUE, id="a-chain-is-no-term"),
    pytest.param(thm(R4, [], "a < b < c < d"), thm(R4, [], "a < b & b < c & c < d"), id="a-long-chain-is-no-term"),
]


# ---------------------------------------- pieces of a function given by cases
# `∀x. x < 0 ⟶ f x = 0` and `∀y. y ≥ 0 ⟶ f y = x` (x a fixed variable) define f by cases; the pieces are read with
# one name for the argument, and renaming y to x captured the fixed x: f 1 = 1 was read where f 1 = x is meant.

XF = 'x :: real and f :: "real => real"'
PIECES = ["ALL x. x < 0 --> f x = 0", "ALL y. y >= 0 --> f y = x"]
CASES_MERGE = [
    pytest.param(thm(XF, PIECES, "f 1 = x"), TRUE, id="value-names-the-fixed-variable"),
    pytest.param(thm(XF, PIECES, "f 1 = 1"), thm("x :: real", [], "x = 1"), id="value-is-the-fixed-variable"),
    pytest.param(
        thm(XF, ["ALL x. x < 0 --> f x = 0", "ALL y. y >= x --> f y = 1"], "f (x + 1) = 1"),
        TRUE,
        id="guard-names-the-fixed-variable",
    ),
]
CASES_APART = [
    pytest.param(thm(XF, PIECES, "f 1 = 1"), TRUE, id="captured-value"),
    pytest.param(
        thm(XF, ["ALL x. x < 0 --> f x = 0", "ALL y. y >= x --> f y = 1"], "f 5 = 1"), TRUE, id="captured-guard"
    ),
]


# ---------------------------------------- where a coercion goes
# Isabelle's coercion inference (Traytel, Berghofer, Nipkow 2011; Real.thy declares `real` and `int` coercions) types
# a subtree by its own leaves and coerces it where it meets a larger type: with n :: nat, `x = n - 3` (x :: real) is
# `x = real (n - 3)`, truncated at 0, and `f (n - 1)` with f :: real ⇒ real is `f (real (n - 1))`. Read with Lean's
# coercions at the leaves (`↑n - 3`), `x = n - 3` merged with `x = real n - 3`, which differ at n = 0.

NX = "n :: nat and x :: real"
NI = "n :: nat and i :: int"
NF = 'n :: nat and f :: "real => real"'
COERCION_MERGE = [
    pytest.param(thm(NX, [], "x = n - 3"), thm(NX, [], "x = real (n - 3)"), id="subtraction-then-cast"),
    pytest.param(thm(NX, ["x = n - 3", "n = 1"], "x = 0"), TRUE, id="truncated-at-zero"),
    pytest.param(thm(NI, [], "i = n - 5"), thm(NI, [], "i = int (n - 5)"), id="into-int"),
    pytest.param(thm(NX, [], "x = (n - 1) / 2"), thm(NX, [], "x = real (n - 1) / 2"), id="under-field-division"),
    pytest.param(thm(NF, [], "f (n - 1) = 0"), thm(NF, [], "f (real (n - 1)) = 0"), id="function-argument"),
    pytest.param(thm(NX, [], "x = n div 2"), thm(NX, [], "x = real (n div 2)"), id="natural-division"),
    # where the cast commutes with the operations the place does not matter
    pytest.param(thm(NX, [], "x = n * (n + 1)"), thm(NX, [], "x = real n * (real n + 1)"), id="homomorphic"),
    pytest.param(thm(NX, [], "x = n - 0.5"), thm(NX, [], "x = real n - 0.5"), id="a-decimal-is-real"),
    pytest.param(thm(NI, [], "i = - n + 1"), thm(NI, [], "i = - int n + 1"), id="no-negation-on-nat"),
    pytest.param(thm(NX, ["x = (n - 2) * 180", "x = 1080"], "n = 8"), TRUE, id="polygon-angles"),
    # an ascription types the term itself, no coercion goes above it: `(n - 3 :: real)` is `real n - 3`
    pytest.param(thm(N, [], "(n - 3 :: real) = real n - 3"), TRUE, id="ascribed-difference"),
    pytest.param(thm(N, [], "((n - 1) * 2 :: real) = real (n - 1) * 2"), TRUE, id="ascribed-product"),
]
COERCION_APART = [
    pytest.param(thm(NX, [], "x = n - 3"), thm(NX, [], "x = real n - 3"), id="cast-then-subtraction"),
    pytest.param(thm(NX, ["x = n - 3", "n = 1"], "x = -2"), TRUE, id="not-below-zero"),
    pytest.param(thm(NI, [], "i = n - 5"), thm(NI, [], "i = int n - 5"), id="into-int-at-the-leaves"),
    pytest.param(thm(NX, [], "x = (n - 1) / 2"), thm(NX, [], "x = (real n - 1) / 2"), id="field-division-of-leaves"),
    pytest.param(thm(NF, [], "f (n - 1) = 0"), thm(NF, [], "f (real n - 1) = 0"), id="argument-at-the-leaves"),
    pytest.param(thm(NX, [], "x = (n - 1) ^ 2"), thm(NX, [], "x = (real n - 1) ^ 2"), id="square-of-a-difference"),
    pytest.param(thm(N, [], "(n - 3 :: real) = real (n - 3)"), TRUE, id="ascription-is-no-coercion"),
]


# ---------------------------------------- division is field division
# Fields.thy: `/` (and `inverse`) belong to class `inverse`, which ℕ and ℤ are not in: with k :: nat, `k / 2` is
# `real k / 2` wherever it stands, a sum's body included. Read as ℕ's floor division, `S = (∑k = 1..4. k / 2)`
# gave S = 4 (Isabelle: 5) and `∑k = 1..4. 1 / k` gave 1 (Isabelle: 25/12).

SR = "S :: real"
HALVES = "S = (SUM k = (1::nat)..4. k / 2)"
HARMONIC = "S = (SUM k = (1::nat)..4. 1 / k)"
FIELD_MERGE = [
    pytest.param(thm(SR, [HALVES], "S = 5"), TRUE, id="halves-in-a-sum"),
    pytest.param(thm(SR, [HARMONIC], "S = 25 / 12"), TRUE, id="harmonic-sum"),
    pytest.param(thm("a b :: nat and m :: real", ["m = (a + b) / 2"], "2 * m = a + b"), TRUE, id="average"),
    pytest.param(thm(SR, ["S = (SUM k = (1::nat)..4. k div 2)"], "S = 4"), TRUE, id="floor-division-is-div"),
]
FIELD_APART = [
    pytest.param(thm(SR, [HALVES], "S = 4"), TRUE, id="halves-floored"),
    pytest.param(thm(SR, [HARMONIC], "S = 1"), TRUE, id="harmonic-floored"),
    pytest.param(
        thm("a b :: nat and m :: real", ["a = 3", "b = 4", "m = (a + b) / 2"], "m = 3"), TRUE, id="average-floored"
    ),
]


MERGE = [*ASSOC_MERGE, *REL_MERGE, *CASES_MERGE, *COERCION_MERGE, *FIELD_MERGE]
APART = [*ASSOC_APART, *REL_APART, *CASES_APART, *COERCION_APART, *FIELD_APART]


@pytest.mark.parametrize("a,b", MERGE)
def test_genuine_equivalences_merge(symeq, a, b):
    res = symeq.compare(a, b)
    assert res.equivalent, res.describe()


@pytest.mark.parametrize("a,b", APART)
def test_statements_that_differ_in_meaning_stay_apart(symeq, a, b):
    res = symeq.compare(a, b)
    assert not res.equivalent, res.describe()
