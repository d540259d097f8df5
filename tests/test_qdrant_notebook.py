"""What notebook 13 teaches about Qdrant, checked on the pinned langchain-qdrant and qdrant-client.

Each test is one claim of the notebook, run in Qdrant's local mode (no server, no network), so a
new version that changes the behaviour fails here with a name, not as an nbval diff.
"""

from __future__ import annotations

import uuid
import warnings
from pathlib import Path

import pytest
from langchain_core.documents import Document as RealDocument
from langchain_core.indexing import InMemoryRecordManager as RealInMemoryRecordManager
from langchain_core.indexing import index as real_index

from retrieval_lab.models.embeddings import BagOfWords

qdrant_client = pytest.importorskip("qdrant_client")
langchain_qdrant = pytest.importorskip("langchain_qdrant")
models = qdrant_client.models
ROOT = Path(__file__).resolve().parents[1]


def new_store(name: str = "pets", client=None):
    client = client or qdrant_client.QdrantClient(":memory:")
    client.create_collection(name, vectors_config=models.VectorParams(size=4, distance=models.Distance.COSINE))
    return langchain_qdrant.QdrantVectorStore(client=client, collection_name=name, embedding=BagOfWords())


def stable_id(name: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, name))


def test_a_string_id_that_is_not_a_uuid_is_refused_and_nothing_is_written():
    store = new_store()
    with pytest.raises(ValueError, match="Point id d1 is not a valid UUID"):
        store.add_documents([RealDocument("cat", id=stable_id("ok")), RealDocument("dog", id="d1")])
    assert store.client.count("pets").count == 0


def test_returned_documents_carry_the_id_in_metadata_not_in_document_id():
    store = new_store()
    store.add_documents([RealDocument("cat cat", id=stable_id("d1"), metadata={"topic": "pets"})])
    hit = store.similarity_search("cat", k=1)[0]
    found = store.get_by_ids([stable_id("d1")])[0]
    for doc in (hit, found):
        assert doc.id is None
        assert doc.metadata == {"topic": "pets", "_id": stable_id("d1"), "_collection_name": "pets"}


def test_unsigned_integer_ids_come_back_as_integers():
    store = new_store()
    store.add_documents([RealDocument("python kernel")], ids=[7])
    assert store.similarity_search("python", k=1)[0].metadata["_id"] == 7


def test_the_payload_holds_page_content_and_metadata():
    store = new_store()
    store.add_documents([RealDocument("cat dog", id=stable_id("d2"), metadata={"topic": "pets"})])
    point = store.client.retrieve("pets", [stable_id("d2")])[0]
    assert point.payload == {"page_content": "cat dog", "metadata": {"topic": "pets"}}


def test_a_lambda_filter_fails_and_a_qdrant_filter_is_applied():
    store = new_store()
    store.add_documents(
        [
            RealDocument(t, id=stable_id(t), metadata={"topic": topic})
            for t, topic in [("cat cat", "pets"), ("cat dog", "pets"), ("python kernel", "code")]
        ]
    )
    with pytest.raises(AttributeError, match="must"):
        store.similarity_search("cat", filter=lambda doc: True)
    code = models.Filter(must=[models.FieldCondition(key="metadata.topic", match=models.MatchValue(value="code"))])
    assert [d.page_content for d in store.similarity_search("cat", k=3, filter=code)] == ["python kernel"]


def test_a_payload_index_in_local_mode_warns_that_it_has_no_effect(monkeypatch):
    from qdrant_client.common import client_warnings

    monkeypatch.setattr(client_warnings, "SEEN_MESSAGES", set())  # it warns once per process
    store = new_store()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        store.client.create_payload_index("pets", "metadata.topic", field_schema=models.PayloadSchemaType.KEYWORD)
    assert any("Payload indexes have no effect in the local Qdrant" in str(w.message) for w in caught)


