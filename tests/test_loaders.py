"""The scratch loaders (notebook 02) against langchain-core's, on the same random input.

Each loader's *logic* is written once, as a mixin, and put on both bases: what differs is only
the base class, so any disagreement is a difference between the scratch and the real base.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import itertools
import re
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.document_loaders import BaseBlobParser as RealBaseBlobParser
from langchain_core.document_loaders import BaseLoader as RealBaseLoader
from langchain_core.document_loaders import Blob as RealBlob
from langchain_core.document_loaders import BlobLoader as RealBlobLoader
from langchain_core.documents import Document as RealDocument
from langchain_text_splitters import CharacterTextSplitter
from langchain_text_splitters import RecursiveCharacterTextSplitter as RealRecursiveCharacterTextSplitter

import retrieval_lab.scratch.loaders as scratch_loaders
from retrieval_lab.evaluation.compare import outcome, same_outcome
from retrieval_lab.scratch import BaseBlobParser, BaseLoader, Blob, BlobLoader
from retrieval_lab.scratch.document import Document

# --------------------------------------------------------------------------- the same logic on both bases


class _FolderLogic:
    """One Document per file of a folder, in name order, counting the files it reads."""

    document_class: type

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files_read = 0

    def lazy_load(self) -> Iterator:
        for path in sorted(self.folder.iterdir()):
            text = path.read_text(encoding="utf-8")
            self.files_read += 1
            yield self.document_class(text, metadata={"source": path.name, "chars": len(text)})


class MineFolder(_FolderLogic, BaseLoader):
    document_class = Document


class RealFolder(_FolderLogic, RealBaseLoader):
    document_class = RealDocument


class _OldStyleLogic(_FolderLogic):
    """An older loader: writes load() only."""

    def load(self) -> list:
        return list(_FolderLogic.lazy_load(self))


class MineOldStyle(_OldStyleLogic, BaseLoader):
    document_class = Document
    lazy_load = BaseLoader.lazy_load


class RealOldStyle(_OldStyleLogic, RealBaseLoader):
    document_class = RealDocument
    lazy_load = RealBaseLoader.lazy_load


class MineNeither(BaseLoader):
    pass


class RealNeither(RealBaseLoader):
    pass


def fields(documents) -> list[tuple[str, dict]]:
    return [(d.page_content, d.metadata) for d in documents]


# --------------------------------------------------------------------------- random folders

_names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-", min_size=1, max_size=12)
_texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200)
folders = st.dictionaries(_names, _texts, max_size=6)


def _write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / f"{name}.txt").write_bytes(text.encode("utf-8"))


async def _collect(loader) -> list:
    return [document async for document in loader.alazy_load()]


@settings(max_examples=20)
@given(files=folders)
def test_load_lazy_load_alazy_load_and_aload_match_real(files):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _write(folder, files)
        mine, real = MineFolder(folder), RealFolder(folder)
        assert inspect.isgenerator(mine.lazy_load()) and inspect.isgenerator(real.lazy_load())
        assert fields(mine.load()) == fields(real.load())
        assert fields(mine.lazy_load()) == fields(real.lazy_load())
        assert fields(asyncio.run(mine.aload())) == fields(asyncio.run(real.aload()))
        assert fields(asyncio.run(_collect(mine))) == fields(asyncio.run(_collect(real)))


@settings(max_examples=20)
@given(files=folders, take=st.integers(min_value=0, max_value=8))
def test_lazy_load_reads_only_what_is_consumed(files, take):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _write(folder, files)
        mine, real = MineFolder(folder), RealFolder(folder)
        got_mine = list(itertools.islice(mine.lazy_load(), take))
        got_real = list(itertools.islice(real.lazy_load(), take))
        assert fields(got_mine) == fields(got_real)
        assert mine.files_read == real.files_read == min(take, len(files))


def test_the_work_of_alazy_load_happens_in_a_worker_thread():
    class Mine(BaseLoader):
        def lazy_load(self):
            yield Document(threading.current_thread().name)

    class Real(RealBaseLoader):
        def lazy_load(self):
            yield RealDocument(threading.current_thread().name)

    for loader in (Mine(), Real()):
        assert [d.page_content for d in loader.load()] == [threading.current_thread().name]
        (doc,) = asyncio.run(loader.aload())
        assert doc.page_content != threading.current_thread().name


@settings(max_examples=20)
@given(files=folders)
def test_a_loader_that_writes_only_load_gets_an_eager_lazy_load(files):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _write(folder, files)
        mine, real = MineOldStyle(folder), RealOldStyle(folder)
        mine_stream, real_stream = mine.lazy_load(), real.lazy_load()
        assert type(mine_stream).__name__ == type(real_stream).__name__ == "list_iterator"
        assert mine.files_read == real.files_read == len(files)  # everything read before the first item
        assert fields(mine_stream) == fields(real_stream)
        assert fields(asyncio.run(mine.aload())) == fields(asyncio.run(real.aload()))


def test_a_loader_with_neither_method_fails_only_when_called():
    mine, real = MineNeither(), RealNeither()  # both can be created: no abstract method
    assert BaseLoader.__abstractmethods__ == RealBaseLoader.__abstractmethods__ == frozenset()
    for call in (lambda x: x.load(), lambda x: x.lazy_load(), lambda x: asyncio.run(x.aload()),
                 lambda x: x.load_and_split(CharacterTextSplitter())):
        a, b = outcome(lambda c=call: c(mine)), outcome(lambda c=call: c(real))
        assert a.error and b.error and a.error[0] == b.error[0] == "NotImplementedError"
        assert a.error[1].startswith("MineNeither does not implement lazy_load()")
        assert b.error[1] == "RealNeither does not implement lazy_load()"


@settings(max_examples=20)
@given(files=folders, chunk_size=st.integers(min_value=5, max_value=80), overlap=st.integers(min_value=0, max_value=4))
def test_load_and_split_with_a_splitter_matches_real(files, chunk_size, overlap):
    splitter = RealRecursiveCharacterTextSplitter(chunk_size=chunk_size, chunk_overlap=overlap)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _write(folder, files)
        assert fields(MineFolder(folder).load_and_split(splitter)) == fields(
            RealFolder(folder).load_and_split(splitter)
        )


_long_texts = st.lists(
    st.sampled_from(["cat", "dog", "kernel", "python", "the", "a", "\n", "\n\n", ".", " "]), max_size=1600
).map(" ".join)


@settings(max_examples=10)
@given(files=st.dictionaries(_names, _long_texts, max_size=3))
def test_load_and_split_default_is_the_scratch_recursive_splitter(files):
    """With no splitter, ours uses notebook 03's RecursiveCharacterTextSplitter with its defaults."""
    pytest.importorskip("retrieval_lab.scratch.text_splitters", reason="notebook 03 is not exported yet")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        _write(folder, files)
        mine, real = MineFolder(folder).load_and_split(), RealFolder(folder).load_and_split()
        assert fields(mine) == fields(real)
        assert all(isinstance(d, Document) for d in mine)


