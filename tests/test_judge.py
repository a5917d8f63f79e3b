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
    assert "chatty: inconsistent (1 of 1 answer(s) could not be read and count as inconsistent)" in result.feedback()
    assert "raw" not in result.to_dict()["votes"][1] and result.to_dict(raw=True)["votes"][1]["raw"]


def test_instructions_echoed_as_reasons_are_dropped():
    echo = (
        OK.replace("same variable, hypothesis and goal", "say in REASONS what differs.")
        + "\n- the hypothesis 0 < n is kept"
    )
    vote = ConsistencyChecker([ScriptedEngine("e", echo)]).check(PROBLEM, STATEMENT).votes[0]
    assert vote.verdict == "consistent" and vote.reasons == ["the hypothesis 0 < n is kept"]


def test_each_judge_gets_all_items_in_one_call_with_its_own_params():
    a = ScriptedEngine("a", lambda conv: OK if "prime" not in user_text(conv) else BAD)
    b = ScriptedEngine("b", OK)
    judge_b = Judge(b, params=SamplingParams(max_new_tokens=77, temperature=0.0))
    items = [
        (PROBLEM, STATEMENT),
        ("Show that 7 is prime.", "theorem p : Nat.Prime 7 := by sorry"),
        (PROBLEM, STATEMENT),
    ]
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


