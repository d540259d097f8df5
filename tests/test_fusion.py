"""Notebook 14's reciprocal-rank fusion against langchain-classic's real EnsembleRetriever.

EnsembleRetriever (langchain_classic/retrievers/ensemble.py, ``weighted_reciprocal_rank``) adds
``weight / (rank + c)`` for each list a document is in, list by list; it keys a document by its
``page_content`` (or ``metadata[id_key]``), keeps the first copy it meets (list 1 first), and
sorts with ``sorted(..., reverse=True)``, which is stable: equal scores keep that first-seen
order. Our function fuses ids by the same rule, so on documents whose text is their id the two
give the same order - ties included - for equal and unequal weights, any c.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_classic.retrievers import EnsembleRetriever
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever

from retrieval_lab.scratch.measuring_retrieval import reciprocal_rank_fusion

IDS = [f"d{i}" for i in range(10)]


class ListRetriever(BaseRetriever):
    """Returns the same documents, in the order given, whatever the query."""

    ids: list[str]
    text: dict[str, str] | None = None

    def _get_relevant_documents(self, query, *, run_manager):
        return [
            Document(page_content=(self.text or {}).get(i, i), metadata={"key": i}, id=i)
            for i in self.ids
        ]


def real_fusion(rankings, weights=None, c=60, text=None, id_key=None):
    retrievers = [ListRetriever(ids=r, text=text or {}) for r in rankings]
    ensemble = EnsembleRetriever(retrievers=retrievers, weights=weights or [], c=c, id_key=id_key)
    return ensemble.invoke("any question")


rankings = st.lists(st.lists(st.sampled_from(IDS), unique=True, max_size=8), min_size=1,
                    max_size=4)


@given(rankings=rankings, c=st.sampled_from([60, 1, 0, 10]))
def test_equal_weights_give_the_real_order(rankings, c):
    real = real_fusion(rankings, c=c)
    assert reciprocal_rank_fusion(rankings, c=c) == [d.page_content for d in real]


@given(data=st.data(), rankings=rankings)
def test_unequal_weights_give_the_real_order(data, rankings):
    weights = data.draw(
        st.lists(st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0, 0.3]), min_size=len(rankings),
                 max_size=len(rankings)).filter(lambda w: any(x > 0 for x in w))
    )
    real = real_fusion(rankings, weights=weights)
    assert reciprocal_rank_fusion(rankings, weights=weights) == [d.page_content for d in real]


def test_ties_keep_the_order_of_first_appearance():
    """d1 and d2 are both first in one list: equal scores, and list 1's comes first."""
    assert reciprocal_rank_fusion([["d1"], ["d2"]]) == ["d1", "d2"]
    assert [d.page_content for d in real_fusion([["d1"], ["d2"]])] == ["d1", "d2"]
    assert reciprocal_rank_fusion([["d2"], ["d1"]]) == ["d2", "d1"]


def test_the_real_one_merges_different_ids_with_the_same_text_unless_given_id_key():
    """The surprise notebook 14 shows: two chunks with one text are one document to it."""
    same_text = {"d1": "the same words", "d2": "the same words"}
    merged = real_fusion([["d1", "d3"], ["d2", "d3"]], text=same_text)
    assert [d.id for d in merged] == ["d1", "d3"]  # d2 folded into d1, and d1 gained its score
    kept = real_fusion([["d1", "d3"], ["d2", "d3"]], text=same_text, id_key="key")
    assert [d.id for d in kept] == reciprocal_rank_fusion([["d1", "d3"], ["d2", "d3"]])


@pytest.mark.parametrize(
    ("rankings", "weights", "message"),
    [
        ([], None, "at least one ranking"),
        ([["d1"]], [1.0, 1.0], "2 weights for 1 rankings"),
        ([["d1"], ["d2"]], [0.0, 0.0], "greater than zero"),
    ],
)
def test_bad_input_is_refused_where_the_real_one_refuses_it(rankings, weights, message):
    with pytest.raises(ValueError, match=message):
        reciprocal_rank_fusion(rankings, weights)
    if rankings:
        with pytest.raises(ValueError):
            real_fusion(rankings, weights=weights)
