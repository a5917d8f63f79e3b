"""Mathlib's predicates read as the propositions they are, or formalizers state with them (Lean front-end).

- `Function.Injective f`, `Function.Surjective f`, `Function.Bijective f` are definitions
  (Mathlib/Logic/Function/Defs.lean): `∀ ⦃a₁ a₂⦄, f a₁ = f a₂ → a₁ = a₂`, `∀ b, ∃ a, f a = b`, and both.
  They are unfolded where f is a name (its type, from its binder, types the bound names) or a `fun` whose
  binder is typed; anything else stays an opaque application.

- `Monotone f`, `Antitone f`, `StrictMono f`, `StrictAnti f` and their `On s` forms are definitions
  (Mathlib/Order/Monotone/Defs.lean): `∀ ⦃a b⦄, a ≤ b → f a ≤ f b` (Antitone: `f b ≤ f a`; Strict: `<` on both
  sides), and `MonotoneOn f s`: `∀ ⦃a⦄, a ∈ s → ∀ ⦃b⦄, b ∈ s → a ≤ b → f a ≤ f b`. Unfolded where f is as above.
- `Function.Periodic f c` is `∀ x, f (x + c) = f x`, `Function.Antiperiodic f c` is `∀ x, f (x + c) = -f x`
  (Mathlib/Algebra/Periodic.lean), and `IsSquare a` is `∃ r, a = r * r` (Mathlib/Algebra/Group/Even.lean).
- `upperBounds s` is `{x | ∀ ⦃a⦄, a ∈ s → a ≤ x}`, `lowerBounds s` is `{x | ∀ ⦃a⦄, a ∈ s → x ≤ a}`, and
  `BddAbove s` / `BddBelow s` say that set is nonempty, `∃ x, x ∈ upperBounds s` (Mathlib/Order/Bounds/Defs.lean).

- `IsCommutative G op` is a class with one field, `comm : ∀ a b, op a b = op b a`: it is that proposition,
  wherever it is written. `Mul.mul a b` / `HMul.hMul a b` is `a * b` (the notation unfolds to them), and
  `Add.add` / `HAdd.hAdd` is `+`.
- A conclusion `CommGroup G` under an instance `[Group G]` is written (and read by people, BEq labels it so) as
  "G's multiplication commutes": Lean would read it as some other commutative group structure on G, which is
  not what a formalizer means. Only where the commutative class differs from the given one by commutativity
  alone (COMMUTATIVE) is it read so; any other class stays opaque, and so does `CommGroup G` as a hypothesis
  (a second, unrelated structure there).
- `Fact P` (a structure whose one field is a proof of P, `[Fact p.Prime]`) is P.
- `Fintype G` is `Finite G`: a statement cannot depend on which `Fintype` instance it is given (`Fintype G` is a
  subsingleton and `Finite G` says one exists), and `Fintype.card G = Nat.card G`.
"""

from __future__ import annotations

from collections.abc import Callable

from atf.symeq import ir
from atf.symeq.ir import App, Bind, Term, Ty, Var

# commutative class -> (the class it adds commutativity to, the operation that commutes)
COMMUTATIVE = {
    "CommSemigroup": ("Semigroup", "mul"),
    "CommMonoid": ("Monoid", "mul"),
    "CommGroup": ("Group", "mul"),
    "CommSemiring": ("Semiring", "mul"),
    "CommRing": ("Ring", "mul"),
    "Field": ("DivisionRing", "mul"),  # `class Field extends CommRing K, DivisionRing K`
    "AddCommSemigroup": ("AddSemigroup", "add"),
    "AddCommMonoid": ("AddMonoid", "add"),
    "AddCommGroup": ("AddGroup", "add"),
}
OPERATIONS = {"Mul.mul": "mul", "HMul.hMul": "mul", "Add.add": "add", "HAdd.hAdd": "add"}
COMMUTATIVITY_CLASSES = ("IsCommutative",)
FUNCTION_PROPERTIES = ("Function.Injective", "Function.Surjective", "Function.Bijective")
# name -> (relation between the arguments, relation between the values, values compared the other way round)
ORDER_PROPERTIES = {
    "Monotone": ("le", "le", False),
    "Antitone": ("le", "le", True),
    "StrictMono": ("lt", "lt", False),
    "StrictAnti": ("lt", "lt", True),
}
BOUNDS = {"upperBounds": False, "lowerBounds": True}  # name -> the bound is below the set's elements
BOUNDED = {"BddAbove": "upperBounds", "BddBelow": "lowerBounds"}
PERIODIC = {"Function.Periodic": False, "Function.Antiperiodic": True}  # name -> the value changes sign


