"""The members of notebook 06's ``VectorStore`` that the base class only declares.

Why a helper and not notebook cells: each of these seven methods only raises
``NotImplementedError`` (only a backend knows where its documents and vectors live, or what its
scores mean), so they teach nothing after the first; yet the real base class has them, so the
scratch class must too. Notebook 06 attaches them in one cell and shows one. Unlike several real
ones, whose message is empty, each names the method and the class.

Each keeps the real method's name, parameters and defaults. ``self`` is any ``VectorStore``;
this module imports nothing from ``retrieval_lab.scratch`` (helpers never do).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def _declared_only(self: Any, method: str) -> NotImplementedError:
    return NotImplementedError(
        f"{type(self).__name__} does not implement {method} "
        "(the base VectorStore only declares it)."
    )


def get_by_ids(self: Any, ids: Sequence[str], /) -> list[Any]:
    """The stored documents with these ids. The base class cannot know where they live."""
    raise NotImplementedError(f"{type(self).__name__} does not yet support get_by_ids.")


def delete(self: Any, ids: list[str] | None = None, **kwargs: Any) -> bool | None:
    """Remove documents by id. The base class cannot know where they live."""
    raise NotImplementedError("delete method must be implemented by subclass.")


def similarity_search_with_score(self: Any, *args: Any, **kwargs: Any) -> list[tuple[Any, float]]:
    """``(document, score)`` pairs; what the score means is the backend's business."""
    raise _declared_only(self, "similarity_search_with_score")


def similarity_search_by_vector(
    self: Any, embedding: list[float], k: int = 4, **kwargs: Any
) -> list[Any]:
    """Search with a vector you already have, skipping the query embedding."""
    raise NotImplementedError(
        f"{type(self).__name__} does not implement similarity_search_by_vector "
        "(the base VectorStore only declares it)."
    )


def max_marginal_relevance_search(
    self: Any, query: str, k: int = 4, fetch_k: int = 20, lambda_mult: float = 0.5, **kwargs: Any
) -> list[Any]:
    """Fetch ``fetch_k`` candidates, then pick ``k`` that are relevant *and* differ from each other."""
    raise _declared_only(self, "max_marginal_relevance_search")


def max_marginal_relevance_search_by_vector(
    self: Any,
    embedding: list[float],
    k: int = 4,
    fetch_k: int = 20,
    lambda_mult: float = 0.5,
    **kwargs: Any,
) -> list[Any]:
    """MMR with a vector you already have."""
    raise _declared_only(self, "max_marginal_relevance_search_by_vector")


def _select_relevance_score_fn(self: Any) -> Callable[[float], float]:
    """How to map this backend's raw score to [0, 1]: only the backend knows its metric."""
    raise NotImplementedError(
        f"{type(self).__name__} defines no relevance function (_select_relevance_score_fn), "
        "so it cannot normalise scores to [0, 1]; use similarity_search_with_score instead."
    )


#: Attached to ``VectorStore`` by one cell of notebook 06, in this order.
DECLARED = (
    get_by_ids,
    delete,
    similarity_search_with_score,
    similarity_search_by_vector,
    max_marginal_relevance_search,
    max_marginal_relevance_search_by_vector,
    _select_relevance_score_fn,
)
