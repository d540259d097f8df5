"""The second stage, measured: rerankers of the hybrid first stage, their features, and tables.

Notebook 15 builds the compressor classes; this module holds what it measures them with:

- ``sentences_of`` and ``SentenceVectors``: each passage cut into sentences, with MiniLM's
  vector of every sentence of ``python_reference_chunks()`` shipped in the package (embedding
  3,500 sentences takes this numpy MiniLM a minute; ``python -m retrieval_lab.evaluation.rerank
  --make-sentence-vectors`` re-makes the file);
- ``FirstStage``: the hybrid of notebook 14 (BM25 and MiniLM fused by reciprocal rank), with
  the scores and ranks each passage had in it, 100 deep;
- two rerankers that plug into langchain-classic's ``CrossEncoderReranker`` because they are
  ``BaseCrossEncoder``s (one method, ``score(text_pairs)``): ``BestSentenceEncoder`` (the best
  MiniLM sentence of a passage against the question) and ``LearnedEncoder`` (logistic
  regression on six features, written in numpy, the gradient by hand);
- ``rerank_runs`` and ``rerank_table``: every reranker at depths 20, 50 and 100, as rows for
  ``python -m retrieval_lab.evaluation.evaluate`` and the notebook, paired against the first stage with
  ``evaluate.significance`` (randomization test, Holm-Bonferroni).

No cross-encoder's weights can be installed offline without torch, so both "encoders" here are
built from MiniLM's vectors and counts: they read the question against a passage more closely
than one cosine does, but they never read the two texts *together*, as a cross-encoder does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import time
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.cross_encoders import BaseCrossEncoder

from retrieval_lab.evaluation import evaluate
from retrieval_lab.evaluation.evaluate import corpus, judgments, load_questions
from retrieval_lab.models.embeddings import MiniLM

SENTENCE_VECTORS_FILE = "python_reference_sentences_minilm.npy"
SENTENCES_FILE = "python_reference_sentences.json"

#: How deep the first stage goes: BM25's and MiniLM's best 100 each, fused, the best 100 kept.
FIRST_STAGE_DEPTH = 100
#: The depths each reranker reorders (the rest of the 100 keep the first stage's order).
DEPTHS = (20, 50, 100)
#: The first stage's name in the tables.
FIRST_STAGE = "hybrid (RRF), 100 deep"
#: The metric the paired comparisons use (BEIR's headline) and its cut-off.
METRIC = "nDCG@10"
#: Scores are rounded to this many decimals before sorting, so equal-looking scores tie
#: exactly, and the tie keeps the first stage's order, on every CPU.
DECIMALS = 6


# --------------------------------------------------------------------------- sentences


def sentences_of(text: str) -> list[str]:
    """A passage's sentences: paragraphs split at blank lines, spaces folded, then cut after
    ``.``, ``!`` or ``?`` followed by a space. Code lines stay in their paragraph's sentence."""
    found = []
    for paragraph in re.split(r"\n\s*\n", text):
        flat = " ".join(paragraph.split())
        if flat:
            found.extend(piece for piece in re.split(r"(?<=[.!?])\s+", flat) if piece)
    return found


def _fingerprint(sentences: Sequence[str]) -> str:
    return hashlib.sha256(json.dumps(list(sentences), ensure_ascii=False).encode()).hexdigest()


def _data(name: str) -> Path:
    return Path(str(files("retrieval_lab") / "data" / name))


def corpus_sentences() -> list[str]:
    """Every distinct sentence of ``python_reference_chunks()``, sorted."""

    return sorted({s for chunk in corpus()[0] for s in sentences_of(chunk.page_content)})


