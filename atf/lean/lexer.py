r"""Lean 4 source scanning that agrees with Lean's own tokenizer on every literal form.

Modelled on Lean 4 `src/Lean/Parser/Basic.lean` (`whitespace`, `finishCommentBlock`, `tokenFnAux`,
`strLitFnAux`, `quotedCharCoreFn`, `charLitFnAux`, `rawStrLitFnAux`/`isRawStrLitStart`, `numberFnAux`,
`identFnAux`/`isIdCont`, `nameLitAux`) and `interpolatedStrFn`, with the identifier classes of
`Init/Meta` (`isIdFirst`, `isIdRest`, `isLetterLike`, `isSubScriptAlnum`, `isIdBeginEscape`):

- comments nest (`/- /- -/ -/`); the character after an opening `/-` is skipped unread, and `/--`, `/-!`
  open doc comments whose bodies nest the same way; `--` runs to the end of the line;
- a tab or a lone carriage return is an error (Lean: "tabs are not allowed");
- strings: `\\ \" \' \n \t \r`, `\xHH`, `\uHHHH` (exactly four digits: `'\u{1F600}'` is an error), and a
  backslash-newline gap; any other escape is an error;
- raw strings `r"..."`, `r#"..."#` with any number of `#`: no escapes, closed by `"` and as many `#`;
- a `'` at a token start that is not followed by another `'` opens a character literal (so `f '' s` is
  the image notation and `h'`, `x₁'` are names, because `'` continues an identifier); Mathlib's tokens
  `∑'`, `∏'`, `⁻¹'`, and core's `×'`, `Σ'` end in a `'` that Lean's longest-match token reader takes with them;
- identifiers are dotted; `«...»` quotes one component (it may hold spaces or dots) and is removed in
  `Token.name`, so `«IO».Process.run` and `IO.Process.run` have the same name;
- interpolated strings (`s!"a{e}b"`, `m!`, `f!`): the text in braces is code and is lexed as tokens
  (nested braces and strings included); `\{` escapes a brace. Every other string that contains `{` is
  also read the interpolated way, because other parsers take interpolated strings too (`throwError`,
  `trace[..]`, `println!`, ...): when the two readings end at different places the text is reported as
  ambiguous, and the tokens of the braces go to `Scan.shadow` so the pre-check inspects them as code.

Positions follow Lean's messages: lines from 1, columns in code points from 0.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

OPEN_TO_CLOSE = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "⦃": "⦄", "⌊": "⌋", "⌈": "⌉", "⟪": "⟫", "⁅": "⁆"}
CLOSE_TO_OPEN = {v: k for k, v in OPEN_TO_CLOSE.items()}

# Init/Meta `isLetterLike` (plus the Latin-1/Latin Extended-A ranges newer Lean versions add: reading more
# characters as identifier characters than an older Lean only turns its parse error into our token).
_LETTER_LIKE = (
    "\u03b1-\u03ba\u03bc-\u03c9\u0391-\u039f\u03a1\u03a2\u03a4-\u03a9\u03ca-\u03fb\u1f00-\u1ffe\u2100-\u214f"
    "\U0001d49c-\U0001d59f\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u017f"
)
_SUBSCRIPT = "\u2080-\u2089\u2090-\u209c\u1d62-\u1d6a\u2c7c"
_ID_FIRST = f"A-Za-z_{_LETTER_LIKE}"
_ID_REST = f"{_ID_FIRST}0-9'!?{_SUBSCRIPT}"
_ID_PART = f"(?:«[^»]*»|[{_ID_FIRST}][{_ID_REST}]*)"
_IDENT = f"{_ID_PART}(?:\\.{_ID_PART})*"
IDENT = _IDENT  # (the pattern atf.symeq.lean_frontend reads names with)

# a one-character symbol that cannot begin any other token (tried first: the common case, matched at once)
_PLAIN = f"[^\\s0-9{_ID_FIRST}\\-/\"'`#@:«{{}}∑∏⁻×Σ\\\\]"
_TOKEN = re.compile(  # leading spaces and newlines are skipped by the same match (one match per token)
    r"[ \n]*(?:"
    f"(?P<plain>{_PLAIN})"
    r'|(?P<raw>r#*")'
    f"|(?P<ident>{_IDENT})"
    r"|(?P<line>--[^\n]*)"
    r"|(?P<block>/-)"
    r'|(?P<str>")'
    r"|(?P<qsym>''|∑'|∏'|⁻¹'|×'|Σ')"
    r"|(?P<char>'(?!'))"
    r"|(?P<num>0[bB][01_]*|0[oO][0-7_]*|0[xX][0-9a-fA-F_]*|[0-9][0-9_]*(?:\.(?:[0-9][0-9_]*)?)?(?:[eE][+-]?[0-9_]*)?)"
    f"|(?P<namelit>``?{_IDENT})"
    f"|(?P<hash>#[{_ID_FIRST}][{_ID_REST}]*)"
    r"|(?P<attr>@\[)"
    r"|(?P<quote>`\()"
    r"|(?P<assign>:=)"
    r"|(?P<sym>.)"
    r"|(?P<eof>$))",
    re.DOTALL,
)
_COMMENT_MARK = re.compile(r"/-|-/")
_ESCAPE = re.compile(r"\\(?:[\\\"'rnt]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|\n[ \n]*)")
_ESCAPE_INTERP = re.compile(r"\\(?:[\\\"'rnt{]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|\n[ \n]*)")
_CHAR_BODY = re.compile(r"(?:\\(?:[\\\"'rnt]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})|[^\\])'", re.DOTALL)
_PLAIN_STRING_REST = re.compile(r'(?:[^"\\]|\\.)*"', re.DOTALL)
_INTERP_PIECE = re.compile(r'(?:[^"\\{]|\\.)*["{]', re.DOTALL)
_BACKSLASH = re.compile(r"\\.?", re.DOTALL)
_SPECIAL_SYMBOLS = "{}\t\r«"
MAX_PROBLEMS = 100  # lexical problems kept (the rest only make the input fail)

# Lean's built-in keywords that always take `interpolatedStr(term)` (Init/Data/ToString/Macro.lean `s!`,
# Lean/Message.lean `m!`, Init/Data/Format/Macro.lean `f!`). Other parsers take it too (`throwError`,
# `trace[..]`, `println!`, user `syntax`); their strings are read both ways (see `Scan.shadow`), so a wrong
# guess here can only reject, never hide.
INTERPOLATING = {"s!", "m!", "f!"}


@dataclass(slots=True)
class Token:
    """One lexeme outside comments.

    kind: "ident", "number", "string" (also raw strings), "char", "name" (a `` `name `` literal), "hash"
        (`#eval`, `#check`, ... or `#s`), "attr" (`@[`), "quote" (`` `( ``), "doc" (a `/-- ... -/` or
        `/-! ... -/` comment, kept because it attaches to the next declaration), "istr_open" / "istr_mid"
        / "istr_close" (the literal pieces of an interpolated string around its `{code}` parts: `"a{`,
        `}b{`, `}c"`), or "symbol".
    line_start: the token is the first one on its line.
    name: for identifiers, name literals and `#` words, the name with `«»` removed (`«IO».x` -> `IO.x`).
    """

    kind: str
    text: str
    start: int
    end: int
    line: int
    col: int
    line_start: bool
    name: str = ""


@dataclass(frozen=True)
class Problem:
    """A problem at a Lean position. rule: which check found it ("lexical", "brackets", or a pre-check rule
    such as "native", "io", "meta", "scope"); it is not part of the printed form."""

    line: int
    col: int
    message: str
    rule: str = field(default="lexical", compare=False)

    def __str__(self) -> str:
        return f"{self.line}:{self.col}: {self.message}" if self.line else self.message


@dataclass
class Scan:
    """The tokens of a text, its comment spans, and the lexical problems found.

    shadow: tokens of the `{...}` parts of plain strings read as if they were interpolated (see module doc).
    """

    text: str
    tokens: list[Token] = field(default_factory=list)
    comments: list[tuple[int, int]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    shadow: list[Token] = field(default_factory=list)
    _line_starts: list[int] = field(default_factory=list, repr=False)
    _brackets: tuple[list[int], list[Problem]] | None = field(default=None, repr=False)

    def brackets(self) -> tuple[list[int], list[Problem]]:
        """`bracket_matches` of the tokens, computed once."""
        if self._brackets is None:
            self._brackets = bracket_matches(self.tokens)
        return self._brackets

    def position(self, offset: int) -> tuple[int, int]:
        """(line from 1, column from 0) of a character offset."""
        i = bisect.bisect_right(self._line_starts, offset) - 1
        return i + 1, offset - self._line_starts[i]

    def offset(self, line: int, col: int) -> int:
        """Character offset of a Lean position (clamped to the text)."""
        if line < 1:
            return 0
        if line > len(self._line_starts):
            return len(self.text)
        return min(self._line_starts[line - 1] + col, len(self.text))


def normal_name(text: str) -> str:
    """An identifier as Lean names it: `«IO».Process` -> `IO.Process` (escapes removed)."""
    return text.replace("«", "").replace("»", "") if "«" in text else text


def scan(text: str) -> Scan:
    """Lex `text`; never raises: problems are collected in `Scan.problems`. Linear in the text's length."""
    out = Scan(text=text, _line_starts=[0] + [m.end() for m in re.finditer("\n", text)])
    _Lexer(text, out, out.tokens, out.problems, speculate=True).run(0)
    return out


