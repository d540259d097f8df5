"""``python -m retrieval_lab.evaluation.evaluate``: how good is each retriever, on a file of questions?

Reads a question file (graded relevance as character spans of ``python_reference()`` topics),
labels the distinct passages of ``python_reference_chunks()`` from the spans (copies of a
passage collapsed first), runs every retriever on every question and prints, like a paper:

- one row per retriever: hit rate, recall@k, MRR, nDCG@k and nDCG@10, each mean with a 95 %
  bootstrap interval;
- one row per compared pair: the mean difference, its paired bootstrap interval, the paired
  randomization p-value, the p-value after Holm-Bonferroni over the table's pairs, and a
  verdict given only where the Monte Carlo error cannot flip it (the same at every seed).

``--split dev|test|all`` picks a fixed half of the questions (``split_questions``);
``--trec-run DIR`` also writes one TREC run file per retriever and the qrels, for trec_eval or
ranx; ``--with MODULE`` imports a module that adds rows (``register_retriever``); the second
stage's rows (``retrieval_lab.evaluation.rerank``: two rerankers over the hybrid's top 20, 50 and 100, each
paired with that first stage) come by default, ``--no-rerank`` leaves them out. Notebook 14
calls the same functions; everything runs offline.

This module sits in the evaluation layer, above scratch (docs/design.md): it scores with the
metrics and the fusion that notebook 14 builds, and with notebook 09's BM25, imported from
``retrieval_lab.scratch``.

Question file format (JSON)::

    {"questions": [{"id": "q001", "question": "...", "style": "...",
                    "relevant": [{"doc": "<topic>", "start": 0, "end": 120, "grade": 2}]}]}

``relevant`` empty means unanswerable from the corpus (style ``unanswerable``); such questions
have no judgments and are left out of the means, as trec_eval leaves out a query its qrels do
not name. A file that cannot be used is refused with the question and the field at fault.
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

from retrieval_lab.data.corpus import (
    distinct_passages,
    python_reference,
    python_reference_chunks,
    python_reference_vectors,
)
from retrieval_lab.models.embeddings import MiniLM, words_of
from retrieval_lab.scratch import measuring_retrieval as m
from retrieval_lab.scratch.in_memory_vectorstore import maximal_marginal_relevance
from retrieval_lab.scratch.measuring_retrieval import chunk_labels, reciprocal_rank_fusion
from retrieval_lab.scratch.retrievers import split_terms

QUESTIONS_FILE = "python_reference_questions.json"

#: A retriever, as this module sees one: question text in, chunk ids out, best first.
Ranker = Callable[[str], list[str]]

#: How many ids each retriever returns: enough for every k the course draws (1 to 20).
DEPTH = 20


#: The course's question styles (docs/questions.md): ``keyword`` questions use the reference's
#: own words, ``paraphrase`` ones share no content word with their answer, ``mixed`` are in
#: between, and ``unanswerable`` ones have no answer in the corpus (no span).
STYLES = ("keyword", "mixed", "paraphrase", "unanswerable")


class QuestionFileError(ValueError):
    """A question file that cannot be scored; the message names the file and the problem."""


# --------------------------------------------------------------------------- questions


def shipped_questions_path() -> Path:
    """Where the course's own question set lives (inside the package)."""
    return Path(str(files("retrieval_lab") / "data" / QUESTIONS_FILE))


@cache
def _topics() -> dict[str, str]:

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


def _question_problem(
    question: Any, seen: set[str], topics: Mapping[str, str],
    styles: Sequence[str] | None = None,
) -> str | None:
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
    style = question.get("style")
    if not isinstance(style, str) or not style.strip():
        return f"{qid!r} has no style (a word: {', '.join(STYLES)} are the course's)"
    if styles is not None and style not in styles:
        return f"{qid!r} has the style {style!r}, not one of {', '.join(styles)}"
    relevant = question.get("relevant")
    if not isinstance(relevant, list):
        return f"{qid!r} has no 'relevant' list (write [] for an unanswerable question)"
    if (style == "unanswerable") != (not relevant):
        return (f"{qid!r} has the style 'unanswerable' but lists relevant spans"
                if relevant else
                f"{qid!r} has an empty 'relevant' list: give it the style 'unanswerable'")
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


