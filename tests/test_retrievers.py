"""Notebook 09: the scratch Runnable pieces and BaseRetriever against langchain-core's.

The same retriever body runs on both bases (ours and the real ``BaseRetriever``); hypothesis feeds
them random corpora, queries, ``k``, config tags and metadata, and the two must agree on documents,
batches, async results, dropped keyword arguments, errors and - event for event - the callbacks.
"""

from __future__ import annotations

import asyncio
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.documents import Document as RealDocument
from langchain_core.retrievers import BaseRetriever as RealBaseRetriever
from langchain_core.runnables import RunnableLambda as RealRunnableLambda

from retrieval_lab.evaluation.compare import outcome, same_outcome
from retrieval_lab.runtime.callbacks import RecordingHandler
from retrieval_lab.scratch import BaseRetriever, Document
from retrieval_lab.scratch.retrievers import bm25_scores, keyword_scores, split_terms, top_k
from retrieval_lab.scratch.runnables import (
    CallbackManager,
    RunnableLambda,
    RunnableSequence,
    ensure_config,
)

WORDS = ["cat", "dog", "the", "kernel", "python", "mat"]


class KeywordRetriever(BaseRetriever):
    docs: list[Document]
    k: int = 2

    def _get_relevant_documents(self, query, *, run_manager):
        if query == "boom":
            raise ValueError("boom!")
        return top_k(self.docs, keyword_scores(query, self.docs), self.k)


class RealKeywordRetriever(RealBaseRetriever):
    docs: list[RealDocument]
    k: int = 2

    def _get_relevant_documents(self, query, *, run_manager):
        if query == "boom":
            raise ValueError("boom!")
        return top_k(self.docs, keyword_scores(query, self.docs), self.k)


class BM25Retriever(BaseRetriever):
    docs: list[Document]
    k: int = 2

    def _get_relevant_documents(self, query):  # no run_manager: allowed on both bases
        return top_k(self.docs, bm25_scores(query, self.docs), self.k)


class RealBM25Retriever(RealBaseRetriever):
    docs: list[RealDocument]
    k: int = 2

    def _get_relevant_documents(self, query):
        return top_k(self.docs, bm25_scores(query, self.docs), self.k)


texts = st.lists(st.sampled_from(WORDS), min_size=0, max_size=6).map(" ".join)
corpora = st.lists(texts, min_size=0, max_size=7)
queries = st.one_of(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join), st.just("zebra"))
tag_lists = st.lists(st.sampled_from(["a", "b", "c", "kw"]), unique=True, max_size=3)
metadata = st.dictionaries(st.sampled_from(["team", "user"]), st.sampled_from(["x", "y"]), max_size=2)


def pair(kind: str, corpus: list[str], **fields):
    """The same retriever twice: on our base with our Documents, on the real base with real ones."""
    mine_cls, real_cls = {"keyword": (KeywordRetriever, RealKeywordRetriever),
                          "bm25": (BM25Retriever, RealBM25Retriever)}[kind]
    mine = mine_cls(docs=[Document(t, id=f"d{i}") for i, t in enumerate(corpus)], name="Twin", **fields)
    real = real_cls(docs=[RealDocument(t, id=f"d{i}") for i, t in enumerate(corpus)], name="Twin", **fields)
    return mine, real


def ids(docs) -> list[str]:
    return [d.id for d in docs]


# --------------------------------------------------------------------------- retrieval results

@given(kind=st.sampled_from(["keyword", "bm25"]), corpus=corpora, query=queries, k=st.integers(0, 5))
@settings(max_examples=30)
def test_invoke_batch_and_ainvoke_agree(kind, corpus, query, k):
    mine, real = pair(kind, corpus, k=k)
    assert ids(mine.invoke(query)) == ids(real.invoke(query))
    assert [ids(r) for r in mine.batch([query, "cat"])] == [ids(r) for r in real.batch([query, "cat"])]
    assert ids(asyncio.run(mine.ainvoke(query))) == ids(asyncio.run(real.ainvoke(query)))


@given(corpus=corpora, query=queries, k=st.integers(0, 4))
def test_extra_invoke_kwargs_are_dropped_by_both(corpus, query, k):
    mine, real = pair("keyword", corpus)
    assert ids(mine.invoke(query, k=k)) == ids(real.invoke(query, k=k)) == ids(mine.invoke(query))
    assert mine._expects_other_args is real._expects_other_args is False


def test_declared_kwargs_arrive_on_both():
    class Flexible(BaseRetriever):
        def _get_relevant_documents(self, query, *, run_manager, k=1):
            return [Document(query, id=str(i)) for i in range(k)]

    class RealFlexible(RealBaseRetriever):
        def _get_relevant_documents(self, query, *, run_manager, k=1):
            return [RealDocument(query, id=str(i)) for i in range(k)]

    assert ids(Flexible().invoke("q", k=3)) == ids(RealFlexible().invoke("q", k=3)) == ["0", "1", "2"]
    assert Flexible._expects_other_args and RealFlexible._expects_other_args


def test_run_manager_detection_matches_the_real_class():
    assert BM25Retriever._new_arg_supported is RealBM25Retriever._new_arg_supported is False
    assert KeywordRetriever._new_arg_supported is RealKeywordRetriever._new_arg_supported is True


def test_errors_match_by_kind():
    mine, real = pair("keyword", ["cat"])
    assert same_outcome(outcome(lambda: mine.invoke("boom")), outcome(lambda: real.invoke("boom")))
    assert same_outcome(outcome(lambda: mine.invoke(5)), outcome(lambda: real.invoke(5)))
    # a missing required field: our TypeError, pydantic's ValidationError (both "bad value" errors)
    assert same_outcome(outcome(lambda: KeywordRetriever()), outcome(lambda: RealKeywordRetriever()))


def test_batch_return_exceptions_matches_the_real_class():
    mine, real = pair("keyword", ["cat", "dog"])
    got = mine.batch(["cat", "boom"], return_exceptions=True)
    expected = real.batch(["cat", "boom"], return_exceptions=True)
    assert ids(got[0]) == ids(expected[0])
    assert type(got[1]) is type(expected[1]) is ValueError


def test_schemas_and_repr_follow_the_real_names():
    mine, real = pair("keyword", ["cat"], tags=["kw"])
    for method in ("get_input_schema", "get_output_schema"):
        a, b = getattr(mine, method)(), getattr(real, method)()
        assert a.__name__ == b.__name__
        assert a.model_json_schema()["type"] == b.model_json_schema()["type"]
    plain = KeywordRetriever(docs=[Document("cat", id="d1")], tags=["kw"])
    real_plain = RealKeywordRetriever(docs=[RealDocument("cat", id="d1")], tags=["kw"])
    assert repr(plain).removeprefix("KeywordRetriever") == repr(real_plain).removeprefix("RealKeywordRetriever")
    assert str(plain) == str(real_plain)


def test_unknown_field_is_refused_with_the_field_list():
    with pytest.raises(TypeError, match=r"no field\(s\) \['K'\].*'k'"):
        KeywordRetriever(docs=[], K=1)


def test_mutable_defaults_are_not_shared():
    class Holder(BaseRetriever):
        seen: list[str] = []  # noqa: RUF012 - the point of the test

        def _get_relevant_documents(self, query, *, run_manager):
            self.seen.append(query)
            return []

    a, b = Holder(), Holder()
    a.invoke("x")
    assert a.seen == ["x"] and b.seen == []


# --------------------------------------------------------------------------- callbacks

def record(runnable, query, config):
    handler = RecordingHandler()
    try:
        runnable.invoke(query, config={**config, "callbacks": [handler]})
    except ValueError:
        pass
    return handler.rows()


def count(docs):
    return len(docs)


@given(corpus=corpora, query=st.one_of(queries, st.just("boom")), config_tags=tag_lists, own_tags=tag_lists,
       config_meta=metadata, own_meta=metadata, with_lambda=st.booleans())
