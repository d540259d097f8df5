"""Notebook 13's exercise checks: what Qdrant does with ids, stores to compare hits with, and
the threshold retriever's answers with the learner's `kept` cut off from everything else."""

from __future__ import annotations

import logging
import random
import uuid
import warnings
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from retrieval_lab.checks.allow import Allow
from retrieval_lab.data.corpus import PETS_AND_CODE
from retrieval_lab.models.embeddings import BagOfWords

# ----------------------------------------------------------------- Exercise 1: predict


def _point_id(name: str) -> str:
    """The notebook's point_id: a stable UUID for a course id."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"retrieval-lab/{name}"))


def ids() -> dict[str, Any]:
    """The notebook's IDS: the eight values the exercise asks about."""
    a_uuid = _point_id("d1")
    return {"A": "d1", "B": "7", "C": 7, "D": a_uuid, "E": a_uuid.upper(),
            "F": a_uuid.replace("-", ""), "G": -1, "H": 7.0}


def _fresh_store(name: str = "ids", size: int = 4) -> Any:
    from langchain_qdrant import QdrantVectorStore
    from qdrant_client import QdrantClient, models


    client = QdrantClient(":memory:")
    client.create_collection(
        name, vectors_config=models.VectorParams(size=size, distance=models.Distance.COSINE)
    )
    return QdrantVectorStore(client=client, collection_name=name, embedding=BagOfWords())


def what_happens(value: Any) -> str:
    """Add a document with this id to a fresh collection: refused, same or changed?"""
    from langchain_core.documents import Document

    store = _fresh_store()
    try:
        store.add_documents([Document("cat")], ids=[value])
    except Exception:  # Qdrant's ValueError, or pydantic's ValidationError
        return "refused"
    back = store.similarity_search("cat", k=1)[0].metadata["_id"]
    return "same" if back == value and type(back) is type(value) else "changed"


def what_qdrant_does_with_ids() -> dict[str, str]:
    return {name: what_happens(value) for name, value in ids().items()}


# ----------------------------------------------------------------- Exercise 2: with_ids

#: The course's six documents, and three more: an integer id, a metadata key of the learner's
#: own that starts with "_" (only Qdrant's two keys go), and nested metadata.
_EXTRA = (
    (7, "cat python", {"topic": "zoo"}),
    ("n1", "dog kernel", {"topic": "code", "_note": "kept: not one of Qdrant's keys"}),
    ("n2", "kernel kernel cat", {"topic": "code", "tags": {"os": ["linux"]}}),
)


def _documents(make_id: Callable[[Any], Any]) -> list[Any]:
    from langchain_core.documents import Document


    rows = [*PETS_AND_CODE, *_EXTRA]
    return [Document(text, metadata={**meta, "name": str(i)}, id=make_id(i))
            for i, text, meta in rows]


@cache
def _stores() -> tuple[Any, Any]:
    """A Qdrant collection and a real InMemoryVectorStore holding the same documents and ids."""
    from langchain_core.vectorstores import InMemoryVectorStore


    qdrant = _fresh_store("with_ids")
    point_ids = [i if isinstance(i, int) else _point_id(i)
                 for i, _, _ in (*PETS_AND_CODE, *_EXTRA)]
    qdrant.add_documents(_documents(lambda i: None), ids=point_ids)
    memory = InMemoryVectorStore(BagOfWords())
    memory.add_documents(_documents(lambda i: str(i) if isinstance(i, int) else _point_id(i)))
    return qdrant, memory


def in_id_order(docs: Sequence[Any]) -> list[Any]:
    """Documents sorted by id: the two stores may order equal scores differently."""
    return sorted(docs, key=lambda doc: str(doc.id))


def qdrant_hits(query: str) -> list[Any]:
    """Qdrant's hits for the query (all nine documents that share a word with it, at most)."""
    return _stores()[0].similarity_search(query, k=9)


def memory_hits(query: str) -> list[Any]:
    """What InMemoryVectorStore returns for the same documents and ids, in id order."""
    return in_id_order(_stores()[1].similarity_search(query, k=9))


