"""Long and deep statements: a chain of `∧` or `∨` of any length is read as one n-ary connective, a proposition nested
deeper than `ir.MAX_DEPTH` stays one opaque proposition (read in linear time), and no fallback reads a chain again.

Both front-ends read a right-associative chain `a ∧ b ∧ c` (Lean's `infixr:35 " ∧ "`, Init/Core.lean; HOL.thy's
`infixr "∧" 35`) by recursion, one level per operand, and every pass of the statement compiler recursed once per
level. A hypothesis of 400 conjuncts, or 400 disjuncts `x = 0 ∨ x = 1 ∨ …` (an enumeration a formalizer writes), overran
Python's stack: the statement could not be read ("maximum recursion depth exceeded"). Where the Lean parser failed, its
fallback cut the chain at its first connective and read the rest again, quadratic in the chain's length: 1,500
conjuncts took 19 s before failing. `x + 1 + 1 + …`, `¬ ¬ ¬ …` and `((((…))))` nested as deep failed the same way."""

import pytest

from atf.symeq import ir, isabelle_frontend, lean_frontend
from atf.symeq.equivalence import SymEq, parse
from atf.symeq.ir import App


def lean(hyp: str, concl: str = "x ≤ 1000", var: str = "x", ty: str = "ℕ") -> str:
    return f"theorem t ({var} : {ty}) (h : {hyp}) : {concl} := by sorry"


def isabelle(hyp: str, concl: str = "x \\<le> 1000", var: str = "x", ty: str = "nat") -> str:
    return f'theorem fixes {var} :: {ty} assumes h0 : "{hyp}" shows "{concl}"'


def enumeration(n: int, sep: str, var: str = "x") -> str:
    return sep.join(f"{var} = {i}" for i in range(n))


@pytest.mark.parametrize(
    "make, sep",
    [(lean, " ∨ "), (isabelle, " \\<or> "), (isabelle, " | ")],
    ids=["lean", "isabelle", "isabelle-ascii"],
)
def test_a_long_disjunction_is_one_n_ary_or(make, sep):
    st = parse(make(enumeration(600, sep)), "isabelle" if make is isabelle else "lean")
    assert not st.opaque, st.opaque[:2]
    (prem,) = st.premises
    assert isinstance(prem, App) and prem.op == "or" and len(prem.args) == 600
    assert ir.depth(prem) <= 4


@pytest.mark.parametrize("make, sep", [(lean, " ∧ "), (isabelle, " \\<and> ")], ids=["lean", "isabelle"])
def test_a_long_conjunction_is_read_and_compared(make, sep):
    """600 conjuncts `x + i ≥ i` (all true): the statement is read, each conjunct a premise, and SymEq still tells
    a changed conclusion apart from a renamed copy."""
    lang = "isabelle" if make is isabelle else "lean"
    ge = " \\<ge> " if lang == "isabelle" else " ≥ "
    hyp = sep.join(f"x + {i}{ge}{i}" for i in range(600))
    a = make(hyp, concl="x = 7")
    renamed = make(hyp.replace("x", "y"), concl="y = 7", var="y")
    other = make(hyp, concl="x = 8")
    res = SymEq(lang).cluster([a, renamed, other])
    assert all(s is not None and not s.opaque for s in res.statements), res.errors
    assert sorted(map(sorted, res.classes)) == [[0, 1], [2]]


@pytest.mark.parametrize(
    "a, b",
    [
        ("(x = 1 ∧ x < 5) ∧ x > 0", "x = 1 ∧ (x < 5 ∧ x > 0)"),
        ("(x = 1 ∨ x = 2) ∨ x = 3", "x = 1 ∨ x = 2 ∨ x = 3"),
    ],
)
def test_how_a_chain_is_bracketed_does_not_matter_even_in_opaque_text(a, b):
    """∧ and ∨ are associative: the three bracketings are one term, also where the proposition stays opaque text (an
    opaque proposition compares by its text, and the candidates of one MATH problem differed only there)."""
    read = [lean_frontend.parse_prop(lean_frontend.tokenize(s), []) for s in (a, b)]
    assert read[0] == read[1]
    assert len(read[0].args) == 3
    unread = "∃! f : ℕ → ℕ, f = f"  # an opaque part in both
    notes: list[str] = []
    pair = [lean_frontend.parse_prop(lean_frontend.tokenize(f"{s} ∧ ⟪{unread}⟫"), notes) for s in (a, b)]
    assert pair[0] == pair[1]


