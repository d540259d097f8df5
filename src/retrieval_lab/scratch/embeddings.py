# GENERATED from notebooks/04_embeddings.ipynb by `make export`: do not edit.
# Edit the notebook's cells tagged "export", run them, then run `make export`.
# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).

# %% notebooks/04_embeddings.ipynb, cell 6
import warnings
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TypeVar

import numpy as np


class Embeddings(ABC):
    """Text to vectors: the interface every embedding model implements.

    Two methods, because a store embeds two kinds of text: the documents it keeps
    (``embed_documents``, in batches) and the question it is asked (``embed_query``).
    Some models treat the two differently (a "query:" prefix, say), so each gets its own
    method; a store uses one object for both, so that the vectors can be compared.
    """

    @abstractmethod
    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """One vector per text, in order, all of the same length."""

    @abstractmethod
    def embed_query(self, text: str) -> list[float]:
        """The vector of one text to search with."""


# %% notebooks/04_embeddings.ipynb, cell 10
_T = TypeVar("_T")


# Runs the sync twin in a worker thread, as langchain-core does: written once for
# the course (retrieval_lab.runtime.concurrency): context copied, StopIteration wrapped.
from retrieval_lab.runtime.concurrency import in_thread as _in_thread


async def _aembed_documents(self: Embeddings, texts: list[str]) -> list[list[float]]:
    """Async twin of embed_documents: the sync method, run in a worker thread."""
    return await _in_thread(self.embed_documents, texts)


async def _aembed_query(self: Embeddings, text: str) -> list[float]:
    """Async twin of embed_query: the sync method, run in a worker thread."""
    return await _in_thread(self.embed_query, text)


Embeddings.aembed_documents = _aembed_documents
Embeddings.aembed_query = _aembed_query


# %% notebooks/04_embeddings.ipynb, cell 27
Matrix = Sequence[Sequence[float]] | np.ndarray


# %% notebooks/04_embeddings.ipynb, cell 28
def _check_matrices(x: np.ndarray, y: np.ndarray) -> None:
    """Warn about NaN or Inf, as the real function does; refuse shapes that cannot be
    compared, saying what to pass instead."""
    for bad, name in ((np.isnan, "NaN"), (np.isinf, "Inf")):
        if np.any(bad(x)) or np.any(bad(y)):
            warnings.warn(
                f"{name} found in input arrays, unexpected return might follow",
                RuntimeWarning,
                stacklevel=3,
            )
    if x.ndim != 2 or y.ndim != 2:
        raise ValueError(
            "cosine_similarity compares the rows of two 2-D matrices, "
            f"got shapes {x.shape} and {y.shape}; "
            "wrap a single vector in a list: cosine_similarity([query], documents)."
        )
    if x.shape[1] != y.shape[1]:
        raise ValueError(
            "Number of columns in X and Y must be the same. X has "
            f"shape {x.shape} and Y has shape {y.shape}."
        )


# %% notebooks/04_embeddings.ipynb, cell 30
def cosine_similarity(x: Matrix, y: Matrix) -> np.ndarray:
    """Row-wise cosine similarity: entry (i, j) compares row i of ``x`` with row j of
    ``y``; an n×m and a k×m matrix give an n×k matrix.

    It reproduces langchain-core's ``_cosine_similarity`` (numpy path): empty input
    gives ``[[]]``; a NaN result (a zero row) becomes 0.0 unless every result is NaN,
    which is a ValueError. A 1-D input is refused with a clear ValueError, where the
    real function raises an unhelpful IndexError.
    """
    if len(x) == 0 or len(y) == 0:
        return np.array([[]])
    x, y = np.array(x), np.array(y)
    _check_matrices(x, y)
    x_norm, y_norm = np.linalg.norm(x, axis=1), np.linalg.norm(y, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):  # 0/0 is handled below
        similarity = np.dot(x, y.T) / np.outer(x_norm, y_norm)
    if np.isnan(similarity).all():
        raise ValueError(
            "NaN values found, please remove the NaN values and try again "
            "(every cosine is undefined: is the query a zero "
            "vector, with no word of the vocabulary?)"
        )
    similarity[np.isnan(similarity) | np.isinf(similarity)] = 0.0
    return similarity
