"""The syntax check the formalizer calls: pre-checks, then Lean (when one is configured).

    checker = SyntaxChecker()                 # finds Lean via ATF_LEAN_REPL / ATF_LEAN_HOME, else pre-checks only
    result = checker.check("import Mathlib\\n\\ntheorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := by sorry")
    result.ok, result.checked_by, result.errors, result.feedback()

How Lean is found (first that applies):
  1. `repl_command` (and `project_dir`) given to the constructor;
  2. `$ATF_LEAN_REPL`: the REPL command line, run in `$ATF_LEAN_PROJECT` (the Mathlib project);
  3. `tools/install_lean.sh`'s layout under `$ATF_LEAN_HOME` (default ~/.cache/atf/lean): `lake env
     repl/.lake/build/bin/repl`, run in `project/`.
Without one, results say checked_by="precheck" and their feedback says that Lean was not run.
Every REPL runs in a bubblewrap sandbox (atf.lean.sandbox) unless `sandbox="none"` is asked for.
"""

from __future__ import annotations

import logging
import os
import shlex
import shutil
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from atf.lean.batch import GroupChecker, Verdict, prepare
from atf.lean.pool import Job, ReplPool
from atf.lean.precheck import run_precheck
from atf.lean.repl import LeanRepl, LeanUnavailable, ReplStats
from atf.lean.sandbox import SandboxConfig, SandboxUnavailable, probe

log = logging.getLogger(__name__)

MAX_SHOWN_ERRORS = 8
MAX_MESSAGE_CHARS = 1200


@dataclass
class Diagnostic:
    """One problem, positioned in the statement's own text (line from 1, column from 0, as Lean)."""

    severity: str
    message: str
    line: int = 0
    col: int = 0
    end_line: int | None = None
    end_col: int | None = None

    def __str__(self) -> str:
        return f"{self.line}:{self.col}: {self.message}" if self.line else self.message

    def to_dict(self) -> dict:
        return dict(vars(self))


@dataclass
class SyntaxResult:
    """The verdict on one statement.

    ok: it passed (Lean compiled it, or, with checked_by="precheck" and no Lean, the pre-checks passed).
    checked_by: "lean" when Lean ran on it, "precheck" when only the pre-checks did.
    errors / warnings: "line:col: message" strings; `diagnostics` has them structured.
    goals: Lean's goal at each `sorry` (how Lean reads the statement).
    failure: None, or why it failed: "precheck", "lean" (Lean reported errors), "timeout", "memory",
        "crash", "protocol" (the REPL gave no valid answer, even after a restart), "header" (the imports
        did not load), "budget" (a server's per-request pre-check budget ran out before this statement).
    note: for precheck-only results, why Lean was not run.
    """

    statement: str
    ok: bool
    checked_by: str
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    goals: list[str] = field(default_factory=list)
    failure: str | None = None
    note: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list, repr=False)

    def to_dict(self) -> dict:
        out = {k: v for k, v in vars(self).items() if k != "diagnostics"}
        out["diagnostics"] = [d.to_dict() for d in self.diagnostics]
        out["feedback"] = self.feedback()
        return out

    def feedback(self) -> str:
        """The tool result the formalizer reads."""
        lines: list[str] = []
        if self.ok and self.checked_by == "lean":
            lines.append("Syntax check passed: Lean 4 compiled the statement (with `sorry` as its proof).")
            if self.goals:
                lines.append("Lean reads the goal as:")
                lines.extend("  " + g.replace("\n", "\n  ") for g in self.goals[-1:])
        elif self.ok:
            lines.append(
                "Pre-checks passed (header, brackets, comments and strings, `sorry` body, no commands "
                "that run code), but Lean was not run"
                + (f" ({self.note})" if self.note else "")
                + ", so the statement is not known to compile."
            )
        else:
            who = "Lean 4" if self.checked_by == "lean" else "the pre-check (the statement was not sent to Lean)"
            errs = [d for d in self.diagnostics if d.severity == "error"]
            lines.append(f"Syntax check failed: {who} found {len(errs)} error{'s' if len(errs) != 1 else ''}.")
            for d in errs[:MAX_SHOWN_ERRORS]:
                lines.append(self._render(d))
            if len(errs) > MAX_SHOWN_ERRORS:
                lines.append(f"... and {len(errs) - MAX_SHOWN_ERRORS} more")
        warns = [d for d in self.diagnostics if d.severity == "warning"]
        for d in warns[:3]:
            lines.append(self._render(d))
        return "\n".join(lines)

    def _render(self, d: Diagnostic) -> str:
        msg = d.message if len(d.message) <= MAX_MESSAGE_CHARS else d.message[:MAX_MESSAGE_CHARS] + " ..."
        head = f"{d.severity} at line {d.line}, column {d.col}: {msg}" if d.line else f"{d.severity}: {msg}"
        src = self.statement.split("\n")
        if not d.line or d.line > len(src):
            return head
        code = src[d.line - 1]
        width = 1
        if d.end_line == d.line and d.end_col is not None and d.end_col > d.col:
            width = d.end_col - d.col
        elif d.end_line is not None and d.end_line > d.line:
            width = max(1, len(code) - d.col)
        gutter = f"{d.line:>4} | "
        return f"{head}\n{gutter}{code}\n{' ' * (len(gutter) - 2)}| {' ' * d.col}{'^' * min(width, 80)}"


