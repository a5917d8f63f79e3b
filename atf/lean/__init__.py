"""Lean 4 syntax check: statement model and parser, pre-checks, REPL driver, grouped batch compilation.

    from atf.lean import SyntaxChecker, SyntaxResult, LeanStatement, parse_statement, precheck

`SyntaxChecker` pre-checks each statement (shape, balance, and anything that could run code while Lean
elaborates), then compiles those that pass in a Lean REPL when one is configured, many statements per
REPL command; without Lean its results say checked_by="precheck".
"""

from atf.lean.checker import Diagnostic, SyntaxChecker, SyntaxResult, find_repl
from atf.lean.precheck import precheck, run_precheck
from atf.lean.repl import HeaderError, LeanRepl, LeanUnavailable, ReplFailure
from atf.lean.sandbox import SandboxConfig
from atf.lean.statement import Binder, LeanStatement, StatementParseError, parse_statement

__all__ = [
    "Binder",
    "Diagnostic",
    "HeaderError",
    "LeanRepl",
    "LeanStatement",
    "LeanUnavailable",
    "ReplFailure",
    "SandboxConfig",
    "StatementParseError",
    "SyntaxChecker",
    "SyntaxResult",
    "find_repl",
    "parse_statement",
    "precheck",
    "run_precheck",
]
