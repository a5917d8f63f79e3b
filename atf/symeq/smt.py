"""Typed IR to Z3, following each system's semantics exactly where it is decidable.

    ℕ              Z3 Int with `x ≥ 0` for every variable; `a - b` is `max(a - b, 0)`
    `/` on ℕ       floor division, `a / 0 = 0`;  `%` on ℕ: `a % 0 = a`
    `/`, `%` on ℤ  Lean: Euclidean (`Int.ediv`/`Int.emod`, what Z3's div/mod are for b ≠ 0), `a / 0 = 0`,
                   `a % 0 = a`; Isabelle `div`/`mod`: floor division, remainder with the divisor's sign
    Int.fdiv/tdiv  floor / truncating division (and their remainders), all with `a / 0 = 0`
    `/` on ℝ, ℚ    `a / 0 = 0` (both systems)
    √x             Lean: `√x = 0` for x < 0; Isabelle: `sqrt x = -sqrt(-x)`; otherwise the non-negative root
    x powr y       Isabelle: 0 when x = 0, `root q x ^ p` for x > 0 and a literal p/q, `x ^ n` (`1 / x ^ -n`) for
                   x > 0 and an integer expression n, positive otherwise; `K powr y` for x < 0 with K = exp (ln x)
                   one unknown positive constant
    root n x       Isabelle, literal n: the sign-preserving n-th root (`root 2 = sqrt`)
    x ^ (y : ℝ)    Lean rpow: a literal integer exponent is the monoid power, `x ^ (1/2) = √x`
    casts          ℕ → ℤ is the identity, ℕ/ℤ → ℝ is `ToReal`, `Int.toNat`/Isabelle `nat` is `max x 0`
    ⌊x⌋, ⌈x⌉, round  `ToInt` (floor), `-⌊-x⌋`, `⌊x + 1/2⌋`
    ZMod m         Lean, m a literal or a variable: integer representatives (see `Translator.zmod`)

Everything else (ln, exp, trigonometry, gcd of non-literals, Opaque terms, unknown constants) is an
uninterpreted function: a proof with them holds for every interpretation, so "equivalent" stays sound,
but a counter-model that relies on one may not be a real counterexample (`Translator.exact` says when
none was used).

Facts about a term that Z3 cannot know (the root's square, a natural-valued function's sign) are
*side conditions*: under a `∀` they become hypotheses of the body, under an `∃` conjuncts, at the top
level axioms.
"""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import z3

from atf.symeq import backstop, facts, ir, z3raw
from atf.symeq.config import SymEqConfig
from atf.symeq.ir import BOOL, COMPLEX, INT, NAT, RAT, REAL, App, Bind, Fun, Num, Opaque, Sort, Term, Tup, Ty, Var
from atf.symeq.mathlib import factorize

MAX_EXPAND_POW = 16
MAX_FACTORED = 64  # distinct literals one translation reads the logarithm of as its primes' (`log_literal`)
_ZMOD = re.compile(r"ZMod (\d+|[^\W\d][\w.'!?]*)")
# what a value of `ZMod m` does as in ℤ, on representatives: the commutative ring operations
_ZMOD_RING = ("add", "sub", "mul", "neg")


def _universe(ty: Ty | None) -> bool:
    """`Type*`, `Type u`, `Sort*`: a variable of this type is a type."""
    return isinstance(ty, Sort) and re.match(r"(Type|Sort)\b", ty.name) is not None


class Untranslatable(Exception):
    """A construct with no first-order meaning here; the caller falls back to an uninterpreted term."""


def _h(s: str) -> str:
    return hashlib.sha1(s.encode("utf-8")).hexdigest()[:12]


