"""Pictures of notebook 16: LangChain's standard suite on several stores, and int8 quantization."""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from retrieval_lab.plots._style import COLORS, GREYS, OKABE_ITO, SERIES
from retrieval_lab.plots.scaling import finish_recall_axes

#: How an outcome looks: colour and marker differ together, so the grid reads without colour.
_OUTCOMES = {
    True: (OKABE_ITO["bluish_green"], "o", "passed"),
    False: (OKABE_ITO["vermillion"], "X", "did not pass"),
}


def suite_grid(
    reports: Mapping[str, Mapping[str, bool]],
    *,
    title: str = "LangChain's standard vector-store tests, store by store",
) -> Figure:
    """One column per store, one row per standard test: a green circle passed, a red cross did not.

    ``reports`` maps a store's name to ``{test name: passed}``; every store must list the same
    tests (run the same suite on each). Rows keep the suite's order, each name without its
    ``test_`` prefix; the column heads count the passes, so the picture and a printed report can
    be compared at a glance.
    """
    if not reports:
        raise ValueError("suite_grid: no stores to draw - give {store name: {test: passed}}.")
    tests = list(next(iter(reports.values())))
    if not tests:
        raise ValueError("suite_grid: the first store lists no tests - run the suite on it first.")
    for store, outcomes in reports.items():
        if set(outcomes) != set(tests):
            missing = sorted(set(tests) - set(outcomes))
            extra = sorted(set(outcomes) - set(tests))
            raise ValueError(
                f"suite_grid: {store!r} lists other tests than the first store "
                f"(missing {missing}, extra {extra}); run the same suite on every store."
            )
    fig, ax = plt.subplots(figsize=(1.9 * len(reports) + 3.6, 0.27 * len(tests) + 1.6))
    for column, outcomes in enumerate(reports.values()):
        for row, test in enumerate(tests):
            colour, marker, _ = _OUTCOMES[bool(outcomes[test])]
            ax.plot(column, row, linestyle="none", marker=marker, markersize=9, color=colour)
    heads = [f"{store}\n{sum(map(bool, o.values()))} of {len(tests)}" for store, o in reports.items()]
    ax.set_xticks(range(len(reports)), heads, fontsize=9)
    ax.xaxis.tick_top()
    ax.set_yticks(range(len(tests)), [t.removeprefix("test_") for t in tests], fontsize=8)
    ax.set_xlim(-0.6, len(reports) - 0.4)
    ax.set_ylim(len(tests) - 0.5, -0.5)
    ax.grid(axis="y", color=GREYS["light_grey"], linewidth=0.6)
    ax.set_axisbelow(True)
    for side in ("right", "bottom", "left"):
        ax.spines[side].set_visible(False)
    handles = [
        Line2D([], [], linestyle="none", marker=marker, color=colour, markersize=9, label=label)
        for colour, marker, label in _OUTCOMES.values()
    ]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    ax.set_title(title, fontsize=11, pad=12)
    fig.tight_layout()
    return fig


def quantization_bars(
    rows: Mapping[str, tuple[float, float]],
    *,
    title: str = "what int8 quantization keeps",
) -> Figure:
    """Two panels of bars, one bar per setting: bytes stored per vector, and recall@10.

    ``rows`` maps a setting's name to ``(bytes per vector, recall@10)``. The recall axis runs from
    0 to 1 with each value written on its bar, so a small loss reads as a number, not as a
    squashed bar; the first bar is the reference (solid), the others hatched.
    """
    if not rows:
        raise ValueError("quantization_bars: no settings to draw - give {name: (bytes, recall)}.")
    for name, (size, recall) in rows.items():
        if not size > 0:
            raise ValueError(f"quantization_bars: {name!r} stores {size} bytes per vector; it must be > 0.")
        if not 0.0 <= recall <= 1.0:
            raise ValueError(f"quantization_bars: {name!r} has recall {recall}; recall lies in [0, 1].")
    names = list(rows)
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 0.55 * len(rows) + 1.6), sharey=True)
    colours = [COLORS["mine"], *[COLORS["real"]] * (len(rows) - 1)]
    hatches = [None, *["//"] * (len(rows) - 1)]
    for ax, column, label, fmt in (
        (left, 0, "bytes per vector", "{:,.0f} B"),
        (right, 1, "recall@10 against exact search", "{:.3f}"),
    ):
        values = [rows[n][column] for n in names]
        bars = ax.barh(range(len(names)), values, color=colours, edgecolor=GREYS["dark_grey"])
        for bar, hatch, value in zip(bars, hatches, values, strict=True):
            bar.set_hatch(hatch)
            ax.annotate(fmt.format(value), (value, bar.get_y() + bar.get_height() / 2),
                        xytext=(4, 0), textcoords="offset points", va="center", fontsize=9)
        ax.set_xlabel(label)
        ax.grid(axis="x", alpha=0.3)
        for side in ("right", "top"):
            ax.spines[side].set_visible(False)
    left.set_xlim(0, max(rows[n][0] for n in names) * 1.3)
    right.set_xlim(0, 1.18)
    left.set_yticks(range(len(names)), names)
    left.invert_yaxis()
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


def recall_latency_spread(
    curves: Mapping[str, list[tuple[str, list[float], float]]],
    *,
    exact: list[float] | None = None,
    title: str = "HNSW: recall@10 against latency",
) -> Figure:
    """Recall against latency with the latency's spread: each point is ``(label, times_ms, recall)``.

    A point sits at the median of its times; a horizontal bar spans their interquartile range (the
    middle half of the queries), so two settings whose bars overlap are not told apart by speed.
    ``exact`` (times of exact search) is a dotted vertical line at its median, its range shaded.
    """

    if len(curves) > len(SERIES):
        raise ValueError(f"recall_latency_spread: at most {len(SERIES)} curves fit one picture.")
    fig, ax = plt.subplots(figsize=(6.8, 4.4))
    recalls = []
    for (name, points), (color, marker, linestyle) in zip(curves.items(), SERIES, strict=False):
        if not points:
            raise ValueError(f"recall_latency_spread: curve {name!r} has no points.")
        middle, low, high = [], [], []
        for label, times, recall in points:
            if not times or min(times) <= 0 or not 0.0 <= recall <= 1.0:
                raise ValueError(f"recall_latency_spread: point {label!r} of {name!r} needs positive "
                                 f"times and a recall in [0, 1].")
            q1, q2, q3 = np.percentile(times, [25, 50, 75])
            middle.append(q2), low.append(q2 - q1), high.append(q3 - q2)
            recalls.append(recall)
            ax.annotate(label, (q2, recall), textcoords="offset points", xytext=(4, -11), fontsize=7)
        ax.errorbar(middle, [p[2] for p in points], xerr=[low, high], color=color, marker=marker,
                    linestyle=linestyle, capsize=3, label=name)
    if exact:
        q1, q2, q3 = np.percentile(exact, [25, 50, 75])
        ax.axvspan(q1, q3, color=GREYS["light_grey"], alpha=0.3, linewidth=0)
        ax.axvline(q2, color="black", linestyle=(0, (1, 1)), linewidth=1.5,
                   label="exact search (recall 1), middle half shaded")
    finish_recall_axes(ax, recalls, "latency per query (ms): median, bar = middle half of the "
                       "queries", "recall@10 against exact search", title)
    return fig
