"""The statement compiler behind SymEq: Lean 4 / Isabelle statements -> typed IR -> normal form -> Z3.

    ir            the typed term/statement representation
    lean_frontend, isabelle_frontend   statement text -> IR (each system's syntax)
    elaborate     types and known Mathlib/Isabelle constants (builtins)
    normalize     standard forms (numerals, binders, hypotheses)
    smt           IR -> Z3 with each system's semantics
    align         variable alignments between two statements
    equivalence   pairwise equivalence and SymEq classes (union-find)
    lean_backend  the same question asked to Lean where it is installed

    from atf.symeq import SymEq
    SymEq().classes(candidates, language="lean")
"""

from atf.symeq.equivalence import PairResult, SymEq, SymEqResult, equivalence, parse

__all__ = ["SymEq", "SymEqResult", "PairResult", "equivalence", "parse"]
