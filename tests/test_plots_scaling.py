"""The scaling pictures of notebooks 11 and 12: latency against n, recall against a cost, cosine spreads."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_hex
from matplotlib.patches import FancyArrowPatch

from retrieval_lab.plots import hnsw_walk, latency_vs_n, recall_vs_latency, swap_with_last_delete
from retrieval_lab.plots._style import GREYS, OKABE_ITO
from retrieval_lab.plots.scaling import cosine_distributions, recall_tradeoff


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_latency_vs_n_draws_one_line_per_store_and_a_slope_one_guide():
    data = {"matrix": {1000: 0.1, 10_000: 1.0, 100_000: 10.0}, "lists": {10_000: 50.0, 1000: 5.0}}
    fig = latency_vs_n(data, guide="matrix")
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert set(lines) == {"matrix", "lists", "slope 1 (∝ n) through matrix"}
    assert list(lines["lists"].get_xdata()) == [
        1000,
        10_000,
    ]  # sorted by n, whatever the dict order
    guide = lines["slope 1 (∝ n) through matrix"]
    assert np.allclose(
        guide.get_ydata(), [0.1, 1.0, 10.0]
    )  # proportional to n from the first point


def test_latency_vs_n_without_a_guide_has_only_the_stores():
    fig = latency_vs_n({"one": {10: 2.0}})
    assert [line.get_label() for line in fig.axes[0].get_lines()] == ["one"]


@pytest.mark.parametrize(
    ("data", "guide", "message"),
    [
        ({}, None, "at least one series"),
        ({"a": {}}, None, "no points"),
        ({"a": {10: 0.0}}, None, "log axis"),
        ({"a": {0: 1.0}}, None, "log axis"),
        ({"a": {10: float("nan")}}, None, "log axis"),
        ({"a": {10: 1.0}}, "b", "not one of the series"),
    ],
)
def test_latency_vs_n_refuses_what_a_log_axis_cannot_show(data, guide, message):
    with pytest.raises(ValueError, match=message):
        latency_vs_n(data, guide=guide)


def test_recall_vs_latency_joins_each_curves_points_in_order_and_marks_exact_search():
    curves = {"random": [("ef=16", 0.2, 0.5), ("ef=64", 0.8, 0.9), ("ef=256", 3.0, 1.0)],
              "clustered": [("ef=16", 0.1, 0.95)]}
    fig = recall_vs_latency(curves, exact_ms=5.0)
    ax = fig.axes[0]
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert list(lines["random"].get_xdata()) == [0.2, 0.8, 3.0]
    assert list(lines["random"].get_ydata()) == [0.5, 0.9, 1.0]
    assert list(lines["clustered"].get_ydata()) == [0.95]
    assert [t.get_text() for t in ax.texts] == ["ef=16", "ef=64", "ef=256", "ef=16"]
    assert list(lines["exact search (recall 1)"].get_xdata()) == [5.0, 5.0]
    assert ax.get_xscale() == "log"


@pytest.mark.parametrize(
    ("curves", "exact", "message"),
    [
        ({}, None, "at least one curve"),
        ({"a": []}, None, "no \\(label"),
        ({"a": [("p", 0.0, 0.5)]}, None, "latency"),
        ({"a": [("p", 1.0, 1.5)]}, None, "recall lies in"),
        ({"a": [("p", 1.0, 0.5)]}, -1.0, "exact_ms"),
    ],
)
def test_recall_vs_latency_refuses_bad_points(curves, exact, message):
    with pytest.raises(ValueError, match=message):
        recall_vs_latency(curves, exact_ms=exact)


def test_latency_vs_n_draws_the_memory_read_time_n_d_4_over_bandwidth():
    data = {"matrix": {1000: 0.1, 100_000: 5.0}, "lists": {10_000: 50.0}}
    ax = latency_vs_n(data, d=384, bandwidth_gb_s=12.5).axes[0]
    floor = next(line for line in ax.get_lines() if line.get_label().startswith("memory read"))
    assert list(floor.get_xdata()) == [1000, 10_000, 100_000]  # every n of every series
    expected_ms = [n * 384 * 4 / 12.5e9 * 1e3 for n in (1000, 10_000, 100_000)]
    assert np.allclose(floor.get_ydata(), expected_ms)
    assert "d = 384" in floor.get_label() and "12.5 GB/s" in floor.get_label()
    series = [line for line in ax.get_lines() if line.get_label() in data]
    assert floor.get_color() not in {line.get_color() for line in series}
    assert (
        len({line.get_marker() for line in series}) == 2
    )  # told apart by marker as well as colour
    assert len({str(line.get_linestyle()) for line in series}) == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"d": 64}, "give both or neither"),
        ({"bandwidth_gb_s": 5.0}, "give both or neither"),
        ({"d": 0, "bandwidth_gb_s": 5.0}, "d is the number"),
        ({"d": 4, "bandwidth_gb_s": -1.0}, "GB/s"),
    ],
)
def test_latency_vs_n_refuses_half_a_memory_read_line(kwargs, message):
    with pytest.raises(ValueError, match=message):
        latency_vs_n({"a": {10: 1.0}}, **kwargs)


def test_recall_axis_is_zoomed_to_the_data_not_zero_to_one():
    curves = {
        "random": [("ef=16", 0.2, 0.82), ("ef=64", 0.8, 0.93)],
        "clustered": [("ef=16", 0.1, 0.97)],
    }
    low, high = recall_vs_latency(curves).axes[0].get_ylim()
    assert 0.5 < low < 0.82 and 0.97 < high <= 1.0
    low, _ = recall_vs_latency({"a": [("x", 1.0, 0.02)]}).axes[0].get_ylim()
    assert low == 0.0  # never below 0


def test_ef_labels_do_not_overlap_even_for_crowded_points():
    curves = {
        "random": [
            (f"ef={ef}", 0.2 + i * 0.005, 0.6 + i * 0.004) for i, ef in enumerate((8, 16, 32, 64))
        ],
        "clustered": [("ef=8", 0.2, 0.6), ("ef=16", 0.202, 0.601)],
    }
    fig = recall_vs_latency(curves, exact_ms=1.0)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in fig.axes[0].texts]
    assert len(boxes) == 6
    assert not any(a.overlaps(b) for k, a in enumerate(boxes) for b in boxes[k + 1 :])


def test_exact_search_line_has_a_colour_and_style_no_curve_uses():
    curves = {name: [("ef=16", 0.2, 0.9)] for name in ("a", "b", "c", "d", "e", "f")}
    ax = recall_vs_latency(curves, exact_ms=2.0).axes[0]
    lines = {line.get_label(): line for line in ax.get_lines()}
    exact = lines.pop("exact search (recall 1)")
    assert exact.get_color() not in {line.get_color() for line in lines.values()}
    # the dash pattern as drawn (get_linestyle() names every custom pattern "--")
    assert exact._unscaled_dash_pattern not in {
        line._unscaled_dash_pattern for line in lines.values()
    }
    assert len({line.get_marker() for line in lines.values()}) == 6


ROWS = [[0.1, 0.2], [0.3, 0.4], [0.5, 0.6], [0.7, 0.8]]


def _row_texts(ax) -> list[str]:
    return [t.get_text().split(":")[0] for t in ax.texts if ":" in t.get_text()]


def test_swap_with_last_delete_moves_the_last_row_into_the_hole():
    fig = swap_with_last_delete(ROWS, 1, ids=["c1", "c2", "c3", "c4"])
    before, after = fig.axes[:2]
    assert _row_texts(before) == ["c1", "c2", "c3", "c4"]
    assert _row_texts(after) == ["c1", "c4", "c3"]  # what MatrixVectorStore.delete leaves behind
    assert "c4: [0.70, 0.80]" in [t.get_text() for t in after.texts]
    hatched = [p for p in before.patches if p.get_hatch()]
    assert len(hatched) == 1 and hatched[0].get_y() == pytest.approx(1 - 0.4)  # the deleted row
    arrows = [p for p in before.patches if isinstance(p, FancyArrowPatch)]
    assert len(arrows) == 1
    assert after.get_title() == "after deleting c2"


def test_deleting_the_last_row_moves_nothing():
    fig = swap_with_last_delete(ROWS, 3)
    assert _row_texts(fig.axes[1]) == ["row 0", "row 1", "row 2"]
    assert not [p for p in fig.axes[0].patches if isinstance(p, FancyArrowPatch)]


@pytest.mark.parametrize(
    ("rows", "delete", "ids", "message"),
    [
        ([], 0, None, "no rows"),
        ([[1.0], [1.0, 2.0]], 0, None, "same length"),
        (ROWS, 4, None, "from 0 to 3"),
        (ROWS, True, None, "row number"),
        (ROWS, 0, ["a"], "one id per row"),
    ],
)
def test_swap_with_last_delete_refuses_bad_input(rows, delete, ids, message):
    with pytest.raises(ValueError, match=message):
        swap_with_last_delete(rows, delete, ids=ids)


POSITIONS = {"a": (0, 0), "b": (1, 2), "c": (2, 0.5), "d": (3, 2.5), "e": (4, 1), "f": (2.5, 3.5)}
LAYERS = [
    [("a", "b"), ("b", "c"), ("c", "e"), ("b", "d"), ("d", "f"), ("e", "d")],
    [("a", "e"), ("e", "d")],
    [("a", "e")],
]
PATH = [(2, "a"), (2, "e"), (1, "e"), (1, "d"), (0, "d"), (0, "f")]


def test_hnsw_walk_draws_layers_side_by_side_top_first_with_the_greedy_steps():
    fig = hnsw_walk(POSITIONS, LAYERS, PATH, query=(2.8, 3.4), visited=["a", "e", "d", "f", "b"])
    panels = fig.axes
    assert [ax.get_title().split(":")[0] for ax in panels] == [
        "layer 2 (entry point)",
        "layer 1",
        "layer 0 (every node)",
    ]
    for ax, level in zip(panels, (2, 1, 0), strict=True):
        arrows = [p for p in ax.patches if isinstance(p, FancyArrowPatch)]
        assert len(arrows) == 1  # one greedy step in each layer of this walk
        assert len(ax.get_lines()) == len(LAYERS[level])  # one line per edge
    stars = [
        c for c in panels[0].collections if len(c.get_offsets()) == 1 and c.get_sizes()[0] == 200
    ]
    assert [tuple(s.get_offsets()[0]) for s in stars] == [(0, 0)]  # the entry point
    assert "5 of 6 nodes had their distance computed" in fig.get_suptitle()
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "distance computed" in labels and "query" in labels


@pytest.mark.parametrize(
    ("path", "message"),
    [([], "path is empty"), ([(2, "a"), (2, "c")], "not an edge of layer 2"),
     ([(2, "a"), (0, "a")], "one layer at a time"), ([(2, "a"), (1, "e")], "one layer at a time"),
     ([(5, "a")], "step 0")],
)
def test_hnsw_walk_refuses_a_path_the_graph_does_not_allow(path, message):
    with pytest.raises(ValueError, match=message):
        hnsw_walk(POSITIONS, LAYERS, path)


def test_hnsw_walk_refuses_unknown_nodes():
    with pytest.raises(ValueError, match="no position"):
        hnsw_walk(POSITIONS, [[("a", "zz")]], [(0, "a")])
    with pytest.raises(ValueError, match="visited"):
        hnsw_walk(POSITIONS, LAYERS, PATH, visited=["zz"])
    with pytest.raises(ValueError, match="2-D"):
        hnsw_walk({"a": (0, 0, 0)}, [[]], [(0, "a")])


PAIRS = {"random": [-0.1, 0.0, 0.05, 0.1], "real": [0.1, 0.2, 0.25, 0.5, 0.6]}
NEAREST = {"random": [0.15, 0.2], "real": [0.7, 0.8, 0.95]}


def test_cosine_distributions_draws_one_outline_and_one_median_marker_per_set():
    fig = cosine_distributions(PAIRS, NEAREST, bins=10)
    assert len(fig.axes) == 2
    for ax, data in zip(fig.axes, (PAIRS, NEAREST), strict=True):
        outlines = [p for p in ax.patches if p.get_label() in data]
        assert [p.get_label() for p in outlines] == list(data)
        assert all(not p.get_fill() for p in outlines)  # outlines, so overlapping sets stay readable
        medians = {line.get_label(): line for line in ax.get_lines()}
        for name, values in data.items():
            assert list(medians[f"median, {name}"].get_xdata()) == [float(np.median(values))]
        assert len({line.get_marker() for line in medians.values()}) == len(data)
        assert len({str(p.get_linestyle()) for p in outlines}) == len(data)  # not colour alone
    assert "nearest" in fig.axes[1].get_xlabel()


def test_cosine_distributions_uses_only_the_palette():
    fig = cosine_distributions(PAIRS, NEAREST)
    palette = {to_hex(c) for c in [*OKABE_ITO.values(), *GREYS.values()]}
    for ax in fig.axes:
        assert {to_hex(p.get_edgecolor()) for p in ax.patches if p.get_label() in PAIRS} <= palette
        assert {to_hex(line.get_color()) for line in ax.get_lines()} <= palette


def test_cosine_distributions_without_nearest_has_one_panel():
    assert len(cosine_distributions(PAIRS).axes) == 1


@pytest.mark.parametrize(
    ("pairs", "nearest", "bins", "message"),
    [
        ({}, None, 10, "at least one data set"),
        ({"a": []}, None, 10, "no cosines"),
        ({"a": [0.5, 1.5]}, None, 10, "no cosine"),
        (PAIRS, {"real": [0.9], "random": [0.2]}, 10, "same data sets in the same order"),
        (PAIRS, None, 1, "bins"),
    ],
)
def test_cosine_distributions_refuses_what_is_not_a_set_of_cosines(pairs, nearest, bins, message):
    with pytest.raises(ValueError, match=message):
        cosine_distributions(pairs, nearest, bins=bins)


# ----------------------------------------------------------------------------- recall_tradeoff (notebook 12)

TRADEOFF = {
    "IVF, nprobe": [("1", 0.61, 52.4), ("8", 0.98, 238.8), ("24", 1.0, 606.0)],
    "HNSW, efSearch": [("10", 0.96, 111.8), ("64", 1.0, 321.0)],
}


def test_recall_tradeoff_puts_recall_across_and_the_cost_up_on_a_log_axis():
    fig = recall_tradeoff(TRADEOFF, measure="vectors visited per query", better="lower",
                          exact=("IndexFlatIP", 582.0))
    ax = fig.axes[0]
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert list(lines["IVF, nprobe"].get_xdata()) == [0.61, 0.98, 1.0]  # in the knob's order
    assert list(lines["IVF, nprobe"].get_ydata()) == [52.4, 238.8, 606.0]
    star = lines["exact search: IndexFlatIP (recall 1)"]
    assert (list(star.get_xdata()), list(star.get_ydata()), star.get_marker()) == ([1.0], [582.0], "*")
    assert ax.get_yscale() == "log"
    assert ax.get_ylabel() == "vectors visited per query (lower is better)"
    assert sorted(t.get_text() for t in ax.texts) == ["1", "10", "24", "64", "8"]
    low, high = ax.get_xlim()
    assert 0.5 < low < 0.61 and 1.0 <= high <= 1.1  # zoomed to the recalls, never below 0


def test_recall_tradeoff_tells_the_curves_apart_by_marker_and_style_in_the_palette():
    ax = recall_tradeoff(TRADEOFF, measure="queries per second", better="higher",
                         exact=("flat", 3000.0)).axes[0]
    curves = [line for line in ax.get_lines() if line.get_label() in TRADEOFF]
    assert len({line.get_marker() for line in curves}) == 2
    assert len({str(line.get_linestyle()) for line in curves}) == 2
    palette = {to_hex(c) for c in [*OKABE_ITO.values(), *GREYS.values()]}
    assert {to_hex(line.get_color()) for line in ax.get_lines()} <= palette
    assert "higher is better" in ax.get_ylabel()


@pytest.mark.parametrize(
    ("curves", "kwargs", "message"),
    [
        ({}, {}, "at least one curve"),
        ({"a": []}, {}, "no \\(label"),
        ({"a": [("p", 1.2, 5.0)]}, {}, "recall lies in"),
        ({"a": [("p", 0.5, 0.0)]}, {}, "log axis"),
        ({"a": [("p", 0.5, 5.0)]}, {"better": "up"}, "'lower' or 'higher'"),
        ({"a": [("p", 0.5, 5.0)]}, {"exact": ("flat", -1.0)}, "must be > 0"),
    ],
)
def test_recall_tradeoff_refuses_what_it_cannot_draw(curves, kwargs, message):
    with pytest.raises(ValueError, match=message):
        recall_tradeoff(curves, **{"measure": "visits", "better": "lower", **kwargs})
