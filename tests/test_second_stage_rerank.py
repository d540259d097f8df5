"""retrieval_lab.evaluation.rerank: the sentence vectors, the logistic regression, the folds, the rerankers
through the real CrossEncoderReranker, and the rows it adds to ``python -m retrieval_lab.evaluation.evaluate``.

Cheap on purpose: the first stage is built over the shipped passages with a stand-in for MiniLM
that embeds questions as fixed random vectors, so no model is loaded.
"""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_classic.retrievers.document_compressors import CrossEncoderReranker

from retrieval_lab.evaluation import evaluate, rerank

QUESTION = "Why do I get UnboundLocalError when I use a variable before assigning it?"


class HashedVectors:
    """A stand-in for MiniLM: a fixed random unit vector per text (no model to load)."""

    def embed_documents(self, texts):
        rows = []
        for text in texts:
            seed = int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)
            v = np.random.default_rng(seed).normal(size=384)
            rows.append((v / np.linalg.norm(v)).tolist())
        return rows


@pytest.fixture(scope="module")
def stage() -> rerank.FirstStage:
    return rerank.FirstStage(embedder=HashedVectors())


def test_shipped_sentence_vectors_cover_every_sentence_of_the_passages():
    vectors = rerank.sentence_vectors()
    sentences = rerank.corpus_sentences()
    assert all(s in vectors._row for s in sentences)
    norms = np.linalg.norm(vectors._matrix, axis=1)
    assert np.allclose(norms, 1, atol=2e-3)  # float16 unit vectors


@given(st.text(alphabet="ab .!?\n", max_size=40))
def test_sentences_keep_every_word_in_order(text):
    assert " ".join(rerank.sentences_of(text)).split() == text.split()


def test_a_passage_not_shipped_is_embedded_once_on_demand():
    class Counting:
        calls = 0

        def embed_documents(self, texts):
            Counting.calls += 1
            return [[1.0] + [0.0] * 383 for _ in texts]

    vectors = rerank.SentenceVectors(embedder=Counting())
    first = vectors.of("A sentence nobody shipped. Another one!")
    again = vectors.of("A sentence nobody shipped. Another one!")
    assert first.shape == (2, 384) and again is first and Counting.calls == 1


def _numeric_gradient(w, x, y, l2, h=1e-6):
    return np.array([
        (rerank.log_loss_gradient(w + h * e, x, y, l2)[0]
         - rerank.log_loss_gradient(w - h * e, x, y, l2)[0]) / (2 * h)
        for e in np.eye(len(w))
    ])


@settings(max_examples=25)
@given(st.integers(0, 10_000), st.sampled_from([0.0, 0.01, 0.5]))
def test_the_hand_gradient_equals_finite_differences(seed, l2):
    rng = np.random.default_rng(seed)
    x = np.c_[np.ones(30), rng.normal(size=(30, 3))]
    y = (rng.random(30) < 0.4).astype(float)
    w = rng.normal(size=4)
    _, gradient = rerank.log_loss_gradient(w, x, y, l2)
    assert np.allclose(gradient, _numeric_gradient(w, x, y, l2), atol=1e-6)


def test_the_intercept_is_not_penalised():
    x, y = np.c_[np.ones(4), np.zeros(4)], np.array([1.0, 1.0, 0.0, 1.0])
    loss0, grad0 = rerank.log_loss_gradient(np.array([2.0, 0.0]), x, y, 0.0)
    loss1, grad1 = rerank.log_loss_gradient(np.array([2.0, 0.0]), x, y, 10.0)
    assert loss0 == loss1 and np.array_equal(grad0, grad1)


def test_logistic_regression_learns_a_separable_rule_and_is_deterministic():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(200, 2))
    y = (x[:, 0] - 0.5 * x[:, 1] > 0).astype(float)
    model = rerank.fit_logistic(x, y)
    assert np.mean((rerank.predict_logistic(model, x) > 0.5) == y) > 0.95
    assert model["weights"][1] > 0 > model["weights"][2]
    again = rerank.fit_logistic(x, y)
    assert np.array_equal(model["weights"], again["weights"])


def test_sigmoid_does_not_overflow():
    with np.errstate(over="raise", invalid="raise"):
        values = rerank.sigmoid(np.array([-1000.0, 0.0, 1000.0]))
    assert values.tolist() == [0.0, 0.5, 1.0]


def test_folds_put_each_question_in_exactly_one_fold_and_are_balanced():
    ids = [f"q{i:03d}" for i in range(147)]
    folds = rerank.folds_by_question(ids)
    assert set(folds) == set(ids)
    assert sorted(np.bincount(list(folds.values())).tolist()) == [29, 29, 29, 30, 30]
    assert rerank.folds_by_question(list(reversed(ids))) == folds


