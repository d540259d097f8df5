"""Notebook 06's exercise checks: the real relevance functions, a mended store, a dict store."""

from __future__ import annotations

import math
import random
import uuid
import warnings
from typing import Any

import numpy as np

from retrieval_lab.checks.allow import Allow
from retrieval_lab.models.embeddings import BagOfWords, LookupEmbeddings

# ----------------------------------------------------------------- Exercise 1: predict

RELEVANCE_CASES = {  # prediction -> (the real base class's function, its input)
    "cosine 2.0": ("_cosine_relevance_score_fn", 2.0),
    "euclidean 2.0": ("_euclidean_relevance_score_fn", 2.0),
    "inner product 0.3": ("_max_inner_product_relevance_score_fn", 0.3),
    "inner product -0.3": ("_max_inner_product_relevance_score_fn", -0.3),
    "inner product -0.9": ("_max_inner_product_relevance_score_fn", -0.9),
}


def what_the_functions_return() -> dict[str, float]:
    from langchain_core.vectorstores import VectorStore

    return {case: getattr(VectorStore, name)(value)
            for case, (name, value) in RELEVANCE_CASES.items()}


def within_a_hundredth(mine: Any, real: float) -> bool:
    return (isinstance(mine, int | float) and not isinstance(mine, bool)
            and abs(mine - real) <= 0.01)


# ----------------------------------------------------------------- Exercise 2: the relevance


def relevance(similarity: float) -> float:
    """The straight line from 0 (opposite, -1) to 1 (the same direction, 1)."""
    return (similarity + 1.0) / 2.0


def _scored_store(relevance_fn, table: dict[str, list[float]]):
    """A real VectorStore on a list whose scores are cosine similarities, best first."""
    from langchain_core.documents import Document
    from langchain_core.vectorstores import VectorStore


    class ScoredListStore(VectorStore):
        def __init__(self) -> None:
            self.embedding, self.items = LookupEmbeddings(table), []

        def add_documents(self, documents, **kwargs):
            vectors = self.embedding.embed_documents([d.page_content for d in documents])
            self.items += list(zip(documents, vectors, strict=True))
            return [d.id for d in documents]

        def similarity_search(self, query, k=4, **kwargs):
            return [doc for doc, _ in self.similarity_search_with_score(query, k)]

        def similarity_search_with_score(self, query, k=4, **kwargs):
            q = self.embedding.embed_query(query)

            def cosine(v):
                return sum(a * b for a, b in zip(q, v, strict=True)) / (
                    math.hypot(*q) * math.hypot(*v))

            pairs = [(doc, cosine(v)) for doc, v in self.items]
            return sorted(pairs, key=lambda pair: pair[1], reverse=True)[:k]

        def _select_relevance_score_fn(self):
            return relevance_fn

        @classmethod
        def from_texts(cls, texts, embedding, metadatas=None, **kwargs):
            raise NotImplementedError

    store = ScoredListStore()
    store.add_documents([Document(text, id=text) for text in table])
    return store


WEATHER = {"hot": [1.0, 0.0], "warm": [0.8, 0.6], "mild": [0.0, 1.0],
           "cool": [-0.6, 0.8], "cold": [-1.0, 0.0]}


def _tables() -> list[tuple[str, dict[str, list[float]]]]:
    """(query, vectors): the notebook's weather, then stores drawn here the learner never sees."""
    tables = [("hot", WEATHER)]
    # a seed drawn anew at each check, so no table made with the oracle beforehand holds
    # them; a store whose rounded cosine passes 1 or -1 is drawn again (the real method
    # would warn at the right line's relevance too)
    rng = np.random.default_rng(random.SystemRandom().randrange(2**32))
    while len(tables) < 7:
        n = len(tables) - 1
        size, count = int(rng.integers(2, 6)), int(rng.integers(4, 9))
        vectors = rng.normal(size=(count + 1, size))
        table = {f"t{n}-{i}": [float(x) for x in v] for i, v in enumerate(vectors)}
        query = table[f"t{n}-0"]
        if all(-1.0 <= _store_cosine(query, v) <= 1.0 for v in table.values()):
            tables.append((f"t{n}-0", table))
    return tables


