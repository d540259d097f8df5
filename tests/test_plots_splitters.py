"""Unit tests for the splitter pictures: chunk_spans, chunk_map, the merge strip, the cascade."""

from __future__ import annotations

from ast import literal_eval

import matplotlib.pyplot as plt
import pytest
from langchain_text_splitters import CharacterTextSplitter as RealCharacterTextSplitter
from langchain_text_splitters import (
    RecursiveCharacterTextSplitter as RealRecursiveCharacterTextSplitter,
)
from matplotlib.colors import to_hex
from matplotlib.patches import PathPatch, Rectangle

from retrieval_lab.plots import (
    COLORS,
    chunk_map,
    chunk_spans,
    merge_window_strip,
    separator_cascade_tree,
)


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
    fig = chunk_map(
        text,
        {"no overlap": ["aaaa bbbb", "cccc dddd"], "overlap": ["aaaa bbbb", "bbbb cccc", "dddd"]},
    )
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
    assert [to_hex(a.get_facecolor()) for a in outlines] == [
        "#000000",
        COLORS["muted"],
    ]  # letters, then ↵ and ·
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


def test_chunk_map_marks_the_chunk_that_breaks_chunk_size():
    text = "a supercalifragilistic word"
    chunks = ["a", "supercalifragilistic", "word"]
    fig = chunk_map(text, {"separator ' '": chunks}, width=10, chunk_size=10)
    ax = fig.axes[0]
    assert ax.get_title().endswith("over chunk_size=10: chunk 2 (20)")
    bars = [line for line in ax.get_lines() if line.get_label().startswith("chunk_size limit")]
    assert len(bars) == 1
    limit = 2 + 10  # chunk 2 starts at 2: the limit falls at character 12 = row 1, column 2
    assert (
        list(bars[0].get_xdata()) == [limit % 10, limit % 10]
        and bars[0].get_ydata()[0] > limit // 10
    )
    past = [p for p in ax.patches if p.get_label().startswith("past chunk_size")]
    covered = sorted((round(p.get_y()), p.get_x(), p.get_width()) for p in past)
    assert covered == [(1, 2, 8), (2, 0, 2)]  # characters 12..21, wrapped at 10 a row
    assert not past[0].get_fill()


def test_chunk_map_says_when_every_chunk_fits():
    fig = chunk_map("ab cd", {"x": ["ab", "cd"]}, chunk_size=2)
    assert fig.axes[0].get_title().endswith("every chunk within chunk_size=2")
    assert not fig.axes[0].get_lines()


def test_chunk_map_refuses_a_bad_chunk_size():
    with pytest.raises(ValueError, match="chunk_size is the splitter's limit"):
        chunk_map("abc", {"x": ["abc"]}, chunk_size=0)


@pytest.mark.parametrize(
    ("pieces", "chunk_size", "chunk_overlap"),
    [
        ("ant elephants ok go far".split(), 10, 3),
        ("a b c d e f g".split(), 3, 1),
        ("one two three four".split(), 100, 0),
        (["supercalifragilistic", "x", "y"], 5, 2),
    ],
)
def test_merge_window_strip_emits_what_the_real_splitter_merges(pieces, chunk_size, chunk_overlap):
    real = RealCharacterTextSplitter(
        separator=" ", chunk_size=chunk_size, chunk_overlap=chunk_overlap
    )
    expected = real._merge_splits(pieces, " ")
    fig = merge_window_strip(pieces, " ", chunk_size=chunk_size, chunk_overlap=chunk_overlap)
    ax = fig.axes[0]
    steps = [t.get_text() for t in ax.texts if t.get_ha() == "right"]
    emitted = [s.split("emit ", 1)[1].rsplit(" (", 1)[0] for s in steps if ". emit " in s]
    assert emitted == [repr(c) for c in expected]
    assert sum(". add " in s for s in steps) == len(pieces)
    assert [s.split(".")[0] for s in steps] == [str(k) for k in range(1, len(steps) + 1)]
    bars = ax.get_lines()
    assert len(bars) == len(steps)  # the chunk_size limit, drawn on every row


