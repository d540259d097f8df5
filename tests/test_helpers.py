"""The shared helper package: BagOfWords, corpus, compare, checks, the foundation plots."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import InMemoryVectorStore

from retrieval_lab.checks import (
    CheckResult,
    check_behaviour,
    check_function,
    check_value,
)
from retrieval_lab.data import corpus
from retrieval_lab.evaluation.compare import compare_calls, compare_fields, compare_rankings, same_ranking, tie_runs
from retrieval_lab.models.embeddings import DEFAULT_VOCABULARY, BagOfWords
from retrieval_lab.plots import pipeline_diagram, score_bars

# ---------------------------------------------------------------- BagOfWords

words = st.sampled_from(["cat", "dog", "kernel", "python", "Cat", "DOG", "cats", "the", "pythonic"])
sentences = st.lists(words, max_size=12).map(" ".join)


def test_bag_of_words_is_a_real_embeddings():
    assert isinstance(BagOfWords(), Embeddings)
    assert BagOfWords().vocabulary == DEFAULT_VOCABULARY == ("cat", "dog", "kernel", "python")


@given(sentences)
def test_counts_whole_lowercase_words(text):
    lowered = text.lower().split()
    expected = [float(lowered.count(w)) for w in DEFAULT_VOCABULARY]
    assert BagOfWords().embed_query(text) == expected


@given(st.lists(sentences, max_size=5))
def test_embed_documents_is_embed_query_per_text(texts):
    emb = BagOfWords()
    assert emb.embed_documents(texts) == [emb.embed_query(t) for t in texts]


def test_vocabulary_is_an_argument():
    emb = BagOfWords(vocabulary=["cat", "dog"])
    assert emb.embed_query("dog dog cat, said the python") == [1.0, 2.0]


@pytest.mark.parametrize("bad", [3, None, b"cat", ["cat"]])
def test_non_string_input_is_a_clear_type_error(bad):
    with pytest.raises(TypeError, match="pass a str"):
        BagOfWords().embed_query(bad)


def test_a_single_string_to_embed_documents_is_refused():
    with pytest.raises(TypeError, match="embed_query"):
        BagOfWords().embed_documents("cat")


@pytest.mark.parametrize(
    ("vocabulary", "message"),
    [([], "empty"), ("cat", "single string"), (["Cat"], "lowercase"), (["cat", "cat"], "repeats"), ([1], "lowercase")],
)
def test_bad_vocabulary_is_refused_at_construction(vocabulary, message):
    with pytest.raises((TypeError, ValueError), match=message):
        BagOfWords(vocabulary=vocabulary)


def test_no_vocabulary_word_is_the_zero_vector_and_the_real_store_refuses_it():
    """The docstring's promise, checked against the real store (verified-behaviour.md §3)."""
    emb = BagOfWords()
    assert emb.embed_query("hello world") == [0.0, 0.0, 0.0, 0.0]
    store = InMemoryVectorStore(emb)
    store.add_texts(["cat"], ids=["c"])
    with pytest.raises(ValueError, match="NaN values found"):
        store.similarity_search("hello world")


# ---------------------------------------------------------------- corpus

def test_corpus_returns_fresh_objects():
    a, b = corpus.pets_and_code(), corpus.pets_and_code()
    assert [d.id for d in a] == [d.id for d in b]
    assert a[0].metadata is not b[0].metadata
    assert len({d.id for d in a}) == len(a)


def test_every_corpus_document_has_a_vocabulary_word():
    emb = BagOfWords()
    for doc in corpus.pets_and_code():
        assert any(emb.embed_query(doc.page_content)), doc
    plane = BagOfWords(vocabulary=["cat", "dog"])
    for doc in corpus.cat_dog_plane():
        assert any(plane.embed_query(doc.page_content)), doc


# ---------------------------------------------------------------- compare

def test_compare_fields_marks_each_field():
    class A:
        x, y = 1, 2

    class B:
        x, y = 1, 3

    table = compare_fields(A(), B(), ["x", "y", "z"])
    assert [r.match for r in table.rows] == [True, False, True]  # z: both raise AttributeError
    assert not table.all_match
    assert "✗" in str(table) and "<table>" in table._repr_html_()


def test_compare_calls_matches_errors_by_kind():
    table = compare_calls({
        "value": (lambda: 1, lambda: 1),
        "both bad input": (lambda: int("x"), lambda: [].index(0)),
        "one raises": (lambda: 1, lambda: 1 / 0),
    })
    assert [r.match for r in table.rows] == [True, True, False]


