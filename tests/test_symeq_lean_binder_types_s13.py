"""Types of unannotated binders as Lean 4's elaborator assigns them (session 13, s30).

Lean gives an unannotated binder (`∀ i, …`, `fun x => …`) a metavariable type that unification assigns as the terms
using it are elaborated, including through dependent signatures, and applies default instances (`instOfNatNat` for
numerals, `Monoid.npow` for `x ^ n`) only once the term is elaborated (`synthesizeSyntheticMVars`, whose last step is
`synthesizeUsingDefault`). A type ascription `(i : ℕ)` on a term whose type is already another is a coercion
(`elabTypeAscription` inserts `↑i`), not a declaration.

- `l.get i` is `List.get : (l : List α) → Fin l.length → α` (Lean core), so i : Fin l.length; it was read at a default
  ℕ, and `Even (i : ℕ)` merged with `Even i` (evenness in `Fin l.length`, true of every element when the length is
  odd: 2 is a unit modulo an odd number). The text is PutnamBench 1989 A1's hypothesis. Under `∀ l`, the type depends
  on the bound l, so the quantifier over i stays opaque over l (as a written `∀ i : Fin l.length` now does too: the
  head of the dotted name `l.length` is a name of the type).
- `A i j` for `A : Matrix (Fin n) (Fin n) ℝ` (Mathlib: `def Matrix (m n α) := m → n → α`) types i, j : Fin n.
- `∑ i ∈ s` with `s : Finset (Fin n)` (`Membership α (Finset α)`) types i : Fin n.
- `p.coeff i` (`Polynomial.coeff : R[X] → ℕ → R`) types i : ℕ, so `(i : ℕ)` is i itself.
- An argument of a function SymEq does not know (`Foo i`) has the type Lean's signature gives it, unknown to SymEq:
  `(i : ℕ)` is then read as an uninterpreted coercion and `Even i` is not read at a guessed ℕ.
- `x ^ n` with n's type not known yet: Lean postpones it to the later uses and defaults to ℕ only at the end; it had
  been kept opaque (since session 12), and is now settled once its proposition is read.
"""

import pytest

from atf.symeq.equivalence import SymEq
from tests.lean_statements import thm, verdict_tests


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


def digits_alt(even: str, bind: str = "l") -> str:
    """PutnamBench 1989 A1's hypothesis: the lists of alternating digits."""
    return thm(
        "(pdigalt : List ℕ → Prop)",
        f"∀ {bind}, pdigalt {bind} ↔ Odd {bind}.length ∧ (∀ i, {bind}.get i = if {even} then 1 else 0)",
    )


LIST = "(l : List ℕ)"
MATRIX = "(n : ℕ) (A : Matrix (Fin n) (Fin n) ℝ)"
FINSET = "(n : ℕ) (s : Finset (Fin n)) (f : Fin n → ℝ)"
POWER = "(f : ℕ → ℝ) (x : ℝ)"

MERGE = [
    # PutnamBench 1989 A1 renamed: the opaque quantifier over `Fin l.length` is over l, whatever l is named (its
    # type's text names l by position, `l.get` is the field of l)
    (digits_alt("Even (i : ℕ)"), digits_alt("Even (i : ℕ)", "m")),
    # the index of `l.get` is declared or inferred alike
    (
        thm(LIST, "∀ i, l.get i = if Even (i : ℕ) then 1 else 0"),
        thm(LIST, "∀ i : Fin l.length, l.get i = if Even (i : ℕ) then 1 else 0"),
    ),
    (
        thm(LIST, "∀ i, l.get i = if Even (i : ℕ) then 1 else 0"),
        thm(LIST, "∀ j, l.get j = if Even (j : ℕ) then 1 else 0"),
    ),
    # matrix entries: `∀ i j, A i j` is `∀ i j : Fin n, A i j`
    (thm(MATRIX, "∀ i j, A i j = A j i"), thm(MATRIX, "∀ i j : Fin n, A i j = A j i")),
    (thm(FINSET, "∑ i ∈ s, f i = 1"), thm(FINSET, "∑ j ∈ s, f j = 1")),
    # `Polynomial.coeff` takes a natural number: `(i : ℕ)` is i
    (
        thm("(p : Polynomial ℝ)", "∀ i, p.coeff i = if Even (i : ℕ) then 1 else 0"),
        thm("(p : Polynomial ℝ)", "∀ i, p.coeff i = if Even i then 1 else 0"),
    ),
    (thm("", "∀ i, Foo i → Even (i : ℕ)"), thm("", "∀ j, Foo j → Even (j : ℕ)")),
    # exponents typed after they are read: n : ℕ from `f n`, or by the default instance at the end
    (thm(POWER, "∀ n, x ^ n = f n"), thm(POWER, "∀ n, f n = x ^ n")),
    (thm(POWER, "∀ n, 2 * x ^ n = f n"), thm(POWER, "∀ n, x ^ n * 2 = f n")),
    (thm("", "∀ x, ∀ n, x ^ n = x ^ (n + 1) → x = 1"), thm("", "∀ x, ∀ n, x ^ (n + 1) = x ^ n → 1 = x")),
]

