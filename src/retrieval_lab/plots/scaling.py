"""Pictures of notebooks 11 and 12: latency against n, recall against cost, cosine spreads, swap-delete, HNSW."""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Hashable, Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Patch, Rectangle
from matplotlib.ticker import FuncFormatter, LogLocator

from retrieval_lab.plots._style import (
    COLORS,
    GREYS,
    OKABE_ITO,
    SERIES,
    _check_positive_series,
)


def latency_vs_n(
    latencies: Mapping[str, Mapping[int, float]],
    *,
    guide: str | None = None,
    d: int | None = None,
    bandwidth_gb_s: float | None = None,
    ylabel: str = "median latency per query (ms)",
    title: str = "query latency against the number of stored vectors",
) -> Figure:
    """One line per store: latency against n, on log-log axes, with the memory read time.

    On log-log axes a cost that grows in proportion to n is a straight line of slope 1, and a
    store k times faster sits a constant distance log(k) lower. Give ``d`` (the vector size) and
    ``bandwidth_gb_s`` (the measured memory bandwidth) to draw the time it takes to read every
    float32 once from main memory, ``n · d · 4`` bytes at that bandwidth, in ms. It is a floor
    only for a matrix larger than the CPU caches: a small matrix stays in cache, which delivers
    bytes faster than memory, so at small n an exact search can sit below the line.
    ``guide`` names a series a grey slope-1 line is drawn through (from its first point).
    """
    _check_line_count(latencies, "latency_vs_n", "series", "series", "{'MatrixVectorStore': {1000: 0.1}}")
    for name, series in latencies.items():
        _check_positive_series(series, name, "latency_vs_n")
    if guide is not None and guide not in latencies:
        raise ValueError(
            f"latency_vs_n: guide={guide!r} is not one of the series {sorted(latencies)}."
        )
    if (d is None) != (bandwidth_gb_s is None):
        raise ValueError(
            "latency_vs_n: the memory read time needs both d (floats per vector) and bandwidth_gb_s "
            "(e.g. retrieval_lab.evaluation.measure.memory_bandwidth()); give both or neither."
        )
    if d is not None and (isinstance(d, bool) or not isinstance(d, int) or d < 1):
        raise ValueError(
            f"latency_vs_n: d is the number of floats per vector, a whole number >= 1; got {d!r}."
        )
    if bandwidth_gb_s is not None and not (
        isinstance(bandwidth_gb_s, int | float)
        and math.isfinite(bandwidth_gb_s)
        and bandwidth_gb_s > 0
    ):
        raise ValueError(
            "latency_vs_n: bandwidth_gb_s must be a positive number of GB/s; "
            f"got {bandwidth_gb_s!r}."
        )
    fig, ax = plt.subplots(figsize=(7.0, 4.4))
    for (name, series), (color, marker, linestyle) in zip(latencies.items(), SERIES, strict=False):
        ns = sorted(series)
        ax.plot(
            ns, [series[n] for n in ns], color=color, marker=marker, linestyle=linestyle, label=name
        )
    if guide is not None:
        ns = sorted(latencies[guide])
        first = latencies[guide][ns[0]]
        ax.plot(
            ns,
            [first * n / ns[0] for n in ns],
            linestyle="--",
            color=COLORS["muted"],
            label=f"slope 1 (∝ n) through {guide}",
        )
    if d is not None and bandwidth_gb_s is not None:
        ns = sorted({n for series in latencies.values() for n in series})
        ax.plot(
            ns,
            [memory_read_ms(n, d, bandwidth_gb_s) for n in ns],
            color="black",
            linestyle=(0, (1, 1)),
            linewidth=1.8,
            label=f"memory read n·d·4 B at {bandwidth_gb_s:.3g} GB/s (d = {d})",
        )
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("stored vectors n")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def _check_line_count(lines: Mapping, plot: str, one: str, many: str, example: str) -> None:
    """At least one line, and no more than the palette has line styles for (one picture)."""
    if not lines:
        raise ValueError(f"{plot}: give at least one {one}, e.g. {example}.")
    if len(lines) > len(SERIES):
        raise ValueError(f"{plot}: at most {len(SERIES)} {many} fit one picture; got {len(lines)}.")