def check_questions(
    questions: Any, where: str = "questions", styles: Sequence[str] | None = None
) -> list[dict[str, Any]]:
    """The questions, if every one is well formed; else ``QuestionFileError`` saying why.

    ``styles``, when given, is the list a question's style must come from (``STYLES`` for the
    course's own file); a question with the style ``unanswerable`` has no span, and one with
    no span has that style."""
    if not isinstance(questions, list) or not questions:
        raise QuestionFileError(f"{where}: expected a list with at least one question.")
    seen: set[str] = set()
    for n, question in enumerate(questions, start=1):
        problem = _question_problem(question, seen, _topics(), styles)
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


#: The last few batches of questions the course's MiniLM embedded for a DenseRanker, by their
#: texts: the command's rows and the second stage's first stage (rerank.first_stage) embed the
#: same shipped questions, and so do notebook 14's cells. The same batch gives the same vectors.
_BATCHES: dict[tuple[str, ...], list[list[float]]] = {}


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


        self.ids, self.depth = [c.id for c in chunks], depth
        vectors = np.asarray(vectors, dtype=np.float64)
        if vectors.shape[0] != len(self.ids):
            raise ValueError(f"got {vectors.shape[0]} vectors for {len(self.ids)} chunks.")
        first: dict[str, int] = {}
        self.matrix = vectors[[first.setdefault(c.page_content, i) for i, c in enumerate(chunks)]]
        self._shared = embedder is None  # the course's MiniLM: batches shared (_BATCHES)
        self.embedder = embedder if embedder is not None else MiniLM()
        self._vectors: dict[str, Any] = {}

    def prepare(self, questions: Sequence[str]) -> None:
        """Embed the questions not seen yet, all in one batch."""
        new = sorted({q for q in questions if q not in self._vectors})
        if not new:
            return
        key = tuple(new)
        shared = self._shared and len(new) > 1  # one question at a time: cheap, not kept
        vectors = _BATCHES.get(key) if shared else None
        if vectors is None:
            vectors = self.embedder.embed_documents(new)
            if shared:
                _BATCHES[key] = vectors
                while len(_BATCHES) > 4:
                    del _BATCHES[next(iter(_BATCHES))]
        self._vectors.update(zip(new, vectors, strict=True))

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

    def rank(question: str) -> list[str]:
        fused = reciprocal_rank_fusion([r(question) for r in rankers], weights, c)
        return fused[:depth]

    return rank


@cache
def corpus() -> tuple[list[Any], Any]:
    """The distinct passages and their shipped MiniLM vectors (loaded once per process).

    Topics that repeat each other give passages with the same text under two ids (101 of the
    781). They are collapsed before anything is judged or ranked, as notebooks 12, 13 and 15
    do: each text is one passage (``corpus.distinct_passages`` picks the copy), so a copy
    cannot fill a second place in a ranking, nor count as a second relevant passage found.
    The question file labels every copy, so the copy kept carries the label.
    """

    chunks, vectors = python_reference_chunks(), python_reference_vectors()
    keep = distinct_passages(chunks)
    return [chunks[i] for i in keep], vectors[keep]


#: The pairs the command compares (a, b): a - b, each with its interval and p-value.
STANDARD_PAIRS: tuple[tuple[str, str], ...] = (
    ("MiniLM", "BM25"),
    ("hybrid (RRF)", "MiniLM"),
    ("hybrid (RRF)", "BM25"),
    ("BM25", "keyword"),
    ("BM25", "BagOfWords"),
    ("MiniLM + MMR", "MiniLM"),
)