class SentenceVectors:
    """MiniLM's unit vector of each sentence: the shipped ones, and any other made on demand.

    The shipped file holds every sentence of the course's passages (float16: half the bytes,
    cosines within 1e-3, the same on every machine). A sentence it lacks (a passage of your
    own) is embedded by MiniLM the first time it is asked for, and kept.
    """

    def __init__(self, embedder: Any = None) -> None:
        about = json.loads(_data(SENTENCES_FILE).read_text(encoding="utf-8"))
        vectors = np.load(_data(SENTENCE_VECTORS_FILE), allow_pickle=False)
        if about["sha256"] != _fingerprint(about["sentences"]) or len(vectors) != len(
            about["sentences"]
        ):
            raise RuntimeError(
                f"{SENTENCE_VECTORS_FILE} does not match {SENTENCES_FILE}: re-make both with "
                "python -m retrieval_lab.evaluation.rerank --make-sentence-vectors"
            )
        self._row = {s: i for i, s in enumerate(about["sentences"])}
        self._matrix = vectors.astype(np.float64)
        self._extra: dict[str, np.ndarray] = {}
        self._passages: dict[str, np.ndarray] = {}
        self._embedder = embedder

    def of(self, text: str) -> np.ndarray:
        """(sentences, 384): the vectors of a passage's sentences, in order (kept per text)."""
        if text not in self._passages:
            self._passages[text] = self._make(text)
        return self._passages[text]

    def _make(self, text: str) -> np.ndarray:
        sentences = sentences_of(text) or [text]
        missing = [s for s in sentences if s not in self._row and s not in self._extra]
        if missing:
            if self._embedder is None:

                self._embedder = MiniLM()
            made = self._embedder.embed_documents(missing)
            self._extra.update(zip(missing, np.asarray(made, dtype=np.float64), strict=True))
        return np.array(
            [self._matrix[self._row[s]] if s in self._row else self._extra[s] for s in sentences]
        )


@cache
def sentence_vectors() -> SentenceVectors:
    """The shipped sentence vectors, loaded once per process."""
    return SentenceVectors()


def make_sentence_vectors(batch_size: int = 32) -> dict[str, Any]:
    """Embed every sentence of the passages; write the .npy and its .json. Takes a minute."""

    sentences = corpus_sentences()
    start = time.perf_counter()
    vectors = np.asarray(MiniLM(batch_size).embed_documents(sentences), dtype=np.float16)
    np.save(_data(SENTENCE_VECTORS_FILE), vectors, allow_pickle=False)
    about = {
        "what": "MiniLM (all-MiniLM-L6-v2) vectors, float16, one row per sentence below: every "
        "distinct sentence (retrieval_lab.evaluation.rerank.sentences_of) of python_reference_chunks().",
        "made_by": "python -m retrieval_lab.evaluation.rerank --make-sentence-vectors",
        "sha256": _fingerprint(sentences),
        "sentences": sentences,
    }
    _data(SENTENCES_FILE).write_text(json.dumps(about, ensure_ascii=False) + "\n", "utf-8")
    return {"sentences": len(sentences), "seconds": round(time.perf_counter() - start, 1)}


# --------------------------------------------------------------------------- the first stage


