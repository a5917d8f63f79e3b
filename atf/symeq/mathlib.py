"""Mathlib functions on natural numbers that SymEq computes at literal arguments, and the sum of a list.

`Nat.digits b n` (b ≥ 2) is the list of n's base-b digits, least significant first; with literal
arguments `(Nat.digits 10 1998).sum` is the number 27. Otherwise the list is a value of the uninterpreted
sort `List ℕ` and its sum a natural number (an uninterpreted function of the list). The sum (product) of a
literal list is its items added (multiplied) up.

At literal arguments (up to LIMIT, factored) `Nat.totient`, `Nat.log`, `Nat.clog` are their
values, the divisors of a number are listed (`normalize` reads `Nat.divisors n`, Mathlib's `{d ∈ Ico 1 (n + 1) |
d ∣ n}`, over them), and `Real.log` of a positive rational is the sum of its primes' logarithms (`smt`).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import TYPE_CHECKING

from atf.symeq import ir
from atf.symeq.ir import NAT, App, Fun, Num, Sort, Term, Ty, Var

if TYPE_CHECKING:
    from atf.symeq.elaborate import Elaborator

LIST_NAT = Sort("List ℕ")


def digits(base: int, n: int) -> list[int]:
    out = []
    while n > 0:
        out.append(n % base)
        n //= base
    return out


LIMIT = 10**15  # the largest literal factored (Pollard's rho: at most about 3 ms)
_SMALL = 1000  # trial division up to here; a larger factor is found by Pollard's rho


def _is_prime(n: int) -> bool:
    """Miller-Rabin with the first twelve primes as bases: exact for every n below 3.3 * 10^24 (Sorenson and
    Webster, 2015), so for every n up to LIMIT."""
    if n < 2:
        return False
    bases = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    for p in bases:
        if n % p == 0:
            return n == p
    d, r = n - 1, 0
    while d % 2 == 0:
        d //= 2
        r += 1
    for a in bases:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(r - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _rho(n: int) -> int:
    """A nontrivial factor of the odd composite n (Pollard's rho with Floyd's cycle finding, over c = 1, 2, ...)."""
    for c in range(1, n):
        x = y = 2
        d = 1
        while d == 1:
            x = (x * x + c) % n
            y = (y * y + c) % n
            y = (y * y + c) % n
            d = math.gcd(abs(x - y), n)
        if d != n:
            return d
    raise ValueError(f"no factor found of {n}")  # (unreachable for a composite n)


@functools.lru_cache(maxsize=4096)
def factorize(n: int) -> tuple[tuple[int, int], ...] | None:
    """n's prime factors with their exponents, smallest first (n = 1: none); None for n < 1 or n > LIMIT. Trial
    division by the numbers below _SMALL, then Pollard's rho: about n^(1/4) steps for what is left (a product of two
    primes near 3 * 10^7 takes the most, about 3 ms)."""
    if n < 1 or n > LIMIT:
        return None
    counts: dict[int, int] = {}
    d = 2
    while d < _SMALL and d * d <= n:
        while n % d == 0:
            n //= d
            counts[d] = counts.get(d, 0) + 1
        d += 1 if d == 2 else 2
    pending = [n] if n > 1 else []
    while pending:
        m = pending.pop()
        if m < _SMALL * _SMALL or _is_prime(m):  # (no factor below _SMALL is left: below its square m is prime)
            counts[m] = counts.get(m, 0) + 1
        else:
            f = _rho(m)
            pending += [f, m // f]
    return tuple(sorted(counts.items()))


def divisors_of(n: int) -> list[int] | None:
    """The positive divisors of n ≥ 1 in increasing order (None where n cannot be factored)."""
    factors = factorize(n)
    if factors is None:
        return None
    out = [1]
    for p, e in factors:
        out = [d * p**k for d in out for k in range(e + 1)]
    return sorted(out)


def totient(n: int) -> int | None:
    """Mathlib `Nat.totient n = #{a ∈ range n | n.Coprime a}` (0 at 0, 1 at 1); Isabelle's `totient` agrees
    (HOL-Number_Theory Totient.thy: `card (totatives n)`, totatives 0 = {})."""
    if n == 0:
        return 0
    factors = factorize(n)
    if factors is None:
        return None
    out = n
    for p, _ in factors:
        out = out // p * (p - 1)
    return out


def nat_log(b: int, n: int) -> int:
    """Mathlib `Nat.log b n`: the largest k with b ^ k ≤ n where 1 < b and 0 < n, else 0 (`Nat.log` unfolds to
    `if h : b ≤ n ∧ 1 < b then log b (n / b) + 1 else 0`)."""
    k = 0
    while b > 1 and n >= b:
        n //= b
        k += 1
    return k


def nat_clog(b: int, n: int) -> int:
    """Mathlib `Nat.clog b n`: the least k with n ≤ b ^ k where 1 < b, else 0 (`if h : 1 < b ∧ 1 < n then clog b
    ((n + b - 1) / b) + 1 else 0`)."""
    k = 0
    while b > 1 and n > 1:
        n = (n + b - 1) // b
        k += 1
    return k


def nat_literal(t: Term) -> int | None:
    if isinstance(t, Num) and t.value.denominator == 1 and t.value >= 0:
        return int(t.value)
    return None


def digit_sum(base: Term, n: Term) -> int | None:
    """The sum of `Nat.digits base n` at literals base ≥ 2 and n < 10^100; None otherwise."""
    b, m = nat_literal(base), nat_literal(n)
    if b is not None and m is not None and b >= 2 and m < 10**100:
        return sum(digits(b, m))
    return None


def _is_digits(t: Term) -> bool:
    return (
        isinstance(t, App)
        and t.op == "call"
        and isinstance(t.args[0], Var)
        and t.args[0].name in ("Nat.digits", "digits")
        and len(t.args) == 3
    )


def literal_list(t: Term) -> list[Term] | None:
    """The items of a list literal `[a, b, c]` as the Lean front-end writes it (a call of `op:list`)."""
    if isinstance(t, App) and t.op == "call" and isinstance(t.args[0], Var) and t.args[0].name == "op:list":
        return list(t.args[1:])
    return None


def digits_equation(lhs: Term, rhs: Term) -> Term | None:
    """`Nat.digits b n = [d₀, …, dₖ]` (either side) at a literal base b ≥ 2, as the arithmetic it states: n = d₀ +
    d₁ b + … + dₖ bᵏ with every dᵢ < b and dₖ ≠ 0 (Mathlib `Nat.digits_ofDigits` and `Nat.ofDigits_digits`: the
    digits are the one list of numbers below b, without a trailing zero, whose value is n); `= []` is n = 0
    (`Nat.digits_eq_nil_iff_eq_zero`). None for any other equation."""
    for call, items in ((lhs, literal_list(rhs)), (rhs, literal_list(lhs))):
        if items is None or not _is_digits(call):
            continue
        b = nat_literal(call.args[1])
        if b is None or b < 2:
            return None
        n = App("ascribe", (call.args[2],), target=NAT)
        if not items:
            return App("eq", (n, Num(Fraction(0))))
        ds = [App("ascribe", (d,), target=NAT) for d in items]
        value = ir.left_fold("add", [ds[0], *(App("mul", (d, Num(Fraction(b**i)))) for i, d in enumerate(ds[1:], 1))])
        parts = [App("eq", (n, value)), *(App("lt", (d, Num(Fraction(b)))) for d in ds)]
        parts.append(App("not", (App("eq", (ds[-1], Num(Fraction(0)))),)))
        return ir.left_fold("and", parts)
    return None


def elab_digits(el: Elaborator, rule: str, args: list[Term], expected: Ty | None, orig: Term) -> Term:
    if rule == "digits":
        if len(args) != 2:
            return el.fallback(orig, expected)
        b, n = el.elab(args[0], NAT), el.elab(args[1], NAT)
        return App("call", (Var("uf:digits", Fun((NAT, NAT), LIST_NAT)), b, n), LIST_NAT)
    if len(args) != 1:
        return el.fallback(orig, expected)
    lst = args[0]
    items = literal_list(lst)
    if items:  # Lean's `List.sum = foldr (· + ·) 0`, `List.prod = foldr (· * ·) 1`: of a literal list, its items'
        return el.elab(ir.left_fold("add" if rule == "listsum" else "mul", items), expected)
    if rule == "listprod":
        return el.fallback(orig, expected)
    # listsum: the sum of a list of naturals
    if _is_digits(lst) and (total := digit_sum(lst.args[1], lst.args[2])) is not None:
        return el.elab(Num(Fraction(total)), expected if expected is not None else NAT)
    x = el.elab(lst, None)
    if el.resolve(x.ty if hasattr(x, "ty") else None) != LIST_NAT:
        return el.fallback(orig, expected)
    return App("call", (Var("uf:listsum", Fun((LIST_NAT,), NAT)), x), NAT)
