"""Functions given by cases (`∀x. x < -3 ⟶ f x = 3 * x + 5` and `∀x. x ≥ -3 ⟶ f x = 7 - 4 * x`), found on the MATH
dev set: the premises hold exactly for `f = (λx. if x < -3 then 3 * x + 5 else ... f₀ x)` with f₀ any function,
provided the pieces agree where guards overlap. Also functions defined on pairs by a pattern (`∀x1 y1 x2 y2.
midpoint (x1, y1) (x2, y2) = ...`), and pair-valued definitions. Rewrites that keep the meaning must merge, near
misses stay apart."""

import pytest

from atf.symeq.elaborate import elaborate
from atf.symeq.equivalence import SymEq
from atf.symeq.isabelle_frontend import parse_statement
from atf.symeq.normalize import standardize


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


def thm(fixes: str, assumes: list[str], shows: str) -> str:
    hyps = " and ".join(f'h{k} : "{a}"' for k, a in enumerate(assumes))
    return f"theorem fixes {fixes} " + (f"assumes {hyps} " if hyps else "") + f'shows "{shows}"'


F = 'f :: "real => real"'
ITE = "ALL x. f x = (if x < -3 then 3 * x + 5 else 7 - 4 * x)"

MERGE = [
    pytest.param(
        thm(F, ["ALL x. x < -3 --> f x = 3 * x + 5", "ALL x. x >= -3 --> f x = 7 - 4 * x"], "f 5 = -13"),
        thm(F, [ITE], "f 5 = -13"),
        id="two-cases-and-if",
    ),
    pytest.param(
        thm(F, ["ALL x. x < -3 --> f x = 3 * x + 5", "ALL x. x >= -3 --> f x = 7 - 4 * x"], "f (-3) = 19"),
        thm(F, [ITE], "f (-3) = 19"),
        id="at-the-boundary",
    ),
    pytest.param(
        # overlapping guards that agree at x = 3 (9 - 2 * 3 = 3)
        thm(F, ["ALL x. x <= 3 --> f x = 9 - 2 * x", "ALL x. x >= 3 --> f x = x"], "f 5 = 5"),
        thm(F, ["ALL x. f x = (if x <= 3 then 9 - 2 * x else x)"], "f 5 = 5"),
        id="overlap-that-agrees",
    ),
    pytest.param(
        thm(
            F,
            ["ALL x. x < -2 --> f x = 1", "ALL x. -2 <= x & x <= 2 --> f x = x", "ALL x. x > 2 --> f x = 3"],
            "f 0 + f 3 = 3",
        ),
        thm(F, ["ALL x. f x = (if x < -2 then 1 else if x <= 2 then x else 3)"], "f 0 + f 3 = 3"),
        id="three-cases",
    ),
    pytest.param(
        # a partial definition (undefined at 0) used only where it is defined
        thm(F, ["ALL x. x ~= 0 --> f x = 1 / x"], "f 2 + f 4 = 3 / 4"),
        thm(F, ["ALL x. f x = 1 / x"], "f 2 + f 4 = 3 / 4"),
        id="partial-definition",
    ),
    pytest.param(
        thm('f :: "nat => nat"', ["ALL n. n >= 1 & n <= 12 --> f n = n"], "(SUM n=1..12. f n) = 78"),
        thm("n :: nat", ["n = 12"], "sum (%i. i) {1..n} = 78"),
        id="defined-on-the-summed-range",
    ),
    pytest.param(
        thm(
            'log :: "real => real => real"',
            ["ALL a x. a > 0 & a ~= 1 & x > 0 --> log a x = ln x / ln a"],
            "log 2 (8 * sqrt 2) = 7 / 2",
        ),
        thm('log :: "real => real => real"', ["ALL a b. log a b = ln b / ln a"], "log 2 (8 * sqrt 2) = 7 / 2"),
        id="two-arguments",
    ),
    pytest.param(
        thm('f :: "int => int"', ["ALL n. n <= 2 --> f n = 1", "ALL n. n >= 3 --> f n = 2"], "f 3 = 2"),
        thm('f :: "int => int"', ["ALL n. f n = (if n <= 2 then 1 else 2)"], "f 3 = 2"),
        id="integer-cases-cover",
    ),
]

