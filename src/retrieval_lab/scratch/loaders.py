# GENERATED from notebooks/02_loaders.ipynb by `make export`: do not edit.
# Edit the notebook's cells tagged "export", run them, then run `make export`.
# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).

# %% notebooks/02_loaders.ipynb, cell 9
import contextlib
import mimetypes
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterator, Mapping
from io import BufferedReader, BytesIO
from pathlib import Path, PurePath
from typing import Any, Protocol, TypeVar

from retrieval_lab.scratch.document import Document


# %% notebooks/02_loaders.ipynb, cell 10
# No abstract method, on purpose: the real BaseLoader has none either.
class BaseLoader(ABC):  # noqa: B024
    """Where documents come from. A subclass writes one generator, ``lazy_load``; the
    rest is given.

    ``lazy_load`` hands out one Document at a time, so a loader over a million files
    holds one file's text at a time, not a million. ``load`` is the convenience for
    corpora that fit in memory.
    """

    def lazy_load(self) -> Iterator[Document]:
        """Yield the Documents one by one. Subclasses override this, as a generator.

        This fallback serves older loaders that wrote ``load`` instead: it hands out
        that list. A class that writes neither method ends up here, and finds out only
        now, when it is called.
        """
        if type(self).load is not BaseLoader.load:
            return iter(self.load())
        raise NotImplementedError(
            f"{type(self).__name__} does not implement lazy_load(): "
            "give it a lazy_load(self) generator that yields Documents."
        )

    def load(self) -> list[Document]:
        """Every Document at once, as a list. Write ``lazy_load``, not this."""
        return list(self.lazy_load())


# %% notebooks/02_loaders.ipynb, cell 23
_T = TypeVar("_T")


# Runs the sync twin in a worker thread, as langchain-core does: written once for
# the course (retrieval_lab.runtime.concurrency): context copied, StopIteration wrapped.
from retrieval_lab.runtime.concurrency import in_thread as _in_thread


# %% notebooks/02_loaders.ipynb, cell 24
async def _alazy_load(self: BaseLoader) -> AsyncIterator[Document]:
    """Async twin of lazy_load: each step of the sync generator runs in a worker thread.

    A slow disk or network read then blocks a worker, not the event loop.
    """
    iterator = await _in_thread(self.lazy_load)
    done = object()
    while True:
        document = await _in_thread(next, iterator, done)
        if document is done:
            break
        yield document


async def _aload(self: BaseLoader) -> list[Document]:
    """Async twin of load. It collects alazy_load; it never calls load."""
    return [document async for document in self.alazy_load()]


BaseLoader.alazy_load = _alazy_load

BaseLoader.aload = _aload


# %% notebooks/02_loaders.ipynb, cell 28
class _Splitter(Protocol):
    """Anything with split_documents can split: load_and_split asks for nothing more."""

    def split_documents(self, documents: list[Document]) -> list[Document]: ...


# %% notebooks/02_loaders.ipynb, cell 29
def _load_and_split(
    self: BaseLoader, text_splitter: _Splitter | None = None
) -> list[Document]:
    """load(), then cut every Document into chunks with
    ``text_splitter.split_documents``.

    With no splitter it makes the course's RecursiveCharacterTextSplitter (notebook 03),
    imported here, when first needed, so loaders work without it. The real class tries
    to import langchain-text-splitters once, when langchain_core.document_loaders.base
    is first imported (when BaseLoader is first taken from the package), and remembers
    the result.
    """
    if text_splitter is None:
        try:
            from retrieval_lab.scratch.text_splitters import (
                RecursiveCharacterTextSplitter,
            )
        except ImportError as exc:
            raise ImportError(
                "Unable to import RecursiveCharacterTextSplitter from "
                "retrieval_lab.scratch.text_splitters. "
                "Pass a splitter, load_and_split(splitter), or build "
                "notebook 03 and run `make export`."
            ) from exc
        text_splitter = RecursiveCharacterTextSplitter()
    return text_splitter.split_documents(self.load())


# %% notebooks/02_loaders.ipynb, cell 30
BaseLoader.load_and_split = _load_and_split


