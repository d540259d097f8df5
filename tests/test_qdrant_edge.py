"""Notebook 16's QdrantEdgeVectorStore: LangChain's standard suite, a broken copy, and its claims.

The store is the scratch class exported from ``notebooks/16_qdrant_engine.ipynb``, over Qdrant
Edge (``qdrant-edge-py``: Qdrant's Rust engine in this process). First the suite the ordinary
pytest way - all 25 tests, 24 store tests and the guard - then a copy whose results lack
``Document.id`` must fail it, then one test per claim the notebook makes in prose (ids, folders,
filters, MMR, thresholds), so a new engine version that changes one fails here with a name.
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import inspect
import os
import shutil
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import numpy as np
import pytest
from langchain_core.documents import Document as RealDocument
from langchain_core.vectorstores import InMemoryVectorStore as RealInMemoryVectorStore
from langchain_tests.integration_tests import VectorStoreIntegrationTests

from retrieval_lab.checks.standard_suite import run_vectorstore_suite, vectorstore_test_names
from retrieval_lab.data.corpus import PETS_AND_CODE
from retrieval_lab.models.embeddings import BagOfWords, RowEmbeddings
from retrieval_lab.runtime.tempdirs import RAM_FOLDER
from retrieval_lab.scratch import QdrantEdgeVectorStore
from retrieval_lab.scratch.document import Document
from retrieval_lab.scratch.qdrant_engine import NAMESPACE, point_id

edge = pytest.importorskip("qdrant_edge")
ROOT = Path(__file__).resolve().parents[1]

# ----------------------------------------------------------------------------- the standard suite


class TestQdrantEdgeVectorStore(VectorStoreIntegrationTests):
    """All 25: the store passes LangChain's suite, sync and async, like any listed store."""

    @pytest.fixture
    def vectorstore(self) -> QdrantEdgeVectorStore:
        store = QdrantEdgeVectorStore(self.get_embeddings())
        yield store
        store.close()


class NoIdStore(QdrantEdgeVectorStore):
    """A broken copy: results carry the text and metadata but not the id, as langchain-qdrant's do."""

    def _document(self, point):
        return Document(point.payload["page_content"], metadata=point.payload["metadata"])


#: The standard tests that compare the documents a store gives back (the ones the copy must fail).
COMPARES_DOCUMENTS = [
    "test_add_documents",
    "test_deleting_documents",
    "test_deleting_bulk_documents",
    "test_add_documents_with_ids_is_idempotent",
    "test_add_documents_by_id_with_mutation",
    "test_get_by_ids",
    "test_add_documents_documents",
    "test_add_documents_with_existing_ids",
]
COMPARES_DOCUMENTS += [f"{name}_async" for name in COMPARES_DOCUMENTS]


@pytest.mark.parametrize("name", COMPARES_DOCUMENTS)
def test_the_suite_fails_a_copy_whose_results_lack_the_id(name):
    method = getattr(VectorStoreIntegrationTests(), name)
    store = NoIdStore(VectorStoreIntegrationTests.get_embeddings())
    with pytest.raises(AssertionError):
        if inspect.iscoroutinefunction(method):
            asyncio.run(method(store))
        else:
            method(store)


def test_the_in_notebook_runner_agrees_it_fails_exactly_those_tests():
    outcomes = {o.test: o for o in run_vectorstore_suite(NoIdStore)}
    assert sorted(n for n, o in outcomes.items() if not o.passed) == sorted(COMPARES_DOCUMENTS)
    assert all(outcomes[n].status == "failed" for n in COMPARES_DOCUMENTS)
    assert len(outcomes) == len(vectorstore_test_names()) == 24


def test_the_in_notebook_runner_passes_the_whole_suite():
    assert [str(o) for o in run_vectorstore_suite(QdrantEdgeVectorStore) if not o.passed] == []


# ----------------------------------------------------------------------------- ids


