"""Unit tests for the text-splitter pictures in retrieval_lab.plots: chunk_spans and chunk_map."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest
from matplotlib.colors import to_hex
from matplotlib.patches import PathPatch, Rectangle

from retrieval_lab.plots import COLORS, chunk_map, chunk_spans


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_spans_are_where_the_chunks_are():
    text = "one two three four"
    chunks = ["one two", "two three", "four"]
    spans = chunk_spans(text, chunks)
    assert spans == [(0, 7), (4, 13), (14, 18)]
    assert [text[s:e] for s, e in spans] == chunks


def test_a_repeated_chunk_lands_on_its_own_occurrence():
    """The real start_index search puts every "ab" at 0; the picture must not."""
    assert chunk_spans("ab ab ab", ["ab", "ab", "ab"]) == [(0, 2), (3, 5), (6, 8)]


def test_no_chunks_means_no_spans():
    assert chunk_spans("   ", []) == []


@pytest.mark.parametrize(
    ("text", "chunks", "error", "words"),
    [
        ("", ["a"], ValueError, "empty"),
        (42, ["a"], TypeError, "must be a str"),
        ("abc", "abc", TypeError, "wrap it in a list"),
        ("abc", ["abc", "x"], ValueError, "chunk 2 ('x') is not in the text"),
        ("abc", [""], ValueError, "non-empty str"),
        ("abc", [None], ValueError, "non-empty str"),
        ("a b", ["a\\sb"], ValueError, "regex pattern"),
    ],
)
def test_spans_refuse_bad_input_clearly(text, chunks, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(").replace(")", r"\)")):
        chunk_spans(text, chunks)


def test_chunk_map_draws_one_panel_per_chunking():
    text = "aaaa bbbb cccc dddd"
    fig = chunk_map(text, {"no overlap": ["aaaa bbbb", "cccc dddd"], "overlap": ["aaaa bbbb", "bbbb cccc", "dddd"]})
    assert len(fig.axes) == 2
    titles = [ax.get_title() for ax in fig.axes]
    assert titles[0].startswith("no overlap\n2 chunks · 0 characters")
    assert titles[1].startswith("overlap\n3 chunks · 4 characters")


def test_chunk_map_hatches_exactly_the_overlap():
    text = "aaaa bbbb cccc"
    fig = chunk_map(text, {"overlap": ["aaaa bbbb", "bbbb cccc"]}, width=100)
    hatched = [p for p in fig.axes[0].patches if isinstance(p, Rectangle) and p.get_hatch()]
    assert len(hatched) == 1
    assert (hatched[0].get_x(), hatched[0].get_width()) == (5, 4)  # "bbbb" at columns 5..8


def test_chunk_map_wraps_rows_and_shows_separators():
    text = "ab\ncd ef"
    fig = chunk_map(text, {"all": ["ab\ncd ef"]}, width=3)
    ax = fig.axes[0]
    assert ax.get_ylim() == (3, 0)  # 8 characters at 3 a row: 3 rows, the first at the top
    outlines = [a for a in ax.patches if isinstance(a, PathPatch)]
    assert [to_hex(a.get_facecolor()) for a in outlines] == ["#000000", COLORS["muted"]]  # letters, then ↵ and ·
    # one shaded run per row: a chunk crossing a row boundary is drawn as one bar per row
    assert len([p for p in ax.patches if isinstance(p, Rectangle)]) == 3


@pytest.mark.parametrize(
    ("chunkings", "width", "words"),
    [
        ({}, 10, "at least one entry"),
        ([["a"]], 10, "at least one entry"),
        ({"x": ["a"]}, 0, "positive int"),
        ({"x": ["a"]}, 2.5, "positive int"),
        ({"x": ["a"]}, True, "positive int"),
    ],
)
def test_chunk_map_refuses_bad_input_clearly(chunkings, width, words):
    with pytest.raises(ValueError, match=words):
        chunk_map("abc", chunkings, width=width)


def test_chunk_map_names_the_empty_text():
    with pytest.raises(ValueError, match="empty"):
        chunk_map("", {"x": []})


def test_letters_sit_in_their_cells():
    """The outline of character i is centred on its grid cell: the text is readable and aligned."""
    fig = chunk_map("iMi", {"all": ["iMi"]}, width=3)
    letters = next(a for a in fig.axes[0].patches if isinstance(a, PathPatch))
    xs = letters.get_path().vertices[:, 0]
    assert 0 < xs.min() < 0.5 and 2.5 < xs.max() < 3


def test_only_letters_when_there_is_no_whitespace():
    fig = chunk_map("abc", {"all": ["abc"]})
    assert len([a for a in fig.axes[0].patches if isinstance(a, PathPatch)]) == 1
