"""Isabelle `dist` on ℝ and on products of ℝ, and product types (found on the MATH dev set): `dist` is |x - y| on ℝ
(dist_real_def) and the Euclidean distance on ℝ × ℝ (dist_prod_def); `real * real * real` is `real * (real * real)`.
Rewrites that keep the meaning must merge, near misses stay apart."""

import pytest

from atf.symeq.equivalence import SymEq


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


def thm(fixes: str, assumes: list[str], shows: str) -> str:
    hyps = " and ".join(f'h{k} : "{a}"' for k, a in enumerate(assumes))
    return f"theorem fixes {fixes} " + (f"assumes {hyps} " if hyps else "") + f'shows "{shows}"'


P = 'a b :: "real * real"'
EUCLID = "sqrt ((fst a - fst b) ^ 2 + (snd a - snd b) ^ 2) = 13"
T = 'a b :: "real * real * real"'

MERGE = [
    pytest.param(
        thm(P, ["a = (1, 2)", "b = (-4, -10)"], "dist a b = 13"),
        thm(P, ["a = (1, 2)", "b = (-4, -10)"], EUCLID),
        id="points",
    ),
    pytest.param(thm(P, [], "dist a b = 13"), thm(P, [], EUCLID), id="any-points"),
    pytest.param(
        thm("d :: real", ["d = dist (9::real, 5::real) (-6, -3) - 5"], "d = 12"),
        thm("d :: real", ["d = sqrt ((9 + 6) powr 2 + (5 + 3) powr 2) - 5"], "d = 12"),
        id="literal-points",
    ),
    pytest.param(thm("x y :: real", [], "dist x y = 3"), thm("x y :: real", [], "abs (x - y) = 3"), id="real"),
    pytest.param(thm("x :: real", [], "dist x 2 = 3"), thm("x :: real", [], "x = 5 | x = -1"), id="real-solved"),
    pytest.param(
        thm(T, [], "dist a b = 3"),
        thm(
            T,
            [],
            "sqrt ((fst a - fst b)^2 + (fst (snd a) - fst (snd b))^2 + (snd (snd a) - snd (snd b))^2) = 3",
        ),
        id="space",
    ),
    pytest.param(thm('a :: "real * real * real"', ["a = (1, 2, 3)"], "snd (snd a) = 3"), 'theorem "True"', id="triple"),
]

APART = [
    pytest.param(
        thm(P, [], "dist a b = 13"), thm(P, [], "sqrt ((fst a - fst b) ^ 2 + (snd a + snd b) ^ 2) = 13"), id="sign"
    ),
    pytest.param(
        thm(P, [], "dist a b = 13"), thm(P, [], "(fst a - fst b) ^ 2 + (snd a - snd b) ^ 2 = 13"), id="no-root"
    ),
    pytest.param(
        thm(P, [], "dist a b = 13"), thm(P, [], "abs (fst a - fst b) + abs (snd a - snd b) = 13"), id="taxicab"
    ),
    pytest.param(thm("x y :: real", [], "dist x y = 3"), thm("x y :: real", [], "x - y = 3"), id="real-no-abs"),
    pytest.param(thm("z w :: complex", [], "dist z w = 3"), thm("z w :: complex", [], "dist z w = 4"), id="complex"),
    pytest.param(
        # `snd a` of a triple is a pair (ill-typed against a real): not its second item
        thm('a :: "real * real * real"', [], "snd a = 2"),
        thm('a :: "real * real * real"', [], "fst (snd a) = 2"),
        id="snd-of-triple",
    ),
]


@pytest.mark.parametrize("a,b", MERGE)
def test_dist_variants_merge(symeq, a, b):
    res = symeq.compare(a, b)
    assert res.equivalent, res.describe()


@pytest.mark.parametrize("a,b", APART)
def test_dist_near_misses_stay_apart(symeq, a, b):
    res = symeq.compare(a, b)
    assert not res.equivalent, res.describe()
