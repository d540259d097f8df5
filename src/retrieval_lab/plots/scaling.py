"""Pictures of notebook 10: latency against store size, recall against latency."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from retrieval_lab.plots._style import (
    COLORS,
    _check_positive_series,
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
