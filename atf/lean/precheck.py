"""Cheap checks run before Lean sees a statement: shape, balance, and security.

Lean code can run arbitrary programs while it is being *elaborated* (before any proof is checked), so
text written by a model must not reach Lean unless it is plainly a statement. The policy:

Admitted
  - a header of `import` lines (first, before anything else);
  - `open` (also `open scoped`, `open ... in`), `namespace`/`section`/`end` (balanced: an `end` must
    close something; sections left open are closed at the end, as Lean does), `variable`, `universe`;
  - `set_option` for options that only change limits, printing or linting (ALLOWED_OPTIONS);
  - declarations: `theorem`/`lemma`/`example`, `def`/`abbrev` (answer placeholders such as
    `abbrev putnam_x_solution : ℝ := sorry` and helper definitions), `structure`/`class`/`inductive`,
    `instance`, `opaque`, `noncomputable`/`private`/`protected`/`partial` modifiers, doc comments;
  - notations (`notation`, `local notation3`, `infix`, ...): they only rewrite syntax into terms;
  - attributes from ALLOWED_ATTRIBUTES (`@[simp]`, `@[mk_iff]`, `attribute [local aesop safe] ...`).
Rejected, because they run or replace compiled code at elaboration time
  - `#eval` and every other `#` command, `run_cmd`/`run_elab`/`run_meta`/`run_tac`, `elab`,
    `elab_rules`, `macro`, `macro_rules`, `syntax`, `declare_syntax_cat`, `initialize`;
  - `unsafe`, `@[extern]`, `@[implemented_by]`, `@[init]`, attributes that register elaborators,
    tactics, simprocs or norm_num/positivity extensions (their code runs inside Lean), aesop `tactic`
    rules, `native_decide` / `decide +native` / `Lean.ofReduceBool` (run compiled code);
  - any reference to `IO`, `EIO`, `BaseIO`, `System.*` or `unsafe*IO` names;
  - `axiom` (it makes every statement provable), `prelude`, `export`.
Shape
  - no unterminated comment or string, balanced brackets ( [ { ⟨ ⦃ ⌊ ⌈ ⟪ ⁅;
  - a last `theorem`/`lemma`/`example` (or `def ... := sorry`), whose body contains `sorry` and whose
    statement does not; only `end` may follow it.
A body with tactics besides `sorry` (CombiBench's `imo_2010_p5` has `by simp; sorry`) is a warning.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from atf.lean.lexer import Problem, Token, bracket_problems, scan
from atf.lean.statement import (
    META_KEYWORDS,
    NOTATION_KEYWORDS,
    Command,
    LeanStatement,
    StatementParseError,
    parse_commands,
    split_commands,
)

MAX_CHARS = 50_000

ALLOWED_COMMANDS = {
    "import", "open", "namespace", "section", "end", "variable", "universe", "set_option", "attribute",
    "theorem", "lemma", "example", "def", "abbrev", "instance", "structure", "class", "inductive", "opaque",
    "irreducible_def", "mutual", "omit", "include", "alias", "deriving",
} | NOTATION_KEYWORDS

ALLOWED_OPTIONS = (
    "maxHeartbeats", "maxRecDepth", "synthInstance.", "maxSynthPendingDepth", "linter.", "pp.", "autoImplicit",
    "relaxedAutoImplicit", "checkBinderAnnotations", "push_neg.", "exponentiation.", "warningAsError",
)

ALLOWED_ATTRIBUTES = {
    "simp", "simps", "ext", "reducible", "irreducible", "semireducible", "inline", "noinline", "macro_inline",
    "specialize", "instance", "default_instance", "mk_iff", "nolint", "deprecated", "class", "elab_as_elim",
    "induction_eliminator", "cases_eliminator", "symm", "refl", "trans", "norm_cast", "push_cast", "coe",
    "gcongr", "mono", "continuity", "measurability", "fun_prop", "to_additive", "match_pattern", "congr",
    "pp_nodot", "nontriviality", "grind", "inherit_doc", "aesop", "expose", "local", "scoped",
}

_CODE_WORDS = {
    "unsafe": "`unsafe` code can do anything while Lean elaborates",
    "implemented_by": "`implemented_by` swaps in compiled code",
    "extern": "`extern` binds compiled foreign code",
    "native_decide": "`native_decide` runs compiled code (and trusts the compiler)",
    "ofReduceBool": "`ofReduceBool` runs compiled code",
    "ofReduceNat": "`ofReduceNat` runs compiled code",
    "run_tac": "`run_tac` runs arbitrary tactic code",
    "export": "`export` is not needed in a statement",
    "prelude": "`prelude` is not allowed: a statement builds on its imports",
    "axiom": "an `axiom` makes every statement provable",
}
_IO_ROOTS = {"IO", "EIO", "BaseIO", "System"}
_IO_NAMES = {"unsafeIO", "unsafeBaseIO", "unsafeEIO", "unsafePerformIO", "runEIO"}
_CODE_HASH = {"#eval", "#exit", "#run", "#reduce", "#guard", "#guard_expr", "#test", "#sample", "#find"}


@dataclass
class PrecheckReport:
    """What `run_precheck` found; `statement` is set when the text parsed."""

    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    statement: LeanStatement | None = None

    @property
    def ok(self) -> bool:
        return not self.errors


def precheck(text: str, require_header: bool = True) -> list[str]:
    """Problems that stop `text` from being sent to Lean, as "line:col: message"; empty when it passes."""
    return [str(p) for p in run_precheck(text, require_header).errors]


def run_precheck(text: str, require_header: bool = True) -> PrecheckReport:
    report = PrecheckReport()
    err = report.errors.append
    if not text.strip():
        err(Problem(0, 0, "empty statement: expected `import ...` lines and a `theorem ... := by sorry`"))
        return report
    if len(text) > MAX_CHARS:
        err(Problem(0, 0, f"statement too long ({len(text)} characters, at most {MAX_CHARS})"))
        return report
    if "\x00" in text:
        err(Problem(0, 0, "statement contains a NUL character"))
        return report

    for n, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            err(Problem(n, len(line) - len(line.lstrip()), "Markdown code fence: pass only the Lean code, "
                        "without the ``` lines"))
            return report
    s = scan(text)
    brackets = bracket_problems(s)
    lexically_broken = bool(s.problems or brackets)
    report.errors.extend(s.problems)
    report.errors.extend(brackets)
    for tok in s.tokens:
        _check_token(tok, s.tokens, err)

    commands = split_commands(s)
    _check_header(commands, require_header, err)
    for cmd in commands:
        _check_command(cmd, err)
    _check_scopes(commands, err)

    try:
        st = parse_commands(text, commands)
    except StatementParseError as e:
        if not lexically_broken:  # otherwise this is only a consequence of the problems already reported
            err(Problem(e.line, e.col, e.bare))
    else:
        report.statement = st
        _check_main(st, err, report.warnings.append)
    report.errors.sort(key=lambda p: (p.line, p.col))
    report.errors[:] = _dedupe(report.errors)
    return report


def _dedupe(problems: list[Problem]) -> list[Problem]:
    seen: set[tuple[int, int, str]] = set()
    out = []
    for p in problems:
        key = (p.line, p.col, p.message)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def _check_token(tok: Token, tokens: list[Token], err) -> None:
    if tok.kind == "hash":
        if tok.text in _CODE_HASH:
            err(Problem(tok.line, tok.col, f"`{tok.text}` is not allowed: it runs code while Lean elaborates"))
        else:
            err(Problem(tok.line, tok.col, f"`{tok.text}` is not part of a statement: remove it"))
        return
    if tok.kind != "ident":
        return
    parts = tok.text.split(".")
    if tok.text in META_KEYWORDS:
        err(Problem(tok.line, tok.col, f"`{tok.text}` is not allowed: it defines or runs code at elaboration time"))
    elif parts[-1] in _CODE_WORDS:
        err(Problem(tok.line, tok.col, f"`{tok.text}` is not allowed: {_CODE_WORDS[parts[-1]]}"))
    elif parts[0] in _IO_ROOTS or parts[-1] in _IO_NAMES:
        err(Problem(tok.line, tok.col, f"`{tok.text}` refers to IO: a statement has no reason to touch IO"))
    elif tok.text == "native":
        i = tokens.index(tok)
        if i > 0 and tokens[i - 1].text in ("+", "("):
            err(Problem(tok.line, tok.col, "`decide +native` is not allowed: it runs compiled code"))


def _check_header(commands: list[Command], require_header: bool, err) -> None:
    seen_other = None
    has_import = False
    for cmd in commands:
        if cmd.keyword == "import":
            has_import = True
            if seen_other is not None:
                err(Problem(cmd.line, cmd.col, f"`import` must come first, before the `{seen_other.keyword}` at "
                            f"{seen_other.line}:{seen_other.col}"))
            if len(cmd.words()) < 2:
                err(Problem(cmd.line, cmd.col, "`import` without a module name"))
        elif seen_other is None:
            seen_other = cmd
    if require_header and not has_import:
        err(Problem(1, 0, "missing header: start the statement with its imports, e.g. `import Mathlib`"))


def _check_command(cmd: Command, err) -> None:
    line, col = cmd.line, cmd.col
    if cmd.keyword not in ALLOWED_COMMANDS and not cmd.keyword.startswith("#") and cmd.keyword not in META_KEYWORDS:
        if cmd.keyword not in _CODE_WORDS:
            err(Problem(line, col, f"unexpected `{cmd.keyword}`: a statement may contain imports, "
                        "open/namespace/section/variable/universe/set_option, notations and declarations only"))
    if cmd.keyword == "set_option" or any(s.startswith("set_option") for s in cmd.scopes):
        names = [cmd.words()[1]] if cmd.keyword == "set_option" and len(cmd.words()) > 1 else []
        names += [s.split()[1] for s in cmd.scopes if s.startswith("set_option") and len(s.split()) > 1]
        for name in names:
            if not any(name == a or (a.endswith(".") and name.startswith(a)) for a in ALLOWED_OPTIONS):
                err(Problem(line, col, f"`set_option {name}` is not allowed in a statement (allowed: "
                            + ", ".join(a + ("*" if a.endswith(".") else "") for a in ALLOWED_OPTIONS) + ")"))
    attrs = list(cmd.attributes)
    if cmd.keyword == "attribute":
        words = cmd.words()
        if "[" in words and "]" in words:
            attrs.append(" ".join(words[words.index("[") + 1 : words.index("]")]))
    for attr in attrs:
        for entry in _split_top_commas(attr):
            words = [w for w in entry.split() if w not in ("local", "scoped")]
            if not words:
                continue
            name = words[0]
            if name not in ALLOWED_ATTRIBUTES:
                err(Problem(line, col, f"attribute `{name}` is not allowed in a statement (it can register code "
                            "that Lean runs); allowed: simp, ext, reducible, instance, mk_iff, simps, aesop, ..."))
            elif name == "aesop" and "tactic" in words:
                err(Problem(line, col, "aesop `tactic` rules are not allowed: they run user code"))


def _split_top_commas(text: str) -> list[str]:
    out, depth, cur = [], 0, []
    for c in text:
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    out.append("".join(cur))
    return out


def _check_scopes(commands: list[Command], err) -> None:
    """Every `end` closes what is open; `namespace A.B` opens two scopes and `end A.B` closes both."""
    stack: list[tuple[str, str, Command]] = []  # (kind, one name component, opening command)
    for cmd in commands:
        words = cmd.words()
        if cmd.keyword == "namespace" and len(words) > 1:
            stack.extend(("namespace", part, cmd) for part in words[1].split("."))
        elif cmd.keyword == "section":
            rest = words[2:] if words[0] == "noncomputable" else words[1:]
            parts = rest[0].split(".") if rest else [""]
            stack.extend(("section", part, cmd) for part in parts)
        elif cmd.keyword == "mutual":
            stack.append(("mutual", "", cmd))
        elif cmd.keyword == "end":
            name = words[1] if len(words) > 1 else ""
            shown = f"`end{' ' + name if name else ''}`"
            parts = name.split(".") if name else [""]
            if len(stack) < len(parts):
                err(Problem(cmd.line, cmd.col, f"{shown} closes more than is open here"))
                stack.clear()
                continue
            closing = stack[len(stack) - len(parts):]
            if [p for _, p, _ in closing] != parts:
                opener = closing[-1][2]
                expected = ".".join(p for _, p, _ in closing if p)
                err(Problem(cmd.line, cmd.col, f"{shown} does not match the `{closing[-1][0]}` opened at "
                            f"{opener.line}:{opener.col} (expected `end{' ' + expected if expected else ''}`)"))
            del stack[len(stack) - len(parts):]


def _check_main(st: LeanStatement, err, warn) -> None:
    main = st.main
    body_start = st.body_start
    before = [t for t in main.tokens if t.start < body_start]
    for t in before:
        if t.kind == "ident" and t.text == "sorry":
            err(Problem(t.line, t.col, "`sorry` inside the statement itself: only the proof may be `sorry`"))
    after = [t for t in main.tokens if t.start >= body_start]
    if not any(t.kind == "ident" and t.text == "sorry" for t in after):
        t = after[0] if after else main.tokens[-1]
        err(Problem(t.line, t.col, f"no `sorry` body: the {st.kind} must end with `:= by sorry` "
                    f"(a statement, not a proof); found `{_clip(st.body)}`"))
    elif not st.is_sorry_body():
        warn(Problem(after[0].line, after[0].col, f"the body has more than `sorry` (`{_clip(st.body)}`); a statement "
                     "only needs `:= by sorry`"))
    for cmd in st.commands[st.main_index + 1 :]:
        if cmd.keyword != "end":
            err(Problem(cmd.line, cmd.col, f"`{cmd.keyword}` after the {st.kind}: the {st.kind} must come last "
                        "(only `end` may follow it)"))


def _clip(text: str, n: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 3] + "..."
