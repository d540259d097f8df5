"""The scratch text splitters against langchain-text-splitters, on random input (hypothesis).

Every property feeds the same random text, separators, sizes, overlaps, keep_separator value and
length function to both and requires the same chunks, start_index values, metadata, logged
warnings and errors (by kind). Regex separators are drawn without capturing groups: that is the
scope the scratch splitter supports (it refuses such a pattern on purpose, see the notebook).
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import logging
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import BaseDocumentTransformer as RealBaseDocumentTransformer
from langchain_core.documents import Document as RealDocument
from langchain_text_splitters import CharacterTextSplitter as RealCharacterTextSplitter
from langchain_text_splitters import RecursiveCharacterTextSplitter as RealRecursiveCharacterTextSplitter
from langchain_text_splitters import TextSplitter as RealTextSplitter
from langchain_text_splitters.character import _split_text_with_regex as real_split_text_with_regex

from retrieval_lab.evaluation.chunking import LIMIT, word_pieces
from retrieval_lab.evaluation.compare import outcome, same_outcome
from retrieval_lab.scratch import (
    BaseDocumentTransformer,
    CharacterTextSplitter,
    Document,
    RecursiveCharacterTextSplitter,
    SemanticChunker,
    TextSplitter,
)
from retrieval_lab.scratch.text_splitters import _split_text_with_regex

# ------------------------------------------------------------------ strategies

# Texts built from the things splitters cut at: paragraph breaks, newlines, spaces, punctuation,
# runs of whitespace, and words that repeat (which is what trips the start_index search).
pieces_of_text = st.sampled_from(["a", "b", "ab", "word", " ", "  ", "\n", "\n\n", ".", ", ", "x", "\t"])
texts = st.lists(pieces_of_text, max_size=30).map("".join)
non_empty_texts = st.lists(pieces_of_text, min_size=1, max_size=8).map("".join)
literal_separators = st.sampled_from(["\n\n", "\n", " ", "", ".", ", ", "ab", "x", "word", "  "])
regex_separators = st.sampled_from(
    [r"\s+", r"[.,]", r"\n+", r"(?=x)", r"(?<=\.)", r"(?<=\.) ", r" (?=a)", r"x*", r"\.", r"a|b", r"(?:ab)+", r"\n\n"]
)
keep_separators = st.sampled_from([True, False, "start", "end"])


def words(text: str) -> int:
    """A length function that is not additive (a separator counts 0): it exercises the bookkeeping."""
    return len(text.split())


def double(text: str) -> int:
    return 2 * len(text)


length_functions = st.sampled_from([len, words, double])


@st.composite
def size_and_overlap(draw) -> tuple[int, int]:
    size = draw(st.integers(1, 30))
    return size, draw(st.integers(0, size))


def common_settings(draw) -> dict:
    size, overlap = draw(size_and_overlap())
    return {
        "chunk_size": size,
        "chunk_overlap": overlap,
        "keep_separator": draw(keep_separators),
        "strip_whitespace": draw(st.booleans()),
        "add_start_index": draw(st.booleans()),
    }


@st.composite
def character_settings(draw) -> dict:
    regex = draw(st.booleans())
    separator = draw(regex_separators if regex else literal_separators)
    return {**common_settings(draw), "separator": separator, "is_separator_regex": regex}


@st.composite
def recursive_settings(draw) -> dict:
    regex = draw(st.booleans())
    separators = draw(st.lists(regex_separators if regex else literal_separators, max_size=4))
    return {**common_settings(draw), "separators": separators, "is_separator_regex": regex}


metadata = st.dictionaries(
    st.sampled_from(["source", "page", "headers"]),
    st.recursive(st.integers() | st.text(max_size=4), lambda inner: st.dictionaries(st.text(max_size=3), inner,
                                                                                     max_size=2), max_leaves=4),
    max_size=3,
)


def fields(docs) -> list[tuple]:
    return [(d.page_content, d.metadata, d.id) for d in docs]


# ------------------------------------------------------------------ chunks, start_index, metadata

@settings(max_examples=30)
@given(st.lists(texts, max_size=3), character_settings(), st.data())
def test_character_splitter_makes_the_real_documents(texts_, settings_, data):
    metadatas = data.draw(st.none() | st.lists(metadata, min_size=len(texts_), max_size=len(texts_)))
    mine = CharacterTextSplitter(**settings_).create_documents(texts_, copy.deepcopy(metadatas))
    real = RealCharacterTextSplitter(**settings_).create_documents(texts_, copy.deepcopy(metadatas))
    assert fields(mine) == fields(real)


@settings(max_examples=30)
@given(st.lists(texts, max_size=3), recursive_settings(), st.data())
def test_recursive_splitter_makes_the_real_documents(texts_, settings_, data):
    metadatas = data.draw(st.none() | st.lists(metadata, min_size=len(texts_), max_size=len(texts_)))
    mine = RecursiveCharacterTextSplitter(**settings_).create_documents(texts_, copy.deepcopy(metadatas))
    real = RealRecursiveCharacterTextSplitter(**settings_).create_documents(texts_, copy.deepcopy(metadatas))
    assert fields(mine) == fields(real)


@given(texts, literal_separators, size_and_overlap(), keep_separators, length_functions, st.booleans())
def test_same_chunks_with_any_length_function(text, separator, sizes, keep, length_function, recursive):
    size, overlap = sizes
    common = {"chunk_size": size, "chunk_overlap": overlap, "keep_separator": keep, "length_function": length_function}
    if recursive:
        mine = RecursiveCharacterTextSplitter(separators=[separator, " "], **common)
        real = RealRecursiveCharacterTextSplitter(separators=[separator, " "], **common)
    else:
        mine = CharacterTextSplitter(separator=separator, **common)
        real = RealCharacterTextSplitter(separator=separator, **common)
    assert mine.split_text(text) == real.split_text(text)


@settings(max_examples=40)
@given(st.lists(non_empty_texts, min_size=1, max_size=5), literal_separators, size_and_overlap())
def test_merge_step_is_the_real_one(pieces, separator, sizes):
    size, overlap = sizes
    mine = CharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)._merge_splits(pieces, separator)
    real = RealCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)._merge_splits(pieces, separator)
    assert mine == real


@given(texts, literal_separators | regex_separators, keep_separators)
def test_cutting_step_is_the_real_one(text, pattern, keep):
    assert _split_text_with_regex(text, pattern, keep_separator=keep) == real_split_text_with_regex(
        text, pattern, keep_separator=keep
    )


# ------------------------------------------------------------------ logged warnings

class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture(scope="module")
def logs() -> Iterator[tuple[_Collect, _Collect]]:
    """(mine, real): what each splitter's logger said."""
    pairs = []
    for name in ("retrieval_lab.scratch.text_splitters", "langchain_text_splitters.base"):
        handler, log = _Collect(), logging.getLogger(name)
        log.addHandler(handler)
        pairs.append((log, handler))
    yield pairs[0][1], pairs[1][1]
    for log, handler in pairs:
        log.removeHandler(handler)


