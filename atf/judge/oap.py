"""OAP mode (epistemic ensemble): nine operable atomic properties asked one by one, grouped, weighted.

Each judge answers the nine yes/no questions of `prompts.OAP_PROPERTIES` independently (nine prompts per
item, all items batched into one call) plus a five-point overall rating. A property's score is P(yes):
read from next-token probabilities for local transformers judges, else the fraction of sampled answers
that say yes (an unreadable answer counts as no, and the property is reported unparsed). The rating is
the expected value of 1-5 under the model's distribution, or the mean of the readable sampled ratings.

Groups: the four aspects of the epistemic-ensemble (EFG) paper (Zhang, Valentino, Freitas 2025, "Beyond
Gold Standards"); which of our nine properties goes in which aspect is our reading of the aspects' definitions
(LP: the logical structure is kept; MC: the mathematical objects are right; FQ: clean and non-vacuous):
    LP  logical preservation      pre_arg_structure, quantification, formula, relation
    MC  mathematical consistency  concept, constant, operator
    FQ  formal quality            conciseness, logical_consistency
    FV  formal validity           the syntax check (1.0 pass, 0.0 fail), not asked of the judges
Each group is the mean of its properties. The judge's score is the weighted mean of the groups present
(FV drops out, and the weights renormalise, when no syntax check is available), with DEFAULT_WEIGHTS
below: the semantic groups carry most weight since this is the consistency check, FV and FQ a little.
The paper fits its ensemble weights to human ratings; these defaults were set by hand, not fitted.
A judge votes consistent when score >= threshold (and rating >= min_rating, when set).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from atf.judge.judge import Judge, ask
from atf.judge.parsing import parse_rating, parse_yes_no
from atf.judge.prompts import (
    ANSWER_PREFIX,
    OAP_GROUPS,
    OAP_PROPERTIES,
    RATING_PREFIX,
    property_messages,
    rating_messages,
)
from atf.judge.result import Vote
from atf.judge.vote import failed_vote

DEFAULT_WEIGHTS = {"LP": 0.35, "MC": 0.35, "FQ": 0.1, "FV": 0.2}


@dataclass
class OAPConfig:
    """How property scores become a vote.

    weights: weight per group (LP, MC, FQ, FV); groups without a value are left out and the rest renormalised.
    threshold: a judge votes consistent when its weighted score reaches this.
    min_rating: also require the five-point rating to reach this (None: the rating is reported only).
    min_mass: logprob scoring: least probability the yes/no (1-5) tokens must get together for the answer
        to count as given; below it the property is unparsed and scores 0.
    weak_below: properties scoring under this are named in the feedback.
    """

    weights: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_WEIGHTS))
    threshold: float = 0.7
    min_rating: float | None = None
    min_mass: float = 0.01
    weak_below: float = 0.5

    def __post_init__(self) -> None:
        unknown = set(self.weights) - {*OAP_GROUPS, "FV"}
        if unknown:
            raise ValueError(f"unknown OAP weight groups {sorted(unknown)}; expected LP, MC, FQ, FV")
        if any(w < 0 for w in self.weights.values()) or not any(self.weights.get(g, 0) > 0 for g in OAP_GROUPS):
            raise ValueError("OAP weights must be >= 0 with at least one of LP, MC, FQ positive")
        if not 0 <= self.threshold <= 1:
            raise ValueError(f"threshold must be in [0, 1], got {self.threshold}")


@dataclass
class _Answer:
    score: float
    parsed: bool
    raw: str


def _sampled_yes(texts: list[str]) -> _Answer:
    answers = [parse_yes_no(t) for t in texts]
    return _Answer(sum(a is True for a in answers) / len(texts), all(a is not None for a in answers), texts[0])


def _sampled_rating(texts: list[str]) -> _Answer:
    ratings = [parse_rating(t) for t in texts]
    readable = [r for r in ratings if r is not None]
    mean = sum(readable) / len(readable) if readable else float("nan")
    return _Answer(mean, len(readable) == len(texts), texts[0])


def _logprob_answers(judge: Judge, items: Sequence[tuple[str, str]], config: OAPConfig) -> tuple[list[list[_Answer]], list[_Answer]]:
    from atf.judge.scoring import DIGITS_1_5, YES_NO, option_probabilities

    prop_convs = [property_messages(p, s, prop) for p, s in items for prop in OAP_PROPERTIES]
    yes = option_probabilities(judge.engine, prop_convs, ANSWER_PREFIX, YES_NO)
    props = [
        _Answer(probs["yes"] if mass >= config.min_mass else 0.0, mass >= config.min_mass, f"P(yes)={probs['yes']:.3f} mass={mass:.3g}")
        for probs, mass in yes
    ]
    k = len(OAP_PROPERTIES)
    rating_probs = option_probabilities(judge.engine, [rating_messages(p, s) for p, s in items], RATING_PREFIX, DIGITS_1_5)
    ratings = []
    for probs, mass in rating_probs:
        expected = sum(int(d) * p for d, p in probs.items())
        ok = mass >= config.min_mass
        ratings.append(_Answer(expected if ok else float("nan"), ok, f"E[rating]={expected:.2f} mass={mass:.3g}"))
    return [props[i * k : (i + 1) * k] for i in range(len(items))], ratings


def _sampled_answers(judge: Judge, items: Sequence[tuple[str, str]]) -> tuple[list[list[_Answer]], list[_Answer]] | str:
    prop_convs = [property_messages(p, s, prop) for p, s in items for prop in OAP_PROPERTIES]
    rating_convs = [rating_messages(p, s) for p, s in items]
    prefixes = [ANSWER_PREFIX] * len(prop_convs) + [RATING_PREFIX] * len(rating_convs)
    texts, error = ask(judge, prop_convs + rating_convs, prefixes)
    if error:
        return error
    k = len(OAP_PROPERTIES)
    props = [_sampled_yes(t) for t in texts[: len(prop_convs)]]
    ratings = [_sampled_rating(t) for t in texts[len(prop_convs) :]]
    return [props[i * k : (i + 1) * k] for i in range(len(items))], ratings


def combine(properties: dict[str, float], fv: float | None, config: OAPConfig) -> dict[str, float | None]:
    """Group means and the weighted score."""
    groups: dict[str, float | None] = {}
    for g in OAP_GROUPS:
        values = [properties[p.name] for p in OAP_PROPERTIES if p.group == g]
        groups[g] = sum(values) / len(values)
    groups["FV"] = fv
    present = {g: v for g, v in groups.items() if v is not None and config.weights.get(g, 0) > 0}
    total = sum(config.weights[g] for g in present)
    groups["score"] = sum(config.weights[g] * v for g, v in present.items()) / total
    return groups


def _vote(judge: Judge, answers: list[_Answer], rating: _Answer, fv: float | None, config: OAPConfig) -> Vote:
    properties = {p.name: a.score for p, a in zip(OAP_PROPERTIES, answers)}
    unparsed = [p.name for p, a in zip(OAP_PROPERTIES, answers) if not a.parsed]
    scores = combine(properties, fv, config)
    rating_value = rating.score if rating.parsed else None
    ok = scores["score"] >= config.threshold
    if config.min_rating is not None:
        ok = ok and rating_value is not None and rating_value >= config.min_rating
    reasons = []
    for prop, a in sorted(zip(OAP_PROPERTIES, answers), key=lambda pa: pa[1].score):
        if not a.parsed:
            reasons.append(f"{prop.name}: answer unreadable, scored 0")
        elif a.score < config.weak_below:
            reasons.append(f"{prop.name} {a.score:.2f}: {prop.hint}")
    if fv is not None and fv < 0.5:
        reasons.insert(0, "FV: the statement does not pass the syntax check")
    if config.min_rating is not None and (rating_value is None or rating_value < config.min_rating):
        reasons.append(f"overall rating {'unreadable' if rating_value is None else f'{rating_value:.1f}'} below {config.min_rating}")
    unparsed_all = unparsed + ([] if rating.parsed else ["rating"])
    return Vote(
        name=judge.name,
        verdict="consistent" if ok else "inconsistent",
        reasons=reasons,
        parsed=not unparsed_all,
        samples=len(answers) + 1,
        samples_parsed=len(answers) + 1 - len(unparsed_all),
        scores={
            "properties": properties,
            **scores,
            "rating": rating_value,
            "threshold": config.threshold,
            "unparsed": unparsed_all,
            "scoring": "logprob" if judge.uses_logprob else "sample",
        },
        raw=[a.raw for a in answers] + [rating.raw],
    )


def run_oap(
    judges: Sequence[Judge], items: Sequence[tuple[str, str]], fv: Sequence[float | None], config: OAPConfig
) -> list[list[Vote]]:
    """votes[item][judge]; fv[i] is the syntax-check value of item i (None when unknown)."""
    columns = []
    for judge in judges:
        got = _logprob_answers(judge, items, config) if judge.uses_logprob else _sampled_answers(judge, items)
        if isinstance(got, str):
            columns.append([failed_vote(judge, "inconsistent", got) for _ in items])
            continue
        props, ratings = got
        columns.append([_vote(judge, props[i], ratings[i], fv[i], config) for i in range(len(items))])
    return [list(row) for row in zip(*columns)] if columns else [[] for _ in items]