def standard_retrievers(
    questions: Sequence[str] = (), depth: int = DEPTH, embedder: Any = None
) -> dict[str, Ranker]:
    """The retrievers the course compares, by name, over ``corpus()``'s distinct passages.

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


# --------------------------------------------------------------------------- more rows

#: A builder of one more row: it gets the standard retrievers (by name, ``"MiniLM"`` is the
#: ``DenseRanker``) and the passages, and returns a Ranker over the same passages.
Builder = Callable[[Mapping[str, Ranker], Sequence[Any]], Ranker]


@dataclass
class ExtraRetriever:
    """A row another module adds to the command's tables, and the rows to compare it with."""

    name: str
    build: Builder
    compare_with: tuple[str, ...] = ()
    module: str = ""  # the module that registered it: the command shows the rows of its --with


#: name -> ExtraRetriever: filled by ``register_retriever``, read by ``retrievers_and_pairs``.
EXTRA_RETRIEVERS: dict[str, ExtraRetriever] = {}


def register_retriever(name: str, build: Builder, compare_with: Sequence[str] = ()) -> None:
    """Add a row to ``python -m retrieval_lab.evaluation.evaluate`` (and to ``retrievers_and_pairs``).

    Call it when your module is imported, e.g. in ``retrieval_lab/evaluation/rerank.py``::

        evaluate.register_retriever(
            "MiniLM + rerank", lambda standard, chunks: Reranked(standard["MiniLM"], chunks),
            compare_with=("MiniLM",),
        )

    then ``python -m retrieval_lab.evaluation.evaluate --with retrieval_lab.evaluation.rerank`` imports it, adds the
    row to the score table and the pairs (name, other) to the paired table, where Holm's
    correction counts them with the others.
    """
    if name in EXTRA_RETRIEVERS or name in dict.fromkeys(n for p in STANDARD_PAIRS for n in p):
        raise ValueError(f"a retriever named {name!r} is already in the table.")
    caller = sys._getframe(1).f_globals.get("__name__", "")
    EXTRA_RETRIEVERS[name] = ExtraRetriever(name, build, tuple(compare_with), caller)


def retrievers_and_pairs(
    questions: Sequence[str] = (), depth: int = DEPTH, embedder: Any = None,
    extra: Sequence[str] | None = None,
) -> tuple[dict[str, Ranker], list[tuple[str, str]]]:
    """The standard retrievers plus the registered ones (all, or those named in ``extra``),
    and the pairs to compare: ``STANDARD_PAIRS``, then each extra row against its own."""
    retrievers = standard_retrievers(questions, depth, embedder)
    standard = dict(retrievers)
    pairs = list(STANDARD_PAIRS)
    chunks = corpus()[0]
    for name in EXTRA_RETRIEVERS if extra is None else extra:
        row = EXTRA_RETRIEVERS[name]
        retrievers[name] = row.build(standard, chunks)
        pairs += [(name, other) for other in row.compare_with]
    return retrievers, pairs


def run_all(
    retrievers: Mapping[str, Ranker], questions: Sequence[Mapping[str, Any]]
) -> dict[str, dict[str, list[str]]]:
    """``{retriever: {question id: ranked chunk ids}}``, every retriever on every question."""
    return {
        name: {q["id"]: list(rank(q["question"])) for q in questions}
        for name, rank in retrievers.items()
    }


# --------------------------------------------------------------------------- statistics

#: Resamples for every interval and p-value: the Monte Carlo error of a p-value near 0.05 is
#: then about 0.002, and ``significance`` adds more where that could still flip a verdict.
RESAMPLES = 10_000

#: The error rate a table of comparisons allows in all (Holm-Bonferroni keeps it for the table).
ALPHA = 0.05

