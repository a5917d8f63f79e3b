"""Z3 translation follows each system's semantics: ℕ subtraction, division by zero, integer division
and remainder conventions, casts, square roots, powr."""

import pytest

from atf.symeq.equivalence import parse, truth


def lean(concl: str, binders: str = "") -> str:
    return f"theorem t {binders} : {concl} := by sorry"


def isa(shows: str, fixes: str = "", assumes: str = "") -> str:
    out = "theorem\n"
    if fixes:
        out += f"fixes {fixes}\n"
    if assumes:
        out += f'assumes h0: "{assumes}"\n'
    return out + f'shows "{shows}"'


def holds(text: str, language: str) -> str:
    return truth(parse(text, language), timeout_ms=5000)


@pytest.mark.parametrize(
    "text,expected",
    [
        # natural subtraction truncates; integer subtraction does not
        (lean("a - b = 0", "(a b : ℕ) (h : a < b)"), "valid"),
        (lean("a - b = 0", "(a b : ℤ) (h : a < b)"), "invalid"),
        # division by zero is zero (ℝ, ℕ, ℤ); x % 0 = x
        (lean("x / 0 = 0", "(x : ℝ)"), "valid"),
        (lean("n / 0 = 0 ∧ n % 0 = n", "(n : ℕ)"), "valid"),
        (lean("a / 0 = 0 ∧ a % 0 = a", "(a : ℤ)"), "valid"),
        # Lean's `/` and `%` on ℤ are Euclidean: -7 = 2 * (-4) + 1 and 7 = (-2) * (-3) + 1
        (lean("a / 2 = -4 ∧ a % 2 = 1", "(a : ℤ) (h : a + 7 = 0)"), "valid"),
        (lean("a / (-2) = -3 ∧ a % (-2) = 1", "(a : ℤ) (h : a - 7 = 0)"), "valid"),
        (
            lean("Int.fdiv a (-2) = -4 ∧ Int.tdiv (-a) 2 = -3 ∧ Int.tmod (-a) 2 = -1", "(a : ℤ) (h : a - 7 = 0)"),
            "valid",
        ),
        # ℕ division floors
        (lean("n / 2 = 3 ∧ n % 2 = 1", "(n : ℕ) (h : n + 1 = 8)"), "valid"),
        # coercions go on the leaves (binop%): (n - 5 : ℝ) is ↑n - 5, not ↑(n - 5)
        (lean("(n - 5 : ℝ) = -2", "(n : ℕ) (h : n + 1 = 4)"), "valid"),
        (lean("((n - 5 : ℕ) : ℝ) = 0", "(n : ℕ) (h : n + 1 = 4)"), "valid"),
        (lean("(x : ℝ) / 2 = 3 / 2", "(x : ℕ) (h : x + 1 = 4)"), "valid"),
        (lean("x / 2 = 1", "(x : ℕ) (h : x + 1 = 4)"), "valid"),
        # √ of a negative number is 0 in Lean; ⌊-1.5⌋ = -2; Int.toNat truncates
        (lean("Real.sqrt (-4) = 0 ∧ √4 = 2", ""), "valid"),
        (lean("Real.sqrt x ^ 2 = x", "(x : ℝ) (h : 0 ≤ x)"), "valid"),
        (lean("Real.sqrt x ^ 2 = x", "(x : ℝ)"), "invalid"),
        (lean("⌊x⌋ = -2", "(x : ℝ) (h : 2 * x = -3)"), "valid"),
        (lean("Int.toNat a = 0", "(a : ℤ) (h : a < 0)"), "valid"),
    ],
)
def test_lean_semantics(text, expected):
    assert holds(text, "lean") == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        # Isabelle `div`/`mod` on int round toward -∞: -7 div 2 = -4, 7 div -2 = -4, 7 mod -2 = -1
        (isa("a div 2 = -4 \\<and> a mod 2 = 1", "a :: int", "a + 7 = 0"), "valid"),
        (isa("a div (-2) = -4 \\<and> a mod (-2) = -1", "a :: int", "a - 7 = 0"), "valid"),
        (isa("a div 0 = 0 \\<and> a mod 0 = a", "a :: int"), "valid"),
        # natural subtraction truncates
        (isa("a - b = 0", "a b :: nat", "a < b"), "valid"),
        (isa("x / 0 = 0", "x :: real"), "valid"),
        # sqrt of a negative number is minus the root of its opposite
        (isa("sqrt (-4) = -2", ""), "valid"),
        (isa("sqrt x * sqrt x = x", "x :: real", "x \\<ge> 0"), "valid"),
        # x powr 2 is x^2 only for positive x
        (isa("x powr 2 = x^2", "x :: real", "x > 0"), "valid"),
        (isa("x powr 2 = x^2", "x :: real"), "invalid"),
        (isa("real n / 2 = 3 / 2", "n :: nat", "n + 1 = 4"), "valid"),
        (isa("nat z = 0", "z :: int", "z < 0"), "valid"),
        (isa("\\<lfloor>x\\<rfloor> = -2", "x :: real", "2 * x = -3"), "valid"),
    ],
)
def test_isabelle_semantics(text, expected):
    assert holds(text, "isabelle") == expected


def test_same_text_different_systems_disagree_on_int_division():
    # 7 div -2: Lean's Euclidean division gives -3, Isabelle's floor division gives -4
    assert holds(lean("a / (-2) = -3", "(a : ℤ) (h : a = 7)"), "lean") == "valid"
    assert holds(isa("a div (-2) = -4", "a :: int", "a = 7"), "isabelle") == "valid"
    assert holds(isa("a div (-2) = -3", "a :: int", "a = 7"), "isabelle") == "invalid"


def test_constant_folding_agrees_with_z3():
    # the same facts decided by the simplifier (literals) and by Z3 (through a premise)
    for concl in ("(-7 : ℤ) / 2 = -4", "(-7 : ℤ) % 2 = 1", "(7 : ℤ) / (-2) = -3", "(2 : ℕ) - 5 = 0", "(7 : ℕ) % 0 = 7"):
        st = parse(lean(concl), "lean")
        assert st.conclusion.op == "true", concl
    st = parse(isa("(7::int) div (-2) = -4"), "isabelle")
    assert st.conclusion.op == "true"


def test_unknown_functions_are_uninterpreted():
    # nothing is known about ln, so ln x = ln y does not follow from x ≠ y ... but congruence holds
    assert holds(isa("ln x = ln y", "x y :: real", "x = y + 0"), "isabelle") == "valid"
    assert holds(isa("ln x = 1", "x :: real"), "isabelle") == "invalid"
