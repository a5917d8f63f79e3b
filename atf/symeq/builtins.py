"""Names each system gives the built-in functions, and how the elaborator types them.

A builtin is (op, rule): op is an IR op (`sqrt`, `gcd`, `cast`, ...) or `uf:<name>` for a function the
translation keeps uninterpreted under a system-independent name (`uf:ln` for Isabelle `ln` and Lean
`Real.log`); rule says how arguments and result are typed:

    real1 / real2      real -> real, real -> real -> real
    same1 / same2      a -> a, a -> a -> a (numeric a)
    nat1 / nat2        nat -> nat, nat -> nat -> nat
    pred1              a -> bool; natpred1: nat -> bool
    floor              real -> int (Lean ⌊x⌋ and Isabelle floor both land in int); natfloor: real -> nat
    to_real / to_int / to_rat   explicit casts; coe: cast to the type the context expects (Isabelle: a type variable
                       the context resolves where none is expected yet)
    tonat / natabs     int -> nat (max 0 x) / (|x|)
    rat_int / rat_nat  rat -> int, rat -> nat (Rat.num, Rat.den)
    succ               n -> n + 1
    const_real / const_complex   a constant (π, i)
    norm               Lean's `‖x‖`: |x| of a real (an integer's, a rational's, cast to real), Complex.abs of a complex
    fst / snd / card / sum / prod / range / interval / filter: structural, handled by name
    listfold / length  sum_list, prod_list ('a list -> 'a), length ('a list -> nat); of a literal list, its value
    nth                Isabelle's `xs ! i` ('a list -> nat -> 'a): of a literal list at a numeral index, its item
    listfn             upt, upto, map: a literal list where the arguments make one (elaborate.literal_items);
                       distinct, sorted, set of a literal list: what it says of the items
"""

from __future__ import annotations

from dataclasses import dataclass

from atf.symeq.ir import INT, NAT, REAL, Ty


@dataclass(frozen=True)
class Builtin:
    """src: the argument type a coercion declares (`of_nat` takes ℕ), for an argument of unknown type."""

    op: str
    rule: str
    src: Ty | None = None


def _b(op: str, rule: str, src: Ty | None = None) -> Builtin:
    return Builtin(op, rule, src)


_COMMON = {
    "abs": _b("abs", "same1"),
    "max": _b("max", "same2"),
    "min": _b("min", "same2"),
    "gcd": _b("gcd", "same2"),
    "lcm": _b("lcm", "same2"),
    "sqrt": _b("sqrt", "real1"),
    "exp": _b("uf:exp", "real1"),
    "sin": _b("uf:sin", "real1"),
    "cos": _b("uf:cos", "real1"),
    "tan": _b("uf:tan", "real1"),
    "arctan": _b("uf:arctan", "real1"),
    "arcsin": _b("uf:arcsin", "real1"),
    "arccos": _b("uf:arccos", "real1"),
    "pi": _b("uf:pi", "const_real"),
    "fst": _b("fst", "fst"),
    "snd": _b("snd", "snd"),
}

ISABELLE: dict[str, Builtin] = {
    **_COMMON,
    "ln": _b("uf:ln", "real1"),
    "log": _b("uf:logb", "real2"),
    "root": _b("uf:root", "root"),
    "op:nth": _b("uf:nth", "nth"),  # `xs ! i`
    "nth": _b("uf:nth", "nth"),
    "inverse": _b("inv", "inverse"),
    "floor": _b("floor", "floor"),
    "ceiling": _b("ceil", "floor"),
    "round": _b("round", "floor"),
    "fact": _b("fact", "nat1"),
    "binomial": _b("choose", "nat2"),
    "prime": _b("prime", "pred1"),
    "even": _b("even", "pred1"),
    "odd": _b("odd", "pred1"),
    "nat": _b("tonat", "tonat"),
    # Isabelle's Real.thy / Int.thy: `real :: nat ⇒ real`, `real_of_nat`, `int :: nat ⇒ int` are `of_nat`,
    # `real_of_int :: int ⇒ real` is `of_int` (its argument was read as a nat, which merged `real_of_int (2 - 3) = 0`
    # with True)
    "int": _b("cast", "to_int", NAT),
    "real": _b("cast", "to_real", NAT),
    "real_of_nat": _b("cast", "to_real", NAT),
    "real_of_int": _b("cast", "to_real", INT),
    "of_nat": _b("coe", "coe", NAT),
    "of_int": _b("coe", "coe", INT),
    "of_real": _b("coe", "coe", REAL),
    "rat_of_int": _b("cast", "to_rat", INT),  # Rat.thy: `rat_of_int :: int ⇒ rat` (its result is a rat, not any type)
    "Suc": _b("succ", "succ"),
    "card": _b("card", "card"),
    "sum": _b("sum", "sum"),
    "prod": _b("prod", "prod"),
    "ii": _b("uf:I", "const_complex"),
    "Re": _b("uf:re", "complex_real"),
    "Im": _b("uf:im", "complex_real"),
    "cmod": _b("uf:cabs", "complex_real"),
    "cnj": _b("uf:conj", "complex1"),
    "sgn": _b("uf:sgn", "same1"),
    "pi": _b("uf:pi", "const_real"),
    "Max": _b("uf:Max", "setfn"),
    "Min": _b("uf:Min", "setfn"),
    "finite": _b("uf:finite", "setpred"),
    "sum_list": _b("uf:sum_list", "listfold"),
    "prod_list": _b("uf:prod_list", "listfold"),
    "length": _b("uf:length", "length"),
    # List.thy's ranges and map, read on literal lists (the front-end writes `[i..<j]` as `List.upt i j`, `[i..j]`
    # as `List.upto i j`, `[e. x ← xs]` as `List.map (λx. e) xs`, `∑x←xs. b` as `Groups_List.sum_list (...)`)
    "upt": _b("uf:upt", "listfn"),
    "upto": _b("uf:upto", "listfn"),
    "map": _b("uf:map", "listfn"),
    "List.upt": _b("uf:upt", "listfn"),
    "List.upto": _b("uf:upto", "listfn"),
    "List.map": _b("uf:map", "listfn"),
    "distinct": _b("uf:distinct", "listfn"),
    "sorted": _b("uf:sorted", "listfn"),
    "set": _b("uf:set", "listfn"),
    "Groups_List.sum_list": _b("uf:sum_list", "listfold"),
    "Groups_List.prod_list": _b("uf:prod_list", "listfold"),
}

