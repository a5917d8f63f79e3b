"""A table of judge answer forms, each with its expected reading: "consistent", "inconsistent" or None (unreadable,
which counts as inconsistent). Forms were written from how judges answer (SmolLM2, Qwen2.5/3, QwQ, GPT-style
markdown and JSON), not taken from any evaluation set.

Target: no answer that ends inconsistent, hedges, or retracts is ever read as consistent."""

from __future__ import annotations

import pytest

from atf.judge import ConsistencyChecker, Judge
from atf.judge.parsing import read_verdict
from atf.llm import Completion, SamplingParams
from atf.llm.base import Capabilities

R = "\nREASONS:\n- same variables, hypotheses and goal"
THINK = "Okay, let me compare the quantifiers. The draft says VERDICT: consistent. Hmm, but the bound...\n"

# (form, expected reading, kind). kind "neg": the answer ends inconsistent, hedges or retracts, so it must never
# be read as consistent; "pos": a plain final consistent answer; "plain-neg": a plain final inconsistent answer.
FORMS: list[tuple[str, str | None, str]] = [
    # plain labels, casing, markdown
    ("VERDICT: consistent" + R, "consistent", "pos"),
    ("VERDICT: inconsistent\nREASONS:\n- the bound is 10, not 100", "inconsistent", "plain-neg"),
    ("verdict: Consistent" + R, "consistent", "pos"),
    ("VERDICT: CONSISTENT" + R, "consistent", "pos"),
    ("Verdict = consistent" + R, "consistent", "pos"),
    ("VERDICT - inconsistent", "inconsistent", "plain-neg"),
    ("**VERDICT:** consistent" + R, "consistent", "pos"),
    ("**VERDICT: consistent**" + R, "consistent", "pos"),
    ("**Verdict**: **Inconsistent**\n**Reasons**:\n1. n must be positive", "inconsistent", "plain-neg"),
    ("## Verdict\n\n**consistent**\n\n## Reasons\n- same goal", "consistent", "pos"),
    ("### VERDICT\nInconsistent\n### REASONS\n- drops h₀", "inconsistent", "plain-neg"),
    ("- VERDICT: `consistent`" + R, "consistent", "pos"),
    ("> VERDICT: consistent" + R, "consistent", "pos"),
    ("VERDICT: *inconsistent*.", "inconsistent", "plain-neg"),
    ("VERDICT: not consistent\nREASONS:\n- the domain is ℕ, the problem says integers", "inconsistent", "plain-neg"),
    ("Final verdict: consistent" + R, "consistent", "pos"),
    ("VERDICT: The statement is consistent." + R, "consistent", "pos"),
    ("VERDICT: The Lean statement is inconsistent.", "inconsistent", "plain-neg"),
    ("VERDICT: consistent\nREASONS:\n- no constant is changed\n- nothing is dropped", "consistent", "pos"),
    # other scripts' casing and widths
    ("VERDICT: CONSİSTENT" + R, "consistent", "pos"),  # Turkish dotted capital I
    ("VERDICT: İNCONSİSTENT", "inconsistent", "plain-neg"),
    ("ＶＥＲＤＩＣＴ: ＣＯＮＳＩＳＴＥＮＴ" + R, "consistent", "pos"),  # full-width forms
    ("VERDICT: KONSISTENT", None, "neg"),  # German: not one of our words
    ("VERDICT: cohérent", None, "neg"),
    # bare answers, yes/no
    ("Consistent.", "consistent", "pos"),
    ("**Inconsistent**", "inconsistent", "plain-neg"),
    ("VERDICT: yes", "consistent", "pos"),
    ("VERDICT: no", "inconsistent", "plain-neg"),
    ("Yes, consistent.", None, "neg"),
    ("The Lean statement looks consistent to me.", None, "neg"),  # no label: never guessed
    ("", None, "neg"),
    # JSON variants
    ('{"verdict": "consistent", "reasons": ["same goal"]}', "consistent", "pos"),
    ('```json\n{"verdict": "inconsistent", "reasons": ["drops a hypothesis"]}\n```', "inconsistent", "plain-neg"),
    ('{"Verdict": "Consistent", "reasons": "same goal",}', "consistent", "pos"),
    ('{"verdict": "probably consistent"}', None, "neg"),
    ('{"verdict": true}', None, "neg"),
    ('{"verdict": "consistent", "reasons": ["the statement is not consistent: the bound differs"]}', None, "neg"),
    ('{"verdict": "inconsistent"}\n{"verdict": "consistent", "reasons": ["fixed on reflection? no"]}', None, "neg"),
    ('{"verdict": "consistent"}\nVERDICT: inconsistent', "inconsistent", "plain-neg"),
    ("VERDICT: inconsistent\n" + '{"verdict": "consistent", "reasons": ["same goal"]}', "consistent", "pos"),
    ("{'verdict': 'consistent'}", None, "neg"),  # not JSON
    # boxed (QwQ style)
    ("**Final Answer**\n\\boxed{consistent}", "consistent", "pos"),
    ("\\boxed{\\text{Inconsistent}}", "inconsistent", "plain-neg"),
    # hedges and negations on the label
    ("VERDICT: consistent? No.", None, "neg"),
    ("VERDICT: consistent (not really: the domain differs)", None, "neg"),
    ("VERDICT: consistent, but the bound differs", None, "neg"),
    ("VERDICT: probably consistent", None, "neg"),
    ("VERDICT: consistent (no differences, no constants changed)", "consistent", "pos"),
    ("VERDICT: consistent. No.", None, "neg"),
    ("VERDICT: yes, inconsistent", None, "neg"),
    ("VERDICT: yes - the bound is wrong", None, "neg"),
    ("VERDICT: consistent - not", None, "neg"),
    ("VERDICT: mostly consistent", None, "neg"),
    ("VERDICT: consistent, I think", None, "neg"),
    ("VERDICT: consistent if n > 0 is meant", None, "neg"),
    ("VERDICT: consistent or inconsistent\nREASONS:\n- <one short reason per line>", None, "neg"),  # template echo
    ("VERDICT: inconsistent?", None, "neg"),
    ("VERDICT: maybe", None, "neg"),
    # retractions and contrary statements after the label
    ("VERDICT: consistent.\nActually, looking again, the statement is inconsistent: the bound is wrong.", None, "neg"),
    ("VERDICT: consistent\nREASONS:\n- the statement is not consistent with the bound", None, "neg"),
    ("VERDICT: consistent\nREASONS:\n- the conclusion does not match the problem", None, "neg"),
    ("VERDICT: consistent\nWait, the hypothesis h₀ is missing.", None, "neg"),
    ("VERDICT: consistent\nREASONS:\n- the statement drops the hypothesis that n is positive", None, "neg"),
    ("VERDICT: consistent\nREASONS:\n- same goal\n- the bound should be 100, not 10", None, "neg"),
    ("VERDICT: consistent\nREASONS:\n- no hypothesis is missing\n- nothing is dropped or changed", "consistent", "pos"),
    ("VERDICT: consistent\nREASONS:\n- the statement does not drop anything", "consistent", "pos"),
    ("VERDICT: consistent\nREASONS:\n- nothing is wrong with the bound; no mismatch in the goal", "consistent", "pos"),
    ("VERDICT: consistent\nREASONS:\n- same goal\nOn second thought, the exponent is 3, not 2.", None, "neg"),
    ("VERDICT: inconsistent\nActually, on reflection it is consistent.", None, "neg"),
    # several verdicts: the last wins
    ("VERDICT: consistent\nVERDICT: inconsistent\nREASONS:\n- bound", "inconsistent", "plain-neg"),
    ("VERDICT: inconsistent\nREASONS:\n- first look\nVERDICT: consistent\nREASONS:\n- same goal", "consistent", "pos"),
    # thinking with and without an opening tag
    ("<think>" + THINK + "</think>\nVERDICT: inconsistent\nREASONS:\n- bound", "inconsistent", "plain-neg"),
    (THINK + "</think>\n\nVERDICT: inconsistent\nREASONS:\n- bound", "inconsistent", "plain-neg"),  # QwQ: no <think>
    (THINK + "</think>\nVERDICT: consistent" + R, "consistent", "pos"),
    ("<think>" + THINK + "</think>\n**VERDICT:** Consistent" + R, "consistent", "pos"),
    ("<think>first</think> VERDICT: consistent </think>\nVERDICT: inconsistent", "inconsistent", "plain-neg"),
    ("<think>" + THINK, None, "neg"),  # thinking never closed: truncated
    ("<think>" + THINK + "</think>", None, "neg"),  # nothing after the thinking
    ("<think>a</think>\nVERDICT: consistent\n<think>more", None, "neg"),
    # truncation
    ("VERDICT: consis", None, "neg"),
    ("VERDICT:", None, "neg"),
    ("VERDICT: consistent\nREASONS:\n- the hypotheses are the sa", "consistent", "pos"),  # the label itself is whole
]


