"""Notebook 04's exercise checks: what a real store scores, real angles, real rankings."""

from __future__ import annotations

from typing import Any

import numpy as np
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_core.vectorstores.utils import _cosine_similarity as real_cosine

from retrieval_lab.checks.allow import Allow
from retrieval_lab.checks.answers import fresh_seed
from retrieval_lab.evaluation.compare import same_ranking as same
from retrieval_lab.models.embeddings import BagOfWords, MiniLM

# Exercise 1 (predict): what a real store with BagOfWords scores each text against "cat".
CAT_TEXTS = ("cat cat cat", "Cats!", "a dog and a cat", "CAT-like", "python kernel")


def scores_for_cat() -> dict[str, float]:
    store = InMemoryVectorStore(BagOfWords())
    store.add_texts(list(CAT_TEXTS), ids=list(CAT_TEXTS))
    return {doc.id: float(s) for doc, s in store.similarity_search_with_score("cat", k=len(CAT_TEXTS))}


def to_two_decimals(guess: Any, real: float) -> bool:
    """A number within rounding of the real score (True and False are not numbers here)."""
    return isinstance(guess, int | float) and not isinstance(guess, bool) and abs(guess - real) < 0.006


def angle(a: list[float], b: list[float]) -> float:
    """Exercise 2 (apply): the angle of the real ``_cosine_similarity``; ValueError for a zero vector."""
    if not np.linalg.norm(a) or not np.linalg.norm(b):
        raise ValueError("a zero vector has no direction")
    return float(np.degrees(np.arccos(np.clip(float(real_cosine([a], [b])[0][0]), -1.0, 1.0))))


def angle_cases(fresh: bool = True) -> list[tuple[list[float], list[float]]]:
    """Right angles, parallels whose rounded cosine passes 1 or -1, zero vectors in either
    position and both, and random pairs drawn here (the learner never sees them)."""
    cases = [
        ([1.0, 0.0], [0.0, 1.0]), ([2.0, 1.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0]),
        ([3.0, 4.0], [-3.0, -4.0]), ([1.1, 1.1], [2.1, 2.1]),
        # a vector against itself whose computed cosine is 1.0000000000000002: arccos is nan
        # there unless the cosine is clipped to 1 (mutation testing found a clip to 2 passing)
        ([1.304, 0.947, -0.704, -1.265], [1.304, 0.947, -0.704, -1.265]),
        ([-0.922, -0.458, 0.22], [-0.922, -0.458, 0.22]),
        # opposite vectors whose computed cosine is -1.0000000000000002: a clip to -2 gives nan
        ([0.905, 0.446, -0.537], [-0.905, -0.446, 0.537]),
        ([0.0, 0.0], [1.0, 1.0]), ([1.0, 1.0], [0.0, 0.0]), ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
        ([0.5, -2.0, 3.0], [0.0, -0.0, 0.0]), ([-0.0, 0.0, 0.0, 0.0], [1.0, 2.0, 3.0, 4.0]),
    ]
    rng = np.random.default_rng(fresh_seed(None if fresh else 404))
    for _ in range(12):
        a = rng.normal(size=int(rng.integers(2, 7))).round(2)
        parallel = rng.random() < 0.4  # parallel or opposite: the rounded cosine may pass +-1
        b = a * float(rng.choice([0.3, 1.7, 3.1, -0.7, -2.3])) if parallel else rng.normal(size=a.size).round(2)
        if np.linalg.norm(a) and np.linalg.norm(b):
            cases.append((a.tolist(), b.tolist()))
    return cases


def same_angle(got: Any, expected: float) -> bool:
    return isinstance(got, float) and abs(got - expected) <= 1e-6


def rank(query: list[float], documents: list[list[float]]) -> list[tuple[int, float]]:
    """Exercise 3 (debug): (position, cosine) of each document, as the real ``_cosine_similarity`` scores them."""
    scores = real_cosine([query], documents)[0]
    return sorted(((i, float(s)) for i, s in enumerate(scores)), key=lambda p: -p[1])


