# GENERATED from notebooks/03_text_splitters.ipynb by `make export`: do not edit.
# Edit the notebook's cells tagged "export", run them, then run `make export`.
# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).

# %% notebooks/03_text_splitters.ipynb, cell 5
import asyncio
import copy
import logging
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

from retrieval_lab.runtime.oop import add_to_class
from retrieval_lab.scratch.document import Document

#: Where an over-long chunk is reported (the real: "langchain_text_splitters.base").
logger = logging.getLogger("retrieval_lab.scratch.text_splitters")

#: False drops the separator; True or "start" keeps it on the next piece, "end" before.
KeepSeparator = bool | Literal["start", "end"]


# %% notebooks/03_text_splitters.ipynb, cell 6
class BaseDocumentTransformer(ABC):
    """Anything that turns a sequence of Documents into another: splitters, filters."""

    @abstractmethod
    def transform_documents(
        self, documents: Sequence[Document], **kwargs: Any
    ) -> Sequence[Document]:
        """Return the transformed documents; each subclass says what that means."""

    async def atransform_documents(
        self, documents: Sequence[Document], **kwargs: Any
    ) -> Sequence[Document]:
        """The async twin: the sync method in a worker thread, as the real one does."""
        return await asyncio.to_thread(self.transform_documents, documents, **kwargs)


# %% notebooks/03_text_splitters.ipynb, cell 9
def _split_text_with_regex(
    text: str, pattern: str, *, keep_separator: KeepSeparator
) -> list[str]:
    """Cut text at every match of pattern; drop the separator, or keep it at the start
    or end of a piece."""
    if not pattern:
        pieces = list(text)  # no separator left to try: every character is a piece
    elif not keep_separator:
        pieces = re.split(pattern, text)
    else:
        # the group makes re.split return the separators too: [piece, sep, piece, ...]
        parts = re.split(f"({pattern})", text)
        between, separators = parts[0::2], parts[1::2]
        if keep_separator == "end":
            glued = zip(between, separators, strict=False)
            pieces = [p + s for p, s in glued] + [between[-1]]
        else:  # True or "start"
            glued = zip(separators, between[1:], strict=True)
            pieces = [between[0]] + [s + p for s, p in glued]
    return [p for p in pieces if p]


# %% notebooks/03_text_splitters.ipynb, cell 12
def _join_pieces(
    pieces: list[str], separator: str, strip_whitespace: bool
) -> str | None:
    """The chunk these pieces make, or None when nothing but whitespace is left."""
    chunk = separator.join(pieces)
    if strip_whitespace:
        chunk = chunk.strip()
    return chunk or None


# %% notebooks/03_text_splitters.ipynb, cell 14
class _Window:
    """The pieces on their way into the next chunk. Its length is counted, not measured:
    the pieces' lengths plus one separator between each pair."""

    def __init__(self, separator: str, length_function: Callable[[str], int]) -> None:
        self.pieces: list[str] = []
        self.length = 0
        self.separator = separator
        self.length_function = length_function

    def length_with(self, piece: str) -> int:
        """The window's length if ``piece`` were added to it."""
        gap = self.length_function(self.separator) if self.pieces else 0
        return self.length + gap + self.length_function(piece)

    def add(self, piece: str) -> None:
        self.length = self.length_with(piece)
        self.pieces.append(piece)

    def drop_first(self) -> str:
        gap = self.length_function(self.separator) if len(self.pieces) > 1 else 0
        self.length -= self.length_function(self.pieces[0]) + gap
        return self.pieces.pop(0)


# %% notebooks/03_text_splitters.ipynb, cell 16
def _emit_and_slide(
    window: _Window, piece: str, chunks: list[str], *, chunk_size: float,
    chunk_overlap: float, strip_whitespace: bool, say: Callable[[str], object],
) -> None:
    """``piece`` does not fit: emit the window, then drop pieces from its front."""
    if window.length > chunk_size:  # a single piece that was too long on its own
        logger.warning(
            "Created a chunk of size %d, which is longer than the specified %d",
            window.length, chunk_size,
        )
    if not window.pieces:
        return
    chunk = _join_pieces(window.pieces, window.separator, strip_whitespace)
    if chunk is not None:
        chunks.append(chunk)
    too_long = window.length_with(piece)
    say(f"{piece!r} does not fit ({too_long} > {chunk_size}): emit {chunk!r}")
    while window.length > chunk_overlap or (too_long > chunk_size and window.length):
        dropped = window.drop_first()
        too_long = window.length_with(piece)
        kept = f"{window.pieces} ({window.length})"
        say(f"    drop {dropped!r} from the front, keep {kept}")