def test_load_and_split_without_the_scratch_splitter_says_what_to_do(monkeypatch):
    monkeypatch.setitem(sys.modules, "retrieval_lab.scratch.text_splitters", None)
    with tempfile.TemporaryDirectory() as tmp:
        loader = MineFolder(Path(tmp))
        with pytest.raises(ImportError, match="Pass a splitter"):
            loader.load_and_split()
        assert loader.load_and_split(CharacterTextSplitter()) == []  # an explicit splitter needs no import


# --------------------------------------------------------------------------- blobs

_encodings = st.sampled_from(["utf-8", "latin-1", "utf-16", "ascii"])
_metadata = st.dictionaries(st.sampled_from(["source", "lang", "page"]), st.text(max_size=8), max_size=2)
_paths = st.none() | st.just("") | _names.map(lambda n: f"folder/{n}.txt")
_data = st.none() | st.binary(max_size=40) | st.text(max_size=40)


def _blob_questions(blob) -> dict:
    def stream():
        with blob.as_bytes_io() as handle:
            return handle.read()

    return {
        "str": lambda: str(blob),
        "source": lambda: blob.source,
        "fields": lambda: (blob.id, blob.metadata, blob.data, blob.mimetype, blob.encoding, blob.path),
        "as_string": blob.as_string,
        "as_bytes": blob.as_bytes,
        "as_bytes_io": stream,
        "equal to itself rebuilt": lambda: blob == type(blob)(
            data=blob.data, path=blob.path, mimetype=blob.mimetype, encoding=blob.encoding,
            metadata=blob.metadata, id=blob.id,
        ),
    }


