"""The vector-store pictures of notebook 06: mmr_plane and lambda_sweep."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest

from retrieval_lab import plots

POINTS = {"c1": [3.0, 1.0], "c2": [3.0, 1.0], "c4": [1.0, 1.0], "c6": [0.0, 1.0]}


def test_mmr_plane_draws_both_panels_and_numbers_the_picks():
    fig = plots.mmr_plane(POINTS, [1.0, 0.0], ["c2", "c1"], ["c2", "c6"], lambda_mult=0.25)
    left, right = fig.axes
    assert left.get_title() == "similarity: top 2"
    assert right.get_title().startswith("MMR, λ = 0.25: 2 picks")
    texts = [t.get_text() for t in right.texts]
    assert "c1 = c2 (#1)" in texts and "c6 (#2)" in texts and "c4" in texts
    assert len(right.patches) == 3  # one arrow per distinct vector
    plt.close(fig)


@pytest.mark.parametrize(
    ("points", "query", "sim", "mmr", "match"),
    [
        ({}, [1, 0], [], [], "no documents"),
        ({"a": [1, 2, 3]}, [1, 0], [], [], "2-D vectors only"),
        (POINTS, [1, 0, 0], [], [], "query vector must be 2-D"),
        (POINTS, [1, 0], ["zz"], [], "not among the documents"),
        (POINTS, [1, 0], [], ["c1", "zz"], "not among the documents"),
    ],
)
def test_mmr_plane_refuses_bad_input(points, query, sim, mmr, match):
    with pytest.raises(ValueError, match=match):
        plots.mmr_plane(points, query, sim, mmr, lambda_mult=0.5)


def test_mmr_plane_draws_a_zero_query_without_its_line():
    fig = plots.mmr_plane(POINTS, [0.0, 0.0], [], [], lambda_mult=0.5)
    assert all(t.get_text() != "query" for t in fig.axes[0].texts)
    plt.close(fig)


def test_lambda_sweep_marks_each_pick_with_its_order():
    picks = [["c2", "c6"], ["c2", "c1"], ["c1"]]
    fig = plots.lambda_sweep([0, 0.5, 1], picks, ["c1", "c2", "c4", "c6"])
    ax = fig.axes[0]
    assert sum(len(c.get_offsets()) for c in ax.collections) == 5
    assert sorted(t.get_text() for t in ax.texts) == ["1", "1", "1", "2", "2"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "0.5", "1"]
    plt.close(fig)


@pytest.mark.parametrize(
    ("lambdas", "picks", "candidates", "match"),
    [
        ([], [], ["a"], "at least one"),
        ([0, 1], [["a"]], ["a"], "one list per λ"),
        ([0], [["a"]], [], "empty"),
        ([0], [["b"]], ["a"], "not among"),
    ],
)
def test_lambda_sweep_refuses_bad_input(lambdas, picks, candidates, match):
    with pytest.raises(ValueError, match=match):
        plots.lambda_sweep(lambdas, picks, candidates)
