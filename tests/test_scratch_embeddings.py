"""The scratch Embeddings and cosine_similarity (notebook 04) against langchain-core's, on random input.

cosine_similarity must reproduce the real ``_cosine_similarity`` (numpy path) value for value, warning
for warning and error for error, because notebook 07's scratch store ranks with it and must give the
real store's scores, and its ValueError for a zero query.
"""

from __future__ import annotations

import ast
import asyncio
import threading
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from langchain_core.embeddings import Embeddings as RealEmbeddings
from langchain_core.vectorstores import InMemoryVectorStore as RealInMemoryVectorStore
from langchain_core.vectorstores import utils as real_utils
from langchain_core.vectorstores.utils import _cosine_similarity as real_cosine_similarity

import retrieval_lab.scratch.embeddings as scratch_embeddings
from retrieval_lab.evaluation.compare import outcome, same_outcome
from retrieval_lab.models.embeddings import BagOfWords, words_of
from retrieval_lab.scratch import Embeddings, cosine_similarity


def test_the_real_function_takes_the_numpy_path_here():
    """Our reference is the numpy path; with simsimd installed the real scores would be float32."""
    assert real_utils._HAS_NUMPY and not real_utils._HAS_SIMSIMD


# --------------------------------------------------------------------------- cosine similarity

_entries = st.one_of(
    st.integers(min_value=-3, max_value=3).map(float),  # small counts: many zero rows and exact ties
    st.floats(min_value=-1e3, max_value=1e3, allow_nan=False, allow_infinity=False),
)
_odd_entries = st.one_of(_entries, st.sampled_from([float("nan"), float("inf"), float("-inf")]))


def _matrices(entries, width):
    return st.integers(min_value=1, max_value=5).flatmap(
        lambda rows: st.lists(st.lists(entries, min_size=width, max_size=width), min_size=rows, max_size=rows)
    )


@st.composite
def matrix_pairs(draw, entries=_entries):
    width = draw(st.integers(min_value=1, max_value=4))
    return draw(_matrices(entries, width)), draw(_matrices(entries, width))


def _run(function, x, y):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = outcome(lambda: function(x, y))
    return result, [(w.category, str(w.message)) for w in caught]


def _same_matrix(mine, real) -> bool:
    return mine.shape == real.shape and mine.dtype == real.dtype and np.allclose(mine, real, rtol=0, atol=1e-9)


def _assert_same(x, y) -> None:
    (mine, mine_warnings), (real, real_warnings) = _run(cosine_similarity, x, y), _run(real_cosine_similarity, x, y)
    assert same_outcome(mine, real, _same_matrix), (x, y, mine, real)
    assert mine_warnings == real_warnings
    if real.error:
        assert mine.error[0] == real.error[0]  # the very same class: ValueError for the zero query


@settings(max_examples=30)
@given(pair=matrix_pairs())
def test_cosine_matches_real_on_random_matrices(pair):
    x, y = pair
    _assert_same(x, y)
    _assert_same(np.array(x), np.array(y))  # numpy input as well as lists


@settings(max_examples=30)
@given(pair=matrix_pairs(_odd_entries))
def test_cosine_matches_real_with_nan_and_inf_warnings_and_errors(pair):
    _assert_same(*pair)


@settings(max_examples=15)
@given(x=_matrices(_entries, 3), y=_matrices(_entries, 2))
def test_cosine_refuses_matrices_of_different_widths_like_real(x, y):
    _assert_same(x, y)
    assert "Number of columns in X and Y must be the same" in outcome(lambda: cosine_similarity(x, y)).error[1]


@pytest.mark.parametrize(
    ("x", "y"),
    [([], [[1.0, 0.0]]), ([[1.0, 0.0]], []), ([], []), (np.zeros((0, 3)), [[1.0, 2.0, 3.0]])],
    ids=["x empty", "y empty", "both empty", "zero rows"],
)
def test_empty_input_gives_an_empty_row(x, y):
    _assert_same(x, y)
    assert cosine_similarity(x, y).shape == (1, 0)


def test_a_zero_query_is_an_error_but_a_zero_document_scores_zero():
    docs = [[1.0, 0.0], [0.0, 0.0]]
    assert cosine_similarity([[1.0, 1.0]], docs).tolist() == real_cosine_similarity([[1.0, 1.0]], docs).tolist()
    assert cosine_similarity([[1.0, 1.0]], docs)[0][1] == 0.0
    with pytest.raises(ValueError, match="zero vector"):
        cosine_similarity([[0.0, 0.0]], docs)
    with pytest.raises(ValueError, match="NaN values found"):
        real_cosine_similarity([[0.0, 0.0]], docs)


