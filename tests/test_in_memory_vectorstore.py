"""The scratch InMemoryVectorStore (notebook 07) against langchain-core's, on random input.

Both stores get the same random corpora (vectors with many ties and zeros), queries, ``k``,
filters, λ and ``fetch_k``; ids, order and scores must agree (scores to 1e-9), errors by kind.
The scratch store runs the real ranking expression, so even tied documents come out in the same
order; ``same_ranking`` is asserted as well, as the documented tie rule.
"""

from __future__ import annotations

import json
import re
import uuid
from datetime import date
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document as RealDocument
from langchain_core.vectorstores import InMemoryVectorStore as RealStore
from langchain_core.vectorstores.utils import _cosine_similarity as real_cosine
from langchain_core.vectorstores.utils import maximal_marginal_relevance as real_mmr

from retrieval_lab.evaluation.compare import outcome, same_outcome, same_ranking
from retrieval_lab.models.embeddings import BagOfWords
from retrieval_lab.models.embeddings import LookupEmbeddings as TableEmbeddings
from retrieval_lab.scratch import Document, InMemoryVectorStore, VectorStore
from retrieval_lab.scratch import in_memory_vectorstore as scratch_module

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")




# Few distinct values: ties between documents and zero vectors are common, which is the point.
COORD = st.sampled_from([-2.0, -1.0, -0.5, 0.0, 0.0, 0.5, 1.0, 2.0, 3.0])
FREE = st.floats(min_value=-5, max_value=5, allow_nan=False, allow_infinity=False)


@st.composite
def corpora(draw: Any, coords: Any = None) -> tuple[list[tuple[str, list[float], int]], list[float], int]:
    """(rows of (id, vector, group), query vector, dim) with unique explicit ids."""
    coords = coords if coords is not None else st.one_of(COORD, FREE)
    dim = draw(st.integers(1, 4))
    n = draw(st.integers(0, 9))
    vectors = [draw(st.lists(coords, min_size=dim, max_size=dim)) for _ in range(n)]
    groups = [draw(st.integers(0, 2)) for _ in range(n)]
    query = draw(st.lists(coords, min_size=dim, max_size=dim))
    return [(f"i{j}", v, g) for j, (v, g) in enumerate(zip(vectors, groups, strict=True))], query, dim


def build(rows: list[tuple[str, list[float], int]], query: list[float]) -> tuple[InMemoryVectorStore, RealStore]:
    table = {f"text {i}": v for i, v, _ in rows} | {"the query": query}
    mine, real = InMemoryVectorStore(TableEmbeddings(table)), RealStore(TableEmbeddings(table))
    mine.add_documents([Document(f"text {i}", metadata={"g": g}, id=i) for i, _, g in rows])
    real.add_documents([RealDocument(f"text {i}", metadata={"g": g}, id=i) for i, _, g in rows])
    return mine, real


def pairs(result: list[tuple[Any, float]]) -> list[tuple[str, float]]:
    return [(doc.id, score) for doc, score in result]


def assert_same(mine: Any, real: Any, show: Any = lambda v: v) -> None:
    a, b = outcome(lambda: show(mine())), outcome(lambda: show(real()))
    assert same_outcome(a, b, lambda x, y: x == y or _close(x, y)), (a, b)


def _close(x: Any, y: Any) -> bool:
    if not (isinstance(x, list) and isinstance(y, list) and len(x) == len(y)):
        return False
    if not all(isinstance(item, tuple) and len(item) == 2 for item in x + y):
        return False
    return all(i == j and abs(s - t) <= 1e-9 for (i, s), (j, t) in zip(x, y, strict=True))


K = st.one_of(st.none(), st.integers(-3, 11))
FILTER_GROUP = st.one_of(st.none(), st.integers(0, 2))


@settings(max_examples=40)
@given(corpora(), K, FILTER_GROUP)
def test_similarity_search_with_score_matches(corpus, k, group):
    rows, query, _ = corpus
    mine, real = build(rows, query)
    keep = None if group is None else (lambda d, g=group: d.metadata["g"] == g)
    a = outcome(lambda: pairs(mine.similarity_search_with_score("the query", k=k, filter=keep)))
    b = outcome(lambda: pairs(real.similarity_search_with_score("the query", k=k, filter=keep)))
    assert same_outcome(a, b, _close), (a, b)
    if a.error is None:
        assert a.value == b.value  # exactly: same ids, same order (ties too), same float scores
        assert same_ranking(a.value, b.value)


