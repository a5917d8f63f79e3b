"""`f |x|`: Mathlib's absolute value `|a|` (`macro:max atomic("|" noWs) a:term noWs "|" : term`,
Mathlib/Algebra/Order/Group/Unbundled/Abs.lean) has maximal precedence, so it is a function's argument like a
parenthesized term: `Real.log |x|` is `Real.log (abs x)`. The front-end took the bar for the end of the application,
and the whole proposition stayed one opaque text (`Real.log |x| = Real.log x` was not read as the theorem
`Real.log_abs` makes it).

`‖x‖`: Mathlib's norm (`Norm.norm`), a real. Of a real it is |x| (`Real.norm_eq_abs`), of an integer or a rational
the absolute value cast to ℝ (`Int.norm_eq_abs`, `Rat.norm_cast_real`), of a complex number `Complex.abs`
(`Complex.norm_eq_abs`); of anything else (a vector of `EuclideanSpace ℝ (Fin n)`) a real-valued function of its
argument that SymEq does not model. It was one opaque text whatever the type, so `‖x‖ = 1` and `|x| = 1` stayed
apart."""

import pytest

from atf.symeq.equivalence import SymEq, parse
from tests.lean_statements import apart, merged, thm


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


@pytest.mark.parametrize(
    "concl, read",
    [
        ("Real.log |x| = Real.log x", "((uf:ln abs(x)) = (uf:ln x))"),
        ("Real.sqrt |x| = 2", "(sqrt(abs(x)) = 2)"),
        ("max |x| |y| = 1", "(max(abs(x), abs(y)) = 1)"),
        # (`||` is one token, Bool's or, for Lean's longest-match tokenizer: nested bars are written `|x - |y| |`)
        ("|x - |y| | = 1", "(abs((x - abs(y))) = 1)"),
        ("Real.sqrt |x| * |y| = |x * y|", "((sqrt(abs(x)) * abs(y)) = abs((x * y)))"),
    ],
)
def test_an_absolute_value_is_an_argument(concl, read):
    st = parse(thm("(x y : ℝ)", concl), "lean")
    assert not st.opaque, st.opaque
    assert str(st.conclusion) == read


def test_log_of_an_absolute_value_is_the_log(symeq):
    assert merged(symeq, thm("(x : ℝ) (h : Real.log |x| = 2)", "x ≠ 0"), thm("(x : ℝ) (h : Real.log x = 2)", "x ≠ 0"))
    assert apart(symeq, thm("(x : ℝ) (h : Real.sqrt |x| = 2)", "x = 4"), thm("(x : ℝ) (h : Real.sqrt x = 2)", "x = 4"))


B = "(x y : ℝ) (a : ℤ) (q : ℚ) (z : ℂ)"


@pytest.mark.parametrize(
    "a, b",
    [
        ("‖x‖ = 1", "|x| = 1"),
        ("‖a‖ = 2", "|a| = 2"),
        ("‖q‖ ≤ 1 / 2", "|q| ≤ 1 / 2"),
        ("‖z‖ = 1", "Complex.abs z = 1"),
        ("‖x - y‖ < 1", "|y - x| < 1"),
        ("‖x - ‖y‖ ‖ = 0", "x = |y|"),
    ],
)
def test_the_norm_of_a_number_is_its_absolute_value(symeq, a, b):
    assert merged(symeq, thm(B, a), thm(B, b))


@pytest.mark.parametrize("a, b", [("‖x‖ = 1", "x = 1"), ("‖a‖ = 2", "a = 2"), ("‖z‖ = 1", "z = 1")])
def test_a_norm_is_not_the_number(symeq, a, b):
    assert apart(symeq, thm(B, a), thm(B, b))


def test_a_vector_norm_is_a_real_function_of_the_vector():
    st = parse(thm("(n : ℕ) (u v : EuclideanSpace ℝ (Fin n)) (d : ℝ)", "‖u - v‖ = d"), "lean")
    lhs = st.conclusion.args[0]
    assert str(lhs) == "(norm (u - v))" and repr(lhs.ty) == "Base(name='real')", (str(lhs), lhs.ty)
    assert [a.name for a in lhs.args] == ["u", "v"]