@settings(max_examples=40)
def test_timelines_agree_event_for_event(corpus, query, config_tags, own_tags, config_meta, own_meta, with_lambda):
    mine, real = pair("keyword", corpus, tags=own_tags or None, metadata=own_meta or None)
    config = {"tags": config_tags, "metadata": config_meta}
    if with_lambda:
        mine, real = mine | count | RunnableLambda(lambda n: n + 1), real | count | RealRunnableLambda(lambda n: n + 1)
    assert record(mine, query, config) == record(real, query, config)


@given(n_steps=st.integers(2, 5), fail_at=st.one_of(st.none(), st.integers(1, 5)), tags=tag_lists)
@settings(max_examples=30)
def test_failing_sequences_report_the_same_events(n_steps, fail_at, tags):
    def make(number):
        def step(value):
            if number == fail_at:
                raise ValueError(f"step {number}")
            return value + 1

        step.__name__ = f"step{number}"
        return step

    mine = RunnableSequence(*[make(i) for i in range(1, n_steps + 1)])
    real = RealRunnableLambda(make(1))
    for i in range(2, n_steps + 1):
        real = real | make(i)
    assert record(mine, 0, {"tags": tags}) == record(real, 0, {"tags": tags})
    assert same_outcome(outcome(lambda: mine.invoke(0)), outcome(lambda: real.invoke(0)))


def test_error_is_recorded_then_reraised():
    handler = RecordingHandler()
    mine, _ = pair("keyword", ["cat"])
    with pytest.raises(ValueError, match="boom!"):
        mine.invoke("boom", config={"callbacks": [handler]})
    assert [(e.event, e.kind) for e in handler.events] == [("start", "retriever"), ("error", "retriever")]
    assert handler.events[-1].payload == "ValueError: boom!"


def test_a_failing_handler_does_not_break_the_run():
    class Broken(RecordingHandler):
        def on_chain_start(self, *args, **kwargs):
            raise RuntimeError("handler bug")

    assert RunnableLambda(str.upper).invoke("cat", config={"callbacks": [Broken()]}) == "CAT"

    class Strict(Broken):
        raise_error = True

    with pytest.raises(RuntimeError, match="handler bug"):
        RunnableLambda(str.upper).invoke("cat", config={"callbacks": [Strict()]})


# --------------------------------------------------------------------------- runnables

def test_runnable_lambda_names_and_composition_match_the_real_ones():
    def shout(s):
        return s.upper()

    assert RunnableLambda(shout).get_name() == RealRunnableLambda(shout).get_name() == "shout"
    assert RunnableLambda(lambda s: s).get_name() == RealRunnableLambda(lambda s: s).get_name()
    mine = shout | RunnableLambda(len) | (lambda n: n * 2)
    real = shout | RealRunnableLambda(len) | (lambda n: n * 2)
    assert len(mine.steps) == len(real.steps) == 3  # nested sequences are flattened
    assert mine.invoke("cat") == real.invoke("cat") == 6
    assert mine.batch(["a", "bb"]) == real.batch(["a", "bb"])
    assert asyncio.run(mine.ainvoke("cat")) == 6


def test_bad_runnable_input_gets_a_clear_error():
    with pytest.raises(TypeError, match="RunnableParallel"):
        RunnableLambda(str.upper) | {"a": str.upper}
    with pytest.raises(TypeError, match="Runnable or a function"):
        RunnableLambda(str.upper) | 42
    with pytest.raises(ValueError, match="at least 2 steps"):
        RunnableSequence(str.upper)
    with pytest.raises(TypeError, match="wraps a function"):
        RunnableLambda("upper")
    with pytest.raises(ValueError, match="one config per input"):
        RunnableLambda(str.upper).batch(["a", "b"], [{}])
    with pytest.raises(ValueError, match=r"unknown config key\(s\) \['tag'\]"):
        ensure_config({"tag": ["x"]})
    with pytest.raises(TypeError, match="config must be a dict"):
        ensure_config(["x"])


