"""Notebook 14's metrics against trec_eval (pytrec_eval) on random runs with graded labels.

Each metric is defined once in the notebook (exported to ``retrieval_lab.scratch``); here
hypothesis feeds the same random rankings and judgments - grades 0 to 3, judged documents that
were never retrieved, retrieved documents never judged, no relevant document at all - to ours and
to trec_eval, and every value must agree to 1e-9. Rankings become trec_eval runs with strictly
decreasing scores, so trec_eval's own tie rule never decides an order.
"""

from __future__ import annotations

import math

import pytest
import pytrec_eval
from hypothesis import given
from hypothesis import strategies as st

from retrieval_lab.scratch.measuring_retrieval import (
    chunk_labels,
    hit_rate_at_k,
    mean_over,
    ndcg_at_k,
    precision_at_k,
    recall_at_k,
    reciprocal_rank,
)

IDS = [f"d{i}" for i in range(12)]
KS = [1, 2, 3, 5, 10, 15]  # 15: beyond every ranking drawn below

rankings = st.lists(st.sampled_from(IDS), unique=True, max_size=10)
labels = st.dictionaries(st.sampled_from(IDS), st.integers(0, 3), max_size=8)


def trec_eval(run: list[str], relevant: dict[str, int]) -> dict[str, float]:
    """trec_eval's measures of one query: ``{"P_5": ..., "recip_rank": ...}``."""
    measures = {f"{m}.{','.join(map(str, KS))}" for m in ("P", "recall", "success", "ndcg_cut")}
    evaluator = pytrec_eval.RelevanceEvaluator({"q": relevant}, measures | {"recip_rank"})
    scores = {doc_id: float(len(run) - rank) for rank, doc_id in enumerate(run)}
    return evaluator.evaluate({"q": scores})["q"]


OURS = {
    "success": hit_rate_at_k,
    "recall": recall_at_k,
    "P": precision_at_k,
    "ndcg_cut": ndcg_at_k,
}


@given(run=rankings, relevant=labels.filter(bool))
def test_every_metric_equals_trec_eval(run, relevant):
    real = trec_eval(run, relevant)
    for name, metric in OURS.items():
        for k in KS:
            assert math.isclose(metric(run, relevant, k), real[f"{name}_{k}"], abs_tol=1e-9), (
                name,
                k,
            )
    assert math.isclose(reciprocal_rank(run, relevant), real["recip_rank"], abs_tol=1e-9)


@given(run=rankings, judged=st.lists(st.sampled_from(IDS), unique=True, min_size=1))
def test_no_relevant_document_scores_zero_as_in_trec_eval(run, judged):
    """A query whose judged documents are all grade 0: trec_eval keeps it, with every measure 0."""
    relevant = dict.fromkeys(judged, 0)
    real = trec_eval(run, relevant)
    assert set(real.values()) == {0.0}
    for metric in OURS.values():
        assert metric(run, relevant, 5) == 0.0
    assert reciprocal_rank(run, relevant) == 0.0
    assert all(metric(run, {}, 5) == 0.0 for metric in OURS.values())


def test_trec_eval_leaves_out_a_query_with_no_judgments_and_so_does_mean_over():
    qrels = {"a": {"d1": 1}, "b": {}, "c": {"d2": 0}}
    runs = {"a": ["d1"], "b": ["d1"], "c": ["d2"]}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"})
    real = evaluator.evaluate({q: {d: 1.0 for d in r} for q, r in runs.items()})
    assert sorted(real) == ["a", "c"]
    assert mean_over(reciprocal_rank, runs, qrels) == 0.5 == (1.0 + 0.0) / 2


@given(
    runs=st.lists(rankings, min_size=1, max_size=6),
    qrels=st.lists(labels, min_size=1, max_size=6),
    k=st.sampled_from(KS),
)
def test_mean_over_equals_trec_eval_mean(runs, qrels, k):
    n = min(len(runs), len(qrels))
    runs_by_q = {f"q{i}": runs[i] for i in range(n)}
    qrels_by_q = {f"q{i}": qrels[i] for i in range(n)}
    judged = [q for q, rel in qrels_by_q.items() if rel]
    if not judged:
        with pytest.raises(ValueError, match="no question has judgments"):
            mean_over(ndcg_at_k, runs_by_q, qrels_by_q, k=k)
        return
    evaluator = pytrec_eval.RelevanceEvaluator(qrels_by_q, {f"ndcg_cut.{k}", f"recall.{k}"})
    real = evaluator.evaluate(
        {q: {d: float(len(r) - i) for i, d in enumerate(r)} for q, r in runs_by_q.items()}
    )
    assert sorted(real) == sorted(judged)
    for ours, name in ((ndcg_at_k, "ndcg_cut"), (recall_at_k, "recall")):
        expected = sum(real[q][f"{name}_{k}"] for q in judged) / len(judged)
        assert math.isclose(mean_over(ours, runs_by_q, qrels_by_q, k=k), expected, abs_tol=1e-9)


@pytest.mark.parametrize("k", [0, -1, 2.0, True, None])
def test_a_bad_k_is_refused(k):
    with pytest.raises(ValueError, match="k must be a whole number"):
        recall_at_k(["d1"], {"d1": 1}, k)


def test_a_ranking_with_a_repeat_or_a_single_string_is_refused():
    with pytest.raises(ValueError, match="repeats an id"):
        precision_at_k(["d1", "d1"], {"d1": 1}, 2)
    with pytest.raises(TypeError, match="not one string"):
        reciprocal_rank("d1", {"d1": 1})


def test_mean_over_names_a_question_without_a_ranking():
    with pytest.raises(KeyError, match="q2"):
        mean_over(reciprocal_rank, {"q1": []}, {"q1": {"d1": 1}, "q2": {"d1": 1}})


class Chunk:
    def __init__(self, id, topic, start, text):
        self.id, self.page_content = id, text
        self.metadata = {"topic": topic, "start_index": start}


@given(
    cuts=st.lists(st.integers(0, 60), min_size=1, max_size=8),
    spans=st.lists(
        st.tuples(st.sampled_from(["a", "b"]), st.integers(0, 59), st.integers(1, 20),
                  st.integers(1, 2)),
        max_size=4,
    ),
)
def test_chunk_labels_mark_exactly_the_chunks_that_share_a_character_with_a_span(cuts, spans):
    """Chunks [start, start + len) of two topics, spans [start, end): a chunk's grade is the
    highest grade of the spans that share at least one character position with it."""
    chunks = [Chunk(f"{t}#{i}", t, s, "x" * (i + 3)) for t in "ab" for i, s in enumerate(cuts)]
    judged = [{"doc": t, "start": s, "end": s + n, "grade": g} for t, s, n, g in spans]
    expected = {}
    for chunk in chunks:
        covered = set(range(chunk.metadata["start_index"],
                            chunk.metadata["start_index"] + len(chunk.page_content)))
        grades = [j["grade"] for j in judged if j["doc"] == chunk.metadata["topic"]
                  and covered & set(range(j["start"], j["end"]))]
        if grades:
            expected[chunk.id] = max(grades)
    assert chunk_labels(judged, chunks) == expected
