"""Isabelle's congruence notation `[a = b] (mod m)` (HOL-Number_Theory Cong.thy: `cong_def: [b = c] (mod a) ⟷
b mod a = c mod a`; `[b ≠ c] (mod a)` is `notcong`, `¬ cong b c a`) is read as that equation. It was an opaque
proposition, so the 16 Table 1 candidates that write it (7 miniF2F problems, 1 MATH problem) met no candidate that
writes `b mod a = c mod a`. A bracket that is no congruence stays a list."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.lean_statements import verdict_tests


def isa(fixes: str, shows: str) -> str:
    return f'theorem\nfixes {fixes}\nshows "{shows}"'


MERGE = [
    (isa("x :: int", "[x - 1 = 1 - x] (mod 12)"), isa("x :: int", "(x - 1) mod 12 = (1 - x) mod 12")),
    (isa("a b :: int", "[(a * b) = 1] (mod 11^2)"), isa("a b :: int", "(a * b) mod 121 = 1")),
    (isa("x :: nat", "[x \\<noteq> 1] (mod 12)"), isa("x :: nat", "\\<not> [x = 1] (mod 12)")),
    (isa("x :: nat", "[x = 1] (mod 12) \\<and> x > 3"), isa("x :: nat", "x > 3 \\<and> x mod 12 = 1")),
    (isa("x :: int", "[x = 3] (mod 2)"), isa("x :: int", "odd x")),
    (isa("x y :: nat", "[x = y] (mod 5)"), isa("x y :: nat", "[y = x] (mod 5)")),  # cong_sym_eq
    (isa("x :: nat", "[x = 0] (mod 0)"), isa("x :: nat", "x = 0")),  # cong_0: mod 0 is the identity
    # int mod is floor mod (the remainder has the divisor's sign), yet a congruence modulo -12 is one modulo 12
    (isa("x :: int", "[x = 11] (mod - 12)"), isa("x :: int", "[x = 11] (mod 12)")),
]
APART = [
    # `x - 1 mod 12` is `x - (1 mod 12)`: mod binds tighter than minus (infixl 70 against 65)
    (isa("x :: int", "[x - 1 = 1 - x] (mod 12)"), isa("x :: int", "x - 1 mod 12 = 1 - x mod 12")),
    (isa("x :: nat", "[x = 1] (mod 12)"), isa("x :: nat", "[x = 1] (mod 6)")),
    (isa("x :: nat", "[x = 1] (mod 12)"), isa("x :: nat", "x = 1")),
    (isa("x :: int", "[x = 11] (mod - 12)"), isa("x :: int", "x mod - 12 = 11")),  # x mod -12 is never positive
]


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


test_merge, test_apart = verdict_tests(MERGE, APART)


def test_congruence_reading(symeq):
    assert str(symeq.parse(isa("x :: nat", "[x = 1] (mod 12)"))).endswith("⊢ ((x % 12) = 1)")
    assert "¬" in str(symeq.parse(isa("x :: nat", "[x \\<noteq> 1] (mod 12)")))
    # a bracket that is no congruence is still a list literal
    assert str(symeq.parse(isa("x :: nat", "[x = 1] = [True]"))).endswith("⊢ ((x = 1) = True)")
    assert "ico(0, n)" in str(symeq.parse(isa("n :: nat", "sum_list [0..<n] = 3")))
