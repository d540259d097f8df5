"""Notebook 14's exercise checks: per-style verdicts, a reference bootstrap and randomization
test, and what a question file written by a learner must satisfy."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from retrieval_lab.checks.allow import Allow
from retrieval_lab.evaluation import evaluate
from retrieval_lab.scratch.measuring_retrieval import ndcg_at_k


@cache
def _runs() -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """The six retrievers' runs on the shipped questions, and the judgments (computed once)."""
    questions = evaluate.load_questions()
    retrievers = evaluate.standard_retrievers([q["question"] for q in questions])
    qrels = evaluate.judgments(questions, evaluate.corpus()[0])
    return evaluate.run_all(retrievers, questions), qrels, questions


def _ndcg10(name: str) -> dict[str, float]:
    runs, qrels, _ = _runs()
    return evaluate.per_question(ndcg_at_k, runs[name], qrels, k=10)


STYLES = ("keyword", "mixed", "paraphrase")


def style_verdicts() -> dict[str, str]:
    """Exercise 1 (predict): hybrid, MiniLM or unclear per style: the hybrid against MiniLM on nDCG@10,
    paired on each style's questions, the three p-values Holm-adjusted together (``significance``)."""
    scores = {}
    for run in ("hybrid (RRF)", "MiniLM"):
        values = _ndcg10(run)
        for style in STYLES:
            ids = {q["id"] for q in _runs()[2] if q["style"] == style}
            scores[f"{run.split()[0]} {style}"] = {q: v for q, v in values.items() if q in ids}
    found = evaluate.significance([(f"hybrid {s}", f"MiniLM {s}") for s in STYLES], scores)
    return {s: c.verdict.split()[0] if "beats" in c.verdict else "unclear"
            for s, c in zip(STYLES, found, strict=True)}


@dataclass(frozen=True)
class Interval:
    """Exercise 2's reference interval and how far a 10,000-resample estimate of it may stray."""

    low: float
    high: float
    tolerance: float  # below 0: one resample, so low equals high, between low and high here

    def __repr__(self) -> str:
        if self.tolerance < 0:
            return (f"low equal to high (one resample, one mean), between {self.low:.4f} and "
                    f"{self.high:.4f}")
        return f"({self.low:.4f}, {self.high:.4f}), each bound within {self.tolerance:.4f}"


@dataclass(frozen=True)
class PValue:
    """Exercise 3's reference p-value and how far a 10,000-resample estimate of it may stray."""

    p: float
    tolerance: float

    def __repr__(self) -> str:
        return f"{self.p:.4f}, within {self.tolerance:.4f} (and above 0)"


def _differences(a: Mapping[str, float], b: Mapping[str, float]) -> tuple[float, ...]:
    if set(a) != set(b):
        raise ValueError("a paired comparison needs the same questions on both sides.")
    return tuple(a[q] - b[q] for q in sorted(a))


def reference_interval(a: Mapping[str, float], b: Mapping[str, float], *rest: Any,
                       **__: Any) -> Interval:
    """The reference for one case (cached: each trial asks again); with one resample, one mean."""
    diffs = _differences(a, b)
    return Interval(min(diffs), max(diffs), -1.0) if rest and rest[0] == 1 else _interval(diffs)


@cache
def _interval(diffs: tuple[float, ...]) -> Interval:
    """The paired 95 % percentile interval from 400,000 resamples; tolerance an eighth of the bootstrap
    standard error: about 4.7 Monte Carlo standard errors of a bound from 10,000 resamples, and less than
    the distance between a 2.5th and a 3.5th percentile."""
    _, low, high = evaluate.bootstrap_interval(diffs, 400_000, seed=12345)
    return Interval(low, high, float(np.std(diffs)) / math.sqrt(len(diffs)) / 8 + 1e-9)


def same_interval(got: Any, expected: Interval) -> bool:
    low, high = (float(x) for x in got)
    if expected.tolerance < 0:  # one resample: one mean, between the extremes
        return low == high and expected.low - 1e-12 <= low <= expected.high + 1e-12
    return abs(low - expected.low) <= expected.tolerance and abs(high - expected.high) <= expected.tolerance


