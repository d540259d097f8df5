"""LangChain's own unit tests for ``InMemoryVectorStore``, run on the scratch store (notebook 07).

Where they come from: ``libs/core/tests/unit_tests/vectorstores/test_in_memory.py`` in
langchain-ai/langchain, as shipped in the source release of the pinned langchain-core 1.6.2
(``pip download langchain-core==1.6.2 --no-binary :all: --no-deps``; in the sdist the file is
``tests/unit_tests/vectorstores/test_in_memory.py``). MIT licence, copyright LangChain, Inc.
Each test below keeps the original's name, steps and assertions; only the classes differ.

What changed in the port:
- ``InMemoryVectorStore`` and ``Document`` are the scratch ones (``retrieval_lab.scratch``);
- ``_any_id_document`` (from the original's ``tests/unit_tests/stubs.py``) is rebuilt below for
  the scratch ``Document``: a document whose id equals any string, since the store picks uuids;
- the embedding model stays langchain-core's ``DeterministicFakeEmbedding``, as in the original:
  the scratch store takes any model with ``embed_documents``/``embed_query`` and their async
  twins, and a model is not what the course builds here.

Left out, and why:
- ``TestInMemoryStandard`` (the ``VectorStoreIntegrationTests`` suite on the store):
  ``tests/test_standard_suites.py`` already runs that whole suite on the scratch store
  (``TestScratchInMemoryVectorStore``); a second run would only cost test time.
- The original conftest's autouse ``blockbuster`` fixture, which fails a test when code inside
  ``langchain_core`` blocks the event loop: it watches langchain-core's modules only (the scratch
  store is not one of them), and ``blockbuster`` is not a course dependency.

Every test of the file that concerns what the course builds is here: search and search with
score, ids on ``add_texts``/``aadd_texts``, MMR, ``dump``/``load``, filters (on metadata and on
the document id), upserts, ``get_by_ids``, and the store awaiting the model's
``aembed_documents``/``aembed_query``. Several build the store with ``afrom_texts``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from unittest.mock import AsyncMock, Mock

from langchain_core.embeddings.fake import DeterministicFakeEmbedding

from retrieval_lab.scratch import Document, InMemoryVectorStore


class AnyStr(str):
    """A string equal to every string (the original's ``tests/unit_tests/stubs.py``)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, str)

    __hash__ = str.__hash__


def _any_id_document(**kwargs: Any) -> Document:
    """A scratch ``Document`` whose id matches any id the store chose."""
    document = Document(**kwargs)
    document.id = AnyStr()
    return document


async def test_inmemory_similarity_search() -> None:
    """Test end to end similarity search."""
    store = await InMemoryVectorStore.afrom_texts(
        ["foo", "bar", "baz"], DeterministicFakeEmbedding(size=3)
    )

    # Check sync version
    output = store.similarity_search("foo", k=1)
    assert output == [_any_id_document(page_content="foo")]

    # Check async version
    output = await store.asimilarity_search("bar", k=2)
    assert output == [
        _any_id_document(page_content="bar"),
        _any_id_document(page_content="foo"),
    ]


async def test_inmemory_similarity_search_with_score() -> None:
    """Test end to end similarity search with score."""
    store = await InMemoryVectorStore.afrom_texts(
        ["foo", "bar", "baz"], DeterministicFakeEmbedding(size=3)
    )

    output = store.similarity_search_with_score("foo", k=1)
    assert output[0][0].page_content == "foo"

    output = await store.asimilarity_search_with_score("bar", k=2)
    assert output[0][1] > output[1][1]


async def test_add_by_ids() -> None:
    """Test add texts with ids."""
    vectorstore = InMemoryVectorStore(embedding=DeterministicFakeEmbedding(size=6))

    # Check sync version
    ids1 = vectorstore.add_texts(["foo", "bar", "baz"], ids=["1", "2", "3"])
    assert ids1 == ["1", "2", "3"]
    assert sorted(vectorstore.store.keys()) == ["1", "2", "3"]

    # Check async version
    ids2 = await vectorstore.aadd_texts(["foo", "bar", "baz"], ids=["4", "5", "6"])
    assert ids2 == ["4", "5", "6"]
    assert sorted(vectorstore.store.keys()) == ["1", "2", "3", "4", "5", "6"]


async def test_inmemory_mmr() -> None:
    """Test MMR search."""
    texts = ["foo", "foo", "fou", "foy"]
    docsearch = await InMemoryVectorStore.afrom_texts(
        texts, DeterministicFakeEmbedding(size=6)
    )
    # make sure we can k > docstore size
    output = docsearch.max_marginal_relevance_search("foo", k=10, lambda_mult=0.1)
    assert len(output) == len(texts)
    assert output[0] == _any_id_document(page_content="foo")
    assert output[1] == _any_id_document(page_content="fou")

    # Check async version
    output = await docsearch.amax_marginal_relevance_search(
        "foo", k=10, lambda_mult=0.1
    )
    assert len(output) == len(texts)
    assert output[0] == _any_id_document(page_content="foo")
    assert output[1] == _any_id_document(page_content="fou")


def test_inmemory_dump_load(tmp_path: Path) -> None:
    """Test end to end construction and search."""
    embedding = DeterministicFakeEmbedding(size=6)
    store = InMemoryVectorStore.from_texts(["foo", "bar", "baz"], embedding)
    output = store.similarity_search("foo", k=1)

    test_file = str(tmp_path / "test.json")
    store.dump(test_file)

    loaded_store = InMemoryVectorStore.load(test_file, embedding)
    loaded_output = loaded_store.similarity_search("foo", k=1)

    assert output == loaded_output


async def test_inmemory_filter() -> None:
    """Test end to end construction and search with filter."""
    store = await InMemoryVectorStore.afrom_texts(
        ["foo", "bar"],
        DeterministicFakeEmbedding(size=6),
        [{"id": 1}, {"id": 2}],
    )

    # Check sync version
    output = store.similarity_search("fee", filter=lambda doc: doc.metadata["id"] == 1)
    assert output == [_any_id_document(page_content="foo", metadata={"id": 1})]

    # filter with not stored document id
    output = await store.asimilarity_search(
        "baz", filter=lambda doc: doc.metadata["id"] == 3
    )
    assert output == []


async def test_inmemory_filter_by_document_id() -> None:
    """Test filtering by document ID field."""
    embedding = DeterministicFakeEmbedding(size=6)
    store = InMemoryVectorStore(embedding=embedding)

    # Add documents with specific IDs using add_documents
    documents = [
        Document(page_content="first document", id="doc_1"),
        Document(page_content="second document", id="doc_2"),
        Document(page_content="third document", id="doc_3"),
    ]
    store.add_documents(documents)

    # Test filtering by specific document ID
    output = store.similarity_search("document", filter=lambda doc: doc.id == "doc_2")
    assert len(output) == 1
    assert output[0].page_content == "second document"
    assert output[0].id == "doc_2"

    # Test async version
    output = await store.asimilarity_search(
        "document", filter=lambda doc: doc.id in {"doc_1", "doc_3"}
    )
    assert len(output) == 2
    ids = {doc.id for doc in output}
    assert ids == {"doc_1", "doc_3"}

    # Test filtering with non-existent ID
    output = store.similarity_search(
        "document", filter=lambda doc: doc.id == "non_existent"
    )
    assert output == []


async def test_inmemory_upsert() -> None:
    """Test upsert documents."""
    embedding = DeterministicFakeEmbedding(size=2)
    store = InMemoryVectorStore(embedding=embedding)

    # Check sync version
    store.add_documents([Document(page_content="foo", id="1")])
    assert sorted(store.store.keys()) == ["1"]

    # Check async version
    await store.aadd_documents([Document(page_content="bar", id="2")])
    assert sorted(store.store.keys()) == ["1", "2"]

    # update existing document
    await store.aadd_documents(
        [Document(page_content="baz", id="2", metadata={"metadata": "value"})]
    )
    item = store.store["2"]

    baz_vector = embedding.embed_query("baz")
    assert item == {
        "id": "2",
        "text": "baz",
        "vector": baz_vector,
        "metadata": {"metadata": "value"},
    }


async def test_inmemory_get_by_ids() -> None:
    """Test get by ids."""
    store = InMemoryVectorStore(embedding=DeterministicFakeEmbedding(size=3))

    store.add_documents(
        [
            Document(page_content="foo", id="1", metadata={"metadata": "value"}),
            Document(page_content="bar", id="2"),
            Document(page_content="baz", id="3"),
        ],
    )

    # Check sync version
    output = store.get_by_ids(["1", "2"])
    assert output == [
        Document(page_content="foo", id="1", metadata={"metadata": "value"}),
        Document(page_content="bar", id="2"),
    ]

    # Check async version
    output = await store.aget_by_ids(["1", "3", "5"])
    assert output == [
        Document(page_content="foo", id="1", metadata={"metadata": "value"}),
        Document(page_content="baz", id="3"),
    ]


async def test_inmemory_call_embeddings_async() -> None:
    embeddings_mock = Mock(
        wraps=DeterministicFakeEmbedding(size=3),
        aembed_documents=AsyncMock(),
        aembed_query=AsyncMock(),
    )
    store = InMemoryVectorStore(embedding=embeddings_mock)

    await store.aadd_texts("foo")
    await store.asimilarity_search("foo", k=1)

    # Ensure the async embedding function is called
    assert embeddings_mock.aembed_documents.await_count == 1
    assert embeddings_mock.aembed_query.await_count == 1
