"""Pictures of notebook 14 (measuring retrieval): metrics against k, per-question wins and
losses, the chunk-size × overlap grid, precision and recall against a score threshold."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from retrieval_lab.plots._style import COLORS, GREYS, OKABE_ITO, SERIES

#: Scores from 0 to 1, light to dark (white, sky blue, blue), so the order reads in grey too.
#: Cells with no value (an overlap as long as the chunk) are light grey.
QUALITY_SCALE = LinearSegmentedColormap.from_list(
    "okabe_ito_quality", [GREYS["white"], OKABE_ITO["sky_blue"], OKABE_ITO["blue"]], N=255
).with_extremes(bad=GREYS["light_grey"])


def _series(what: str, series: Mapping[str, Sequence[float]], length: int) -> None:
    if not isinstance(series, Mapping) or not series:
        raise ValueError(f"{what}: give a dict {{name: values}} with at least one entry.")
    if len(series) > len(SERIES):
        raise ValueError(f"{what}: at most {len(SERIES)} lines, got {len(series)}.")
    for name, values in series.items():
        if len(values) != length:
            raise ValueError(
                f"{what}: {name!r} has {len(values)} values for {length} points on the x axis."
            )


def at_k_curves(
    ks: Sequence[int],
    panels: Mapping[str, Mapping[str, Sequence[float]]],
    *,
    title: str = "the more passages you keep, the more answers you find",
) -> Figure:
    """One panel per metric (``{"hit rate": {...}, "recall": {...}}``), one line per retriever.

    Each line has its own colour, marker and line style (``SERIES``), in the order of the dict,
    and the same retriever looks the same in every panel. The y axis runs from 0 to 1.
    """
    if not ks or list(ks) != sorted(set(ks)):
        raise ValueError("at_k_curves: ks must be increasing cut-offs, e.g. [1, 2, 3, 5, 10].")
    if not isinstance(panels, Mapping) or not panels:
        raise ValueError("at_k_curves: give panels as {metric: {retriever: values}}.")
    names = list(next(iter(panels.values())))
    fig, axes = plt.subplots(1, len(panels), figsize=(4.6 * len(panels) + 1.2, 3.9),
                             squeeze=False, sharey=True)
    for ax, (metric, curves) in zip(axes[0], panels.items(), strict=True):
        _series(f"at_k_curves panel {metric!r}", curves, len(ks))
        if list(curves) != names:
            raise ValueError("at_k_curves: every panel must name the same retrievers, in order.")
        for (name, values), (colour, marker, style) in zip(curves.items(), SERIES, strict=False):
            ax.plot(list(ks), list(values), color=colour, marker=marker, linestyle=style,
                    label=name, markersize=5)
        ax.set_xlabel("k (passages kept)")
        ax.set_title(f"{metric}@k", fontsize=10)
        ax.set_ylim(0, 1.02)
        ax.set_xticks(list(ks))
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("mean over the questions")
    axes[0][-1].legend(loc="lower right", fontsize=8)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


def wins_and_losses(
    differences: Mapping[str, float],
    names: tuple[str, str],
    *,
    metric: str = "recall@5",
) -> Figure:
    """Per question, ``a - b`` of one metric: a bar up where ``a`` did better, down where ``b``.

    Bars are sorted from ``a``'s biggest win to ``b``'s, equal differences by question id, so the
    picture never depends on an order of ties. ``a``'s wins are blue, ``b``'s orange and hatched;
    questions where both scored the same are counted in the title, not drawn.
    """
    if not isinstance(differences, Mapping) or not differences:
        raise ValueError("wins_and_losses: give {question id: a - b} for at least one question.")
    if len(names) != 2:
        raise ValueError("wins_and_losses: names is the pair (a, b) the differences compare.")
    bad = [q for q, d in differences.items() if not math.isfinite(d)]
    if bad:
        raise ValueError(f"wins_and_losses: differences of {bad[:3]} are not finite numbers.")
    a, b = names
    moved = sorted(((-d, q) for q, d in differences.items() if d != 0))
    ties = len(differences) - len(moved)
    fig, ax = plt.subplots(figsize=(max(5.0, 0.16 * len(moved) + 2.5), 3.6))
    for x, (neg, _) in enumerate(moved):
        win = neg < 0
        ax.bar(x, -neg, width=0.8, color=COLORS["mine"] if win else COLORS["real"],
               hatch=None if win else "//", edgecolor="black", linewidth=0.4)
    wins = sum(1 for neg, _ in moved if neg < 0)
    ax.axhline(0, color=OKABE_ITO["black"], linewidth=0.8)
    ax.set_xticks([])
    ax.set_xlabel(f"questions where they differ ({len(moved)}), sorted")
    ax.set_ylabel(f"{metric}: {a} − {b}")
    ax.set_ylim(-1.05, 1.05)
    ax.legend(
        handles=[
            Patch(facecolor=COLORS["mine"], edgecolor="black", label=f"{a} better ({wins})"),
            Patch(facecolor=COLORS["real"], hatch="//", edgecolor="black",
                  label=f"{b} better ({len(moved) - wins})"),
        ],
        loc="upper right", fontsize=8,
    )
    ax.set_title(f"{a} against {b}, question by question ({ties} equal, not drawn)",
                 fontsize=10)
    fig.tight_layout()
    return fig


def chunking_heatmap(
    sizes: Sequence[int],
    overlaps: Sequence[int],
    panels: Mapping[str, Sequence[Sequence[float]]],
    *,
    title: str = "how the chunks are cut changes what is found",
) -> Figure:
    """One heat map per metric: rows are chunk overlaps, columns chunk sizes, values written in.

    ``panels[name][i][j]`` is the value for ``overlaps[i]`` and ``sizes[j]``; NaN (an overlap
    the splitter refuses, not smaller than the size) is light grey and reads "n/a". Every panel
    shares one 0-1 scale.
    """
    if not sizes or not overlaps:
        raise ValueError("chunking_heatmap: give at least one chunk size and one overlap.")
    if not isinstance(panels, Mapping) or not panels:
        raise ValueError("chunking_heatmap: give panels as {metric: grid}.")
    fig, axes = plt.subplots(1, len(panels), figsize=(0.9 * len(sizes) * len(panels) + 2.6,
                             0.55 * len(overlaps) + 2.0), squeeze=False, layout="constrained")
    image = None
    for ax, (name, grid) in zip(axes[0], panels.items(), strict=True):
        values = np.asarray(grid, dtype=float)
        if values.shape != (len(overlaps), len(sizes)):
            raise ValueError(
                f"chunking_heatmap: panel {name!r} is {values.shape}, expected one row per "
                f"overlap and one column per size: ({len(overlaps)}, {len(sizes)})."
            )
        image = ax.imshow(np.ma.masked_invalid(values), cmap=QUALITY_SCALE, vmin=0, vmax=1,
                          aspect="auto")
        for (i, j), value in np.ndenumerate(values):
            dark = math.isfinite(value) and value > 0.6
            ax.text(j, i, f"{value:.2f}" if math.isfinite(value) else "n/a", ha="center",
                    va="center", fontsize=8.5,
                    color=GREYS["white"] if dark else OKABE_ITO["black"])
        ax.set_xticks(range(len(sizes)), [str(s) for s in sizes])
        ax.set_yticks(range(len(overlaps)), [str(o) for o in overlaps])
        ax.set_xlabel("chunk_size (characters)")
        ax.set_title(name, fontsize=10)
    axes[0][0].set_ylabel("chunk_overlap")
    fig.colorbar(image, ax=list(axes[0]), shrink=0.85, label="mean over the questions")
    fig.suptitle(title, fontsize=11)
    return fig


def threshold_curves(
    thresholds: Sequence[float],
    series: Mapping[str, Sequence[float]],
    *,
    title: str = "a higher threshold returns less: purer, but it misses more",
    chosen: float | None = None,
) -> Figure:
    """Lines against the score threshold (e.g. precision, recall, unanswerable left empty).

    Each line has its own colour, marker and line style; ``chosen`` draws a dotted grey vertical
    line at one threshold, labelled with its value.
    """
    if not thresholds or list(thresholds) != sorted(set(thresholds)):
        raise ValueError("threshold_curves: thresholds must be increasing, e.g. [0.2, 0.3, 0.4].")
    _series("threshold_curves", series, len(thresholds))
    fig, ax = plt.subplots(figsize=(6.4, 3.9))
    for (name, values), (colour, marker, style) in zip(series.items(), SERIES, strict=False):
        ax.plot(list(thresholds), list(values), color=colour, marker=marker, linestyle=style,
                label=name, markersize=5)
    if chosen is not None:
        ax.axvline(chosen, color=GREYS["dark_grey"], linestyle=":", linewidth=1.2)
        ax.text(chosen, 1.04, f"{chosen:g}", ha="center", fontsize=8.5,
                color=GREYS["dark_grey"])
    ax.set_xlabel("score_threshold (cosine)")
    ax.set_ylabel("share")
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8.5)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig
