"""Equivalence of two Lean 4 statements proved in Lean itself, when a Lean REPL is configured.

The goal mirrors the Z3 check (see `atf.symeq.equivalence`): with B's variables renamed by the alignment,

    theorem atf_symeq_goal <A's binders> <B's unmatched variable binders> :
        ((∃ a-only vars, P_A) ↔ (∃ b-only vars, P_B)) ∧ (P_A → P_B → (C_A ↔ C_B)) := by sorry

is sent once (in the environment of `import Mathlib`), and each tactic of `tactics` is tried on the
`sorry`'s proof state in tactic mode. A tactic that leaves no goal and no error proves the pair
equivalent. Without a REPL the backend reports "unavailable" and the caller skips it.

`repl` is anything with `send(request: dict, timeout_s: float) -> dict` speaking the
leanprover-community/repl JSON protocol (`atf.lean.repl.LeanRepl` does).
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from typing import Protocol

from atf.symeq import lean_frontend as lean_fe

log = logging.getLogger(__name__)

DEFAULT_HEADER = "import Mathlib\nopen Real Nat Topology BigOperators"
DEFAULT_TACTICS = (
    "tauto",
    "simp_all",
    "constructor <;> intros <;> simp_all",
    "aesop",
    "constructor <;> (try constructor) <;> intros <;> omega",
    "constructor <;> (try constructor) <;> intros <;> (try simp_all) <;> linarith",
    "constructor <;> (try constructor) <;> intros <;> (try simp_all) <;> nlinarith",
    "norm_num at *",
)


class ReplLike(Protocol):
    def send(self, request: dict, timeout_s: float) -> dict: ...


@dataclass
class LeanParts:
    """A Lean statement cut into binder texts (variables, hypotheses, instances) and its conclusion."""

    variables: list[tuple[list[str], str]]  # (names, type text)
    hypotheses: list[str]
    instances: list[str]
    conclusion: str
    context: str = ""  # the declarations before the theorem (`LeanStatement.context`)


@dataclass
class LeanVerdict:
    """status: "equivalent" | "unknown" | "unavailable" | "error" (the goal did not elaborate)."""

    status: str
    tactic: str | None = None
    goal: str = ""
    messages: list[str] = field(default_factory=list)
    seconds: float = 0.0


_IDENT_RE = re.compile(lean_fe._IDENT)


def split_parts(text: str) -> LeanParts:
    """Binders and conclusion of the last theorem/lemma/example, as source text (read by `atf.lean`'s
    statement reader, as the front-end does)."""
    st = lean_fe.read_statement(text)
    variables, hyps, insts = [], [], []
    binders = [*st.included_variables(), *st.binders]
    for binder, (kind, names, ty) in zip(binders, lean_fe.binder_roles(st, section_variables=True)):
        if binder.is_instance:
            insts.append(lean_fe.strip_comments(binder.text[1:-1]).strip())
        elif kind == "vars":
            variables.append((names, "_"))
        elif kind == "hyp":
            hyps.append(ty)
        else:
            variables.append((names, ty))
    return LeanParts(variables, hyps, insts, lean_fe.strip_comments(st.conclusion).strip(), st.context())


def rename_idents(text: str, mapping: dict[str, str]) -> str:
    if not mapping:
        return text
    return _IDENT_RE.sub(lambda m: mapping.get(m.group(0), m.group(0)), text)


def _conj(props: list[str]) -> str:
    return " ∧ ".join(f"({p})" for p in props) if props else "True"


def build_goal(a: str, b: str, alignment: dict[str, str] | None = None, name: str = "atf_symeq_goal") -> str:
    """The equivalence goal for statements a and b (B's variables renamed by `alignment`, B -> A)."""
    pa, pb = split_parts(a), split_parts(b)
    if pa.context != pb.context:
        raise ValueError("the statements declare different things before the theorem (`def`, `notation`, ...)")
    a_names = {n for names, _ in pa.variables for n in names}
    b_names = [n for names, _ in pb.variables for n in names]
    mapping = dict(alignment or {})
    if alignment is None:  # same names align
        mapping = {n: n for n in b_names if n in a_names}
    taken = set(a_names) | set(mapping.values())
    for n in b_names:
        if n not in mapping:
            new = n if n not in taken else n + "'"
            while new in taken:
                new += "'"
            mapping[n] = new
            taken.add(new)
    matched = {mapping[n] for n in b_names if mapping[n] in a_names}
    binders = [f"({' '.join(names)} : {ty})" for names, ty in pa.variables]
    binders += [f"[{i}]" for i in pa.instances]
    hyp_a = _conj(pa.hypotheses)
    hyp_b = _conj([rename_idents(h, mapping) for h in pb.hypotheses])
    in_a, in_b = set(_IDENT_RE.findall(hyp_a)), set(_IDENT_RE.findall(hyp_b))
    b_only: list[str] = []
    for names, ty in pb.variables:
        extra = [mapping[n] for n in names if mapping[n] not in a_names]
        if extra:
            binders.append(f"({' '.join(extra)} : {rename_idents(ty, mapping)})")
            used = [n for n in extra if n in in_b]
            if used:  # only variables the hypotheses mention are projected away
                b_only.append(f"({' '.join(used)} : {rename_idents(ty, mapping)})")
    binders += [f"[{rename_idents(i, mapping)}]" for i in pb.instances if rename_idents(i, mapping) not in pa.instances]
    a_only = []
    for names, ty in pa.variables:
        used = [n for n in names if n not in matched and n in in_a]
        if used and not ty.startswith(("Type", "Sort")):
            a_only.append(f"({' '.join(used)} : {ty})")
    concl_b = rename_idents(pb.conclusion, mapping)
    lhs = f"(∃ {' '.join(a_only)}, {hyp_a})" if a_only else f"({hyp_a})"
    rhs = f"(∃ {' '.join(b_only)}, {hyp_b})" if b_only else f"({hyp_b})"
    body = f"({lhs} ↔ {rhs}) ∧ (({hyp_a}) → ({hyp_b}) → (({pa.conclusion}) ↔ ({concl_b})))"
    context = f"{pa.context}\n\n" if pa.context else ""
    return f"{context}theorem {name} {' '.join(binders)} :\n    {body} := by sorry"


def _errors(resp: dict) -> list[str]:
    return [m.get("data", "") for m in resp.get("messages", []) or [] if m.get("severity") == "error"]


def tactic_succeeded(resp: dict) -> bool:
    """A tactic-mode answer that closes the goal: no goals left, no error, no sorry."""
    if "message" in resp and "proofState" not in resp:
        return False
    if _errors(resp):
        return False
    status = resp.get("proofStatus")
    if status is not None and status != "Completed":
        return False
    return resp.get("goals") == []


def default_repl() -> ReplLike | None:
    """The REPL atf.lean would use (ATF_LEAN_REPL, or an install under ~/.cache/atf/lean), or None."""
    try:
        from atf.lean.checker import find_repl
        from atf.lean.repl import LeanRepl
    except ImportError:
        return None
    try:
        found = find_repl()
    except Exception as err:  # noqa: BLE001 - a broken install must not break reranking
        log.debug("no Lean REPL: %s", err)
        return None
    if not found:
        return None
    argv, cwd = found
    return LeanRepl(argv, cwd)


class LeanEquivalence:
    """Tactic-based equivalence in Lean.

    repl: a REPL (see module doc); "auto" finds the one atf.lean uses; None disables the backend.
    header: imports/opens the goal is elaborated in.
    tactics: tried in order on the goal.
    timeout_s: per REPL request.
    """

    def __init__(
        self,
        repl: ReplLike | str | None = "auto",
        header: str = DEFAULT_HEADER,
        tactics: tuple[str, ...] = DEFAULT_TACTICS,
        timeout_s: float = 60.0,
    ):
        self.repl = default_repl() if repl == "auto" else repl
        self.header = header
        self.tactics = tactics
        self.timeout_s = timeout_s
        self._env: int | None = None

    @property
    def available(self) -> bool:
        return self.repl is not None

    def _header_env(self) -> int | None:
        if self._env is None:
            resp = self.repl.send({"cmd": self.header}, self.timeout_s)
            if _errors(resp) or "env" not in resp:
                raise RuntimeError("Lean could not load the header: " + "; ".join(_errors(resp) or [str(resp)]))
            self._env = int(resp["env"])
        return self._env

    def check(self, a: str, b: str, alignment: dict[str, str] | None = None) -> LeanVerdict:
        if not self.available:
            return LeanVerdict("unavailable")
        t0 = time.perf_counter()
        try:
            goal = build_goal(a, b, alignment)
        except ValueError as err:
            return LeanVerdict("error", messages=[str(err)])
        try:
            env = self._header_env()
            resp = self.repl.send({"cmd": goal, "env": env}, self.timeout_s)
        except Exception as err:  # noqa: BLE001 - REPL failures (timeout, crash) are an unknown verdict
            return LeanVerdict("unknown", goal=goal, messages=[str(err)], seconds=time.perf_counter() - t0)
        errs = _errors(resp)
        sorries = resp.get("sorries") or []
        if errs or not sorries:
            return LeanVerdict(
                "error", goal=goal, messages=errs or ["no proof state returned"], seconds=time.perf_counter() - t0
            )
        state = sorries[0]["proofState"]
        messages: list[str] = []
        for tac in self.tactics:
            try:
                r = self.repl.send({"tactic": tac, "proofState": state}, self.timeout_s)
            except Exception as err:  # noqa: BLE001
                messages.append(f"{tac}: {err}")
                continue
            if tactic_succeeded(r):
                return LeanVerdict("equivalent", tac, goal, messages, time.perf_counter() - t0)
            messages.append(f"{tac}: " + ("; ".join(_errors(r)) or f"goals left: {len(r.get('goals') or [])}"))
        return LeanVerdict("unknown", None, goal, messages, time.perf_counter() - t0)