@dataclass
class Translator:
    """Translates terms of one statement pair into one shared Z3 vocabulary."""

    system: str
    free: dict[str, Any] = field(default_factory=dict)  # free variable -> z3 expr / tuple / FuncDecl
    free_types: dict[str, Ty] = field(default_factory=dict)
    funcs: dict[str, z3.FuncDeclRef] = field(default_factory=dict)
    sorts: dict[str, z3.SortRef] = field(default_factory=dict)
    axioms: list[z3.BoolRef] = field(default_factory=list)
    domain: list[z3.BoolRef] = field(default_factory=list)
    exact: bool = True
    comm_sorts: frozenset[str] = frozenset()  # type variables the statement declares commutative rings
    _sides: list[list[z3.BoolRef]] = field(default_factory=list)
    _counter: int = 0
    factored: set[Fraction] = field(default_factory=set)  # literals `log_literal` read (at most MAX_FACTORED)

    # ------------------------------------------------------------------ sorts and symbols
    def sort(self, ty: Ty | None) -> z3.SortRef:
        if ty in (NAT, INT) or self.zmod(ty) is not None:
            return z3.IntSort()
        if ty in (REAL, RAT):
            return z3.RealSort()
        if ty == BOOL:
            return z3.BoolSort()
        if isinstance(ty, Tup) or isinstance(ty, Fun):
            raise Untranslatable(f"no single sort for {ty}")
        name = "Complex" if ty == COMPLEX else (ty.name if isinstance(ty, Sort) else str(ty))  # sets too
        if name not in self.sorts:
            self.sorts[name] = z3.DeclareSort(name)
        return self.sorts[name]

    def ac_ring(self, ty: Ty | None) -> bool:
        """`_ac_ring`, or a type variable the statement declares a commutative ring (`[Field F]`, `[CommRing R]`:
        `commutative_sorts`), or polynomials over one (Mathlib `Polynomial.commRing`, `MvPolynomial.commRing`:
        `R[X]` is a commutative ring when R is)."""
        if _ac_ring(ty):
            return True
        if not isinstance(ty, Sort) or not self.comm_sorts:
            return False
        m = _POLY_OVER.fullmatch(ty.name)
        return ty.name in self.comm_sorts or (m is not None and m.group(1) in self.comm_sorts)

    def zmod(self, ty: Ty | None) -> str | None:
        """m for Lean's `ZMod m`, m a literal or a variable (Mathlib/Data/ZMod/Defs.lean: `ZMod 0 = ℤ`,
        `ZMod (n + 1) = Fin (n + 1)`, a commutative ring either way). Its values are modelled by their integer
        representatives: numerals, `+`, `-`, `*`, `x ^ k` and the casts from ℕ and ℤ are the integer ones (ring
        homomorphisms from ℤ), and `a = b` is `a ≡ b [ZMOD m]` (`ZMod.intCast_eq_intCast_iff`; for m = 0 plain
        equality). Anything else applied to a value (`ZMod.val`, `⁻¹`, `<`, an unknown function) is an
        uninterpreted function of a representative: it may tell apart representatives of one class, which the real
        one cannot, so a proof over every interpretation holds for the real one and such a model is not exact."""
        if self.system != "lean" or not isinstance(ty, Sort):
            return None
        m = _ZMOD.fullmatch(ty.name)
        return m.group(1) if m else None

    def modulus(self, m: str, env: dict[str, Any]) -> Any:
        if m.isdigit():
            return z3.IntVal(int(m))
        val, _ = self.lookup(m, env)
        if val is None:
            val = self.free_var(m, NAT)  # an auto-bound implicit: `ZMod n` with n bound nowhere
        if isinstance(val, tuple) or not z3.is_int(val):
            raise Untranslatable(f"ZMod of a non-number {m}")
        return val

    def has_zmod(self, ty: Ty | None) -> bool:
        """Whether a value of ty holds a `ZMod m` value: Z3's `==` on it is not its equality."""
        return isinstance(ty, Tup) and any(map(self.has_zmod, ty.items)) or self.zmod(ty) is not None

    def flat_sorts(self, ty: Ty) -> list[z3.SortRef]:
        if isinstance(ty, Tup):
            return [s for item in ty.items for s in self.flat_sorts(item)]
        return [self.sort(ty)]

    def fresh(self, base: str) -> str:
        self._counter += 1
        return f"{base}!{self._counter}"

    def value_const(self, name: str, ty: Ty) -> Any:
        if isinstance(ty, Tup):
            return tuple(self.value_const(f"{name}.{k}", item) for k, item in enumerate(ty.items))
        c = z3.Const(name, self.sort(ty))
        return c

    def function(self, name: str, ty: Fun) -> Any:
        key = f"{name}:{ty}"
        if key not in self.funcs:
            args = [s for a in ty.args for s in self.flat_sorts(a)]
            if isinstance(ty.ret, Tup):
                self.funcs[key] = tuple(
                    z3.Function(f"{key}.{k}", *args, s) for k, s in enumerate(self.flat_sorts(ty.ret))
                )
            else:
                self.funcs[key] = z3.Function(key, *args, self.sort(ty.ret))
        return self.funcs[key]

    def free_var(self, name: str, ty: Ty) -> Any:
        if name in self.free and self.free_types[name] != ty:
            name = f"{name}@{ty}"  # the same name at another type (only in ill-typed input)
        if name not in self.free:
            self.free_types[name] = ty
            if isinstance(ty, Fun):
                self.free[name] = self.function(name, ty)
            else:
                c = self.value_const(name, ty)
                self.free[name] = c
                for part, pty in _leaves(c, ty):
                    if pty == NAT:
                        self.domain.append(part >= 0)
        return self.free[name]

    def side(self, cond: z3.BoolRef) -> None:
        if self._sides:
            # Under a binder the fact is a hypothesis or a conjunct of that binder's body, not an axiom: a
            # model may break it at the bound points (√ taken as 1 everywhere makes `¬ ∃ m, √(n³+…) = m` false
            # for every n), so a counter-model is no longer known to interpret the symbol as it is meant.
            self.exact = False
            self._sides[-1].append(cond)
        else:
            self.axioms.append(cond)

    def uf(self, name: str, arg_tys: tuple[Ty, ...], ret: Ty, args: list[Any], exact: bool = False) -> Any:
        if not exact:
            self.exact = False
        f = self.function(name, Fun(arg_tys, ret))
        flat = [x for a in args for x in _flat(a)]  # (a nested product value is a nested tuple)
        if isinstance(f, tuple):
            return tuple(g(*flat) for g in f)
        out = f(*flat) if flat else f()
        if ret == NAT:
            self.side(out >= 0)
        for fact in facts.about(name, flat, out):
            self.side(fact)
        if name in facts.AT_PI_MULTIPLES and len(flat) == 1:
            pi = self.var(Var("uf:pi", REAL), {})
            for fact in facts.at_pi_multiples(name, flat[0], pi, out):
                self.side(fact)
        return out

    # ------------------------------------------------------------------ terms
    def term(self, t: Term, env: dict[str, Any]) -> Any:
        try:
            return self._term(t, env)
        except (Untranslatable, z3.Z3Exception, TypeError, AttributeError):
            # ill-sorted after a failed inference, or no first-order meaning: keep it uninterpreted
            return self.fallback(t, env)

    def prop(self, t: Term, env: dict[str, Any] | None = None) -> z3.BoolRef:
        """t as a proposition; a premise that is not boolean (ill-typed input) becomes an opaque one."""
        env = env or {}
        out = self.term(t, env)
        if isinstance(out, z3.BoolRef):
            return out
        self.exact = False
        return self.uf("prop:" + _h(repr(ir.alpha_key(t)) + repr(ir.type_signature([t]))), (), BOOL, [])

    def cached_prop(self, cache, key: tuple, make_term, comm_sorts: frozenset[str] = frozenset()) -> z3.BoolRef:
        """`prop(make_term())`, translated once per `key` in `cache` (an `equivalence.PairCache`) and merged
        into this translator: the Z3 term with the axioms, variable domains and symbols it brought. comm_sorts:
        those of the statement the term is from (`commutative_sorts` of its premises)."""

        def translate():
            sub = Translator(self.system, comm_sorts=comm_sorts)
            expr = sub.prop(make_term())
            return expr, sub.axioms, sub.domain, sub.exact, sub.free, sub.free_types

        expr, axioms, domain, exact, free, free_types = cache.get(("z3", *key), translate)
        seen = {x.get_id() for x in self.axioms}
        self.axioms.extend(x for x in axioms if x.get_id() not in seen)
        seen = {x.get_id() for x in self.domain}
        self.domain.extend(x for x in domain if x.get_id() not in seen)
        self.exact = self.exact and exact
        for name, val in free.items():
            if name not in self.free:
                self.free[name], self.free_types[name] = val, free_types[name]
        return expr

    def fallback(self, t: Term, env: dict[str, Any]) -> Any:
        """An uninterpreted function of t's first-order free variables, named by t's shape."""
        self.exact = False
        ty = ir.type_of(t) or REAL
        if isinstance(ty, Fun):
            raise Untranslatable("a function-valued term in a value position")
        if _bound_function(t, env):
            # its value depends on a bound function, which cannot be an argument of the uninterpreted function
            raise Untranslatable("a term of a bound function")
        if isinstance(t, Bind) and (keyed := self.binder_shape(t, env)) is not None:
            key, arg_tys, args = keyed
            return self.uf(key, arg_tys, ty, args)
        names = sorted(ir.free_vars(t) | _type_dependencies(t, env))
        args, arg_tys = [], []
        for n in names:
            val, vty = self.lookup(n, env)
            if val is None or isinstance(vty, Fun):
                continue
            args.append(val)
            arg_tys.append(vty)
        key = "fb:" + _h(repr(ir.alpha_key(t)) + repr(ir.type_signature([t])) + str(ty))
        return self.uf(key, tuple(arg_tys), ty, args)

    def binder_shape(self, t: Bind, env: dict[str, Any]) -> tuple[str, tuple[Ty, ...], list[Any]] | None:
        """The key, argument types and arguments of an uninterpreted function for a binder Z3 does not model
        (`{x | P x}`, `LEAST x. P x`, a sum over a set), named by its domain and body as Z3 simplifies them, with
        its bound variables and the enclosing binders' variables as canonical constants (the latter are its
        arguments), or None (the fallback then names it by its shape). A binder's value depends on its body only
        as a function of the bound variables (Lean's `funext`/`propext`, Isabelle's `ext`: `setOf p`, `Finset.sum
        s f`, `Least p` take the function), so `{x | x ^ 2 = 4}` and `{x | x * x = 4}` are one set; the shape of
        the text knew only syntactic equality."""
        occurring = ir.free_vars(t)
        outer = list(
            dict.fromkeys(
                [x.name for x in ir.walk(t) if isinstance(x, Var) and x.name in env and x.name in occurring]
                # an enclosing binder's variable a type inside depends on (`∀ n ≥ 1, ∀ A : Matrix (Fin n) (Fin n) ℝ,
                # …`, `fun n ↦ {σ : Fin n → Fin n | …}`): the value varies with it although no term names it
                + sorted(_type_dependencies(t, env))
            )
        )  # first-occurrence order: alike for alpha-variants
        if any(isinstance(env[n][1], Fun) or env[n][1] is None for n in outer):
            return None
        canon = {n: (self.value_const(f"fb!e{k}", env[n][1]), env[n][1]) for k, n in enumerate(outer)}
        # the binders inside are numbered from 0 (`fresh`), so that their names in the key do not depend on what
        # was translated before; no Z3 term of the body leaves this function but the key
        counter, self._counter = self._counter, 0
        self._sides.append([])
        try:
            dom = self.term(t.dom, {**env, **canon}) if t.dom is not None else None
            for k, (n, vty) in enumerate(t.vars):
                if isinstance(vty, Fun):
                    # a bound function (`∃ i : Fin 6 → ℕ, …`): a canonical function symbol, applied where the body
                    # applies it; the key is then the body for every function, so equal keys are equal propositions
                    f = self.function(f"fb!b{k}", vty)
                    if isinstance(f, tuple):
                        return None
                    canon[n] = (f, vty)
                    continue
                canon[n] = (self.value_const(f"fb!b{k}", vty or REAL), vty or REAL)
            body = self.term(t.body, {**env, **canon})
        except Untranslatable:
            return None  # a term of a bound function the body cannot name (`⋃ n, f n` with f bound): by its shape
        finally:
            self._sides.pop()
            self._counter = counter
        parts = [t.kind, ",".join(str(vty) for _, vty in t.vars), str(t.ty)]
        for e in (dom, body):
            if e is None:
                parts.append("-")
                continue
            if isinstance(e, tuple) or not isinstance(e, z3.ExprRef):
                return None
            shape = z3.simplify(e, som=True, arith_lhs=True, expand_power=True, sort_sums=True)
            if _fresh_constant(shape):
                return None  # a constant of an enclosing translation, named by a counter: not comparable
            parts.append(_canonical(shape))
        key = "bind:" + t.kind + ":" + hashlib.sha1("|".join(parts).encode("utf-8")).hexdigest()[:16]
        arg_tys = tuple(env[n][1] for n in outer)
        return key, arg_tys, [env[n][0] for n in outer]

    def congruent(self, t: App, env: dict[str, Any]) -> Any:
        """An operation on sets SymEq does not model (`card s`, `x ∈ s`, an interval or `{a, b}` as a value): an
        uninterpreted function of its translated arguments, so equal arguments give equal values (congruence:
        `(2 * n).divisors.card` is `(n + n).divisors.card`); the fallback's function of the free variables, named by
        the term's shape, knew only syntactic equality."""
        tys = tuple(ir.type_of(a) for a in t.args)
        if any(ty is None or isinstance(ty, Fun) for ty in tys):
            raise Untranslatable(f"{t.op} of an untyped or function argument")
        args = [self.term(a, env) for a in t.args]
        ret = t.ty or REAL
        return self.uf(f"set:{t.op}:" + ",".join(map(str, tys)) + f":{ret}", tys, ret, args)

    def higher_order_call(self, head: Var, args: tuple[Term, ...], env: dict[str, Any]) -> Any:
        """A function SymEq does not model applied to functions (`Tendsto (fun n => s n) atTop (𝓝 y)`, `f '' S`,
        `intervalIntegral (fun x => g x) a b`): an uninterpreted function of its arguments, a function argument
        being a value of its own sort named by what the function is (`function_value`), so that two calls with
        the same function written two ways (`x * x`, `x ^ 2` in the body) are one value (congruence). Lean's
        functions are extensional (`funext`): such an operation sees its argument only as the function."""
        fty = head.ty
        assert isinstance(fty, Fun)
        if len(args) != len(fty.args):
            raise Untranslatable("a partial or curried application of a higher-order function")
        vals, tys = [], []
        for a, aty in zip(args, fty.args):
            if isinstance(aty, Fun):
                vals.append(self.function_value(a, aty, env))
                tys.append(_function_sort(aty))
            else:
                vals.append(self.term(a, env))
                tys.append(aty)
        return self.uf(head.name, tuple(tys), fty.ret, vals)

    def function_value(self, t: Term, ty: Fun, env: dict[str, Any]) -> Any:
        """A function as a value of the uninterpreted sort `_function_sort(ty)`: a `fun x => e` is named by its
        body as Z3 simplifies it (`binder_shape`; the enclosing binders' variables are arguments), a function
        variable or constant by its name. Two values are equal only where the names are: `fun x => f x` and `f`
        are two values (sound, incomplete), unless the `fun` is `fun x => f x` itself (η, a definitional equality in
        Lean 4, as the front-end's `eta` reads an untyped binder)."""
        if isinstance(t, Bind) and t.kind == "lambda" and (f := _eta(t)) is not None:
            t = f
        if isinstance(t, Bind) and t.kind == "lambda" and ir.type_of(t) == ty:
            keyed = self.binder_shape(t, env)
            if keyed is None:
                raise Untranslatable("a function Z3 cannot name")
            key, arg_tys, args = keyed
            return self.uf(key, arg_tys, _function_sort(ty), args)
        if isinstance(t, Var) and t.name not in env and t.ty == ty:
            return self.uf("fnv:" + t.name, (), _function_sort(ty), [])
        raise Untranslatable("a function argument that is neither a fun nor a name")

    def read_function(self, name: str, arg: Term, env: dict[str, Any]) -> Any:
        """A real function of one argument read through its definition or the identities that hold for every
        argument (None: kept uninterpreted):
            tan x = sin x / cos x      Mathlib `Real.tan_eq_sin_div_cos`, Isabelle `tan_def` (x / 0 = 0 in both)
            fract x = x - ⌊x⌋          Mathlib `Int.fract` (its definition), Isabelle `frac_def`
            exp (a + b) = exp a * exp b, exp (a - b) = exp a / exp b, exp (-a) = (exp a)⁻¹
                                        Mathlib `Real.exp_add`, `Real.exp_sub`, `Real.exp_neg`; Isabelle `exp_add`,
                                        `exp_diff`, `exp_minus`
            (Lean) log x: see `lean_log`; exp (log x) = |x| for x ≠ 0, 1 for x = 0 (`Real.exp_log` on |x| > 0,
                                        `Real.log_abs`, `Real.log_zero`, `Real.exp_zero`)"""
        if ir.type_of(arg) not in (REAL, None):
            return None
        if name == "uf:tan":
            x = _real(self.term(arg, env))
            sin, cos = (self.uf(f, (REAL,), REAL, [x]) for f in ("uf:sin", "uf:cos"))
            return z3.If(cos == 0, z3.RealVal(0), sin / cos)
        if name == "uf:fract":
            x = _real(self.term(arg, env))
            return x - z3.ToReal(z3.ToInt(x))
        if name == "uf:ln":
            if self.system == "lean":
                return self.lean_log(arg, env)
            return self.log_literal(arg.value) if isinstance(arg, Num) and arg.value > 0 else None
        if name == "uf:exp":
            if isinstance(arg, App) and arg.ty == REAL and arg.op in ("add", "sub", "neg"):
                parts = [self.exp_of(x, env) for x in arg.args]
                if arg.op == "add":
                    return parts[0] * parts[1]
                return parts[0] / parts[1] if arg.op == "sub" else 1 / parts[0]
            if self.system == "lean" and _call_of(arg, "uf:ln"):
                x = _real(self.term(arg.args[1], env))
                return z3.If(x == 0, z3.RealVal(1), _abs(x))
        return None

    def exp_of(self, t: Term, env: dict[str, Any]) -> Any:
        return self.call(App("call", (Var("uf:exp", Fun((REAL,), REAL)), t), REAL), env)

    def lean_log(self, t: Term, env: dict[str, Any]) -> Any:
        """Mathlib's `Real.log`, which is defined at every real: log x = log |x| (`Real.log_abs`), log 0 = 0
        (`Real.log_zero`), and so, for all x and y, log (x * y) = log x + log y unless x or y is 0
        (`Real.log_mul`), log (x / y) = log x - log y likewise (`Real.log_div`; x / 0 = 0), log x⁻¹ = -log x
        (`Real.log_inv`), log (x ^ n) = n * log x (`Real.log_pow`), log (exp x) = x (`Real.log_exp`), log (-x) =
        log x (`Real.log_neg_eq_log`). Anything else is the uninterpreted `ln` of |x|, 0 at 0."""
        if isinstance(t, App) and t.ty == REAL:
            if t.op in ("mul", "div"):
                xs = [_real(self.term(x, env)) for x in t.args]
                ls = [self.lean_log(x, env) for x in t.args]
                both = ls[0] + ls[1] if t.op == "mul" else ls[0] - ls[1]
                return z3.If(z3.Or(xs[0] == 0, xs[1] == 0), z3.RealVal(0), both)
            if t.op == "inv":
                return -self.lean_log(t.args[0], env)
            if t.op in ("neg", "abs"):
                return self.lean_log(t.args[0], env)
            if t.op == "pow" and isinstance(t.args[1], Num) and t.args[1].ty == NAT and t.args[1].value <= 64:
                return int(t.args[1].value) * self.lean_log(t.args[0], env)
            if _call_of(t, "uf:exp"):
                return _real(self.term(t.args[1], env))
        if isinstance(t, Num) and t.value == 0:
            return z3.RealVal(0)
        if isinstance(t, Num) and (out := self.log_literal(abs(t.value))) is not None:
            return out
        x = _real(self.term(t, env))
        out = self.uf("uf:ln", (REAL,), REAL, [_abs(x)])
        self.side(z3.Implies(x == 0, out == 0))
        return out

    def isabelle_ln(self, t: Term, value: Any) -> Any:
        """Isabelle's `ln` of t (translated: value): of a positive literal its primes' (`log_literal`), else the
        uninterpreted `ln`."""
        out = self.log_literal(t.value) if isinstance(t, Num) and t.value > 0 else None
        return out if out is not None else self.uf("uf:ln", (REAL,), REAL, [_real(value)])

    def log_literal(self, q: Fraction) -> Any:
        """ln q of a rational q > 0 as the sum of its primes' logarithms, each an uninterpreted value (positive, by
        `facts`): ln (x * y) = ln x + ln y and ln (x / y) = ln x - ln y for x, y > 0 (Mathlib `Real.log_mul`,
        `Real.log_div`; Isabelle `ln_mult`, `ln_div`), so `log 2 8` is 3. None where q's numerator or denominator
        cannot be factored (`mathlib.factorize`)."""
        if len(self.factored) >= MAX_FACTORED and q not in self.factored:
            return None  # (bounded work on any input: each literal factored costs up to about 3 ms)
        self.factored.add(q)
        num, den = factorize(q.numerator), factorize(q.denominator)
        if num is None or den is None:
            return None
        parts = [
            sign * e * self.uf("uf:ln", (REAL,), REAL, [z3.RealVal(p)])
            for sign, factors in ((1, num), (-1, den))
            for p, e in factors
        ]
        return z3.Sum(parts) if parts else z3.RealVal(0)

    def lookup(self, name: str, env: dict[str, Any]) -> tuple[Any, Ty | None]:
        if name in env:
            return env[name]
        if name in self.free:
            return self.free[name], self.free_types[name]
        return None, None

    def _term(self, t: Term, env: dict[str, Any]) -> Any:
        if isinstance(t, Var):
            return self.var(t, env)
        if isinstance(t, Num):
            return self.num(t.value, t.ty)
        if isinstance(t, Opaque):
            return self.opaque(t, env)
        if isinstance(t, Bind):
            return self.bind(t, env)
        assert isinstance(t, App)
        return self.app(t, env)

    def var(self, t: Var, env: dict[str, Any]) -> Any:
        if t.name in env:
            if isinstance(env[t.name][0], z3.FuncDeclRef):
                raise Untranslatable("a bound function used as a value")
            return env[t.name][0]
        ty = t.ty or REAL
        if t.name.startswith(("uf:", "set:")):
            if isinstance(ty, Fun):
                raise Untranslatable("bare function constant")
            out = self.uf(t.name, (), ty, [])
            if t.name == "uf:pi":
                self.side(z3.And(out > z3.RealVal("3.14159"), out < z3.RealVal("3.1416")))
            return out
        if isinstance(ty, Fun):
            raise Untranslatable("function used as a value")
        return self.free_var(t.name, ty)

    def num(self, v: Fraction, ty: Ty | None) -> Any:
        if (ty in (NAT, INT) or self.zmod(ty) is not None) and v.denominator == 1:
            return z3.IntVal(v.numerator)
        if ty in (NAT, INT, REAL, RAT, None):
            return (
                z3.RealVal(f"{v.numerator}/{v.denominator}")
                if v.denominator != 1
                else (z3.RealVal(v.numerator) if ty not in (NAT, INT) else z3.IntVal(v.numerator))
            )
        return self.uf(f"num:{v}", (), ty, [], exact=False)

    def opaque(self, t: Opaque, env: dict[str, Any]) -> Any:
        self.exact = False
        ty = t.ty or REAL
        vals, tys, fnames = [], [], []
        for a in t.args:
            aty = ir.type_of(a)
            if isinstance(aty, Fun):
                if _bound_function(a, env):
                    raise Untranslatable("an opaque term of a bound function")
                fnames.append(str(a))
                continue
            vals.append(self.term(a, env))
            tys.append(aty or REAL)
        key = "opq:" + _h(t.template + "|" + ",".join(fnames) + "|" + str(ty))
        return self.uf(key, tuple(tys), ty, vals)

    # ------------------------------------------------------------------ binders
    def bind(self, t: Bind, env: dict[str, Any]) -> Any:
        if t.kind in ("sum", "prod"):
            from atf.symeq.bigops import translate

            return translate(self, t, env)
        if t.kind not in ("forall", "exists", "exists1"):
            # `LEAST x. P x` and `GREATEST` (Orderings.thy: THE x. P x ∧ (∀y. P y ⟶ x ≤ y)) stay uninterpreted, one
            # value per term up to bound names: the least-element axioms put quantifiers before Z3, and on the dev
            # set they merged no further pair of correct candidates for half as much time again on those problems
            raise Untranslatable(t.kind)
        inner = dict(env)
        consts: list[Any] = []
        guards: list[z3.BoolRef] = []
        local_names = set(env)
        inhabited: list[z3.BoolRef] = []
        for name, ty in t.vars:
            if isinstance(ty, Fun):
                raise Untranslatable("quantified function")
            if self.system == "lean" and (_universe(ty) or ir.type_names(ty) & local_names):
                # `∃ X : Type, …` or `∃ n, ∀ x : Fin n, …`: one Z3 sort cannot stand for a type that varies with
                # a bound variable (`∃ n, ∀ x y : Fin n, x = y` holds, at n = 1; `∀ n, …` does not)
                raise Untranslatable("a quantifier over a type, or over a type that depends on a bound variable")
            local_names.add(name)
            if ir.may_be_empty(ty, self.system):
                inhabited.append(self.inhabited(ty))
            c = self.value_const(self.fresh(name), ty or REAL)
            inner[name] = (c, ty)
            for part, pty in _leaves(c, ty or REAL):
                consts.append(part)
                guards.extend(self.domain_guard(part, pty))
        self._sides.append([])
        try:
            body = self.term(t.body, inner)
        finally:
            sides = self._sides.pop()
        fresh = [(c, z3.FreshConst(c.sort())) for c in consts]
        local = []
        for s in sides:
            (local.append if _mentions(s, fresh) else self.side)(s)
        # over a type that may be empty (Lean's `Fin 0`, a type variable): every Z3 sort has an element, so the
        # quantifier is relativized to "the type is inhabited", a boolean of its own (`∀ x : X, False` is `¬inh X`)
        if t.kind == "forall":
            out = z3.ForAll(consts, z3.Implies(z3.And(*guards, *local), body)) if consts else body
            return z3.Implies(z3.And(*inhabited), out) if inhabited else out
        if t.kind == "exists":
            return z3.And(*inhabited, z3.Exists(consts, z3.And(*guards, *local, body)))
        # ∃! x. P x  ==  ∃ x. P x ∧ ∀ y. P y → y = x
        if any(self.has_zmod(ty) for _, ty in t.vars):
            raise Untranslatable("∃! over ZMod representatives")  # its `y = x` would not be the class equality
        others = {}
        ys, yguards = [], []
        for name, ty in t.vars:
            c = self.value_const(self.fresh(name), ty or REAL)
            others[name] = (c, ty)
            for part, pty in _leaves(c, ty or REAL):
                ys.append(part)
                yguards.extend(self.domain_guard(part, pty))
        self._sides.append([])
        try:
            body_y = self.term(t.body, {**env, **others})
        finally:
            sides_y = self._sides.pop()
        eqs = [y == x for y, x in zip(ys, consts)]
        uniq = z3.ForAll(ys, z3.Implies(z3.And(*yguards, *sides_y, body_y), z3.And(*eqs)))
        return z3.And(*inhabited, z3.Exists(consts, z3.And(*guards, *local, body, uniq)))

    def inhabited(self, ty: Ty) -> z3.BoolRef:
        """Whether a Lean type that may be empty (`ir.may_be_empty`) has an element: a boolean per sort, and per
        function type `α → β`, inhabited when β is or α is not."""
        if not ir.may_be_empty(ty, self.system):
            return z3.BoolVal(True)
        if isinstance(ty, Tup):
            return z3.And(*(self.inhabited(t) for t in ty.items))
        if isinstance(ty, Fun):
            return z3.Or(self.inhabited(ty.ret), *(z3.Not(self.inhabited(a)) for a in ty.args))
        return z3.Bool("inh:" + str(ty))

    def domain_guard(self, c: Any, ty: Ty) -> list[Any]:
        """What a bound variable of type ty ranges over: ℕ is `≥ 0`; ℚ is a real in an unknown set `isRat`
        (∃ x : ℚ, x ^ 2 = 2 is false, so ℚ cannot range over all reals; nothing else is known about the set)."""
        if ty == NAT:
            return [c >= 0]
        if ty == RAT:
            return [self.uf("uf:isRat", (REAL,), BOOL, [c])]
        return []

    # ------------------------------------------------------------------ operations
    def app(self, t: App, env: dict[str, Any]) -> Any:
        op, ty = t.op, t.ty
        if op == "true":
            return z3.BoolVal(True)
        if op == "false":
            return z3.BoolVal(False)
        if op == "call":
            return self.call(t, env)
        if op == "pair":
            return tuple(self.term(a, env) for a in t.args)
        if op in ("fst", "snd"):
            v = self.term(t.args[0], env)
            if not isinstance(v, tuple):
                raise Untranslatable("projection of a non-pair")
            return v[0] if op == "fst" else v[1]
        if op == "filter":
            raise Untranslatable(op)
        if op in ("icc", "ico", "ioc", "ioo", "range", "setenum", "card", "in"):
            return self.congruent(t, env)
        if op in _RING_OPS and self.ac_ring(ty) and (poly := self.ring_normal_form(t, env)) is not None:
            return poly
        if op == "mul" and self.ac_ring(ty) and (scaled := _scaled(t, ty)) is not None:
            k, rest = scaled  # `2 * x` is `x + x`, `1 * x` is `x`
            return self.term(rest, env) if k == 1 else self.ac_fold("add", ty, [rest] * k, env)
        if op in ("add", "mul") and self.ac_ring(ty):
            return self.ac_fold(op, ty, _ac_leaves(t, op, ty), env)  # translates the leaves of the chain once
        if op == "pow" and self.ac_ring(ty) and _small_power(t.args[1]):
            return self.ac_fold("mul", ty, _ac_leaves(t, "mul", ty), env)
        a = [self.term(x, env) for x in t.args]
        if op == "and":
            return z3.And(*a)
        if op == "or":
            return z3.Or(*a)
        if op == "not":
            return z3.Not(a[0])
        if op == "implies":
            return z3.Implies(a[0], a[1])
        if op == "iff":
            return a[0] == a[1]
        if self.zmod(ty) is not None or any(self.zmod(ir.type_of(x)) is not None for x in t.args):
            return self.zmod_app(t, a, env)
        if op == "eq":
            return self.eq(t.args[0], t.args[1], a[0], a[1], env)
        if op in ("lt", "le"):
            x, y = _coerce_pair(a[0], a[1])
            if not _arith(x):
                return self.uf(f"{op}:{ir.type_of(t.args[0])}", (ir.type_of(t.args[0]),) * 2, BOOL, [x, y])
            return x < y if op == "lt" else x <= y
        if op == "ite":
            return z3.If(a[0], a[1], a[2])
        src = ir.type_of(t.args[0]) if t.args else None
        if (
            op == "pow"
            and (isinstance(ty, Sort) or ty == COMPLEX)  # ℂ is uninterpreted too: `x ^ 2` is `x * x` (`pow_two`)
            and isinstance(t.args[1], Num)
            and t.args[1].value.denominator == 1
            and 0 <= t.args[1].value <= MAX_EXPAND_POW
        ):
            return self.monoid_power(ty, a[0], int(t.args[1].value))
        if ty not in (NAT, INT, REAL, RAT) and op not in ("cast", "dvd", "prime", "even", "odd"):
            return self.uf(f"{op}:{ty}", tuple(ir.type_of(x) or REAL for x in t.args), ty or REAL, a)
        if op == "add":
            return a[0] + a[1]
        if op == "sub":
            return z3.If(a[0] >= a[1], a[0] - a[1], 0) if ty == NAT else a[0] - a[1]
        if op == "mul":
            return a[0] * a[1]
        if op == "neg":
            return -a[0]
        if op == "inv":
            return z3.If(a[0] == 0, z3.RealVal(0), 1 / a[0])
        if op in ("div", "idiv", "ediv", "fdiv", "tdiv"):
            return self.division(op, ty, a[0], a[1])
        if op in ("mod", "emod", "fmod", "tmod"):
            return self.remainder(op, ty, a[0], a[1])
        if op == "pow":
            return self.power(t, a, env)
        if op == "rpow":
            return self.rpow(t, a)
        if op == "powr":
            return self.powr(t, a, env)
        if op == "abs":
            return z3.If(a[0] >= 0, a[0], -a[0])
        if op == "min":
            return z3.If(a[0] <= a[1], a[0], a[1])
        if op == "max":
            return z3.If(a[0] >= a[1], a[0], a[1])
        if op == "sqrt":
            return self.sqrt(a[0])
        if op == "floor":
            return z3.ToInt(_real(a[0]))
        if op == "ceil":
            return -z3.ToInt(-_real(a[0]))
        if op == "round":
            return z3.ToInt(_real(a[0]) + z3.RealVal("1/2"))
        if op == "cast":
            return self.cast(src, ty, a[0])
        if op == "tonat":
            return z3.If(a[0] >= 0, a[0], 0)
        if op == "natabs":
            return z3.If(a[0] >= 0, a[0], -a[0])
        if op in ("gcd", "lcm"):
            if not (z3.is_int(a[0]) and z3.is_int(a[1])):
                raise Untranslatable(f"{op} of a non-integer")
            # of the absolute values: Lean `Int.gcd m n = m.natAbs.gcd n.natAbs` (Init/Data/Int/Gcd.lean), `Int.lcm`
            # likewise, Mathlib's `gcd`/`lcm` on ℤ (`Int.coe_gcd`, `Int.coe_lcm`); Isabelle `gcd_neg1_int`,
            # `gcd_neg2_int`, `lcm_neg1_int`, `lcm_neg2_int` (a natural operand is its own absolute value)
            x, y = _abs(a[0]), _abs(a[1])
            out = self.uf(f"uf:{op}", (INT, INT), INT, [x, y])
            self.side(out >= 0)
            # Mathlib `Nat.gcd_mul_lcm`, `Int.gcd_mul_lcm` (gcd m n * lcm m n = natAbs (m * n)); Isabelle
            # `gcd_mult_lcm` (nat), `prod_gcd_lcm_int` (|m| * |n| = gcd m n * lcm m n)
            g, lc = (self.function(f"uf:{f}", Fun((INT, INT), INT))(x, y) for f in ("gcd", "lcm"))
            self.side(g * lc == _abs(x * y))
            # and with a zero operand: Mathlib `Nat.gcd_zero_right : gcd n 0 = n`, `Int.gcd_zero_right : gcd i 0 =
            # natAbs i`, `lcm_zero_right : lcm m 0 = 0`; Isabelle `gcd_0_int : gcd x 0 = ¦x¦`, `lcm_0_right`
            for zero, other in ((y, x), (x, y)):
                self.side(z3.Implies(zero == 0, z3.And(g == _abs(other), lc == 0)))
            return out
        if op == "fact":
            out = self.uf("uf:fact", (INT,), INT, [a[0]])
            self.side(out >= 1)
            return out
        if op == "choose" and isinstance(t.args[1], Num) and t.args[1].value in (0, 1, 2):
            # Mathlib `Nat.choose_zero_right`, `Nat.choose_one_right`, `Nat.choose_two_right` (n.choose 2 =
            # n * (n - 1) / 2, ℕ subtraction and division); Isabelle `binomial_n_0`, `choose_one`, `choose_two`
            n, k = a[0], int(t.args[1].value)
            return [z3.IntVal(1), n, n * z3.If(n >= 1, n - 1, 0) / 2][k]
        if op == "choose":
            out = self.uf("uf:choose", (INT, INT), INT, a)
            self.side(out >= 0)
            return out
        if op == "dvd":
            x, y = _coerce_pair(a[0], a[1])
            if not (_arith(x) and _arith(y)):
                # `a ∣ b` in a ring SymEq keeps uninterpreted (GaussianInt, R[X]): a relation on the values, so
                # equal operands (`z ^ 2`, `z * z` in a commutative ring) give one proposition (congruence)
                tys = tuple(ir.type_of(x) or REAL for x in t.args)
                return self.uf(f"dvd:{tys[0]}:{tys[1]}", tys, BOOL, [x, y])
            if x.is_int():
                return z3.If(x == 0, y == 0, y % x == 0)
            return z3.Or(x != 0, y == 0)
        if op in ("even", "odd"):
            if not a[0].is_int():
                raise Untranslatable("parity of a non-integer")
            return a[0] % 2 == (0 if op == "even" else 1)
        if op == "prime":
            if not z3.is_int(a[0]):  # not "⌊x⌋ is prime": on a field normalize reads it, or it stays unread
                raise Untranslatable("primality of a non-integer")
            # Mathlib `Int.prime_iff_natAbs_prime : Prime k ↔ Nat.Prime k.natAbs` (so `Prime (-3 : ℤ)` holds);
            # Isabelle's `prime` asks `normalize p = p` (Factorial_Ring.thy `prime_def`), false of a negative int: a
            # prime is above 1 (`prime_gt_1_nat`, `prime_gt_1_int`)
            if self.system == "lean":
                return self.uf("uf:prime", (INT,), BOOL, [_abs(a[0])])
            return z3.And(a[0] > 1, self.uf("uf:prime", (INT,), BOOL, [a[0]]))
        raise Untranslatable(op)

    def eq(self, lt: Term, rt: Term, a: Any, b: Any, env: dict[str, Any]) -> Any:
        if self.has_zmod(ir.type_of(lt)) or self.has_zmod(ir.type_of(rt)):
            raise Untranslatable("a pair holding a ZMod value")  # (a ZMod value alone goes to `zmod_app`)
        if isinstance(a, tuple) or isinstance(b, tuple):
            if not (isinstance(a, tuple) and isinstance(b, tuple)) or len(a) != len(b):
                raise Untranslatable("pair compared with a non-pair")
            return z3.And(*[_eq(x, y) for x, y in zip(_flat(a), _flat(b))])
        return _eq(a, b)

    def zmod_app(self, t: App, a: list[Any], env: dict[str, Any]) -> Any:
        """An operation on or into `ZMod m` (see `zmod`)."""
        op, ty = t.op, t.ty
        src = [self.zmod(ir.type_of(x)) for x in t.args]
        if op == "eq":
            if src[0] is None or src[0] != src[1]:
                raise Untranslatable("a ZMod value compared with a value of another type")
            m = self.modulus(src[0], env)
            diff = a[0] - a[1]
            return diff == 0 if z3.is_int_value(m) and m.as_long() == 0 else z3.If(m == 0, diff == 0, diff % m == 0)
        m = self.zmod(ty)
        if op in _ZMOD_RING and all(s == m for s in src):
            if op == "add":
                return a[0] + a[1]
            if op == "sub":
                return a[0] - a[1]
            return a[0] * a[1] if op == "mul" else -a[0]
        if op == "pow" and src[0] == m and _small_nat(t.args[1]):  # Monoid.npow
            out = z3.IntVal(1)
            for _ in range(int(t.args[1].value)):
                out = out * a[0]
            return out
        if op == "ite" and src[1] == src[2] == m:
            return z3.If(a[0], a[1], a[2])
        if op == "cast" and m is not None and ir.type_of(t.args[0]) in (NAT, INT):  # Int.cast, Nat.cast
            return a[0]
        return self.uf(
            f"{op}:{ty}:" + ",".join(map(str, map(ir.type_of, t.args))),
            tuple(ir.type_of(x) or REAL for x in t.args),
            ty or REAL,
            a,
        )

    def ring_normal_form(self, t: App, env: dict[str, Any]) -> Any:
        """A polynomial of a commutative ring whose operations stay uninterpreted (ℂ, `R[X]`), expanded over its
        atoms with integer coefficients and written in one order: every commutative ring satisfies `mul_add`,
        `add_mul`, `sub_eq_add_neg`, `neg_mul`, `pow_succ` and the `add_comm`/`mul_comm` laws the leaf sorting already
        used, so `a * (b + c)` and `a * b + a * c` are one term. A positive coefficient k ≤ MAX_EXPAND_POW is k
        copies added (`nsmul_eq_mul`, as `_scaled`), a larger one a product with the numeral, and the negative part
        is subtracted (`sub_eq_add_neg`). None when the expansion grows past MAX_MONOMIALS."""
        ty = t.ty
        atoms: dict[str, Any] = {}
        poly = self._expand(t, ty, env, atoms)
        if poly is None:
            return None

        def term(mono: tuple[str, ...], k: int) -> Any:
            if not mono:
                return self.num(Fraction(k), ty)
            prod = atoms[mono[0]]
            for name in mono[1:]:
                prod = self.uf(f"mul:{ty}", (ty, ty), ty, [prod, atoms[name]])
            if k == 1:
                return prod
            if k <= MAX_EXPAND_POW:
                out = prod
                for _ in range(k - 1):
                    out = self.uf(f"add:{ty}", (ty, ty), ty, [out, prod])
                return out
            return self.uf(f"mul:{ty}", (ty, ty), ty, [self.num(Fraction(k), ty), prod])

        def total(items: list[Any]) -> Any:
            out = items[0]
            for v in items[1:]:
                out = self.uf(f"add:{ty}", (ty, ty), ty, [out, v])
            return out

        pos = [term(m, k) for m, k in sorted(poly.items()) if k > 0]
        neg = [term(m, -k) for m, k in sorted(poly.items()) if k < 0]
        if not pos and not neg:
            return self.num(Fraction(0), ty)
        if not neg:
            return total(pos)
        if not pos:
            return self.uf(f"neg:{ty}", (ty,), ty, [total(neg)])
        return self.uf(f"sub:{ty}", (ty, ty), ty, [total(pos), total(neg)])

    def _expand(self, t: Term, ty: Ty, env: dict[str, Any], atoms: dict[str, Any]) -> dict | None:
        """t's polynomial: monomial (sorted atom keys) -> nonzero integer coefficient; None past MAX_MONOMIALS."""
        if isinstance(t, Num) and t.value.denominator == 1:
            return {(): int(t.value)} if t.value else {}
        if isinstance(t, App) and t.ty == ty and t.op in _RING_OPS:
            if t.op == "pow":
                e = t.args[1]
                if not (isinstance(e, Num) and e.value.denominator == 1 and 0 <= e.value <= MAX_EXPAND_POW):
                    # `x ^ n` (n a variable or a large literal): Monoid.npow left uninterpreted, as `app` would
                    # (`self.term(t)` would come back here)
                    tys = tuple(ir.type_of(x) or REAL for x in t.args)
                    v = self.uf(f"pow:{ty}", tys, ty, [self.term(x, env) for x in t.args])
                    atoms[v.sexpr()] = v
                    return {(v.sexpr(),): 1}
                k = int(e.value)
                base = self._expand(t.args[0], ty, env, atoms)
                out: dict | None = {(): 1}
                for _ in range(k):
                    out = _poly_mul(out, base) if out is not None and base is not None else None
                return out
            parts = [self._expand(a, ty, env, atoms) for a in t.args]
            if any(p is None for p in parts):
                return None
            if t.op == "neg":
                return {m: -k for m, k in parts[0].items()}
            if t.op == "mul":
                return _poly_mul(parts[0], parts[1])
            sign = -1 if t.op == "sub" else 1
            out = dict(parts[0])
            for m, k in parts[1].items():
                out[m] = out.get(m, 0) + sign * k
            return {m: k for m, k in out.items() if k}
        return self._atom(t, env, atoms)

    def _atom(self, t: Term, env: dict[str, Any], atoms: dict[str, Any]) -> dict:
        v = self.term(t, env)
        key = v.sexpr()
        atoms[key] = v
        return {(key,): 1}

    def ac_fold(self, op: str, ty: Sort, leaves: list[Term], env: dict[str, Any]) -> Any:
        """`op` over the leaves of a commutative ring's `+` or `*` chain, in one canonical order: `X * 30` and
        `30 * X` are one term (the operation stays uninterpreted)."""
        vals = sorted((self.term(x, env) for x in leaves), key=lambda v: v.sexpr())
        out = vals[0]
        for v in vals[1:]:
            out = self.uf(f"{op}:{ty}", (ty, ty), ty, [out, v])
        return out

    def division(self, op: str, ty: Ty, a: Any, b: Any) -> Any:
        if ty in (REAL, RAT):
            if op != "div":
                raise Untranslatable("integer division of reals")
            return z3.If(b == 0, z3.RealVal(0), a / b)
        if ty == NAT:
            return z3.If(b == 0, z3.IntVal(0), a / b)
        if op == "div":
            op = "ediv" if self.system == "lean" else "fdiv"
        elif op == "idiv":
            op = "fdiv"
        q = a / b  # Z3: Euclidean for b != 0
        if op == "ediv":
            return z3.If(b == 0, z3.IntVal(0), q)
        if op == "fdiv":
            return z3.If(b == 0, z3.IntVal(0), z3.If(z3.Or(b > 0, a % b == 0), q, q - 1))
        if op == "tdiv":
            aa, ab = z3.If(a >= 0, a, -a), z3.If(b >= 0, b, -b)
            m = aa / ab
            return z3.If(b == 0, z3.IntVal(0), z3.If((a >= 0) == (b > 0), m, -m))
        raise Untranslatable(op)

    def remainder(self, op: str, ty: Ty, a: Any, b: Any) -> Any:
        if ty in (REAL, RAT):
            raise Untranslatable("remainder of reals")
        if ty == NAT:
            return z3.If(b == 0, a, a % b)
        if op == "mod":
            op = "emod" if self.system == "lean" else "fmod"
        if op == "emod":
            return z3.If(b == 0, a, a % b)
        div = {"fmod": "fdiv", "tmod": "tdiv"}[op]
        return z3.If(b == 0, a, a - b * self.division(div, ty, a, b))

    def power(self, t: App, a: list[Any], env: dict[str, Any]) -> Any:
        base, e = a
        et = t.args[1]
        if isinstance(et, Num) and et.value.denominator == 1 and 0 <= et.value <= MAX_EXPAND_POW:
            k = int(et.value)
            if k == 0:
                return z3.IntVal(1) if t.ty in (NAT, INT) else z3.RealVal(1)
            out = base
            for _ in range(k - 1):
                out = out * base
            return out
        return self.symbolic_power(t.ty, base, e)

    def symbolic_power(self, ty: Ty, base: Any, n: Any) -> Any:
        """`x ^ n` for a symbolic n : ℕ: one uninterpreted function per type, shared by `^` and by Isabelle's `powr`
        with an integer exponent (`_pow_int`), so that `x powr real n` and `x ^ n` are one value on x > 0."""
        return self.uf("uf:pow", (ty, NAT), ty, [base, n])

    def monoid_power(self, ty: Sort, base: Any, k: int) -> Any:
        """`x ^ k` in a monoid (Mathlib's `Monoid.npow`: x ^ 0 = 1, x ^ (k + 1) = x ^ k * x)."""
        if k == 0:
            return self.num(Fraction(1), ty)
        out = base
        for _ in range(k - 1):
            out = self.uf(f"mul:{ty}", (ty, ty), ty, [out, base])
        return out

    def _int_power(self, base: Any, k: int) -> Any:
        if k == 0:
            return z3.RealVal(1)
        out = base
        for _ in range(abs(k) - 1):
            out = out * base
        return out if k > 0 else z3.If(out == 0, z3.RealVal(0), 1 / out)

    def rpow(self, t: App, a: list[Any]) -> Any:
        base, e = _real(a[0]), a[1]
        et = t.args[1]
        if isinstance(et, Num) and et.value.denominator == 1 and abs(et.value) <= MAX_EXPAND_POW:
            return self._int_power(base, int(et.value))
        if isinstance(et, Num) and et.value == Fraction(1, 2):
            return self.sqrt(base)
        out = self.uf("uf:rpow", (REAL, REAL), REAL, [base, _real(e)])
        self.side(z3.Implies(base > 0, out > 0))
        return out

    def powr(self, t: App, a: list[Any], env: dict[str, Any]) -> Any:
        """Isabelle `x powr a = (if x = 0 then 0 else exp (a * ln x))` (Transcendental.thy): for x > 0 and a
        literal exponent p/q it is `root q x ^ p` (`root_powr_inverse`, `powr_powr`, `powr_realpow`). For x < 0,
        `ln x = (THE u. exp u = x)` (`ln_real_def`) is unspecified, but it is one value for every x ≤ 0: no u has
        `exp u = x`, so the predicates `λu. exp u = x` are all `λu. False` (extensionality). Hence x powr a is
        `K powr a` for x < 0, with K = exp (ln x) one unknown positive constant: every K > 0 is a possible value,
        so a counter-model that picks one is a real one. An exponent that is an integer expression (`real n`,
        `real_of_int i + 1`) gives the power `x ^ n` on x > 0 (`powr_realpow`, and `powr_int`: `x powr i = (if
        i ≥ 0 then x ^ nat i else 1 / x ^ nat (-i))`); any other exponent keeps an uninterpreted value, positive
        (`powr_gt_zero`)."""
        base, e = _real(a[0]), _real(a[1])
        et = t.args[1]
        v = et.value if isinstance(et, Num) else None
        k = self.exp_ln_negative
        if v is not None and abs(v.numerator) <= MAX_EXPAND_POW and 0 < v.denominator <= MAX_EXPAND_POW:
            pos = self._int_power(self.root(v.denominator, base), v.numerator)
            neg = self._int_power(self.root(v.denominator, k()), v.numerator)
        elif (i := _integer_exponent(et)) is not None:
            iz = self.term(i, env)
            pos, neg = self._pow_int(base, iz), self._pow_int(k(), iz)
        else:
            pos, neg = (
                self.uf("uf:powr", (REAL, REAL), REAL, [base, e]),
                self.uf("uf:powr", (REAL, REAL), REAL, [k(), e]),
            )
            self.side(z3.Implies(base > 0, pos > 0))
            self.side(neg > 0)
        return z3.If(base == 0, z3.RealVal(0), z3.If(base > 0, pos, neg))

    def _pow_int(self, x: Any, i: Any) -> Any:
        """`x ^ nat i` for i ≥ 0, `1 / x ^ nat (-i)` otherwise (`powr_int`), with `^` on a symbolic exponent the
        uninterpreted power that `x ^ n` is (`power`), and HOL's `1 / 0 = 0`."""
        up = self.symbolic_power(REAL, x, z3.If(i >= 0, i, -i))
        return z3.If(i >= 0, up, z3.If(up == 0, z3.RealVal(0), 1 / up))

    def exp_ln_negative(self) -> Any:
        """Isabelle's `exp (ln x)` for any x < 0: one unknown positive constant (see `powr`)."""
        k = self.function("uf:exp_ln_negative", Fun((), REAL))()
        fact = k > 0
        if all(fact.get_id() != x.get_id() for x in self.axioms):
            self.axioms.append(fact)  # a constant: an axiom even under a binder
        return k

    def root(self, n: int, x: Any) -> Any:
        """Isabelle `root n x = (if n = 0 then 0 else the_inv (λy. sgn y * |y| ^ n) x)` (NthRoot.thy): the
        sign-preserving n-th root, defined on all reals (`sqrt = root 2`, so root 2 is `sqrt`)."""
        x = _real(x)
        if n == 0:
            return z3.RealVal(0)
        if n == 1:
            return x
        if n == 2:
            return self.sqrt(x)
        r = self.uf(f"root{n}", (REAL,), REAL, [x], exact=True)
        self.side(
            z3.And(
                z3.Implies(x >= 0, z3.And(r >= 0, self._int_power(r, n) == x)),
                z3.Implies(x < 0, z3.And(r <= 0, self._int_power(-r, n) == -x)),
            )
        )
        return r

    def sqrt(self, x: Any) -> Any:
        x = _real(x)
        s = self.uf("sqrt", (REAL,), REAL, [x], exact=True)
        pos = z3.And(s >= 0, s * s == x)
        if self.system == "lean":
            neg = s == 0
        else:
            neg = z3.And(s <= 0, s * s == -x)
        self.side(z3.And(z3.Implies(x >= 0, pos), z3.Implies(x < 0, neg)))
        return s

    def cast(self, src: Ty | None, dst: Ty | None, v: Any) -> Any:
        if src == dst:
            return v
        if dst in (NAT, INT) and src in (NAT, INT):
            return v if dst == INT else z3.If(v >= 0, v, 0)
        if dst in (REAL, RAT) and src in (NAT, INT, REAL, RAT):
            return _real(v)
        return self.uf(f"cast:{src}:{dst}", (src or REAL,), dst or REAL, [v])

    def call(self, t: App, env: dict[str, Any]) -> Any:
        head, args = t.args[0], t.args[1:]
        if not isinstance(head, Var) or not isinstance(head.ty, Fun):
            raise Untranslatable("call of a non-variable")
        fty = head.ty
        if head.name.startswith("uf:") and any(isinstance(a, Fun) for a in fty.args):
            return self.higher_order_call(head, args, env)
        vals = [self.term(a, env) for a in args]
        if head.name in env:
            f = env[head.name][0]
            if not isinstance(f, z3.FuncDeclRef):
                raise Untranslatable("call of a bound function")
            # a bound function of `binder_shape`'s key: its canonical symbol
            out = f(*(x for v in vals for x in (_flat(v) if isinstance(v, tuple) else (v,))))
            return z3.If(out >= 0, out, 0) if fty.ret == NAT else out
        if head.name == "uf:root" and self.system == "isabelle" and _small_nat(args[0]):
            return self.root(int(args[0].value), vals[1])
        if head.name == "uf:logb" and len(vals) == 2:
            # by definition in both systems: Transcendental.thy `log a x = ln x / ln a`, Mathlib `Real.logb b x =
            # log x / log b` (and x / 0 = 0 in both)
            if self.system == "lean":  # `Real.log` read as `lean_log` reads it
                lx, lb = self.lean_log(args[1], env), self.lean_log(args[0], env)
            else:
                lx, lb = (self.isabelle_ln(a, v) for a, v in ((args[1], vals[1]), (args[0], vals[0])))
            return z3.If(lb == 0, z3.RealVal(0), lx / lb)
        if (
            head.name in _READ_FUNCTIONS
            and len(args) == 1
            and (out := self.read_function(head.name, args[0], env)) is not None
        ):
            return out
        if head.name.startswith("uf:"):  # (a variable may be called `sqrt`: √ is the op, never this name)
            return self.uf(head.name, fty.args, fty.ret, vals)
        f = self.free_var(head.name, fty)
        flat = [x for v in vals for x in (_flat(v) if isinstance(v, tuple) else (v,))]
        if isinstance(f, tuple):
            return tuple(g(*flat) for g in f)
        out = f(*flat)
        if fty.ret == NAT:
            # A ℕ-valued function is any Int-valued one clipped at 0: every interpretation is a real one, so a
            # counter-model stays exact and no side condition is needed under a binder.
            return z3.If(out >= 0, out, 0)
        return out


