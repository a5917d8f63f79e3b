"""A bare name that several Mathlib namespaces define reads as the one the header's `open` makes visible (Lean's
name resolution): under `open Nat` alone `sqrt n` is `Nat.sqrt n`, under `open Int` alone `floor x` is `Int.floor x`,
under `open Set` alone `range f` is `Set.range f`. The reader took `Real.sqrt` and `Nat.floor` whatever was open, so
`open Int … floor x = -1` (true at x = -1/2) read as `0 = -1`, and `open Nat … sqrt n = 3` merged with
`open Real … sqrt n = 3`. With several of them open, a statement that compiles has one reading (see
`lean_frontend.OVERLOADED`); a name that no open namespace defines is not Mathlib's."""

import pytest

from atf.symeq.equivalence import SymEq, parse, truth
from tests.lean_statements import thm, verdict_tests


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


def opened(namespaces: str, binders: str, concl: str) -> str:
    return thm(binders, concl, f"import Mathlib\nopen {namespaces}\n")


MERGE = [
    (opened("Int", "(x : ℝ) (h : floor x = 3)", "3 ≤ x"), thm("(x : ℝ) (h : Int.floor x = 3)", "3 ≤ x")),
    (opened("Nat", "(n : ℕ) (h : sqrt n = 3)", "9 ≤ n"), thm("(n : ℕ) (h : Nat.sqrt n = 3)", "9 ≤ n")),
    (
        opened("Set", "(f : ℕ → ℝ) (h : range f = {0})", "f 1 = 0"),
        thm("(f : ℕ → ℝ) (h : Set.range f = {0})", "f 1 = 0"),
    ),
    # the usual miniF2F header opens Real and Nat: `sqrt x` of a real is Real.sqrt, `floor` is Nat.floor
    (
        opened("BigOperators Real Nat Topology Rat", "(x : ℝ) (h : sqrt x = 2)", "x = 4"),
        thm("(x : ℝ) (h : √x = 2)", "x = 4"),
    ),
    (opened("Real Nat", "(x : ℝ) (h : floor x = 2)", "x < 3"), thm("(x : ℝ) (h : ⌊x⌋₊ = 2)", "x < 3")),
]

APART = [
    (opened("Nat", "(n : ℕ) (h : sqrt n = 3)", "n = 9"), opened("Real", "(n : ℕ) (h : sqrt n = 3)", "n = 9")),
    (opened("Int", "(x : ℝ) (h : x < 0)", "floor x < 0"), opened("Nat", "(x : ℝ) (h : x < 0)", "floor x < 0")),
    (
        opened("Set", "(f : ℕ → ℕ) (h : range f = {0})", "f 1 = 0"),
        opened("Finset", "(f : ℕ) (h : range f = {0})", "f = 1"),
    ),
]

test_merge, test_apart = verdict_tests(MERGE, APART)


@pytest.mark.parametrize(
    "namespaces,body,want",
    [
        ("Int", "floor (-0.5 : ℝ) = -1", "valid"),
        ("Nat", "floor (-0.5 : ℝ) = 0", "valid"),
        ("Int", "ceil (0.5 : ℝ) = 1", "valid"),
    ],
)
def test_closed_values(namespaces, body, want):
    assert truth(parse(opened(namespaces, "", body), "lean")) == want


def test_resolution_table():
    from atf.symeq.lean_frontend import overload_resolution

    names = {"sqrt", "floor", "exp", "log", "range", "x"}
    assert overload_resolution(["Nat"], names) == {
        "sqrt": "Nat.sqrt",
        "floor": "Nat.floor",
        "exp": "_root_.exp",
        "log": "Nat.log",
        "range": "_root_.range",
    }
    both = overload_resolution(["Real", "Nat", "Int", "Complex", "Finset", "Set"], names)
    assert both == {"sqrt": "Real.sqrt", "floor": "_root_.floor", "exp": "_root_.exp", "log": "_root_.log"}


RANGES = [
    (
        opened("Finset Set", "(f : ℕ → ℝ) (h : range f = {0})", "f 1 = 0"),
        thm("(f : ℕ → ℝ) (h : Set.range f = {0})", "f 1 = 0"),
    ),
    (
        opened("Finset Set", "(n : ℕ) (h : (range n).card = 3)", "n = 3"),
        thm("(n : ℕ) (h : (Finset.range n).card = 3)", "n = 3"),
    ),
]
RANGES_APART = [
    (
        opened("Finset Set", "(f : ℕ → ℝ) (h : range f = {0})", "f 1 = 0"),
        opened("Finset Set", "(f : ℕ → ℝ) (h : range f = {1})", "f 1 = 0"),
    ),
]
# with both open, `range f` of a function is Set.range (Finset.range takes a ℕ): it was read as Finset.range f
test_range_merge, test_range_apart = verdict_tests(RANGES, RANGES_APART)


def test_metamorphic_variants_keep_the_preamble(symeq):
    """A rewrite of a statement is a statement under the same header: its `open`s decide what `sqrt` is, so a variant
    written without them (as `metamorphic.variants` did) reads `sqrt` as another function."""
    from atf.symeq.metamorphic import REWRITES, variants

    gold = opened("Nat", "(n : ℕ) (h : sqrt n = 3)", "9 ≤ n")
    out = variants(gold, REWRITES)
    assert out and all(text.startswith("import Mathlib\nopen Nat\n") for text in out.values())
    assert all(symeq.compare(gold, text).equivalent for text in out.values()), out
