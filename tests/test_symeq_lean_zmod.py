"""`ZMod m` (m a literal or a variable) as Lean reads it: a commutative ring whose elements are residue classes,
modelled by integer representatives (`atf.symeq.smt.Translator.zmod`): `a = b` is `a ≡ b [ZMOD m]`, ring
operations and casts from ℕ/ℤ are the integer ones, anything else is uninterpreted. Also: a variable a type
depends on (`n` in `ZMod n`, `Fin n`) is never substituted away by the premise that fixes it."""

import pytest

from atf.symeq.equivalence import SymEq, parse
from tests.lean_statements import apart, merged, thm


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


MERGE = [
    # the residue classes' laws are the congruence's
    (
        thm("(n : ℕ)", "∀ a b : ZMod n, a * b = b * a"),
        thm("(n : ℤ)", "∀ a b : ℤ, a * b ≡ b * a [ZMOD n]"),
    ),
    # numerals are classes: 7 = 2 and 2 * 2 = 0 hold in ZMod 5 and ZMod 4
    (thm("(x : ZMod 5) (h : x = 7)", "x = 2"), thm("(x : ZMod 5) (h : x = 7)", "True")),
    (thm("(x : ℕ)", "(2 : ZMod 4) * 2 = 0"), thm("(x : ℕ)", "True")),
    (thm("(x : ZMod 6)", "x + 6 = x"), thm("(x : ZMod 6)", "True")),
    # x = 5 in ZMod n is 0 exactly when n divides 5 (n = 0: ZMod 0 is ℤ)
    (thm("(n : ℕ) (x : ZMod n) (h : x = 5)", "x = 0"), thm("(n : ℕ) (x : ZMod n) (h : x = 5)", "n = 5 ∨ n = 1")),
    (thm("(n : ℕ) (x : ZMod n) (h : x = 5)", "x = 0"), thm("(n : ℕ) (x : ZMod n) (h : x = 5)", "n ∣ 5")),
    # the premise n = 5 is kept (ZMod n depends on n) and used
    (thm("(n : ℕ) (hn : n = 5) (x : ZMod n) (h : x = 5)", "x = 0"), thm("(n : ℕ) (hn : n = 5) (x : ZMod n)", "True")),
]

APART = [
    (thm("(x : ℕ)", "(2 : ZMod 5) * 2 = 0"), thm("(x : ℕ)", "True")),
    (thm("(x : ZMod 5) (h : x = 7)", "x = 3"), thm("(x : ZMod 5) (h : x = 7)", "True")),
    (thm("(x : ZMod 0) (h : x = 5)", "x = 0"), thm("(x : ZMod 0) (h : x = 5)", "True")),
    # ZMod 6 has zero divisors
    (thm("(x y : ZMod 6) (h : x * y = 0)", "x = 0 ∨ y = 0"), thm("(x y : ZMod 6) (h : x * y = 0)", "True")),
    (thm("(n : ℕ)", "∀ a b : ZMod n, a * b = b * a"), thm("(n : ℤ)", "∀ a b : ℤ, a * b ≡ b * a + 1 [ZMOD n]")),
    # `val` is not the representative: val x = 3 and x = 9 differ in ZMod 6 only through what val is
    (thm("(x : ZMod 6) (h : x.val = 3)", "x = 3"), thm("(x : ZMod 6) (h : x.val = 3)", "True")),
    # ∃! and equality of pairs compare classes, not representatives (1 and 6 are one element of ZMod 5)
    (thm("", "∃! a : ZMod 5, a = 1"), thm("", "False")),
    (thm("(p : ZMod 5 × ZMod 5)", "p = (1, 2) ↔ p = (6, 2)"), thm("(p : ZMod 5 × ZMod 5)", "False")),
    (
        thm("(a : ZMod 5) (p q : ZMod 5 × ZMod 5) (h : p.1 = q.1 ∧ p.2 = q.2)", "p = q ∨ a = 0"),
        thm("(a : ZMod 5) (p q : ZMod 5 × ZMod 5) (h : p.1 = q.1 ∧ p.2 = q.2)", "a = 0"),
    ),
    # n = 6 restricts ZMod n: without it x * 6 = 0 fails for n = 4
    (thm("(n : ℕ) (hn : n = 6) (x : ZMod n)", "x * 6 = 0"), thm("(n : ℕ) (x : ZMod n)", "x * 6 = 0")),
    (thm("(n : ℕ) (hn : n = 6) (x : Fin n)", "x.val < 6"), thm("(n : ℕ) (x : Fin n)", "x.val < 6")),
]


@pytest.mark.parametrize("a,b", MERGE)
def test_residue_classes_merge_with_what_they_mean(symeq, a, b):
    assert merged(symeq, a, b)


@pytest.mark.parametrize("a,b", APART)
def test_residue_class_near_misses_stay_apart(symeq, a, b):
    assert apart(symeq, a, b)


def test_a_variable_a_type_depends_on_keeps_its_premise():
    st = parse(thm("(n : ℕ) (hn : n = 6) (x : ZMod n)", "x * 6 = 0"), "lean")
    assert "n" in dict(st.variables)
    assert any("n = 6" in str(p) for p in st.premises)