# ----------------------------------------------------------------------------------------------- helpers


def _function_sort(ty: Fun) -> Sort:
    """The uninterpreted sort of the functions of type ty as values (arguments of `higher_order_call`)."""
    return Sort(f"fn:{ty}")


def _eta(t: Bind) -> Var | None:
    """f for `fun x y => f x y` with f a variable of the `fun`'s own type that is not one of x, y."""
    body, names = t.body, [n for n, _ in t.vars]
    if not (isinstance(body, App) and body.op == "call" and isinstance(body.args[0], Var)):
        return None
    f, args = body.args[0], body.args[1:]
    if f.name in names or [a.name if isinstance(a, Var) else None for a in args] != names:
        return None
    return f if f.ty == t.ty else None


def _bound_function(t: Term, env: dict[str, Any]) -> bool:
    """Whether t mentions a bound function (a canonical function symbol of `binder_shape` in env)."""
    return any(isinstance(env.get(n, (None,))[0], z3.FuncDeclRef) for n in ir.free_vars(t))


def _small_nat(t: Term) -> bool:
    """A literal natural number small enough to expand powers with (`root 3 x`, not `root n x`)."""
    return isinstance(t, Num) and t.value.denominator == 1 and 0 <= t.value <= MAX_EXPAND_POW


def _leaves(v: Any, ty: Ty) -> list[tuple[Any, Ty]]:
    if isinstance(ty, Tup) and isinstance(v, tuple):
        return [x for item, ity in zip(v, ty.items) for x in _leaves(item, ity)]
    return [(v, ty)]