def memory_read_ms(n: int, d: int, bandwidth_gb_s: float) -> float:
    """Milliseconds to read ``n`` float32 vectors of size ``d`` once at ``bandwidth_gb_s`` GB/s."""
    return n * d * 4 / (bandwidth_gb_s * 1e9) * 1e3


#: Where an ef label may go, relative to its point (points, alignment): tried in order.
_LABEL_SPOTS = (((5, -11), "left"), ((5, 5), "left"), ((-5, 5), "right"), ((-5, -11), "right"),
                ((5, -21), "left"), ((5, 15), "left"), ((-5, 15), "right"), ((-5, -21), "right"))


def finish_recall_axes(ax, recalls: list[float], xlabel: str, ylabel: str, title: str) -> None:
    """The common frame of a recall-against-latency picture: recall zoomed to the points drawn
    (never past 0 or 1), latency on a log scale, grid, legend bottom right."""
    low, high = min(recalls), max(recalls)
    pad = max(0.02, 0.12 * (high - low))
    ax.set_ylim(max(0.0, low - 2 * pad), min(1.0, high) + pad)
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    ax.figure.tight_layout()


def recall_vs_latency(
    curves: Mapping[str, Sequence[tuple[str, float, float]]],
    *,
    exact_ms: float | None = None,
    title: str = "approximate search: recall against latency",
) -> Figure:
    """The trade-off of an approximate index: per curve, one ``(label, latency_ms, recall)`` per setting.

    Each curve (e.g. one data set) joins its points in the order given (e.g. growing efSearch),
    each point labelled where its label overlaps no other label; ``exact_ms`` draws exact search's
    latency as a black dotted vertical line (recall is 1 by definition), a colour and style no
    curve uses. The recall axis is zoomed to the data: the differences live near 1, and a 0-1
    axis would squash them into one band.
    """
    _check_line_count(curves, "recall_vs_latency", "curve", "curves", "{'random': [('ef=16', 0.2, 0.5)]}")
    for name, points in curves.items():
        if not points:
            raise ValueError(
                f"recall_vs_latency: curve {name!r} has no (label, latency_ms, recall) points."
            )
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
        raise ValueError(
            f"recall_vs_latency: exact_ms={exact_ms} must be a positive latency in ms."
        )
    fig, ax = plt.subplots(figsize=(6.8, 4.4))
    for (name, points), (color, marker, linestyle) in zip(curves.items(), SERIES, strict=False):
        ax.plot(
            [p[1] for p in points],
            [p[2] for p in points],
            color=color,
            marker=marker,
            linestyle=linestyle,
            label=name,
        )
    if exact_ms is not None:
        ax.axvline(
            exact_ms,
            color="black",
            linestyle=(0, (1, 1)),
            linewidth=1.5,
            label="exact search (recall 1)",
        )
    finish_recall_axes(ax, [p[2] for points in curves.values() for p in points],
                       "median latency per query (ms)", "recall@k against exact search", title)
    _place_labels(
        ax,
        [
            (label, latency, recall)
            for points in curves.values()
            for label, latency, recall in points
        ],
    )
    return fig