def find_repl(
    repl_command: str | Sequence[str] | None = None, project_dir: str | Path | None = None
) -> tuple[list[str], str | None] | None:
    """(argv, cwd) of a Lean REPL, or None when none is configured or installed."""
    if repl_command:
        argv = shlex.split(repl_command) if isinstance(repl_command, str) else list(repl_command)
        return argv, str(project_dir) if project_dir else os.environ.get("ATF_LEAN_PROJECT")
    env_cmd = os.environ.get("ATF_LEAN_REPL")
    if env_cmd:
        return shlex.split(env_cmd), str(project_dir) if project_dir else os.environ.get("ATF_LEAN_PROJECT")
    home = Path(os.environ.get("ATF_LEAN_HOME", Path.home() / ".cache" / "atf" / "lean"))
    repl_bin = home / "repl" / ".lake" / "build" / "bin" / "repl"
    project = Path(project_dir) if project_dir else home / "project"
    lake = _toolchain_lake(project) or shutil.which("lake") or str(Path.home() / ".elan" / "bin" / "lake")
    if repl_bin.exists() and project.is_dir() and Path(lake).exists():
        return [lake, "env", str(repl_bin)], str(project)
    return None


def _toolchain_lake(project: Path) -> str | None:
    """The `lake` of the project's pinned toolchain, so that the sandboxed REPL starts without elan's proxy
    (elan names `leanprover/lean4:v4.24.0` `leanprover--lean4---v4.24.0`)."""
    try:
        name = (project / "lean-toolchain").read_text().strip()
    except OSError:
        return None
    elan = Path(os.environ.get("ELAN_HOME", Path.home() / ".elan"))
    lake = elan / "toolchains" / name.replace("/", "--").replace(":", "---") / "bin" / "lake"
    return str(lake) if lake.exists() else None


