"""Measure a knob on the labelled questions in a few lines: the helper every notebook uses.

    from retrieval_lab.evaluation import knobs
    report = knobs.measure({"raw counts": counts, "TF-IDF": tfidf, "MiniLM": dense}, split="dev")
    report            # the means with their intervals, then each setting against the first
    report.verdict("TF-IDF", "raw counts")   # "TF-IDF beats raw counts", or "no clear difference"

A setting is a ranker (a question in, ranked passage ids out) over the course's passages, or a
``Setting(ranker, chunks)`` over chunks of its own (notebook 03's chunkings): each is judged by
the questions' character spans on its own chunks. ``knobs.compare`` takes per-question scores of
any metric instead. Tune on ``split="dev"``, report the chosen setting on ``split="test"``.
The numbers are notebook 14's (``evaluate.significance``): a mean with its 95 % bootstrap
interval, and for each pair the paired difference, its interval, the randomization p-value and
Holm's correction over the table's pairs, with a verdict that claims only what they support.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from retrieval_lab.evaluation import evaluate

__all__ = ["GUIDE", "Report", "Setting", "compare", "measure"]

#: The one line an early notebook shows above a report, before notebook 14 has explained it.
GUIDE = (
    "How to read it: each mean has a 95% interval (the range it could take on other questions "
    "like these); a − b is paired over the same questions, and a verdict says 'beats' only when "
    "the Holm-corrected randomization p-value is under 0.05. Notebook 14 explains each number."
)

Ranker = Callable[[str], Sequence[str]]


@dataclass
class Setting:
    """A ranker over chunks of its own (``chunks``: Documents with ``id`` and ``metadata['topic']``
    and ``start_index``, as the course's chunkers make them); ``None`` means the course's passages."""

    ranker: Ranker
    chunks: Sequence[Any] | None = None


@dataclass
class Report:
    """Per-question scores of some settings, their means and their paired comparisons."""

    metric: str
    split: str
    scores: dict[str, dict[str, float]]
    comparisons: list[evaluate.Comparison]
    resamples: int
    seed: int
    guide: bool = False
    _intervals: dict[str, tuple[float, float, float]] = field(default_factory=dict, repr=False)

    def mean(self, name: str) -> float:
        """The mean of a setting's per-question scores."""
        return self._intervals[self._known(name)][0]

    def interval(self, name: str) -> tuple[float, float]:
        """A setting's 95 % bootstrap interval of the mean."""
        return self._intervals[self._known(name)][1:]

    def comparison(self, a: str, b: str) -> evaluate.Comparison:
        """The comparison of a with b (either order as it was asked)."""
        for c in self.comparisons:
            if {c.a, c.b} == {a, b}:
                return c
        asked = ", ".join(f"({c.a!r}, {c.b!r})" for c in self.comparisons)
        raise KeyError(f"({a!r}, {b!r}) was not compared; the pairs are {asked}.")

    def verdict(self, a: str, b: str) -> str:
        """The words for a against b: "a beats b", "b beats a", "no clear difference" or
        "too close to call"."""
        return self.comparison(a, b).verdict

    def _known(self, name: str) -> str:
        if name not in self._intervals:
            raise KeyError(f"no setting named {name!r}; the settings are {', '.join(self._intervals)}.")
        return name

    def tables(self) -> tuple[evaluate.ScoreTable, evaluate.ScoreTable]:
        """The means table and the paired table."""
        n = len(next(iter(self.scores.values())))
        means = evaluate.ScoreTable(
            ["setting", f"{self.metric} [95% interval]"],
            [[name, evaluate._cell(*self._intervals[name])] for name in self.scores],
            f"{self.split} questions ({n} with judgments): mean [95% bootstrap interval, "
            f"{self.resamples:,} resamples, seed {self.seed}, rounded outward]",
        )
        paired = evaluate.ScoreTable(
            ["a", "b", "a − b", "95% interval", "p", "Holm p", "verdict"],
            [[c.a, c.b, f"{c.difference:+.4f}", evaluate.outward(c.low, c.high),
              evaluate.p_text(c.p_value), evaluate.p_text(c.holm_p), c.verdict]
             for c in self.comparisons],
            f"{self.metric}, paired over the same {n} questions; randomization p-value, "
            f"Holm-adjusted over {len(self.comparisons)} pairs, alpha {evaluate.ALPHA}",
        )
        return means, paired

    def __str__(self) -> str:
        means, paired = self.tables()
        return "\n\n".join(([GUIDE] if self.guide else []) + [str(means), str(paired)])

    __repr__ = __str__

    def _repr_html_(self) -> str:
        means, paired = self.tables()
        guide = f"<p><em>{GUIDE}</em></p>" if self.guide else ""
        return guide + means._repr_html_() + paired._repr_html_()


def compare(
    scores: Mapping[str, Mapping[str, float]],
    pairs: Sequence[tuple[str, str]] | None = None,
    *,
    metric: str = "nDCG@10",
    split: str = "dev",
    guide: bool = False,
    resamples: int = evaluate.RESAMPLES,
    seed: int = 0,
) -> Report:
    """A report from per-question scores ``{setting: {question id: value}}`` (the same questions
    for every setting). ``pairs`` default to every setting against the first."""
    names = list(scores)
    if len(names) < 1:
        raise ValueError("compare needs the scores of at least one setting.")
    questions = set(scores[names[0]])
    for name in names:
        if set(scores[name]) != questions:
            raise ValueError(f"{name!r} was scored on other questions than {names[0]!r}: a paired "
                             "comparison needs the same questions for every setting.")
    if not questions:
        raise ValueError("no judged questions: a report needs at least one.")
    pairs = [(name, names[0]) for name in names[1:]] if pairs is None else list(pairs)
    for a, b in pairs:
        for name in (a, b):
            if name not in scores:
                raise KeyError(f"the pair ({a!r}, {b!r}) names {name!r}, which has no scores.")
    order = sorted(questions)
    values = [[float(scores[name][q]) for q in order] for name in names]
    tail = (1 - 0.95) / 2 * 100
    drawn = evaluate._resampled_means(values, resamples, seed)
    intervals = {}
    for name, row, means in zip(names, values, drawn, strict=True):
        low, high = np.percentile(means, [tail, 100 - tail])
        intervals[name] = (evaluate._mean(row), float(low), float(high))
    found = evaluate.significance(pairs, scores, resamples, seed) if pairs else []
    return Report(metric, split, {n: dict(scores[n]) for n in names}, found, resamples, seed,
                  guide, intervals)


def _metric(name: str) -> Callable[[Sequence[str], Mapping[str, int]], float]:
    k = int(name.rsplit("@", 1)[1]) if "@" in name else 10
    functions = evaluate.metric_functions(k)
    if name not in functions:
        raise ValueError(f"metric must be one of {', '.join(functions)}, got {name!r}.")
    return functions[name]


def measure(
    settings: Mapping[str, Ranker | Setting],
    pairs: Sequence[tuple[str, str]] | None = None,
    *,
    split: str = "dev",
    metric: str = "nDCG@10",
    questions: Sequence[Mapping[str, Any]] | None = None,
    guide: bool = False,
    resamples: int = evaluate.RESAMPLES,
    seed: int = 0,
) -> Report:
    """Run each setting on the ``split`` half of the shipped questions (or on ``questions``) and
    report ``metric`` per question: means, intervals and paired comparisons (``compare``)."""
    asked = evaluate.split_questions(evaluate.load_questions() if questions is None else questions, split)
    function = _metric(metric)
    passages = None
    scores = {}
    for name, setting in settings.items():
        setting = setting if isinstance(setting, Setting) else Setting(setting)
        if not callable(setting.ranker):
            raise TypeError(f"setting {name!r}: a ranker is a function from a question to ranked ids, "
                            f"got {setting.ranker!r}.")
        if setting.chunks is None:
            passages = evaluate.corpus()[0] if passages is None else passages
        qrels = evaluate.judgments(asked, passages if setting.chunks is None else setting.chunks)
        run = {q["id"]: list(setting.ranker(q["question"])) for q in asked if qrels[q["id"]]}
        scores[name] = evaluate.per_question(function, run, {q: r for q, r in qrels.items() if r})
    return compare(scores, pairs, metric=metric, split=split, guide=guide,
                   resamples=resamples, seed=seed)
