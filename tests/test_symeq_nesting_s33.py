"""A statement's reading costs a polynomial in its nesting depth, for every construct `eval/symeq_nesting.py` wraps.

Readings that try a term one way and then read it again another way did so at every level, 2^depth readings:
- `arith_tree_or_unify` (a set's or list's items, gcd's operands) and `elab_rel` (a relation's sides) read an operand
  to learn its type, then again with the others: `Finset.card ({…, a} : Finset ℕ)`, `card {…, a}`, `gcd (card {…}) a`,
  `length […, a]` and `if … = a then a else b` nested 18 deep ran past 10 s (`Elaborator.elab_once` now reads a term
  with nothing expected of it once per occurrence, while what is known of its names' types stands).
- Isabelle's `{…}` was tried as a set builder `{e | x. P}`, then read again as an enumeration (`Max {…, a + 1}` 18
  deep: 4.7 s; `_Parser.not_builders` remembers where no builder starts).
Costs are counted (readings, parses), not timed."""

import pytest

from atf.symeq import isabelle_frontend
from atf.symeq.equivalence import SymEq, parse
from eval.symeq_nesting import FORMS, nest

EXPONENTIAL_BEFORE = [
    ("lean", "Finset.card ({{{t}, a}} : Finset ℕ)"),
    ("lean", "(if {t} = a then a else b)"),
    ("lean", "((if {t} then a else b) = 1)"),
    ("isabelle", "card {{{t}, a}}"),
    ("isabelle", "Max {{{t}, a + 1}}"),
    ("isabelle", "gcd (card {{{t}}}) a"),
    ("isabelle", "(if {t} = a then a else b)"),
    ("isabelle", "length [{t}, a]"),
]


def _form(lang: str, form: str) -> tuple[str, str]:
    (hit,) = [(template, base) for lg, template, base, f in FORMS if lg == lang and f == form]
    return hit


@pytest.fixture
def parses(monkeypatch):
    calls: list[int] = []
    real = isabelle_frontend._Parser.expr
    monkeypatch.setattr(isabelle_frontend._Parser, "expr", lambda self, bp: calls.append(1) or real(self, bp))
    return calls


@pytest.mark.parametrize("lang, form", EXPONENTIAL_BEFORE, ids=[f"{lg}: {f}" for lg, f in EXPONENTIAL_BEFORE])
def test_nested_constructs_are_read_in_polynomial_time(lang, form, elaborations, parses):
    template, base = _form(lang, form)
    readings, parsed = {}, {}
    for depth in (6, 12):
        elaborations.clear()
        parses.clear()
        st = parse(template.replace("{T}", nest(base, form, depth)), lang)
        assert not st.opaque, st.opaque[:2]
        readings[depth], parsed[depth] = len(elaborations), len(parses)
    # twice the depth: at most quadratic (4x, and a margin); 2^depth was 64x
    assert readings[12] <= 5 * readings[6], readings
    if lang == "isabelle":
        assert parsed[12] <= 5 * parsed[6], parsed


def test_the_nested_statement_still_merges_with_its_renamed_copy_and_not_with_a_changed_one():
    template, base = _form("isabelle", "card {{{t}, a}}")
    text = template.replace("{T}", nest(base, "card {{{t}, a}}", 10))
    renamed = text.replace("fixes a b", "fixes c b").replace("{a,", "{c,").replace(", a}", ", c}")
    changed = text.replace('= 1"', '= 2"')
    res = SymEq("isabelle").cluster([text, renamed, changed])
    assert sorted(map(sorted, res.classes)) == [[0, 1], [2]]


@pytest.mark.parametrize(
    "hyp",
    [
        "\\<forall> x. floor x * x = p",
        "\\<forall> x. floor x * (x - floor x) = p * x powr 2",
        "{x. floor x + x = p} = {}",
    ],
)
def test_a_term_is_read_again_where_its_names_learned_their_types(hyp):
    """`⌊x⌋` with x bound and not yet typed is read first at a type variable (an uninterpreted floor); the product
    then makes x real, and the second reading is the real floor. Reusing the first reading lost it."""
    st = parse(f'theorem fixes p :: real assumes h0: "{hyp}" shows "p = 1"', "isabelle")
    assert "uf:floor" not in str(st) and "floor(" in str(st), str(st)


def test_isabelle_pairs_under_one_polymorphic_function_share_their_type():
    """`dist :: 'a ⇒ 'a ⇒ real` (Real_Vector_Spaces.thy): both pairs have one type, so (0, 0) is at real like (a, 11).
    The second reading of the arguments had fresh type variables the first reading's unification never reached."""
    st = parse('theorem fixes a :: real assumes h0: "dist (0, 0) (a, 11) = 5" shows "a = 1"', "isabelle")
    (prem,) = st.premises
    call = prem.args[0]
    first, second = call.args[1], call.args[2]
    assert repr(first.ty) == repr(second.ty), (first.ty, second.ty)
