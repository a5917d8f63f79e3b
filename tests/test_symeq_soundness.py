"""SymEq never merges statements that differ in meaning (no guessed truncating types) and merges the
meaning-preserving rewrites formalizers produce (renamings reaching into types and opaque terms, bound
names inside opaque terms, symmetric equations, split conjunctions, hypotheses moved into the conclusion)."""

import pytest

from atf.symeq.equivalence import SymEq, parse
from atf.symeq.ir import NAT, Sort, walk
from tests.lean_statements import MATHLIB, apart, merged, thm


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=1000)


# ----------------------------------------------------------------------------------------- soundness


@pytest.mark.parametrize(
    "a,b",
    [
        # `deriv` is not modelled: its result is not guessed to be ℕ, so 3/2 is not truncated to 1 (in either order)
        (
            thm("(x : ℝ → ℝ) (t : ℝ) (h : |deriv x t| ≤ 3/2)", "x t = 0"),
            thm("(x : ℝ → ℝ) (t : ℝ) (h : |deriv x t| ≤ 1)", "x t = 0"),
        ),
        (
            thm("(x : ℝ → ℝ) (t : ℝ) (h₀ : x t = 0) (h : |deriv x t| ≤ 3/2)", "x t = 0"),
            thm("(x : ℝ → ℝ) (t : ℝ) (h : |deriv x t| ≤ 1) (h₀ : x t = 0)", "x t = 0"),
        ),
        # an unknown constant's value: 5/2 and 2 are different numbers whatever its type is
        (thm("(x : ℝ)", "Foo.bar x = 5 / 2"), thm("(x : ℝ)", "Foo.bar x = 2")),
        # multiplication in a group (or of operators) does not commute: `a * b = b * a` is not trivially true
        (
            thm("{G : Type*} [Group G] (h : ∀ x : G, x ^ 2 = 1)", "∀ a b : G, a * b = b * a"),
            thm("{G : Type*} [Group G] (h : ∀ x : G, x ^ 2 = 1)", "∀ a b : G, a = a"),
        ),
        (
            thm("{V : Type*} {T : End ℂ V} (hT : T * adjoint T = adjoint T * T)", "∃ S : End ℂ V, S ^ 2 = T"),
            thm("{V : Type*} {T : End ℂ V}", "∃ S : End ℂ V, S ^ 2 = T"),
        ),
        # a literal argument of an unknown function keeps its value (1/2 is not ℕ's 0)
        (
            thm("", "Tendsto (λ (n : ℝ) => (Real.sqrt (n ^ 2 + n) - n)) atTop (𝓝 (1/2))"),
            thm("", "Tendsto (λ (n : ℝ) => (Real.sqrt (n ^ 2 + n) - n)) atTop (𝓝 (1/3))"),
        ),
        # an opaque ℚ-valued sum compared with an integer: it is not assumed to be an integer itself
        (
            thm("{n : ℕ}", "¬ ∃ a : ℤ, ∑ i : Fin n, (1 : ℚ) / (n + 2) = a"),
            thm("{n : ℕ}", "¬ ∃ a : ℤ, ∑ i : Fin n, (1 : ℚ) / (n + 2) ≠ a"),
        ),
        # a sum over a domain we cannot read: its index is not ℕ, so -1/9 is not 0
        (
            thm("(f : ℂ → ℂ) (h : Fintype (f ⁻¹' {7}))", "(∑ y in (f ⁻¹' {7}).toFinset, y / 3) = -1 / 9"),
            thm("(f : ℂ → ℂ) (h : Fintype (f ⁻¹' {7}))", "(∑ y in (f ⁻¹' {7}).toFinset, y / 3) = -1 / 10"),
        ),
        # `Fin n` and `Fin k` are different types even where the alignment could pair the variables
        (
            thm("(n k : ℕ) (h : n < k) (f g : Fin n → ℝ)", "f = g"),
            thm("(k n : ℕ) (h : n < k) (f g : Fin k → ℝ)", "f = g"),
        ),
        (
            thm("(n k : ℕ) (h : k = n + 1) (f g : Fin n → ℝ)", "f = g"),
            thm("(n k : ℕ) (h : k = n + 1) (f g : Fin k → ℝ)", "f = g"),
        ),
        # a variable that occurs only in a type is kept (ℕ and ℤ here)
        (
            thm("(n : ℕ) (x : EuclideanSpace ℝ (Fin n))", "‖x‖ ≥ 0"),
            thm("(n : ℤ) (x : EuclideanSpace ℝ (Fin n))", "‖x‖ ≥ 0"),
        ),
        # ... also when the variable of that type is inlined away (R = ...), leaving terms of type `Subgroup (D n)`
        (
            thm("{n : ℕ} {R : Subgroup (DihedralGroup n)} (hR : R = Subgroup.closure {DihedralGroup.r 1})", "R ≠ ⊤"),
            thm("{n : ℤ} {R : Subgroup (DihedralGroup n)} (hR : R = Subgroup.closure {DihedralGroup.r 1})", "R ≠ ⊤"),
        ),
        # types written inside opaque terms count
        (thm("", "¬ Foo ({Bar.X 0} : Set (Baz (Fin 2)))"), thm("", "¬ Foo ({Bar.X 0} : Set (Baz (Fin 3)))")),
        (
            thm("", "Finset.prod (Finset.range 300) (id : ℕ → ℕ) = 0"),
            thm("", "Finset.prod (Finset.range 300) (id : ℕ → ℤ) = 0"),
        ),
        # dot notation looks in the receiver type's namespace: `n.sqrt` for `n : ℕ` is Nat.sqrt (⌊√n⌋)
        (thm("(n : ℕ) (h : 4 < n)", "n.sqrt = 2"), thm("(n : ℕ) (h : 4 < n)", "Real.sqrt n = 2")),
        (thm("(x : ℤ) (y : ℤ)", "x.gcd y = 1"), thm("(x : ℤ) (y : ℤ)", "Nat.gcd x.toNat y.toNat = 1")),
        (thm("(n a b : ℕ) (h : a ≡ b [MOD n])", "n ∣ a"), thm("(n a b : ℕ) (h : Nat.ModEq n a b)", "Dvd.dvd a n")),
        # Nat.card is 0 on an infinite type, where Fintype.card does not exist
        (
            thm("{G : Type*} [Group G] (hG : Nat.card G = 5)", "∀ a b : G, a * b = b * a"),
            thm("{G : Type*} [Group G] [Fintype G] (hG : Fintype.card G = 5)", "∀ a b : G, a * b = b * a"),
        ),
        # aligning g with x must not capture g under the candidate's own `∀ x` (that reads x ≤ g as x ≤ x)
        (
            thm("(x : ℕ) (h : ∀ y : ℕ, y < 5 → y ≤ y)", "x ≥ 4"),
            thm("(g : ℕ) (h : ∀ x : ℕ, x < 5 → x ≤ g)", "g ≥ 4"),
        ),
        (thm("(A : Finset ℕ) (h : A = ∅)", "A.card = 0"), thm("(A : Finset ℕ) (h : A.Nonempty)", "A.card = 0")),
        # a variable bound by membership has the set's element type (ℝ here): 1/2 is not ℕ's 0
        (thm("(A : Set ℝ)", "∃ x ∈ A, x < 1 / 2"), thm("(A : Set ℝ)", "∃ x ∈ A, x < 0")),
        (thm("(A : Set ℚ)", "∀ x, x ∈ A → x < 1 / 2"), thm("(A : Set ℚ)", "∀ x, x ∈ A → x < 0")),
        # ... and where the element type cannot be read, it is not guessed
        (thm("(A : Set (ℝ × ℝ))", "∃ x ∈ A, 2 * x = 1"), thm("(A : Set (ℝ × ℝ))", "∃ x ∈ A, 2 * x = 0")),
        # ℚ is not ℝ: x ^ 2 = 2 has a real root and no rational one
        (thm("", "¬ ∃ x : ℚ, x ^ 2 = 2"), thm("", "¬ ∃ x : ℚ, x ^ 2 = 4")),
        # top and bottom are different elements (H = ⊤ ∨ H = ⊥ against H = ⊥)
        (
            thm("(G : Type*) [Group G] (H : Subgroup G) (h : H ≠ ⊤)", "H = ⊥"),
            thm("(G : Type*) [Group G] (H : Subgroup G) (h : H ≠ ⊥)", "H = ⊥"),
        ),
    ],
)
def test_statements_that_differ_are_not_merged(symeq, a, b):
    assert apart(symeq, a, b)