def _class_of(t: Term, name: str) -> Term | None:
    """X where t is `name X`."""
    if isinstance(t, App) and t.op == "call" and len(t.args) == 2 and t.args[0] == Var(name):
        return t.args[1]
    return None


def apply_operation(op: Term, a: Term, b: Term) -> Term:
    if isinstance(op, Var) and op.name in OPERATIONS:
        return App(OPERATIONS[op.name], (a, b))
    return App("call", (op, a, b))


def commutes(op: Term, ty: Ty) -> Term:
    """∀ a b : ty, op a b = op b a (bound names apart from op's free names)."""
    taken = ir.free_vars(op)
    a = "a" if "a" not in taken else ir.fresh_name("a", taken)
    b = "b" if "b" not in taken | {a} else ir.fresh_name("b", taken | {a})
    x, y = Var(a), Var(b)
    return Bind("forall", ((a, ty), (b, ty)), App("eq", (apply_operation(op, x, y), apply_operation(op, y, x))))


def _apart(base: str, taken: set[str]) -> str:
    name = base if base not in taken else ir.fresh_name(base, taken)
    taken.add(name)
    return name


def function_property(name: str, f: Term) -> Term | None:
    """The definition of `Function.Injective f` (Surjective, Bijective), or None where f is neither a name nor
    a `fun` with a typed binder (the bound names' types would not be known)."""
    if not _function(f):
        return None
    dom = _domain(f)
    taken = ir.free_vars(f)
    if name == "Function.Injective":
        a, b = _apart("a₁", taken), _apart("a₂", taken)
        same = App("eq", (App("call", (f, Var(a))), App("call", (f, Var(b)))))
        return Bind("forall", ((a, dom), (b, dom)), App("implies", (same, App("eq", (Var(a), Var(b))))))
    if name == "Function.Surjective":
        y, x = _apart("b", taken), _apart("a", taken)
        hit = Bind("exists", ((x, dom),), App("eq", (App("call", (f, Var(x))), Var(y))))
        return Bind("forall", ((y, None),), hit)
    parts = [function_property(n, f) for n in FUNCTION_PROPERTIES[:2]]
    return App("and", tuple(parts))  # type: ignore[arg-type]


def _function(f: Term) -> bool:
    """f is a name or a `fun` whose one binder is typed: the bound names of its definition get their types."""
    if isinstance(f, Bind):
        return f.kind == "lambda" and len(f.vars) == 1 and f.vars[0][1] is not None
    return isinstance(f, Var)


def _domain(f: Term) -> Ty | None:
    """The type of the names bound over f's domain: a `fun`'s binder type; for a name, None (taken from its type)."""
    return f.vars[0][1] if isinstance(f, Bind) else None


def order_property(name: str, f: Term, s: Term | None = None) -> Term | None:
    """The definition of `Monotone f` (Antitone, StrictMono, StrictAnti), or of `MonotoneOn f s` (...) with s,
    or None where f is not as `_function` asks."""
    if not _function(f):
        return None
    args_rel, values_rel, flipped = ORDER_PROPERTIES[name]
    dom = _domain(f)
    taken = ir.free_vars(f) | (ir.free_vars(s) if s is not None else set())
    a, b = Var(_apart("a", taken)), Var(_apart("b", taken))
    fa, fb = App("call", (f, a)), App("call", (f, b))
    body: Term = App("implies", (App(args_rel, (a, b)), App(values_rel, (fb, fa) if flipped else (fa, fb))))
    if s is not None:
        inside = App("and", (App("in", (a, s)), App("in", (b, s))))
        body = App("implies", (inside, body))
    return Bind("forall", ((a.name, dom), (b.name, dom)), body)


