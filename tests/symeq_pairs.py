"""Compare two theorem signatures with SymEq (the helpers of the set tests: tests/test_symeq_sets_s19.py, ...)."""

from atf.symeq.equivalence import SymEq

H = "import Mathlib\n"


def same_lean(a: str, b: str) -> bool:
    """`theorem t <a> := by sorry` and the same for b, under `import Mathlib`, at a 1 s Z3 timeout."""
    return (
        SymEq("lean", timeout_ms=1000)
        .compare(f"{H}theorem t {a} := by sorry", f"{H}theorem t {b} := by sorry")
        .equivalent
    )


def same_isabelle(a: str, b: str) -> bool:
    """`theorem <a>` and `theorem <b>` (Isabelle), at a 1 s Z3 timeout."""
    return SymEq("isabelle", timeout_ms=1000).compare(f"theorem {a}", f"theorem {b}").equivalent
