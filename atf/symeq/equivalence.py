"""SymEq: group candidate statements into classes of symbolically equivalent ones.

Two standardized statements (`normalize.standardize`) are equivalent under a variable alignment when

    premises:     (∃ Y_A. P_A) ↔ (∃ Y_B. P_B)          for all aligned variables
    conclusions:  P_A ∧ P_B → (C_A ↔ C_B)               for all variables

where Y_A / Y_B are the variables left unmatched. Each check is one Z3 validity query with a timeout;
"unknown" counts as not equivalent. The alignments tried are the few cheapest matchings over name edit
distance (`align.top_matchings`); identical standard forms are equivalent without asking Z3. When every
alignment fails, the result carries the counter-model of the best one.

Classes are built with union-find over the candidates in order, skipping every pair whose classes are
already joined (transitivity), in two passes that ration Z3's time (`PairCache`): every pair at a tenth of
the timeout, then the pairs left open at the full one. A candidate's SymEq score is the size of its class
divided by k.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from atf.symeq import ir, smt
from atf.symeq.align import top_matchings
from atf.symeq.config import SymEqConfig
from atf.symeq.elaborate import elaborate
from atf.symeq.ir import App, Bind, ParseError, Statement, Term
from atf.symeq.normalize import standardize
from atf.symeq.smt import Translator, Untranslatable, Verdict, check_valid, commutative_sorts

if TYPE_CHECKING:
    import z3

log = logging.getLogger(__name__)

# Bumped whenever a change can alter verdicts, so that cached evaluation results are not reused.
VERSION = 96


@dataclass
class PairResult:
    """The verdict on one pair of candidates.

    status: "equivalent" | "different" | "unknown" | "skipped" (already in one class) | "unparsed".
    method: how it was decided: "syntactic" (same standard form), "z3", "lean", "string", "".
    alignment: the variable matching used (B's name -> A's name).
    counterexample: for "different", values of the variables under which the two disagree, and
        `detail` says where ("premises" or "conclusions"); `exact` is False when the model relies on an
        uninterpreted function (it may then not be a real counterexample).
    second_pass: decided again at the full timeout, after the quick pass left it open (see PairCache).
    """

    i: int
    j: int
    status: str
    method: str = ""
    alignment: dict[str, str] = field(default_factory=dict)
    counterexample: dict[str, str] | None = None
    detail: str = ""
    exact: bool = True
    seconds: float = 0.0
    second_pass: bool = False

    @property
    def equivalent(self) -> bool:
        return self.status == "equivalent"

    def describe(self) -> str:
        if self.status == "equivalent":
            how = {
                "syntactic": "same standard form",
                "z3": "proved by Z3",
                "lean": "proved in Lean",
                "string": "identical text",
            }.get(self.method, self.method)
            return f"#{self.i} ≡ #{self.j} ({how})"
        if self.status == "different" and self.counterexample is not None:
            vals = ", ".join(f"{k}={v}" for k, v in self.counterexample.items()) or "any values"
            note = "" if self.exact else " (model uses uninterpreted functions)"
            return f"#{self.i} ≢ #{self.j}: {self.detail} differ at {vals}{note}"
        return f"#{self.i} ? #{self.j}: {self.status} {self.detail}".rstrip()


def parse(text: str, language: str, qualified: Iterable[str] = ()) -> Statement:
    """Text of one candidate -> standardized Statement (raises ParseError). qualified: the dotted names the
    texts it is compared with write (`peer_names`); in Lean, `Subgroup.Normal` written there is how `Normal`
    resolves under this text's `open Subgroup` (`lean_frontend.open_resolution`)."""
    if language == "isabelle":
        from atf.symeq.isabelle_frontend import parse_statement

        return standardize(elaborate(parse_statement(text)))
    if language == "lean":
        from atf.symeq.lean_frontend import parse_statement

        return standardize(elaborate(parse_statement(text, qualified)))
    raise ValueError(f"language must be 'lean' or 'isabelle', got {language!r}")


def peer_names(texts: Iterable[str], language: str) -> frozenset[str]:
    """The dotted names written in some candidate texts (Lean; nothing for Isabelle)."""
    if language != "lean":
        return frozenset()
    from atf.symeq.lean_frontend import qualified_names

    return qualified_names(texts)


def _rename_statement(st: Statement, mapping: dict[str, str], types: dict[str, str] | None = None) -> Statement:
    """st with its free variables renamed by `mapping`, its type variables by `types` (`_type_variable_renaming`)."""
    out = replace(
        st,
        variables={mapping.get(n, n): t for n, t in st.variables.items()},
        premises=[ir.rename_free_typed(p, mapping) for p in st.premises],
        conclusion=ir.rename_free_typed(st.conclusion, mapping),
    )
    dependent = {n: v for n, v in mapping.items() if n != v}
    # `(x : Fin n)`: rename n there too
    if dependent and ir.sort_names(st.variables.values(), [*st.premises, st.conclusion]) & set(dependent):
        out.variables = {n: ir.rename_type(t, dependent) for n, t in out.variables.items()}
        out.premises = [ir.rename_types_in(p, dependent) for p in out.premises]
        out.conclusion = ir.rename_types_in(out.conclusion, dependent)
    if types:  # (the names are whole tokens of the sorts, `'?2`, `'a::field`, as `rename_type` maps them)
        out.variables = {n: ir.rename_type(t, types) for n, t in out.variables.items()}
        out.premises = [ir.rename_types_in(p, types) for p in out.premises]
        out.conclusion = ir.rename_types_in(out.conclusion, types)
    return out


