"""A Mathlib constant SymEq does not know is one symbol per type it is used at: Lean fills its implicit type
arguments at each use, so `UniformContinuous f` and `UniformContinuous g` with f : α → β and g : β → γ apply two
instances (`atf.symeq.elaborate.Elaborator.global_const`). The reading must not depend on which use comes first,
and `g ∘ f` has type α → γ (Function.comp)."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.lean_statements import merged, thm, verdict_tests

UNIFORM = "{α β γ : Type*} [UniformSpace α] [UniformSpace β] [UniformSpace γ] {f : α → β} {g : β → γ}"
SAME = "{α : Type*} [UniformSpace α] {f g : α → α}"
SETS = "(s : Set ℝ) (t : Set ℕ)"
GROUP = "{G : Type*} [Group G] (H : Subgroup G)"
TWO = "{X Y : Type*} [TopologicalSpace X] [TopologicalSpace Y] (A : Set X) (B : Set Y)"
SEQ = "{X : Type*} [TopologicalSpace X] {f : ℕ → X → ℝ}"


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


MERGE = [
    (
        thm(f"{UNIFORM} (hf : UniformContinuous f) (hg : UniformContinuous g)", "UniformContinuous (g ∘ f)"),
        thm(f"{UNIFORM} (hg : UniformContinuous g) (hf : UniformContinuous f)", "UniformContinuous (g ∘ f)"),
    ),
    (
        thm(f"{UNIFORM} (hf : UniformContinuous f) (hg : UniformContinuous g)", "UniformContinuous (g ∘ f)"),
        thm(f"{UNIFORM} (h : UniformContinuous g ∧ UniformContinuous f)", "UniformContinuous (g ∘ f)"),
    ),
    (thm(f"{SETS} (hs : IsOpen s) (ht : IsOpen t)", "IsOpen s"), thm(f"{SETS} (ht : IsOpen t)", "IsOpen s → IsOpen s")),
    (thm(f"{SETS} (hs : IsOpen s)", "IsOpen t"), thm(f"{SETS}", "IsOpen s → IsOpen t")),
    # the sort of an unknown term is named the same whichever side of `=` is read first
    (thm(GROUP, "closure ((H : Set G) \\ {1}) = ⊤"), thm(GROUP, "⊤ = closure ((H : Set G) \\ {1})")),
    (thm(GROUP, "Foo (Bar H 1) = Baz"), thm(GROUP, "Baz = Foo (Bar H 1)")),
    # a use whose argument type is not known (`Foo A B`) is not the instance of whichever use came first
    (
        thm(f"{TWO} (hA : IsConnected A) (hB : IsConnected B)", "IsConnected (Foo A B)"),
        thm(f"{TWO} (hB : IsConnected B) (hA : IsConnected A)", "IsConnected (Foo A B)"),
    ),
    # an opaque partial application keeps its arguments in the order written, whatever their names
    (
        thm(f"{SEQ} (hf : ∀ n, Continuous (f n))", "Continuous (f 0)"),
        thm("{X : Type*} [TopologicalSpace X] {z : ℕ → X → ℝ} (hz : ∀ n, Continuous (z n))", "Continuous (z 0)"),
    ),
]

APART = [
    (
        thm(f"{SAME} (hf : UniformContinuous f)", "UniformContinuous (g ∘ f)"),
        thm(f"{SAME} (hf : UniformContinuous f)", "UniformContinuous (f ∘ g)"),
    ),
    (
        thm(f"{UNIFORM} (hf : UniformContinuous f)", "UniformContinuous g"),
        thm(f"{UNIFORM} (hg : UniformContinuous g)", "UniformContinuous f"),
    ),
    (thm(f"{SETS} (hs : IsOpen s)", "IsOpen t"), thm(f"{SETS} (ht : IsOpen t)", "IsOpen s")),
    (thm(f"{SETS} (hs : IsOpen s)", "IsOpen t"), thm(f"{SETS} (hs : IsOpen s)", "IsOpen s")),
    (thm(GROUP, "Foo (Bar H 1) = Baz"), thm(GROUP, "Baz = Foo (Bar H 2)")),
    (thm(GROUP, "Foo (Bar H 1) = Baz"), thm(GROUP, "Baz = Bar (Foo H 1)")),
    (
        thm(f"{TWO} (hA : IsConnected A) (hB : IsConnected B)", "IsConnected (Foo A B)"),
        thm(f"{TWO} (hB : IsConnected B) (hA : IsConnected A)", "IsConnected (Foo B A)"),
    ),
    (
        thm(f"{SEQ} (hf : ∀ n, Continuous (f n))", "Continuous (f 0)"),
        thm(f"{SEQ} (hf : ∀ n, Continuous (f n))", "Continuous (f 1)"),
    ),
]


def test_a_name_used_as_a_value_and_as_a_function_reads(symeq):
    """`X` unknown, used as a value and then applied: two instances, no crash (an internal error before)."""
    a = thm("{I : Type*} (x : ℕ → I) (n : ℕ)", "Tendsto x atTop (𝓝 X) ∧ Tendsto x atTop (𝓝 (X n))")
    b = thm("{I : Type*} (x : ℕ → I) (n : ℕ)", "Tendsto x atTop (𝓝 (X n)) ∧ Tendsto x atTop (𝓝 X)")
    assert symeq.parse(a).conclusion is not None
    assert merged(symeq, a, b)


test_instances_merge, test_instances_stay_apart = verdict_tests(MERGE, APART)
