"""Notebook 06's exercise checks: the real relevance functions, a mended store, a dict store."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from langchain_core.documents import Document as D  # noqa: N817
from langchain_core.vectorstores import InMemoryVectorStore, VectorStore

from retrieval_lab.checks.allow import Allow
from retrieval_lab.checks.answers import fresh_seed, is_uuid4
from retrieval_lab.models.embeddings import BagOfWords, LookupEmbeddings

# Exercise 1 (predict): what the real relevance functions make of other scores.
RELEVANCE_CASES = {  # prediction -> (the real base class's function, its input)
    "cosine 2.0": ("_cosine_relevance_score_fn", 2.0), "euclidean 2.0": ("_euclidean_relevance_score_fn", 2.0),
    **{f"inner product {x}": ("_max_inner_product_relevance_score_fn", x) for x in (0.3, -0.3, -0.9)},
}


def what_the_functions_return() -> dict[str, float]:
    return {case: getattr(VectorStore, name)(value) for case, (name, value) in RELEVANCE_CASES.items()}


def _near(value: Any, real: float, within: float) -> bool:
    """A number (True and False are not numbers here) within ``within`` of ``real``; NaN never."""
    return isinstance(value, int | float) and not isinstance(value, bool) and abs(value - real) <= within


def within_a_hundredth(mine: Any, real: float) -> bool:
    return _near(mine, real, 0.01)


def relevance(similarity: float) -> float:
    """Exercise 2 (debug)'s oracle: the straight line from 0 (opposite, -1) to 1 (the same direction, 1)."""
    return (similarity + 1.0) / 2.0


WEATHER = {"hot": [1.0, 0.0], "warm": [0.8, 0.6], "mild": [0.0, 1.0], "cool": [-0.6, 0.8], "cold": [-1.0, 0.0]}


def _scored_store(relevance_fn, table: dict[str, list[float]]) -> Any:
    """The notebook's CosineListStore on the real class, with the relevance function under test."""
    class Mended(InMemoryVectorStore):
        def _select_relevance_score_fn(self):
            return relevance_fn

    store = Mended(LookupEmbeddings(table))
    store.add_texts(list(table), ids=list(table))
    return store


def relevance_problems(attempt) -> str | None:
    """The mended store: relevance on the line for every score, no warning, the ranking kept; on
    the notebook's weather, then on stores drawn with a seed drawn anew at each check."""
    def off_the_line(similarity: float, got: Any, where: str = "") -> str:
        return (f"for a cosine similarity of {similarity:.3f}{where} your relevance {got!r:.30} "
                "is not on the straight line from 0 (at -1) to 1 (at 1)")

    tables, rng = [("hot", WEATHER)], np.random.default_rng(fresh_seed())
    while len(tables) < 7:  # a store whose rounded cosine passes 1 or -1 is drawn again: the
        n = len(tables) - 1  # real method would warn at the right line's relevance too
        vectors = rng.normal(size=(int(rng.integers(4, 9)) + 1, int(rng.integers(2, 6))))
        table = {f"t{n}-{i}": [float(x) for x in v] for i, v in enumerate(vectors)}
        scores = _scored_store(relevance, table).similarity_search_with_score(f"t{n}-0", k=len(table))
        if all(-1.0 <= s <= 1.0 for _, s in scores):
            tables.append((f"t{n}-0", table))
    for query, table in tables:
        store = _scored_store(attempt, table)
        raw = store.similarity_search_with_score(query, k=len(table))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            scored = store.similarity_search_with_relevance_scores(query, k=len(table))
        for (doc, similarity), (_, got) in zip(raw, scored, strict=True):
            if not _near(got, relevance(similarity), 1e-9):
                return off_the_line(similarity, got, f" ({doc.id!r} against {query!r})")
        if caught:
            return "the real method warned: a relevance is outside [0, 1]"
    for similarity in [-1.0, 1.0, 0.0, *rng.uniform(-1.0, 1.0, size=20)]:
        if not _near(got := attempt(float(similarity)), relevance(similarity), 1e-9):
            return off_the_line(similarity, got)
    return None


