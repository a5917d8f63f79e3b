"""Lean 4 syntax check: statement model and parser, pre-checks (the REPL driver follows).

    from atf.lean import LeanStatement, parse_statement, precheck
"""

from atf.lean.precheck import precheck, run_precheck
from atf.lean.statement import Binder, LeanStatement, StatementParseError, parse_statement

__all__ = ["Binder", "LeanStatement", "StatementParseError", "parse_statement", "precheck", "run_precheck"]