@settings(max_examples=30)
@given(corpora(), st.integers(-1, 6))
def test_searches_by_vector_and_documents_only_match(corpus, k):
    rows, query, _ = corpus
    mine, real = build(rows, query)
    ids = lambda docs: [d.id for d in docs]  # noqa: E731
    assert_same(lambda: mine.similarity_search_by_vector(query, k),
                lambda: real.similarity_search_by_vector(query, k), ids)
    assert_same(lambda: mine.similarity_search("the query", k), lambda: real.similarity_search("the query", k), ids)
    assert_same(
        lambda: pairs(mine.similarity_search_with_score_by_vector(query, k)),
        lambda: pairs(real.similarity_search_with_score_by_vector(query, k)),
    )


@settings(max_examples=40)
@given(
    corpora(),
    st.integers(-1, 8),
    st.one_of(st.none(), st.integers(0, 11)),
    st.one_of(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), st.floats(0, 1)),
    FILTER_GROUP,
)
def test_mmr_picks_match(corpus, k, fetch_k, lambda_mult, group):
    rows, query, _ = corpus
    mine, real = build(rows, query)
    keep = None if group is None else (lambda d, g=group: d.metadata["g"] == g)
    ids = lambda docs: [d.id for d in docs]  # noqa: E731
    assert_same(
        lambda: mine.max_marginal_relevance_search("the query", k=k, fetch_k=fetch_k, lambda_mult=lambda_mult,
                                                   filter=keep),
        lambda: real.max_marginal_relevance_search("the query", k=k, fetch_k=fetch_k, lambda_mult=lambda_mult,
                                                   filter=keep),
        ids,
    )


@settings(max_examples=40)
@given(
    st.lists(st.lists(COORD, min_size=3, max_size=3), min_size=0, max_size=8),
    st.lists(FREE, min_size=3, max_size=3),
    st.integers(-1, 9),
    st.floats(0, 1),
)
def test_maximal_marginal_relevance_function_matches(vectors, query, k, lambda_mult):
    q = np.array(query, dtype=np.float32)
    a = outcome(lambda: scratch_module.maximal_marginal_relevance(q, vectors, lambda_mult, k))
    b = outcome(lambda: real_mmr(q, vectors, lambda_mult, k))
    assert same_outcome(a, b), (a, b)


@settings(max_examples=30)
@given(st.lists(st.lists(FREE | COORD, min_size=2, max_size=2), min_size=1, max_size=5),
       st.lists(st.lists(FREE | COORD, min_size=2, max_size=2), min_size=1, max_size=5))
def test_cosine_matches_bit_for_bit(x, y):
    a = outcome(lambda: scratch_module.cosine_similarity(x, y).tolist())
    b = outcome(lambda: real_cosine(x, y).tolist())
    assert same_outcome(a, b), (a, b)


def test_cosine_edge_cases_match():
    for x, y in [([], [[1.0]]), ([[1.0, 0.0]], [[1.0, 0.0, 0.0]]), ([[0.0, 0.0]], [[1.0, 1.0]])]:
        a, b = outcome(lambda x=x, y=y: scratch_module.cosine_similarity(x, y).tolist()), outcome(
            lambda x=x, y=y: real_cosine(x, y).tolist())
        assert same_outcome(a, b), (x, y, a, b)


# --------------------------------------------------------------------------- writing

ID = st.one_of(st.none(), st.just(""), st.sampled_from(["a", "b", "c"]))


@settings(max_examples=40)
@given(
    st.lists(st.tuples(st.sampled_from(["cat", "dog cat", "python", "kernel dog"]), ID), max_size=6),
    st.one_of(st.none(), st.lists(st.sampled_from(["x", "y", "a"]), max_size=7)),
)
def test_add_documents_ids_and_store_match(docs, ids):
    mine, real = InMemoryVectorStore(BagOfWords()), RealStore(BagOfWords())
    a = outcome(lambda: mine.add_documents([Document(t, metadata={"n": n}, id=i) for n, (t, i) in enumerate(docs)],
                                           ids=ids))
    b = outcome(lambda: real.add_documents([RealDocument(t, metadata={"n": n}, id=i) for n, (t, i) in
                                            enumerate(docs)], ids=ids))
    assert (a.error is None) == (b.error is None), (a, b)
    if a.error is not None:
        assert a.error[0] == b.error[0] == "ValueError"
        return
    assert len(a.value) == len(b.value)
    for got, expected in zip(a.value, b.value, strict=True):
        if UUID4.match(expected):
            assert UUID4.match(got), got
        else:
            assert got == expected
    fixed = lambda store: {k: v for k, v in store.store.items() if not UUID4.match(k)}  # noqa: E731
    assert fixed(mine) == fixed(real)
    assert len(mine.store) == len(real.store)


