"""Pictures of notebook 04: vectors as arrows, the zero vector, similarity heat maps."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.patches import Arc, FancyArrowPatch

from retrieval_lab.plots._style import (
    COLORS,
    DIVERGING,
    GREYS,
    _check_known_ids,
    _plane_points,
)


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
    # Arcs stay inside the shortest arrow they measure, so no arc reaches a label at an arrow's tip.
    n_arcs = sum(1 for xy in groups if q is not None and _cosine_2d(xy, q) is not None)
    lengths = [math.hypot(*xy) for xy in groups if xy != (0.0, 0.0)]
    shortest = min([*lengths, (hi - lo) * 0.12 * 1.7])
    arc_unit = min((hi - lo) * 0.12, 0.7 * shortest / (1 + 0.35 * max(n_arcs - 1, 0)))
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
        offset, ha, va = _outward(xy)
        ax.annotate(label, xy, xytext=offset, textcoords="offset points", fontsize=8.5, ha=ha,
                    va=va, color=color if picked else GREYS["dark_grey"],
                    weight="bold" if picked else "normal")
        if show_angles and q is not None and _cosine_2d(xy, q) is not None:
            _angle_arc(ax, q, xy, radius=arc_unit * (1 + 0.35 * len(_arcs_drawn(ax))))
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
    # room for the labels beyond the tips
    return _count_plane(fig, ax, axis_labels, title, (lo, hi + (hi - lo) * 0.3), (lo, hi + (hi - lo) * 0.1))


def _outward(xy: tuple[float, float]) -> tuple[tuple[float, float], str, str]:
    """Offset (points) and alignment that put a label just beyond an arrow's tip.

    A label beyond the tip lies outside every arc (arcs sit closer to the origin than any tip),
    whatever the number of lines in the label.
    """
    norm = math.hypot(*xy)
    ux, uy = (xy[0] / norm, xy[1] / norm) if norm else (0.7, 0.7)
    ha = "left" if ux > 0.3 else ("right" if ux < -0.3 else "center")
    va = "bottom" if uy > 0.3 else ("top" if uy < -0.3 else "center")
    return (8 * ux + (4 if ha == "center" else 0), 8 * uy), ha, va


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
    order: Sequence[int] | None = None,
    groups: Sequence[str] | None = None,
) -> Figure:
    """Pairwise similarity matrices side by side, on one colour scale from -1 to 1.

    One panel per ``{name: n×n matrix}``, rows and columns in ``labels`` order. The scale is fixed
    (cosine lies in [-1, 1]) so two embedders can be compared by colour alone: blocks of warm cells
    mean the embedder sees groups; a speckle means it sees noise. Blocks only show when documents of
    one topic sit next to each other: ``groups`` gives each label its topic (in ``labels`` order);
    the rows are then sorted by topic, in order of first appearance, and a line drawn between
    topics. ``order`` (a permutation of row numbers) sets the order by hand instead. A NaN cell
    (an undefined cosine, e.g. of a zero vector) is drawn light grey and marked "n/a".
    """
    if not isinstance(panels, Mapping) or not panels:
        raise ValueError(
            "similarity_heatmaps: give panels as a dict {name: matrix} with at least one entry."
        )
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
    topics = None
    if groups is not None:
        topics = [str(g) for g in groups]
        if len(topics) != n:
            raise ValueError(
                f"similarity_heatmaps: got {len(topics)} groups for {n} labels; give one topic per "
                "label, in the labels' order."
            )
    if order is None:
        first_seen = {t: i for i, t in reversed(list(enumerate(topics or [])))}
        order = sorted(range(n), key=lambda i: first_seen[topics[i]]) if topics else list(range(n))
    else:
        order = list(order)
        if sorted(order) != list(range(n)) or any(isinstance(i, bool) for i in order):
            raise ValueError(
                f"similarity_heatmaps: order must list each row number 0..{n - 1} once; "
                f"got {order}."
            )
    labels = [labels[i] for i in order]
    matrices = {
        name: [[rows[i][j] for j in order] for i in order] for name, rows in matrices.items()
    }
    bounds = []
    if topics:
        ordered_topics = [topics[i] for i in order]
        bounds = [k for k in range(1, n) if ordered_topics[k] != ordered_topics[k - 1]]
    fig, axes = plt.subplots(
        1,
        len(matrices),
        figsize=(4.4 * len(matrices) + 1.2, 0.42 * n + 2.2),
        squeeze=False,
        layout="constrained",
    )
    image = None
    for ax, (name, rows) in zip(axes[0], matrices.items(), strict=True):
        image = ax.imshow(
            rows, cmap=DIVERGING, vmin=-1, vmax=1
        )  # NaN cells are masked: drawn light grey
        ax.set_xticks(range(n), labels, rotation=45, ha="right", fontsize=8.5)
        ax.set_yticks(range(n), labels, fontsize=8.5)
        ax.set_title(name, fontsize=10)
        for k in bounds:
            ax.axhline(k - 0.5, color="black", linewidth=1.5)
            ax.axvline(k - 0.5, color="black", linewidth=1.5)
        if annotate:
            for i, row in enumerate(rows):
                for j, v in enumerate(row):
                    text = "n/a" if v != v else f"{v:.2f}".replace("-0.00", "0.00")
                    ax.text(
                        j,
                        i,
                        text,
                        ha="center",
                        va="center",
                        fontsize=7.5,
                        color="white" if v == v and v < -0.6 else "black",
                    )
    fig.colorbar(image, ax=list(axes[0]), shrink=0.8, label="cosine similarity")
    if title:
        fig.suptitle(title, fontsize=11)
    return fig


def zero_vector_plot(
    vectors: Mapping[str, Sequence[float]],
    *,
    axis_labels: Sequence[str] = ("cat", "dog"),
    title: str = "the zero vector: a point with no direction",
) -> Figure:
    """Vectors of a two-word vocabulary as arrows, and every zero vector as a hollow point.

    A text with no vocabulary word embeds to (0, 0): it has a length of 0 and no direction, so
    there is no arrow to draw and no angle to any other arrow - which is why its cosine is
    undefined (0 / 0) and a store that divides by the norm returns NaN.
    """
    plane = _plane_points(vectors, "zero_vector_plot")
    if len(axis_labels) != 2:
        raise ValueError(
            "zero_vector_plot: give two axis labels (the two vocabulary words), "
            f"got {list(axis_labels)}."
        )
    zeros = [name for name, xy in plane.items() if xy == (0.0, 0.0)]
    if not zeros:
        raise ValueError(
            "zero_vector_plot: no vector is (0, 0); embed a text with none of the vocabulary's "
            "words, e.g. 'hello', to get one."
        )
    fig, ax = plt.subplots(figsize=(5.2, 4.8))
    reach = max([abs(v) for xy in plane.values() for v in xy] + [1.0]) * 1.3
    for name, xy in plane.items():
        if xy == (0.0, 0.0):
            continue
        ax.add_patch(
            FancyArrowPatch(
                (0, 0),
                xy,
                arrowstyle="-|>",
                mutation_scale=14,
                linewidth=2,
                color=COLORS["mine"],
                zorder=2,
            )
        )
        offset, ha, va = _outward(xy)
        ax.annotate(name, xy, xytext=offset, textcoords="offset points", ha=ha, va=va, fontsize=9)
    ax.scatter(
        [0],
        [0],
        s=110,
        facecolors=GREYS["white"],
        edgecolors=COLORS["query"],
        linewidths=2.2,
        zorder=4,
    )
    ax.annotate(
        " = ".join(zeros) + ": zero vector\nno arrow, no angle, cos undefined",
        (0, 0),
        xytext=(10, -8),
        textcoords="offset points",
        ha="left",
        va="top",
        fontsize=9,
        color=COLORS["query"],
        weight="bold",
    )
    return _count_plane(fig, ax, axis_labels, title, (-0.35 * reach, reach), (-0.35 * reach, reach))


def _count_plane(fig, ax, axis_labels, title: str, xlim: tuple[float, float], ylim: tuple[float, float]):
    """Finish a plane of two word counts: axes through 0, equal scale, labels, grid, title."""
    ax.axhline(0, color="black", linewidth=0.6)
    ax.axvline(0, color="black", linewidth=0.6)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal")
    ax.set_xlabel(f"count of '{axis_labels[0]}'")
    ax.set_ylabel(f"count of '{axis_labels[1]}'")
    ax.set_title(title, fontsize=11)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig
