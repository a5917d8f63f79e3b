"""What a Lean name means where the theorem stands, from the session-27 probe's false merges:

- a later binder of the same name shadows an earlier one (Lean makes it inaccessible, `n✝`): in
  `(n : ℕ) (hn : n = 2) (n : ℕ) : n = 2` the hypothesis and the conclusion speak of two variables;
- a variable may be called `sqrt` (Z3's translation read any call of a name `sqrt` as the square root);
- the text's own declarations shadow Mathlib's names (`def choose`, `local notation "π" => (4 : ℝ)`);
- an `open` inside a `section`/`namespace` that has ended is not in force; the namespaces the theorem sits in are
  (`namespace Nat` makes `sqrt` `Nat.sqrt`); `open Real hiding sqrt` and `open Real (pi)` do not open `Real.sqrt`;
- Lean 3's `λ x, e` is no Lean 4 term (`fun` takes `=>` or `↦`).
"""

import pytest

from atf.symeq.equivalence import SymEq
from tests.symeq_pairs import same_lean

H = "import Mathlib\n"


def same_texts(a: str, b: str) -> bool:
    return SymEq("lean", timeout_ms=1000).compare(a, b).equivalent


def thm(preamble: str, signature: str) -> str:
    return f"{H}{preamble}\ntheorem t {signature} := by sorry"


@pytest.mark.parametrize(
    "a,b",
    [
        ("(n : ℕ) (hn : n = 2) (n : ℕ) : n = 2", "(n : ℕ) (hn : n = 2) (n : ℕ) : True"),
        ("(x : ℕ) (hx : x > 0) (x : ℕ) : x > 0", ": True"),
        ("(x y : ℕ) (h : x = y) (y : ℕ) : x = y", ": True"),
        ("(x : ℝ) (x : ℕ) : x - 1 + 1 = x", ": True"),
        ("(sqrt : ℝ → ℝ) : sqrt 9 = 3", "(sqrt : ℝ → ℝ) : sqrt 4 = 2"),
        ("(sqrt : ℕ → ℕ) : sqrt 4 = 2", ": True"),
        (": ∀ sqrt : ℝ → ℝ, sqrt 4 = 2", ": True"),
        (": (λ x, x * 2) 3 = 6", ": (fun x => x * 2) 3 = 6"),
    ],
)
def test_binders_and_terms_false_merges(a, b):
    assert not same_lean(a, b)


@pytest.mark.parametrize(
    "a,b",
    [
        ("(x : ℕ) (x : ℝ) : x - 1 + 1 = x", ": True"),
        ("(n : ℕ) (hn : n = 2) (n : ℕ) : n = 2", "(m : ℕ) (hm : m = 2) (n : ℕ) : n = 2"),
        (": √4 = 2", ": True"),
        (": (fun x => x * 2) 3 = 6", ": True"),
    ],
)
def test_binders_and_terms_merges(a, b):
    assert same_lean(a, b)


@pytest.mark.parametrize(
    "preamble,signature,true_signature",
    [
        ("def choose (n k : ℕ) : ℕ := 0", ": choose 5 2 = 10", ": True"),
        ("noncomputable def sqrt (x : ℝ) : ℝ := x + 1", ": sqrt 4 = 2", ": True"),
        ('local notation "π" => (4 : ℝ)', ": π < 3.2", ": True"),
        ('open Real\nlocal notation "π" => (4 : ℝ)', ": π < 3.2", ": True"),
        ("namespace Nat", "(n : ℕ) (h : n = 10) : (sqrt n : ℝ) = Real.sqrt 10", "(n : ℕ) (h : n = 10) : True"),
        ("open Nat\nsection\nopen Real\nend", "(n : ℕ) : sqrt n * sqrt n = n", "(n : ℕ) : True"),
        ("open Nat\nopen Real hiding sqrt", "(n : ℕ) : sqrt n * sqrt n = n", "(n : ℕ) : True"),
        ("open Nat\nopen Real (pi)", "(n : ℕ) : sqrt n * sqrt n = n", "(n : ℕ) : True"),
    ],
)
def test_names_the_text_scopes_are_not_mathlibs(preamble, signature, true_signature):
    assert not same_texts(thm(preamble, signature), thm(preamble, true_signature))


@pytest.mark.parametrize(
    "a,b",
    [
        (thm("open Real", ": sqrt 4 = 2"), thm("", ": Real.sqrt 4 = 2")),
        (thm("open Real", ": π > 3"), thm("", ": Real.pi > 3")),
        (thm("open Real (pi)", ": pi > 3"), thm("", ": Real.pi > 3")),
        (thm("open Nat renaming sqrt → nsqrt", "(n : ℕ) : nsqrt n ≤ n"), thm("", "(n : ℕ) : Nat.sqrt n ≤ n")),
        (thm("section\nopen Real\nend\nopen Real", ": sqrt 4 = 2"), thm("", ": Real.sqrt 4 = 2")),
    ],
)
def test_names_in_scope_still_resolve(a, b):
    assert same_texts(a, b)


def test_the_metamorphic_probe_skips_a_statement_that_declares_a_binder_twice():
    from atf.symeq.metamorphic import REWRITES, variants

    twice = "theorem t (t s : ℝ) (n : ℤ) (h₁ : s = n ^ 2) (n) (_ : n = 3) : s = 9 := by sorry"
    once = "theorem t (t s : ℝ) (n : ℤ) (h₁ : s = n ^ 2) (m : ℤ) (_ : m = 3) : s = 9 := by sorry"
    assert variants(twice, REWRITES) == {}
    assert "reorder" in variants(once, REWRITES)