def test_a_point_id_is_uuid5_of_the_namespace_that_is_sha1_cut_to_122_bits():
    for doc_id in ("d1", "1", "foo", "notes.txt#3", "ünïcode"):
        made = uuid.UUID(point_id(doc_id))
        digest = hashlib.sha1(NAMESPACE.bytes + doc_id.encode("utf-8")).digest()
        assert made == uuid.UUID(bytes=digest[:16], version=5)
        assert made.version == 5 and made.variant == uuid.RFC_4122
        assert point_id(doc_id) == str(uuid.uuid5(NAMESPACE, doc_id))
    assert point_id("d1") != point_id("d2")


def test_any_string_id_is_kept_and_returned_and_the_engine_holds_its_uuid():
    store = QdrantEdgeVectorStore(BagOfWords())
    ids = ["1", "foo", "notes.txt#3", "a b c"]
    assert store.add_texts(["cat", "dog", "python", "kernel"], ids=ids) == ids
    assert [d.id for d in store.get_by_ids(ids[::-1])] == ids[::-1]
    record = store.shard.retrieve([point_id("foo")], with_payload=True, with_vector=False)[0]
    assert record.id == uuid.UUID(point_id("foo"))
    assert record.payload == {"doc_id": "foo", "page_content": "dog", "metadata": {}}
    store.close()


def test_documents_without_ids_get_fresh_ones_and_a_number_id_becomes_text():
    store = QdrantEdgeVectorStore(BagOfWords())
    made = store.add_documents([Document("cat"), Document("dog", id=7)])
    assert uuid.UUID(made[0]).version == 4 and made[1] == "7"
    assert [d.id for d in store.get_by_ids(made)] == made
    store.close()


def test_wrong_numbers_of_ids_and_empty_lists_are_handled():
    store = QdrantEdgeVectorStore(BagOfWords())
    with pytest.raises(ValueError, match="got 1 ids for 2 documents"):
        store.add_documents([Document("cat"), Document("dog")], ids=["a"])
    assert store.add_documents([]) == [] and store.shard is None
    assert store.delete(["nothing"]) is True and store.delete() is True
    store.close()


# ----------------------------------------------------------------------------- folders


def test_an_empty_store_has_a_temporary_folder_and_no_shard_until_the_first_add():
    store = QdrantEdgeVectorStore(BagOfWords())
    assert store.shard is None and store.path.is_dir() and not any(store.path.iterdir())
    assert store.similarity_search("cat") == [] and store.get_by_ids(["x"]) == []
    if RAM_FOLDER:
        assert store.path.parent == Path(RAM_FOLDER)
    store.add_texts(["cat"])
    assert (store.path / "edge_config.json").is_file()
    store.close()


def test_close_and_garbage_collection_delete_the_temporary_folder():
    store = QdrantEdgeVectorStore(BagOfWords())
    store.add_texts(["cat"])
    folder = store.path
    store.close()
    store.close()  # a second close does nothing
    assert not folder.exists()
    other = QdrantEdgeVectorStore(BagOfWords())
    other.add_texts(["dog"])
    folder = other.path
    del other
    gc.collect()
    assert not folder.exists()


def test_the_memory_folder_is_used_only_when_it_has_a_gigabyte_free(tmp_path):
    from retrieval_lab.runtime.tempdirs import roomy as _roomy

    assert not _roomy(str(tmp_path / "missing"))
    free = os.statvfs(tmp_path)
    assert _roomy(str(tmp_path)) == (free.f_bavail * free.f_frsize >= 2**30)
    if RAM_FOLDER is not None:
        assert RAM_FOLDER == "/dev/shm" and _roomy("/dev/shm")


def test_folders_of_processes_that_are_gone_are_deleted_by_the_next_store():
    """A killed kernel (nbval stops kernels at once) runs no finalizer: its folders are swept."""
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    parent = Path(RAM_FOLDER or tempfile.gettempdir())
    dead = parent / f"qdrant-edge-{gone.stdout.strip()}-leftover"
    alive = parent / f"qdrant-edge-{os.getpid()}-mine"
    for folder in (dead, alive):
        (folder / "segments").mkdir(parents=True)
    store = QdrantEdgeVectorStore(BagOfWords())
    assert store.path.name.startswith(f"qdrant-edge-{os.getpid()}-")
    assert not dead.exists() and alive.exists()
    shutil.rmtree(alive)
    store.close()