class SyntaxChecker:
    """Pre-checks every statement; compiles those that pass with Lean when a REPL is available.

    repl_command / project_dir: the Lean REPL to use (see the module docstring for the defaults).
    use_lean: False: pre-checks only; True: fail unless a REPL is found; None: use one if found.
    workers: REPL processes run in parallel (each holds its own imported environments in memory;
        a Mathlib REPL needs several GB).
    timeout_s: the most seconds Lean may spend on one statement (and on one grouped command: a group that
        runs longer is checked one by one, so a hung statement costs its group one timeout); group_extra_s:
        extra seconds a group gets per additional statement; header_timeout_s: for loading the imports.
    max_memory_mb: kill a REPL process whose resident memory exceeds this (None: no limit).
    sandbox: how each REPL process is confined: a SandboxConfig, or "bwrap" (the default) / "none"
        (unconfined: only for trusted input). See atf.lean.sandbox.
    max_group_size: most statements compiled in one command.
    max_requests_per_process: restart a REPL after this many requests (it keeps every environment).
    split: how a crashed grouped command is retried: "singles" (default) or "bisect".
    group: False checks every statement in its own command (for comparison and debugging).
    require_header: a statement without `import` lines fails the pre-check; default_header: instead,
        prepend this header (e.g. "import Mathlib") to statements that have none.
    """

    def __init__(
        self,
        repl_command: str | Sequence[str] | None = None,
        project_dir: str | Path | None = None,
        *,
        use_lean: bool | None = None,
        workers: int = 1,
        timeout_s: float = 60.0,
        group_extra_s: float = 0.0,
        header_timeout_s: float = 600.0,
        max_memory_mb: float | None = None,
        sandbox: SandboxConfig | str | None = None,
        max_group_size: int = 32,
        max_requests_per_process: int | None = 1000,
        split: str = "singles",
        group: bool = True,
        require_header: bool = True,
        default_header: str | None = None,
    ):
        if max_group_size < 1:
            raise ValueError("max_group_size must be >= 1")
        if split not in ("bisect", "singles"):
            raise ValueError(f"split must be 'bisect' or 'singles', got {split!r}")
        self.require_header = require_header and default_header is None
        self.default_header = default_header.rstrip("\n") + "\n" if default_header else None
        self.max_group_size = max_group_size
        self.group = group
        found = None if use_lean is False else find_repl(repl_command, project_dir)
        if use_lean and found is None:
            raise LeanUnavailable(
                "no Lean REPL found: pass repl_command=..., set ATF_LEAN_REPL (and ATF_LEAN_PROJECT), "
                "or install one with tools/install_lean.sh"
            )
        self.note = (
            None
            if found
            else (
                "Lean disabled"
                if use_lean is False
                else "no Lean REPL configured: set ATF_LEAN_REPL or run tools/install_lean.sh"
            )
        )
        self.repl_argv, self.repl_cwd = found if found else (None, None)
        self.sandbox = SandboxConfig.parse(sandbox)
        self._pool: ReplPool | None = None
        if found:
            argv, cwd = found
            if shutil.which(argv[0]) is None and not Path(argv[0]).exists():
                raise LeanUnavailable(f"Lean REPL command not found: {argv[0]!r}")
            try:
                probe(self.sandbox)
            except SandboxUnavailable as err:
                raise LeanUnavailable(str(err)) from err
            self._pool = ReplPool(
                make_repl=lambda: LeanRepl(
                    argv,
                    cwd=cwd,
                    max_memory_mb=max_memory_mb,
                    max_requests=max_requests_per_process,
                    sandbox=self.sandbox,
                ),
                size=workers,
                make_checker=lambda repl: GroupChecker(
                    repl,
                    timeout_s=timeout_s,
                    group_extra_s=group_extra_s,
                    header_timeout_s=header_timeout_s,
                    split=split,
                ),
            )

    @property
    def lean_available(self) -> bool:
        return self._pool is not None

    @property
    def workers(self) -> int:
        """REPL processes checking in parallel (0 without Lean)."""
        return self._pool.size if self._pool else 0

    def check(self, statement: str) -> SyntaxResult:
        return self.check_many([statement])[0]

    def check_many(
        self,
        statements: list[str],
        on_result: Callable[[int, SyntaxResult], None] | None = None,
        owners: Sequence[Hashable] | None = None,
    ) -> list[SyntaxResult]:
        """Results in input order; identical statements are checked once.

        on_result(index, result): called (from a worker thread) as soon as each statement's result is known,
        so a server can answer a request whose statements shared a Lean command with a slower one.
        owners: for each statement, who sent it (a server passes the request). Statements of different owners
            never share a Lean command, so a statement that hangs Lean costs a timeout only to its own owner's
            group, and no statement can reach another owner's declarations. None: one owner.
        """
        if owners is not None and len(owners) != len(statements):
            raise ValueError(f"{len(owners)} owners for {len(statements)} statements")
        unique: dict[str, int] = {}
        owner_of: list[Hashable] = []
        for n, s in enumerate(statements):
            if s not in unique:
                unique[s] = len(unique)
                owner_of.append(owners[n] if owners is not None else None)
        texts = list(unique)
        emit = None
        if on_result is not None:
            positions: dict[int, list[int]] = {}
            for n, s in enumerate(statements):
                positions.setdefault(unique[s], []).append(n)

            def emit(i: int, result: SyntaxResult) -> None:
                for n in positions[i]:
                    on_result(n, result)

        results = self._check_unique(texts, emit, owner_of)
        return [results[unique[s]] for s in statements]

    def stats(self) -> ReplStats:
        return self._pool.stats() if self._pool else ReplStats()

    def close(self) -> None:
        if self._pool:
            self._pool.close()

    def __enter__(self) -> SyntaxChecker:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------------------------------------------
    def precheck_many(self, statements: list[str], cpu_budget_s: float | None = None) -> list[SyntaxResult | None]:
        """The pre-check's final verdicts, None where a statement passed and Lean must still compile it.

        cpu_budget_s: CPU seconds (of the calling thread) this call may spend; statements not reached within
        it fail with failure="budget". A server runs this per request before queueing work for Lean.
        """
        import time

        start = time.thread_time()
        out: list[SyntaxResult | None] = []
        for original in statements:
            if cpu_budget_s is not None and time.thread_time() - start > cpu_budget_s:
                msg = f"not checked: the request used up its pre-check budget of {cpu_budget_s:g} CPU seconds"
                out.append(_result(original, False, "precheck", [Diagnostic("error", msg)], failure="budget"))
                continue
            verdict = self._precheck(original)
            out.append(verdict if isinstance(verdict, SyntaxResult) else None)
        return out

    def _precheck(self, original: str) -> SyntaxResult | tuple[object, int]:
        """A final result, or (Prepared, lines prepended) for a statement that goes on to Lean."""
        text, shift = original, 0
        if self.default_header and not _has_import(original):
            text, shift = self.default_header + original, self.default_header.count("\n")
        report = run_precheck(text, require_header=self.require_header)
        warnings = [_diag("warning", p.message, p.line, p.col, shift=shift) for p in report.warnings]
        if not report.ok or report.statement is None:
            diags = [_diag("error", p.message, p.line, p.col, shift=shift) for p in report.errors] + warnings
            return _result(original, False, "precheck", diags, failure="precheck")
        if self._pool is None:
            return _result(original, True, "precheck", warnings, note=self.note)
        return prepare(report.statement), shift

    def _check_unique(self, texts: list[str], emit=None, owners: list[Hashable] | None = None) -> list[SyntaxResult]:
        results: list[SyntaxResult | None] = [None] * len(texts)
        to_lean: list[tuple[int, object, int]] = []  # (index, Prepared, lines prepended)
        for i, original in enumerate(texts):
            verdict = self._precheck(original)
            if isinstance(verdict, SyntaxResult):
                results[i] = verdict
                if emit is not None:
                    emit(i, verdict)
            else:
                to_lean.append((i, *verdict))
        if to_lean:
            self._run_lean(texts, to_lean, results, emit, owners)
        assert all(r is not None for r in results), "a statement got no result"
        return results  # type: ignore[return-value]

    def _run_lean(self, texts, to_lean, results, emit=None, owner_of=None) -> None:
        by_header: dict[tuple, list[tuple[int, object, int]]] = {}
        for entry in to_lean:
            owner = owner_of[entry[0]] if owner_of is not None else None
            by_header.setdefault((entry[1].header, owner), []).append(entry)
        jobs: list[Job] = []
        members: list[list[tuple[int, object, int]]] = []
        for (header, _), entries in by_header.items():
            grouped = [e for e in entries if e[1].alone_reason is None] if self.group else []
            alone = [e for e in entries if e[1].alone_reason is not None] if self.group else entries
            for k in range(0, len(grouped), self.max_group_size):
                chunk = grouped[k : k + self.max_group_size]
                jobs.append(Job(header, [e[1] for e in chunk], group=True))
                members.append(chunk)
            for e in alone:
                jobs.append(Job(header, [e[1]], group=False))
                members.append([e])
        assert self._pool is not None

        def on_verdict(j: int, k: int, verdict: Verdict) -> None:
            i, _, shift = members[j][k]
            results[i] = _from_verdict(texts[i], verdict, shift)
            if emit is not None:
                emit(i, results[i])

        for chunk, verdicts in zip(members, self._pool.run(jobs, on_verdict)):
            for (i, _, shift), verdict in zip(chunk, verdicts):
                if results[i] is None:  # a verdict the checker did not hand over as it went
                    results[i] = _from_verdict(texts[i], verdict, shift)
                    if emit is not None:
                        emit(i, results[i])