class FirstStage:
    """Notebook 14's hybrid, 100 deep, and what each passage scored in it for a question.

    ``ranking(question)`` is the fused list of ids; ``signals(question)`` what the learned
    reranker's features read: each passage's MiniLM cosine, BM25 score and its ranks in both
    lists (0 when it is not in a list's best 100).
    """

    def __init__(self, questions: Sequence[str] = (), embedder: Any = None,
                 depth: int = FIRST_STAGE_DEPTH) -> None:

        self.chunks, vectors = evaluate.corpus()
        self.depth = depth
        self.dense = evaluate.DenseRanker(self.chunks, vectors, embedder, depth)
        self.dense.prepare(questions)
        self.index = evaluate.TermIndex([c.page_content for c in self.chunks])
        self.bm25 = evaluate.bm25_ranker(self.chunks, depth, index=self.index)
        self.hybrid = evaluate.hybrid_ranker([self.bm25, self.dense], None, 60, depth)
        self.by_id = {c.id: c for c in self.chunks}
        self.position = {c.id: i for i, c in enumerate(self.chunks)}
        self.first_with_text: dict[str, int] = {}
        for i, chunk in enumerate(self.chunks):
            self.first_with_text.setdefault(chunk.page_content, i)
        self._signals: dict[str, dict[str, Any]] = {}
        self.features: dict[tuple[str, str], tuple[float, ...]] = {}  # kept by ``features``

    def ranking(self, question: str) -> list[str]:
        """The first stage's ids, best first (up to ``depth``)."""
        return self.signals(question)["ranking"]

    def signals(self, question: str) -> dict[str, Any]:
        """Cached per question: the ranking, and per corpus row the cosine, BM25, ranks."""
        if question not in self._signals:
            bm25 = np.asarray(self.index.bm25_scores(question), dtype=np.float64)
            dense = np.asarray(self.dense.scores(question), dtype=np.float64)
            ranks = {}
            for name, ids in (("bm25", self.bm25(question)), ("dense", self.dense(question))):
                rank = np.zeros(len(self.chunks))
                rank[[self.position[i] for i in ids]] = np.arange(1, len(ids) + 1)
                ranks[name] = rank
            self._signals[question] = {
                "ranking": self.hybrid(question), "bm25": bm25, "dense": dense,
                "bm25_rank": ranks["bm25"], "dense_rank": ranks["dense"],
                "vector": self.dense.vector(question),
            }
        return self._signals[question]

    def documents(self, question: str, depth: int) -> list[Any]:
        """The first stage's best ``depth`` as langchain-core Documents (ids kept)."""
        from langchain_core.documents import Document as RealDocument

        return [
            RealDocument(self.by_id[i].page_content, metadata=dict(self.by_id[i].metadata), id=i)
            for i in self.ranking(question)[:depth]
        ]


@cache
def first_stage() -> FirstStage:
    """The first stage over the shipped passages, with the shipped questions embedded."""

    return FirstStage([q["question"] for q in load_questions()])


# --------------------------------------------------------------------------- reranker 1


def best_sentence_cosine(question_vector: np.ndarray, sentence_matrix: np.ndarray) -> float:
    """The highest cosine between the question and any one sentence of the passage."""
    return float(np.max(sentence_matrix @ question_vector))


class BestSentenceEncoder(BaseCrossEncoder):
    """A ``BaseCrossEncoder`` that scores a passage by its best sentence for the question.

    A passage vector averages every sentence; an answer is often one sentence among
    unrelated ones, and its own vector sits closer to the question than the average does.
    """

    def __init__(self, stage: FirstStage | None = None,
                 sentences: SentenceVectors | None = None) -> None:
        self.stage = stage or first_stage()
        self.sentences = sentences or sentence_vectors()

    def score(self, text_pairs: list[tuple[str, str]]) -> list[float]:
        """One score per (question, passage) pair, rounded to ``DECIMALS``."""
        return [
            round(best_sentence_cosine(self.stage.dense.vector(q), self.sentences.of(p)),
                  DECIMALS)
            for q, p in text_pairs
        ]


def best_sentence(question: str, passage: str, stage: FirstStage | None = None,
                  sentences: SentenceVectors | None = None) -> tuple[str, float]:
    """The passage's sentence closest to the question, and its cosine (rounded to 3)."""
    stage, sentences = stage or first_stage(), sentences or sentence_vectors()
    cosines = sentences.of(passage) @ stage.dense.vector(question)
    best = int(np.argmax(cosines))
    return (sentences_of(passage) or [passage])[best], round(float(cosines[best]), 3)


# --------------------------------------------------------------------------- reranker 2

#: The learned reranker's features, in column order.
FEATURES = ("dense cosine", "BM25 / best BM25", "best sentence", "1/log2(1+BM25 rank)",
            "1/log2(1+MiniLM rank)", "log length")


def _inverse_log_rank(rank: float) -> float:
    return 1 / math.log2(1 + rank) if rank > 0 else 0.0


def features(question: str, passage: str, stage: FirstStage | None = None,
             sentences: SentenceVectors | None = None) -> list[float]:
    """The six numbers the learned reranker reads for one (question, passage) pair."""
    stage, sentences = stage or first_stage(), sentences or sentence_vectors()
    key = (question, passage)
    if key not in stage.features:
        stage.features[key] = _features(question, passage, stage, sentences)
    return list(stage.features[key])


