"""Pictures of notebook 00: the pipeline and its scores."""

from __future__ import annotations

from collections.abc import Sequence

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Patch

from retrieval_lab.plots._style import (
    COLORS,
    GREYS,
    _check_same_length,
)


def score_bars(
    labels: Sequence[str],
    scores: Sequence[float],
    *,
    title: str = "cosine similarity to the query",
    highlight: int = 0,
    answer: str | None = None,
    ax: plt.Axes | None = None,
) -> Figure:
    """Horizontal bars of cosine scores, best at the top, the ``highlight`` best in colour.

    The ``highlight`` best are what a search with ``k=highlight`` returns: they are coloured, a
    dashed line cuts them from the rest (so the cut does not rest on colour alone) and the legend
    says so. The axis spans -1..1 when a score is negative; when none is, it starts at 0, because
    an empty half axis squeezes the differences a learner should see.
    ``answer`` names the label that really answers the question: its bar is hatched and its
    label bold wherever it ranks, so a reader sees at once whether the search found it. Pass
    ``ax`` to draw into a panel of a larger figure (e.g. two embedders side by side).
    """
    _check_same_length(labels, scores, "score_bars")
    if isinstance(highlight, bool) or not isinstance(highlight, int) or highlight < 0:
        raise ValueError(
            f"score_bars: highlight is how many of the best are returned (k), a whole number "
            f">= 0; got {highlight!r}."
        )
    if answer is not None and answer not in labels:
        raise ValueError(
            f"score_bars: the answer {answer!r} is not among the labels {list(labels)}; "
            "pass the label of the document that answers the question."
        )
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    if ax is None:
        fig, ax = plt.subplots(figsize=(6.4, 0.45 * len(labels) + 1.5))
    else:
        fig = ax.figure
    ys = list(range(len(order)))[::-1]
    for rank, (y, i) in enumerate(zip(ys, order, strict=True)):
        color = COLORS["mine"] if rank < highlight else COLORS["muted"]
        hatched = labels[i] == answer
        ax.barh(y, scores[i], color=color, hatch="//" if hatched else None,
                edgecolor=GREYS["white"] if hatched else None)
        ax.text(
            scores[i] + (0.02 if scores[i] >= 0 else -0.02),
            y,
            f"{scores[i]:.3f}",
            va="center",
            ha="left" if scores[i] >= 0 else "right",
            fontsize=9,
        )
    ax.set_yticks(ys, [labels[i] for i in order])
    for tick in ax.get_yticklabels():
        if tick.get_text() == answer:
            tick.set_fontweight("bold")
    low = -1.05 if min(scores) < 0 else 0.0
    ax.set_xlim(low, max(1.0, max(scores)) + 0.25)
    ax.axvline(0, color="black", linewidth=0.8)
    handles = []
    if 0 < highlight:
        handles.append(Patch(color=COLORS["mine"], label=f"returned with k={highlight}"))
    if highlight < len(scores):
        handles.append(Patch(color=COLORS["muted"], label="not returned"))
    if 0 < highlight < len(scores):
        cut = ys[highlight - 1] - 0.5
        ax.axhline(cut, color="black", linestyle="--", linewidth=1, label=f"k={highlight} cut")
        handles.append(ax.get_lines()[-1])
    if answer is not None:
        handles.append(Patch(facecolor=GREYS["white"], edgecolor=GREYS["dark_grey"], hatch="//",
                             label=f"the answer: {answer}"))
    if highlight or answer is not None:
        ax.legend(
            handles=handles,
            loc="upper center",
            bbox_to_anchor=(0.5, -0.2 - 0.3 / len(labels)),
            ncols=len(handles) if len(handles) <= 3 else 2,
            fontsize=8.5,
            frameon=False,
        )
    ax.set_xlabel("cosine similarity")
    ax.set_title(title)
    if len(fig.axes) == 1:
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
                                    facecolor=GREYS["white"], edgecolor=COLORS["mine"],
                                    linewidth=1.5))
        ax.text(x + 1.2, 1.7, stage, ha="center", va="center", fontsize=12, weight="bold")
        ax.text(x + 1.2, 1.25, cls, ha="center", va="center", fontsize=8.5, family="monospace")
        ax.text(x + 1.2, 0.45, output, ha="center", va="center", fontsize=8.5,
                family="monospace", color=GREYS["dark_grey"])
        if i + 1 < len(steps):
            ax.add_patch(FancyArrowPatch((x + 2.45, 1.45), (x + 3.15, 1.45),
                                         arrowstyle="-|>", mutation_scale=16, color="black"))
    fig.tight_layout()
    return fig
