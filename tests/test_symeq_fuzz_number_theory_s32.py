"""The Lean fuzzer's number-theory vocabulary (eval/symeq_fuzz.py): Lean core's six integer divisions (`Int.ediv` ...
`Int.tmod`), `Nat.succ`, `Nat.pred`, `Int.gcd`, `Int.lcm`, `a ≡ b [MOD n]`/`[ZMOD n]` and `Nat.ModEq n a b`,
`Nat.Coprime`, `Prime` at any type, and big operators over `Finset.Ico`/`Ioc`/`Ioo` and as `Finset.sum s (fun i => …)`;
the oracle's values checked on cases whose Lean value is known. And what the fuzzer found in SymEq (VERSION 72): Lean's
`Prime` of an integer is that of its absolute value (Mathlib `Int.prime_iff_natAbs_prime`), and `gcd`/`lcm` of
integers are those of the absolute values in both systems; each was an uninterpreted function of the signed value, so
`Prime (-x)` and `Prime x` stayed apart."""

import pytest

from atf.symeq.equivalence import SymEq
from eval.symeq_fuzz import Ill, N, Q, R, Z, elaborate, holds, make_pairs, show, value
from tests.isabelle_statements import isa
from tests.lean_statements import fuzz_sample, thm, verdict_tests


def var(x):
    return ("var", x)


def num(n):
    return ("num", n)


def int_value(f: str, a: int, b: int) -> int:
    _, typed = elaborate(
        {"x": Z}, [], ("rel", "=", ("int", f, [num(a) if a >= 0 else ("neg", num(-a)), num(b)]), num(0))
    )
    return value(typed[2], {})


@pytest.mark.parametrize(
    "f,a,b,expected",
    [
        # Lean core (Init/Data/Int/DivMod): E-rounding keeps the remainder in 0 ≤ r < |b|
        ("Int.ediv", -7, 2, -4),
        ("Int.emod", -7, 2, 1),
        ("Int.ediv", 7, -2, -3),
        ("Int.emod", 7, -2, 1),
        # F-rounding: floor; the remainder has the divisor's sign
        ("Int.fdiv", 7, -2, -4),
        ("Int.fmod", 7, -2, -1),
        ("Int.fdiv", -7, 2, -4),
        ("Int.fmod", -7, 2, 1),
        # T-rounding: toward zero; the remainder has the dividend's sign
        ("Int.tdiv", -7, 2, -3),
        ("Int.tmod", -7, 2, -1),
        ("Int.tdiv", 7, -2, -3),
        ("Int.tmod", 7, -2, 1),
        # `x / 0 = 0`, `x % 0 = x` for each
        ("Int.fdiv", 5, 0, 0),
        ("Int.tmod", 5, 0, 5),
        ("Int.fmod", -5, 0, -5),
    ],
)
def test_oracle_integer_divisions(f, a, b, expected):
    assert int_value(f, a, b) == expected


def test_oracle_integer_divisions_take_their_arguments_at_int():
    # `Int.emod (x - 3) 2` with x : ℕ elaborates `x - 3` against ℤ: `↑x - 3`, not a truncated natural
    _, typed = elaborate(
        {"x": N}, [], ("rel", "=", ("int", "Int.emod", [("bin", "-", var("x"), num(3)), num(2)]), num(0))
    )
    assert value(typed[2], {"x": 0}) == 1  # (-3) emod 2
    with pytest.raises(Ill):  # a real argument has no coercion down to ℤ
        elaborate({"x": R}, [], ("rel", "=", ("int", "Int.emod", [var("x"), num(2)]), num(0)))


def test_oracle_succ_pred_gcd_lcm():
    def nat(f, *args, binders=None, env=None):
        _, typed = elaborate(binders or {}, [], ("rel", "=", ("nat", f, list(args)), num(0)))
        return value(typed[2], env or {})

    assert nat("Nat.pred", num(0)) == 0  # Init/Prelude.lean: `Nat.pred 0 = 0`
    assert nat("Nat.succ", num(4)) == 5
    # `Int.gcd m n = m.natAbs.gcd n.natAbs`; `Int.lcm` likewise; both natural numbers
    assert nat("Int.gcd", ("neg", num(4)), num(6)) == 2
    assert nat("Int.lcm", ("neg", num(4)), num(6)) == 12
    assert nat("Int.gcd", var("x"), num(0), binders={"x": Z}, env={"x": -5}) == 5