@settings(max_examples=30)
@given(st.lists(st.tuples(st.sampled_from(["get", "delete"]),
                          st.one_of(st.none(), st.lists(st.sampled_from(["d1", "d2", "d3", "zz"]), max_size=4))),
                max_size=6))
def test_get_by_ids_and_delete_match(operations):
    mine, real = InMemoryVectorStore(BagOfWords()), RealStore(BagOfWords())
    mine.add_documents([Document(f"cat {i}", id=f"d{i}") for i in range(1, 4)])
    real.add_documents([RealDocument(f"cat {i}", id=f"d{i}") for i in range(1, 4)])
    for op, ids in operations:
        if op == "get":
            assert_same(lambda ids=ids: [d.id for d in mine.get_by_ids(ids)],
                        lambda ids=ids: [d.id for d in real.get_by_ids(ids)])
        else:
            assert mine.delete(ids) is None and real.delete(ids) is None
        assert list(mine.store) == list(real.store)


def test_get_by_ids_is_positional_only_like_the_real_one():
    for store in (InMemoryVectorStore(BagOfWords()), RealStore(BagOfWords())):
        with pytest.raises(TypeError):
            store.get_by_ids(ids=["x"])


def test_metadata_is_shared_on_the_way_in_and_copied_on_the_way_out():
    for store, doc_class in ((InMemoryVectorStore(BagOfWords()), Document), (RealStore(BagOfWords()), RealDocument)):
        doc = doc_class("cat", metadata={"t": 1}, id="m")
        store.add_documents([doc])
        assert store.store["m"]["metadata"] is doc.metadata
        store.similarity_search("cat")[0].metadata["t"] = 99
        store.get_by_ids(["m"])[0].metadata["t"] = 98
        assert store.store["m"]["metadata"] == {"t": 1}


def test_from_texts_and_from_documents_match():
    texts, metas = ["cat", "dog dog", "python"], [{"a": 1}, {"a": 2}, {"a": 3}]
    mine = InMemoryVectorStore.from_texts(texts, BagOfWords(), metas, ids=["x", "y", "z"])
    real = RealStore.from_texts(texts, BagOfWords(), metas, ids=["x", "y", "z"])
    assert mine.store == real.store
    mine2 = InMemoryVectorStore.from_documents([Document("cat", id="q")], BagOfWords())
    real2 = RealStore.from_documents([RealDocument("cat", id="q")], BagOfWords())
    assert mine2.store == real2.store
    assert isinstance(mine, VectorStore) and mine.embeddings is mine.embedding


def test_bad_input_says_what_to_do():
    with pytest.raises(TypeError, match="embed_documents and embed_query"):
        InMemoryVectorStore("not a model")
    store = InMemoryVectorStore(BagOfWords())
    store.add_documents([Document("cat", id="c")])
    with pytest.raises(TypeError, match="filter must be a function"):
        store.similarity_search("cat", filter={"topic": "pets"})
    assert InMemoryVectorStore(BagOfWords()).similarity_search("cat", filter={"x": 1}) == []  # like the real one


def test_relevance_scores_raise_not_implemented_like_the_real_one():
    for store in (InMemoryVectorStore(BagOfWords()), RealStore(BagOfWords())):
        with pytest.raises(NotImplementedError):
            store.similarity_search_with_relevance_scores("cat")


def test_zero_query_raises_value_error_like_the_real_one():
    for store, doc_class in ((InMemoryVectorStore(BagOfWords()), Document), (RealStore(BagOfWords()), RealDocument)):
        store.add_documents([doc_class("cat", id="c")])
        for call in (lambda s=store: s.similarity_search("hello"),
                     lambda s=store: s.max_marginal_relevance_search("hi")):
            with pytest.raises(ValueError, match="NaN values found"):
                call()


# --------------------------------------------------------------------------- dump / load

LEAF = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=4),
                 st.floats(allow_nan=False, allow_infinity=False, width=32))