def _flat(v: Any) -> list[Any]:
    if isinstance(v, tuple):
        return [x for item in v for x in _flat(item)]
    return [v]


def _type_dependencies(t: Term, env: dict[str, Any]) -> set[str]:
    """The enclosing binders' variables (names in `env`) that the types written inside t depend on: a quantifier
    over `Fin n` or `Matrix (Fin n) (Fin n) ℝ`, a set of `Fin n → ℕ`, is a different proposition or value for each
    n (Lean's dependent types), although n may occur in no term of t."""
    return ir.sort_names((), [t]) & set(env)


def _mentions(e: z3.ExprRef, fresh: list[tuple[Any, Any]]) -> bool:
    """Whether e contains one of the constants of `fresh` (pairs of a constant and a fresh one of its sort). Z3
    shares equal terms (hash-consing), so a substitution that replaces nothing returns the very same term: one call
    into Z3 instead of a walk over e in Python."""
    return bool(fresh) and z3.substitute(e, *fresh).get_id() != e.get_id()


def _ac_leaves(t: Term, op: str, ty: Ty) -> list[Term]:
    """The operands of a chain of `op` at type ty (`(a * b) * c` -> a, b, c)."""
    if isinstance(t, App) and t.op == op and t.ty == ty:
        return [x for a in t.args for x in _ac_leaves(a, op, ty)]
    if op == "add" and isinstance(t, App) and t.op == "mul" and t.ty == ty and (scaled := _scaled(t, ty)) is not None:
        # `k * x` is `x + ... + x` (k a numeral: `Nat.cast_ofNat`, `nsmul_eq_mul`, `succ_nsmul`): k leaves x
        return [x for _ in range(scaled[0]) for x in _ac_leaves(scaled[1], op, ty)]
    if op == "mul" and isinstance(t, App) and t.op == "pow" and t.ty == ty and _small_power(t.args[1]):
        # `X ^ k` is `X * ... * X` (Monoid.npow, pow_succ): in a commutative chain its factors are leaves too
        return _ac_leaves(t.args[0], op, ty) * int(t.args[1].value)
    return [t]


