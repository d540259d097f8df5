"""retrieval_lab.runtime.claims.claim: ✓ when the value backs the sentence, ✗ with what was expected."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from retrieval_lab.runtime.claims import claim


@given(st.floats(-10, 10), st.floats(-10, 10), st.floats(-10, 10))
def test_within_is_inclusive_and_the_mark_follows_the_test(value, a, b):
    low, high = min(a, b), max(a, b)
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert claim("x", value, within=(low, high)) is None
    assert out.getvalue().startswith("✓" if low <= value <= high else "✗")


def test_the_line_shows_the_measured_value_rounded_and_what_was_expected(capsys):
    claim("BM25 beats counts", "BM25 beats counts", equals="BM25 beats counts")
    claim("a slope of about ½", 0.68123, within=(0.4, 0.6))
    claim("faster", 2.5, above=3)
    claim("smaller", 1, below=2, digits=1)
    assert capsys.readouterr().out.splitlines() == [
        "✓ claim: BM25 beats counts (measured 'BM25 beats counts')",
        "✗ claim: a slope of about ½ (measured 0.681; expected 0.400..0.600)",
        "✗ claim: faster (measured 2.500; expected above 3.000)",
        "✓ claim: smaller (measured 1.0)",
    ]


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({}, ValueError, "exactly one"),
    ({"above": 1, "below": 2}, ValueError, "exactly one"),
    ({"within": (2, 1)}, ValueError, "low bound"),
])
def test_a_claim_without_one_clear_test_is_refused(kwargs, error, message):
    with pytest.raises(error, match=message):
        claim("x", 1.0, **kwargs)


def test_words_need_equals_and_a_sentence_is_required():
    with pytest.raises(TypeError, match="equals="):
        claim("x", "MiniLM beats BM25", above=0)
    with pytest.raises(ValueError, match="sentence"):
        claim(" ", 1.0, above=0)