@settings(max_examples=30)
@given(texts, st.data())
def test_same_warnings_are_logged(logs, text, data):
    mine_log, real_log = logs
    recursive = data.draw(st.booleans())
    settings_ = data.draw(recursive_settings() if recursive else character_settings())
    mine_cls = RecursiveCharacterTextSplitter if recursive else CharacterTextSplitter
    real_cls = RealRecursiveCharacterTextSplitter if recursive else RealCharacterTextSplitter
    mine_log.messages.clear()
    real_log.messages.clear()
    assert mine_cls(**settings_).split_text(text) == real_cls(**settings_).split_text(text)
    assert mine_log.messages == real_log.messages


def test_an_over_long_piece_is_logged_only_when_a_piece_follows(logs):
    mine_log, real_log = logs
    for text, expected in (("a supercalifragilistic word", 1), ("a word supercalifragilistic", 0)):
        mine_log.messages.clear()
        real_log.messages.clear()
        CharacterTextSplitter(separator=" ", chunk_size=10, chunk_overlap=0).split_text(text)
        RealCharacterTextSplitter(separator=" ", chunk_size=10, chunk_overlap=0).split_text(text)
        assert len(mine_log.messages) == expected
        assert mine_log.messages == real_log.messages


# ------------------------------------------------------------------ errors

sizes_good_and_bad = st.integers(-3, 12) | st.floats(-2, 12, allow_nan=False) | st.none() | st.sampled_from(["5"])