_RING_OPS = ("add", "sub", "mul", "neg", "pow")
_READ_FUNCTIONS = frozenset({"uf:tan", "uf:fract", "uf:ln", "uf:exp"})


def _call_of(t: Term, name: str) -> bool:
    return isinstance(t, App) and t.op == "call" and isinstance(t.args[0], Var) and t.args[0].name == name


def _abs(x: Any) -> Any:
    return z3.If(x >= 0, x, -x)


_POLY_OVER = re.compile(r"(?:Polynomial|MvPolynomial (?:\S+|\( .* \))) (\S+)")
# Mathlib classes that extend `CommRing` (Algebra/Field/Defs.lean `Field`, `EuclideanDomain`, the ordered and normed
# fields, `RCLike`): a type variable with one of these instances is a commutative ring
_COMM_RING_CLASSES = frozenset(
    {
        "CommRing",
        "Field",
        "EuclideanDomain",
        "LinearOrderedField",
        "LinearOrderedCommRing",
        "NormedField",
        "NontriviallyNormedField",
        "RCLike",
    }
)


def commutative_sorts(premises: list[Term]) -> frozenset[str]:
    """The type variables an instance premise `[Field F]`, `[CommRing R]`, ... declares a commutative ring."""
    return ir.instance_sorts(premises, _COMM_RING_CLASSES)


