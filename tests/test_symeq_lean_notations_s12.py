"""Lean 4's operator precedences, as the core notations declare them (Init/Prelude): `infixr:80 " ^ "`,
`prefix:75 "-"`, `infixl:70 " * "`, `infixr:73 " • "`. So `-x ^ 2` is `-(x ^ 2)` (the negation's operand takes
every trailing operator of precedence >= 75) while `-a * b` is `(-a) * b`, and `a • b • v` is `a • (b • v)`.
Reading `-x ^ 2` as `(-x) ^ 2` (the front-end did, with `^` at 75) merged `-x ^ 2 ≤ 0`, true for every x, with
`(-x) ^ 2 ≤ 0`, which holds only at 0.

Mathlib's `notation:max f "^["n"]" => Nat.iterate f n` is one token `^[` (it was read as `^` of a list): `f^[3] x`
is `f (f (f x))` by the definition of `Nat.iterate`, and `deriv^[2] f a` is `deriv (deriv f) a`."""

import pytest

from atf.lean.statement import parse_statement
from atf.symeq import ir
from atf.symeq.equivalence import SymEq, parse, truth
from tests.lean_statements import thm, verdict_tests


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


ITER = "(f : ℕ → ℕ) (h : ∀ n, f n = n + 1)"

MERGE = [
    (thm("(x : ℝ)", "-x ^ 2 ≤ 0"), thm("(x : ℝ)", "-(x ^ 2) ≤ 0")),
    (thm("(x : ℤ)", "-x ^ 2 + 1 = 0 → False"), thm("(x : ℤ)", "1 - x ^ 2 ≠ 0")),
    (thm("(x : ℤ) (h : x = -2 ^ 2)", "x < 0"), thm("(x : ℤ) (h : x = -4)", "x < 0")),
    (thm("(a b : ℤ)", "-a * b = 6"), thm("(a b : ℤ)", "(-a) * b = 6")),
    (thm("(x : ℝ)", "-x ^ 2 ^ 2 ≤ 0"), thm("(x : ℝ)", "-(x ^ 4) ≤ 0")),
    (thm("(f : ℝ → ℝ) (a : ℝ)", "deriv^[2] f a = 0"), thm("(f : ℝ → ℝ) (a : ℝ)", "deriv (deriv f) a = 0")),
    (thm(ITER, "f^[3] 0 = 3"), thm(ITER, "f (f (f 0)) = 3")),
    (thm("(f : ℕ → ℕ) (x : ℕ)", "Nat.iterate f 2 x = x"), thm("(f : ℕ → ℕ) (x : ℕ)", "f^[2] x = x")),
    (thm("(f : ℕ → ℕ) (x : ℕ)", "f^[0] x = x"), thm("(f : ℕ → ℕ) (x : ℕ)", "x = x")),
]

APART = [
    (thm("(x : ℝ)", "-x ^ 2 ≤ 0"), thm("(x : ℝ)", "(-x) ^ 2 ≤ 0")),
    (thm("(x : ℤ) (h : x = -2 ^ 2)", "x < 0"), thm("(x : ℤ) (h : x = (-2) ^ 2)", "x < 0")),
    (thm("(x : ℝ) (h : 0 < x)", "-x ^ 3 < 0"), thm("(x : ℝ) (h : 0 < x)", "(-x) ^ 2 < 0")),
    (thm("(a b : ℤ)", "-a * b = 6"), thm("(a b : ℤ)", "-(a + b) = 6")),
    (thm("(f : ℝ → ℝ) (a : ℝ)", "deriv^[2] f a = 0"), thm("(f : ℝ → ℝ) (a : ℝ)", "deriv^[3] f a = 0")),
    (thm("(f : ℕ → ℕ) (k n : ℕ)", "f^[k] n = n"), thm("(f : ℕ → ℕ) (k n : ℕ)", "f^[k] n = k")),
    (thm(ITER, "f^[3] 0 = 3"), thm(ITER, "f^[2] 0 = 3")),
]

test_merge, test_apart = verdict_tests(MERGE, APART)