# %% notebooks/02_loaders.ipynb, cell 74
from retrieval_lab.runtime.oop import add_to_class

PathLike = str | PurePath

_UNSET: Any = object()  # tells "not given" apart from an explicit None

#: The fields in the real Blob's order, with the defaults its printout leaves out
#: (metadata is always shown: the real one compares it with None).
_BLOB_DEFAULTS: dict[str, Any] = {
    "id": None,
    "metadata": None,
    "data": None,
    "mimetype": None,
    "encoding": "utf-8",
    "path": None,
}


def _checked(name: str, value: Any, types: tuple[type, ...], expected: str) -> Any:
    if not isinstance(value, types):
        raise TypeError(
            f"Blob {name} must be {expected}, got {type(value).__name__} {value!r}."
        )
    return value


# %% notebooks/02_loaders.ipynb, cell 75
def _checked_blob_id(value: Any) -> str | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)  # numbers become text, as Document ids do
    return _checked("id", value, (str, type(None)), "a str or None")


# %% notebooks/02_loaders.ipynb, cell 76
def _blob_fields(
    data: Any, path: Any, mimetype: Any, encoding: Any, metadata: Any, id: Any
) -> dict[str, Any]:
    """Check every field, saying what was wrong; ``_UNSET`` means "not given"."""
    if data is _UNSET and path is _UNSET:
        raise ValueError(
            "Either data or path must be provided: Blob.from_data(...) for bytes or "
            "text in memory, Blob.from_path(...) for a file."
        )
    data = None if data is _UNSET else data
    if isinstance(data, bytearray | memoryview):
        data = bytes(data)
    metadata = {} if metadata is _UNSET else metadata
    path = None if path is _UNSET else path
    return {
        "id": _checked_blob_id(id),
        "metadata": dict(_checked("metadata", metadata, (Mapping,), "a dict")),
        "data": _checked(
            "data", data, (bytes, str, type(None)), "bytes, a str or None"
        ),
        "mimetype": _checked(
            "mimetype", mimetype, (str, type(None)), "a str or None"
        ),
        "encoding": _checked("encoding", encoding, (str,), "a str such as 'utf-8'"),
        "path": _checked(
            "path", path, (str, PurePath, type(None)), "a str, a pathlib path or None"
        ),
    }


# %% notebooks/02_loaders.ipynb, cell 78
class Blob:
    """Raw data (bytes or text) or a reference to a file, with metadata: what a parser
    reads. Give ``data``, or ``path``, or both.

    Frozen, like the real one: a blob describes data that exists; to change it, make a
    new blob."""

    def __init__(
        self,
        *,
        data: bytes | str | None = _UNSET,
        path: PathLike | None = _UNSET,
        mimetype: str | None = None,
        encoding: str = "utf-8",
        metadata: Mapping[str, Any] = _UNSET,
        id: str | None = None,
    ) -> None:
        fields = _blob_fields(data, path, mimetype, encoding, metadata, id)
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def __eq__(self, other: object) -> bool:
        """Equal when of the same class with equal fields, like any Pydantic model."""
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in _BLOB_DEFAULTS)

    __hash__ = None  # metadata is a dict: a Blob cannot be hashed (nor the real one)


# %% notebooks/02_loaders.ipynb, cell 79
@add_to_class(Blob)
def __setattr__(self, name: str, value: Any) -> None:
    raise TypeError(f"Blob is frozen: cannot set {name!r}. Make a new Blob instead.")


@add_to_class(Blob)
def __delattr__(self, name: str) -> None:
    raise TypeError(f"Blob is frozen: cannot delete {name!r}.")


@add_to_class(Blob)
@property
def source(self) -> str | None:
    """Where the data came from: metadata["source"], else the path, else None."""
    if self.metadata and "source" in self.metadata:
        return self.metadata["source"]
    return str(self.path) if self.path else None