MAX_MONOMIALS = 64


def _poly_mul(a: dict | None, b: dict | None) -> dict | None:
    if a is None or b is None:
        return None
    out: dict = {}
    for ma, ka in a.items():
        for mb, kb in b.items():
            m = tuple(sorted(ma + mb))
            out[m] = out.get(m, 0) + ka * kb
    out = {m: k for m, k in out.items() if k}
    return out if len(out) <= MAX_MONOMIALS else None


def _ac_ring(ty: Ty | None) -> bool:
    """A commutative ring whose `+` and `*` stay uninterpreted: the polynomial rings, and ℂ (a field: `+` and `*`
    are associative and commutative, `add_assoc`, `mul_comm`, ...; SymEq does not model its values)."""
    return ty == COMPLEX or ir.commutative_ring(ty)


def _scaled(t: Term, ty: Ty) -> tuple[int, Term] | None:
    """(k, the product of the other factors) for a product chain at ty with exactly one numeral factor k from 1 to
    MAX_EXPAND_POW and at least one other factor."""
    leaves = _ac_leaves(t, "mul", ty)
    nums = [x for x in leaves if isinstance(x, Num)]
    if len(nums) != 1 or len(leaves) < 2 or not _small_power(nums[0]):
        return None
    rest = [x for x in leaves if x is not nums[0]]
    prod = rest[0]
    for x in rest[1:]:
        prod = App("mul", (prod, x), ty)
    return int(nums[0].value), prod


