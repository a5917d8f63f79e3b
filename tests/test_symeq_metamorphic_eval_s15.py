"""The metamorphic probe's worker (`eval/symeq_metamorphic.py`, session 15): the checks that explain a merged
mutation (both statements true, both false, contradictory premises) run at their own, longer Z3 timeout, so that
their answer does not move with the machine's load as it did at the reranker's 1 s; and the worker sends back the
texts it judged, so the listing shows exactly the variants that were compared."""

import eval.symeq_metamorphic as probe
from atf.symeq.metamorphic import MUTATIONS, REWRITES, variants
from tests.isabelle_statements import thm

# h₀ follows from h₁, so dropping it or weakening it keeps the meaning; x = 5 is neither true nor false
GOLD = "theorem t (x : ℕ) (h₀ : 0 < x) (h₁ : 1 < x) : x = 5 := by sorry"


def test_worker_returns_the_texts_of_merged_mutations_and_missed_rewrites():
    res = probe.check_statement(GOLD, 1000, "lean", sites=2, truth_ms=2000)
    merged = {k for k, v in res["mutations"].items() if v == "merged"}
    missed = {k for k, ok in res["rewrites"].items() if not ok}
    assert "drop_hypothesis" in merged and set(res["texts"]) == merged | missed
    judged = {**variants(GOLD, REWRITES), **variants(GOLD, MUTATIONS, 2)}
    assert all(res["texts"][k] == judged[k] for k in res["texts"])
    assert "h₀" not in res["texts"]["drop_hypothesis"]


def test_explaining_a_merge_uses_the_truth_timeout(monkeypatch):
    seen = []
    real = probe.truth

    def spy(st, timeout_ms=1000):
        seen.append(timeout_ms)
        return real(st, timeout_ms)

    monkeypatch.setattr(probe, "truth", spy)
    probe.check_statement(GOLD, 300, "lean", sites=1, truth_ms=4321)
    assert seen and set(seen) == {4321}
    seen.clear()
    gold = thm("x :: real", ["x > 0", "x > 1"], "x = 5")  # dropping x > 0 merges: both are false (x = 2)
    res = probe.check_statement(gold, 300, "isabelle", sites=1, truth_ms=1234)
    assert res["mutations"]["drop_hypothesis"] == "both false" and set(seen) == {1234}


def test_contradictory_premises_are_found_by_the_truth_check():
    contra = thm("x :: real", ["x > 1", "x < 0"], "x = 2")
    plain = thm("x :: real", ["x > 1"], "x = 2")
    assert probe.vacuous(contra, plain, 2000, "isabelle")
    assert probe.vacuous(plain, contra, 2000, "isabelle")
    assert not probe.vacuous(plain, thm("x :: real", ["x > 2"], "x = 2"), 2000, "isabelle")
    assert not probe.vacuous(thm("x :: real", [], "x = 2"), plain, 2000, "isabelle")  # no premises: not vacuous


def test_change_type_skips_a_variable_the_statement_never_uses():
    """A `fixes n :: nat` that occurs nowhere changes no meaning with its type: the mutation goes to the first
    binder whose variable is used (it went to the unused one, and the merge it gave was no finding)."""
    from atf.symeq import isabelle_metamorphic as isa
    from atf.symeq.metamorphic import variants as lean_variants

    text = thm("n :: nat and x y :: real", ["x > 0"], "x + y = 2")
    (mutant,) = isa.variants(text, {"change_type": isa.MUTATIONS["change_type"]}).values()
    assert 'fixes n :: "nat" and x y :: "nat"' in mutant
    lean = "theorem t (n : ℕ) (x : ℝ) (h : 0 < x) : x = 2 := by sorry"
    many = lean_variants(lean, {"change_type": MUTATIONS["change_type"]}, sites=4)
    assert sorted(many.values()) == [
        "theorem t ( n : ℕ ) ( x : ℕ ) ( h : 0 < x ) : x = 2 := by sorry",
        "theorem t ( n : ℕ ) ( x : ℤ ) ( h : 0 < x ) : x = 2 := by sorry",
    ]


def test_the_gold_is_asked_about_once_per_worker(monkeypatch):
    """Every merged mutant is explained against the same gold statement: its truth (and its premises' consistency)
    is asked once, so a statement with many merged mutants stays inside the probe's per-statement bound."""
    asked = []
    real = probe.truth

    def spy(st, timeout_ms=1000):
        asked.append((st.source, st.conclusion == probe.ir.FALSE))  # (statement, whether its premises' consistency)
        return real(st, timeout_ms)

    monkeypatch.setattr(probe, "truth", spy)
    gold = thm("x :: real", ["x > 0", "x > 1", "x > 2"], "x = 7")
    res = probe.check_statement(gold, 300, "isabelle", sites=3, truth_ms=2345)
    explained = [k for k, v in res["mutations"].items() if v != "apart"]
    assert len(explained) >= 2  # dropping x > 0 and dropping x > 1 both merge: both false (x = 3)
    assert len(asked) == len(set(asked))  # no statement asked twice about the same thing
    assert asked.count((probe.parse(gold, "isabelle").source, False)) == 1


def test_the_per_statement_bound_grows_with_the_places():
    """With --sites N each statement has about N times the variants: the default bound is 60 s per place (a fixed
    60 s skipped the statements with the most merges at --sites 4), and an explicit bound is kept."""
    assert probe.options([]).deadline_s == 60
    assert probe.options(["--sites", "4"]).deadline_s == 240
    assert probe.options(["--sites", "4", "--deadline-s", "30"]).deadline_s == 30
    assert probe.options([]).truth_timeout_s > probe.options([]).timeout_s


def test_a_mutation_yields_its_places_and_a_rewrite_gives_one_variant():
    """Each mutation says where it applies (`Mutation.places`, first the default place); called, it gives that
    first one. A rewrite is one variant, at any --sites."""
    from atf.symeq import isabelle_metamorphic as isa
    from atf.symeq import metamorphic as lean
    from atf.symeq.metamorphic import Mutation

    lean_text = "theorem t (x y : ℝ) (h₀ : 0 < x ∧ 1 < y) (h₁ : x + 2 ≤ y) : x * 3 + 4 ≠ y ^ 2 - 5 := by sorry"
    isa_text = thm("x y :: real", ["0 < x & 1 < y", "x + 2 <= y"], "x * 3 + 4 ~= y ^ 2 - 5")
    for module, text in ((lean, lean_text), (isa, isa_text)):
        p = module.cut(text)
        for kind, f in module.MUTATIONS.items():
            assert isinstance(f, Mutation), kind
            places, first = list(f.places(p)), f(p)
            assert (first is None) == (not places), kind
            assert first is None or first.text() == places[0].text(), kind
        many = module.variants(text, module.MUTATIONS, sites=50)
        assert sum(k.split("#")[0] == "change_literal" for k in many) == 6  # 0, 1, 2, 3, 4, 5: not the exponent
        assert set(module.variants(text, module.REWRITES, sites=4)) == set(module.variants(text, module.REWRITES))