def reference_p_value(a: Mapping[str, float], b: Mapping[str, float], *rest: Any,
                      **__: Any) -> PValue:
    """The reference for one case (cached); one resample of twenty wins is (almost surely, 1 - 2**-19)
    less extreme than the observation: (0 + 1) / (1 + 1)."""
    diffs = _differences(a, b)
    return PValue(0.5, 1e-12) if rest and rest[0] == 1 else _p_value(diffs)


@cache
def _p_value(diffs: tuple[float, ...]) -> PValue:
    """The two-sided sign-flip p-value: exact (every sign pattern, in integer sums) up to 16 non-zero
    differences, else from 400,000 resamples; tolerance 5 Monte Carlo standard errors of a 10,000-resample
    estimate, plus the 1 / 10,001 an estimate adds by counting the observed assignment."""
    units = np.array([round(d * 1e12) for d in diffs if d != 0], dtype=np.int64)
    if len(units) <= 16:
        signs = np.array(list(itertools.product((-1, 1), repeat=len(units))), dtype=np.int64)
        p = float((np.abs(signs.reshape(-1, len(units)) @ units) >= abs(units.sum())).mean())
    else:
        p = evaluate.randomization_p_value(dict(enumerate(diffs)), dict.fromkeys(range(len(diffs)), 0.0),
                                           400_000, seed=12345)
    return PValue(p, 5 * math.sqrt(max(p, 1e-4) * (1 - p) / 10_000) + 1 / 10_001)


def same_p_value(got: Any, expected: PValue) -> bool:
    got = float(got)
    return 0 < got <= 1 and abs(got - expected.p) <= expected.tolerance


def _pairs(diffs: Sequence[float], rng: random.Random, base: float = 0.4) -> tuple[dict, dict]:
    """Per-question scores a and b with these differences, b's keys in another order."""
    ids = [f"q{i:03d}" for i in range(len(diffs))]
    b_values = [min(1.0, max(0.0, base + rng.uniform(-0.3, 0.3))) for _ in ids]
    a = {q: bv + d for q, bv, d in zip(ids, b_values, diffs, strict=True)}
    order = list(ids)
    rng.shuffle(order)
    return a, {q: b_values[ids.index(q)] for q in order}


#: Questions that differ: each side has one the other lacks, b has one more, a has one more
#: (reading a missing score as None raises TypeError only in the first).
_DIFFERENT_QUESTIONS = [({"q1": 1.0, "q2": 0.0}, {"q1": 0.0, "q3": 0.0}),
                       ({"q1": 1.0, "q2": 0.0}, {"q1": 0.0, "q2": 0.5, "q3": 0.0}),
                       ({"q1": 1.0, "q2": 0.0, "q3": 0.5}, {"q2": 0.0, "q1": 0.5})]


def bootstrap_cases() -> list[tuple[dict, dict]]:
    """Hit-rate-like (-1, 0, 1), recall-like and continuous differences of 25 to 137 questions (fewer
    would put the bounds on a lattice coarser than the tolerance), b's keys in another order; the
    course's hybrid against MiniLM; two questions that differ alike (one point); different questions."""
    rng = random.Random(14)
    steps = {"hit": [-1.0, 0.0, 0.0, 0.0, 1.0, 1.0], "recall": [-0.5, -1 / 3, 0.0, 0.0, 0.25, 0.5, 1.0]}
    cases = [_pairs([rng.choice(steps[kind]) if kind in steps else rng.gauss(0.05, 0.3) for _ in range(n)], rng)
             for n, kind in [(137, "hit"), (60, "recall"), (25, "continuous"), (137, "continuous")]]
    # skewed and small: one big win among ties, where a normal interval (mean ± 1.96 se) dips
    # below 0 and the bootstrap's does not; and a few tied, lopsided differences
    cases.append(_pairs([0.0] * 11 + [1.0], rng))
    cases.append(_pairs([0.0] * 6 + [0.5, 0.5, 1.0], rng))
    cases.append((_ndcg10("hybrid (RRF)"), _ndcg10("MiniLM")))
    cases.append(({"q1": 0.75, "q2": 0.5}, {"q2": 0.25, "q1": 0.5}))
    cases.append((*cases[1], 1, 3))  # one resample: the function must use `resamples`
    return cases + _DIFFERENT_QUESTIONS