def _small_power(e: Term) -> bool:
    """A literal exponent from 1 to MAX_EXPAND_POW."""
    return isinstance(e, Num) and e.value.denominator == 1 and 1 <= e.value <= MAX_EXPAND_POW


def _arith(x: Any) -> bool:
    return z3.is_arith(x)


def _integer_exponent(e: Term) -> Term | None:
    """The exponent of `x powr e` as an integer term when e is one (`real n`, `real_of_int i + 1`, `2 * real n`): casts
    of natural or integer terms and integer literals under +, -, *; None otherwise (a literal is handled apart)."""
    if isinstance(e, Num):
        return Num(e.value, INT) if e.value.denominator == 1 else None
    if not isinstance(e, App):
        return None
    if e.op == "cast" and len(e.args) == 1 and ir.type_of(e.args[0]) in (NAT, INT):
        inner = e.args[0]
        return inner if ir.type_of(inner) == INT else App("cast", (inner,), INT)
    if e.op in ("add", "sub", "mul") and len(e.args) == 2 or e.op == "neg" and len(e.args) == 1:
        parts = [_integer_exponent(x) for x in e.args]
        if any(p is None for p in parts):
            return None
        if not any(not isinstance(p, Num) for p in parts):
            return None  # a numeral: the literal case
        return App(e.op, tuple(parts), INT)  # type: ignore[arg-type]
    return None


def _real(x: Any) -> Any:
    return z3.ToReal(x) if z3.is_int(x) else x


def _coerce_pair(a: Any, b: Any) -> tuple[Any, Any]:
    if z3.is_arith(a) and z3.is_arith(b) and a.is_int() != b.is_int():
        return _real(a), _real(b)
    return a, b


def _eq(a: Any, b: Any) -> Any:
    a, b = _coerce_pair(a, b)
    if a.sort() != b.sort():
        raise Untranslatable(f"comparing {a.sort()} with {b.sort()}")
    return a == b


# ----------------------------------------------------------------------------------------------- solving


# Z3's budget per query is a resource limit, not a clock. Z3's `rlimit` counts the solver's own steps, so a query gets
# the same answer on any machine under any load, where a wall-clock timeout of 150 ms decided some pairs at one load
# and not at another (two Table 1 runs whose readings differ in one candidate of another problem put 10 of 888
# problems into other classes, MATH-400 1@k 49.2 and 49.0). `timeout_ms` stays the knob, as nominal milliseconds of
# RLIMIT_PER_MS units each. Chosen on the dev set with `eval/symeq_rlimit_dev.py --load 2`: on the clock SymEq merged
# 6934 pairs, and a second run (problems in reverse order, beside two busy loops) put 6 problems into other classes;
# at 700, 1000 and 2500 units per ms it merged 6912, 6916 and 6924 pairs and the second run changed none. Z3's
# wall-clock timeout stays, at WALL_FACTOR times the nominal time, as a backstop for a query that consumes units
# slowly (one MATH-400 query used 8,577 units in 1.5 s, the factor 10 first tried: k = 16 problems then took up to 25
# s under load); at 3 the dev set gave the same 6916 pairs, again with no problem changed by the second run. The
# worker's kill (`SymEqConfig.step_budget_s`) remains the hard bound. `SymEqConfig.rlimit_per_ms = 0` runs on the
# clock alone, as SymEq did before (for comparisons only).
RLIMIT_PER_MS = SymEqConfig.rlimit_per_ms  # (the default, defined there once)
WALL_FACTOR = 3
# The backstop still decided some verdicts by the load: a query that needs fewer units than its limit but consumes them
# slowly finishes on a quiet machine and is cut on a busy one (on Table 1's 888 problems, 97 of 17,218 queries were
# cut by the clock on a quiet machine; one miniF2F proof took 0.42 s against the 0.45 s backstop, and put three
# candidates into another class under load). A query the clock cut is asked once more at RETRY_WALL_FACTOR times its
# nominal time, while the problem's `SymEqConfig.clock_retry_s` lasts (`equivalence.PairCache.solve`), and one the
# clock cuts again counts its whole nominal time as spent, so the problem's budget does not depend on the load either.
RETRY_WALL_FACTOR = 10
# BACKSTOP: the backstop counts the CPU time of the thread that runs the query (`atf.symeq.backstop`, whose doc gives
# the measurements), where the platform has a per-thread CPU clock (Linux), and Z3's wall-clock timeout only elsewhere.
# On the wall clock the retry above made the load decide less, not nothing: a query cut under load and asked again in
# a context of its own is searched differently from the quiet machine's first try. The factors keep their names and
# values: on a quiet machine a query's CPU time is its wall time.


def _conj(args: list, ctx: z3.Context) -> z3.BoolRef:
    """`z3.And(*args)` without z3py's coercion of every argument: the same term (Z3 shares equal terms), built in a
    fraction of the time when a problem's axioms run into the hundreds (sums unrolled over a literal range)."""
    if not all(isinstance(a, z3.BoolRef) and a.ctx == ctx for a in args):
        return z3.And(*args)
    arr = (z3.Ast * len(args))(*(a.as_ast() for a in args))
    return z3.BoolRef(z3.Z3_mk_and(ctx.ref(), len(args), arr), ctx)


def _assert(s: z3.Solver, args) -> None:
    """`s.add(*args)`, the same assertions in the same order, without z3py's per-argument coercion."""
    for a in args:
        if isinstance(a, z3.BoolRef) and a.ctx == s.ctx:
            z3.Z3_solver_assert(s.ctx.ref(), s.solver, a.as_ast())
        else:
            s.add(a)


def _rlimit_count(s: z3.Solver) -> int:
    """The context's resource count so far (Z3 reports it among a solver's statistics, before a check too)."""
    return z3raw.statistic(s, b"rlimit count") or 0


class CounterModels(list):
    """A problem's stored counter-models (`StoredModel`), newest last, which `check_valid` tries on each query, and
    the uninterpreted symbols of the Boolean terms its queries were built from (`_symbol_names`): one problem's
    queries share their parts (the candidates' premises and conclusions, the axioms)."""

    def __init__(self, *models):
        super().__init__(*models)
        # a term's id -> (the term, its symbols' names): the term is held so that Z3 cannot reuse its id
        self.names: dict[int, tuple[z3.ExprRef, frozenset[str]]] = {}


class StoredModel:
    """A counter-model kept for a problem's later queries (`check_valid`). algebraic: some value is an irrational
    algebraic number. Evaluating a query at such a model is exact algebraic arithmetic, milliseconds where a
    rational model takes a fraction of one: on MATH problem 956, 933 evaluations took 3.7 s of its 4.3 s, at models
    that mostly agreed on every symbol of the query. So before an algebraic model is evaluated, its values on the
    query's symbols (`point`) are compared with those of the algebraic models already tried on that query: the same
    point gives the same value, and is not evaluated again.

    The point is the model's SMT-LIB text as Z3 gave it, read once, not through z3py's accessors: those build terms
    (an array's value, for one), and Z3's search depends on the terms its context built before. An evaluation with
    completion adds definitions to a model later, but what it adds depends only on what the model held (a symbol
    without one gets its sort's first value), so two models that agreed at first agree at every later query."""

    __slots__ = ("model", "algebraic", "_forms", "_rest")

    def __init__(self, model: z3.ModelRef):
        self.model = model
        text = model.sexpr()
        self.algebraic = "root-obj" in text  # (SMT-LIB's text of an irrational algebraic number)
        forms, self._rest = _model_forms(text) if self.algebraic else ([], "")
        self._forms = dict(forms)

    def point(self, names: frozenset[str]) -> tuple:
        """The model's definitions of these symbols, with every line of its text that is no definition (the
        universes of the uninterpreted sorts, which quantifiers range over)."""
        return tuple(sorted(self._forms[n] for n in names if n in self._forms)), self._rest