# l typed only after `l.get i` is read (Lean postpones the field notation until `pdigalt l` types l)
LATE = "(p : List ℕ → Prop)"


def late(body: str, bind: str = "l") -> str:
    return thm(LATE, f"∀ {bind}, ((∀ i, {bind}.get i = if {body} then 1 else 0) ↔ p {bind})")


MERGE.append((late("Even (i : ℕ)"), late("Even (i : ℕ)", "m")))

KEEP_APART = [
    # l typed after `l.get i` is read: i keeps a type SymEq does not know, so `(i : ℕ)` is a cast
    (late("Even (i : ℕ)"), late("Even i")),
    # PutnamBench 1989 A1: `Even i` in `Fin l.length` (always true when the length is odd) is not `Even (i : ℕ)`
    (digits_alt("Even (i : ℕ)"), digits_alt("Even i")),
    (digits_alt("Even (i : ℕ)", "m"), digits_alt("Even i", "m")),
    (thm(LIST, "∀ i, l.get i = if Even (i : ℕ) then 1 else 0"), thm(LIST, "∀ i, l.get i = if Even i then 1 else 0")),
    # `i % 2 = 0` in Fin l.length is about i's value, `Even i` about the ring Fin l.length
    (thm(LIST, "∀ i, l.get i = if Even i then 1 else 0"), thm(LIST, "∀ i, l.get i = if i % 2 = 0 then 1 else 0")),
    (
        thm("(n : ℕ)", "∀ i, (Nat.digits 10 n).get i = if Even (i : ℕ) then 1 else 0"),
        thm("(n : ℕ)", "∀ i, (Nat.digits 10 n).get i = if Even i then 1 else 0"),
    ),
    # matrix and Finset indices are in Fin n: the cast to ℕ is no declaration (`(i : ℕ) < 2` vs `i < 2` in Fin n,
    # where 2 wraps around for n ≤ 2)
    (
        thm(MATRIX, "∀ i j, A i j = if Even (i : ℕ) then 1 else 0"),
        thm(MATRIX, "∀ i j, A i j = if Even i then 1 else 0"),
    ),
    (thm(MATRIX, "∀ i j, A i j = if (i : ℕ) < 2 then 1 else 0"), thm(MATRIX, "∀ i j, A i j = if i < 2 then 1 else 0")),
    (
        thm(FINSET, "∑ i ∈ s, (if Even (i : ℕ) then 1 else 0) = 1"),
        thm(FINSET, "∑ i ∈ s, (if Even i then 1 else 0) = 1"),
    ),
    # an argument of an unknown function: its type is Lean's, not a guessed ℕ
    (thm("", "∀ i, Foo i → Even (i : ℕ)"), thm("", "∀ i, Foo i → Even i")),
    (thm("", "∀ i, Foo i → Even i"), thm("", "∀ i, Foo i → i % 2 = 0")),
    # x is typed ℝ by `g x` after `2 ^ (x ^ 2)` is read: `0 < x ∧ x < 1` is no contradiction (over ℕ it was)
    (
        thm("(g : ℝ → ℝ)", "∀ x, 0 < x ∧ x < 1 → 2 ^ (x ^ 2) = g x"),
        thm("(g : ℝ → ℝ)", "∀ x, False → 2 ^ (x ^ 2) = g x"),
    ),
    (thm(POWER, "∀ n, x ^ n = f n"), thm(POWER, "∀ n, x ^ (n + 1) = f n")),
]

test_merge, test_apart = verdict_tests(MERGE, KEEP_APART)