#: Per-question values are summed as whole multiples of 1e-12: integer sums are exact in any
#: order, so an interval or a p-value is the same on every CPU, and ties are exact ties.
_UNIT = 1e12
_BLOCK = 10_000  # resamples drawn at once (memory: a block is 10,000 x questions integers)


def _units(values: Sequence[float]) -> Any:
    import numpy as np

    return np.rint(np.asarray(values, dtype=np.float64) * _UNIT).astype(np.int64)


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


def _resampled_means(values: Any, resamples: int, seed: int) -> Any:
    """The mean of each of ``resamples`` draws of len(values) values with replacement.

    ``values`` may also be rows of values of one length (one row per retriever, or per pair):
    then each row's means, drawn with the same question indices, as a call per row would draw
    them (the same seed, the same length: the same draws), but drawn once for all the rows.
    """
    import numpy as np

    units = _units(values)
    rows = units.reshape(-1, units.shape[-1])
    n = rows.shape[1]
    rng = np.random.default_rng(seed)
    sums = []
    for done in range(0, resamples, _BLOCK):
        picks = rng.integers(0, n, size=(min(_BLOCK, resamples - done), n))
        sums.append(np.stack([row[picks].sum(axis=1) for row in rows]))
    means = np.concatenate(sums, axis=1) / n / _UNIT
    return means.reshape(*units.shape[:-1], resamples)


def bootstrap_interval(
    values: Sequence[float], resamples: int = RESAMPLES, seed: int = 0, level: float = 0.95
) -> tuple[float, float, float]:
    """(mean, low, high): the mean and a percentile-bootstrap interval for it.

    Questions are drawn with replacement ``resamples`` times (numpy's seeded PCG64, the same
    draws on every machine) and summed exactly, so the interval does not depend on the CPU.
    Per-question differences of two retrievers give a paired interval (``paired_difference``).
    """
    import numpy as np

    values = [float(v) for v in values]
    if not values:
        raise ValueError("no values: a question set needs at least one judged question.")
    means = _resampled_means(values, resamples, seed)
    tail = (1 - level) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return _mean(values), float(low), float(high)


def _differences(a: Mapping[str, float], b: Mapping[str, float]) -> list[float]:
    """a[q] - b[q] for each question q, in sorted order: the pairs are the questions."""
    if set(a) != set(b):
        raise ValueError("a paired comparison needs the same questions on both sides.")
    return [a[q] - b[q] for q in sorted(a)]


def paired_difference(
    a: Mapping[str, float], b: Mapping[str, float], resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float, float, float]:
    """(mean of a - b, low, high) over the same questions: a paired bootstrap interval."""
    return bootstrap_interval(_differences(a, b), resamples, seed)