# %% notebooks/03_text_splitters.ipynb, cell 18
def _merge_pieces(
    pieces: Iterable[str], separator: str, *, chunk_size: float, chunk_overlap: float,
    length_function: Callable[[str], int] = len, strip_whitespace: bool = True,
    trace: list[str] | None = None,
) -> list[str]:
    """Glue pieces into chunks of at most chunk_size (a piece longer than that becomes a
    chunk of its own); each chunk repeats up to chunk_overlap of the one before."""
    say = trace.append if trace is not None else (lambda line: None)
    window, chunks = _Window(separator, length_function), []
    for piece in pieces:
        if window.length_with(piece) > chunk_size:
            _emit_and_slide(
                window, piece, chunks, chunk_size=chunk_size,
                chunk_overlap=chunk_overlap, strip_whitespace=strip_whitespace, say=say,
            )
        window.add(piece)
        say(f"add {piece!r}: window {window.pieces} ({window.length})")
    chunk = _join_pieces(window.pieces, separator, strip_whitespace)
    if chunk is not None:
        chunks.append(chunk)
        say(f"end of the pieces: emit {chunk!r}")
    return chunks


# %% notebooks/03_text_splitters.ipynb, cell 24
class TextSplitter(BaseDocumentTransformer, ABC):
    """Split texts into chunks of at most chunk_size, overlapping by chunk_overlap."""

    def __init__(
        self, chunk_size: int = 4000, chunk_overlap: int = 200,
        length_function: Callable[[str], int] = len,
        keep_separator: KeepSeparator = False, add_start_index: bool = False,
        strip_whitespace: bool = True,
    ) -> None:
        self._check_settings(chunk_size, chunk_overlap, length_function, keep_separator)
        self._chunk_size = chunk_size
        self._chunk_overlap = chunk_overlap
        self._length_function = length_function
        self._keep_separator = keep_separator
        self._add_start_index = add_start_index
        self._strip_whitespace = strip_whitespace

    def _check_settings(self, *settings: Any) -> None:
        """Trusting, until notebook 03's deep dive "Refusing bad input"."""

    def _check_input(self, what: str, value: Any) -> None:
        """Trusting, until notebook 03's deep dive "Refusing bad input"."""

    @abstractmethod
    def split_text(self, text: str) -> list[str]:
        """Cut one text into chunks: each subclass decides where."""


# %% notebooks/03_text_splitters.ipynb, cell 25
@add_to_class(TextSplitter)
def _join_docs(self, docs: list[str], separator: str) -> str | None:
    return _join_pieces(docs, separator, self._strip_whitespace)


@add_to_class(TextSplitter)
def _merge_splits(self, splits: Iterable[str], separator: str) -> list[str]:
    return _merge_pieces(
        splits, separator, chunk_size=self._chunk_size,
        chunk_overlap=self._chunk_overlap, length_function=self._length_function,
        strip_whitespace=self._strip_whitespace,
    )


# %% notebooks/03_text_splitters.ipynb, cell 27
@add_to_class(TextSplitter)
def create_documents(
    self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None
) -> list[Document]:
    """One Document per chunk of each text, each with a deep copy of its metadata."""
    self._check_input("texts", texts)
    metadatas = metadatas or [{}] * len(texts)
    if len(metadatas) < len(texts):
        n, m = len(texts), len(metadatas)
        raise IndexError(f"got {n} texts but {m} metadatas: give one dict per text.")
    documents = []
    for text, metadata in zip(texts, metadatas, strict=False):
        start, previous_len = 0, 0
        for chunk in self.split_text(text):
            chunk_metadata = copy.deepcopy(metadata)
            if self._add_start_index:
                search_from = max(0, start + previous_len - self._chunk_overlap)
                start = text.find(chunk, search_from)  # -1: not in the text
                chunk_metadata["start_index"] = start
                previous_len = len(chunk)
            documents.append(Document(page_content=chunk, metadata=chunk_metadata))
    return documents


