"""Notebook 09's exercise checks: what the real retrievers do, and SQLite's own BM25."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import closing
from functools import lru_cache
from typing import Any

from retrieval_lab.checks.allow import Allow
from retrieval_lab.checks.answers import fresh_seed, same_numbers
from retrieval_lab.data.corpus import python_reference_chunks
from retrieval_lab.scratch.document import Document
from retrieval_lab.scratch.retrievers import bm25_scores, keyword_scores, split_terms, top_k

#: Exercise 1's documents, as its table shows them, and Build it's five.
SNAKES = (("s1", "python python python python python"), ("s2", "python snake"),
          ("s3", "a snake and a python in the long grass by the river"), ("s4", "the grass by the river"))
ROWS = (("k1", "the cat sat on the mat"), ("k2", "a cat and a dog played"),
        ("k3", "the dog took the ball and the stick to the garden"),
        ("k4", "the python kernel and the kernel scheduler"), ("k5", "the kernel"))


def what_bm25_does() -> dict[str, Any]:
    """Exercise 1 (predict): a real BaseRetriever over the exercise's four documents, ranking by
    counting and by BM25."""
    from langchain_core.documents import Document as RealDocument
    from langchain_core.retrievers import BaseRetriever

    class Scoring(BaseRetriever):
        docs: list[RealDocument]
        scores: Callable[..., list[float]]

        def _get_relevant_documents(self, query: str, *, run_manager: Any) -> list[RealDocument]:
            return top_k(self.docs, self.scores(query, self.docs), len(self.docs))

    snakes = [RealDocument(text, id=doc_id) for doc_id, text in SNAKES]
    counted, ranked = (Scoring(docs=snakes, scores=s).invoke("python snake")
                       for s in (keyword_scores, bm25_scores))
    no_repeats, no_length = bm25_scores("python", snakes, k1=0), bm25_scores("python", snakes, b=0)
    return {"count_first": counted[0].id, "bm25_first": ranked[0].id, "found": len(ranked),
            "same_at_k1_0": no_repeats[0] == no_repeats[1], "same_at_b_0": no_length[0] == no_length[1]}


@lru_cache(maxsize=1)
def _corpora() -> dict[str, tuple[str, ...]]:
    chunks = python_reference_chunks()
    return {"build it": tuple(text for _, text in ROWS), "exercise 1": tuple(text for _, text in SNAKES),
            "reference": tuple(c.page_content for c in chunks[:40]),
            "reference, later": tuple(c.page_content for c in chunks[300:330]),
            "two documents": ("the cat", "the dog and the cat"), "one document": ("a kernel thread",)}


def sqlite_scores(query: str, corpus: str) -> list[float]:
    """Exercise 2 (extend)'s oracle: SQLite FTS5's own ``bm25()`` of each text of a named corpus (0
    where no query word occurs)."""
    texts = _corpora()[corpus]
    found = [0.0] * len(texts)
    words = " OR ".join(f'"{w}"' for w in split_terms(query))
    with closing(sqlite3.connect(":memory:")) as db:
        db.execute("CREATE VIRTUAL TABLE texts USING fts5(body)")
        db.executemany("INSERT INTO texts (rowid, body) VALUES (?, ?)",
                       [(i, " ".join(split_terms(t))) for i, t in enumerate(texts)])
        if words:  # SQLite reports minus the score, so that the best sorts first
            for row, score in db.execute(
                    "SELECT rowid, -bm25(texts) FROM texts WHERE texts MATCH ?", (words,)):
                found[row] = score
    return found


def scores_of(function: Callable[[str, Sequence[Any]], list[float]]) -> Callable[[str, str], Any]:
    """The learner's ``sqlite_bm25_scores`` on a named corpus (fresh documents each call)."""
    def run(query: str, corpus: str) -> Any:
        return function(query, [Document(text, id=f"d{i}") for i, text in enumerate(_corpora()[corpus])])

    run.__name__ = getattr(function, "__name__", "sqlite_bm25_scores")
    return run


def sqlite_cases(seed: int | None = None, drawn: int = 10) -> list[tuple[str, str]]:
    """Fixed cases (a word in half the documents, a repeated word, no word, an unknown word),
    then queries drawn from the reference's own words (``fresh_seed``)."""
    cases = [
        ("kernel", "build it"), ("the cat", "build it"), ("cat cat dog", "build it"),
        ("zebra", "build it"), ("", "build it"), ("python snake", "exercise 1"),
        ("the river", "exercise 1"), ("python python", "exercise 1"),
        ("what does the for statement do", "reference"), ("the cat", "two documents"),
        ("cat", "two documents"), ("kernel", "one document"),
    ]
    rng = random.Random(fresh_seed(seed))
    for corpus in ("reference", "reference, later"):
        words = sorted({w for text in _corpora()[corpus] for w in split_terms(text)})
        cases += [(" ".join(rng.choice(words) for _ in range(rng.randint(1, 4))), corpus)
                  for _ in range(drawn // 2)]
    return cases


def same_scores(mine: Any, sqlites: list[float]) -> bool:
    """Equal to nine significant digits, document for document (never looser than
    math.isclose at rel_tol=1e-9, abs_tol=1e-15)."""
    return same_numbers(mine, sqlites, rel=5e-10, absolute=5e-16)


#: What each exercise's answer may use (checks/allow.py reads its cell before it runs).
ALLOWED = {"Exercise 2": Allow(answer="sqlite_bm25_scores", modules=["math", "collections"],
                               names=["bm25_scores", "split_terms", "Document"])}