@given(sizes_good_and_bad, sizes_good_and_bad, st.booleans())
def test_settings_are_refused_like_the_real_ones(chunk_size, chunk_overlap, recursive):
    mine_cls = RecursiveCharacterTextSplitter if recursive else CharacterTextSplitter
    real_cls = RealRecursiveCharacterTextSplitter if recursive else RealCharacterTextSplitter
    mine = outcome(lambda: mine_cls(chunk_size=chunk_size, chunk_overlap=chunk_overlap).split_text("a b"))
    real = outcome(lambda: real_cls(chunk_size=chunk_size, chunk_overlap=chunk_overlap).split_text("a b"))
    assert same_outcome(mine, real), (mine, real)


@pytest.mark.parametrize("bad_text", [42, None, b"bytes", ["a", "b"]])
@pytest.mark.parametrize("cls", [CharacterTextSplitter, RecursiveCharacterTextSplitter])
def test_split_text_refuses_what_is_not_a_str(cls, bad_text):
    with pytest.raises(TypeError, match="split_text needs a str"):
        cls(chunk_size=5, chunk_overlap=0).split_text(bad_text)
    real_cls = RealCharacterTextSplitter if cls is CharacterTextSplitter else RealRecursiveCharacterTextSplitter
    with pytest.raises(TypeError):  # the real one too, with re's message
        real_cls(chunk_size=5, chunk_overlap=0).split_text(bad_text)


@pytest.mark.parametrize(
    ("settings_", "error", "words_"),
    [
        ({"chunk_size": 0}, ValueError, "chunk_size must be > 0, got 0: a chunk holds"),
        ({"chunk_size": -5}, ValueError, "chunk_size must be > 0"),
        ({"chunk_size": "500"}, TypeError, "chunk_size must be a number"),
        ({"chunk_size": 10, "chunk_overlap": -1}, ValueError, "chunk_overlap must be >= 0"),
        ({"chunk_size": 10, "chunk_overlap": 20}, ValueError, r"larger chunk overlap \(20\) than chunk size \(10\)"),
        ({"length_function": 3}, TypeError, "length_function must be a function"),
        ({"keep_separator": "begin"}, ValueError, "keep_separator must be True, False, 'start' or 'end'"),
        ({"separator": 5}, TypeError, "separator must be a str"),
        ({"separator": "(,)", "is_separator_regex": True}, ValueError, r"capturing group.*\(\?:\.\.\.\)"),
    ],
)
def test_bad_settings_get_a_clear_error(settings_, error, words_):
    with pytest.raises(error, match=words_):
        CharacterTextSplitter(**settings_)


def test_where_ours_refuses_more_than_the_real_one():
    """Notebook 03's settings deep dive: a bool size and a length_function that cannot be called
    are refused when the splitter is built; the real one takes True as 1 and fails only at the
    first split."""
    with pytest.raises(TypeError, match="chunk_size must be a number"):
        RecursiveCharacterTextSplitter(chunk_size=True, chunk_overlap=0)
    real = RealCharacterTextSplitter(separator=" ", chunk_size=True, chunk_overlap=0)
    assert real.split_text("ab cd") == ["ab", "cd"]  # True is a size of 1
    with pytest.raises(TypeError, match="length_function must be a function"):
        RecursiveCharacterTextSplitter(length_function=3)
    lazy = RealRecursiveCharacterTextSplitter(length_function=3)
    with pytest.raises(TypeError, match="not callable"):
        lazy.split_text("a b")


def test_recursive_separators_are_checked():
    with pytest.raises(TypeError, match="separators must be a list of str"):
        RecursiveCharacterTextSplitter(separators="\n")
    with pytest.raises(ValueError, match="capturing group"):
        RecursiveCharacterTextSplitter(separators=[r"(\n)"], is_separator_regex=True)


def test_create_documents_wants_a_list_of_texts():
    with pytest.raises(TypeError, match=r"pass \[text\]"):
        CharacterTextSplitter(chunk_size=5, chunk_overlap=0).create_documents("abc")
    # the real one iterates over the string: a Document per character
    assert [d.page_content for d in RealCharacterTextSplitter(chunk_size=5, chunk_overlap=0).create_documents("abc")] \
        == ["a", "b", "c"]


