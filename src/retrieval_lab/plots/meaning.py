"""Pictures of notebook 05 (meaning): attention weights, sentences on a plane.

Its similarity heat maps are ``plots.embeddings.similarity_heatmaps``, the one 04 draws too.
"""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.figure import Figure

from retrieval_lab.plots._style import GREYS, OKABE_ITO, SERIES

#: Similarity from 0 to 1: white through sky blue to blue, light to dark, so the order reads in
#: grey too. An odd number of levels (255), so the middle is exactly sky blue. NaN is light grey.
SEQUENTIAL = LinearSegmentedColormap.from_list(
    "okabe_ito_sequential",
    [GREYS["white"], OKABE_ITO["sky_blue"], OKABE_ITO["blue"]],
    N=255,
).with_extremes(bad=GREYS["light_grey"])


def attention_heatmap(
    tokens: Sequence[str],
    weights: np.ndarray,
    title: str | None = None,
    highlight: tuple[int, int] | None = None,
) -> Figure:
    """Attention weights of one head (or an average of heads): row i is how token i mixes
    every token j, so each row sums to 1.

    ``tokens`` label both axes (rows: the token that looks; columns: the tokens it looks at).
    ``highlight=(i, j)`` outlines one cell, e.g. where "it" looks at "cat", and writes its weight.
    The scale runs from 0 to the largest weight, on the sequential palette.
    """
    tokens = [str(t) for t in tokens]
    grid = np.asarray(weights, dtype=float)
    n = len(tokens)
    if not tokens:
        raise ValueError("attention_heatmap: the list of tokens is empty.")
    if grid.shape != (n, n):
        raise ValueError(
            f"attention_heatmap: weights must be {n}×{n} (one row and one column per token), got "
            f"shape {grid.shape}; pass one head, e.g. weights[text, head], not the whole array."
        )
    if highlight is not None and not all(0 <= k < n for k in highlight):
        raise ValueError(f"attention_heatmap: highlight {highlight} is outside the {n} tokens.")
    side = 0.42 * n + 2.0
    fig, ax = plt.subplots(figsize=(side + 1.2, side), layout="constrained")
    image = ax.imshow(grid, cmap=SEQUENTIAL, vmin=0.0, vmax=max(float(grid.max()), 1e-9))
    ax.set_xticks(range(n), tokens, rotation=60, ha="right", fontsize=9)
    ax.set_yticks(range(n), tokens, fontsize=9)
    ax.set_xlabel("looked at (key)")
    ax.set_ylabel("looking (query)")
    if highlight is not None:
        i, j = highlight
        ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, linewidth=2.5,
                                   edgecolor=OKABE_ITO["vermillion"]))
        ax.annotate(f"{grid[i, j]:.2f}", (j, i), xytext=(j + 1.2, i - 0.9), fontsize=9,
                    color=OKABE_ITO["vermillion"], weight="bold",
                    arrowprops={"arrowstyle": "-", "color": OKABE_ITO["vermillion"]})
    fig.colorbar(image, ax=ax, shrink=0.8, label="attention weight (each row sums to 1)")
    if title:
        ax.set_title(title, fontsize=11)
    return fig


def topic_scatter(
    points: np.ndarray,
    topics: Sequence[str],
    labels: Sequence[str] | None = None,
    title: str | None = None,
    axis_labels: tuple[str, str] = ("component 1", "component 2"),
) -> Figure:
    """Texts as points on a plane (e.g. their first two principal components), one colour and
    one marker per topic, with a legend; ``labels`` writes a short name beside each point.
    """
    xy = np.asarray(points, dtype=float)
    topics = [str(t) for t in topics]
    if xy.ndim != 2 or xy.shape[1] != 2 or not len(xy):
        raise ValueError(
            f"topic_scatter: points must be an (n, 2) array, one row per text, got shape "
            f"{xy.shape}; project the vectors to two numbers first."
        )
    if len(topics) != len(xy):
        raise ValueError(
            f"topic_scatter: got {len(topics)} topics for {len(xy)} points; give one per point."
        )
    if labels is not None and len(labels) != len(xy):
        raise ValueError(
            f"topic_scatter: got {len(labels)} labels for {len(xy)} points; give one per point."
        )
    order = list(dict.fromkeys(topics))
    if len(order) > len(SERIES):
        raise ValueError(
            f"topic_scatter: {len(order)} topics, but only {len(SERIES)} colour and marker pairs."
        )
    fig, ax = plt.subplots(figsize=(7.2, 5.6), layout="constrained")
    for topic, (color, marker, _) in zip(order, SERIES, strict=False):
        rows = [k for k, t in enumerate(topics) if t == topic]
        ax.scatter(xy[rows, 0], xy[rows, 1], s=70, color=color, marker=marker, label=topic,
                   edgecolors=OKABE_ITO["black"], linewidths=0.5, zorder=3)
    for k, label in enumerate(labels or []):
        ax.annotate(str(label), xy[k], xytext=(5, 4), textcoords="offset points", fontsize=7.5,
                    color=GREYS["dark_grey"])
    ax.axhline(0, color=GREYS["light_grey"], linewidth=0.8, zorder=1)
    ax.axvline(0, color=GREYS["light_grey"], linewidth=0.8, zorder=1)
    ax.set_xlabel(axis_labels[0])
    ax.set_ylabel(axis_labels[1])
    ax.legend(title="topic", fontsize=9, loc="best")
    if title:
        ax.set_title(title, fontsize=11)
    return fig
