"""The real tools behind the agent's Tool interface: local checkers and the HTTP tool servers."""

import pytest

from atf.agent.tools import (
    SYNTAX_SCHEMA,
    ConsistencyCheckTool,
    RemoteConsistencyTool,
    SyntaxCheckTool,
    ToolRequest,
    validate_arguments,
)
from atf.llm.base import SamplingParams

GOOD = "import Mathlib\n\ntheorem t (n : ℕ) : n + 0 = n := by sorry"
BAD = "import Mathlib\n\ntheorem t (n : ℕ) : n + 0 = n := by sorry)"


def test_validate_arguments():
    assert validate_arguments(SYNTAX_SCHEMA, {"statement": "x"}) is None
    assert "needs the argument" in validate_arguments(SYNTAX_SCHEMA, {})
    assert "must be a string" in validate_arguments(SYNTAX_SCHEMA, {"statement": 3})
    assert "is empty" in validate_arguments(SYNTAX_SCHEMA, {"statement": "  "})
    assert "has no argument" in validate_arguments(SYNTAX_SCHEMA, {"statement": "x", "proof": "y"})


def test_real_syntax_checker_local_and_served():
    pytest.importorskip("atf.lean")
    from fastapi.testclient import TestClient

    from atf.lean import SyntaxChecker
    from atf.lean.server import RemoteSyntaxChecker, create_app

    local = SyntaxCheckTool(SyntaxChecker())
    requests = [ToolRequest("p", {"statement": GOOD}), ToolRequest("p", {"statement": BAD})]
    results = local.call(requests)
    assert [r.passed for r in results] == [True, False] and results[1].feedback
    with TestClient(create_app(SyntaxChecker())) as client:
        remote = RemoteSyntaxChecker("http://testserver")
        remote._client = client
        assert SyntaxCheckTool(remote).call(requests) == results


def test_real_consistency_checker_local_and_served(tiny_engine):
    from fastapi.testclient import TestClient

    from atf.judge import ConsistencyChecker, Judge
    from atf.judge.server import create_app

    checker = ConsistencyChecker([Judge(engine=tiny_engine, params=SamplingParams(max_new_tokens=8, temperature=0))])
    requests = [ToolRequest("Show that n + 0 = n.", {"statement": GOOD})]
    local = ConsistencyCheckTool(checker).call(requests)
    expected = checker.check("Show that n + 0 = n.", GOOD)
    assert local[0].passed == expected.consistent and local[0].feedback == expected.feedback()
    with TestClient(create_app(checker)) as client:
        assert RemoteConsistencyTool("http://testserver", client=client).call(requests) == local
