"""The MMR explorer's logic (retrieval_lab.plots.widgets): what it computes and what it writes."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document as RealDocument
from langchain_core.vectorstores import InMemoryVectorStore as RealStore

from retrieval_lab.data.corpus import CAT_DOG_PLANE
from retrieval_lab.models.embeddings import BagOfWords
from retrieval_lab.plots import widgets
from retrieval_lab.scratch import Document, InMemoryVectorStore

QUERIES = st.lists(st.sampled_from(["cat", "dog", "the"]), min_size=1, max_size=4).map(" ".join)


def real_store() -> RealStore:
    store = RealStore(BagOfWords(["cat", "dog"]))
    store.add_documents([RealDocument(text, id=doc_id) for doc_id, text in CAT_DOG_PLANE])
    return store


@settings(max_examples=30)
@given(QUERIES, st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), st.integers(1, 6), st.integers(1, 6))
def test_mmr_picks_is_what_the_real_store_returns(query, lambda_mult, k, fetch_k):
    if not set(query.split()) & {"cat", "dog"}:
        with pytest.raises(ValueError, match="NaN"):
            widgets.mmr_picks(query, lambda_mult, k, fetch_k)
        return
    expected = [
        d.id
        for d in real_store().max_marginal_relevance_search(
            query, k=k, fetch_k=fetch_k, lambda_mult=lambda_mult
        )
    ]
    assert widgets.mmr_picks(query, lambda_mult, k, fetch_k) == expected
    assert len(expected) == min(k, fetch_k)


def test_the_scratch_store_gives_the_same_picks():
    mine = InMemoryVectorStore(BagOfWords(["cat", "dog"]))
    mine.add_documents([Document(text, id=doc_id) for doc_id, text in CAT_DOG_PLANE])
    lambdas = [i / 10 for i in range(11)]
    for query in ("cat", "dog", "cat dog", "cat cat dog"):
        assert widgets.lambda_sweep_picks(query, lambdas, store=mine) == widgets.lambda_sweep_picks(
            query, lambdas
        )


def test_similarity_picks_and_lambda_one_agree_with_plain_search():
    expected = [d.id for d in real_store().similarity_search("cat", k=3)]
    assert widgets.similarity_picks("cat", 3) == expected
    assert len(widgets.lambda_sweep_picks("dog", [0, 1], k=2)) == 2


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"query": 3}, TypeError, "query must be a str"),
        ({"k": 0}, ValueError, "k must be"),
        ({"fetch_k": 1.5}, ValueError, "fetch_k must be"),
        ({"lambda_mult": 1.5}, ValueError, "lambda_mult must be"),
        ({"lambda_mult": True}, ValueError, "lambda_mult must be"),
    ],
)
def test_bad_settings_are_refused_clearly(kwargs, error, match):
    settings_ = {"query": "cat", "lambda_mult": 0.5, "k": 3, "fetch_k": 6} | kwargs
    with pytest.raises(error, match=match):
        widgets.mmr_picks(**settings_)


def test_lambda_sweep_picks_needs_lambdas():
    with pytest.raises(ValueError, match="lambdas is empty"):
        widgets.lambda_sweep_picks("cat", [])


def test_picks_line_is_plain_text():
    assert widgets.picks_line(["c2", "c6"]) == "picks: c2, c6"
    assert widgets.picks_line([]) == "picks: (none)"


def test_explorer_view_turns_errors_into_a_message():
    view = widgets.explorer_view("hello", 0.5, 3, 6)
    assert view.mmr == () and view.mmr_line.startswith("picks: error: ValueError: NaN values found")
    ok = widgets.explorer_view("cat", 0.25, 3, 6)
    assert ok.mmr_line == widgets.picks_line(widgets.mmr_picks("cat", 0.25, 3, 6))
    assert ok.similarity_line == widgets.picks_line(
        widgets.similarity_picks("cat", 3), "similarity top-3"
    )


@pytest.mark.slow
def test_the_explorer_draws_the_picture_into_its_output():
    explorer = widgets.mmr_explorer(query="dog", lambda_mult=0.25)
    assert explorer.view.mmr == tuple(widgets.mmr_picks("dog", 0.25, 3, 6))


def test_the_explorer_redraws_its_text_when_a_control_moves():
    explorer = widgets.mmr_explorer(draw=False)
    assert (
        explorer.picks_html.value
        == f"<code>{widgets.picks_line(widgets.mmr_picks('cat', 0.5, 3, 6))}</code>"
    )
    explorer.lambda_mult.value = 0.25
    assert explorer.view.mmr == tuple(widgets.mmr_picks("cat", 0.25, 3, 6))
    assert widgets.picks_line(explorer.view.mmr) in explorer.picks_html.value
    explorer.k.value = 2
    explorer.query.value = "dog"
    assert explorer.view.mmr == tuple(widgets.mmr_picks("dog", 0.25, 2, 6))
    explorer.query.value = "zebra"
    assert "NaN values found" in explorer.picks_html.value
    assert "mmr-picks" in explorer.picks_html._dom_classes
    assert explorer._repr_mimebundle_() is not None


def _formatted(obj):
    """What IPython stores for ``obj`` as a cell's last expression: (data, metadata)."""
    from IPython.core.formatters import DisplayFormatter

    return DisplayFormatter().format(obj)


def test_the_explorer_output_carries_a_still_with_alt_text_for_static_pages():
    explorer = widgets.mmr_explorer(draw=False)
    data, metadata = _formatted(explorer)
    assert (
        "application/vnd.jupyter.widget-view+json" in data
    )  # JupyterLab still gets the live widget
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == explorer.widget.model_id
    alt = metadata["image/png"]["alt"]
    assert data["text/plain"] == f"[figure] {alt}" and "VBox" not in data["text/plain"]
    similar, picks = widgets.similarity_picks("cat", 3), widgets.mmr_picks("cat", 0.5, 3, 6)
    assert f"({', '.join(similar)})" in alt and f"({', '.join(picks)})" in alt
    png = base64.b64decode(data["image/png"])
    assert png.startswith(b"\x89PNG")


def test_the_still_shows_the_first_state_even_after_the_sliders_moved():
    explorer = widgets.mmr_explorer(draw=False)
    explorer.lambda_mult.value = 0.0
    _, metadata = _formatted(explorer)
    assert "λ = 0.5" in metadata["image/png"]["alt"]
    assert explorer.still() is explorer.still()  # drawn once


def test_an_explorer_that_starts_on_an_error_falls_back_to_words():
    data, metadata = _formatted(widgets.mmr_explorer(query="zebra", draw=False))
    assert "image/png" not in data and metadata == {}
    assert (
        data["text/plain"].startswith("[figure] MMR explorer")
        and "NaN values found" in data["text/plain"]
    )


def test_include_and_exclude_are_honoured():
    explorer = widgets.mmr_explorer(draw=False)
    data, _ = explorer._repr_mimebundle_(include={"text/plain"})
    assert set(data) == {"text/plain"}
    data, metadata = explorer._repr_mimebundle_(exclude={"image/png"})
    assert "image/png" not in data and metadata == {}