def recall_tradeoff(
    curves: Mapping[str, Sequence[tuple[str, float, float]]],
    *,
    measure: str,
    better: str,
    exact: tuple[str, float] | None = None,
    title: str = "approximate search: what recall costs",
) -> Figure:
    """ann-benchmarks' picture of approximate indexes: recall@k across, a cost or a speed up.

    Each curve is one index, its points ``(label, recall, value)`` in the order of its knob
    (nprobe, efSearch), each point labelled where its label overlaps no other; ``value`` is
    what ``measure`` names (vectors visited per query, queries per second), on a log axis.
    ``better`` ("lower" or "higher") is written on that axis, so the reader knows which corner
    wins. ``exact = (name, value)`` draws exact search as a black star at recall 1 with a dotted
    line across, a colour, marker and style no curve uses. The recall axis is zoomed to the
    data: the differences live near 1.
    """
    _check_line_count(
        curves, "recall_tradeoff", "curve", "curves", "{'HNSW': [('ef=16', 0.9, 150.0)]}"
    )
    if better not in ("lower", "higher"):
        raise ValueError(f"recall_tradeoff: better is 'lower' or 'higher', got {better!r}.")
    points = [(name, p) for name, pts in curves.items() for p in pts]
    for name, pts in curves.items():
        if not pts:
            raise ValueError(
                f"recall_tradeoff: curve {name!r} has no (label, recall, value) points."
            )
    for name, (label, recall, value) in points:
        if not 0.0 <= recall <= 1.0:
            raise ValueError(
                f"recall_tradeoff: point {label!r} of {name!r} has recall {recall}; "
                "recall lies in [0, 1]."
            )
        if not (math.isfinite(value) and value > 0):
            raise ValueError(
                f"recall_tradeoff: point {label!r} of {name!r} has {measure} {value}; "
                "it must be > 0 (log axis)."
            )
    if exact is not None and not (math.isfinite(exact[1]) and exact[1] > 0):
        raise ValueError(f"recall_tradeoff: exact search's {measure} {exact[1]} must be > 0.")
    fig, ax = plt.subplots(figsize=(6.8, 4.4))
    for (name, pts), (color, marker, linestyle) in zip(curves.items(), SERIES, strict=False):
        ax.plot([p[1] for p in pts], [p[2] for p in pts], color=color, marker=marker,
                linestyle=linestyle, label=name)
    if exact is not None:
        ax.axhline(exact[1], color="black", linestyle=(0, (1, 1)), linewidth=1.2)
        ax.plot([1.0], [exact[1]], marker="*", markersize=14, color="black",
                linestyle="none", label=f"exact search: {exact[0]} (recall 1)")
    recalls = [p[1] for _, p in points] + ([1.0] if exact is not None else [])
    low, high = min(recalls), max(recalls)
    pad = max(0.02, 0.08 * (high - low))
    ax.set_xlim(max(0.0, low - pad), min(1.0, high) + pad)
    ax.set_yscale("log")
    plain = FuncFormatter(lambda value, _: f"{value:,.0f}")  # 500, not 5 x 10^2
    ax.yaxis.set_minor_locator(LogLocator(subs=(2.0, 5.0)))  # 1, 2, 5, 10, 20, 50 …
    ax.yaxis.set_major_formatter(plain)
    ax.yaxis.set_minor_formatter(plain)
    ax.tick_params(axis="y", which="both", labelsize=8)
    ax.set_xlabel("recall@k against exact search")
    ax.set_ylabel(f"{measure} ({better} is better)")
    ax.set_title(title)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left" if better == "lower" else "lower left")
    fig.tight_layout()
    _place_labels(ax, [(label, recall, value) for _, (label, recall, value) in points])
    return fig


def _place_labels(ax: plt.Axes, points: Sequence[tuple[str, float, float]]) -> None:
    """Annotate each point at the first spot of _LABEL_SPOTS where it overlaps no earlier label.

    Measured with the renderer after the layout is final, so "no overlap" holds in the PNG.
    """
    renderer = ax.figure.canvas.get_renderer()
    placed: list[object] = []
    for label, x, y in points:
        for offset, ha in _LABEL_SPOTS:
            text = ax.annotate(
                label, (x, y), textcoords="offset points", xytext=offset, ha=ha, fontsize=8
            )
            box = text.get_window_extent(renderer)
            if not any(box.overlaps(other) for other in placed):
                break
            text.remove()
        else:
            text = ax.annotate(
                label, (x, y), textcoords="offset points", xytext=_LABEL_SPOTS[0][0], fontsize=8
            )
            box = text.get_window_extent(renderer)
        placed.append(box)


