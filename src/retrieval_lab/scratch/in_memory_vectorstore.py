# GENERATED from notebooks/07_in_memory_vectorstore.ipynb by `make export`: do not edit.
# Edit the notebook's cells tagged "export", run them, then run `make export`.
# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).

# %% notebooks/07_in_memory_vectorstore.ipynb, cell 5
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from retrieval_lab.scratch.document import Document
from retrieval_lab.scratch.embeddings import Embeddings, cosine_similarity
from retrieval_lab.scratch.vectorstore import VectorStore


# %% notebooks/07_in_memory_vectorstore.ipynb, cell 9
def maximal_marginal_relevance(
    query_embedding: Sequence[float] | np.ndarray, embedding_list: list[list[float]],
    lambda_mult: float = 0.5, k: int = 4,
) -> list[int]:
    """Pick ``k`` candidates one at a time, trading relevance against redundancy.

    Each pick maximises ``lambda_mult * sim(query, c) - (1 - lambda_mult) * r``, where
    ``r`` is c's highest similarity to a candidate already picked (none for the first).
    Returns positions in ``embedding_list``, in the order picked.
    """
    count = min(k, len(embedding_list))
    if count <= 0:
        return []
    query = np.atleast_2d(np.asarray(query_embedding))
    similarity_to_query = cosine_similarity(query, embedding_list)[0]
    picked = [int(np.argmax(similarity_to_query))]
    selected = np.array([embedding_list[picked[0]]])
    while len(picked) < count:
        best_score, best = -np.inf, -1
        similarity_to_selected = cosine_similarity(embedding_list, selected)
        for i, query_score in enumerate(similarity_to_query):
            if i in picked:
                continue
            redundancy = max(similarity_to_selected[i])
            score = lambda_mult * query_score - (1 - lambda_mult) * redundancy
            if score > best_score:  # strict: on a tie the earlier candidate stays
                best_score, best = score, i
        picked.append(best)
        selected = np.append(selected, [embedding_list[best]], axis=0)
    return picked


# %% notebooks/07_in_memory_vectorstore.ipynb, cell 14
from retrieval_lab.runtime.oop import add_to_class


class InMemoryVectorStore(VectorStore):
    """The one concrete store: a dict ``id -> {"id", "vector", "text", "metadata"}``,
    searched by cosine.
    """

    def __init__(self, embedding: Embeddings) -> None:
        if not (
            callable(getattr(embedding, "embed_documents", None))
            and callable(getattr(embedding, "embed_query", None))
        ):
            raise TypeError(
                "InMemoryVectorStore needs an embedding model with "
                "embed_documents and embed_query, "
                f"got {type(embedding).__name__}; pass e.g. BagOfWords()."
            )
        self.store: dict[str, dict[str, Any]] = {}
        self.embedding = embedding


@add_to_class(InMemoryVectorStore)
@property
def embeddings(self) -> Embeddings:
    return self.embedding


# %% notebooks/07_in_memory_vectorstore.ipynb, cell 15
@add_to_class(InMemoryVectorStore)
def add_documents(
    self, documents: list[Document], ids: list[str] | None = None, **kwargs: Any
) -> list[str]:
    """Embed the texts, then file the documents (``_upsert``)."""
    vectors = self.embedding.embed_documents([doc.page_content for doc in documents])
    return self._upsert(documents, vectors, ids)


@add_to_class(InMemoryVectorStore)
def _upsert(
    self, documents: list[Document], vectors: list[list[float]], ids: list[str] | None
) -> list[str]:
    """Store each under: the given id, else the document's id, else a uuid4; an
    existing id is overwritten. The metadata is the caller's dict, not a copy."""
    if ids and len(ids) != len(documents):
        raise ValueError(
            "ids must be the same length as texts. Got "
            f"{len(ids)} ids and {len(documents)} texts."
        )
    id_iter: Iterator[str | None] = iter(ids) if ids else (doc.id for doc in documents)
    used = []
    for doc, vector in zip(documents, vectors, strict=False):
        doc_id = next(id_iter) or str(uuid.uuid4())
        used.append(doc_id)
        entry = {"text": doc.page_content, "metadata": doc.metadata}
        self.store[doc_id] = {"id": doc_id, "vector": vector, **entry}
    return used


# %% notebooks/07_in_memory_vectorstore.ipynb, cell 16
@add_to_class(InMemoryVectorStore)
def get_by_ids(self, ids: Sequence[str], /) -> list[Document]:
    """Documents for the ids found, in the order asked (missing ids skipped, repeats
    repeated).
    """
    return [self._document(self.store[i]) for i in ids if self.store.get(i)]


