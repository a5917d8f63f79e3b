"""Lean readings SymEq had wrong, each against what Lean's elaborator does.

`a > b` is `binrel% GT.gt a b`: Lean elaborates its sides as written, left to right, and the first use of a binder
without a type annotation fixes that type. SymEq turned `a > b` into `b < a` before elaborating, so in
`∀ n, a n > Real.sqrt (2 * n)` (a : ℕ → ℝ) it read `2 * n` first, made n real, found `a n` ill-typed and kept the
whole `∀` opaque: `¬ ¬ P`, `2 * n` against `n * 2`, and `∀ n ≥ 3, Q` against `∀ n, n ≥ 3 → Q` all stayed apart.

`IsLeast s a` and `IsGreatest s a` (Mathlib Order/Bounds/Basic.lean: `a ∈ s ∧ a ∈ lowerBounds s`) were unknown
constants, their bound elaborated with no expected type: `IsLeast S (6 * 2 ^ ((1 : ℝ) / 3))` then had a natural
number as the base of a real power, which Lean never reads (the 2 is real, S's element type), and the conclusion
was one opaque proposition. They are now read by their definition over numbers.

Reading them so exposed four false-merge classes of `x ∈ {n | P n}`, `(fun n => P n) x` and unknown functions, each
below with its own tests (the types inside P, the binder's type, the arguments of a function SymEq does not know,
and the variables of a value given to a term kept opaque)."""

import pytest

from atf.symeq import ir
from atf.symeq.equivalence import SymEq, parse

H = "import Mathlib\nopen Real\n"


def same(a: str, b: str) -> bool:
    return SymEq("lean", timeout_ms=1000).compare(H + a, H + b).equivalent


A = "theorem t (a : ℕ → ℝ) (h : a 1 = 1) : "


@pytest.mark.parametrize(
    "other",
    [
        "∀ n : ℕ, Real.sqrt (2 * n) < a n",
        "¬ ¬ (∀ n, a n > Real.sqrt (2 * n))",
        "∀ n, a n > Real.sqrt (n * 2)",
        "∀ n, a n > sqrt (n + n)",
    ],
)
def test_the_left_side_types_an_unannotated_binder_first(other):
    assert same(A + "∀ n, a n > Real.sqrt (2 * n) := by sorry", A + other + " := by sorry")


def test_the_binder_is_read_as_lean_reads_it():
    st = parse(H + A + "∀ n ≥ 3, a n > Real.sqrt (2 * n) := by sorry", "lean")
    assert st.variables["n"] == ir.NAT  # (the ∀ lifted: n is a variable, `3 ≤ n` a premise)
    assert not isinstance(st.conclusion, ir.Opaque)


def test_a_changed_side_is_still_another_statement():
    assert not same(A + "∀ n, a n > Real.sqrt (2 * n) := by sorry", A + "∀ n, a n > Real.sqrt (3 * n) := by sorry")
    assert not same(A + "∀ n, a n ≥ Real.sqrt (2 * n) := by sorry", A + "∀ n, a n > Real.sqrt (2 * n) := by sorry")


def test_written_right_to_left_lean_rejects_it_and_it_is_not_guessed():
    # `Real.sqrt (2 * n) < a n`: `2 * n` is elaborated first against ℝ, n becomes real, and `a n` is a type
    # mismatch (no coercion from ℝ to ℕ). No reading of it may merge with the well-typed statement.
    assert not same(A + "∀ n, Real.sqrt (2 * n) < a n := by sorry", A + "∀ n : ℕ, Real.sqrt (2 * n) < a n := by sorry")


def test_isabelle_reads_greater_as_the_abbreviation_it_is():
    isa = 'theorem t\n  fixes x y :: real\n  assumes h: "x > y"\n  shows "{c} < x"'
    r = SymEq("isabelle", timeout_ms=1000).compare(isa.format(c="y"), isa.format(c="y - 1"))
    assert r.equivalent


S = "{x : ℝ | ∃ a b : ℝ, x = a ^ 2 + b ^ 2 + 2 ^ ((1 : ℝ) / 3)}"


@pytest.mark.parametrize(
    "a,b",
    [
        ("IsLeast {n : ℕ | 0 < n ∧ 6 ∣ n} 6", "6 ∈ {n : ℕ | 0 < n ∧ 6 ∣ n} ∧ ∀ m : ℕ, 0 < m ∧ 6 ∣ m → 6 ≤ m"),
        ("IsGreatest {x : ℝ | x ^ 2 ≤ 4} 2", "IsGreatest {x : ℝ | x * x ≤ 4} 2"),
        ("IsGreatest {x : ℝ | x ^ 2 ≤ 4} 2", "(2 : ℝ) ^ 2 ≤ 4 ∧ ∀ y : ℝ, y ^ 2 ≤ 4 → y ≤ 2"),
        (f"IsLeast {S} (2 ^ ((1 : ℝ) / 3))", f"IsLeast {S} ((2 : ℝ) ^ ((1 : ℝ) / 3))"),
    ],
)
def test_least_and_greatest_read_by_their_definition(a, b):
    assert same(f"theorem t : {a} := by sorry", f"theorem t : {b} := by sorry")


