"""Pictures of notebook 03: chunks laid over their text, the merge window, the separator cascade."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, PathPatch, Rectangle
from matplotlib.path import Path as MplPath
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D

from retrieval_lab.plots._style import (
    COLORS,
    GREYS,
    OKABE_ITO,
)

#: Fills for consecutive chunks: Okabe-Ito colours at low opacity (light tints), so neighbours
#: always differ and black text stays readable; each chunk's number tells them apart without colour.
_CHUNK_FILLS = (OKABE_ITO["sky_blue"], OKABE_ITO["orange"], OKABE_ITO["bluish_green"],
                OKABE_ITO["reddish_purple"], OKABE_ITO["yellow"], GREYS["grey"])
_TINT = 0.35
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


def chunk_map(
    text: str,
    chunkings: Mapping[str, Sequence[str]],
    *,
    width: int = 48,
    chunk_size: int | None = None,
) -> Figure:
    """The text as a grid of characters, once per chunking, side by side.

    Each chunk's characters are shaded (neighbouring chunks in different tints, a small number
    at each chunk's start); characters in two chunks at once - the overlap - are hatched in
    vermillion; characters in no chunk (separators and whitespace the splitter dropped) stay white.
    Newlines show as ↵ and spaces as ·, in grey, so the separators a splitter cuts at are
    visible. With ``chunk_size``, a chunk longer than that (a piece with no separator to cut at) has the
    characters past the limit boxed in black with a thick bar where the limit falls, and the title
    names it: the picture shows where the splitter broke its promise and why.
    """
    if not isinstance(chunkings, Mapping) or not chunkings:
        raise ValueError(
            "chunk_map: give a dict {label: chunks} with at least one entry, "
            "e.g. {'overlap 0': splitter.split_text(text)}."
        )
    if isinstance(width, bool) or not isinstance(width, int) or width < 1:
        raise ValueError(
            f"chunk_map: width is the number of characters per row, a positive int; got {width!r}."
        )
    if chunk_size is not None and (
        isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1
    ):
        raise ValueError(
            f"chunk_map: chunk_size is the splitter's limit in characters, a whole number >= 1; "
            f"got {chunk_size!r}."
        )
    all_spans = {label: chunk_spans(text, chunks) for label, chunks in chunkings.items()}
    rows = -(-len(text) // width)
    cell_w, cell_h, em = 0.1, 0.26, 8.5 / 72  # inches: a cell, and the font size
    fig, axes = plt.subplots(
        1,
        len(chunkings),
        figsize=(len(chunkings) * (width * cell_w + 0.3), rows * cell_h + 1.1),
        squeeze=False,
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
            ax.add_patch(
                Rectangle(
                    (col, row + 0.08),
                    n,
                    0.84,
                    facecolor=COLORS["query"] if overlapping else fill,
                    alpha=_TINT,
                    edgecolor=COLORS["query"] if overlapping else fill,
                    linewidth=0.8 if overlapping else 0,
                    hatch="//" if overlapping else None,
                )
            )
        too_long = _mark_over_limit(ax, spans, width, chunk_size) if chunk_size is not None else []
        for cells, color in ((letters, "black"), (marks, COLORS["muted"])):
            outline = _grid_text(cells, width, em / cell_w, em / cell_h)
            if (
                outline is not None
            ):  # add_artist, not add_patch: no autoscaling over thousands of curves
                ax.add_artist(
                    PathPatch(outline, facecolor=color, edgecolor="none", transform=ax.transData)
                )
        for k, (start, _) in enumerate(spans):
            row, col = divmod(start, width)
            ax.text(
                col + 0.05,
                row + 0.1,
                str(k + 1),
                ha="left",
                va="bottom",
                fontsize=5.5,
                weight="bold",
                color=GREYS["dark_grey"],
            )
        heading = f"{label}\n{len(spans)} chunks · {overlap_chars} characters in an overlap"
        if chunk_size is not None:
            broken = ", ".join(f"chunk {k + 1} ({spans[k][1] - spans[k][0]})" for k in too_long)
            heading += (
                f"\nover chunk_size={chunk_size}: {broken}"
                if too_long
                else f"\nevery chunk within chunk_size={chunk_size}"
            )
        ax.set_title(heading, fontsize=9)
    fig.tight_layout()
    return fig


def _mark_over_limit(
    ax: plt.Axes, spans: Sequence[tuple[int, int]], width: int, chunk_size: int
) -> list[int]:
    """Box the characters of each chunk past ``chunk_size`` and draw a bar where the limit falls.

    Returns the numbers (0-based) of the chunks that break the limit.
    """
    broken = []
    for k, (start, end) in enumerate(spans):
        if end - start <= chunk_size:
            continue
        broken.append(k)
        limit = start + chunk_size
        row, col = divmod(limit, width)
        ax.plot(
            [col, col],
            [row + 0.02, row + 0.98],
            color="black",
            linewidth=2.5,
            solid_capstyle="butt",
            label=f"chunk_size limit of chunk {k + 1}",
        )
        for run_row, run_col, n, _ in _coverage_runs(end, [(limit, end)], width):
            if run_row * width + run_col >= limit:
                ax.add_patch(
                    Rectangle(
                        (run_col, run_row + 0.04),
                        n,
                        0.92,
                        fill=False,
                        edgecolor="black",
                        linewidth=1.2,
                        linestyle="--",
                        label=f"past chunk_size in chunk {k + 1}",
                    )
                )
    return broken


def _merge_steps(
    pieces: Sequence[str], separator: str, chunk_size: int, chunk_overlap: int
) -> list[tuple[str, int, int, str | None]]:
    """The merge, as langchain-text-splitters' ``_merge_splits`` does it, step by step.

    Each step is ``(action, first piece in the window, one past the last, emitted chunk)``, where
    action is ``"add"``, ``"emit"`` or ``"slide"`` (pieces dropped from the front). Written out here
    (not imported from a notebook) because the helper package never imports ``scratch``; a test
    checks the emitted chunks against the real splitter.
    """
    sep = len(separator)
    steps: list[tuple[str, int, int, str | None]] = []
    first, total = 0, 0
    for i, piece in enumerate(pieces):
        count = i - first
        if total + len(piece) + (sep if count else 0) > chunk_size and count:
            chunk = separator.join(pieces[first:i]).strip()
            steps.append(("emit", first, i, chunk or None))
            dropped = False
            while total > chunk_overlap or (
                total + len(piece) + (sep if i - first else 0) > chunk_size and total > 0
            ):
                total -= len(pieces[first]) + (sep if i - first > 1 else 0)
                first += 1
                dropped = True
            if dropped:
                steps.append(("slide", first, i, None))
        total += len(piece) + (sep if i - first else 0)
        steps.append(("add", first, i + 1, None))
    if len(pieces) > first:
        chunk = separator.join(pieces[first:]).strip()
        steps.append(("emit", first, len(pieces), chunk or None))
    return steps


def merge_window_strip(
    pieces: Sequence[str],
    separator: str = " ",
    *,
    chunk_size: int,
    chunk_overlap: int = 0,
    title: str = "",
) -> Figure:
    """The merge of a splitter drawn step by step: one row per step, the pieces laid out in order.

    Each row shows the window (the pieces being glued, tinted blue) after one step: ``add`` a piece,
    ``emit`` the window as a chunk (orange, hatched: the next piece would push it past
    ``chunk_size``) or ``slide`` (drop pieces from the front until at most ``chunk_overlap`` is
    kept).
    A black bar marks where ``chunk_size`` ends, counted from the window's first character, so a
    learner sees why each chunk was emitted where it was. Pass the pieces a splitter merges, e.g.
    ``text.split(" ")`` with ``separator=" "``.
    """
    pieces = list(pieces)
    if isinstance(pieces, str) or not pieces or not all(isinstance(p, str) for p in pieces):
        raise ValueError(
            "merge_window_strip: give the pieces as a non-empty list of str, e.g. text.split(' ')."
        )
    if not isinstance(separator, str):
        raise TypeError(
            f"merge_window_strip: separator must be a str, got {type(separator).__name__}."
        )
    for name, value, low in (("chunk_size", chunk_size, 1), ("chunk_overlap", chunk_overlap, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise ValueError(
                f"merge_window_strip: {name} must be a whole number >= {low}; got {value!r}."
            )
    if chunk_overlap > chunk_size:
        raise ValueError(
            f"merge_window_strip: chunk_overlap ({chunk_overlap}) is larger than chunk_size "
            f"({chunk_size}); the overlap must fit inside a chunk."
        )
    steps = _merge_steps(pieces, separator, chunk_size, chunk_overlap)
    starts = [0]
    for piece in pieces:
        starts.append(starts[-1] + len(piece) + len(separator))
    length = starts[-1] - len(separator)
    extent = max(length, chunk_size) + 1
    fig, ax = plt.subplots(figsize=(min(3.2 + extent * 0.16, 16), 0.42 * len(steps) + 1.4))
    for row, (action, first, stop, chunk) in enumerate(steps):
        for i, piece in enumerate(pieces):
            inside = first <= i < stop
            if inside and action == "emit":
                face, hatch, alpha = COLORS["real"], "//", 0.45
            elif inside:
                face, hatch, alpha = COLORS["mine"], None, 0.3
            else:
                face, hatch, alpha = GREYS["white"], None, 1.0
            ax.add_patch(
                Rectangle(
                    (starts[i], row - 0.35),
                    max(len(piece), 0.4),
                    0.7,
                    facecolor=face,
                    alpha=alpha,
                    hatch=hatch,
                    edgecolor=COLORS["muted"],
                    linewidth=0.6,
                )
            )
            ax.text(
                starts[i] + len(piece) / 2,
                row,
                piece,
                ha="center",
                va="center",
                fontsize=8,
                family="monospace",
                color="black" if inside else GREYS["dark_grey"],
            )
        limit = starts[first] + chunk_size
        ax.plot(
            [limit, limit],
            [row - 0.45, row + 0.45],
            color="black",
            linewidth=2,
            solid_capstyle="butt",
        )
        what = {
            "add": f"add {pieces[stop - 1]!r}",
            "slide": "slide: keep ≤ overlap",
            "emit": f"emit {chunk!r} ({len(chunk or '')})",
        }[action]
        ax.text(
            -0.8,
            row,
            f"{row + 1}. {what}",
            ha="right",
            va="center",
            fontsize=8.5,
            color=COLORS["real"] if action == "emit" else "black",
            weight="bold" if action == "emit" else "normal",
        )
    ax.set_xlim(-0.5, extent)
    ax.set_ylim(len(steps) - 0.5, -0.6)
    ax.set_yticks([])
    ax.set_xlabel("character position in the joined pieces")
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    ax.legend(
        handles=[
            Patch(facecolor=COLORS["mine"], alpha=0.3, edgecolor=COLORS["muted"], label="window"),
            Patch(
                facecolor=COLORS["real"],
                alpha=0.45,
                hatch="//",
                edgecolor=COLORS["muted"],
                label="emitted as a chunk",
            ),
            Line2D(
                [],
                [],
                color="black",
                linewidth=2,
                label=f"chunk_size={chunk_size} from the window start",
            ),
        ],
        loc="upper center",
        bbox_to_anchor=(0.5, -0.9 / (0.42 * len(steps) + 1.4) - 0.08),
        ncols=3,
        fontsize=8,
        frameon=False,
    )
    ax.set_title(
        title
        or f"merging {len(pieces)} pieces: chunk_size={chunk_size}, chunk_overlap={chunk_overlap}",
        fontsize=10,
    )
    fig.tight_layout()
    return fig


def _cascade_split(text: str, separator: str) -> list[str]:
    """Split as the recursive splitter does with keep_separator=True: a separator starts a piece."""
    if separator == "":
        return list(text)
    parts = text.split(separator)
    return [p for p in [parts[0]] + [separator + p for p in parts[1:]] if p]


def separator_cascade_tree(
    text: str,
    separators: Sequence[str] = ("\n\n", "\n", " ", ""),
    *,
    chunk_size: int,
    title: str = "",
) -> Figure:
    """How the recursive splitter cuts ``text``: a tree, one level per separator it had to try.

    The root is the text; it is cut at the first separator that occurs in it (keeping the separator
    at the start of each piece, as ``keep_separator=True`` does); a piece shorter than
    ``chunk_size`` is a leaf that fits (green, solid edge); a longer one is cut again with the
    separators after the one used (vermillion, dashed edge), down to ``""`` (single characters).
    The edge label is the separator used. Merging the leaves back into chunks is the merge window's
    job (``merge_window_strip``). Keep ``text`` short: every piece is a box.
    """
    if not isinstance(text, str) or not text:
        raise ValueError("separator_cascade_tree: text must be a non-empty str.")
    seps = list(separators)
    if isinstance(separators, str) or not seps or not all(isinstance(s, str) for s in seps):
        raise ValueError(
            "separator_cascade_tree: separators must be a list of str, "
            "e.g. ['\\n\\n', '\\n', ' ', '']."
        )
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(
            f"separator_cascade_tree: chunk_size must be a whole number >= 1; got {chunk_size!r}."
        )
    nodes: list[dict[str, object]] = []  # text, depth, parent, separator used to cut it, fits

    def grow(piece: str, depth: int, parent: int | None, remaining: list[str]) -> None:
        index = len(nodes)
        fits = len(piece) < chunk_size
        nodes.append({"text": piece, "depth": depth, "parent": parent, "cut": None, "fits": fits})
        if fits or not remaining:
            return
        chosen, rest = remaining[-1], []
        for i, sep in enumerate(remaining):
            if sep == "" or sep in piece:
                chosen, rest = sep, remaining[i + 1 :]
                break
        nodes[index]["cut"] = chosen
        for part in _cascade_split(piece, chosen):
            grow(part, depth + 1, index, rest)

    grow(text, 0, None, seps)
    if len(nodes) > 60:
        raise ValueError(
            f"separator_cascade_tree: the tree has {len(nodes)} pieces, too many to read; "
            "draw a shorter text or a larger chunk_size."
        )
    leaves = [i for i, n in enumerate(nodes) if n["cut"] is None]
    x: dict[int, float] = {leaf: float(k) for k, leaf in enumerate(leaves)}
    for i in sorted(range(len(nodes)), key=lambda i: -int(nodes[i]["depth"])):
        if i not in x:
            kids = [x[j] for j, n in enumerate(nodes) if n["parent"] == i]
            x[i] = sum(kids) / len(kids)
    depth = max(int(n["depth"]) for n in nodes)
    fig, ax = plt.subplots(figsize=(max(5.0, 1.5 * len(leaves) + 1), 1.25 * depth + 2.0))
    for i, node in enumerate(nodes):
        d = int(node["depth"])
        if node["parent"] is not None:
            parent = int(node["parent"])
            ax.plot(
                [x[parent], x[i]],
                [int(nodes[parent]["depth"]) + 0.25, d - 0.25],
                color=COLORS["muted"],
                linewidth=1,
                zorder=1,
            )
        shown = (
            repr(node["text"])
            if len(str(node["text"])) <= 14
            else repr(str(node["text"])[:12] + "…")
        )
        fits = bool(node["fits"])
        ax.text(
            x[i],
            d,
            f"{shown}\n{len(str(node['text']))} chars",
            ha="center",
            va="center",
            fontsize=7.5,
            family="monospace",
            zorder=2,
            bbox={
                "boxstyle": "round,pad=0.3",
                "facecolor": GREYS["white"],
                "edgecolor": OKABE_ITO["bluish_green"] if fits else OKABE_ITO["vermillion"],
                "linestyle": "-" if fits else "--",
                "linewidth": 1.5,
            },
        )
        if node["cut"] is not None:
            ax.text(
                x[i],
                d + 0.5,
                f"cut at {node['cut']!r}",
                ha="center",
                va="center",
                fontsize=7.5,
                color=COLORS["mine"],
                weight="bold",
                zorder=3,
            )
    ax.set_xlim(-0.8, len(leaves) - 0.2)
    ax.set_ylim(depth + 0.6, -0.6)
    ax.axis("off")
    ax.legend(
        handles=[
            Line2D(
                [],
                [],
                color=OKABE_ITO["bluish_green"],
                linewidth=1.5,
                label=f"fits: shorter than chunk_size={chunk_size}",
            ),
            Line2D(
                [],
                [],
                color=OKABE_ITO["vermillion"],
                linewidth=1.5,
                linestyle="--",
                label="too long: cut with the next separator",
            ),
        ],
        loc="lower center",
        bbox_to_anchor=(0.5, 1.0),
        ncols=2,
        fontsize=8,
        frameon=False,
    )
    if title:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig
