import pytest
from test_judge_doubles import ScriptedEngine, user_text

from atf.judge import ConsistencyChecker, Judge, OAPConfig
from atf.judge.align import locate, priority_verdict
from atf.judge.judge import parse_judge_spec
from atf.judge.oap import combine
from atf.judge.prompts import OAP_PROPERTIES
from atf.llm import SamplingParams

PROBLEM = "Show that for every positive integer n, n^2 + n is even."
STATEMENT = "theorem t (n : ℕ) (hn : 0 < n) : Even (n ^ 2 + n) := by sorry"
OK = "VERDICT: consistent\nREASONS:\n- same variable, hypothesis and goal"
BAD = "VERDICT: inconsistent\nREASONS:\n- n must be an integer, not a natural number"


# ---- vote ----------------------------------------------------------------------------------------


def test_consistent_only_when_every_judge_says_so():
    a, b = ScriptedEngine("a", OK), ScriptedEngine("b", OK)
    assert ConsistencyChecker([a, b]).check(PROBLEM, STATEMENT).consistent
    c = ScriptedEngine("c", BAD)
    result = ConsistencyChecker([a, b, c]).check(PROBLEM, STATEMENT)
    assert not result.consistent and result.verdict == "inconsistent"
    assert [v.verdict for v in result.votes] == ["consistent", "consistent", "inconsistent"]
    feedback = result.feedback()
    assert "1 of 3 judge(s) object" in feedback and "- c: inconsistent" in feedback
    assert "n must be an integer, not a natural number" in feedback and "- a:" not in feedback


def test_unparseable_answer_counts_as_inconsistent_and_is_reported():
    chatty = ScriptedEngine("chatty", "The Lean statement looks consistent to me.")
    result = ConsistencyChecker([ScriptedEngine("a", OK), chatty]).check(PROBLEM, STATEMENT)
    vote = result.votes[1]
    assert not result.consistent
    assert vote.verdict == "inconsistent" and vote.parsed is False and vote.samples_parsed == 0
    assert vote.raw == ["The Lean statement looks consistent to me."]
    assert "chatty: its answer could not be read, counted as inconsistent" in result.feedback()
    assert "raw" not in result.to_dict()["votes"][1] and result.to_dict(raw=True)["votes"][1]["raw"]


def test_instructions_echoed_as_reasons_are_dropped():
    echo = OK.replace("same variable, hypothesis and goal", "say in REASONS what differs.") + "\n- the hypothesis 0 < n is kept"
    vote = ConsistencyChecker([ScriptedEngine("e", echo)]).check(PROBLEM, STATEMENT).votes[0]
    assert vote.verdict == "consistent" and vote.reasons == ["the hypothesis 0 < n is kept"]


def test_each_judge_gets_all_items_in_one_call_with_its_own_params():
    a = ScriptedEngine("a", lambda conv: OK if "prime" not in user_text(conv) else BAD)
    b = ScriptedEngine("b", OK)
    judge_b = Judge(b, params=SamplingParams(max_new_tokens=77, temperature=0.0))
    items = [(PROBLEM, STATEMENT), ("Show that 7 is prime.", "theorem p : Nat.Prime 7 := by sorry"), (PROBLEM, STATEMENT)]
    results = ConsistencyChecker([a, judge_b]).check_many(items)
    assert [r.consistent for r in results] == [True, False, True]
    assert [n for n, _ in a.calls] == [3] and [n for n, _ in b.calls] == [3]
    assert b.calls[0][1].max_new_tokens == 77 and a.calls[0][1].max_new_tokens == 384


def test_majority_of_samples_counts_unreadable_samples_against():
    three = lambda texts: ScriptedEngine("s", lambda conv: texts)  # noqa: E731
    params = SamplingParams(temperature=0.8)
    two_of_three = Judge(three([OK, OK, BAD]), params=params, samples=3)
    vote = ConsistencyChecker([two_of_three]).check(PROBLEM, STATEMENT).votes[0]
    assert vote.verdict == "consistent" and vote.samples == 3 and vote.samples_parsed == 3
    assert two_of_three.engine.calls[0][1].n == 3
    one_ok_one_junk = Judge(three([OK, "junk", BAD]), params=params, samples=3)
    vote = ConsistencyChecker([one_ok_one_junk]).check(PROBLEM, STATEMENT).votes[0]
    assert vote.verdict == "inconsistent" and vote.parsed is False and vote.samples_parsed == 2
    assert vote.reasons == ["n must be an integer, not a natural number"]
    ok_and_junk = Judge(three([OK, OK, "junk"]), params=params, samples=3)
    assert ConsistencyChecker([ok_and_junk]).check(PROBLEM, STATEMENT).consistent
    with pytest.raises(ValueError, match="needs temperature > 0"):
        Judge(ScriptedEngine("g", OK), samples=3)
    with pytest.raises(ValueError, match="prefill needs a token-in/token-out engine"):
        Judge(ScriptedEngine("g", OK), prefill=True)