@pytest.mark.parametrize(
    "a,b",
    [
        ("IsGreatest {x : ℝ | x ^ 2 ≤ 4} 2", "IsGreatest {x : ℝ | x ^ 2 ≤ 4} 3"),  # 3 is no element
        ("IsLeast {x : ℝ | 0 ≤ x} 0", "IsLeast {x : ℝ | 0 < x} 0"),  # 0 is no element of the second
        ("IsLeast {n : ℕ | 0 < n ∧ 6 ∣ n} 6", "IsGreatest {n : ℕ | 0 < n ∧ 6 ∣ n} 6"),
        ("IsLeast {n : ℕ | 0 < n ∧ 6 ∣ n} 6", "IsLeast {n : ℕ | 0 < n ∧ 6 ∣ n} 12"),
    ],
)
def test_a_different_bound_or_set_is_another_statement(a, b):
    assert not same(f"theorem t : {a} := by sorry", f"theorem t : {b} := by sorry")


def test_other_element_types_keep_their_own_order_opaque():
    # a least element of a family of sets is least under ⊆, which SymEq does not model: one opaque proposition
    st = parse(H + "theorem t (S : Set (Set ℕ)) : IsLeast S ∅ := by sorry", "lean")
    c = st.conclusion
    assert isinstance(c, ir.App) and c.op == "call" and c.args[0].name == "uf:IsLeast"
    t = "theorem t (S : Set (Set ℕ)) : {} S ∅ := by sorry"
    assert not same(t.format("IsLeast"), t.format("IsGreatest"))


def test_a_local_named_like_the_constant_is_the_local():
    st = parse(H + "theorem t (IsLeast : Set ℕ → ℕ → Prop) : IsLeast {n | 0 < n} 1 := by sorry", "lean")
    assert "forall" not in ir.show(st.conclusion)


# `x ∈ {n | P n}` and `(fun n => P n) x` substituted x for n in the terms of P only. A type inside P that mentions n
# (`Fin n`) kept the name n, now bound nowhere, so P read the same for every x: `13 ∈ {n | ∀ f : Fin n → Fin 12, …}`
# (true: pigeonhole) and `12 ∈ …` (false) merged. Where x is a variable the types are renamed with it; otherwise the
# set (or function) stays opaque over n (`dependent_bind`).
PIGEON = "∀ f : Fin n → Fin 12, ∃ a b, a ≠ b ∧ f a = f b"


@pytest.mark.parametrize(
    "a,b",
    [
        (f"13 ∈ {{n | {PIGEON}}}", f"12 ∈ {{n | {PIGEON}}}"),
        (f"(fun n => {PIGEON}) 13", f"(fun n => {PIGEON}) 12"),
        (f"IsLeast {{n | {PIGEON}}} 13", f"IsLeast {{n | {PIGEON}}} 14"),
        (f"IsLeast {{n | {PIGEON}}} 13", f"IsGreatest {{n | {PIGEON}}} 13"),
        (f"IsLeast {{n | {PIGEON}}} 13", f"IsLeast {{n | {PIGEON.replace('Fin 12', 'Fin 13')}}} 13"),
    ],
)
def test_a_type_that_mentions_the_element_is_not_lost(a, b):
    assert not same(f"theorem t : {a} := by sorry", f"theorem t : {b} := by sorry")


@pytest.mark.parametrize(
    "a,b",
    [
        (f"(m : ℕ) : m ∈ {{n | {PIGEON}}}", f"(k : ℕ) : k ∈ {{n | {PIGEON}}}"),
        (f"(m : ℕ) : m ∈ {{n | {PIGEON}}}", f"(m : ℕ) : {PIGEON.replace('Fin n', 'Fin m')}"),
    ],
)
def test_a_variable_element_renames_the_types(a, b):
    assert same(f"theorem t {a} := by sorry", f"theorem t {b} := by sorry")


# A function SymEq does not know (`Set.image` here) gets arguments whose types Lean knows from its signature. The
# numerals of an interval passed to it defaulted to ℕ all the same, so `Icc (3 / 2) 2` was `Icc 1 2`, and the element
# `1 / 5` of `image f …` was 0: `IsLeast (image f (Icc (3 / 2) 2)) (2 / 17)` (true for f x = (x - 1) / (x² - 2x + 5))
# merged with `… (2 / 18)` (false). Every type inside such an argument is now one SymEq does not know, never ℕ.
IMG = "(f : ℝ → ℝ) (hf : f = fun x => (x - 1) / (x ^ 2 - 2 * x + 5)) : "


