"""Isabelle's `of_nat :: nat ⇒ 'a::semiring_1` and `of_int :: int ⇒ 'a::ring_1` (Nat.thy, Int.thy) take the type the
context gives them, the other operand's where a relation or `dvd` joins them. Where SymEq elaborated one with no type
expected (an operand of `dvd`, a relation's side read first), it read it at real: `of_nat 3 dvd x` with x :: int became
divisibility in a field, `3 ≠ 0`, True, and merged with `1 dvd x` (found by eval/symeq_fuzz_isabelle.py at dev seed
13). `rat_of_int` (Rat.thy: `int ⇒ rat`) has a fixed result."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.isabelle_statements import isa
from tests.lean_statements import verdict_tests

MERGE = [
    (isa("x :: int", "of_nat 3 dvd x"), isa("x :: int", "3 dvd x")),
    (isa("x y :: int", "of_nat 3 dvd min x y"), isa("x y :: int", "(3 :: int) dvd min x y")),
    (isa("x :: int", "of_nat 7 div 2 = x"), isa("x :: int", "x = 3")),
    (isa("n :: nat", "of_nat n mod 3 = (2 :: int)"), isa("n :: nat", "int n mod 3 = 2")),
    (isa("x :: int", "of_nat 3 < x"), isa("x :: int", "x > 3")),
    (isa("k :: int", "rat_of_int k / 2 = 1"), isa("k :: int", "k = 2")),
    (isa("x :: real", "of_int (floor x) = x"), isa("x :: real", "x = of_int (floor x)")),
]
APART = [
    (isa("x :: int", "of_nat 3 dvd x"), isa("x :: int", "True")),
    (isa("x :: int", "of_nat 3 dvd x"), isa("x :: int", "1 dvd x")),
    (isa("x :: int", "of_nat 7 div 2 = x"), isa("x :: int", "2 * x = 7")),
    # with no type around them, of_nat's results are of any semiring_1, where of_nat need not be injective
    (isa("n m :: nat", "of_nat n = of_nat m"), isa("n m :: nat", "n = m")),
    # `cos (of_int k) = 1` is stated for every type of cos's and of_int's sorts (real, complex), as Isabelle leaves it
    (isa("k :: int", "cos (of_int k) = 1"), isa("k :: int", "cos (real_of_int k) = 1")),
]


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


test_merge, test_apart = verdict_tests(MERGE, APART)


def test_of_nat_takes_the_other_operands_type(symeq):
    assert str(symeq.parse(isa("x :: int", "of_nat 3 dvd x"))).endswith("⊢ (3 ∣ x)")
    assert str(symeq.parse(isa("n :: nat and x :: int", "of_nat (n - 1) = x"))).endswith("⊢ (((n - 1) : int) = x)")
    assert "(k : rat)" in str(symeq.parse(isa("k :: int", "rat_of_int k / 2 = 1")))
