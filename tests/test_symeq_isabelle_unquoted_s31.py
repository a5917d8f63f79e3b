"""Isabelle's outer syntax lets a proposition that is atomic at the outer level go unquoted (isar-ref, "terms and
types": quotes may be omitted for a name or a number): `shows True`, `assumes h: P`. SymEq required quotes, so miniF2F
valid imo_1978_p5's candidate 6 (`shows  True`, which Isabelle accepted) had no statement at all
(eval/symeq_isabelle_syntax.py). An unquoted word followed by more of a term (`assumes h0: x > 0`) is no such
proposition and is not read as one."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.lean_statements import verdict_tests


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=1000)


MERGE = [
    (
        'theorem\nfixes f :: "nat \\<Rightarrow> nat" and n :: nat\nassumes h0 : "inj_on f {1..}"\nshows  True',
        'theorem\nfixes f :: "nat \\<Rightarrow> nat" and n :: nat\nassumes h0 : "inj_on f {1..}"\nshows "True"',
    ),
    (
        'theorem\nfixes x :: real and P :: bool\nassumes h0: P and h1: "x > 0"\nshows False',
        'theorem\nfixes x :: real and P :: bool\nassumes h0: "P" and h1: "x > 0"\nshows "False"',
    ),
    ("theorem\nfixes P :: bool\nassumes h0: P\nshows False\nby simp", 'theorem\nfixes P :: bool\nshows "\\<not> P"'),
]
APART = [
    ("theorem\nfixes P :: bool\nassumes h0: P\nshows P", 'theorem\nfixes P :: bool\nshows "False"'),
    ("theorem\nfixes x :: real\nshows True", "theorem\nfixes x :: real\nshows False"),
]

test_merge, test_apart = verdict_tests(MERGE, APART)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("theorem\nfixes x :: real\nshows  True", "⊢ True"),
        ('theorem\nfixes P :: bool\nassumes h0: P and h1: "P \\<longrightarrow> False"\nshows False', "P"),
        # not a proposition of its own: `x` followed by `> 0`; the quoted conclusion is still read
        ('theorem\nfixes x :: real\nassumes h0: x > 0\nshows "x > 0"', "⊢ (0 < x)"),
    ],
)
def test_unquoted_propositions_are_read(symeq, text, expected):
    st = symeq.parse(text)
    assert expected in str(st)
    if "x > 0" in text and "h0: x" in text:
        assert st.premises == []
