"""The pictures of notebook 00 (score_bars) and 02 (the blob pipeline, eager against lazy): what
they draw, not how it looks in pixels."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
from langchain_core.vectorstores import InMemoryVectorStore
from matplotlib.colors import to_hex

from retrieval_lab.data import corpus
from retrieval_lab.models.embeddings import BagOfWords
from retrieval_lab.plots import COLORS, blob_pipeline_diagram, eager_vs_lazy_bars, pipeline_diagram, score_bars


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_score_bars_start_at_zero_when_no_score_is_negative():
    ax = score_bars(["a", "b", "c"], [0.2, 0.9, 0.0]).axes[0]
    low, high = ax.get_xlim()
    assert low == 0 and high > 0.9


def test_score_bars_keep_the_negative_half_when_a_score_needs_it():
    assert score_bars(["a", "b"], [0.5, -0.3]).axes[0].get_xlim()[0] < -1


def test_score_bars_legend_names_the_highlight_and_a_line_cuts_at_k():
    ax = score_bars(["a", "b", "c"], [0.2, 0.9, 0.5], highlight=2).axes[0]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["returned with k=2", "not returned", "k=2 cut"]
    colours = sorted((p.get_y(), to_hex(p.get_facecolor())) for p in ax.patches)
    assert [c for _, c in colours] == [
        COLORS["muted"],
        COLORS["mine"],
        COLORS["mine"],
    ]  # bottom bar not returned
    cut = next(line for line in ax.get_lines() if line.get_label() == "k=2 cut")
    assert cut.get_ydata()[0] == 0.5  # between the second best (y=1) and the third (y=0)


def test_score_bars_without_a_highlight_have_no_legend():
    assert score_bars(["a"], [0.5]).axes[0].get_legend() is None


def test_score_bars_refuse_a_bad_highlight():
    with pytest.raises(ValueError, match="highlight is how many"):
        score_bars(["a"], [0.5], highlight=-1)


def test_score_bars_hatch_the_answer_wherever_it_ranks():
    """The answer ranked last by one embedder is still found by eye: hatched and bold."""
    ax = score_bars(["a", "b", "c"], [0.2, 0.9, 0.0], highlight=2, answer="c").axes[0]
    bars = sorted(ax.patches, key=lambda p: -p.get_y())  # top (best) first
    assert [p.get_hatch() for p in bars] == [None, None, "//"]
    bold = [t.get_text() for t in ax.get_yticklabels() if t.get_fontweight() == "bold"]
    assert bold == ["c"]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[-1] == "the answer: c"


def test_score_bars_with_only_an_answer_still_explain_the_hatch():
    ax = score_bars(["a", "b"], [0.5, 0.1], answer="a").axes[0]
    assert "the answer: a" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_score_bars_draw_into_a_given_panel():
    fig, (left, right) = plt.subplots(1, 2)
    assert score_bars(["a", "b"], [0.5, 0.1], title="right", ax=right) is fig
    assert right.get_title() == "right" and len(right.patches) == 2
    assert not left.patches


def test_score_bars_refuse_an_answer_that_is_not_a_label():
    with pytest.raises(ValueError, match="not among the labels"):
        score_bars(["a", "b"], [0.5, 0.1], answer="z")


def test_blob_pipeline_diagram_draws_the_four_stages_in_order():
    ax = blob_pipeline_diagram().axes[0]
    classes = [
        t for t in ax.texts if t.get_text() in {"BlobLoader", "Blob", "BaseBlobParser", "Document"}
    ]
    assert [t.get_text() for t in sorted(classes, key=lambda t: t.get_position()[0])] == [
        "BlobLoader",
        "Blob",
        "BaseBlobParser",
        "Document",
    ]
    arrows = [p for p in ax.patches if type(p).__name__ == "FancyArrowPatch"]
    assert len(arrows) == 3
    boxes = [p for p in ax.patches if type(p).__name__ == "FancyBboxPatch"]
    assert [p.get_linestyle() for p in sorted(boxes, key=lambda p: p.get_x())] == [
        "-",
        "--",
        "-",
        "--",
    ]
    assert "lazy_parse(blob)" in {t.get_text() for t in ax.texts}


def test_blob_pipeline_diagram_refuses_bad_steps():
    with pytest.raises(ValueError, match="triples"):
        blob_pipeline_diagram([("only", "two")])


def test_eager_vs_lazy_bars_draw_the_counts_and_the_folder():
    ax = eager_vs_lazy_bars({"load()": 5, "lazy_load()": 1}, total_files=5).axes[0]
    assert [p.get_width() for p in ax.patches] == [5, 1]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["load()", "lazy_load()"]
    assert {p.get_hatch() for p in ax.patches} == {None, "//"} or len(
        {p.get_hatch() for p in ax.patches}
    ) == 2
    assert [t.get_text() for t in ax.texts] == ["5 files", "1 file"]
    assert ax.get_legend().get_texts()[0].get_text() == "files in the folder: 5"


@pytest.mark.parametrize(
    ("counts", "total", "match"),
    [
        ({}, None, "give the counts"),
        ({"load()": -1}, None, "whole number"),
        ({"load()": 5}, 3, "at least as large"),
    ],
)
def test_eager_vs_lazy_bars_refuse_bad_counts(counts, total, match):
    with pytest.raises(ValueError, match=match):
        eager_vs_lazy_bars(counts, total_files=total)


def test_score_bars_draws_one_bar_per_label_best_first():
    fig = score_bars(["a", "b", "c"], [0.2, 0.9, -0.5], highlight=1)
    ax = fig.axes[0]
    by_height = sorted(zip(ax.get_yticks(), (t.get_text() for t in ax.get_yticklabels()), strict=True))
    assert [label for _, label in by_height] == ["c", "a", "b"]  # bottom to top: the best is on top
    assert len(ax.patches) == 3
    assert ax.get_xlim()[0] < -1


def test_score_bars_refuses_mismatched_input():
    with pytest.raises(ValueError, match="one score per label"):
        score_bars(["a"], [0.1, 0.2])
    with pytest.raises(ValueError, match="empty"):
        score_bars([], [])


def test_pipeline_diagram_writes_every_stage():
    fig = pipeline_diagram([("load", "BaseLoader", "docs"), ("split", "TextSplitter", "chunks")])
    texts = {t.get_text() for t in fig.axes[0].texts}
    assert {"load", "BaseLoader", "split", "TextSplitter"} <= texts
    with pytest.raises(ValueError):
        pipeline_diagram([])


def test_scores_in_pictures_are_the_real_cosines():
    store = InMemoryVectorStore(BagOfWords())
    store.add_documents(corpus.pets_and_code())
    hits = store.similarity_search_with_score("cat", k=6)
    fig = score_bars([d.id for d, _ in hits], [s for _, s in hits])
    shown = sorted(float(t.get_text()) for t in fig.axes[0].texts)
    assert np.allclose(shown, sorted(round(s, 3) for _, s in hits))