def test_a_failing_engine_is_an_error_not_a_verdict():
    def boom(conv):
        raise ConnectionError("server down at http://judge:8000")

    result = ConsistencyChecker([ScriptedEngine("a", OK), ScriptedEngine("down", boom)]).check(PROBLEM, STATEMENT)
    assert result.verdict == "error" and result.errored and not result.consistent
    assert result.votes[1].verdict == "error" and result.votes[1].error.startswith("ConnectionError: server down")
    assert result.feedback() == "Consistency check unavailable, try again."  # no URL, no server text
    # a rejection by a judge that did answer stands: consistency needs every judge
    decided = ConsistencyChecker([ScriptedEngine("b", BAD), ScriptedEngine("down", boom)]).check(PROBLEM, STATEMENT)
    assert decided.verdict == "inconsistent" and "n must be an integer" in decided.feedback()
    assert "http" not in decided.feedback() and "1 judge(s) did not answer" in decided.feedback()


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
    spec = "openai:http://h:8000/v1#qwen::temperature=0.6,samples=3,name=q,timeout=30,retries=2,thinking=true"
    assert parse_judge_spec(spec) == (
        "openai:http://h:8000/v1#qwen::retries=2,timeout=30.0",  # the engine's own keys stay with the engine
        {"temperature": 0.6, "samples": 3, "name": "q", "thinking": True},
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
        return f"ANSWER: no\nWHY: {prop.name} differs here" if prop.name in no else "ANSWER: yes\nWHY: kept"

    return ScriptedEngine("oap", reply)


def test_oap_groups_weights_and_threshold():
    engine = oap_engine(no={"quantification", "constant"})
    checker = ConsistencyChecker([engine], mode="oap", fv=lambda statements: [True] * len(statements))
    vote = checker.check(PROBLEM, STATEMENT).votes[0]
    s = vote.scores
    assert s["properties"]["quantification"] == 0.0 and s["properties"]["formula"] == 1.0
    assert s["LP"] == pytest.approx(3 / 4) and s["MC"] == pytest.approx(2 / 3) and s["FQ"] == 1.0 and s["FV"] == 1.0
    expected = (0.75 + 2 / 3 + 1.0) / 3  # equal aspect weights; FV is a veto, not a weight
    assert s["score"] == pytest.approx(expected) and s["rating"] == 4 and s["scoring"] == "sample"
    assert vote.verdict == "consistent" and vote.parsed and s["failed"] == []  # 0.806 >= 0.7
    assert [r.split(" ")[0] for r in vote.reasons] == ["quantification", "constant"]
    assert vote.reasons[0] == "quantification (0.00): quantification differs here"  # the judge's WHY is the feedback
    # nine property prompts + one rating prompt per item, all in one call
    assert [n for n, _ in engine.calls] == [10]

    strict = ConsistencyChecker(
        [oap_engine(no={"quantification", "constant"})], mode="oap", fv=1.0, oap=OAPConfig(threshold=0.85)
    )
    result = strict.check(PROBLEM, STATEMENT)
    assert not result.consistent and result.votes[0].scores["failed"] == ["score"]
    assert (
        "- oap: inconsistent: score 0.806 (threshold 0.85; LP 0.75, MC 0.67, FQ 1.00, FV 1.00; rating 4.0/5)."
        in result.feedback()
    )
    assert "constant (0.00): constant differs here" in result.feedback()


def test_oap_without_a_compile_fv_is_left_out_and_fv_zero_is_a_veto():
    vote = ConsistencyChecker([oap_engine(no={"formula"})], mode="oap", fv=None).check(PROBLEM, STATEMENT).votes[0]
    assert vote.scores["FV"] is None and "pre-check only" in vote.scores["fv_note"]
    assert vote.scores["score"] == pytest.approx((3 / 4 + 1 + 1) / 3)
    failed = ConsistencyChecker([oap_engine(no=set())], mode="oap", fv=0.0).check(PROBLEM, STATEMENT)
    assert failed.votes[0].scores["score"] == pytest.approx(1.0) and not failed.consistent  # all nine "yes"
    assert failed.votes[0].scores["failed"] == ["FV"] and failed.votes[0].reasons[0].startswith(
        "FV: Lean did not compile"
    )


def test_oap_unreadable_property_scores_zero_and_rating_gate():
    engine = oap_engine(no=set(), unreadable={"operator"}, rating="RATING: 2")
    checker = ConsistencyChecker([engine], mode="oap", fv=1.0, oap=OAPConfig(min_rating=3))
    result = checker.check(PROBLEM, STATEMENT)
    vote = result.votes[0]
    assert vote.scores["properties"]["operator"] == 0.0 and vote.scores["unparsed"] == ["operator"]
    assert vote.parsed is False and vote.samples == 10 and vote.samples_parsed == 9
    assert vote.scores["score"] >= 0.7 and not result.consistent
    assert vote.scores["failed"] == ["unreadable", "rating"]
    assert "operator: answer unreadable, so the vote counts as inconsistent" in vote.reasons
    assert "rating gate: overall rating 2.0 is below the required 3" in vote.reasons
    gate_only = ConsistencyChecker(
        [oap_engine(no=set(), rating="RATING: 2")], mode="oap", fv=1.0, oap=OAPConfig(min_rating=3)
    )
    vote = gate_only.check(PROBLEM, STATEMENT).votes[0]
    assert vote.scores["failed"] == ["rating"] and vote.scores["score"] == 1.0 and vote.verdict == "inconsistent"
    unreadable_only = ConsistencyChecker([oap_engine(no=set(), unreadable={"formula"})], mode="oap", fv=1.0)
    vote = unreadable_only.check(PROBLEM, STATEMENT).votes[0]
    assert vote.scores["score"] >= 0.7 and vote.scores["failed"] == ["unreadable"] and vote.verdict == "inconsistent"


def test_oap_combine_and_config_validation():
    props = {p.name: 1.0 for p in OAP_PROPERTIES}
    props["conciseness"] = 0.0
    got = combine(props, OAPConfig(weights={"LP": 1.0, "MC": 0.0, "FQ": 1.0}))
    assert got["FQ"] == 0.5 and got["score"] == pytest.approx(0.75)
    with pytest.raises(ValueError, match="unknown OAP weight groups"):
        OAPConfig(weights={"XX": 1.0})
    with pytest.raises(ValueError, match="FV is a veto"):
        OAPConfig(weights={"LP": 1.0, "FV": 1.0})
    with pytest.raises(ValueError, match="at least one of LP, MC, FQ"):
        OAPConfig(weights={"LP": 0.0})


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
        def __init__(self, ok, checked_by):
            self.ok, self.checked_by = ok, checked_by

    class FakeSyntaxChecker:  # Lean compiles statements that mention `sorry`; "pre:" ones only get pre-checked
        def check_many(self, statements):
            return [Result("sorry" in s, "precheck" if s.startswith("pre:") else "lean") for s in statements]

    checker = ConsistencyChecker([oap_engine(no=set())], mode="oap")
    checker._syntax_checker = FakeSyntaxChecker()
    items = [(PROBLEM, STATEMENT), (PROBLEM, "theorem t : True := trivial"), (PROBLEM, "pre: theorem t := by sorry")]
    results = checker.check_many(items)
    assert [r.votes[0].scores["FV"] for r in results] == [1.0, 0.0, None]
    assert [r.verdict for r in results] == ["consistent", "inconsistent", "consistent"]


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
    assert (
        '- picky: undecidable.\n  - undecidable: "positive integer" <-> `(n : ℕ)`: is 0 positive here?'
        in result.feedback()
    )

    wrong = ScriptedEngine("wrong", findings_json(("n^2 + n", "n ^ 3 + n", "unfaithful", "exponent changed")))
    result = ConsistencyChecker([good, picky, wrong], mode="align").check(PROBLEM, STATEMENT)
    assert result.verdict == "unfaithful"
    assert result.findings[-1].lean_span is None and "[quote not found in the text]" in result.feedback()


def test_align_unreadable_answer_is_a_defect():
    result = ConsistencyChecker([ScriptedEngine("junk", "Looks right!")], mode="align").check(PROBLEM, STATEMENT)
    vote = result.votes[0]
    assert result.verdict == "unfaithful" and not result.consistent and vote.parsed is False
    assert "junk: unfaithful (1 of 1 answer(s) could not be read and count as inconsistent)" in result.feedback()


def test_align_majority_of_samples():
    ok = findings_json(("n^2 + n is even", "Even (n ^ 2 + n)", "faithful", ""))
    bad = findings_json(("n^2 + n is even", "Even (n ^ 2 + n)", "unfaithful", "wrong"))
    judge = Judge(ScriptedEngine("s", lambda conv: [ok, bad, ok]), params=SamplingParams(temperature=1.0), samples=3)
    vote = ConsistencyChecker([judge], mode="align").check(PROBLEM, STATEMENT).votes[0]
    assert vote.verdict == "faithful" and vote.samples_parsed == 3
    judge = Judge(
        ScriptedEngine("s", lambda conv: [ok, "junk", bad]), params=SamplingParams(temperature=1.0), samples=3
    )
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
    fv = [r.votes[0].scores["FV"] for r in results]
    assert fv in ([1.0, 0.0], [None, None])  # Lean compiled them, or only the pre-check ran: FV not measured


# ---- feedback the formalizer can act on ----------------------------------------------------------


def test_reasons_of_every_readable_sample_reach_the_feedback():
    other = "VERDICT: inconsistent\nREASONS:\n- the conclusion should be Odd, not Even"
    judge = Judge(
        ScriptedEngine("s", lambda conv: [BAD, "junk", other]), params=SamplingParams(temperature=0.7), samples=3
    )
    result = ConsistencyChecker([judge]).check(PROBLEM, STATEMENT)
    vote = result.votes[0]
    assert vote.reasons == ["n must be an integer, not a natural number", "the conclusion should be Odd, not Even"]
    feedback = result.feedback()
    assert "1 of 3 answer(s) could not be read" in feedback
    assert "n must be an integer" in feedback and "should be Odd" in feedback


def test_truncated_answers_are_stated():
    from atf.llm import Completion

    class Cut(ScriptedEngine):
        def chat(self, conversations, params, tools=None):
            return [[Completion(BAD, None, "length")] for _ in conversations]

    result = ConsistencyChecker([Judge(Cut("cut", BAD))]).check(PROBLEM, STATEMENT)
    assert result.votes[0].truncated == 1
    assert "1 of 1 answer(s) were cut off at the judge's token limit" in result.feedback()


def test_a_repeated_quote_is_placed_by_occurrence_context_or_reading_order():
    statement = "theorem t (x y : ℕ) (h₀ : x = 2) (h₁ : y = 2) : x + y = 4 := by sorry"
    problem = "Let x = 2 and y = 2. Show that x + y = 4."
    second = statement.index("y = 2")
    by_occurrence = findings_json(("y = 2", "= 2", "unfaithful", "the second value differs"))
    reply = by_occurrence.replace('"explanation"', '"lean_occurrence": 2, "explanation"')
    result = ConsistencyChecker([ScriptedEngine("j", reply)], mode="align").check(problem, statement)
    f = result.findings[0]
    assert f.lean_span == (second + 2, second + 5) and f.informal_span == (
        problem.index("y = 2"),
        problem.index("y = 2") + 5,
    )
    assert f"occurrence 2 of 2, line 1, column {second + 3}" in result.feedback()
    by_context = reply.replace('"lean_occurrence": 2', '"lean_context": "(h₁ : y = 2)"')
    assert ConsistencyChecker([ScriptedEngine("j", by_context)], mode="align").check(problem, statement).findings[
        0
    ].lean_span == (second + 2, second + 5)
    in_order = findings_json(("x = 2", "= 2", "faithful", ""), ("y = 2", "= 2", "unfaithful", "y differs"))
    found = ConsistencyChecker([ScriptedEngine("j", in_order)], mode="align").check(problem, statement).findings
    assert found[0].lean_span == (statement.index("x = 2") + 2, statement.index("x = 2") + 5)
    assert found[1].lean_span == (second + 2, second + 5)  # the next occurrence after the previous finding's


def test_load_judge_reuses_a_cached_engine(monkeypatch):
    from atf.judge import load_judge

    engine = ScriptedEngine("m", OK)
    monkeypatch.setattr("atf.llm.load_engine", lambda spec, **kw: pytest.fail("loaded again"))
    judge = load_judge("tiny::temperature=0", engines={"tiny": engine})
    assert judge.engine is engine  # judge options only: the cached engine