WITH_IDS_CASES = ["cat", "python kernel", "dog", "kernel", "cat dog python kernel"]


# ----------------------------------------------------------------- Exercise 3: the threshold


class ScoresOnly:
    """`corpus` as the colleague may use it: raw scores read before your `kept` ran, nothing
    else (no store, no client behind it)."""

    def __init__(self, answers: dict[str, list[tuple[Any, float]]]) -> None:
        self._answers = answers

    def similarity_search_with_score(self, query: str, k: int = 4, **_: Any) -> list:
        if query not in self._answers:
            raise KeyError(f"the check asked no question {query!r}")
        return [(doc.model_copy(deep=True), score) for doc, score in self._answers[query][:k]]

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"the check hides corpus.{name}: use the raw scores")


def threshold_cases(corpus: Any) -> list[tuple[str, float]]:
    """The four cases the exercise names, thresholds that equal a document's relevance
    exactly, and random ones, drawn afresh at every check (a seed from the operating system),
    so a table of the real retriever's answers made in advance holds none of them."""
    rng = random.Random(random.SystemRandom().randrange(2**64))
    cases = [("cat", 0.8), ("python kernel", 0.9), ("dog", 0.75), ("cat", 0.5)]
    for query in ("cat dog", "kernel", "python", "the python kernel"):
        scored = corpus.similarity_search_with_score(query, k=6)
        exact = sorted({(score + 1) / 2 for _, score in scored})
        if exact:  # an empty store (a cell above failed): the oracle says so, kindly
            cases.append((query, exact[len(exact) // 2]))
        cases.append((query, round(rng.uniform(0.45, 0.95), 3)))
    return cases


def retriever_keeps(corpus: Any) -> Callable[[str, float], list[str]]:
    def keeps(query: str, threshold: float) -> list[str]:
        if not corpus.similarity_search_with_score(query, k=1):
            raise NameError("the store `corpus` holds no documents")  # "run the cells above"
        retriever = corpus.as_retriever(
            search_type="similarity_score_threshold",
            search_kwargs={"score_threshold": threshold, "k": 6},
        )
        # A relevance a hair above 1 warns (see the deep dives), and a threshold that keeps
        # nothing is logged ("No relevant docs were retrieved ..."): the thresholds are drawn
        # afresh at each check, so either would make the check cell's output vary. Silenced.
        before = logging.root.manager.disable
        logging.disable(logging.WARNING)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return sorted(d.metadata["name"] for d in retriever.invoke(query))
        finally:
            logging.disable(before)

    return keeps


def with_scores_only(kept: Callable[[str, float], Any], corpus: Any,
                     cases: Sequence[tuple[str, float]]) -> Callable[[str, float], Any]:
    """The learner's `kept`, run while the notebook's `corpus` is a ScoresOnly holding the raw
    scores of the cases' queries, read now, before any of the learner's code runs."""
    answers = {q: corpus.similarity_search_with_score(q, k=6) for q, _ in cases}

    def run(query: str, threshold: float) -> Any:
        names = getattr(kept, "__globals__", None)
        if names is None:
            return kept(query, threshold)
        real = names.get("corpus")
        names["corpus"] = ScoresOnly(answers)
        try:
            return kept(query, threshold)
        finally:
            names["corpus"] = real

    return run



#: What each exercise's answer may use (checks/allow.py reads its cell before it runs).
ALLOWED = {
    "Exercise 2": Allow(
        answer="with_ids",
        modules=["copy"],
        names=["RealDocument", "Document"],
        refuse=["similarity_search", "similarity_search_with_score", "similarity_search_by_vector",
                "similarity_search_with_relevance_scores", "max_marginal_relevance_search",
                "as_retriever", "invoke", "get_by_ids"],
    ),
    "Exercise 3": Allow(
        answer="kept",
        modules=["math"],
        names=["corpus"],
        refuse=["similarity_search_with_relevance_scores", "as_retriever", "invoke", "query_points",
                "query", "search", "scroll", "retrieve"],
    ),
}
