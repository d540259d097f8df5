"""The scaling pictures of notebook 10: latency against n (log-log) and recall against latency."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from retrieval_lab.plots import latency_vs_n, recall_vs_latency


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
    assert list(lines["lists"].get_xdata()) == [1000, 10_000]  # sorted by n, whatever the dict order
    guide = lines["slope 1 (∝ n) through matrix"]
    assert np.allclose(guide.get_ydata(), [0.1, 1.0, 10.0])  # proportional to n from the first point


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