@given(st.lists(st.tuples(st.sampled_from("abcdef"), st.sampled_from([0.1, 0.5, 0.9])), unique_by=lambda t: t[0]))
def test_same_ranking_ignores_order_inside_ties_only(pairs):
    ranked = sorted(pairs, key=lambda p: -p[1])
    shuffled_ties = sorted(pairs, key=lambda p: (-p[1], p[0]), reverse=False)
    assert same_ranking(ranked, shuffled_ties)
    if len({s for _, s in ranked}) > 1:
        assert not same_ranking(ranked, list(reversed(ranked)))


def test_tie_runs_and_ranking_table():
    assert tie_runs([0.9, 0.5, 0.5, 0.1]) == [(0, 1), (1, 3), (3, 4)]
    table = compare_rankings([("a", 0.9), ("c", 0.5), ("b", 0.5)], [("a", 0.9), ("b", 0.5), ("c", 0.5)])
    assert table.all_match and "(tie)" in str(table)
    assert not compare_rankings([("a", 0.9)], [("b", 0.9)]).all_match


# ---------------------------------------------------------------- checks

def real_upper(text: str) -> str:
    return text.upper()


def test_check_function_statuses():
    def stub(text):
        raise NotImplementedError

    def wrong(text):
        return text

    def crashes(text):
        return text.nope

    cases = ["cat", "Dog"]
    assert check_function("E", stub, oracle=real_upper, cases=cases, hint="h").status == "not attempted"
    assert check_function("E", wrong, oracle=real_upper, cases=cases, hint="h").status == "wrong"
    result = check_function("E", crashes, oracle=real_upper, cases=cases, hint="h")
    assert result.status == "error" and "AttributeError" in str(result) and "'cat'" in str(result)
    assert check_function("E", str.upper, oracle=real_upper, cases=cases, hint="h").passed
    assert check_function("E", 42, oracle=real_upper, cases=cases, hint="h").status == "wrong"


def test_a_wrong_answer_never_shows_the_expected_value():
    """A predict exercise cannot be solved by reading the check: the message names the case and
    what the learner returned, never the oracle's value (unless a debug check opts in)."""
    def wrong(text):
        return text.lower()

    quiet = str(check_function("E", wrong, oracle=real_upper, cases=["Kiwi"], hint="h"))
    assert "KIWI" not in quiet and "'Kiwi'" in quiet and "'kiwi'" in quiet
    told = str(check_function("E", wrong, oracle=real_upper, cases=["Kiwi"], hint="h",
                              reveal_expected=True))
    assert "KIWI" in told
    refused = str(check_function("E", lambda x: x, oracle=lambda x: x.nope, cases=["a"], hint="h"))
    assert "AttributeError" not in refused and "refused" in refused


def test_check_function_expects_the_oracles_errors():
    def lenient(value):
        return str(value)

    def strict(value):
        if not isinstance(value, str):
            raise TypeError("text only")
        return value

    def oracle(value):
        if not isinstance(value, str):
            raise ValueError("bad")
        return value

    assert check_function("E", strict, oracle=oracle, cases=["a", 1], hint="h").passed
    assert check_function("E", lenient, oracle=oracle, cases=["a", 1], hint="h").status == "wrong"


def test_a_strange_return_value_does_not_crash_the_check():
    class Weird:
        def __eq__(self, other):
            raise RuntimeError("no")

    result = check_function("E", lambda t: Weird(), oracle=real_upper, cases=["a"], hint="h")
    assert result.status == "wrong"


def test_check_value_and_behaviour():
    def problems(v):
        return None if v == 3 else f"got {v}"

    assert check_value("E", ..., problems=problems, hint="h").status == "not attempted"
    assert check_value("E", 3, problems=problems, hint="h").passed
    assert check_value("E", lambda: 4, problems=problems, hint="h").status == "wrong"
    assert check_value("E", lambda: 1 / 0, problems=problems, hint="h").status == "error"

    def stub():
        raise NotImplementedError

    assert check_behaviour("E", stub, problems=lambda f: f(), hint="h").status == "not attempted"
    assert check_behaviour("E", lambda: 1 / 0, problems=lambda f: f(), hint="h").status == "error"
    assert check_behaviour("E", lambda: None, problems=lambda f: f(), hint="h").passed
    assert isinstance(check_behaviour("E", None, problems=lambda f: f(), hint="h"), CheckResult)


# ---------------------------------------------------------------- plots

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


# ---------------------------------------------------------------- nbtools

