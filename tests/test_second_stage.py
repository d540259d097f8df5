"""The second-stage notebook's scratch classes against the real ones, on random input.

``BaseDocumentCompressor`` (langchain-core), ``CrossEncoderReranker`` and
``ContextualCompressionRetriever`` (langchain-classic) run as they are. The real
``EmbeddingsFilter`` imports two helpers from langchain-community, which the course does not
install: the test gives it a stand-in module holding those helpers as langchain-community
writes them (``get_stateful_documents``, ``_get_embeddings_from_stateful_docs`` and its async
twin, and the numpy path of ``cosine_similarity``), so the filter's own rules (k, the
threshold, the order, ties) are the real ones.
"""

from __future__ import annotations

import asyncio
import sys
import types
from contextlib import contextmanager
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_classic.retrievers import (
    ContextualCompressionRetriever as RealContextualCompressionRetriever,
)
from langchain_classic.retrievers.document_compressors import (
    CrossEncoderReranker as RealCrossEncoderReranker,
)
from langchain_classic.retrievers.document_compressors import (
    EmbeddingsFilter as RealEmbeddingsFilter,
)
from langchain_core.cross_encoders import BaseCrossEncoder
from langchain_core.documents import BaseDocumentCompressor as RealBaseDocumentCompressor
from langchain_core.documents import Document as RealDocument
from langchain_core.embeddings import Embeddings as RealEmbeddings
from langchain_core.retrievers import BaseRetriever as RealBaseRetriever
from pydantic import Field

from retrieval_lab.runtime.callbacks import RecordingHandler
from retrieval_lab.scratch import (
    BaseDocumentCompressor,
    BaseRetriever,
    ContextualCompressionRetriever,
    CrossEncoderReranker,
    Document,
    EmbeddingsFilter,
)
from retrieval_lab.scratch.second_stage import cosine_matrix

WORDS = ["cat", "dog", "a cat", "the mat", "purr", "a", "mat cat", "dog dog", ""]


class TableEncoder(BaseCrossEncoder):
    """Scores from a table by passage text (missing: 0); ``limit`` scores only the first few."""

    def __init__(self, table: dict[str, float], limit: int | None = None) -> None:
        self.table, self.limit = table, limit

    def score(self, text_pairs: list[tuple[str, str]]) -> list[float]:
        pairs = text_pairs if self.limit is None else text_pairs[: self.limit]
        return [self.table.get(p, 0.0) for _, p in pairs]