SPECS = st.recursive(
    LEAF | st.builds(lambda d: ("date", d), st.dates(date(2000, 1, 1), date(2030, 1, 1))),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.builds(lambda items: ("tuple", items), st.lists(inner, max_size=3)),
        st.dictionaries(st.sampled_from(["a", "b", "lc", "__lc_escaped__"]), inner, max_size=3),
        st.builds(lambda text, meta, id_: ("doc", text, meta, id_), st.text(max_size=3),
                  st.dictionaries(st.sampled_from(["p", "q"]), inner, max_size=2),
                  st.one_of(st.none(), st.just(""), st.just("i1"))),
    ),
    max_leaves=8,
)


def realise(spec: Any, doc_class: type) -> Any:
    """Turn a spec into a value, with Documents of the given class (the two stores need their own)."""
    if isinstance(spec, tuple):
        if spec[0] == "date":
            return spec[1]
        if spec[0] == "tuple":
            return tuple(realise(s, doc_class) for s in spec[1])
        _, text, meta, id_ = spec
        return doc_class(text, metadata={k: realise(v, doc_class) for k, v in meta.items()}, id=id_)
    if isinstance(spec, list):
        return [realise(s, doc_class) for s in spec]
    if isinstance(spec, dict):
        return {k: realise(v, doc_class) for k, v in spec.items()}
    return spec


def plain(value: Any) -> Any:
    """A value with any Document (mine or real) as a comparable tuple."""
    if hasattr(value, "page_content"):
        return ("Document", value.page_content, plain(value.metadata), value.id)
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


@settings(max_examples=40)
@given(st.dictionaries(st.sampled_from(["m", "n", "lc"]), SPECS, max_size=3))
def test_dump_writes_the_real_bytes_and_each_loads_the_other(tmp_path_factory, metadata_spec):
    folder = tmp_path_factory.mktemp("dump")
    mine, real = InMemoryVectorStore(BagOfWords()), RealStore(BagOfWords())
    mine.add_documents([Document("cat dog", metadata=realise(metadata_spec, Document), id="d1")])
    real.add_documents([RealDocument("cat dog", metadata=realise(metadata_spec, RealDocument), id="d1")])
    a = outcome(lambda: mine.dump(folder / "mine" / "s.json"))
    b = outcome(lambda: real.dump(str(folder / "real" / "s.json")))
    assert same_outcome(a, b), (a, b)  # an escaped dict holding a non-JSON value: TypeError in both
    if a.error is not None:
        return
    assert (folder / "mine" / "s.json").read_text() == (folder / "real" / "s.json").read_text()
    for path in (folder / "mine" / "s.json", folder / "real" / "s.json"):
        x = outcome(lambda path=path: plain(InMemoryVectorStore.load(path, BagOfWords()).store))
        y = outcome(lambda path=path: plain(RealStore.load(str(path), BagOfWords()).store))
        assert same_outcome(x, y), (x, y)


def test_load_refuses_other_classes_and_placeholders_like_the_real_one(tmp_path):
    entry = {"id": "x", "vector": [1.0, 0.0, 0.0, 0.0], "text": "cat"}
    message = {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", "AIMessage"],
               "kwargs": {"content": "hi"}}
    secret = {"lc": 1, "type": "secret", "id": ["MY_KEY"]}
    cases = {"foreign": message, "secret": secret, "numpy": {"lc": 1, "type": "not_implemented",
                                                             "id": ["numpy", "ndarray"], "repr": "array([1])"}}
    for name, value in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps({"x": entry | {"metadata": {"v": value}}}))
        a = outcome(lambda p=path: plain(InMemoryVectorStore.load(p, BagOfWords()).store))
        b = outcome(lambda p=path: plain(RealStore.load(str(p), BagOfWords()).store))
        assert same_outcome(a, b), (name, a, b)


def test_numpy_vectors_become_placeholders_like_the_real_one(tmp_path):
    class ArrayEmbeddings(BagOfWords):
        def embed_documents(self, texts):
            return [np.array(v) for v in super().embed_documents(texts)]

    for store, doc_class, name in ((InMemoryVectorStore(ArrayEmbeddings()), Document, "mine"),
                                   (RealStore(ArrayEmbeddings()), RealDocument, "real")):
        store.add_documents([doc_class("cat", id="c")])
        store.dump(str(tmp_path / f"{name}.json"))
    assert (tmp_path / "mine.json").read_text() == (tmp_path / "real.json").read_text()
    assert '"not_implemented"' in (tmp_path / "mine.json").read_text()