@pytest.mark.parametrize(
    "body,want",
    [
        ("-(2 : ℤ) ^ 2 = -4", "valid"),
        ("-2 ^ 2 = (-4 : ℤ)", "valid"),
        ("(-2 : ℤ) ^ 2 = 4", "valid"),
        ("-(2 : ℤ) ^ 2 = 4", "invalid"),
        ("(2 : ℕ) ^ 3 ^ 2 = 512", "valid"),
        ("∀ f : ℕ → ℕ, (∀ n, f n = n + 2) → f^[3] 1 = 7", "valid"),
        ("∀ f : ℕ → ℕ, (∀ n, f n = n + 2) → f^[3] 1 = 5", "invalid"),
    ],
)
def test_closed_values(body, want):
    assert truth(parse(thm("", body), "lean")) == want


def test_smul_is_right_associative():
    st = parse(thm("(a b : ℝ) (v : ℝ × ℝ)", "a • b • v = v"), "lean")
    assert ir.show(st.conclusion.args[0]) == "(uf:op:smul a (uf:op:smul b v))"


def test_vector_literal_is_not_a_factorial():
    """`![a, b]` is Mathlib's vector notation (`Matrix.vecCons`), one token `![`; `x !` stays the factorial."""
    st = parse(thm("(f : (Fin 2 → ℝ) → ℝ)", "f ![1, 2] = 3"), "lean")
    assert ir.show(st.conclusion) == "((f (uf:op:vec 1 2)) = 3)"
    assert truth(parse(thm("(x : ℕ) (h : x = 3)", "x ! = 6"), "lean")) == "valid"


NONNEG = [
    (thm("(x : ℝ≥0) (h : 1 < x)", "0 < x"), thm("(y : NNReal) (h : 1 < y)", "0 < y")),
    (thm("(f : ℕ → ℝ≥0∞) (h : ∀ n, f n = 1)", "f 2 = 1"), thm("(g : ℕ → ENNReal) (h : ∀ n, g n = 1)", "g 2 = 1")),
]
NONNEG_APART = [
    (thm("(x : ℝ≥0)", "0 ≤ (x : ℝ)"), thm("(x : ℝ)", "0 ≤ x")),
    (thm("(x y : ℝ≥0) (h : x < y)", "x - y = 0"), thm("(x y : ℝ) (h : x < y)", "x - y = 0")),
]
test_nonneg_merge, test_nonneg_apart = verdict_tests(NONNEG, NONNEG_APART)


@pytest.mark.parametrize("ty,name", [("ℝ≥0", "NNReal"), ("ℝ≥0∞", "ENNReal"), ("ℚ≥0", "NNRat")])
def test_nonneg_type_notation_is_a_type(ty, name):
    """`ℝ≥0` is Mathlib's `notation "ℝ≥0" => NNReal`: `(x : ℝ≥0)` declares a variable, it is no hypothesis `ℝ ≥ 0`."""
    text = thm(f"(x : {ty}) (h : x = 2)", "x + x = 4")
    assert [b.names for b in parse_statement(text).hypotheses] == [["h"]]
    st = parse(thm(f"(x y : {ty}) (h : x < y)", "x - y = 0"), "lean")
    assert st.variables == {"x": ir.Sort(name), "y": ir.Sort(name)}


EQUIV = "(G : Type*) [Group G] ({f} : G ≃* G) (h : ∀ g, {f} g = {rhs})"
EQUIVS = [
    (
        thm(EQUIV.format(f="φ", rhs="g⁻¹"), "∀ a b : G, a * b = b * a"),
        thm(EQUIV.format(f="ψ", rhs="g⁻¹"), "∀ a b : G, a * b = b * a"),
    )
]
EQUIVS_APART = [
    (
        thm(EQUIV.format(f="φ", rhs="g⁻¹"), "∀ a b : G, a * b = b * a"),
        thm(EQUIV.format(f="ψ", rhs="g"), "∀ a b : G, a * b = b * a"),
    )
]
test_equiv_merge, test_equiv_apart = verdict_tests(EQUIVS, EQUIVS_APART)


@pytest.mark.parametrize("ty", ["G ≃* G", "Fin 5 ≃ Fin 5", "R ≃+* R", "V ≃ₗ[ℝ] V", "X ≅ Y"])
def test_equivalence_types_declare_variables(ty):
    """`≃` (Equiv and its bundled kinds) and `≅` (Iso) build types of data: `(φ : G ≃* G)` is a variable."""
    text = thm(f"(φ : {ty}) (h : φ = φ)", "True")
    assert [b.names for b in parse_statement(text).hypotheses] == [["h"]]