def _features(question: str, passage: str, stage: FirstStage,
              sentences: SentenceVectors) -> tuple[float, ...]:
    signals = stage.signals(question)
    row = stage.first_with_text.get(passage)
    if row is None:
        raise ValueError("features reads passages of the corpus only (its BM25 and ranks).")
    best_bm25 = float(signals["bm25"].max())
    return (
        float(signals["dense"][row]),
        float(signals["bm25"][row]) / best_bm25 if best_bm25 > 0 else 0.0,
        best_sentence_cosine(signals["vector"], sentences.of(passage)),
        _inverse_log_rank(signals["bm25_rank"][row]),
        _inverse_log_rank(signals["dense_rank"][row]),
        math.log(max(len(passage), 1)),
    )


def sigmoid(z: np.ndarray) -> np.ndarray:
    """1 / (1 + e^-z), computed without overflow for large |z|."""
    out = np.empty_like(z, dtype=np.float64)
    positive = z >= 0
    out[positive] = 1 / (1 + np.exp(-z[positive]))
    e = np.exp(z[~positive])
    out[~positive] = e / (1 + e)
    return out


def log_loss_gradient(w: np.ndarray, x: np.ndarray, y: np.ndarray,
                      l2: float) -> tuple[float, np.ndarray]:
    """Mean log loss of weights ``w`` (column 0 of ``x`` is the constant 1) and its gradient,
    with an L2 penalty on every weight but the intercept.

    d/dw of -[y log p + (1-y) log(1-p)] with p = sigmoid(x·w) is (p - y) x: the whole
    derivation fits on one line, which is why logistic regression is written by hand here.
    """
    p = sigmoid(x @ w)
    eps = 1e-12
    loss = -float(np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))
    penalty = np.r_[0.0, w[1:]]
    loss += l2 / 2 * float(penalty @ penalty)
    return loss, x.T @ (p - y) / len(y) + l2 * penalty


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 500,
                 rate: float = 0.5) -> dict[str, np.ndarray]:
    """Logistic regression by plain gradient descent on standardized features.

    Returns the mean and spread used to standardize, and the weights (intercept first).
    A fixed number of steps from zero: the same weights on every run.
    """
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    mean, spread = x.mean(axis=0), x.std(axis=0)
    spread[spread == 0] = 1.0
    design = np.c_[np.ones(len(x)), (x - mean) / spread]
    w = np.zeros(design.shape[1])
    for _ in range(steps):
        _, gradient = log_loss_gradient(w, design, y, l2)
        w -= rate * gradient
    return {"mean": mean, "spread": spread, "weights": w}


