"""Mathlib and HOL definitions SymEq kept opaque until session 36, read by their definitions (VERSION 92).

- `Nat.divisors n` is Mathlib's `{d ∈ Ico 1 (n + 1) | d ∣ n}`, `Nat.properDivisors n` `{d ∈ Ico 1 n | d ∣ n}`; at a
  literal n the normaliser lists the divisors from n's factors however large n is (`∑ k in Nat.divisors (30 ^ 4), 1`
  has 125 terms, not 810,000 tested), also for a filter written by hand and for Isabelle's `{d. d dvd 500}`, which a
  nonzero literal bounds (0 divides only 0).
- `id x` is x in Lean as in Isabelle; `List.sum`/`List.prod` of a literal list add (multiply) the items.
- `Nat.totient`, `Nat.log`, `Nat.clog` are computed at literals. Isabelle's `totient` is not: it is HOL-Number_Theory's
  (Totient.thy), which the data's header (Complex_Main and HOL-Computational_Algebra) does not import, so there it may
  be a free variable; it stays the opaque constant it was.
- `Real.log` / Isabelle's `ln` of a positive rational literal is the sum of its primes' logarithms (ln_mult, ln_div),
  so `Real.logb 2 8 = 3` and Isabelle's `log 2 8 = 3` are theorems; `log 2 3 = 1` is not (nothing relates the
  logarithms of two primes but their signs), and neither is a literal too large to factor.
- `Nat.digits b n = [d₀, …, dₖ]` at a literal base b ≥ 2 states n = Σ dᵢ bⁱ with every dᵢ < b and dₖ ≠ 0 (the one such
  list, Mathlib `Nat.digits_ofDigits`); `Nat.digits b n = []` states n = 0.
- Isabelle's `prime_factors x` and Mathlib's `Nat.primeFactors n` are the sets their membership lemmas describe
  (`in_prime_factors_iff`, `Nat.mem_primeFactors`: the prime divisors of a nonzero number).
- Isabelle's `∑d ∈ {d. d dvd (12::nat)}. d`: the sum's index takes the set's element type (it was a type variable,
  so the sum over a listed set was never added up).
"""

import math
import random

import pytest

from atf.symeq import mathlib
from tests.symeq_pairs import same_isabelle, same_lean

# (statement, truth): a closed statement means True when it holds and False when it does not
LEAN_CLOSED = [
    (": (Finset.range 5).sum id = 10", True),
    (": (Finset.range 5).sum id = 15", False),
    (": List.sum [1, 2, 3] = 6", True),
    (": [1, 2, 3].sum = 7", False),
    (": [2, 3, 4].prod = 24", True),
    (": List.prod [2, 3] = 5", False),
    (": (Nat.divisors 6).card = 4", True),
    (": (Nat.divisors 6).card = 3", False),
    (": ∑ d in Nat.divisors 6, d = 12", True),
    (": ∑ k in Nat.divisors 500, k = 1092", True),
    (": (∑ k in Nat.divisors (30 ^ 4), 1) - 2 = 123", True),
    (": (∑ k in Nat.divisors (30 ^ 4), 1) - 2 = 122", False),
    (": ∑ k in Finset.filter (fun x => Nat.Prime x) (Nat.divisors 500), k = 7", True),
    (": ∑ i in Nat.properDivisors 28, i = 28", True),
    (": (Nat.properDivisors 28).sum id = 56", False),
    (": Nat.divisors 0 = ∅", True),
    (": Nat.properDivisors 1 = ∅", True),
    (": Nat.divisors 6 = {1, 2, 3, 6}", True),
    (": Nat.divisors 6 = {1, 2, 3}", False),
    (": 4 ∈ Nat.divisors 12", True),
    (": 5 ∈ Nat.divisors 12", False),
    (": (Finset.filter (fun x => x ∣ 12 ∧ Even x) (Finset.Icc 1 12)).card = 4", True),
    (": Nat.totient 10 = 4", True),
    (": Nat.totient 10 = 5", False),
    (": Nat.totient 0 = 0", True),
    (": φ 36 = 12", True),
    (": Nat.log 2 9 = 3", True),
    (": Nat.log 2 9 = 4", False),
    (": Nat.log 1 5 = 0", True),
    (": Nat.log 2 0 = 0", True),
    (": Nat.clog 2 9 = 4", True),
    (": Nat.clog 2 8 = 4", False),
    (": Real.logb 2 8 = 3", True),
    (": Real.logb 2 8 = 4", False),
    (": Real.logb 2 (1 / 8) = -3", True),
    (": Real.logb 2 (-8) = 3", True),
    (": Real.logb (5 ^ 2) (5 ^ 4) = 2", True),
    (": Real.log 12 = 2 * Real.log 2 + Real.log 3", True),
    (": Nat.digits 10 123 = [3, 2, 1]", True),
    (": Nat.digits 10 123 = [1, 2, 3]", False),
    (": Nat.digits 10 120 = [0, 2, 1]", True),
    (": Nat.digits 10 5 = [5, 0]", False),  # no trailing zero
    (": Nat.digits 10 0 = []", True),
    (": Nat.digits 10 123 ≠ [3, 2, 1]", False),
    (": (Nat.primeFactors 360).card = 3", True),
    (": ∑ p in Nat.primeFactors 1092, p = 25", True),
    (": Nat.primeFactors 0 = ∅", True),
    (": 4 ∈ Nat.primeFactors 12", False),
    (": 3 ∈ Nat.primeFactors 12", True),
]