def randomization_p_value(
    a: Mapping[str, float], b: Mapping[str, float], resamples: int = RESAMPLES, seed: int = 0
) -> float:
    """Two-sided p-value of the paired randomization (sign-flip) test of mean(a - b) = 0.

    If the two retrievers were interchangeable, each question's difference would be as likely
    negative as positive: flip each sign at random, ``resamples`` times, and count the means at
    least as far from 0 as the one observed (exact integer sums, so a tie is a tie). The count
    starts at 1, the observed assignment itself, so a Monte Carlo p-value is never 0.
    ``scipy.stats.permutation_test(..., permutation_type="samples")`` computes the same test.
    """
    import numpy as np

    units = _units(_differences(a, b))
    observed, n = abs(int(units.sum())), len(units)
    rng = np.random.default_rng(seed)
    as_far = 0
    for done in range(0, resamples, _BLOCK):
        signs = rng.integers(0, 2, size=(min(_BLOCK, resamples - done), n)) * 2 - 1
        as_far += int((np.abs((signs * units).sum(axis=1)) >= observed).sum())
    return (as_far + 1) / (resamples + 1)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the order given.

    Sorted from the smallest, the i-th of m p-values is multiplied by m - i + 1 (i from 1), and
    an adjusted value is never below the one before it. Claiming every pair whose adjusted value
    is under ALPHA keeps the chance of any false claim in the whole table under ALPHA.
    """
    order = sorted(range(len(p_values)), key=lambda i: (p_values[i], i))
    adjusted, running = [1.0] * len(p_values), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


@dataclass
class Comparison:
    """One pair of a paired table: a - b, its interval, its p-values and its verdict."""

    a: str
    b: str
    difference: float
    low: float
    high: float
    p_value: float
    holm_p: float
    resamples: int
    verdict: str


def _monte_carlo_margin(p: float, resamples: int) -> float:
    """Four standard errors of a Monte Carlo p-value (a p of 0 counts as 1 / resamples)."""
    p = max(p, 1 / resamples)
    return 4 * math.sqrt(p * (1 - p) / resamples)


def significance(
    pairs: Sequence[tuple[str, str]],
    scores: Mapping[str, Mapping[str, float]],
    resamples: int = RESAMPLES,
    seed: int = 0,
    alpha: float = ALPHA,
    most: int = 16 * RESAMPLES,
) -> list[Comparison]:
    """Compare each pair (a, b) of retrievers on their per-question ``scores``.

    The verdict follows the Holm-adjusted randomization p-value, and is given only when the
    Monte Carlo error cannot flip it: the Holm step is run again on each p-value moved four
    standard errors down and up; a pair is decided when both land on the same side of
    ``alpha``. Where one does not, all p-values are drawn again with four times the resamples,
    up to ``most``; a pair still undecided then is "too close to call". So the verdicts are the
    same at every seed, save for a chance of about 1 in 15,000 per pair.
    """
    import numpy as np

    # Each pair's numbers are paired_difference's and randomization_p_value's, with less work:
    # the draws depend only on the seed and the number of questions, so the pairs over the
    # same questions share them (drawn once, applied to all the pairs in one matrix product),
    # and four times the resamples go on from the rows drawn already (a generator started
    # afresh at the seed would draw those same rows first).
    differences = []
    for a, b in pairs:
        differences.append([float(d) for d in _differences(scores[a], scores[b])])
        if not differences[-1]:
            raise ValueError("no values: a question set needs at least one judged question.")
    by_length: dict[int, list[int]] = {}
    for i, values in enumerate(differences):
        by_length.setdefault(len(values), []).append(i)
    diffs: list[tuple[float, float, float]] = [(0.0, 0.0, 0.0)] * len(pairs)
    tail = (1 - 0.95) / 2 * 100  # bootstrap_interval's, at its level 0.95
    for members in by_length.values():
        means = _resampled_means([differences[i] for i in members], resamples, seed)
        for i, row in zip(members, means, strict=True):
            low_bound, high_bound = np.percentile(row, [tail, 100 - tail])
            diffs[i] = (_mean(differences[i]), float(low_bound), float(high_bound))
    units = [_units(values) for values in differences]
    observed = np.array([abs(int(u.sum())) for u in units], dtype=np.int64)
    as_far = np.zeros(len(pairs), dtype=np.int64)
    flips = []  # for each length: its pairs, their units (n x pairs) and its own generator
    for members in by_length.values():
        matrix = np.array([units[i] for i in members]).T
        # Whole numbers summing (in absolute value) below 2**53 add exactly in float64, in any
        # order: BLAS then finds the same sums as integer arithmetic, many times faster.
        if np.abs(matrix).sum(axis=0).max() < 2**53:
            matrix = matrix.astype(np.float64)
        flips.append((members, matrix, np.random.default_rng(seed)))
    drawn, done = resamples, 0
    while True:
        for members, matrix, rng in flips:
            for start in range(done, drawn, _BLOCK):
                signs = rng.integers(0, 2, size=(min(_BLOCK, drawn - start), len(matrix))) * 2 - 1
                sums = signs.astype(matrix.dtype) @ matrix
                as_far[members] += (np.abs(sums) >= observed[members]).sum(axis=0)
        done = drawn
        ps = [(int(count) + 1) / (drawn + 1) for count in as_far]
        low = holm([max(0.0, p - _monte_carlo_margin(p, drawn)) for p in ps])
        high = holm([min(1.0, p + _monte_carlo_margin(p, drawn)) for p in ps])
        undecided = [lo < alpha <= hi for lo, hi in zip(low, high, strict=True)]
        if not any(undecided) or drawn * 4 > most:
            break
        drawn *= 4
    adjusted = holm(ps)
    found = []
    for (a, b), (d, lo, hi), p, adj, hi_adj, open_ in zip(
        pairs, diffs, ps, adjusted, high, undecided, strict=True
    ):
        if open_:
            words = "too close to call"
        elif hi_adj < alpha:
            words = f"{a} beats {b}" if d > 0 else f"{b} beats {a}"
        else:
            words = "no clear difference"
        found.append(Comparison(a, b, d, lo, hi, p, adj, drawn, words))
    return found


def verdict(name_a: str, name_b: str, low: float, high: float) -> str:
    """The words for one interval alone: a winner only when it excludes zero (the bounds as
    computed, not as printed). A table of several pairs decides with ``significance``."""
    if low > 0:
        return f"{name_a} beats {name_b}"
    if high < 0:
        return f"{name_b} beats {name_a}"
    return "no clear difference"


# --------------------------------------------------------------------------- the table


def outward(low: float, high: float, digits: int = 4) -> str:
    """An interval printed with its bounds rounded outward (low down, high up) to ``digits``
    decimals, so the printed interval always holds the computed one: a bound printed as 0
    is within 10**-digits of zero, and a printed interval that excludes 0 really does."""
    scale = 10**digits
    down, up = math.floor(low * scale) / scale, math.ceil(high * scale) / scale
    return f"[{down + 0.0:.{digits}f}, {up + 0.0:.{digits}f}]"


def p_text(p: float) -> str:
    """A p-value to 4 decimals; one under 0.0001 (possible past 10,000 resamples) is shown as
    such, never as 0.0000: a Monte Carlo p-value is never 0."""
    return f"{p:.4f}" if p >= 0.0001 else "<0.0001"


def _cell(mean: float, low: float, high: float) -> str:
    return f"{mean:.3f} {outward(low, high, 3)}"


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
    """The headline metrics at cut-off k, and nDCG@10 (BEIR's headline), as functions of
    (ranking, labels)."""

    return {
        f"hit rate@{k}": lambda run, rel: m.hit_rate_at_k(run, rel, k),
        f"recall@{k}": lambda run, rel: m.recall_at_k(run, rel, k),
        "MRR": m.reciprocal_rank,
        f"nDCG@{k}": lambda run, rel: m.ndcg_at_k(run, rel, k),
        "nDCG@10": lambda run, rel: m.ndcg_at_k(run, rel, 10),
    }


def score_runs(
    runs: Mapping[str, Mapping[str, Sequence[str]]],
    qrels: Mapping[str, Mapping[str, int]],
    k: int = 5,
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> ScoreTable:
    """One row per retriever: each headline metric's mean with its 95 % bootstrap interval."""
    import numpy as np

    metrics = metric_functions(k)
    judged = sum(1 for labels in qrels.values() if labels)
    rows = []
    # bootstrap_interval of every retriever's every metric, with one draw for them all: the
    # draws depend only on the seed and the number of questions, the same for every row.
    values = [[float(v) for v in per_question(metric, run, qrels).values()]
              for run in runs.values() for metric in metrics.values()]
    if values and not judged:
        raise ValueError("no values: a question set needs at least one judged question.")
    tail = (1 - 0.95) / 2 * 100  # bootstrap_interval's, at its level 0.95
    cells = []
    drawn = _resampled_means(values, resamples, seed) if values else []
    for row, means in zip(values, drawn, strict=True):
        low, high = np.percentile(means, [tail, 100 - tail])
        cells.append(_cell(_mean(row), float(low), float(high)))
    for i, name in enumerate(runs):
        rows.append([name, *cells[i * len(metrics):(i + 1) * len(metrics)]])
    caption = (
        f"{judged} questions with judgments ({len(qrels) - judged} unanswerable left out); "
        f"mean [95% bootstrap interval, {resamples:,} resamples, seed {seed}, rounded outward]"
    )
    return ScoreTable(["retriever", *dict.fromkeys(metrics)], rows, caption)


def paired_table(
    runs: Mapping[str, Mapping[str, Sequence[str]]],
    qrels: Mapping[str, Mapping[str, int]],
    pairs: Sequence[tuple[str, str]],
    metric: str = "nDCG@10",
    resamples: int = RESAMPLES,
    seed: int = 0,
) -> ScoreTable:
    """For each pair (a, b): the mean per-question difference a - b of one headline metric,
    its paired 95 % bootstrap interval, the paired randomization p-value, the p-value after
    Holm-Bonferroni over the pairs of this table, and a verdict that claims only what they
    support (``significance``)."""
    k = int(metric.rsplit("@", 1)[1]) if "@" in metric else 5
    function = metric_functions(k)[metric]
    names = list(dict.fromkeys(name for pair in pairs for name in pair))
    scores = {name: per_question(function, runs[name], qrels) for name in names}
    found = significance(pairs, scores, resamples, seed)
    rows = [
        [c.a, c.b, f"{c.difference:+.4f}", outward(c.low, c.high), p_text(c.p_value),
         p_text(c.holm_p), c.verdict]
        for c in found
    ]
    drawn = found[0].resamples if found else resamples
    caption = (
        f"{metric}, paired over the same {len(next(iter(scores.values())))} questions: "
        f"95% bootstrap interval ({resamples:,} resamples, seed {seed}, bounds rounded "
        f"outward), randomization p-value ({drawn:,} resamples), Holm-adjusted over "
        f"{len(pairs)} pairs, alpha {ALPHA}"
    )
    return ScoreTable(["a", "b", "a − b", "95% interval", "p", "Holm p", "verdict"], rows,
                      caption)


def score_table(
    questions: Sequence[Mapping[str, Any]] | None = None,
    k: int = 5,
    retrievers: Mapping[str, Ranker] | None = None,
    resamples: int = RESAMPLES,
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


# --------------------------------------------------------------------------- TREC files


def _slug(name: str) -> str:
    """A retriever's name as a file name: 'hybrid (RRF)' -> 'hybrid_RRF'."""
    return "_".join("".join(c if c.isalnum() else " " for c in name).split()) or "run"


def write_trec_files(
    runs: Mapping[str, Mapping[str, Sequence[str]]],
    qrels: Mapping[str, Mapping[str, int]],
    folder: str | Path,
) -> list[Path]:
    """One TREC run file per retriever (``<name>.run``) and ``qrels.txt``, in ``folder``.

    A run line is ``question Q0 passage rank score name``, the score falling strictly with the
    rank (trec_eval re-sorts by score, so equal scores would let it re-order a ranking). The
    qrels name only judged passages of judged questions; the passages are the distinct ones,
    so copies are collapsed as in the tables. Score with ``trec_eval -c -m all_trec
    qrels.txt BM25.run`` (``-c``: a judged question a retriever returned nothing for counts 0,
    as in the tables) or ranx; the means equal this module's to 1e-9.
    """
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "qrels.txt"]
    written[0].write_text("".join(
        f"{q} 0 {doc} {grade}\n"
        for q, labels in qrels.items() for doc, grade in sorted(labels.items())
    ), encoding="utf-8")
    for name, run in runs.items():
        path = out / f"{_slug(name)}.run"
        path.write_text("".join(
            f"{q} Q0 {doc} {rank} {len(ids) - rank + 1} {_slug(name)}\n"
            for q, ids in run.items() for rank, doc in enumerate(ids, start=1)
        ), encoding="utf-8")
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m retrieval_lab.evaluation.evaluate",
        description="Score the course's retrievers on a question file (JSON, graded spans): "
        "a table of means with intervals, then paired comparisons with p-values.",
    )
    parser.add_argument("--questions", help="question file (default: the shipped set)")
    parser.add_argument("--split", choices=SPLITS, default="all",
                        help="which half of the questions: dev, test or all (default)")
    parser.add_argument("--k", type=int, default=5, help="cut-off for hit rate, recall, nDCG")
    parser.add_argument("--metric", default="nDCG@10",
                        help="the metric of the paired table (default nDCG@10)")
    parser.add_argument("--resamples", type=int, default=RESAMPLES,
                        help=f"bootstrap and randomization resamples (default {RESAMPLES:,})")
    parser.add_argument("--seed", type=int, default=0, help="resampling seed")
    parser.add_argument("--trec-run", metavar="DIR",
                        help="also write one TREC run file per retriever and the qrels here")
    parser.add_argument("--with", dest="modules", action="append", default=[],
                        metavar="MODULE", help="import MODULE first: it may register rows "
                        "with evaluate.register_retriever")
    parser.add_argument("--no-rerank", action="store_true",
                        help="leave out the second stage's rows (retrieval_lab.evaluation.rerank, which "
                        "is imported by default: does a reranker pay on these questions?)")
    args = parser.parse_args(argv)
    if not args.no_rerank and "retrieval_lab.evaluation.rerank" not in args.modules:
        args.modules.append("retrieval_lab.evaluation.rerank")
    if args.k < 1 or args.resamples < 1:
        parser.error("--k and --resamples must be at least 1")
    if args.metric not in metric_functions(args.k):
        parser.error(f"--metric must be one of {', '.join(metric_functions(args.k))}")
    try:
        questions = split_questions(load_questions(args.questions), args.split)
    except QuestionFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    import importlib

    for module in args.modules:
        importlib.import_module(module)
    shown = [name for name, row in EXTRA_RETRIEVERS.items() if row.module in args.modules]
    retrievers, pairs = retrievers_and_pairs([q["question"] for q in questions],
                                             max(args.k, DEPTH), extra=shown)
    runs, qrels = run_all(retrievers, questions), judgments(questions, corpus()[0])
    print(f"questions: {args.questions or 'the shipped set'}, split {args.split}\n")
    print(score_runs(runs, qrels, args.k, args.resamples, args.seed), end="\n\n")
    # One table, one family for Holm: the course's retrievers against each other, then each
    # added module's rows against their own baselines (a second family, corrected apart, so
    # adding rows never changes the verdicts of the first table).
    standard = [pair for pair in pairs if pair in STANDARD_PAIRS]
    print(paired_table(runs, qrels, standard, args.metric, args.resamples, args.seed))
    if len(standard) < len(pairs):
        added = [pair for pair in pairs if pair not in STANDARD_PAIRS]
        print()
        print(paired_table(runs, qrels, added, args.metric, args.resamples, args.seed))
    if args.trec_run:
        written = write_trec_files(runs, qrels, args.trec_run)
        print(f"\nwrote {len(written)} files to {args.trec_run}: "
              f"trec_eval -c -m all_trec {Path(args.trec_run) / 'qrels.txt'} <run file>")
    return 0


if __name__ == "__main__":
    # Run as ``python -m``, this file is ``__main__``, a second copy of the module: a module
    # imported by ``--with`` registers its rows with ``retrieval_lab.evaluation.evaluate``, so run that one.
    from retrieval_lab.evaluation.evaluate import main as _importable_main

    raise SystemExit(_importable_main())