@add_to_class(InMemoryVectorStore)
def delete(self, ids: Sequence[str] | None = None, **kwargs: Any) -> None:
    """Remove these ids; unknown ids are ignored and ``None`` deletes nothing."""
    for doc_id in ids or []:
        self.store.pop(doc_id, None)


@add_to_class(InMemoryVectorStore)
@staticmethod
def _document(entry: dict[str, Any]) -> Document:
    """A fresh Document for a stored entry (its metadata a shallow copy, as pydantic
    makes one).
    """
    return Document(
        id=entry["id"], page_content=entry["text"], metadata=dict(entry["metadata"])
    )


# %% notebooks/07_in_memory_vectorstore.ipynb, cell 17
# ---- read: filter, score, rank


@add_to_class(InMemoryVectorStore)
def _search_by_vector(
    self,
    embedding: list[float],
    k: int | None = 4,
    filter: Callable[[Document], bool] | None = None,
) -> list[tuple[Document, float, list[float]]]:
    """The one search: filter first, then cosine, then the top ``k`` (a slice)."""
    entries = list(self.store.values())
    if filter is not None and entries:
        if not callable(filter):
            raise TypeError(
                "filter must be a function Document -> bool, got "
                f"{type(filter).__name__} {filter!r}; "
                "write e.g. filter=lambda doc: doc.metadata.get('topic') == 'pets'."
            )
        entries = [e for e in entries if filter(self._document(e))]
    if not entries:
        return []
    similarity = cosine_similarity([embedding], [e["vector"] for e in entries])[0]
    top = similarity.argsort()[::-1][:k]  # the real store's ranking: numpy's, reversed
    return [
        (self._document(entries[i]), float(similarity[i].item()), entries[i]["vector"])
        for i in top
    ]


# %% notebooks/07_in_memory_vectorstore.ipynb, cell 18
@add_to_class(InMemoryVectorStore)
def similarity_search_with_score_by_vector(
    self,
    embedding: list[float],
    k: int = 4,
    filter: Callable[[Document], bool] | None = None,
    **_kwargs: Any,
) -> list[tuple[Document, float]]:
    return [
        (doc, score) for doc, score, _ in self._search_by_vector(embedding, k, filter)
    ]


@add_to_class(InMemoryVectorStore)
def similarity_search_with_score(
    self, query: str, k: int = 4, **kwargs: Any
) -> list[tuple[Document, float]]:
    """``(document, cosine similarity)`` pairs, best first."""
    return self.similarity_search_with_score_by_vector(
        self.embedding.embed_query(query), k, **kwargs
    )


# %% notebooks/07_in_memory_vectorstore.ipynb, cell 19
@add_to_class(InMemoryVectorStore)
def similarity_search_by_vector(
    self, embedding: list[float], k: int = 4, **kwargs: Any
) -> list[Document]:
    return [
        doc
        for doc, _ in self.similarity_search_with_score_by_vector(
            embedding, k, **kwargs
        )
    ]


@add_to_class(InMemoryVectorStore)
def similarity_search(self, query: str, k: int = 4, **kwargs: Any) -> list[Document]:
    return [doc for doc, _ in self.similarity_search_with_score(query, k, **kwargs)]


# %% notebooks/07_in_memory_vectorstore.ipynb, cell 20
@add_to_class(InMemoryVectorStore)
def max_marginal_relevance_search_by_vector(
    self, embedding: list[float], k: int = 4, fetch_k: int = 20,
    lambda_mult: float = 0.5, *, filter: Callable[[Document], bool] | None = None,
    **kwargs: Any,
) -> list[Document]:
    """Fetch the ``fetch_k`` best (after the filter), then let MMR choose ``k`` of
    them.
    """
    hits = self._search_by_vector(embedding, fetch_k, filter)
    query = np.array(
        embedding, dtype=np.float32
    )  # the real store hands MMR a float32 query
    chosen = maximal_marginal_relevance(
        query, [vector for _, _, vector in hits], lambda_mult, k
    )
    return [hits[i][0] for i in chosen]


# %% notebooks/07_in_memory_vectorstore.ipynb, cell 21
@add_to_class(InMemoryVectorStore)
def max_marginal_relevance_search(
    self, query: str, k: int = 4, fetch_k: int = 20, lambda_mult: float = 0.5,
    **kwargs: Any,
) -> list[Document]:
    return self.max_marginal_relevance_search_by_vector(
        self.embedding.embed_query(query),
        k,
        fetch_k,
        lambda_mult=lambda_mult,
        **kwargs,
    )


