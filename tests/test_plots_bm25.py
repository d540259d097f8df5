"""Unit tests for notebook 09's BM25 heat map."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest
from matplotlib.patches import Rectangle

from retrieval_lab.plots.bm25 import k1_b_heatmap

K1S, BS = [0.5, 1.2], [0.0, 0.5, 1.0]
GRID = [[0.30, 0.35, 0.32], [0.33, 0.40, 0.31]]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_every_cell_carries_its_value_and_the_choice_is_outlined():
    fig = k1_b_heatmap(K1S, BS, GRID, chosen=(1.2, 0.5))
    ax = fig.axes[0]
    assert sorted(t.get_text() for t in ax.texts) == sorted(f"{v:.3f}" for r in GRID for v in r)
    boxes = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert [(b.get_x(), b.get_y()) for b in boxes] == [(0.5, 0.5)]
    assert "k1=1.2, b=0.5" in ax.get_title()


@pytest.mark.parametrize(
    ("grid", "chosen", "message"),
    [([[0.1, 0.2]], None, "one row per k1"), (GRID, (2.0, 0.5), "not on the grid")],
)
def test_bad_input_is_refused_with_a_reason(grid, chosen, message):
    with pytest.raises(ValueError, match=message):
        k1_b_heatmap(K1S, BS, grid, chosen=chosen)
