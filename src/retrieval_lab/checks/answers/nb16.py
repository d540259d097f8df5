"""Notebook 16's exercise checks: which searches are exact (run on the engine), and the engine's
facet counts, on a store whose only doors are the engine's counting calls."""

from __future__ import annotations

import functools
import random
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from retrieval_lab.checks.allow import Allow
from retrieval_lab.data.corpus import (
    PETS_AND_CODE,
    distinct_passages,
    python_reference_chunks,
    python_reference_vectors,
)
from retrieval_lab.evaluation.evaluate import load_questions
from retrieval_lab.models.embeddings import BagOfWords, LookupEmbeddings, MiniLM
from retrieval_lab.scratch.document import Document
from retrieval_lab.scratch.qdrant_engine import QdrantEdgeVectorStore


@functools.cache
def _passages() -> tuple[list[Any], np.ndarray]:
    """The tuning section's passages (each repeated text once) and their shipped vectors."""

    chunks, vectors = python_reference_chunks(), python_reference_vectors()
    keep = distinct_passages(chunks)
    return [chunks[i] for i in keep], np.asarray(vectors[keep], dtype=np.float32)


@functools.cache
def _question_vectors() -> np.ndarray:
    """Notebook 14's questions, embedded by MiniLM (once per process)."""

    texts = [q["question"] for q in load_questions()]
    return np.asarray(MiniLM().embed_documents(texts), dtype=np.float32)


# ----------------------------------------------------------------- Exercise 1: predict


def _shard(folder: str, vectors: np.ndarray, **config: Any) -> Any:
    """A shard of these vectors (ids 0..n-1) with these engine settings, optimised once."""
    import qdrant_edge as edge

    params = edge.EdgeVectorParams(size=vectors.shape[1], distance=edge.Distance.Cosine)
    shard = edge.EdgeShard.create(folder, edge.EdgeConfig(vectors=params, **config))
    points = [edge.Point(i, row.tolist(), {}) for i, row in enumerate(vectors)]
    for start in range(0, len(points), 256):
        shard.update(edge.UpdateOperation.upsert_points(points[start:start + 256]))
    shard.optimize()
    return shard


def _top10(shard: Any, params: Any) -> list[list[int]]:
    import qdrant_edge as edge

    return [
        [hit.id for hit in shard.query(
            edge.QueryRequest(limit=10, query=edge.Query.Nearest(v.tolist()), params=params))]
        for v in _question_vectors()
    ]


@functools.cache
def exact_searches_truth() -> dict[str, bool]:
    """Run the four searches of Exercise 1 on three new stores of the passages."""
    import qdrant_edge as edge

    _, vectors = _passages()
    build_now = edge.EdgeOptimizersConfig(indexing_threshold=1)
    walked = edge.HnswIndexConfig(m=16, ef_construct=100, full_scan_threshold=1)
    with tempfile.TemporaryDirectory() as folder:
        shards = {
            "default": _shard(str(Path(folder) / "a"), vectors),
            "graph": _shard(str(Path(folder) / "b"), vectors, optimizers=build_now),
            "walked": _shard(str(Path(folder) / "c"), vectors, optimizers=build_now,
                             hnsw_config=walked),
        }
        try:
            exact = _top10(shards["default"], edge.SearchParams(exact=True))
            ef1 = edge.SearchParams(hnsw_ef=1)
            return {
                "a": _top10(shards["default"], ef1) == exact,
                "b": _top10(shards["graph"], ef1) == exact,
                "c": _top10(shards["walked"], ef1) == exact,
                "d": _top10(shards["walked"], edge.SearchParams(exact=True)) == exact,
            }
        finally:
            for shard in shards.values():
                shard.close()


# ----------------------------------------------------------------- Exercise 2: extend

#: What the learner's function may call on the shard: changing it (an index) and counting.
ENGINE_CALLS = ("update", "facet", "count", "info")


def _engine_only(store: Any, label: str) -> Any:
    """A stand-in for ``store`` that holds no reference to it in any attribute: its ``shard``
    offers only ENGINE_CALLS (each a plain function, so no ``__self__`` leads to the shard)."""
    shard = store.shard

    def door(name: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            return getattr(shard, name)(*args, **kwargs)

        call.__name__ = name
        return call

    doors = {name: door(name) for name in ENGINE_CALLS}

    class EngineOnlyShard:
        __slots__ = ()

        def __getattr__(self, name: str) -> Any:
            if name in doors:
                return doors[name]
            raise AttributeError(
                f"the check hides the shard's .{name}: your function may only change the "
                f"shard and ask it to count ({', '.join(ENGINE_CALLS)})"
            )

        def __dir__(self) -> list[str]:
            return list(ENGINE_CALLS)

        def __repr__(self) -> str:
            return "<the store's shard: update, facet, count, info>"

    class EngineOnlyStore:
        __slots__ = ()
        shard = EngineOnlyShard()

        def __getattr__(self, name: str) -> Any:
            raise AttributeError(
                f"the check hides the store's .{name}: count with the engine, through .shard"
            )

        def __repr__(self) -> str:
            return label

    return EngineOnlyStore()


def count_trial() -> dict[str, Any]:
    """``check_function``'s cases and oracle for Exercise 2.

    The cases are (store, key) pairs on fresh stores the learner never saw: the six documents,
    and 37, 260 and 530 passages drawn at random (seeded). The oracle is Python's Counter over
    the metadata of the documents put in each store.
    """

    passages, vectors = _passages()
    shipped = LookupEmbeddings({d.page_content: row for d, row in zip(passages, vectors, strict=True)})
    draw = random.Random(1515)
    sets = {
        "<store of 6 documents>": ([Document(t, metadata=m, id=i) for i, t, m in PETS_AND_CODE],
                                   BagOfWords()),
    }
    for size in (37, 260, 530):
        picked = draw.sample(range(len(passages)), size)
        sets[f"<store of {size} passages>"] = ([passages[i] for i in picked], shipped)
    cases, metadata, stores = [], {}, []
    for label, (docs, embedding) in sets.items():
        store = QdrantEdgeVectorStore.from_documents(docs, embedding)
        stores.append(store)  # kept open while the oracle lives (closed when it is collected)
        door = _engine_only(store, label)
        metadata[id(door)] = [dict(d.metadata) for d in docs]
        keys = ("topic", "source") if label.endswith("documents>") else ("topic",)
        cases += [(door, key) for key in keys]

    def counts(store: Any, key: str, _open: list = stores) -> dict[str, int]:
        return dict(Counter(meta[key] for meta in metadata[id(store)]))

    counts.__qualname__ = "counts_oracle"  # named so in the refusal message
    return {"cases": cases, "oracle": counts}

#: What each exercise's answer may use (checks/allow.py reads its cell before it runs).
ALLOWED = {
    "Exercise 2": Allow(
        answer="count_by",
        modules=["collections"],
        names=["edge"],
        refuse=["scroll", "retrieve", "query", "search", "similarity_search", "get_by_ids"],
    ),
}