APART = [
    pytest.param(
        # at -3 the first takes the second piece (19), the second the first (-4)
        thm(F, ["ALL x. x < -3 --> f x = 3 * x + 5", "ALL x. x >= -3 --> f x = 7 - 4 * x"], "f (-3) = 19"),
        thm(F, ["ALL x. f x = (if x <= -3 then 3 * x + 5 else 7 - 4 * x)"], "f (-3) = 19"),
        id="boundary-on-the-other-side",
    ),
    pytest.param(
        # pieces that disagree at 3 (3 and 4): no such f, the first is vacuous
        thm(F, ["ALL x. x <= 3 --> f x = 9 - 2 * x", "ALL x. x >= 3 --> f x = x + 1"], "f 5 = 6"),
        thm(F, ["ALL x. f x = (if x <= 3 then 9 - 2 * x else x + 1)"], "f 5 = 6"),
        id="overlap-that-disagrees",
    ),
    pytest.param(
        # f 0 is not given by either piece
        thm(F, ["ALL x. x < 0 --> f x = 1", "ALL x. x > 0 --> f x = 2"], "f 0 = 2"),
        thm(F, ["ALL x. f x = (if x < 0 then 1 else 2)"], "f 0 = 2"),
        id="gap-in-the-cases",
    ),
    pytest.param(
        # on ℤ, n ≤ 2 and n ≥ 4 leave 3 out
        thm('f :: "int => int"', ["ALL n. n <= 2 --> f n = 1", "ALL n. n >= 4 --> f n = 2"], "f 3 = 2"),
        thm('f :: "int => int"', ["ALL n. f n = (if n <= 2 then 1 else 2)"], "f 3 = 2"),
        id="integer-gap",
    ),
    pytest.param(
        thm('a :: real and f :: "real => real"', ["ALL x. a > 0 --> f x = x"], "f 2 = 2"),
        thm('a :: real and f :: "real => real"', ["ALL x. f x = x"], "f 2 = 2"),
        id="guard-on-another-variable",
    ),
    pytest.param(
        thm(F, ["ALL x. x ~= 0 --> f x = 1 / x"], "f 0 = 0"),
        thm(F, ["ALL x. f x = 1 / x"], "f 0 = 0"),
        id="partial-definition-outside-its-domain",
    ),
]


@pytest.mark.parametrize("a,b", MERGE)
def test_cases_and_if_merge(symeq, a, b):
    res = symeq.compare(a, b)
    assert res.equivalent, res.describe()


@pytest.mark.parametrize("a,b", APART)
def test_cases_near_misses_stay_apart(symeq, a, b):
    res = symeq.compare(a, b)
    assert not res.equivalent, res.describe()


def test_exhaustive_cases_leave_no_unknown_function():
    text = thm(F, ["ALL x. x < 1 --> f x = 0", "ALL x. 1 <= x --> f x = x"], "f 2 = 2")
    st = standardize(elaborate(parse_statement(text)))
    assert not st.premises and "f" not in st.variables and st.conclusion.op == "true"


def test_vacuous_cases_are_vacuous(symeq):
    a = thm(F, ["ALL x. x <= 3 --> f x = 9 - 2 * x", "ALL x. x >= 3 --> f x = x + 1"], "f 5 = 6")
    assert symeq.is_vacuous(symeq.parse(a))


P = 'A B M :: "real * real"'
POINTS = ["A = (-5, 5)", "B = (3, 7)"]
MID = "ALL x1 y1 x2 y2. midpoint (x1, y1) (x2, y2) = ((x1 + x2) / 2, (y1 + y2) / 2)"
PATTERN_MERGE = [
    pytest.param(
        thm(P, [*POINTS, "M = ((fst A + fst B) / 2, (snd A + snd B) / 2)"], "M = (-1, 6)"),
        thm(P, [*POINTS, MID], "midpoint A B = (-1, 6)"),
        id="pair-patterns",
    ),
    pytest.param(
        thm(
            P, [*POINTS, "ALL p q. midpoint p q = ((fst p + fst q) / 2, (snd p + snd q) / 2)"], "midpoint A B = (-1, 6)"
        ),
        thm(P, POINTS, "((fst A + fst B) / 2, (snd A + snd B) / 2) = (-1, 6)"),
        id="pair-valued-definition",
    ),
    pytest.param(
        thm(P + ' and f :: "real * real => real"', ["ALL x y. f (x, y) = x + y"], "f A = 3"),
        thm(P, [], "fst A + snd A = 3"),
        id="one-pair-argument",
    ),
]
PATTERN_APART = [
    pytest.param(
        thm(P, [*POINTS, "M = ((fst A + fst B) / 2, (snd A + snd B) / 2)"], "M = (-1, 6)"),
        thm(P, [*POINTS, MID], "midpoint A B = (-1, 7)"),
        id="other-midpoint",
    ),
    pytest.param(
        thm(P + ' and f :: "real * real => real"', ["ALL x y. f (x, y) = x + y"], "f A = 3"),
        thm(P, [], "fst A - snd A = 3"),
        id="other-value",
    ),
    pytest.param(
        # defined on the diagonal only
        thm(P + ' and f :: "real * real => real"', ["ALL x. f (x, x) = x + x"], "f A = 3"),
        thm(P, [], "fst A + snd A = 3"),
        id="repeated-pattern-variable",
    ),
]


@pytest.mark.parametrize("a,b", PATTERN_MERGE)
def test_pattern_definitions_merge(symeq, a, b):
    res = symeq.compare(a, b)
    assert res.equivalent, res.describe()


@pytest.mark.parametrize("a,b", PATTERN_APART)
def test_pattern_near_misses_stay_apart(symeq, a, b):
    res = symeq.compare(a, b)
    assert not res.equivalent, res.describe()