def test_normalise_makes_stored_outputs_portable():
    """What make execute stores must not depend on the machine, the path or the load."""
    from nbformat.v4 import new_code_cell, new_notebook, new_output

    from tools.nbtools import ROOT, normalise

    cell = new_code_cell("print('a'); print('b'); 1/0", execution_count=1)
    cell.metadata["execution"] = {"iopub.execute_input": "2026-12-02T10:00:00"}
    cell.outputs = [
        new_output("stream", name="stdout", text="a\n"),
        new_output("stream", name="stdout", text="b\n"),
        new_output("error", ename="ZeroDivisionError", evalue="division by zero",
                   traceback=["File /opt/x/.venv/lib/python3.12/site-packages/m.py:1", f"File {ROOT}/src/m.py:2",
                              "File ~/.pyenv/versions/3.11.7/lib/python3.11/pathlib.py:1058, in Path.read_text"]),
    ]
    nb = new_notebook(cells=[cell], metadata={"widgets": {"state": {}}})
    normalise(nb)
    assert [o["output_type"] for o in cell.outputs] == ["stream", "error"]
    assert cell.outputs[0]["text"] == "a\nb\n"
    assert cell.outputs[1]["traceback"] == [
        "File site-packages/m.py:1", "File src/m.py:2", "File python3.11/pathlib.py:1058, in Path.read_text"
    ]
    assert "execution" not in cell.metadata and "widgets" not in nb.metadata
    assert nb.metadata["kernelspec"]["name"] == "retrieval-lab"


def test_lookup_embeddings_returns_copies_and_names_a_missing_text():
    from retrieval_lab.models.embeddings import LookupEmbeddings

    table = {"a": [1.0, 0.0]}
    emb = LookupEmbeddings(table)
    vector = emb.embed_query("a")
    vector.append(9.0)
    assert emb.embed_documents(["a", "a"]) == [[1.0, 0.0], [1.0, 0.0]]
    with pytest.raises(KeyError, match="no vector for 'b'"):
        emb.embed_query("b")


def test_in_thread_copies_the_context_and_turns_stop_iteration_into_runtime_error():
    import asyncio
    import contextvars

    from retrieval_lab.runtime.concurrency import in_thread

    seen = contextvars.ContextVar("seen", default="unset")

    async def scenario():
        seen.set("from the caller")
        value = await in_thread(seen.get)
        with pytest.raises(RuntimeError):
            await in_thread(next, iter([]))
        keyword = await in_thread(sorted, [3, 1, 2], reverse=True)
        return value, keyword

    assert asyncio.run(scenario()) == ("from the caller", [3, 2, 1])


def test_compare_rankings_shows_a_tie_in_the_same_order_whatever_order_the_store_gave():
    from retrieval_lab.evaluation.compare import compare_rankings

    one = compare_rankings([("d1", 0.9), ("d4", 0.0), ("d3", 0.0)], [("d1", 0.9), ("d3", 0.0), ("d4", 0.0)])
    other = compare_rankings([("d1", 0.9), ("d3", 0.0), ("d4", 0.0)], [("d1", 0.9), ("d4", 0.0), ("d3", 0.0)])
    assert str(one) == str(other) and one.all_match
    assert [row.mine for row in one.rows] == ["d1  0.900", "d3  0.000", "d4  0.000"]


def test_two_name_errors_never_agree() -> None:
    """A comparison that names an undefined function fails on both sides: that is a bug in
    the comparison, not agreement, so compare_calls must show it as a difference."""
    from retrieval_lab.evaluation.compare import compare_calls, outcome, same_outcome

    def broken() -> object:
        return undefined_name  # noqa: F821

    assert not same_outcome(outcome(broken), outcome(broken))
    table = compare_calls({"typo": (broken, broken)})
    assert not table.all_match
    assert same_outcome(outcome(lambda: int("x")), outcome(lambda: int("y")))


def test_both_passes_a_class_as_it_is_and_calls_a_factory() -> None:
    from retrieval_lab.evaluation.compare import both

    mine, real = both(lambda cls: cls("7"), int, float)
    assert (mine(), real()) == (7, 7.0)
    mine, real = both(lambda xs: len(xs), lambda: [1, 2], [1])
    assert (mine(), real()) == (2, 1)


def test_row_embeddings_hand_out_rows_as_views_or_lists() -> None:
    from retrieval_lab.models.embeddings import RowEmbeddings

    vectors = np.arange(12, dtype=np.float32).reshape(4, 3)
    as_array = RowEmbeddings(vectors, as_lists=False)
    block = as_array.embed_documents(["1", "2", "3"])
    assert np.shares_memory(block, vectors) and block.tolist() == vectors[1:].tolist()
    assert as_array.embed_documents(["3", "0"]).tolist() == [vectors[3].tolist(), vectors[0].tolist()]
    assert RowEmbeddings(vectors).embed_documents(["0"]) == [[0.0, 1.0, 2.0]]
    assert RowEmbeddings(vectors).embed_query("2") == [6.0, 7.0, 8.0]
    with pytest.raises(ValueError, match="row"):
        RowEmbeddings(vectors).embed_query("cat")
    with pytest.raises(ValueError, match="2-D"):
        RowEmbeddings(np.zeros(3))
