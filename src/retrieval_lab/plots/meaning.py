"""Pictures of notebook 05 (meaning): similarity heat maps side by side."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.figure import Figure

from retrieval_lab.plots import embeddings as _embeddings
from retrieval_lab.plots._style import GREYS, OKABE_ITO

#: Similarity from 0 to 1: white through sky blue to blue, light to dark, so the order reads in
#: grey too. An odd number of levels (255), so the middle is exactly sky blue. NaN is light grey.
SEQUENTIAL = LinearSegmentedColormap.from_list(
    "okabe_ito_sequential",
    [GREYS["white"], OKABE_ITO["sky_blue"], OKABE_ITO["blue"]],
    N=255,
).with_extremes(bad=GREYS["light_grey"])


def similarity_heatmaps(
    labels: Sequence[str],
    matrices: Mapping[str, np.ndarray],
    title: str | None = None,
    **older_options: object,
) -> Figure:
    """One heat map per named square similarity matrix, side by side, values in the cells.

    ``similarity_heatmaps(labels, {"BagOfWords": S1, "MiniLM": S2})``: rows and columns follow
    ``labels``. Every panel shares one scale from 0 to 1, so two embedders compare by colour
    alone. A negative cosine (rare for a sentence model, impossible for word counts) takes the
    colour of 0, but its value is still written in its cell; NaN is drawn light grey, "n/a".

    The older call of notebook 04, ``similarity_heatmaps(panels, labels, groups=...)`` (a dict
    second argument means this form; a list means the older one), still draws its -1..1 maps.
    """
    if not isinstance(matrices, Mapping):
        return _embeddings.similarity_heatmaps(
            labels, matrices, title=title or "", **older_options
        )
    if older_options:
        raise TypeError(
            f"similarity_heatmaps: unexpected options {sorted(older_options)}; this form takes "
            "labels, a dict {name: matrix} and a title."
        )
    names, grids = _square_matrices(list(labels), matrices)
    n = len(labels)
    side = 0.55 * n + 1.6
    fig, axes = plt.subplots(
        1, len(grids), figsize=(side * len(grids) + 1.4, side + 0.6), squeeze=False,
        layout="constrained",
    )
    image = None
    for ax, name, grid in zip(axes[0], names, grids, strict=True):
        image = ax.imshow(np.ma.masked_invalid(grid), cmap=SEQUENTIAL, vmin=0.0, vmax=1.0)
        ax.set_xticks(range(n), list(labels), rotation=45, ha="right", fontsize=8.5)
        ax.set_yticks(range(n), list(labels), fontsize=8.5)
        ax.set_title(name, fontsize=10)
        for (i, j), value in np.ndenumerate(grid):
            dark = np.isfinite(value) and value > 0.6
            text = f"{value:.2f}" if np.isfinite(value) else "n/a"
            ax.text(j, i, text, ha="center", va="center", fontsize=8,
                    color=GREYS["white"] if dark else OKABE_ITO["black"])
    fig.colorbar(image, ax=list(axes[0]), shrink=0.8, label="cosine similarity")
    if title:
        fig.suptitle(title, fontsize=11)
    return fig


def _square_matrices(
    labels: list[str], matrices: Mapping[str, np.ndarray]
) -> tuple[list[str], list[np.ndarray]]:
    """Check one n×n matrix per panel (n = number of labels); return names and float arrays."""
    if not labels:
        raise ValueError("similarity_heatmaps: the list of labels is empty.")
    if not matrices:
        raise ValueError(
            "similarity_heatmaps: give matrices as a dict {name: matrix} with at least one entry."
        )
    n = len(labels)
    grids = []
    for name, matrix in matrices.items():
        try:
            grid = np.asarray(matrix, dtype=float)
        except ValueError:
            grid = np.empty(0)
        if grid.shape != (n, n):
            raise ValueError(
                f"similarity_heatmaps: matrix {name!r} must be {n}×{n} (one row and one column "
                f"per label), got shape {grid.shape if grid.size else 'ragged'}."
            )
        grids.append(grid)
    return [str(name) for name in matrices], grids
