# GENERATED from notebooks/11_matrix_vectorstore.ipynb by `make export`: do not edit.
# Edit the notebook's cells tagged "export", run them, then run `make export`.
# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).

# %% notebooks/11_matrix_vectorstore.ipynb, cell 7
import uuid
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from retrieval_lab.runtime.oop import add_to_class
from retrieval_lab.scratch.document import Document
from retrieval_lab.scratch.embeddings import Embeddings
from retrieval_lab.scratch.in_memory_vectorstore import InMemoryVectorStore


# %% notebooks/11_matrix_vectorstore.ipynb, cell 9
def _unit_rows(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row divided by its length, as float32, and the lengths. A zero row stays
    zero.
    """
    exact = matrix.astype(np.float64, copy=False)
    norms = np.linalg.norm(exact, axis=1)
    return (exact / np.where(norms > 0, norms, 1.0)[:, None]).astype(np.float32), norms


# %% notebooks/11_matrix_vectorstore.ipynb, cell 12
def _unit_query(embedding: Any, dim: int) -> np.ndarray:
    """The query as a float32 unit vector: normalised once, so each score is a plain dot
    product."""
    query = np.asarray(embedding, dtype=np.float64)
    if query.shape != (dim,) or not np.isfinite(query).all():
        raise ValueError(
            f"the query vector must be {dim} finite numbers, like the stored vectors; "
            f"got shape {query.shape}. Embed the query with the documents' model."
        )
    norm = float(np.linalg.norm(query))
    if norm == 0.0:
        raise ValueError(
            "the query vector is all zeros, so its cosine with anything is 0/0 (the "
            "real store raises 'NaN values found' here); for BagOfWords, use at least "
            "one word of its vocabulary."
        )
    return (query / norm).astype(np.float32)


# %% notebooks/11_matrix_vectorstore.ipynb, cell 15
def _top_k(scores: np.ndarray, k: int | None) -> np.ndarray:
    """Positions of the best scores, best first, as many as the real store's ``[:k]``
    keeps: O(n + k log k) instead of sorting all n."""
    count = len(range(len(scores))[:k])  # the slice rule: None -> all, -1 -> n - 1
    if count == 0:
        return np.empty(0, dtype=np.intp)
    if count < len(scores):
        best = np.argpartition(-scores, count - 1)[:count]  # the count best, unordered
    else:
        best = np.arange(len(scores))
    return best[np.argsort(-scores[best], kind="stable")]


# %% notebooks/11_matrix_vectorstore.ipynb, cell 18
def _grown(array: np.ndarray, rows: int) -> np.ndarray:
    """``array`` with room for at least ``rows`` rows, its content kept: when full, the
    capacity doubles, so n appends copy fewer than 2n rows in all."""
    if rows <= len(array):
        return array
    bigger = np.empty((max(rows, 2 * len(array), 16), *array.shape[1:]), array.dtype)
    bigger[: len(array)] = array
    return bigger


# %% notebooks/11_matrix_vectorstore.ipynb, cell 20
class _MatrixRows:
    """Vectors kept as rows of contiguous arrays, found by id: the storage under
    MatrixVectorStore. ``_unit`` (float32, unit rows) is what a search reads; ``_raw``
    keeps the vectors as given (float32), ``_norms`` their lengths (0.0: a zero vector).
    Rows 0 .. n-1 are live; the rest is spare capacity.
    """

    def __init__(self) -> None:
        self._row_of: dict[str, int] = {}  # id -> row
        self._ids: list[str] = []  # row -> id
        self._empty(0)


@add_to_class(_MatrixRows)
def _empty(self, dim: int) -> None:
    """Fresh, empty arrays for ``dim``-dimensional vectors."""
    self._unit = np.empty((0, dim), dtype=np.float32)
    self._raw = np.empty((0, dim), dtype=np.float32)
    self._norms = np.empty(0, dtype=np.float64)


@add_to_class(_MatrixRows)
@property
def matrix(self) -> np.ndarray:
    """The (n, d) float32 unit rows a search scans, as a read-only view (no copy)."""
    view = self._unit[: len(self._ids)]
    view.flags.writeable = False
    return view


# %% notebooks/11_matrix_vectorstore.ipynb, cell 21
@add_to_class(_MatrixRows)
def _write_rows(self, ids: list[str], matrix: np.ndarray) -> None:
    """Upsert: a known id is overwritten where it is, a new id is appended."""
    if not self._ids:
        self._empty(matrix.shape[1])  # an empty store takes its first vectors' width
    rows = np.empty(len(ids), dtype=np.intp)
    for i, doc_id in enumerate(ids):
        rows[i] = self._row_of.setdefault(doc_id, len(self._ids))
        if rows[i] == len(self._ids):
            self._ids.append(doc_id)
    n = len(self._ids)
    self._unit, self._raw, self._norms = (
        _grown(a, n) for a in (self._unit, self._raw, self._norms)
    )
    for start in range(0, len(rows), 8192):  # blocks: no float64 copy of a million rows
        block, where = matrix[start : start + 8192], rows[start : start + 8192]
        self._unit[where], self._norms[where] = _unit_rows(block)
        self._raw[where] = block


# %% notebooks/11_matrix_vectorstore.ipynb, cell 22
@add_to_class(_MatrixRows)
def _delete_row(self, doc_id: str) -> bool:
    """Remove one id's row by moving the last row into its place: O(d), any n."""
    row = self._row_of.pop(doc_id, None)
    if row is None:
        return False
    last = len(self._ids) - 1
    if row != last:
        moved = self._ids[last]
        for array in (self._unit, self._raw, self._norms):
            array[row] = array[last]
        self._ids[row], self._row_of[moved] = moved, row
    self._ids.pop()
    return True


# %% notebooks/11_matrix_vectorstore.ipynb, cell 24
class MatrixVectorStore(_MatrixRows, InMemoryVectorStore):
    """Notebook 07's store with its storage and search replaced: every vector is a unit
    row of one float32 matrix, and a search reads it once (one matrix-vector product
    over n * d * 4 bytes), keeping the best k with ``argpartition``."""

    def __init__(self, embedding: Embeddings) -> None:
        _MatrixRows.__init__(self)
        self._records: dict[str, dict[str, Any]] = {}  # id -> {"text", "metadata"}
        InMemoryVectorStore.__init__(self, embedding)  # checks the model


# %% notebooks/11_matrix_vectorstore.ipynb, cell 26
@add_to_class(MatrixVectorStore)
def add_documents(
    self, documents: list[Document], ids: list[str] | None = None, **kwargs: Any
) -> list[str]:
    """Embed every text, then file each document under its id (an upsert)."""
    vectors = self.embedding.embed_documents([doc.page_content for doc in documents])
    return self._upsert(documents, vectors, ids)


# %% notebooks/11_matrix_vectorstore.ipynb, cell 28
@add_to_class(MatrixVectorStore)
def delete(self, ids: Sequence[str] | None = None, **kwargs: Any) -> None:
    """Remove these ids; unknown ids are ignored, None or [] delete nothing."""
    for doc_id in ids or []:
        if self._delete_row(doc_id):
            del self._records[doc_id]


@add_to_class(MatrixVectorStore)
def get_by_ids(self, ids: Sequence[str], /) -> list[Document]:
    """Documents for the ids found, in the order asked (missing ids skipped)."""
    return [self._document_at(doc_id) for doc_id in ids if doc_id in self._records]


@add_to_class(MatrixVectorStore)
def _document_at(self, doc_id: str) -> Document:
    """A fresh Document: changing it never changes the store."""
    record = self._records[doc_id]
    return Document(page_content=record["text"], metadata=record["metadata"], id=doc_id)


# %% notebooks/11_matrix_vectorstore.ipynb, cell 30
@add_to_class(MatrixVectorStore)
def _rows_passing(self, filter: Callable[[Document], bool] | None) -> Any:
    """The rows a search reads: a slice of all live rows, or an array of row numbers."""
    if filter is None or not self._ids:
        return slice(0, len(self._ids))
    if not callable(filter):
        raise TypeError(
            "filter must be a function Document -> bool, got "
            f"{type(filter).__name__} {filter!r}; "
            "write e.g. filter=lambda doc: doc.metadata.get('topic') == 'pets'."
        )
    return np.array(
        [self._row_of[i] for i in self._records if filter(self._document_at(i))],
        dtype=np.intp,
    )


# %% notebooks/11_matrix_vectorstore.ipynb, cell 31
@add_to_class(MatrixVectorStore)
def _search(
    self, embedding: Any, k: int | None, filter: Callable[[Document], bool] | None
) -> tuple[np.ndarray, np.ndarray]:
    """(rows, scores) of the best matches, best first, in the real store's order of
    steps."""
    rows = self._rows_passing(filter)
    norms = self._norms[rows]
    if len(norms) == 0:  # nothing to rank: [] before the query is even looked at
        return np.empty(0, dtype=np.intp), np.empty(0, dtype=np.float32)
    query = _unit_query(embedding, self._unit.shape[1])
    if not norms.any():
        raise ValueError(
            "every vector searched is all zeros, so every cosine "
            "is 0/0 (the real store raises "
            "'NaN values found' here); store vectors that are not all zero."
        )
    scores = self._unit[rows] @ query  # the one pass over n * d * 4 bytes
    best = _top_k(scores, k)
    return (best if isinstance(rows, slice) else rows[best]), scores[best]


# %% notebooks/11_matrix_vectorstore.ipynb, cell 32
@add_to_class(MatrixVectorStore)
def _search_by_vector(
    self,
    embedding: list[float],
    k: int | None = 4,
    filter: Callable[[Document], bool] | None = None,
) -> list[tuple[Document, float, np.ndarray]]:
    """The one search every inherited wrapper and MMR call: (document, score, vector),
    best first."""
    rows, scores = self._search(embedding, k, filter)
    return [
        (self._document_at(self._ids[row]), score, self._raw[row])
        for row, score in zip(rows.tolist(), scores.tolist(), strict=True)
    ]


# %% notebooks/11_matrix_vectorstore.ipynb, cell 86
def _as_matrix(vectors: Any, dim: int | None, what: str) -> np.ndarray:
    """Vectors as one (m, d) float array, or a clear error saying what is wrong."""
    as_given = isinstance(vectors, np.ndarray)  # float32 stays float32: no float64 copy
    try:
        matrix = np.asarray(vectors, dtype=None if as_given else np.float64)
    except (ValueError, TypeError) as exc:
        raise ValueError(
            f"{what} must be equal-length lists of numbers; "
            f"numpy could not stack them ({exc})."
        ) from None
    if matrix.ndim != 2 or matrix.dtype.kind not in "fiu":
        raise ValueError(
            f"{what} must be a 2-D array of numbers, one row per vector; "
            f"got shape {matrix.shape}."
        )
    if dim is not None and matrix.shape[1] != dim:
        raise ValueError(
            f"{what} have {matrix.shape[1]} numbers each, but this store holds "
            f"{dim}-dimensional vectors; embed everything with the same model."
        )
    if not np.isfinite(matrix).all():
        raise ValueError(f"{what} contain NaN or infinity; a cosine needs numbers.")
    return matrix


# %% notebooks/11_matrix_vectorstore.ipynb, cell 89
@add_to_class(MatrixVectorStore)
def _upsert(self, documents: list[Document], vectors: Any, ids: list | None) -> list:
    """Check the vectors once, then upsert each document under ``ids``, else its own
    id, else a new uuid4; a repeated id keeps its last vector (the real rules)."""
    if ids and len(ids) != len(documents):
        raise ValueError(
            "ids must be the same length as texts. "
            f"Got {len(ids)} ids and {len(documents)} texts."
        )
    if not documents:
        return []
    dim = self._unit.shape[1] if self._ids else None
    matrix = _as_matrix(vectors, dim, "the document vectors")
    if len(matrix) != len(documents):
        raise ValueError(f"the model gave {len(matrix)} vectors, not {len(documents)}")
    used = [doc_id or str(uuid.uuid4()) for doc_id in ids or [d.id for d in documents]]
    for doc_id, doc in zip(used, documents, strict=True):  # metadata by reference
        self._records[doc_id] = {"text": doc.page_content, "metadata": doc.metadata}
    last = {doc_id: i for i, doc_id in enumerate(used)}
    rows = matrix if len(last) == len(used) else matrix[list(last.values())]
    self._write_rows(list(last), rows)
    return used


# %% notebooks/11_matrix_vectorstore.ipynb, cell 97
def _entries(self: MatrixVectorStore) -> dict[str, dict[str, Any]]:
    """``{id: {"id", "vector", "text", "metadata"}}``, built from the rows on demand."""
    raw = self._raw
    return {
        doc_id: {"id": doc_id, "vector": raw[self._row_of[doc_id]].tolist(), **rec}
        for doc_id, rec in self._records.items()
    }


def _replace_entries(self: MatrixVectorStore, entries: dict[str, Any]) -> None:
    """Everything replaced by these entries, in their order."""
    _MatrixRows.__init__(self)
    self._records = {}
    if entries:
        vectors = [entry["vector"] for entry in entries.values()]
        self._write_rows(list(entries), _as_matrix(vectors, None, "the saved vectors"))
        self._records = {
            doc_id: {"text": e["text"], "metadata": e["metadata"]}
            for doc_id, e in entries.items()
        }


MatrixVectorStore.store = property(_entries, _replace_entries)
