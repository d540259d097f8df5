"""Pictures of notebook 03: chunks laid over their text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import PathPatch, Rectangle
from matplotlib.path import Path as MplPath
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D

from retrieval_lab.plots._style import (
    COLORS,
)

#: Light fills for consecutive chunks: neighbours always differ, and dark text stays readable.
_CHUNK_FILLS = ("#c6dbef", "#fdd0a2", "#c7e9c0", "#dadaeb", "#fcbba1", "#d9d9d9")
_OVERLAP_FILL = "#fbe0e0"
#: How a character that needs an explanation is drawn in a chunk map (in grey).
_VISIBLE = {"\n": "↵", " ": "·", "\t": "→"}
_MONO = FontProperties(family="DejaVu Sans Mono")  # ships with matplotlib, so it is there on Binder too


def chunk_spans(text: str, chunks: Sequence[str]) -> list[tuple[int, int]]:
    """Where each chunk sits in ``text``, as ``(start, end)``: found left to right, each after the last.

    Searching from just after the previous chunk's start (not from 0) is what lets a repeated
    chunk, such as "ab" in "ab ab ab", land on its own occurrence instead of the first one.
    """
    if not isinstance(text, str):
        raise TypeError(f"chunk_spans: text must be a str, got {type(text).__name__}.")
    if not text:
        raise ValueError("chunk_spans: the text is empty; there is nothing to lay chunks on.")
    if isinstance(chunks, str):
        raise TypeError("chunk_spans: chunks must be a list of str, got one str; wrap it in a list.")
    spans: list[tuple[int, int]] = []
    search_from = 0
    for number, chunk in enumerate(chunks, start=1):
        if not isinstance(chunk, str) or not chunk:
            raise ValueError(f"chunk_spans: chunk {number} is {chunk!r}; every chunk must be a non-empty str.")
        start = text.find(chunk, search_from)
        if start < 0:
            raise ValueError(
                f"chunk_spans: chunk {number} ({chunk[:40]!r}) is not in the text after position "
                f"{search_from}. Pass the chunks of this text, in order; a splitter that joins pieces "
                "with a regex pattern (is_separator_regex, keep_separator=False) makes chunks that "
                "are not pieces of the text."
            )
        spans.append((start, start + len(chunk)))
        search_from = start + 1
    return spans


def _coverage_runs(
    text_len: int, spans: Sequence[tuple[int, int]], width: int
) -> list[tuple[int, int, int, tuple[int, ...]]]:
    """Runs of characters on one grid row covered by the same chunks: (row, first col, n, chunks)."""
    runs: list[tuple[int, int, int, tuple[int, ...]]] = []
    for i in range(text_len):
        row, col = divmod(i, width)
        covering = tuple(k for k, (s, e) in enumerate(spans) if s <= i < e)
        last = runs[-1] if runs else None
        if last and last[0] == row and last[1] + last[2] == col and last[3] == covering:
            runs[-1] = (row, last[1], last[2] + 1, covering)
        else:
            runs.append((row, col, 1, covering))
    return runs


@lru_cache(maxsize=256)
def _glyph(char: str) -> MplPath:
    return TextPath((0, 0), char, size=1, prop=_MONO)


def _grid_text(cells: Sequence[tuple[int, str]], width: int, scale_x: float, scale_y: float) -> MplPath | None:
    """One compound outline of characters, each centred in its grid cell (index -> row, column).

    Drawing outlines as a single patch keeps the letters exactly on the grid at any resolution,
    and is a hundred times faster than one Text artist per character.
    """
    outlines = []
    for index, char in cells:
        row, col = divmod(index, width)
        place = Affine2D().scale(scale_x, -scale_y).translate(col + (1 - 0.6 * scale_x) / 2, row + 0.5 + 0.36 * scale_y)
        outlines.append(_glyph(char).transformed(place))
    return MplPath.make_compound_path(*outlines) if outlines else None


def chunk_map(text: str, chunkings: Mapping[str, Sequence[str]], *, width: int = 48) -> Figure:
    """The text as a grid of characters, once per chunking, side by side.

    Each chunk's characters are shaded (neighbouring chunks in different colours, a small number
    at each chunk's start); characters in two chunks at once - the overlap - are hatched in red;
    characters in no chunk (separators and whitespace the splitter dropped) stay white. Newlines
    show as ↵ and spaces as ·, in grey, so the separators a splitter cuts at are visible.
    """
    if not isinstance(chunkings, Mapping) or not chunkings:
        raise ValueError(
            "chunk_map: give a dict {label: chunks} with at least one entry, "
            "e.g. {'overlap 0': splitter.split_text(text)}."
        )
    if isinstance(width, bool) or not isinstance(width, int) or width < 1:
        raise ValueError(f"chunk_map: width is the number of characters per row, a positive int; got {width!r}.")
    all_spans = {label: chunk_spans(text, chunks) for label, chunks in chunkings.items()}
    rows = -(-len(text) // width)
    cell_w, cell_h, em = 0.1, 0.26, 8.5 / 72  # inches: a cell, and the font size
    fig, axes = plt.subplots(
        1, len(chunkings), figsize=(len(chunkings) * (width * cell_w + 0.3), rows * cell_h + 0.9), squeeze=False
    )
    letters = [(i, c) for i, c in enumerate(text) if c not in _VISIBLE]
    marks = [(i, _VISIBLE[c]) for i, c in enumerate(text) if c in _VISIBLE]
    for ax, (label, spans) in zip(axes[0], all_spans.items(), strict=True):
        ax.set_xlim(0, width)
        ax.set_ylim(rows, 0)
        ax.axis("off")
        overlap_chars = 0
        for row, col, n, covering in _coverage_runs(len(text), spans, width):
            if not covering:
                continue
            fill = _CHUNK_FILLS[covering[-1] % len(_CHUNK_FILLS)]
            overlapping = len(covering) > 1
            overlap_chars += n if overlapping else 0
            ax.add_patch(Rectangle(
                (col, row + 0.08), n, 0.84, facecolor=_OVERLAP_FILL if overlapping else fill,
                edgecolor=COLORS["query"] if overlapping else fill, linewidth=0.8 if overlapping else 0,
                hatch="//" if overlapping else None,
            ))
        for cells, color in ((letters, "black"), (marks, COLORS["muted"])):
            outline = _grid_text(cells, width, em / cell_w, em / cell_h)
            if outline is not None:  # add_artist, not add_patch: no autoscaling over thousands of curves
                ax.add_artist(PathPatch(outline, facecolor=color, edgecolor="none", transform=ax.transData))
        for k, (start, _) in enumerate(spans):
            row, col = divmod(start, width)
            ax.text(col + 0.05, row + 0.1, str(k + 1), ha="left", va="bottom", fontsize=5.5,
                    weight="bold", color="#333333")
        ax.set_title(f"{label}\n{len(spans)} chunks · {overlap_chars} characters in an overlap", fontsize=9)
    fig.tight_layout()
    return fig
