"""The Isabelle metamorphic probe (`atf.symeq.isabelle_metamorphic`, session 13): what its mutations and rewrites
produce on sample statements, and that SymEq keeps meaning-changing mutations apart and merges the rewrites. (On
MATH dev the probe found no false merge: every merged mutation was read, see the session-13 report.)"""

import pytest

from atf.symeq.equivalence import SymEq
from atf.symeq.isabelle_metamorphic import MUTATIONS, REWRITES, cut, variants
from tests.isabelle_statements import thm


@pytest.fixture(scope="module")
def symeq():
    return SymEq("isabelle", timeout_ms=2000)


S = thm(
    "x y :: real and n :: nat",
    ["0 < x \\<and> x \\<le> y", "\\<forall> k. k \\<le> n \\<longrightarrow> real k \\<le> x"],
    "x powr 2 - y / 2 = (\\<Sum> i\\<in>{1..n}. real i)",
)
HEAD = (
    'theorem t\n  fixes x y :: "real" and n :: "nat"\n  assumes h0: "0 < x & x <= y"\n'
    '    and h1: "\\<forall> k . k <= n --> real k <= x"\n  shows '
)


def test_cut_reads_fixes_assumes_shows():
    p = cut(S)
    assert p is not None and p.hyps == [2, 3] and len(p.binders) == 4
    assert p.text() == HEAD + '"x powr 2 - y / 2 = ( \\<Sum> i \\<in> { 1 .. n } . real i )"'
    assert cut('theorem fixes x :: real shows "x = 1" "x = 2"') is None  # two conclusions: not cut
    assert cut('theorem "(1::nat) + 1 = 2"').text() == 'theorem t\n  shows "1 :: nat ) + 1 = 2"'.replace('"1', '"( 1')


@pytest.mark.parametrize(
    "kind,want",
    [
        ("change_literal", "x powr 2 - y / 2 = ( \\<Sum> i \\<in> { 2 .. n } . real i )"),
        ("change_relation", "x powr 2 - y / 2 ~= ( \\<Sum> i \\<in> { 1 .. n } . real i )"),
        ("swap_operands", "2 powr x - y / 2 = ( \\<Sum> i \\<in> { 1 .. n } . real i )"),
        ("widen_bound", "x powr 2 - y / 2 = ( \\<Sum> i \\<in> { 1 .. ( n + 1 ) } . real i )"),
        ("swap_function", "x powr 2 - y / 2 = ( \\<Prod> i \\<in> { 1 .. n } . real i )"),
        ("drop_cast", "x powr 2 - y / 2 = ( \\<Sum> i \\<in> { 1 .. n } . i )"),
        ("negate_conclusion", "~ ( x powr 2 - y / 2 = ( \\<Sum> i \\<in> { 1 .. n } . real i ) )"),
        ("div_to_times", "x powr 2 - y * 2 = ( \\<Sum> i \\<in> { 1 .. n } . real i )"),
    ],
)
def test_mutation_of_the_conclusion(kind, want):
    assert MUTATIONS[kind](cut(S)).text() == HEAD + f'"{want}"'


def test_mutations_of_binders_and_hypotheses():
    p = cut(S)
    assert 'fixes x y :: "nat" and n :: "nat"' in MUTATIONS["change_type"](p).text()
    assert "h0" not in MUTATIONS["drop_hypothesis"](p).text()
    assert 'h1: "\\<exists> k . k <= n' in MUTATIONS["swap_quantifier"](p).text()
    assert 'h0: "0 < x | x <= y"' in MUTATIONS["swap_connective"](p).text()