def _has_import(text: str) -> bool:
    from atf.lean.lexer import scan

    return any(t.kind == "ident" and t.text == "import" and t.line_start for t in scan(text).tokens)


def _diag(severity, message, line, col, end_line=None, end_col=None, shift=0) -> Diagnostic:
    if line and shift:
        line = max(1, line - shift)
        end_line = max(1, end_line - shift) if end_line else end_line
    return Diagnostic(severity, message, line, col, end_line, end_col)


def _result(statement, ok, checked_by, diags, failure=None, goals=None, note=None) -> SyntaxResult:
    return SyntaxResult(
        statement=statement,
        ok=ok,
        checked_by=checked_by,
        errors=[str(d) for d in diags if d.severity == "error"],
        warnings=[str(d) for d in diags if d.severity == "warning"],
        goals=goals or [],
        failure=failure,
        note=note,
        diagnostics=diags,
    )


def _from_verdict(statement: str, v: Verdict, shift: int) -> SyntaxResult:
    diags = [
        _diag(
            m.severity,
            m.data,
            m.pos.line if m.pos else 0,
            m.pos.column if m.pos else 0,
            m.end_pos.line if m.end_pos else None,
            m.end_pos.column if m.end_pos else None,
            shift,
        )
        for m in v.messages
        if m.severity in ("error", "warning")
    ]
    if v.failure:
        diags.insert(0, Diagnostic("error", v.failure_message or v.failure))
        return _result(statement, False, "lean", diags, failure=v.failure, goals=v.goals)
    ok = not any(d.severity == "error" for d in diags)
    return _result(statement, ok, "lean", diags, failure=None if ok else "lean", goals=v.goals)