def _store_cosine(q: list[float], v: list[float]) -> float:
    """The cosine as the exercise's store computes it."""
    return sum(a * b for a, b in zip(q, v, strict=True)) / (math.hypot(*q) * math.hypot(*v))


def relevance_problems(attempt) -> str | None:
    """The mended store: relevance on the line for every score, no warning, the ranking kept."""

    for query, table in _tables():
        store = _scored_store(attempt, table)
        raw = store.similarity_search_with_score(query, k=len(table))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            scored = store.similarity_search_with_relevance_scores(query, k=len(table))
        for (doc, similarity), (_, got) in zip(raw, scored, strict=True):
            if not isinstance(got, int | float) or not abs(got - relevance(similarity)) <= 1e-9:
                return (f"for a cosine similarity of {similarity:.3f} ({doc.id!r} against "
                        f"{query!r}) your relevance {got!r:.30} is not on the straight line "
                        "from 0 (at -1) to 1 (at 1)")
        if caught:
            return "the real method warned: a relevance is outside [0, 1]"
    rng = np.random.default_rng(random.SystemRandom().randrange(2**32))
    for similarity in [-1.0, 1.0, 0.0, *rng.uniform(-1.0, 1.0, size=20)]:
        got = attempt(float(similarity))
        if not isinstance(got, int | float) or not abs(got - relevance(similarity)) <= 1e-9:
            return (f"for a cosine similarity of {similarity:.3f} your relevance {got!r:.30} "
                    "is not on the straight line from 0 (at -1) to 1 (at 1)")
    return None


# ----------------------------------------------------------------- Exercise 3: add_texts


def dict_store(add_texts) -> type:
    """A real VectorStore subclass whose only way to add documents is this add_texts."""
    from langchain_core.vectorstores import VectorStore

    def from_texts(cls, texts, embedding, metadatas=None, **kwargs):
        store = cls()
        store.add_texts(texts, metadatas=metadatas, **kwargs)
        return store

    return type("DictStore", (VectorStore,), {
        "__init__": lambda self: setattr(self, "store", {}),
        "add_texts": add_texts,
        "get_by_ids": lambda self, ids, /: [self.store[i] for i in ids if i in self.store],
        "similarity_search": lambda self, query, k=4, **kwargs: [],
        "from_texts": classmethod(from_texts),
    })


def add_texts(self, texts, metadatas=None, *, ids=None, **kwargs) -> list[str]:
    """The reference: each text as a Document under the given id, else a new uuid4."""
    from langchain_core.documents import Document

    texts, given, stored = list(texts), iter(ids or []), []
    for text, metadata in zip(texts, metadatas or [{} for _ in texts], strict=True):
        id_ = next(given, None) or str(uuid.uuid4())
        self.store[id_] = Document(text, metadata=metadata, id=id_)
        stored.append(id_)
    return stored


def _is_new_id(value: Any) -> bool:
    try:
        return str(uuid.UUID(value)) == value and uuid.UUID(value).version == 4
    except (TypeError, ValueError, AttributeError):
        return False


def _langchain_assertions(DictStore) -> str | None:  # noqa: N803 - a class
    """LangChain's own assertions for a store that writes only add_texts, in order."""
    from langchain_core.documents import Document as Doc


    store = DictStore()
    if store.add_documents([Doc("hello", id="1")]) != ["1"]:
        return "add_documents of a document with id '1' should return ['1']"
    if store.get_by_ids(["1"]) != [Doc("hello", id="1")]:
        return f"get_by_ids(['1']) gives {store.get_by_ids(['1'])}"
    new = store.add_documents([Doc("world")])
    if len(new) != 1 or store.get_by_ids(new) != [Doc("world", id=new[0])]:
        return f"a document without an id came back as {store.get_by_ids(new)}"
    original = Doc("baz", id="7")
    if store.add_documents([original], ids=["6"]) != ["6"] or original.id != "7":
        return "explicit ids=['6'] should win, and leave the document's own id alone"
    mixed = store.add_documents([Doc("a", id="m1"), Doc("b")])
    second = [doc.page_content for doc in store.get_by_ids(mixed[1:])]
    if mixed[0] != "m1" or not mixed[1] or second != ["b"]:
        return f"two documents, one with an id, came back as ids {mixed}"
    pair = store.add_texts(["foo", "bar"], metadatas=[{"foo": "bar"}] * 2)
    if len(set(pair)) != 2 or store.get_by_ids(pair) != [
        Doc(text, id=id_, metadata={"foo": "bar"})
        for text, id_ in zip(["foo", "bar"], pair, strict=True)
    ]:
        return f"two texts with metadata came back as {store.get_by_ids(pair)}"
    hi = Doc("hi", metadata={"n": 1})
    built = DictStore.from_documents([hi], BagOfWords(), ids=["9"])
    if built.get_by_ids(["9"]) != [Doc("hi", id="9", metadata={"n": 1})]:
        return "from_documents(..., ids=['9']) should store the document under '9'"
    return None


