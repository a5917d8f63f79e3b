"""The lexer agrees with Lean 4's tokenizer (src/Lean/Parser/Basic.lean) on every literal form, never
crashes, and does work linear in its input (counted in calls, not timed)."""

import random
import sys
from pathlib import Path

import pytest

from atf.lean import run_precheck
from atf.lean.lexer import scan

sys.path.insert(0, str(Path(__file__).parent / "bench"))
from bench_syntax_precheck import ADVERSARIAL


def kinds(text):
    return [(t.kind, t.text) for t in scan(text).tokens]


@pytest.mark.parametrize(
    "text, expected",
    [
        # raw strings: no escapes; `#`s must match; only at a token start
        ('r"\\" x', [("string", 'r"\\"'), ("ident", "x")]),
        ('r#"a"b"# x', [("string", 'r#"a"b"#'), ("ident", "x")]),
        ('r##"a"#b"## x', [("string", 'r##"a"#b"##'), ("ident", "x")]),
        ('bar"x"', [("ident", "bar"), ("string", '"x"')]),
        ("r#check", [("ident", "r"), ("hash", "#check")]),
        # interpolation: braces are code, nested braces and strings inside
        (
            's!"a{f "}"}b"',
            [("ident", "s!"), ("istr_open", '"a{'), ("ident", "f"), ("string", '"}"'), ("istr_close", '}b"')],
        ),
        (
            'm!"{ {x := 1} }"',
            [
                ("ident", "m!"),
                ("istr_open", '"{'),
                ("symbol", "{"),
                ("ident", "x"),
                ("symbol", ":="),
                ("number", "1"),
                ("symbol", "}"),
                ("istr_close", '}"'),
            ],
        ),
        ('s!"\\{x}"', [("ident", "s!"), ("string", '"\\{x}"')]),
        ('f!"{e}"', [("ident", "f!"), ("istr_open", '"{'), ("ident", "e"), ("istr_close", '}"')]),
        ('throwError "{e}"', [("ident", "throwError"), ("string", '"{e}"')]),  # read both ways: see below
        # char literals vs primes vs `''` and Mathlib's `∑'`
        ("h' x₁' 'a'", [("ident", "h'"), ("ident", "x₁'"), ("char", "'a'")]),
        (
            "'\\'' '\\x41' '\\u0041' '\\n'",
            [("char", "'\\''"), ("char", "'\\x41'"), ("char", "'\\u0041'"), ("char", "'\\n'")],
        ),
        ("f '' s", [("ident", "f"), ("symbol", "''"), ("ident", "s")]),
        ("∑' n", [("symbol", "∑'"), ("ident", "n")]),
        # comments nest; the character after `/-` is skipped unread; doc comments are tokens
        ("/- /- -/ -/ x", [("ident", "x")]),
        ("/-/- -/ x", [("ident", "x")]),
        ("/-- d /- e -/ -/ x", [("doc", "/-- d /- e -/ -/"), ("ident", "x")]),
        ("a--b\nc", [("ident", "a"), ("ident", "c")]),
        # «» names normalise; `.«»` continues a name
        ("«IO».Process.run", [("ident", "«IO».Process.run")]),
        ("x.«a b».c", [("ident", "x.«a b».c")]),
        ("`«IO».x", [("name", "`«IO».x")]),
        ("t.{u}", [("ident", "t"), ("symbol", "."), ("symbol", "{"), ("ident", "u"), ("symbol", "}")]),
        (
            "#[1] %[x]",
            [
                ("symbol", "#"),
                ("symbol", "["),
                ("number", "1"),
                ("symbol", "]"),
                ("symbol", "%"),
                ("symbol", "["),
                ("ident", "x"),
                ("symbol", "]"),
            ],
        ),
        ("1_000 0x1F 2.5e-3", [("number", "1_000"), ("number", "0x1F"), ("number", "2.5e-3")]),
        ("λ Π Σ", [("symbol", "λ"), ("symbol", "Π"), ("symbol", "Σ")]),
    ],
)
def test_tokens_agree_with_lean(text, expected):
    s = scan(text)
    assert s.problems == []
    assert [(t.kind, t.text) for t in s.tokens] == expected


def test_names_drop_guillemets():
    assert [t.name for t in scan("«IO».Process.run `«Lean».Elab «unsafeBaseIO»").tokens] == [
        "IO.Process.run",
        "Lean.Elab",
        "unsafeBaseIO",
    ]


@pytest.mark.parametrize(
    "text, message",
    [
        ("'\\u{1F600}'", "malformed character literal"),  # Lean's \u takes exactly four hex digits
        ("'ab'", "malformed character literal"),
        ('"\\q"', "invalid escape sequence"),
        ('r#"abc"', "unterminated raw string literal"),
        ("«abc", "unterminated identifier escape"),
        ("/- /- -/", "unterminated comment"),
        ('s!"{x', "unterminated"),
        ("a\tb", "tabs are not allowed"),
    ],
)
def test_lexical_errors_lean_also_reports(text, message):
    assert any(message in p.message for p in scan(text).problems), scan(text).problems


def test_plain_string_braces_are_read_both_ways():
    s = scan('"{unsafeIO}" "{x}"')
    assert [t.text for t in s.tokens] == ['"{unsafeIO}"', '"{x}"'] and s.problems == []
    assert [t.name for t in s.shadow] == ["unsafeIO", "x"]
    assert "ambiguous string literal" in scan('"{\\" }"').problems[0].message


_FRAGMENTS = [
    '"',
    "'",
    "r#",
    '#"',
    "{",
    "}",
    "(",
    ")",
    "«",
    "»",
    "/-",
    "-/",
    "--",
    "\n",
    " ",
    "s!",
    "\\",
    "a",
    "x'",
    "#eval",
    "`",
    "`(",
    "@[",
    "]",
    "⟨",
    "⟩",
    "0x",
    "1.",
    "e",
    ":=",
    "theorem",
    "sorry",
    "∑'",
    "''",
    "IO",
    ".",
    "\t",
    "\r",
    "é",
    "λ",
    "𝔽",
    "₁",
]


def test_fuzz_the_lexer_never_crashes_and_tokens_are_ordered():
    rng = random.Random(0)
    for _ in range(400):
        text = "".join(rng.choice(_FRAGMENTS) for _ in range(rng.randint(0, 60)))
        s = scan(text)
        last = 0
        for t in s.tokens:
            assert last <= t.start < t.end <= len(text) and t.text == text[t.start : t.end]
            assert (t.line, t.col) == s.position(t.start)
            last = t.end
        report = run_precheck("import Mathlib\n" + text)
        assert report.errors or report.statement is not None


def _calls(text: str) -> int:
    count = 0

    def tracer(frame, event, arg):
        nonlocal count
        count += 1

    sys.setprofile(tracer)
    try:
        run_precheck(text)
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("name", list(ADVERSARIAL))
def test_the_precheck_does_linear_work_on_repeated_constructs(name):
    unit = ADVERSARIAL[name]

    def text(size):
        return "import Mathlib\n" + unit * max(1, size // len(unit)) + "\ntheorem t : (1 : ℕ) = 1 := by sorry\n"

    small, large = _calls(text(400)), _calls(text(1600))
    assert large <= 4.6 * small + 200, (small, large)  # quadratic work would be ~16x
