"""Mathlib functions on lists of digits: `Nat.digits b n` and the sum of a list.

`Nat.digits b n` (b ≥ 2) is the list of n's base-b digits, least significant first; with literal
arguments `(Nat.digits 10 1998).sum` is the number 27. Otherwise the list is a value of the uninterpreted
sort `List ℕ` and its sum a natural number (an uninterpreted function of the list).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

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


def elab_digits(el: Elaborator, rule: str, args: list[Term], expected: Ty | None, orig: Term) -> Term:
    if rule == "digits":
        if len(args) != 2:
            return el.fallback(orig, expected)
        b, n = el.elab(args[0], NAT), el.elab(args[1], NAT)
        return App("call", (Var("uf:digits", Fun((NAT, NAT), LIST_NAT)), b, n), LIST_NAT)
    # listsum: the sum of a list of naturals
    if len(args) != 1:
        return el.fallback(orig, expected)
    lst = args[0]
    if _is_digits(lst) and (total := digit_sum(lst.args[1], lst.args[2])) is not None:
        return el.elab(Num(Fraction(total)), expected if expected is not None else NAT)
    x = el.elab(lst, None)
    if el.resolve(x.ty if hasattr(x, "ty") else None) != LIST_NAT:
        return el.fallback(orig, expected)
    return App("call", (Var("uf:listsum", Fun((LIST_NAT,), NAT)), x), NAT)
