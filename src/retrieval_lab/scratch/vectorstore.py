# GENERATED from notebooks/06_vectorstore.ipynb by `make export`: do not edit.
# Edit the notebook's cells tagged "export", run them, then run `make export`.
# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).

# %% notebooks/06_vectorstore.ipynb, cell 5
import math
from abc import ABC, abstractmethod
from collections.abc import Iterable
from itertools import cycle
from typing import Any, TypeVar

from retrieval_lab.scratch.document import Document
from retrieval_lab.scratch.embeddings import Embeddings

VST = TypeVar("VST", bound="VectorStore")

_RETRIEVER_MODULE = "retrieval_lab.scratch.vectorstore_retriever"


# %% notebooks/06_vectorstore.ipynb, cell 7
from retrieval_lab.runtime.oop import add_to_class


# %% notebooks/06_vectorstore.ipynb, cell 8
class VectorStore(ABC):
    """Documents in, the nearest documents to a query out: a backend's contract."""

    # the two abstract members: what every backend must write
    @abstractmethod
    def similarity_search(
        self, query: str, k: int = 4, **kwargs: Any
    ) -> list[Document]:
        """The ``k`` documents most similar to ``query``, best first."""

    @classmethod
    @abstractmethod
    def from_texts(
        cls: type[VST],
        texts: list[str],
        embedding: Embeddings,
        metadatas: list[dict[str, Any]] | None = None,
        *,
        ids: list[str] | None = None,
        **kwargs: Any,
    ) -> VST:
        """A store of this class, from plain texts (and their metadata and ids)."""


# %% notebooks/06_vectorstore.ipynb, cell 9
def _documents_from_texts(
    texts: list[str] | tuple[str, ...],
    metadatas: list[dict[str, Any]] | None,
    ids: list[str] | None,
) -> list[Document]:
    """One Document per text: no metadatas means ``{}`` each, no ids means None each."""
    if metadatas and len(metadatas) != len(texts):
        raise ValueError(
            f"The number of metadatas must match the number of texts. "
            f"Got {len(metadatas)} metadatas and {len(texts)} texts."
        )
    metadata_iter = iter(metadatas) if metadatas else cycle([{}])
    id_iter = iter(ids) if ids else cycle([None])
    return [
        Document(page_content=text, metadata=metadata, id=id_)
        for text, metadata, id_ in zip(texts, metadata_iter, id_iter, strict=False)
    ]


# %% notebooks/06_vectorstore.ipynb, cell 11
@add_to_class(VectorStore)
def add_texts(
    self,
    texts: Iterable[str],
    metadatas: list[dict[str, Any]] | None = None,
    *,
    ids: list[str] | None = None,
    **kwargs: Any,
) -> list[str]:
    """Wrap each text in a Document and hand them to the backend's ``add_documents``."""
    if type(self).add_documents is VectorStore.add_documents:
        raise NotImplementedError(
            f"`add_texts` has not been implemented for {type(self).__name__}: "
            "override add_texts or add_documents (either one is enough)."
        )
    texts = texts if isinstance(texts, list | tuple) else list(texts)
    docs = _documents_from_texts(texts, metadatas, ids)
    if ids is not None:
        kwargs["ids"] = ids
    return self.add_documents(docs, **kwargs)


# %% notebooks/06_vectorstore.ipynb, cell 12
@add_to_class(VectorStore)
def add_documents(self, documents: list[Document], **kwargs: Any) -> list[str]:
    """Unpack the documents for the backend's ``add_texts``; their ids go along only if
    one has an id and the caller gave no ``ids=``."""
    if type(self).add_texts is VectorStore.add_texts:
        raise NotImplementedError(
            "`add_documents` and `add_texts` has not been "
            f"implemented for {type(self).__name__}: "
            "override one of them (the other is then defined in terms of it)."
        )
    if "ids" not in kwargs:
        ids = [doc.id for doc in documents]
        if any(ids):
            kwargs["ids"] = ids
    texts = [doc.page_content for doc in documents]
    metadatas = [doc.metadata for doc in documents]
    return self.add_texts(texts, metadatas, **kwargs)


# %% notebooks/06_vectorstore.ipynb, cell 13
@add_to_class(VectorStore)
@classmethod
def from_documents(
    cls: type[VST], documents: list[Document], embedding: Embeddings, **kwargs: Any
) -> VST:
    """Unpack the documents for ``from_texts`` (ids only if one has an id)."""
    texts = [doc.page_content for doc in documents]
    metadatas = [doc.metadata for doc in documents]
    if "ids" not in kwargs:
        ids = [doc.id for doc in documents]
        if any(ids):
            kwargs["ids"] = ids
    return cls.from_texts(texts, embedding, metadatas=metadatas, **kwargs)



