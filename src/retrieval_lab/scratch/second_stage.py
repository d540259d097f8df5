# GENERATED from notebooks/15_second_stage.ipynb by `make export`: do not edit.
# Edit the notebook's cells tagged "export", run them, then run `make export`.
# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).

# %% notebooks/15_second_stage.ipynb, cell 7
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from retrieval_lab.runtime.concurrency import in_thread
from retrieval_lab.runtime.oop import add_to_class
from retrieval_lab.scratch.document import Document
from retrieval_lab.scratch.retrievers import BaseRetriever
from retrieval_lab.scratch.runnables import CallbackManager, RunManager, ensure_config


# %% notebooks/15_second_stage.ipynb, cell 8
class BaseDocumentCompressor(ABC):
    """The second stage: documents and a query in, the ones worth keeping out."""

    @abstractmethod
    def compress_documents(
        self, documents: Sequence[Document], query: str, callbacks: Any = None
    ) -> Sequence[Document]:
        """Rerank, filter or trim ``documents`` for ``query``."""

    async def acompress_documents(
        self, documents: Sequence[Document], query: str, callbacks: Any = None
    ) -> Sequence[Document]:
        """The async twin: the sync method in a worker thread, as the real one does."""
        return await in_thread(self.compress_documents, documents, query, callbacks)


# %% notebooks/15_second_stage.ipynb, cell 15
class CrossEncoderReranker(BaseDocumentCompressor):
    """Score each (query, passage) pair with a cross-encoder; keep the best top_n."""

    def __init__(self, *, model: Any, top_n: int = 3) -> None:
        self.model = model  # anything with score(text_pairs) -> list of numbers
        self.top_n = top_n

    def __repr__(self) -> str:
        return f"CrossEncoderReranker(model={self.model!r}, top_n={self.top_n})"


# %% notebooks/15_second_stage.ipynb, cell 16
@add_to_class(CrossEncoderReranker)
def compress_documents(
    self, documents: Sequence[Document], query: str, callbacks: Any = None
) -> Sequence[Document]:
    """Best score first; equal scores keep their input order (a stable sort)."""
    scores = self.model.score([(query, doc.page_content) for doc in documents])
    scored = list(zip(documents, scores, strict=False))  # as the real one: not strict
    best_first = sorted(scored, key=lambda pair: pair[1], reverse=True)
    return [doc for doc, _ in best_first[: self.top_n]]


# %% notebooks/15_second_stage.ipynb, cell 20
def cosine_matrix(x: Any, y: Any) -> np.ndarray:
    """Cosine of each row of x with each row of y; a zero vector scores 0."""
    if len(x) == 0 or len(y) == 0:
        return np.array([[]])
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    norms = np.outer(np.linalg.norm(x, axis=1), np.linalg.norm(y, axis=1))
    with np.errstate(divide="ignore", invalid="ignore"):
        similarity = x @ y.T / norms
    similarity[~np.isfinite(similarity)] = 0.0
    return similarity


# %% notebooks/15_second_stage.ipynb, cell 21
class EmbeddingsFilter(BaseDocumentCompressor):
    """Keep the k documents most similar to the query, then those above a threshold."""

    def __init__(
        self, *, embeddings: Any, similarity_fn: Callable = cosine_matrix,
        k: int | None = 20, similarity_threshold: float | None = None,
    ) -> None:
        self.embeddings, self.similarity_fn = embeddings, similarity_fn
        self.k = 20 if k is None else k  # as the real one does (see the deep dive)
        self.similarity_threshold = similarity_threshold


# %% notebooks/15_second_stage.ipynb, cell 22
@add_to_class(EmbeddingsFilter)
def compress_documents(
    self, documents: Sequence[Document], query: str, callbacks: Any = None
) -> Sequence[Document]:
    """The k most similar, best first, then only those above the threshold."""
    if not documents:
        return []  # the real one raises IndexError (deep dive)
    vectors = self.embeddings.embed_documents([d.page_content for d in documents])
    query_vector = self.embeddings.embed_query(query)
    similarity = np.asarray(self.similarity_fn([query_vector], vectors))[0]
    kept = np.arange(len(vectors))
    if self.k is not None:
        kept = np.argsort(similarity)[::-1][: self.k]  # the real one's call
    if self.similarity_threshold is not None:
        kept = kept[similarity[kept] > self.similarity_threshold]  # strictly above
    return [documents[i] for i in kept]


# %% notebooks/15_second_stage.ipynb, cell 26
class ContextualCompressionRetriever(BaseRetriever):
    """Fetch with ``base_retriever``, then run ``base_compressor`` on what came."""

    base_compressor: BaseDocumentCompressor
    base_retriever: Any

    def _get_relevant_documents(
        self, query: str, *, run_manager: RunManager, **kwargs: Any
    ) -> list[Document]:
        docs = self.base_retriever.invoke(
            query, config={"callbacks": run_manager.get_child()}, **kwargs
        )
        if not docs:
            return []
        return list(self.base_compressor.compress_documents(
            docs, query, callbacks=run_manager.get_child()
        ))


# %% notebooks/15_second_stage.ipynb, cell 100
@add_to_class(ContextualCompressionRetriever)
def _start_run(self, input: str, config: Any = None, **kwargs: Any) -> RunManager:
    """Notebook 09's invoke up to on_retriever_start: the run this call reports."""
    config = ensure_config(config)
    manager = CallbackManager.configure(
        config["callbacks"],
        inheritable_tags=config["tags"],
        local_tags=self.tags,
        inheritable_metadata={**config["metadata"], **self._get_ls_params(**kwargs)},
        local_metadata=self.metadata,
    )
    return manager.on_retriever_start(
        None, input, name=config["run_name"] or self.get_name()
    )


# %% notebooks/15_second_stage.ipynb, cell 101
@add_to_class(ContextualCompressionRetriever)
async def ainvoke(
    self, input: str, config: Any = None, **kwargs: Any
) -> list[Document]:
    """fetch, then compress, each awaited; the same callbacks as invoke."""
    run = self._start_run(input, config, **kwargs)
    try:
        docs = await self.base_retriever.ainvoke(
            input, config={"callbacks": run.get_child()}, **kwargs
        )
        result = list(await self.base_compressor.acompress_documents(
            docs, input, callbacks=run.get_child()
        )) if docs else []
    except Exception as exc:
        run.on_retriever_error(exc)
        raise
    run.on_retriever_end(result)
    return result
