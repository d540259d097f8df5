"""Notebook 10: the scratch VectorStoreRetriever (and RunnableParallel) against langchain-core's.

Random corpora over BagOfWords' vocabulary go into our InMemoryVectorStore and the real one; the
retrievers over them must return the same documents in the same order (ties by
``compare.same_ranking``), for similarity and MMR, with ``k`` in ``search_kwargs`` or in ``invoke``,
one query or a batch. Our retriever over the *real* store must match the real retriever exactly.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document as RealDocument
from langchain_core.runnables import RunnableParallel as RealRunnableParallel
from langchain_core.runnables import RunnablePassthrough as RealRunnablePassthrough
from langchain_core.vectorstores import InMemoryVectorStore as RealInMemoryVectorStore
from langchain_core.vectorstores import VectorStoreRetriever as RealVectorStoreRetriever

from retrieval_lab.evaluation.compare import outcome, same_outcome, same_ranking
from retrieval_lab.models.embeddings import BagOfWords
from retrieval_lab.runtime.callbacks import RecordingHandler
from retrieval_lab.scratch import BaseRetriever, Document, InMemoryVectorStore, VectorStoreRetriever
from retrieval_lab.scratch.vectorstore_retriever import RunnableParallel, RunnablePassthrough

VOCAB = ["cat", "dog", "fish", "kernel", "python"]
EMBEDDER = BagOfWords(VOCAB)

# Every text has at least one vocabulary word, so no stored vector is zero; a query may miss them
# all (a zero query vector), which the real store refuses with a ValueError - ours must too.
texts = st.lists(st.sampled_from(VOCAB), min_size=1, max_size=5).map(" ".join)
corpora = st.lists(texts, min_size=1, max_size=8)
queries = st.one_of(texts, st.just("zebra"))


def stores(corpus: list[str]):
    mine = InMemoryVectorStore(EMBEDDER)
    mine.add_documents([Document(t, id=f"d{i}") for i, t in enumerate(corpus)])
    real = RealInMemoryVectorStore(EMBEDDER)
    real.add_documents([RealDocument(t, id=f"d{i}") for i, t in enumerate(corpus)])
    return mine, real


def scored(real_store, query: str, docs) -> list[tuple[str, float]]:
    """Attach each returned document's cosine score (from the real store) for the tie rule."""
    scores = {d.id: s for d, s in real_store.similarity_search_with_score(query, k=len(real_store.store))}
    return [(d.id, scores[d.id]) for d in docs]


def agree(real_store, query, mine_docs, real_docs) -> bool:
    return same_ranking(scored(real_store, query, mine_docs), scored(real_store, query, real_docs))


@given(corpus=corpora, query=queries, k=st.integers(0, 9), override=st.one_of(st.none(), st.integers(0, 9)))
@settings(max_examples=40)
def test_similarity_agrees_with_k_from_search_kwargs_or_invoke(corpus, query, k, override):
    mine_store, real_store = stores(corpus)
    mine = mine_store.as_retriever(search_kwargs={"k": k})
    real = real_store.as_retriever(search_kwargs={"k": k})
    extra = {} if override is None else {"k": override}
    a, b = outcome(lambda: mine.invoke(query, **extra)), outcome(lambda: real.invoke(query, **extra))
    assert same_outcome(a, b, same=lambda x, y: agree(real_store, query, x, y)), (a, b)
    assert mine.search_kwargs == real.search_kwargs == {"k": k}  # the override lasted one call


@given(corpus=corpora, query=texts, k=st.integers(1, 5), fetch_k=st.integers(1, 10),
       lambda_mult=st.sampled_from([0.0, 0.25, 0.5, 1.0]))
@settings(max_examples=40)
def test_mmr_agrees(corpus, query, k, fetch_k, lambda_mult):
    mine_store, real_store = stores(corpus)
    search = {"k": k, "fetch_k": fetch_k, "lambda_mult": lambda_mult}
    mine = mine_store.as_retriever(search_type="mmr", search_kwargs=search)
    real = real_store.as_retriever(search_type="mmr", search_kwargs=search)
    assert [d.id for d in mine.invoke(query)] == [d.id for d in real.invoke(query)]