LEAN: dict[str, Builtin] = {
    **_COMMON,
    # a pair's fields: `p.1`, `p.fst`, `Prod.fst p` (structure Prod in Init/Prelude.lean; `.1` is its first field)
    "Prod.fst": _b("fst", "fst"),
    "Prod.snd": _b("snd", "snd"),
    "Prod.1": _b("fst", "fst"),
    "Prod.2": _b("snd", "snd"),
    "Real.sqrt": _b("sqrt", "real1"),
    "Real.exp": _b("uf:exp", "real1"),
    "Real.log": _b("uf:ln", "real1"),
    "log": _b("uf:ln", "real1"),
    "Real.logb": _b("uf:logb", "real2"),
    "logb": _b("uf:logb", "real2"),
    "Real.sin": _b("uf:sin", "real1"),
    "Real.cos": _b("uf:cos", "real1"),
    "Real.tan": _b("uf:tan", "real1"),
    "Real.arctan": _b("uf:arctan", "real1"),
    "Real.pi": _b("uf:pi", "const_real"),
    "π": _b("uf:pi", "const_real"),
    "Nat.gcd": _b("gcd", "nat2"),  # `Nat.gcd : ℕ → ℕ → ℕ`: its arguments are natural numbers (ℤ ones fail)
    "Int.gcd": _b("gcd", "gcd_int"),
    "Nat.lcm": _b("lcm", "nat2"),
    "Int.lcm": _b("lcm", "gcd_int"),
    "Nat.factorial": _b("fact", "nat1"),
    "factorial": _b("fact", "nat1"),
    "Nat.choose": _b("choose", "nat2"),
    "choose": _b("choose", "nat2"),
    "Nat.Prime": _b("prime", "natpred1"),  # `Nat.Prime : ℕ → Prop` (of an integer, `Prime`)
    "Prime": _b("prime", "pred1"),
    "Even": _b("even", "pred1"),
    "Odd": _b("odd", "pred1"),
    "Int.toNat": _b("tonat", "tonat"),
    "Int.natAbs": _b("natabs", "natabs"),
    "Int.floor": _b("floor", "floor"),
    "Int.ceil": _b("ceil", "floor"),
    "Int.fract": _b("uf:fract", "real1"),
    "Nat.floor": _b("natfloor", "natfloor"),
    "Nat.ceil": _b("natceil", "natfloor"),
    "Int.emod": _b("emod", "int2"),
    "Int.ediv": _b("ediv", "int2"),
    "Int.fdiv": _b("fdiv", "int2"),
    "Int.fmod": _b("fmod", "int2"),
    "Int.tdiv": _b("tdiv", "int2"),
    "Int.tmod": _b("tmod", "int2"),
    "Int.div": _b("tdiv", "int2"),
    "Int.mod": _b("tmod", "int2"),
    "Nat.succ": _b("succ", "succ"),
    "Nat.pred": _b("sub", "pred"),  # Init/Prelude.lean: `Nat.pred 0 = 0`, `Nat.pred (n + 1) = n`, i.e. `n - 1`
    "Nat.sqrt": _b("uf:natsqrt", "nat1"),
    "Nat.totient": _b("uf:totient", "nat1"),  # Mathlib `def Nat.totient (n : ℕ) : ℕ`
    "φ": _b("uf:totient", "nat1"),  # `scoped notation "φ" => Nat.totient` (open Nat)
    "Nat.divisors": _b("divisors", "divisors"),
    "Nat.properDivisors": _b("properDivisors", "divisors"),
    "Nat.log": _b("uf:natlog", "nat2"),  # `Nat.log (b : ℕ) : ℕ → ℕ`, `Nat.clog` alike
    "Nat.clog": _b("uf:natclog", "nat2"),
    # `structure Rat where num : Int; den : Nat; den_nz : den ≠ 0; reduced : num.natAbs.Coprime den` (Batteries'
    # Rat.lean): the fields have fixed types, and of a literal their values are its lowest terms
    "Rat.num": _b("uf:ratnum", "rat_int"),
    "Rat.den": _b("uf:ratden", "rat_nat"),
    "Real.nnabs": _b("abs", "same1"),
    "Finset.card": _b("card", "card"),
    "Fintype.card": _b("card", "card"),  # of a type; `card G` under `open Fintype` (Finset.card takes a Finset)
    # `Nat.card α` is `Fintype.card α` wherever the latter type-checks (Nat.card_eq_fintype_card), and
    # `Set.ncard s` is by definition `Nat.card ↥s`
    "Nat.card": _b("card", "card"),
    "Set.ncard": _b("card", "card"),
    "Finset.sum": _b("sum", "sum"),
    "Finset.prod": _b("prod", "prod"),
    "Finset.range": _b("range", "range"),
    "Finset.Icc": _b("icc", "interval"),
    "Finset.Ico": _b("ico", "interval"),
    "Finset.Ioc": _b("ioc", "interval"),
    "Finset.Ioo": _b("ioo", "interval"),
    "Set.Icc": _b("icc", "interval"),
    "Set.Ico": _b("ico", "interval"),
    "Set.Ioc": _b("ioc", "interval"),
    "Set.Ioo": _b("ioo", "interval"),
    "Finset.filter": _b("filter", "filter"),
    "Complex.I": _b("uf:I", "const_complex"),
    "Complex.abs": _b("uf:cabs", "complex_real"),
    "norm": _b("norm", "norm"),  # `‖x‖`
    "Norm.norm": _b("norm", "norm"),
    "Complex.re": _b("uf:re", "complex_real"),
    "Complex.im": _b("uf:im", "complex_real"),
    "Real.cosh": _b("uf:cosh", "real1"),
    "Real.sinh": _b("uf:sinh", "real1"),
    "Real.arcsin": _b("uf:arcsin", "real1"),
    "Nat.digits": _b("uf:digits", "digits"),
    "uf:sum": _b("uf:listsum", "listsum"),
    "uf:prod": _b("uf:listprod", "listprod"),
    "List.sum": _b("uf:listsum", "listsum"),
    "List.prod": _b("uf:listprod", "listprod"),
}