def test_a_failing_engine_becomes_an_inconsistent_vote_with_the_error():
    def boom(conv):
        raise ConnectionError("server down")

    result = ConsistencyChecker([ScriptedEngine("a", OK), ScriptedEngine("down", boom)]).check(PROBLEM, STATEMENT)
    assert not result.consistent and result.votes[1].error == "ConnectionError: server down"
    assert "down: failed to answer (ConnectionError: server down)" in result.feedback()


def test_bad_input_and_config_are_rejected_clearly():
    checker = ConsistencyChecker([ScriptedEngine("a", OK)])
    with pytest.raises(ValueError, match="item 1: statement must be a non-empty string"):
        checker.check_many([(PROBLEM, STATEMENT), (PROBLEM, "  ")])
    with pytest.raises(ValueError, match=r"item 0: expected a \(problem, statement\) pair"):
        checker.check_many([PROBLEM])
    with pytest.raises(ValueError, match="mode must be one of"):
        ConsistencyChecker([ScriptedEngine("a", OK)], mode="majority")
    with pytest.raises(ValueError, match="at least one judge"):
        ConsistencyChecker([])
    assert checker.check_many([]) == []


def test_duplicate_judge_names_are_made_unique():
    engine = ScriptedEngine("m", OK)
    checker = ConsistencyChecker([engine, Judge(engine, params=SamplingParams(temperature=0.5, top_p=0.9))])
    assert [j.name for j in checker.judges] == ["m", "m#2"]


def test_judge_spec_parsing():
    assert parse_judge_spec("openai:http://h:8000/v1#qwen::temperature=0.6,samples=3,name=q") == (
        "openai:http://h:8000/v1#qwen",
        {"temperature": 0.6, "samples": 3, "name": "q"},
    )
    assert parse_judge_spec("smollm2") == ("smollm2", {})
    with pytest.raises(ValueError, match="unknown judge option 'temp'"):
        parse_judge_spec("smollm2::temp=1")
    with pytest.raises(ValueError, match="is not key=value"):
        parse_judge_spec("smollm2::samples")


# ---- OAP -----------------------------------------------------------------------------------------


def oap_engine(no: set[str], rating: str = "RATING: 4", unreadable: set[str] = frozenset()):
    """Answers "no" for the properties named in `no`, junk for `unreadable`, "yes" otherwise."""

    def reply(conv):
        text = user_text(conv)
        if "Rate how faithfully" in text:
            return rating
        prop = next(p for p in OAP_PROPERTIES if p.question in text)
        if prop.name in unreadable:
            return "Hmm."
        return "ANSWER: no" if prop.name in no else "ANSWER: yes"

    return ScriptedEngine("oap", reply)


def test_oap_groups_weights_and_threshold():
    engine = oap_engine(no={"quantification", "constant"})
    checker = ConsistencyChecker([engine], mode="oap", fv=lambda statements: [True] * len(statements))
    vote = checker.check(PROBLEM, STATEMENT).votes[0]
    s = vote.scores
    assert s["properties"]["quantification"] == 0.0 and s["properties"]["formula"] == 1.0
    assert s["LP"] == pytest.approx(3 / 4) and s["MC"] == pytest.approx(2 / 3) and s["FQ"] == 1.0 and s["FV"] == 1.0
    expected = 0.35 * 0.75 + 0.35 * (2 / 3) + 0.1 * 1.0 + 0.2 * 1.0
    assert s["score"] == pytest.approx(expected) and s["rating"] == 4 and s["scoring"] == "sample"
    assert vote.verdict == "consistent" and vote.parsed  # 0.796 >= 0.7
    assert [r.split(" ")[0] for r in vote.reasons] == ["quantification", "constant"]
    # nine property prompts + one rating prompt per item, all in one call
    assert [n for n, _ in engine.calls] == [10]

    strict = ConsistencyChecker([oap_engine(no={"quantification", "constant"})], mode="oap", fv=1.0, oap=OAPConfig(threshold=0.8))
    result = strict.check(PROBLEM, STATEMENT)
    assert not result.consistent
    assert "- oap: score 0.796 below 0.80 (LP 0.75, MC 0.67, FQ 1.00, FV 1.00; rating 4.0/5)." in result.feedback() and "quantification 0.00: check each ∀/∃/∃!" in result.feedback()


