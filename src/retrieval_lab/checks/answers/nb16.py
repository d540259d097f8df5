"""Notebook 16's exercise checks: which searches are exact (run on the engine), and the engine's
facet counts, on a store whose only doors are the engine's counting calls."""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from retrieval_lab.checks.allow import Allow
from retrieval_lab.checks.answers.nb13 import stand_in
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
def _passages() -> tuple[list[Any], LookupEmbeddings]:
    """The tuning section's passages (each repeated text once), embedded by their shipped vectors."""
    chunks, vectors = python_reference_chunks(), python_reference_vectors()
    keep = distinct_passages(chunks)
    passages = [chunks[i] for i in keep]
    rows = np.asarray(vectors[keep], dtype=np.float32)
    return passages, LookupEmbeddings({d.page_content: row for d, row in zip(passages, rows, strict=True)})


@functools.cache
def exact_searches_truth() -> dict[str, bool]:
    """Exercise 1 (predict): build the tuning section's three stores again as it does, and run the four searches."""
    import qdrant_edge as edge

    build_now = edge.EdgeOptimizersConfig(indexing_threshold=1)
    walked = edge.HnswIndexConfig(m=16, ef_construct=100, full_scan_threshold=1)
    stores = {name: QdrantEdgeVectorStore(_passages()[1], **config) for name, config in (
        ("default", {}), ("graph", {"optimizers": build_now}),
        ("walked", {"optimizers": build_now, "hnsw_config": walked}))}
    questions = MiniLM().embed_documents([q["question"] for q in load_questions()])

    def top10(name: str, **params: Any) -> list[list[str | None]]:
        return [[d.id for d in stores[name].similarity_search_by_vector(
            v, k=10, search_params=edge.SearchParams(**params))] for v in questions]

    try:
        for store in stores.values():
            store.add_documents(_passages()[0])
            store.shard.optimize()  # the optimisers, now
        exact = top10("default", exact=True)
        return {"a": top10("default", hnsw_ef=1) == exact, "b": top10("graph", hnsw_ef=1) == exact,
                "c": top10("walked", hnsw_ef=1) == exact, "d": top10("walked", exact=True) == exact}
    finally:
        for store in stores.values():
            store.close()

ENGINE_CALLS = ("update", "facet", "count", "info")  # what count_by may call on the shard: an index, counts


def _engine_only(store: Any, label: str) -> Any:
    """A stand-in for ``store`` that holds no reference to it in any attribute: its ``shard``
    offers only ENGINE_CALLS (each a plain function, so no ``__self__`` leads to the shard)."""
    shard = store.shard

    def door(name: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            return getattr(shard, name)(*args, **kwargs)

        call.__name__ = name
        return call

    calls = ", ".join(ENGINE_CALLS)
    return stand_in({"shard": stand_in(
        {name: door(name) for name in ENGINE_CALLS},
        f"the shard's .{{}}: your function may only change the shard and ask it to count ({calls})",
        f"<the store's shard: {calls}>",
    )}, "the store's .{}: count with the engine, through .shard", label)


def count_trial() -> dict[str, Any]:
    """Exercise 2 (extend): ``check_function``'s cases and oracle: (store, key) pairs on fresh stores
    the learner never saw (the six documents, and 37, 260 and 530 passages drawn at random,
    seeded), and Python's Counter over the metadata of the documents put in each store."""
    passages, shipped = _passages()
    draw = random.Random(1515)
    sets = {"<store of 6 documents>": ([Document(t, metadata=m, id=i) for i, t, m in PETS_AND_CODE], BagOfWords())}
    for size in (37, 260, 530):
        sets[f"<store of {size} passages>"] = ([passages[i] for i in draw.sample(range(len(passages)), size)], shipped)
    cases, metadata, stores = [], {}, []
    for label, (docs, embedding) in sets.items():
        stores.append(QdrantEdgeVectorStore.from_documents(docs, embedding))  # open while the oracle lives
        door = _engine_only(stores[-1], label)
        metadata[id(door)] = [dict(d.metadata) for d in docs]
        cases += [(door, key) for key in (("topic", "source") if label.endswith("documents>") else ("topic",))]

    def counts(store: Any, key: str, _open: list = stores) -> dict[str, int]:
        return dict(Counter(meta[key] for meta in metadata[id(store)]))

    counts.__qualname__ = "counts_oracle"  # named so in the refusal message
    return {"cases": cases, "oracle": counts}


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="count_by", modules=["collections"], names=["edge"],
                        refuse=["scroll", "retrieve", "query", "search", "similarity_search", "get_by_ids"]),
}