def swap_with_last_delete(
    rows: Sequence[Sequence[float]],
    delete: int,
    *,
    ids: Sequence[str] | None = None,
    decimals: int = 2,
    title: str = "delete by swapping with the last row",
) -> Figure:
    """The matrix before and after deleting row ``delete``: the last row moves into the hole.

    Why a picture: removing a row from the middle of a numpy matrix would copy every row below
    it (O(n)); moving the last row into the hole copies one row (O(d)), and only the moved row's
    id changes position, so the id → row map needs one update. Before: the deleted row hatched
    vermillion, the last row orange and an arrow from it to the hole. After: one row fewer, the
    moved row orange in the hole. ``ids`` label the rows (``row 0`` … by default).
    """
    matrix = [list(r) for r in rows]
    if not matrix:
        raise ValueError(
            "swap_with_last_delete: the matrix has no rows; there is nothing to delete."
        )
    if len({len(r) for r in matrix}) != 1:
        raise ValueError(
            f"swap_with_last_delete: every row must have the same length (the vector size); "
            f"got lengths {sorted({len(r) for r in matrix})}."
        )
    n = len(matrix)
    if isinstance(delete, bool) or not isinstance(delete, int) or not 0 <= delete < n:
        raise ValueError(
            f"swap_with_last_delete: delete is a row number from 0 to {n - 1}; got {delete!r}."
        )
    names = [f"row {i}" for i in range(n)] if ids is None else [str(i) for i in ids]
    if len(names) != n:
        raise ValueError(
            f"swap_with_last_delete: got {len(names)} ids for {n} rows; give one id per row."
        )
    after = list(range(n))
    after[delete] = n - 1
    after.pop()
    if delete == n - 1:
        after = list(range(n - 1))
    width = max(len(", ".join(f"{v:.{decimals}f}" for v in r)) for r in matrix) * 0.075 + 1.6
    fig, (left, right) = plt.subplots(1, 2, figsize=(2 * width + 1.2, 0.42 * n + 1.4), sharey=True)
    moved = n - 1 if delete != n - 1 else None
    for ax, order, name in (
        (left, list(range(n)), "before"),
        (right, after, f"after deleting {names[delete]}"),
    ):
        for pos, src in enumerate(order):
            if name == "before" and src == delete:
                face, hatch, edge = OKABE_ITO["vermillion"], "//", OKABE_ITO["vermillion"]
            elif src == moved:
                face, hatch, edge = OKABE_ITO["orange"], None, "black"
            else:
                face, hatch, edge = GREYS["white"], None, COLORS["muted"]
            ax.add_patch(
                Rectangle(
                    (0, pos - 0.4),
                    1,
                    0.8,
                    facecolor=face,
                    alpha=0.35 if hatch else 0.6,
                    edgecolor=edge,
                    hatch=hatch,
                    linewidth=1,
                )
            )
            ax.text(
                -0.03,
                pos,
                f"{pos}",
                ha="right",
                va="center",
                fontsize=8.5,
                color=GREYS["dark_grey"],
            )
            values = ", ".join(f"{v:.{decimals}f}" for v in matrix[src])
            ax.text(
                0.04,
                pos,
                f"{names[src]}: [{values}]",
                ha="left",
                va="center",
                fontsize=8.5,
                family="monospace",
            )
        ax.set_xlim(-0.12, 1.12)
        ax.set_ylim(n - 0.4, -0.8)
        ax.axis("off")
        ax.set_title(name, fontsize=10)
    if moved is not None:
        left.add_patch(
            FancyArrowPatch(
                (1.0, n - 1),
                (1.0, delete),
                connectionstyle="arc3,rad=-0.5",
                arrowstyle="-|>",
                mutation_scale=14,
                color=OKABE_ITO["orange"],
                linewidth=2,
            )
        )
    fig.legend(
        handles=[
            Patch(
                facecolor=OKABE_ITO["vermillion"],
                alpha=0.35,
                hatch="//",
                edgecolor=OKABE_ITO["vermillion"],
                label="deleted row",
            ),
            Patch(
                facecolor=OKABE_ITO["orange"],
                alpha=0.6,
                edgecolor="black",
                label="last row, moved into the hole",
            ),
        ],
        loc="lower center",
        ncols=2,
        fontsize=8.5,
        frameon=False,
    )
    fig.suptitle(title, fontsize=11)
    fig.subplots_adjust(bottom=0.7 / (0.42 * n + 1.4), top=1 - 0.55 / (0.42 * n + 1.4), wspace=0.25)
    return fig


