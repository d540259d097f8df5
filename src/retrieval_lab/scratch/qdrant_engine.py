# GENERATED from notebooks/16_qdrant_engine.ipynb by `make export`: do not edit.
# Edit the notebook's cells tagged "export", run them, then run `make export`.
# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).

# %% notebooks/16_qdrant_engine.ipynb, cell 9
import uuid
import weakref
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from retrieval_lab.runtime.oop import add_to_class
from retrieval_lab.runtime.tempdirs import process_folder
from retrieval_lab.scratch.document import Document
from retrieval_lab.scratch.embeddings import Embeddings
from retrieval_lab.scratch.vectorstore import VectorStore

try:  # Qdrant's engine in this process: pip install qdrant-edge-py==0.9.0
    import qdrant_edge as edge
except ImportError:  # other notebooks import retrieval_lab.scratch without it
    edge = None

#: Every point id is uuid5(NAMESPACE, your id): a fixed namespace, chosen once.
NAMESPACE = uuid.UUID("7d3f5a4e-1c2b-4e8f-9a60-5b1d2c3e4f70")


def point_id(doc_id: str) -> str:
    # the UUID the engine stores for doc_id: the same on every machine
    return str(uuid.uuid5(NAMESPACE, str(doc_id)))


# %% notebooks/16_qdrant_engine.ipynb, cell 13
def _close_edge_shard(held: dict[str, Any]) -> None:
    # close the shard, then delete the temporary folder, if the store made one
    if held.get("shard") is not None:
        held.pop("shard").close()
    if held.get("folder") is not None:
        held.pop("folder").cleanup()


# %% notebooks/16_qdrant_engine.ipynb, cell 14
class QdrantEdgeVectorStore(VectorStore):
    """A LangChain vector store over Qdrant Edge: one shard of Qdrant's engine."""

    def __init__(
        self, embedding: Embeddings, *, path: str | Path | None = None, **config: Any
    ) -> None:
        if edge is None:
            raise ImportError(
                "QdrantEdgeVectorStore needs Qdrant Edge: "
                "pip install qdrant-edge-py==0.9.0"
            )
        self.embedding, self.config, self.search_params = embedding, config, None
        self._held: dict[str, Any] = {}  # the open shard, and the temporary folder
        if path is None:
            self._held["folder"] = process_folder("qdrant-edge")
            path = self._held["folder"].name
        self.path = Path(path)
        if (self.path / "edge_config.json").exists():  # a shard lives there: open it
            self._held["shard"] = edge.EdgeShard.load(str(self.path))
        self._closer = weakref.finalize(self, _close_edge_shard, self._held)


# %% notebooks/16_qdrant_engine.ipynb, cell 16
@add_to_class(QdrantEdgeVectorStore)
@property
def shard(self) -> Any:
    """The open EdgeShard, or None until the first vectors say how wide they are."""
    return self._held.get("shard")


@add_to_class(QdrantEdgeVectorStore)
def _create_shard(self, size: int) -> None:
    """A new shard in ``self.path`` for vectors of ``size`` numbers, by cosine."""
    vectors = edge.EdgeVectorParams(size=size, distance=edge.Distance.Cosine)
    config = edge.EdgeConfig(vectors=vectors, **self.config)
    self._held["shard"] = edge.EdgeShard.create(str(self.path), config)


@add_to_class(QdrantEdgeVectorStore)
def close(self) -> None:
    """Close the shard now (and delete the folder if it is a temporary one)."""
    self._closer()


# %% notebooks/16_qdrant_engine.ipynb, cell 17
@add_to_class(QdrantEdgeVectorStore)
@classmethod
def from_texts(
    cls, texts: list[str], embedding: Embeddings, metadatas: list[dict] | None = None,
    *, ids: list[str] | None = None, **kwargs: Any,
) -> "QdrantEdgeVectorStore":
    """A new store (``path=`` and engine settings in ``kwargs``) holding these texts."""
    store = cls(embedding, **kwargs)
    store.add_texts(texts, metadatas, ids=ids)
    return store


@add_to_class(QdrantEdgeVectorStore)
@property
def embeddings(self) -> Embeddings:
    return self.embedding


# %% notebooks/16_qdrant_engine.ipynb, cell 21
@add_to_class(QdrantEdgeVectorStore)
def _document(self, point: Any) -> Document:
    """A fresh Document from a point's payload, with the id you gave back on it."""
    payload = point.payload
    return Document(
        payload["page_content"], metadata=payload["metadata"], id=payload["doc_id"]
    )


@add_to_class(QdrantEdgeVectorStore)
def _to_filter(self, filter: Any) -> Any:
    """``{"topic": "code"}`` -> a Filter for the engine; a Filter passes through."""
    if filter is None or isinstance(filter, edge.Filter):
        return filter
    if not isinstance(filter, dict) or not all(
        isinstance(value, str | int) for value in filter.values()  # bool is an int
    ):
        shown = filter if isinstance(filter, dict) else type(filter).__name__
        raise TypeError(
            "filter must be a dict of exact values, such as {'topic': 'code'}, or a "
            f"qdrant_edge.Filter; got {shown}. A Python function cannot run inside "
            "the engine."
        )
    conditions = [
        edge.FieldCondition(key=f"metadata.{key}", match=edge.MatchValue(value))
        for key, value in filter.items()
    ]
    return edge.Filter(must=conditions)