@given(corpus=corpora, batch=st.lists(texts, min_size=1, max_size=4), k=st.integers(1, 4))
@settings(max_examples=25)
def test_batch_with_kwargs_agrees(corpus, batch, k):
    mine_store, real_store = stores(corpus)
    mine, real = mine_store.as_retriever(), real_store.as_retriever()
    got, expected = mine.batch(batch, k=k), real.batch(batch, k=k)
    assert all(agree(real_store, q, a, b) for q, a, b in zip(batch, got, expected, strict=True))


@given(corpus=corpora, query=queries, search_type=st.sampled_from(["similarity", "mmr"]),
       k=st.integers(0, 6), banned=st.sampled_from(VOCAB))
@settings(max_examples=40)
def test_ours_over_the_real_store_is_the_real_retriever(corpus, query, search_type, k, banned):
    """Same store, same calls: the results (and errors) must be identical, filter included."""
    _, real_store = stores(corpus)
    search = {"k": k, "filter": lambda d: banned not in d.page_content}
    mine = VectorStoreRetriever(vectorstore=real_store, search_type=search_type, search_kwargs=search)
    real = RealVectorStoreRetriever(vectorstore=real_store, search_type=search_type, search_kwargs=search)
    a, b = outcome(lambda: [d.id for d in mine.invoke(query)]), outcome(lambda: [d.id for d in real.invoke(query)])
    assert same_outcome(a, b), (a, b)


@given(search_type=st.sampled_from(["similarity", "mmr", "similarity_score_threshold", "bogus", "MMR"]),
       threshold=st.one_of(st.none(), st.sampled_from([0.5, 1, 0, 2.0, "0.5", True])))
def test_construction_is_refused_for_the_same_inputs(search_type, threshold):
    _, real_store = stores(["cat"])
    search = {} if threshold is None else {"score_threshold": threshold}
    a = outcome(lambda: VectorStoreRetriever(vectorstore=real_store, search_type=search_type, search_kwargs=search))
    b = outcome(lambda: RealVectorStoreRetriever(vectorstore=real_store, search_type=search_type,
                                                 search_kwargs=search))
    assert (a.error is None) == (b.error is None), (a, b)
    assert same_outcome(a, b, same=lambda x, y: True)


class CosineStore(InMemoryVectorStore):
    def _select_relevance_score_fn(self):
        return lambda cosine: (cosine + 1) / 2


class RealCosineStore(RealInMemoryVectorStore):
    def _select_relevance_score_fn(self):
        return lambda cosine: (cosine + 1) / 2


@given(corpus=corpora, query=texts, threshold=st.sampled_from([0.0, 0.5, 0.75, 0.9, 1.0]))
@settings(max_examples=30)
def test_threshold_mode_keeps_scores_at_or_above_the_threshold(corpus, query, threshold):
    mine_store, real_store = CosineStore(EMBEDDER), RealCosineStore(EMBEDDER)
    mine_store.add_documents([Document(t, id=f"d{i}") for i, t in enumerate(corpus)])
    real_store.add_documents([RealDocument(t, id=f"d{i}") for i, t in enumerate(corpus)])
    search = {"score_threshold": threshold, "k": len(corpus)}
    mine = VectorStoreRetriever(vectorstore=mine_store, search_type="similarity_score_threshold", search_kwargs=search)
    real = real_store.as_retriever(search_type="similarity_score_threshold", search_kwargs=search)
    mine_docs, real_docs = mine.invoke(query), real.invoke(query)
    assert agree(real_store, query, mine_docs, real_docs)
    relevance = {d.id: s for d, s in real_store.similarity_search_with_relevance_scores(query, k=len(corpus))}
    assert all(relevance[d.id] >= threshold for d in real_docs)
    assert {d.id for d in real_docs} == {i for i, s in relevance.items() if s >= threshold}