def test_unknown_function_result_is_an_uninterpreted_sort_not_nat():
    st = parse(thm("(x : ℝ → ℝ) (t : ℝ) (h : |deriv x t| ≤ 3/2)", "x t = 0"), "lean")
    types = {getattr(n, "ty", None) for p in st.premises for n in walk(p)}
    assert NAT not in types
    assert any(isinstance(ty, Sort) and "deriv" in ty.name for ty in types)


def test_isabelle_coercion_argument_type_comes_from_the_function_not_the_text():
    # `of_nat` declares a natural argument, `of_int` an integer one (whatever the variable is called)
    nat = 'theorem t: fixes f :: "real" shows "of_nat (signature - 1) = f"'
    intg = 'theorem t: fixes f :: "real" shows "of_int (signature - 1) = f"'
    a, b = parse(nat, "isabelle"), parse(intg, "isabelle")
    assert a.variables["signature"] != b.variables["signature"]
    assert not SymEq("isabelle").compare(nat, intg).equivalent


# ----------------------------------------------------------------------------------------- completeness


@pytest.mark.parametrize(
    "a,b",
    [
        # renaming reaches into types (`Fin n`)
        (
            thm("(n : ℕ) (f : Fin n → ℝ) (h : 0 < n)", "∀ i, f i > 0"),
            thm("(m : ℕ) (f : Fin m → ℝ) (h : 0 < m)", "∀ i, f i > 0"),
        ),
        (
            thm("(n k : ℕ) (h : n < k) (f g : Fin n → ℝ)", "f = g"),
            thm("(a b : ℕ) (h : a < b) (f g : Fin a → ℝ)", "f = g"),
        ),
        # ... and into opaque terms
        (
            thm("(n : ℕ) (s : Finset ℕ) (h : s = Finset.Icc 1 (2*n+1))", "IsGood s n"),
            thm("(m : ℕ) (s : Finset ℕ) (h : s = Finset.Icc 1 (2*m+1))", "IsGood s m"),
        ),
        # bound names inside opaque terms
        (
            thm("(a : ℝ)", "Tendsto (fun y => ∫ x in -y..y, Real.cos x / (x^2 + a^2)) atTop (𝓝 (π / a))"),
            thm("(a : ℝ)", "Tendsto (fun z => ∫ t in -z..z, Real.cos t / (t^2 + a^2)) atTop (𝓝 (π / a))"),
        ),
        (
            thm("(f : ℝ → ℝ)", "IsConnected (⋃ n, {x | f x = n})"),
            thm("(f : ℝ → ℝ)", "IsConnected (⋃ k, {y | f y = k})"),
        ),
        # equality is symmetric between opaque terms
        (thm("(f : ℝ → ℝ) (s : Set ℝ)", "f '' s = Set.univ"), thm("(f : ℝ → ℝ) (s : Set ℝ)", "Set.univ = f '' s")),
        (
            thm("(G : Type*) [Group G] (H K : Subgroup G)", "H ⊔ K = ⊤"),
            thm("(G : Type*) [Group G] (H K : Subgroup G)", "⊤ = K ⊔ H"),
        ),
        # `h : A ∧ B` is two hypotheses, also with opaque parts
        (
            thm("(s : Set ℝ) (h : IsOpen s ∧ IsClosed s)", "s = ∅ ∨ s = Set.univ"),
            thm("(s : Set ℝ) (h1 : IsOpen s) (h2 : IsClosed s)", "s = ∅ ∨ s = Set.univ"),
        ),
        (
            thm("(a b c : ℝ) (h₀ : a + b + c = 0) (h₁ : List.Pairwise (· ≠ ·) [a, b, c])", "a * b * c ≠ 1"),
            thm("(a b c : ℝ) (h : (a + b + c = 0) ∧ (List.Pairwise (· ≠ ·) [a, b, c]))", "a * b * c ≠ 1"),
        ),
        # `(h : P) : Q` is `: P → Q`
        (thm("(s : Set ℝ) (h : IsOpen s)", "IsClosed sᶜ"), thm("(s : Set ℝ)", "IsOpen s → IsClosed sᶜ")),
        (
            thm("(G : Type*) [Group G] (h : IsSimpleGroup G)", "False"),
            thm("(G : Type*) [Group G]", "¬ IsSimpleGroup G"),
        ),
        # `[Group G]` with G undeclared is Lean's auto-bound `{G : Type u_1}`; `[C G]` assumes what `(h : C G)` does
        (
            thm("{G : Type*} [Group G] [IsSolvable G] (H : Subgroup G)", "IsSolvable H"),
            thm("[Group G] (hG : IsSolvable G) (H : Subgroup G)", "IsSolvable H"),
        ),
        # x ^ 2 is x * x in any monoid
        (
            thm("{G : Type*} [Group G] (h : ∀ x : G, x ^ 2 = 1)", "∀ a b : G, a * b = b * a"),
            thm("[Group G] (h : ∀ x : G, x * x = 1)", "∀ x y : G, x * y = y * x"),
        ),
        # `N.Normal` is `Subgroup.Normal N` for `N : Subgroup G` (Lean's generalized field notation)
        (
            thm("{G : Type*} [Group G] (N : Subgroup G) [N.Normal] (x : G)", "x ∈ N → x⁻¹ ∈ N"),
            thm("{G : Type*} [Group G] (N : Subgroup G) (hN : Subgroup.Normal N) (x : G)", "x ∈ N → x⁻¹ ∈ N"),
        ),
        # a notation's function spelled out: `Int.ModEq n a b` is `a ≡ b [ZMOD n]`, `Dvd.dvd a b` is `a ∣ b`
        (
            thm("(n : ℤ)", "∀ a b c : ℤ, (a + b) + c ≡ a + (b + c) [ZMOD n]"),
            thm("(m : ℤ)", "∀ x y z : ℤ, Int.ModEq m ((x + y) + z) (x + (y + z))"),
        ),
        (
            thm("(n a b : ℕ) (h : a ≡ b [MOD n])", "n ∣ a - b"),
            thm("(n a b : ℕ) (h : Nat.ModEq n a b)", "Dvd.dvd n (a - b)"),
        ),
        # `card G` of a type is Fintype.card (Finset.card takes a Finset); `abs z` of a complex is Complex.abs
        (
            thm("{G : Type*} [Group G] [Fintype G] (hG : card G = 462)", "¬ IsSimpleGroup G"),
            thm("{H : Type*} [Group H] [Fintype H] (h : Fintype.card H = 462)", "IsSimpleGroup H → False"),
        ),
        (
            thm("(z : ℂ) (h : abs z = 1)", "(abs (1 + z)) ^ 2 + (abs (1 - z)) ^ 2 = 4"),
            thm("(w : ℂ) (hw : Complex.abs w = 1)", "Complex.abs (1 + w) ^ 2 + Complex.abs (1 - w) ^ 2 = 4"),
        ),
        # ... and the statements that differ only in those names merge
        (
            thm("{G : Type*} [Group G] {x : G} (hx : orderOf x = 2) (h : ∀ y, orderOf y = 2 → y = x)", "x ∈ center G"),
            thm("[Group G] (g : G) (hg : orderOf g = 2) (u : ∀ x : G, orderOf x = 2 → x = g)", "g ∈ center G"),
        ),
        # `↥F` is the coercion Lean inserts itself where a type is expected; a Subfield binder is a variable
        (
            thm("{K : Type*} [Field K] {F : Subfield K} {a : K} (ha : IsAlgebraic F (a ^ 2))", "IsAlgebraic F a"),
            thm("{L : Type*} [Field L] {E : Subfield L} {b : L} (hb : IsAlgebraic (↥E) (b ^ 2))", "IsAlgebraic ↥E b"),
        ),
        # `s ≠ ∅` is `s.Nonempty` (∃ x, x ∈ s by definition; a set is empty iff it has no element)
        (
            thm(
                "{M : Type*} [MetricSpace M] {A : Set M} (hA : IsCompact A) (h₀ : A ≠ ∅)",
                "∃ a ∈ A, ∀ b ∈ A, 0 ≤ dist a b",
            ),
            thm(
                "{X : Type*} [MetricSpace X] {S : Set X} (hS : IsCompact S) (hne : S.Nonempty)",
                "∃ a ∈ S, ∀ b ∈ S, 0 ≤ dist a b",
            ),
        ),
        # bounded quantifiers (`∃ a ∈ A, ∃ b ∈ B, ∀ x ∈ A, ...`) against the same quantifiers spelled out
        (
            thm(
                "{M : Type*} [MetricSpace M] {A B : Set M}",
                "∃ a b, a ∈ A ∧ b ∈ B ∧ ∀ x y, x ∈ A → y ∈ B → dist a b ≤ dist x y",
            ),
            thm("{X : Type*} [MetricSpace X] {A B : Set X}", "∃ a ∈ A, ∃ b ∈ B, ∀ x ∈ A, ∀ y ∈ B, dist a b ≤ dist x y"),
        ),
        (
            thm("(a b c : ℝ) (h₀ : a + b + c = 0)", "List.Pairwise (· ≠ ·) [a, b, c] → a * b * c ≠ 1"),
            thm("(a b c : ℝ) (h₀ : a + b + c = 0) (h₁ : List.Pairwise (· ≠ ·) [a, b, c])", "a * b * c ≠ 1"),
        ),
    ],
)
def test_meaning_preserving_rewrites_merge(symeq, a, b):
    assert merged(symeq, a, b)


