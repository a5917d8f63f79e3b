"""What follows an Isabelle statement's conclusion must be something Isabelle reads there: nothing, its proof, a
comment, the `for` or `(is ...)` of its propositions (isar-ref, statements), or the next command. A theorem has no
`where` clause (`where` belongs to `definition` and `obtains`), and prose or a Markdown fence after `shows "..."` is an
outer syntax error. SymEq read such a statement without what followed (`shows "s = 7 / 2" where "s = 4 + 6"` as a
statement about an arbitrary s); it now leaves it unread, as Isabelle rejects it.

Checked against Isabelle's own verdicts (the Isa-AutoFormal `syntax` field): every candidate with a `where` after
`shows` (25 in all data) was rejected, and so was each with prose or a fence there."""

import pytest

from atf.symeq.equivalence import SymEq, parse
from atf.symeq.ir import ParseError
from tests.isabelle_statements import minif2f_valid_readings

STATEMENT = 'theorem fixes x :: real assumes h0 : "x > 0" shows "x / x = 1"'


@pytest.mark.parametrize(
    "after, word",
    [
        ('where "s = 4 + 6"', "where"),
        ('\nwhen "x = 6"', "when"),
        ("\nThis theorem states that x / x = 1 for positive x.", "This"),
        ("\n```", "`"),
        ("\n-- x is positive", "-"),
    ],
)
def test_text_isabelle_does_not_read_after_the_conclusion_leaves_the_statement_unread(after, word):
    with pytest.raises(ParseError, match="after the conclusion") as err:
        parse(f"{STATEMENT} {after}", "isabelle")
    assert repr(word) in str(err.value)


@pytest.mark.parametrize(
    "after",
    [
        "",
        "\n(* x / x = 1 as x is not 0 *)",
        "\n\\<comment> \\<open>x is positive\\<close>",
        "\nby simp",
        "\nproof -\n  show ?thesis using h0 by simp\nqed",
        "\nsorry",
        '\n\nlemma extra: "(1::real) > 0" by simp',
        "\nend",
    ],
)
def test_a_proof_a_comment_or_a_command_may_follow(after):
    symeq = SymEq("isabelle", timeout_ms=1000)
    assert symeq.compare(f"{STATEMENT}{after}", STATEMENT).equivalent


def test_the_short_forms_for_and_is_may_follow():
    symeq = SymEq("isabelle", timeout_ms=1000)
    short = 'lemma "x / x = (1::real)" if "x > 0" for x :: real'
    assert symeq.compare(short, STATEMENT).equivalent
    assert symeq.compare(STATEMENT.replace('"x / x = 1"', '"x / x = 1" (is "?lhs = ?rhs")'), STATEMENT).equivalent
    with pytest.raises(ParseError, match="after the conclusion"):
        parse(short + "\nwhere x is positive", "isabelle")


def test_every_minif2f_valid_candidate_this_leaves_unread_was_rejected():
    """miniF2F valid (dev): the rule against Isabelle's own verdicts."""
    verdicts = [v for _, v, error, _ in minif2f_valid_readings() if error and "after the conclusion" in error]
    assert len(verdicts) >= 8 and set(verdicts) == {0}, verdicts
