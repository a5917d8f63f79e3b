"""Isabelle's `!` is List.nth (`nth :: 'a list ⇒ nat ⇒ 'a`, infixl "!" 100, List.thy), and HOL has no postfix
factorial (Factorial.thy's `fact n`). The front-end read `n!` as the factorial and `xs ! 0` as `(fact xs) 0`: the first
is text Isabelle rejects (every Isa-AutoFormal candidate writing `n!`, 12 of 12 with a recorded check, failed
Isabelle's own syntax check: the data's `syntax` field is 0), so it stays an unparsed proposition as other text
Isabelle does not accept; the second is the list's item."""

import pytest

from atf.symeq.equivalence import SymEq, parse
from tests.isabelle_statements import isa


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=2000)


FIXES = 'n a b :: nat and x :: real and xs :: "nat list"'


@pytest.mark.parametrize("shows", ["n! = 6", "(n - 1)! * 2 = 6", "15! = (n::nat)", "n! dvd 120"])
def test_a_postfix_bang_is_no_isabelle_term(shows):
    st = parse(isa(FIXES, shows), "isabelle")
    assert any(note.startswith("unparsed proposition") for note in st.opaque), st.opaque
    assert "fact" not in str(st.conclusion)


@pytest.mark.parametrize(
    "shows, read",
    [
        ("xs ! 1 = 2", "((uf:nth xs 1) = 2)"),
        ("xs ! 0 + xs ! 1 = 3", "(((uf:nth xs 0) + (uf:nth xs 1)) = 3)"),
        ("[x, 2.5] ! 0 = 1", "(x = 1)"),
        ("[a, b, 7] ! 2 = n", "(n = 7)"),
    ],
)
def test_bang_between_a_list_and_an_index_is_its_item(shows, read):
    st = parse(isa(FIXES, shows), "isabelle")
    assert not st.opaque, st.opaque
    assert str(st.conclusion) == read


def test_items_of_a_literal_list_merge_with_the_item(symeq):
    a = isa(FIXES, "[a, b] ! 1 = 3", ["a = 2"])
    assert symeq.compare(a, isa(FIXES, "b = 3", ["a = 2"])).equivalent
    assert not symeq.compare(a, isa(FIXES, "a = 3", ["a = 2"])).equivalent
    assert str(parse(isa(FIXES, "fact n = 6"), "isabelle").conclusion) == "(fact(n) = 6)"  # (the factorial HOL has)