@add_to_class(VectorStore)
@property
def embeddings(self) -> Embeddings | None:
    """The store's embedding model, if the backend exposes one (None here)."""
    return None


# %% notebooks/06_vectorstore.ipynb, cell 15
# what only a backend can do: declared here, raising until a backend overrides it
from retrieval_lab.runtime.vectorstore_declared import DECLARED

for _member in DECLARED:
    add_to_class(VectorStore)(_member)


# %% notebooks/06_vectorstore.ipynb, cell 18
@add_to_class(VectorStore)
@staticmethod
def _cosine_relevance_score_fn(distance: float) -> float:
    """Cosine distance (0 = same direction, 1 = perpendicular) -> 1 - distance."""
    return 1.0 - distance


@add_to_class(VectorStore)
@staticmethod
def _euclidean_relevance_score_fn(distance: float) -> float:
    """L2 distance of unit vectors (0 same, sqrt 2 perpendicular) -> 1 - d / sqrt 2."""
    return 1.0 - distance / math.sqrt(2)


@add_to_class(VectorStore)
@staticmethod
def _max_inner_product_relevance_score_fn(distance: float) -> float:
    """A positive input is read as a distance (1 - d); any other is negated (-d)."""
    if distance > 0:
        return 1.0 - distance
    return -1.0 * distance


# %% notebooks/06_vectorstore.ipynb, cell 20
@add_to_class(VectorStore)
def search(self, query: str, search_type: str, **kwargs: Any) -> list[Document]:
    """Dispatch on ``search_type``: the switch a retriever uses."""
    if search_type == "similarity":
        return self.similarity_search(query, **kwargs)
    if search_type == "similarity_score_threshold":
        return [
            doc
            for doc, _ in self.similarity_search_with_relevance_scores(query, **kwargs)
        ]
    if search_type == "mmr":
        return self.max_marginal_relevance_search(query, **kwargs)
    raise ValueError(
        f"search_type of {search_type} not allowed. Expected search_type to be "
        "'similarity', 'similarity_score_threshold' or 'mmr'."
    )


# %% notebooks/06_vectorstore.ipynb, cell 21
@add_to_class(VectorStore)
def _get_retriever_tags(self) -> list[str]:
    """The store's class name, and its embedder's if it has one: how traces label it."""
    tags = [type(self).__name__]
    if self.embeddings:
        tags.append(type(self.embeddings).__name__)
    return tags


# %% notebooks/06_vectorstore.ipynb, cell 22
@add_to_class(VectorStore)
def as_retriever(self, **kwargs: Any) -> Any:
    """This store in a ``VectorStoreRetriever``, imported when first needed: notebook
    10 builds it."""
    try:
        from retrieval_lab.scratch.vectorstore_retriever import (
            VectorStoreRetriever,
        )  # built in notebook 10
    except ModuleNotFoundError as exc:
        if exc.name != _RETRIEVER_MODULE:
            raise
        raise NotImplementedError(
            "as_retriever needs VectorStoreRetriever, which is built in notebook 10 "
            f"({_RETRIEVER_MODULE}); it does not exist yet - run "
            "notebook 10 and `make export`."
        ) from None
    tags = kwargs.pop("tags", None) or self._get_retriever_tags()
    return VectorStoreRetriever(vectorstore=self, tags=tags, **kwargs)


# %% notebooks/06_vectorstore.ipynb, cell 66
import logging
import warnings

logger = logging.getLogger(__name__)
logger.addHandler(logging.NullHandler())  # a library logs; the application prints


# %% notebooks/06_vectorstore.ipynb, cell 67
@add_to_class(VectorStore)
def _similarity_search_with_relevance_scores(
    self, query: str, k: int = 4, **kwargs: Any
) -> list[tuple[Document, float]]:
    """The backend's raw scores, each mapped by its relevance function."""
    relevance = self._select_relevance_score_fn()  # raises first, before any embedding
    pairs = self.similarity_search_with_score(query, k, **kwargs)
    return [(doc, relevance(score)) for doc, score in pairs]


def _kept_above(
    pairs: list[tuple[Document, float]], score_threshold: float | None
) -> list[tuple[Document, float]]:
    """Warn about scores outside [0, 1] (NaN passes, as in the real one); keep those
    >= the threshold, and log it when none is left (printed only if the application
    configures logging; the real one's logger prints it to stderr anyway)."""
    if any(score < 0.0 or score > 1.0 for _, score in pairs):
        warnings.warn(
            f"Relevance scores must be between 0 and 1, got {pairs}", stacklevel=3
        )
    if score_threshold is None:
        return pairs
    kept = [(doc, score) for doc, score in pairs if score >= score_threshold]
    if not kept:
        logger.warning(
            "No relevant docs were retrieved using the relevance score threshold %s",
            score_threshold,
        )
    return kept


