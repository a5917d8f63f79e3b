"""The Lean 4 statement model: a header (imports, opens, options), optional auxiliary declarations,
and the main `theorem name binders : conclusion := by sorry`.

`split_commands` cuts a file into top-level commands (a doc comment, attributes, modifiers and
`open ... in` prefixes stay with the declaration they belong to); `parse_statement` reads the header
and the last theorem/lemma/example into a `LeanStatement`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from atf.lean.lexer import CLOSE_TO_OPEN, OPEN_TO_CLOSE, Scan, Token, scan

DECLARATION_KEYWORDS = {
    "theorem",
    "lemma",
    "example",
    "def",
    "abbrev",
    "instance",
    "structure",
    "class",
    "inductive",
    "axiom",
    "opaque",
    "irreducible_def",
}
THEOREM_KEYWORDS = {"theorem", "lemma", "example"}
MODIFIERS = {"noncomputable", "private", "protected", "partial", "unsafe", "nonrec", "local", "scoped"}
NOTATION_KEYWORDS = {"notation", "notation3", "infix", "infixl", "infixr", "prefix", "postfix"}
META_KEYWORDS = {
    "macro",
    "macro_rules",
    "syntax",
    "elab",
    "elab_rules",
    "declare_syntax_cat",
    "initialize",
    "builtin_initialize",
    "run_cmd",
    "run_elab",
    "run_meta",
}
OTHER_COMMANDS = {
    "import",
    "prelude",
    "open",
    "namespace",
    "section",
    "end",
    "variable",
    "universe",
    "set_option",
    "attribute",
    "export",
    "mutual",
    "omit",
    "include",
    "alias",
    "deriving",
}
# Other command keywords of Lean, Batteries, Aesop and Mathlib: none belongs in a statement, but each must
# start a command of its own so that it is reported as one (and is not read as part of the one before).
OTHER_LEAN_COMMANDS = {
    "add_aesop_rules",
    "erase_aesop_rules",
    "declare_aesop_rule_sets",
    "initialize_simps_projections",
    "library_note",
    "assert_not_exists",
    "assert_not_imported",
    "compile_inductive",
    "compile_def",
    "suppress_compilation",
    "unseal",
    "seal",
    "recall",
    "proof_wanted",
    "register_simp_attr",
    "register_label_attr",
    "register_option",
    "register_builtin_option",
    "declare_config_elab",
    "declare_simp_like_tactic",
    "add_decl_doc",
    "mk_iff_of_inductive_prop",
    "grind_pattern",
    "register_tactic_tag",
    "tactic_extension",
    "simproc",
    "dsimproc",
    "simproc_decl",
    "dsimproc_decl",
    "builtin_simproc",
    "unif_hint",
    "binder_predicate",
    "set_premise_selector",
    "with_weak_namespace",
    "open_locale",
    "export",
    "prelude",
}
# Commands that may also begin a line inside a term or tactic block (`open Real in simp`), so they
# only start a command at column 0. Every other command keyword is a reserved token in Lean that no term
# or tactic contains, so it starts a command wherever it stands outside brackets (`... := by sorry def x`).
_AMBIGUOUS = {"open", "set_option", "local", "scoped", "include", "omit", "deriving", "attribute", "alias"}
COMMAND_STARTS = (
    DECLARATION_KEYWORDS | MODIFIERS | NOTATION_KEYWORDS | META_KEYWORDS | OTHER_COMMANDS | OTHER_LEAN_COMMANDS
)
# `class abbrev`, `class inductive`, `deriving instance`: the second keyword continues the first.
_CONTINUES = {"abbrev": "class", "inductive": "class", "instance": "deriving"}


class StatementParseError(ValueError):
    """The text is not a statement this parser understands; `line`/`col` point at the problem."""

    def __init__(self, message: str, line: int = 0, col: int = 0):
        super().__init__(f"{line}:{col}: {message}" if line else message)
        self.line, self.col, self.bare = line, col, message


@dataclass
class Command:
    """One top-level command.

    keyword: what it is after prefixes: "import", "open", "theorem", "def", "notation3", "#eval", ...
    doc: its doc comment, if any.
    attributes: the text inside each `@[...]` prefix.
    modifiers: `noncomputable`, `private`, `local`, ...
    scopes: `open X in` / `set_option o v in` prefixes, as written.
    tokens: all its tokens; `head` indexes the keyword token.
    """

    keyword: str
    tokens: list[Token]
    head: int
    doc: str | None = None
    attributes: list[str] = field(default_factory=list)
    modifiers: list[str] = field(default_factory=list)
    scopes: list[str] = field(default_factory=list)
    index: int = field(default=0, repr=False)  # index of tokens[0] in the whole scan
    brackets: list[int] = field(default_factory=list, repr=False)  # the scan's bracket matches

    def matching(self, i: int) -> int:
        """Index (in `tokens`) of the bracket matching `tokens[i]`, or the last token when it has none."""
        if self.brackets:
            j = self.brackets[self.index + i] - self.index
            return j if i < j < len(self.tokens) else len(self.tokens) - 1
        return _matching(self.tokens, i)

    @property
    def start(self) -> int:
        return self.tokens[0].start

    @property
    def end(self) -> int:
        return self.tokens[-1].end

    @property
    def line(self) -> int:
        return self.tokens[self.head].line

    @property
    def col(self) -> int:
        return self.tokens[self.head].col

    @property
    def body_tokens(self) -> list[Token]:
        """The tokens from the keyword on."""
        return self.tokens[self.head :]

    def words(self) -> list[str]:
        return [t.text for t in self.body_tokens]


@dataclass
class Binder:
    """One bracketed binder of the theorem: `(x y : ℝ)`, `{n : ℕ}`, `[Fintype α]`, `(h₀ : 0 < x)`.

    bracket: the opening bracket, one of ( { [ ⦃ ⟨.
    names: the bound names (empty for an anonymous instance binder).
    type: the type as written, or None when the binder has none (`{n}`).
    """

    text: str
    bracket: str
    names: list[str]
    type: str | None

    @property
    def is_instance(self) -> bool:
        return self.bracket == "["


@dataclass
class LeanStatement:
    """A parsed statement.

    header_imports: modules imported, in order (`import Mathlib` -> "Mathlib").
    header_opens: namespaces opened before the theorem (top-level `open`, and `open ... in` on the theorem).
    header_scoped: those among them opened only `open scoped` (their notations and instances, not their names).
    header_options: `set_option` name/value pairs before the theorem.
    preamble: the text of auxiliary commands between header and theorem (answer placeholders
        `abbrev x_solution : T := sorry`, helper defs, structures, namespaces, variables).
    kind: "theorem", "lemma" or "example" (or "def"/"abbrev" for a `def ... := sorry` statement).
    name: the theorem's name (None for `example`).
    binders: all bracketed binders; hypotheses: those that look like assumptions rather than
        variables (a heuristic: the type contains a relation or connective, or the name starts with
        `h` and the type is not an obvious type such as ℕ, ℝ, Set α, Finset α).
    conclusion: the type after the last binder's `:`.
    body: what follows `:=` (for a statement: `by sorry` or `sorry`; see `is_sorry_body`).
    docstring: the theorem's `/-- ... -/` text, without the delimiters.
    body_line: 1-based line where the text after the imports starts (what is sent to Lean on top of
        the imported environment); body_offset: its character offset.
    body_start: character offset just past the theorem's `:=`.
    head_end: character offset just past the theorem's name (past `example` for an example): what follows is the
        declaration (binders, `:`, conclusion, `:=`, body). colon_start: offset of the `:` before the conclusion.
    closers: the `end` commands that close the namespaces and sections the text leaves open, innermost
        first (`["end", "end Foo"]` after `namespace Foo` and `section`).
    """

    text: str
    header_imports: list[str]
    header_opens: list[str]
    header_options: list[tuple[str, str]]
    preamble: list[str]
    kind: str
    name: str | None
    binders: list[Binder]
    hypotheses: list[Binder]
    conclusion: str
    body: str
    docstring: str | None
    commands: list[Command] = field(repr=False)
    main_index: int = field(repr=False)
    body_line: int = 1
    body_offset: int = 0
    body_start: int = 0
    head_end: int = 0
    colon_start: int = 0
    closers: list[str] = field(default_factory=list)
    header_scoped: list[str] = field(default_factory=list)

    @property
    def names_opened(self) -> list[str]:
        """The namespaces whose names an unqualified identifier may resolve to (`open X`, not `open scoped X`)."""
        return [o for o in self.header_opens if o not in self.header_scoped]

    @property
    def main(self) -> Command:
        return self.commands[self.main_index]

    @property
    def variables(self) -> list[Binder]:
        return [b for b in self.binders if b not in self.hypotheses]

    @property
    def body_text(self) -> str:
        """The text after the import lines (starting at `body_line`)."""
        return self.text[self.body_offset :]

    @property
    def header_key(self) -> tuple[str, ...]:
        """Statements with the same key can share one imported environment."""
        return tuple(sorted(set(self.header_imports)))

    def is_sorry_body(self) -> bool:
        return re.fullmatch(r"(by\s+)?sorry", self.body.strip()) is not None

    def included_variables(self) -> list[Binder]:
        """The `variable` binders in scope that Lean adds to the theorem, in the order declared.

        Lean 4 (since v4.10, "variable inclusion"; `Lean.Elab.Command.elabVariable` and the doc of `include`)
        adds a section variable to a theorem when the theorem's header (binders and type) names it, when an
        added variable's type names it, when `include` names it, or when it is an instance-implicit binder
        all of whose variables are added. A hypothesis `variable (hp : p.Prime)` is not added unless named:
        the statement does not assume it. A variable declared inside a `section`/`namespace` that has ended
        is out of scope, and one the theorem's own binders redeclare is shadowed."""
        scopes: list[list[tuple[Binder, set[str]]]] = [[]]
        forced: set[str] = set()
        for cmd in self.commands[: self.main_index]:
            toks = cmd.body_tokens
            opened, closed = scope_step(cmd)
            if opened or closed:
                scopes.extend([] for _ in opened)
                del scopes[len(scopes) - min(len(scopes) - 1, closed) :]
            elif cmd.keyword == "include":
                forced.update(t.name or t.text for t in toks[1:] if t.kind == "ident")
            elif cmd.keyword == "omit":
                omitted = {t.name or t.text for t in toks[1:] if t.kind == "ident"}
                forced -= omitted
                for scope in scopes:
                    scope[:] = [(b, used) for b, used in scope if not set(b.names) & omitted]
            elif cmd.keyword == "variable":
                i = 1
                while i < len(toks) and toks[i].kind == "symbol" and toks[i].text in OPEN_TO_CLOSE:
                    j = cmd.matching(cmd.head + i) - cmd.head
                    b = _binder(self.text, toks, i, j)
                    used = {_head_name(t) for t in toks[i + 1 : j] if t.kind == "ident"} - set(b.names)
                    scopes[-1].append((b, used))
                    i = j + 1
        declared = [(b, used) for scope in scopes for b, used in scope]
        if not declared:
            return []
        main = self.main
        own = {n for b in self.binders for n in b.names}
        header = [t for t in main.body_tokens[1 if self.name is None else 2 :] if t.end <= self.body_start]
        wanted = ({_head_name(t) for t in header if t.kind == "ident"} | forced) - own
        names = {n for b, _ in declared for n in b.names}
        changed = True
        included: set[int] = set()
        while changed:
            changed = False
            for k, (b, used) in enumerate(declared):
                if k in included:
                    continue
                deps = used & names
                if (set(b.names) & wanted) or (b.is_instance and deps and deps <= wanted):
                    included.add(k)
                    wanted |= deps | set(b.names)
                    changed = True
        return [b for k, (b, _) in enumerate(declared) if k in included and not set(b.names) & own]

    def context(self) -> str:
        """The commands before the theorem that can give its names a meaning other than the library's (`def`,
        `abbrev`, `notation`, `structure`, `namespace`, ...), each as its tokens joined by one space (comments
        and doc strings dropped): two statements mean the same only under the same context. Imports, `open`
        and `set_option` are read into the header fields, `variable`s into `included_variables`, and `section` /
        `end` only scope those."""
        skip = {"import", "open", "set_option", "variable", "include", "omit", "section", "end"}
        return "\n".join(
            " ".join(t.text for t in cmd.tokens if t.kind != "doc")
            for cmd in self.commands[: self.main_index]
            if cmd.keyword not in skip or cmd.scopes
        )


def _head_name(t: Token) -> str:
    """The first component of an identifier token (`x` of `x.succ`): the name it refers to in scope."""
    return (t.name or t.text).split(".")[0]


def split_commands(s: Scan) -> list[Command]:
    """Cut scanned text into top-level commands. One pass: bracketed spans are jumped over with the
    precomputed matches, and each piece is read once (a prefix-only piece is carried, not re-read)."""
    toks = s.tokens
    brackets = s.brackets()[0]
    n = len(toks)
    starts: list[int] = []
    i = 0
    while i < n:
        if toks[i].kind != "symbol" and starts_command(toks, i):
            starts.append(i)
        j = brackets[i]
        i = j if j > i else i + 1
    if toks and (not starts or starts[0] != 0):
        starts.insert(0, 0)

    commands: list[Command] = []
    pending: _Prefix | None = None
    for a, b in zip(starts, starts[1:] + [n]):
        if pending is None:
            pending = _Prefix(a)
        head = pending.read(toks, brackets, a, b)
        if head is None:  # only a doc comment / attributes / modifiers / `open X in` so far
            continue
        p = pending
        keyword = toks[head].text
        if keyword == "noncomputable" and head + 1 < b and toks[head + 1].text == "section":
            keyword = "section"
        commands.append(
            Command(
                keyword,
                toks[p.first : b],
                head - p.first,
                p.doc,
                p.attributes,
                p.modifiers,
                p.scopes,
                index=p.first,
                brackets=brackets,
            )
        )
        pending = None
    if pending is not None:  # a dangling prefix (doc comment with nothing after it, `open X in` at the end)
        commands.append(
            Command(toks[pending.first].text, toks[pending.first :], 0, index=pending.first, brackets=brackets)
        )
    return commands


def starts_command(toks: list[Token], i: int) -> bool:
    """Whether toks[i] (outside brackets) begins a top-level command or its prefix."""
    t = toks[i]
    if t.kind == "doc":
        return True
    if t.kind == "attr":
        return t.col == 0
    if t.kind == "hash":  # `#eval` after a term; `#s` (Finset.card) after an operator or bracket is a term
        prev = toks[i - 1] if i else None
        return t.line_start or prev is None or prev.kind != "symbol" or prev.text in CLOSE_TO_OPEN
    if t.kind != "ident" or t.text not in COMMAND_STARTS:
        return False
    if t.text == "deriving":
        return t.col == 0 and i + 1 < len(toks) and toks[i + 1].text == "instance"
    if t.text in _CONTINUES and i and toks[i - 1].text == _CONTINUES[t.text]:
        return False
    if t.text in _AMBIGUOUS:
        return t.col == 0 and t.line_start
    return True


class _Prefix:
    """What precedes a command's keyword: doc comment, attributes, modifiers, `open X in` scopes."""

    def __init__(self, first: int):
        self.first = first
        self.doc: str | None = None
        self.attributes: list[str] = []
        self.modifiers: list[str] = []
        self.scopes: list[str] = []

    def read(self, toks: list[Token], brackets: list[int], i: int, b: int) -> int | None:
        """Read prefixes in toks[i:b]; the index of the command keyword, or None if the piece holds none."""
        while i < b:
            t = toks[i]
            if t.kind == "doc":
                self.doc = t.text[3:-2].strip()
                i += 1
            elif t.kind == "attr":
                j = brackets[i] if brackets[i] > i else b - 1
                self.attributes.append(" ".join(x.text for x in toks[i + 1 : j]))
                i = j + 1
            elif t.kind == "ident" and t.text in MODIFIERS and not (i + 1 < b and toks[i + 1].text == "section"):
                self.modifiers.append(t.text)
                i += 1
            elif t.kind == "ident" and t.text in ("open", "set_option") and (j := _scope_in_end(toks, i, b)):
                self.scopes.append(" ".join(x.text for x in toks[i:j]))
                i = j + 1
            else:
                return i
        return None


def _scope_in_end(tokens: list[Token], i: int, b: int) -> int | None:
    """For `open X Y in` / `set_option o v in` starting at i, the index of `in`; None if no `in`.
    Stops at the first token that cannot be part of the prefix, so each token is looked at once."""
    if tokens[i].text == "set_option":
        j = i + 3
        return j if j < b and tokens[j].text == "in" and tokens[j].kind == "ident" else None
    for j in range(i + 1, b):
        t = tokens[j]
        if t.kind == "ident" and t.text == "in":
            return j
        if not (t.kind == "ident" and t.text not in COMMAND_STARTS or t.text in ("(", ")", "→", "scoped")):
            return None
    return None


def _matching(tokens: list[Token], i: int) -> int:
    """Index of the token closing the bracket opened at `tokens[i]` (or the last token)."""
    depth = 0
    for j in range(i, len(tokens)):
        t = tokens[j]
        if t.kind == "attr" or (t.kind == "symbol" and t.text in OPEN_TO_CLOSE):
            depth += 1
        elif t.kind == "symbol" and t.text in CLOSE_TO_OPEN:
            depth -= 1
            if depth == 0:
                return j
    return len(tokens) - 1


_TYPE_HEADS = {
    "ℕ",
    "ℤ",
    "ℚ",
    "ℝ",
    "ℂ",
    "Nat",
    "Int",
    "Rat",
    "Real",
    "Complex",
    "Type",
    "Sort",
    "Prop",
    "Set",
    "Finset",
    "List",
    "Multiset",
    "Fin",
    "ZMod",
    "Matrix",
    "Polynomial",
    "Option",
    "Bool",
    "String",
    "Array",
    "Function",
    "EuclideanSpace",
    "Equiv",
    "Perm",
}
# the symbols that make a type a proposition; not `≃`/`≃*`/`≃+*`/`≃ₗ[R]` (Equiv, MulEquiv, RingEquiv, LinearEquiv) nor
# `≅` (CategoryTheory.Iso): those build types of data, so `(φ : G ≃* G)` declares a variable
_RELATIONS = re.compile(r"[=≠<>≤≥∣∈∉⊆⊂⊇⊃∧∨¬↔∀∃≡⊢]|\bTrue\b|\bFalse\b")
# Mathlib's notations for the nonnegative types: `notation "ℝ≥0" => NNReal` (Mathlib/Data/NNReal/Defs.lean),
# `notation "ℝ≥0∞" => ENNReal` (Mathlib/Data/ENNReal/Basic.lean), `notation "ℚ≥0" => NNRat`: types, not `ℝ ≥ 0`
# Mathlib's `notation "ℝ≥0" => NNReal`, ..., `notation "ℕ+" => PNat` (Mathlib/Data/PNat/Notation.lean): each is one
# token of Lean's lexer (longest match), so `ℕ+1` is `PNat 1` there too, never `ℕ + 1`
TYPE_NOTATIONS = {"ℝ≥0∞": "ENNReal", "ℝ≥0": "NNReal", "ℚ≥0": "NNRat", "ℕ+": "PNat"}


def _looks_like_hypothesis(names: list[str], type_text: str | None) -> bool:
    if type_text is None:
        return False
    flat = _depth0_text(type_text)
    for notation in TYPE_NOTATIONS:  # longest first: `ℝ≥0∞` before `ℝ≥0`
        flat = flat.replace(notation, "T")
    if _RELATIONS.search(flat):
        return True
    head = type_text.split()[0] if type_text.split() else ""
    head = head.lstrip("(").split(".")[0]
    return bool(names) and all(n.startswith("h") for n in names) and head not in _TYPE_HEADS and "→" not in flat


def _depth0_text(text: str) -> str:
    """`text` with everything inside brackets removed, so `Finset {x | x < 5}` has no relation."""
    out = []
    depth = 0
    for c in text:
        if c in OPEN_TO_CLOSE:
            depth += 1
        elif c in CLOSE_TO_OPEN:
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def parse_statement(text: str) -> LeanStatement:
    """Parse a full statement (imports, opens, ..., `theorem ... := by sorry`).

    Raises StatementParseError (a ValueError) with a position when there is no theorem, or its binders
    or `:` / `:=` cannot be found. Lexical problems (unterminated comments) are left to `precheck`.
    """
    return parse_commands(text, split_commands(scan(text)))


def parse_commands(text: str, commands: list[Command]) -> LeanStatement:
    """`parse_statement` for text already split into commands."""
    if not commands:
        raise StatementParseError("empty statement: expected imports and a theorem")
    main_index = _main_index(commands)
    if main_index is None:
        raise StatementParseError("no `theorem`, `lemma` or `example` found")
    main = commands[main_index]

    imports: list[str] = []
    opens: list[str] = []
    scoped: list[str] = []
    options: list[tuple[str, str]] = []
    preamble: list[str] = []
    body_offset = 0
    for cmd in commands[:main_index]:
        words = cmd.words() if cmd.keyword in ("import", "open", "set_option") else []
        if cmd.keyword == "import":
            imports.extend(words[1:])
            nl = text.find("\n", cmd.end)
            body_offset = len(text) if nl < 0 else nl + 1
        elif cmd.keyword == "open" and not cmd.scopes:
            opens.extend(w for w in words[1:] if w not in ("scoped", "in"))
            if words[1:2] == ["scoped"]:
                scoped.extend(w for w in words[2:] if w != "in")
        elif cmd.keyword == "set_option" and len(words) >= 3:
            options.append((words[1], " ".join(words[2:])))
        else:
            preamble.append(text[cmd.start : cmd.end])
    for scope in main.scopes:
        words = scope.split()
        if words[0] == "open":
            opens.extend(w for w in words[1:] if w not in ("scoped", "in"))
            if words[1:2] == ["scoped"]:
                scoped.extend(w for w in words[2:] if w != "in")
        elif len(words) >= 3:
            options.append((words[1], " ".join(words[2:-1]) if words[-1] == "in" else " ".join(words[2:])))

    kind, name, binders, conclusion, body, body_start, head_end, colon_start = _parse_theorem(text, main)
    hypotheses = [b for b in binders if b.bracket != "[" and _looks_like_hypothesis(b.names, b.type)]
    body_line = text.count("\n", 0, body_offset) + 1
    return LeanStatement(
        text=text,
        header_imports=imports,
        header_opens=opens,
        header_options=options,
        preamble=preamble,
        kind=kind,
        name=name,
        binders=binders,
        hypotheses=hypotheses,
        conclusion=conclusion,
        body=body,
        docstring=main.doc,
        commands=commands,
        main_index=main_index,
        body_line=body_line,
        body_offset=body_offset,
        body_start=body_start,
        head_end=head_end,
        colon_start=colon_start,
        closers=_closers(commands),
        header_scoped=scoped,
    )


def scope_step(cmd: Command) -> tuple[list[tuple[str, bool]], int]:
    """What a command does to the stack of sections and namespaces: the levels it opens, each a name component and
    whether it is a namespace's (`namespace A.B` opens A and B, `section` one level named "", `section S` S), and how
    many levels it closes (`end` one, `end A.B` two; more than the stack holds is the caller's to cap)."""
    toks = cmd.body_tokens
    words = [t.name or t.text for t in toks[:3]]
    if cmd.keyword == "namespace" and len(words) > 1:
        return [(w, True) for w in words[1].split(".")], 0
    if cmd.keyword == "section":
        k = 2 if words[0] == "noncomputable" else 1
        named = len(words) > k and toks[k].kind == "ident" and toks[k].line == toks[0].line
        return [(w, False) for w in (words[k].split(".") if named else [""])], 0
    if cmd.keyword == "end":
        named = len(words) > 1 and toks[1].kind == "ident" and toks[1].line == toks[0].line
        return [], len(words[1].split(".")) if named else 1
    return [], 0


def _closers(commands: list[Command]) -> list[str]:
    stack: list[str] = []  # one name component per namespace level, "" for an anonymous section
    for cmd in commands:
        opened, closed = scope_step(cmd)
        stack.extend(name for name, _ in opened)
        del stack[len(stack) - min(len(stack), closed) :]
    return [f"end {name}" if name else "end" for name in reversed(stack)]


def _main_index(commands: list[Command]) -> int | None:
    """The last theorem/lemma/example; failing that, the last def/abbrev whose body is `sorry`
    (ProofNet states "construct X" problems as `def exercise ... : CommGroup G := sorry`)."""
    for i in range(len(commands) - 1, -1, -1):
        if commands[i].keyword in THEOREM_KEYWORDS:
            return i
    for i in range(len(commands) - 1, -1, -1):
        cmd = commands[i]
        if cmd.keyword in ("def", "abbrev") and any(t.text == "sorry" for t in cmd.tokens):
            return i
    return None


def _parse_theorem(text: str, cmd: Command) -> tuple[str, str | None, list[Binder], str, str, int, int, int]:
    toks = cmd.body_tokens
    kind = toks[0].text
    i = 1
    name = None
    if kind != "example":
        if i >= len(toks) or toks[i].kind != "ident":
            t = toks[min(i, len(toks) - 1)]
            raise StatementParseError(f"expected a name after `{kind}`", t.line, t.col)
        name = toks[i].text
        i += 1
        if i < len(toks) and toks[i].text == "." and i + 1 < len(toks) and toks[i + 1].text == "{":
            i = cmd.matching(cmd.head + i + 1) - cmd.head + 1  # universe parameters `foo.{u}`
    head_end = toks[i - 1].end
    binders: list[Binder] = []
    while i < len(toks) and toks[i].kind == "symbol" and toks[i].text in ("(", "{", "[", "⦃", "⟨"):
        j = cmd.matching(cmd.head + i) - cmd.head
        if toks[j].text != OPEN_TO_CLOSE[toks[i].text]:
            raise StatementParseError(f"binder `{toks[i].text}` is not closed", toks[i].line, toks[i].col)
        binders.append(_binder(text, toks, i, j))
        i = j + 1
    if i >= len(toks) or toks[i].text != ":":
        t = toks[min(i, len(toks) - 1)]
        what = f"`{t.text}`" if i < len(toks) else "the end"
        raise StatementParseError(f"expected `:` before the theorem's conclusion, found {what}", t.line, t.col)
    colon = toks[i]
    assign = _body_assign(toks, i + 1)
    if assign is None:
        raise StatementParseError(
            "missing `:=` after the theorem's conclusion (expected `:= by sorry`)", colon.line, colon.col
        )
    conclusion = text[colon.end : toks[assign].start].strip()
    body = text[toks[assign].end : cmd.end].strip()
    if not conclusion:
        raise StatementParseError("empty conclusion after `:`", colon.line, colon.col)
    return kind, name, binders, conclusion, body, toks[assign].end, head_end, colon.start


def _binder(text: str, toks: list[Token], i: int, j: int) -> Binder:
    inner = toks[i + 1 : j]
    depth = 0
    colon = None
    for k, t in enumerate(inner):
        if t.kind == "symbol" and t.text in OPEN_TO_CLOSE:
            depth += 1
        elif t.kind == "symbol" and t.text in CLOSE_TO_OPEN:
            depth -= 1
        elif depth == 0 and t.text == ":":
            colon = k
            break
    bracket = toks[i].text
    if colon is None:
        if bracket == "[":
            return Binder(text[toks[i].start : toks[j].end], bracket, [], text[toks[i].end : toks[j].start].strip())
        return Binder(text[toks[i].start : toks[j].end], bracket, [t.text for t in inner if t.kind == "ident"], None)
    names = [t.text for t in inner[:colon] if t.kind == "ident" or t.text == "_"]
    type_text = text[inner[colon].end : toks[j].start].strip()
    return Binder(text[toks[i].start : toks[j].end], bracket, names, type_text)


def _body_assign(toks: list[Token], i: int) -> int | None:
    """Index of the `:=` that starts the body, skipping those of `let`/`have` inside the conclusion."""
    depth = 0
    pending_lets = 0
    for k in range(i, len(toks)):
        t = toks[k]
        if t.kind == "attr" or (t.kind == "symbol" and t.text in OPEN_TO_CLOSE):
            depth += 1
        elif t.kind == "symbol" and t.text in CLOSE_TO_OPEN:
            depth -= 1
        elif depth == 0 and t.kind == "ident" and t.text in ("let", "have", "letI", "haveI"):
            pending_lets += 1
        elif depth == 0 and t.text == ":=":
            if pending_lets:
                pending_lets -= 1
            else:
                return k
    return None