def test_oracle_modeq_coprime_prime():
    def truth(binders, prop, env):
        _, typed = elaborate(binders, [], prop)
        return holds(typed, env)

    x_minus_1 = ("bin", "-", var("x"), num(1))
    # `[MOD n]` takes ℕ arguments: `x - 1` truncates at x = 0; `[ZMOD n]` casts the leaf, `↑x - 1 = -1`
    assert truth({"x": N}, ("modeq", "MOD", num(2), x_minus_1, num(0), "notation"), {"x": 0})
    assert not truth({"x": N}, ("modeq", "ZMOD", num(2), x_minus_1, num(0), "app"), {"x": 0})
    with pytest.raises(Ill):  # an integer has no coercion to ℕ
        elaborate({"x": Z}, [], ("modeq", "MOD", num(2), var("x"), num(0), "notation"))
    # `Int.ModEq n a b` is `a % n = b % n` (Int.emod): a negative modulus works as its absolute value; modulus 0: a = b
    assert truth({}, ("modeq", "ZMOD", ("neg", num(3)), num(1), num(4), "app"), {})
    assert not truth({"x": N}, ("modeq", "MOD", num(0), var("x"), num(3), "app"), {"x": 6})
    assert truth({"x": N}, ("coprime", var("x"), num(4)), {"x": 9})
    assert not truth({"x": N}, ("coprime", var("x"), num(0)), {"x": 3})  # gcd 3 0 = 3
    # Mathlib: `Prime (-3 : ℤ)` holds (Int.prime_iff_natAbs_prime); no element of a field is prime (every nonzero one
    # is a unit)
    assert truth({"x": Z}, ("pred", "Prime", var("x")), {"x": -3})
    assert not truth({"x": R}, ("pred", "Prime", var("x")), {"x": 3})


def test_oracle_printer_new_forms():
    assert show(("modeq", "MOD", num(3), var("x"), ("bin", "+", var("y"), num(1)), "notation")) == "x ≡ y + 1 [MOD 3]"
    assert show(("modeq", "ZMOD", num(3), var("x"), num(1), "app")) == "Int.ModEq 3 x 1"
    assert show(("not", ("coprime", var("x"), num(2)))) == "¬Nat.Coprime x 2"
    assert show(("int", "Int.tmod", [("neg", var("x")), num(2)])) == "Int.tmod (-x) 2"
    body = ("bin", "+", var("i"), num(1))
    assert show(("big", "∏", "i", ("Ico", num(1), var("n")), body, "app")) == (
        "Finset.prod (Finset.Ico 1 n) (fun i => i + 1)"
    )
    assert show(("big", "∑", "i", ("Ioo", num(1), var("n")), body, "∈")) == "∑ i ∈ Finset.Ioo 1 n, (i + 1)"


def test_oracle_big_operators_over_every_interval():
    def total(dom):
        _, typed = elaborate({"n": N}, [], ("rel", "=", ("big", "∑", "i", dom, var("i"), "app"), num(0)))
        return value(typed[2], {"n": 5})

    assert [total((fam, num(1), var("n"))) for fam in ("Icc", "Ico", "Ioc", "Ioo")] == [15, 10, 14, 9]


# ------------------------------------------------------------------------------------------ SymEq

XY = "(x y : ℤ)"

MERGE = [
    # Mathlib `Int.prime_iff_natAbs_prime`: `Prime (-x)` is `Prime x`, and is `Nat.Prime x.natAbs`
    (thm(XY, "Prime (-x)"), thm(XY, "Prime x")),
    (thm(XY, "Prime x"), thm(XY, "Nat.Prime x.natAbs")),
    (thm(XY, "Prime (x - y)"), thm(XY, "Prime (y - x)")),
    (thm(XY, "Prime (-7 : ℤ)"), thm(XY, "True")),
    # `Int.gcd m n = m.natAbs.gcd n.natAbs` (Init/Data/Int/Gcd.lean); Mathlib's `gcd` on ℤ (`Int.coe_gcd`), `lcm` too
    (thm(XY, "Int.gcd (-x) y = 1"), thm(XY, "Int.gcd x y = 1")),
    (thm(XY, "Int.lcm x (-y) = 6"), thm(XY, "Int.lcm x y = 6")),
    (thm(XY, "gcd (x - y) 4 = 2"), thm(XY, "gcd (y - x) 4 = 2")),
    (thm(XY, "Int.gcd x y = Int.gcd (-x) (-y)"), thm(XY, "True")),
]
APART = [
    # a prime integer may be negative: `(h : Prime x) : 0 < x` fails at x = -2
    (thm("(x : ℤ) (h : Prime x)", "0 < x"), thm("(x : ℤ) (h : Prime x)", "True")),
    (thm(XY, "Prime x"), thm(XY, "Prime x ∧ 0 < x")),
    (thm(XY, "Prime (x + 1)"), thm(XY, "Prime x")),
    (thm(XY, "Int.gcd (-x) y = 1"), thm(XY, "Int.gcd (x + 1) y = 1")),
    (thm(XY, "Int.tmod x 3 = 2"), thm(XY, "x % 3 = 2")),  # differ at x = -1
]

