"""Scratch and real parts in one pipeline: each mix against the all-real pipeline.

Issue 39, item 4. The scratch runnables (notebook 08) and retrievers (09, 15) must compose with
langchain-core's both ways, with callbacks: a scratch ``ContextualCompressionRetriever`` over a
real retriever, a real retriever inside a scratch chain, a scratch retriever inside a real chain,
and a runnable invoked inside a function (the context variable of notebook 08). Hypothesis draws
corpora, queries, ``k``, ``top_n``, tags and metadata; every mix must return the same documents in
the same order as the all-real pipeline, and its handlers (the course's ``RecordingHandler`` and a
user's own langchain-core handler) must hear the same events in the same order.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_classic.retrievers import (
    ContextualCompressionRetriever as RealContextualCompressionRetriever,
)
from langchain_classic.retrievers.document_compressors import (
    CrossEncoderReranker as RealCrossEncoderReranker,
)
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.cross_encoders import BaseCrossEncoder
from langchain_core.documents import Document as RealDocument
from langchain_core.retrievers import BaseRetriever as RealBaseRetriever
from langchain_core.runnables import RunnableLambda as RealRunnableLambda

from retrieval_lab.runtime.callbacks import RecordingHandler
from retrieval_lab.scratch import BaseRetriever, Document
from retrieval_lab.scratch.retrievers import keyword_scores, top_k
from retrieval_lab.scratch.runnables import RunnableLambda, var_child_runnable_config
from retrieval_lab.scratch.second_stage import ContextualCompressionRetriever, CrossEncoderReranker

WORDS = ["cat", "dog", "the", "kernel", "python", "mat"]


class KeywordRetriever(BaseRetriever):
    """Ours: the k documents sharing most words with the query."""

    docs: list[Document]
    k: int = 2

    def _get_relevant_documents(self, query, *, run_manager):
        return top_k(self.docs, keyword_scores(query, self.docs), self.k)


class real:  # noqa: N801 (a namespace: the real twin keeps the same class name, so the same run name)
    class KeywordRetriever(RealBaseRetriever):
        """The real twin: the same body on langchain-core's base."""

        docs: list[RealDocument]
        k: int = 2

        def _get_relevant_documents(self, query, *, run_manager):
            return top_k(self.docs, keyword_scores(query, self.docs), self.k)


class SharedWords(BaseCrossEncoder):
    """A cross-encoder stand-in: how many words the query and the passage share."""

    def score(self, text_pairs):
        return [float(len(set(q.split()) & set(p.split()))) for q, p in text_pairs]


class UserHandler(BaseCallbackHandler):
    """A user's own langchain-core handler, written with no thought of the scratch classes."""

    def __init__(self, ignore_chains: bool = False) -> None:
        self.heard: list[tuple[str, str | None, tuple[str, ...]]] = []
        self._ignore_chains = ignore_chains

    @property
    def ignore_chain(self) -> bool:
        return self._ignore_chains

    def on_chain_start(self, serialized, inputs, *, name=None, tags=None, **kwargs: Any) -> None:
        self.heard.append(("chain start", name, tuple(tags or ())))

    def on_chain_end(self, outputs, **kwargs: Any) -> None:
        self.heard.append(("chain end", None, ()))

    def on_retriever_start(self, serialized, query, *, name=None, tags=None, **kwargs: Any) -> None:
        self.heard.append(("retriever start", name, tuple(tags or ())))

    def on_retriever_end(self, documents, **kwargs: Any) -> None:
        self.heard.append(("retriever end", None, tuple(d.id for d in documents)))


texts = st.lists(st.sampled_from(WORDS), min_size=0, max_size=6).map(" ".join)
corpora = st.lists(texts, min_size=1, max_size=7)
queries = st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join)
tag_lists = st.lists(st.sampled_from(["a", "b", "kw"]), unique=True, max_size=2)
metadata = st.dictionaries(st.sampled_from(["team", "user"]), st.sampled_from(["x", "y"]), max_size=2)


def _retrievers(corpus: list[str], k: int) -> tuple[KeywordRetriever, real.KeywordRetriever]:
    ids = [f"d{i}" for i in range(len(corpus))]
    return (
        KeywordRetriever(docs=[Document(t, id=i) for t, i in zip(corpus, ids, strict=True)], k=k),
        real.KeywordRetriever(
            docs=[RealDocument(t, id=i) for t, i in zip(corpus, ids, strict=True)], k=k
        ),
    )


def _listened(call, config: dict[str, Any], ignore_chains: bool = False):
    """Run ``call(config)`` with two handlers listening: the result's ids, both handlers' records."""
    recorder, user = RecordingHandler(), UserHandler(ignore_chains)
    result = call({**config, "callbacks": [recorder, user]})
    ids = [getattr(d, "id", d) for d in result]
    return ids, recorder.rows(), user.heard


def _config(tags: list[str], meta: dict[str, str]) -> dict[str, Any]:
    return {"tags": tags, "metadata": meta}


