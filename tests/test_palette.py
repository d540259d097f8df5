"""Every picture of the course uses only the palette of ``retrieval_lab.plots._style``.

The check renders each public plot function of ``retrieval_lab.plots`` with small realistic
inputs (Agg backend, no display) and walks every artist of the figure: lines and their markers,
patches (bars, boxes, arrows, arcs), collections (scatter points), texts and their boxes, images
and colour bars (by their colour map), legends. A colour counts by its RGB: a palette colour at
any transparency is still that colour.

What is left at matplotlib's defaults, because no plot function colours it: the axis chrome
(spines, ticks, tick labels, axis labels, grid lines) and the legend's frame. Those artists may
use a palette colour or the rc default (grid ``#b0b0b0``, legend frame ``0.8``); anything else
on them is reported too, so a plot that recolours its axes in red still fails.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator

import matplotlib
import matplotlib.pyplot as plt
import pytest
from matplotlib.artist import Artist
from matplotlib.cm import ScalarMappable
from matplotlib.collections import Collection
from matplotlib.colors import Colormap, to_hex, to_rgba, to_rgba_array
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Annotation, Text

from retrieval_lab import plots
from retrieval_lab.plots import _style

matplotlib.use("Agg")

PALETTE = {to_hex(c) for c in [*_style.OKABE_ITO.values(), *_style.GREYS.values()]}
CHROME_DEFAULTS = {to_hex(plt.rcParams["grid.color"]), to_hex(plt.rcParams["legend.edgecolor"])}


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


class _Event:
    def __init__(self, event: str, kind: str, name: str, run: int, parent: int | None) -> None:
        self.event, self.kind, self.name, self.run, self.parent = event, kind, name, run, parent


EVENTS = [
    _Event("start", "chain", "RunnableSequence", 1, None),
    _Event("start", "retriever", "retriever", 2, 1),
    _Event("end", "retriever", "retriever", 2, 1),
    _Event("start", "chain", "boom", 3, 1),
    _Event("error", "chain", "boom", 3, 1),
    _Event("error", "chain", "RunnableSequence", 1, None),
]
PLANE = {"c1": [3.0, 1.0], "c2": [3.0, 1.0], "c4": [1.0, 1.0], "c6": [0.0, 1.0]}
MATRIX = [[1.0, 0.5, -0.8], [0.5, 1.0, float("nan")], [-0.8, float("nan"), 1.0]]
TEXT = "one two three\n\nfour supercalifragilistic six"

#: One realistic call per public plot function: name -> a function that returns its Figure.
CASES: dict[str, Callable[[], Figure]] = {
    "score_bars": lambda: plots.score_bars(["a", "b", "c"], [0.9, 0.2, -0.4], highlight=2),
    "pipeline_diagram": lambda: plots.pipeline_diagram(
        [("load", "BaseLoader", "docs"), ("split", "TextSplitter", "chunks")]
    ),
    "vector_arrows": lambda: plots.vector_arrows(
        PLANE, query=[1, 0], show_angles=True, highlight=["c1"]
    ),
    "similarity_heatmaps": lambda: plots.similarity_heatmaps(
        {"m": MATRIX}, ["x", "y", "z"], groups=["p", "q", "p"]
    ),
    "run_timeline": lambda: plots.run_timeline(EVENTS),
    "grouped_bars": lambda: plots.grouped_bars(["a", "b"], {"count": [2, 0], "bm25": [1.5, 0.2]}),
    "runnable_graph": lambda: plots.runnable_graph(["in", "out"], [("in", "out")]),
    "latency_vs_n": lambda: plots.latency_vs_n(
        {"matrix": {1000: 0.1, 10_000: 0.6}, "list": {1000: 2.0, 10_000: 20.0}},
        guide="matrix",
        d=64,
        bandwidth_gb_s=10.0,
    ),
    "recall_vs_latency": lambda: plots.recall_vs_latency(
        {
            "random": [("ef=16", 0.2, 0.6), ("ef=32", 0.25, 0.62)],
            "clustered": [("ef=16", 0.1, 0.9)],
        },
        exact_ms=1.0,
    ),
    "chunk_map": lambda: plots.chunk_map(
        TEXT,
        {"overlap": ["one two three", "three", "four", "supercalifragilistic six"]},
        chunk_size=10,
    ),
    "chunk_spans": None,  # returns positions, draws nothing
    "mmr_plane": lambda: plots.mmr_plane(
        PLANE, [1, 0], ["c1", "c2"], ["c1", "c6"], lambda_mult=0.25
    ),
    "lambda_sweep": lambda: plots.lambda_sweep(
        [0, 1], [["c1", "c6"], ["c1", "c2"]], list(PLANE), labels={"c1": "cat cat cat dog"}
    ),
    "zero_vector_plot": lambda: plots.zero_vector_plot({"cat": [1, 0], "hello": [0, 0]}),
    "blob_pipeline_diagram": lambda: plots.blob_pipeline_diagram(),
    "eager_vs_lazy_bars": lambda: plots.eager_vs_lazy_bars(
        {"load()": 5, "lazy_load()": 1}, total_files=5
    ),
    "shared_metadata_diagram": lambda: plots.shared_metadata_diagram(
        {"source": "a.txt", "tags": {"pets": True}}, "tags"
    ),
    "merge_window_strip": lambda: plots.merge_window_strip(
        "ant elephants ok go".split(), " ", chunk_size=10, chunk_overlap=3
    ),
    "separator_cascade_tree": lambda: plots.separator_cascade_tree(TEXT, chunk_size=12),
    "backend_methods_chart": lambda: plots.backend_methods_chart(
        ["similarity_search"], ["get_by_ids"]
    ),
    "bm25_saturation": lambda: plots.bm25_saturation((0.5, 1.2, 2.0), length_ratio=1.5),
    "k1_b_heatmap": lambda: plots.k1_b_heatmap(
        [0.9, 1.5], [0.0, 0.75], [[0.3, 0.31], [0.32, 0.29]], chosen=(1.5, 0.0)
    ),
    "hits_and_non_hits": lambda: plots.hits_and_non_hits(
        [0.5, 0.6, 0.7], [0.0, 0.1, 0.2, 0.5], marks={"threshold": 0.45}
    ),
    "swap_with_last_delete": lambda: plots.swap_with_last_delete(
        [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], 0, ids=["a", "b", "c"]
    ),
    "hnsw_walk": lambda: plots.hnsw_walk(
        {"a": (0, 0), "b": (1, 1), "c": (2, 0)},
        [[("a", "b"), ("b", "c")], [("a", "c")]],
        [(1, "a"), (1, "c"), (0, "c"), (0, "b")],
        query=(1.2, 1.0),
        visited=["a", "b", "c"],
    ),
    "at_k_curves": lambda: plots.at_k_curves(
        [1, 5], {"hit rate": {f"r{i}": [0.2, 0.6] for i in range(6)}}
    ),
    "wins_and_losses": lambda: plots.wins_and_losses(
        {"q1": 0.5, "q2": -1.0, "q3": 0.0}, ("a", "b")
    ),
    "chunking_heatmap": lambda: plots.chunking_heatmap(
        [200, 400], [0, 200], {"recall": [[0.2, 0.9], [float("nan"), 0.5]]}
    ),
    "suite_grid": lambda: plots.suite_grid(
        {"mine": {"test_a": True, "test_b": True}, "draft": {"test_a": True, "test_b": False}}
    ),
    "quantization_bars": lambda: plots.quantization_bars(
        {"float32": (1536, 1.0), "int8": (388, 0.98)}
    ),
    "rank_moves": lambda: plots.rank_moves(
        {"r@50": {"q1": (5, 1), "q2": (1, 3), "q3": (2, 2), "q4": (None, 7)}}
    ),
    "quality_vs_cost": lambda: plots.quality_vs_cost(
        {"first": 1.0, "a@20": 2.0, "a@50": 3.0, "b@20": 2.5},
        {"first": 0.4, "a@20": 0.45, "a@50": 0.5, "b@20": 0.48}, "first",
    ),
    "recall_latency_spread": lambda: plots.recall_latency_spread(
        {"m=16": [("ef=10", [0.2, 0.3, 0.4], 0.9), ("ef=40", [0.5, 0.6, 0.7], 0.99)],
         "m=4": [("ef=10", [0.1, 0.2, 0.3], 0.7)]},
        exact=[2.0, 2.5, 3.0],
    ),
    "attention_heatmap": lambda: plots.attention_heatmap(
        ["a", "b"], [[0.7, 0.3], [0.4, 0.6]], highlight=(0, 1)
    ),
    "topic_scatter": lambda: plots.topic_scatter([[0, 1], [1, 0]], ["p", "q"], labels=["x", "y"]),
    "threshold_curves": lambda: plots.threshold_curves(
        [0.2, 0.4], {"precision": [0.3, 0.7], "recall": [0.8, 0.4]}, chosen=0.3
    ),
}


def _public_plot_functions() -> list[str]:
    return sorted(
        name
        for name in plots.__all__
        if inspect.isfunction(getattr(plots, name)) and name != "show"
    )


def _colours_of(artist: Artist) -> Iterator[tuple[str, str]]:
    """(what, colour) pairs an artist paints with; invisible parts (alpha 0, no edge) skipped."""

    def visible(rgba: object) -> Iterator[str]:
        for row in to_rgba_array(rgba):
            if row[3] > 0:
                yield to_hex(row[:3])

    kind = type(artist).__name__
    if isinstance(artist, ScalarMappable) and artist.get_array() is not None:
        yield from _colormap_colours(artist.get_cmap(), kind)
        if not isinstance(artist, Collection):
            return
        edges = artist.get_edgecolor()
        if len(edges) and max(artist.get_linewidths(), default=0) > 0:
            yield from ((f"{kind} edge", c) for c in visible(edges))
        return
    if isinstance(artist, Line2D):
        if artist.get_linestyle() not in ("None", "none", " ", ""):
            yield from ((kind, c) for c in visible(artist.get_color()))
        if artist.get_marker() not in (None, "None", "none", " ", ""):
            for part in (artist.get_markerfacecolor(), artist.get_markeredgecolor()):
                if part is not None and str(part).lower() != "none":
                    yield from ((f"{kind} marker", c) for c in visible(part))
    elif isinstance(artist, Patch):
        if artist.get_fill():
            yield from ((f"{kind} face", c) for c in visible(artist.get_facecolor()))
        if artist.get_linewidth() > 0 or artist.get_hatch():
            yield from ((f"{kind} edge", c) for c in visible(artist.get_edgecolor()))
    elif isinstance(artist, Collection):
        yield from ((f"{kind} face", c) for c in visible(artist.get_facecolor()))
        if max(artist.get_linewidths(), default=0) > 0:
            yield from ((f"{kind} edge", c) for c in visible(artist.get_edgecolor()))
    elif isinstance(artist, Text):
        if artist.get_text().strip():
            yield from (
                (f"{kind} {artist.get_text()[:20]!r}", c) for c in visible(artist.get_color())
            )
        if artist.get_bbox_patch() is not None:
            yield from _colours_of(artist.get_bbox_patch())
        if isinstance(artist, Annotation) and artist.arrow_patch is not None:
            yield from _colours_of(artist.arrow_patch)


def _colormap_colours(cmap: Colormap, kind: str) -> Iterator[tuple[str, str]]:
    """A colour map is in the palette when its ends, middle and NaN colour are palette colours."""
    for where, rgba in (
        ("low end", cmap(0.0)),
        ("middle", cmap(0.5)),
        ("high end", cmap(1.0)),
        ("NaN", cmap.get_bad()),
    ):
        if to_rgba(rgba)[3] > 0:
            yield f"{kind} colour map {cmap.name} {where}", to_hex(to_rgba(rgba)[:3])


def _chrome(fig: Figure) -> set[int]:
    """Artists matplotlib draws with its defaults: axis decoration, backgrounds, legend frames."""
    ids = {id(fig.patch)}
    legends = list(fig.legends)
    for ax in fig.axes:
        ids.add(id(ax.patch))
        ids.update(id(s) for s in ax.spines.values())
        for axis in (ax.xaxis, ax.yaxis):
            ids.update(id(a) for a in axis.findobj())
        if ax.get_legend() is not None:
            legends.append(ax.get_legend())
    ids.update(id(legend.legendPatch) for legend in legends)
    return ids


def off_palette(fig: Figure) -> list[str]:
    """Every colour of ``fig`` outside the palette, as ``"what: #rrggbb"`` (empty when all fit)."""
    fig.canvas.draw()  # legends, colour bars and tick labels exist fully once drawn
    chrome = _chrome(fig)
    problems = []
    for artist in fig.findobj(lambda a: a.get_visible() and not isinstance(a, Legend)):
        allowed = PALETTE | CHROME_DEFAULTS if id(artist) in chrome else PALETTE
        problems += [
            f"{what}: {colour}" for what, colour in _colours_of(artist) if colour not in allowed
        ]
    return sorted(set(problems))


def test_every_public_plot_function_has_a_case():
    assert sorted(CASES) == _public_plot_functions(), (
        "add a realistic call of the new plot to CASES"
    )


@pytest.mark.parametrize("name", [n for n, case in CASES.items() if case is not None])
def test_the_plot_uses_only_palette_colours(name):
    fig = CASES[name]()
    assert isinstance(fig, Figure)
    assert off_palette(fig) == []


def test_the_checker_reports_a_colour_outside_the_palette(monkeypatch):
    """The check can fail: a plot made to paint its highlight red is caught."""
    monkeypatch.setitem(_style.COLORS, "mine", "#ff0000")
    problems = off_palette(CASES["score_bars"]())
    assert problems and all(p.endswith("#ff0000") for p in problems)


def test_the_checker_sees_text_markers_and_colour_maps():
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1], marker="o", color=_style.OKABE_ITO["blue"], markerfacecolor="#123456")
    ax.text(0, 0, "note", color="#444444")
    ax.imshow([[0, 1]], cmap="viridis")
    problems = "\n".join(off_palette(fig))
    assert "marker: #123456" in problems and "'note': #444444" in problems and "viridis" in problems


def test_the_default_colour_cycle_is_caught():
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    assert off_palette(fig) == ["Line2D: #1f77b4"]
