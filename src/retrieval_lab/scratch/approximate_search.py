# GENERATED from notebooks/12_approximate_search.ipynb by `make export`: do not edit.
# Edit the notebook's cells tagged "export", run them, then run `make export`.
# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).

# %% notebooks/12_approximate_search.ipynb, cell 17
import heapq
import math

import numpy as np

from retrieval_lab.runtime.oop import add_to_class


class HNSW:
    """A layered graph over unit vectors, scored by inner product (Malkov & Yashunin).

    Node i is row i of the vectors added. Each node has a top layer, drawn at random; on
    each layer up to its top it links to a few near neighbours.
    """

    def __init__(
        self, M: int = 16, ef_construction: int = 40, seed: int = 0  # noqa: N803
    ) -> None:
        if M < 2 or ef_construction < 1:
            raise ValueError(f"HNSW needs M >= 2 and ef_construction >= 1, got {M}, "
                             f"{ef_construction}.")
        self.M, self.ef_construction = M, ef_construction
        self.level_mult = 1 / math.log(M)  # mL: a node reaches layer l w.p. M**-l
        self.rng = np.random.default_rng(seed)
        self.vectors = np.zeros((0, 0), dtype=np.float32)  # row i: node i
        self.links: list[dict[int, list[int]]] = []  # links[layer][node]: neighbours
        self.entry, self.top = -1, -1  # where every search starts, and its top layer
        self.visits = 0  # vectors scored since the counter was last reset


# %% notebooks/12_approximate_search.ipynb, cell 18
@add_to_class(HNSW)
def max_links(self, layer: int) -> int:
    """M links a node on the upper layers, 2M on layer 0, which holds every node."""
    return 2 * self.M if layer == 0 else self.M


@add_to_class(HNSW)
def draw_level(self) -> int:
    """A new node's top layer: floor(-ln U * mL) for U uniform in (0, 1]."""
    return int(-math.log(1.0 - self.rng.random()) * self.level_mult)


# %% notebooks/12_approximate_search.ipynb, cell 22
@add_to_class(HNSW)
def search_layer(self, query, entries: list, ef: int, layer: int) -> list:
    """Best-first beam search of one layer: the ef best (score, node), best first."""
    seen = set(entries)
    scores = (self.vectors[entries] @ query).tolist()
    best = sorted(zip(scores, entries, strict=True))[-ef:]  # min-heap: worst on top
    todo = [(-score, node) for score, node in best]  # max-heap: best to expand first
    heapq.heapify(todo)
    while todo:
        minus_score, node = heapq.heappop(todo)
        if -minus_score < best[0][0]:
            break  # the best node left to expand is worse than every node kept
        fresh = [near for near in self.links[layer][node] if near not in seen]
        seen.update(fresh)
        scores = (self.vectors[fresh] @ query).tolist()
        for score, near in zip(scores, fresh, strict=True):
            if len(best) < ef or score > best[0][0]:
                heapq.heappush(todo, (-score, near))
                heapq.heappush(best, (score, near))
                if len(best) > ef:
                    heapq.heappop(best)  # drop the worst: the beam holds ef nodes
    self.visits += len(seen)
    return sorted(best, reverse=True)


# %% notebooks/12_approximate_search.ipynb, cell 24
@add_to_class(HNSW)
def select(self, scored: list, limit: int) -> list:
    """The paper's heuristic: take candidates best first; keep one only if it is
    nearer the base node than every candidate kept so far. At most limit of them."""
    rows = self.vectors[[node for _, node in scored]]
    closest_kept = np.full(len(scored), -np.inf, dtype=np.float32)
    kept = []
    for j, (score, node) in enumerate(scored):
        if closest_kept[j] < score:  # nearer the base than any kept neighbour
            kept.append(node)
            if len(kept) == limit:
                break
            np.maximum(closest_kept, rows @ rows[j], out=closest_kept)
    return kept


# %% notebooks/12_approximate_search.ipynb, cell 26
@add_to_class(HNSW)
def link(self, node: int, new: int, layer: int) -> None:
    """Add the link node -> new; when node's list is full, reselect it with select()."""
    near = self.links[layer][node]
    if len(near) < self.max_links(layer):
        near.append(new)
        return
    candidates = [*near, new]
    scores = (self.vectors[candidates] @ self.vectors[node]).tolist()
    scored = sorted(zip(scores, candidates, strict=True), reverse=True)
    self.links[layer][node] = self.select(scored, self.max_links(layer))


# %% notebooks/12_approximate_search.ipynb, cell 28
@add_to_class(HNSW)
def insert(self, node: int) -> None:
    """Link an added row into the graph, from the top layer down."""
    query, level = self.vectors[node], self.draw_level()
    while len(self.links) <= level:
        self.links.append({})
    for layer in range(level + 1):
        self.links[layer][node] = []
    if self.entry < 0:  # the first node: nothing to link to
        self.entry, self.top = node, level
        return
    entries = [self.entry]
    for layer in range(self.top, level, -1):  # above its level: a greedy walk (ef=1)
        entries = [self.search_layer(query, entries, 1, layer)[0][1]]
    for layer in range(min(level, self.top), -1, -1):
        found = self.search_layer(query, entries, self.ef_construction, layer)
        self.links[layer][node] = self.select(found, self.max_links(layer))
        for near in self.links[layer][node]:
            self.link(near, node, layer)  # links go both ways
        entries = [near for _, near in found]
    if level > self.top:
        self.entry, self.top = node, level


# %% notebooks/12_approximate_search.ipynb, cell 29
@add_to_class(HNSW)
def add(self, vectors) -> None:
    """Append rows (2-D, unit length) and insert them one by one, in order."""
    rows = np.asarray(vectors, dtype=np.float32)
    if rows.ndim != 2 or (len(self.vectors) and rows.shape[1] != self.vectors.shape[1]):
        raise ValueError(f"add() takes a 2-D array of vectors of one width; got "
                         f"shape {rows.shape}.")
    start = len(self.vectors)
    self.vectors = rows.copy() if start == 0 else np.vstack([self.vectors, rows])
    for node in range(start, len(self.vectors)):
        self.insert(node)


# %% notebooks/12_approximate_search.ipynb, cell 31
@add_to_class(HNSW)
def search(self, query, k: int = 10, ef: int = 16) -> tuple[list[int], int]:
    """The k best nodes for query, best first, and the number of vectors scored."""
    if self.entry < 0:
        return [], 0
    query = np.asarray(query, dtype=np.float32)
    self.visits, entries = 0, [self.entry]
    for layer in range(self.top, 0, -1):  # the upper layers: a greedy walk
        entries = [self.search_layer(query, entries, 1, layer)[0][1]]
    found = self.search_layer(query, entries, max(ef, k), 0)
    return [node for _, node in found[:k]], self.visits