# %% notebooks/02_loaders.ipynb, cell 81
def _as_string(self: Blob) -> str:
    """The data as text: read from the path if there is no data, decoded if it is bytes.
    """
    if self.data is None and self.path:
        return Path(self.path).read_text(encoding=self.encoding)
    if isinstance(self.data, bytes):
        return self.data.decode(self.encoding)
    if isinstance(self.data, str):
        return self.data
    raise ValueError(
        f"Unable to get string for blob {self}: it has no data and no path to read."
    )


def _as_bytes(self: Blob) -> bytes:
    """The data as bytes: encoded if it is text, read from the path if there is no data.
    """
    if isinstance(self.data, bytes):
        return self.data
    if isinstance(self.data, str):
        return self.data.encode(self.encoding)
    if self.data is None and self.path:
        return Path(self.path).read_bytes()
    raise ValueError(
        f"Unable to get bytes for blob {self}: it has no data and no path to read."
    )


# %% notebooks/02_loaders.ipynb, cell 82
@contextlib.contextmanager
def _as_bytes_io(self: Blob) -> Iterator[BytesIO | BufferedReader]:
    """A byte stream over the data (bytes in memory, or the open file); text data is
    refused.
    """
    if isinstance(self.data, bytes):
        yield BytesIO(self.data)
    elif self.data is None and self.path:
        with Path(self.path).open("rb") as file:
            yield file
    else:
        raise NotImplementedError(
            f"Unable to convert blob {self}: as_bytes_io needs bytes data or a path; "
            "for text data use as_bytes() or as_string()."
        )


Blob.as_string = _as_string

Blob.as_bytes = _as_bytes

Blob.as_bytes_io = _as_bytes_io


# %% notebooks/02_loaders.ipynb, cell 84
def _from_path(
    cls: type[Blob],
    path: PathLike,
    *,
    encoding: str = "utf-8",
    mime_type: str | None = None,
    guess_type: bool = True,
    metadata: dict[str, Any] | None = None,
) -> Blob:
    """A blob that *points at* a file: nothing is read until you ask for the data."""
    mimetype = (
        mimetypes.guess_type(path)[0] if mime_type is None and guess_type else mime_type
    )
    return cls(
        data=None,
        mimetype=mimetype,
        encoding=encoding,
        path=path,
        metadata=metadata if metadata is not None else {},
    )


# %% notebooks/02_loaders.ipynb, cell 85
def _from_data(
    cls: type[Blob],
    data: str | bytes,
    *,
    encoding: str = "utf-8",
    mime_type: str | None = None,
    path: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> Blob:
    """A blob holding bytes or text in memory; ``path`` only records where it came from.
    """
    return cls(
        data=data,
        mimetype=mime_type,
        encoding=encoding,
        path=path,
        metadata=metadata if metadata is not None else {},
    )


Blob.from_path = classmethod(_from_path)

Blob.from_data = classmethod(_from_data)


# %% notebooks/02_loaders.ipynb, cell 87
def _blob_str(self: Blob) -> str:
    """The fields that differ from their defaults, as name=repr(value)."""
    return " ".join(
        f"{name}={getattr(self, name)!r}"
        for name, default in _BLOB_DEFAULTS.items()
        if getattr(self, name) != default
    )


def _blob_repr(self: Blob) -> str:
    """Not the fields: the object's identity number and its source."""
    return f"Blob {id(self)}" + (f" {self.source}" if self.source else "")


Blob.__str__ = _blob_str
Blob.__repr__ = _blob_repr


# %% notebooks/02_loaders.ipynb, cell 98
class BlobLoader(ABC):
    """Finds raw data and yields it as Blobs, lazily. It knows nothing about what the
    bytes mean.
    """

    @abstractmethod
    def yield_blobs(self) -> Iterator[Blob]:
        """Yield one Blob per item found: a file, an object in a bucket, an attachment…
        """


class BaseBlobParser(ABC):
    """Turns one Blob into Documents. It knows nothing about where the blob came from.
    """

    @abstractmethod
    def lazy_parse(self, blob: Blob) -> Iterator[Document]:
        """Yield the Documents this blob holds."""

    def parse(self, blob: Blob) -> list[Document]:
        """Every Document of the blob at once: ``list(self.lazy_parse(blob))``."""
        return list(self.lazy_parse(blob))
