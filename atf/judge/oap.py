"""OAP mode (epistemic ensemble): nine operable atomic properties asked one by one, grouped, weighted.

Source: the epistemically and formally grounded ensemble (EFG) of Zhang, Valentino and Freitas, "Beyond Gold
Standards: Epistemic Ensemble of LLM Judges for Formal Mathematical Reasoning" (arXiv:2506.10903, 2025). What we
could verify from its abstract and summaries: four aspects, logical preservation (LP), mathematical consistency
(MC), formal validity (FV) and formal quality (FQ), checked through 12 operable atomic properties (OAPs) that LLM
judges answer, combined by a linear ensemble fitted to human ratings. What we could not retrieve: the list of
12 properties, the prompts, and the fitted coefficients. Equal weights within an aspect follow the paper's
description as issue 13 reports it. So the nine properties below and their grouping are our reading of the
aspect definitions, and the aspect weights are equal by default (configurable), not the paper's fit:
    LP  logical preservation      pre_arg_structure, quantification, formula, relation
    MC  mathematical consistency  concept, constant, operator
    FQ  formal quality            conciseness, logical_consistency
    FV  formal validity           a real Lean compile, never asked of the judges

Scoring. Each judge answers the nine yes/no questions (each with a one-line WHY, which is the feedback when the
property fails) and a five-point overall rating. A property's score is P(yes): next-token probabilities for
local transformers judges ("logprob"; the judge then writes the WHY of each property below `weak_below`, its
reply started with the answer "no" and the WHY label), else the share of sampled answers that say yes. An
aspect is the mean of its properties (equal weights, see above); the judge's score is the weighted mean of LP, MC
and FQ with `OAPConfig.weights` (equal by default: no fitted weights are available to us). A judge votes
consistent only when all of these hold, and the vote says which one failed (`scores["failed"]`):
    "FV"         Lean compiled the statement. FV = 0 (any FV < 0.5) is a veto, whatever the judges say: the ATF loop
                 asks for syntax before consistency. FV is measured only by a real Lean compile; with the
                 pre-check alone it is left out (`scores["FV"]` None, `scores["fv_note"]` says why).
    "unreadable" every property answer was readable. An unreadable answer counts as inconsistent, as every
                 unreadable answer does in this package (it also scores 0 in the reported score).
    "score"      score >= threshold.
    "rating"     the rating reaches min_rating, when a rating gate is set.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, field

from atf.judge.judge import Judge, Reply, ask
from atf.judge.parsing import parse_explanation, parse_rating, parse_yes_no
from atf.judge.prompts import (
    ANSWER_PREFIX,
    OAP_GROUPS,
    OAP_PROPERTIES,
    RATING_PREFIX,
    WHY_LABEL,
    property_messages,
    rating_messages,
)
from atf.judge.result import Vote
from atf.judge.vote import failed_vote
from atf.llm import SamplingParams

DEFAULT_WEIGHTS = {"LP": 1.0, "MC": 1.0, "FQ": 1.0}
WHY_TOKENS = 48  # one line of explanation
NO_COMPILE = "not measured: Lean did not compile the statement (pre-check only), so FV is left out of the score"


@dataclass
class OAPConfig:
    """How property scores become a vote.

    weights: weight per aspect (LP, MC, FQ), renormalised; equal by default (see module doc for why).
    threshold: a judge votes consistent when its weighted score reaches this.
    min_rating: also require the five-point rating to reach this (None: the rating is reported only).
    min_mass: logprob scoring: least probability the yes/no (1-5) tokens must get together for the answer
        to count as given; below it the property is unreadable.
    weak_below: properties scoring under this are named in the feedback.
    """

    weights: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    threshold: float = 0.7
    min_rating: float | None = None
    min_mass: float = 0.01
    weak_below: float = 0.5

    def __post_init__(self) -> None:
        unknown = set(self.weights) - set(OAP_GROUPS)
        if unknown:
            hint = " (FV is a veto, not a weight)" if "FV" in unknown else ""
            raise ValueError(f"unknown OAP weight groups {sorted(unknown)}{hint}; expected LP, MC, FQ")
        if any(w < 0 for w in self.weights.values()) or not any(self.weights.get(g, 0) > 0 for g in OAP_GROUPS):
            raise ValueError("OAP weights must be >= 0 with at least one of LP, MC, FQ positive")
        if not 0 <= self.threshold <= 1:
            raise ValueError(f"threshold must be in [0, 1], got {self.threshold}")


@dataclass
class _Answer:
    score: float
    parsed: bool
    raw: str
    why: str = ""
    truncated: int = 0


def _sampled_yes(reply: Reply) -> _Answer:
    answers = [parse_yes_no(t) for t in reply.texts]
    said = [a for a in answers if a is not None]
    # the WHY of a sample that gave the majority answer
    majority = sum(said) * 2 > len(said) if said else False
    why = next((parse_explanation(t) for t, a in zip(reply.texts, answers) if a is majority), "")
    score = sum(a is True for a in answers) / len(answers)
    return _Answer(score, all(a is not None for a in answers), reply.texts[0], why or "", sum(reply.truncated))


def _sampled_rating(reply: Reply) -> _Answer:
    ratings = [parse_rating(t) for t in reply.texts]
    readable = [r for r in ratings if r is not None]
    mean = sum(readable) / len(readable) if readable else float("nan")
    return _Answer(mean, len(readable) == len(ratings), reply.texts[0], truncated=sum(reply.truncated))


def _logprob_answers(
    judge: Judge, items: Sequence[tuple[str, str]], config: OAPConfig
) -> list[tuple[list[_Answer], _Answer]]:
    from atf.judge.scoring import DIGITS_1_5, YES_NO, option_probabilities

    prop_convs = [property_messages(p, s, prop) for p, s in items for prop in OAP_PROPERTIES]
    props = [
        _Answer(
            probs["yes"] if mass >= config.min_mass else 0.0,
            mass >= config.min_mass,
            f"P(yes)={probs['yes']:.3f} mass={mass:.3g}",
        )
        for probs, mass in option_probabilities(judge.engine, prop_convs, ANSWER_PREFIX, YES_NO)
    ]
    ratings = []
    for probs, mass in option_probabilities(
        judge.engine, [rating_messages(p, s) for p, s in items], RATING_PREFIX, DIGITS_1_5
    ):
        expected = sum(int(d) * p for d, p in probs.items())
        ok = mass >= config.min_mass
        ratings.append(_Answer(expected if ok else float("nan"), ok, f"E[rating]={expected:.2f} mass={mass:.3g}"))
    k = len(OAP_PROPERTIES)
    _explain_weak(judge, items, props, config)
    return [(props[i * k : (i + 1) * k], ratings[i]) for i in range(len(items))]


def _explain_weak(judge: Judge, items: Sequence[tuple[str, str]], props: list[_Answer], config: OAPConfig) -> None:
    """Logprob scores come without a WHY: ask for one, greedily, for each property that will be named in the
    feedback (readable, below weak_below); its reply is started with "ANSWER: no" and the WHY label."""
    k = len(OAP_PROPERTIES)
    weak = [n for n, a in enumerate(props) if a.parsed and a.score < config.weak_below]
    if not weak:
        return
    explainer = dataclasses.replace(judge, params=SamplingParams(max_new_tokens=WHY_TOKENS, temperature=0.0), samples=1)
    convs = [property_messages(*items[n // k], OAP_PROPERTIES[n % k]) for n in weak]
    for n, reply in zip(weak, ask(explainer, convs, f"{ANSWER_PREFIX} no\n{WHY_LABEL}")):
        if not reply.error:
            props[n].why = parse_explanation(reply.texts[0])


def _sampled_answers(judge: Judge, items: Sequence[tuple[str, str]]) -> list[tuple[list[_Answer], _Answer] | str]:
    """Per item: (property answers, rating), or the error of a request that failed (that item only)."""
    prop_convs = [property_messages(p, s, prop) for p, s in items for prop in OAP_PROPERTIES]
    rating_convs = [rating_messages(p, s) for p, s in items]
    prefixes = [ANSWER_PREFIX] * len(prop_convs) + [RATING_PREFIX] * len(rating_convs)
    replies = ask(judge, prop_convs + rating_convs, prefixes)
    k = len(OAP_PROPERTIES)
    out: list[tuple[list[_Answer], _Answer] | str] = []
    for i in range(len(items)):
        mine = replies[i * k : (i + 1) * k] + [replies[len(prop_convs) + i]]
        error = next((r.error for r in mine if r.error), None)
        if error:
            out.append(error)
        else:
            out.append(([_sampled_yes(r) for r in mine[:k]], _sampled_rating(mine[k])))
    return out


def combine(properties: dict[str, float], config: OAPConfig) -> dict[str, float]:
    """Aspect means (equal weights within an aspect) and their weighted mean, "score"."""
    groups: dict[str, float] = {}
    for g in OAP_GROUPS:
        values = [properties[p.name] for p in OAP_PROPERTIES if p.group == g]
        groups[g] = sum(values) / len(values)
    total = sum(config.weights.get(g, 0.0) for g in OAP_GROUPS)
    groups["score"] = sum(config.weights.get(g, 0.0) * groups[g] for g in OAP_GROUPS) / total
    return groups


def _vote(judge: Judge, answers: list[_Answer], rating: _Answer, fv: float | None, config: OAPConfig) -> Vote:
    properties = {p.name: a.score for p, a in zip(OAP_PROPERTIES, answers)}
    unparsed = [p.name for p, a in zip(OAP_PROPERTIES, answers) if not a.parsed]
    scores = combine(properties, config)
    rating_value = rating.score if rating.parsed else None
    failed = []
    reasons = []
    if fv is not None and fv < 0.5:
        failed.append("FV")
        reasons.append("FV: Lean did not compile the statement (a veto: syntax comes before consistency)")
    if unparsed:
        failed.append("unreadable")
    if scores["score"] < config.threshold:
        failed.append("score")
    if config.min_rating is not None and (rating_value is None or rating_value < config.min_rating):
        failed.append("rating")
        shown = "unreadable" if rating_value is None else f"{rating_value:.1f}"
        reasons.append(f"rating gate: overall rating {shown} is below the required {config.min_rating:g}")
    for prop, a in sorted(zip(OAP_PROPERTIES, answers), key=lambda pa: pa[1].score):
        if not a.parsed:
            reasons.append(f"{prop.name}: answer unreadable, so the vote counts as inconsistent")
        elif a.score < config.weak_below:
            reasons.append(f"{prop.name} ({a.score:.2f}): {a.why or prop.hint}")
    unparsed_all = unparsed + ([] if rating.parsed else ["rating"])
    return Vote(
        name=judge.name,
        verdict="inconsistent" if failed else "consistent",
        reasons=reasons,
        parsed=not unparsed_all,
        samples=len(answers) + 1,
        samples_parsed=len(answers) + 1 - len(unparsed_all),
        scores={
            "properties": properties,
            "why": {p.name: a.why for p, a in zip(OAP_PROPERTIES, answers) if a.why},
            **scores,
            "FV": fv,
            "fv_note": None if fv is not None else NO_COMPILE,
            "rating": rating_value,
            "threshold": config.threshold,
            "weights": {g: config.weights.get(g, 0.0) for g in OAP_GROUPS},
            "failed": failed,
            "unparsed": unparsed_all,
            "scoring": "logprob" if judge.uses_logprob else "sample",
        },
        raw=[a.raw for a in answers] + [rating.raw],
        truncated=sum(a.truncated for a in answers) + rating.truncated,
    )


def run_oap(
    judges: Sequence[Judge], items: Sequence[tuple[str, str]], fv: Sequence[float | None], config: OAPConfig
) -> list[list[Vote]]:
    """votes[item][judge]; fv[i] is item i's formal validity from a Lean compile (None when not compiled)."""
    columns = []
    for judge in judges:
        got = _logprob_answers(judge, items, config) if judge.uses_logprob else _sampled_answers(judge, items)
        column = []
        for i, answer in enumerate(got):
            if isinstance(answer, str):
                column.append(failed_vote(judge, answer))
            else:
                column.append(_vote(judge, answer[0], answer[1], fv[i], config))
        columns.append(column)
    return [list(row) for row in zip(*columns)] if columns else [[] for _ in items]
