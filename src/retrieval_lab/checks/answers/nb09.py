"""Notebook 09's exercise checks: what the real retrievers do, and SQLite's own BM25."""

from __future__ import annotations

import math
import random
import sqlite3
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from retrieval_lab.checks.allow import Allow
from retrieval_lab.data.corpus import python_reference_chunks
from retrieval_lab.scratch.document import Document
from retrieval_lab.scratch.retrievers import bm25_scores, keyword_scores, split_terms, top_k

#: Exercise 1's documents, as its table shows them.
SNAKES = (
    ("s1", "python python python python python"),
    ("s2", "python snake"),
    ("s3", "a snake and a python in the long grass by the river"),
    ("s4", "the grass by the river"),
)

#: Build it's five documents.
ROWS = (
    ("k1", "the cat sat on the mat"),
    ("k2", "a cat and a dog played"),
    ("k3", "the dog took the ball and the stick to the garden"),
    ("k4", "the python kernel and the kernel scheduler"),
    ("k5", "the kernel"),
)


# ----------------------------------------------------------------- Exercise 1: predict


def what_bm25_does() -> dict[str, Any]:
    """Run real retrievers (langchain-core's BaseRetriever, the notebook's scoring) on the
    exercise's four documents."""
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever


    class Counting(BaseRetriever):
        docs: list[Document]
        k: int = 2

        def _get_relevant_documents(self, query: str, *, run_manager: Any) -> list[Document]:
            return top_k(self.docs, keyword_scores(query, self.docs), self.k)

    class Ranking(BaseRetriever):
        docs: list[Document]
        k: int = 2

        def _get_relevant_documents(self, query: str, *, run_manager: Any) -> list[Document]:
            return top_k(self.docs, bm25_scores(query, self.docs), self.k)

    snakes = [Document(text, id=doc_id) for doc_id, text in SNAKES]
    counted = Counting(docs=snakes, k=4).invoke("python snake")
    ranked = Ranking(docs=snakes, k=4).invoke("python snake")
    no_repeats = bm25_scores("python", snakes, k1=0)
    no_length = bm25_scores("python", snakes, b=0)
    return {
        "count_first": counted[0].id,
        "bm25_first": ranked[0].id,
        "found": len(ranked),
        "same_at_k1_0": no_repeats[0] == no_repeats[1],
        "same_at_b_0": no_length[0] == no_length[1],
    }


# ----------------------------------------------------------------- Exercise 2: extend


def _sqlite_scores(texts: Sequence[str], query: str) -> list[float]:
    """SQLite FTS5's ``bm25()`` of each text for ``query`` (0 where no query word occurs)."""

    db = sqlite3.connect(":memory:")
    try:
        db.execute("CREATE VIRTUAL TABLE texts USING fts5(body)")
        db.executemany(
            "INSERT INTO texts (rowid, body) VALUES (?, ?)",
            [(i, " ".join(split_terms(t))) for i, t in enumerate(texts)],
        )
        found = [0.0] * len(texts)
        words = " OR ".join(f'"{w}"' for w in split_terms(query))
        if words:  # SQLite reports minus the score, so that the best sorts first
            for row, score in db.execute(
                "SELECT rowid, -bm25(texts) FROM texts WHERE texts MATCH ?", (words,)
            ):
                found[row] = score
        return found
    finally:
        db.close()


@lru_cache(maxsize=1)
def _corpora() -> dict[str, tuple[str, ...]]:

    chunks = python_reference_chunks()
    return {
        "build it": tuple(text for _, text in ROWS),
        "exercise 1": tuple(text for _, text in SNAKES),
        "reference": tuple(c.page_content for c in chunks[:40]),
        "reference, later": tuple(c.page_content for c in chunks[300:330]),
        "two documents": ("the cat", "the dog and the cat"),
        "one document": ("a kernel thread",),
    }


def _documents(corpus: str) -> list[Any]:

    return [Document(text, id=f"d{i}") for i, text in enumerate(_corpora()[corpus])]


def sqlite_scores(query: str, corpus: str) -> list[float]:
    """The oracle: SQLite's own scores for ``query`` over one named corpus."""
    return _sqlite_scores(_corpora()[corpus], query)


def scores_of(function: Callable[[str, Sequence[Any]], list[float]]) -> Callable[[str, str], Any]:
    """The learner's ``sqlite_bm25_scores`` on a named corpus (fresh documents each call)."""

    def run(query: str, corpus: str) -> Any:
        return function(query, _documents(corpus))

    run.__name__ = getattr(function, "__name__", "sqlite_bm25_scores")
    return run


def sqlite_cases(seed: int | None = None, drawn: int = 10) -> list[tuple[str, str]]:
    """Fixed cases (a word in half the documents, a repeated word, no word, an unknown word)
    and queries drawn at random from the corpora's own words, afresh at every check (a seed
    from the operating system unless one is given), so a table of answers made in advance
    with this oracle holds none of them."""
    if seed is None:
        import secrets

        seed = secrets.randbits(64)

    cases = [
        ("kernel", "build it"), ("the cat", "build it"), ("cat cat dog", "build it"),
        ("zebra", "build it"), ("", "build it"), ("python snake", "exercise 1"),
        ("the river", "exercise 1"), ("python python", "exercise 1"),
        ("what does the for statement do", "reference"), ("the cat", "two documents"),
        ("cat", "two documents"), ("kernel", "one document"),
    ]
    rng = random.Random(seed)
    for corpus in ("reference", "reference, later"):
        words = sorted({w for text in _corpora()[corpus] for w in split_terms(text)})
        for _ in range(drawn // 2):
            cases.append((" ".join(rng.choice(words) for _ in range(rng.randint(1, 4))), corpus))
    return cases


def same_scores(mine: Any, sqlites: list[float]) -> bool:
    """Equal to nine significant digits, document for document."""
    try:
        pairs = list(zip(mine, sqlites, strict=True))
    except (TypeError, ValueError):
        return False
    return all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-15) for a, b in pairs)



#: What each exercise's answer may use (checks/allow.py reads its cell before it runs).
ALLOWED = {
    "Exercise 2": Allow(
        answer="sqlite_bm25_scores",
        modules=["math", "collections"],
        names=["bm25_scores", "split_terms", "Document"],
    ),
}
