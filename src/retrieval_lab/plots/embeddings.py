"""Pictures of notebook 04: vectors as arrows, similarity heat maps."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.patches import Arc, FancyArrowPatch

from retrieval_lab.plots._style import (
    COLORS,
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