def dict_store_problems(attempt) -> str | None:
    """Exercise 3 (apply): LangChain's own unit-test assertions for a store that writes only
    add_texts, in order; then batches drawn (seed 66) that the learner never saw, called directly:
    gaps in the ids, no ids, no metadata, one text; then metadata of the wrong length."""
    def from_texts(cls, texts, embedding, metadatas=None, **kwargs):
        store = cls()
        store.add_texts(texts, metadatas=metadatas, **kwargs)
        return store

    DictStore = type("DictStore", (VectorStore,), {  # noqa: N806 - a real VectorStore, adding by add_texts only
        "__init__": lambda self: setattr(self, "store", {}),
        "add_texts": attempt,
        "get_by_ids": lambda self, ids, /: [self.store[i] for i in ids if i in self.store],
        "similarity_search": lambda self, query, k=4, **kwargs: [],
        "from_texts": classmethod(from_texts),
    })
    store = DictStore()
    if store.add_documents([D("hello", id="1")]) != ["1"]:
        return "add_documents of a document with id '1' should return ['1']"
    if store.get_by_ids(["1"]) != [D("hello", id="1")]:
        return f"get_by_ids(['1']) gives {store.get_by_ids(['1'])}"
    new = store.add_documents([D("world")])
    if len(new) != 1 or store.get_by_ids(new) != [D("world", id=new[0])]:
        return f"a document without an id came back as {store.get_by_ids(new)}"
    original = D("baz", id="7")
    if store.add_documents([original], ids=["6"]) != ["6"] or original.id != "7":
        return "explicit ids=['6'] should win, and leave the document's own id alone"
    mixed = store.add_documents([D("a", id="m1"), D("b")])
    if mixed[0] != "m1" or not mixed[1] or [d.page_content for d in store.get_by_ids(mixed[1:])] != ["b"]:
        return f"two documents, one with an id, came back as ids {mixed}"
    pair = store.add_texts(["foo", "bar"], metadatas=[{"foo": "bar"}] * 2)
    if len(set(pair)) != 2 or store.get_by_ids(pair) != [
            D(text, id=id_, metadata={"foo": "bar"}) for text, id_ in zip(["foo", "bar"], pair, strict=True)]:
        return f"two texts with metadata came back as {store.get_by_ids(pair)}"
    built = DictStore.from_documents([D("hi", metadata={"n": 1})], BagOfWords(), ids=["9"])
    if built.get_by_ids(["9"]) != [D("hi", id="9", metadata={"n": 1})]:
        return "from_documents(..., ids=['9']) should store the document under '9'"
    store, seen, rng = DictStore(), set(), np.random.default_rng(66)
    for n in range(10):
        count = int(rng.integers(1, 6))
        texts = [" ".join(rng.choice(["cat", "dog", "kernel", "python", "tea", "sofa", "rain"], size=2))
                 for _ in range(count)]
        metadatas = None if n % 3 == 0 else [{"n": i, "tags": [f"b{n}"]} for i in range(count)]
        ids = [None if rng.random() < 0.4 else f"b{n}-{i}" for i in range(count)] if n % 4 else None
        call = f"add_texts({texts}, metadatas={metadatas}, ids={ids})"
        try:
            returned = store.add_texts((t for t in texts) if count % 2 else list(texts),  # a generator too
                                       metadatas=metadatas, ids=ids)
        except NotImplementedError:
            raise
        except Exception as exc:  # named with the call that raised it
            kind = "a generator of texts" if count % 2 else "a list of texts"
            return f"{call}, with {kind}, raised {type(exc).__name__}: {exc}"
        if not isinstance(returned, list) or len(returned) != count:
            return f"{call} returned {returned!r:.80}, not one id per text"
        for position, (text, id_) in enumerate(zip(texts, returned, strict=True)):
            given = ids[position] if ids else None
            if given is not None and id_ != given:
                return f"{call}: text {position} has the id {given!r}, but you returned {id_!r}"
            if given is None and not (is_uuid4(id_) and id_ not in seen):
                return f"{call}: text {position} has no id, and {id_!r} is not a new str(uuid4())"
            seen.add(id_)
            if store.store.get(id_) != D(text, metadata=metadatas[position] if metadatas else {}, id=id_):
                return f"{call}: under {id_!r} the store holds {store.store.get(id_)!r:.80}"
    for texts, metadatas in ((["a", "b"], [{"n": 1}]), (["a"], [{"n": 1}, {"n": 2}])):
        try:
            store.add_texts(texts, metadatas=metadatas)
        except ValueError:
            continue
        return (f"add_texts({texts}, metadatas={metadatas}) should raise ValueError: "
                "metadatas of another length than texts, shorter or longer")
    return None


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="similarity_to_relevance", modules=["math"]),
    "Exercise 3": Allow(answer="dict_add_texts", modules=["uuid", "itertools"], names=["RealDocument"],
                        refuse=["add_texts", "add_documents", "aadd_texts", "aadd_documents", "upsert"]),
}