def _type_variables(st: Statement) -> set[str]:
    """The Isabelle type variables of a statement, written (`'a`, `'a::field`) or left by inference (`'?1`)."""
    return ir.sort_names(st.variables.values(), [*st.premises, st.conclusion], ir.type_variable_names)


def _type_variable_renaming(
    a: Statement, b: Statement, matching: dict[str, str], tv_a: set[str], tv_b: set[str]
) -> dict[str, str] | None:
    """B's type variables -> A's, as the matched variables' types pair them, or None where they pair one with two.

    A theorem holds at every instance of its type variables, so renaming them one-to-one keeps its meaning, and
    which names inference gives them (`'?1`, `'?2` by order of first use, `Elaborator.type_variable`) or the text
    wrote (`'a`, `'b`) is no part of it: `x + 1 = 2 ∧ y * 3 = 4` and its conjuncts swapped name x's and y's types
    the other way round. (Alignment matches such variables by type shape, where a type variable's name is
    `ir.type_shape`'s wildcard.) The type variables no matched variable pairs go to A's unpaired ones in order, then
    to fresh names: every renaming is one-to-one. tv_a, tv_b: the statements' type variables (`_type_variables`)."""
    if not tv_b:
        return {}
    out: dict[str, str] = {}
    for nb, na in matching.items():
        for tb, ta in _paired_type_variables(b.variables[nb], a.variables[na]):
            if out.setdefault(tb, ta) != ta:
                return None
    if len(set(out.values())) != len(out):
        return None
    spare = sorted(tv_a - set(out.values()), key=_type_variable_order)
    taken = tv_a | tv_b
    for tb in sorted(tv_b - set(out), key=_type_variable_order):
        if spare and _type_variable_sort(spare[0]) == _type_variable_sort(tb):
            out[tb] = spare.pop(0)
        else:
            out[tb] = ir.fresh_name(tb.split("::")[0] + "'", taken) + tb[len(tb.split("::")[0]) :]
            taken.add(out[tb])
    return {k: v for k, v in out.items() if k != v}


def _type_variable_sort(name: str) -> str:
    """The sort written after a type variable (`field` in `'a::field`; nothing for an inferred one)."""
    return name.split("::", 1)[1] if "::" in name else ""


def _type_variable_order(name: str) -> tuple:
    head = name.split("::")[0]
    return (0, int(head[2:]), name) if head[2:].isdigit() and head.startswith("'?") else (1, 0, name)


def _paired_type_variables(tb: ir.Ty | None, ta: ir.Ty | None) -> list[tuple[str, str]]:
    """The type variables at the same places of two types of one shape (`'?2 set` and `'?1 set`: ('?2, '?1))."""
    if isinstance(tb, ir.Sort) and isinstance(ta, ir.Sort):
        wb, wa = tb.name.split(), ta.name.split()
        if len(wb) != len(wa):
            return []
        return [(x, y) for x, y in zip(wb, wa) if x.startswith("'") and y.startswith("'")]
    if isinstance(tb, ir.Fun) and isinstance(ta, ir.Fun) and len(tb.args) == len(ta.args):
        return [p for x, y in zip((*tb.args, tb.ret), (*ta.args, ta.ret)) for p in _paired_type_variables(x, y)]
    if isinstance(tb, ir.Tup) and isinstance(ta, ir.Tup) and len(tb.items) == len(ta.items):
        return [p for x, y in zip(tb.items, ta.items) for p in _paired_type_variables(x, y)]
    if isinstance(tb, ir.SetTy) and isinstance(ta, ir.SetTy):
        return _paired_type_variables(tb.elem, ta.elem)
    return []


def _full_mapping(a: Statement, b: Statement, matching: dict[str, str]) -> dict[str, str]:
    """B's names -> names in the shared vocabulary: matched ones to A's, the rest apart from A's."""
    taken = set(a.variables) | set(matching.values())
    out = dict(matching)
    for n in b.variables:
        if n not in out:
            new = n if n not in taken else ir.fresh_name(n + "'", taken)
            taken.add(new)
            out[n] = new
    return out


