"""`f |x|`: Mathlib's absolute value `|a|` (`macro:max atomic("|" noWs) a:term noWs "|" : term`,
Mathlib/Algebra/Order/Group/Unbundled/Abs.lean) has maximal precedence, so it is a function's argument like a
parenthesized term: `Real.log |x|` is `Real.log (abs x)`. The front-end took the bar for the end of the application,
and the whole proposition stayed one opaque text (`Real.log |x| = Real.log x` was not read as the theorem
`Real.log_abs` makes it)."""

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
