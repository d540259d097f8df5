"""How far apart are a question's cosines with passages that answer it and with the rest?"""

from __future__ import annotations

import math
from collections.abc import Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from retrieval_lab.plots._style import COLORS, OKABE_ITO


def hits_and_non_hits(
    hits: Sequence[float],
    non_hits: Sequence[float],
    *,
    marks: dict[str, float] | None = None,
    bins: int = 40,
) -> Figure:
    """Two histograms of question-passage cosines: passages judged relevant (``hits``) and
    all the others (``non_hits``), each as a share of its own group so both are visible,
    with vertical lines at ``marks`` ({label: cosine}).

    Hits are blue bars; non-hits an orange hatched outline; the marks black dashed lines,
    labelled, so no colour alone tells them apart.
    """
    hits, non_hits = np.asarray(hits, dtype=float), np.asarray(non_hits, dtype=float)
    if hits.size == 0 or non_hits.size == 0:
        raise ValueError("hits_and_non_hits: give at least one cosine in each group.")
    if not (np.isfinite(hits).all() and np.isfinite(non_hits).all()):
        raise ValueError("hits_and_non_hits: every cosine must be a finite number.")
    low = math.floor(min(hits.min(), non_hits.min()) * 10) / 10
    high = math.ceil(max(hits.max(), non_hits.max()) * 10) / 10
    edges = np.linspace(low, high, bins + 1)
    fig, ax = plt.subplots(figsize=(7.0, 3.8))
    for values, label, style in (
        (non_hits, f"other passages ({non_hits.size:,})",
         dict(histtype="step", hatch="//", color=COLORS["real"], linewidth=1.4)),
        (hits, f"passages that answer ({hits.size:,})",
         dict(histtype="stepfilled", color=COLORS["mine"], alpha=0.75)),
    ):
        weights = np.full(values.size, 1 / values.size)
        ax.hist(values, bins=edges, weights=weights, label=label, **style)
    for n, (label, x) in enumerate((marks or {}).items()):
        ax.axvline(x, color=OKABE_ITO["black"], linestyle="--", linewidth=1)
        ax.annotate(label, (x, 0.94 - 0.1 * n), xycoords=("data", "axes fraction"),
                    xytext=(4, 0), textcoords="offset points", fontsize=8)
    ax.set_xlabel("cosine of the question with the passage (MiniLM)")
    ax.set_ylabel("share of the group")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize=8,
              frameon=False)
    ax.set_title("Question-passage cosines: passages that answer against the others",
                 fontsize=10)
    fig.tight_layout()
    return fig
