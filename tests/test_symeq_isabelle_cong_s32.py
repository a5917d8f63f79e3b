"""Isabelle's congruence notation `[a = b] (mod m)` (HOL-Number_Theory Cong.thy: `cong_def: [b = c] (mod a) ⟷
b mod a = c mod a`; `[b ≠ c] (mod a)` is `notcong`, `¬ cong b c a`) is read as that equation. It was an opaque
proposition, so the 16 Table 1 candidates that write it (7 miniF2F problems, 1 MATH problem) met no candidate that
writes `b mod a = c mod a`. A bracket that is no congruence stays a list."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.isabelle_statements import isa
from tests.lean_statements import fuzz_sample, verdict_tests

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


# ------------------------------------------------------------------------------------------ the Isabelle fuzzer


def test_isabelle_fuzzer_prints_congruences_suc_and_half_open_sums():
    from eval.symeq_fuzz import N, Z, holds
    from eval.symeq_fuzz_isabelle import show, show_prop

    x, n = ("var", "x", Z), ("num", 12, Z)
    cong = ("modeq", "MOD", n, x, ("num", 1, Z), "notation")
    assert show_prop(cong) == "[x = 1] (mod 12)"
    assert show_prop(("not", cong)) == "[x \\<noteq> 1] (mod 12)"
    # no leaf types the congruence: the first side is annotated
    bare = ("modeq", "MOD", ("num", 3, N), ("num", 4, N), ("num", 1, N), "notation")
    assert show_prop(bare) == "[(4 :: nat) = 1] (mod 3)"
    # Cong.thy on int: floor mod, yet the truth is divisibility of the difference, as the oracle evaluates it
    assert holds(cong, {"x": -11}) and not holds(cong, {"x": 11})
    assert holds(("modeq", "MOD", ("num", -12, Z), x, ("num", 1, Z), "notation"), {"x": 13})
    assert show(("nat", "Nat.succ", [("bin", "+", ("var", "n", N), ("num", 1, N), N)], N)) == "Suc (n + 1)"
    big = ("big", "∑", "i", ("Ico", ("num", 1, N), ("var", "n", N)), ("var", "i", N), N)
    assert show(big) == "(\\<Sum>i=1..<n. i)"
    # Factorial_Ring's prime of an int: no negative int is prime
    assert not holds(("pred", "Nat.Prime", x), {"x": -3}) and holds(("pred", "Nat.Prime", x), {"x": 3})


@pytest.mark.integration  # 3-7 s: a fuzz sample or two dev problems through Z3
def test_isabelle_fuzzer_writes_the_new_vocabulary_and_symeq_makes_no_suspect_merge(symeq):
    from eval.symeq_fuzz_isabelle import make_pairs

    pairs = make_pairs(seed=32, count=50)
    texts = " ".join(a + b for a, b, _, _ in pairs)
    for form in ("(mod ", "..<"):
        assert form in texts, form
    merged, suspects = fuzz_sample(symeq, pairs)
    assert merged >= 12
    assert suspects == []


def test_nested_brackets_are_read_in_polynomial_time(elaborations, monkeypatch):
    """A bracket is tried as a congruence, then read as a list: with each position's attempt remembered, and a list
    literal's items not read again as an arithmetic tree, `[[[…[x]…]]] = []` costs a polynomial in its depth (each
    level doubled the parse and the elaboration before: 14 levels took 80 s)."""
    from atf.symeq import isabelle_frontend
    from atf.symeq.equivalence import parse

    calls: list[int] = []
    real = isabelle_frontend._Parser.list_literal
    monkeypatch.setattr(isabelle_frontend._Parser, "list_literal", lambda self: calls.append(1) or real(self))
    parses, readings = {}, {}
    for depth in (6, 12):
        calls.clear()
        elaborations.clear()
        parse(isa("x :: nat", f"{'[' * depth}x{']' * depth} = []"), "isabelle")
        parses[depth], readings[depth] = len(calls), len(elaborations)
    assert parses[12] <= 5 * parses[6], parses  # at most quadratic (2^depth: 64 times more)
    assert readings[12] <= 5 * readings[6], readings