def test_oap_without_fv_renormalises_and_failed_fv_is_reported():
    vote = ConsistencyChecker([oap_engine(no={"formula"})], mode="oap", fv=None).check(PROBLEM, STATEMENT).votes[0]
    lp = 3 / 4
    assert vote.scores["FV"] is None
    assert vote.scores["score"] == pytest.approx((0.35 * lp + 0.35 + 0.1) / 0.8)
    failed = ConsistencyChecker([oap_engine(no=set())], mode="oap", fv=0.0).check(PROBLEM, STATEMENT)
    assert failed.votes[0].scores["score"] == pytest.approx(0.8) and failed.consistent
    assert failed.votes[0].reasons[0] == "FV: the statement does not pass the syntax check"


def test_oap_unreadable_property_scores_zero_and_rating_gate():
    engine = oap_engine(no=set(), unreadable={"operator"}, rating="RATING: 2")
    checker = ConsistencyChecker([engine], mode="oap", fv=1.0, oap=OAPConfig(min_rating=3))
    result = checker.check(PROBLEM, STATEMENT)
    vote = result.votes[0]
    assert vote.scores["properties"]["operator"] == 0.0 and vote.scores["unparsed"] == ["operator"]
    assert vote.parsed is False and vote.samples == 10 and vote.samples_parsed == 9
    assert vote.scores["score"] >= 0.7 and not result.consistent  # the rating gate fails it
    assert "operator: answer unreadable, scored 0" in vote.reasons and "overall rating 2.0 below 3" in vote.reasons


def test_oap_combine_and_config_validation():
    props = {p.name: 1.0 for p in OAP_PROPERTIES}
    props["conciseness"] = 0.0
    got = combine(props, None, OAPConfig(weights={"LP": 1.0, "MC": 0.0, "FQ": 1.0, "FV": 5.0}))
    assert got["FQ"] == 0.5 and got["score"] == pytest.approx(0.75)
    with pytest.raises(ValueError, match="unknown OAP weight groups"):
        OAPConfig(weights={"XX": 1.0})
    with pytest.raises(ValueError, match="at least one of LP, MC, FQ"):
        OAPConfig(weights={"FV": 1.0})