def periodic(name: str, f: Term, c: Term) -> Term | None:
    """The definition of `Function.Periodic f c` (Antiperiodic), or None where f is not as `_function` asks."""
    if not _function(f):
        return None
    taken = ir.free_vars(f) | ir.free_vars(c)
    x = Var(_apart("x", taken))
    value: Term = App("call", (f, x))
    if PERIODIC[name]:
        value = App("neg", (value,))
    return Bind("forall", ((x.name, _domain(f)),), App("eq", (App("call", (f, App("add", (x, c)))), value)))


def bounds(name: str, s: Term) -> Bind:
    """`upperBounds s` (lowerBounds) as the set it is defined to be."""
    taken = ir.free_vars(s)
    x, a = Var(_apart("x", taken)), Var(_apart("a", taken))
    below = App("le", (x, a) if BOUNDS[name] else (a, x))
    return Bind(
        "setof", ((x.name, None),), Bind("forall", ((a.name, None),), App("implies", (App("in", (a, s)), below)))
    )


def _unfold(t: Term, type_of: Callable[[Term], Ty | None]) -> Term:
    """The predicates above as the propositions they are, `Mul.mul a b` as `a * b`, everywhere in t."""
    t = ir.map_children(t, lambda c: _unfold(c, type_of))
    if not (isinstance(t, App) and t.op == "call" and isinstance(t.args[0], Var)):
        return t
    head, args = t.args[0].name, t.args[1:]
    if head in OPERATIONS and len(args) == 2:
        return App(OPERATIONS[head], args)
    if head in COMMUTATIVITY_CLASSES and len(args) == 2:
        ty = type_of(args[0])
        if ty is not None:
            return commutes(args[1], ty)
    if head in FUNCTION_PROPERTIES and len(args) == 1:
        return function_property(head, args[0]) or t
    if head in ORDER_PROPERTIES and len(args) == 1:
        return order_property(head, args[0]) or t
    if head.endswith("On") and head[:-2] in ORDER_PROPERTIES and len(args) == 2:
        return order_property(head[:-2], args[0], args[1]) or t
    if head in PERIODIC and len(args) == 2:
        return periodic(head, *args) or t
    if head in BOUNDS and len(args) == 1:
        return bounds(head, args[0])
    if head in BOUNDED and len(args) == 1:
        b = bounds(BOUNDED[head], args[0])
        return Bind("exists", b.vars, b.body)
    if head == "IsSquare" and len(args) == 1:
        r = Var(_apart("r", ir.free_vars(args[0])))
        return Bind("exists", ((r.name, None),), App("eq", (args[0], App("mul", (r, r)))))
    if head == "Fact" and len(args) == 1:  # `structure Fact (p : Prop) : Prop where out : p`
        return args[0]
    if head == "Fintype" and len(args) == 1:
        return App("call", (Var("Finite"), args[0]))
    return t


def read_classes(
    premises: list[Term], conclusion: Term, type_of: Callable[[Term], Ty | None]
) -> tuple[list[Term], Term]:
    """The premises and conclusion with the classes above read as propositions. type_of: the type a term
    denotes (`G` -> the sort of G's elements), None when that is not known."""
    premises = [_unfold(p, type_of) for p in premises]
    conclusion = _unfold(conclusion, type_of)
    for commutative, (base, op) in COMMUTATIVE.items():
        carrier = _class_of(conclusion, commutative)
        if carrier is None:
            continue
        ty = type_of(carrier)
        if ty is not None and App("call", (Var(base), carrier)) in premises:
            return premises, commutes(Var("Mul.mul" if op == "mul" else "Add.add"), ty)
    return premises, conclusion