# Constants of Isabelle/HOL's Main, Complex_Main and HOL-Analysis that formalizers use without declaring them. Not
# modelled, but constants: never a theorem's implicitly fixed variable, which alignment could match with another
# (`sorted xs` with `distinct xs`, `sec x` with `csc x`, `sum_list` with `prod_list`).
ISABELLE_CONSTANTS = frozenset(
    """
    length distinct sorted set rev hd tl last butlast nth take drop map filter zip concat replicate upt count
    sorted_list_of_set list_all list_ex foldr foldl size upto
    Complex complex_of_real cis arg Arg norm dist cot sec csc tanh sinh cosh arcsinh arccosh arctanh
    range image vimage bij inj surj inj_on bij_betw inv id Domain Range dom ran UNIV undefined infinity
    infinite Sup Inf lim suminf prodinf summable sums convergent deriv integral has_derivative has_field_derivative
    continuous_on continuous differentiable det poly coeff degree pCons vector matrix mat transpose
    coprime totient multiplicity frac
    """.split()
)

TABLES = {"isabelle": ISABELLE, "lean": LEAN}


def lookup(system: str, name: str) -> Builtin | None:
    table = TABLES[system]
    if name in table:
        return table[name]
    if system == "lean":
        # `open Real Nat` makes `Real.sqrt` reachable as `sqrt`; dotted forms like `x.sqrt` are
        # rewritten by the parser. Try the namespaces a header usually opens.
        for ns in ("Real.", "Nat.", "Int.", "Finset."):
            if ns + name in table:
                return table[ns + name]
    return None


def is_builtin(system: str, name: str) -> bool:
    return lookup(system, name) is not None
