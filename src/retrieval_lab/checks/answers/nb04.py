"""Notebook 04's exercise checks: what a real store scores, real angles, real rankings."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from retrieval_lab.checks.allow import Allow
from retrieval_lab.evaluation.compare import same_ranking as same
from retrieval_lab.models.embeddings import BagOfWords, MiniLM

# ----------------------------------------------------------------- helpers


def _real_cosine(x: Any, y: Any) -> np.ndarray:
    from langchain_core.vectorstores.utils import _cosine_similarity

    return _cosine_similarity(x, y)


# ----------------------------------------------------------------- Exercise 1: predict

CAT_TEXTS = ("cat cat cat", "Cats!", "a dog and a cat", "CAT-like", "python kernel")


def scores_for_cat() -> dict[str, float]:
    """What a real store with BagOfWords scores each text of the exercise against "cat"."""
    from langchain_core.vectorstores import InMemoryVectorStore


    store = InMemoryVectorStore(BagOfWords())
    store.add_texts(list(CAT_TEXTS), ids=list(CAT_TEXTS))
    found = store.similarity_search_with_score("cat", k=len(CAT_TEXTS))
    return {doc.id: float(score) for doc, score in found}


def to_two_decimals(guess: Any, real: float) -> bool:
    """A number within rounding of the real score (True and False are not numbers here)."""
    return (isinstance(guess, int | float) and not isinstance(guess, bool)
            and abs(guess - real) < 0.006)


# ----------------------------------------------------------------- Exercise 2: the angle


def angle(a: list[float], b: list[float]) -> float:
    """The angle whose cosine the real ``_cosine_similarity`` gives; ValueError for a zero vector."""
    if not np.linalg.norm(a) or not np.linalg.norm(b):
        raise ValueError("a zero vector has no direction")
    cosine = float(_real_cosine([a], [b])[0][0])
    return float(np.degrees(np.arccos(np.clip(cosine, -1.0, 1.0))))


def angle_cases(fresh: bool = True) -> list[tuple[list[float], list[float]]]:
    """Right angles, parallels whose rounded cosine passes 1 or -1, zero vectors in either
    position and both, and random pairs drawn here (the learner never sees them)."""
    cases = [
        ([1.0, 0.0], [0.0, 1.0]),
        ([2.0, 1.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0]),
        ([3.0, 4.0], [-3.0, -4.0]),
        ([1.1, 1.1], [2.1, 2.1]),
        # a vector against itself whose computed cosine is 1.0000000000000002: arccos is nan
        # there unless the cosine is clipped to 1 (mutation testing found a clip to 2 passing)
        ([1.304, 0.947, -0.704, -1.265], [1.304, 0.947, -0.704, -1.265]),
        ([-0.922, -0.458, 0.22], [-0.922, -0.458, 0.22]),
        # opposite vectors whose computed cosine is -1.0000000000000002: a clip to -2 gives nan
        ([0.905, 0.446, -0.537], [-0.905, -0.446, 0.537]),
        ([0.0, 0.0], [1.0, 1.0]),
        ([1.0, 1.0], [0.0, 0.0]),
        ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0]),
        ([0.5, -2.0, 3.0], [0.0, -0.0, 0.0]),
        ([-0.0, 0.0, 0.0, 0.0], [1.0, 2.0, 3.0, 4.0]),
    ]
    # a seed drawn anew at each check: no table made with the oracle beforehand holds them
    rng = np.random.default_rng(random.SystemRandom().randrange(2**32) if fresh else 404)
    for _ in range(12):
        size = int(rng.integers(2, 7))
        a = rng.normal(size=size).round(2)
        if rng.random() < 0.4:  # parallel or opposite: the rounded cosine may pass +-1
            b = a * float(rng.choice([0.3, 1.7, 3.1, -0.7, -2.3]))
        else:
            b = rng.normal(size=size).round(2)
        if np.linalg.norm(a) and np.linalg.norm(b):
            cases.append((a.tolist(), b.tolist()))
    return cases


def same_angle(got: Any, expected: float) -> bool:
    return isinstance(got, float) and abs(got - expected) <= 1e-6


# ----------------------------------------------------------------- Exercise 3: the ranking


def rank(query: list[float], documents: list[list[float]]) -> list[tuple[int, float]]:
    """(position, cosine) of every document as the real ``_cosine_similarity`` scores them."""
    scores = _real_cosine([query], documents)[0]
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
    cases = [
        ([1.0, 5.0], plane),
        ([1.0, 0.0], plane),
        ([3.0, 4.0], [[6.0, 8.0], [-3.0, -4.0], [1.0, 0.0], [0.0, 50.0]]),
        ([1.0, 2.0, 0.0], [[2.0, 4.0, 0.0]]),
    ]
    rng = np.random.default_rng(random.SystemRandom().randrange(2**32) if fresh else 4040)
    for _ in range(8):
        size, count = int(rng.integers(2, 6)), int(rng.integers(2, 8))
        documents = rng.normal(size=(count, size)) * rng.uniform(0.2, 9.0, size=(count, 1))
        query = rng.normal(size=size) * 4
        cases.append((query.round(3).tolist(), documents.round(3).tolist()))
    return cases


# ----------------------------------------------------------------- Exercise 4: a distance limit

SENTENCES = (
    "The movie was wonderful.",
    "I loved this film.",
    "Cats sleep most of the day.",
    "A kitten naps for hours.",
    "I went to the bank to deposit cash.",
    "I went to the river bank to fish.",
    "The kernel crashed.",
    "The corn kernel popped.",
)


def _pairs() -> list[tuple[float, float, str]]:
    """(L2 distance, the real cosine, where) for MiniLM's sentence pairs and random unit pairs."""
    from langchain_core.vectorstores import InMemoryVectorStore


    model = MiniLM()
    vectors = np.array(model.embed_documents(list(SENTENCES)))
    store = InMemoryVectorStore(model)
    store.add_texts(list(SENTENCES), ids=[str(i) for i in range(len(SENTENCES))])
    pairs = []
    for text, vector in zip(SENTENCES, vectors, strict=True):
        for doc, cosine in store.similarity_search_with_score(text, k=3):
            d = float(np.linalg.norm(vector - vectors[int(doc.id)]))
            pairs.append((d, float(cosine), f"{text!r} and {doc.page_content!r}"))
    # seeds drawn anew at each check: a table of these pairs made beforehand holds none of them
    rng = np.random.default_rng(random.SystemRandom().randrange(2**32))
    for n in range(16):
        size = int(rng.integers(2, 400))
        a = rng.normal(size=size)
        a /= np.linalg.norm(a)
        b = a + rng.normal(size=size) * rng.uniform(0.0, 2.0) if n % 4 else -a
        b /= np.linalg.norm(b)
        cosine = float(_real_cosine([a], [b])[0][0])
        pairs.append((float(np.linalg.norm(a - b)), cosine, f"two unit vectors of {size} numbers"))
    # opposite unit vectors whose rounded distance passes 2: an arcsin(d / 2) gives NaN there
    rng = np.random.default_rng(random.SystemRandom().randrange(2**32))
    for _ in range(10_000):
        a = rng.normal(size=int(rng.integers(2, 50)))
        a /= np.linalg.norm(a)
        d = float(np.linalg.norm(a - -a))
        if d > 2.0:
            cosine = float(_real_cosine([a], [-a])[0][0])
            pairs.append((d, cosine, f"two opposite unit vectors of {a.size} numbers"))
            break
    return pairs


def distance_problems(attempt) -> str | None:
    """The attempt's cosine for each distance against the cosine the real code reports."""
    for d, cosine, where in _pairs():
        got = attempt(d)
        if not isinstance(got, float) or not abs(got - cosine) <= 1e-5:  # NaN too
            return f"at d = {d:.3f} ({where}) your {got!r:.30} is not the cosine the store reports"
    return None



#: What each exercise's answer may use (checks/allow.py reads its cell before it runs).
ALLOWED = {
    "Exercise 2": Allow(
        answer="angle_degrees",
        modules=["numpy", "math"],
        names=["cosine_similarity"],
    ),
    "Exercise 3": Allow(
        answer="rank",
        modules=["numpy", "math"],
        refuse=["cdist", "cosine_similarity", "cosine_matrix"],
    ),
    "Exercise 4": Allow(answer="cosine_for_distance", modules=["math"]),
}