class PairCache:
    """What one problem's pairs share, computed once per candidate (and per renaming of it): renamed
    statements, alpha keys, and Z3 translations (`Translator.cached_prop`). Keys name a candidate by its
    index, so one cache serves one problem.

    It also rations Z3 time (`timeout_ms`). Most verdicts take milliseconds, so the pairs are first decided with a
    tenth of the timeout (`first_pass`); a pair that this leaves open is asked again at the full timeout afterwards,
    unless transitivity has joined it by then, while the problem's solver budget (Z3 work at the full timeout,
    counted in resource units: `smt.RLIMIT_PER_MS`) lasts, and unless it involves a *hard* candidate: one whose own
    premises Z3 could not decide, or that took part in `HARD_AFTER` queries undecided at the full timeout. A hard
    candidate's pairs carry the same hard premises, so Z3 would spend the full timeout on each and still not decide."""

    HARD_AFTER = 2
    KEEP_MODELS = 16

    def __init__(
        self,
        solver_budget_s: float = SymEqConfig.solver_budget_s,
        rlimit_per_ms: int = SymEqConfig.rlimit_per_ms,
        clock_retry_s: float = SymEqConfig.clock_retry_s,
        on_retry: Callable[[float], None] | None = None,
    ):
        self.data: dict[tuple, object] = {}
        # told the wall-clock allowance of each retry before it starts (the pool extends the step's kill deadline)
        self.on_retry = on_retry
        self.rlimit_per_ms = rlimit_per_ms  # the Z3 budget's rate (`SymEqConfig.rlimit_per_ms`)
        self.clock_retry_left_s = clock_retry_s  # for asking again what Z3's clock cut (`solve`)
        self.solver_left_s = solver_budget_s
        self.undecided: dict[int, int] = {}  # candidate -> undecided queries at the full timeout
        self.models = smt.CounterModels()  # the problem's latest Z3 counter-models, tried first on every query
        self.first_pass = False  # set by SymEq.events while it makes its quick pass over the pairs
        self.cut_short = 0  # queries left undecided at a shortened timeout (more time might decide them)

    def timeout_ms(self, full_ms: int, candidates: tuple[int, ...] = ()) -> int:
        """The Z3 timeout of the next query about these candidates."""
        if self.first_pass or not self.full_allowed(candidates):
            return max(10, full_ms // 10)
        return full_ms

    def full_allowed(self, candidates: tuple[int, ...]) -> bool:
        """Whether a query about these candidates may still have the full timeout."""
        return self.solver_left_s > 0 and all(self.undecided.get(c, 0) < self.HARD_AFTER for c in candidates)

    def spent(self, seconds: float) -> None:
        self.solver_left_s -= seconds

    def undecided_query(self, candidates: tuple[int, ...], weight: int = 1) -> None:
        """A query about these candidates ran out of time (`weight` HARD_AFTER: that makes them hard)."""
        for c in candidates:
            self.undecided[c] = self.undecided.get(c, 0) + weight

    def get(self, key: tuple, make):
        try:
            return self.data[key]
        except KeyError:
            out = self.data[key] = make()
            return out

    def solve(self, tr: Translator, formula, timeout_ms: int, shown: list[str]) -> Verdict:
        """`check_valid` with this problem's counter-models and rate. A query that the backstop (`smt.BACKSTOP`)
        cut before its step budget was spent (a query that consumes its units slowly; on the wall clock, also a
        busy machine) is asked once more with a longer backstop (`smt.RETRY_WALL_FACTOR`) while
        `clock_retry_left_s` lasts, and one cut again is charged its whole nominal time: what the budget counts does
        not depend on the load."""
        v = check_valid(tr, formula, timeout_ms, shown, self.models, self.rlimit_per_ms)
        retry_s = timeout_ms * smt.RETRY_WALL_FACTOR / 1000
        if v.clock and self.clock_retry_left_s >= retry_s:
            self.clock_retry_left_s -= retry_s
            if self.on_retry is not None:
                self.on_retry(retry_s)
            # the longer backstop, in a Z3 context of the query's own (`own_context`)
            v = check_valid(
                tr, formula, timeout_ms, shown, self.models, self.rlimit_per_ms, smt.RETRY_WALL_FACTOR, True
            )
        if v.clock:
            v.work_ms = float(timeout_ms)
        del self.models[: -self.KEEP_MODELS]
        return v


def _premises(tr: Translator, cache: PairCache, st: Statement, key: tuple) -> z3.BoolRef:
    """The conjunction of st's premises in Z3, translated once per key (candidate index, renaming) in `cache`."""
    return tr.cached_prop(cache, ("prem", *key), lambda: ir.conj(st.premises), commutative_sorts(st.premises))


def _conclusion(tr: Translator, cache: PairCache, st: Statement, key: tuple) -> z3.BoolRef:
    return tr.cached_prop(cache, ("concl", *key), lambda: st.conclusion, commutative_sorts(st.premises))


def _project(premise: Term, st: Statement, names: list[str]) -> Term:
    """∃ names. premise (only first-order variables can be projected away)."""
    fv = ir.free_vars(premise)
    vs = tuple((n, st.variables[n]) for n in names if n in fv and not isinstance(st.variables[n], ir.Fun))
    return Bind("exists", vs, premise, None, ir.BOOL) if vs else premise


def equivalence(
    a: Statement,
    b: Statement,
    *,
    timeout_ms: int = 1000,
    top_k: int = 3,
    i: int = 0,
    j: int = 1,
    cache: PairCache | None = None,
) -> PairResult:
    """Decide whether two standardized statements of one system are equivalent (see module doc).
    `cache`: shared by the pairs of one problem, where i and j are the candidates' indices."""
    cache = cache or PairCache()
    if a.system != b.system:
        raise ValueError(f"cannot compare a {a.system} statement with a {b.system} one")
    if a.context != b.context:  # the same words under different definitions (`Statement.context`)
        return PairResult(i, j, "different", "", detail="different declarations before the theorem", exact=True)
    t0 = time.perf_counter()
    matchings = top_matchings(a.variables, b.variables, k=top_k) or [(0.0, {})]
    # (each statement's type variables, once per candidate: the walk is over every node)
    tv_a, tv_b = (cache.get(("type variables", n), lambda st=st: _type_variables(st)) for n, st in ((i, a), (j, b)))
    first: PairResult | None = None
    for _, matching in matchings:
        mapping = _full_mapping(a, b, matching)
        types = _type_variable_renaming(a, b, matching, tv_a, tv_b)
        renaming = sorted((k, v) for k, v in mapping.items() if k != v) + sorted((types or {}).items())
        bkey = (j, tuple(renaming))  # (a type variable's name starts with `'`, no term variable's does)
        b2 = cache.get(("renamed", *bkey), lambda m=mapping, t=types: _rename_statement(b, m, t or {}))
        if types is None or any(b2.variables[x] != a.variables[x] for x in matching.values()):
            # matched by type shape, but `Fin n` became `Fin k` under this matching: not an alignment
            res = PairResult(i, j, "different", "", dict(matching), None, "variable types", exact=False)
        else:
            res = _check_aligned(a, b2, mapping, matching, timeout_ms, i, j, cache, bkey)
        if res.equivalent:
            res.seconds = time.perf_counter() - t0
            return res
        if first is None or (first.status != "different" and res.status == "different"):
            first = res
        if res.status != "different":
            break  # a wrong alignment shows as a quick counter-model; a timeout would only repeat
    assert first is not None
    first.seconds = time.perf_counter() - t0
    return first


def _check_aligned(
    a: Statement,
    b: Statement,
    mapping: dict[str, str],
    matching: dict[str, str],
    timeout_ms: int,
    i: int,
    j: int,
    cache: PairCache,
    bkey: tuple,
) -> PairResult:
    akey = (i, ())
    key_a = cache.get(("key", *akey), a.key)
    key_b = cache.get(("key", *bkey), b.key)
    if key_a == key_b:
        return PairResult(i, j, "equivalent", "syntactic", dict(matching))
    # alike up to bound names *and types* (the keys carry type signatures, see Statement.key)
    same_premises = key_a[0] == key_b[0] and key_a[2] == key_b[2]
    same_conclusion = key_a[1] == key_b[1] and key_a[3] == key_b[3]
    matched_b = set(matching.values())
    only_a = [n for n in a.variables if n not in matched_b]
    only_b = [mapping[n] for n in mapping if n not in matching]
    shown = list(a.variables) + only_b
    tr = Translator(a.system)
    try:
        pa, pb = _premises(tr, cache, a, akey), _premises(tr, cache, b, bkey)
        ca, cb = _conclusion(tr, cache, a, akey), _conclusion(tr, cache, b, bkey)
        prem_formula = None
        if not same_premises:
            lhs = (
                tr.cached_prop(
                    cache,
                    ("proj", *akey, tuple(only_a)),
                    lambda: _project(ir.conj(a.premises), a, only_a),
                    commutative_sorts(a.premises),
                )
                if only_a
                else pa
            )
            rhs = (
                tr.cached_prop(
                    cache,
                    ("proj", *bkey, tuple(only_b)),
                    lambda: _project(ir.conj(b.premises), b, only_b),
                    commutative_sorts(b.premises),
                )
                if only_b
                else pb
            )
            prem_formula = lhs == rhs
    except (Untranslatable, RecursionError) as err:
        return PairResult(i, j, "unknown", "z3", dict(matching), detail=f"untranslatable: {err}")
    import z3

    def check(formula) -> Verdict:
        return _timed(cache, tr, formula, timeout_ms, (i, j), shown)

    if prem_formula is not None:
        v = check(prem_formula)
        if v.status != "valid":
            # a hypothesis moved into the conclusion changes the number of premises: only then compare whole
            if len(a.premises) != len(b.premises) and _whole_statements_agree(
                tr, a, b, only_a, only_b, timeout_ms, cache, (akey, bkey)
            ):
                return PairResult(i, j, "equivalent", "z3", dict(matching))
            return _failure(v, "premises", i, j, matching)
    if not same_conclusion:
        v = check(z3.Implies(z3.And(pa, pb), ca == cb))
        if v.status != "valid":
            return _failure(v, "conclusions", i, j, matching)
    return PairResult(i, j, "equivalent", "z3", dict(matching))


def _whole_statements_agree(
    tr: Translator,
    a: Statement,
    b: Statement,
    only_a: list[str],
    only_b: list[str],
    timeout_ms: int,
    cache: PairCache,
    keys: tuple[tuple, tuple],
) -> bool:
    """(∀ Y_A. P_A → C_A) ↔ (∀ Y_B. P_B → C_B) for all aligned variables: the statements agree although
    their premises differ (`(h : P) : False` and `: ¬ P`, a hypothesis written into the conclusion).
    keys: the two statements' cache keys (candidate index, renaming); the index keys their refutability.

    Two statements that hold for all aligned values agree trivially, and so do two that fail for all of them
    (two false closed statements, say): with different premises that is not the same meaning. So the agreement
    counts only where it holds under some values and interpretations of the uninterpreted symbols and fails
    under others."""

    def closed(st: Statement, names: list[str]) -> Term:
        body = App("implies", (ir.conj(st.premises), st.conclusion), ir.BOOL)
        vs = tuple((n, st.variables[n]) for n in names if n in st.variables)
        return Bind("forall", vs, body, None, ir.BOOL) if vs else body

    if any(isinstance(st.variables.get(n), ir.Fun) for st, ns in ((a, only_a), (b, only_b)) for n in ns):
        return False  # a function variable cannot be quantified in first-order logic
    idx = (keys[0][0], keys[1][0])
    # Refutable for some aligned values iff P → C is refutable (renaming keeps it): decided once per candidate.
    if any(_refutable(st, cache, key, timeout_ms).status != "invalid" for st, key in zip((a, b), keys)):
        return False
    try:
        fa = tr.cached_prop(
            cache, ("closed", *keys[0], tuple(only_a)), lambda: closed(a, only_a), commutative_sorts(a.premises)
        )
        fb = tr.cached_prop(
            cache, ("closed", *keys[1], tuple(only_b)), lambda: closed(b, only_b), commutative_sorts(b.premises)
        )
    except (Untranslatable, RecursionError):
        return False
    import z3

    # A counter-model that relies on an uninterpreted function may be spurious; the other statement's side
    # conditions may rule it out: then ask again, as one problem in the shared vocabulary.
    for st, f, key in ((a, fa, keys[0]), (b, fb, keys[1])):
        if (
            not _refutable(st, cache, key, timeout_ms).exact
            and _timed(cache, tr, f, min(timeout_ms, 200), idx).status != "invalid"
        ):
            return False
    if _timed(cache, tr, fa == fb, timeout_ms, idx).status != "valid":
        return False
    return _timed(cache, tr, z3.Not(fa), min(timeout_ms, 200), idx).status == "invalid"  # it holds somewhere


def _refutable(st: Statement, cache: PairCache, key: tuple, timeout_ms: int) -> Verdict:
    """Whether st's premises ⟹ conclusion has a counter-model, on its own; st is the candidate key[0] under the
    renaming key[1:], and the verdict, which no renaming changes, is cached per candidate."""

    def decide() -> Verdict:
        import z3

        tr = Translator(st.system)
        try:
            prem, concl = _premises(tr, cache, st, key), _conclusion(tr, cache, st, key)
        except (Untranslatable, RecursionError) as err:
            return Verdict("unknown", reason=str(err))
        return _timed(cache, tr, z3.Implies(prem, concl), min(timeout_ms, 200), (key[0],))

    return cache.get(("refutable", key[0], cache.first_pass), decide)


def _timed(
    cache: PairCache,
    tr: Translator,
    formula,
    timeout_ms: int,
    candidates: tuple[int, ...],
    shown: list[str] | None = None,
) -> Verdict:
    """`check_valid` at the timeout the problem's budget allows for these candidates (see PairCache)."""
    budget = cache.timeout_ms(timeout_ms, candidates)
    v = cache.solve(tr, formula, budget, shown or [])
    if budget == timeout_ms:
        cache.spent(v.work_ms / 1000)  # Z3's work, not the clock: the same on any machine (see smt.RLIMIT_PER_MS)
        if v.status == "unknown":
            cache.undecided_query(candidates)
    elif v.status == "unknown":
        cache.cut_short += 1
    return v


def _failure(v, where: str, i: int, j: int, matching: dict[str, str]) -> PairResult:
    if v.status == "invalid":
        return PairResult(i, j, "different", "z3", dict(matching), v.model or {}, where, v.exact)
    return PairResult(i, j, "unknown", "z3", dict(matching), detail=f"{where}: {v.reason or 'timeout'}")


# ----------------------------------------------------------------------------------------------- classes


class UnionFind:
    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: int, b: int) -> bool:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self.parent[max(ra, rb)] = min(ra, rb)
        return True

    def classes(self) -> list[list[int]]:
        groups: dict[int, list[int]] = {}
        for x in range(len(self.parent)):
            groups.setdefault(self.find(x), []).append(x)
        return sorted(groups.values(), key=lambda g: (-len(g), g[0]))


