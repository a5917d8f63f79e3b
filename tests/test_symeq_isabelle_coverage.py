"""Isabelle constructs SymEq models exactly (issue 10, found on the MATH dev set): each class has rewrites
that keep the meaning (must merge) and near misses that change it (must stay apart)."""

import pytest

from atf.symeq.equivalence import SymEq


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


def thm(fixes: str, assumes: list[str], shows: str) -> str:
    hyps = " and ".join(f'h{k} : "{a}"' for k, a in enumerate(assumes))
    return f"theorem fixes {fixes} " + (f"assumes {hyps} " if hyps else "") + f'shows "{shows}"'


MERGE = [
    # root n x is the real n-th root; for x > 0, x powr (p/q) = root q x ^ p (root_powr_inverse, powr_powr)
    pytest.param(
        thm("x :: real", ["x = 4 powr 5 + 4 powr 5 + 4 powr 5 + 4 powr 5"], "root 3 x = 16"),
        thm("x :: real", ["x = (4 powr 5 + 4 powr 5 + 4 powr 5 + 4 powr 5) powr (1/3)"], "x = 16"),
        id="root-powr-third",
    ),
    pytest.param(
        # 4 * x powr 2 is 0 at x = 0 and positive elsewhere, so its powr (1/3) is its cube root
        thm("x :: real", ["root 3 (4 * x powr 2) = 4"], "x = -4 | x = 4"),
        thm("x :: real", ["(4 * x powr 2) powr (1/3) = 4"], "x = -4 | x = 4"),
        id="root-powr-nonnegative-base",
    ),
    pytest.param(
        thm("x :: real", ["x > 0"], "x powr (2/3) = 4"),
        thm("x :: real", ["x > 0"], "(root 3 x)^2 = 4"),
        id="powr-two-thirds",
    ),
    pytest.param(thm("x :: real", [], "root 2 x = 3"), thm("x :: real", [], "sqrt x = 3"), id="root-2-is-sqrt"),
    pytest.param(
        # the root is sign-preserving: root 3 (-8) = -2 (NthRoot.thy, real_root_minus)
        thm("x :: real", ["x = -8"], "root 3 x = -2"),
        thm("x :: real", ["x = -8"], "True"),
        id="odd-root-of-negative",
    ),
]

APART = [
    # for x < 0, x powr (1/3) is exp (ln x / 3) with ln x unspecified: not the (negative) cube root
    pytest.param(
        thm("x :: real", [], "root 3 x = -2"),
        thm("x :: real", [], "x powr (1/3) = -2"),
        id="powr-of-negative-is-not-root",
    ),
    pytest.param(thm("x :: real", [], "root 3 x = 2"), thm("x :: real", [], "root 3 x = 3"), id="root-value"),
    pytest.param(thm("x :: real", [], "root 3 x = 2"), thm("x :: real", [], "x = 6"), id="root-not-third"),
    pytest.param(thm("x :: real", [], "root 4 x = 2"), thm("x :: real", [], "x = 8"), id="fourth-root"),
    pytest.param(
        thm("x :: real", ["x > 0"], "x powr (2/3) = 4"),
        thm("x :: real", ["x > 0"], "x powr (3/2) = 4"),
        id="powr-exponent",
    ),
]


@pytest.mark.parametrize("a,b", MERGE)
def test_meaning_preserving_variants_merge(symeq, a, b):
    res = symeq.compare(a, b)
    assert res.equivalent, res.describe()


@pytest.mark.parametrize("a,b", APART)
def test_near_misses_stay_apart(symeq, a, b):
    res = symeq.compare(a, b)
    assert not res.equivalent, res.describe()