# %% notebooks/03_text_splitters.ipynb, cell 29
@add_to_class(TextSplitter)
def split_documents(self, documents: Iterable[Document]) -> list[Document]:
    """Split each Document; the chunks copy its metadata but not its id."""
    documents = list(documents)
    return self.create_documents(
        [d.page_content for d in documents], [d.metadata for d in documents]
    )


@add_to_class(TextSplitter)
def transform_documents(
    self, documents: Sequence[Document], **kwargs: Any
) -> Sequence[Document]:
    """A splitter is a document transformer: transforming means splitting."""
    return self.split_documents(list(documents))


# %% notebooks/03_text_splitters.ipynb, cell 31
class CharacterTextSplitter(TextSplitter):
    """Cut at one separator (a plain string, or a regex), then merge the pieces."""

    def __init__(
        self, separator: str = "\n\n", is_separator_regex: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self._separator = separator
        self._is_separator_regex = is_separator_regex
        self._check_input("separator", separator)


# %% notebooks/03_text_splitters.ipynb, cell 32
@add_to_class(CharacterTextSplitter)
def split_text(self, text: str) -> list[str]:
    self._check_input("text", text)
    regex = self._is_separator_regex
    pattern = self._separator if regex else re.escape(self._separator)
    pieces = _split_text_with_regex(text, pattern, keep_separator=self._keep_separator)
    lookaround = regex and self._separator.startswith(("(?=", "(?!", "(?<=", "(?<!"))
    glue = "" if self._keep_separator or lookaround else self._separator
    return self._merge_splits(pieces, glue)


# %% notebooks/03_text_splitters.ipynb, cell 34
class RecursiveCharacterTextSplitter(TextSplitter):
    """Cut at the coarsest separator present; re-split too-long pieces finer."""

    def __init__(
        self, separators: list[str] | None = None, keep_separator: KeepSeparator = True,
        is_separator_regex: bool = False, **kwargs: Any,
    ) -> None:
        super().__init__(keep_separator=keep_separator, **kwargs)
        self._is_separator_regex = is_separator_regex
        separators = separators or ["\n\n", "\n", " ", ""]  # [] means the default too
        self._check_input("separators", separators)
        self._separators = list(separators)


# %% notebooks/03_text_splitters.ipynb, cell 35
@add_to_class(RecursiveCharacterTextSplitter)
def _pattern(self, separator: str) -> str:
    return separator if self._is_separator_regex else re.escape(separator)


@add_to_class(RecursiveCharacterTextSplitter)
def _choose_separator(self, text: str, separators: list[str]) -> tuple[str, list[str]]:
    """The first separator found in text, and the finer ones after it."""
    for i, separator in enumerate(separators):
        if separator == "":
            return "", []
        if re.search(self._pattern(separator), text):
            return separator, separators[i + 1 :]
    return separators[-1], []


# %% notebooks/03_text_splitters.ipynb, cell 36
@add_to_class(RecursiveCharacterTextSplitter)
def _split_text(self, text: str, separators: list[str]) -> list[str]:
    separator, finer = self._choose_separator(text, separators)
    pieces = _split_text_with_regex(
        text, self._pattern(separator), keep_separator=self._keep_separator
    )
    glue = "" if self._keep_separator else separator
    chunks: list[str] = []
    short: list[str] = []  # pieces waiting to be merged
    for piece in pieces:
        if self._length_function(piece) < self._chunk_size:
            short.append(piece)
            continue
        if short:
            chunks += self._merge_splits(short, glue)
            short = []
        chunks += self._split_text(piece, finer) if finer else [piece]
    if short:
        chunks += self._merge_splits(short, glue)
    return chunks


@add_to_class(RecursiveCharacterTextSplitter)
def split_text(self, text: str) -> list[str]:
    self._check_input("text", text)
    return self._split_text(text, self._separators)


# %% notebooks/03_text_splitters.ipynb, cell 89
import numbers


def _check_sizes(chunk_size: Any, chunk_overlap: Any) -> None:
    """Both sizes are numbers, the size positive, the overlap between 0 and the size."""
    for name, value in (("chunk_size", chunk_size), ("chunk_overlap", chunk_overlap)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(
                f"{name} must be a number (measured with length_function), "
                f"got {value!r}."
            )
    if chunk_size <= 0:
        raise ValueError(
            f"chunk_size must be > 0, got {chunk_size}: a chunk holds at least one "
            "character, so pass a positive size such as chunk_size=500."
        )
    if chunk_overlap < 0:
        raise ValueError(
            f"chunk_overlap must be >= 0, got {chunk_overlap}: use 0 for chunks that "
            "do not overlap."
        )
    if chunk_overlap > chunk_size:
        raise ValueError(
            f"Got a larger chunk overlap ({chunk_overlap}) than chunk size "
            f"({chunk_size}), should be smaller: the overlap is the part of one chunk "
            "repeated at the start of the next."
        )


# %% notebooks/03_text_splitters.ipynb, cell 91
@add_to_class(TextSplitter)
def _check_settings(
    self, chunk_size: Any, chunk_overlap: Any, length_function: Any, keep_separator: Any
) -> None:
    """Refuse settings that cannot work, saying which one and what to pass instead."""
    _check_sizes(chunk_size, chunk_overlap)
    if not callable(length_function):
        raise TypeError(
            "length_function must be a function of a str, such as len; "
            f"got {length_function!r}."
        )
    if keep_separator not in (True, False, "start", "end"):
        raise ValueError(
            "keep_separator must be True, False, 'start' or 'end'; "
            f"got {keep_separator!r}."
        )


# %% notebooks/03_text_splitters.ipynb, cell 93
def _check_text(text: Any) -> None:
    """split_text works on one str: say what to pass instead of failing inside re."""
    if not isinstance(text, str):
        raise TypeError(
            f"split_text needs a str, got {type(text).__name__}: pass the text itself "
            "(e.g. doc.page_content), or use split_documents for Document objects."
        )


def _check_separator_regex(separator: str) -> None:
    """A regex with groups of its own makes re.split return extra pieces: refuse it."""
    if groups := re.compile(separator).groups:
        raise ValueError(
            f"the separator regex {separator!r} has {groups} capturing group(s), so "
            "re.split would return the captured text as extra pieces. Group with "
            "(?:...) instead, e.g. r'(?:\\n|\\.)'."
        )


# %% notebooks/03_text_splitters.ipynb, cell 95
@add_to_class(TextSplitter)
def _check_input(self, what: str, value: Any) -> None:
    """Refuse input a way in cannot use, saying what to pass instead."""
    if what == "text":
        _check_text(value)
    elif what == "texts" and isinstance(value, str):
        raise TypeError("create_documents takes a list of texts; for one, pass [text].")
    elif what == "separator" and not isinstance(value, str):
        raise TypeError(
            f"separator must be a str, got {type(value).__name__}; "
            "e.g. separator='\\n'."
        )
    elif what == "separators" and (
        isinstance(value, str) or not all(isinstance(s, str) for s in value)
    ):
        raise TypeError(
            f"separators must be a list of str, e.g. ['\\n\\n', ' ']; got {value!r}."
        )
    if what.startswith("separator") and self._is_separator_regex:
        for separator in [value] if what == "separator" else value:
            _check_separator_regex(separator)


# %% notebooks/03_text_splitters.ipynb, cell 107
import numpy as np

#: Where SemanticChunker cuts a text into sentences (langchain-experimental's default).
SENTENCE_END = r"(?<=[.?!])\s+"


class SemanticChunker(BaseDocumentTransformer):
    """Cut where the meaning changes: between two sentences whose neighbourhoods'
    vectors are far apart (langchain-experimental's SemanticChunker, by percentile)."""

    def __init__(
        self, embeddings: Any, buffer_size: int = 1, add_start_index: bool = False,
        breakpoint_threshold_amount: float = 95.0,
        sentence_split_regex: str = SENTENCE_END,
    ) -> None:
        if not 0 <= breakpoint_threshold_amount <= 100:
            raise ValueError("breakpoint_threshold_amount is a percentile: give 0 to "
                             f"100, got {breakpoint_threshold_amount!r}.")
        self.embeddings = embeddings
        self._buffer_size = buffer_size
        self._add_start_index = add_start_index
        self._amount = float(breakpoint_threshold_amount)
        self._sentence_split_regex = sentence_split_regex

    def __repr__(self) -> str:
        settings = (f"buffer_size={self._buffer_size}, breakpoint_threshold_amount="
                    f"{self._amount}, "
                    f"sentence_split_regex={self._sentence_split_regex!r}")
        return f"SemanticChunker({settings})"


# %% notebooks/03_text_splitters.ipynb, cell 109
@add_to_class(SemanticChunker)
def _sentence_spans(self, text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence: the text between two matches of the regex."""
    spans, start = [], 0
    for match in re.finditer(self._sentence_split_regex, text):
        spans.append((start, match.start()))
        start = match.end()
    spans.append((start, len(text)))
    trimmed = []
    for s, e in spans:  # without the whitespace at its ends; blank ones dropped
        piece = text[s:e]
        if piece.strip():
            trimmed.append((s + len(piece) - len(piece.lstrip()),
                            e - len(piece) + len(piece.rstrip())))
    return trimmed


@add_to_class(SemanticChunker)
def _distances(self, sentences: list[str]) -> np.ndarray:
    """1 − cosine of each sentence's window with the next one's; a window is the
    sentence with buffer_size neighbours on each side."""
    b = self._buffer_size
    windows = [" ".join(sentences[max(0, i - b) : i + b + 1])
               for i in range(len(sentences))]
    vectors = np.asarray(self.embeddings.embed_documents(windows), dtype=np.float64)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return 1.0 - np.sum(vectors[:-1] * vectors[1:], axis=1)


# %% notebooks/03_text_splitters.ipynb, cell 111
@add_to_class(SemanticChunker)
def _breakpoints(self, distances: np.ndarray) -> list[int]:
    """Cut after sentence i where its distance to the next is above the percentile."""
    threshold = np.percentile(distances, self._amount)
    return [i for i, distance in enumerate(distances) if distance > threshold]


@add_to_class(SemanticChunker)
def chunk_spans(self, text: str) -> list[tuple[int, int]]:
    """(start, end) of each chunk in the text: runs of sentences between breakpoints."""
    spans = self._sentence_spans(text)
    if len(spans) < 2:  # nothing to compare: no chunk, or the one sentence
        return spans
    cuts = self._breakpoints(self._distances([text[s:e] for s, e in spans]))
    firsts, lasts = [0] + [i + 1 for i in cuts], cuts + [len(spans) - 1]
    return [(spans[f][0], spans[g][1]) for f, g in zip(firsts, lasts, strict=True)]


@add_to_class(SemanticChunker)
def split_text(self, text: str) -> list[str]:
    return [text[s:e] for s, e in self.chunk_spans(text)]


# %% notebooks/03_text_splitters.ipynb, cell 113
@add_to_class(SemanticChunker)
def create_documents(
    self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None
) -> list[Document]:
    """A Document per chunk; start_index is where the chunk's first sentence starts."""
    metadatas = metadatas or [{}] * len(texts)
    documents = []
    for text, metadata in zip(texts, metadatas, strict=True):
        for start, end in self.chunk_spans(text):
            chunk_metadata = copy.deepcopy(metadata)
            if self._add_start_index:
                chunk_metadata["start_index"] = start
            documents.append(Document(page_content=text[start:end],
                                      metadata=chunk_metadata))
    return documents


@add_to_class(SemanticChunker)
def split_documents(self, documents: Iterable[Document]) -> list[Document]:
    documents = list(documents)
    return self.create_documents([d.page_content for d in documents],
                                 [d.metadata for d in documents])


@add_to_class(SemanticChunker)
def transform_documents(
    self, documents: Sequence[Document], **kwargs: Any
) -> Sequence[Document]:
    return self.split_documents(list(documents))