def test_a_store_on_a_path_survives_closing_and_is_opened_again(tmp_path):
    first = QdrantEdgeVectorStore.from_texts(
        ["cat cat", "python kernel"], BagOfWords(), [{"topic": "pets"}, {"topic": "code"}],
        ids=["d1", "d3"], path=tmp_path / "store",
    )
    first.close()
    assert (tmp_path / "store" / "edge_config.json").is_file()  # a given path is never deleted
    again = QdrantEdgeVectorStore(BagOfWords(), path=tmp_path / "store")
    assert again.shard is not None
    assert [d.id for d in again.similarity_search("cat", k=1)] == ["d1"]
    assert again.get_by_ids(["d3"])[0].metadata == {"topic": "code"}
    again.close()


@pytest.mark.slow
def test_without_qdrant_edge_the_scratch_package_imports_and_the_store_says_what_to_install():
    code = (
        "import sys; sys.modules['qdrant_edge'] = None\n"
        "import retrieval_lab.scratch as s\n"
        "from retrieval_lab.models.embeddings import BagOfWords\n"
        "try:\n"
        "    s.QdrantEdgeVectorStore(BagOfWords())\n"
        "except ImportError as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install qdrant-edge-py==0.9.0" in out.stdout


# ----------------------------------------------------------------------------- search and filters


def _six() -> QdrantEdgeVectorStore:
    return QdrantEdgeVectorStore.from_texts(
        [t for _, t, _ in PETS_AND_CODE], BagOfWords(), [m for _, _, m in PETS_AND_CODE],
        ids=[i for i, _, _ in PETS_AND_CODE],
    )


def _real_six() -> RealInMemoryVectorStore:
    return RealInMemoryVectorStore.from_documents(
        [RealDocument(t, metadata=m, id=i) for i, t, m in PETS_AND_CODE], BagOfWords()
    )


@pytest.mark.parametrize("query", ["cat", "cat cat dog", "python kernel", "dog"])
@pytest.mark.parametrize("conditions", [None, {"topic": "pets"}, {"topic": "code", "source": "jupyter.md"}])
def test_search_and_dict_filters_agree_with_the_real_in_memory_store(query, conditions):
    store, real = _six(), _real_six()
    kwargs = {} if conditions is None else {"filter": conditions}
    mine = {d.id: round(s, 6) for d, s in store.similarity_search_with_score(query, k=6, **kwargs)}
    real_filter = None if conditions is None else (
        lambda doc: all(doc.metadata.get(k) == v for k, v in conditions.items())
    )
    theirs = {d.id: round(s, 6) for d, s in real.similarity_search_with_score(query, k=6, filter=real_filter)}
    assert mine == theirs
    store.close()


def test_a_function_or_an_inexact_value_is_refused_as_a_filter_even_on_an_empty_store():
    store = QdrantEdgeVectorStore(BagOfWords())
    for bad in (lambda doc: True, {"score": 0.5}, {"topic": ["a", "b"]}, "topic=pets"):
        with pytest.raises(TypeError, match="cannot run inside"):
            store.similarity_search("cat", filter=bad)
    store.close()


def test_a_qdrant_edge_filter_passes_through_and_relevance_maps_the_cosine():
    store = _six()
    code = edge.Filter(must=[edge.FieldCondition(key="metadata.topic", match=edge.MatchValue("code"))])
    assert sorted(d.id for d in store.similarity_search("python", k=6, filter=code)) == ["d3", "d5"]
    relevance = store._select_relevance_score_fn()
    assert [relevance(s) for s in (-1.0, 0.0, 1.0)] == [0.0, 0.5, 1.0]
    store.close()


def test_mmr_by_the_engine_is_similarity_at_one_and_diversity_at_zero():
    store = QdrantEdgeVectorStore.from_texts(
        ["cat cat", "cat cat", "cat dog", "dog"], BagOfWords(), ids=["a", "b", "c", "d"]
    )
    relevant = store.max_marginal_relevance_search("cat", k=2, lambda_mult=1.0)
    assert [d.page_content for d in relevant] == ["cat cat", "cat cat"]
    diverse = store.max_marginal_relevance_search("cat", k=2, lambda_mult=0.0)
    assert [d.page_content for d in diverse] == ["cat cat", "dog"]
    retriever = store.as_retriever(search_type="mmr", search_kwargs={"k": 2, "lambda_mult": 0.0})
    assert [d.page_content for d in retriever.invoke("cat")] == ["cat cat", "dog"]
    store.close()


# ----------------------------------------------------------------------------- the engine's thresholds


def _random_store(n: int, d: int = 384, **config) -> QdrantEdgeVectorStore:
    rng = np.random.default_rng(0)
    rows = rng.standard_normal((n, d), dtype=np.float32)
    store = QdrantEdgeVectorStore(RowEmbeddings(rows, as_lists=False), **config)
    texts = [str(i) for i in range(n)]
    store.add_texts(texts, ids=texts, batch_size=2000)
    store.shard.optimize()
    return store


@pytest.mark.slow
def test_qdrant_edge_indexes_a_segment_only_above_10_000_kb_of_vectors_by_default():
    """The notebook says Edge's default indexing_threshold is below the server's 20,000 KB."""
    small = _random_store(6_000)  # 6,000 x 384 x 4 B = 9,000 KB: stays a plain segment
    assert small.shard.info().indexed_vectors_count == 0
    small.close()
    big = _random_store(
        7_000, hnsw_config=edge.HnswIndexConfig(m=4, ef_construct=8, full_scan_threshold=10_000)
    )  # 10,500 KB: the optimiser builds a graph
    assert big.shard.info().indexed_vectors_count == 7_000
    big.close()


def test_below_full_scan_threshold_the_planner_scans_and_hnsw_ef_below_k_is_raised_to_k():
    graph = dict(optimizers=edge.EdgeOptimizersConfig(indexing_threshold=1))
    scanned = _random_store(
        600, d=32, hnsw_config=edge.HnswIndexConfig(m=4, ef_construct=8, full_scan_threshold=10_000), **graph
    )
    walked = _random_store(
        600, d=32, hnsw_config=edge.HnswIndexConfig(m=4, ef_construct=8, full_scan_threshold=1), **graph
    )
    queries = np.random.default_rng(1).standard_normal((30, 32))

    def top(store, **params):
        search = edge.SearchParams(**params)
        return [[d.id for d in store.similarity_search_by_vector(q, k=10, search_params=search)] for q in queries]

    exact = top(scanned, exact=True)
    assert walked.shard.info().indexed_vectors_count == scanned.shard.info().indexed_vectors_count == 600
    assert top(scanned, hnsw_ef=10) == exact  # a graph exists, and is not walked
    assert top(walked, hnsw_ef=1) == top(walked, hnsw_ef=10)
    scanned.close()
    walked.close()


# ----------------------------------------------------------------------------- make bench


@pytest.mark.slow
def test_the_benchmarks_qdrant_edge_table_runs_on_tiny_sizes(capsys, search_scaling):
    bench = search_scaling
    bench.main(["--edge-only", "--edge-sizes", "200,400", "--dim", "8", "--queries", "5"])
    out = capsys.readouterr().out
    for store in ("Qdrant Edge exact", "MatrixVectorStore", "FAISS IndexFlatIP (exact)"):
        assert f"{store}: top-10 == FAISS flat top-10 on 5/5 queries" in out
    assert "Qdrant Edge HNSW (m=16, ef_construct=100, hnsw_ef=64)" in out
    assert "recall@10" in out and "Qdrant Edge exact / MatrixVectorStore" in out
