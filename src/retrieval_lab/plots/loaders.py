"""Pictures of notebook 02: the blob pipeline, and eager against lazy loading."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from retrieval_lab.plots._style import COLORS, GREYS, SERIES

#: The blob pipeline: (what it is, its class, what a learner calls on it).
BLOB_STEPS = (
    ("files", "BlobLoader", "yield_blobs()"),
    ("raw bytes + source", "Blob", "as_string() / as_bytes()"),
    ("parse", "BaseBlobParser", "lazy_parse(blob)"),
    ("text + metadata", "Document", "page_content, metadata"),
)


def blob_pipeline_diagram(
    steps: Sequence[tuple[str, str, str]] = BLOB_STEPS,
    *,
    title: str = "loading in two halves: where the bytes come from, and what they mean",
) -> Figure:
    """BlobLoader → Blob → BaseBlobParser → Document, as boxes and arrows.

    Why two halves: a ``BlobLoader`` only finds bytes (files, a bucket, a zip) and a
    ``BaseBlobParser`` only interprets them, so any source combines with any format. Loaders
    (classes that make data) are drawn with a solid blue edge, the data that flows (``Blob``,
    ``Document``) with a dashed orange edge, so the two kinds differ without colour. ``steps`` is
    ``(role, class, call)`` per box, the default the four of langchain-core.
    """
    steps = list(steps)
    if not steps or any(len(step) != 3 for step in steps):
        raise ValueError(
            "blob_pipeline_diagram: give steps as (role, class, call) triples, e.g. the default "
            "plots.loaders.BLOB_STEPS."
        )
    data = {"Blob", "Document"}
    width = 3.2 * len(steps)
    fig, ax = plt.subplots(figsize=(width, 2.7))
    ax.set_xlim(0, width)
    ax.set_ylim(-0.2, 2.5)
    ax.axis("off")
    for i, (role, cls, call) in enumerate(steps):
        x = 0.2 + 3.2 * i
        is_data = cls in data
        ax.add_patch(
            FancyBboxPatch(
                (x, 0.9),
                2.4,
                1.1,
                boxstyle="round,pad=0.05",
                facecolor=GREYS["white"],
                edgecolor=COLORS["real"] if is_data else COLORS["mine"],
                linestyle="--" if is_data else "-",
                linewidth=1.8,
            )
        )
        ax.text(
            x + 1.2,
            1.7,
            cls,
            ha="center",
            va="center",
            fontsize=12,
            weight="bold",
            family="monospace",
        )
        ax.text(x + 1.2, 1.25, role, ha="center", va="center", fontsize=9)
        ax.text(
            x + 1.2,
            0.5,
            call,
            ha="center",
            va="center",
            fontsize=8.5,
            family="monospace",
            color=GREYS["dark_grey"],
        )
        if i + 1 < len(steps):
            ax.add_patch(
                FancyArrowPatch(
                    (x + 2.45, 1.45),
                    (x + 3.15, 1.45),
                    arrowstyle="-|>",
                    mutation_scale=16,
                    color="black",
                )
            )
    ax.legend(
        handles=[
            Line2D([], [], color=COLORS["mine"], linewidth=1.8, label="a class that does the work"),
            Line2D(
                [],
                [],
                color=COLORS["real"],
                linewidth=1.8,
                linestyle="--",
                label="the data that flows",
            ),
        ],
        loc="lower center",
        bbox_to_anchor=(0.5, -0.1),
        ncols=2,
        fontsize=8.5,
        frameon=False,
    )
    ax.set_title(title, fontsize=11)
    fig.tight_layout()
    return fig


def eager_vs_lazy_bars(
    files_read: Mapping[str, int],
    *,
    total_files: int | None = None,
    title: str = "files read before the first Document arrives",
) -> Figure:
    """How many files each way of loading reads before it hands over the first ``Document``.

    ``load()`` reads every file first; ``lazy_load()`` reads one. Pass the counts a notebook
    measured, e.g. ``{"load()": 5, "lazy_load()": 1}`` from a loader that counts its opens, and
    ``total_files`` to draw the whole folder as a line. Bars differ by hatch as well as colour.
    """
    if not isinstance(files_read, Mapping) or not files_read:
        raise ValueError(
            "eager_vs_lazy_bars: give the counts as a dict, e.g. {'load()': 5, 'lazy_load()': 1}."
        )
    for name, count in files_read.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(
                f"eager_vs_lazy_bars: {name!r} read {count!r} files; a count is a whole "
                "number >= 0."
            )
    if total_files is not None and (
        isinstance(total_files, bool)
        or not isinstance(total_files, int)
        or total_files < max(files_read.values())
    ):
        raise ValueError(
            f"eager_vs_lazy_bars: total_files={total_files!r} must be a whole number at "
            "least as large "
            "as every count."
        )
    if len(files_read) > len(SERIES):
        raise ValueError(
            f"eager_vs_lazy_bars: at most {len(SERIES)} bars fit; got {len(files_read)}."
        )
    hatches = ("", "//", "..", "xx", "\\\\", "++")
    names = list(files_read)
    fig, ax = plt.subplots(figsize=(6.0, 0.6 * len(names) + 1.6))
    top = max([*files_read.values(), total_files or 0, 1])
    for row, name in enumerate(names):
        ax.barh(
            row,
            files_read[name],
            color=SERIES[row][0],
            hatch=hatches[row],
            edgecolor="black",
            linewidth=0.6,
        )
        ax.text(
            files_read[name] + top * 0.02,
            row,
            f"{files_read[name]} file{'s' * (files_read[name] != 1)}",
            va="center",
            fontsize=9,
        )
    if total_files is not None:
        ax.axvline(
            total_files,
            color="black",
            linestyle="--",
            linewidth=1,
            label=f"files in the folder: {total_files}",
        )
        ax.legend(fontsize=8.5, loc="lower right")
    ax.set_yticks(range(len(names)), names, family="monospace")
    ax.invert_yaxis()
    ax.set_xlim(0, top * 1.25)
    ax.set_xlabel("files opened before the first Document")
    ax.set_title(title, fontsize=11)
    fig.tight_layout()
    return fig