def test_too_few_metadatas_is_an_index_error_in_both():
    with pytest.raises(IndexError, match="one dict per text"):
        RecursiveCharacterTextSplitter(chunk_size=5, chunk_overlap=0).create_documents(["a", "b"], [{}])
    with pytest.raises(IndexError):
        RealRecursiveCharacterTextSplitter(chunk_size=5, chunk_overlap=0).create_documents(["a", "b"], [{}])


# ------------------------------------------------------------------ documents in, documents out

@settings(max_examples=25)
@given(st.lists(st.tuples(texts, metadata, st.none() | st.text(max_size=4)), max_size=3), size_and_overlap())
def test_split_documents_copies_metadata_deeply_and_drops_ids(rows, sizes):
    size, overlap = sizes
    mine_docs = [Document(t, metadata=copy.deepcopy(m), id=i) for t, m, i in rows]
    real_docs = [RealDocument(t, metadata=copy.deepcopy(m), id=i) for t, m, i in rows]
    mine = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap).split_documents(iter(mine_docs))
    real = RealRecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap).split_documents(iter(real_docs))
    assert fields(mine) == fields(real)
    assert all(chunk.id is None for chunk in mine)
    parents = {id(v) for d in mine_docs for v in d.metadata.values()} | {id(d.metadata) for d in mine_docs}
    assert not any(
        id(value) in parents for chunk in mine for value in [chunk.metadata, *chunk.metadata.values()]
        if isinstance(value, dict)
    )


def test_a_splitter_is_a_document_transformer():
    assert issubclass(RealTextSplitter, RealBaseDocumentTransformer)
    assert issubclass(TextSplitter, BaseDocumentTransformer)
    assert issubclass(CharacterTextSplitter, TextSplitter)
    assert issubclass(RecursiveCharacterTextSplitter, TextSplitter)
    with pytest.raises(TypeError):
        TextSplitter()  # split_text is abstract


def test_transform_and_atransform_are_split_documents():
    docs = [Document("Cats purr.\n\nDogs bark.", metadata={"source": "pets.txt"})]
    splitter = RecursiveCharacterTextSplitter(chunk_size=12, chunk_overlap=0)
    expected = splitter.split_documents(docs)
    assert splitter.transform_documents(tuple(docs), ignored="kwargs") == expected
    assert asyncio.run(splitter.atransform_documents(docs)) == expected
    real_docs = [RealDocument(d.page_content, metadata=d.metadata) for d in docs]
    assert fields(expected) == fields(RealRecursiveCharacterTextSplitter(chunk_size=12, chunk_overlap=0)
                                      .transform_documents(real_docs))


def test_defaults_are_the_real_defaults():
    text = ("word " * 19 + "word\n") * 60  # 60 lines of 100: two default chunks (4000, 200) sharing a line
    assert RecursiveCharacterTextSplitter().split_text(text) == RealRecursiveCharacterTextSplitter().split_text(text)
    assert CharacterTextSplitter().split_text(text) == RealCharacterTextSplitter().split_text(text)
    assert len(RecursiveCharacterTextSplitter().split_text(text)) == 2
    # an empty separator list means the default cascade, in both
    assert RecursiveCharacterTextSplitter(separators=[]).split_text(text) == RealRecursiveCharacterTextSplitter(
        separators=[]
    ).split_text(text)


@pytest.mark.parametrize("text", ["", "   ", "\n\n\n"])
def test_nothing_to_split_gives_no_chunks(text):
    for mine, real in ((CharacterTextSplitter(), RealCharacterTextSplitter()),
                       (RecursiveCharacterTextSplitter(), RealRecursiveCharacterTextSplitter())):
        assert mine.split_text(text) == real.split_text(text) == []


def test_the_repeated_text_start_index_mistake_is_reproduced():
    text = "ha ha ha ha ha"
    settings_ = {"separator": " ", "chunk_size": 3, "chunk_overlap": 2, "add_start_index": True}
    mine = [d.metadata["start_index"] for d in CharacterTextSplitter(**settings_).create_documents([text])]
    real = [d.metadata["start_index"] for d in RealCharacterTextSplitter(**settings_).create_documents([text])]
    assert mine == real == [0, 0, 0, 0, 0]  # every chunk claims the first "ha"