def same_ranking(mine: Any, real: Any) -> bool:
    """The course's tie rule: ids may swap places only within a run of equal scores."""
    try:  # each score a real number near the real one: a NaN is never "within tolerance"
        close = len(mine) == len(real) and all(
            abs(float(got) - want) <= 1e-9 for (_, got), (_, want) in zip(mine, real, strict=True))
    except (TypeError, ValueError):
        return False
    return close and same(mine, real)


def rank_cases(fresh: bool = True) -> list[tuple[list[float], list[list[float]]]]:
    """The plane's failing query, a lone document, and random corpora of unequal lengths."""
    plane = [[3.0, 1.0], [3.0, 1.0], [2.0, 1.0], [1.0, 1.0], [1.0, 3.0], [0.0, 1.0]]
    cases = [([1.0, 5.0], plane), ([1.0, 0.0], plane),
             ([3.0, 4.0], [[6.0, 8.0], [-3.0, -4.0], [1.0, 0.0], [0.0, 50.0]]),
             ([1.0, 2.0, 0.0], [[2.0, 4.0, 0.0]])]
    rng = np.random.default_rng(fresh_seed(None if fresh else 4040))
    for _ in range(8):
        size, count = int(rng.integers(2, 6)), int(rng.integers(2, 8))
        documents = rng.normal(size=(count, size)) * rng.uniform(0.2, 9.0, size=(count, 1))
        cases.append(((rng.normal(size=size) * 4).round(3).tolist(), documents.round(3).tolist()))
    return cases


# Exercise 4 (apply): the cosine of two unit vectors from their distance.
SENTENCES = ("The movie was wonderful.", "I loved this film.", "Cats sleep most of the day.",
             "A kitten naps for hours.", "I went to the bank to deposit cash.", "I went to the river bank to fish.",
             "The kernel crashed.", "The corn kernel popped.")


def distance_problems(attempt) -> str | None:
    """The attempt's cosine for each distance against the cosine the real code reports: for
    MiniLM's sentence pairs, as a real store scores them, and unit pairs drawn anew at each
    check (a table made beforehand holds none)."""
    model = MiniLM()
    vectors = np.array(model.embed_documents(list(SENTENCES)))
    store = InMemoryVectorStore(model)
    store.add_texts(list(SENTENCES), ids=[str(i) for i in range(len(SENTENCES))])
    pairs = [(float(np.linalg.norm(vector - vectors[int(doc.id)])), float(cosine),
              f"{text!r} and {doc.page_content!r}")
             for text, vector in zip(SENTENCES, vectors, strict=True)
             for doc, cosine in store.similarity_search_with_score(text, k=3)]

    def unit(v: np.ndarray) -> np.ndarray:
        return v / np.linalg.norm(v)

    def pair(a: np.ndarray, b: np.ndarray, where: str) -> tuple[float, float, str]:
        return float(np.linalg.norm(a - b)), float(real_cosine([a], [b])[0][0]), where

    rng = np.random.default_rng(fresh_seed())
    for n in range(16):
        a = unit(rng.normal(size=int(rng.integers(2, 400))))
        b = unit(a + rng.normal(size=a.size) * rng.uniform(0.0, 2.0) if n % 4 else -a)
        pairs.append(pair(a, b, f"two unit vectors of {a.size} numbers"))
    # opposite unit vectors whose rounded distance passes 2: an arcsin(d / 2) gives NaN there
    for _ in range(10_000):
        a = unit(rng.normal(size=int(rng.integers(2, 50))))
        if np.linalg.norm(a - -a) > 2.0:
            pairs.append(pair(a, -a, f"two opposite unit vectors of {a.size} numbers"))
            break
    for d, cosine, where in pairs:
        got = attempt(d)
        if not isinstance(got, float) or not abs(got - cosine) <= 1e-5:  # NaN too
            return f"at d = {d:.3f} ({where}) your {got!r:.30} is not the cosine the store reports"
    return None


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="angle_degrees", modules=["numpy", "math"], names=["cosine_similarity"]),
    "Exercise 3": Allow(answer="rank", modules=["numpy", "math"],
                        refuse=["cdist", "cosine_similarity", "cosine_matrix"]),
    "Exercise 4": Allow(answer="cosine_for_distance", modules=["math"]),
}
