"""Pictures of notebook 09's BM25 tuning: a k1 x b grid of a retrieval metric."""

from __future__ import annotations

import math
from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from retrieval_lab.plots._style import GREYS, OKABE_ITO
from retrieval_lab.plots.quality import QUALITY_SCALE


def k1_b_heatmap(
    k1s: Sequence[float],
    bs: Sequence[float],
    grid: Sequence[Sequence[float]],
    *,
    chosen: tuple[float, float] | None = None,
    metric: str = "hit rate@5",
    title: str = "BM25's two knobs, measured",
) -> Figure:
    """A heat map of ``grid[i][j]``, the metric at ``k1s[i]`` and ``bs[j]``, values written in.

    One colour-blind-safe sequential scale (the course's quality scale), the numbers printed in
    every cell so the colour is never needed to read it; ``chosen`` is outlined in black and
    named in the title.
    """
    values = np.asarray(grid, dtype=float)
    if not len(k1s) or not len(bs):
        raise ValueError("k1_b_heatmap: give at least one k1 and one b.")
    if values.shape != (len(k1s), len(bs)):
        raise ValueError(
            f"k1_b_heatmap: the grid is {values.shape}, expected one row per k1 and one "
            f"column per b: ({len(k1s)}, {len(bs)})."
        )
    low, high = float(np.nanmin(values)), float(np.nanmax(values))
    fig, ax = plt.subplots(figsize=(0.8 * len(bs) + 2.8, 0.5 * len(k1s) + 1.8),
                           layout="constrained")
    image = ax.imshow(values, cmap=QUALITY_SCALE, vmin=low, vmax=max(high, low + 1e-9),
                      aspect="auto")
    middle = (low + high) / 2
    for (i, j), value in np.ndenumerate(values):
        dark = math.isfinite(value) and value > middle
        ax.text(j, i, f"{value:.3f}", ha="center", va="center", fontsize=8.5,
                color=GREYS["white"] if dark else OKABE_ITO["black"])
    if chosen is not None:
        k1, b = chosen
        if k1 not in list(k1s) or b not in list(bs):
            raise ValueError(f"k1_b_heatmap: chosen {chosen} is not on the grid.")
        i, j = list(k1s).index(k1), list(bs).index(b)
        ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False,
                               edgecolor=OKABE_ITO["black"], linewidth=2.5))
        title = f"{title} (outlined: k1={k1}, b={b})"
    ax.set_xticks(range(len(bs)), [f"{b:g}" for b in bs])
    ax.set_yticks(range(len(k1s)), [f"{k:g}" for k in k1s])
    ax.set_xlabel("b (how much long passages pay)")
    ax.set_ylabel("k1 (how fast repeats saturate)")
    ax.set_title(title, fontsize=10)
    fig.colorbar(image, ax=ax, shrink=0.85, label=metric)
    return fig
