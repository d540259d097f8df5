"""The Python Language Reference corpus: its snapshot, its passages and its shipped MiniLM vectors."""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from importlib.resources import files
from pathlib import Path

import numpy as np
import pytest
from langchain_core.documents import Document

from retrieval_lab.data import corpus
from retrieval_lab.models.embeddings import BagOfWords, MiniLM

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def topics() -> list[Document]:
    return corpus.python_reference()


@pytest.fixture(scope="module")
def chunks() -> list[Document]:
    return corpus.python_reference_chunks()


def test_the_snapshot_says_where_it_comes_from_and_under_which_licence():
    about = corpus.python_reference_about()
    assert about["python"].startswith("3.11.")
    assert "pydoc_data.topics" in about["source"]
    assert "PSF License" in about["licence"] and "Python Software Foundation" in about["copyright"]
    docstring = corpus.python_reference.__doc__
    assert all(word in docstring for word in ("pydoc_data.topics", "3.11", "PSF License"))


def test_one_document_per_topic_with_the_topic_as_id(topics):
    assert len(topics) >= 70
    assert [doc.id for doc in topics] == sorted(doc.id for doc in topics)
    for doc in topics:
        assert doc.metadata == {"topic": doc.id, "source": "python-reference"}
        assert doc.page_content.strip()
    by_id = {doc.id: doc for doc in topics}
    assert 'The "if" statement' in by_id["if"].page_content


def test_the_passages_are_spans_of_their_topic_with_unique_ids(topics, chunks):
    assert len(chunks) >= 300
    ids = [chunk.id for chunk in chunks]
    assert len(set(ids)) == len(ids)
    text_of = {doc.id: doc.page_content for doc in topics}
    seen: Counter[str] = Counter()
    for chunk in chunks:
        topic = chunk.metadata["topic"]
        assert chunk.id == f"{topic}#{seen[topic]}"  # numbered from 0 within a topic
        seen[topic] += 1
        assert set(chunk.metadata) == {"topic", "source", "start_index"}
        start = chunk.metadata["start_index"]
        assert text_of[topic][start : start + len(chunk.page_content)] == chunk.page_content
        assert 0 < len(chunk.page_content) <= corpus.PYTHON_REFERENCE_CHUNK_SIZE
    assert set(seen) == set(text_of)  # every topic gives at least one passage


def test_every_call_returns_new_objects(chunks):
    again = corpus.python_reference_chunks()
    again[0].metadata["topic"] = "changed"
    assert chunks[0].metadata["topic"] != "changed"


def test_the_shipped_vectors_belong_to_todays_passages(chunks):
    about = json.loads((files("retrieval_lab") / "data" / corpus.PYTHON_REFERENCE_VECTORS_ABOUT).read_text())
    assert about["chunks_sha256"] == corpus.chunks_sha256(chunks)
    vectors = corpus.python_reference_vectors()
    assert vectors.dtype == np.float32 and vectors.shape == (len(chunks), 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_a_changed_passage_is_refused_with_the_command_that_re_makes_the_vectors(monkeypatch):
    real = corpus.python_reference_chunks

    def edited():
        out = real()
        out[3].page_content += " (edited)"
        return out

    monkeypatch.setattr(corpus, "python_reference_chunks", edited)
    with pytest.raises(RuntimeError, match=r"python -m tools\.corpus_vectors"):
        corpus.python_reference_vectors()


@pytest.mark.slow
def test_a_sample_of_the_shipped_vectors_equals_minilm_today(chunks):
    rows = np.random.default_rng(2026).choice(len(chunks), size=16, replace=False)
    shipped = corpus.python_reference_vectors()[rows]
    today = np.array(MiniLM().embed_documents([chunks[i].page_content for i in rows]), dtype=np.float32)
    assert np.abs(shipped - today).max() <= 1e-5


def test_the_package_ships_the_corpus_files():
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    shipped = patterns["retrieval_lab.data"]
    assert all(any(Path(name).match(p) for p in shipped) for name in (
        corpus.PYTHON_REFERENCE_FILE, corpus.PYTHON_REFERENCE_VECTORS_FILE, corpus.PYTHON_REFERENCE_VECTORS_ABOUT))
    for name in (
        corpus.PYTHON_REFERENCE_FILE,
        corpus.PYTHON_REFERENCE_VECTORS_FILE,
        corpus.PYTHON_REFERENCE_VECTORS_ABOUT,
    ):
        assert (ROOT / "src" / "retrieval_lab" / "data" / name).is_file()


def test_distinct_passages_keep_each_text_once_from_the_most_specific_topic(chunks):
    kept = corpus.distinct_passages(chunks)
    assert kept == sorted(kept)
    texts = [chunks[i].page_content for i in kept]
    assert len(set(texts)) == len(texts) == len({c.page_content for c in chunks})
    per_topic = Counter(c.metadata["topic"] for c in chunks)
    for i in kept:  # no copy elsewhere comes from a topic with fewer passages
        copies = [c for c in chunks if c.page_content == chunks[i].page_content]
        assert per_topic[chunks[i].metadata["topic"]] == min(per_topic[c.metadata["topic"]] for c in copies)
    assert len(kept) < len(chunks)  # the reference does repeat itself


def test_corpus_returns_fresh_objects():
    a, b = corpus.pets_and_code(), corpus.pets_and_code()
    assert [d.id for d in a] == [d.id for d in b]
    assert a[0].metadata is not b[0].metadata
    assert len({d.id for d in a}) == len(a)



def test_every_corpus_document_has_a_vocabulary_word():
    emb = BagOfWords()
    for doc in corpus.pets_and_code():
        assert any(emb.embed_query(doc.page_content)), doc
    plane = BagOfWords(vocabulary=["cat", "dog"])
    for doc in corpus.cat_dog_plane():
        assert any(plane.embed_query(doc.page_content)), doc