def test_uuid_ids_are_version_4():
    ids = InMemoryVectorStore(BagOfWords()).add_documents([Document("cat"), Document("dog", id="")])
    assert all(uuid.UUID(i).version == 4 for i in ids)


# --------------------------------------------------------------------------- async: the model's own async methods


class TwoFaced(BagOfWords):
    """A model whose async methods answer differently from its sync ones (the vector reversed),
    so a test can tell which of the two a store called."""

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        return [vector[::-1] for vector in self.embed_documents(texts)]

    async def aembed_query(self, text: str) -> list[float]:
        return self.embed_query(text)[::-1]


TEXTS = ["cat", "dog dog", "python kernel", "cat python", "kernel", "dog cat cat"]


async def test_aadd_documents_awaits_aembed_documents_like_the_real_one():
    mine, real = InMemoryVectorStore(TwoFaced()), RealStore(TwoFaced())
    assert await mine.aadd_documents([Document(t, id=f"i{n}") for n, t in enumerate(TEXTS)]) == [
        f"i{n}" for n in range(len(TEXTS))]
    await real.aadd_documents([RealDocument(t, id=f"i{n}") for n, t in enumerate(TEXTS)])
    assert mine.store == real.store
    assert mine.store["i0"]["vector"] == BagOfWords().embed_query("cat")[::-1]  # the async vector


async def test_async_searches_await_aembed_query_like_the_real_one():
    mine, real = InMemoryVectorStore(TwoFaced()), RealStore(TwoFaced())
    mine.add_documents([Document(t, id=f"i{n}") for n, t in enumerate(TEXTS)])  # sync vectors
    real.add_documents([RealDocument(t, id=f"i{n}") for n, t in enumerate(TEXTS)])
    ids = lambda docs: [d.id for d in docs]  # noqa: E731
    # "cat" is [1, 0, 0, 0]; reversed by the async twin it is [0, 0, 0, 1], the vector of "python"
    for query, reversed_query in [("cat", "python"), ("dog", "kernel"), ("cat dog", "kernel python")]:
        found = pairs(await mine.asimilarity_search_with_score(query, k=None))
        assert found == pairs(await real.asimilarity_search_with_score(query, k=None))
        assert found == pairs(mine.similarity_search_with_score(reversed_query, k=None))
        assert ids(await mine.asimilarity_search(query, k=3)) == ids(await real.asimilarity_search(query, k=3))
        mmr = ids(await mine.amax_marginal_relevance_search(query, k=3, lambda_mult=0.3))
        assert mmr == ids(await real.amax_marginal_relevance_search(query, k=3, lambda_mult=0.3))
        assert mmr == ids(mine.max_marginal_relevance_search(reversed_query, k=3, lambda_mult=0.3))


async def test_a_model_that_only_answers_await_works_on_both_stores():
    class AsyncOnly(BagOfWords):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            raise AssertionError("a sync method was called")

        embed_query = embed_documents

        async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
            return [BagOfWords.embed_query(self, text) for text in texts]

        async def aembed_query(self, text: str) -> list[float]:
            return BagOfWords.embed_query(self, text)

    for store, doc_class in ((InMemoryVectorStore(AsyncOnly()), Document), (RealStore(AsyncOnly()), RealDocument)):
        await store.aadd_documents([doc_class(t, id=f"i{n}") for n, t in enumerate(TEXTS)])
        assert [d.id for d in await store.asimilarity_search("cat", k=1)] == ["i0"]
        assert len(await store.amax_marginal_relevance_search("dog", k=2)) == 2


async def test_afrom_texts_fills_the_store_through_aembed_documents_like_the_real_one():
    """The real store's afrom_texts awaits aadd_texts, which hands the documents to its
    aadd_documents; ours needs the base class's aadd_texts to do the same (notebook 06)."""
    ids = [f"i{n}" for n in range(len(TEXTS))]
    metadatas = [{"n": n} for n in range(len(TEXTS))]
    mine = await InMemoryVectorStore.afrom_texts(TEXTS, TwoFaced(), metadatas, ids=ids)
    real = await RealStore.afrom_texts(TEXTS, TwoFaced(), metadatas, ids=ids)
    assert mine.store == real.store