@pytest.mark.parametrize("statement,truth", LEAN_CLOSED)
def test_lean_definitions_decide_closed_statements(statement, truth):
    assert same_lean(statement, ": True") == truth
    assert same_lean(statement, ": False") == (not truth)


# (a, b, the same meaning?)
LEAN_PAIRS = [
    ("(n : ℕ) : ∑ d in n.divisors, d = 2 * n", "(n : ℕ) : ∑ d in Nat.divisors n, id d = 2 * n", True),
    ("(n : ℕ) : n.divisors.card = 3", "(n : ℕ) : (Finset.filter (· ∣ n) (Finset.Ico 1 (n + 1))).card = 3", True),
    ("(n : ℕ) : n.divisors.card = 3", "(n : ℕ) : n.properDivisors.card = 3", False),
    ("(n : ℕ) : n.divisors.card = 3", "(n : ℕ) : (Finset.filter (· ∣ n) (Finset.range n)).card = 3", False),
    ("(l : ℕ) : [1, 2, l].sum = 6", "(l : ℕ) : 1 + 2 + l = 6", True),
    ("(l : ℕ) : [2, l].prod = 8", "(l : ℕ) : 2 + l = 8", False),
    ("(l : ℕ) : [2, l].prod = 8", "(l : ℕ) : 2 * l = 8", True),
    ("(x : ℝ) (h : Real.logb 2 x = 3) : x = 8", "(x : ℝ) (h : Real.log x / Real.log 2 = 3) : x = 8", True),
    # nothing relates the logarithms of two primes but their signs: not a theorem SymEq can prove, nor merged
    (": Real.logb 2 3 = 1", ": True", False),
    (": Real.logb 2 3 = 1", ": False", False),
    # a literal too large to factor stays one unknown logarithm
    (": Real.logb 2 (9999999967 * 9999999967) = 3", ": False", False),
    ("(id : ℕ → ℕ) : id 3 = 4", ": False", False),  # a variable named id is that variable
    ("(n : ℕ) (h : Nat.digits 10 n = [3, 2, 1]) : Even n", "(n : ℕ) (h : n = 123) : Even n", True),
    ("(n : ℕ) (h : Nat.digits 10 n = [3, 2, 1]) : n % 4 = 3", "(n : ℕ) (h : n = 321) : n % 4 = 3", False),
    ("(n a b : ℕ) (h : Nat.digits 10 n = [a, b]) : n < 100", "(n a b : ℕ) (h : Nat.digits 10 n = [a, b]) : True", True),
    ("(n a b : ℕ) (h : Nat.digits 10 n = [a, b]) : n ≥ 10", "(n a b : ℕ) (h : Nat.digits 10 n = [a, b]) : True", True),
    ("(n a b : ℕ) (h : Nat.digits 10 n = [a, b]) : n ≥ 11", "(n a b : ℕ) (h : Nat.digits 10 n = [a, b]) : True", False),
    # base 1 is no base: Mathlib's `Nat.digits 1 n` is n ones, not read
    ("(n : ℕ) (h : Nat.digits 1 n = [1, 1]) : n = 2", ": False", False),
]


@pytest.mark.parametrize("a,b,same", LEAN_PAIRS)
def test_lean_definitions_in_pairs(a, b, same):
    assert same_lean(a, b) == same


ISABELLE_CLOSED = [
    ('"card {d::nat. d dvd 500} = 12"', True),
    ('"card {d::nat. d dvd 500} = 13"', False),
    ('"(\\<Sum>d | d dvd (500::nat). d) = 1092"', True),
    ('"(\\<Sum>d\\<in>{d. d dvd (12::nat)}. d) = 28"', True),
    ('"(\\<Sum>(d::nat)\\<in>{d. d dvd 12}. d) = 29"', False),
    ('"card {d::int. d dvd 6} = 8"', True),
    ('"card {k::nat. k < 30 \\<and> k dvd 30} = 7"', True),
    ('"log 2 (8::real) = 3"', True),
    ('"log 10 (1000::real) = 2"', False),
    ('"log 4 (2::real) = 1/2"', True),
    ('"ln (8::real) = 3 * ln 2"', True),
    ('"(\\<Sum>p\\<in>prime_factors (1092::nat). p) = 25"', True),
    ('"card (prime_factors (360::nat)) = 3"', True),
    ('"card (prime_factors (360::nat)) = 4"', False),
    ('"card (prime_factors (-360::int)) = 3"', True),  # normalized primes: positive
    ('"prime_factors (0::nat) = {}"', True),
]


@pytest.mark.parametrize("statement,truth", ISABELLE_CLOSED)
def test_isabelle_definitions_decide_closed_statements(statement, truth):
    assert same_isabelle(statement, '"True"') == truth
    assert same_isabelle(statement, '"False"') == (not truth)