def test_threshold_mode_without_a_relevance_function_fails_at_invoke_on_both():
    mine_store, real_store = stores(["cat"])
    search = {"score_threshold": 0.5}
    mine = mine_store.as_retriever(search_type="similarity_score_threshold", search_kwargs=search)
    real = real_store.as_retriever(search_type="similarity_score_threshold", search_kwargs=search)
    a, b = outcome(lambda: mine.invoke("cat")), outcome(lambda: real.invoke("cat"))
    assert a.error[0] == b.error[0] == "NotImplementedError"
    assert b.error[1] == "" and "relevance function" in a.error[1]  # ours says what is missing


def test_as_retriever_tags_and_fields_match():
    mine_store, real_store = stores(["cat", "dog"])
    for kwargs in ({}, {"tags": ["faq"]}, {"search_type": "mmr", "search_kwargs": {"k": 1}}):
        mine, real = mine_store.as_retriever(**kwargs), real_store.as_retriever(**kwargs)
        assert type(mine).__name__ == type(real).__name__ == "VectorStoreRetriever"
        assert (mine.tags, mine.search_type, mine.search_kwargs) == (real.tags, real.search_type, real.search_kwargs)
    assert mine_store.as_retriever().tags == ["InMemoryVectorStore", "BagOfWords"]
    assert isinstance(mine_store.as_retriever(), BaseRetriever)


def test_search_type_changed_later_fails_at_invoke_like_the_real_one():
    mine_store, real_store = stores(["cat"])
    mine, real = mine_store.as_retriever(), real_store.as_retriever()
    mine.search_type = real.search_type = "bogus"
    assert same_outcome(outcome(lambda: mine.invoke("cat")), outcome(lambda: real.invoke("cat")))


def test_callback_events_match_over_the_same_store():
    _, real_store = stores(["cat", "cat dog", "python"])
    config = {"tags": ["t"], "metadata": {"team": "x"}}
    rows = []
    for retriever in (VectorStoreRetriever(vectorstore=real_store, search_kwargs={"k": 2}),
                      RealVectorStoreRetriever(vectorstore=real_store, search_kwargs={"k": 2})):
        handler = RecordingHandler()
        retriever.invoke("cat", config={**config, "callbacks": [handler]})
        rows.append(handler.rows())
    assert rows[0] == rows[1]
    metadata = dict(rows[0][0][6])
    assert metadata["ls_vector_store_provider"] == "'InMemoryVectorStore'"
    assert metadata["ls_embedding_provider"] == "'BagOfWords'"


def test_add_documents_goes_to_the_store():
    mine_store, _ = stores(["cat"])
    retriever = mine_store.as_retriever()
    assert retriever.add_documents([Document("dog", id="new")]) == ["new"]
    assert [d.id for d in mine_store.get_by_ids(["new"])] == ["new"]


@given(corpus=corpora, query=texts)
@settings(max_examples=20)
def test_parallel_gather_matches_the_real_one(corpus, query):
    mine_store, real_store = stores(corpus)

    def format_docs(docs):
        return "\n".join(f"{d.id}:{d.page_content}" for d in docs)

    mine = RunnableParallel(context=mine_store.as_retriever(search_kwargs={"k": 1}) | format_docs,
                            question=RunnablePassthrough())
    real = RealRunnableParallel(context=real_store.as_retriever(search_kwargs={"k": 1}) | format_docs,
                                question=RealRunnablePassthrough())
    got, expected = mine.invoke(query), real.invoke(query)
    assert got["question"] == expected["question"] == query
    assert list(got) == list(expected) == ["context", "question"]
    top = real_store.similarity_search_with_score(query, k=len(corpus))
    best = [d.id for d, s in top if abs(s - top[0][1]) <= 1e-9]
    assert got["context"].split(":")[0] in best and expected["context"].split(":")[0] in best
    assert mine.get_name() == real.get_name()


def test_parallel_refuses_no_branches_and_bad_search_kwargs():
    with pytest.raises(ValueError, match="at least one branch"):
        RunnableParallel()
    mine_store, _ = stores(["cat"])
    with pytest.raises(TypeError, match="search_kwargs must be a dict"):
        VectorStoreRetriever(vectorstore=mine_store, search_kwargs=[("k", 1)])