def test_kwargs_reach_the_first_step_only():
    seen = []

    class Spy(BaseRetriever):
        def _get_relevant_documents(self, query, *, run_manager, **kwargs):
            seen.append(kwargs)
            return []

    (Spy() | len).invoke("q", k=3)
    assert seen == [{"k": 3}]


def test_tags_move_to_the_end_when_added_again():
    manager = CallbackManager()
    manager.add_tags(["a", "b"])
    manager.add_tags(["a"], inherit=False)
    assert manager.tags == ["b", "a"]
    assert manager.inheritable_tags == ["b"]


# --------------------------------------------------------------------------- scoring

bags = st.lists(st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join), min_size=1, max_size=7)


@given(corpus=bags, query=queries)
def test_bm25_is_zero_exactly_without_a_query_word_and_positive_with_one(corpus, query):
    docs = [Document(t) for t in corpus]
    scores = bm25_scores(query, docs)
    terms = set(split_terms(query))
    for doc, score in zip(docs, scores, strict=True):
        assert score >= 0
        assert (score > 0) == bool(terms & set(split_terms(doc.page_content)))


@given(corpus=bags, extra=st.integers(1, 8))
def test_bm25_repeats_saturate(corpus, extra):
    """More occurrences never lower the score, and one word never scores above idf * (k1 + 1)."""
    k1 = 1.5
    docs = [Document(t) for t in corpus] + [Document("cat"), Document(" ".join(["cat"] * (1 + extra)))]
    scores = bm25_scores("cat", docs, k1=k1, b=0.0)
    n, having = len(docs), sum("cat" in split_terms(d.page_content) for d in docs)
    idf = math.log(1 + (n - having + 0.5) / (having + 0.5))
    assert scores[-1] >= scores[-2]
    assert scores[-1] < idf * (k1 + 1)


@given(corpus=bags, padding=st.integers(1, 6))
def test_bm25_length_penalty_only_when_b_is_positive(corpus, padding):
    docs = [Document(t) for t in corpus] + [Document("cat"), Document("cat" + " mat" * padding)]
    no_penalty = bm25_scores("cat", docs, b=0.0)
    assert math.isclose(no_penalty[-1], no_penalty[-2], rel_tol=1e-12)
    penalised = bm25_scores("cat", docs, b=0.75)
    assert penalised[-1] < penalised[-2]


def test_rare_words_weigh_more():
    docs = [Document(t) for t in ["the cat", "the dog", "the mat", "the kernel"]]
    scores = bm25_scores("the cat", docs)
    assert scores[0] == max(scores)
    assert bm25_scores("cat", docs)[0] > bm25_scores("the", docs)[0]


def test_scoring_helpers_refuse_bad_input():
    with pytest.raises(ValueError, match="k1 >= 0"):
        bm25_scores("cat", [], k1=-1)
    with pytest.raises(ValueError, match="0 <= b <= 1"):
        bm25_scores("cat", [], b=2)
    with pytest.raises(ValueError, match="2 documents but 1 scores"):
        top_k([Document("a"), Document("b")], [1.0], 1)
    with pytest.raises(TypeError, match="expected text"):
        split_terms(None)
    assert bm25_scores("cat", []) == [] and bm25_scores("cat", [Document("")]) == [0.0]


@given(corpus=corpora, query=queries, k=st.integers(-1, 6))
def test_top_k_keeps_positive_scores_best_first_in_corpus_order_on_ties(corpus, query, k):
    docs = [Document(t, id=f"d{i}") for i, t in enumerate(corpus)]
    scores = keyword_scores(query, docs)
    chosen = top_k(docs, scores, k)
    assert len(chosen) <= max(k, 0)
    picked = [int(d.id[1:]) for d in chosen]
    assert all(scores[i] > 0 for i in picked)
    assert picked == sorted(picked, key=lambda i: (-scores[i], i))