def test_an_operator_of_the_connectives_own_power_inside_a_chain_reads_as_lean_reads_it():
    """`×` is `infixr:35` like `∧`: Lean reads `a ∧ b × c ∧ d` as `a ∧ (b × (c ∧ d))`, and so does the chain."""
    t = lean_frontend.parse_prop(lean_frontend.tokenize("p ∧ q × r ∧ s"), [])
    assert t.op == "and" and len(t.args) == 2
    prod = t.args[1]
    assert prod.op == "call" and prod.args[0] == ir.Var("op:prod")
    assert prod.args[2].op == "and"


DEEP = {
    "sum": "x" + " + 1" * 400 + " > 0",
    "negations": "¬ " * 1000 + "x > 0",
    "brackets": "(" * 1000 + "x > 0" + ")" * 1000,
    "implications": " → ".join(f"x > {i}" for i in range(500)),
}


@pytest.mark.parametrize("kind", sorted(DEEP))
def test_a_proposition_deeper_than_the_bound_stays_one_opaque_proposition(kind):
    """Read as opaque text of its variables: a renamed copy merges, another constant does not, and the note says
    why. Before, such a statement could not be read at all."""
    hyp = DEEP[kind]
    a, renamed = lean(hyp), lean(hyp.replace("x", "y"), concl="y ≤ 1000", var="y")
    other = lean(hyp.replace("x > 0", "x > 1", 1) if kind != "sum" else hyp[:-1] + "1")
    st = parse(a, "lean")
    assert st.opaque and any("levels" in n for n in st.opaque), st.opaque
    res = SymEq("lean").cluster([a, renamed, other])
    assert sorted(map(sorted, res.classes)) == [[0, 1], [2]]


@pytest.mark.parametrize("kind", ["sum", "negations", "brackets"])
def test_isabelle_too(kind):
    hyp = {"negations": "\\<not> " * 1000 + "x > 0"}.get(kind, DEEP[kind])
    st = parse(isabelle(hyp), "isabelle")
    assert st.opaque and any("levels" in n for n in st.opaque), st.opaque


def test_a_bound_deep_term_is_read_whole():
    """Below the bound (120 levels) the sum is read, not kept opaque (a guard: the bound cuts no readable term)."""
    st = parse(lean("x" + " + 1" * 120 + " > 0"), "lean")
    assert not st.opaque


def test_the_parsers_fallback_reads_each_operand_of_a_chain_once(monkeypatch):
    """One operand of a 1,000-conjunct chain the parser cannot read: the fallback cuts the chain at every `∧` at once,
    so each operand is read twice at most (in the whole, then alone), not the rest of the chain again per operand."""
    calls = []
    real = lean_frontend._Parser.parse
    monkeypatch.setattr(lean_frontend._Parser, "parse", lambda self: calls.append(len(self.toks)) or real(self))
    parts = [f"x + {i} > 0" for i in range(1000)]
    parts[500] = "x = = 1"  # unreadable
    notes: list[str] = []
    t = lean_frontend.parse_prop(lean_frontend.tokenize(" ∧ ".join(parts)), notes)
    assert t.op == "and" and len(t.args) == 1000
    assert len(notes) == 1
    assert sum(calls) <= 3 * sum(len(lean_frontend.tokenize(p)) + 1 for p in parts), sum(calls)


def test_isabelle_chain_operands_stop_only_at_their_own_connective():
    """`A ∧ B ∨ C ∧ D` is `(A ∧ B) ∨ (C ∧ D)` (∨ binds looser); `A ∨ B ∧ C ∨ D` is `A ∨ (B ∧ C) ∨ D`."""
    t = isabelle_frontend.parse_term("a & b | c & d")
    assert t.op == "or" and [x.op for x in t.args] == ["and", "and"]
    t = isabelle_frontend.parse_term("a | b & c | d")
    assert t.op == "or" and len(t.args) == 3 and t.args[1].op == "and"
