"""The async twins of notebook 06's ``VectorStore`` that only run their sync twin in a thread.

Why a helper and not notebook cells: these eight methods teach nothing a learner has not seen
(each awaits ``in_thread(the sync method, same arguments)``, as langchain-core's
``run_in_executor`` does), yet the real base class has them, so the scratch class must too.
Notebook 06 attaches them in one cell and shows one; the twins that do more than that (those
that await *another* twin: ``aadd_texts``, ``aadd_documents``, ``afrom_documents``, ``asearch``,
the relevance-score twins) are built in its deep dive.

Each keeps the real method's name, parameters and defaults. ``self`` is any ``VectorStore``;
this module imports nothing from ``retrieval_lab.scratch`` (helpers never do).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from retrieval_lab.runtime.concurrency import in_thread


async def aget_by_ids(self: Any, ids: Sequence[str], /) -> list[Any]:
    """``get_by_ids`` in a worker thread."""
    return await in_thread(self.get_by_ids, ids)


async def adelete(self: Any, ids: list[str] | None = None, **kwargs: Any) -> bool | None:
    """``delete`` in a worker thread."""
    return await in_thread(self.delete, ids, **kwargs)


async def asimilarity_search(self: Any, query: str, k: int = 4, **kwargs: Any) -> list[Any]:
    """``similarity_search`` in a worker thread."""
    return await in_thread(self.similarity_search, query, k=k, **kwargs)


async def asimilarity_search_with_score(self: Any, *args: Any, **kwargs: Any) -> list[tuple[Any, float]]:
    """``similarity_search_with_score`` in a worker thread."""
    return await in_thread(self.similarity_search_with_score, *args, **kwargs)


async def asimilarity_search_by_vector(
    self: Any, embedding: list[float], k: int = 4, **kwargs: Any
) -> list[Any]:
    """``similarity_search_by_vector`` in a worker thread."""
    return await in_thread(self.similarity_search_by_vector, embedding, k=k, **kwargs)


async def amax_marginal_relevance_search(
    self: Any, query: str, k: int = 4, fetch_k: int = 20, lambda_mult: float = 0.5, **kwargs: Any
) -> list[Any]:
    """``max_marginal_relevance_search`` in a worker thread."""
    return await in_thread(
        self.max_marginal_relevance_search, query, k=k, fetch_k=fetch_k, lambda_mult=lambda_mult, **kwargs
    )


async def amax_marginal_relevance_search_by_vector(
    self: Any, embedding: list[float], k: int = 4, fetch_k: int = 20, lambda_mult: float = 0.5, **kwargs: Any
) -> list[Any]:
    """``max_marginal_relevance_search_by_vector`` in a worker thread."""
    return await in_thread(
        self.max_marginal_relevance_search_by_vector,
        embedding, k=k, fetch_k=fetch_k, lambda_mult=lambda_mult, **kwargs,
    )


async def afrom_texts(
    cls: Any,
    texts: list[str],
    embedding: Any,
    metadatas: list[dict[str, Any]] | None = None,
    *,
    ids: list[str] | None = None,
    **kwargs: Any,
) -> Any:
    """The class method ``from_texts`` in a worker thread (``ids`` passed on only when given)."""
    if ids is not None:
        kwargs["ids"] = ids
    return await in_thread(cls.from_texts, texts, embedding, metadatas, **kwargs)


#: What notebook 06 attaches to ``VectorStore``, each under its own name.
THREADED_TWINS = (
    aget_by_ids,
    adelete,
    asimilarity_search,
    asimilarity_search_with_score,
    asimilarity_search_by_vector,
    amax_marginal_relevance_search,
    amax_marginal_relevance_search_by_vector,
    classmethod(afrom_texts),
)