def predict_logistic(model: Mapping[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    """The model's probability of relevance for each row of features."""
    x = np.asarray(x, dtype=np.float64)
    design = np.c_[np.ones(len(x)), (x - model["mean"]) / model["spread"]]
    return sigmoid(design @ model["weights"])


class LearnedEncoder(BaseCrossEncoder):
    """A ``BaseCrossEncoder`` whose score is a logistic regression's probability of relevance.

    ``model`` comes from ``fit_logistic`` on ``features`` rows; ``feature_fn`` computes the
    features (``features`` by default, or a function of your own with as many columns).
    """

    def __init__(self, model: Mapping[str, np.ndarray],
                 feature_fn: Callable[[str, str], Sequence[float]] | None = None) -> None:
        self.model = model
        self.feature_fn = feature_fn or features

    def score(self, text_pairs: list[tuple[str, str]]) -> list[float]:
        if not text_pairs:
            return []
        rows = np.array([self.feature_fn(q, p) for q, p in text_pairs], dtype=np.float64)
        return [round(float(s), DECIMALS) for s in predict_logistic(self.model, rows)]


def folds_by_question(question_ids: Sequence[str], n_folds: int = 5) -> dict[str, int]:
    """Each question's fold: ids sorted by a SHA-256 of the id, dealt round-robin.

    Every candidate passage of a question lands in its question's fold, so no question is in
    both the training and the test side: the model is judged on questions it never saw.
    """
    order = sorted(question_ids, key=lambda q: hashlib.sha256(q.encode()).hexdigest())
    return {q: n % n_folds for n, q in enumerate(order)}


def training_rows(
    questions: Sequence[Mapping[str, Any]], qrels: Mapping[str, Mapping[str, int]],
    depth: int, feature_fn: Callable[[str, str], Sequence[float]],
    stage: FirstStage | None = None,
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Features, labels (1: judged relevant) and question id of each of the first stage's
    ``depth`` best passages, for every question with judgments."""
    stage = stage or first_stage()
    x, y, owner = [], [], []
    for q in questions:
        labels = qrels.get(q["id"]) or {}
        if not labels:
            continue
        for doc_id in stage.ranking(q["question"])[:depth]:
            x.append(feature_fn(q["question"], stage.by_id[doc_id].page_content))
            y.append(1.0 if labels.get(doc_id, 0) >= 1 else 0.0)
            owner.append(q["id"])
    return np.array(x, dtype=np.float64), np.array(y), owner


def cross_validated_models(
    questions: Sequence[Mapping[str, Any]], qrels: Mapping[str, Mapping[str, int]],
    depth: int, feature_fn: Callable[[str, str], Sequence[float]] | None = None,
    n_folds: int = 5, stage: FirstStage | None = None,
) -> dict[str, dict[str, np.ndarray]]:
    """For each question id, the model trained on the other folds' questions only."""
    feature_fn = feature_fn or (lambda q, p: features(q, p, stage))
    x, y, owner = training_rows(questions, qrels, depth, feature_fn, stage)
    fold = folds_by_question([q["id"] for q in questions], n_folds)
    row_fold = np.array([fold[q] for q in owner])
    models = [fit_logistic(x[row_fold != f], y[row_fold != f]) for f in range(n_folds)]
    return {q["id"]: models[fold[q["id"]]] for q in questions}


# --------------------------------------------------------------------------- measuring


def reranked(first: Sequence[str], scores: Sequence[float]) -> list[str]:
    """``first``'s top len(scores) sorted by score (stable: ties keep the first stage's
    order, as ``CrossEncoderReranker``'s ``sorted`` does), then the rest as they were."""
    top = sorted(range(len(scores)), key=lambda i: scores[i], reverse=True)
    return [first[i] for i in top] + list(first[len(scores):])


def rerank_with(reranker: Any, question: str, depth: int,
                stage: FirstStage | None = None) -> list[str]:
    """The real ``CrossEncoderReranker`` (top_n = depth) on the first stage's best ``depth``,
    followed by the rest of the first stage: a full 100-deep ranking of ids."""
    stage = stage or first_stage()
    first = stage.ranking(question)
    kept = reranker.compress_documents(stage.documents(question, depth), question)
    return [d.id for d in kept] + first[depth:]


def rerank_runs(
    questions: Sequence[Mapping[str, Any]] | None = None,
    depths: Sequence[int] = DEPTHS,
    stage: FirstStage | None = None,
) -> dict[str, dict[str, list[str]]]:
    """The first stage's run and each reranker's at each depth: ``{name: {qid: ids}}``.

    Rerankers go through langchain-classic's real ``CrossEncoderReranker``. The learned one is
    cross-validated by question: each question is reranked by a model that never saw it.
    """
    from langchain_classic.retrievers.document_compressors import CrossEncoderReranker


    questions = load_questions() if questions is None else questions
    stage = stage or first_stage()
    stage.dense.prepare([q["question"] for q in questions])
    qrels = judgments(questions, corpus()[0])
    runs = {FIRST_STAGE: {q["id"]: stage.ranking(q["question"]) for q in questions}}
    sentence = BestSentenceEncoder(stage)
    for depth in depths:
        reranker = CrossEncoderReranker(model=sentence, top_n=depth)
        runs[f"best sentence@{depth}"] = {
            q["id"]: rerank_with(reranker, q["question"], depth, stage) for q in questions
        }
    for depth in depths:
        models = cross_validated_models(questions, qrels, depth, stage=stage)
        run = {}
        for q in questions:
            model = LearnedEncoder(models[q["id"]], lambda q, p: features(q, p, stage))
            reranker = CrossEncoderReranker(model=model, top_n=depth)
            run[q["id"]] = rerank_with(reranker, q["question"], depth, stage)
        runs[f"learned@{depth}"] = run
    return runs


def rerank_pairs(runs: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Each reranker's row against the first stage."""
    return [(name, FIRST_STAGE) for name in runs if name != FIRST_STAGE]


def rerank_table(
    questions: Sequence[Mapping[str, Any]] | None = None, metric: str = METRIC,
    resamples: int | None = None, seed: int = 0,
    runs: Mapping[str, Mapping[str, Sequence[str]]] | None = None,
) -> Any:
    """The paired table: each reranker at each depth against the first stage, on ``metric``
    (randomization p-value, Holm-Bonferroni over the six rows, a verdict that holds)."""

    questions = evaluate.load_questions() if questions is None else questions
    runs = runs if runs is not None else rerank_runs(questions)
    qrels = evaluate.judgments(questions, evaluate.corpus()[0])
    return evaluate.paired_table(
        runs, qrels, rerank_pairs(runs), metric,
        evaluate.RESAMPLES if resamples is None else resamples, seed,
    )


@cache
def shipped_models(depth: int) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, np.ndarray]]:
    """The learned reranker's models at one depth, trained on the shipped questions:
    ``({question text: the model trained on the other folds}, the model trained on all)``."""

    questions = load_questions()
    qrels = judgments(questions, corpus()[0])
    by_id = cross_validated_models(questions, qrels, depth)
    x, y, _ = training_rows(questions, qrels, depth, features)
    return {q["question"]: by_id[q["id"]] for q in questions}, fit_logistic(x, y)


def sentence_ranker(depth: int, stage: FirstStage | None = None) -> Callable[[str], list[str]]:
    """A ranker (question -> ids): the first stage, its best ``depth`` reranked by the real
    ``CrossEncoderReranker`` with ``BestSentenceEncoder``."""
    from langchain_classic.retrievers.document_compressors import CrossEncoderReranker

    stage = stage or first_stage()
    reranker = CrossEncoderReranker(model=BestSentenceEncoder(stage), top_n=depth)
    return lambda question: rerank_with(reranker, question, depth, stage)


def learned_ranker(depth: int, stage: FirstStage | None = None) -> Callable[[str], list[str]]:
    """A ranker with the learned reranker: a shipped question is reranked by the model that
    never saw it (cross-validation by question); any other by the model trained on all."""
    from langchain_classic.retrievers.document_compressors import CrossEncoderReranker

    stage = stage or first_stage()
    per_question, everything = shipped_models(depth)

    def rank(question: str) -> list[str]:
        model = LearnedEncoder(per_question.get(question, everything))
        reranker = CrossEncoderReranker(model=model, top_n=depth)
        return rerank_with(reranker, question, depth, stage)

    return rank


def register_rows() -> list[str]:
    """Add the first stage and the six reranked rows to ``python -m retrieval_lab.evaluation.evaluate``
    (shown by default), each reranked row paired with the first stage it reorders and with
    notebook 14's hybrid at its usual depth: a second stage must beat the best first stage,
    not only the weaker 100-deep fusion it reads."""

    bars = (FIRST_STAGE, "hybrid (RRF)")
    rows = {FIRST_STAGE: (lambda standard, chunks: first_stage().ranking, ())}
    for depth in DEPTHS:
        rows[f"best sentence@{depth}"] = (
            lambda standard, chunks, d=depth: sentence_ranker(d), bars)
    for depth in DEPTHS:
        rows[f"learned@{depth}"] = (
            lambda standard, chunks, d=depth: learned_ranker(d), bars)
    # Run as ``python -m retrieval_lab.evaluation.evaluate``, the command is the module ``__main__``, a
    # second copy of evaluate beside the one imported above: register with both.
    import sys

    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    copies = [evaluate] + ([main] if spec and spec.name == evaluate.__name__ else [])
    for copy in copies:
        for name, (build, compare_with) in rows.items():
            if name not in copy.EXTRA_RETRIEVERS:
                copy.register_retriever(name, build, compare_with)
    return list(rows)


def feature_table(
    extra: Callable[[str, str], float], depth: int = 20,
    questions: Sequence[Mapping[str, Any]] | None = None, resamples: int | None = None,
) -> Any:
    """Your feature, measured: the learned reranker at ``depth`` with the six features and
    ``extra`` as a seventh, against the six alone (both cross-validated by question), paired
    on nDCG@10."""
    from langchain_classic.retrievers.document_compressors import CrossEncoderReranker


    questions = evaluate.load_questions() if questions is None else questions
    qrels = evaluate.judgments(questions, evaluate.corpus()[0])
    stage = first_stage()

    def seven(question: str, passage: str) -> list[float]:
        return [*features(question, passage), float(extra(question, passage))]

    runs: dict[str, dict[str, list[str]]] = {}
    for name, feature_fn in (("six features", features), ("six + yours", seven)):
        models = cross_validated_models(questions, qrels, depth, feature_fn)
        runs[name] = {
            q["id"]: rerank_with(
                CrossEncoderReranker(model=LearnedEncoder(models[q["id"]], feature_fn),
                                     top_n=depth), q["question"], depth, stage)
            for q in questions
        }
    return evaluate.paired_table(runs, qrels, [("six + yours", "six features")], METRIC,
                                 evaluate.RESAMPLES if resamples is None else resamples)


def time_rerankers(
    questions: Sequence[Mapping[str, Any]], depths: Sequence[int] = DEPTHS
) -> dict[str, float]:
    """Milliseconds per question: the first stage, and each reranker at each depth on top of
    it (the question already embedded; the passages' sentence vectors read from the shipped
    file, but every cache of this module emptied first). Wall-clock: it varies by machine."""
    from langchain_classic.retrievers.document_compressors import CrossEncoderReranker

    stage = first_stage()
    texts = [q["question"] for q in questions]
    start = time.perf_counter()
    for text in texts:
        stage.hybrid(text)
    costs = {FIRST_STAGE: (time.perf_counter() - start) * 1000 / len(texts)}
    _, everything = shipped_models(max(depths))
    for kind in ("best sentence", "learned"):
        for depth in depths:
            stage.features.clear()
            fresh = SentenceVectors()
            if kind == "best sentence":
                model: BaseCrossEncoder = BestSentenceEncoder(stage, fresh)
            else:
                model = LearnedEncoder(
                    everything, lambda q, p, f=fresh: features(q, p, stage, f))
            reranker = CrossEncoderReranker(model=model, top_n=depth)
            start = time.perf_counter()
            for text in texts:
                reranker.compress_documents(stage.documents(text, depth), text)
            took = (time.perf_counter() - start) * 1000 / len(texts)
            costs[f"{kind}@{depth}"] = costs[FIRST_STAGE] + took
    stage.features.clear()
    return costs


def rank_of_first_relevant(ranking: Sequence[str], labels: Mapping[str, int]) -> int | None:
    """1-based rank of the first relevant passage, or None when the ranking has none."""
    for rank, doc_id in enumerate(ranking, start=1):
        if labels.get(doc_id, 0) >= 1:
            return rank
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m retrieval_lab.evaluation.rerank")
    parser.add_argument("--make-sentence-vectors", action="store_true",
                        help="re-make the shipped sentence vectors (about a minute)")
    parser.add_argument("--questions", help="question file (default: the shipped set)")
    args = parser.parse_args(argv)
    if args.make_sentence_vectors:
        print(make_sentence_vectors())
        return 0

    print(rerank_table(load_questions(args.questions)))
    return 0


register_rows()

if __name__ == "__main__":
    raise SystemExit(main())
