"""An Isabelle `sin`, `cos`, `exp`, `tan` or `ln` whose argument is a floor, ceiling, factorial or binomial reads that
argument once. Those functions read their own arguments at a type of their own whatever is expected of their result
(`floor :: 'a::floor_ceiling ⇒ int`, Archimedean_Field.thy; `fact :: nat ⇒ 'a`, Factorial.thy, read at nat as
SymEq's nat1 rule does), so the result read at real is the same term cast to real. SymEq read such an argument a
second time at real, and each floor read its own argument again: `sin (floor (sin (floor … x)))` took 2^depth
readings (4,068 at depth 14), a hostile statement's cost that only the pool's kill bounded."""

import pytest

from atf.symeq.equivalence import SymEq, parse


def alternating(depth: int, inner: str = "floor ({})") -> str:
    t = "x"
    for i in range(depth):
        t = f"sin ({inner.format(t)})" if i % 2 else inner.format(f"sin ({t})")
    return t


@pytest.mark.parametrize("inner", ["floor ({})", "ceiling ({})", "\\<lfloor>{}\\<rfloor>", "nat (floor ({}))"])
def test_alternating_floors_and_sines_are_read_in_linear_time(elaborations, inner):
    counts = {}
    for depth in (8, 16):
        elaborations.clear()
        st = parse(f'theorem fixes x :: real shows "{alternating(depth, inner)} = 0"', "isabelle")
        assert not st.opaque, st.opaque
        counts[depth] = len(elaborations)
    assert counts[16] <= 2 * counts[8] + 8, counts  # 2^depth before: 4,068 readings at depth 14


SAME = [
    ("sin (floor x) = 0", "sin (real_of_int (floor x)) = 0"),
    # (`of_int` written out has a result of any ring_1, which nothing here fixes: `real_of_int` is the cast to real)
    ("cos (ceiling x) = 1", "cos (real_of_int (ceiling x)) = 1"),
    ("exp (fact n) > 1", "exp (real (fact n)) > 1"),
    ("sin (floor (sin (floor x))) = 0", "sin (real_of_int (floor (sin (real_of_int (floor x))))) = 0"),
]


@pytest.mark.parametrize("a, b", SAME)
def test_the_argument_is_cast_as_isabelle_coerces_it(a, b):
    st_a = parse(f'theorem fixes x :: real and n :: nat shows "{a}"', "isabelle")
    st_b = parse(f'theorem fixes x :: real and n :: nat shows "{b}"', "isabelle")
    assert st_a.key() == st_b.key()
    assert SymEq("isabelle").compare(st_a.source, st_b.source).equivalent


def test_what_differs_inside_the_floor_still_differs():
    a = 'theorem fixes x :: real shows "sin (floor x) = 0"'
    b = 'theorem fixes x :: real shows "sin (floor (x + 1)) = 0"'
    assert not SymEq("isabelle").compare(a, b).equivalent