def _model_forms(text: str) -> tuple[list[tuple[str, str]], str]:
    """The definitions and declarations of a model's SMT-LIB text, each with the symbol it defines, and the rest of
    the text (comments, and any other top-level form)."""
    forms: list[tuple[str, str]] = []
    rest: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == ";":
            end = text.find("\n", i)
            end = n if end < 0 else end
            rest.append(text[i:end])
            i = end
        elif c == "(":
            start, depth = i, 0
            while i < n:
                c = text[i]
                if c == "|":  # a quoted symbol: parentheses inside are not structure
                    i = text.find("|", i + 1)
                    i = n if i < 0 else i
                elif c == '"':
                    i = text.find('"', i + 1)
                    i = n if i < 0 else i
                elif c == "(":
                    depth += 1
                elif c == ")":
                    depth -= 1
                    if depth == 0:
                        break
                i += 1
            form = text[start : i + 1]
            m = _DEFINED.match(form)
            if m:
                forms.append((m.group(1) or m.group(2), form))
            else:
                rest.append(form)  # (a sort's cardinality constraint, which its universe already says)
            i += 1
        else:
            i += 1
    return forms, "\n".join(rest)


_DEFINED = re.compile(r"\((?:define|declare)-\w+\s+(?:\|([^|]*)\||([^\s()|]+))")


def _symbol_names(e: z3.ExprRef, memo: dict[int, tuple[z3.ExprRef, frozenset[str]]]) -> frozenset[str]:
    """The names of the uninterpreted constants and functions e mentions, memoised in memo for e, each Boolean
    connective below it and each proposition under those (`CounterModels.names`)."""
    stack = [(e, False)]
    while stack:
        x, ready = stack.pop()
        key = x.get_id()
        if key in memo:
            continue
        if _connective(x):
            if ready:
                memo[key] = (x, frozenset().union(*(memo[c.get_id()][1] for c in x.children())))
            else:
                stack.append((x, True))
                stack.extend((c, False) for c in x.children())
        else:
            memo[key] = (x, _atom_symbol_names(x))
    return memo[e.get_id()][1]


def _connective(x: z3.ExprRef) -> bool:
    return z3.is_and(x) or z3.is_or(x) or z3.is_not(x) or z3.is_implies(x) or (z3.is_eq(x) and z3.is_bool(x.arg(0)))


def _atom_symbol_names(e: z3.ExprRef) -> frozenset[str]:
    return z3raw.uninterpreted_names(e)


@dataclass
class Verdict:
    """status: valid | invalid | unknown; model: variable -> value when invalid; work_ms: the solver's work in
    nominal milliseconds (resource units over RLIMIT_PER_MS; 0 when a known counter-model answered without the
    solver), what a problem's solver budget counts."""

    status: str
    model: dict[str, str] | None = None
    reason: str = ""
    exact: bool = True
    work_ms: float = 0.0
    clock: bool = False  # unknown because the wall-clock backstop fired before the step budget was spent


def check_valid(
    tr: Translator,
    formula: z3.BoolRef,
    timeout_ms: float,
    show_vars: list[str],
    models: list[StoredModel] | CounterModels | None = None,
    rlimit_per_ms: int = RLIMIT_PER_MS,
    wall_factor: float | None = None,
    own_context: bool = False,
) -> Verdict:
    """Is `formula` valid under the translator's axioms and variable domains? Z3 may spend `timeout_ms` nominal
    milliseconds of `rlimit_per_ms` resource units each (0: a wall-clock timeout of timeout_ms; see RLIMIT_PER_MS),
    with a wall-clock backstop at `wall_factor` (default WALL_FACTOR) times timeout_ms (`Verdict.clock` says when
    that decided). own_context: solve in a Z3 context of the query's own (for a query asked again, see below).

    models: counter-models of earlier queries (of one problem), newest last. Before asking the solver, each
    is tried on this query: a model that satisfies the axioms, the domains and ¬formula is a counter-model
    here too (a model's evaluation is exact, and the solver would only look for such a model), so a refutation
    costs an evaluation instead of a search. Candidates of one problem share their variables' names and most
    of their structure, so a point where two of them disagree often separates others. A new counter-model
    is appended; "valid" and "unknown" still come only from the solver."""
    wall_factor = WALL_FACTOR if wall_factor is None else wall_factor
    negated = z3.Not(formula)
    if models:
        query = _conj([*tr.axioms, *tr.domain, negated], negated.ctx)
        names: frozenset[str] | None = None  # the query's uninterpreted symbols, once an algebraic model needs them
        memo = models.names if isinstance(models, CounterModels) else {}
        tried: set[tuple] = set()
        for sm in reversed(models):
            if sm.algebraic:
                names = _symbol_names(query, memo) if names is None else names
                point = sm.point(names)
                if point in tried:
                    continue  # the same values as a model that did not refute the query: it does not either
                tried.add(point)
            try:
                hit = z3.is_true(sm.model.eval(query, model_completion=True))
            except z3.Z3Exception:
                continue
            if hit:
                return Verdict("invalid", _model_values(tr, sm.model, show_vars), exact=tr.exact)
    # A query asked again runs in a context of its own: Z3's search depends on the terms its context built before
    # (term ids order its choices), so a second solve in the problem's context would change the verdicts of the
    # queries after it, which a quiet machine asks without it. (Every query in a context of its own would make
    # verdicts independent of all history, but creating and deleting a Z3 context costs about 10 ms: SymEq took
    # 1.7 to 1.8 times as long on two dev problems.)
    ctx = z3.Context() if own_context else negated.ctx
    s = z3.Solver(ctx=ctx)
    steps = max(1, int(timeout_ms * rlimit_per_ms))
    on_cpu = bool(rlimit_per_ms) and backstop.AVAILABLE  # the backstop in the thread's CPU time (BACKSTOP)
    if rlimit_per_ms:
        s.set("rlimit", steps)  # the budget (see RLIMIT_PER_MS)
        if not on_cpu:
            s.set("timeout", max(1, int(timeout_ms * wall_factor)))  # a backstop only, on the wall clock
    else:
        s.set("timeout", max(1, int(timeout_ms)))
    _assert(s, (a.translate(ctx) if own_context else a for a in (*tr.axioms, *tr.domain)))
    _assert(s, [negated.translate(ctx) if own_context else negated])
    before, t0 = _rlimit_count(s), time.perf_counter()
    job = backstop.arm(ctx, timeout_ms * wall_factor / 1000) if on_cpu else None
    try:
        r = s.check()
    except z3.Z3Exception as err:
        return Verdict("unknown", reason=str(err), work_ms=float(timeout_ms))
    finally:
        if job is not None:
            backstop.disarm(job)
    used = max(0, _rlimit_count(s) - before)
    if rlimit_per_ms:
        work_ms = used / rlimit_per_ms
    else:
        work_ms = (time.perf_counter() - t0) * 1000
    if r == z3.unsat:
        return Verdict("valid", work_ms=work_ms)
    if r == z3.sat:
        m = s.model().translate(negated.ctx) if own_context else s.model()
        if models is not None:
            models.append(StoredModel(m))
        return Verdict("invalid", _model_values(tr, m, show_vars), exact=tr.exact, work_ms=work_ms)
    reason = s.reason_unknown()
    # Z3 says "timeout" when its timer fires, "interrupted" or "canceled" when the backstop interrupts it, "canceled"
    # (sometimes a few units short of the limit) or "max. resource limit exceeded" when the steps run out; a backstop
    # that fires as the steps run out leaves the count at the limit
    fired = job.fired if job is not None else reason == "timeout"
    clock = bool(rlimit_per_ms) and fired and used < steps
    if clock:
        what = "ms of CPU time" if on_cpu else "ms on the wall clock"
        reason = f"backstop ({timeout_ms * wall_factor:g} {what}) before the step budget was spent"
    elif rlimit_per_ms and reason in ("canceled", "interrupted", "max. resource limit exceeded"):
        reason = f"step budget spent ({timeout_ms:g} nominal ms, {steps} Z3 steps)"
    return Verdict("unknown", reason=reason, work_ms=work_ms, clock=clock)


def _model_values(tr: Translator, m: z3.ModelRef, show_vars: list[str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for name in show_vars:
        v = tr.free.get(name)
        if v is None or isinstance(v, z3.FuncDeclRef):
            continue
        for k, part in enumerate(_flat(v) if isinstance(v, tuple) else [v]):
            label = name if not isinstance(v, tuple) else f"{name}.{k}"
            try:
                values[label] = _show_value(m.eval(part, model_completion=True))
            except z3.Z3Exception:
                continue
    return values


def _show_value(v: z3.ExprRef) -> str:
    if z3.is_rational_value(v):
        f = v.as_fraction()
        return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"
    if z3.is_algebraic_value(v):
        return v.as_decimal(6)
    return str(v)


_FRESH = re.compile(r"!\d+(\.\d+)?$")


def _fresh_constant(e: z3.ExprRef) -> bool:
    """Whether e mentions a free constant named by `Translator.fresh` (a bound variable of an enclosing binder
    outside the canonical ones): its name depends on the order of translation."""
    return z3raw.any_constant_named(e, _FRESH.search)


_AC_KINDS = frozenset(
    {z3.Z3_OP_AND, z3.Z3_OP_OR, z3.Z3_OP_ADD, z3.Z3_OP_MUL, z3.Z3_OP_EQ, z3.Z3_OP_IFF, z3.Z3_OP_DISTINCT}
)


def _canonical(e: z3.ExprRef) -> str:
    """e as text with the arguments of `and`, `or`, `+`, `*`, `=` in sorted order and bound variables by de Bruijn
    index: `z3.simplify` orders them by the terms' ids, which depend on what the context built before. A subterm whose
    text is long stands as a digest of it: e is a DAG, and ℕ subtraction repeats its operands (`ite(a - b ≥ 0, a - b,
    0)`), so the text of `i - 1 - 1 - …` 30 deep was 2^30 characters (the process ran out of memory)."""
    return z3raw.canonical(e, _AC_KINDS, _digest)


def _digest(text: str) -> str:
    """A subterm's canonical text, or a digest of it where it is long (`_DIGEST_ABOVE`)."""
    if len(text) > _DIGEST_ABOVE:
        return "#" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:20]
    return text


# characters of a subterm's canonical text above which it stands as a digest: the shapes of real statements stay whole,
# so their keys, the names Z3 sees, and Z3's search with them are as before (at 200, MATH 2131 took 2.9 s, not 1.3)
_DIGEST_ABOVE = 4000
