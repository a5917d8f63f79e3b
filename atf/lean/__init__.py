"""Lean 4 syntax check: statement model and parser, pre-checks, REPL driver (grouping follows).

    from atf.lean import LeanStatement, parse_statement, precheck, LeanRepl
"""

from atf.lean.precheck import precheck, run_precheck
from atf.lean.repl import HeaderError, LeanRepl, LeanUnavailable, ReplFailure
from atf.lean.statement import Binder, LeanStatement, StatementParseError, parse_statement

__all__ = [
    "Binder", "HeaderError", "LeanRepl", "LeanStatement", "LeanUnavailable", "ReplFailure",
    "StatementParseError", "parse_statement", "precheck", "run_precheck",
]
