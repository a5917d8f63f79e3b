"""Mathlib's predicates read as the propositions they are, or formalizers state with them (Lean front-end).

- `Function.Injective f`, `Function.Surjective f`, `Function.Bijective f` are definitions
  (Mathlib/Logic/Function/Defs.lean): `∀ ⦃a₁ a₂⦄, f a₁ = f a₂ → a₁ = a₂`, `∀ b, ∃ a, f a = b`, and both.
  They are unfolded where f is a name (its type, from its binder, types the bound names) or a `fun` whose
  binder is typed; anything else stays an opaque application.

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
    if isinstance(f, Bind) and not (f.kind == "lambda" and len(f.vars) == 1 and f.vars[0][1] is not None):
        return None
    if not isinstance(f, (Var, Bind)):
        return None
    dom = f.vars[0][1] if isinstance(f, Bind) else None
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
