"""Pictures of notebooks 08-09: runs, graphs and retriever scores."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from retrieval_lab.plots._style import (
    COLORS,
    SERIES,
    _check_same_length,
)


def run_timeline(events: Sequence[object], *, title: str = "runs reported to the callback handler") -> Figure:
    """One bar per run, from the step of its start event to the step of its end (or error) event.

    ``events`` are recorded callbacks in order (``retrieval_lab.callbacks.Event``, or anything with
    ``event``, ``kind``, ``name``, ``run`` and ``parent``). Children are indented under their parent,
    so a sequence's steps sit inside the sequence's bar; a run that ended in an error is drawn red
    and hatched. The x axis is the event number, not time, so the picture never changes.
    """
    if not events:
        raise ValueError("run_timeline: no events to draw - invoke something with the handler in "
                         "config={'callbacks': [handler]} first.")
    runs: dict[int, dict[str, object]] = {}
    for step, e in enumerate(events, start=1):
        if e.event == "start":
            runs[e.run] = {"name": e.name, "kind": e.kind, "parent": e.parent, "start": step, "end": None,
                           "failed": False}
        elif e.run in runs:
            runs[e.run]["end"] = step
            runs[e.run]["failed"] = e.event == "error"
        else:
            raise ValueError(f"run_timeline: event {step} ends run {e.run}, which never started.")
    depth: dict[int, int] = {}
    for run, info in runs.items():
        parent = info["parent"]
        depth[run] = depth[parent] + 1 if parent in depth else 0
    fig, ax = plt.subplots(figsize=(7.5, 0.5 * len(runs) + 1.3))
    last = len(events)
    for row, (run, info) in enumerate(runs.items()):
        end = info["end"] if info["end"] is not None else last + 0.5
        color = COLORS["query"] if info["failed"] else (COLORS["real"] if info["kind"] == "retriever"
                                                        else COLORS["mine"])
        ax.barh(row, end - info["start"], left=info["start"], height=0.55, color=color, alpha=0.8,
                hatch="//" if info["failed"] else None, edgecolor="black", linewidth=0.6)
        label = "   " * depth[run] + f"run {run}: {info['name']}" + (" ✗" if info["failed"] else "")
        ax.text(0.4, row, label, ha="right", va="center", fontsize=9, family="monospace")
    ax.set_ylim(len(runs) - 0.4, -0.6)
    ax.set_xlim(0.5, last + 0.5)
    ax.set_yticks([])
    ax.set_xticks(range(1, last + 1))
    ax.set_xlabel("event number (start … end of each run)")
    ax.set_title(title + "\nblue: chain · orange: retriever · red: error", fontsize=10)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    fig.tight_layout()
    return fig


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
                                        facecolor="#e8f0fb", edgecolor=COLORS["mine"]))
            ax.text(x + box_w / 2, y + box_h / 2, n, ha="center", va="center", fontsize=9, family="monospace")
    for source, target in edges:
        (x0, y0), (x1, y1) = centre[source], centre[target]
        ax.add_patch(FancyArrowPatch((x0, y0 + box_h / 2), (x1, y1 - box_h / 2), arrowstyle="-|>",
                                     mutation_scale=14, color="black", shrinkA=2, shrinkB=2))
    ax.set_title(title, fontsize=11)
    fig.tight_layout()
    return fig
