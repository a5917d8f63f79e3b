"""More kinds of Isabelle text that Isabelle rejects and SymEq read with a guessed meaning, now left unread:

- `log t` alone is a function (`log :: real ⇒ real ⇒ real`, Transcendental.thy, the base first), and Complex_Main has
  no numerals or arithmetic on functions (HOL-Library's Function_Algebras has them): `log (x * y) = 1`, `log x > 0`
  and `log 2 + log 3` are type errors. An equation of two functions (`log x = log 2`) is not.
- `powr :: 'a::ln ⇒ 'a ⇒ 'a` is real (or complex) once a fixed variable is inside it: Isabelle coerces a nat or int
  one, so `a powr 2 mod 4` with `a :: int` is a `mod` at real, which has none (`class modulo`: nat and int).
  `(29 powr 13 - 5 powr 13) mod 7` keeps its reading: its type is a variable of sort modulo, which Isabelle accepts.
  Likewise a `mod` of a field's value made from fixed names only: `(1 / a + 1 / b) mod 31` with `a b :: int` (`/` is
  the class inverse's, so a and b are coerced to real). With a bound name inside, Isabelle's inference of its type
  (from all its uses) is not modelled, and the reading stays.
- `^` is `power :: 'a ⇒ nat ⇒ 'a` (Power.thy) and nat has no negation: `3 ^ -1` and `x ^ (-n)` are type errors.

Each checked against Isabelle's own verdicts on miniF2F valid (the Isa-AutoFormal `syntax` field)."""

import pytest

from atf.symeq.equivalence import parse
from tests.isabelle_statements import isa, minif2f_valid_readings, unread


@pytest.mark.parametrize(
    "fixes, shows",
    [
        ("x y :: real", "log (x * y powr 3) = 1"),
        ("x :: real", "log x > 0"),
        ("x :: real", "log 2 + log 3 = log 6"),
        ("a b :: real", "log (a / b) / log a \\<le> 0"),
        ("a :: int", "a powr 2 mod 4 = 1"),
        ("n :: nat", "(n powr 2 + (n + 1) powr 2) mod 17 = 0"),
        ("k :: int", "((k powr 2) + (2 powr k)) mod 10 = 6"),
        ("a b :: int", "(1 / a + 1 / b) mod 31 = 8"),
        ("a :: real", "a ^ -1 = 1 / a"),
        ("x :: int", "x = (3 ^ -1 + 5 ^ -1) ^ -1"),
        ("x :: real and n :: nat", "x ^ (- n) = 1"),
    ],
)
def test_a_function_as_a_number_and_a_mod_at_real_are_type_errors(fixes, shows):
    assert unread(isa(fixes, shows)), parse(isa(fixes, shows), "isabelle")


@pytest.mark.parametrize(
    "fixes, shows",
    [
        ("x :: real", "log 2 x = ln x / ln 2"),
        ("x :: real", "log x = log 2"),
        ("x :: real", "log 10 (x powr 2) = 2 * log 10 x"),
        ("a :: int", "a ^ 2 mod 4 = 1"),
        ("a :: int", "(29 powr 13 - 5 powr 13) mod 7 = 3"),
        ("a :: real", "a powr 2 \\<ge> 0"),
        ("x :: real and n :: nat", "x ^ (n - 1) = 1"),
        ("a :: real", "a powr -1 = 1 / a"),
        ("a :: real", "inverse a = 1 / a"),
        ("n :: nat", "card {x. x < 9 powr 5 \\<and> x mod n = 0} = 71"),
    ],
)
def test_two_argument_logs_function_equations_and_mod_of_numeral_powers_are_read(fixes, shows):
    assert not unread(isa(fixes, shows)), parse(isa(fixes, shows), "isabelle").opaque


@pytest.mark.parametrize(
    "reason, at_least",
    [
        ("a function among the numeral or arithmetic operands", 10),
        ("powr", 10),
        ("as the exponent of ^, a nat, which has no negation", 8),
        (", which has none", 3),
    ],
)
def test_every_minif2f_valid_candidate_these_leave_unread_was_rejected(reason, at_least):
    """miniF2F valid (dev): each rule against Isabelle's own verdicts."""
    verdicts = []
    for _, verdict, _, notes in minif2f_valid_readings():
        hit = [
            n
            for n in notes
            if n.startswith("unparsed proposition")
            and reason in n
            and (reason != "powr" or "powr" in n.split("':", 1)[-1] and "mod of a" in n)
            and (reason != ", which has none" or "the statement fixes" not in n)
        ]
        if hit:
            verdicts.append(verdict)
    assert len(verdicts) >= at_least and set(verdicts) <= {0, None}, verdicts
