"""Unit tests for the meaning pictures of notebook 05."""

from __future__ import annotations

from itertools import pairwise

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_hex

from retrieval_lab import plots
from retrieval_lab.plots import GREYS, OKABE_ITO, similarity_heatmaps

MATRIX = np.array([[1.0, 0.25, -0.1], [0.25, 1.0, 0.7], [-0.1, 0.7, 1.0]])
LABELS = ["a cat", "a dog", "a pet"]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _panels(fig):
    return [ax for ax in fig.axes if ax.images]


def test_one_panel_per_matrix_with_labels_and_a_shared_scale():
    fig = similarity_heatmaps(LABELS, {"BagOfWords": MATRIX, "MiniLM": MATRIX.T}, title="t")
    panels = _panels(fig)
    assert [ax.get_title() for ax in panels] == ["BagOfWords", "MiniLM"]
    for ax in panels:
        assert ax.images[0].get_clim() == (0.0, 1.0)
        assert [t.get_text() for t in ax.get_yticklabels()] == LABELS
        assert [t.get_text() for t in ax.get_xticklabels()] == LABELS
    assert np.array_equal(panels[0].images[0].get_array(), MATRIX)
    assert len(fig.axes) == 3  # two panels and one colour bar
    assert fig.get_suptitle() == "t"


def test_every_cell_shows_its_value_with_two_decimals():
    ax = _panels(similarity_heatmaps(LABELS, {"m": MATRIX}))[0]
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == sorted(f"{v:.2f}" for v in MATRIX.ravel())
    assert "-0.10" in texts  # a negative value keeps its number though its colour is 0's


def test_nan_is_grey_and_marked():
    matrix = np.array([[1.0, np.nan], [np.nan, 1.0]])
    ax = _panels(similarity_heatmaps(["p", "q"], {"zero vector": matrix}))[0]
    assert sorted(t.get_text() for t in ax.texts) == ["1.00", "1.00", "n/a", "n/a"]
    assert to_hex(ax.images[0].get_cmap().get_bad()) == GREYS["light_grey"]


def test_the_colour_map_is_sequential_and_from_the_palette():
    cmap = _panels(similarity_heatmaps(LABELS, {"m": MATRIX}))[0].images[0].get_cmap()
    ends = [to_hex(cmap(v)) for v in (0.0, 0.5, 1.0)]
    assert ends == [GREYS["white"], OKABE_ITO["sky_blue"], OKABE_ITO["blue"]]
    # light to dark: the order survives in grey, for readers who see no hue
    grey = [np.dot(cmap(v)[:3], [0.299, 0.587, 0.114]) for v in np.linspace(0, 1, 11)]
    assert all(a > b for a, b in pairwise(grey))


def test_dark_cells_get_white_text():
    ax = _panels(similarity_heatmaps(LABELS, {"m": MATRIX}))[0]
    colours = {t.get_text(): to_hex(t.get_color()) for t in ax.texts}
    assert colours["1.00"] == GREYS["white"] and colours["0.25"] == OKABE_ITO["black"]


@pytest.mark.parametrize(
    ("labels", "matrices", "words"),
    [
        ([], {"m": MATRIX}, "labels is empty"),
        (LABELS, {}, "at least one entry"),
        (LABELS[:2], {"m": MATRIX}, "must be 2×2"),
        (["x", "y"], {"m": [[1.0, 0.5], [0.5]]}, "ragged"),
    ],
)
def test_bad_input_says_what_to_do(labels, matrices, words):
    with pytest.raises(ValueError, match=words):
        similarity_heatmaps(labels, matrices)


def test_the_older_call_of_notebook_04_still_draws_its_maps():
    fig = plots.similarity_heatmaps({"m": MATRIX.tolist()}, LABELS, groups=["p", "p", "q"])
    assert _panels(fig)[0].images[0].get_clim() == (-1, 1)
    with pytest.raises(TypeError, match="unexpected options"):
        similarity_heatmaps(LABELS, {"m": MATRIX}, groups=["p", "p", "q"])
