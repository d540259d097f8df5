"""The pictures of notebook 16: the standard suite store by store, and what int8 quantization keeps."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest
from matplotlib.colors import to_hex

from retrieval_lab.plots import quantization_bars, suite_grid
from retrieval_lab.plots._style import OKABE_ITO


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


REPORTS = {
    "mine": {"test_a": True, "test_b": True, "test_c": True},
    "draft": {"test_a": True, "test_b": False, "test_c": False},
}


def test_suite_grid_draws_one_marker_per_store_and_test_with_colour_and_shape_by_outcome():
    fig = suite_grid(REPORTS)
    ax = fig.axes[0]
    markers = [line for line in ax.get_lines() if line.get_label().startswith("_")]
    assert len(markers) == 6
    passed = [m for m in markers if m.get_marker() == "o"]
    failed = [m for m in markers if m.get_marker() == "X"]
    assert len(passed) == 4 and len(failed) == 2
    assert {to_hex(m.get_color()) for m in passed} == {OKABE_ITO["bluish_green"]}
    assert {to_hex(m.get_color()) for m in failed} == {OKABE_ITO["vermillion"]}
    # the draft's column is x = 1; its failures are the rows of test_b and test_c (y = 1, 2)
    assert sorted((m.get_xdata()[0], m.get_ydata()[0]) for m in failed) == [(1, 1), (1, 2)]


def test_suite_grid_labels_rows_by_test_and_columns_by_store_with_their_counts():
    ax = suite_grid(REPORTS).axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b", "c"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["mine\n3 of 3", "draft\n1 of 3"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["passed", "did not pass"]


@pytest.mark.parametrize(
    ("reports", "message"),
    [
        ({}, "no stores"),
        ({"a": {}}, "lists no tests"),
        ({"a": {"test_x": True}, "b": {"test_y": True}}, "other tests"),
    ],
)
def test_suite_grid_refuses_reports_it_cannot_draw(reports, message):
    with pytest.raises(ValueError, match=message):
        suite_grid(reports)


def test_quantization_bars_draws_bytes_and_recall_per_setting_with_the_values_written():
    fig = quantization_bars({"float32": (1536, 1.0), "int8": (388, 0.984)})
    left, right = fig.axes
    assert [round(p.get_width()) for p in left.patches] == [1536, 388]
    assert [p.get_width() for p in right.patches] == [1.0, 0.984]
    assert [t.get_text() for t in left.texts] == ["1,536 B", "388 B"]
    assert [t.get_text() for t in right.texts] == ["1.000", "0.984"]
    assert [p.get_hatch() for p in right.patches] == [None, "//"]  # the reference is solid
    assert [t.get_text() for t in left.get_yticklabels()] == ["float32", "int8"]
    assert right.get_xlim() == (0.0, 1.18)


@pytest.mark.parametrize(
    ("rows", "message"),
    [({}, "no settings"), ({"a": (0, 0.5)}, "bytes per vector"), ({"a": (4, 1.2)}, "recall lies in")],
)
def test_quantization_bars_refuses_what_it_cannot_show(rows, message):
    with pytest.raises(ValueError, match=message):
        quantization_bars(rows)


def test_recall_latency_spread_puts_each_point_at_the_median_with_the_middle_half_as_its_bar():
    from retrieval_lab.plots import recall_latency_spread

    times = [1.0, 2.0, 3.0, 4.0, 5.0]  # median 3, quartiles 2 and 4
    fig = recall_latency_spread({"m=16": [("ef=10", times, 0.9), ("ef=40", [6.0] * 5, 0.99)]},
                                exact=[10.0, 12.0, 14.0])
    ax = fig.axes[0]
    line = ax.get_lines()[0]
    assert list(line.get_xdata()) == [3.0, 6.0] and list(line.get_ydata()) == [0.9, 0.99]
    bars = ax.containers[0][2][0].get_segments()
    assert [tuple(p[0] for p in bar) for bar in bars] == [(2.0, 4.0), (6.0, 6.0)]
    assert any(v.get_xdata()[0] == 12.0 for v in ax.get_lines()[1:])  # exact search's median
    assert ax.get_xscale() == "log"
    with pytest.raises(ValueError, match="positive times"):
        recall_latency_spread({"x": [("ef=1", [0.0], 0.5)]})
