"""Pictures the notebooks share. Each function draws one idea and returns the Figure.

They return the figure rather than showing it so a test can inspect what was drawn; a notebook
cell ends in ``plt.show()`` so the stored output is one PNG and no ``<Figure …>`` text to drift.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import Arc, FancyArrowPatch, FancyBboxPatch, PathPatch, Rectangle
from matplotlib.path import Path as MplPath
from matplotlib.textpath import TextPath
from matplotlib.transforms import Affine2D

#: One palette for the whole course, so "mine" and "real" look the same in every notebook.
COLORS = {"mine": "#1f77b4", "real": "#ff7f0e", "query": "#d62728", "muted": "#9e9e9e"}


def _check_same_length(labels: Sequence[str], values: Sequence[float], what: str) -> None:
    if len(labels) != len(values):
        raise ValueError(
            f"{what}: got {len(labels)} labels but {len(values)} scores; give one score per label."
        )
    if not labels:
        raise ValueError(f"{what}: nothing to draw - the list of labels is empty.")


def score_bars(
    labels: Sequence[str],
    scores: Sequence[float],
    *,
    title: str = "cosine similarity to the query",
    highlight: int = 0,
) -> Figure:
    """Horizontal bars of cosine scores, best at the top, the ``highlight`` best in colour.

    Cosine lies in [-1, 1], so the axis always spans that range: bars from different queries
    can be compared by eye.
    """
    _check_same_length(labels, scores, "score_bars")
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * len(labels) + 1.2))
    ys = list(range(len(order)))[::-1]
    for rank, (y, i) in enumerate(zip(ys, order, strict=True)):
        color = COLORS["mine"] if rank < highlight else COLORS["muted"]
        ax.barh(y, scores[i], color=color)
        ax.text(
            scores[i] + (0.02 if scores[i] >= 0 else -0.02), y, f"{scores[i]:.3f}",
            va="center", ha="left" if scores[i] >= 0 else "right", fontsize=9,
        )
    ax.set_yticks(ys, [labels[i] for i in order])
    ax.set_xlim(-1.05, 1.25)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("cosine similarity")
    ax.set_title(title)
    fig.tight_layout()
    return fig


def pipeline_diagram(steps: Sequence[tuple[str, str, str]]) -> Figure:
    """Boxes joined by arrows: one box per ``(stage, class, what flows out)``.

    Drawn from the data, not pasted as an image, so the picture cannot disagree with the names
    the notebook uses.
    """
    if not steps:
        raise ValueError("pipeline_diagram: give at least one (stage, class, output) step.")
    width = 3.2 * len(steps)
    fig, ax = plt.subplots(figsize=(width, 2.4))
    ax.set_xlim(0, width)
    ax.set_ylim(0, 2.4)
    ax.axis("off")
    for i, (stage, cls, output) in enumerate(steps):
        x = 0.2 + 3.2 * i
        ax.add_patch(FancyBboxPatch((x, 0.9), 2.4, 1.1, boxstyle="round,pad=0.05",
                                    facecolor="#e8f0fb", edgecolor=COLORS["mine"]))
        ax.text(x + 1.2, 1.7, stage, ha="center", va="center", fontsize=12, weight="bold")
        ax.text(x + 1.2, 1.25, cls, ha="center", va="center", fontsize=8.5, family="monospace")
        ax.text(x + 1.2, 0.45, output, ha="center", va="center", fontsize=8.5,
                family="monospace", color="#555555")
        if i + 1 < len(steps):
            ax.add_patch(FancyArrowPatch((x + 2.45, 1.45), (x + 3.15, 1.45),
                                         arrowstyle="-|>", mutation_scale=16, color="black"))
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------- MMR pictures (06)

def _plane_points(points: Mapping[str, Sequence[float]], what: str) -> dict[str, tuple[float, float]]:
    """Validate ``{id: [x, y]}``: MMR pictures draw vectors of a two-word vocabulary exactly."""
    if not points:
        raise ValueError(f"{what}: no documents to draw - give at least one id: [x, y] entry.")
    plane = {}
    for doc_id, vector in points.items():
        if len(vector) != 2:
            raise ValueError(
                f"{what}: document {doc_id!r} has a {len(vector)}-dimensional vector; this picture draws "
                "2-D vectors only - embed with a two-word vocabulary, e.g. BagOfWords(['cat', 'dog'])."
            )
        plane[doc_id] = (float(vector[0]), float(vector[1]))
    return plane


def _check_known_ids(ids: Sequence[str], known: Mapping[str, object], what: str) -> None:
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise ValueError(f"{what}: {unknown} are not among the documents drawn ({sorted(known)}).")


def _draw_plane(
    ax: plt.Axes,
    plane: Mapping[str, tuple[float, float]],
    query: tuple[float, float],
    picks: Sequence[str],
    title: str,
    axis_labels: Sequence[str],
    color: str,
) -> None:
    """One panel: every document as an arrow from the origin, the picks coloured and numbered."""
    reach = max(max(abs(v) for xy in plane.values() for v in xy), 1.0) * 1.25
    groups: dict[tuple[float, float], list[str]] = {}
    for doc_id, xy in plane.items():
        groups.setdefault(xy, []).append(doc_id)
    for xy, ids in groups.items():
        picked = [i for i in ids if i in picks]
        ax.add_patch(FancyArrowPatch((0, 0), xy, arrowstyle="-|>", mutation_scale=14, linewidth=2,
                                     color=color if picked else COLORS["muted"], zorder=2))
        label = " = ".join(f"{i} (#{picks.index(i) + 1})" if i in picks else i for i in ids)
        ax.annotate(label, xy, xytext=(5, 4), textcoords="offset points", fontsize=9,
                    color=color if picked else "#555555", weight="bold" if picked else "normal")
    norm = (query[0] ** 2 + query[1] ** 2) ** 0.5
    if norm > 0:
        end = (query[0] / norm * reach * 0.95, query[1] / norm * reach * 0.95)
        ax.plot([0, end[0]], [0, end[1]], linestyle="--", color=COLORS["query"], linewidth=1.5, zorder=1)
        ax.annotate("query", end, xytext=(-40, 5), textcoords="offset points", color=COLORS["query"], fontsize=9)
    ax.set_xlim(-0.1, reach)
    ax.set_ylim(-0.1, reach)
    ax.set_aspect("equal")
    ax.set_xlabel(f"count of '{axis_labels[0]}'")
    ax.set_ylabel(f"count of '{axis_labels[1]}'")
    ax.set_title(title, fontsize=11)
    ax.grid(alpha=0.3)


def mmr_plane(
    points: Mapping[str, Sequence[float]],
    query: Sequence[float],
    similarity_ids: Sequence[str],
    mmr_ids: Sequence[str],
    *,
    lambda_mult: float,
    axis_labels: Sequence[str] = ("cat", "dog"),
) -> Figure:
    """Two panels of the same 2-D vectors: plain similarity's top-k beside MMR's picks, numbered.

    Cosine similarity only looks at directions, so a learner can see it: the top-k crowd around
    the query's dashed line, while MMR's later picks fan out. Identical vectors share one arrow
    (labelled ``c1 = c2``), which is exactly the redundancy MMR is built to avoid.
    """
    plane = _plane_points(points, "mmr_plane")
    if len(query) != 2:
        raise ValueError(f"mmr_plane: the query vector must be 2-D like the documents, got {len(query)} numbers.")
    _check_known_ids(similarity_ids, plane, "mmr_plane similarity_ids")
    _check_known_ids(mmr_ids, plane, "mmr_plane mmr_ids")
    q = (float(query[0]), float(query[1]))
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.6))
    _draw_plane(left, plane, q, list(similarity_ids), f"similarity: top {len(similarity_ids)}",
                axis_labels, COLORS["mine"])
    _draw_plane(right, plane, q, list(mmr_ids), f"MMR, λ = {lambda_mult:g}: {len(mmr_ids)} picks in order",
                axis_labels, COLORS["real"])
    fig.tight_layout()
    return fig


def lambda_sweep(
    lambdas: Sequence[float],
    picks: Sequence[Sequence[str]],
    candidates: Sequence[str],
    *,
    title: str = "MMR picks as λ goes from 0 (diverse) to 1 (relevant)",
) -> Figure:
    """A grid: one column per λ, one row per candidate, the pick order written where it was picked.

    Reading a row left to right shows when a near-duplicate drops out and an outlier comes in.
    """
    if not lambdas:
        raise ValueError("lambda_sweep: give at least one λ value.")
    if len(lambdas) != len(picks):
        raise ValueError(
            f"lambda_sweep: got {len(lambdas)} λ values but {len(picks)} lists of picks; give one list per λ."
        )
    if not candidates:
        raise ValueError("lambda_sweep: the list of candidate ids is empty.")
    for lam, chosen in zip(lambdas, picks, strict=True):
        _check_known_ids(chosen, dict.fromkeys(candidates), f"lambda_sweep picks at λ={lam:g}")
    rows = {doc_id: len(candidates) - 1 - r for r, doc_id in enumerate(candidates)}
    fig, ax = plt.subplots(figsize=(max(5.0, 0.7 * len(lambdas) + 2), 0.5 * len(candidates) + 1.6))
    for col, chosen in enumerate(picks):
        for order, doc_id in enumerate(chosen, start=1):
            first = order == 1
            ax.scatter(col, rows[doc_id], s=330, color=COLORS["mine"] if first else COLORS["real"], zorder=2)
            ax.text(col, rows[doc_id], str(order), ha="center", va="center", color="white",
                    fontsize=9, weight="bold", zorder=3)
    ax.set_xticks(range(len(lambdas)), [f"{lam:g}" for lam in lambdas])
    ax.set_yticks([rows[i] for i in candidates], list(candidates))
    ax.set_xlim(-0.6, len(lambdas) - 0.4)
    ax.set_ylim(-0.6, len(candidates) - 0.4)
    ax.set_xlabel("λ (lambda_mult)")
    ax.set_title(title, fontsize=11)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


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


# --------------------------------------------------------------------------- runs and graphs (07, 08)

def run_timeline(events: Sequence[object], *, title: str = "runs reported to the callback handler") -> Figure:
    """One bar per run, from the step of its start event to the step of its end (or error) event.

    ``events`` are recorded callbacks in order (``retrieval_lab.callbacks.Event``, or anything with
    ``event``, ``kind``, ``name``, ``run`` and ``parent``). Children are indented under their parent,
    so a sequence's steps sit inside the sequence's bar; a run that ended in an error is drawn red
    and hatched. The x axis is the event number, not time, so the picture never changes.
    """
    if not events:
        raise ValueError("run_timeline: no events to draw - invoke something with the handler in "
                         "config={'callbacks': [handler]} first.")
    runs: dict[int, dict[str, object]] = {}
    for step, e in enumerate(events, start=1):
        if e.event == "start":
            runs[e.run] = {"name": e.name, "kind": e.kind, "parent": e.parent, "start": step, "end": None,
                           "failed": False}
        elif e.run in runs:
            runs[e.run]["end"] = step
            runs[e.run]["failed"] = e.event == "error"
        else:
            raise ValueError(f"run_timeline: event {step} ends run {e.run}, which never started.")
    depth: dict[int, int] = {}
    for run, info in runs.items():
        parent = info["parent"]
        depth[run] = depth[parent] + 1 if parent in depth else 0
    fig, ax = plt.subplots(figsize=(7.5, 0.5 * len(runs) + 1.3))
    last = len(events)
    for row, (run, info) in enumerate(runs.items()):
        end = info["end"] if info["end"] is not None else last + 0.5
        color = COLORS["query"] if info["failed"] else (COLORS["real"] if info["kind"] == "retriever"
                                                        else COLORS["mine"])
        ax.barh(row, end - info["start"], left=info["start"], height=0.55, color=color, alpha=0.8,
                hatch="//" if info["failed"] else None, edgecolor="black", linewidth=0.6)
        label = "   " * depth[run] + f"run {run}: {info['name']}" + (" ✗" if info["failed"] else "")
        ax.text(0.4, row, label, ha="right", va="center", fontsize=9, family="monospace")
    ax.set_ylim(len(runs) - 0.4, -0.6)
    ax.set_xlim(0.5, last + 0.5)
    ax.set_yticks([])
    ax.set_xticks(range(1, last + 1))
    ax.set_xlabel("event number (start … end of each run)")
    ax.set_title(title + "\nblue: chain · orange: retriever · red: error", fontsize=10)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    fig.tight_layout()
    return fig


def grouped_bars(
    labels: Sequence[str],
    series: Mapping[str, Sequence[float]],
    *,
    title: str = "scores per document",
    xlabel: str = "score",
) -> Figure:
    """Horizontal bars, one group per label and one bar per series (e.g. keyword count vs BM25).

    Scores of different scorers live on different scales, so each series gets its own panel with
    its own axis, sharing the rows: read across a row to see how two scorers judge one document.
    """
    if not isinstance(series, Mapping) or not series:
        raise ValueError("grouped_bars: give series as a dict {name: scores} with at least one entry.")
    for name, values in series.items():
        _check_same_length(labels, values, f"grouped_bars series {name!r}")
    palette = [COLORS["mine"], COLORS["real"], "#2ca02c", "#9467bd"]
    fig, axes = plt.subplots(1, len(series), figsize=(3.6 * len(series) + 1.2, 0.42 * len(labels) + 1.3),
                             sharey=True, squeeze=False)
    ys = list(range(len(labels)))
    for k, (ax, (name, values)) in enumerate(zip(axes[0], series.items(), strict=True)):
        ax.barh(ys, values, color=palette[k % len(palette)])
        top = max([abs(float(v)) for v in values] + [1e-9])
        for y, v in zip(ys, values, strict=True):
            ax.text(float(v) + top * 0.02, y, f"{float(v):.3g}", va="center", fontsize=8)
        ax.set_xlim(min(0.0, min(float(v) for v in values)), top * 1.25)
        ax.set_title(name, fontsize=10)
        ax.set_xlabel(xlabel)
    axes[0][0].set_yticks(ys, list(labels))
    axes[0][0].invert_yaxis()
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


def runnable_graph(
    nodes: Sequence[str],
    edges: Sequence[tuple[str, str]],
    *,
    title: str = "the chain's graph",
) -> Figure:
    """Draw a Runnable's graph offline: boxes in layers (longest path from a source), arrows between.

    Feed it ``[n.name for n in graph.nodes.values()]`` and ``[(graph.nodes[e.source].name,
    graph.nodes[e.target].name) for e in graph.edges]`` of ``chain.get_graph()``: no network, no
    mermaid renderer. Node names must be unique (they are, in a langchain-core graph's names once
    ``gather.name`` is set); a cycle is refused because a chain's graph has none.
    """
    names = list(nodes)
    if not names:
        raise ValueError("runnable_graph: no nodes to draw.")
    if len(set(names)) != len(names):
        raise ValueError(f"runnable_graph: node names repeat ({sorted({n for n in names if names.count(n) > 1})}); "
                         "give each node a distinct name.")
    for source, target in edges:
        if source not in names or target not in names:
            raise ValueError(f"runnable_graph: edge {source!r} -> {target!r} names a node not in {names}.")
    layer = {n: 0 for n in names}
    for _ in range(len(names)):
        changed = False
        for source, target in edges:
            if layer[target] < layer[source] + 1:
                layer[target] = layer[source] + 1
                changed = True
        if not changed:
            break
    else:
        raise ValueError("runnable_graph: the edges form a cycle; a chain's graph is acyclic.")
    rows: dict[int, list[str]] = {}
    for n in names:
        rows.setdefault(layer[n], []).append(n)
    width = max(len(r) for r in rows.values())
    box_w, box_h, gap_x, gap_y = 3.4, 0.7, 0.5, 0.6
    fig_w = width * (box_w + gap_x) + gap_x
    fig_h = len(rows) * (box_h + gap_y) + gap_y
    fig, ax = plt.subplots(figsize=(max(fig_w, 4.0) * 0.85, fig_h * 0.85))
    ax.set_xlim(0, max(fig_w, 4.0))
    ax.set_ylim(fig_h, 0)
    ax.axis("off")
    centre: dict[str, tuple[float, float]] = {}
    for depth, members in sorted(rows.items()):
        offset = (max(fig_w, 4.0) - len(members) * (box_w + gap_x) + gap_x) / 2
        for i, n in enumerate(members):
            x = offset + i * (box_w + gap_x)
            y = gap_y + depth * (box_h + gap_y)
            centre[n] = (x + box_w / 2, y + box_h / 2)
            ax.add_patch(FancyBboxPatch((x, y), box_w, box_h, boxstyle="round,pad=0.03",
                                        facecolor="#e8f0fb", edgecolor=COLORS["mine"]))
            ax.text(x + box_w / 2, y + box_h / 2, n, ha="center", va="center", fontsize=9, family="monospace")
    for source, target in edges:
        (x0, y0), (x1, y1) = centre[source], centre[target]
        ax.add_patch(FancyArrowPatch((x0, y0 + box_h / 2), (x1, y1 - box_h / 2), arrowstyle="-|>",
                                     mutation_scale=14, color="black", shrinkA=2, shrinkB=2))
    ax.set_title(title, fontsize=11)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------- vectors and similarities (04)

def _cosine_2d(a: tuple[float, float], b: tuple[float, float]) -> float | None:
    """cos of the angle between two plane vectors; None when either has no direction (zero)."""
    norms = math.hypot(*a) * math.hypot(*b)
    return None if norms == 0 else (a[0] * b[0] + a[1] * b[1]) / norms


def vector_arrows(
    vectors: Mapping[str, Sequence[float]],
    *,
    query: Sequence[float] | None = None,
    query_label: str = "query",
    highlight: Sequence[str] = (),
    numbered: bool = True,
    style: str = "arrows",
    show_angles: bool = False,
    axis_labels: Sequence[str] = ("cat", "dog"),
    title: str = "",
    ax: plt.Axes | None = None,
) -> Figure:
    """Vectors of a two-word vocabulary drawn exactly, as arrows (or points) from the origin.

    Cosine similarity is the cosine of the angle between two arrows, whatever their lengths: with
    ``show_angles=True`` each vector's angle to the ``query`` is drawn as an arc and labelled with
    its cosine. ``highlight`` colours chosen vectors, e.g. a search's top k or MMR's picks, and
    numbers them in the order given unless ``numbered=False``; ``style="points"`` draws tips only,
    for crowded candidate sets.
    Identical vectors share one arrow, labelled ``c1 = c2``. Pass ``ax`` to draw into a panel of a
    larger figure (e.g. two searches side by side).
    """
    plane = _plane_points(vectors, "vector_arrows")
    if style not in ("arrows", "points"):
        raise ValueError(f"vector_arrows: style must be 'arrows' or 'points', got {style!r}.")
    picks = list(highlight)
    _check_known_ids(picks, plane, "vector_arrows highlight")
    if query is not None and len(query) != 2:
        raise ValueError(
            f"vector_arrows: the query must be 2-D like the vectors, got {len(query)} numbers; "
            "embed it with the same two-word vocabulary."
        )
    if show_angles and query is None:
        raise ValueError("vector_arrows: show_angles draws each vector's angle to the query; pass query=[x, y].")
    if len(axis_labels) != 2:
        raise ValueError(f"vector_arrows: give two axis labels (the two vocabulary words), got {list(axis_labels)}.")
    q = None if query is None else (float(query[0]), float(query[1]))
    if ax is None:
        fig, ax = plt.subplots(figsize=(5.6, 5.0))
    else:
        fig = ax.figure
    tips = list(plane.values()) + ([q] if q is not None else []) + [(0.0, 0.0)]
    low = min(min(x, y) for x, y in tips)
    high = max(max(x, y) for x, y in tips)
    pad = max(high - low, 1.0) * 0.18
    lo, hi = low - pad, high + pad
    groups: dict[tuple[float, float], list[str]] = {}
    for name, xy in plane.items():
        groups.setdefault(xy, []).append(name)
    for xy, names in groups.items():
        picked = [n for n in names if n in picks]
        color = COLORS["mine"] if picked else COLORS["muted"]
        if style == "arrows" and xy != (0.0, 0.0):
            ax.add_patch(FancyArrowPatch((0, 0), xy, arrowstyle="-|>", mutation_scale=14, linewidth=2,
                                         color=color, zorder=2))
        else:
            ax.scatter(*xy, s=60 if picked else 40, color=color, zorder=3)
        label = " = ".join(f"{n} (#{picks.index(n) + 1})" if n in picks and numbered else n for n in names)
        if show_angles and q is not None:
            cos = _cosine_2d(xy, q)
            label += "\ncos undefined (zero vector)" if cos is None else f"\ncos = {cos:.3f}"
        ax.annotate(label, xy, xytext=(6, 4), textcoords="offset points", fontsize=8.5,
                    color=color if picked else "#444444", weight="bold" if picked else "normal")
        if show_angles and q is not None and _cosine_2d(xy, q) is not None:
            _angle_arc(ax, q, xy, radius=(hi - lo) * 0.12 * (1 + 0.35 * len(_arcs_drawn(ax))))
    if q is not None:
        if q == (0.0, 0.0):
            ax.scatter(0, 0, marker="*", s=220, color=COLORS["query"], zorder=4)
            ax.annotate(f"{query_label} (zero vector)", (0, 0), xytext=(6, -12), textcoords="offset points",
                        fontsize=9, color=COLORS["query"], weight="bold")
        else:
            if style == "arrows":
                ax.add_patch(FancyArrowPatch((0, 0), q, arrowstyle="-|>", mutation_scale=16, linewidth=2.6,
                                             color=COLORS["query"], zorder=3))
            ax.scatter(*q, marker="*", s=220, color=COLORS["query"], zorder=4)
            ax.annotate(query_label, q, xytext=(6, -12), textcoords="offset points", fontsize=9,
                        color=COLORS["query"], weight="bold")
    ax.axhline(0, color="black", linewidth=0.6)
    ax.axvline(0, color="black", linewidth=0.6)
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_aspect("equal")
    ax.set_xlabel(f"count of '{axis_labels[0]}'")
    ax.set_ylabel(f"count of '{axis_labels[1]}'")
    ax.set_title(title, fontsize=11)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def _arcs_drawn(ax: plt.Axes) -> list[object]:
    return [p for p in ax.patches if isinstance(p, Arc)]


def _angle_arc(ax: plt.Axes, a: tuple[float, float], b: tuple[float, float], radius: float) -> None:
    """An arc at the origin from the direction of ``a`` to that of ``b`` (the smaller way round)."""
    start, end = math.degrees(math.atan2(a[1], a[0])), math.degrees(math.atan2(b[1], b[0]))
    if (end - start) % 360 > 180:
        start, end = end, start
    ax.add_patch(Arc((0, 0), 2 * radius, 2 * radius, theta1=start, theta2=end, color=COLORS["query"],
                     linewidth=1, alpha=0.7, zorder=1))


def similarity_heatmaps(
    panels: Mapping[str, Sequence[Sequence[float]]],
    labels: Sequence[str],
    *,
    title: str = "",
    annotate: bool = True,
) -> Figure:
    """Pairwise similarity matrices side by side, on one colour scale from -1 to 1.

    One panel per ``{name: n×n matrix}``, rows and columns in ``labels`` order. The scale is fixed
    (cosine lies in [-1, 1]) so two embedders can be compared by colour alone: blocks of warm cells
    mean the embedder sees groups; a speckle means it sees noise. A NaN cell (an undefined cosine,
    e.g. of a zero vector) is drawn grey and marked "n/a".
    """
    if not isinstance(panels, Mapping) or not panels:
        raise ValueError("similarity_heatmaps: give panels as a dict {name: matrix} with at least one entry.")
    labels = list(labels)
    if not labels:
        raise ValueError("similarity_heatmaps: the list of labels is empty.")
    n = len(labels)
    matrices = {}
    for name, matrix in panels.items():
        rows = [list(row) for row in matrix]
        if len(rows) != n or any(len(row) != n for row in rows):
            raise ValueError(
                f"similarity_heatmaps: panel {name!r} must be a {n}×{n} matrix (one row and column per "
                f"label), got {len(rows)} rows of lengths {sorted({len(r) for r in rows})}."
            )
        matrices[name] = [[float(v) for v in row] for row in rows]
    fig, axes = plt.subplots(1, len(matrices), figsize=(4.4 * len(matrices) + 1.2, 0.42 * n + 2.2),
                             squeeze=False, layout="constrained")
    cmap = plt.get_cmap("coolwarm").with_extremes(bad="white")
    image = None
    for ax, (name, rows) in zip(axes[0], matrices.items(), strict=True):
        image = ax.imshow(rows, cmap=cmap, vmin=-1, vmax=1)  # NaN cells are masked: drawn in the "bad" grey
        ax.set_xticks(range(n), labels, rotation=45, ha="right", fontsize=8.5)
        ax.set_yticks(range(n), labels, fontsize=8.5)
        ax.set_title(name, fontsize=10)
        if annotate:
            for i, row in enumerate(rows):
                for j, v in enumerate(row):
                    text = "n/a" if v != v else f"{v:.2f}"
                    ax.text(j, i, text, ha="center", va="center", fontsize=7.5,
                            color="white" if v == v and abs(v) > 0.6 else "black")
    fig.colorbar(image, ax=list(axes[0]), shrink=0.8, label="cosine similarity")
    if title:
        fig.suptitle(title, fontsize=11)
    return fig


def _check_positive_series(series: Mapping[object, float], name: str, what: str) -> None:
    if not series:
        raise ValueError(f"{what}: the series {name!r} has no points; give at least one (x, value) pair.")
    bad = {x: v for x, v in series.items() if not (isinstance(v, int | float) and math.isfinite(v) and v > 0)}
    if bad or any(not (isinstance(x, int | float) and x > 0) for x in series):
        raise ValueError(
            f"{what}: the series {name!r} has points {bad or dict(series)} that a log axis cannot show; "
            "every n and every value must be a positive finite number."
        )


def latency_vs_n(
    latencies: Mapping[str, Mapping[int, float]],
    *,
    guide: str | None = None,
    ylabel: str = "median latency per query (ms)",
    title: str = "query latency against the number of stored vectors",
) -> Figure:
    """One line per store: latency against n, on log-log axes.

    On log-log axes a cost that grows in proportion to n is a straight line of slope 1, and a
    store k times faster sits a constant distance log(k) lower. ``guide`` names the series a dashed
    slope-1 line is drawn through (from its first point), so "linear in n" can be read off by eye.
    """
    if not latencies:
        raise ValueError("latency_vs_n: give at least one series, e.g. {'MatrixVectorStore': {1000: 0.1}}.")
    for name, series in latencies.items():
        _check_positive_series(series, name, "latency_vs_n")
    if guide is not None and guide not in latencies:
        raise ValueError(f"latency_vs_n: guide={guide!r} is not one of the series {sorted(latencies)}.")
    fig, ax = plt.subplots(figsize=(7.0, 4.4))
    for name, series in latencies.items():
        ns = sorted(series)
        ax.plot(ns, [series[n] for n in ns], marker="o", label=name)
    if guide is not None:
        ns = sorted(latencies[guide])
        first = latencies[guide][ns[0]]
        ax.plot(ns, [first * n / ns[0] for n in ns], linestyle="--", color=COLORS["muted"],
                label=f"slope 1 (∝ n) through {guide}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("stored vectors n")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def recall_vs_latency(
    curves: Mapping[str, Sequence[tuple[str, float, float]]],
    *,
    exact_ms: float | None = None,
    title: str = "approximate search: recall against latency",
) -> Figure:
    """The trade-off of an approximate index: per curve, one ``(label, latency_ms, recall)`` per setting.

    Each curve (e.g. one data set) joins its points in the order given (e.g. growing efSearch),
    each point labelled; ``exact_ms`` draws exact search's latency as a vertical line, where
    recall is 1 by definition.
    """
    if not curves:
        raise ValueError("recall_vs_latency: give at least one curve, e.g. {'random': [('ef=16', 0.2, 0.5)]}.")
    for name, points in curves.items():
        if not points:
            raise ValueError(f"recall_vs_latency: curve {name!r} has no (label, latency_ms, recall) points.")
        for label, latency, recall in points:
            if not (math.isfinite(latency) and latency > 0):
                raise ValueError(
                    f"recall_vs_latency: point {label!r} of {name!r} has latency {latency}; it must be > 0 (log axis)."
                )
            if not 0.0 <= recall <= 1.0:
                raise ValueError(
                    f"recall_vs_latency: point {label!r} of {name!r} has recall {recall}; recall lies in [0, 1]."
                )
    if exact_ms is not None and not (math.isfinite(exact_ms) and exact_ms > 0):
        raise ValueError(f"recall_vs_latency: exact_ms={exact_ms} must be a positive latency in ms.")
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for name, points in curves.items():
        ax.plot([p[1] for p in points], [p[2] for p in points], marker="o", label=name)
        for label, latency, recall in points:
            ax.annotate(label, (latency, recall), textcoords="offset points", xytext=(4, -12), fontsize=8)
    if exact_ms is not None:
        ax.axvline(exact_ms, color=COLORS["real"], linestyle="--", label="exact search (recall 1)")
    ax.set_xscale("log")
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("median latency per query (ms)")
    ax.set_ylabel("recall@k against exact search")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig
