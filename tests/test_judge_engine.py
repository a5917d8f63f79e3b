"""The judge paths on real engines: the random tiny model (fast) and the shipped SmolLM2 (slow).

Their answers are garbage; what is asserted is that garbage is handled: every vote is either read, or
counted as inconsistent with parsed=False, and nothing crashes."""

import pytest

from atf.judge import ConsistencyChecker, Judge
from atf.judge.prompts import ANSWER_PREFIX, OAP_PROPERTIES, property_messages
from atf.judge.scoring import DIGITS_1_5, YES_NO, option_probabilities, option_token_ids
from atf.llm import SamplingParams

ITEMS = [
    (
        "Show that for every positive integer n, n^2 + n is even.",
        "theorem t (n : ℕ) (hn : 0 < n) : Even (n ^ 2 + n) := by sorry",
    ),
    ("Prove that 7 is prime.", "theorem p : Nat.Prime 7 := by sorry"),
]


def assert_handled(results, verdicts):
    assert len(results) == len(ITEMS)
    for r in results:
        assert r.verdict in verdicts
        for v in r.votes:
            assert v.parsed or not v.consistent
        assert r.consistent == all(v.consistent for v in r.votes)
        assert r.feedback()


def test_tiny_engine_vote_and_align(tiny_engine):
    judge = Judge(tiny_engine, params=SamplingParams(max_new_tokens=12, temperature=0.0))
    results = ConsistencyChecker([judge]).check_many(ITEMS)
    assert_handled(results, {"consistent", "inconsistent"})
    assert judge.prefill  # token engine: the reply is started with the answer label
    assert all(v.raw and v.raw[0].startswith("VERDICT:") for r in results for v in r.votes)
    no_prefill = Judge(tiny_engine, params=SamplingParams(max_new_tokens=12, temperature=0.0), prefill=False)
    raw = ConsistencyChecker([no_prefill]).check_many(ITEMS[:1])[0].votes[0].raw[0]
    assert not raw.startswith("VERDICT:")
    assert_handled(
        ConsistencyChecker([judge], mode="align").check_many(ITEMS), {"faithful", "unfaithful", "undecidable"}
    )


@pytest.mark.integration
def test_tiny_engine_oap_logprob_scores_are_probabilities(tiny_engine):
    judge = Judge(tiny_engine, params=SamplingParams(max_new_tokens=8, temperature=0.0))
    assert judge.uses_logprob
    results = ConsistencyChecker([judge], mode="oap", fv=1.0).check_many(ITEMS)
    assert_handled(results, {"consistent", "inconsistent"})
    for r in results:
        s = r.votes[0].scores
        assert s["scoring"] == "logprob" and set(s["properties"]) == {p.name for p in OAP_PROPERTIES}
        assert all(0.0 <= p <= 1.0 for p in s["properties"].values()) and 0.0 <= s["score"] <= 1.0
        # a random model spreads its mass over 49k tokens: yes/no get far below min_mass, so unparsed
        assert r.votes[0].parsed is False and r.votes[0].scores["unparsed"]


def test_tiny_engine_oap_sampled_answers_are_handled(tiny_engine):
    judge = Judge(tiny_engine, params=SamplingParams(max_new_tokens=6, temperature=0.0), scoring="sample")
    results = ConsistencyChecker([judge], mode="oap", fv=None).check_many(ITEMS[:1])
    assert results[0].votes[0].scores["scoring"] == "sample"
    assert results[0].votes[0].samples == 10


@pytest.mark.integration
def test_option_probabilities_do_not_depend_on_batching(tiny_engine):
    option_ids = option_token_ids(tiny_engine.tokenizer, YES_NO)
    assert option_ids["yes"] and option_ids["no"] and not set(option_ids["yes"]) & set(option_ids["no"])
    digits = option_token_ids(tiny_engine.tokenizer, DIGITS_1_5)
    assert (36,) in digits["4"] and (216, 36) in digits["4"]  # " 4" is " " + "4" in this tokenizer
    convs = [property_messages(p, s, prop) for p, s in ITEMS for prop in OAP_PROPERTIES[:3]]
    alone = option_probabilities(tiny_engine, convs, ANSWER_PREFIX, YES_NO, batch_size=1, min_shared=10**9)
    batched = option_probabilities(tiny_engine, convs, ANSWER_PREFIX, YES_NO, batch_size=6, min_shared=10**9)
    shared = option_probabilities(tiny_engine, convs, ANSWER_PREFIX, YES_NO, batch_size=2)  # KV-cached prefixes
    for (pa, ma), (pb, mb), (ps, ms) in zip(alone, batched, shared):
        assert pa["yes"] == pytest.approx(ps["yes"], abs=1e-4) and ma == pytest.approx(ms, rel=1e-3)
        assert pa["yes"] + pa["no"] == pytest.approx(1.0)
        assert pa["yes"] == pytest.approx(pb["yes"], abs=1e-4) and ma == pytest.approx(mb, rel=1e-3)
        assert 0.0 < ma < 1.0
    two_step = option_probabilities(tiny_engine, convs[:3], "RATING:", DIGITS_1_5, batch_size=1, min_shared=10**9)
    two_step_batched = option_probabilities(tiny_engine, convs[:3], "RATING:", DIGITS_1_5, batch_size=3)
    for (pa, ma), (pb, mb) in zip(two_step, two_step_batched):
        assert sum(pa.values()) == pytest.approx(1.0) and ma == pytest.approx(mb, rel=1e-3)
        assert all(pa[d] == pytest.approx(pb[d], abs=1e-4) for d in pa)


@pytest.mark.slow
def test_smollm2_judges_are_handled(smollm2_engine):
    judge = Judge(smollm2_engine, params=SamplingParams(max_new_tokens=96, temperature=0.0))
    assert_handled(ConsistencyChecker([judge]).check_many(ITEMS), {"consistent", "inconsistent"})
    oap = ConsistencyChecker([judge], mode="oap", fv=None).check_many(ITEMS)
    assert_handled(oap, {"consistent", "inconsistent"})
    # the instruct model does answer yes/no after "ANSWER:": most of its next-token mass is on them
    assert all(not r.votes[0].scores["unparsed"] or len(r.votes[0].scores["unparsed"]) < 10 for r in oap)


def test_logprob_judges_explain_their_weak_properties(tiny_engine, monkeypatch):
    from atf.judge import scoring

    def fixed(engine, conversations, prefix, options, **kw):  # "formula" is weak, every other answer yes
        out = []
        for conv in conversations:
            if set(options) == {"yes", "no"}:
                weak = OAP_PROPERTIES[2].question in conv[-1]["content"]
                out.append(({"yes": 0.1 if weak else 0.9, "no": 0.9 if weak else 0.1}, 1.0))
            else:
                out.append(({d: (1.0 if d == "4" else 0.0) for d in options}, 1.0))
        return out

    monkeypatch.setattr(scoring, "option_probabilities", fixed)
    asked = []
    generate = tiny_engine.generate
    monkeypatch.setattr(
        tiny_engine, "generate", lambda prompts, params: asked.append(params) or generate(prompts, params)
    )
    judge = Judge(tiny_engine, params=SamplingParams(max_new_tokens=8, temperature=0.0))
    vote = ConsistencyChecker([judge], mode="oap", fv=1.0).check(*ITEMS[0]).votes[0]
    assert OAP_PROPERTIES[2].name == "formula" and len(asked) == 1 and asked[0].max_new_tokens == 48
    why = vote.scores["why"].get("formula", "")
    assert vote.reasons == [f"formula (0.10): {why or OAP_PROPERTIES[2].hint}"]
