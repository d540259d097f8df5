"""evaluation.chunking: word pieces, the budget, span recall/precision/IoU, and the shipped cache.

The span metrics are checked on spans worked out by hand; the cache is checked by recomputing a
small sample of its vectors and cuts with MiniLM, so a stale or wrong file fails here.
"""

from __future__ import annotations

import numpy as np
import pytest
from langchain_core.documents import Document as RealDocument
from langchain_text_splitters import RecursiveCharacterTextSplitter

from retrieval_lab.data.corpus import python_reference
from retrieval_lab.evaluation import chunking
from retrieval_lab.models import minilm
from retrieval_lab.models.embeddings import MiniLM
from retrieval_lab.scratch import SemanticChunker

TOPICS = {"a": "x" * 100, "b": "y" * 100, "c": "x" * 100}


def test_word_pieces_counts_without_cls_and_sep():
    assert chunking.word_pieces("") == 0
    assert chunking.word_pieces("hello world") == 2
    ids = minilm.tokenize(["hello world"]).ids[0]
    assert len(ids) == chunking.word_pieces("hello world") + 2  # [CLS] … [SEP]


def test_truncated_counts_texts_past_254_pieces():
    assert chunking.LIMIT == 254
    assert chunking.truncated(["word " * 254, "word " * 255, "short"]) == 1


def test_budget_takes_chunks_in_order_and_cuts_the_last_short():
    chunks = {
        "a#0": RealDocument("p" * 600, metadata={"topic": "a", "start_index": 0}),
        "b#3": RealDocument("q" * 600, metadata={"topic": "b", "start_index": 50}),
        "c#1": RealDocument("r" * 10, metadata={"topic": "c", "start_index": 5}),
    }
    assert chunking.budgeted(["a#0", "b#3", "c#1"], chunks, budget=1000) == [
        ("a", 0, 600), ("b", 50, 450)]
    assert chunking.budgeted(["c#1"], chunks, budget=1000) == [("c", 5, 15)]


def test_span_scores_by_hand():
    relevant = [{"doc": "a", "start": 10, "end": 30, "grade": 2}]
    # 10 of the 20 relevant characters, in 40 retrieved: recall .5, precision .25, IoU 10/50
    scores = chunking.span_scores(relevant, [("a", 20, 40), ("b", 0, 20)], TOPICS)
    assert scores == pytest.approx({"recall": 0.5, "precision": 0.25, "IoU": 0.2})
    assert chunking.span_scores(relevant, [("b", 0, 20)], TOPICS) == {
        "recall": 0.0, "precision": 0.0, "IoU": 0.0}


def test_a_span_and_its_copy_count_once_and_either_copy_finds_it():
    """Topics a and c hold the same text: the question labels both copies."""
    relevant = [{"doc": "a", "start": 0, "end": 20, "grade": 2},
                {"doc": "c", "start": 0, "end": 20, "grade": 2}]
    via_copy = chunking.span_scores(relevant, [("c", 0, 20)], TOPICS)
    assert via_copy == pytest.approx({"recall": 1.0, "precision": 1.0, "IoU": 1.0})
    both = chunking.span_scores(relevant, [("a", 0, 20), ("c", 0, 20)], TOPICS)
    assert both == pytest.approx({"recall": 1.0, "precision": 0.5, "IoU": 0.5})


def test_overlapping_retrieved_chunks_find_a_character_once_but_spend_it_twice():
    relevant = [{"doc": "a", "start": 0, "end": 10, "grade": 1}]
    scores = chunking.span_scores(relevant, [("a", 0, 10), ("a", 5, 15)], TOPICS)
    assert scores == pytest.approx({"recall": 1.0, "precision": 0.5, "IoU": 0.5})


def test_chunk_corpus_ids_positions_and_one_copy_of_each_text():
    splitter = RecursiveCharacterTextSplitter(chunk_size=800, chunk_overlap=0, add_start_index=True)
    chunks = chunking.chunk_corpus(splitter)
    topics = {d.metadata["topic"]: d.page_content for d in python_reference()}
    for c in chunks:
        start = c.metadata["start_index"]
        assert topics[c.metadata["topic"]][start : start + len(c.page_content)] == c.page_content
    assert len({c.page_content for c in chunks}) == len(chunks)
    assert len({c.id for c in chunks}) == len(chunks)


def test_chunk_corpus_refuses_chunks_without_start_index():
    with pytest.raises(ValueError, match="add_start_index=True"):
        chunking.chunk_corpus(RecursiveCharacterTextSplitter(chunk_size=800, chunk_overlap=0))


@pytest.mark.slow
def test_the_shipped_cache_holds_every_strategy_so_the_notebook_embeds_nothing():
    store = chunking.ChunkCache()
    for name, splitter in chunking.strategies(embeddings=_refuse()).items():
        chunks = chunking.chunk_corpus(splitter, store=store)
        store.vectors([c.page_content for c in chunks])
        assert store.misses == 0, f"{name}: {store.misses} chunk texts are not in the cache"


@pytest.mark.slow
def test_a_sample_of_the_cached_vectors_is_what_minilm_makes():
    splitter = chunking.strategies(embeddings=_refuse())["characters 800"]
    chunks = chunking.chunk_corpus(splitter)
    sample = [chunks[i].page_content for i in np.random.default_rng(0).choice(len(chunks), 4)]
    cached = chunking.ChunkCache().vectors(sample)
    made = minilm.encode(sample)
    assert np.abs(cached - made).max() < 2e-3  # float16 storage


@pytest.mark.slow
def test_the_cached_semantic_cuts_are_what_the_chunker_makes_on_a_small_topic():
    topic = next(d for d in python_reference() if d.id == "while")
    chunker = SemanticChunker(MiniLM(), breakpoint_threshold_amount=80, add_start_index=True)
    cached = chunking.ChunkCache().spans(
        SemanticChunker(_refuse(), breakpoint_threshold_amount=80, add_start_index=True),
        topic.page_content)
    assert cached == chunker.chunk_spans(topic.page_content)


def test_a_cache_miss_computes_and_save_keeps_it(tmp_path):
    store = chunking.ChunkCache(tmp_path / "none.npz")
    vectors = store.vectors(["Cats purr.", "Cats purr."])
    assert store.misses == 1 and vectors.shape == (2, 384)
    store.save()
    again = chunking.ChunkCache(tmp_path / "none.npz")
    assert np.array_equal(again.vectors(["Cats purr."]), vectors[:1]) and again.misses == 0


class _refuse:  # noqa: N801 - a stand-in embeddings object
    """Embeddings that refuse to run: a cache hit must not need them."""

    def embed_documents(self, texts):
        raise AssertionError(f"the cache should have held these {len(texts)} texts")