def test_oap_fv_auto_without_syntax_checker_is_left_out(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_lean(name, globals=None, locals=None, fromlist=(), level=0):
        if name == "atf.lean" and fromlist and "SyntaxChecker" in fromlist:
            raise ImportError("cannot import name 'SyntaxChecker'")
        return real_import(name, globals, locals, fromlist, level)

    monkeypatch.setattr(builtins, "__import__", no_lean)
    checker = ConsistencyChecker([oap_engine(no=set())], mode="oap")
    assert checker.check(PROBLEM, STATEMENT).votes[0].scores["FV"] is None and checker.fv is None


def test_oap_fv_auto_uses_the_syntax_checker_protocol():
    class Result:
        def __init__(self, ok):
            self.ok = ok

    class FakeSyntaxChecker:
        def check_many(self, statements):
            return [Result("sorry" in s) for s in statements]

    checker = ConsistencyChecker([oap_engine(no=set())], mode="oap")
    checker._syntax_checker = FakeSyntaxChecker()
    results = checker.check_many([(PROBLEM, STATEMENT), (PROBLEM, "theorem t : True := trivial")])
    assert [r.votes[0].scores["FV"] for r in results] == [1.0, 0.0]


# ---- align-then-label ----------------------------------------------------------------------------


def findings_json(*findings):
    import json

    return json.dumps({"findings": [dict(zip(("informal", "lean", "label", "explanation"), f)) for f in findings]})


def test_priority_rule():
    assert priority_verdict(["faithful", "undecidable", "unfaithful"]) == "unfaithful"
    assert priority_verdict(["faithful", "undecidable"]) == "undecidable"
    assert priority_verdict(["faithful", "faithful"]) == "faithful"
    with pytest.raises(ValueError):
        priority_verdict(["fine"])


def test_locate_spans():
    text = "theorem t (n : ℕ)\n    (hn : 0 < n) : Even (n ^ 2 + n)"
    assert locate("(hn : 0 < n)", text) == (22, 34) and text[22:34] == "(hn : 0 < n)"
    start, end = locate("(n : ℕ) (hn : 0 < n)", text)  # newline + indent in the text, one space in the quote
    assert text[start:end] == "(n : ℕ)\n    (hn : 0 < n)"
    assert locate("EVEN (n ^ 2 + n)", text) == (37, 53)
    assert locate("(n : ℤ)", text) is None and locate(None, text) is None


def test_align_findings_spans_and_verdicts():
    good = ScriptedEngine(
        "good",
        findings_json(
            ("every positive integer n", "(n : ℕ) (hn : 0 < n)", "faithful", "positive integer as ℕ with 0 < n"),
            ("n^2 + n is even", "Even (n ^ 2 + n)", "faithful", "same goal"),
        ),
    )
    picky = ScriptedEngine(
        "picky",
        findings_json(
            ("n^2 + n is even", "Even (n ^ 2 + n)", "faithful", ""),
            ("positive integer", "(n : ℕ)", "undecidable", "is 0 positive here?"),
        ),
    )
    result = ConsistencyChecker([good], mode="align").check(PROBLEM, STATEMENT)
    assert result.consistent and result.verdict == "faithful" and len(result.findings) == 2
    f = result.findings[0]
    assert PROBLEM[slice(*f.informal_span)] == "every positive integer n"
    assert STATEMENT[slice(*f.lean_span)] == "(n : ℕ) (hn : 0 < n)" and f.judge == "good"

    result = ConsistencyChecker([good, picky], mode="align").check(PROBLEM, STATEMENT)
    assert result.verdict == "undecidable" and not result.consistent
    assert [v.verdict for v in result.votes] == ["faithful", "undecidable"]
    assert '- picky: undecidable.\n  - undecidable: "positive integer" <-> `(n : ℕ)`: is 0 positive here?' in result.feedback()

    wrong = ScriptedEngine("wrong", findings_json(("n^2 + n", "n ^ 3 + n", "unfaithful", "exponent changed")))
    result = ConsistencyChecker([good, picky, wrong], mode="align").check(PROBLEM, STATEMENT)
    assert result.verdict == "unfaithful"
    assert result.findings[-1].lean_span is None and "[quote not found in the text]" in result.feedback()


def test_align_unreadable_answer_is_a_defect():
    result = ConsistencyChecker([ScriptedEngine("junk", "Looks right!")], mode="align").check(PROBLEM, STATEMENT)
    vote = result.votes[0]
    assert result.verdict == "unfaithful" and not result.consistent and vote.parsed is False
    assert "junk: its answer could not be read, counted as inconsistent" in result.feedback()


def test_align_majority_of_samples():
    ok = findings_json(("n^2 + n is even", "Even (n ^ 2 + n)", "faithful", ""))
    bad = findings_json(("n^2 + n is even", "Even (n ^ 2 + n)", "unfaithful", "wrong"))
    judge = Judge(ScriptedEngine("s", lambda conv: [ok, bad, ok]), params=SamplingParams(temperature=1.0), samples=3)
    vote = ConsistencyChecker([judge], mode="align").check(PROBLEM, STATEMENT).votes[0]
    assert vote.verdict == "faithful" and vote.samples_parsed == 3
    judge = Judge(ScriptedEngine("s", lambda conv: [ok, "junk", bad]), params=SamplingParams(temperature=1.0), samples=3)
    vote = ConsistencyChecker([judge], mode="align").check(PROBLEM, STATEMENT).votes[0]
    assert vote.verdict == "unfaithful" and not vote.parsed  # junk counts as a defect: 2 of 3


def test_result_round_trips_to_json():
    import json

    result = ConsistencyChecker([ScriptedEngine("a", BAD)]).check(PROBLEM, STATEMENT)
    d = json.loads(json.dumps(result.to_dict()))
    assert d["consistent"] is False and d["votes"][0]["reasons"] and d["feedback"] == result.feedback()


def test_oap_fv_auto_with_the_real_syntax_checker():
    try:
        from atf.lean import SyntaxChecker  # noqa: F401  (built in parallel; skip until it lands)
    except ImportError:
        pytest.skip("atf.lean.SyntaxChecker not available yet")
    checker = ConsistencyChecker([oap_engine(no=set())], mode="oap")  # fv="auto"
    good = "import Mathlib\n\n" + STATEMENT
    broken = "import Mathlib\n\ntheorem t (n : ℕ) : := by sorry"
    results = checker.check_many([(PROBLEM, good), (PROBLEM, broken)])
    assert [r.votes[0].scores["FV"] for r in results] == [1.0, 0.0]
    assert "FV: the statement does not pass the syntax check" in results[1].votes[0].reasons