@pytest.mark.parametrize(
    "literal,value",
    [("1e3", "1000"), ("2.5e-1", "1 / 4"), ("0x10", "16"), ("0b101", "5"), ("0o17", "15"), ("12.5", "25 / 2")],
)
def test_numeric_literals(literal, value):
    """Lean 4's numerals (`numberFn`): hexadecimal, binary, octal, and scientific `2.5e-1`, which were read as a
    numeral applied to a name (`2.5 e - 1`)."""
    assert truth(parse(thm("(x : ℝ)", f"x = {literal} → x = {value}"), "lean")) == "valid"


TRIPLE = "(p : ℕ × ℕ × ℕ)"
PROJECTIONS = [
    (thm(TRIPLE, "p.2.1 = 3"), thm(TRIPLE, "(p.2).1 = 3")),
    (thm(TRIPLE, "p.2.2 = p.1"), thm(TRIPLE, "p.1 = (p.2).2")),
]
PROJECTIONS_APART = [
    (thm(TRIPLE, "p.2.1 = 3"), thm(TRIPLE, "p.2.2 = 3")),
    (thm(TRIPLE, "p.2.1 = 3"), thm(TRIPLE, "p.2 = (3, 3)")),
]
# `p.2.1` is `(p.2).1`: after `p.` come field indices (Lean's `fieldIdx`), it is no number 2.1
test_projection_merge, test_projection_apart = verdict_tests(PROJECTIONS, PROJECTIONS_APART)


RANGE = "(n : ℕ)"
FILTERS = [
    (
        thm(RANGE, "((Finset.range n).filter (fun x => x % 2 = 0)).card = 5"),
        thm(RANGE, "(Finset.filter (fun x => x % 2 = 0) (Finset.range n)).card = 5"),
    ),
    (thm(RANGE, "((Finset.range n).filter (· % 2 = 0)).card = 5"), thm(RANGE, "#{x ∈ Finset.range n | x % 2 = 0} = 5")),
]
FILTERS_APART = [
    (
        thm(RANGE, "((Finset.range n).filter (fun x => x % 2 = 0)).card = 5"),
        thm(RANGE, "((Finset.range n).filter (fun x => x % 3 = 0)).card = 5"),
    ),
    (thm(RANGE, "((Finset.range n).filter (fun x => x % 2 = 0)).card = 5"), thm(RANGE, "(Finset.range n).card = 5")),
]
# `s.filter p` is `Finset.filter p s` (generalized field notation fills the first explicit argument of type Finset, and
# `Finset.filter (p : α → Prop) [DecidablePred p] (s : Finset α)`): the predicate was dropped, a false merge
test_filter_merge, test_filter_apart = verdict_tests(FILTERS, FILTERS_APART)


POLY = "(p : Polynomial ℝ) (x : ℝ)"
EVALS = [
    (
        thm(f"{POLY} (h : p.eval x = 0)", "p.eval (2 * x) = 0"),
        thm(f"{POLY} (h : Polynomial.eval x p = 0)", "Polynomial.eval (2 * x) p = 0"),
    ),
    (thm("(l : List ℕ)", "l.count 3 = 2"), thm("(l : List ℕ)", "List.count 3 l = 2")),
]
EVALS_APART = [
    (thm(f"{POLY} (h : p.eval x = 0)", "p.eval (2 * x) = 0"), thm(f"{POLY} (h : p.eval x = 0)", "p.eval (3 * x) = 0")),
]
# `Polynomial.eval (x : R) (p : R[X])` and `List.count (a : α) (l : List α)` take the receiver second
test_eval_merge, test_eval_apart = verdict_tests(EVALS, EVALS_APART)


PADIC = "(p : ℕ) [Fact p.Prime] ({x} : {ty}) (h : {x} ^ 2 = 1)"
PADICS = [
    (
        thm(PADIC.format(x="x", ty="ℤ_[p]"), "x = 1 ∨ x = -1"),
        thm(PADIC.format(x="y", ty="PadicInt p"), "y = 1 ∨ y = -1"),
    ),
]
PADICS_APART = [
    (thm(PADIC.format(x="x", ty="ℤ_[p]"), "x = 1 ∨ x = -1"), thm(PADIC.format(x="x", ty="ℚ_[p]"), "x = 1 ∨ x = -1")),
]
# `ℤ_[p]` is Mathlib's notation for `PadicInt p` (`ℚ_[p]`: `Padic p`): the binder `(x : ℤ_[p])` declares a variable
# (it was read as a hypothesis, and x as a constant)
test_padic_merge, test_padic_apart = verdict_tests(PADICS, PADICS_APART)
