"""Notebook 07's exercise checks: the real store, the real MMR, the standard suite and more."""

from __future__ import annotations

from typing import Any

import numpy as np
from langchain_core.documents import Document as RealDocument
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_core.vectorstores.utils import maximal_marginal_relevance

from retrieval_lab.checks.allow import Allow
from retrieval_lab.checks.answers import fresh_seed, is_uuid4
from retrieval_lab.checks.standard_suite import run_vectorstore_suite, suite_report, vectorstore_test_names
from retrieval_lab.data.corpus import CAT_DOG_PLANE
from retrieval_lab.models.embeddings import BagOfWords
from retrieval_lab.scratch import Document


def what_the_store_does() -> dict[str, Any]:
    """Exercise 1 (predict): the five things the exercise asks, on a fresh real store of the plane."""
    store = InMemoryVectorStore(BagOfWords(["cat", "dog"]))
    store.add_documents([RealDocument(text, id=i) for i, text in CAT_DOG_PLANE])
    counts = {name: len(docs) for name, docs in {
        "filtered": store.similarity_search("cat", k=4, filter=lambda d: d.id >= "c4"),
        "sliced": store.similarity_search("dog", k=-2),
        "short": store.max_marginal_relevance_search("cat", k=4, fetch_k=3),
    }.items()}
    second = store.max_marginal_relevance_search("cat", k=2, lambda_mult=0)[1].id
    store.add_documents([RealDocument("dog", id="c1"), RealDocument("cat")])
    return counts | {"second": second, "stored": len(store.store)}


def mmr(query_vector, vectors, k, lambda_mult) -> list[int]:
    """Exercise 2 (debug)'s oracle: the real ``maximal_marginal_relevance``'s picks."""
    return maximal_marginal_relevance(np.array(query_vector), vectors, lambda_mult=lambda_mult, k=k)


def mmr_cases(fresh: bool = True) -> list[tuple[list[float], list[list[float]], int, float]]:
    """The plane (with its tie), and random corpora drawn here (with a seed drawn anew at each
    check), where the third and later picks depend on every document picked so far."""
    plane = [[2.0, 1.0], [0.0, 1.0], [3.0, 1.0], [1.0, 3.0], [3.0, 1.0], [1.0, 1.0]]
    cases = [
        ([1.0, 0.0], plane, 2, 0.25), ([1.0, 0.0], plane, 3, 0.25), ([1.0, 1.0], plane, 4, 0.3),
        ([0.0, 1.0], plane, 6, 0.1), ([1.0, 0.0], plane, 9, 1.0),
        ([2.0, 1.0, 0.5], [[1.0, 0.5, 0.0], [0.0, 1.0, 1.0], [1.0, 0.4, 0.1], [0.2, 0.1, 1.0]], 4, 0.5),
    ]
    rng = np.random.default_rng(fresh_seed(None if fresh else 707))
    for _ in range(10):
        size, count = int(rng.integers(2, 6)), int(rng.integers(4, 10))
        vectors = rng.normal(size=(count, size)).round(3).tolist()
        query = rng.normal(size=size).round(3).tolist()
        cases.append((query, vectors, int(rng.integers(3, count + 2)), float(rng.choice([0.0, 0.2, 0.4, 0.5, 0.7]))))
    return cases


def safe_store_problems(store_class: type) -> str | None:
    """Exercise 3 (debug): add_documents wrote its ids on the caller's documents. Its own
    add_documents, mended: LangChain's standard tests, then what the debug is about, called
    directly (seed 77): ids chosen as the real store chooses them, documents untouched, and each
    entry the text's, under its id."""
    if not isinstance(store_class, type):
        return f"expected a store class, got {type(store_class).__name__}"
    if "add_documents" not in vars(store_class):
        return (f"{store_class.__name__} has no add_documents of its own: the exercise is to mend "
                "the one it wrote")
    sync = vectorstore_test_names(include_async=False)
    outcomes = run_vectorstore_suite(store_class, tests=sync) + run_vectorstore_suite(
        store_class, tests=[n for n in vectorstore_test_names(include_async=True) if n not in sync])
    if any(o.status == "not attempted" for o in outcomes):
        raise NotImplementedError
    if not all(o.status in ("passed", "skipped") for o in outcomes):
        return suite_report(outcomes, only_failed=True)
    rng = np.random.default_rng(77)
    for n in range(6):
        count = int(rng.integers(1, 5))
        docs = [Document(f"cat {'dog ' * i}", metadata={"n": i},
                         id=None if rng.random() < 0.5 else f"own-{n}-{i}") for i in range(count)]
        ids = [f"given-{n}-{i}" for i in range(count)] if n % 3 == 1 else None
        before = [(d.id, d.page_content, dict(d.metadata)) for d in docs]
        store = store_class(BagOfWords())
        call = f"add_documents({[(d.page_content, d.id) for d in docs]}, ids={ids})"
        returned = store.add_documents(docs, ids=ids) if ids else store.add_documents(docs)
        if [(d.id, d.page_content, dict(d.metadata)) for d in docs] != before:
            return f"{call} changed the documents it was handed"
        if not isinstance(returned, list) or len(returned) != count:
            return f"{call} returned {returned!r:.80}, not one id per document"
        for position, (doc, id_) in enumerate(zip(docs, returned, strict=True)):
            wanted = ids[position] if ids else doc.id
            if wanted is not None and id_ != wanted:
                return f"{call}: document {position} belongs under {wanted!r}, not {id_!r}"
            if wanted is None and not is_uuid4(id_):  # the real store draws a new uuid4
                return f"{call}: document {position} has no id, and {id_!r} is not a uuid4"
            entry = store.store.get(id_)
            want = {"id": id_, "text": doc.page_content, "metadata": doc.metadata}
            if not entry or {key: entry.get(key) for key in want} != want:
                return f"{call}: the store's entry under {id_!r} is {entry!r:.80}"
            if not np.allclose(entry.get("vector"), BagOfWords().embed_query(doc.page_content)):
                return f"{call}: the vector stored under {id_!r} is not the text's"
    return None


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="fast_mmr", modules=["numpy", "math"], names=["cosine_similarity"],
                        refuse=["maximal_marginal_relevance", "max_marginal_relevance_search",
                                "max_marginal_relevance_search_by_vector", "mmr_trace"]),
    "Exercise 3": Allow(answer="SafeStore", modules=["uuid", "copy"], names=["InMemoryVectorStore", "Document"],
                        refuse=["add_documents", "aadd_documents", "add_texts", "aadd_texts", "upsert", "aupsert"]),
}