def test_the_relevance_function_is_cosine_plus_one_over_two_and_the_threshold_mode_runs():
    store = new_store()
    store.add_documents([RealDocument(t, id=stable_id(t)) for t in ("cat cat", "cat dog", "dog dog")])
    relevance = store._select_relevance_score_fn()
    assert [relevance(s) for s in (-1.0, 0.0, 1.0)] == [0.0, 0.5, 1.0]
    kept = store.as_retriever(
        search_type="similarity_score_threshold", search_kwargs={"score_threshold": 0.8, "k": 3}
    ).invoke("cat")
    assert sorted(d.page_content for d in kept) == ["cat cat", "cat dog"]


def test_an_on_disk_collection_survives_closing_the_client(tmp_path):
    client = qdrant_client.QdrantClient(path=str(tmp_path))
    new_store(client=client).add_documents([RealDocument("cat", id=stable_id("c"))])
    with pytest.raises(RuntimeError, match="already accessed"):
        qdrant_client.QdrantClient(path=str(tmp_path))
    client.close()
    reopened = qdrant_client.QdrantClient(path=str(tmp_path))
    assert reopened.count("pets").count == 1
    reopened.close()


def test_index_with_a_sha256_key_encoder_writes_ids_qdrant_refuses():
    with pytest.raises(ValueError, match="is not a valid UUID"):
        real_index(
            [RealDocument("cat", metadata={"source": "a"})],
            RealInMemoryRecordManager(namespace="n"),
            new_store(),
            cleanup="incremental",
            source_id_key="source",
            key_encoder="sha256",
        )


def test_index_keeps_a_qdrant_store_in_sync():
    store = new_store()
    records = RealInMemoryRecordManager(namespace="qdrant/pets")
    records.create_schema()

    def key(doc):
        return stable_id(doc.page_content + repr(sorted(doc.metadata.items())))

    def sync(files, cleanup):
        docs = [RealDocument(t, metadata={"source": f}) for f, texts in files.items() for t in texts]
        return real_index(docs, records, store, cleanup=cleanup, source_id_key="source", key_encoder=key)

    files = {"a": ["cat cat", "cat dog"], "b": ["python kernel"]}
    assert sync(files, "incremental")["num_added"] == 3
    assert sync(files, "incremental") == {"num_added": 0, "num_updated": 0, "num_skipped": 3, "num_deleted": 0}
    files["a"] = ["cat cat", "dog dog"]
    assert sync(files, "incremental") == {"num_added": 1, "num_updated": 0, "num_skipped": 2, "num_deleted": 1}
    del files["b"]
    assert sync(files, "full") == {"num_added": 0, "num_updated": 0, "num_skipped": 2, "num_deleted": 1}
    assert store.client.count("pets").count == 2


@pytest.mark.slow
def test_the_benchmarks_qdrant_table_runs_on_tiny_sizes(capsys, search_scaling):
    bench = search_scaling
    bench.main(["--qdrant-only", "--qdrant-sizes", "50,100", "--dim", "8", "--queries", "3"])
    out = capsys.readouterr().out
    for store in ("Qdrant local mode (:memory:)", "InMemoryVectorStore (real)", "MatrixVectorStore"):
        assert f"{store} top-4 == numpy's exact top-4 on 5/5 queries" in out
    assert "Qdrant local / MatrixVectorStore" in out


def test_a_collection_is_indexed_with_hnsw_only_past_indexing_threshold_kilobytes():
    store = new_store()
    config = store.client.get_collection("pets").config
    assert config.optimizer_config.indexing_threshold == 20_000  # KB: the server's default
    description = models.OptimizersConfigDiff.model_fields["indexing_threshold"].description
    assert "in kilobytes" in description and "1kB = 1 vector of size 256" in description


def test_uuid5_is_sha1_cut_to_122_bits_whatever_name_it_hashes():
    import hashlib

    name = hashlib.sha256(b"cat cat").hexdigest()
    sha1 = hashlib.sha1(uuid.NAMESPACE_URL.bytes + name.encode()).digest()
    assert uuid.UUID(bytes=sha1[:16], version=5) == uuid.uuid5(uuid.NAMESPACE_URL, name)
    free = uuid.UUID(int=0, version=5).int ^ uuid.UUID(int=(1 << 128) - 1, version=5).int
    assert bin(free).count("1") == 122
