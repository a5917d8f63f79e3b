"""The statement compiler behind SymEq: Lean 4 / Isabelle statements -> typed IR -> normal form -> Z3.

ir            the typed term/statement representation
lean_frontend, isabelle_frontend   statement text -> IR (each system's syntax)
elaborate     types and known Mathlib/Isabelle constants (builtins)
normalize     standard forms (numerals, binders, hypotheses)
smt           IR -> Z3 with each system's semantics
mathlib       functions computed at literals: digits, divisors, totient, Nat.log, factorisation (up to 10^15)
align         variable alignments between two statements
equivalence   pairwise equivalence and SymEq classes (union-find)
pool          the same, in worker processes with a hard time bound per pair and per problem
config        SymEqConfig: every SymEq default, once
lean_backend  the same question asked to Lean where it is installed

from atf.symeq import SymEqPool
with SymEqPool() as pool:
    result = pool.cluster(candidates, "lean")     # bounded by SymEqConfig.problem_budget_s
"""

from atf.symeq.config import SymEqConfig
from atf.symeq.equivalence import PairResult, SymEq, SymEqResult, equivalence, parse
from atf.symeq.pool import SymEqPool, shared_pool

__all__ = ["SymEq", "SymEqConfig", "SymEqPool", "SymEqResult", "PairResult", "equivalence", "parse", "shared_pool"]
