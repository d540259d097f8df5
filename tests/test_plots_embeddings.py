"""Unit tests for the embedding pictures: vector_arrows, zero_vector_plot, similarity_heatmaps."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_hex
from matplotlib.patches import Arc, FancyArrowPatch

from retrieval_lab.plots import COLORS, GREYS, similarity_heatmaps, vector_arrows, zero_vector_plot


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


PLANE = {"c1": [3.0, 1.0], "c2": [3.0, 1.0], "c4": [1.0, 1.0], "c6": [0.0, 1.0]}


def _texts(ax) -> list[str]:
    return [t.get_text() for t in ax.texts]


def _arrows(ax) -> list[FancyArrowPatch]:
    return [p for p in ax.patches if isinstance(p, FancyArrowPatch)]


def test_one_arrow_per_distinct_vector_plus_the_query():
    fig = vector_arrows(PLANE, query=[1, 0])
    ax = fig.axes[0]
    assert len(_arrows(ax)) == 3 + 1  # c1 and c2 are identical: one arrow, labelled "c1 = c2"
    assert "c1 = c2" in _texts(ax) and "query" in _texts(ax)
    assert to_hex(_arrows(ax)[-1].get_edgecolor()) == COLORS["query"]


def test_without_a_query_only_the_vectors_are_drawn():
    ax = vector_arrows(PLANE).axes[0]
    assert len(_arrows(ax)) == 3 and "query" not in _texts(ax)


def test_angles_are_labelled_with_the_cosine_to_the_query():
    ax = vector_arrows(PLANE, query=[1, 0], show_angles=True).axes[0]
    texts = "\n".join(_texts(ax))
    assert f"cos = {3 / math.sqrt(10):.3f}" in texts
    assert f"cos = {1 / math.sqrt(2):.3f}" in texts
    assert "cos = 0.000" in texts
    assert len([p for p in ax.patches if isinstance(p, Arc)]) == 3


def test_a_zero_vector_has_no_angle():
    ax = vector_arrows({"zero": [0, 0], "cat": [1, 0]}, query=[1, 1], show_angles=True).axes[0]
    assert any("cos undefined" in t for t in _texts(ax))
    assert len([p for p in ax.patches if isinstance(p, Arc)]) == 1


def test_a_zero_query_is_marked_as_such():
    ax = vector_arrows(PLANE, query=[0, 0]).axes[0]
    assert "query (zero vector)" in _texts(ax)


def test_highlights_are_coloured_and_numbered_in_order():
    ax = vector_arrows(PLANE, query=[1, 0], highlight=["c4", "c1"]).axes[0]
    texts = _texts(ax)
    assert "c4 (#1)" in texts and "c1 (#2) = c2" in texts
    colours = [to_hex(a.get_edgecolor()) for a in _arrows(ax)[:3]]
    assert colours.count(COLORS["mine"]) == 2 and colours.count(COLORS["muted"]) == 1


def test_highlights_can_go_unnumbered():
    texts = _texts(vector_arrows(PLANE, highlight=["c4"], numbered=False).axes[0])
    assert "c4" in texts and not any("#" in t for t in texts)


def test_points_style_draws_tips_not_arrows():
    ax = vector_arrows(PLANE, query=[1, 0], style="points").axes[0]
    assert _arrows(ax) == []
    assert len(ax.collections) == 3 + 1  # three distinct tips and the query's star


def test_it_draws_into_a_given_panel():
    fig, (left, right) = plt.subplots(1, 2)
    assert vector_arrows(PLANE, ax=right, title="right") is fig
    assert right.get_title() == "right" and not left.patches


def test_negative_coordinates_stay_in_view():
    ax = vector_arrows({"a": [-2, 1], "b": [1, -3]}).axes[0]
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    assert x0 < -2 and x1 > 1 and y0 < -3 and y1 > 1


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"vectors": {}}, "no documents"),
        ({"vectors": {"d1": [1, 0, 0]}}, "2-D vectors only"),
        ({"vectors": PLANE, "query": [1, 0, 0]}, "query must be 2-D"),
        ({"vectors": PLANE, "highlight": ["nope"]}, "not among the documents"),
        ({"vectors": PLANE, "style": "bars"}, "style must be"),
        ({"vectors": PLANE, "show_angles": True}, "pass query"),
        ({"vectors": PLANE, "axis_labels": ["cat"]}, "two axis labels"),
    ],
)
def test_bad_input_to_vector_arrows_says_what_to_do(kwargs, words):
    vectors = kwargs.pop("vectors")
    with pytest.raises(ValueError, match=words):
        vector_arrows(vectors, **kwargs)


MATRIX = [[1.0, 0.5, -0.2], [0.5, 1.0, 0.0], [-0.2, 0.0, 1.0]]


def test_one_panel_per_matrix_on_a_shared_scale():
    fig = similarity_heatmaps(
        {"a": MATRIX, "b": [[-v for v in row] for row in MATRIX]}, ["x", "y", "z"]
    )
    panels = [ax for ax in fig.axes if ax.images]
    assert [ax.get_title() for ax in panels] == ["a", "b"]
    for ax in panels:
        assert ax.images[0].get_clim() == (-1, 1)
        assert [t.get_text() for t in ax.get_yticklabels()] == ["x", "y", "z"]
    assert panels[0].images[0].get_array().tolist() == MATRIX
    assert len(fig.axes) == 3  # two panels and one colour bar


def test_cells_are_annotated_and_nan_is_marked():
    matrix = [[1.0, float("nan")], [float("nan"), 1.0]]
    ax = similarity_heatmaps({"zero vector": matrix}, ["p", "q"]).axes[0]
    assert sorted(_texts(ax)) == ["1.00", "1.00", "n/a", "n/a"]
    assert not similarity_heatmaps({"m": MATRIX}, ["x", "y", "z"], annotate=False).axes[0].texts


@pytest.mark.parametrize(
    ("panels", "labels", "words"),
    [
        ({}, ["x"], "at least one entry"),
        ([MATRIX], ["x", "y", "z"], "at least one entry"),
        ({"m": MATRIX}, [], "labels is empty"),
        ({"m": MATRIX}, ["x", "y"], "must be a 2×2 matrix"),
        ({"m": [[1.0, 0.5], [0.5]]}, ["x", "y"], "must be a 2×2 matrix"),
    ],
)
def test_bad_input_to_similarity_heatmaps_says_what_to_do(panels, labels, words):
    with pytest.raises(ValueError, match=words):
        similarity_heatmaps(panels, labels)


def test_labels_beyond_the_tips_do_not_overlap_the_angle_arcs():
    """The 'c6 cos = 0.000' label sat on the arcs; every label now clears every arc."""
    plane = {
        "c1": [3.0, 1.0],
        "c2": [3.0, 1.0],
        "c3": [2.0, 1.0],
        "c4": [1.0, 1.0],
        "c5": [1.0, 3.0],
        "c6": [0.0, 1.0],
    }
    fig = vector_arrows(
        plane, query=[1, 0], show_angles=True, highlight=["c1", "c2"], numbered=False
    )
    ax = fig.axes[0]
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    arcs = [p for p in ax.patches if isinstance(p, Arc)]
    assert len(arcs) == 5
    labels = [t for t in ax.texts if "cos =" in t.get_text()]
    assert any(t.get_text().startswith("c6\ncos = 0.000") for t in labels)
    for arc in arcs:
        radius = arc.width / 2
        angles = np.radians(np.linspace(arc.theta1, arc.theta2, 60))
        points = ax.transData.transform(
            np.column_stack([radius * np.cos(angles), radius * np.sin(angles)])
        )
        for text in labels:
            box = text.get_window_extent(renderer)
            assert not any(box.contains(x, y) for x, y in points), (text.get_text(), radius)


def test_heatmap_rows_are_ordered_by_topic_with_a_line_between_topics():
    matrix = [[1.0, 0.1, 0.8], [0.1, 1.0, 0.2], [0.8, 0.2, 1.0]]
    fig = similarity_heatmaps(
        {"m": matrix}, ["pet 1", "code", "pet 2"], groups=["pets", "code", "pets"]
    )
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["pet 1", "pet 2", "code"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["pet 1", "pet 2", "code"]
    assert ax.images[0].get_array().tolist() == [[1.0, 0.8, 0.1], [0.8, 1.0, 0.2], [0.1, 0.2, 1.0]]
    bounds = sorted(
        {
            line.get_ydata()[0]
            for line in ax.get_lines()
            if line.get_ydata()[0] == line.get_ydata()[1]
        }
    )
    assert bounds == [1.5]  # between the pets block and the code block


def test_heatmap_order_by_hand():
    fig = similarity_heatmaps({"m": MATRIX}, ["x", "y", "z"], order=[2, 0, 1])
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["z", "x", "y"]
    assert ax.images[0].get_array().tolist()[0] == [1.0, -0.2, 0.0]
    assert not ax.get_lines()  # no groups, no lines


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [({"order": [0, 1]}, "each row number"), ({"order": [0, 0, 1]}, "each row number"),
     ({"groups": ["a", "b"]}, "one topic per label")],
)
def test_heatmap_refuses_a_bad_order(kwargs, words):
    with pytest.raises(ValueError, match=words):
        similarity_heatmaps({"m": MATRIX}, ["x", "y", "z"], **kwargs)


def test_zero_vector_is_a_point_with_no_arrow():
    fig = zero_vector_plot({"cat": [1, 0], "cat dog": [1, 1], "hello": [0, 0]})
    ax = fig.axes[0]
    arrows = _arrows(ax)
    assert sorted(tuple(a._posA_posB[1]) for a in arrows) == [(1, 0), (1, 1)]  # no arrow for (0, 0)
    points = list(ax.collections)
    assert len(points) == 1 and points[0].get_offsets().tolist() == [[0.0, 0.0]]
    assert to_hex(points[0].get_edgecolor()[0]) == COLORS["query"]
    assert any(t.get_text().startswith("hello: zero vector") for t in ax.texts)


def test_zero_vector_plot_needs_a_zero_vector():
    with pytest.raises(ValueError, match="no vector is \\(0, 0\\)"):
        zero_vector_plot({"cat": [1, 0]})
    with pytest.raises(ValueError, match="2-D vectors only"):
        zero_vector_plot({"x": [0, 0, 0]})


def test_heatmap_colours_come_from_the_palette_and_nan_is_light_grey():
    image = similarity_heatmaps({"m": MATRIX}, ["x", "y", "z"]).axes[0].images[0]
    cmap = image.get_cmap()
    assert to_hex(cmap.get_bad()) == GREYS["light_grey"]
    assert [to_hex(cmap(v)) for v in (0.0, 0.5, 1.0)] == [
        COLORS["mine"],
        GREYS["white"],
        COLORS["query"],
    ]
