"""Isabelle sets read by membership (found on the MATH dev set: ranges, domains and solution sets): two sets are equal
when they have the same members (Set.thy, set_eq_iff), and membership in `A ∪ B`, `A ∩ B`, `range f`, `f ` A` and
UNIV is what Set.thy says (Un_iff, Int_iff, image_iff, UNIV_I). Rewrites that keep the meaning must merge, near
misses stay apart."""

import pytest

from atf.symeq.equivalence import SymEq


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


def thm(fixes: str, assumes: list[str], shows: str) -> str:
    hyps = " and ".join(f'h{k} : "{a}"' for k, a in enumerate(assumes))
    return f"theorem fixes {fixes} " + (f"assumes {hyps} " if hyps else "") + f'shows "{shows}"'


F = 'F :: "real => real"'
D = "ALL x. F x = abs (x + 1) + abs (x - 5)"
X = "x :: real"
UNION3 = "{x. x < -7} \\<union> {x. -7 < x & x < 3} \\<union> {x. x > 3}"

MERGE = [
    pytest.param(
        thm(F, [D], "range F = {y. y >= 6}"), thm(F, [D], "ALL y. (EX x. F x = y) = (y >= 6)"), id="range-members"
    ),
    pytest.param(thm(F, [D], "range F = {y. y >= 6}"), thm(F, [D], "F ` UNIV = {6..}"), id="range-is-image-of-UNIV"),
    pytest.param(
        thm(F, [D], "range F = {6..}"), thm(F, [D], "{y. EX x. F x = y} = {y. y >= 6}"), id="range-as-builder"
    ),
    pytest.param(
        thm(X, [], "{x. x^2 = 4} = {-2, 2}"), thm(X, [], "ALL x. x^2 = 4 <-> x = 2 | x = -2"), id="solution-set"
    ),
    pytest.param(
        thm(X, [], f"{UNION3} = {{x. x^2 + 4*x - 21 ~= 0}}"),
        thm(X, [], "{x. x^2 + 4*x - 21 ~= 0} = {..< -7} \\<union> {-7 <..< 3} \\<union> {3 <..}"),
        id="domain-as-union",
    ),
    pytest.param(
        thm(X, [], f"x \\<in> {UNION3}"),
        thm(X, [], "x \\<in> {..< -7} \\<union> {-7 <..< 3} \\<union> {3 <..}"),
        id="member-of-union",
    ),
    pytest.param(thm(X, [], "x \\<in> {1..5} \\<inter> {3..7}"), thm(X, [], "3 <= x & x <= 5"), id="member-of-inter"),
    pytest.param(
        thm(F, [D], "6 \\<in> F ` {0..1}"), thm(F, [D], "EX x. 0 <= x & x <= 1 & F x = 6"), id="member-of-image"
    ),
]

APART = [
    pytest.param(thm(F, [D], "range F = {y. y >= 6}"), thm(F, [D], "range F = {y. y > 6}"), id="range-bound"),
    pytest.param(thm(X, [], "{x. x^2 = 4} = {-2, 2}"), thm(X, [], "{x. x^2 = 4} = {2}"), id="missing-solution"),
    pytest.param(
        thm(X, [], "{x. x < -7} \\<union> {x. x > 3} = {x. x^2 + 4*x - 21 > 0}"),
        thm(X, [], "{x. x < -7} \\<inter> {x. x > 3} = {x. x^2 + 4*x - 21 > 0}"),
        id="union-not-inter",
    ),
    pytest.param(thm(X, [], "x \\<in> {1..5} \\<inter> {3..7}"), thm(X, [], "1 <= x & x <= 7"), id="inter-not-union"),
    pytest.param(thm(F, [D], "6 \\<in> F ` {0..1}"), thm(F, [D], "EX x. 6 <= x & x <= 7 & F x = 6"), id="image-domain"),
    pytest.param(
        # a variable named `range` is not the library's range
        thm('F :: "real => real" and range :: "(real => real) => real set"', [], "range F = {y. y >= 6}"),
        thm(F, [], "range F = {y. y >= 6}"),
        id="range-variable",
    ),
]


@pytest.mark.parametrize("a,b", MERGE)
def test_set_variants_merge(symeq, a, b):
    res = symeq.compare(a, b)
    assert res.equivalent, res.describe()


@pytest.mark.parametrize("a,b", APART)
def test_set_near_misses_stay_apart(symeq, a, b):
    res = symeq.compare(a, b)
    assert not res.equivalent, res.describe()
