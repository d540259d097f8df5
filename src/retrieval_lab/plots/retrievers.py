"""Pictures of notebooks 09-10: runs, graphs, retriever scores and score thresholds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise

import matplotlib.pyplot as plt
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Patch

from retrieval_lab.plots._style import (
    COLORS,
    GREYS,
    SERIES,
    _check_same_length,
)

#: How a run's bar looks, by what happened to it: colour and hatch differ together.
_RUN_STYLES = {
    "chain": (COLORS["mine"], None, "chain run"),
    "retriever": (COLORS["real"], "..", "retriever run"),
    "failed": (COLORS["query"], "//", "ended in an error ✗"),
}


def run_timeline(
    events: Sequence[object], *, title: str = "runs reported to the callback handler"
) -> Figure:
    """One bar per run, from the step of its start event to the step of its end (or error) event.

    ``events`` are recorded callbacks in order (``retrieval_lab.runtime.callbacks.Event``, or anything with
    ``event``, ``kind``, ``name``, ``run`` and ``parent``). The labels sit in a panel of their own,
    left-aligned and moved right one step per level of nesting, so a sequence's steps read as an
    outline under the sequence (right-aligned labels would hide the indent). A run that ended in an
    error is drawn vermillion and hatched; a retriever orange and dotted. The x axis is the event
    number, not time, so the picture never changes.
    """
    if not events:
        raise ValueError(
            "run_timeline: no events to draw - invoke something with the handler in "
            "config={'callbacks': [handler]} first."
        )
    runs: dict[int, dict[str, object]] = {}
    for step, e in enumerate(events, start=1):
        if e.event == "start":
            runs[e.run] = {
                "name": e.name,
                "kind": e.kind,
                "parent": e.parent,
                "start": step,
                "end": None,
                "failed": False,
            }
        elif e.run in runs:
            runs[e.run]["end"] = step
            runs[e.run]["failed"] = e.event == "error"
        else:
            raise ValueError(f"run_timeline: event {step} ends run {e.run}, which never started.")
    depth: dict[int, int] = {}
    for run, info in runs.items():
        parent = info["parent"]
        depth[run] = depth[parent] + 1 if parent in depth else 0
    labels = {
        run: ("└ " if depth[run] else "")
        + f"run {run}: {info['name']}"
        + (" ✗" if info["failed"] else "")
        for run, info in runs.items()
    }
    # the label panel is as wide as its longest line: 9-pt monospace is about 0.075 in a character
    label_w = max(0.075 * len(text) + _INDENT * depth[run] for run, text in labels.items()) + 0.3
    height = 0.5 * len(runs) + 1.7
    fig, (names, ax) = plt.subplots(
        1,
        2,
        figsize=(label_w + 6.5, height),
        sharey=True,
        gridspec_kw={"width_ratios": [label_w, 6.2], "wspace": 0.02},
    )
    last = len(events)
    used: list[str] = []
    for row, (run, info) in enumerate(runs.items()):
        end = info["end"] if info["end"] is not None else last + 0.5
        style = (
            "failed"
            if info["failed"]
            else ("retriever" if info["kind"] == "retriever" else "chain")
        )
        used += [] if style in used else [style]
        color, hatch, _ = _RUN_STYLES[style]
        ax.barh(
            row,
            end - info["start"],
            left=info["start"],
            height=0.55,
            color=color,
            alpha=0.85,
            hatch=hatch,
            edgecolor="black",
            linewidth=0.6,
        )
        names.text(
            0.1 + _INDENT * depth[run],
            row,
            labels[run],
            ha="left",
            va="center",
            fontsize=9,
            family="monospace",
        )
    names.set_xlim(0, label_w)
    names.axis("off")
    ax.set_ylim(len(runs) - 0.4, -0.6)
    ax.set_xlim(0.5, last + 0.5)
    ax.tick_params(axis="y", left=False, labelleft=False)
    ax.set_xticks(range(1, last + 1))
    ax.set_xlabel("event number (start … end of each run)")
    ax.set_title(title, fontsize=10)
    handles = [
        Patch(
            facecolor=_RUN_STYLES[k][0],
            hatch=_RUN_STYLES[k][1],
            edgecolor="black",
            label=_RUN_STYLES[k][2],
        )
        for k in _RUN_STYLES
        if k in used
    ]
    fig.legend(
        handles=handles,
        loc="lower center",
        bbox_to_anchor=(0.5, 0.0),
        ncols=len(handles),
        fontsize=8.5,
        frameon=False,
    )
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    fig.subplots_adjust(left=0.01, right=0.98, bottom=1.05 / height, top=1 - 0.45 / height)
    return fig


#: How far right (in inches, the label panel's x unit) each level of nesting moves a run's label.
_INDENT = 0.3


def grouped_bars(
    labels: Sequence[str],
    series: Mapping[str, Sequence[float]],
    *,
    title: str = "scores per document",
    xlabel: str = "score",
) -> Figure:
    """Horizontal bars, one group per label and one bar per series (e.g. keyword count vs BM25).

    Scores of different scorers live on different scales, so each series gets its own panel with
    its own axis, sharing the rows: read across a row to see how two scorers judge one document.
    """
    if not isinstance(series, Mapping) or not series:
        raise ValueError("grouped_bars: give series as a dict {name: scores} with at least one entry.")
    for name, values in series.items():
        _check_same_length(labels, values, f"grouped_bars series {name!r}")
    palette = [colour for colour, _, _ in SERIES]
    fig, axes = plt.subplots(1, len(series), figsize=(3.6 * len(series) + 1.2, 0.42 * len(labels) + 1.3),
                             sharey=True, squeeze=False)
    ys = list(range(len(labels)))
    for k, (ax, (name, values)) in enumerate(zip(axes[0], series.items(), strict=True)):
        ax.barh(ys, values, color=palette[k % len(palette)])
        top = max([abs(float(v)) for v in values] + [1e-9])
        for y, v in zip(ys, values, strict=True):
            ax.text(float(v) + top * 0.02, y, f"{float(v):.3g}", va="center", fontsize=8)
        ax.set_xlim(min(0.0, min(float(v) for v in values)), top * 1.25)
        ax.set_title(name, fontsize=10)
        ax.set_xlabel(xlabel)
    axes[0][0].set_yticks(ys, list(labels))
    axes[0][0].invert_yaxis()
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


def runnable_graph(
    nodes: Sequence[str],
    edges: Sequence[tuple[str, str]],
    *,
    title: str = "the chain's graph",
) -> Figure:
    """Draw a Runnable's graph offline: boxes in layers (longest path from a source), arrows between.

    Feed it ``[n.name for n in graph.nodes.values()]`` and ``[(graph.nodes[e.source].name,
    graph.nodes[e.target].name) for e in graph.edges]`` of ``chain.get_graph()``: no network, no
    mermaid renderer. Node names must be unique (they are, in a langchain-core graph's names once
    ``gather.name`` is set); a cycle is refused because a chain's graph has none.
    """
    names = list(nodes)
    if not names:
        raise ValueError("runnable_graph: no nodes to draw.")
    if len(set(names)) != len(names):
        raise ValueError(f"runnable_graph: node names repeat ({sorted({n for n in names if names.count(n) > 1})}); "
                         "give each node a distinct name.")
    for source, target in edges:
        if source not in names or target not in names:
            raise ValueError(f"runnable_graph: edge {source!r} -> {target!r} names a node not in {names}.")
    layer = {n: 0 for n in names}
    for _ in range(len(names)):
        changed = False
        for source, target in edges:
            if layer[target] < layer[source] + 1:
                layer[target] = layer[source] + 1
                changed = True
        if not changed:
            break
    else:
        raise ValueError("runnable_graph: the edges form a cycle; a chain's graph is acyclic.")
    rows: dict[int, list[str]] = {}
    for n in names:
        rows.setdefault(layer[n], []).append(n)
    width = max(len(r) for r in rows.values())
    box_w, box_h, gap_x, gap_y = 3.4, 0.7, 0.5, 0.6
    fig_w = width * (box_w + gap_x) + gap_x
    fig_h = len(rows) * (box_h + gap_y) + gap_y
    fig, ax = plt.subplots(figsize=(max(fig_w, 4.0) * 0.85, fig_h * 0.85))
    ax.set_xlim(0, max(fig_w, 4.0))
    ax.set_ylim(fig_h, 0)
    ax.axis("off")
    centre: dict[str, tuple[float, float]] = {}
    for depth, members in sorted(rows.items()):
        offset = (max(fig_w, 4.0) - len(members) * (box_w + gap_x) + gap_x) / 2
        for i, n in enumerate(members):
            x = offset + i * (box_w + gap_x)
            y = gap_y + depth * (box_h + gap_y)
            centre[n] = (x + box_w / 2, y + box_h / 2)
            ax.add_patch(FancyBboxPatch((x, y), box_w, box_h, boxstyle="round,pad=0.03",
                                        facecolor=GREYS["white"], edgecolor=COLORS["mine"],
                                        linewidth=1.5))
            ax.text(x + box_w / 2, y + box_h / 2, n, ha="center", va="center", fontsize=9, family="monospace")
    for source, target in edges:
        (x0, y0), (x1, y1) = centre[source], centre[target]
        ax.add_patch(FancyArrowPatch((x0, y0 + box_h / 2), (x1, y1 - box_h / 2), arrowstyle="-|>",
                                     mutation_scale=14, color="black", shrinkA=2, shrinkB=2))
    ax.set_title(title, fontsize=11)
    fig.tight_layout()
    return fig


def bm25_saturation(
    k1_values: Sequence[float] = (0.5, 1.2, 2.0),
    *,
    max_count: int = 10,
    b: float = 0.75,
    length_ratio: float = 1.0,
    title: str = "BM25: a term's weight saturates, counting does not",
) -> Figure:
    """A term's contribution to a BM25 score against how often it occurs, one line per ``k1``.

    BM25 weighs a term ``tf · (k1 + 1) / (tf + k1 · (1 - b + b · length_ratio))`` (times its idf,
    left out: it scales every line alike), where ``length_ratio`` is the document's length over
    the average. Counting grows without limit (the dashed diagonal); BM25 levels off towards
    ``k1 + 1`` (dotted), so the tenth "cat" adds far less than the first. ``length_ratio`` > 1
    shows how a long document needs more occurrences for the same weight.
    """
    ks = [k1_values] if isinstance(k1_values, int | float) else list(k1_values)
    if not ks or any(
        isinstance(k, bool) or not isinstance(k, int | float) or not k > 0 for k in ks
    ):
        raise ValueError(
            "bm25_saturation: k1_values must be positive numbers, e.g. (0.5, 1.2, 2.0); "
            f"got {k1_values!r}."
        )
    if len(ks) > len(SERIES):
        raise ValueError(
            f"bm25_saturation: at most {len(SERIES)} k1 values fit one picture; got {len(ks)}."
        )
    if isinstance(max_count, bool) or not isinstance(max_count, int) or max_count < 1:
        raise ValueError(
            "bm25_saturation: max_count is the largest count drawn, a whole number >= 1; "
            f"got {max_count!r}."
        )
    if not 0 <= b <= 1:
        raise ValueError(f"bm25_saturation: b (length normalisation) lies in [0, 1]; got {b!r}.")
    if not length_ratio > 0:
        raise ValueError(
            "bm25_saturation: length_ratio is document length / average length, > 0; "
            f"got {length_ratio!r}."
        )
    counts = list(range(max_count + 1))
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    ax.plot(
        counts, counts, color=COLORS["muted"], linestyle="--", linewidth=1.5, label="raw count (tf)"
    )
    for k1, (color, marker, linestyle) in zip(ks, SERIES, strict=False):
        norm = k1 * (1 - b + b * length_ratio)
        ax.plot(
            counts,
            [tf * (k1 + 1) / (tf + norm) for tf in counts],
            color=color,
            marker=marker,
            linestyle=linestyle,
            markersize=5,
            label=f"BM25, k1 = {k1:g}",
        )
        ax.axhline(k1 + 1, color=color, linestyle=":", linewidth=0.9)
    top = max(ks) + 1
    ax.set_ylim(0, max(top * 1.35, 2.0))
    ax.set_xlim(0, max_count)
    ax.set_xlabel("occurrences of the term in the document (tf)")
    ax.set_ylabel("the term's weight (before idf)")
    ax.set_title(
        title + (f"\nlength_ratio = {length_ratio:g}, b = {b:g}" if length_ratio != 1 else ""),
        fontsize=10,
    )
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8.5, loc="upper left")
    fig.tight_layout()
    return fig


#: How the two groups of a score histogram look: colour, hatch and line style differ together.
_PAIR_STYLES = {
    "relevant": (COLORS["third"], "//", "-", 3),
    "irrelevant": (COLORS["muted"], None, "--", 2),
}


def score_histograms(
    panels: Mapping[str, tuple[Sequence[float], Sequence[float]]],
    *,
    threshold: float | None = None,
    bins: Sequence[float] | int = 20,
    title: str = "relevance scores of (question, text) pairs",
    xlabel: str = "relevance score",
) -> Figure:
    """One histogram panel per embedder: the scores of relevant pairs against irrelevant ones.

    ``panels`` maps a name (``"MiniLM"``) to ``(relevant_scores, irrelevant_scores)``. Each group
    is drawn as the share of its own pairs, because irrelevant pairs usually outnumber relevant
    ones many times over and would flatten them. A ``threshold`` is a dashed vertical line on
    every panel, so one number can be read against two embedders' scores: the panels share the
    x axis. Relevant bars are green, hatched and drawn in front; irrelevant ones grey and dashed.
    """
    if not isinstance(panels, Mapping) or not panels:
        raise ValueError(
            "score_histograms: give panels as a dict {name: (relevant, irrelevant)}, "
            "with at least one entry."
        )
    for name, groups in panels.items():
        if isinstance(groups, str) or len(groups) != 2:
            raise ValueError(
                f"score_histograms: panel {name!r} needs two lists of scores, "
                "(relevant, irrelevant)."
            )
        if not len(groups[0]) and not len(groups[1]):
            raise ValueError(f"score_histograms: panel {name!r} has no scores at all.")
    if threshold is not None and (
        isinstance(threshold, bool) or not isinstance(threshold, int | float)
    ):
        raise TypeError(
            f"score_histograms: threshold must be a number, got {type(threshold).__name__}."
        )
    values = [float(v) for groups in panels.values() for group in groups for v in group]
    if isinstance(bins, int):
        low, high = min(values), max(values)
        width = (high - low) / bins if high > low else 1.0
        edges = [low + i * width for i in range(bins + 1)]
    else:
        edges = [float(e) for e in bins]
        if len(edges) < 2 or any(b <= a for a, b in pairwise(edges)):
            raise ValueError("score_histograms: bins must be at least two increasing edges.")
    fig, axes = plt.subplots(
        len(panels), 1, figsize=(8.6, 2.4 * len(panels) + 0.9), sharex=True, squeeze=False
    )
    for ax, (name, groups) in zip(axes[:, 0], panels.items(), strict=True):
        for kind, scores in zip(_PAIR_STYLES, groups, strict=True):
            if not len(scores):
                continue
            color, hatch, linestyle, zorder = _PAIR_STYLES[kind]
            weights = [1 / len(scores)] * len(scores)
            _, _, patches = ax.hist(
                [float(s) for s in scores],
                bins=edges,
                weights=weights,
                histtype="stepfilled",
                edgecolor=color,
                hatch=hatch,
                linestyle=linestyle,
                linewidth=1.5,
                zorder=zorder,  # relevant bars in front, where the groups overlap
                label=f"{kind} pairs ({len(scores)})",
            )
            for patch in patches:  # set after: matplotlib 3.10's hist (Colab's) reads an RGBA
                patch.set_facecolor(to_rgba(color, 0.35))  # facecolor as one colour per patch
        if threshold is not None:
            ax.axvline(
                threshold,
                color=COLORS["query"],
                linestyle=":",
                linewidth=2,
                label=f"threshold {threshold:g}",
            )
        ax.set_title(name, fontsize=10)
        ax.set_ylabel("share of the group")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))  # beside the bars
    axes[-1, 0].set_xlabel(xlabel)
    axes[-1, 0].set_xlim(edges[0], edges[-1])
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


def run_tree(events: Sequence[object], *, title: str = "the run tree") -> Figure:
    """The runs of recorded callbacks as a tree: one box per run, under its parent.

    ``events`` as for :func:`run_timeline`. Each run is a box on its own row, indented one step
    per level and joined to its parent by an elbow line, so "which run is inside which" reads at a
    glance, as a tracer's run tree shows it. Chain runs are blue boxes with a solid edge, retriever
    runs orange with a dotted edge and a dotted fill, a run that ended in an error vermillion and
    hatched (colour, hatch and edge style differ together).
    """
    if not events:
        raise ValueError(
            "run_tree: no events to draw - invoke something with the handler in "
            "config={'callbacks': [handler]} first."
        )
    runs: dict[int, dict[str, object]] = {}
    for step, e in enumerate(events, start=1):
        if e.event == "start":
            runs[e.run] = {"name": e.name, "kind": e.kind, "parent": e.parent, "failed": False}
        elif e.run in runs:
            runs[e.run]["failed"] = e.event == "error"
        else:
            raise ValueError(f"run_tree: event {step} ends run {e.run}, which never started.")
    depth: dict[int, int] = {}
    for run, info in runs.items():
        parent = info["parent"]
        depth[run] = depth[parent] + 1 if parent in depth else 0
    order = _depth_first(runs)
    box_h, step_x = 0.6, 0.9
    widths = {run: 0.11 * len(_tree_label(run, runs[run])) + 0.4 for run in runs}
    fig_w = max(step_x * depth[r] + widths[r] for r in runs) + 0.6
    fig_h = 0.8 * len(runs) + 1.3
    fig, ax = plt.subplots(figsize=(max(fig_w, 4.5), fig_h))
    row_of = {run: row for row, run in enumerate(order)}
    used: list[str] = []
    for run in order:
        info = runs[run]
        style = "failed" if info["failed"] else ("retriever" if info["kind"] == "retriever" else "chain")
        used += [] if style in used else [style]
        color, hatch, _ = _RUN_STYLES[style]
        x, y = 0.2 + step_x * depth[run], 0.4 + 0.8 * row_of[run]
        ax.add_patch(FancyBboxPatch(
            (x, y), widths[run], box_h, boxstyle="round,pad=0.02", facecolor=to_rgba(color, 0.3),
            edgecolor=color, hatch=hatch, linewidth=1.6, linestyle=":" if style == "retriever" else "-",
        ))
        ax.text(x + 0.15, y + box_h / 2, _tree_label(run, info), ha="left", va="center", fontsize=10,
                family="monospace")
        parent = info["parent"]
        if parent in row_of:
            px, py = 0.2 + step_x * depth[parent] + 0.3, 0.4 + 0.8 * row_of[parent] + box_h
            ax.plot([px, px, x], [py, y + box_h / 2, y + box_h / 2], color="black", linewidth=1)
    ax.set_xlim(0, max(fig_w, 4.5))
    ax.set_ylim(fig_h - 0.5, 0)
    ax.axis("off")
    ax.set_title(title, fontsize=11)
    handles = [Patch(facecolor=to_rgba(_RUN_STYLES[k][0], 0.3), edgecolor=_RUN_STYLES[k][0],
                     hatch=_RUN_STYLES[k][1], label=_RUN_STYLES[k][2]) for k in _RUN_STYLES if k in used]
    ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, -0.02), ncols=len(handles),
              fontsize=9, frameon=False)
    fig.tight_layout()
    return fig


def _tree_label(run: int, info: Mapping[str, object]) -> str:
    return f"run {run}: {info['name']}" + (" ✗" if info["failed"] else "")


def _depth_first(runs: Mapping[int, Mapping[str, object]]) -> list[int]:
    """Runs in depth-first order: each run right after its parent, siblings in start order."""
    children: dict[int | None, list[int]] = {}
    for run, info in runs.items():
        parent = info["parent"] if info["parent"] in runs else None
        children.setdefault(parent, []).append(run)
    order: list[int] = []
    stack = list(reversed(children.get(None, [])))
    while stack:
        run = stack.pop()
        order.append(run)
        stack.extend(reversed(children.get(run, [])))
    return order
