"""Lean 4 theorem statements for SymEq tests, written from their parts, and the two verdicts those tests check."""

import pytest

from atf.symeq.equivalence import SymEq

# the header the BEq/ProofNet statements carry; names resolve through its `open`s
MATHLIB = "import Mathlib\nopen Fintype Subgroup Set\nopen scoped BigOperators\n\n"


def thm(binders: str, concl: str, header: str = "") -> str:
    """`theorem t <binders> : <concl> := by sorry`, after `header`."""
    return f"{header}theorem t {binders} : {concl} := by sorry"


def merged(symeq: SymEq, a: str, b: str) -> bool:
    return symeq.compare(a, b).equivalent


def apart(symeq: SymEq, a: str, b: str) -> bool:
    """Neither reading order merges the pair."""
    return not symeq.compare(a, b).equivalent and not symeq.compare(b, a).equivalent


def verdict_tests(merge: list[tuple[str, str]], keep_apart: list[tuple[str, str]]):
    """The two tests of a module's tables (Lean or Isabelle): each pair of `merge` merges in both reading orders,
    each of `keep_apart` in neither; a failure prints the verdict. The module binds them to `test_...` names and
    defines a `symeq` fixture."""

    @pytest.mark.parametrize("a,b", merge)
    def test_merge(symeq, a, b):
        for x, y in ((a, b), (b, a)):
            res = symeq.compare(x, y)
            assert res.equivalent, res.describe()

    @pytest.mark.parametrize("a,b", keep_apart)
    def test_apart(symeq, a, b):
        for x, y in ((a, b), (b, a)):
            res = symeq.compare(x, y)
            assert not res.equivalent, res.describe()

    return test_merge, test_apart


def fuzz_sample(symeq: SymEq, pairs: list) -> tuple[int, list[tuple[str, str]]]:
    """A fuzzer's pairs (eval/symeq_fuzz.py `make_pairs`, Lean or Isabelle) compared by SymEq: how many it merged, and
    the merged pairs the oracle calls suspect (`Verdict.suspect`)."""
    from eval.symeq_fuzz import is_suspect

    merged, suspects = 0, []
    for a, b, oa, ob in pairs:
        if symeq.compare(a, b).equivalent:
            merged += 1
            if is_suspect(oa, ob):
                suspects.append((a, b))
    return merged, suspects