def test_merge_window_strip_draws_the_window_growing_and_the_limit():
    pieces = ["ab", "cd", "ef"]
    fig = merge_window_strip(pieces, " ", chunk_size=5)
    ax = fig.axes[0]
    steps = [t.get_text() for t in ax.texts if t.get_ha() == "right"]
    assert steps == [
        "1. add 'ab'",
        "2. add 'cd'",
        "3. emit 'ab cd' (5)",
        "4. slide: keep ≤ overlap",
        "5. add 'ef'",
        "6. emit 'ef' (2)",
    ]
    hatched_per_row = {}
    for p in ax.patches:
        if p.get_hatch():
            hatched_per_row.setdefault(round(p.get_y() + 0.35), []).append(p.get_x())
    assert hatched_per_row == {
        2: [0, 3],
        5: [6],
    }  # the emitted pieces, at their character positions
    limits = [line.get_xdata()[0] for line in ax.get_lines()]
    assert limits == [5, 5, 5, 11, 11, 11]  # chunk_size counted from the window's first character


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"pieces": []}, ValueError, "non-empty list"),
        ({"chunk_size": 0}, ValueError, "chunk_size must"),
        ({"chunk_overlap": 9}, ValueError, "larger than chunk_size"),
        ({"separator": 1}, TypeError, "separator"),
    ],
)
def test_merge_window_strip_refuses_bad_input(kwargs, error, words):
    settings = {"pieces": ["a", "b"], "separator": " ", "chunk_size": 3} | kwargs
    with pytest.raises(error, match=words):
        merge_window_strip(**settings)


def test_separator_cascade_tree_cuts_with_the_next_separator_only_what_is_too_long():
    text = "Cats purr.\n\nDogs bark at the mailman.\nPython runs"
    fig = separator_cascade_tree(text, chunk_size=15)
    ax = fig.axes[0]
    cuts = [t.get_text() for t in ax.texts if t.get_text().startswith("cut at")]
    assert cuts == ["cut at '\\n\\n'", "cut at '\\n'", "cut at ' '"]
    boxes = [t for t in ax.texts if t.get_bbox_patch() is not None]
    fits = {t.get_text().split("\n")[0]: t.get_bbox_patch().get_linestyle() == "-" for t in boxes}
    assert fits["'Cats purr.'"] and fits["' mailman.'"] and not fits[repr(text[:12] + "…")]
    depth = {t.get_text().split("\n")[0]: t.get_position()[1] for t in boxes}
    assert (
        depth[repr(text[:12] + "…")] == 0
        and depth["'Cats purr.'"] == 1
        and depth["' mailman.'"] == 3
    )
    for t in boxes:  # every leaf is shorter than chunk_size
        if t.get_bbox_patch().get_linestyle() == "-":
            assert int(t.get_text().split("\n")[1].split()[0]) < 15


def test_separator_cascade_tree_leaves_are_the_real_splitters_pieces():
    """The leaves tile the text, and the real splitter's chunks are runs of them."""
    text = "Cats purr.\n\nDogs bark at the mailman.\nPython runs"
    leaves = [
        t.get_text().split("\n")[0]
        for t in separator_cascade_tree(text, chunk_size=15).axes[0].texts
        if t.get_bbox_patch() is not None and t.get_bbox_patch().get_linestyle() == "-"
    ]
    joined = "".join(literal_eval(leaf) for leaf in leaves)  # short leaves are shown whole, as repr
    assert joined == text  # the leaves tile the text: the cascade loses nothing
    real = RealRecursiveCharacterTextSplitter(chunk_size=15, chunk_overlap=0).split_text(text)
    for chunk in real:
        assert chunk in joined


@pytest.mark.parametrize(
    ("text", "kwargs", "words"),
    [
        ("", {}, "non-empty str"),
        ("abc", {"separators": "\n"}, "list of str"),
        ("abc", {"chunk_size": 0}, "chunk_size must"),
        ("x" * 80, {"chunk_size": 2}, "too many to read"),
    ],
)
def test_separator_cascade_tree_refuses_bad_input(text, kwargs, words):
    with pytest.raises(ValueError, match=words):
        separator_cascade_tree(text, **({"chunk_size": 10} | kwargs))