@pytest.mark.parametrize(
    "a,b,matching",
    [
        # two false closed statements (nothing aligned): constant, whatever the premises say
        (thm("(A B : ℕ) (h : A = B + 1)", "A = B"), thm("(A B : ℤ)", "A < A"), {}),
        # false for every value of the aligned x (y > x yet y < x; n > 3 yet n < 2)
        (thm("(x y : ℝ) (h : y > x)", "y < x"), thm("(x : ℝ) (n : ℕ) (h : n > 3)", "n < 2"), {"x": "x"}),
    ],
)
def test_whole_statements_agreeing_only_because_both_fail_everywhere_do_not_merge(a, b, matching):
    # Reached when Z3 cannot decide the premises (nonlinear ones time out): P → C on both sides is then
    # compared whole, and two statements false for all aligned values agree trivially.
    from atf.symeq.equivalence import PairCache, _full_mapping, _rename_statement, _whole_statements_agree
    from atf.symeq.smt import Translator

    sa, sb = parse(a, "lean"), parse(b, "lean")
    mapping = _full_mapping(sa, sb, matching)
    sb = _rename_statement(sb, mapping)
    only_a = [n for n in sa.variables if n not in matching.values()]
    only_b = [mapping[n] for n in mapping if n not in matching]
    renamed = (1, tuple(sorted((k, v) for k, v in mapping.items() if k != v)))
    keys = ((0, ()), renamed)  # candidate 0 as read, candidate 1 renamed into its names
    assert not _whole_statements_agree(Translator("lean"), sa, sb, only_a, only_b, 1000, PairCache(), keys)


