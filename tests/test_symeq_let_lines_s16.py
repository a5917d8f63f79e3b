"""A `let` value ends where a line starts at the `let`'s column or left of it (Lean's `withPosition` on `let` and
`checkColGt` on application arguments), so SymEq reads `let m := n⏎E = m` as `let m := n; E = m`; and the metamorphic
probe cuts statements with the one statement reader (a `let`'s `:=` inside the conclusion, `![`, `lemma`), so its
variants are the statement it was given, changed at one place."""

import pytest

from atf.symeq import metamorphic as m
from atf.symeq.equivalence import SymEq
from atf.symeq.lean_frontend import tokenize_lines

H = "import Mathlib\n"


def words(text: str, first_col: int = 0) -> str:
    return " ".join(t for _, t in tokenize_lines(text, first_col))


@pytest.mark.parametrize(
    "text,first_col,want",
    [
        ("let m := n\nE = m", 0, "let m := n ; E = m"),
        ("let m := n\n  let k := m + 1\n  k = m", 2, "let m := n ; let k := m + 1 ; k = m"),
        # the value goes on: a deeper line is an argument, a line starting with an operator a trailing parser
        ("let m := f\n    n\n  m = 1", 2, "let m := f n ; m = 1"),
        ("let m := n\n  + 1\n  m = 1", 2, "let m := n + 1 ; m = 1"),
        # written with `;` already, or inside brackets: nothing added
        ("let m := n;\nE = m", 0, "let m := n ; E = m"),
        ("(let m := n\nm) = 1", 0, "( let m := n m ) = 1"),
        ("∃ y,\n    let z := x + y\n    z > 0 ∧\n      z < 5", 0, "∃ y , let z := x + y ; z > 0 ∧ z < 5"),
    ],
)
def test_a_line_break_ends_a_let_value_where_lean_ends_it(text, first_col, want):
    assert words(text, first_col) == want


def test_symeq_reads_a_line_broken_let_as_the_one_with_semicolons():
    a = (
        H
        + "theorem t (u c : ℝ) (hc : 0 < c) :\n  let p := (u + c) / 2\n"
        + "  let r := (c - u) ^ 2 / (4 * u)\n  p = r := by sorry"
    )
    b = H + "theorem t (u c : ℝ) (hc : 0 < c) : let p := (u + c) / 2; let r := (c - u) ^ 2 / (4 * u); p = r := by sorry"
    wrong = (
        H
        + "theorem t (u c : ℝ) (hc : 0 < c) : let p := (u + c) / 2; let r := (c - u) ^ 2 / (4 * u) p; p = r := by sorry"
    )
    s = SymEq("lean", timeout_ms=1000)
    assert s.compare(a, b).equivalent
    assert not s.compare(a, wrong).equivalent


@pytest.mark.parametrize(
    "text,conclusion",
    [
        (
            "theorem t (p : ℕ) (hp : p.Prime) :\n  let N := (Finset.range (p - 1)).prod (fun k => k ^ 2 + 1);\n"
            "  if p % 4 = 3 then N % p = 4 else N % p = 0 := by sorry",
            "let N := ( Finset.range ( p - 1 ) ) . prod ( fun k => k ^ 2 + 1 ) ; if p % 4 = 3 then N % p = 4 "
            "else N % p = 0",
        ),
        (
            "def A : Matrix (Fin 2) (Fin 2) ℝ := ![![1, 2], ![3, 4]]\n\n"
            "lemma A_sq : A * A = ![![7, 10], ![15, 22]] := by\n  sorry",
            "A * A = ![ ![ 7 , 10 ] , ![ 15 , 22 ] ]",
        ),
        (
            "theorem t (f : ℕ → ℕ) : (∀ n, f^[n] 0 = 0) ↔ f 0 = 0 := sorry",
            "( ∀ n , f ^[ n ] 0 = 0 ) ↔ f 0 = 0",
        ),
    ],
)
def test_the_probe_cuts_where_lean_does(text, conclusion):
    parts = m.cut(H + text)
    assert parts is not None and " ".join(t for _, t in parts.conclusion) == conclusion


def test_every_rewrite_of_a_let_statement_keeps_its_body():
    gold = H + (
        "theorem t (x : ℕ) (h₀ : 0 < x) :\n  let y := x + 1\n  let z := 2 * y\n  x < y ∧ z = 2 * x + 2 := by sorry"
    )
    rewrites = m.variants(gold, m.REWRITES)
    assert rewrites  # the statement is cut
    s = SymEq("lean", timeout_ms=1000)
    for kind, text in rewrites.items():
        assert text.count(":=") == 3 and text.count(" ; ") == 2, kind  # both lets, their body, the proof
        if kind in ("rename", "hyp_to_conclusion", "curry_all", "explicit_binders"):  # outside the opaque `let`s
            assert s.compare(gold, text).equivalent, kind


def test_the_preamble_keeps_defs_and_the_theorem_prefixes():
    gold = "import Mathlib\nopen Real\n-- c\ndef f (x : ℝ) : ℝ := x\n@[simp] lemma t : f 1 = 1 := by sorry"
    assert m.preamble(gold) == "import Mathlib\nopen Real\n\ndef f (x : ℝ) : ℝ := x\n@[simp] "


def test_inner_product_notation_is_an_application_of_inner_over_its_field():
    head = H + "theorem t {V : Type*} [NormedAddCommGroup V] [InnerProductSpace ℂ V] (u v : V) : "
    a = head + "⟪u, v⟫_ℂ = (‖u + v‖ ^ 2 - ‖u - v‖ ^ 2) / 4 := by sorry"
    swapped = head + "(‖u + v‖ ^ 2 - ‖u - v‖ ^ 2) / 4 = ⟪u, v⟫_ℂ := by sorry"
    other_order = head + "(‖u + v‖ ^ 2 - ‖u - v‖ ^ 2) / 4 = ⟪v, u⟫_ℂ := by sorry"
    other_field = head + "(‖u + v‖ ^ 2 - ‖u - v‖ ^ 2) / 4 = ⟪u, v⟫_ℝ := by sorry"
    s = SymEq("lean", timeout_ms=1000)
    assert s.compare(a, swapped).equivalent
    assert not s.compare(a, other_order).equivalent
    assert not s.compare(a, other_field).equivalent