test_merge, test_apart = verdict_tests(MERGE, APART)


@pytest.mark.parametrize(
    "a,b,same",
    [
        # Isabelle `gcd_neg1_int`, `lcm_neg2_int`: of the absolute values, as in Lean
        (isa("x y :: int", "gcd (- x) y = 1"), isa("x y :: int", "gcd x y = 1"), True),
        (isa("x y :: int", "lcm x (- y) = 6"), isa("x y :: int", "lcm x y = 6"), True),
        # but Isabelle's `prime` asks `normalize p = p` (Factorial_Ring.thy `prime_def`): no negative int is prime
        (isa("x :: int", "prime (- x)"), isa("x :: int", "prime x"), False),
        (isa("x :: int", "x > 1", ["prime x"]), isa("x :: int", "True", ["prime x"]), True),
        (isa("x :: int", "x > 2", ["prime x"]), isa("x :: int", "True", ["prime x"]), False),
    ],
)
def test_isabelle_gcd_and_prime_of_integers(a, b, same):
    symeq = SymEq("isabelle", timeout_ms=1000)
    for x, y in ((a, b), (b, a)):
        assert symeq.compare(x, y).equivalent == same, symeq.compare(x, y).describe()


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=1000)


@pytest.mark.parametrize(
    "binders,concl",
    [
        ("(x : ℕ)", "x ≡ x + 6 [MOD 3]"),
        ("(x : ℕ)", "Nat.ModEq 2 (x * (x + 1)) 0"),
        ("(x : ℤ)", "2 * x + 3 ≡ 1 [ZMOD 2]"),
        ("(x : ℕ) (h : Nat.Coprime x 0)", "x = 1"),
        ("(x : ℤ)", "Int.fmod x (-2) ≤ 0"),
        ("(x : ℤ)", "Int.tdiv x 2 * 2 + Int.tmod x 2 = x"),
        ("(x : ℤ)", "Int.ediv x 3 * 3 + Int.emod x 3 = x"),
        ("(x : ℕ) (h : 0 < x)", "Nat.succ (Nat.pred x) = x"),
        ("(n : ℕ)", "Finset.sum (Finset.Ico 1 (n + 1)) (fun i => i) = ∑ i ∈ Finset.Icc 1 n, i"),
        ("(n : ℕ)", "∑ i ∈ Finset.Ioo 0 (n + 1), (i + 1) = ∑ i ∈ Finset.Ioc 0 n, (i + 1)"),
    ],
)
def test_symeq_reads_the_new_vocabulary(symeq, binders, concl):
    """Each a theorem of Lean and Mathlib: it merges with `True` under its own binders."""
    res = symeq.compare(thm(binders, concl), thm(binders, "True"))
    assert res.equivalent, res.describe()


@pytest.mark.integration  # 3-7 s: a fuzz sample or two dev problems through Z3
def test_the_fuzzer_writes_the_new_vocabulary_and_symeq_makes_no_suspect_merge(symeq):
    pairs, _ = make_pairs(seed=32, count=50)
    texts = " ".join(a + b for a, b, _, _ in pairs)
    for form in ("MOD ", "Nat.Coprime", "Prime", "Finset.Ico", "Finset.sum (", "Int."):
        assert form in texts, form
    merged, suspects = fuzz_sample(symeq, pairs)
    assert merged >= 12
    assert suspects == []


def test_oracle_keeps_ascriptions_of_q_apart_from_r():
    # the edits rewrite `Int.ediv a b` as `(a / b : ℤ)`: the same value, and `(Int.emod a b : ℚ)` casts after
    _, typed = elaborate({"x": Z}, [], ("rel", "=", ("asc", ("int", "Int.emod", [var("x"), num(3)]), Q), num(0)))
    assert value(typed[2], {"x": -1}) == 2
