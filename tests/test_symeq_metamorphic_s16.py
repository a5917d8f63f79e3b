"""Probe mutants that are no finding: `change_type` on a variable every use of which is rebound, or on which a type
depends; `drop_hypothesis` on a binder the statement uses (a variable read as a hypothesis)."""

from atf.symeq import metamorphic as m


def types(text: str) -> list[str]:
    return list(m.variants(text, {"change_type": m.change_type}, 4).values())


def test_change_type_skips_a_binder_that_every_use_rebinds():
    gold = "theorem t (x y : ℤ) (p : ℤ) : (∃ x, p ∣ x ^ 2 - x + 3) ↔ (∃ y, p ∣ y ^ 2 - y + 25) := by sorry"
    got = types(gold)
    assert got and all("( x y : ℤ )" in v for v in got)  # only p changes
    assert any("( p : ℝ )" in v for v in got)


def test_change_type_keeps_a_variable_a_type_depends_on():
    got = types("theorem t (n : ℕ) (x : Fin n) (y : ℤ) : x.val < n + y := by sorry")
    assert got and all("( n : ℕ )" in v for v in got)
    assert any("( y : ℝ )" in v for v in got)


def test_drop_hypothesis_keeps_a_binder_the_statement_uses():
    gold = (
        "import Mathlib\nvariable {R : Type*} [Field R]\nvariable {n : Type*} [Fintype n] [DecidableEq n]\n"
        "theorem t (A : Matrix n n R) (k : R) (x : n → R) (h : A.mulVec x = 0) : A.mulVec (k • x) = 0 := by sorry"
    )
    got = list(m.variants(gold, {"drop_hypothesis": m.drop_hypothesis}, 4).values())
    assert len(got) == 1 and "( x : n → R )" in got[0] and "( h :" not in got[0]


def test_drop_hypothesis_still_drops_every_unused_hypothesis():
    gold = "theorem t (x : ℝ) (h₀ : 0 < x) (h₁ : x < 1) : x ^ 2 < x := by sorry"
    got = list(m.variants(gold, {"drop_hypothesis": m.drop_hypothesis}, 4).values())
    assert len(got) == 2 and "h₁" in got[0] and "h₀" not in got[0] and "h₀" in got[1] and "h₁" not in got[1]


def test_pnat_notation_is_one_token():
    from atf.symeq.equivalence import SymEq

    a = "theorem t (n : ℕ+) (x : ℝ) (h : x + 1 = n) : x = n - 1 := by sorry"
    got = list(m.variants(a, {"plus_to_minus": m.plus_to_minus}, 4).values())
    assert got and all("ℕ +" not in v and "ℕ -" not in v for v in got)  # the `+` of `ℕ+` is no operator
    s = SymEq("lean", timeout_ms=1000)
    assert s.compare(a, a.replace("ℕ+", "PNat")).equivalent
    assert not s.compare(a, a.replace("ℕ+", "ℕ")).equivalent
