"""A fast subset of the metamorphic test set (`eval/symeq_metamorphic.py` runs all of it): gold miniF2F
*valid* statements, each rewrite must land in the gold statement's SymEq class, no mutation may."""

import pytest

from atf.symeq.equivalence import SymEq
from atf.symeq.metamorphic import MUTATIONS, REWRITES, cut, variants

# chosen for variety: ℤ/ℕ/ℝ, ∧-hypotheses, ≠, sums with literal and symbolic bounds, list literals
IDS = [
    "amc12a_2015_p10",
    "mathd_numbertheory_780",
    "imo_1984_p2",
    "aime_1991_p6",
    "mathd_algebra_131",
    "aime_1996_p5",
    "algebra_amgm_sqrtxymulxmyeqxpy_xpygeq4",
    "imo_1965_p1",
    "imo_1978_p5",
]


@pytest.fixture(scope="module")
def golds(data_dir):
    from atf.data.benchmarks import load_benchmark

    by_id = {p.id: p.formal[len(p.header) :] for p in load_benchmark("minif2f", "valid")}
    return {i: by_id[i] for i in IDS}


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


@pytest.mark.integration  # about 1-10 s per statement (Z3 on every variant)
@pytest.mark.parametrize("pid", IDS)
def test_rewrites_merge_and_mutations_do_not(golds, symeq, pid):
    gold = golds[pid]
    rewrites, mutations = variants(gold, REWRITES), variants(gold, MUTATIONS)
    assert len(rewrites) >= 3 and len(mutations) >= 3
    for kind, text in rewrites.items():
        assert symeq.compare(gold, text).equivalent, (kind, text)
    for kind, text in mutations.items():
        assert not symeq.compare(gold, text).equivalent, (kind, text)


def test_rename_reaches_types_and_dotted_names():
    p = cut("theorem t (n : ℕ) (f : Fin n → ℝ) (h : n.Prime) : ∑ i in Finset.Icc 1 (2*n+1), f i = n := by sorry")
    text = REWRITES["rename"](p).text()
    assert "Fin var0" in text and "var0.Prime" in text and "2 * var0 + 1" in text
    assert " n " not in text


def test_shift_sum_moves_the_index():
    p = cut("theorem t (n : ℕ) : ∑ k in Finset.Icc 1 n, (1 : ℝ) / k ^ 2 + 1 = 5 := by sorry")
    assert (
        REWRITES["shift_sum"](p).text()
        == "theorem t ( n : ℕ ) : ∑ k in Finset.range n , ( ( 1 : ℝ ) / ( k + 1 ) ^ 2 ) + 1 = 5 := by sorry"
    )


def test_transformations_that_do_not_apply_say_so():
    p = cut("theorem t (x : ℝ) : x ^ 2 ≥ 0 := by sorry")
    assert REWRITES["reorder"](p) is None and MUTATIONS["drop_hypothesis"](p) is None
    assert cut("def f := 1") is None


def test_binders_typed_by_a_type_variable_are_not_hypotheses():
    """`(c : F)` under `{F V : Type*}` declares a variable: moving it into the conclusion or an `∧` would unbind c
    (every name of a multi-name type group counts, not only the first)."""
    p = cut("theorem t {F V : Type*} [Field F] (S : V → V) (h : S = S) (c : F) (v : V) : S v = c • v := by sorry")
    assert [p.binders[k][1][1] for k in p.hyps] == ["h"]
    assert REWRITES["hyp_to_conclusion"](p) is None and REWRITES["merge_and"](p) is None
    q = cut("theorem t (X I : Type*) (T : I → Set (Set X)) (h : ∀ i, T i = T i) : T = T := by sorry")
    assert [q.binders[k][1][1] for k in q.hyps] == ["h"]