@pytest.mark.parametrize(
    "a,b",
    [
        # both hold for every c (2, 3, 5, ... are not squares); √ applied under ∃ n: a model may interpret √
        # wrongly at the bound points, so its "counter-model" is no counter-example
        (
            thm("(c : ℕ)", "∃ n : ℕ, c < n ∧ ¬ ∃ m : ℤ, Real.sqrt n = m"),
            thm("(c : ℕ)", "∃ n : ℕ, c < n ∧ ∀ k : ℤ, (n : ℤ) ≠ k ^ 2"),
        ),
        (
            thm("(a : ℝ)", "a ≥ 0 → ∃ x : ℝ, Real.sqrt x = a"),
            thm("(a : ℝ)", "a ≥ 0 → ∃ x : ℝ, x = a"),
        ),
    ],
)
def test_counter_model_under_a_binder_is_not_called_exact(a, b):
    from atf.symeq.equivalence import equivalence

    res = equivalence(parse(a, "lean"), parse(b, "lean"), timeout_ms=1000)
    assert not (res.status == "different" and res.exact), res


def test_nat_valued_function_variable_is_nat_at_bound_points():
    # c ≤ 0 makes the disjunct redundant because f x : ℕ is never negative, also at the x bound by ∃
    from atf.symeq.equivalence import equivalence

    a = parse(thm("(f : ℕ → ℕ) (c : ℤ)", "∃ x : ℕ, (f x : ℤ) ≥ c"), "lean")
    b = parse(thm("(f : ℕ → ℕ) (c : ℤ)", "c ≤ 0 ∨ ∃ x : ℕ, (f x : ℤ) ≥ c"), "lean")
    assert equivalence(a, b, timeout_ms=1000).status == "equivalent"
    differs = parse(thm("(f : ℕ → ℕ) (c : ℤ)", "c ≤ 1 ∨ ∃ x : ℕ, (f x : ℤ) ≥ c"), "lean")
    res = equivalence(a, differs, timeout_ms=1000)
    assert res.status == "different" and res.exact  # f = 0, c = 1 is a real counter-example


