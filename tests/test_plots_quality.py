"""Unit tests for the pictures of notebook 14 (measuring retrieval)."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_hex

from retrieval_lab import plots
from retrieval_lab.plots import COLORS, SERIES

KS = [1, 3, 5]
CURVES = {"BM25": [0.2, 0.5, 0.7], "MiniLM": [0.3, 0.6, 0.8]}


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_at_k_curves_draw_one_styled_line_per_retriever_in_each_panel():
    fig = plots.at_k_curves(KS, {"hit rate": CURVES, "recall": CURVES})
    panels = [ax for ax in fig.axes if ax.lines]
    assert [ax.get_title() for ax in panels] == ["hit rate@k", "recall@k"]
    for ax in panels:
        assert [line.get_label() for line in ax.lines] == ["BM25", "MiniLM"]
        assert [list(line.get_ydata()) for line in ax.lines] == list(CURVES.values())
        styles = {(to_hex(line.get_color()), line.get_marker()) for line in ax.lines}
        assert styles == {(to_hex(c), m) for c, m, _ in SERIES[:2]}
        assert ax.get_ylim() == (0, 1.02)


@pytest.mark.parametrize(
    ("ks", "panels", "message"),
    [
        ([3, 1], {"r": CURVES}, "increasing"),
        (KS, {}, "give panels"),
        (KS, {"r": {"BM25": [0.1]}}, "has 1 values for 3 points"),
        (KS, {"r": CURVES, "h": {"MiniLM": [0, 0, 0], "BM25": [0, 0, 0]}}, "same retrievers"),
    ],
)
def test_at_k_curves_refuse_what_they_cannot_draw(ks, panels, message):
    with pytest.raises(ValueError, match=message):
        plots.at_k_curves(ks, panels)


def test_wins_and_losses_sorts_bars_and_counts_ties():
    diffs = {"q3": -0.5, "q1": 1.0, "q2": 0.0, "q4": 0.5, "q5": 0.5}
    fig = plots.wins_and_losses(diffs, ("MiniLM", "BM25"))
    ax = fig.axes[0]
    heights = [p.get_height() for p in ax.patches]
    assert heights == [1.0, 0.5, 0.5, -0.5]
    colours = [to_hex(p.get_facecolor()) for p in ax.patches]
    assert colours == [to_hex(COLORS["mine"])] * 3 + [to_hex(COLORS["real"])]
    assert ax.patches[-1].get_hatch() == "//"
    assert "1 equal" in ax.get_title()
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["MiniLM better (3)", "BM25 better (1)"]


def test_wins_and_losses_refuses_empty_or_broken_input():
    with pytest.raises(ValueError, match="at least one question"):
        plots.wins_and_losses({}, ("a", "b"))
    with pytest.raises(ValueError, match="not finite"):
        plots.wins_and_losses({"q1": math.nan}, ("a", "b"))


def test_chunking_heatmap_writes_each_value_and_greys_out_nan():
    grid = [[0.5, 0.75], [math.nan, 0.25]]
    fig = plots.chunking_heatmap([200, 400], [0, 200], {"recall@5": grid, "hit rate": grid})
    panels = [ax for ax in fig.axes if ax.images]
    assert [ax.get_title() for ax in panels] == ["recall@5", "hit rate"]
    texts = [t.get_text() for t in panels[0].texts]
    assert texts == ["0.50", "0.75", "n/a", "0.25"]
    assert [t.get_text() for t in panels[0].get_xticklabels()] == ["200", "400"]
    assert panels[0].images[0].get_clim() == (0.0, 1.0)
    assert np.ma.is_masked(panels[0].images[0].get_array()[1, 0])


def test_chunking_heatmap_refuses_a_grid_of_the_wrong_shape():
    with pytest.raises(ValueError, match=r"expected one row per overlap .* \(2, 3\)"):
        plots.chunking_heatmap([1, 2, 3], [0, 1], {"r": [[0.1, 0.2], [0.3, 0.4]]})


def test_threshold_curves_draw_each_series_and_the_chosen_threshold():
    fig = plots.threshold_curves([0.2, 0.4, 0.6], {"precision": [0.3, 0.6, 0.9],
                                                   "recall": [0.9, 0.5, 0.1]}, chosen=0.4)
    ax = fig.axes[0]
    assert [line.get_label() for line in ax.lines[:2]] == ["precision", "recall"]
    assert list(ax.lines[2].get_xdata()) == [0.4, 0.4]
    assert [t.get_text() for t in ax.texts] == ["0.4"]
    with pytest.raises(ValueError, match="increasing"):
        plots.threshold_curves([0.4, 0.2], {"p": [0, 0]})