class _Lexer:
    """One pass over `text` from a position. Interpolated strings are handled with an explicit stack (no
    recursion), so nesting depth costs nothing; a speculative reading of a plain string (see module doc)
    is one more pass over that string only, and never speculates again."""

    def __init__(
        self, text: str, out: Scan, tokens: list[Token], problems: list[Problem], speculate: bool, end: int = -1
    ):
        self.text, self.out, self.tokens, self.problems, self.speculate = text, out, tokens, problems, speculate
        self.n = len(text) if end < 0 else end  # nothing at or past `n` is read
        self.last_close_guillemet = text.rfind("»", 0, self.n)
        self.starts = out._line_starts
        self.line = 0  # the last token's line, the offsets where it and the next line start
        self.line_start = 0
        self.next_line_start = -1
        self.last_line = 0
        self.failed = False
        self.braces: list[int] = []  # per open interpolation code part: `{` depth inside it

    def problem(self, offset: int, message: str) -> None:
        self.failed = True
        if len(self.problems) < MAX_PROBLEMS:
            line, col = self.out.position(offset)
            self.problems.append(Problem(line, col, message))

    def add(self, kind: str, start: int, end: int, name: str = "") -> None:
        if not self.line_start <= start < self.next_line_start:  # tokens come in order: usually the same line
            starts = self.starts
            li = bisect.bisect_right(starts, start) - 1
            self.line, self.line_start = li + 1, starts[li]
            self.next_line_start = starts[li + 1] if li + 1 < len(starts) else len(self.text) + 1
        line = self.line
        self.tokens.append(
            Token(kind, self.text[start:end], start, end, line, start - self.line_start, line != self.last_line, name)
        )
        self.last_line = line

    def run(self, i: int, interp_at: int = -1) -> int:
        """Lex from `i` to the end; with `interp_at`, the string starting there is read as interpolated and
        lexing stops when it closes. Returns where it stopped."""
        text, n = self.text, self.n
        match = _TOKEN.match
        add = self.add
        if interp_at >= 0:
            i = self.interp_piece(interp_at, interp_at + 1, "istr_open")
            if not self.braces:
                return i
        while i < n:
            if text[i] == "«" and i > self.last_close_guillemet:  # no `»` ahead: skip the regex's long look
                self.problem(i, "unterminated identifier escape: `«` is never closed by `»`")
                self.add("symbol", i, i + 1)
                i += 1
                continue
            m = match(text, i, n)
            kind = m.lastgroup
            i = m.start(kind)
            j = m.end()
            if kind == "plain":
                add("symbol", i, j)
            elif kind == "ident":
                word = m.group(kind)
                add("ident", i, j, word if "«" not in word else normal_name(word))
            elif kind == "sym":
                c = text[i]
                if c not in _SPECIAL_SYMBOLS:
                    add("symbol", i, j)
                    i = j
                    continue
                if self.braces and c in "{}":
                    if c == "{":
                        self.braces[-1] += 1
                    elif self.braces[-1]:
                        self.braces[-1] -= 1
                    else:  # the `}` that ends a code part: back to the string
                        self.braces.pop()
                        j = self.interp_piece(i, i + 1, "istr_mid")
                        if interp_at >= 0 and not self.braces:
                            return j
                        i = j
                        continue
                if c == "\t":
                    self.problem(i, "tabs are not allowed (Lean rejects them): use spaces")
                elif c == "\r" and not text.startswith("\n", j):
                    self.problem(i, "isolated carriage return (Lean rejects it)")
                elif c == "«":
                    self.problem(i, "unterminated identifier escape: `«` is never closed by `»`")
                if c not in "\t\r":
                    self.add("symbol", i, j)
            elif kind == "line":
                if self.speculate:
                    self.out.comments.append((i, j))
            elif kind == "block":
                j = self.block_comment(i)
            elif kind == "str":
                j = self.string(i)
            elif kind == "char":
                body = _CHAR_BODY.match(text, j, n)
                if body:
                    j = body.end()
                    self.add("char", i, j)
                else:
                    self.problem(
                        i, "malformed character literal (Lean: missing end of character literal or invalid escape)"
                    )
                    self.add("symbol", i, j)
            elif kind == "num":
                self.add("number", i, j)
            elif kind == "raw":
                hashes = j - i - 2
                close = text.find('"' + "#" * hashes, j, n)
                if close < 0:
                    self.problem(i, "unterminated raw string literal")
                    j = n
                else:
                    j = close + 1 + hashes
                self.add("string", i, j)
            elif kind == "namelit":
                self.add("name", i, j, normal_name(m.group(kind).lstrip("`")))
            elif kind == "hash":
                self.add("hash", i, j, m.group(kind))
            elif kind == "eof":
                break
            else:  # attr, quote, assign, qsym
                self.add({"attr": "attr", "quote": "quote"}.get(kind, "symbol"), i, j)
            i = j
        if self.braces:
            self.problem(n, "unterminated interpolated string: a `{` part is never closed")
        return n

    def block_comment(self, i: int) -> int:
        """`/-` at i: a nesting comment (the third character is skipped unread, as Lean's `whitespace`
        does) or, for `/--` and `/-!`, a doc comment token."""
        text = self.text
        doc = text.startswith(("/--", "/-!"), i)
        depth = 1
        for m in _COMMENT_MARK.finditer(text, i + 3, self.n):
            depth += 1 if m.group() == "/-" else -1
            if depth == 0:
                j = m.end()
                break
        else:
            self.problem(i, "unterminated comment: `/-` is never closed by `-/`")
            j = self.n
        if doc:
            self.add("doc", i, j)
        elif self.speculate:
            self.out.comments.append((i, j))
        return j

    def string(self, i: int) -> int:
        """`"` at i: plain, or interpolated when the previous token asks for it."""
        prev = self.tokens[-1] if self.tokens else None
        if prev is not None and prev.kind == "ident" and prev.text in INTERPOLATING:
            return self.interp_piece(i, i + 1, "istr_open")
        m = _PLAIN_STRING_REST.match(self.text, i + 1, self.n)
        if m is None:
            self.problem(i, 'unterminated string literal: `"` is never closed')
            self.add("string", i, self.n)
            return self.n
        j = m.end()
        self.check_escapes(i, j, _ESCAPE)
        self.add("string", i, j)
        if self.speculate and "{" in self.text[i:j]:
            self.read_as_interpolated(i, j)
        return j

    def read_as_interpolated(self, i: int, plain_end: int) -> None:
        shadow_tokens: list[Token] = []
        lexer = _Lexer(self.text, self.out, shadow_tokens, [], speculate=False, end=plain_end)
        end = lexer.run(i, interp_at=i)
        self.out.shadow.extend(t for t in shadow_tokens if not t.kind.startswith("istr"))
        if end != plain_end or lexer.failed:
            self.problem(
                i,
                'ambiguous string literal: read as an interpolated string (`s!"...{e}..."`) its '
                "braces hold code that ends elsewhere; escape the braces (`\\{`) or drop them",
            )

    def interp_piece(self, start: int, i: int, kind: str) -> int:
        """Literal text of an interpolated string from i (just after `"` or `}`) to the next `{` or `"`."""
        m = _INTERP_PIECE.match(self.text, i, self.n)
        if m is None:
            self.problem(start, 'unterminated string literal: `"` is never closed')
            self.add(kind, start, self.n)
            self.braces.clear()
            return self.n
        j = m.end()
        self.check_escapes(i, j, _ESCAPE_INTERP)
        if self.text[j - 1] == "{":
            self.add(kind, start, j)
            self.braces.append(0)
        else:
            self.add("string" if kind == "istr_open" else "istr_close", start, j)
        return j

    def check_escapes(self, i: int, j: int, valid: re.Pattern) -> None:
        text = self.text
        if text.find("\\", i, j) < 0:
            return
        for m in _BACKSLASH.finditer(text, i, j - 1):
            if not valid.match(text, m.start()):
                self.problem(
                    m.start(),
                    f"invalid escape sequence `{m.group()}` (Lean allows \\\\ \\\" \\' \\n \\t \\r \\xHH \\uHHHH)",
                )


