"""How an Isabelle statement is put together, from the session-27 probe's false merges:

- the short form `lemma "P" if "Q" for x :: T` (isar-ref, statements): the `if` props are premises and the `for`
  names fixed variables (they were dropped: `lemma "x ≥ 0" for x :: nat` merged with the same `for x :: int`);
- `defines "f x ≡ t"` defines f as `λx. t` (isar-ref, context elements): the equation holds at every x;
- `fun` is `function (sequential)`: an equation applies where no earlier one's patterns match (read as independent
  facts, `f 0 = 1 | f n = 0` contradicted itself and every statement about f merged with False);
- a `fixes a` after `definition a` is a new a (the definition speaks of the constant);
- the statement is the last theorem/lemma that opens one: a helper lemma comes first (`lemma l: "True" by simp`
  was read as the statement), and prose ("the lemma below says ...") opens none.
"""

import pytest

from tests.symeq_pairs import same_isabelle

F = 'fun f :: "nat \\<Rightarrow> nat" where "f 0 = 1" | "f n = 0"\n'
G = 'fun g :: "nat \\<Rightarrow> nat" where "g 0 = 1" | "g n = n * g (n - 1)"\n'
PROSE = 'The lemma below says "x = 3" for the answer.\n'


@pytest.mark.parametrize(
    "a,b",
    [
        ('lemma "x \\<ge> 0" for x :: nat', 'lemma "x \\<ge> 0" for x :: int'),
        ('lemma "x - 1 + 1 = x" for x :: nat', 'lemma "True"'),
        ('lemma "x = 1" if "x > 0 \\<and> x < 2" for x :: int', 'lemma "x = 1" for x :: int'),
        (
            'theorem fixes f :: "real \\<Rightarrow> real" defines "f x \\<equiv> 2 * x" shows "f 1 = 2"',
            'theorem fixes f :: "real \\<Rightarrow> real" and x :: real assumes "f x = 2 * x" shows "f 1 = 2"',
        ),
        (F + 'lemma "f 0 = 1"', F + 'lemma "False"'),
        (G + 'lemma "g 5 = 120"', G + 'lemma "g 5 = 7"'),
        ('lemma l: "True" by simp\ntheorem "(1::nat) = 2"', 'theorem "True"'),
        (PROSE + 'theorem fixes x :: nat assumes "x + 1 = 4" shows "x = 3"', 'theorem fixes x :: nat shows "x = 3"'),
        ('definition a :: real where "a = 5"\ntheorem fixes a :: real shows "a = 5"', 'theorem "True"'),
    ],
)
def test_statement_structure_false_merges(a, b):
    assert not same_isabelle(a, b)


@pytest.mark.parametrize(
    "a,b",
    [
        (
            'lemma "x = 1" if "x > 0 \\<and> x < 2" for x :: int',
            'theorem fixes x :: int assumes "x > 0 \\<and> x < 2" shows "x = 1"',
        ),
        (F + 'lemma "f 0 = 1 \\<and> f 3 = 0"', F + 'lemma "True"'),
        (G + 'lemma "g 5 = 120"', G + 'lemma "True"'),
        (
            PROSE + 'theorem fixes x :: nat assumes "x + 1 = 4" shows "x = 3"',
            'theorem fixes x :: nat assumes "x + 1 = 4" shows "True"',
        ),
        ('lemma l: "True" by simp\ntheorem "(1::nat) = 1"', 'theorem "True"'),
        # a `defines` without arguments is one equation (quantifying the defined name made it contradictory)
        ('theorem fixes x y :: real defines "y \\<equiv> x + 1" shows "y - x = 1"', 'theorem "True"'),
        (
            'theorem fixes x :: real defines "y \\<equiv> x + 1" shows "y > x"',
            'theorem fixes x y :: real assumes "y = x + 1" shows "y > x"',
        ),
        ('theorem defines "f \\<equiv> \\<lambda>x::real. x + 1" shows "f 2 = 3"', 'theorem "True"'),
        # patterns that cannot overlap need no guard (`Suc n ≠ 0`), and primrec's never do
        (
            'fun f :: "nat \\<Rightarrow> nat" where "f 0 = 0" | "f (Suc n) = f n + 2"\ntheorem "f 3 = 6"',
            'theorem "True"',
        ),
        (
            'primrec q :: "nat \\<Rightarrow> nat" where "q 0 = 1" | "q (Suc n) = 3 * q n"\ntheorem "q 2 = 9"',
            'theorem "True"',
        ),
        # the theorem, before an unfinished lemma after it (miniF2F imo_1983_p6's candidate 1)
        (
            'theorem fixes a :: real assumes h0 : "a > 0" shows "a powr 2 = a * a"\n'
            'lemma equal_case fixes a :: real assumes h0 : "a > 0"',
            'theorem fixes a :: real assumes h0 : "a > 0" shows "True"',
        ),
        # a fixed variable shadows a constant of that name, and only in the theorem
        (
            'definition a :: real where "a = 5"\ndefinition b :: real where "b = a + 1"\n'
            'theorem fixes a :: real shows "b = 6"',
            'theorem "True"',
        ),
    ],
)
def test_statement_structure_read_as_isabelle_does(a, b):
    assert same_isabelle(a, b)


@pytest.mark.parametrize(
    "a,b,same",
    [
        (
            'fixes f :: "real \\<Rightarrow> real" assumes "\\<And>x. f x = 2 * x" shows "f 3 = 6"',
            'fixes f :: "real \\<Rightarrow> real" assumes "\\<forall>x. f x = 2 * x" shows "f 3 = 6"',
            True,
        ),
        ('fixes x :: real shows "\\<And>y. y > x \\<Longrightarrow> y > x - 1"', '"True"', True),
        ('fixes x :: real shows "\\<And>y. y > x \\<Longrightarrow> y > x + 1"', '"True"', False),
        (
            'fixes f :: "nat \\<Rightarrow> nat" assumes "\\<And>n. f (n + 1) = f n + 2" and "f 0 = 1" shows "f 2 = 5"',
            'fixes f :: "nat \\<Rightarrow> nat" assumes "\\<And>n. f (n + 1) = f n + 2" and "f 0 = 1" shows "f 2 = 6"',
            False,
        ),
    ],
)
def test_pures_universal_quantifier_is_read_as_hols(a, b, same):
    # HOL.thy `atomize_all`: (⋀x. P x) ≡ Trueprop (∀x. P x)
    assert same_isabelle(a, b) == same
