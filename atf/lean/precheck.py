"""Cheap checks run before Lean sees a statement: shape, balance, resource options and security.

Lean code can run arbitrary programs while it is being *elaborated* (before any proof is checked), so
text written by a model must not reach Lean unless it is plainly a statement. The reader is
`atf.lean.lexer`, which tokenizes as Lean does (raw and interpolated strings, nested comments, `«»`
names), so that nothing hides from these rules in a place Lean reads differently. No token filter is
complete: the sandbox around the REPL is the guarantee; this gives fast, precise feedback.

Admitted
  - a header of `import` lines (first, before anything else);
  - `open` (also `open scoped`, `open ... in`), `namespace`/`section`/`end` (balanced: an `end` must close
    what is open; a namespace or section left open at the end is a warning, `LeanStatement.closers` closes
    it), `variable`, `universe`, `omit`, `include`, `alias`;
  - `set_option` for options that only change limits, printing or linting (ALLOWED_OPTIONS). Options that
    lift a resource limit (`maxHeartbeats 0`, a huge `maxRecDepth`, ...) are not obeyed: the text sent to
    Lean (`PrecheckReport.text`) carries OptionCaps' value instead, and a warning says so;
  - declarations: `theorem`/`lemma`/`example`, `def`/`abbrev` (answer placeholders such as
    `abbrev putnam_x_solution : ℝ := sorry` and helper definitions), `structure`/`class`/`inductive`,
    `instance`, `opaque`, `irreducible_def`, `mutual ... end`, the modifiers `noncomputable`/`private`/
    `protected`/`partial`/`nonrec`, doc comments (all of them occur in the benchmarks' statements);
  - notations (`notation`, `local notation3`, `infix`, ...) whose tokens cannot change how Lean reads text;
  - attributes from ALLOWED_ATTRIBUTES (`@[simp]`, `@[mk_iff]`, `attribute [local aesop safe] ...`).
Rejected, because they run, read or replace code at elaboration time
  - every `#` command (`#eval`, `#print`, `#leansearch`, ...), `run_cmd`/`run_elab`/`run_meta`/`run_tac`,
    `by_elab`, `elab`, `macro`, `syntax`, `initialize`, ..., syntax quotations `` `(...) ``;
  - `include_str` (reads a file), `unsafe` and `unsafe*`/`*Unsafe` names, `@[extern]`, `@[implemented_by]`,
    attributes that register code (elaborators, simprocs, norm_num extensions, ...);
  - native evaluation in any spelling: `native_decide`, the word `native` (`decide +native`,
    `(config := { native := true })`), any `decide (config := ...)` (positional `⟨..⟩` configs),
    `DecideConfig`, `Lean.ofReduceBool`/`reduceBool`, `bv_decide`/`bv_check`, `plausible`/`slim_check`,
    `polyrith` (calls a web service);
  - names under `IO`, `EIO`, `BaseIO`, `System`, `Lean`, or with a `Elab`/`Meta`/`MetaM`/`TacticM`/...
    component (`open Lean Elab` included); `«»` quoting does not change a name;
  - user tactics in Aesop clauses: `aesop (add safe tactic t)`, `(rule_sets := ...)`, `@[aesop ... tactic]`;
  - `axiom` (it makes every statement provable), `prelude`, `export`.
Shape
  - no unterminated comment or string, balanced brackets ( [ { ⟨ ⦃ ⌊ ⌈ ⟪ ⁅, no tab characters;
  - leading prose and Markdown code fences are blanked out (a warning; line numbers are kept); text after
    the code block is an error;
  - a last `theorem`/`lemma`/`example` (or `def ... := sorry`), whose body contains `sorry` and whose
    statement does not; nothing but closing brackets after its last `sorry`; only `end` may follow it.
A body with tactics besides `sorry` (CombiBench's `imo_2010_p5` has `by simp; sorry`) is a warning.

Every step is one pass over the tokens (bracket matches are computed once), so the cost is linear in the
text; MAX_CHARS bounds the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields

from atf.lean.lexer import CLOSE_TO_OPEN, Problem, Scan, Token, scan
from atf.lean.statement import (
    COMMAND_STARTS,
    DECLARATION_KEYWORDS,
    META_KEYWORDS,
    NOTATION_KEYWORDS,
    OTHER_COMMANDS,
    Command,
    LeanStatement,
    StatementParseError,
    parse_commands,
    split_commands,
    starts_command,
)

MAX_CHARS = 65_536
MAX_ERRORS = 20
MAX_COMMANDS = 1_000  # the benchmarks' statements have at most a few dozen

ALLOWED_COMMANDS = (
    (OTHER_COMMANDS - {"prelude", "export"})  # both are denied below, with their reasons
    | (DECLARATION_KEYWORDS - {"axiom"})  # an axiom would let the statement prove anything
    | NOTATION_KEYWORDS
)

ALLOWED_OPTIONS = (
    "maxHeartbeats",
    "maxRecDepth",
    "synthInstance.",
    "maxSynthPendingDepth",
    "linter.",
    "pp.",
    "autoImplicit",
    "relaxedAutoImplicit",
    "checkBinderAnnotations",
    "push_neg.",
    "exponentiation.",
    "warningAsError",
)


@dataclass(frozen=True)
class OptionCaps:
    """The most a statement may ask of Lean. A `set_option` above its cap, or `0` for a heartbeat limit
    (which Lean reads as "no limit"), is rewritten to the cap in the text sent to Lean.

    maxHeartbeats: Lean's default is 200000; miniF2F headers ask for 0 (unlimited).
    synthInstance.maxHeartbeats: Lean's default is 20000.
    maxRecDepth: Lean's default is 512.
    synthInstance.maxSize: Lean's default is 128.
    maxSynthPendingDepth: Lean's default is 1.
    exponentiation.threshold: Mathlib's default is 256.
    """

    maxHeartbeats: int = 1_000_000
    synthInstance_maxHeartbeats: int = 400_000
    maxRecDepth: int = 8_192
    synthInstance_maxSize: int = 1_024
    maxSynthPendingDepth: int = 4
    exponentiation_threshold: int = 1_024

    def caps(self) -> dict[str, int]:
        return {f.name.replace("_", "."): getattr(self, f.name) for f in fields(self)}


_HEARTBEATS = {"maxHeartbeats", "synthInstance.maxHeartbeats"}  # 0 means unlimited

ALLOWED_ATTRIBUTES = {
    "simp",
    "simps",
    "ext",
    "reducible",
    "irreducible",
    "semireducible",
    "inline",
    "noinline",
    "macro_inline",
    "specialize",
    "instance",
    "default_instance",
    "mk_iff",
    "nolint",
    "deprecated",
    "class",
    "elab_as_elim",
    "induction_eliminator",
    "cases_eliminator",
    "symm",
    "refl",
    "trans",
    "norm_cast",
    "push_cast",
    "coe",
    "gcongr",
    "mono",
    "continuity",
    "measurability",
    "fun_prop",
    "to_additive",
    "match_pattern",
    "congr",
    "pp_nodot",
    "nontriviality",
    "grind",
    "inherit_doc",
    "aesop",
    "expose",
}

# Name components that run, read or replace code (any component of a dotted name: `Lean.ofReduceBool`).
_DENY_PARTS = {
    "unsafe": "`unsafe` code can do anything while Lean elaborates",
    "implemented_by": "`implemented_by` swaps in compiled code",
    "extern": "`extern` binds compiled foreign code",
    "native_decide": "`native_decide` runs compiled code (and trusts the compiler)",
    "native": "native evaluation (`decide +native`, `native := true`) runs compiled code",
    "DecideConfig": "a `decide` configuration can switch on native evaluation",
    "ofReduceBool": "`ofReduceBool` runs compiled code",
    "ofReduceNat": "`ofReduceNat` runs compiled code",
    "reduceBool": "`reduceBool` runs compiled code",
    "reduceNat": "`reduceNat` runs compiled code",
    "bv_decide": "`bv_decide` trusts compiled code (`ofReduceBool`)",
    "bv_check": "`bv_check` reads a proof file and trusts compiled code",
    "plausible": "`plausible` runs compiled code",
    "slim_check": "`slim_check` runs compiled code",
    "polyrith": "`polyrith` calls a web service",
    "include_str": "`include_str` reads a file while Lean elaborates",
    "run_tac": "`run_tac` runs arbitrary tactic code",
    "by_elab": "`by_elab` runs arbitrary elaborator code",
    "evalExpr": "`evalExpr` runs compiled code",
    "evalConst": "`evalConst` runs compiled code",
    "evalTerm": "`evalTerm` runs compiled code",
    "evalDecl": "`evalDecl` runs compiled code",
    "export": "`export` is not needed in a statement",
    "prelude": "`prelude` is not allowed: a statement builds on its imports",
    "axiom": "an `axiom` makes every statement provable",
    "simproc": "a `simproc` registers code",
    "dsimproc": "a `dsimproc` registers code",
    "declare_aesop_rule_sets": "Aesop rule sets are registered code",
    "add_aesop_rules": "Aesop rules can be user tactics",
    "erase_aesop_rules": "Aesop rules are global state",
    "register_option": "options are registered code",
    "register_simp_attr": "simp attributes are registered code",
} | {k: "it defines or runs code at elaboration time" for k in META_KEYWORDS}
_DENY_RULE = (
    {
        "unsafe": "unsafe",
        "add_aesop_rules": "aesop",
        "erase_aesop_rules": "aesop",
        "include_str": "file",
        "axiom": "axiom",
        "export": "command",
        "prelude": "command",
    }
    | {
        k: "native"
        for k in (
            "native_decide",
            "native",
            "DecideConfig",
            "ofReduceBool",
            "ofReduceNat",
            "reduceBool",
            "reduceNat",
            "bv_decide",
            "bv_check",
            "plausible",
            "slim_check",
        )
    }
    | {k: "meta" for k in META_KEYWORDS}
)
_DENY_ROOTS = {"IO", "EIO", "BaseIO", "System", "Lean"}
_META_PARTS = {
    "Elab",
    "Meta",
    "MetaM",
    "TermElabM",
    "TacticM",
    "CommandElabM",
    "CoreM",
    "MacroM",
    "PrettyPrinter",
    "Compiler",
}
# `#` commands that run, print or reach out (Lean core, Mathlib, LeanSearchClient); any `#word` in a command
# position is rejected too, these also where a term could stand (Lean lexes `#evalx` as `#eval x`).
_HASH_COMMANDS = (
    "#eval",
    "#exit",
    "#reduce",
    "#print",
    "#check",
    "#synth",
    "#guard",
    "#find",
    "#help",
    "#simp",
    "#norm_num",
    "#conv",
    "#whnf",
    "#lint",
    "#time",
    "#count_heartbeats",
    "#sample",
    "#test",
    "#leansearch",
    "#loogle",
    "#moogle",
    "#statesearch",
    "#min_imports",
    "#long_names",
    "#where",
    "#version",
    "#widget",
    "#html",
    "#explode",
    "#push_neg",
    "#align",
    "#adaptation_note",
    "#help",
    "#show",
    "#version",
    "#run",
    "#kernel",
)
_CODE_HASH = (
    "#eval",
    "#exit",
    "#run",
    "#reduce",
    "#guard",
    "#test",
    "#sample",
    "#find",
    "#leansearch",
    "#loogle",
    "#moogle",
    "#statesearch",
    "#time",
    "#count_heartbeats",
)
# characters a notation token must not contain: they would change how Lean reads the text after it
_NOTATION_FORBIDDEN = ('"', "'", "`", "«", "»", "/-", "-/", "--", "#", "\\")
_BANG_WORD = re.compile(r"\w+!")  # `s!`-like: a second parser for an interpolation keyword


@dataclass
class PrecheckReport:
    """What `run_precheck` found.

    text: the text to send to Lean: the input with leading prose and code fences blanked out (line numbers
        kept) and resource options clamped to OptionCaps.
    statement: set when the text parsed (parsed from `text`).
    """

    errors: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    statement: LeanStatement | None = None
    text: str = ""

    @property
    def ok(self) -> bool:
        return not self.errors


def precheck(text: str, require_header: bool = True) -> list[str]:
    """Problems that stop `text` from being sent to Lean, as "line:col: message"; empty when it passes."""
    return [str(p) for p in run_precheck(text, require_header).errors]


def run_precheck(text: str, require_header: bool = True, caps: OptionCaps = OptionCaps()) -> PrecheckReport:
    report = PrecheckReport(text=text)
    dropped = [0]

    def err(p: Problem) -> None:  # keep a bounded number: a hostile text can have one problem per token
        if len(report.errors) < 10 * MAX_ERRORS:
            report.errors.append(p)
        else:
            dropped[0] += 1

    def warn(p: Problem) -> None:
        if len(report.warnings) < MAX_ERRORS:
            report.warnings.append(p)

    if not text.strip():
        err(Problem(0, 0, "empty statement: expected `import ...` lines and a `theorem ... := by sorry`", "input"))
        return report
    if len(text) > MAX_CHARS:
        err(
            Problem(
                0,
                0,
                f"statement too long ({len(text)} characters, at most {MAX_CHARS}): send one statement "
                "with its imports",
                "input",
            )
        )
        return report
    if "\x00" in text:
        err(Problem(0, 0, "statement contains a NUL character", "input"))
        return report

    text = _strip_prose(text, report)
    s = scan(text)
    text, s = _clamp_options(text, s, caps, err, warn)
    report.text = text
    brackets = s.brackets()[1]
    lexically_broken = bool(s.problems or brackets)
    for p in s.problems + brackets:
        err(p)

    commands = split_commands(s)
    if len(commands) > MAX_COMMANDS:
        err(
            Problem(
                0,
                0,
                f"{len(commands)} top-level commands (at most {MAX_COMMANDS}): send one statement with its imports",
                "input",
            )
        )
        commands = commands[:MAX_COMMANDS]
    rules = _Rules(s, err)
    for cmd in commands:  # an import's module name is not a reference; whatever follows it is checked
        skip = cmd.head + 2 if cmd.keyword == "import" else 0
        rules.check(cmd.index + skip, cmd.index + len(cmd.tokens))
    rules.check_shadow()
    _check_header(commands, require_header, err)
    for cmd in commands:
        _check_command(cmd, err)
    _check_scopes(commands, err, warn)

    try:
        st = parse_commands(text, commands)
    except StatementParseError as e:
        if not lexically_broken:  # otherwise this is only a consequence of the problems already reported
            err(Problem(e.line, e.col, e.bare, "parse"))
    else:
        report.statement = st
        _check_main(st, err, warn)
    errors = sorted(set(report.errors), key=lambda p: (p.line, p.col, p.message))
    report.warnings.sort(key=lambda p: (p.line, p.col))
    more = len(errors) - MAX_ERRORS + dropped[0]
    report.errors[:] = errors[:MAX_ERRORS] + (
        [Problem(0, 0, f"... and {more} more problems", "more")] if more > 0 else []
    )
    return report


# ---------------------------------------------------------------------------------------------------------
# prose, fences, options: the text Lean gets

_FENCE = re.compile(r"[ ]{0,3}(```|~~~)")
_LEAN_LINE = re.compile(  # a line that starts Lean code: a command keyword, attribute, comment or `#` command
    r"(?:" + "|".join(sorted(COMMAND_STARTS | set(_DENY_PARTS), key=len, reverse=True)) + r")(?![\w'!?])"
    r"|@\[|/-|--|#\w"
)


def _strip_prose(text: str, report: PrecheckReport) -> str:
    """Blank out Markdown fences and the prose before the code (keeping every line, so positions hold);
    non-blank text after the closing fence is an error. A fence counts only when it comes before any Lean
    code (fences inside a doc comment are Lean text), and the last fence closes the block."""
    lines = text.split("\n")
    first_code = next((k for k, line in enumerate(lines) if _LEAN_LINE.match(line)), None)
    fences = [k for k, line in enumerate(lines) if _FENCE.match(line)]
    if fences and (first_code is None or fences[0] < first_code):
        first = fences[0]
        last = fences[-1] if len(fences) > 1 else None
        dropped = any(lines[k].strip() for k in range(first))
        lines[: first + 1] = [""] * (first + 1)
        report.warnings.append(
            Problem(
                first + 1,
                0,
                "Markdown code fence removed"
                + (f" with the text before it (lines 1-{first})" if dropped else "")
                + ": pass only the Lean code",
                "prose",
            )
        )
        if last is not None:
            after = next((k for k in range(last + 1, len(lines)) if lines[k].strip()), None)
            if after is not None:
                report.errors.append(
                    Problem(
                        after + 1,
                        0,
                        "text after the code block: a statement must end with its proof (`:= by sorry`)",
                        "after-proof",
                    )
                )
            lines[last:] = [""] * (len(lines) - last)
        return "\n".join(lines)
    if first_code and any(lines[k].strip() for k in range(first_code)):
        lines[:first_code] = [""] * first_code
        report.warnings.append(Problem(1, 0, f"text before the Lean code removed (lines 1-{first_code})", "prose"))
        return "\n".join(lines)
    return text


def _clamp_options(text: str, s: Scan, caps: OptionCaps, err, warn) -> tuple[str, Scan]:
    """Check every `set_option` (as a command, a prefix `... in`, or inside a proof) and rewrite the
    values that lift a resource limit to the cap."""
    if "set_option" not in text:
        return text, s
    limits = caps.caps()
    toks = s.tokens
    edits: list[tuple[int, int, str]] = []
    for i, t in enumerate(toks):
        if not (t.kind == "ident" and t.text == "set_option"):
            continue
        if i + 2 >= len(toks) or toks[i + 1].kind != "ident":
            err(Problem(t.line, t.col, "`set_option` needs an option name and a value", "option"))
            continue
        name, value = toks[i + 1].name, toks[i + 2]
        if not any(name == a or (a.endswith(".") and name.startswith(a)) for a in ALLOWED_OPTIONS):
            err(
                Problem(
                    t.line,
                    t.col,
                    f"`set_option {name}` is not allowed in a statement (allowed: "
                    + ", ".join(a + ("*" if a.endswith(".") else "") for a in ALLOWED_OPTIONS)
                    + ")",
                    "option",
                )
            )
            continue
        if name not in limits:
            continue
        cap = limits[name]
        if value.kind != "number" or not value.text.replace("_", "").isdigit():
            err(Problem(value.line, value.col, f"`set_option {name}` needs a number", "option"))
            continue
        asked = int(value.text.replace("_", ""))
        if asked > cap or (asked == 0 and name in _HEARTBEATS):
            edits.append((value.start, value.end, str(cap)))
            warn(
                Problem(
                    value.line,
                    value.col,
                    f"`set_option {name} {value.text}` lifts a resource limit: the checker uses {name} = {cap} instead",
                    "option-clamped",
                )
            )
    if not edits:
        return text, s
    for start, end, new in reversed(edits):
        text = text[:start] + new + text[end:]
    return text, scan(text)


# ---------------------------------------------------------------------------------------------------------
# token rules


class _Rules:
    """The deny-list applied to tokens (each looked at once; Aesop clauses and attributes once each)."""

    def __init__(self, s: Scan, err):
        self.s, self.err = s, err
        self.toks = s.tokens
        self.brackets = s.brackets()[0]
        self.seen_to = -1  # tokens up to here were already read inside an Aesop clause or attribute

    def check(self, a: int, b: int) -> None:
        toks = self.toks
        for i in range(a, b):
            t = toks[i]
            kind = t.kind
            if kind == "symbol":
                continue
            if kind == "ident" or kind == "name":
                self.name(t)
                if t.text in ("decide", "decide!") and self._config_follows(i):
                    self.err(
                        Problem(
                            t.line,
                            t.col,
                            f"`{t.text} (config := ...)` is not allowed: a configuration "
                            "can switch on native evaluation (write plain `decide`)",
                            "native",
                        )
                    )
                elif t.text.startswith("aesop") and i > self.seen_to:
                    self.aesop_clauses(i)
                elif t.text == "attribute" and i + 1 < b and toks[i + 1].text == "[" and i + 1 > self.seen_to:
                    self.attribute_list(i + 1, self.brackets[i + 1])
            elif kind == "hash":
                self.hash(i)
            elif kind == "attr" and i > self.seen_to:
                self.attribute_list(i, self.brackets[i])
            elif kind == "quote":
                self.err(
                    Problem(
                        t.line,
                        t.col,
                        "syntax quotation `` `( `` is metaprogramming: not allowed in a statement",
                        "meta",
                    )
                )

    def check_shadow(self) -> None:
        for t in self.s.shadow:
            if t.kind in ("ident", "name") and (found := _name_problem(t.name)):
                self.err(
                    Problem(
                        t.line,
                        t.col,
                        f"`{t.text}` inside `{{...}}` of a string literal is not "
                        f"allowed (Lean reads such braces as code in interpolated strings): {found[1]}",
                        "interpolation",
                    )
                )

    def name(self, t: Token) -> None:
        found = _name_problem(t.name)
        if found:
            shown = t.text if t.kind == "ident" else "`" + t.text.lstrip("`")
            self.err(Problem(t.line, t.col, f"`{shown}` is not allowed: {found[1]}", found[0]))

    def _config_follows(self, i: int) -> bool:
        toks = self.toks
        return (
            i + 3 < len(toks) and toks[i + 1].text == "(" and toks[i + 2].text == "config" and toks[i + 3].text == ":="
        )

    def hash(self, i: int) -> None:
        t = self.toks[i]
        if t.text.startswith(_CODE_HASH):
            self.err(
                Problem(t.line, t.col, f"`{t.text}` is not allowed: it runs code while Lean elaborates", "hash-command")
            )
        elif t.text.startswith(_HASH_COMMANDS) or starts_command(self.toks, i):
            self.err(Problem(t.line, t.col, f"`{t.text}` is not part of a statement: remove it", "hash-command"))

    def aesop_clauses(self, i: int) -> None:
        """`aesop (add safe tactic t) (rule_sets := [..])`: the clauses are the bracket groups after it."""
        toks, brackets = self.toks, self.brackets
        j = i + 1
        while j < len(toks) and toks[j].text == "(" and brackets[j] > j:
            end = brackets[j]
            for k in range(j + 1, end):
                self._aesop_word(toks[k])
            j = end + 1
        self.seen_to = max(self.seen_to, j - 1)

    def _aesop_word(self, t: Token) -> None:
        if t.kind == "ident" and t.text in ("tactic", "rule_sets"):
            what = "user tactics" if t.text == "tactic" else "rule sets (they hold registered user code)"
            self.err(
                Problem(
                    t.line,
                    t.col,
                    f"Aesop clauses with {what} are not allowed: `{t.text}` runs code Lean compiled from the statement",
                    "aesop",
                )
            )

    def attribute_list(self, open_i: int, close_i: int) -> None:
        """The entries of `@[a, b c]` / `attribute [a] x`: each must be an allowed attribute."""
        toks = self.toks
        if close_i <= open_i:
            return
        self.seen_to = max(self.seen_to, close_i)
        expect_name = True
        k = open_i + 1
        entry = ""
        while k < close_i:
            t = toks[k]
            if expect_name and t.kind == "ident" and t.text in ("local", "scoped") or expect_name and t.text == "-":
                pass
            elif expect_name:
                entry = t.name or t.text
                expect_name = False
                if entry not in ALLOWED_ATTRIBUTES:
                    self.err(
                        Problem(
                            t.line,
                            t.col,
                            f"attribute `{entry}` is not allowed in a statement (it can "
                            "register code that Lean runs); allowed: simp, ext, reducible, instance, "
                            "mk_iff, simps, aesop, ...",
                            "attribute",
                        )
                    )
            elif t.text == ",":
                expect_name = True
            elif entry == "aesop":
                self._aesop_word(t)
            if t.kind in ("ident", "name"):
                self.name(t)
            j = self.brackets[k]
            if j > k and entry != "aesop":  # skip arguments, except inside an aesop entry
                k = j
            k += 1


def _name_problem(name: str) -> tuple[str, str] | None:
    """(rule, why) when a (normalised, dotted) name may not appear in a statement, else None."""
    parts = name.split(".")
    if parts[0] == "_root_":
        parts = parts[1:]
    if not parts:
        return None
    if parts[0] in _DENY_ROOTS:
        if parts[0] == "Lean":
            return "meta", "`Lean` is the metaprogramming API: a statement has no use for it"
        return "io", f"it refers to IO (`{parts[0]}`): a statement has no use for it"
    for p in parts:
        if p in _DENY_PARTS:
            return _DENY_RULE.get(p, "code"), _DENY_PARTS[p]
        if p in _META_PARTS:
            return "meta", f"`{p}` is metaprogramming: a statement has no use for it"
        if p.startswith("unsafe") or p.endswith("Unsafe"):
            return "unsafe", f"`{p}` is unsafe code"
    return None


# ---------------------------------------------------------------------------------------------------------
# commands


def _check_header(commands: list[Command], require_header: bool, err) -> None:
    seen_other = None
    has_import = False
    for cmd in commands:
        if cmd.keyword == "import":
            has_import = True
            if seen_other is not None:
                err(
                    Problem(
                        cmd.line,
                        cmd.col,
                        f"`import` must come first, before the `{seen_other.keyword}` at "
                        f"{seen_other.line}:{seen_other.col}",
                        "header",
                    )
                )
            toks = cmd.body_tokens
            if len(toks) < 2:
                err(Problem(cmd.line, cmd.col, "`import` without a module name", "header"))
            elif len(toks) > 2:
                t = toks[2]
                err(
                    Problem(
                        t.line,
                        t.col,
                        f"unexpected `{_clip(t.text, 20)}` after `import {toks[1].text}`: "
                        "one module per `import` line, then commands",
                        "header",
                    )
                )
        elif seen_other is None:
            seen_other = cmd
    if require_header and not has_import:
        err(Problem(1, 0, "missing header: start the statement with its imports, e.g. `import Mathlib`", "header"))


def _check_command(cmd: Command, err) -> None:
    line, col = cmd.line, cmd.col
    head = cmd.tokens[cmd.head]
    if head.kind in ("hash", "doc", "attr"):
        return  # reported by the token rules / a dangling prefix is harmless
    if cmd.keyword not in ALLOWED_COMMANDS and cmd.keyword not in META_KEYWORDS and cmd.keyword not in _DENY_PARTS:
        err(
            Problem(
                line,
                col,
                f"unexpected `{_clip(cmd.keyword, 20)}`: a statement may contain imports, "
                "open/namespace/section/variable/universe/set_option, notations and declarations only",
                "command",
            )
        )
    if cmd.keyword in NOTATION_KEYWORDS:
        for t in cmd.body_tokens:
            if t.text == "=>":
                break
            if t.kind == "string":
                atom = t.text[1:-1].strip()
                if any(x in atom for x in _NOTATION_FORBIDDEN) or atom in _DENY_PARTS or _BANG_WORD.fullmatch(atom):
                    err(
                        Problem(
                            t.line,
                            t.col,
                            f"notation token {t.text} is not allowed: it would change how Lean reads the text after it",
                            "notation",
                        )
                    )


def _check_scopes(commands: list[Command], err, warn) -> None:
    """Every `end` closes what is open; `namespace A.B` opens two scopes and `end A.B` closes both. An open
    `mutual` is an error (it would take the next command's `end`); an open namespace or section a warning."""
    stack: list[tuple[str, str, Command]] = []  # (kind, one name component, opening command)
    for cmd in commands:
        words = [t.name or t.text for t in cmd.body_tokens[:3]]
        if cmd.keyword == "namespace" and len(words) > 1:
            stack.extend(("namespace", part, cmd) for part in words[1].split("."))
        elif cmd.keyword == "section":
            k = 2 if words[0] == "noncomputable" else 1
            name = words[k] if len(words) > k and cmd.body_tokens[k].line == cmd.line else ""
            stack.extend(("section", part, cmd) for part in (name.split(".") if _is_name(name) else [""]))
        elif cmd.keyword == "mutual":
            stack.append(("mutual", "", cmd))
        elif cmd.keyword == "end":
            name = words[1] if len(words) > 1 and _is_name(words[1]) and cmd.body_tokens[1].line == cmd.line else ""
            shown = f"`end{' ' + name if name else ''}`"
            parts = name.split(".") if name else [""]
            if len(stack) < len(parts):
                err(Problem(cmd.line, cmd.col, f"{shown} closes more than is open here (a stray `end`)", "scope"))
                stack.clear()
                continue
            closing = stack[len(stack) - len(parts) :]
            if [p for _, p, _ in closing] != parts:
                opener = closing[-1][2]
                expected = ".".join(p for _, p, _ in closing if p)
                err(
                    Problem(
                        cmd.line,
                        cmd.col,
                        f"{shown} does not match the `{closing[-1][0]}` opened at "
                        f"{opener.line}:{opener.col} (expected `end{' ' + expected if expected else ''}`)",
                        "scope",
                    )
                )
            del stack[len(stack) - len(parts) :]
    reported: set[int] = set()
    for kind, _, cmd in reversed(stack):
        if id(cmd) in reported:
            continue
        reported.add(id(cmd))
        if kind == "mutual":
            err(Problem(cmd.line, cmd.col, "`mutual` is never closed: end the block with `end`", "scope"))
        else:
            warn(
                Problem(cmd.line, cmd.col, f"this `{kind}` is never closed; it is closed after the statement", "scope")
            )


def _is_name(word: str) -> bool:
    return (
        bool(word)
        and (word[0].isalpha() or word[0] == "_" or ord(word[0]) > 127)
        and word not in ("theorem", "lemma", "def", "example", "end", "namespace", "section")
    )


def _check_main(st: LeanStatement, err, warn) -> None:
    main = st.main
    body_start = st.body_start
    before = [t for t in main.tokens if t.start < body_start]
    for t in before:
        if t.kind == "ident" and t.text == "sorry":
            err(
                Problem(
                    t.line, t.col, "`sorry` inside the statement itself: only the proof may be `sorry`", "statement"
                )
            )
    after = [t for t in main.tokens if t.start >= body_start]
    sorries = [k for k, t in enumerate(after) if t.kind == "ident" and t.text == "sorry"]
    if not sorries:
        t = after[0] if after else main.tokens[-1]
        err(
            Problem(
                t.line,
                t.col,
                f"no `sorry` body: the {st.kind} must end with `:= by sorry` "
                f"(a statement, not a proof); found `{_clip(st.body)}`",
                "statement",
            )
        )
    else:
        trailing = [t for t in after[sorries[-1] + 1 :] if not (t.kind == "symbol" and t.text in CLOSE_TO_OPEN)]
        if trailing:
            t = trailing[0]
            err(
                Problem(
                    t.line,
                    t.col,
                    f"text after the proof: `{_clip(t.text)}` follows the last `sorry` (a "
                    "statement ends with `:= by sorry`)",
                    "after-proof",
                )
            )
        elif not st.is_sorry_body():
            warn(
                Problem(
                    after[0].line,
                    after[0].col,
                    f"the body has more than `sorry` (`{_clip(st.body)}`); a statement only needs `:= by sorry`",
                    "statement",
                )
            )
    for cmd in st.commands[st.main_index + 1 :]:
        if cmd.keyword != "end":
            err(
                Problem(
                    cmd.line,
                    cmd.col,
                    f"`{_clip(cmd.keyword, 20)}` after the {st.kind}: the {st.kind} must "
                    "come last (only `end` may follow it)",
                    "after-proof",
                )
            )


def _clip(text: str, n: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 3] + "..."