@pytest.mark.parametrize(
    "a,b",
    [
        # under `open Subgroup`, `Normal H` is the `Subgroup.Normal H` the other statement writes
        (
            MATHLIB + thm("{G : Type*} [Group G] (H : Subgroup G) [Characteristic H]", "Normal H"),
            thm("{G : Type*} [Group G] {K : Subgroup G} (h : Subgroup.Characteristic K)", "Subgroup.Normal K", MATHLIB),
        ),
        (
            MATHLIB + thm("(G : Type*) [Group G] (hG : IsCyclic (G ⧸ center G))", "center G = ⊤"),
            MATHLIB + thm("{G : Type*} [Group G] [IsCyclic (G ⧸ Subgroup.center G)]", "Subgroup.center G = ⊤"),
        ),
        # also in binder types, where the binder's own type is not one of its bound names
        (
            "import Mathlib\nopen Module LinearMap\n\n"
            + thm(
                "{V : Type*} [NormedAddCommGroup V] [InnerProductSpace ℂ V] {T : End ℂ V}", "∃ S : End ℂ V, S * S = T"
            ),
            "import Mathlib\nopen Module LinearMap\n\n"
            + thm(
                "{V : Type*} [NormedAddCommGroup V] [InnerProductSpace ℂ V] {A : Module.End ℂ V}",
                "∃ (U : Module.End ℂ V), U * U = A",
            ),
        ),
    ],
)
def test_names_resolve_through_the_header_opens(symeq, a, b):
    assert merged(symeq, a, b)


