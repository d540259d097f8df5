"""The scratch VectorStore interface (notebook 06) against langchain-core's base class.

The same minimal list-backed backend is built on both bases; whatever the base class provides
(add_texts ⇄ add_documents, from_documents, search, the stubs that raise, tags, the relevance
functions and the threshold, the async twins and their hand-over to an async twin the backend
wrote) must behave the same on random input, errors compared by kind. The one difference on
purpose, a generator of texts (langchain-ai/langchain#37673), has its own test. LangChain's own
unit tests for the base class, ported, are in test_langchain_unit_tests_vectorstore.py.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import sys
import types
import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document as RealDocument
from langchain_core.vectorstores import VectorStore as RealVectorStore

from retrieval_lab.evaluation.compare import outcome, same_outcome
from retrieval_lab.models.embeddings import BagOfWords
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


# ---- issue 23: the whole surface, the async delegation, the relevance functions


def test_the_same_members_as_the_real_base_class():
    """Every member a backend inherits, sync and async, private hooks included."""
    def members(cls: type) -> set[str]:
        return {name for name in dir(cls) if not name.startswith("__")}

    assert members(VectorStore) == members(RealVectorStore)
    for name in members(RealVectorStore):
        real, mine = getattr(RealVectorStore, name), getattr(VectorStore, name)
        assert inspect.iscoroutinefunction(mine) == inspect.iscoroutinefunction(real), name
        if callable(real) and not isinstance(real, type):
            assert list(inspect.signature(mine).parameters) == list(inspect.signature(real).parameters), name


RELEVANCE_FUNCTIONS = ["_cosine_relevance_score_fn", "_euclidean_relevance_score_fn",
                       "_max_inner_product_relevance_score_fn"]


@pytest.mark.parametrize("name", RELEVANCE_FUNCTIONS)
@given(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, -0.0, 2.0, -1.0])))
def test_relevance_functions_compute_what_the_real_ones_do(name, score):
    mine, real = getattr(VectorStore, name)(score), getattr(RealVectorStore, name)(score)
    assert repr(mine) == repr(real)  # the same float, sign of zero and NaN included
    assert repr(getattr(Mine(), name)(score)) == repr(mine)  # static: the same on an instance


def scored_store(base: type, scores: dict[str, float], relevance: str | None) -> Any:
    """A list store whose raw scores come from a table, with the named relevance function (or none)."""
    store_class = list_store(base)

    class Scored(store_class):
        def similarity_search_with_score(self, query, k=4, **kwargs):
            return [(doc, scores[doc.page_content]) for doc in self.similarity_search("", k=k)]

        if relevance is not None:
            def _select_relevance_score_fn(self):
                return getattr(self, relevance)

    store = Scored(BagOfWords())
    docs = [(RealDocument if base is RealVectorStore else Document)(text, id=text) for text in scores]
    store.similarity_search = lambda query, k=4, **kwargs: docs[:k]
    return store


RAW = st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), st.floats(-2.5, 2.5), min_size=1)


@settings(max_examples=40)
@given(RAW, st.sampled_from([*RELEVANCE_FUNCTIONS, None]), st.one_of(st.none(), st.floats(0, 1)),
       st.integers(1, 4))
def test_relevance_scores_threshold_warning_and_log_match_the_real_ones(raw, relevance, threshold, k):
    def run(base: type) -> Any:
        store = scored_store(base, raw, relevance)
        kwargs = {} if threshold is None else {"score_threshold": threshold}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            got = outcome(lambda: [(d.id, s) for d, s in
                                   store.similarity_search_with_relevance_scores("q", k, **kwargs)])
            async_got = outcome(lambda: [(d.id, s) for d, s in asyncio.run(
                store.asimilarity_search_with_relevance_scores("q", k, **kwargs))])
            searched = outcome(lambda: [d.id for d in store.search("q", "similarity_score_threshold", k=k, **kwargs)])
            asearched = outcome(lambda: [d.id for d in asyncio.run(
                store.asearch("q", "similarity_score_threshold", k=k, **kwargs))])
        return got, async_got, searched, asearched, [str(w.message) for w in caught]

    mine, real = run(VectorStore), run(RealVectorStore)
    for a, b in zip(mine[:4], real[:4], strict=True):
        assert same_outcome(a, b), (a, b)
    assert len(mine[4]) == len(real[4])
    assert [m.split(", got")[0] for m in mine[4]] == [r.split(", got")[0] for r in real[4]]


def test_no_document_above_the_threshold_is_logged_like_the_real_one(caplog):
    for base in (VectorStore, RealVectorStore):
        with caplog.at_level(logging.WARNING):
            assert scored_store(base, {"a": 0.9}, "_cosine_relevance_score_fn").similarity_search_with_relevance_scores(
                "q", score_threshold=0.5) == []
    messages = [record.getMessage() for record in caplog.records]
    assert messages == ["No relevant docs were retrieved using the relevance score threshold 0.5"] * 2


def recording_store(base: type, async_method: str | None) -> Any:
    """The list store that also writes one async add method, which notes that it ran."""
    store_class = list_store(base)
    namespace: dict[str, Any] = {}
    if async_method == "aadd_documents":
        async def aadd_documents(self, documents, **kwargs):
            self.calls.append({"async": "aadd_documents", "ids": kwargs.get("ids"),
                               "docs": [(d.page_content, d.metadata, d.id) for d in documents]})
            return ["from aadd_documents"]
        namespace["aadd_documents"] = aadd_documents
    if async_method == "aadd_texts":
        async def aadd_texts(self, texts, metadatas=None, **kwargs):
            self.calls.append({"async": "aadd_texts", "texts": list(texts), "metadatas": metadatas, **kwargs})
            return ["from aadd_texts"]
        namespace["aadd_texts"] = aadd_texts
    return type("Recording", (store_class,), namespace)(BagOfWords())


@pytest.mark.parametrize("async_method", [None, "aadd_documents", "aadd_texts"])
@pytest.mark.parametrize("call", ["texts", "texts with ids", "documents", "documents with ids", "documents, ids="])
def test_async_adds_hand_over_to_an_overridden_async_twin_like_the_real_ones(async_method, call):
    def run(base: type, doc_class: type) -> Any:
        store = recording_store(base, async_method)
        docs = [doc_class("cat", metadata={"n": 1}, id="i1"), doc_class("dog")]
        calls = {
            "texts": lambda: store.aadd_texts(("cat", "dog"), [{"n": 1}, {}]),
            "texts with ids": lambda: store.aadd_texts(["cat"], ids=["x"], extra=1),
            "documents": lambda: store.aadd_documents([doc_class("cat"), doc_class("dog")]),
            "documents with ids": lambda: store.aadd_documents(docs),
            "documents, ids=": lambda: store.aadd_documents(docs, ids=["x", "y"]),
        }
        return outcome(lambda: (asyncio.run(calls[call]()), store.calls, store.items))

    mine, real = run(VectorStore, Document), run(RealVectorStore, RealDocument)
    assert same_outcome(mine, real), (mine, real)


@settings(max_examples=30)
@given(st.lists(st.tuples(st.sampled_from(["cat", "dog"]), st.one_of(st.none(), st.sampled_from(["i", "j", ""]))),
                max_size=4), st.one_of(st.none(), st.lists(st.sampled_from(["x", "y"]), max_size=3)), METAS)
def test_afrom_documents_and_afrom_texts_pass_the_same_arguments(docs, ids, metadatas):
    kwargs = {} if ids is None else {"ids": ids}
    texts = [t for t, _ in docs]
    a = asyncio.run(Mine.afrom_documents([Document(t, metadata={"t": t}, id=i) for t, i in docs], BagOfWords(),
                                         **kwargs))
    b = asyncio.run(Real.afrom_documents([RealDocument(t, metadata={"t": t}, id=i) for t, i in docs], BagOfWords(),
                                         **kwargs))
    assert a == b
    assert asyncio.run(Mine.afrom_texts(texts, BagOfWords(), metadatas, **kwargs)) == asyncio.run(
        Real.afrom_texts(texts, BagOfWords(), metadatas, **kwargs))


ASYNC_SEARCHES = {
    "asearch similarity": lambda s: s.asearch("cat", "similarity", k=1),
    "asearch mmr": lambda s: s.asearch("cat", "mmr"),
    "asearch threshold": lambda s: s.asearch("cat", "similarity_score_threshold", score_threshold=0.5),
    "asearch bogus": lambda s: s.asearch("cat", "bogus"),
    "amax_marginal_relevance_search_by_vector": lambda s: s.amax_marginal_relevance_search_by_vector([1.0]),
    "asimilarity_search_with_relevance_scores": lambda s: s.asimilarity_search_with_relevance_scores("cat"),
}


@pytest.mark.parametrize("name", list(ASYNC_SEARCHES))
def test_async_searches_behave_like_the_real_ones(name):
    mine, real = Mine(BagOfWords()), Real(BagOfWords())
    mine.add_texts(["cat", "dog"], ids=["a", "b"])
    real.add_texts(["cat", "dog"], ids=["a", "b"])
    a = outcome(lambda: asyncio.run(ASYNC_SEARCHES[name](mine)))
    b = outcome(lambda: asyncio.run(ASYNC_SEARCHES[name](real)))
    assert same_outcome(a, b), (a, b)


def test_the_threaded_twins_run_in_a_worker_thread():
    """The helper's twins leave the event loop's thread free, as run_in_executor does."""
    import threading

    class Where(Mine):
        def similarity_search(self, query, k=4, **kwargs):
            return [threading.current_thread() is threading.main_thread()]

    assert asyncio.run(Where(BagOfWords()).asimilarity_search("cat")) == [False]


def test_a_generator_of_texts_is_stored_by_ours_and_dropped_by_the_real_one():
    """A known langchain-core bug (langchain-ai/langchain#37673): the real add_texts lists a
    generator to count it, then zips the used-up generator, so it stores nothing; aadd_texts
    too. The scratch class zips the list. Notebook 06's surprise 4 shows it: when this test
    fails, the real class was fixed and that surprise must go."""
    for base, stored in ((VectorStore, 2), (RealVectorStore, 0)):
        store = list_store(base)()
        store.add_texts(text for text in ["cat", "dog"])
        assert len(store.items) == stored
        for async_method in ("aadd_documents", None):
            recorder = recording_store(base, async_method)
            asyncio.run(recorder.aadd_texts(text for text in ["cat", "dog"]))
            added = recorder.items or [doc for call in recorder.calls for doc in call.get("docs", [])]
            assert len(added) == stored, (base, async_method)