def test_every_mutation_stays_apart_and_every_rewrite_merges(symeq):
    """The probe itself: on a statement SymEq reads fully, each meaning-changing mutation is kept apart and the
    meaning-preserving rewrites are merged."""
    text = thm("a b :: int", ["0 < a", "a < b", "b - a \\<noteq> 3"], "a * b + 2 ^ 2 \\<ge> 4 * a + b")
    mutations = variants(text, MUTATIONS)
    assert {"change_literal", "change_relation", "drop_hypothesis", "change_type", "swap_operands"} <= set(mutations)
    for kind, mutant in mutations.items():
        assert not symeq.compare(text, mutant).equivalent, (kind, mutant)
    rewrites = variants(text, REWRITES)
    assert {"rename", "reorder", "swap_sides", "merge_and", "curry_all"} <= set(rewrites)
    for kind, rewrite in rewrites.items():
        assert symeq.compare(text, rewrite).equivalent, (kind, rewrite)


def test_pow_powr_apart_at_a_negative_base_and_merged_on_positive_ones(symeq):
    """`^` into `powr` changes the meaning where the base may be negative (Transcendental.thy: `x powr a = (if x = 0
    then 0 else exp (a * ln x))`, `ln` of a negative number unspecified), and keeps it where the base is positive
    (`powr_realpow`: 0 < x ⟹ x powr real n = x ^ n)."""
    free = thm("x :: real", ["x \\<noteq> 1"], "x ^ 2 = 4")
    mutant = MUTATIONS["pow_powr"](cut(free)).text()
    assert mutant.endswith('shows "x powr 2 = 4"')
    assert not symeq.compare(free, mutant).equivalent
    positive = thm("x :: real", ["0 < x"], "x ^ 2 = 4")
    assert symeq.compare(positive, MUTATIONS["pow_powr"](cut(positive)).text()).equivalent
    back = thm("x :: real", [], "x powr 3 = 8")
    assert MUTATIONS["pow_powr"](cut(back)).text().endswith('shows "x ^ 3 = 8"')


def test_push_cast_through_nat_subtraction_and_division(symeq):
    """`real (a - b)` is not `real a - real b` on nat (Nat.thy: `-` truncates at 0; `of_nat_diff` needs b ≤ a), nor
    `real (a div b)` `real a / real b`; on int both hold (Int.thy `of_int_diff`), and on nat when b ≤ a."""
    nat = thm("a b :: nat", [], "real (a - b) = 0")  # a ≤ b, against a = b
    pushed = MUTATIONS["push_cast_sub"](cut(nat)).text()
    assert pushed.endswith('shows "( real a - real b ) = 0"')
    assert not symeq.compare(nat, pushed).equivalent
    nat_div = thm("a b :: nat", ["b > 0"], "real (a div b) = 2")
    pushed_div = MUTATIONS["push_cast_sub"](cut(nat_div)).text()
    assert pushed_div.endswith('shows "( real a / real b ) = 2"')
    assert not symeq.compare(nat_div, pushed_div).equivalent
    for text in (
        thm("a b :: int", [], "real_of_int (a - b) = 2"),
        thm("a b :: nat", ["b \\<le> a"], "real (a - b) = 2"),
    ):
        assert symeq.compare(text, MUTATIONS["push_cast_sub"](cut(text)).text()).equivalent
    add = thm("a b :: nat", [], "real (a + b) = 2")
    assert symeq.compare(add, REWRITES["push_cast_add"](cut(add)).text()).equivalent


def test_probe_sets_keep_dev_and_table1_apart():
    """--split valid reads only MATH dev; --split test only Table 1's sets (the paper's 400, miniF2F), never dev."""
    from atf.data.isabelle import load_math, load_math_dev
    from eval.symeq_metamorphic import ISABELLE_SETS, isabelle_golds

    assert ISABELLE_SETS == {"valid": ("math-dev",), "test": ("math-400", "minif2f")}
    dev_ids = {p.id for p in load_math_dev()}
    paper_ids = {q.id for q in load_math("test") if q.in_paper_400}
    dev, m400 = isabelle_golds("math-dev", None), isabelle_golds("math-400", None)
    assert dev and m400 and set(dev) <= dev_ids and set(m400) <= paper_ids and not dev_ids & paper_ids
    assert set(isabelle_golds("math-dev", None, nth=1)) < set(dev)  # a second distinct correct one: fewer problems
    assert len(isabelle_golds("minif2f", None)) > 100
