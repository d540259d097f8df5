"""The async methods of notebook 07's ``InMemoryVectorStore`` that await the embedding model.

Why a helper and not notebook cells: the idea fits in a sentence (await the model's own
``aembed_documents`` / ``aembed_query``, then share the sync method's work), and the five
methods repeat it; yet the real store has them, so the scratch class must too. Notebook 07
attaches them in one cell, and its deep dive shows them at work on a model that only answers
``await``. The other async twins are inherited from notebook 06's ``VectorStore``.

Each keeps the real method's name, parameters and defaults. ``self`` is any store with the
scratch ``InMemoryVectorStore``'s ``embedding``, ``_upsert`` and ``…_by_vector`` methods; this
module imports nothing from ``retrieval_lab.scratch`` (helpers never do).
"""

from __future__ import annotations

from typing import Any


async def aadd_documents(
    self: Any, documents: list[Any], ids: list[str] | None = None, **kwargs: Any
) -> list[str]:
    """Await the model's ``aembed_documents``, then file the documents as ``add_documents`` does."""
    texts = [doc.page_content for doc in documents]
    vectors = await self.embedding.aembed_documents(texts)
    return self._upsert(documents, vectors, ids)


async def asimilarity_search_with_score(
    self: Any, query: str, k: int = 4, **kwargs: Any
) -> list[tuple[Any, float]]:
    """Await the model's ``aembed_query``, then search by that vector."""
    embedding = await self.embedding.aembed_query(query)
    return self.similarity_search_with_score_by_vector(embedding, k, **kwargs)


async def asimilarity_search(self: Any, query: str, k: int = 4, **kwargs: Any) -> list[Any]:
    """``asimilarity_search_with_score``, without the scores."""
    found = await self.asimilarity_search_with_score(query, k, **kwargs)
    return [doc for doc, _ in found]


async def amax_marginal_relevance_search(
    self: Any, query: str, k: int = 4, fetch_k: int = 20, lambda_mult: float = 0.5, **kwargs: Any
) -> list[Any]:
    """Await the model's ``aembed_query``, then run MMR by that vector."""
    embedding = await self.embedding.aembed_query(query)
    return self.max_marginal_relevance_search_by_vector(
        embedding, k, fetch_k, lambda_mult=lambda_mult, **kwargs
    )


async def _afrom_texts(
    cls: Any, texts: list[str], embedding: Any, metadatas: list[dict[str, Any]] | None = None,
    **kwargs: Any,
) -> Any:
    """Like the real one: build the store, then await ``aadd_texts``."""
    store = cls(embedding=embedding)
    await store.aadd_texts(texts=texts, metadatas=metadatas, **kwargs)
    return store


_afrom_texts.__name__ = _afrom_texts.__qualname__ = "afrom_texts"
afrom_texts = classmethod(_afrom_texts)

#: Attached to ``InMemoryVectorStore`` by one cell of notebook 07, in this order.
AWAITING_TWINS = (
    aadd_documents,
    asimilarity_search_with_score,
    asimilarity_search,
    amax_marginal_relevance_search,
    afrom_texts,
)
