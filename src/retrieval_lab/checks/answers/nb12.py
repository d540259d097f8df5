"""Notebook 12's exercise checks: a walk on the toy graph, and an IVF that reads enough lists."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from retrieval_lab.checks.allow import Allow
from retrieval_lab.checks.answers import fresh_seed
from retrieval_lab.scratch.approximate_search import HNSW

#: Exercise 1 (predict): the notebook's ten points of the plane (tests/test_hnsw.py checks that the notebook agrees).
TOY = {
    "a": (0, 0), "b": (2, 1), "c": (4, 0), "d": (1, 3), "e": (3, 3),
    "f": (5, 2), "g": (2, 4.5), "h": (4.5, 4.5), "i": (0, 5), "j": (5.5, 0),
}  # fmt: skip
WALK_QUERIES = ((0.5, 3.5), (5.0, 0.5))


def toy_layers() -> tuple[str, list[list[tuple[str, str]]]]:
    """The toy graph as the scratch HNSW builds it: the entry point and each layer's edges."""
    names = list(TOY)
    toy = HNSW(M=3, ef_construction=8, seed=0)
    lifted = [np.array([x - 2.5, y - 2.5, 40.0]) for x, y in TOY.values()]  # the plane, on a sphere's cap
    toy.add(np.stack([v / np.linalg.norm(v) for v in lifted]))
    layers = [sorted((names[a], names[b]) for a, near in layer.items() for b in near if a < b)
              for layer in toy.links]
    return names[toy.entry], layers


def toy_walks() -> dict[str, Any]:
    """The notebook's greedy walk from the entry point, down the layers, by distance in the
    plane: where it ends for each query, and how many nodes it scores (each once)."""
    entry, layers = toy_layers()
    seen: dict[str, Any] = {}
    for query in WALK_QUERIES:
        far = {node: math.dist(xy, query) for node, xy in TOY.items()}
        here, visited = entry, [entry]
        for level in reversed(range(len(layers))):
            while True:  # to the closest neighbour on this layer, while it is closer
                near = [b if a == here else a for a, b in layers[level] if here in (a, b)]
                visited += [node for node in near if node not in visited]
                best = min(near, key=far.__getitem__, default=here)
                if far[best] >= far[here]:
                    break
                here = best
        seen[f"{query}: where the walk ends"], seen[f"{query}: nodes visited"] = here, len(visited)
    return seen


def faiss_at_least(query, centroids, lists, rows, nprobe, k=10) -> tuple[list[int], int]:
    """Exercise 2 (extend)'s oracle: FAISS's IVF holding the same lists, nprobe raised until they hold k."""
    import faiss

    rows, centroids = (np.ascontiguousarray(m, dtype=np.float32) for m in (rows, centroids))
    quantizer = faiss.IndexFlatIP(rows.shape[1])
    quantizer.add(centroids)
    index = faiss.IndexIVFFlat(quantizer, rows.shape[1], len(centroids), faiss.METRIC_INNER_PRODUCT)
    # each row into the list the case names (an empty list is one no row is put in)
    index.add_core(len(rows), faiss.swig_ptr(rows), None,
                   faiss.swig_ptr(np.ascontiguousarray(lists, dtype=np.int64)))
    held = [index.invlists.list_size(j) for j in range(index.nlist)]
    one = np.asarray(query, dtype=np.float32)[None]
    _, order = quantizer.search(one, index.nlist)  # every list, best centroid first
    reached = np.cumsum([held[int(j)] for j in order[0]])
    index.nprobe = max(nprobe, 1 + int(np.argmax(reached >= min(k, reached[-1]))))
    faiss.cvar.indexIVF_stats.reset()
    _, found = index.search(one, k)
    return [int(i) for i in found[0] if i >= 0], int(faiss.cvar.indexIVF_stats.ndis) + index.nlist


def same_answer(mine: Any, expected: tuple[list[int], int]) -> bool:
    """Rows in the same order (as numbers) and the same number of vectors visited."""
    rows, visits = mine
    return [int(r) for r in rows] == expected[0] and int(visits) == expected[1]


def _unit(rows: np.ndarray) -> np.ndarray:
    return (rows / np.linalg.norm(rows, axis=-1, keepdims=True)).astype(np.float32)


def _apart(scores: np.ndarray, gap: float = 1e-5) -> bool:
    return bool(np.diff(np.sort(scores)).min(initial=1.0) > gap)


def at_least_cases(seed: int | None = None, drawn: int = 36) -> list[tuple]:
    """Small random collections (``fresh_seed``): lists short and long, k above n, nprobe from 1
    to nlist, in every third case the query's best lists emptied (their rows moved to another
    list; k of 1 in some, so an empty list counted as a row is caught on every draw), and up to
    three cases with k left to its default."""
    rng = np.random.default_rng(fresh_seed(seed))
    cases = []
    for number in range(drawn):
        while True:  # no near-tie, which float32 rounding in FAISS could order either way
            n, width = int(rng.integers(4, 60)), int(rng.integers(3, 9))
            nlist = int(rng.integers(2, min(9, n)))
            rows = _unit(rng.standard_normal((n, width)))
            centroids = rows[rng.choice(n, nlist, replace=False)].copy()
            query = _unit(rng.standard_normal(width))
            if _apart(rows @ query) and _apart(centroids @ query):
                break
        lists = np.argmax(rows @ centroids.T, axis=1)
        if number % 3 == 0:  # empty the best one or two lists for this query
            ranked = np.argsort(-(centroids @ query))
            lists[np.isin(lists, ranked[: 1 + number % 2])] = ranked[-1]
        nprobe = 1 if number % 3 == 0 else int(rng.integers(1, nlist + 1))
        k = int(rng.integers(1, n + 4)) if number % 2 else int(rng.integers(1, 4))
        if number % 6 == 0:  # best list emptied: k of 1, 2, 3 in turn (1 needs the next list)
            k = 1 + number // 6 % 3
        cases.append((query, centroids, lists, rows, nprobe, k))
    return cases + [case[:5] for case in cases if len(case[3]) > 20][:3]  # k left to its default, 10


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="ivf_search_at_least", modules=["numpy", "math"], refuse=["search", "range_search"]),
}
