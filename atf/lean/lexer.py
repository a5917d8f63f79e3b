"""Lean 4 source scanning: comments, strings, identifiers and brackets, with Lean's positions.

Not a Lean parser: just enough lexing that a `sorry` or `#eval` inside a comment or string does not
count, that bracket balance can be checked, and that a file can be split into top-level commands.
Positions follow Lean's messages: lines from 1, columns in code points from 0.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

OPEN_TO_CLOSE = {"(": ")", "[": "]", "{": "}", "⟨": "⟩", "⦃": "⦄", "⌊": "⌋", "⌈": "⌉", "⟪": "⟫", "⁅": "⁆"}
CLOSE_TO_OPEN = {v: k for k, v in OPEN_TO_CLOSE.items()}

# Greek letters Lean reserves for binders/products rather than names.
_NOT_IDENT = {"λ", "Π", "Σ"}
_SUBSCRIPTS = set("₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₔₕₖₗₘₙₚₛₜᵢᵣᵤᵥⱼᵦᵧᵨᵩᵪ")
_CHAR_LITERAL = re.compile(r"'(?:\\(?:u\{[0-9a-fA-F]+\}|x[0-9a-fA-F]{2}|.)|[^\\'\n])'")
_NUMBER = re.compile(r"0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|[0-9][0-9_]*(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


def is_ident_start(c: str) -> bool:
    if c in _NOT_IDENT:
        return False
    return c == "_" or c.isalpha() or "\u2100" <= c <= "\u214f" or c in _SUBSCRIPTS


def is_ident_rest(c: str) -> bool:
    return is_ident_start(c) or c.isdigit() or c in "'!?" or c in _SUBSCRIPTS


@dataclass(frozen=True)
class Token:
    """One lexeme outside comments.

    kind: "ident", "number", "string", "char", "hash" (`#eval`, `#check`, ...), "attr" (`@[`),
        "doc" (a `/-- ... -/` doc comment, kept because it attaches to the next declaration) or "symbol".
    line_start: the token is the first one on its line.
    """

    kind: str
    text: str
    start: int
    end: int
    line: int
    col: int
    line_start: bool


@dataclass(frozen=True)
class Problem:
    """A lexical problem Lean would also report (unterminated comment/string, unbalanced bracket)."""

    line: int
    col: int
    message: str

    def __str__(self) -> str:
        return f"{self.line}:{self.col}: {self.message}" if self.line else self.message


@dataclass
class Scan:
    """The tokens of a text, its comment spans, and the lexical problems found."""

    text: str
    tokens: list[Token] = field(default_factory=list)
    comments: list[tuple[int, int]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    _line_starts: list[int] = field(default_factory=list, repr=False)

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

    def without_comments(self) -> str:
        """The text with comments blanked out (newlines kept, so positions stay valid)."""
        chars = list(self.text)
        for start, end in self.comments:
            for i in range(start, end):
                if chars[i] != "\n":
                    chars[i] = " "
        return "".join(chars)


def scan(text: str) -> Scan:
    """Lex `text`; never raises: problems are collected in `Scan.problems`."""
    out = Scan(text=text, _line_starts=[0] + [m.end() for m in re.finditer("\n", text)])
    n = len(text)
    i = 0
    fresh_line = True

    def add(kind: str, start: int, end: int) -> None:
        nonlocal fresh_line
        line, col = out.position(start)
        out.tokens.append(Token(kind, text[start:end], start, end, line, col, fresh_line))
        fresh_line = False

    while i < n:
        c = text[i]
        if c == "\n":
            fresh_line = True
            i += 1
        elif c.isspace():
            i += 1
        elif text.startswith("--", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.comments.append((i, j))
            i = j
        elif text.startswith("/-", i):
            j = _block_comment_end(text, i)
            if j < 0:
                line, col = out.position(i)
                out.problems.append(Problem(line, col, "unterminated comment: `/-` is never closed by `-/`"))
                out.comments.append((i, n))
                i = n
            elif text.startswith("/--", i) and not text.startswith("/--/", i):
                add("doc", i, j)
                i = j
            else:
                out.comments.append((i, j))
                i = j
        elif c == '"':
            j = _string_end(text, i)
            if j < 0:
                line, col = out.position(i)
                out.problems.append(Problem(line, col, 'unterminated string literal: `"` is never closed'))
                add("string", i, n)
                i = n
            else:
                add("string", i, j)
                i = j
        elif c == "'" and (m := _CHAR_LITERAL.match(text, i)):
            add("char", i, m.end())
            i = m.end()
        elif c == "#" and i + 1 < n and is_ident_start(text[i + 1]):
            j = i + 1
            while j < n and (is_ident_rest(text[j]) or text[j] == "_"):
                j += 1
            add("hash", i, j)
            i = j
        elif c == "@" and text.startswith("@[", i):
            add("attr", i, i + 2)
            i += 2
        elif is_ident_start(c) or c == "«":
            j = _ident_end(text, i)
            add("ident", i, j)
            i = j
        elif c.isdigit():
            m = _NUMBER.match(text, i)
            j = m.end() if m else i + 1
            add("number", i, j)
            i = j
        elif text.startswith(":=", i):
            add("symbol", i, i + 2)
            i += 2
        else:
            add("symbol", i, i + 1)
            i += 1
    return out


def _block_comment_end(text: str, i: int) -> int:
    """Offset just past the `-/` closing the (nesting) block comment opened at `i`, or -1."""
    depth = 0
    n = len(text)
    while i < n:
        if text.startswith("/-", i):
            depth += 1
            i += 2
        elif text.startswith("-/", i):
            depth -= 1
            i += 2
            if depth == 0:
                return i
        else:
            i += 1
    return -1


def _string_end(text: str, i: int) -> int:
    j = i + 1
    n = len(text)
    while j < n:
        if text[j] == "\\":
            j += 2
        elif text[j] == '"':
            return j + 1
        else:
            j += 1
    return -1


def _ident_end(text: str, i: int) -> int:
    """End of a possibly dotted identifier starting at `i` (`Nat.succ`, `«my name».x`, `h₀`)."""
    n = len(text)
    j = i
    while True:
        if j < n and text[j] == "«":
            k = text.find("»", j)
            j = n if k < 0 else k + 1
        elif j < n and is_ident_start(text[j]):
            j += 1
            while j < n and is_ident_rest(text[j]):
                j += 1
        else:
            return j
        if j + 1 < n and text[j] == "." and (is_ident_start(text[j + 1]) or text[j + 1] == "«"):
            j += 1
        else:
            return j


def bracket_problems(s: Scan) -> list[Problem]:
    """Unbalanced or mismatched brackets, outside comments and strings."""
    stack: list[Token] = []
    problems: list[Problem] = []
    for tok in s.tokens:
        opener = "[" if tok.kind == "attr" else tok.text if tok.kind == "symbol" else None
        if opener in OPEN_TO_CLOSE:
            stack.append(tok)
        elif tok.kind == "symbol" and tok.text in CLOSE_TO_OPEN:
            if not stack:
                problems.append(Problem(tok.line, tok.col, f"unexpected `{tok.text}`: no bracket is open here"))
                continue
            top = stack[-1]
            top_open = "[" if top.kind == "attr" else top.text
            if OPEN_TO_CLOSE[top_open] == tok.text:
                stack.pop()
            elif any(("[" if t.kind == "attr" else t.text) == CLOSE_TO_OPEN[tok.text] for t in stack):
                # an inner bracket was left open; report it and resynchronise on the matching opener
                while stack and ("[" if stack[-1].kind == "attr" else stack[-1].text) != CLOSE_TO_OPEN[tok.text]:
                    t = stack.pop()
                    t_open = "[" if t.kind == "attr" else t.text
                    problems.append(
                        Problem(t.line, t.col, f"`{t_open}` is not closed (expected `{OPEN_TO_CLOSE[t_open]}` "
                                f"before the `{tok.text}` at {tok.line}:{tok.col})")
                    )
                stack.pop()
            else:
                problems.append(
                    Problem(tok.line, tok.col, f"`{tok.text}` does not match the `{top_open}` opened at "
                            f"{top.line}:{top.col} (expected `{OPEN_TO_CLOSE[top_open]}`)")
                )
    for t in stack:
        t_open = "[" if t.kind == "attr" else t.text
        problems.append(Problem(t.line, t.col, f"`{t_open}` is never closed (expected `{OPEN_TO_CLOSE[t_open]}`)"))
    return sorted(problems, key=lambda p: (p.line, p.col))
