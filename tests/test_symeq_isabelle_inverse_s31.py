"""Isabelle's `inverse` (Fields.thy: `inverse :: 'a ⇒ 'a` of class inverse; in a field `inverse 0 = 0`) is read as the
arithmetic inverse, as Lean's `x⁻¹` is; it was an uninterpreted function, so `- x - inverse 4 < 4` and
`- x - 1/4 < 4` stayed apart (found by eval/symeq_fuzz_isabelle.py). A tree of nat or int leaves under `inverse` is
read at real, as under `/`. Also the Isabelle fuzzer's oracle and a fixed sample of its pairs."""

import pytest

from atf.symeq.equivalence import SymEq
from eval.symeq_fuzz import FUN, N, R, Z, value
from eval.symeq_fuzz_isabelle import make_pairs, show, statement
from tests.lean_statements import fuzz_sample, verdict_tests


def isa(fixes: str, shows: str) -> str:
    return f'theorem\nfixes {fixes}\nshows "{shows}"'


MERGE = [
    (isa("x :: rat", "- x - inverse 4 < 4"), isa("x :: rat", "- x - 1/4 < 4")),
    (isa("x :: real", "inverse x * x = 1"), isa("x :: real", "x \\<noteq> 0")),
    (isa("x :: real", "inverse (x / 2) = 2 / x"), isa("x :: real", "True")),
    (isa("x :: real", "inverse (inverse x) = x"), isa("x :: real", "True")),
    (isa("x :: real", "inverse 0 = (0 :: real)"), isa("x :: real", "True")),
    (isa("x :: nat", "inverse x = 1 / x"), isa("x :: nat", "True")),
    (isa("x y :: real", "x * inverse y = x / y"), isa("x :: real", "True")),
]
APART = [
    (isa("x :: real", "inverse x > 0"), isa("x :: real", "x > 1")),
    (isa("x :: real", "inverse x * x = 1"), isa("x :: real", "True")),
    (isa("x :: rat", "- x - inverse 4 < 4"), isa("x :: rat", "- x - 1/5 < 4")),
    (isa("x :: real", "inverse x = 2"), isa("x :: real", "x = 2")),
]


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


test_merge, test_apart = verdict_tests(MERGE, APART)


def test_inverse_is_read_as_the_inverse(symeq):
    assert "inv(y)" in str(symeq.parse(isa("x y :: rat", "inverse y = x")))
    assert "(1/4)" in str(symeq.parse(isa("x :: rat", "inverse 4 = x")))


# ------------------------------------------------------------------------------------------ the fuzzer


@pytest.mark.parametrize(
    "t,expected",
    [
        # Isabelle's int div and mod: floor division, the remainder has the divisor's sign (-7 mod 2 = 1, 7 mod -2 = -1)
        (("bin", "div", ("num", -7, Z), ("num", 2, Z), Z), -4),
        (("bin", "mod", ("num", 7, Z), ("num", -2, Z), Z), -1),
        (("bin", "div", ("num", 7, Z), ("num", -2, Z), Z), -4),
        (("bin", "mod", ("num", 7, Z), ("num", 0, Z), Z), 7),
        (("bin", "-", ("num", 2, N), ("num", 5, N), N), 0),
    ],
)
def test_isabelle_oracle_arithmetic(t, expected):
    assert value(t, {}) == expected


def test_isabelle_printer_annotates_what_no_leaf_types():
    # an index bound by numerals only is annotated (over an infinite type the set would be infinite)
    big = ("big", "∑", "i", ("range", ("num", 5, N)), ("var", "x", R), R)
    assert show(big) == "(\\<Sum>i<(5 :: nat). x)"
    text = statement({"x": R}, [], ("rel", "≤", ("var", "x", R), ("num", 2, R)))
    assert text == 'theorem\nfixes x :: real\nshows "x \\<le> 2"'


@pytest.mark.integration  # 3-7 s: a fuzz sample or two dev problems through Z3
def test_symeq_makes_no_suspect_merge_on_a_fixed_isabelle_sample(symeq):
    merged, suspects = fuzz_sample(symeq, make_pairs(seed=31, count=50))
    assert merged >= 10
    assert suspects == []


def test_isabelle_function_binders_are_printed_and_typed():
    text = statement({"x": N, "f": FUN + N}, [], ("rel", "=", ("app", "f", ("var", "x", N), N), ("num", 0, N)))
    assert text == 'theorem\nfixes x :: nat and f :: "nat \\<Rightarrow> nat"\nshows "f x = 0"'