def test_the_table_is_large_enough():
    assert len(FORMS) >= 60


@pytest.mark.parametrize("text, expected, kind", FORMS, ids=[f"form{i}" for i in range(len(FORMS))])
def test_answer_form(text, expected, kind):
    reading = read_verdict(text)
    assert reading.value == expected, reading.why
    if expected is None:
        assert reading.why  # unreadable answers say why
    if kind == "neg":
        assert reading.value != "consistent"


def test_no_answer_that_ends_inconsistent_hedges_or_retracts_is_read_as_consistent():
    wrongly_consistent = [
        t for t, _, kind in FORMS if kind in ("neg", "plain-neg") and read_verdict(t).value == "consistent"
    ]
    assert wrongly_consistent == []


HEADS = [
    "VERDICT: consistent",
    "**VERDICT:** consistent",
    "VERDICT: **Consistent**",
    "## Verdict\nconsistent",
    '{"verdict": "consistent"}',
    "\\boxed{consistent}",
    "Final verdict: consistent",
    "VERDICT: yes",
    "<think>x</think>VERDICT: consistent",
    "hmm</think>\nVERDICT: Consistent",
    "Consistent.",
]
NEGATIVE_TAILS = [
    "\nActually, it is inconsistent.",
    "\nWait, the bound differs.",
    "\nREASONS:\n- the hypothesis h is dropped",
    "\nREASONS:\n- it does not match the problem",
    "\nHowever, on reflection the statement is wrong.",
    "\nREASONS:\n- the exponent should be 3",
    "? No.",
    " (not really)",
    ", but the domain is wrong",
    "\nREASONS:\n- the conclusion is not the same as the problem's",
    "\nOn second thought: inconsistent.",
    "\nVERDICT: inconsistent",
    "\n\\boxed{inconsistent}",
    '\n{"verdict": "inconsistent"}',
    " - probably",
    "\nREASONS:\n- ℕ instead of ℤ",
    "\nREASONS:\n- the statement is missing the hypothesis x > 0",
    "\nREASONS:\n- the constant 5 was changed to 6",
    "\nHmm, the quantifier is different.",
    "\n<think>let me re-check",
]
POSITIVE_TAILS = [
    "",
    "\nREASONS:\n- same hypotheses and goal",
    "\nREASONS:\n- nothing is dropped\n- no constant is changed",
]


