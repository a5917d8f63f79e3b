"""Finite sets of integers written as builders (found on the MATH dev set): `{x::int. -5 < x ∧ x < 5 ∧ P x}` is
counted and summed over {-4..4} (literal bounds among its conjuncts), a set variable of type `int set` defined as
one is inlined, and `id` is the identity (Fun.thy). Rewrites that keep the meaning must merge, near misses stay
apart."""

import pytest

from atf.symeq.equivalence import SymEq


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


def thm(fixes: str, assumes: list[str], shows: str) -> str:
    hyps = " and ".join(f'h{k} : "{a}"' for k, a in enumerate(assumes))
    return f"theorem fixes {fixes} " + (f"assumes {hyps} " if hyps else "") + f'shows "{shows}"'


TRUE = 'theorem "True"'
S = 'S :: "int set"'

MERGE = [
    pytest.param(
        thm(S, ["S = {x. -30 <= x & x <= 26}"], "sum id S = -114"),
        thm(S, [], "sum (%x. x) {-30..26::int} = -114"),
        id="sum-id-over-builder",
    ),
    pytest.param(thm("x :: int", [], "card {x::int. -5 < x & x < 5 & x mod 2 = 0} = 5"), TRUE, id="count-ints"),
    pytest.param(
        thm("n :: nat", [], "card {x::nat. 3 <= x & x <= 40 & prime x} = 11"), TRUE, id="count-nats-two-bounds"
    ),
    pytest.param(
        thm(S, ["S = {x. 1 <= x & x <= 10 & 3 dvd x}"], "card S = 3"),
        thm("n :: nat", [], "card {x::int. 0 < x & x < 11 & x mod 3 = 0} = 3"),
        id="set-variable",
    ),
]

APART = [
    pytest.param(thm("x :: int", [], "card {x::int. -5 < x & x < 5 & x mod 2 = 0} = 4"), TRUE, id="count-off-by-one"),
    pytest.param(
        thm(S, ["S = {x. -30 <= x & x <= 26}"], "sum id S = -114"),
        thm(S, [], "sum (%x. x) {-30..25::int} = -114"),
        id="sum-bound",
    ),
    # no lower bound: not a finite set of integers (its card is 0 in Isabelle, never 5)
    pytest.param(thm("x :: int", [], "card {x::int. x < 5 & x mod 2 = 0} = 5"), TRUE, id="unbounded-below"),
    pytest.param(
        thm(S, ["S = {x. 1 <= x & x <= 10 & 3 dvd x}"], "card S = 3"),
        thm(S, ["S = {x. 1 <= x & x <= 10 & 3 dvd x}"], "card S = 4"),
        id="count-value",
    ),
]


@pytest.mark.parametrize("a,b", MERGE)
def test_finite_set_variants_merge(symeq, a, b):
    res = symeq.compare(a, b)
    assert res.equivalent, res.describe()


@pytest.mark.parametrize("a,b", APART)
def test_finite_set_near_misses_stay_apart(symeq, a, b):
    res = symeq.compare(a, b)
    assert not res.equivalent, res.describe()
