"""``python -m retrieval_lab.evaluate``: how good is each retriever, on a file of questions?

Reads a question file (graded relevance as character spans of ``python_reference()`` topics),
labels the passages of ``python_reference_chunks()`` from the spans, runs every retriever on
every question and prints one row per retriever: hit rate, recall@k, MRR and nDCG@k, each with a
95 % paired-bootstrap interval. Notebook 14 calls the same functions; it runs offline.

This module is an application at the top of the course's stack: it scores with the metrics and
the fusion that notebook 14 builds, and with notebook 09's BM25, so it imports
``retrieval_lab.scratch`` - inside its functions, never at module top, so that importing the
helper package never imports the scratch modules (docs/architecture.md).

Question file format (JSON)::

    {"questions": [{"id": "q001", "question": "...", "style": "...",
                    "relevant": [{"doc": "<topic>", "start": 0, "end": 120, "grade": 2}]}]}

``relevant`` empty means unanswerable from the corpus; such questions have no judgments and are
left out of the means, as trec_eval leaves out a query its qrels do not name.
"""

from __future__ import annotations

import argparse
import difflib
import json
import math
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

QUESTIONS_FILE = "python_reference_questions.json"

#: A retriever, as this module sees one: question text in, chunk ids out, best first.
Ranker = Callable[[str], list[str]]

#: How many ids each retriever returns: enough for every k the course draws (1 to 20).
DEPTH = 20


class QuestionFileError(ValueError):
    """A question file that cannot be scored; the message names the file and the problem."""


# --------------------------------------------------------------------------- questions


def shipped_questions_path() -> Path:
    """Where the course's own question set lives (inside the package)."""
    return Path(str(files("retrieval_lab") / "data" / QUESTIONS_FILE))


@cache
def _topics() -> dict[str, str]:
    from retrieval_lab.corpus import python_reference

    return {doc.id: doc.page_content for doc in python_reference()}


def _span_problem(span: Any, topics: Mapping[str, str]) -> str | None:
    """What is wrong with one span, or None."""
    if not isinstance(span, dict):
        return f"is {type(span).__name__}, not an object with doc, start, end and grade"
    missing = [key for key in ("doc", "start", "end", "grade") if key not in span]
    if missing:
        return f"has no {', '.join(missing)}"
    doc, start, end, grade = span["doc"], span["start"], span["end"], span["grade"]
    if doc not in topics:
        near = difflib.get_close_matches(str(doc), list(topics), n=1)
        return f"names topic {doc!r}, which is not in python_reference()" + (
            f" (did you mean {near[0]!r}?)" if near else ""
        )
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (start, end, grade)):
        return f"needs whole numbers for start, end and grade, got {start!r}, {end!r}, {grade!r}"
    if not 0 <= start < end <= len(topics[doc]):
        return (
            f"is [{start}, {end}), not a non-empty span inside topic {doc!r} "
            f"(0 to {len(topics[doc])} characters)"
        )
    if grade < 1:
        return f"has grade {grade}; a judged span is relevant, grade 1 or more (2: the answer)"
    return None


def _question_problem(question: Any, seen: set[str], topics: Mapping[str, str]) -> str | None:
    if not isinstance(question, dict):
        return f"is {type(question).__name__}, not an object"
    qid = question.get("id")
    if not isinstance(qid, str) or not qid:
        return "has no id (a non-empty string)"
    if qid in seen:
        return f"repeats the id {qid!r}"
    text = question.get("question")
    if not isinstance(text, str) or not text.strip():
        return f"{qid!r} has no question text"
    relevant = question.get("relevant")
    if not isinstance(relevant, list):
        return f"{qid!r} has no 'relevant' list (write [] for an unanswerable question)"
    for n, span in enumerate(relevant, start=1):
        problem = _span_problem(span, topics)
        if problem:
            return f"{qid!r}, relevant span {n}, {problem}"
    return None


