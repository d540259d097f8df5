"""The scratch VectorStore interface (notebook 06) against langchain-core's base class.

The same minimal list-backed backend is built on both bases; whatever the base class provides
(add_texts ⇄ add_documents, from_documents, search, the stubs that raise, tags, async twins) must
behave the same on random input, errors compared by kind.
"""

from __future__ import annotations

import asyncio
import sys
import types
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document as RealDocument
from langchain_core.vectorstores import VectorStore as RealVectorStore

from retrieval_lab.compare import outcome, same_outcome
from retrieval_lab.embeddings import BagOfWords
from retrieval_lab.scratch import Document, VectorStore

RETRIEVER_MODULE = "retrieval_lab.scratch.vectorstore_retriever"


def list_store(base: type) -> type:
    """The notebook's list-backed store: writes add_documents, similarity_search and from_texts only."""

    class ListStore(base):
        def __init__(self, embedding: Any = None) -> None:
            self.embedding = embedding
            self.items: list[Any] = []
            self.calls: list[dict[str, Any]] = []

        @property
        def embeddings(self) -> Any:
            return self.embedding

        def add_documents(self, documents: list[Any], ids: list[str] | None = None, **kwargs: Any) -> list[str]:
            self.calls.append({"ids": ids, **kwargs})
            self.items += [(d.page_content, d.metadata, d.id) for d in documents]
            return [f"n{len(self.items)}-{i}" for i in range(len(documents))]

        def similarity_search(self, query: str, k: int = 4, **kwargs: Any) -> list[Any]:
            return [item for item in self.items if query in item[0]][:k]

        @classmethod
        def from_texts(cls, texts: list[str], embedding: Any, metadatas: Any = None, **kwargs: Any) -> Any:
            return (list(texts), metadatas, kwargs)

    return ListStore


Mine, Real = list_store(VectorStore), list_store(RealVectorStore)

TEXTS = st.lists(st.sampled_from(["cat", "dog", "", "cat dog"]), max_size=4)
METAS = st.one_of(st.none(), st.lists(st.dictionaries(st.sampled_from(["a", "b"]), st.integers(0, 3), max_size=2),
                                      max_size=5))
IDS = st.one_of(st.none(), st.lists(st.one_of(st.none(), st.sampled_from(["x", "y", ""])), max_size=5))


def test_exactly_the_same_abstract_members():
    assert VectorStore.__abstractmethods__ == RealVectorStore.__abstractmethods__ == {"similarity_search", "from_texts"}
    with pytest.raises(TypeError):
        VectorStore()


@settings(max_examples=40)
@given(TEXTS, METAS, IDS)
def test_add_texts_builds_the_same_documents(texts, metadatas, ids):
    mine, real = Mine(), Real()
    a = outcome(lambda: (mine.add_texts(texts, metadatas, ids=ids), mine.items, mine.calls))
    b = outcome(lambda: (real.add_texts(texts, metadatas, ids=ids), real.items, real.calls))
    assert same_outcome(a, b), (a, b)


@settings(max_examples=30)
@given(st.lists(st.tuples(st.sampled_from(["cat", "dog"]), st.one_of(st.none(), st.sampled_from(["i", "j", ""]))),
                max_size=4), st.one_of(st.none(), st.lists(st.sampled_from(["x", "y"]), max_size=3)))
def test_from_documents_passes_the_same_arguments(docs, ids):
    kwargs = {} if ids is None else {"ids": ids}
    a = Mine.from_documents([Document(t, metadata={"t": t}, id=i) for t, i in docs], BagOfWords(), **kwargs)
    b = Real.from_documents([RealDocument(t, metadata={"t": t}, id=i) for t, i in docs], BagOfWords(), **kwargs)
    assert a == b


def test_add_documents_goes_through_add_texts_when_only_that_is_written():
    def with_add_texts(base: type) -> Any:
        class TextStore(base):
            def add_texts(self, texts, metadatas=None, *, ids=None, **kwargs):
                return [f"{t}|{m}|{ids}|{kwargs}" for t, m in zip(texts, metadatas or [], strict=False)]

            def similarity_search(self, query, k=4, **kwargs):
                return []

            @classmethod
            def from_texts(cls, texts, embedding, metadatas=None, **kwargs):
                return cls()

        return TextStore()

    cases = [([("cat", None)], {}), ([("cat", "i1"), ("dog", None)], {}), ([("cat", "i1")], {"ids": ["z"]})]
    for docs, kwargs in cases:
        mine = with_add_texts(VectorStore).add_documents([Document(t, metadata={"n": 1}, id=i) for t, i in docs],
                                                         **kwargs)
        real = with_add_texts(RealVectorStore).add_documents(
            [RealDocument(t, metadata={"n": 1}, id=i) for t, i in docs], **kwargs)
        assert mine == real