def test_every_positive_head_followed_by_a_negative_tail_is_not_consistent():
    combos = [head + tail for head in HEADS for tail in NEGATIVE_TAILS]
    assert [c for c in combos if read_verdict(c).value == "consistent"] == []


def test_every_positive_head_with_a_plain_tail_is_consistent():
    combos = [head + tail for head in HEADS for tail in POSITIVE_TAILS]
    assert [(c, read_verdict(c).why) for c in combos if read_verdict(c).value != "consistent"] == []


def test_reasons_come_from_the_final_answer():
    reading = read_verdict(
        THINK + "</think>\nVERDICT: inconsistent\nREASONS:\n- the bound is 10, not 100\n- h₀ dropped"
    )
    assert reading.reasons == ["the bound is 10, not 100", "h₀ dropped"]


# ---- thinking judges ----------------------------------------------------------------------------


class ThinkingEngine:
    """A token engine whose template opens <think> (as QwQ's does); records what it was asked."""

    class Tok:
        chat_template = "{{ '<|im_start|>assistant\\n<think>\\n' }}"

        def encode(self, text, add_special_tokens=False):
            return [ord(c) for c in text]

    tokenizer = Tok()
    name = "qwq-like"
    capabilities = Capabilities(token_io=True)

    def __init__(self, text: str, finish: str = "stop"):
        self.text, self.finish, self.params = text, finish, []

    def chat(self, conversations, params, tools=None):
        self.params.append(params)
        return [[Completion(self.text, None, self.finish)] * params.n for _ in conversations]

    def generate(self, prompts, params):  # a prefilled answer would skip the thinking
        raise AssertionError("a thinking judge must not be prefilled")


def test_a_thinking_judge_gets_a_thinking_budget_and_no_prefill():
    engine = ThinkingEngine(THINK + "</think>\nVERDICT: inconsistent\nREASONS:\n- bound")
    judge = Judge(engine)  # thinking is declared by the template, not guessed from the name
    assert judge.thinking and not judge.prefill and not judge.uses_logprob
    assert judge.params.max_new_tokens >= 4096 and judge.params.temperature > 0
    result = ConsistencyChecker([judge]).check(
        "Show that x < 10.", "theorem t (x : ℕ) (h : x < 100) : x < 10 := by sorry"
    )
    assert result.verdict == "inconsistent" and engine.params[0].max_new_tokens == judge.params.max_new_tokens
    with pytest.raises(ValueError, match="prefill would skip"):
        Judge(engine, prefill=True)
    plain = Judge(engine, thinking=False, params=SamplingParams(max_new_tokens=64, temperature=0.0))
    assert not plain.thinking


def test_a_thinking_judge_cut_off_while_thinking_is_unreadable_and_says_so():
    engine = ThinkingEngine(THINK, finish="length")  # the draft "VERDICT: consistent" is inside the thinking
    result = ConsistencyChecker([Judge(engine)]).check("Show that x < 10.", "theorem t (x : ℕ) : x < 10 := by sorry")
    vote = result.votes[0]
    assert vote.verdict == "inconsistent" and not vote.parsed and vote.truncated == 1
    assert "cut off at the judge's token limit" in result.feedback()


def test_thinking_from_a_judge_spec(monkeypatch):
    from atf.judge import load_judge

    engine = ThinkingEngine("VERDICT: consistent")
    engine.tokenizer = None  # an HTTP engine: nothing declared, so the spec says it
    monkeypatch.setattr("atf.llm.load_engine", lambda spec, **kw: engine)
    assert not load_judge("openai:http://h/v1#qwq").thinking
    judge = load_judge("openai:http://h/v1#qwq::thinking=true")
    assert judge.thinking and judge.params.max_new_tokens == 8192 and judge.params.temperature == 0.6
    assert load_judge("openai:http://h/v1#qwq::thinking=true,max_new_tokens=16000").params.max_new_tokens == 16000