@dataclass
class SymEqResult:
    """classes: lists of candidate indices, largest first; scores[i] = |class of i| / k.

    vacuous[i]: candidate i's premises are proven contradictory (it joins no class); one that the quick check
    at reading left open is decided only when the candidate is about to join a class, else it stays False.
    statements[i] is None when candidate i could not be parsed (errors[i] says why); pairs holds every
    pair verdict in the order checked; budget_exhausted: the problem's time budget ran out (the pairs
    not decided by then count as not equivalent).
    """

    classes: list[list[int]]
    scores: list[float]
    statements: list[Statement | None]
    errors: list[str | None]
    pairs: list[PairResult]
    seconds: float = 0.0
    vacuous: list[bool] = field(default_factory=list)
    budget_exhausted: bool = False

    def class_of(self, i: int) -> list[int]:
        return next(c for c in self.classes if i in c)

    def counterexample(self, i: int, j: int) -> PairResult | None:
        for p in self.pairs:
            if {p.i, p.j} == {i, j}:
                return p
        return None

    @property
    def parsed(self) -> int:
        return sum(s is not None for s in self.statements)


Event = tuple  # see SymEq.events


@dataclass
class Resume:
    """What an earlier, killed run of `SymEq.events` decided: candidates that failed (index -> reason),
    candidates read (index -> (statement, error, vacuous)), and pairs with a verdict ((i, j) -> status)."""

    failed: dict[int, str] = field(default_factory=dict)
    pairs: dict[tuple[int, int], str] = field(default_factory=dict)
    read: dict[int, tuple[Statement | None, str | None, bool]] = field(default_factory=dict)


