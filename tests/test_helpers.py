"""The shared helper package: BagOfWords, corpus, compare, checks, the foundation plots."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import strategies as st
from langchain_core.vectorstores import InMemoryVectorStore

from retrieval_lab.checks import (
    CheckResult,
    check_behaviour,
    check_function,
    check_value,
)
from retrieval_lab.data import corpus
from retrieval_lab.models.embeddings import BagOfWords
from retrieval_lab.plots import pipeline_diagram, score_bars

# ---------------------------------------------------------------- BagOfWords

words = st.sampled_from(["cat", "dog", "kernel", "python", "Cat", "DOG", "cats", "the", "pythonic"])
sentences = st.lists(words, max_size=12).map(" ".join)


# ---------------------------------------------------------------- corpus


# ---------------------------------------------------------------- compare


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