# ------------------------------------------------------------------ the semantic chunker


class TopicVectors:
    """A stand-in for MiniLM: a text about cats is [1, 0], any other [0, 1]; counts its calls."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        return [[1.0, 0.0] if "cat" in t.lower() else [0.0, 1.0] for t in texts]


CATS_THEN_CODE = ("Cats purr. A cat sleeps all day. Cats chase mice. "
                  "Python runs code. A kernel restarts. Loops repeat work.")


def test_semantic_chunker_cuts_where_the_topic_changes():
    """buffer_size=0: each sentence alone; the one large distance is the only breakpoint."""
    chunker = SemanticChunker(TopicVectors(), buffer_size=0, breakpoint_threshold_amount=50)
    assert chunker.split_text(CATS_THEN_CODE) == [
        "Cats purr. A cat sleeps all day. Cats chase mice.",
        "Python runs code. A kernel restarts. Loops repeat work.",
    ]


def test_semantic_chunker_windows_hold_buffer_size_neighbours():
    vectors = TopicVectors()
    SemanticChunker(vectors, buffer_size=1).split_text("One. Two. Three.")
    assert vectors.calls == [["One. Two.", "One. Two. Three.", "Two. Three."]]


def test_semantic_chunker_keeps_the_text_and_its_positions():
    """Chunks are slices of the text (newlines kept), and start_index is exact."""
    text = CATS_THEN_CODE.replace(". Python", ".\n\nPython")
    chunker = SemanticChunker(TopicVectors(), buffer_size=0, breakpoint_threshold_amount=50,
                              add_start_index=True)
    docs = chunker.create_documents([text], [{"source": "s", "nested": {"a": 1}}])
    assert [text[d.metadata["start_index"]:][: len(d.page_content)] for d in docs] == [
        d.page_content for d in docs]
    assert docs[1].page_content.startswith("Python")
    assert docs[0].metadata["nested"] is not docs[1].metadata["nested"]


@pytest.mark.parametrize("text", ["", "   \n  "])
def test_semantic_chunker_empty_text_gives_no_chunk_and_embeds_nothing(text):
    vectors = TopicVectors()
    assert SemanticChunker(vectors).split_text(text) == []
    assert vectors.calls == []


def test_semantic_chunker_single_sentence_is_one_chunk_without_embedding():
    vectors = TopicVectors()
    assert SemanticChunker(vectors).split_text("  Just one sentence here\n") == [
        "Just one sentence here"]
    assert vectors.calls == []


def test_semantic_chunker_keeps_a_text_longer_than_minilm_reads():
    """Nothing caps a chunk's size: a run of 400 similar sentences (far beyond MiniLM's 256
    word pieces) stays one chunk, whole, and a long text loses no sentence."""
    cats = " ".join(f"Cat number {i} purrs." for i in range(400))
    assert word_pieces(cats) > LIMIT
    chunker = SemanticChunker(TopicVectors(), buffer_size=0, breakpoint_threshold_amount=95)
    assert chunker.split_text(cats) == [cats]
    mixed = cats + " Python runs code. " + cats
    chunks = chunker.split_text(mixed)
    assert " ".join(chunks) == mixed


def test_semantic_chunker_refuses_a_percentile_outside_0_to_100():
    with pytest.raises(ValueError, match="percentile"):
        SemanticChunker(TopicVectors(), breakpoint_threshold_amount=150)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["Cats purr.", "A cat naps.", "Code runs.", "Loops end.",
                                 "Why?", "Yes!"]), min_size=0, max_size=12),
       st.sampled_from([" ", "\n", "  \n"]), st.integers(0, 2), st.sampled_from([0, 50, 95, 100]))
def test_semantic_chunks_are_ordered_slices_that_cover_every_sentence(sentences, gap, buffer, p):
    text = gap.join(sentences)
    chunker = SemanticChunker(TopicVectors(), buffer_size=buffer, breakpoint_threshold_amount=p)
    spans = chunker.chunk_spans(text)
    assert [text[s:e] for s, e in spans] == chunker.split_text(text)
    assert all(e1 <= s2 for (_, e1), (s2, _) in itertools.pairwise(spans))
    assert " ".join(text[s:e] for s, e in spans).split() == text.split()