def load_questions(path: str | Path | None = None) -> list[dict[str, Any]]:
    """The questions of a file (the shipped set without ``path``), checked.

    A file that cannot be scored raises ``QuestionFileError`` naming the file, the question and
    what is wrong (not JSON, a missing field, an unknown topic, a span outside its topic...).
    """
    where = Path(path) if path is not None else shipped_questions_path()
    try:
        data = json.loads(where.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise QuestionFileError(f"{where}: no such file.") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise QuestionFileError(f"{where}: not a JSON file ({exc}).") from None
    questions = data.get("questions") if isinstance(data, dict) else None
    if not isinstance(questions, list) or not questions:
        raise QuestionFileError(
            f'{where}: expected an object {{"questions": [...]}} with at least one question.'
        )
    return check_questions(questions, str(where))


def check_questions(questions: Any, where: str = "questions") -> list[dict[str, Any]]:
    """The questions, if every one is well formed; else ``QuestionFileError`` saying why."""
    if not isinstance(questions, list) or not questions:
        raise QuestionFileError(f"{where}: expected a list with at least one question.")
    seen: set[str] = set()
    for n, question in enumerate(questions, start=1):
        problem = _question_problem(question, seen, _topics())
        if problem:
            raise QuestionFileError(f"{where}: question {n} {problem}.")
        seen.add(question["id"])
    return questions


#: The halves of a question set: knobs are chosen on ``dev`` and reported on ``test``.
SPLITS = ("dev", "test", "all")


def _split_key(question_id: str) -> str:
    """Where a question falls in its style's order: a hash of its id, so the split depends on
    nothing else (not the file's order, not the machine, not Python's hash seed)."""
    import hashlib

    return hashlib.sha256(f"retrieval-lab/split/{question_id}".encode()).hexdigest()


def split_questions(
    questions: Sequence[Mapping[str, Any]], part: str
) -> list[Mapping[str, Any]]:
    """The ``dev`` half, the ``test`` half, or ``all`` of the questions, in file order.

    Fixed and stratified: within each style the questions are ordered by a SHA-256 of their id
    and the first half (rounded down) is dev, the rest test, so each half has the same mix of
    styles (the shipped 147: 73 dev, 74 test). Choose a threshold, λ or a fusion weight on dev;
    report the chosen setting on test, which played no part in choosing it.
    """
    if part not in SPLITS:
        raise ValueError(f"part must be one of {', '.join(SPLITS)}, got {part!r}.")
    if part == "all":
        return list(questions)
    by_style: dict[str, list[str]] = {}
    for q in questions:
        by_style.setdefault(str(q.get("style", "")), []).append(q["id"])
    dev: set[str] = set()
    for ids in by_style.values():
        dev.update(sorted(ids, key=_split_key)[: len(ids) // 2])
    return [q for q in questions if (q["id"] in dev) == (part == "dev")]


def span_of(topic: str, text: str, grade: int = 2) -> dict[str, Any]:
    """The span of ``text`` in a topic, ready for a question's ``relevant`` list.

    ``span_of("pass", "a null operation")`` finds the words in ``python_reference()``'s topic
    and returns ``{"doc": "pass", "start": ..., "end": ..., "grade": 2}``; text that is missing
    or occurs twice is refused, since a span must say which occurrence it means.
    """
    if topic not in _topics():
        near = difflib.get_close_matches(str(topic), list(_topics()), n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise ValueError(f"{topic!r} is not a topic of python_reference(){hint}.")
    body = _topics()[topic]
    start = body.find(text)
    if not text or start < 0:
        raise ValueError(f"topic {topic!r} does not contain {text!r} (copy it exactly).")
    if body.find(text, start + 1) >= 0:
        raise ValueError(f"{text!r} occurs more than once in {topic!r}: quote more of it.")
    return {"doc": topic, "start": start, "end": start + len(text), "grade": grade}


def judgments(
    questions: Sequence[Mapping[str, Any]], chunks: Sequence[Any]
) -> dict[str, dict[str, int]]:
    """qrels: for each question id, ``{chunk id: grade}`` of the chunks its spans overlap."""
    from retrieval_lab.scratch.measuring_retrieval import chunk_labels

    by_topic: dict[str, list[Any]] = {}
    for chunk in chunks:
        by_topic.setdefault(chunk.metadata["topic"], []).append(chunk)
    qrels = {}
    for q in questions:
        mine = [c for topic in {s["doc"] for s in q["relevant"]} for c in by_topic.get(topic, [])]
        qrels[q["id"]] = chunk_labels(q["relevant"], mine)
    return qrels


# --------------------------------------------------------------------------- retrievers


def _ranked(ids: Sequence[str], scores: Sequence[float], depth: int) -> list[str]:
    """Ids with a positive score, best first; equal scores keep corpus order (09's top_k)."""
    order = sorted(range(len(ids)), key=lambda i: -scores[i])
    return [ids[i] for i in order if scores[i] > 0][:depth]


class TermIndex:
    """Each passage's words counted once, so a query reads only the passages holding its words.

    Scores are notebook 09's ``keyword_scores`` and ``bm25_scores``, the same numbers in the same
    order of operations (a test checks they are equal); 09's functions re-read all 781 passages
    for every question, which is 50 ms a question, and this is about 1 ms.
    """

    def __init__(self, texts: Sequence[str]) -> None:
        from retrieval_lab.scratch.retrievers import split_terms

        self._split = split_terms
        bags = [split_terms(text) for text in texts]
        self.lengths = [len(bag) for bag in bags]
        self.average = sum(self.lengths) / len(bags) if bags else 0.0
        self.postings: dict[str, list[tuple[int, int]]] = {}
        for i, bag in enumerate(bags):
            for term, count in Counter(bag).items():
                self.postings.setdefault(term, []).append((i, count))

    def keyword_scores(self, query: str) -> list[int]:
        """How often the query's words occur in each passage (09's keyword_scores)."""
        scores = [0] * len(self.lengths)
        for term in self._split(query):
            for i, count in self.postings.get(term, []):
                scores[i] += count
        return scores

    def bm25_scores(self, query: str, k1: float = 1.5, b: float = 0.75) -> list[float]:
        """Okapi BM25 of each passage (09's bm25_scores, term by term in query order)."""
        n_docs, scores = len(self.lengths), [0.0] * len(self.lengths)
        if self.average == 0:
            return scores
        for term in self._split(query):
            having = self.postings.get(term, [])
            idf = math.log(1 + (n_docs - len(having) + 0.5) / (len(having) + 0.5))
            for i, tf in having:
                length = self.lengths[i]
                scores[i] += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / self.average))
        return scores


def keyword_ranker(
    chunks: Sequence[Any], depth: int = DEPTH, index: TermIndex | None = None
) -> Ranker:
    """Notebook 09's keyword counting: most mentions of the query's words first."""
    index = index or TermIndex([c.page_content for c in chunks])
    ids = [c.id for c in chunks]
    return lambda question: _ranked(ids, index.keyword_scores(question), depth)


def bm25_ranker(
    chunks: Sequence[Any], depth: int = DEPTH, k1: float = 1.5, b: float = 0.75,
    index: TermIndex | None = None,
) -> Ranker:
    """Notebook 09's BM25 (k1 = 1.5, b = 0.75)."""
    index = index or TermIndex([c.page_content for c in chunks])
    ids = [c.id for c in chunks]
    return lambda question: _ranked(ids, index.bm25_scores(question, k1, b), depth)


def bag_of_words_ranker(chunks: Sequence[Any], depth: int = DEPTH) -> Ranker:
    """Cosine of ``BagOfWords`` count vectors, on a vocabulary of every word of the passages.

    The vectors are counted with a Counter, only the words a text has (``BagOfWords`` calls
    ``list.count`` once per vocabulary word, 3,000 times a text); a test checks they are the
    vectors ``BagOfWords(vocabulary)`` gives. Counts are whole numbers, so every dot product
    is exact, whatever order a CPU adds in.
    """
    import numpy as np

    from retrieval_lab.embeddings import words_of

    bags = [Counter(words_of(c.page_content)) for c in chunks]
    vocabulary = sorted(set().union(*bags))
    column = {word: j for j, word in enumerate(vocabulary)}
    matrix = np.zeros((len(chunks), len(vocabulary)))
    for i, bag in enumerate(bags):
        for word, count in bag.items():
            matrix[i, column[word]] = count
    norms, ids = np.linalg.norm(matrix, axis=1), [c.id for c in chunks]

    def rank(question: str) -> list[str]:
        counts = {w: n for w, n in Counter(words_of(question)).items() if w in column}
        if not counts:
            return []  # no word in common with any passage: every cosine is 0/0
        query = np.array(list(counts.values()), dtype=float)
        dots = matrix[:, [column[w] for w in counts]] @ query
        cosines = dots / (norms * math.sqrt(float(query @ query)))
        return _ranked(ids, cosines.tolist(), depth)

    rank.vocabulary = vocabulary  # type: ignore[attr-defined]
    return rank


class DenseRanker:
    """MiniLM: the cosine of the question's vector with each passage's shipped vector.

    Passages with the same text (``compound`` repeats ``for``, ``if``...) get one vector, the
    first one's: the shipped file was embedded in padded batches, which moves their last bits
    (by 6e-8). Scores are computed in float64 and rounded to 6 decimals before sorting, so such
    passages tie exactly and keep corpus order on every CPU. Question
    vectors are made in one batch by ``prepare`` (MiniLM's ``embed_query`` gives the same
    vector one text at a time, slower); a question not prepared is embedded on first use.
    """

    def __init__(
        self, chunks: Sequence[Any], vectors: Any, embedder: Any = None, depth: int = DEPTH
    ) -> None:
        import numpy as np

        from retrieval_lab.embeddings import MiniLM

        self.ids, self.depth = [c.id for c in chunks], depth
        vectors = np.asarray(vectors, dtype=np.float64)
        if vectors.shape[0] != len(self.ids):
            raise ValueError(f"got {vectors.shape[0]} vectors for {len(self.ids)} chunks.")
        first: dict[str, int] = {}
        self.matrix = vectors[[first.setdefault(c.page_content, i) for i, c in enumerate(chunks)]]
        self.embedder = embedder if embedder is not None else MiniLM()
        self._vectors: dict[str, Any] = {}

    def prepare(self, questions: Sequence[str]) -> None:
        """Embed the questions not seen yet, all in one batch."""
        new = sorted({q for q in questions if q not in self._vectors})
        if new:
            self._vectors.update(zip(new, self.embedder.embed_documents(new), strict=True))

    def vector(self, question: str) -> Any:
        import numpy as np

        self.prepare([question])
        return np.asarray(self._vectors[question], dtype=np.float64)

    def scores(self, question: str) -> Any:
        """Rounded cosines of the question with every passage, in corpus order."""
        import numpy as np

        return np.round(self.matrix @ self.vector(question), 6)

    def __call__(self, question: str) -> list[str]:
        import numpy as np

        order = np.argsort(-self.scores(question), kind="stable")
        return [self.ids[i] for i in order[: self.depth]]


def mmr_ranker(
    dense: DenseRanker, lambda_mult: float = 0.5, fetch_k: int = DEPTH, k: int | None = None
) -> Ranker:
    """Notebook 07's MMR over MiniLM's ``fetch_k`` best passages: relevant, but not alike.
    It picks ``k`` of them (all ``fetch_k`` by default), one at a time."""
    from retrieval_lab.scratch.in_memory_vectorstore import maximal_marginal_relevance

    position = {doc_id: i for i, doc_id in enumerate(dense.ids)}

    def rank(question: str) -> list[str]:
        candidates = dense(question)[:fetch_k]
        rows = [dense.matrix[position[c]] for c in candidates]
        picks = maximal_marginal_relevance(
            dense.vector(question), rows, lambda_mult=lambda_mult, k=k or len(rows)
        )
        return [candidates[i] for i in picks]

    return rank


def hybrid_ranker(
    rankers: Sequence[Ranker], weights: Sequence[float] | None = None, c: int = 60,
    depth: int = DEPTH,
) -> Ranker:
    """Reciprocal-rank fusion of several retrievers (notebook 14's, EnsembleRetriever's rule)."""
    from retrieval_lab.scratch.measuring_retrieval import reciprocal_rank_fusion

    def rank(question: str) -> list[str]:
        fused = reciprocal_rank_fusion([r(question) for r in rankers], weights, c)
        return fused[:depth]

    return rank


@cache
def corpus() -> tuple[list[Any], Any]:
    """The passages and their shipped MiniLM vectors (loaded once per process)."""
    from retrieval_lab.corpus import python_reference_chunks, python_reference_vectors

    return python_reference_chunks(), python_reference_vectors()


def standard_retrievers(
    questions: Sequence[str] = (), depth: int = DEPTH, embedder: Any = None
) -> dict[str, Ranker]:
    """The retrievers the course compares, by name, over ``python_reference_chunks()``.

    ``questions`` are embedded by MiniLM in one batch up front (any other is embedded when
    asked). The hybrid fuses BM25 and MiniLM, equal weights, c = 60; MMR uses λ = 0.5 over
    MiniLM's best 20.
    """
    chunks, vectors = corpus()
    dense = DenseRanker(chunks, vectors, embedder, depth)
    dense.prepare(questions)
    index = TermIndex([c.page_content for c in chunks])
    bm25 = bm25_ranker(chunks, depth, index=index)
    return {
        "keyword": keyword_ranker(chunks, depth, index=index),
        "BagOfWords": bag_of_words_ranker(chunks, depth),
        "BM25": bm25,
        "MiniLM": dense,
        "MiniLM + MMR": mmr_ranker(dense, 0.5, max(depth, DEPTH)),
        "hybrid (RRF)": hybrid_ranker([bm25, dense], None, 60, depth),
    }


def run_all(
    retrievers: Mapping[str, Ranker], questions: Sequence[Mapping[str, Any]]
) -> dict[str, dict[str, list[str]]]:
    """``{retriever: {question id: ranked chunk ids}}``, every retriever on every question."""
    return {
        name: {q["id"]: list(rank(q["question"])) for q in questions}
        for name, rank in retrievers.items()
    }


# --------------------------------------------------------------------------- statistics


def per_question(
    metric: Callable[..., float],
    run: Mapping[str, Sequence[str]],
    qrels: Mapping[str, Mapping[str, int]],
    **options: Any,
) -> dict[str, float]:
    """The metric on each judged question (the values ``mean_over`` averages), by id."""
    return {q: metric(run[q], labels, **options) for q, labels in qrels.items() if labels}


def _mean(values: Sequence[float]) -> float:
    """A correctly rounded mean: the same bits whatever order a CPU would add in."""
    return math.fsum(values) / len(values)


def bootstrap_interval(
    values: Sequence[float], resamples: int = 2000, seed: int = 0, level: float = 0.95
) -> tuple[float, float, float]:
    """(mean, low, high): the mean and a percentile-bootstrap interval for it.

    Questions are drawn with replacement ``resamples`` times (numpy's seeded PCG64, the same
    draws on every machine); each mean is summed exactly (``math.fsum``), so the interval does
    not depend on the CPU. Two lists of per-question differences give a paired interval.
    """
    import numpy as np

    values = [float(v) for v in values]
    if not values:
        raise ValueError("no values: a question set needs at least one judged question.")
    draws = np.random.default_rng(seed).integers(0, len(values), size=(resamples, len(values)))
    means = np.array([_mean([values[i] for i in row]) for row in draws.tolist()])
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return _mean(values), float(low), float(high)


def paired_difference(
    a: Mapping[str, float], b: Mapping[str, float], resamples: int = 2000, seed: int = 0
) -> tuple[float, float, float]:
    """(mean of a - b, low, high) over the same questions: a paired bootstrap interval."""
    if set(a) != set(b):
        raise ValueError("a paired comparison needs the same questions on both sides.")
    return bootstrap_interval([a[q] - b[q] for q in sorted(a)], resamples, seed)


def verdict(name_a: str, name_b: str, low: float, high: float) -> str:
    """Words that claim only what the interval supports: a winner only when the interval,
    as printed (3 decimals), excludes zero, so a bound shown as 0.000 never names one."""
    if round(low, 3) > 0:
        return f"{name_a} beats {name_b}"
    if round(high, 3) < 0:
        return f"{name_b} beats {name_a}"
    return "no clear difference"


# --------------------------------------------------------------------------- the table


def _cell(mean: float, low: float, high: float) -> str:
    return f"{mean:.3f} [{low:.3f}, {high:.3f}]"


@dataclass
class ScoreTable:
    """Rows of text cells with a caption; prints as aligned text, shows as HTML in Jupyter."""

    columns: list[str]
    rows: list[list[str]]
    caption: str = ""

    def __str__(self) -> str:
        table = [self.columns, *self.rows]
        widths = [max(len(row[j]) for row in table) for j in range(len(self.columns))]
        lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
                 for row in table]
        return "\n".join(([self.caption] if self.caption else []) + lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        import html

        head = "".join(f"<th>{html.escape(c)}</th>" for c in self.columns)
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>"
            for row in self.rows
        )
        caption = f"<caption>{html.escape(self.caption)}</caption>" if self.caption else ""
        return f"<table>{caption}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def metric_functions(k: int) -> dict[str, Callable[[Sequence[str], Mapping[str, int]], float]]:
    """The four headline metrics at cut-off k, as functions of (ranking, labels)."""
    from retrieval_lab.scratch import measuring_retrieval as m

    return {
        f"hit rate@{k}": lambda run, rel: m.hit_rate_at_k(run, rel, k),
        f"recall@{k}": lambda run, rel: m.recall_at_k(run, rel, k),
        "MRR": m.reciprocal_rank,
        f"nDCG@{k}": lambda run, rel: m.ndcg_at_k(run, rel, k),
    }


def score_runs(
    runs: Mapping[str, Mapping[str, Sequence[str]]],
    qrels: Mapping[str, Mapping[str, int]],
    k: int = 5,
    resamples: int = 2000,
    seed: int = 0,
) -> ScoreTable:
    """One row per retriever: each headline metric's mean with its 95 % bootstrap interval."""
    metrics = metric_functions(k)
    judged = sum(1 for labels in qrels.values() if labels)
    rows = []
    for name, run in runs.items():
        cells = [name]
        for metric in metrics.values():
            values = per_question(metric, run, qrels)
            cells.append(_cell(*bootstrap_interval(list(values.values()), resamples, seed)))
        rows.append(cells)
    caption = (
        f"{judged} questions with judgments ({len(qrels) - judged} unanswerable left out); "
        f"mean [95% bootstrap interval, {resamples:,} resamples, seed {seed}]"
    )
    return ScoreTable(["retriever", *metrics], rows, caption)


def paired_table(
    runs: Mapping[str, Mapping[str, Sequence[str]]],
    qrels: Mapping[str, Mapping[str, int]],
    pairs: Sequence[tuple[str, str]],
    metric: str = "recall@5",
    resamples: int = 2000,
    seed: int = 0,
) -> ScoreTable:
    """For each pair (a, b): the mean per-question difference a - b of one headline metric,
    its paired 95 % bootstrap interval, and a verdict that claims only what it supports."""
    k = int(metric.rsplit("@", 1)[1]) if "@" in metric else 5
    function = metric_functions(k)[metric]
    rows = []
    for a, b in pairs:
        diff = paired_difference(
            per_question(function, runs[a], qrels), per_question(function, runs[b], qrels),
            resamples, seed,
        )
        rows.append([a, b, _cell(*diff).replace("-0.000", "0.000"), verdict(a, b, *diff[1:])])
    caption = f"{metric}, paired over the same questions ({resamples:,} resamples, seed {seed})"
    return ScoreTable(["a", "b", "a − b [95% interval]", "verdict"], rows, caption)


def score_table(
    questions: Sequence[Mapping[str, Any]] | None = None,
    k: int = 5,
    retrievers: Mapping[str, Ranker] | None = None,
    resamples: int = 2000,
    seed: int = 0,
) -> ScoreTable:
    """Score retrievers (the standard ones by default) on questions (the shipped set)."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a whole number of at least 1, got {k!r}.")
    questions = load_questions() if questions is None else questions
    if retrievers is None:
        retrievers = standard_retrievers([q["question"] for q in questions], max(k, DEPTH))
    qrels = judgments(questions, corpus()[0])
    return score_runs(run_all(retrievers, questions), qrels, k, resamples, seed)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m retrieval_lab.evaluate",
        description="Score the course's retrievers on a question file (JSON, graded spans).",
    )
    parser.add_argument("--questions", help="question file (default: the shipped set)")
    parser.add_argument("--k", type=int, default=5, help="cut-off for hit rate, recall, nDCG")
    parser.add_argument("--resamples", type=int, default=2000, help="bootstrap resamples")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed")
    args = parser.parse_args(argv)
    if args.k < 1 or args.resamples < 1:
        parser.error("--k and --resamples must be at least 1")
    try:
        questions = load_questions(args.questions)
    except QuestionFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(score_table(questions, args.k, resamples=args.resamples, seed=args.seed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
