import pytest

from atf.judge.parsing import (
    parse_findings,
    parse_rating,
    parse_verdict,
    parse_yes_no,
    strip_thinking,
)


@pytest.mark.parametrize(
    "text, verdict, reasons",
    [
        (
            "VERDICT: consistent\nREASONS:\n- same hypotheses\n- same goal",
            "consistent",
            ["same hypotheses", "same goal"],
        ),
        ("**Verdict:** Inconsistent\n**Reasons:**\n1. n must be positive", "inconsistent", ["n must be positive"]),
        ("VERDICT: **inconsistent**.\nREASONS: x is real, not natural", "inconsistent", ["x is real, not natural"]),
        ("## VERDICT - not consistent\n* the bound is 10, not 100", "inconsistent", ["the bound is 10, not 100"]),
        ('```json\n{"verdict": "consistent", "reasons": ["fine"]}\n```', "consistent", ["fine"]),
        ('{"Verdict": "inconsistent", "reasons": "drops a hypothesis",}', "inconsistent", ["drops a hypothesis"]),
        ("<think>the hypotheses... hmm</think>\nVERDICT: consistent\nREASONS:\n- ok", "consistent", ["ok"]),
        ("Consistent.", "consistent", []),
        ("VERDICT: inconsistent\nREASONS:\n- <one short reason per line>\n- x is real", "inconsistent", ["x is real"]),
    ],
)
def test_verdicts_in_common_shapes_are_read(text, verdict, reasons):
    assert parse_verdict(text) == (verdict, reasons)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "The Lean statement is consistent with the informal statement.",  # no label: never guessed
        "VERDICT: consistent or inconsistent\nREASONS:\n- <one short reason per line>",  # template echoed
        "<think>Let me check the quantifiers. VERDICT: consistent",  # think block never closed
        "VERDICT: maybe",
        '{"verdict": "probably"}',
    ],
)
def test_unreadable_verdicts_are_none(text):
    assert parse_verdict(text)[0] is None


def test_strip_thinking():
    assert strip_thinking("<think>a</think> b <THINK>c</THINK>") == ""  # all up to the last </think> is thinking
    assert strip_thinking("draft: consistent</think> VERDICT: inconsistent") == "VERDICT: inconsistent"
    assert strip_thinking("<think>never closed") is None


@pytest.mark.parametrize(
    "text, answer",
    [
        ("ANSWER: yes", True),
        ("answer: **No**", False),
        ("Yes", True),
        ('{"answer": "no"}', False),
        ("ANSWER: yes or no", None),
        ("I would say yes", None),
        ("ANSWER: yes\nANSWER: no", False),
        ("ANSWER: yes\nWHY: nothing is dropped", True),
        ("ANSWER: yes, but the domain differs", None),
        ("ANSWER: yes\nWHY: the bound should be 10", None),
        ("ANSWER: yes\nActually, no.", None),
        ("Let me think.</think>\nANSWER: no\nWHY: ℕ instead of ℤ", False),
        ("ANSWER: yes?", None),
    ],
)
def test_yes_no(text, answer):
    assert parse_yes_no(text) is answer


@pytest.mark.parametrize(
    "text, rating",
    [
        ("RATING: 4", 4),
        ("Rating: **5/5**", 5),
        ("3", 3),
        ('{"rating": 2}', 2),
        ("RATING: 7", None),
        ("RATING: <1-5>", None),
        ("I rate it 4", None),
        ("RATING: 4\nRATING: 2", 2),
    ],
)
def test_rating(text, rating):
    assert parse_rating(text) == rating


def test_findings_as_object_list_and_json_lines():
    obj = '{"findings": [{"informal": "n > 0", "lean": "0 < n", "label": "faithful", "explanation": "same"}]}'
    expected = [{"informal": "n > 0", "lean": "0 < n", "label": "faithful", "explanation": "same"}]
    assert parse_findings(obj) == expected
    assert parse_findings("```json\n" + obj[13:-1] + "\n```") == expected  # a bare list
    lines = (
        '{"informal": "n > 0", "lean": null, "label": "unfaithful", "explanation": "missing"}\n'
        '{"nl": "real x", "formal": "(x : ℝ)", "label": "Faithful"}'
    )
    got = parse_findings(lines)
    assert [f["label"] for f in got] == ["unfaithful", "faithful"]
    assert got[0]["lean"] is None and got[1]["informal"] == "real x" and got[1]["lean"] == "(x : ℝ)"


@pytest.mark.parametrize(
    "text",
    [
        '{"findings": []}',
        "no json here",
        '[{"informal": "a", "lean": "b", "label": "fine"}]',
        '{"findings": [{"informal": "a", "lean": "b"}]}',
    ],
)
def test_unreadable_findings_are_none(text):
    assert parse_findings(text) is None


def test_explanations():
    from atf.judge.parsing import parse_explanation

    assert parse_explanation("ANSWER: no\nWHY: the bound is 10, not 100") == "the bound is 10, not 100"
    assert parse_explanation('{"answer": "no", "why": "drops h0"}') == "drops h0"
    assert parse_explanation("draft WHY: x</think>ANSWER: yes") == ""  # only the final answer counts