class ClusterBuilder:
    """Folds `SymEq.events` into a SymEqResult (also across a killed run and its resumption)."""

    def __init__(self, k: int):
        self.k = k
        self.statements: list[Statement | None] = [None] * k
        self.errors: list[str | None] = [None] * k
        self.vacuous = [False] * k
        self.seen: set[int] = set()
        self.pairs: list[PairResult] = []
        self.uf = UnionFind(k)
        self.resume = Resume()

    def add(self, event: Event) -> None:
        if event[0] == "parsed":
            _, i, st, err, vac = event
            if i not in self.seen:
                self.seen.add(i)
                self.statements[i], self.errors[i], self.vacuous[i] = st, err, vac is True
                if st is not None:  # a resumed run does not read it again
                    self.resume.read[i] = (st, err, vac)
        elif event[0] == "vacuous":  # a vacuity left open when the candidate was read, decided since
            _, i, vac = event
            self.vacuous[i] = vac
            if i in self.resume.read:
                self.resume.read[i] = (*self.resume.read[i][:2], vac)
        elif event[0] == "pair":
            self.record(event[1])

    def record(self, res: PairResult) -> None:
        if (res.i, res.j) in self.resume.pairs:
            return
        self.pairs.append(res)
        self.resume.pairs[(res.i, res.j)] = res.status
        if res.equivalent:
            self.uf.union(res.i, res.j)

    def fail_candidate(self, i: int, reason: str) -> None:
        self.resume.failed[i] = reason
        self.seen.add(i)
        self.statements[i], self.errors[i] = None, reason

    def result(self, seconds: float, budget_exhausted: bool = False) -> SymEqResult:
        for i in range(self.k):
            if i not in self.seen:
                self.errors[i] = self.errors[i] or "not read: the problem's time budget ran out"
        classes = self.uf.classes()
        size = {x: len(c) for c in classes for x in c}
        scores = [size[i] / self.k for i in range(self.k)] if self.k else []
        return SymEqResult(
            classes,
            scores,
            self.statements,
            self.errors,
            self.pairs,
            seconds,
            vacuous=self.vacuous,
            budget_exhausted=budget_exhausted,
        )


