"""The hostile corpus (tests/lean_hostile_corpus.py): every hostile input is rejected by the rule its class
belongs to, every benign look-alike is admitted."""

import pytest

from atf.lean import run_precheck
from tests.lean_hostile_corpus import BENIGN, HOSTILE


def test_the_corpus_is_large_and_names_are_unique():
    assert len(HOSTILE) >= 100
    ids = [c[0] for c in HOSTILE] + [c[0] for c in BENIGN]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize("case_id, text, rule", HOSTILE, ids=[c[0] for c in HOSTILE])
def test_hostile_input_is_rejected_by_its_rule(case_id, text, rule):
    report = run_precheck(text)
    assert not report.ok
    assert rule in {p.rule for p in report.errors}, [(p.rule, str(p)) for p in report.errors]
    assert all(p.line >= 0 and p.col >= 0 for p in report.errors)


@pytest.mark.parametrize("case_id, text", BENIGN, ids=[c[0] for c in BENIGN])
def test_benign_look_alike_is_admitted(case_id, text):
    report = run_precheck(text)
    assert report.ok, [str(p) for p in report.errors]
    assert report.statement is not None