def test_cross_validated_models_never_train_on_their_question(stage, monkeypatch):
    questions = [q for q in evaluate.load_questions() if q["relevant"]][:10]
    qrels = evaluate.judgments(questions, stage.chunks)
    stage.dense.prepare([q["question"] for q in questions])  # one batch
    seen: list[set[str]] = []
    real_rows = rerank.training_rows

    def rows(*args, **kwargs):
        x, y, owner = real_rows(*args, **kwargs)
        seen.append(set(owner))
        return x, y, owner

    fitted: list[int] = []
    real_fit = rerank.fit_logistic
    monkeypatch.setattr(rerank, "training_rows", rows)
    monkeypatch.setattr(rerank, "fit_logistic", lambda x, y: fitted.append(len(x)) or real_fit(x, y))
    models = rerank.cross_validated_models(questions, qrels, 5, stage=stage)
    folds = rerank.folds_by_question([q["id"] for q in questions])
    per_fold = {f: sum(5 for q in questions if folds[q["id"]] != f) for f in range(5)}
    assert sorted(fitted) == sorted(per_fold.values())
    for q in questions:  # the model of q's fold is the one trained without that fold
        others = [p for p in questions if folds[p["id"]] == folds[q["id"]]]
        assert all(models[p["id"]] is models[q["id"]] for p in others)


def test_best_sentence_encoder_scores_the_best_sentence_through_the_real_reranker(stage):
    docs = stage.documents(QUESTION, 20)
    encoder = rerank.BestSentenceEncoder(stage)
    scores = encoder.score([(QUESTION, d.page_content) for d in docs])
    vectors, question = rerank.sentence_vectors(), stage.dense.vector(QUESTION)
    assert scores == [round(float(np.max(vectors.of(d.page_content) @ question)), 6)
                      for d in docs]
    kept = CrossEncoderReranker(model=encoder, top_n=20).compress_documents(docs, QUESTION)
    order = rerank.reranked([d.id for d in docs], scores)
    assert [d.id for d in kept] == order
    assert rerank.rerank_with(CrossEncoderReranker(model=encoder, top_n=20), QUESTION, 20,
                              stage) == order + stage.ranking(QUESTION)[20:]


def test_reranked_keeps_the_first_stage_order_for_ties_and_below_the_depth():
    assert rerank.reranked(["a", "b", "c", "d"], [1.0, 2.0, 1.0]) == ["b", "a", "c", "d"]


def test_features_are_six_numbers_and_refuse_a_passage_outside_the_corpus(stage):
    passage = stage.by_id[stage.ranking(QUESTION)[0]].page_content
    row = rerank.features(QUESTION, passage, stage)
    assert len(row) == len(rerank.FEATURES) and all(math.isfinite(v) for v in row)
    assert all(0 <= row[i] <= 1 for i in (1, 3, 4))
    with pytest.raises(ValueError, match="corpus"):
        rerank.features(QUESTION, "not a passage of the corpus", stage)


def test_the_rows_are_registered_with_evaluate_and_paired_with_the_first_stage():
    names = rerank.register_rows()
    assert names[0] == rerank.FIRST_STAGE
    assert [f"{k}@{d}" for k in ("best sentence", "learned") for d in rerank.DEPTHS] == names[1:]
    for name in names:
        row = evaluate.EXTRA_RETRIEVERS[name]
        bars = (rerank.FIRST_STAGE, "hybrid (RRF)")  # the stage it reorders, and 14's hybrid
        assert row.compare_with == (() if name == rerank.FIRST_STAGE else bars)
    assert rerank.register_rows() == names  # twice is harmless


def test_rows_reach_the_command_when_evaluate_runs_as_main(monkeypatch):
    """``python -m retrieval_lab.evaluation.evaluate --with retrieval_lab.evaluation.rerank``: the command is the
    module ``__main__``, a second copy of evaluate; the rows must be registered there too."""
    import importlib.machinery
    import sys
    import types

    command = types.ModuleType("__main__")
    command.__spec__ = importlib.machinery.ModuleSpec("retrieval_lab.evaluation.evaluate", None)
    command.EXTRA_RETRIEVERS = {}
    command.register_retriever = lambda name, build, compare_with=(): (
        command.EXTRA_RETRIEVERS.setdefault(name, (build, tuple(compare_with))))
    monkeypatch.setitem(sys.modules, "__main__", command)
    names = rerank.register_rows()
    assert list(command.EXTRA_RETRIEVERS) == names
    assert command.EXTRA_RETRIEVERS["learned@50"][1] == (rerank.FIRST_STAGE, "hybrid (RRF)")