def _assert_same_answers(mine, real) -> None:
    a, b = _blob_questions(mine), _blob_questions(real)
    for question in a:
        got, expected = outcome(a[question]), outcome(b[question])
        assert same_outcome(got, expected), (question, got, expected)  # values, or errors of one kind


@settings(max_examples=20)
@given(data=_data, path=_paths, mimetype=st.none() | st.sampled_from(["text/plain", "text/csv"]),
       encoding=_encodings, metadata=_metadata, blob_id=st.none() | st.text(max_size=6) | st.integers())
def test_blob_constructor_matches_real(data, path, mimetype, encoding, metadata, blob_id):
    kwargs = dict(data=data, path=path, mimetype=mimetype, encoding=encoding, metadata=metadata, id=blob_id)
    _assert_same_answers(Blob(**kwargs), RealBlob(**kwargs))


@settings(max_examples=20)
@given(data=st.binary(max_size=40) | st.text(max_size=40), encoding=_encodings, path=st.none() | _names,
       mime_type=st.none() | st.just("text/markdown"), metadata=st.none() | _metadata)
def test_blob_from_data_matches_real(data, encoding, path, mime_type, metadata):
    kwargs = dict(encoding=encoding, mime_type=mime_type, path=path, metadata=metadata)
    _assert_same_answers(Blob.from_data(data, **kwargs), RealBlob.from_data(data, **kwargs))


@settings(max_examples=20)
@given(content=st.binary(max_size=60), suffix=st.sampled_from([".txt", ".csv", ".json", ".weird", ""]),
       encoding=_encodings, guess_type=st.booleans(), mime_type=st.none() | st.just("application/x-mine"))
def test_blob_from_path_matches_real_and_reads_lazily(content, suffix, encoding, guess_type, mime_type):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"file{suffix}"
        kwargs = dict(encoding=encoding, guess_type=guess_type, mime_type=mime_type)
        for where in (str(path), path):  # a str and a pathlib path
            mine, real = Blob.from_path(where, **kwargs), RealBlob.from_path(where, **kwargs)
            _assert_same_answers(mine, real)  # the file does not exist yet: both fail on reading
            path.write_bytes(content)
            assert mine.data is None and real.data is None  # nothing was read at construction
            _assert_same_answers(mine, real)
            path.unlink()


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"data": 5}, {"data": "x", "metadata": None}, {"data": "x", "encoding": None}, {"data": "x", "path": 3},
     {"data": "x", "mimetype": 3}, {"data": "x", "id": True}, {"path": None, "metadata": ["a"]}],
    ids=repr,
)
def test_blob_refuses_the_same_bad_input(kwargs):
    got, expected = outcome(lambda: Blob(**kwargs)), outcome(lambda: RealBlob(**kwargs))
    assert expected.error is not None and same_outcome(got, expected), (got, expected)


def test_blob_errors_say_what_to_do():
    with pytest.raises(ValueError, match=r"Blob\.from_data"):
        Blob()
    with pytest.raises(TypeError, match="data must be bytes, a str or None"):
        Blob(data=5)
    with pytest.raises(TypeError, match="frozen"):
        Blob(data="x").data = "y"
    with pytest.raises(TypeError, match="frozen"):
        del Blob(data="x").data
    with pytest.raises(TypeError):
        Blob("x")  # keyword-only, like a Pydantic model
    with pytest.raises(TypeError):
        hash(Blob(data="x"))


def test_blob_takes_bytearray_as_bytes_like_the_real_one():
    assert Blob(data=bytearray(b"ab")).data == RealBlob(data=bytearray(b"ab")).data == b"ab"


def test_blob_equality_follows_class_and_fields():
    assert Blob(data="x") == Blob(data="x") and RealBlob(data="x") == RealBlob(data="x")
    assert Blob(data="x") != Blob(data="y") and RealBlob(data="x") != RealBlob(data="y")
    assert Blob(data="x") != RealBlob(data="x")