def hnsw_walk(
    positions: Mapping[Hashable, Sequence[float]],
    layers: Sequence[Sequence[tuple[Hashable, Hashable]]],
    path: Sequence[tuple[int, Hashable]],
    *,
    query: Sequence[float] | None = None,
    visited: Sequence[Hashable] = (),
    title: str = "HNSW: a greedy walk down the layers",
) -> Figure:
    """A small layered graph drawn side by side, top layer first, with the search's greedy steps.

    ``positions`` is ``{node: (x, y)}`` (a 2-D toy set); ``layers[L]`` the edges of layer L
    (layer 0, at the right, holds every node); ``path`` the steps ``(layer, node)`` in the order
    the search takes them, starting at the entry point (a star). Each step within a layer must
    follow an edge of that layer, and a walk drops to the layer below from the node it reached.
    ``visited`` lists every node whose distance the search computed: on a small random set that
    is much of the graph, which is why HNSW only pays off at scale.
    """
    if not positions:
        raise ValueError("hnsw_walk: no nodes; give positions as {node: (x, y)}.")
    for node, xy in positions.items():
        if len(xy) != 2:
            raise ValueError(
                f"hnsw_walk: node {node!r} has position {list(xy)}; give 2-D (x, y) positions."
            )
    if not layers:
        raise ValueError("hnsw_walk: give at least one layer of edges (layer 0 links every node).")
    for level, edges in enumerate(layers):
        for a, b in edges:
            if a not in positions or b not in positions:
                raise ValueError(
                    f"hnsw_walk: edge {a!r} - {b!r} of layer {level} names a node with no position."
                )
    if not path:
        raise ValueError(
            "hnsw_walk: the path is empty; give the search's steps as (layer, node), entry first."
        )
    linked = [{frozenset(e) for e in edges} for edges in layers]
    for step, (level, node) in enumerate(path):
        if not (isinstance(level, int) and 0 <= level < len(layers)) or node not in positions:
            raise ValueError(
                f"hnsw_walk: step {step} is {(level, node)!r}; a step is "
                f"(layer 0..{len(layers) - 1}, "
                "a node of positions)."
            )
        if step:
            last_level, last = path[step - 1]
            if level == last_level and frozenset((last, node)) not in linked[level]:
                raise ValueError(
                    f"hnsw_walk: step {step} goes {last!r} -> {node!r}, not an edge of "
                    f"layer {level}."
                )
            if level != last_level and (level != last_level - 1 or node != last):
                raise ValueError(
                    f"hnsw_walk: step {step} drops from layer {last_level} to {level} at {node!r}; "
                    f"a walk goes down one layer at a time from the node it reached ({last!r})."
                )
    unknown = [v for v in visited if v not in positions]
    if unknown:
        raise ValueError(f"hnsw_walk: visited names nodes with no position: {unknown}.")
    if query is not None and len(query) != 2:
        raise ValueError(
            f"hnsw_walk: the query must be 2-D like the positions, got {len(query)} numbers."
        )
    xs = [float(xy[0]) for xy in positions.values()] + (
        [float(query[0])] if query is not None else []
    )
    ys = [float(xy[1]) for xy in positions.values()] + (
        [float(query[1])] if query is not None else []
    )
    pad = max(max(xs) - min(xs), max(ys) - min(ys), 1.0) * 0.12
    n_layers = len(layers)
    fig, axes = plt.subplots(1, n_layers, figsize=(3.6 * n_layers, 4.0), squeeze=False)
    panels = list(axes[0])
    seen = set(visited)
    for level in range(n_layers):
        ax = panels[n_layers - 1 - level]  # the top layer on the left: the order the search goes
        members = {n for e in layers[level] for n in e} | {n for lv, n in path if lv == level}
        if level == 0:
            members |= set(positions)
        for a, b in layers[level]:
            (xa, ya), (xb, yb) = positions[a], positions[b]
            ax.plot([xa, xb], [ya, yb], color=COLORS["muted"], linewidth=0.8, zorder=1)
        # Only the bottom layer marks the nodes the search visited; above it every node looks alike.
        hit = [n for n in members if n in seen] if level == 0 else []
        plain = [n for n in members if n not in hit]
        if plain:
            ax.scatter(
                [positions[n][0] for n in plain],
                [positions[n][1] for n in plain],
                s=40,
                color=GREYS["white"],
                edgecolors=COLORS["muted"],
                zorder=2,
            )
        if hit:
            ax.scatter(
                [positions[n][0] for n in hit],
                [positions[n][1] for n in hit],
                s=45,
                marker="s",
                color=OKABE_ITO["orange"],
                edgecolors="black",
                linewidths=0.5,
                zorder=2,
            )
        steps = [n for lv, n in path if lv == level]
        for k, (a, b) in enumerate(itertools.pairwise(steps), start=1):
            ax.add_patch(
                FancyArrowPatch(
                    tuple(positions[a]),
                    tuple(positions[b]),
                    arrowstyle="-|>",
                    mutation_scale=13,
                    color=COLORS["query"],
                    linewidth=2,
                    zorder=3,
                    shrinkA=4,
                    shrinkB=4,
                )
            )
            ax.annotate(
                str(k),
                ((positions[a][0] + positions[b][0]) / 2, (positions[a][1] + positions[b][1]) / 2),
                xytext=(3, 3),
                textcoords="offset points",
                fontsize=8,
                color=COLORS["query"],
                weight="bold",
            )
        if steps:
            start = positions[steps[0]]
            ax.scatter(
                *start,
                marker="*",
                s=200,
                color=COLORS["mine"],
                edgecolors="black",
                linewidths=0.5,
                zorder=4,
            )
        if query is not None:
            ax.scatter(*query, marker="X", s=90, color=COLORS["query"], zorder=4)
        for n in members:
            ax.annotate(
                str(n),
                positions[n],
                xytext=(4, -10),
                textcoords="offset points",
                fontsize=7.5,
                color=GREYS["dark_grey"],
            )
        role = "entry point" if level == path[0][0] else ("every node" if level == 0 else "")
        ax.set_title(
            f"layer {level}" + (f" ({role})" if role else "")
            + f": {len(steps)} node{'s' if len(steps) != 1 else ''} on the walk",
            fontsize=9.5,
        )
        ax.set_xlim(min(xs) - pad, max(xs) + pad)
        ax.set_ylim(min(ys) - pad, max(ys) + pad)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
    handles = [
        Line2D(
            [],
            [],
            marker="*",
            linestyle="none",
            markersize=12,
            color=COLORS["mine"],
            markeredgecolor="black",
            label="where the layer's walk starts",
        ),
        Line2D(
            [], [], color=COLORS["query"], linewidth=2, marker=">", label="greedy step (numbered)"
        ),
    ]
    if query is not None:
        handles.append(
            Line2D([], [], marker="X", linestyle="none", color=COLORS["query"], label="query")
        )
    if seen:
        handles.append(
            Line2D(
                [],
                [],
                marker="s",
                linestyle="none",
                color=OKABE_ITO["orange"],
                markeredgecolor="black",
                label="distance computed",
            )
        )
    fig.legend(handles=handles, loc="lower center", ncols=len(handles), fontsize=8.5, frameon=False)
    suffix = f"\n{len(seen)} of {len(positions)} nodes had their distance computed" if seen else ""
    fig.suptitle(title + suffix, fontsize=11)
    fig.subplots_adjust(bottom=0.12, top=0.8, wspace=0.08, left=0.02, right=0.98)
    return fig


