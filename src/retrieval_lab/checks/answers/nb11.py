"""Notebook 11's exercise checks: rows after deletes, a filtered top k, and bytes read."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from retrieval_lab.checks.allow import Allow
from retrieval_lab.checks.answers import fresh_seed, same_numbers
from retrieval_lab.models.embeddings import BagOfWords, RowEmbeddings
from retrieval_lab.scratch.matrix_vectorstore import MatrixVectorStore


def rows_after_each_call() -> dict[str, list[str]]:
    """Exercise 1 (predict): run the four calls on a MatrixVectorStore and read its rows after each."""
    store = MatrixVectorStore(BagOfWords())
    store.add_texts(["cat"] * 5, ids=list("abcde"))
    seen = {}
    for name, call in (
        ("after deleting b", lambda: store.delete(["b"])),
        ("after deleting e", lambda: store.delete(["e"])),
        ("after adding f", lambda: store.add_texts(["cat"], ids=["f"])),
        ("after adding a again", lambda: store.add_texts(["cat"], ids=["a"])),
    ):
        call()
        seen[name] = list(store._ids)
    return seen


def real_top_ids(matrix: np.ndarray, ids: Sequence[str], query: np.ndarray, k: int,
                 keep: Callable[[str], bool]) -> list[str]:
    """Exercise 2 (debug)'s oracle: the real store holding the same vectors, searched with a filter."""
    from langchain_core.vectorstores import InMemoryVectorStore

    real = InMemoryVectorStore(RowEmbeddings(matrix))
    real.add_texts([str(i) for i in range(len(ids))], ids=list(ids))
    return [d.id for d in real.similarity_search_by_vector(query.tolist(), k=k, filter=lambda d: keep(d.id))]


def _unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def top_ids_cases(seed: int = 4, drawn: int = 8, fresh: bool = True) -> list[tuple]:
    """The prompt's nine rows with five filters, then matrices, queries, k and filters drawn
    (``fresh_seed``; with ``fresh=False``, from ``seed``)."""
    rows, ids = _unit(np.random.default_rng(seed).standard_normal((9, 5))), [f"p{i}" for i in range(9)]
    keeps: list[Callable[[str], bool]] = [
        lambda i: True, lambda i: i != "p0", lambda i: int(i[1]) % 2 == 1,
        lambda i: i in {"p8", "p2"}, lambda i: False,
    ]
    cases = [(rows, ids, rows[0] * 0.6 + rows[3] * 0.8, 3, keep) for keep in keeps]
    seed = fresh_seed() if fresh else seed
    rng, pick = np.random.default_rng(seed + 100), random.Random(seed)
    for n in range(drawn):
        size, width = int(rng.integers(6, 30)), int(rng.integers(3, 12))
        matrix = _unit(rng.standard_normal((size, width)))
        names = [f"r{n}-{i}" for i in range(size)]
        kept = set(pick.sample(names, pick.randint(1, size - 1)))
        query = _unit(rng.standard_normal((1, width)))[0]
        cases.append((matrix, names, query, pick.randint(1, size), kept.__contains__))
    return cases


def numpy_read_ms(n: int, d: int, gb_per_s: float, dtype: str = "float32",
                  batch: int = 1) -> float:
    """Exercise 3 (extend)'s oracle: ask numpy how many bytes a row takes, then milliseconds per query."""
    one = np.zeros((1, d), dtype=bool if dtype == "binary" else dtype)
    row_bytes = np.packbits(one, axis=1).nbytes if dtype == "binary" else one.nbytes
    return n * row_bytes / (gb_per_s * 1e9) * 1e3 / batch


def read_ms_cases(seed: int | None = None, drawn: int = 12) -> list[tuple]:
    """The prompt's kinds of case, a binary row that is not a whole number of bytes, and
    cases drawn afresh (``fresh_seed``)."""
    cases: list[tuple] = [
        (1_000_000, 384, 10.0),
        (1_000_000, 384, 10.0, "float16"),
        (1_000_000, 384, 10.0, "int8", 32),
        (100_000, 1536, 25.0, "binary"),
        (7, 3, 0.5, "binary", 2),
        (1, 9, 1.0, "binary"),
        (3, 5, 2.0, "float32", 3),
    ]
    rng = random.Random(fresh_seed(seed))
    for _ in range(drawn):
        dtype = rng.choice(["float32", "float16", "int8", "binary"])
        case = (rng.randint(1, 10**7), rng.randint(1, 2000), rng.choice([0.5, 3.0, 12.5, 40.0]))
        cases.append((*case, dtype, rng.randint(1, 64)) if rng.random() < 0.6 else (*case, dtype))
    return cases


def same_ms(mine: Any, expected: float) -> bool:
    """Within 1e-9 of the oracle's milliseconds, or 1e-9 of them when they are above 1."""
    return same_numbers(mine, expected, rel=5e-10, absolute=5e-10)


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="top_ids", modules=["numpy"],
                        refuse=["similarity_search", "similarity_search_with_score", "similarity_search_by_vector",
                                "similarity_search_with_relevance_scores", "max_marginal_relevance_search",
                                "as_retriever", "invoke", "get_by_ids", "search", "IDSelectorBatch"]),
    "Exercise 3": Allow(answer="read_ms", modules=["math"]),
}