@settings(max_examples=40, deadline=None)
@given(corpora, queries, st.integers(1, 5), st.integers(0, 4), tag_lists, metadata,
       st.booleans(), st.booleans())
def test_scratch_compression_over_a_real_retriever_is_the_real_pipeline(
    corpus, query, k, top_n, tags, meta, real_reranker, run_async
):
    """Issue 39's failing case: our ContextualCompressionRetriever over a real retriever (with our
    reranker, or the real one), against the real compression retriever over the same."""
    _, real_retriever = _retrievers(corpus, k)
    model = SharedWords()
    reranker = (RealCrossEncoderReranker if real_reranker else CrossEncoderReranker)(
        model=model, top_n=top_n
    )
    mixed = ContextualCompressionRetriever(base_compressor=reranker, base_retriever=real_retriever)
    all_real = RealContextualCompressionRetriever(
        base_compressor=RealCrossEncoderReranker(model=model, top_n=top_n),
        base_retriever=real_retriever,
    )

    def call(retriever):
        if run_async:
            return lambda config: asyncio.run(retriever.ainvoke(query, config))
        return lambda config: retriever.invoke(query, config)

    config = _config(tags, meta)
    assert _listened(call(mixed), config) == _listened(call(all_real), config)


@settings(max_examples=40, deadline=None)
@given(corpora, queries, st.integers(1, 5), tag_lists, metadata, st.booleans())
def test_a_real_retriever_inside_a_scratch_chain_is_the_real_chain(
    corpus, query, k, tags, meta, ignore_chains
):
    """Our ``|`` with a real retriever as its middle step, against real ``|`` all through."""
    _, real_retriever = _retrievers(corpus, k)

    def titles(docs):
        return [d.page_content for d in docs]

    mixed = RunnableLambda(str.lower) | real_retriever | RunnableLambda(titles)
    all_real = RealRunnableLambda(str.lower) | real_retriever | RealRunnableLambda(titles)
    config = _config(tags, meta)
    assert _listened(lambda c: mixed.invoke(query.upper(), c), config, ignore_chains) == _listened(
        lambda c: all_real.invoke(query.upper(), c), config, ignore_chains
    )


@settings(max_examples=40, deadline=None)
@given(corpora, queries, st.integers(1, 5), tag_lists, metadata, st.booleans())
def test_a_scratch_retriever_inside_a_real_chain_is_the_real_chain(
    corpus, query, k, tags, meta, ignore_chains
):
    """A real chain whose step hands its config to our retriever (a real ``RunnableLambda``
    passes its config to a function that takes one), against the same chain over the real
    retriever: the real handlers hear our retriever's start and end where the real one's are."""
    mine, real_retriever = _retrievers(corpus, k)

    def chain(retriever):
        def retrieve(text: str, config) -> list:
            return retriever.invoke(text, config)

        return RealRunnableLambda(str.lower) | RealRunnableLambda(retrieve)

    config = _config(tags, meta)
    mixed, all_real = chain(mine), chain(real_retriever)
    assert _listened(lambda c: mixed.invoke(query.upper(), c), config, ignore_chains) == _listened(
        lambda c: all_real.invoke(query.upper(), c), config, ignore_chains
    )


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(corpora, queries, st.integers(1, 5), tag_lists, metadata, st.booleans())
def test_a_retriever_invoked_inside_a_function_is_a_child_run_as_in_langchain_core(
    corpus, query, k, tags, meta, run_async
):
    """No config passed on: the context variable makes the inner run a child of the step, in
    our chain as in the real one (each library's runnables inside its own functions)."""
    mine, real_retriever = _retrievers(corpus, k)

    def steps(retriever, lambda_cls):
        def retrieve(text: str) -> list:
            return retriever.invoke(text)  # no config: found through the context

        return lambda_cls(str.lower) | lambda_cls(retrieve)

    mixed, all_real = steps(mine, RunnableLambda), steps(real_retriever, RealRunnableLambda)

    def call(chain):
        if run_async:
            return lambda c: asyncio.run(chain.ainvoke(query.upper(), c))
        return lambda c: chain.invoke(query.upper(), c)

    config = _config(tags, meta)
    assert _listened(call(mixed), config) == _listened(call(all_real), config)
    assert var_child_runnable_config.get() is None  # the caller's context never saw it


def test_each_library_reads_only_its_own_context_variable():
    """The limit notebook 08's deep dive states: without its config, a runnable of the other
    library inside a step starts a run no handler hears."""
    mine, real_retriever = _retrievers(["cat dog", "the mat"], 1)
    for retriever, lambda_cls in ((mine, RealRunnableLambda), (real_retriever, RunnableLambda)):
        recorder = RecordingHandler()
        (lambda_cls(str.lower) | lambda_cls(lambda text, r=retriever: r.invoke(text))).invoke(
            "CAT", {"callbacks": [recorder]}
        )
        assert [row[1] for row in recorder.rows()].count("retriever") == 0
