"""The helpers notebooks 09 and 08 add: the recording callback handler, its timeline table, and
the pictures of runs and of a chain's graph; and notebook 10's histogram of relevance scores."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from langchain_core.documents import Document
from langchain_core.runnables import RunnableLambda, RunnableParallel, RunnablePassthrough
from matplotlib.colors import to_hex

from retrieval_lab.plots import bm25_saturation, grouped_bars, run_timeline, runnable_graph
from retrieval_lab.plots._style import GREYS, OKABE_ITO
from retrieval_lab.plots.retrievers import score_histograms
from retrieval_lab.runtime.callbacks import RecordingHandler, Timeline, describe, event_names


def boom(_):
    raise ValueError("no")


def recorded(chain, value):
    handler = RecordingHandler()
    try:
        chain.invoke(value, config={"callbacks": [handler], "tags": ["t"]})
    except ValueError:
        pass
    return handler


def test_runs_are_numbered_in_order_with_parents():
    handler = recorded(RunnableLambda(str.upper) | RunnableLambda(len), "cat")
    assert [(e.event, e.run, e.parent) for e in handler.events] == [
        ("start", 1, None),
        ("start", 2, 1),
        ("end", 2, 1),
        ("start", 3, 1),
        ("end", 3, 1),
        ("end", 1, None),
    ]
    assert event_names(handler.events)[:2] == ["start chain RunnableSequence", "start chain upper"]
    assert handler.events[1].tags == ("seq:step:1", "t")


def test_errors_and_clear():
    handler = recorded(RunnableLambda(boom), 1)
    assert [e.event for e in handler.events] == ["start", "error"]
    assert handler.events[-1].payload == "ValueError: no"
    handler.clear()
    assert handler.events == [] and str(handler.timeline()) == "(no events recorded)"


def test_timeline_text_and_html_are_stable_and_uuid_free():
    handler = recorded(RunnableLambda(str.upper) | RunnableLambda(len), "cat")
    text = str(handler.timeline())
    assert text.splitlines()[0].split() == [
        "step",
        "event",
        "kind",
        "run",
        "parent",
        "name",
        "tags",
        "payload",
    ]
    assert text == str(recorded(RunnableLambda(str.upper) | RunnableLambda(len), "cat").timeline())
    assert "<table>" in handler.timeline(columns=("step", "name", "metadata"))._repr_html_()
    with pytest.raises(ValueError, match="unknown timeline column"):
        handler.timeline(columns=("step", "when"))
    with pytest.raises(ValueError, match="at least one column"):
        Timeline((), ())


def test_describe_shows_ids_errors_and_clips():
    assert describe([Document("x", id="a"), Document("y", id="b")]) == "docs a, b"
    assert describe([]) == "[]"
    assert describe(KeyError("k")) == "KeyError: 'k'"
    assert describe(NotImplementedError()) == "NotImplementedError"
    assert describe({"q": "hi"}) == "{'q': 'hi'}"
    assert len(describe("x" * 500)) == 60 and describe("a\nb") == "'a\\nb'"


def test_run_timeline_draws_one_bar_per_run_and_marks_errors():
    handler = recorded(RunnableLambda(str.upper) | RunnableLambda(boom), "cat")
    fig = run_timeline(handler.events)
    names, bars = fig.axes
    assert len(bars.patches) == 3  # sequence, upper, boom
    labels = [t.get_text() for t in names.texts]
    assert any("boom ✗" in label for label in labels) and any(
        "run 2: upper" in label for label in labels
    )
    hatches = {p.get_hatch() for p in bars.patches}
    assert "//" in hatches and None in hatches  # the error differs by hatch, not colour alone
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == ["chain run", "ended in an error ✗"]
    with pytest.raises(ValueError, match="no events"):
        run_timeline([])
    with pytest.raises(ValueError, match="never started"):
        run_timeline(handler.events[2:3])


def test_run_timeline_nests_labels_by_x_position():
    """Left-aligned labels that move right with depth: the nesting is visible, not padded away."""
    chain = RunnableParallel(a=RunnableLambda(str.upper), b=RunnablePassthrough()) | RunnableLambda(
        len
    )
    handler = recorded(chain, "cat")
    depth = {}
    for e in handler.events:
        if e.event == "start":
            depth[e.run] = depth[e.parent] + 1 if e.parent in depth else 0
    names = run_timeline(handler.events).axes[0]  # the label panel; the bars are axes[1]
    by_run = {int(t.get_text().split("run ")[1].split(":")[0]): t for t in names.texts}
    assert set(by_run) == set(depth) and max(depth.values()) == 2
    assert all(t.get_ha() == "left" and not t.get_text().startswith(" ") for t in by_run.values())
    x = {run: t.get_position()[0] for run, t in by_run.items()}
    for run, d in depth.items():
        for other, e in depth.items():
            if d < e:
                assert x[run] < x[other]
            elif d == e:
                assert x[run] == x[other]
    rows = {run: t.get_position()[1] for run, t in by_run.items()}
    assert sorted(rows, key=rows.get) == sorted(depth)  # one row per run, in start order


def test_bm25_saturation_draws_the_formula_and_the_raw_count():
    fig = bm25_saturation((1.2, 2.0), max_count=6, b=0.75, length_ratio=2.0)
    ax = fig.axes[0]
    lines = {line.get_label(): line for line in ax.get_lines()}
    assert list(lines["raw count (tf)"].get_ydata()) == list(range(7))
    norm = 1.2 * (1 - 0.75 + 0.75 * 2.0)
    assert np.allclose(
        lines["BM25, k1 = 1.2"].get_ydata(), [tf * 2.2 / (tf + norm) for tf in range(7)]
    )
    styles = {
        (line.get_color(), line.get_marker(), line.get_linestyle())
        for name, line in lines.items()
        if name.startswith("BM25")
    }
    assert len(styles) == 2 and len({m for _, m, _ in styles}) == 2  # markers differ too
    ceilings = sorted(line.get_ydata()[0] for line in ax.get_lines() if line.get_linestyle() == ":")
    assert ceilings == [2.2, 3.0]  # the limit k1 + 1 of each line
    assert ax.get_legend().get_texts()[0].get_text() == "raw count (tf)"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"k1_values": ()}, "positive numbers"),
        ({"k1_values": (0,)}, "positive numbers"),
        ({"max_count": 0}, "max_count"),
        ({"b": 2}, "b \\(length"),
        ({"length_ratio": 0}, "length_ratio"),
        ({"k1_values": [1] * 7}, "at most"),
    ],
)
def test_bm25_saturation_refuses_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        bm25_saturation(**kwargs)


def test_grouped_bars_one_panel_per_series():
    fig = grouped_bars(["a", "b"], {"count": [2, 0], "bm25": [1.5, 0.2]})
    assert len(fig.axes) == 2 and [ax.get_title() for ax in fig.axes] == ["count", "bm25"]
    with pytest.raises(ValueError, match="2 labels but 1 scores"):
        grouped_bars(["a", "b"], {"count": [1]})
    with pytest.raises(ValueError, match="at least one entry"):
        grouped_bars(["a"], {})


def test_runnable_graph_layers_and_refusals():
    nodes = ["in", "left", "right", "out"]
    edges = [("in", "left"), ("in", "right"), ("left", "out"), ("right", "out")]
    fig = runnable_graph(nodes, edges)
    ax = fig.axes[0]
    boxes = {t.get_text(): t.get_position() for t in ax.texts}
    assert (
        boxes["in"][1] < boxes["left"][1] == boxes["right"][1] < boxes["out"][1]
    )  # drawn top to bottom
    assert len([p for p in ax.patches if type(p).__name__ == "FancyArrowPatch"]) == 4
    with pytest.raises(ValueError, match="cycle"):
        runnable_graph(["a", "b"], [("a", "b"), ("b", "a")])
    with pytest.raises(ValueError, match="not in"):
        runnable_graph(["a"], [("a", "z")])
    with pytest.raises(ValueError, match="repeat"):
        runnable_graph(["a", "a"], [])
    with pytest.raises(ValueError, match="no nodes"):
        runnable_graph([], [])


def test_runnable_graph_draws_a_real_chain_graph():
    chain = RunnableLambda(str.upper) | RunnableLambda(len)
    graph = chain.get_graph()
    names = [n.name for n in graph.nodes.values()]
    edges = [(graph.nodes[e.source].name, graph.nodes[e.target].name) for e in graph.edges]
    fig = runnable_graph(names, edges)
    assert {t.get_text() for t in fig.axes[0].texts} >= set(names)


def test_score_histograms_one_panel_per_embedder_with_the_threshold_on_each():
    fig = score_histograms(
        {"MiniLM": ([0.8, 0.9, 0.82], [0.5, 0.55, 0.6, 0.52]), "counts": ([0.5], [0.5, 0.6])},
        threshold=0.78,
        bins=[i / 100 for i in range(40, 101, 5)],
    )
    top, bottom = fig.axes
    assert [top.get_title(), bottom.get_title()] == ["MiniLM", "counts"]
    assert top.get_xlim() == (0.4, 1.0) and top.get_shared_x_axes().joined(top, bottom)
    legend = [t.get_text() for t in top.get_legend().get_texts()]
    assert legend == ["relevant pairs (3)", "irrelevant pairs (4)", "threshold 0.78"]
    for ax in (top, bottom):
        (line,) = ax.get_lines()
        assert list(line.get_xdata()) == [0.78, 0.78] and line.get_linestyle() == ":"
    relevant, irrelevant = top.patches
    assert relevant.get_hatch() == "//" and irrelevant.get_hatch() is None  # not colour alone
    assert relevant.get_linestyle() != irrelevant.get_linestyle()
    heights = np.array(relevant.get_path().vertices)[:, 1]
    assert heights.max() == pytest.approx(2 / 3)  # 0.8 and 0.82 share a bin: a share, not a count
    palette = {to_hex(c) for c in [*OKABE_ITO.values(), *GREYS.values()]}
    for patch in (*top.patches, *bottom.patches):
        assert to_hex(patch.get_facecolor()[:3]) in palette
        assert to_hex(patch.get_edgecolor()[:3]) in palette
    plt.close(fig)


def test_score_histograms_draws_an_empty_group_and_no_threshold():
    fig = score_histograms({"only irrelevant": ([], [0.1, 0.2, 0.2])}, bins=4)
    (ax,) = fig.axes
    assert len(ax.patches) == 1 and ax.get_lines() == []
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["irrelevant pairs (3)"]
    plt.close(fig)


@pytest.mark.parametrize(
    ("panels", "kwargs", "error", "match"),
    [
        ({}, {}, ValueError, "at least one entry"),
        ({"a": ([0.1],)}, {}, ValueError, "two lists of scores"),
        ({"a": ([], [])}, {}, ValueError, "no scores at all"),
        ({"a": ([0.1], [0.2])}, {"bins": [0.5, 0.5]}, ValueError, "increasing edges"),
        ({"a": ([0.1], [0.2])}, {"threshold": "0.5"}, TypeError, "must be a number"),
    ],
)
def test_score_histograms_refuses_bad_input(panels, kwargs, error, match):
    with pytest.raises(error, match=match):
        score_histograms(panels, **kwargs)


def test_run_tree_puts_a_run_invoked_inside_a_step_under_that_step():
    from retrieval_lab.plots.retrievers import run_tree

    shout = RunnableLambda(str.upper)

    def inside(text):
        return shout.invoke(text) + "!"

    handler = recorded(RunnableLambda(inside) | RunnableLambda(boom), "cat")
    ax = run_tree(handler.events).axes[0]
    labels = [t.get_text() for t in ax.texts]
    assert labels == ["run 1: RunnableSequence ✗", "run 2: inside", "run 3: upper", "run 4: boom ✗"]
    x = {t.get_text(): t.get_position()[0] for t in ax.texts}
    assert x["run 1: RunnableSequence ✗"] < x["run 2: inside"] < x["run 3: upper"]
    assert x["run 4: boom ✗"] == x["run 2: inside"]  # a sibling of inside, not its child
    assert {p.get_hatch() for p in ax.patches} == {None, "//"}
    with pytest.raises(ValueError, match="no events"):
        run_tree([])