# %% notebooks/06_vectorstore.ipynb, cell 68
@add_to_class(VectorStore)
def similarity_search_with_relevance_scores(
    self, query: str, k: int = 4, **kwargs: Any
) -> list[tuple[Document, float]]:
    """Scores in [0, 1] from the backend's relevance function; keeps ``>=
    score_threshold`` when one is given."""
    score_threshold = kwargs.pop("score_threshold", None)
    pairs = self._similarity_search_with_relevance_scores(query, k=k, **kwargs)
    return _kept_above(pairs, score_threshold)


# %% notebooks/06_vectorstore.ipynb, cell 76
# The eight twins that only run their sync twin in a worker thread (a course helper)
from retrieval_lab.runtime.concurrency import in_thread as _in_thread
from retrieval_lab.runtime.vectorstore_async import THREADED_TWINS

for _twin in THREADED_TWINS:
    add_to_class(VectorStore)(_twin)


# %% notebooks/06_vectorstore.ipynb, cell 80
@add_to_class(VectorStore)
async def aadd_texts(
    self,
    texts: Iterable[str],
    metadatas: list[dict[str, Any]] | None = None,
    *,
    ids: list[str] | None = None,
    **kwargs: Any,
) -> list[str]:
    """The backend's own ``aadd_documents`` if it wrote one, else ``add_texts`` in a
    worker thread."""
    if ids is not None:
        kwargs["ids"] = ids
    if type(self).aadd_documents is not VectorStore.aadd_documents:
        texts = texts if isinstance(texts, list | tuple) else list(texts)
        docs = _documents_from_texts(texts, metadatas, ids)
        return await self.aadd_documents(docs, **kwargs)
    return await _in_thread(self.add_texts, texts, metadatas, **kwargs)


# %% notebooks/06_vectorstore.ipynb, cell 81
@add_to_class(VectorStore)
async def aadd_documents(self, documents: list[Document], **kwargs: Any) -> list[str]:
    """The backend's own ``aadd_texts`` if it wrote one, else ``add_documents`` in a
    worker thread."""
    if type(self).aadd_texts is not VectorStore.aadd_texts:
        if "ids" not in kwargs:
            ids = [doc.id for doc in documents]
            if any(ids):
                kwargs["ids"] = ids
        texts = [doc.page_content for doc in documents]
        metadatas = [doc.metadata for doc in documents]
        return await self.aadd_texts(texts, metadatas, **kwargs)
    return await _in_thread(self.add_documents, documents, **kwargs)


# %% notebooks/06_vectorstore.ipynb, cell 85
@add_to_class(VectorStore)
@classmethod
async def afrom_documents(
    cls: type[VST], documents: list[Document], embedding: Embeddings, **kwargs: Any
) -> VST:
    """Unpack the documents and await ``afrom_texts`` (ids only if one has an id)."""
    texts = [doc.page_content for doc in documents]
    metadatas = [doc.metadata for doc in documents]
    if "ids" not in kwargs:
        ids = [doc.id for doc in documents]
        if any(ids):
            kwargs["ids"] = ids
    return await cls.afrom_texts(texts, embedding, metadatas=metadatas, **kwargs)


@add_to_class(VectorStore)
async def asearch(self, query: str, search_type: str, **kwargs: Any) -> list[Document]:
    """``search``'s switch on ``search_type``, each branch awaiting an async twin."""
    if search_type == "similarity":
        return await self.asimilarity_search(query, **kwargs)
    if search_type == "similarity_score_threshold":
        pairs = await self.asimilarity_search_with_relevance_scores(query, **kwargs)
        return [doc for doc, _ in pairs]
    if search_type == "mmr":
        return await self.amax_marginal_relevance_search(query, **kwargs)
    raise ValueError(
        f"search_type of {search_type} not allowed. Expected search_type to be "
        "'similarity', 'similarity_score_threshold' or 'mmr'."
    )


# %% notebooks/06_vectorstore.ipynb, cell 86
@add_to_class(VectorStore)
async def _asimilarity_search_with_relevance_scores(
    self, query: str, k: int = 4, **kwargs: Any
) -> list[tuple[Document, float]]:
    """The async hook: the relevance function first, then the awaited raw scores."""
    relevance = self._select_relevance_score_fn()
    pairs = await self.asimilarity_search_with_score(query, k, **kwargs)
    return [(doc, relevance(score)) for doc, score in pairs]


@add_to_class(VectorStore)
async def asimilarity_search_with_relevance_scores(
    self, query: str, k: int = 4, **kwargs: Any
) -> list[tuple[Document, float]]:
    """``similarity_search_with_relevance_scores``, with the scores awaited."""
    score_threshold = kwargs.pop("score_threshold", None)
    pairs = await self._asimilarity_search_with_relevance_scores(query, k=k, **kwargs)
    return _kept_above(pairs, score_threshold)
