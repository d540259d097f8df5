"""The vector-store pictures of notebook 07: mmr_plane and lambda_sweep."""

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


def test_lambda_sweep_rows_read_as_text_and_the_first_pick_has_a_legend():
    picks = [["c2", "c6"], ["c2", "c1"]]
    fig = plots.lambda_sweep(
        [0, 1], picks, ["c1", "c2", "c6"], labels={"c2": "cat cat cat dog", "c6": "dog"}
    )
    ax = fig.axes[0]
    rows = [t.get_text() for t in ax.get_yticklabels()]
    assert sorted(rows) == [
        "c1",
        "c2: cat cat cat dog",
        "c6: dog",
    ]  # an id without a text stays an id
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["first pick (the most similar)", "later picks (number = order)"]
    first = {tuple(c.get_offsets()[0]): c for c in ax.collections}
    markers = {c.get_paths()[0].vertices.shape for c in first.values()}
    assert len(markers) == 2  # first and later picks differ by marker shape as well as colour
    plt.close(fig)


def test_lambda_sweep_refuses_labels_of_unknown_ids():
    with pytest.raises(ValueError, match="not among"):
        plots.lambda_sweep([0], [["a"]], ["a"], labels={"zz": "text"})
    with pytest.raises(TypeError, match="dict"):
        plots.lambda_sweep([0], [["a"]], ["a"], labels=["text"])


def test_backend_methods_chart_sorts_methods_into_two_columns():
    works = ["similarity_search", "as_retriever"]
    raises = ["get_by_ids", "delete", "similarity_search_with_score"]
    fig = plots.backend_methods_chart(works, raises, backend="ListStore")
    ax = fig.axes[0]
    names = {t.get_text(): t.get_position()[0] for t in ax.texts}
    assert {n for n, x in names.items() if n in works} == set(works)
    assert {names[n] for n in works} == {0.45} and {names[n] for n in raises} == {1.45}
    assert "✓ works on any backend (inherited) (2)" in names
    assert "✗ raises NotImplementedError until overridden (3)" in names
    edges = {p.get_linestyle() for p in ax.patches}
    assert edges == {"-", "--"}  # the columns differ by edge style, not colour alone
    assert ax.get_title() == "what ListStore inherits from VectorStore"
    plt.close(fig)


@pytest.mark.parametrize(
    ("works", "raises", "error", "match"),
    [([], [], ValueError, "both lists are empty"), (["a"], ["a"], ValueError, "in one list"),
     ("abc", [], TypeError, "not one str")],
)
def test_backend_methods_chart_refuses_bad_lists(works, raises, error, match):
    with pytest.raises(error, match=match):
        plots.backend_methods_chart(works, raises)
