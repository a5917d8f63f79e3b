"""A name bound inside an opaque term is made canonical together with its fields: in `∑' s : ℕ, (s.succ : ℝ)`
the `s` of `s.succ` is the bound s (Lean's generalized field notation resolves `s.succ` to `Nat.succ s`). Only the
bare `s` was renamed, so a statement whose bound name shadows a variable (`(s : ℕ) … ∑ s in …, s.succ`) merged with
one where the field names the outer variable (`∑ t in …, s.succ`), which means something else."""

import pytest

from atf.symeq.equivalence import SymEq
from tests.lean_statements import thm, verdict_tests


@pytest.fixture(scope="module")
def symeq():
    return SymEq("lean", timeout_ms=2000)


def norm_sum(bound: str, field: str) -> str:
    return f"‖ (∑ {bound} in Finset.range 3, ({field}.succ : ℝ)) ‖ = 6"


def tsum(bound: str, field: str) -> str:
    return f"∑' {bound} : ℕ, 1 / ({field}.succ : ℝ) ^ 2 = Real.pi ^ 2 / 6"


MERGE = [
    (thm("(s : ℕ)", norm_sum("s", "s")), thm("(s : ℕ)", norm_sum("t", "t"))),
    (thm("", tsum("n", "n")), thm("", tsum("m", "m"))),
    (thm("(n : ℕ)", tsum("n", "n")), thm("(n : ℕ)", tsum("k", "k"))),
]

APART = [
    (thm("(s : ℕ)", norm_sum("s", "s")), thm("(s : ℕ)", norm_sum("t", "s"))),
    (thm("(n : ℕ)", tsum("n", "n")), thm("(n : ℕ)", tsum("m", "n"))),
]

test_merge, test_apart = verdict_tests(MERGE, APART)


PAIR = "(f : ℕ × ℕ → ℕ) (h : f = {lam})"
PATTERNS = [
    (
        thm(PAIR.format(lam="fun (x, y) => x + 2 * y"), "f (1, 0) = 1"),
        thm(PAIR.format(lam="fun (a, b) => a + 2 * b"), "f (1, 0) = 1"),
    ),
    (
        thm(PAIR.format(lam="fun ⟨x, y⟩ => x + 2 * y"), "f (1, 0) = 1"),
        thm(PAIR.format(lam="fun ⟨a, b⟩ => a + 2 * b"), "f (1, 0) = 1"),
    ),
]
PATTERNS_APART = [
    (
        thm(PAIR.format(lam="fun (x, y) => x + 2 * y"), "f (1, 0) = 1"),
        thm(PAIR.format(lam="fun (a, b) => b + 2 * a"), "f (1, 0) = 1"),
    ),
]
# every name of a pattern `fun (x, y) =>`, `fun ⟨x, y⟩ =>` is bound (only the first was made canonical)
test_pattern_merge, test_pattern_apart = verdict_tests(PATTERNS, PATTERNS_APART)