@settings(max_examples=20)
@given(data=_data, path=_paths, metadata=_metadata)
def test_blob_repr_is_the_object_id_and_source(data, path, metadata):
    mine = Blob(data=data, path=path, metadata=metadata)
    real = RealBlob(data=data, path=path, metadata=metadata)
    assert repr(mine) == f"Blob {id(mine)}" + (f" {mine.source}" if mine.source else "")
    assert re.sub(r"^Blob \d+", "Blob <id>", repr(mine)) == re.sub(r"^Blob \d+", "Blob <id>", repr(real))


# --------------------------------------------------------------------------- blob loaders and parsers


def test_blob_loader_and_parser_have_the_same_abstract_methods():
    assert BlobLoader.__abstractmethods__ == RealBlobLoader.__abstractmethods__ == frozenset({"yield_blobs"})
    assert BaseBlobParser.__abstractmethods__ == RealBaseBlobParser.__abstractmethods__ == frozenset({"lazy_parse"})
    for mine, real in ((BlobLoader, RealBlobLoader), (BaseBlobParser, RealBaseBlobParser)):
        got = outcome(lambda cls=mine: type("Empty", (cls,), {})())
        expected = outcome(lambda cls=real: type("Empty", (cls,), {})())
        assert got.error and expected.error and got.error[0] == expected.error[0] == "TypeError"


class _LinesLogic:
    """Parser: one Document per line of the blob, with the blob's source and the line number."""

    document_class: type

    def lazy_parse(self, blob) -> Iterator:
        for number, line in enumerate(blob.as_string().splitlines(), start=1):
            yield self.document_class(line, metadata={"source": blob.source, "line": number})


class MineLines(_LinesLogic, BaseBlobParser):
    document_class = Document


class RealLines(_LinesLogic, RealBaseBlobParser):
    document_class = RealDocument


class _DictBlobsLogic:
    """Blob loader: one blob per entry of {name: text}."""

    blob_class: type

    def __init__(self, files: dict[str, str]) -> None:
        self.files = files

    def yield_blobs(self) -> Iterator:
        for name, text in self.files.items():
            yield self.blob_class.from_data(text, path=name)


class MineDictBlobs(_DictBlobsLogic, BlobLoader):
    blob_class = Blob


class RealDictBlobs(_DictBlobsLogic, RealBlobLoader):
    blob_class = RealBlob


@settings(max_examples=20)
@given(files=st.dictionaries(_names, _texts, max_size=5))
def test_blob_loader_and_parser_compose_like_the_real_ones(files):
    mine_blobs, real_blobs = list(MineDictBlobs(files).yield_blobs()), list(RealDictBlobs(files).yield_blobs())
    assert [str(b) for b in mine_blobs] == [str(b) for b in real_blobs]
    for mine_blob, real_blob in zip(mine_blobs, real_blobs, strict=True):
        assert inspect.isgenerator(MineLines().lazy_parse(mine_blob))
        assert fields(MineLines().parse(mine_blob)) == fields(RealLines().parse(real_blob))
        assert fields(MineLines().lazy_parse(mine_blob)) == fields(RealLines().lazy_parse(real_blob))


# --------------------------------------------------------------------------- the module itself


def test_scratch_loaders_import_no_langchain():
    tree = ast.parse(Path(scratch_loaders.__file__).read_text(encoding="utf-8"))
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert not [name for name in imported if name.startswith("langchain")], imported


def test_the_real_names_are_exported():
    import retrieval_lab.scratch as scratch

    for name in ("BaseLoader", "Blob", "BlobLoader", "BaseBlobParser"):
        assert getattr(scratch, name).__module__ == "retrieval_lab.scratch.loaders"


def test_same_public_methods_as_the_real_classes():
    for mine, real, names in (
        (BaseLoader, RealBaseLoader, ["load", "lazy_load", "aload", "alazy_load", "load_and_split"]),
        (BaseBlobParser, RealBaseBlobParser, ["lazy_parse", "parse"]),
        (BlobLoader, RealBlobLoader, ["yield_blobs"]),
        (Blob, RealBlob, ["as_string", "as_bytes", "as_bytes_io", "from_path", "from_data"]),
    ):
        for name in names:
            mine_params = list(inspect.signature(getattr(mine, name)).parameters)
            real_params = list(inspect.signature(getattr(real, name)).parameters)
            assert mine_params == real_params, (mine.__name__, name)