def randomization_cases() -> list[tuple[dict, dict]]:
    """Ties everywhere (-1, 0, 1), a mean below zero, a small steady difference of scores that move
    together (clear paired, not unpaired), twenty wins of twenty (p far below 1 / 10,000), nothing to
    tell apart, the course's runs, and different questions."""
    rng = random.Random(41)
    cases = [_pairs(diffs, rng) for diffs in (
        [rng.choice([-1.0, 0.0, 1.0, 1.0]) for _ in range(14)],
        [rng.choice([-1.0, -1.0, 0.0, 1.0]) for _ in range(12)],
        [rng.choice([-0.5, 0.0, 0.25, 0.5, 1.0]) for _ in range(10)],
        [1.0] * 20,
        [0.25, -0.25] * 6,
        [0.0] * 9 + [1.0, 1.0],  # skewed and small: a t-test's p differs from the flips'
    )]
    ids = [f"q{i}" for i in range(30)]
    level = {q: rng.uniform(0.1, 0.8) for q in ids}
    cases.append(({q: level[q] + 0.04 + rng.gauss(0, 0.05) for q in ids}, {q: level[q] for q in reversed(ids)}))
    cases.append((_ndcg10("MiniLM + MMR"), _ndcg10("MiniLM")))
    cases.append((_ndcg10("hybrid (RRF)"), _ndcg10("MiniLM")))
    cases.append((*cases[3], 1, 7))  # twenty wins, one resample: the function must use it
    return cases + _DIFFERENT_QUESTIONS


def _words(text: str) -> list[str]:
    return [w for w in "".join(c.lower() if c.isalnum() else " " for c in text).split()
            if any(c.isalpha() for c in w)]


def question_problems(mine: Any) -> str | None:
    """Exercise 4 (apply): what is wrong with three questions a learner wrote, or None: the file's own
    checks, then what the exercise asks, spans that land on passages, and MiniLM's run scored as the shipped."""
    try:
        evaluate.check_questions(mine, "your questions", styles=evaluate.STYLES)
    except evaluate.QuestionFileError as error:
        return str(error)
    if len(mine) != 3 or sum(bool(q["relevant"]) for q in mine) < 2:
        return "write three questions, at least two of them with a span"
    shipped = [frozenset(_words(q["question"])) for q in evaluate.load_questions()]
    vocabulary, minilm = _corpus()
    seen: set[str] = set()
    for q in mine:
        words = _words(q["question"])
        asked = set(words)
        if len(asked) < 3:
            return f"{q['id']!r}: {q['question']!r} is not a question a user would ask " \
                   "(three different words at least)"
        if 2 * sum(w in vocabulary for w in words) < len(words):  # the shipped: 55 % at least
            return f"{q['id']!r}: most of its words are nowhere in the Python reference: " \
                   "write a question a user might ask about Python"
        # a shipped question with words added (" please"), removed or moved: all its words, or 4 in 5 shared
        if any(other <= asked or len(asked & other) >= 0.8 * len(asked | other) for other in shipped):
            return f"{q['id']!r}: write questions of your own, this one is in the shipped file"
        if " ".join(words) in seen:
            return f"{q['id']!r} asks the same as another of your questions"
        seen.add(" ".join(words))
    labels = evaluate.judgments(mine, evaluate.corpus()[0])
    for q in mine:
        if q["relevant"] and not labels[q["id"]]:
            return f"{q['id']!r}: its spans land on no passage of the corpus (only on spaces " \
                   "between passages?)"
    run = {q["id"]: minilm(q["question"]) for q in mine}
    if len(evaluate.per_question(ndcg_at_k, run, labels, k=10)) != sum(bool(q["relevant"]) for q in mine):
        return "some answerable question could not be scored"
    return None


@cache
def _corpus() -> tuple[frozenset[str], Callable[[str], list[str]]]:
    """Every word of the corpus (a question about Python uses mostly these), and MiniLM's retriever."""
    words = frozenset(w for chunk in evaluate.corpus()[0] for w in _words(chunk.page_content))
    return words, evaluate.standard_retrievers()["MiniLM"]


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="paired_bootstrap", modules=["numpy", "math", "random"],
                        refuse=["bootstrap", "bootstrap_interval", "paired_difference"]),
    "Exercise 3": Allow(answer="randomization_p_value", modules=["numpy", "math", "random"],
                        refuse=["permutation_test", "randomization_p_value", "significance", "ttest_rel"]),
    "Exercise 4": Allow(answer="my_questions", names=["evaluate"],
                        refuse=["load_questions", "shipped_questions_path", "questions"]),
}
