# GENERATED from notebooks/14_measuring_retrieval.ipynb by `make export`: do not edit.
# Edit the notebook's cells tagged "export", run them, then run `make export`.
# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).

# %% notebooks/14_measuring_retrieval.ipynb, cell 12
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any


# %% notebooks/14_measuring_retrieval.ipynb, cell 13
def chunk_labels(
    spans: Sequence[Mapping[str, Any]], chunks: Sequence[Any]
) -> dict[str, int]:
    """{chunk id: grade} for each chunk whose text overlaps a judged span of its topic;
    a chunk overlapping several spans takes the highest grade."""
    labels: dict[str, int] = {}
    for chunk in chunks:
        topic, start = chunk.metadata["topic"], chunk.metadata["start_index"]
        end = start + len(chunk.page_content)  # the chunk is [start, end) of its topic
        for span in spans:
            if span["doc"] == topic and start < span["end"] and span["start"] < end:
                labels[chunk.id] = max(labels.get(chunk.id, 0), span["grade"])
    return labels


# %% notebooks/14_measuring_retrieval.ipynb, cell 22
def _checked_ranking(ranked_ids: Sequence[str]) -> Sequence[str]:
    """A ranking lists each id once: trec_eval could not even hold a repeat."""
    if isinstance(ranked_ids, str):
        raise TypeError(f"ranked_ids is a list of ids, not one string {ranked_ids!r}.")
    if len(set(ranked_ids)) != len(ranked_ids):
        raise ValueError(f"ranked_ids repeats an id: {list(ranked_ids)[:10]}...")
    return ranked_ids


def _first_k(ranked_ids: Sequence[str], k: int) -> Sequence[str]:
    """The top k of a checked ranking (k >= 1, as trec_eval's cut-offs)."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a whole number of at least 1, got {k!r}.")
    return _checked_ranking(ranked_ids)[:k]


# %% notebooks/14_measuring_retrieval.ipynb, cell 24
def hit_rate_at_k(
    ranked_ids: Sequence[str], relevant: Mapping[str, int], k: int
) -> float:
    """1.0 if a relevant id (grade >= 1) is in the top k, else 0.0 (success@k)."""
    return float(any(relevant.get(i, 0) >= 1 for i in _first_k(ranked_ids, k)))


# %% notebooks/14_measuring_retrieval.ipynb, cell 27
def recall_at_k(
    ranked_ids: Sequence[str], relevant: Mapping[str, int], k: int
) -> float:
    """The share of the relevant ids that are in the top k; 0.0 if none is relevant."""
    found = sum(relevant.get(i, 0) >= 1 for i in _first_k(ranked_ids, k))
    total = sum(grade >= 1 for grade in relevant.values())
    return found / total if total else 0.0


# %% notebooks/14_measuring_retrieval.ipynb, cell 30
def precision_at_k(
    ranked_ids: Sequence[str], relevant: Mapping[str, int], k: int
) -> float:
    """Relevant ids in the top k, divided by k: a short list pays for its gaps."""
    return sum(relevant.get(i, 0) >= 1 for i in _first_k(ranked_ids, k)) / k


# %% notebooks/14_measuring_retrieval.ipynb, cell 33
def reciprocal_rank(ranked_ids: Sequence[str], relevant: Mapping[str, int]) -> float:
    """1 / the rank of the first relevant id; 0.0 if the ranking holds none."""
    for rank, doc_id in enumerate(_checked_ranking(ranked_ids), start=1):
        if relevant.get(doc_id, 0) >= 1:
            return 1 / rank
    return 0.0


# %% notebooks/14_measuring_retrieval.ipynb, cell 36
def _dcg(gains: Sequence[float]) -> float:
    """Discounted cumulative gain: the gain at rank r counts 1 / log2(r + 1)."""
    return sum(gain / math.log2(rank + 1) for rank, gain in enumerate(gains, start=1))


def ndcg_at_k(ranked_ids: Sequence[str], relevant: Mapping[str, int], k: int) -> float:
    """DCG of the top k (gain = grade) over the best DCG the judgments allow."""
    got = _dcg([relevant.get(i, 0) for i in _first_k(ranked_ids, k)])
    best = _dcg(sorted(relevant.values(), reverse=True)[:k])
    return got / best if best > 0 else 0.0


# %% notebooks/14_measuring_retrieval.ipynb, cell 39
def mean_over(
    metric: Callable[..., float],
    runs: Mapping[str, Sequence[str]],
    qrels: Mapping[str, Mapping[str, int]],
    **options: Any,
) -> float:
    """The mean of ``metric`` over the questions that have judgments, as trec_eval
    averages over the queries its qrels name: a question judged ``{}`` is left out."""
    judged = [q for q, labels in qrels.items() if labels]
    if not judged:
        raise ValueError("no question has judgments: there is nothing to average.")
    missing = [q for q in judged if q not in runs]
    if missing:
        raise KeyError(f"no ranking for the judged question(s) {missing[:5]}.")
    values = [metric(runs[q], qrels[q], **options) for q in judged]
    return math.fsum(values) / len(values)


# %% notebooks/14_measuring_retrieval.ipynb, cell 45
def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[str]],
    weights: Sequence[float] | None = None,
    c: int = 60,
) -> list[str]:
    """Fuse rankings of ids: an id scores the sum of weight / (rank + c) over the
    rankings that hold it. Best first; equal scores keep the order in which the ids
    first appear (ranking 1 first): EnsembleRetriever's rule."""
    if not rankings:
        raise ValueError("give at least one ranking to fuse.")
    if weights is None:
        weights = [1 / len(rankings)] * len(rankings)
    if len(weights) != len(rankings):
        raise ValueError(f"got {len(weights)} weights for {len(rankings)} rankings.")
    if not any(w > 0 for w in weights):
        raise ValueError("at least one weight must be greater than zero.")
    scores: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        for rank, doc_id in enumerate(ranking, start=1):
            scores[doc_id] = scores.get(doc_id, 0.0) + weight / (rank + c)
    return sorted(scores, key=scores.__getitem__, reverse=True)