# %% notebooks/16_qdrant_engine.ipynb, cell 23
@add_to_class(QdrantEdgeVectorStore)
def similarity_search_with_score_by_vector(
    self, embedding: Sequence[float], k: int = 4, filter: Any = None,
    search_params: Any = None, **kwargs: Any,
) -> list[tuple[Document, float]]:
    """(document, cosine) pairs, best first: one query request to the engine."""
    condition = self._to_filter(filter)  # a bad filter fails even on an empty store
    if self.shard is None or k <= 0:
        return []
    request = edge.QueryRequest(
        limit=k,
        query=edge.Query.Nearest(np.asarray(embedding, dtype=np.float32).tolist()),
        filter=condition,
        params=search_params or self.search_params,
        with_payload=True,
    )
    return [(self._document(hit), hit.score) for hit in self.shard.query(request)]


# %% notebooks/16_qdrant_engine.ipynb, cell 25
@add_to_class(QdrantEdgeVectorStore)
def similarity_search_with_score(self, query: str, k: int = 4, **kwargs: Any) -> list:
    vector = self.embedding.embed_query(query)
    return self.similarity_search_with_score_by_vector(vector, k, **kwargs)


@add_to_class(QdrantEdgeVectorStore)
def similarity_search_by_vector(
    self, embedding: Any, k: int = 4, **kwargs: Any
) -> list:
    pairs = self.similarity_search_with_score_by_vector(embedding, k, **kwargs)
    return [doc for doc, _ in pairs]


@add_to_class(QdrantEdgeVectorStore)
def similarity_search(self, query: str, k: int = 4, **kwargs: Any) -> list[Document]:
    vector = self.embedding.embed_query(query)
    return self.similarity_search_by_vector(vector, k, **kwargs)


@add_to_class(QdrantEdgeVectorStore)
def _select_relevance_score_fn(self) -> Any:
    """Cosine in [-1, 1] -> relevance in [0, 1]."""
    return lambda score: (score + 1.0) / 2.0


# %% notebooks/16_qdrant_engine.ipynb, cell 29
@add_to_class(QdrantEdgeVectorStore)
def add_documents(
    self, documents: list[Document], ids: list[str] | None = None, *,
    batch_size: int = 256, **kwargs: Any,
) -> list[str]:
    """Embed the texts, then upsert one point per document; returns the ids used."""
    if ids is not None and len(ids) != len(documents):
        raise ValueError(f"got {len(ids)} ids for {len(documents)} documents")
    if not documents:
        return []
    texts = [doc.page_content for doc in documents]
    vectors = np.asarray(self.embedding.embed_documents(texts), dtype=np.float32)
    given = ids if ids is not None else [doc.id for doc in documents]
    used = [str(i) if i is not None else str(uuid.uuid4()) for i in given]
    if self.shard is None:
        self._create_shard(vectors.shape[1])
    for start in range(0, len(used), batch_size):
        batch = range(start, min(start + batch_size, len(used)))
        points = [self._point(used[i], documents[i], vectors[i]) for i in batch]
        self.shard.update(edge.UpdateOperation.upsert_points(points))
    return used


# %% notebooks/16_qdrant_engine.ipynb, cell 30
@add_to_class(QdrantEdgeVectorStore)
def _point(self, doc_id: str, doc: Document, vector: np.ndarray) -> Any:
    """One point: the UUID, the vector, and a payload that keeps the id you gave."""
    payload = {
        "doc_id": doc_id, "page_content": doc.page_content, "metadata": doc.metadata
    }
    return edge.Point(point_id(doc_id), vector.tolist(), payload)


# %% notebooks/16_qdrant_engine.ipynb, cell 36
@add_to_class(QdrantEdgeVectorStore)
def get_by_ids(self, ids: Sequence[str], /) -> list[Document]:
    """The documents with these ids, in the order asked; ids not stored are skipped."""
    if self.shard is None:
        return []
    records = self.shard.retrieve(
        [point_id(i) for i in ids], with_payload=True, with_vector=False
    )
    found = {record.payload["doc_id"]: record for record in records}
    return [self._document(found[i]) for i in map(str, ids) if i in found]


@add_to_class(QdrantEdgeVectorStore)
def delete(self, ids: Sequence[str] | None = None, **kwargs: Any) -> bool:
    """Delete these ids (unknown ones are ignored); None or [] deletes nothing."""
    if ids and self.shard is not None:
        points = [point_id(i) for i in ids]
        self.shard.update(edge.UpdateOperation.delete_points(points))
    return True


# %% notebooks/16_qdrant_engine.ipynb, cell 72
@add_to_class(QdrantEdgeVectorStore)
def max_marginal_relevance_search(
    self, query: str, k: int = 4, fetch_k: int = 20, lambda_mult: float = 0.5,
    **kwargs: Any,
) -> list[Document]:
    """``k`` of the ``fetch_k`` nearest, picked by the engine's MMR query."""
    condition = self._to_filter(kwargs.get("filter"))
    if self.shard is None or k <= 0:
        return []
    mmr = edge.Mmr(self.embedding.embed_query(query), lambda_mult, fetch_k)
    request = edge.QueryRequest(limit=k, query=mmr, filter=condition, with_payload=True)
    return [self._document(hit) for hit in self.shard.query(request)]