def test_neither_add_method_raises_not_implemented_like_the_real_one():
    def bare(base: type) -> Any:
        class Bare(base):
            def similarity_search(self, query, k=4, **kwargs):
                return []

            @classmethod
            def from_texts(cls, texts, embedding, metadatas=None, **kwargs):
                return cls()

        return Bare()

    for store, doc_class in ((bare(VectorStore), Document), (bare(RealVectorStore), RealDocument)):
        with pytest.raises(NotImplementedError, match="has not been implemented for Bare"):
            store.add_documents([doc_class("cat")])
        with pytest.raises(NotImplementedError):
            store.add_texts(["cat"])


STUBS = {
    "get_by_ids": lambda s: s.get_by_ids(["x"]),
    "delete": lambda s: s.delete(["x"]),
    "delete(None)": lambda s: s.delete(None),
    "similarity_search_with_score": lambda s: s.similarity_search_with_score("cat"),
    "similarity_search_by_vector": lambda s: s.similarity_search_by_vector([1.0]),
    "max_marginal_relevance_search": lambda s: s.max_marginal_relevance_search("cat"),
    "max_marginal_relevance_search_by_vector": lambda s: s.max_marginal_relevance_search_by_vector([1.0]),
    "similarity_search_with_relevance_scores": lambda s: s.similarity_search_with_relevance_scores("cat"),
    "search mmr": lambda s: s.search("cat", "mmr"),
    "search threshold": lambda s: s.search("cat", "similarity_score_threshold", score_threshold=0.5),
    "search bogus": lambda s: s.search("cat", "bogus"),
    "search similarity": lambda s: s.search("cat", "similarity", k=1),
}


@pytest.mark.parametrize("name", list(STUBS))
def test_inherited_members_behave_like_the_real_base(name):
    mine, real = Mine(BagOfWords()), Real(BagOfWords())
    mine.add_texts(["cat", "dog"], ids=["a", "b"])
    real.add_texts(["cat", "dog"], ids=["a", "b"])
    a, b = outcome(lambda: STUBS[name](mine)), outcome(lambda: STUBS[name](real))
    assert same_outcome(a, b), (a, b)
    if a.error is not None:
        assert a.error[1], "the scratch base class should say what is missing"


def test_embeddings_property_and_retriever_tags_match():
    assert VectorStore.embeddings.fget(Mine()) is None
    for embedding in (BagOfWords(), None):
        assert Mine(embedding)._get_retriever_tags() == Real(embedding)._get_retriever_tags()


def test_as_retriever_says_notebook_08_when_the_retriever_module_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, RETRIEVER_MODULE, None)  # importing it now fails, as if not yet built
    with pytest.raises(NotImplementedError, match="notebook 10"):
        Mine(BagOfWords()).as_retriever()


@pytest.mark.parametrize("kwargs", [{}, {"tags": ["faq"]}, {"tags": []}, {"search_type": "mmr",
                                                                           "search_kwargs": {"k": 1}}])
def test_as_retriever_hands_the_real_tags_and_kwargs_to_the_retriever_class(monkeypatch, kwargs):
    fake = types.ModuleType(RETRIEVER_MODULE)

    class VectorStoreRetriever:
        def __init__(self, **fields: Any) -> None:
            self.fields = fields

    fake.VectorStoreRetriever = VectorStoreRetriever
    monkeypatch.setitem(sys.modules, RETRIEVER_MODULE, fake)
    for embedding in (BagOfWords(), None):
        store = Mine(embedding)
        mine = store.as_retriever(**dict(kwargs))
        real = Real(embedding).as_retriever(**dict(kwargs))
        assert mine.fields["tags"] == real.tags
        assert mine.fields["vectorstore"] is store
        rest = {k: v for k, v in mine.fields.items() if k not in {"tags", "vectorstore"}}
        assert rest == {k: v for k, v in kwargs.items() if k != "tags"}


def test_async_twins_run_the_sync_methods_like_the_real_ones():
    async def run(store: Any, doc_class: type) -> list[Any]:
        seen = []
        for make in (lambda: store.aadd_texts(["cat", "dog"], ids=["a", "b"]),
                     lambda: store.asimilarity_search("cat", k=1),
                     lambda: store.aadd_documents([doc_class("cat dog", id="c")]),
                     lambda: store.aget_by_ids(["a"]),
                     lambda: store.adelete(["a"]),
                     lambda: store.asimilarity_search_with_score("cat"),
                     lambda: store.asimilarity_search_by_vector([1.0]),
                     lambda: store.amax_marginal_relevance_search("cat")):
            try:
                seen.append(await make())
            except NotImplementedError:
                seen.append("NotImplementedError")
        return seen

    mine = asyncio.run(run(Mine(BagOfWords()), Document))
    real = asyncio.run(run(Real(BagOfWords()), RealDocument))
    assert mine == real
    assert mine.count("NotImplementedError") == 5