def test_a_bare_vector_is_the_one_documented_difference():
    """Ours says what to do; the real one fails on ``x.shape[1]`` with an IndexError."""
    with pytest.raises(ValueError, match=r"wrap a single vector in a list"):
        cosine_similarity([1.0, 0.0], [[1.0, 0.0]])
    with pytest.raises(ValueError, match=r"wrap a single vector in a list"):
        cosine_similarity([[1.0, 0.0]], [1.0, 0.0])
    with pytest.raises(IndexError):
        real_cosine_similarity([1.0, 0.0], [[1.0, 0.0]])


_words = st.lists(st.sampled_from(["cat", "dog", "kernel", "python", "the", "Cats", "DOG"]), max_size=6).map(" ".join)


@settings(max_examples=30)
@given(texts=st.lists(_words, min_size=1, max_size=6), query=_words)
def test_cosine_reproduces_the_real_store_scores(texts, query):
    """Notebook 07 relies on it: the same scores (or the same error) as InMemoryVectorStore's search."""
    embedder = BagOfWords()
    store = RealInMemoryVectorStore(embedder)
    store.add_texts(texts, ids=[f"t{i}" for i in range(len(texts))])
    real = outcome(lambda: sorted(score for _, score in store.similarity_search_with_score(query, k=len(texts))))
    mine = outcome(lambda: sorted(cosine_similarity([embedder.embed_query(query)], embedder.embed_documents(texts))[0]))
    assert same_outcome(mine, real, lambda a, b: np.allclose(a, b, rtol=0, atol=1e-9)), (mine, real)


# --------------------------------------------------------------------------- the Embeddings interface


class _CountLogic:
    """The course's bag of words, written once and put on both interfaces."""

    vocabulary = ("cat", "dog", "kernel", "python")

    def embed_query(self, text: str) -> list[float]:
        words = words_of(text)
        return [float(words.count(w)) for w in self.vocabulary]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self.embed_query(t) for t in texts]


class MineCounts(_CountLogic, Embeddings):
    pass


class RealCounts(_CountLogic, RealEmbeddings):
    pass


@settings(max_examples=30)
@given(texts=st.lists(_words | st.text(max_size=20), max_size=5), query=_words)
def test_the_interface_and_its_async_twins_match_real(texts, query):
    mine, real = MineCounts(), RealCounts()
    assert mine.embed_documents(texts) == real.embed_documents(texts) == BagOfWords().embed_documents(texts)
    assert mine.embed_query(query) == real.embed_query(query)

    async def both(model):
        return await model.aembed_documents(texts), await model.aembed_query(query)

    assert asyncio.run(both(mine)) == asyncio.run(both(real))


def test_the_async_twins_run_in_a_worker_thread():
    class Where(_CountLogic):
        def embed_query(self, text):
            return [float(threading.current_thread() is threading.main_thread())]

        def embed_documents(self, texts):
            return [self.embed_query(t) for t in texts]

    mine = type("MineWhere", (Where, Embeddings), {})()
    real = type("RealWhere", (Where, RealEmbeddings), {})()
    for model in (mine, real):
        assert model.embed_query("x") == [1.0]
        assert asyncio.run(model.aembed_query("x")) == [0.0]
        assert asyncio.run(model.aembed_documents(["x", "y"])) == [[0.0], [0.0]]


def test_the_same_abstract_methods_and_errors():
    assert Embeddings.__abstractmethods__ == RealEmbeddings.__abstractmethods__
    for only in ("embed_query", "embed_documents"):
        body = {only: lambda self, *a: []}
        mine = outcome(lambda b=body: type("Half", (Embeddings,), b)())
        real = outcome(lambda b=body: type("Half", (RealEmbeddings,), b)())
        assert mine.error and real.error and mine.error[0] == real.error[0] == "TypeError"
    assert not issubclass(Embeddings, RealEmbeddings)  # built from scratch, not inherited


def test_errors_inside_an_async_twin_propagate():
    class Broken(_CountLogic):
        def embed_query(self, text):
            raise ValueError("no")

    for base in (Embeddings, RealEmbeddings):
        model = type("Broken", (Broken, base), {})()
        with pytest.raises(ValueError, match="no"):
            asyncio.run(model.aembed_query("x"))


# --------------------------------------------------------------------------- the module itself


def test_scratch_embeddings_import_no_langchain():
    tree = ast.parse(Path(scratch_embeddings.__file__).read_text(encoding="utf-8"))
    imported = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    imported += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert not [name for name in imported if name.startswith("langchain")], imported


def test_the_names_are_exported_from_the_package():
    import retrieval_lab.scratch as scratch

    assert scratch.Embeddings.__module__ == scratch.cosine_similarity.__module__ == "retrieval_lab.scratch.embeddings"