# %% notebooks/07_in_memory_vectorstore.ipynb, cell 22
@add_to_class(InMemoryVectorStore)
@classmethod
def from_texts(
    cls, texts: list[str], embedding: Embeddings,
    metadatas: list[dict[str, Any]] | None = None, **kwargs: Any,
) -> "InMemoryVectorStore":
    store = cls(embedding=embedding)
    store.add_texts(texts=texts, metadatas=metadatas, **kwargs)
    return store


# %% notebooks/07_in_memory_vectorstore.ipynb, cell 31
# async twins that await the model's own async methods (a course helper)
from retrieval_lab.runtime.in_memory_async import AWAITING_TWINS

for _twin in AWAITING_TWINS:
    add_to_class(InMemoryVectorStore)(_twin)


# %% notebooks/07_in_memory_vectorstore.ipynb, cell 82
import json
from pathlib import Path

_DOCUMENT_ID = ["langchain", "schema", "document", "Document"]

_ESCAPED = "__lc_escaped__"


def _not_implemented(obj: Any) -> dict[str, Any]:
    """The placeholder langchain writes for a value JSON cannot hold: it records, it
    cannot restore.
    """
    owner = obj if hasattr(obj, "__name__") else type(obj)
    try:
        id_ = [*owner.__module__.split("."), owner.__name__]
    except Exception:
        id_ = []
    try:
        text = repr(obj)
    except Exception:
        text = None
    return {"lc": 1, "type": "not_implemented", "id": id_, "repr": text}


# %% notebooks/07_in_memory_vectorstore.ipynb, cell 83
def _to_json(value: Any) -> Any:
    """One stored value in the form langchain's ``dumpd`` gives it.

    Plain JSON values pass through; a tuple becomes a list; a Document becomes a
    "constructor" dict; a user dict with an ``"lc"`` key is wrapped so it cannot pose as
    one; anything else becomes a ``not_implemented`` placeholder.
    """
    if isinstance(value, Document):
        kwargs: dict[str, Any] = {} if value.id is None else {"id": value.id}
        if value.metadata:
            kwargs["metadata"] = _to_json(value.metadata)
        kwargs |= {"page_content": value.page_content, "type": "Document"}
        return {
            "lc": 1, "type": "constructor", "id": list(_DOCUMENT_ID), "kwargs": kwargs
        }
    if isinstance(value, dict):
        if not all(isinstance(k, str | int | float | bool | type(None)) for k in value):
            return _not_implemented(value)
        if "lc" in value or (len(value) == 1 and _ESCAPED in value):
            return {_ESCAPED: value}
        return {key: _to_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_to_json(item) for item in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return _not_implemented(value)


# %% notebooks/07_in_memory_vectorstore.ipynb, cell 84
def _from_json(value: Any) -> Any:
    """Undo ``_to_json``, innermost values first, reviving only Documents (like
    ``allowed_objects=[Document]``)."""
    if isinstance(value, list):
        return [_from_json(item) for item in value]
    if not isinstance(value, dict):
        return value
    if len(value) == 1 and _ESCAPED in value:
        return value[_ESCAPED]
    value = {key: _from_json(item) for key, item in value.items()}
    if value.get("lc") != 1 or value.get("id") is None:
        return value
    kind = value.get("type")
    if kind == "secret":
        return None
    if kind == "not_implemented":
        raise NotImplementedError(
            f"Trying to load an object that doesn't implement serialization: {value}"
        )
    if kind == "constructor":
        if list(value["id"]) != _DOCUMENT_ID:
            raise ValueError(
                f"Deserialization of {tuple(value['id'])!r} is not allowed: this store "
                "only rebuilds Documents from a file, since rebuilding arbitrary "
                "classes from data is unsafe."
            )
        kwargs = {k: v for k, v in value.get("kwargs", {}).items() if k != "type"}
        return Document(**kwargs)
    return value


# %% notebooks/07_in_memory_vectorstore.ipynb, cell 85
@add_to_class(InMemoryVectorStore)
def dump(self, path: str | Path) -> None:
    """Write the store dict as JSON (the real store's file format); parent folders are
    created.
    """
    target = Path(path)
    target.parent.mkdir(exist_ok=True, parents=True)
    with target.open("w", encoding="utf-8") as f:
        json.dump(_to_json(self.store), f, indent=2)


@add_to_class(InMemoryVectorStore)
@classmethod
def load(
    cls, path: str | Path, embedding: Embeddings, **kwargs: Any
) -> "InMemoryVectorStore":
    """Read a file written by ``dump`` (mine or the real one's); the embedder is not in
    the file.
    """
    with Path(path).open(encoding="utf-8") as f:
        data = _from_json(json.load(f))
    store = cls(embedding=embedding, **kwargs)
    store.store = data
    return store
