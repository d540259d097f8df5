"""Notebook 02's exercise checks: files read by a lazy loader, a lazy line reader, lazy splitting."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import Document as RealDocument
from langchain_text_splitters import CharacterTextSplitter, RecursiveCharacterTextSplitter

from retrieval_lab.checks.allow import Allow
from retrieval_lab.data.corpus import course_data
from retrieval_lab.scratch.document import Document


def _text_files() -> list[Path]:
    return sorted(course_data().glob("*.md")) + sorted(course_data().glob("*.txt"))


class _CountingLoader(BaseLoader):
    """The notebook's RealTextFileLoader: one real Document per file, counting the reads."""

    def __init__(self, paths: list[Path]) -> None:
        self.paths, self._files_read = [Path(p) for p in paths], 0

    def lazy_load(self) -> Iterator[Any]:
        for path in self.paths:
            text = path.read_text(encoding="utf-8")
            self._files_read += 1
            yield RealDocument(text, metadata={"source": path.as_posix()})


def files_read() -> dict[str, int]:
    """Exercise 1 (predict): run each line on a fresh loader over the four text files; count the reads."""
    lines: dict[str, Callable[[Any], Any]] = {
        "A": lambda loader: loader.lazy_load(),
        "B": lambda loader: next(iter(loader.load())),
        "C": lambda loader: next(doc for doc in loader.lazy_load() if doc.metadata["source"].endswith(".txt")),
        "D": lambda loader: list(zip(loader.lazy_load(), "ab", strict=False)),
        "E": lambda loader: list(zip("ab", loader.lazy_load(), strict=False)),
    }
    counts = {}
    for line, run in lines.items():
        run(loader := _CountingLoader(_text_files()))
        counts[line] = loader._files_read
    return counts


def log_lines(stream: Any, source: str) -> Iterator[Any]:
    """Exercise 2 (debug): the colleague's generator: right Documents, but the whole stream read first."""
    lines = stream.read().splitlines()
    for number, line in enumerate(lines, start=1):
        if line.strip():
            yield Document(line, metadata={"source": source, "line": number})


def _CountingStream(text: str) -> Any:  # noqa: N802 - it makes a stream, like a class
    """A text stream that counts the characters it hands out, however asked. Its text lives in a
    closure, not in an attribute or a base class, so no route around the counting
    (``io.StringIO.getvalue(stream)``, ``super()``, a private attribute) reaches it."""
    inner, count = io.StringIO(text), [0]

    def counted(part: str) -> str:
        count[0] += len(part)
        return part

    class CountingStream(io.TextIOBase):
        def readable(self) -> bool:
            return True

        def read(self, size: int | None = -1) -> str:
            return counted(inner.read(-1 if size is None else size))

        def readline(self, size: int | None = -1) -> str:  # also what iteration calls
            return counted(inner.readline(-1 if size is None else size))

        @property
        def chars_read(self) -> int:
            return count[0]

    return CountingStream()


#: Fixed streams, then streams drawn (seed 2) from words and every line boundary
#: str.splitlines knows, with the blanks they may leave.
_BOUNDARIES = ["\n", "\r\n", "\r", "\f", "\v", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
_WORDS, _DRAW = ["GET /", "POST /cats", " b ", "a", "  ", "\t", "ok", "x y"], random.Random(2)
_STREAMS = ["one\n\ntwo\n", "  \nlast line, no newline", "", "a\n \n\n b \nc\n",
            "GET /\r\nGET /cats\r\n", "page 1\fpage 2\n", "first\u2028second\nthird",
            "old\rmac\rlines", "\r\n\r\n", "tab\there\n\x85next\n"] + [
    "".join(_DRAW.choice(_WORDS) + _DRAW.choice(_BOUNDARIES) for _ in range(_DRAW.randint(1, 6)))
    + _DRAW.choice(["", "tail"]) for _ in range(40)]


def _fields(documents: Any) -> list[tuple[str, dict]]:
    return [(d.page_content, d.metadata) for d in documents]


def line_problems(make: Callable[..., Any]) -> str | None:
    """The same Documents as log_lines on every stream, reading one line per Document."""
    for text in _STREAMS:
        got = _fields(make(_CountingStream(text), "log.txt"))
        if got != _fields(log_lines(io.StringIO(text), "log.txt")):
            return f"on the stream {text!r} you gave {got}, not log_lines's Documents"
    for ending in ("\n", "\r\n"):
        text = "".join(f"request {n} served{ending}" for n in range(10_000))
        next(iter(make(log := _CountingStream(text), "big.log")))
        if log.chars_read > 2 * len(f"request 0 served{ending}"):
            return f"asked for one Document, it read {log.chars_read:,} of the stream's {len(text):,} characters"
    return None


def splitting_problems(split: Callable[..., Any]) -> str | None:
    """Exercise 3 (extend): the chunks load_and_split gives, in order, and the first for one file read."""
    paths, data = _text_files(), course_data()
    chunkers = [CharacterTextSplitter(separator="\n", chunk_size=60, chunk_overlap=0),
                RecursiveCharacterTextSplitter(chunk_size=45, chunk_overlap=15, add_start_index=True)]
    for chunker in chunkers:
        for files in (paths, [data / "dogs.txt", data / "cats.txt"], [], paths[::-1]):
            wanted = _fields(_CountingLoader(files).load_and_split(chunker))
            if _fields(split(_CountingLoader(files), chunker)) != wanted:
                return f"on {len(files)} files the chunks differ from load_and_split's"
    next(iter(split(huge := _CountingLoader(sorted(data.glob("*.txt")) * 5_000), chunkers[0])))
    if huge._files_read > 1:
        return f"the first chunk cost {huge._files_read:,} file reads; one holds it"
    return None


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="lazy_lines", modules=["re", "itertools"], names=["Document"],
                        refuse=["read", "readlines", "getvalue", "log_lines"]),
    "Exercise 3": Allow(answer="lazy_split", modules=["itertools"], refuse=["load", "load_and_split"]),
}