def _batches() -> list[tuple[list[str], list[dict] | None, list[str | None] | None]]:
    """(texts, metadatas, ids) drawn here: gaps in the ids, no ids, no metadata, one text."""
    rng = np.random.default_rng(66)
    words = ["cat", "dog", "kernel", "python", "tea", "sofa", "rain"]
    batches = []
    for n in range(10):
        count = int(rng.integers(1, 6))
        texts = [" ".join(rng.choice(words, size=2)) for _ in range(count)]
        metadatas = None if n % 3 == 0 else [{"n": int(i), "tags": [f"b{n}"]} for i in range(count)]
        ids: list[str | None] | None = None
        if n % 4:
            ids = [None if rng.random() < 0.4 else f"b{n}-{i}" for i in range(count)]
        batches.append((texts, metadatas, ids))
    return batches


def dict_store_problems(attempt) -> str | None:
    """LangChain's assertions, then batches the learner never saw, called directly."""
    from langchain_core.documents import Document

    DictStore = dict_store(attempt)  # noqa: N806 - a class
    problem = _langchain_assertions(DictStore)
    if problem:
        return problem
    store, seen = DictStore(), set()
    for texts, metadatas, ids in _batches():
        call = f"add_texts({texts}, metadatas={metadatas}, ids={ids})"
        given_texts = (t for t in texts) if len(texts) % 2 else list(texts)  # a generator too
        try:
            returned = store.add_texts(given_texts, metadatas=metadatas, ids=ids)
        except NotImplementedError:
            raise
        except Exception as exc:  # named with the call that raised it
            kind = "a generator of texts" if len(texts) % 2 else "a list of texts"
            return f"{call}, with {kind}, raised {type(exc).__name__}: {exc}"
        if not isinstance(returned, list) or len(returned) != len(texts):
            return f"{call} returned {returned!r:.80}, not one id per text"
        for position, (text, id_) in enumerate(zip(texts, returned, strict=True)):
            given = ids[position] if ids else None
            if given is not None and id_ != given:
                return f"{call}: text {position} has the id {given!r}, but you returned {id_!r}"
            if given is None and (not _is_new_id(id_) or id_ in seen):
                return f"{call}: text {position} has no id, and {id_!r} is not a new str(uuid4())"
            seen.add(id_)
            metadata = metadatas[position] if metadatas else {}
            if store.store.get(id_) != Document(text, metadata=metadata, id=id_):
                return f"{call}: under {id_!r} the store holds {store.store.get(id_)!r:.80}"
    for texts, metadatas in ((["a", "b"], [{"n": 1}]), (["a"], [{"n": 1}, {"n": 2}])):
        try:
            store.add_texts(texts, metadatas=metadatas)
        except ValueError:
            continue
        return (f"add_texts({texts}, metadatas={metadatas}) should raise ValueError: "
                "metadatas of another length than texts, shorter or longer")
    return None



#: What each exercise's answer may use (checks/allow.py reads its cell before it runs).
ALLOWED = {
    "Exercise 2": Allow(answer="similarity_to_relevance", modules=["math"]),
    "Exercise 3": Allow(
        answer="dict_add_texts",
        modules=["uuid", "itertools"],
        names=["RealDocument"],
        refuse=["add_texts", "add_documents", "aadd_texts", "aadd_documents", "upsert"],
    ),
}
