"""`b powr real n` with a positive literal base b is `b ^ n` (Transcendental.thy, powr_realpow), found on the MATH dev
set (`∑n. cos (n * θ) / 2 powr n`); with a negative base or a non-natural exponent it is not. Rewrites that keep the
meaning must merge, near misses stay apart."""

import pytest

from atf.symeq.equivalence import SymEq


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


def thm(fixes: str, assumes: list[str], shows: str) -> str:
    hyps = " and ".join(f'h{k} : "{a}"' for k, a in enumerate(assumes))
    return f"theorem fixes {fixes} " + (f"assumes {hyps} " if hyps else "") + f'shows "{shows}"'


MERGE = [
    pytest.param(thm("n :: nat", [], "2 powr n = 32"), thm("n :: nat", [], "2 ^ n = 32"), id="nat-exponent"),
    pytest.param(
        thm("theta :: real", [], "(\\<Sum>n. cos (n * theta) / 2^n) = 6 / 7"),
        thm("theta :: real", [], "suminf (%n. cos (n * theta) / 2 powr n) = 6 / 7"),
        id="series-term",
    ),
    pytest.param(
        thm("n :: nat", [], "(1/2) powr n < 1 / 100"), thm("n :: nat", [], "(1/2) ^ n < 1 / 100"), id="fraction-base"
    ),
]

APART = [
    pytest.param(thm("n :: nat", [], "2 powr n = 32"), thm("n :: nat", [], "3 ^ n = 32"), id="base"),
    # ln of a negative number is unspecified in Isabelle: (-2) powr n is not (-2) ^ n
    pytest.param(thm("n :: nat", [], "(-2) powr n = 4"), thm("n :: nat", [], "(-2) ^ n = 4"), id="negative-base"),
    pytest.param(thm("n :: int", [], "2 powr n = 1 / 4"), thm("n :: int", [], "n = -3"), id="int-exponent"),
    pytest.param(thm("x :: real", [], "2 powr x = 32"), thm("x :: real", [], "x = 6"), id="real-exponent"),
]


@pytest.mark.parametrize("a,b", MERGE)
def test_powr_variants_merge(symeq, a, b):
    res = symeq.compare(a, b)
    assert res.equivalent, res.describe()


@pytest.mark.parametrize("a,b", APART)
def test_powr_near_misses_stay_apart(symeq, a, b):
    res = symeq.compare(a, b)
    assert not res.equivalent, res.describe()