def fresh_z3_context() -> None:
    """Start a Z3 context of its own (z3py's default context is a module global, created on first use).
    Z3's search depends on the terms its context built before (term ids order its choices), so a problem's
    verdicts depended on which problems the same process had decided before it: in a pool, on which worker
    it landed (`eval/symeq_rlimit_dev.py` runs the dev set a second time in reverse order). Terms of an
    earlier problem must not be used afterwards (nothing keeps any: the PairCache is the problem's own)."""
    import z3

    z3.z3._main_ctx = None


def _premise_key(key: tuple) -> tuple:
    """From a statement's `Statement.key`, its premises up to bound names with their variables' types (what its
    vacuity depends on)."""
    return key[0], key[2]


def _normalize_text(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


class SymEq:
    """Symbolic equivalence of candidate statements.

    language: "lean" or "isabelle".
    timeout_ms, top_k: override the config's Z3 timeout per query and alignments per pair.
    lean: an optional `LeanEquivalence` backend, asked when Z3 cannot decide a pair.
    config: the settings (`SymEqConfig`). `cluster` runs here, unbounded; `atf.symeq.pool.SymEqPool` runs
        the same steps in worker processes under the config's hard time budgets.
    """

    def __init__(
        self,
        language: str = "lean",
        timeout_ms: int | None = None,
        top_k: int | None = None,
        lean=None,
        config: SymEqConfig | None = None,
    ):
        if language not in ("lean", "isabelle"):
            raise ValueError(f"language must be 'lean' or 'isabelle', got {language!r}")
        config = config or SymEqConfig()
        self.language = language
        self.timeout_ms = timeout_ms or config.timeout_ms
        self.top_k = top_k or config.top_k
        self.solver_budget_s = config.solver_budget_s
        self.rlimit_per_ms = config.rlimit_per_ms
        self.clock_retry_s = config.clock_retry_s
        self.lean = lean

    def parse(self, text: str, qualified: Iterable[str] = ()) -> Statement:
        return parse(text, self.language, qualified)

    def compare(self, a: str, b: str, i: int = 0, j: int = 1) -> PairResult:
        """The verdict on two candidate texts."""
        try:
            names = peer_names([a, b], self.language)
            sa, sb = self.parse(a, names), self.parse(b, names)
        except (ParseError, RecursionError, ValueError) as err:
            if _normalize_text(a) == _normalize_text(b):
                return PairResult(i, j, "equivalent", "string")
            return PairResult(i, j, "unparsed", detail=str(err))
        fresh_z3_context()  # (the verdict must not depend on the pairs compared before)
        return self.compare_statements(sa, sb, a, b, i, j)

    def cluster(self, candidates: list[str]) -> SymEqResult:
        """Equivalence classes of the candidates (union-find, transitivity-implied pairs skipped), in this
        process and unbounded: `atf.symeq.pool.SymEqPool` runs the same steps under a hard time bound."""
        t0 = time.perf_counter()
        acc = ClusterBuilder(len(candidates))
        for event in self.events(candidates):
            acc.add(event)
        return acc.result(time.perf_counter() - t0)

    def events(
        self, candidates: list[str], skip: Resume | None = None, on_retry: Callable[[float], None] | None = None
    ) -> Iterator[Event]:
        """The steps of `cluster`, one event each: ("begin", kind, i, j) before a step that may take long,
        then ("parsed", i, statement, error, vacuous) or ("pair", PairResult), and ("vacuous", i, bool) when
        a vacuity left open (None) at reading is decided. `skip` carries what a killed earlier run already
        decided, so a resumed run does not repeat (or hang on) it. `on_retry(seconds)` is called inside a step
        before a query is asked again with a longer wall-clock backstop (`PairCache.solve`), with that retry's
        allowance: the pool adds it to the step's deadline."""
        skip = skip or Resume()
        k = len(candidates)
        fresh_z3_context()
        cache = PairCache(self.solver_budget_s, self.rlimit_per_ms, self.clock_retry_s, on_retry)
        statements: list[Statement | None] = []
        vacuous: list[bool | None] = []  # None: not decided yet (it is, at the full timeout, before a merge)
        qualified = peer_names(candidates, self.language)
        st_keys: list[tuple | None] = []  # each statement's alpha key (Statement.key), computed once
        # Vacuity depends on the premises alone: candidates with alpha-equal premises share one check.
        same_premises: dict[tuple, list[int]] = {}
        for idx, text in enumerate(candidates):
            st, err, vac = skip.read.get(idx, (None, skip.failed.get(idx), False))
            fresh = err is None and st is None
            if fresh:
                yield ("begin", "parse", idx, idx)
                st, err = self._parse_one(text, qualified)
            key = st.key() if st is not None else None
            st_keys.append(key)
            if key is not None:
                peers = same_premises.setdefault(_premise_key(key), [])
                if fresh:
                    vac = vacuous[peers[0]] if peers else self.is_vacuous(st, cache, idx, quick=True)
                peers.append(idx)
            statements.append(st)
            vacuous.append(vac)
            yield ("parsed", idx, st, err, vac)

        def settle(*idxs: int) -> Iterator[Event]:
            for x in idxs:
                if vacuous[x] is None:
                    verdict = self.is_vacuous(statements[x], cache, x)
                    for y in same_premises[_premise_key(st_keys[x])]:
                        if vacuous[y] is None:
                            vacuous[y] = verdict
                            yield ("vacuous", y, verdict)

        uf = UnionFind(k)
        keys: dict[tuple, int] = {}
        texts: dict[str, int] = {}
        # Identical texts and standard forms join for free, a contradictory statement too: it is one statement
        # written twice (a sample agreeing with another). Only the solver is never asked about a contradictory
        # candidate, since any two of them are equivalent as propositions (both true) whatever they say.
        for idx, key in enumerate(st_keys):
            norm = _normalize_text(candidates[idx])
            if norm in texts:
                uf.union(texts[norm], idx)
                yield ("pair", PairResult(texts[norm], idx, "equivalent", "string"))
                continue
            texts[norm] = idx
            if key is None:
                continue
            if key in keys:
                uf.union(keys[key], idx)
                yield ("pair", PairResult(keys[key], idx, "equivalent", "syntactic"))
            else:
                keys[key] = idx
        for (i, j), status in skip.pairs.items():
            if status == "equivalent":
                uf.union(i, j)
        # Quick pass: every pair with a tenth of the timeout. A pair it leaves open waits for the second pass.
        cache.first_pass = True
        waiting: list[PairResult] = []
        for j in range(k):
            for i in range(j):
                if uf.find(i) == uf.find(j) or (i, j) in skip.pairs:
                    continue
                if statements[i] is None or statements[j] is None or vacuous[i] or vacuous[j]:
                    continue
                if statements[i].system != statements[j].system:
                    continue
                yield ("begin", "pair", i, j)
                cut = cache.cut_short
                res = self._decide(statements, candidates, i, j, cache)
                if not res.equivalent and cache.cut_short > cut:
                    waiting.append(res)
                    continue
                res = self._ask_lean(res, candidates) if not res.equivalent else res
                if res.equivalent:
                    yield from settle(i, j)
                    if vacuous[i] or vacuous[j]:
                        continue  # such a candidate's pairs are not compared
                    uf.union(i, j)
                yield ("pair", res)
        # Second pass: the open pairs at the full timeout, while the budget lasts and they are not joined.
        cache.first_pass = False
        for quick in waiting:
            i, j = quick.i, quick.j
            if uf.find(i) == uf.find(j) or vacuous[i] or vacuous[j]:
                continue
            res = quick
            if cache.full_allowed((i, j)):
                yield ("begin", "pair", i, j)
                res = replace(self._decide(statements, candidates, i, j, cache), second_pass=True)
            res = self._ask_lean(res, candidates) if not res.equivalent else res
            if res.equivalent:
                yield from settle(i, j)
                if vacuous[i] or vacuous[j]:
                    continue
                uf.union(i, j)
            yield ("pair", res)

    def _decide(
        self, statements: list[Statement | None], candidates: list[str], i: int, j: int, cache: PairCache
    ) -> PairResult:
        """Z3's verdict on one pair (Lean is asked by the caller, once the verdict is final)."""
        try:
            return self.compare_statements(
                statements[i], statements[j], candidates[i], candidates[j], i, j, cache, False
            )
        except Exception as err:  # noqa: BLE001 - counts as undecided, like a timeout
            log.warning("internal error comparing #%d and #%d: %r", i, j, err)
            return PairResult(i, j, "unknown", detail=f"internal error: {err!r}")

    def _parse_one(self, text: str, qualified: Iterable[str] = ()) -> tuple[Statement | None, str | None]:
        try:
            return self.parse(text, qualified), None
        except (ParseError, RecursionError, ValueError) as err:
            return None, str(err) or type(err).__name__
        except Exception as err:  # noqa: BLE001 - one odd candidate must not sink the other k - 1
            log.warning("internal error reading a candidate: %r", err)
            return None, f"internal error: {err!r}"

    def is_vacuous(
        self, st: Statement, cache: PairCache | None = None, idx: int = 0, quick: bool = False
    ) -> bool | None:
        """Premises Z3 proves contradictory: such a statement says nothing and joins no class. When Z3 cannot
        decide that, the answer is False, and candidate `idx` is hard for Z3 in `cache` (see PairCache).
        quick: a fifth of the timeout, and None when that does not decide it (the candidate is not hard then).
        The full check is rationed like the pairs' queries: its time comes out of the problem's solver budget,
        and once that is spent (or the candidate is hard) the answer is False without asking (a contradiction
        among premises is usually found at once, and one the quick check misses the full one rarely finds)."""
        if not st.premises:
            return False
        import z3

        timeout_ms = min(self.timeout_ms, 150)  # a contradiction among premises is usually found at once
        if not quick and cache is not None and not cache.full_allowed((idx,)):
            return False
        tr = Translator(st.system)
        # without the problem's cache, the counter-models and the retry allowance are this check's alone
        cache = cache or PairCache(self.solver_budget_s, self.rlimit_per_ms, self.clock_retry_s)
        try:
            prem = _premises(tr, cache, st, (idx, ()))
            at = max(10, timeout_ms // 5) if quick else timeout_ms
            # the problem's counter-models: a point that satisfies the premises says no at once
            verdict = cache.solve(tr, z3.Not(prem), at, [])
        except Exception as err:  # noqa: BLE001 - undecided: not vacuous
            log.warning("vacuity check failed: %r", err)
            return False
        status = verdict.status
        if status == "unknown" and quick:
            return None  # (a fifth of the timeout says too little to call it hard)
        if not quick:
            cache.spent(verdict.work_ms / 1000)
        if status == "unknown":
            cache.undecided_query((idx,), weight=cache.HARD_AFTER)
        return status == "valid"

    def compare_statements(
        self,
        sa: Statement,
        sb: Statement,
        ta: str,
        tb: str,
        i: int,
        j: int,
        cache: PairCache | None = None,
        ask_lean: bool = True,
    ) -> PairResult:
        """The verdict on two read candidates (ta, tb: their texts, for Lean; ask_lean=False: Z3's alone)."""
        res = equivalence(sa, sb, timeout_ms=self.timeout_ms, top_k=self.top_k, i=i, j=j, cache=cache)
        return self._ask_lean(res, [ta, tb], (0, 1)) if ask_lean and not res.equivalent else res

    def _ask_lean(self, res: PairResult, texts: list[str], where: tuple[int, int] | None = None) -> PairResult:
        """Z3 left the pair open (or refuted it only through uninterpreted functions): ask Lean, if it is here.
        texts[where] are the two candidates' texts (default: indexed by the pair's own indices)."""
        if self.lean is None or not self.lean.available or (res.status == "different" and res.exact):
            return res
        a, b = where or (res.i, res.j)
        lean_res = self.lean.check(texts[a], texts[b], res.alignment or None)
        if lean_res.status == "equivalent":
            return PairResult(res.i, res.j, "equivalent", "lean", res.alignment, seconds=res.seconds + lean_res.seconds)
        return res


def truth(st: Statement, timeout_ms: int = 1000) -> str:
    """Whether the statement holds: "valid" (Z3 proves premises ⟹ conclusion), "invalid" (a
    counter-model exists) or "unknown"."""
    import z3

    tr = Translator(st.system, comm_sorts=commutative_sorts(st.premises))
    formula = z3.Implies(tr.prop(ir.conj(st.premises)), tr.prop(st.conclusion))
    return check_valid(tr, formula, timeout_ms, list(st.variables)).status
