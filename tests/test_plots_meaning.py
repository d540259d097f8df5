"""Unit tests for the meaning pictures of notebook 05."""

from __future__ import annotations

from itertools import pairwise

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_hex

from retrieval_lab import plots
from retrieval_lab.plots import GREYS, OKABE_ITO


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _panels(fig):
    return [ax for ax in fig.axes if ax.images]


def test_the_attention_colour_map_is_sequential_and_from_the_palette():
    cmap = _panels(plots.attention_heatmap(["a", "b"], [[0.7, 0.3], [0.4, 0.6]]))[0].images[0].get_cmap()
    ends = [to_hex(cmap(v)) for v in (0.0, 0.5, 1.0)]
    assert ends == [GREYS["white"], OKABE_ITO["sky_blue"], OKABE_ITO["blue"]]
    # light to dark: the order survives in grey, for readers who see no hue
    grey = [np.dot(cmap(v)[:3], [0.299, 0.587, 0.114]) for v in np.linspace(0, 1, 11)]
    assert all(a > b for a, b in pairwise(grey))


TOKENS = ["[CLS]", "the", "cat", "sat", "[SEP]"]


def _weights(n: int) -> np.ndarray:
    raw = np.arange(1.0, n * n + 1).reshape(n, n)
    return raw / raw.sum(1, keepdims=True)


def test_attention_heatmap_labels_both_axes_with_the_tokens():
    fig = plots.attention_heatmap(TOKENS, _weights(5), title="layer 1, head 1")
    ax = _panels(fig)[0]
    assert [t.get_text() for t in ax.get_xticklabels()] == TOKENS
    assert [t.get_text() for t in ax.get_yticklabels()] == TOKENS
    assert np.allclose(ax.images[0].get_array(), _weights(5))
    assert ax.images[0].get_cmap().name == "okabe_ito_sequential"
    assert ax.get_title() == "layer 1, head 1"


def test_attention_heatmap_outlines_and_writes_the_highlighted_cell():
    weights = _weights(5)
    ax = _panels(plots.attention_heatmap(TOKENS, weights, highlight=(3, 2)))[0]
    (box,) = ax.patches
    assert box.get_xy() == (1.5, 2.5) and not box.get_fill()
    assert [t.get_text() for t in ax.texts] == [f"{weights[3, 2]:.2f}"]


@pytest.mark.parametrize(
    ("tokens", "weights", "kwargs", "words"),
    [
        (TOKENS, np.ones((2, 5, 5)), {}, "one head"),
        (TOKENS[:3], _weights(5), {}, "must be 3×3"),
        ([], np.ones((0, 0)), {}, "tokens is empty"),
        (TOKENS, _weights(5), {"highlight": (5, 0)}, "outside the 5 tokens"),
    ],
)
def test_attention_heatmap_refuses_bad_input(tokens, weights, kwargs, words):
    with pytest.raises(ValueError, match=words):
        plots.attention_heatmap(tokens, weights, **kwargs)


POINTS = np.array([[0.0, 1.0], [0.1, 0.9], [1.0, 0.0], [0.9, -0.1], [-1.0, -1.0]])
TOPICS = ["pets", "pets", "code", "code", "food"]


def test_topic_scatter_draws_one_series_per_topic_with_its_own_marker():
    fig = plots.topic_scatter(POINTS, TOPICS, labels=list("abcde"), title="t")
    ax = fig.axes[0]
    series = ax.collections
    assert [c.get_label() for c in series] == ["pets", "code", "food"]
    assert [c.get_offsets().tolist() for c in series] == [
        POINTS[:2].tolist(), POINTS[2:4].tolist(), POINTS[4:].tolist()
    ]
    colours = [to_hex(c.get_facecolor()[0]) for c in series]
    markers = [c.get_paths()[0].vertices.round(3).tolist() for c in series]
    assert len(set(colours)) == 3 and all(a != b for a, b in pairwise(markers))
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["pets", "code", "food"]
    assert sorted(t.get_text() for t in ax.texts) == list("abcde")


@pytest.mark.parametrize(
    ("points", "topics", "labels", "words"),
    [
        (POINTS[:, :1], TOPICS, None, r"\(n, 2\) array"),
        (POINTS, TOPICS[:2], None, "2 topics for 5 points"),
        (POINTS, TOPICS, ["a"], "1 labels for 5 points"),
        (np.zeros((7, 2)), list("abcdefg"), None, "7 topics"),
    ],
)
def test_topic_scatter_refuses_bad_input(points, topics, labels, words):
    with pytest.raises(ValueError, match=words):
        plots.topic_scatter(points, topics, labels=labels)


@pytest.mark.parametrize(
    "draw",
    [
        lambda: plots.attention_heatmap(TOKENS, _weights(5), title="t", highlight=(3, 2)),
        lambda: plots.topic_scatter(POINTS, TOPICS, labels=list("abcde"), title="t"),
    ],
    ids=["attention_heatmap", "topic_scatter"],
)
def test_only_palette_colours(draw):
    from test_palette import off_palette  # tests/ is on the path: pytest's rootdir import mode

    assert off_palette(draw()) == []
