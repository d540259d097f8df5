"""Unit tests for the pictures of the second-stage notebook (reranking)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest
from matplotlib.colors import to_hex

from retrieval_lab import plots
from retrieval_lab.plots.rerank import MOVE_STYLES

MOVES = {
    "best sentence@50": {"q1": (5, 1), "q2": (1, 3), "q3": (2, 2), "q4": (None, 7)},
    "learned@50": {"q1": (5, 2), "q2": (1, 1), "q3": (2, None), "q4": (None, None)},
}


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_rank_moves_draws_one_styled_line_per_question_in_each_panel():
    fig = plots.rank_moves(MOVES, depth=100)
    panels = [ax for ax in fig.axes if ax.lines]
    assert [ax.get_title() for ax in panels] == list(MOVES)
    first = panels[0]
    lines = first.lines
    assert [list(line.get_ydata()) for line in lines] == [[5, 1], [1, 3], [2, 2], [200, 7]]
    kinds = ["up", "down", "same", "up"]
    for line, kind in zip(lines, kinds, strict=True):
        colour, style = MOVE_STYLES[kind]
        assert to_hex(line.get_color()) == colour
        assert line.get_linestyle() == {"-": "-", "--": "--", ":": ":"}[style]
    labels = [t.get_text() for t in first.get_legend().get_texts()]
    assert labels == ["up: 2", "down: 1", "same: 1"]
    assert first.get_yticklabels()[-1].get_text() == "none"
    assert first.get_ylim()[0] > first.get_ylim()[1]  # rank 1 on top


@pytest.mark.parametrize(
    ("moves", "message"),
    [({}, "give"), ({"a": {}}, "no questions"), ({str(i): MOVES["learned@50"] for i in range(5)}, "at most")],
)
def test_rank_moves_refuses_bad_input(moves, message):
    with pytest.raises(ValueError, match=message):
        plots.rank_moves(moves)


COSTS = {"first": 1.0, "best sentence@20": 2.0, "best sentence@50": 3.0, "learned@20": 2.5}
QUALITY = {"first": 0.4, "best sentence@20": 0.45, "best sentence@50": 0.5, "learned@20": 0.48}


def test_quality_vs_cost_draws_the_baseline_and_one_line_per_reranker():
    fig = plots.quality_vs_cost(COSTS, QUALITY, "first")
    ax = fig.axes[0]
    by_label = {line.get_label(): line for line in ax.lines}
    assert list(by_label) == ["first (first stage)", "best sentence", "learned"]
    assert list(by_label["best sentence"].get_xdata()) == [2.0, 3.0]
    assert list(by_label["best sentence"].get_ydata()) == [0.45, 0.5]
    assert to_hex(by_label["first (first stage)"].get_color()) == plots.OKABE_ITO["black"]
    assert to_hex(by_label["best sentence"].get_color()) == plots.SERIES[0][0]
    assert [t.get_text() for t in ax.texts] == ["20", "50", "20"]
    assert ax.get_xlim()[0] == 0


@pytest.mark.parametrize(
    ("costs", "quality", "message"),
    [
        (COSTS, QUALITY, "baseline"),
        ({**COSTS, "oddname": 1.0}, {**QUALITY, "oddname": 0.1}, "reranker"),
        ({**COSTS, "learned@50": 0.0}, {**QUALITY, "learned@50": 0.5}, "positive"),
    ],
)
def test_quality_vs_cost_refuses_bad_input(costs, quality, message):
    baseline = "nope" if message == "baseline" else "first"
    with pytest.raises(ValueError, match=message):
        plots.quality_vs_cost(costs, quality, baseline)
