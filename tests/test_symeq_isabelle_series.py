"""The index of an Isabelle series is a natural number (Series.thy: `suminf :: (nat ⇒ 'a) ⇒ 'a`, and `∑n. f n` is
`suminf f`), also where the text does not say so (found on the MATH dev set): `cos (n * θ)` is then
`cos (real n * θ)`, as a `fixes f :: "nat ⇒ real"` gives it. Rewrites that keep the meaning must merge, near misses
stay apart."""

import pytest

from atf.symeq.equivalence import SymEq


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


def thm(fixes: str, assumes: list[str], shows: str) -> str:
    hyps = " and ".join(f'h{k} : "{a}"' for k, a in enumerate(assumes))
    return f"theorem fixes {fixes} " + (f"assumes {hyps} " if hyps else "") + f'shows "{shows}"'


T = "theta :: real"
H = ["cos theta = 1 / 5"]

MERGE = [
    pytest.param(
        thm('theta :: real and f :: "nat => real"', [*H, "ALL n. f n = cos (n * theta) / 2 ^ n"], "suminf f = 6 / 7"),
        thm(T, H, "suminf (%n. cos (n * theta) / 2^n) = 6 / 7"),
        id="declared-sequence",
    ),
    pytest.param(
        thm(T, H, "(\\<Sum>n. cos (n * theta) / 2^n) = 6 / 7"),
        thm(T, H, "suminf (%n::nat. cos (real n * theta) / 2^n) = 6 / 7"),
        id="binder-and-typed-lambda",
    ),
    pytest.param(
        thm(T, H, "summable (%n. cos (n * theta) / 2^n)"),
        thm(T, H, "summable (%n::nat. cos (real n * theta) / 2^n)"),
        id="summable",
    ),
]

APART = [
    pytest.param(
        thm(T, H, "(\\<Sum>n. cos (n * theta) / 2^n) = 6 / 7"),
        thm(T, H, "(\\<Sum>n. cos (n * theta) / 3^n) = 6 / 7"),
        id="ratio",
    ),
    pytest.param(
        # a lambda over the reals is another function (not a sequence): not the same series
        thm(T, H, "suminf (%n. cos (n * theta) / 2^n) = 6 / 7"),
        thm(T, H, "suminf (%n::real. cos (n * theta) / 2 powr n) = 6 / 7"),
        id="real-index",
    ),
]


@pytest.mark.parametrize("a,b", MERGE)
def test_series_variants_merge(symeq, a, b):
    res = symeq.compare(a, b)
    assert res.equivalent, res.describe()


@pytest.mark.parametrize("a,b", APART)
def test_series_near_misses_stay_apart(symeq, a, b):
    res = symeq.compare(a, b)
    assert not res.equivalent, res.describe()
