"""Pictures of the second-stage notebook (reranking): where each reranker moves the first
relevant passage, question by question, and quality against cost across rerank depths."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from retrieval_lab.plots._style import GREYS, OKABE_ITO, SERIES

#: How a question's line looks: (colour, line style), by whether the passage rose or fell.
MOVE_STYLES = {
    "up": (OKABE_ITO["blue"], "-"),
    "down": (OKABE_ITO["vermillion"], "--"),
    "same": (GREYS["grey"], ":"),
}


def _move(before: int, after: int) -> str:
    return "up" if after < before else "down" if after > before else "same"


def rank_moves(
    moves: Mapping[str, Mapping[str, tuple[int | None, int | None]]],
    *,
    depth: int = 100,
    title: str = "where the first relevant passage moves",
) -> Figure:
    """One slope panel per reranker: for each question a line from the rank of its first
    relevant passage before reranking (left) to after (right), log scale, rank 1 on top.

    ``moves`` is ``{reranker: {question id: (before, after)}}``; a rank of None (not in the
    ``depth`` ranked) is drawn below ``depth``, at ``2 * depth``, labelled "none". Lines that rise are blue and
    solid, lines that fall vermillion and dashed, unchanged ones grey and dotted; the legend
    counts each kind.
    """
    if not isinstance(moves, Mapping) or not moves:
        raise ValueError("rank_moves: give {reranker: {question: (before, after)}}.")
    if len(moves) > 4:
        raise ValueError(f"rank_moves: at most 4 panels, got {len(moves)}.")
    floor = 2 * depth
    fig, axes = plt.subplots(1, len(moves), figsize=(3.6 * len(moves) + 0.8, 4.6),
                             squeeze=False, sharey=True)
    for ax, (name, pairs) in zip(axes[0], moves.items(), strict=True):
        if not pairs:
            raise ValueError(f"rank_moves: {name!r} has no questions.")
        counts = dict.fromkeys(MOVE_STYLES, 0)
        for question in sorted(pairs):
            before, after = pairs[question]
            b, a = before or floor, after or floor
            kind = _move(b, a)
            counts[kind] += 1
            colour, style = MOVE_STYLES[kind]
            ax.plot([0, 1], [b, a], color=colour, linestyle=style, linewidth=1.1,
                    alpha=0.75, marker="o", markersize=2.5)
        ax.set_yscale("log")
        ax.set_ylim(floor * 1.25, 0.8)
        ticks = [t for t in (1, 2, 3, 5, 10, 20, 50, 100) if t <= depth] + [floor]
        ax.set_yticks(ticks, [str(t) for t in ticks[:-1]] + ["none"])
        ax.minorticks_off()
        ax.set_xticks([0, 1], ["before", "after"])
        ax.set_xlim(-0.15, 1.15)
        ax.set_title(name)
        handles = [Line2D([], [], color=MOVE_STYLES[k][0], linestyle=MOVE_STYLES[k][1],
                          label=f"{k}: {counts[k]}") for k in MOVE_STYLES]
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=3,
                  fontsize=8, frameon=False)
    axes[0][0].set_ylabel("rank of the first relevant passage")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def _depth_of(name: str) -> tuple[str, int] | None:
    match = re.fullmatch(r"(.+)@(\d+)", name)
    return (match.group(1), int(match.group(2))) if match else None


def quality_vs_cost(
    costs: Mapping[str, float],
    quality: Mapping[str, float],
    baseline: str,
    *,
    metric: str = "nDCG@10",
    title: str = "quality against cost, by rerank depth",
) -> Figure:
    """Quality (y) against milliseconds per question (x): the ``baseline`` as one
    black point, and one line per reranker through its depths (names ``"<reranker>@<depth>"``),
    each point labelled with its depth."""
    if baseline not in costs or baseline not in quality:
        raise ValueError(f"quality_vs_cost: the baseline {baseline!r} needs a cost and a quality.")
    lines: dict[str, list[tuple[int, float, float]]] = {}
    for name, ms in costs.items():
        if name == baseline:
            continue
        parsed = _depth_of(name)
        if parsed is None or name not in quality:
            raise ValueError(f"quality_vs_cost: {name!r} is not '<reranker>@<depth>' with a quality.")
        if not (ms > 0 and math.isfinite(ms)):
            raise ValueError(f"quality_vs_cost: {name!r} costs {ms!r} ms; give a positive number.")
        lines.setdefault(parsed[0], []).append((parsed[1], ms, quality[name]))
    if len(lines) > len(SERIES):
        raise ValueError(f"quality_vs_cost: at most {len(SERIES)} rerankers, got {len(lines)}.")
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    ax.plot([costs[baseline]], [quality[baseline]], marker="*", markersize=13, linestyle="",
            color=OKABE_ITO["black"], label=f"{baseline} (first stage)")
    for (name, points), (colour, marker, style) in zip(sorted(lines.items()), SERIES,
                                                       strict=False):
        points.sort()
        ax.plot([p[1] for p in points], [p[2] for p in points], color=colour, marker=marker,
                linestyle=style, label=name)
        for depth, ms, value in points:
            ax.annotate(str(depth), (ms, value), textcoords="offset points", xytext=(4, 4),
                        fontsize=8, color=GREYS["dark_grey"])
    ax.set_xlim(left=0)
    ax.set_xlabel("milliseconds per question (first stage included)")
    ax.set_ylabel(metric)
    ax.grid(True, color=GREYS["light_grey"], linewidth=0.6)
    ax.legend(fontsize=8, frameon=False, loc="lower right")
    ax.set_title(title)
    fig.tight_layout()
    return fig


__all__ = ["MOVE_STYLES", "quality_vs_cost", "rank_moves"]
