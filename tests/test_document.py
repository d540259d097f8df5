"""The scratch Document against the real one, on random input (hypothesis)."""

from __future__ import annotations

import enum
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.documents import Document as RealDocument

from retrieval_lab.evaluation.compare import outcome, same_outcome
from retrieval_lab.scratch import Document

# Text with what breaks naive printing: unicode, both quote kinds, backslashes and newlines.
texts = st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from(["'", '"', "\\", "\n", "é", "💡"]))
json_leaves = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
metadata = st.dictionaries(
    st.text(max_size=8),
    st.recursive(
        json_leaves,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
        max_leaves=6,
    ),
    max_size=4,
)
ids = st.none() | st.text(max_size=10) | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
not_text = (
    st.integers() | st.floats() | st.none() | st.lists(st.text(), max_size=2)
    | st.dictionaries(st.text(), st.text(), max_size=2)
)
not_a_dict = st.integers() | st.text() | st.none() | st.lists(st.integers(), max_size=2)


def fields(doc) -> tuple:
    return doc.page_content, doc.metadata, doc.id, doc.type, str(doc), repr(doc)


@given(texts, metadata, ids)
def test_same_fields_str_and_repr(text, meta, id_):
    mine, real = Document(text, metadata=meta, id=id_), RealDocument(text, metadata=meta, id=id_)
    if isinstance(id_, float) and math.isnan(id_):
        assert mine.id == real.id == "nan"
    assert fields(mine) == fields(real)


@given(texts)
def test_page_content_by_position_or_keyword(text):
    assert fields(Document(text)) == fields(RealDocument(text)) == fields(Document(page_content=text))


@given(not_text)
def test_both_refuse_non_string_content(value):
    mine, real = outcome(lambda: Document(value)), outcome(lambda: RealDocument(value))
    assert mine.error is not None and real.error is not None
    assert same_outcome(mine, real)


@given(not_a_dict)
def test_both_refuse_non_dict_metadata(value):
    mine = outcome(lambda: Document("x", metadata=value))
    real = outcome(lambda: RealDocument("x", metadata=value))
    assert mine.error is not None and real.error is not None


@given(metadata)
def test_metadata_is_copied_one_level_deep_like_the_real_one(meta):
    nested = {"inner": {"k": 1}, **meta}
    mine, real = Document("x", metadata=nested), RealDocument("x", metadata=nested)
    assert (mine.metadata is nested) == (real.metadata is nested) is False
    assert (mine.metadata["inner"] is nested["inner"]) == (real.metadata["inner"] is nested["inner"]) is True


@given(st.decimals(allow_nan=True, allow_infinity=True), st.integers(), st.floats())
def test_number_ids_agree_decimals_included(decimal, integer, real_number):
    """Pydantic's coerce_numbers_to_str takes int, float and Decimal: each becomes str()."""
    for value in (decimal, integer, real_number):
        assert Document("x", id=value).id == RealDocument("x", id=value).id == str(value)


@given(st.text())
def test_bytes_decoded_by_the_real_one_refused_by_ours(text):
    """Where ours is stricter, on purpose (notebook 01, Side by side): the caller decodes."""
    data = text.encode("utf-8")
    for raw in (data, bytearray(data)):
        assert RealDocument(raw).page_content == text
        assert RealDocument("x", id=raw).id == text
        assert outcome(lambda raw=raw: Document(raw)).error[0] == "TypeError"
        assert outcome(lambda raw=raw: Document("x", id=raw)).error[0] == "TypeError"
    assert "Decode it first" in outcome(lambda: Document(data)).error[1]


class _Colour(enum.StrEnum):
    RED = "red"


def test_a_str_subclass_is_stored_as_plain_text_like_the_real_one():
    for value in (_Colour.RED, type("Text", (str,), {})("red")):
        mine, real = Document(value, id=value), RealDocument(value, id=value)
        assert fields(mine) == fields(real)
        assert type(mine.page_content) is type(mine.id) is str


def test_errors_say_what_to_do():
    for call, words in [
        (lambda: Document(3), "Convert it first"),
        (lambda: Document("x", metadata=None), "metadata={'source'"),
        (lambda: Document("x", id=True), "id must be a str"),
        (lambda: Document("x", type="Other"), "leave it out"),
    ]:
        result = outcome(call)
        assert result.error is not None and words in result.error[1]


def test_unknown_keyword_refused_by_mine_dropped_by_the_real_one():
    assert outcome(lambda: Document("x", metdata={})).error[0] == "TypeError"
    assert RealDocument("x", metdata={"a": 1}).metadata == {}


# ----------------------------------------------------------------------------- equality


@given(texts, metadata, ids, texts, metadata, ids)
def test_equality_agrees_with_the_real_class_whichever_class_built_each_side(t1, m1, i1, t2, m2, i2):
    """Ours == ours, ours == real and real == ours all give what real == real gives."""
    real_answer = RealDocument(t1, metadata=m1, id=i1) == RealDocument(t2, metadata=m2, id=i2)
    for left in (Document, RealDocument):
        for right in (Document, RealDocument):
            a, b = left(t1, metadata=m1, id=i1), right(t2, metadata=m2, id=i2)
            assert (a == b) is real_answer, (left.__module__, right.__module__)
            assert (a != b) is not real_answer


@given(texts, metadata, ids)
def test_a_document_equals_its_copy_in_the_other_class(text, meta, id_):
    mine, real = Document(text, metadata=meta, id=id_), RealDocument(text, metadata=meta, id=id_)
    assert mine == real and real == mine
    assert [mine] == [real] and [real] == [mine]  # what the standard suites compare


def test_each_field_counts_and_what_is_not_a_document_is_never_equal():
    base = Document("hi", metadata={"p": 1}, id="d1")
    for other in (
        Document("ho", metadata={"p": 1}, id="d1"),
        RealDocument("hi", metadata={"p": 2}, id="d1"),
        RealDocument("hi", metadata={"p": 1}),
    ):
        assert base != other and other != base
    real = RealDocument("hi", metadata={"p": 1}, id="d1")
    for not_a_document in ("hi", real.model_dump(), None, 1):
        assert base != not_a_document and not_a_document != base
        assert (real == not_a_document) is (base == not_a_document) is False


def test_equal_documents_stay_unhashable_like_the_real_one():
    for doc in (Document("hi"), RealDocument("hi")):
        with pytest.raises(TypeError):
            hash(doc)