def cosine_distributions(
    pairs: Mapping[str, Sequence[float]],
    nearest: Mapping[str, Sequence[float]] | None = None,
    *,
    bins: int = 60,
    title: str = "how the cosines of a data set are spread",
) -> Figure:
    """Histograms of cosine similarities, one outline per data set, with its median marked.

    Why a picture: two data sets of unit vectors can differ in what every neighbour search
    depends on - how similar two arbitrary vectors are (``pairs``: the cosines of many pairs)
    and how close each vector's nearest neighbour is (``nearest``: one cosine per vector, drawn
    in a second panel). Outlines (not filled bars) keep overlapping sets readable; each set has
    its colour and line style, and a marker of its own at its median on the x axis. Densities,
    not counts, so sets of different sizes compare.
    """
    panels = [("cosine of two random vectors of the set", pairs)]
    if nearest is not None:
        panels.append(("cosine of each vector with its nearest other vector", nearest))
    for _, data in panels:
        _check_line_count(data, "cosine_distributions", "data set", "data sets", "{'random': [0.1, -0.2]}")
    if nearest is not None and list(nearest) != list(pairs):
        raise ValueError(
            "cosine_distributions: pairs and nearest must name the same data sets in the same "
            f"order; got {list(pairs)} and {list(nearest)}."
        )
    if isinstance(bins, bool) or not isinstance(bins, int) or bins < 2:
        raise ValueError(f"cosine_distributions: bins must be a whole number >= 2; got {bins!r}.")
    checked = [{name: _cosines(name, values) for name, values in data.items()} for _, data in panels]
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 3.8), squeeze=False)
    for ax, (label, _), data in zip(axes[0], panels, checked, strict=True):
        low = min(min(v) for v in data.values())
        high = max(max(v) for v in data.values())
        pad = max(0.02, 0.03 * (high - low))
        edges = [low - pad + i * (high - low + 2 * pad) / bins for i in range(bins + 1)]
        for (name, values), (color, marker, linestyle) in zip(data.items(), SERIES, strict=False):
            ax.hist(values, bins=edges, density=True, histtype="step", color=color,
                    linestyle=linestyle, linewidth=1.8, label=name)
            ax.plot([statistics.median(values)], [0], marker=marker, color=color, markersize=9,
                    linestyle="none", clip_on=False, zorder=5, label=f"median, {name}")
        ax.set_xlabel(label)
        ax.set_ylabel("density")
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


def _cosines(name: str, values: Sequence[float]) -> list[float]:
    """The values as floats, refused unless there are some and each is a cosine in [-1, 1]."""
    numbers = [float(v) for v in values]
    if not numbers:
        raise ValueError(f"cosine_distributions: data set {name!r} has no cosines.")
    bad = [v for v in numbers if not -1.0 - 1e-6 <= v <= 1.0 + 1e-6]
    if bad:
        raise ValueError(
            f"cosine_distributions: data set {name!r} has {bad[0]!r}, which is no cosine "
            "(a cosine lies in [-1, 1]; are the vectors unit length?)."
        )
    return numbers
