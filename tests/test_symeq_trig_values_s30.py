"""sin and cos at the multiples of π/6 where their value is rational (0, ±1/2, ±1), as Mathlib and Isabelle state
them (`Real.cos_pi_div_three`, `cos_60`, ...). SymEq kept sin and cos uninterpreted but for their bounds, so a
candidate that writes the value (`x = 1/2`) and one that writes `cos (π/3)` stayed apart, and a statement that is
true because of such a value could not be told from a false one."""

import math

import pytest

from atf.symeq import facts
from atf.symeq.equivalence import SymEq

TRUE_LEAN = "theorem t : (2 : ℝ) + 2 = 4 := by sorry"


@pytest.mark.parametrize("k", range(-6, 13))
@pytest.mark.parametrize("name, f", [("uf:sin", math.sin), ("uf:cos", math.cos)])
def test_every_stated_value_is_the_true_one(name, f, k):
    import z3

    x, pi, out = z3.Real("x"), z3.Real("pi"), z3.Real("out")
    stated = [
        c
        for c in facts.at_pi_multiples(name, x, pi, out)
        if z3.is_true(z3.simplify(z3.substitute(c.arg(0), (x, pi * z3.RealVal(f"{k}/6")))))
    ]
    value = f(k * math.pi / 6)
    rational = min(abs(value - v) for v in (0, 0.5, -0.5, 1, -1)) < 1e-12
    assert len(stated) == (1 if rational else 0)
    if stated:
        eq = stated[0].arg(1)
        (v,) = [z3.simplify(a).as_fraction() for a in eq.children() if z3.is_rational_value(z3.simplify(a))]
        assert abs(float(v) - value) < 1e-12


@pytest.mark.parametrize(
    "stmt",
    [
        "theorem t : Real.cos (Real.pi / 3) = 1 / 2 := by sorry",
        "theorem t : Real.sin (30 * Real.pi / 180) = 1 / 2 := by sorry",  # degrees
        "theorem t (x : ℝ) (h : x = Real.pi / 6) : 2 * Real.sin x = 1 := by sorry",
        "theorem t (x : ℝ) (h : x = Real.cos (2 * Real.pi / 3)) : x = -1 / 2 := by sorry",
        "theorem t : Real.sin (-Real.pi / 2) + Real.cos Real.pi = -2 := by sorry",
    ],
)
def test_a_true_value_is_known(stmt):
    assert SymEq("lean").cluster([stmt, TRUE_LEAN]).classes == [[0, 1]]


@pytest.mark.parametrize(
    "stmt",
    [
        "theorem t : Real.cos (Real.pi / 3) = 1 / 3 := by sorry",
        "theorem t : Real.sin (Real.pi / 3) = 1 / 2 := by sorry",  # √3/2, of which nothing is said
        "theorem t (x : ℝ) (h : x = Real.pi / 5) : 2 * Real.sin x = 1 := by sorry",
    ],
)
def test_nothing_else_is(stmt):
    assert sorted(SymEq("lean").cluster([stmt, TRUE_LEAN]).classes) == [[0], [1]]


def test_isabelle_candidates_that_write_the_value_merge_with_those_that_compute_it():
    a = 'theorem fixes x :: real assumes h0 : "x = cos (pi / 3)" shows "2 * x = 1"'
    b = 'theorem fixes y :: real assumes h0 : "y = 1 / 2" shows "2 * y = 1"'
    c = 'theorem fixes x :: real assumes h0 : "x = cos (pi / 3)" shows "3 * x = 1"'
    assert sorted(SymEq("isabelle").cluster([a, b, c]).classes) == [[0, 1], [2]]