def test_isabelle_totient_stays_unread():
    assert not same_isabelle('"totient 10 = 4"', '"True"')
    assert not same_isabelle('"totient 10 = 4"', '"False"')


def test_isabelle_untyped_divisor_sets_stay_polymorphic():
    # no type fixes d: `d dvd 12` holds in every semiring, and over int the set has twelve elements
    assert not same_isabelle('"(\\<Sum>d\\<in>{d. d dvd 12}. d) = 28"', '"True"')
    # 0 divides only 0: {d. d dvd 0} is every natural number (card 0 in Isabelle), not read as a listed set
    assert not same_isabelle('"card {d::nat. d dvd 0} = 0"', '"False"')


def test_arithmetic_functions_against_their_definitions():
    for n in range(0, 400):
        brute = [d for d in range(1, n + 1) if n % d == 0]
        if n:
            assert mathlib.divisors_of(n) == brute
            assert mathlib.factorize(n) is not None and math.prod(p**e for p, e in mathlib.factorize(n)) == n
        assert mathlib.totient(n) == sum(1 for a in range(n) if math.gcd(n, a) == 1)
        for b in range(0, 6):
            assert mathlib.nat_log(b, n) == (max(k for k in range(n + 1) if b**k <= n) if b > 1 and n > 0 else 0)
            assert mathlib.nat_clog(b, n) == (min(k for k in range(n + 1) if n <= b**k) if b > 1 and n > 1 else 0)
    assert mathlib.factorize(0) is None and mathlib.factorize(mathlib.LIMIT + 1) is None
    assert mathlib.divisors_of(9999999967) == [1, 9999999967]


def test_factorize_beyond_trial_division():
    # Pollard's rho and Miller-Rabin, against the product of what they return and against trial division
    rng = random.Random(36)
    hard = [999983 * 999979, 1000003**2, 2**40, 3**25, 29_999_999 * 30_000_001, 10**15 - 11]
    for n in hard + [rng.randrange(1, 10**12) for _ in range(200)]:
        factors = mathlib.factorize(n)
        assert math.prod(p**e for p, e in factors) == n
        assert all(all(p % d for d in range(2, min(math.isqrt(p), 10**4) + 1)) for p, _ in factors)
        assert [p for p, _ in factors] == sorted({p for p, _ in factors})
    assert mathlib.factorize(999983 * 999979) == ((999979, 1), (999983, 1))


def test_factoring_is_bounded_per_statement():
    from atf.symeq import ir
    from atf.symeq.equivalence import parse
    from atf.symeq.normalize import FACTOR_WORK, MAX_LITERAL_WORK

    # distinct products of two primes near 3 * 10^7, the slowest literals to factor: only what the statement's
    # literal budget pays for is factored, the rest stays `Nat.totient` of the literal
    big = [p * q for p, q in zip(range(30_000_001, 30_002_001, 2), range(29_990_001, 29_992_001, 2))][:300]
    text = "theorem t : " + " ∧ ".join(f"Nat.totient {n} ≠ 0" for n in big) + " := by sorry"
    st = parse(text, "lean")
    unread = sum(1 for x in ir.walk(st.conclusion) if isinstance(x, ir.Var) and x.name == "uf:totient")
    assert unread >= len(big) - MAX_LITERAL_WORK // FACTOR_WORK > 0
    assert mathlib.factorize(mathlib.LIMIT + 1) is None
    assert not same_lean(f": Nat.totient {mathlib.LIMIT + 37} = 0", ": False")  # past the limit: unread


def test_logarithms_of_literals_are_bounded_per_translation():
    from atf.symeq import smt
    from atf.symeq.equivalence import parse

    primes = [p for p in range(1000, 2000) if mathlib.factorize(p) == ((p, 1),)][: smt.MAX_FACTORED + 6]
    text = "theorem t : " + " + ".join(f"Real.log {p}" for p in primes) + " = 0 := by sorry"
    tr = smt.Translator("lean")
    tr.prop(parse(text, "lean").conclusion)
    assert len(tr.factored) == smt.MAX_FACTORED


def test_prime_factors_of_a_variable_are_a_set_of_its_divisors():
    # the prime divisors, not all divisors (n = 6: two against four)
    assert not same_isabelle(
        'fixes n :: nat shows "card (prime_factors n) = 2"', 'fixes n :: nat shows "card {p. p dvd n} = 2"'
    )
    assert same_isabelle(
        'fixes n :: nat shows "card (prime_factors n) = 2"', 'fixes m :: nat shows "card (prime_factors m) = 2"'
    )
    assert not same_lean("(n : ℕ) : (Nat.primeFactors n).card = 2", "(n : ℕ) : (Nat.primeFactors n).card = 3")
    # the dotted form and the name under `open Nat` are the same function
    assert same_lean("(n : ℕ) : n.primeFactors.card = 2", "(n : ℕ) : (Nat.primeFactors n).card = 2")
    assert same_lean(": (primeFactors 360).card = 3", ": True")
