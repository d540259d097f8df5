"""Pictures of notebook 01 (and 03's deep-copy surprise): what a copy of a Document shares."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch
from matplotlib.text import Text

from retrieval_lab.plots._style import COLORS, GREYS


def _box(
    ax: plt.Axes,
    x: float,
    y: float,
    w: float,
    h: float,
    lines: Sequence[str],
    edge: str,
    linestyle: str = "-",
    weight_first: bool = True,
) -> list[Text]:
    """A rounded box with one line of monospace text per entry; returns the lines' Text artists."""
    ax.add_patch(
        FancyBboxPatch(
            (x, y),
            w,
            h,
            boxstyle="round,pad=0.04",
            facecolor=GREYS["white"],
            edgecolor=edge,
            linestyle=linestyle,
            linewidth=1.8,
        )
    )
    return [
        ax.text(
            x + 0.12,
            y + h - 0.28 - 0.3 * k,
            line,
            ha="left",
            va="center",
            fontsize=8.5,
            family="monospace",
            weight="bold" if k == 0 and weight_first else "normal",
        )
        for k, line in enumerate(lines)
    ]


def shared_metadata_diagram(
    metadata: Mapping[str, object],
    nested_key: str,
    *,
    names: tuple[str, str] = ("doc", "copy"),
    deep: bool = False,
    title: str = "",
) -> Figure:
    """An object diagram of two Documents after a copy: which dicts are distinct, which shared.

    A shallow copy (``dict(doc.metadata)``, ``copy.copy``, pydantic's ``model_copy()``) makes a
    new outer dict, but its values are the same objects: the nested dict under ``nested_key`` is
    one object with two arrows into it, so changing it through one Document changes the other.
    ``deep=True`` draws ``copy.deepcopy``: two nested dicts, no shared box. Distinct objects have
    solid blue edges; the shared one a dashed vermillion edge and the word "shared".
    """
    if not isinstance(metadata, Mapping) or nested_key not in metadata:
        raise ValueError(
            f"shared_metadata_diagram: metadata must be a dict holding the key {nested_key!r}, "
            "e.g. {'source': 'a.txt', 'tags': {'pets': True}} with nested_key='tags'."
        )
    if not isinstance(metadata[nested_key], Mapping):
        raise ValueError(
            f"shared_metadata_diagram: metadata[{nested_key!r}] is a "
            f"{type(metadata[nested_key]).__name__}, not a dict; the picture is about a "
            "nested dict."
        )
    if len(names) != 2:
        raise ValueError(
            "shared_metadata_diagram: names are the two Documents' names, two of them; "
            f"got {names!r}."
        )
    outer = [f"{k!r}: {'●' if k == nested_key else repr(v)}" for k, v in metadata.items()]
    inner = [f"{k!r}: {v!r}" for k, v in metadata[nested_key].items()]
    height = max(len(outer), len(inner)) * 0.3 + 0.7
    fig, ax = plt.subplots(figsize=(9.5, 2 * height + 2.2))
    ax.set_xlim(0, 10)
    ax.set_ylim(-0.5, 2 * height + 1.6)
    ax.axis("off")
    tops = [2 * height + 1.0, height + 0.2]
    dots: list[Text] = []
    for name, top in zip(names, tops, strict=True):
        _box(ax, 0.1, top - 0.9, 1.9, 0.9, [name, "Document"], COLORS["mine"])
        lines = _box(ax, 3.0, top - height, 3.0, height, [f"{name}.metadata", *outer], COLORS["mine"])
        dots.append(lines[1 + list(metadata).index(nested_key)])  # the line that holds the ●
        ax.add_patch(
            FancyArrowPatch(
                (2.05, top - 0.45),
                (2.95, top - 0.45),
                arrowstyle="-|>",
                mutation_scale=14,
                color="black",
            )
        )
    nested_ys = (
        [tops[0] - height / 2, tops[1] - height / 2]
        if deep
        else [(tops[0] + tops[1] - height) / 2] * 2
    )
    nested_h = len(inner) * 0.3 + 0.7
    for k, target_y in enumerate(nested_ys):
        if deep or k == 0:
            _box(
                ax,
                7.0,
                target_y - nested_h / 2,
                2.8,
                nested_h,
                [f"metadata[{nested_key!r}]" + ("" if deep else "  (shared)"), *inner],
                COLORS["mine"] if deep else COLORS["query"],
                linestyle="-" if deep else "--",
            )
        # From the ● itself (the right end of its line of text) to the nested dict's box.
        ax.annotate(
            "",
            xy=(6.95, target_y),
            xytext=(1.0, 0.5),
            textcoords=dots[k],
            arrowprops={
                "arrowstyle": "-|>",
                "mutation_scale": 14,
                "color": COLORS["query"] if not deep else "black",
                "linewidth": 1.6,
                "shrinkA": 1,
                "shrinkB": 0,
            },
        )
    ax.legend(
        handles=[
            Line2D([], [], color=COLORS["mine"], linewidth=1.8, label="an object of its own"),
            Line2D(
                [],
                [],
                color=COLORS["query"],
                linewidth=1.8,
                linestyle="--",
                label="one object reached from both",
            ),
        ]
        if not deep
        else [Line2D([], [], color=COLORS["mine"], linewidth=1.8, label="an object of its own")],
        loc="lower center",
        ncols=2,
        fontsize=8.5,
        frameon=False,
    )
    kind = "deep copy: nothing shared" if deep else "shallow copy: new outer dicts, one nested dict"
    ax.set_title(title or kind, fontsize=11)
    fig.tight_layout()
    return fig