@pytest.mark.parametrize(
    "a,b",
    [
        ("IsLeast (image f (Icc (3 / 2) 2)) (2 / 17)", "IsLeast (image f (Icc (3 / 2) 2)) (2 / 18)"),
        ("IsGreatest (image f (Icc (3 / 2) 2)) (1 / 5)", "IsGreatest (image f (Icc (3 / 2) 2)) (1 / 6)"),
        ("IsGreatest (image f (Icc (3 / 2) 2)) (1 / 5)", "IsGreatest (image f (Icc 1 2)) (1 / 5)"),
        ("1 / 5 ∈ image f (Icc (3 / 2) 2)", "1 / 5 ∈ image f (Icc 1 2)"),
        ("1 / 5 ∈ image f (Icc (3 / 2) 2)", "1 / 6 ∈ image f (Icc (3 / 2) 2)"),
    ],
)
def test_arguments_of_an_unknown_function_are_not_natural_numbers(a, b):
    assert not same(f"open Set\ntheorem t {IMG}{a} := by sorry", f"open Set\ntheorem t {IMG}{b} := by sorry")


def test_an_interval_of_a_sum_still_ranges_over_naturals():
    sums = "∑ i in Finset.Icc 1 n, i ^ 3 = (∑ i in Finset.Icc 1 n, i) ^ 2"
    st = parse(H + f"theorem t (n : ℕ) : {sums} := by sorry", "lean")
    assert not isinstance(st.conclusion, ir.Opaque) and "?" not in repr(st.key())


# `x ∈ {u : ℝ | P u}` is `P x` with x an ℝ (`Membership ℝ (Set ℝ)`). The binder's type was dropped when x was
# substituted, so numerals defaulted to ℕ: `1 / 2 ∈ {u : ℝ | 2 * u = 1}` was `2 * 0 = 1` and merged with `1 / 3 ∈ …`,
# and IsLeast's bound element of `{u : ℝ | ∃ x y, u = …}` was a natural number, with x and y (a true statement and
# one whose least element is below 0 merged).
@pytest.mark.parametrize(
    "a,b,equal",
    [
        ("1 / 2 ∈ {u : ℝ | 2 * u = 1}", "1 / 3 ∈ {u : ℝ | 2 * u = 1}", False),
        ("1 / 2 ∈ {u : ℝ | 2 * u = 1}", "(2 : ℝ) * (1 / 2) = 1", True),
        (
            "IsLeast {u : ℝ | ∃ x y, u = x ^ 2 + y ^ 2 ∧ x ^ 2 + 4 * y ^ 2 = 4 * x} 0",
            "IsLeast {u : ℝ | ∃ x y, u = x ^ 2 + y ^ 3 ∧ x ^ 2 + 4 * y ^ 2 = 4 * x} 0",
            False,
        ),
    ],
)
def test_the_element_of_a_typed_set_has_its_type(a, b, equal):
    assert same(f"theorem t : {a} := by sorry", f"theorem t : {b} := by sorry") == equal


# A term SymEq keeps opaque (`∑ k : Fin 100, ⌊logb 10 (k * n)⌋`, read as text) that receives a value for one of its
# variables (x ∈ {n | P n}) folded a value that is no variable into its text: `(e : ℕ)` or `m + 1` inside the text,
# the term was one constant for every e or m. So `∀ e ∈ S, e ≤ 109` read like `∀ e ∈ S, 109 ≤ e` (IsGreatest merged
# with IsLeast), and `∃ m, m + 1 ∈ S ∧ 5 < m` with `∃ m, m + 1 ∈ S ∧ m < 5`. The variables stay arguments.
LOGS = "{n : ℕ | (∑ k : Fin 100, ⌊Real.logb 10 (k * n)⌋) ≤ 300}"


@pytest.mark.parametrize(
    "a,b",
    [
        (f"IsGreatest {LOGS} 109", f"IsLeast {LOGS} 109"),
        (f"∃ m : ℕ, m + 1 ∈ {LOGS} ∧ 5 < m", f"∃ m : ℕ, m + 1 ∈ {LOGS} ∧ m < 5"),
    ],
)
def test_a_value_given_to_an_opaque_term_keeps_its_variables(a, b):
    assert not same(f"theorem t : {a} := by sorry", f"theorem t : {b} := by sorry")


def test_a_bound_the_set_implies_anyway_still_merges():
    # 1 ∈ S or not, `1 ≤ 109`: IsGreatest of S and of S without 1 say the same
    other = LOGS.replace("{n : ℕ | ", "{n : ℕ | 1 < n ∧ ")
    assert same(f"theorem t : IsGreatest {LOGS} 109 := by sorry", f"theorem t : IsGreatest {other} 109 := by sorry")