_OPENER_OF_KIND = {"attr": "[", "quote": "(", "istr_open": "{", "istr_mid": "{"}


def bracket_matches(tokens: list[Token], limit: int = 50) -> tuple[list[int], list[Problem]]:
    """For each token, the index of its matching bracket (-1 when none), and the first `limit` bracket
    problems (unbalanced or mismatched brackets, outside comments and strings). One pass, linear.

    `@[` closes with `]`; the pieces of an interpolated string pair up like braces (`"a{` ... `}b{` ...
    `}c"`), so code left open inside `{...}` is reported."""
    match = [-1] * len(tokens)
    stack: list[tuple[int, str]] = []  # (token index, opening bracket)
    counts = dict.fromkeys(OPEN_TO_CLOSE, 0)
    problems: list[Problem] = []
    for k, tok in enumerate(tokens):
        kind = tok.kind
        if kind == "symbol":
            want = CLOSE_TO_OPEN.get(tok.text)
            o = tok.text if tok.text in OPEN_TO_CLOSE else None
        else:
            want = "{" if kind in ("istr_mid", "istr_close") else None
            o = _OPENER_OF_KIND.get(kind)
        if want is not None:
            if not counts[want]:
                if len(problems) < limit:
                    problems.append(
                        Problem(tok.line, tok.col, f"unexpected `{_shown(tok)}`: no bracket is open here", "brackets")
                    )
            else:  # pop to the matching opener; what is popped on the way was left open
                while True:
                    top, top_open = stack.pop()
                    counts[top_open] -= 1
                    if top_open == want:
                        match[top], match[k] = k, top
                        break
                    if len(problems) < limit:
                        t = tokens[top]
                        problems.append(
                            Problem(
                                t.line,
                                t.col,
                                f"`{_shown(t)}` is not closed (expected "
                                f"`{OPEN_TO_CLOSE[top_open]}` before the `{_shown(tok)}` at "
                                f"{tok.line}:{tok.col})",
                                "brackets",
                            )
                        )
        if o is not None:
            stack.append((k, o))
            counts[o] += 1
    for top, o in reversed(stack[:limit]):
        t = tokens[top]
        problems.append(
            Problem(t.line, t.col, f"`{_shown(t)}` is never closed (expected `{OPEN_TO_CLOSE[o]}`)", "brackets")
        )
    problems.sort(key=lambda p: (p.line, p.col))
    return match, problems


def _shown(t: Token) -> str:
    return "[" if t.kind == "attr" else t.text if len(t.text) <= 12 else t.text[:12] + "..."


def bracket_problems(s: Scan) -> list[Problem]:
    """Unbalanced or mismatched brackets, outside comments and strings."""
    return s.brackets()[1]