@pytest.mark.parametrize(
    "a,b",
    [
        # not opened (only `open scoped`): `Normal H` is not `Subgroup.Normal H`
        (
            "import Mathlib\nopen scoped Subgroup\n\n" + thm("{G : Type*} [Group G] (H : Subgroup G)", "Normal H"),
            "import Mathlib\nopen scoped Subgroup\n\n"
            + thm("{G : Type*} [Group G] (H : Subgroup G)", "Subgroup.Normal H"),
        ),
        # two open namespaces both have a `closure` written: which one `closure` means is not decided here
        (
            MATHLIB + thm("{G : Type*} [Group G] (s : Set G)", "closure s = ⊤"),
            MATHLIB + thm("{G : Type*} [Group G] (s : Set G)", "Subgroup.closure s = ⊤ ∧ Set.closure s = s"),
        ),
        # a local name shadows the open namespace's declaration
        (
            MATHLIB + thm("{G : Type*} [Group G] (center : Subgroup G)", "center = ⊤"),
            MATHLIB + thm("{G : Type*} [Group G] (c : Subgroup G)", "Subgroup.center G = ⊤"),
        ),
        (
            MATHLIB + thm("{G : Type*} [Group G]", "∀ center : Subgroup G, center = ⊤"),
            MATHLIB + thm("{G : Type*} [Group G]", "∀ c : Subgroup G, Subgroup.center G = ⊤"),
        ),
    ],
)
def test_names_that_do_not_resolve_through_the_opens_stay_apart(symeq, a, b):
    assert not symeq.compare(a, b).equivalent


def test_a_field_after_a_dot_is_not_resolved_through_the_opens():
    body = thm(
        "{G H : Type*} [Group G] [Group H] (φ : G →* H) (N : Subgroup G) [Subgroup.Normal N]", "(N.map φ).Normal"
    )
    opened = parse("import Mathlib\nopen Subgroup\n\n" + body, "lean", {"Subgroup.Normal", "Subgroup.map"})
    assert opened.key() == parse(body, "lean").key()


def test_a_builtin_name_keeps_its_reading_whatever_namespace_the_others_qualify():
    # under `open Real Nat`, `sqrt x` for x : ℝ is Real.sqrt; another statement's `Nat.sqrt n` does not change that
    a = "import Mathlib\nopen Real Nat\n\n" + thm("(x : ℝ) (h : 4 ≤ x ∧ x < 9)", "sqrt x = 2")
    assert parse(a, "lean", {"Nat.sqrt"}).key() == parse(a, "lean").key()