class TableEmbeddings(RealEmbeddings):
    """Vectors from a table by text; async twins come from the base class (a thread)."""

    def __init__(self, table: dict[str, list[float]]) -> None:
        self.table = table

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [list(self.table[t]) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return list(self.table[text])


class Fixed(BaseRetriever):
    docs: list

    def _get_relevant_documents(self, query: str, *, run_manager: Any) -> list[Document]:
        return list(self.docs)


class RealFixed(RealBaseRetriever):
    docs: list

    def _get_relevant_documents(self, query: str, *, run_manager: Any) -> list[RealDocument]:
        return list(self.docs)


texts = st.lists(st.sampled_from(WORDS), max_size=8)
tables = st.dictionaries(st.sampled_from(WORDS), st.integers(0, 3).map(float))


def _both(contents: list[str]) -> tuple[list[Document], list[RealDocument]]:
    ids = [f"d{i}" for i in range(len(contents))]
    mine = [Document(t, metadata={"n": i}, id=d) for i, (t, d) in enumerate(zip(contents, ids, strict=True))]
    real = [RealDocument(t, metadata={"n": i}, id=d) for i, (t, d) in enumerate(zip(contents, ids, strict=True))]
    return mine, real


def _ids(docs: Any) -> list[str | None]:
    return [d.id for d in docs]


# --------------------------------------------------------------------------- reranker


@given(texts, tables, st.integers(-3, 9), st.one_of(st.none(), st.integers(0, 8)),
       st.sampled_from(WORDS))
def test_reranker_keeps_what_the_real_one_keeps(contents, table, top_n, limit, query):
    mine_docs, real_docs = _both(contents)
    model = TableEncoder(table, limit)
    mine = CrossEncoderReranker(model=model, top_n=top_n)
    real = RealCrossEncoderReranker(model=model, top_n=top_n)
    expected = _ids(real.compress_documents(real_docs, query))
    assert _ids(mine.compress_documents(mine_docs, query)) == expected
    assert _ids(asyncio.run(mine.acompress_documents(mine_docs, query))) == expected
    assert _ids(asyncio.run(real.acompress_documents(real_docs, query))) == expected


def test_reranker_returns_the_documents_given_not_copies():
    mine_docs, _ = _both(["cat", "dog"])
    kept = CrossEncoderReranker(model=TableEncoder({"dog": 1.0})).compress_documents(mine_docs, "q")
    assert kept[0] is mine_docs[1] and kept[1] is mine_docs[0]


# --------------------------------------------------------------------------- filter


def _community_cosine(x: Any, y: Any) -> np.ndarray:
    """langchain-community's cosine_similarity without simsimd (its numpy path)."""
    if len(x) == 0 or len(y) == 0:
        return np.array([])
    x, y = np.array(x), np.array(y)
    if x.shape[1] != y.shape[1]:
        raise ValueError("Number of columns in X and Y must be the same.")
    x_norm, y_norm = np.linalg.norm(x, axis=1), np.linalg.norm(y, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        similarity = np.dot(x, y.T) / np.outer(x_norm, y_norm)
    similarity[np.isnan(similarity) | np.isinf(similarity)] = 0.0
    return similarity


def _community_module() -> dict[str, types.ModuleType]:
    """The three langchain-community helpers EmbeddingsFilter imports, as that package has
    them (langchain_community/document_transformers/embeddings_redundant_filter.py)."""

    class _DocumentWithState(RealDocument):
        state: dict = Field(default_factory=dict)

        @classmethod
        def from_document(cls, doc: RealDocument) -> _DocumentWithState:
            if isinstance(doc, cls):
                return doc
            return cls(page_content=doc.page_content, metadata=doc.metadata)

    def get_stateful_documents(documents):
        return [_DocumentWithState.from_document(doc) for doc in documents]

    def _get_embeddings_from_stateful_docs(embeddings, documents):
        if len(documents) and "embedded_doc" in documents[0].state:
            return [doc.state["embedded_doc"] for doc in documents]
        embedded = embeddings.embed_documents([d.page_content for d in documents])
        for doc, embedding in zip(documents, embedded, strict=False):
            doc.state["embedded_doc"] = embedding
        return embedded

    async def _aget_embeddings_from_stateful_docs(embeddings, documents):
        if len(documents) and "embedded_doc" in documents[0].state:
            return [doc.state["embedded_doc"] for doc in documents]
        embedded = await embeddings.aembed_documents([d.page_content for d in documents])
        for doc, embedding in zip(documents, embedded, strict=False):
            doc.state["embedded_doc"] = embedding
        return embedded

    names = ["langchain_community", "langchain_community.utils",
             "langchain_community.utils.math", "langchain_community.document_transformers",
             "langchain_community.document_transformers.embeddings_redundant_filter"]
    modules = {name: types.ModuleType(name) for name in names}
    modules["langchain_community.utils.math"].cosine_similarity = _community_cosine
    helpers = modules["langchain_community.document_transformers.embeddings_redundant_filter"]
    helpers.get_stateful_documents = get_stateful_documents
    helpers._get_embeddings_from_stateful_docs = _get_embeddings_from_stateful_docs
    helpers._aget_embeddings_from_stateful_docs = _aget_embeddings_from_stateful_docs
    return modules


COMMUNITY = _community_module()


@contextmanager
def community():
    saved = {name: sys.modules.get(name) for name in COMMUNITY}
    sys.modules.update(COMMUNITY)
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


vectors = st.lists(st.integers(-2, 2).map(float), min_size=3, max_size=3)


@given(texts, st.dictionaries(st.sampled_from(WORDS), vectors, min_size=len(WORDS)),
       st.one_of(st.none(), st.integers(0, 9)),
       st.one_of(st.none(), st.sampled_from([-1.0, -0.5, 0.0, 0.3, 0.5, 0.99, 1.0])),
       st.sampled_from(WORDS))
def test_filter_keeps_what_the_real_one_keeps(contents, table, k, threshold, query):
    mine_docs, real_docs = _both(contents)
    embeddings = TableEmbeddings(table)
    mine = EmbeddingsFilter(embeddings=embeddings, k=k, similarity_threshold=threshold)
    with community():
        real = RealEmbeddingsFilter(embeddings=embeddings, k=k, similarity_threshold=threshold)
        if not contents:  # the real one fails on no documents; ours returns [] (notebook)
            with pytest.raises(IndexError):
                real.compress_documents(real_docs, query)
            assert mine.compress_documents(mine_docs, query) == []
            return
        expected = [(d.page_content, d.metadata) for d in real.compress_documents(real_docs, query)]
        async_expected = [(d.page_content, d.metadata)
                          for d in asyncio.run(real.acompress_documents(real_docs, query))]
    got = [(d.page_content, d.metadata) for d in mine.compress_documents(mine_docs, query)]
    assert got == expected == async_expected
    assert [(d.page_content, d.metadata)
            for d in asyncio.run(mine.acompress_documents(mine_docs, query))] == expected


@given(st.lists(vectors, max_size=4), st.lists(vectors, max_size=5))
def test_cosine_matrix_is_community_cosine_similarity(x, y):
    ours, theirs = cosine_matrix(x, y), _community_cosine(x, y)
    if theirs.size == 0:
        assert ours.size == 0
    else:
        assert np.array_equal(ours, theirs)


def test_k_none_is_twenty_in_both():
    """The real validator fills a None field with its default before checking it."""
    with community():
        real = RealEmbeddingsFilter(embeddings=TableEmbeddings({}), k=None)
    mine = EmbeddingsFilter(embeddings=TableEmbeddings({}), k=None)
    assert mine.k == real.k == 20
    assert mine.similarity_threshold is real.similarity_threshold is None


def test_real_filter_cannot_run_without_langchain_community():
    from langchain_core.vectorstores.utils import _cosine_similarity

    real = RealEmbeddingsFilter(embeddings=TableEmbeddings({"a": [1.0]}),
                                similarity_fn=_cosine_similarity)
    with pytest.raises(ImportError, match="langchain-community"):
        real.compress_documents([RealDocument("a")], "a")


# --------------------------------------------------------------------------- base class


class EveryOther(BaseDocumentCompressor):
    def compress_documents(self, documents, query, callbacks=None):
        return list(documents)[::2]


class RealEveryOther(RealBaseDocumentCompressor):
    def compress_documents(self, documents, query, callbacks=None):
        return list(documents)[::2]


@given(texts)
def test_async_twin_runs_the_sync_method_as_the_real_one(contents):
    mine_docs, real_docs = _both(contents)
    expected = _ids(asyncio.run(RealEveryOther().acompress_documents(real_docs, "q")))
    assert _ids(asyncio.run(EveryOther().acompress_documents(mine_docs, "q"))) == expected


def test_the_interface_is_abstract_in_both():
    for cls in (BaseDocumentCompressor, RealBaseDocumentCompressor):
        with pytest.raises(TypeError):
            cls()


# --------------------------------------------------------------------------- the retriever


@given(texts, tables, st.integers(0, 5), st.sampled_from(WORDS), st.booleans())
def test_retriever_returns_and_reports_what_the_real_one_does(
    contents, table, top_n, query, use_async
):
    mine_docs, real_docs = _both(contents)
    model = TableEncoder(table)
    mine = ContextualCompressionRetriever(
        base_compressor=CrossEncoderReranker(model=model, top_n=top_n),
        base_retriever=Fixed(docs=mine_docs),
    )
    real = RealContextualCompressionRetriever(
        base_compressor=RealCrossEncoderReranker(model=model, top_n=top_n),
        base_retriever=RealFixed(docs=real_docs, name="Fixed"),
    )
    seen, real_seen = RecordingHandler(), RecordingHandler()
    config = {"callbacks": [seen], "tags": ["t"], "metadata": {"m": 1}}
    real_config = {"callbacks": [real_seen], "tags": ["t"], "metadata": {"m": 1}}
    if use_async:
        got = asyncio.run(mine.ainvoke(query, config=config))
        expected = asyncio.run(real.ainvoke(query, config=real_config))
    else:
        got, expected = mine.invoke(query, config=config), real.invoke(query, config=real_config)
    assert _ids(got) == _ids(expected)
    assert seen.rows() == real_seen.rows()


class Raising(BaseCrossEncoder):
    def score(self, text_pairs):
        raise RuntimeError("scored")


def test_an_empty_first_stage_never_reaches_the_compressor_in_both():
    mine = ContextualCompressionRetriever(
        base_compressor=CrossEncoderReranker(model=Raising()), base_retriever=Fixed(docs=[])
    )
    real = RealContextualCompressionRetriever(
        base_compressor=RealCrossEncoderReranker(model=Raising()),
        base_retriever=RealFixed(docs=[]),
    )
    assert mine.invoke("q") == real.invoke("q") == []
    assert asyncio.run(mine.ainvoke("q")) == asyncio.run(real.ainvoke("q")) == []


def test_a_failing_compressor_is_reported_as_the_real_one_reports_it():
    mine_docs, real_docs = _both(["cat"])
    mine = ContextualCompressionRetriever(
        base_compressor=CrossEncoderReranker(model=Raising()), base_retriever=Fixed(docs=mine_docs)
    )
    real = RealContextualCompressionRetriever(
        base_compressor=RealCrossEncoderReranker(model=Raising()),
        base_retriever=RealFixed(docs=real_docs, name="Fixed"),
    )
    seen, real_seen = RecordingHandler(), RecordingHandler()
    with pytest.raises(RuntimeError):
        mine.invoke("q", config={"callbacks": [seen]})
    with pytest.raises(RuntimeError):
        real.invoke("q", config={"callbacks": [real_seen]})
    assert seen.rows() == real_seen.rows()
