"""True facts about the functions the Z3 translation keeps uninterpreted, added where one is applied.

An uninterpreted `exp` may be negative in a counter-model; these facts rule out such models without
defining the function. Each holds in Lean/Mathlib and in Isabelle/HOL for every argument (facts about `ln`
are given for positive arguments only, where the two systems agree).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import z3


def _abs(x: Any) -> Any:
    return z3.If(x >= 0, x, -x)


def _exp(x: Any, out: Any) -> list[Any]:
    return [out > 0, z3.Implies(x == 0, out == 1), out >= x + 1]


def _ln(x: Any, out: Any) -> list[Any]:
    return [
        z3.Implies(x == 1, out == 0),
        z3.Implies(x > 1, out > 0),
        z3.Implies(z3.And(x > 0, x < 1), out < 0),
        z3.Implies(x > 0, out <= x - 1),
    ]


def _bounded(x: Any, out: Any) -> list[Any]:
    return [out >= -1, out <= 1]


def _gcd(a: Any, b: Any, out: Any) -> list[Any]:
    return [
        out >= 0,
        (out == 0) == z3.And(a == 0, b == 0),
        z3.Implies(a != 0, out <= _abs(a)),
        z3.Implies(b != 0, out <= _abs(b)),
    ]


def _lcm(a: Any, b: Any, out: Any) -> list[Any]:
    return [
        out >= 0,
        (out == 0) == z3.Or(a == 0, b == 0),
        z3.Implies(z3.And(a != 0, b != 0), z3.And(out >= _abs(a), out >= _abs(b))),
    ]


def _fact(n: Any, out: Any) -> list[Any]:
    return [out >= 1, z3.Implies(n >= 1, out >= n)]


def _choose(n: Any, k: Any, out: Any) -> list[Any]:
    return [
        out >= 0,
        z3.Implies(k > n, out == 0),
        z3.Implies(k == 0, out == 1),
        z3.Implies(k == n, out == 1),
        z3.Implies(z3.And(k >= 0, k <= n), out >= 1),
    ]


def _pow(x: Any, n: Any, out: Any) -> list[Any]:
    """`x ^ n` with n a natural number the translation could not expand (a variable or a large literal), in a
    semiring of numbers (Isabelle's `power` on nat, int, rat, real; Lean's `Monoid.npow` on ℕ, ℤ, ℚ, ℝ). Each fact
    is a lemma of Isabelle/HOL's Power.thy: `power_0` (x ^ 0 = 1), `power_one_right` (x ^ 1 = x), `power_one`
    (1 ^ n = 1), `zero_power` (0 < n ⟹ 0 ^ n = 0), `zero_less_power` (0 < x ⟹ 0 < x ^ n), `zero_le_power`
    (0 ≤ x ⟹ 0 ≤ x ^ n), `zero_le_even_power` (even n ⟹ 0 ≤ x ^ n), `power_le_one` (0 ≤ x ≤ 1 ⟹ x ^ n ≤ 1) and
    `one_le_power` (1 ≤ x ⟹ 1 ≤ x ^ n); and of Mathlib: `pow_zero`, `pow_one`, `one_pow`, `zero_pow`, `pow_pos`,
    `pow_nonneg`, `Even.pow_nonneg`, `pow_le_one₀`, `one_le_pow₀`."""
    return [
        z3.Implies(n == 0, out == 1),
        z3.Implies(n == 1, out == x),
        z3.Implies(x == 1, out == 1),
        z3.Implies(z3.And(x == 0, n >= 1), out == 0),
        z3.Implies(x > 0, out > 0),
        z3.Implies(x >= 0, out >= 0),
        z3.Implies(n % 2 == 0, out >= 0),
        z3.Implies(z3.And(x >= 0, x <= 1), out <= 1),
        z3.Implies(x >= 1, out >= 1),
    ]


def _prime(x: Any, out: Any) -> list[Any]:
    # Lean's `Prime (-3 : ℤ)` holds, so only |x| is known to be at least 2 (ℕ variables are ≥ 0 anyway)
    return [z3.Implies(out, _abs(x) >= 2), z3.Implies(z3.And(out, x % 2 == 0), _abs(x) == 2)]


# sin and cos at k·π/6 for k in -6..12 where the value is rational: Mathlib `Real.sin_zero`, `Real.sin_pi_div_six`,
# `Real.sin_pi_div_two`, `Real.sin_pi`, `Real.cos_zero`, `Real.cos_pi_div_three`, `Real.cos_pi_div_two`, `Real.cos_pi`;
# Isabelle Transcendental.thy `sin_zero`, `sin_30`, `sin_pi_half`, `sin_pi`, `cos_zero`, `cos_60`, `cos_pi_half`,
# `cos_pi`; the other points by `sin_neg`/`cos_neg` (Mathlib `Real.sin_neg`, `Real.cos_neg`) and `sin_pi_sub`,
# `cos_pi_sub`, `sin_add_pi`, `cos_add_pi` (the same names in Mathlib's `Real` namespace). Where the value is
# irrational (√3/2 at π/3 for sin) nothing is said.
_SIN_SIXTHS = {k: Fraction(v) for k, v in {0: 0, 1: "1/2", 3: 1, 5: "1/2", 6: 0, 7: "-1/2", 9: -1, 11: "-1/2"}.items()}
AT_PI_MULTIPLES = frozenset({"uf:sin", "uf:cos"})


def _sin_sixths(k: int) -> Fraction | None:
    """sin (k·π/6), where rational."""
    return _SIN_SIXTHS.get(k % 12)


def at_pi_multiples(name: str, x: Any, pi: Any, out: Any) -> list[Any]:
    """`x = k·π/6 ⟹ f x = v` for sin and cos at the points of -π..2π where v is rational."""
    out_facts = []
    for k in range(-6, 13):
        v = _sin_sixths(k) if name == "uf:sin" else _sin_sixths(k + 3)  # cos t = sin (t + π/2)
        if v is not None:
            at = x == pi * z3.RealVal(f"{k}/6")
            out_facts.append(z3.Implies(at, out == z3.RealVal(f"{v.numerator}/{v.denominator}")))
    return out_facts


FACTS: dict[str, Callable[..., list[Any]]] = {
    "uf:exp": _exp,
    "uf:ln": _ln,
    "uf:sin": _bounded,
    "uf:cos": _bounded,
    "uf:gcd": _gcd,
    "uf:lcm": _lcm,
    "uf:fact": _fact,
    "uf:choose": _choose,
    "uf:prime": _prime,
    "uf:pow": _pow,
}


def about(name: str, args: list[Any], out: Any) -> list[Any]:
    """The facts known about `name(*args) = out` (none for an unknown name or unexpected arity/sorts)."""
    f = FACTS.get(name)
    if f is None:
        return []
    try:
        return f(*args, out)
    except (TypeError, z3.Z3Exception):
        return []


def bounded_by_one(name: str) -> bool:
    """Whether every value of the function `name` lies in [-1, 1] (sin, cos)."""
    return FACTS.get(name) is _bounded
