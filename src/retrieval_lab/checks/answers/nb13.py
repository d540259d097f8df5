"""Notebook 13's exercise checks: what Qdrant does with ids, stores to compare hits with, and
the threshold retriever's answers with the learner's `kept` cut off from everything else."""

from __future__ import annotations

import random
import uuid
import warnings
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from retrieval_lab.checks.allow import Allow
from retrieval_lab.checks.answers.nb10 import quiet
from retrieval_lab.data.corpus import PETS_AND_CODE
from retrieval_lab.models.embeddings import BagOfWords


def stand_in(doors: dict[str, Any], hidden: str, label: str) -> Any:
    """An object whose only attributes are ``doors`` (it holds nothing else): reading another says
    what is hidden (``hidden`` formatted with its name). Notebook 16's checks use it too."""

    class Only:
        __slots__ = ()

        def __getattr__(self, name: str) -> Any:
            if name in doors:
                return doors[name]
            raise AttributeError(f"the check hides {hidden.format(name)}")

        def __dir__(self) -> list[str]:
            return list(doors)

        def __repr__(self) -> str:
            return label

    return Only()


def _point_id(name: str) -> str:
    """The notebook's point_id: a stable UUID for a course id."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"retrieval-lab/{name}"))


def _fresh_store(name: str = "ids") -> Any:
    from langchain_qdrant import QdrantVectorStore
    from qdrant_client import QdrantClient, models

    client = QdrantClient(":memory:")
    client.create_collection(name, vectors_config=models.VectorParams(size=4, distance=models.Distance.COSINE))
    return QdrantVectorStore(client=client, collection_name=name, embedding=BagOfWords())


def what_qdrant_does_with_ids() -> dict[str, str]:
    """Exercise 1 (predict): add a document with each of the table's ids to a fresh collection: refused,
    or does the id come back from a search the same (and of the same type), or changed?"""
    from langchain_core.documents import Document

    def what_happens(value: Any) -> str:
        store = _fresh_store()
        try:
            store.add_documents([Document("cat")], ids=[value])
        except Exception:  # Qdrant's ValueError, or pydantic's ValidationError
            return "refused"
        back = store.similarity_search("cat", k=1)[0].metadata["_id"]
        return "same" if back == value and type(back) is type(value) else "changed"

    a_uuid = _point_id("d1")
    ids = {"A": "d1", "B": "7", "C": 7, "D": a_uuid, "E": a_uuid.upper(),
           "F": a_uuid.replace("-", ""), "G": -1, "H": 7.0}
    return {name: what_happens(value) for name, value in ids.items()}


#: Exercise 2 (extend, with_ids): the course's six documents, and three more: an integer id, a metadata
#: key of the learner's own that starts with "_" (only Qdrant's two keys go), and nested metadata.
_EXTRA = (
    (7, "cat python", {"topic": "zoo"}),
    ("n1", "dog kernel", {"topic": "code", "_note": "kept: not one of Qdrant's keys"}),
    ("n2", "kernel kernel cat", {"topic": "code", "tags": {"os": ["linux"]}}),
)


@cache
def _stores() -> tuple[Any, Any]:
    """A Qdrant collection and a real InMemoryVectorStore holding the same documents and ids
    (an integer id is a string in a Document)."""
    from langchain_core.documents import Document
    from langchain_core.vectorstores import InMemoryVectorStore

    rows = [*PETS_AND_CODE, *_EXTRA]
    point_ids = [i if isinstance(i, int) else _point_id(i) for i, _, _ in rows]
    docs = [Document(text, metadata={**meta, "name": str(i)}) for i, text, meta in rows]
    qdrant, memory = _fresh_store("with_ids"), InMemoryVectorStore(BagOfWords())
    qdrant.add_documents(docs, ids=point_ids)
    memory.add_documents(docs, ids=[str(i) for i in point_ids])
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


def threshold_cases(corpus: Any) -> list[tuple[str, float]]:
    """Exercise 3 (debug): the four cases the exercise names, thresholds that equal a document's
    relevance exactly, and random ones, drawn afresh at every check (a seed from the operating system),
    so a table of the real retriever's answers made in advance holds none of them."""
    rng = random.Random(random.SystemRandom().randrange(2**64))
    cases = [("cat", 0.8), ("python kernel", 0.9), ("dog", 0.75), ("cat", 0.5)]
    for query in ("cat dog", "kernel", "python", "the python kernel"):
        exact = sorted({(score + 1) / 2 for _, score in corpus.similarity_search_with_score(query, k=6)})
        if exact:  # an empty store (a cell above failed): the oracle says so, kindly
            cases.append((query, exact[len(exact) // 2]))
        cases.append((query, round(rng.uniform(0.45, 0.95), 3)))
    return cases


def retriever_keeps(corpus: Any) -> Callable[[str, float], list[str]]:
    """The oracle: the names the real threshold retriever (k=6) over ``corpus`` keeps."""

    def keeps(query: str, threshold: float) -> list[str]:
        if not corpus.similarity_search_with_score(query, k=1):
            raise NameError("the store `corpus` holds no documents")  # "run the cells above"
        retriever = corpus.as_retriever(search_type="similarity_score_threshold",
                                        search_kwargs={"score_threshold": threshold, "k": 6})
        # a relevance a hair above 1 warns (see the deep dives) and a threshold that keeps nothing
        # logs: with thresholds drawn afresh, either would make the check cell's output vary
        with warnings.catch_warnings(action="ignore"), quiet():
            return sorted(d.metadata["name"] for d in retriever.invoke(query))

    return keeps


def with_scores_only(kept: Callable[[str, float], Any], corpus: Any,
                     cases: Sequence[tuple[str, float]]) -> Callable[[str, float], Any]:
    """The learner's `kept`, run while the notebook's `corpus` is a stand-in whose only door is the raw
    scores of the cases' queries, read now, before any of the learner's code runs (no store behind it)."""
    answers = {q: corpus.similarity_search_with_score(q, k=6) for q, _ in cases}

    def scores(query: str, k: int = 4, **_: Any) -> list:
        if query not in answers:
            raise KeyError(f"the check asked no question {query!r}")
        return [(doc.model_copy(deep=True), score) for doc, score in answers[query][:k]]

    def run(query: str, threshold: float) -> Any:
        names = getattr(kept, "__globals__", None)
        if names is None:
            return kept(query, threshold)
        real, names["corpus"] = names.get("corpus"), stand_in(
            {"similarity_search_with_score": scores}, "corpus.{}: use the raw scores", "<corpus: raw scores only>")
        try:
            return kept(query, threshold)
        finally:
            names["corpus"] = real

    return run


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="with_ids", modules=["copy"], names=["RealDocument", "Document"],
                        refuse=["similarity_search", "similarity_search_with_score", "similarity_search_by_vector",
                                "similarity_search_with_relevance_scores", "max_marginal_relevance_search",
                                "as_retriever", "invoke", "get_by_ids"]),
    "Exercise 3": Allow(answer="kept", modules=["math"], names=["corpus"],
                        refuse=["similarity_search_with_relevance_scores", "as_retriever", "invoke", "query_points",
                                "query", "search", "scroll", "retrieve"]),
}
