"""Mutations at every place of a statement (`variants(..., sites=N)`, `eval/symeq_metamorphic.py --sites N`,
session 14): the probe otherwise changes only the first literal, the first `+`, the first hypothesis, ..., so a
misreading of a later hypothesis or a later operand is never put to SymEq."""

import pytest

from atf.symeq import isabelle_metamorphic as isa
from atf.symeq.equivalence import SymEq, parse, truth
from atf.symeq.lean_frontend import tokenize
from atf.symeq.metamorphic import MUTATIONS, cut, variants
from tests.isabelle_statements import thm

T = (
    "theorem t (x y : ℝ) (h₀ : 2 * x + 3 = y) (h₁ : 0 < y ∧ y ≤ 10) "
    ": ∀ (z : ℝ), z ^ 2 - y / 4 ≤ 17 + (x : ℝ) + z := by sorry"
)


def _changed(a: str, b: str) -> tuple[int, int]:
    """(first, last) index of the tokens where b differs from a, counted from either end."""
    ta, tb = [t for _, t in tokenize(a)], [t for _, t in tokenize(b)]
    i = next(k for k in range(min(len(ta), len(tb))) if ta[k] != tb[k])
    j = next(k for k in range(1, min(len(ta), len(tb)) + 1) if ta[-k] != tb[-k])
    return i, j


def test_one_site_is_the_first_and_more_reach_every_place():
    first = variants(T, MUTATIONS)
    many = variants(T, MUTATIONS, sites=50)
    assert {k: v for k, v in many.items() if "#" not in k} == first
    literals = sorted(v.split(":=")[0] for k, v in many.items() if k.split("#")[0] == "change_literal")
    # every numeral but the exponent, each once: 2, 3 of h₀; 0, 10 of h₁; 4, 17 of the conclusion
    assert len(literals) == 6 and len(set(literals)) == 6
    assert any("( h₁ : 1 < y" in v for v in literals) and any("2 * x + 4 = y" in v for v in literals)
    plus = [v for k, v in many.items() if k.split("#")[0] == "plus_to_minus"]
    assert len(plus) == 3  # the two `+` of the conclusion and the one of h₀
    drops = [v for k, v in many.items() if k.split("#")[0] == "drop_hypothesis"]
    assert len(drops) == 2 and sum("h₀" in v for v in drops) == 1 and sum("h₁" in v for v in drops) == 1
    types = [v for k, v in many.items() if k.split("#")[0] == "change_type"]
    assert sorted(v.split(")")[0].strip() for v in types) == ["theorem t ( x y : ℕ", "theorem t ( x y : ℤ"]


def test_each_site_changes_one_place_only():
    many = variants(T, MUTATIONS, sites=50)
    for kind, v in many.items():
        if kind.split("#")[0] in ("drop_hypothesis", "change_type", "negate_conclusion", "drop_cast"):
            continue
        i, j = _changed(T, v)
        ta = [t for _, t in tokenize(T)]
        assert len(ta) - j - i < 6, (kind, v)  # a token, or an operator with its two operands


def test_a_place_is_read_with_the_tokens_around_it():
    # the binder `∀ (z : ℝ),` is no cast: only the ascription `(x : ℝ)` is dropped, at any number of sites
    casts = [v for k, v in variants(T, MUTATIONS, sites=50).items() if k.split("#")[0] == "drop_cast"]
    assert casts and all("∀ ( z : ℝ )" in v for v in casts)
    assert any("17 + ( x ) + z" in v for v in casts)


def test_sites_are_spread_and_bounded():
    many = variants(T, MUTATIONS, sites=50)
    two = variants(T, MUTATIONS, sites=2)
    lits = [k for k in two if k.split("#")[0] == "change_literal"]
    assert lits == ["change_literal", "change_literal#2"]
    assert set(two.values()) <= set(many.values())


def test_isabelle_sites():
    s = thm("x y :: real", ["0 < x", "x \\<le> y + 1"], "x / 2 + 3 \\<le> y * 5")
    many = isa.variants(s, isa.MUTATIONS, sites=20)
    assert isa.variants(s, isa.MUTATIONS) == {k: v for k, v in many.items() if "#" not in k}
    assert sum(k.split("#")[0] == "drop_hypothesis" for k in many) == 2
    assert sum(k.split("#")[0] == "change_literal" for k in many) == 5  # 0, 1, 2 (of x / 2), 3, 5
    assert any('"x <= y - 1"' in v for k, v in many.items() if k.startswith("plus_to_minus"))


@pytest.mark.parametrize("sites", [1, 40])
def test_later_sites_stay_apart(sites):
    """Every mutation at every place of a sample gold keeps apart from it, unless Z3 proves both (two true closed
    propositions are equivalent: `x = 6 ∧ y = 4` as `x = 6 ∨ y = 4` under the hypotheses)."""
    symeq = SymEq("lean", timeout_ms=2000)
    gold = "theorem t (x y : ℝ) (h₀ : x + y = 10) (h₁ : x - 2 * y = -2) (h₂ : 0 < y) : x = 6 ∧ y = 4 := by sorry"
    assert truth(parse(gold, "lean"), 2000) == "valid"
    out = variants(gold, MUTATIONS, sites)
    assert len(out) >= (9 if sites == 1 else 20)
    for kind, v in out.items():
        assert not symeq.compare(gold, v).equivalent or truth(parse(v, "lean"), 2000) == "valid", (kind, v)


def test_cut_is_shared():
    assert cut(T) is not None and isa.cut(T) is None


def test_a_window_cut_inside_a_term_is_no_site():
    # a prefix window ends right after `Finset.Icc` or `Finset.Icc 1`: widen_bound reads no bound there
    gold = "theorem t (n : ℕ) (h : 0 < n) : ∑ i ∈ Finset.Icc 1 n, i = n * (n + 1) / 2 := by sorry"
    out = variants(gold, MUTATIONS, sites=20)
    widen = [v for k, v in out.items() if k.split("#")[0] == "widen_bound"]
    assert len(widen) == 1
    assert "Finset.Icc 1 ( n + 1 )" in widen[0]
