"""retrieval_lab.models.embeddings: BagOfWords, LookupEmbeddings and RowEmbeddings, the course's toy models."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import InMemoryVectorStore

from retrieval_lab.models.embeddings import DEFAULT_VOCABULARY, BagOfWords

words = st.sampled_from(["cat", "dog", "kernel", "python", "Cat", "DOG", "cats", "the", "pythonic"])
sentences = st.lists(words, max_size=12).map(" ".join)


def test_bag_of_words_is_a_real_embeddings():
    assert isinstance(BagOfWords(), Embeddings)
    assert BagOfWords().vocabulary == DEFAULT_VOCABULARY == ("cat", "dog", "kernel", "python")


@given(sentences)
def test_counts_whole_lowercase_words(text):
    lowered = text.lower().split()
    expected = [float(lowered.count(w)) for w in DEFAULT_VOCABULARY]
    assert BagOfWords().embed_query(text) == expected


@given(st.lists(sentences, max_size=5))
def test_embed_documents_is_embed_query_per_text(texts):
    emb = BagOfWords()
    assert emb.embed_documents(texts) == [emb.embed_query(t) for t in texts]


def test_vocabulary_is_an_argument():
    emb = BagOfWords(vocabulary=["cat", "dog"])
    assert emb.embed_query("dog dog cat, said the python") == [1.0, 2.0]


@pytest.mark.parametrize("bad", [3, None, b"cat", ["cat"]])
def test_non_string_input_is_a_clear_type_error(bad):
    with pytest.raises(TypeError, match="pass a str"):
        BagOfWords().embed_query(bad)


def test_a_single_string_to_embed_documents_is_refused():
    with pytest.raises(TypeError, match="embed_query"):
        BagOfWords().embed_documents("cat")


@pytest.mark.parametrize(
    ("vocabulary", "message"),
    [([], "empty"), ("cat", "single string"), (["Cat"], "lowercase"), (["cat", "cat"], "repeats"), ([1], "lowercase")],
)
def test_bad_vocabulary_is_refused_at_construction(vocabulary, message):
    with pytest.raises((TypeError, ValueError), match=message):
        BagOfWords(vocabulary=vocabulary)


def test_no_vocabulary_word_is_the_zero_vector_and_the_real_store_refuses_it():
    """The docstring's promise, checked against the real store (verified-behaviour.md §3)."""
    emb = BagOfWords()
    assert emb.embed_query("hello world") == [0.0, 0.0, 0.0, 0.0]
    store = InMemoryVectorStore(emb)
    store.add_texts(["cat"], ids=["c"])
    with pytest.raises(ValueError, match="NaN values found"):
        store.similarity_search("hello world")


def test_lookup_embeddings_returns_copies_and_names_a_missing_text():
    from retrieval_lab.models.embeddings import LookupEmbeddings

    table = {"a": [1.0, 0.0]}
    emb = LookupEmbeddings(table)
    vector = emb.embed_query("a")
    vector.append(9.0)
    assert emb.embed_documents(["a", "a"]) == [[1.0, 0.0], [1.0, 0.0]]
    with pytest.raises(KeyError, match="no vector for 'b'"):
        emb.embed_query("b")


def test_row_embeddings_hand_out_rows_as_views_or_lists() -> None:
    from retrieval_lab.models.embeddings import RowEmbeddings

    vectors = np.arange(12, dtype=np.float32).reshape(4, 3)
    as_array = RowEmbeddings(vectors, as_lists=False)
    block = as_array.embed_documents(["1", "2", "3"])
    assert np.shares_memory(block, vectors) and block.tolist() == vectors[1:].tolist()
    assert as_array.embed_documents(["3", "0"]).tolist() == [vectors[3].tolist(), vectors[0].tolist()]
    assert RowEmbeddings(vectors).embed_documents(["0"]) == [[0.0, 1.0, 2.0]]
    assert RowEmbeddings(vectors).embed_query("2") == [6.0, 7.0, 8.0]
    with pytest.raises(ValueError, match="row"):
        RowEmbeddings(vectors).embed_query("cat")
    with pytest.raises(ValueError, match="2-D"):
        RowEmbeddings(np.zeros(3))
