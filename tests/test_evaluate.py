"""``retrieval_lab.evaluate``: question files, labels, the fast rankers, intervals, the command.

The rankers that make the evaluation fast must rank exactly as notebook 09's functions do; the
intervals must be the same on every run; a bad question file must say what is wrong; and the
command must print one row per retriever for the shipped set and for any other file.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from retrieval_lab import evaluate
from retrieval_lab.embeddings import BagOfWords
from retrieval_lab.scratch import Document
from retrieval_lab.scratch.retrievers import bm25_scores, keyword_scores, top_k

DATA = Path(__file__).parent / "data"
SMALL, TINY = DATA / "questions_small.json", DATA / "questions_tiny.json"
WORDS = ["cat", "dog", "the", "kernel", "python", "mat", "x1", "2"]

texts = st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join)

#: The first 16 hex digits of a SHA-256 of the shipped dev half's ids, sorted and joined.
FIXED_DEV_FINGERPRINT = "4aeb9ad81ec7aa4e"


def shipped_or_small() -> Path:
    """The shipped question set once it is in the package; until then the small test set."""
    path = evaluate.shipped_questions_path()
    return path if path.exists() else SMALL


@given(docs=st.lists(texts, min_size=1, max_size=8), query=texts)
def test_the_term_index_scores_exactly_as_notebook_09(docs, query):
    index = evaluate.TermIndex(docs)
    as_documents = [Document(page_content=t) for t in docs]
    assert index.bm25_scores(query) == bm25_scores(query, as_documents)
    assert index.bm25_scores(query, 0.5, 0.2) == bm25_scores(query, as_documents, 0.5, 0.2)
    assert index.keyword_scores(query) == keyword_scores(query, as_documents)


@given(scores=st.lists(st.sampled_from([0.0, 1.0, 2.5, 2.5, -1.0, 3.0]), max_size=10),
       depth=st.integers(0, 12))
def test_ranked_keeps_positive_scores_in_top_k_order(scores, depth):
    docs = [Document(page_content=str(i), id=f"c{i}") for i in range(len(scores))]
    expected = [d.id for d in top_k(docs, scores, depth)]
    assert evaluate._ranked([d.id for d in docs], scores, depth) == expected


def test_the_real_corpus_ranks_as_notebook_09_on_a_few_questions():
    chunks, _ = evaluate.corpus()
    bm25, keyword = evaluate.bm25_ranker(chunks), evaluate.keyword_ranker(chunks)
    for question in ("How does the with statement call __exit__?", "nonlocal scope", "zebra"):
        assert bm25(question) == [d.id for d in top_k(chunks, bm25_scores(question, chunks), 20)]
        assert keyword(question) == [
            d.id for d in top_k(chunks, keyword_scores(question, chunks), 20)
        ]


def test_bag_of_words_ranks_by_the_cosine_of_the_vectors_bagofwords_makes():
    import numpy as np

    chunks, _ = evaluate.corpus()
    some = chunks[:60]
    rank = evaluate.bag_of_words_ranker(some, depth=60)
    embedder = BagOfWords(rank.vocabulary)
    matrix = np.array(embedder.embed_documents([c.page_content for c in some]))
    for question in ("How does the with statement call __exit__?", "the the the", "assert"):
        query = np.array(embedder.embed_query(question))
        cosines = matrix @ query / (np.linalg.norm(matrix, axis=1) * np.linalg.norm(query))
        expected = [d.id for d in top_k(some, cosines.tolist(), 60)]
        assert rank(question) == expected
    assert rank("qwertyuiop") == []  # no shared word: no cosine to rank by


def test_dense_scores_tie_exactly_for_passages_with_the_same_text():
    chunks, vectors = evaluate.corpus()
    dense = evaluate.DenseRanker(chunks, vectors)
    scores = dense.scores("What does the for statement's else clause do?")
    by_text: dict[str, set[float]] = {}
    for chunk, score in zip(chunks, scores.tolist(), strict=True):
        by_text.setdefault(chunk.page_content, set()).add(score)
    assert all(len(s) == 1 for s in by_text.values())
    assert len(by_text) < len(chunks), "the corpus has repeated passages (compound holds for)"


def test_judgments_label_the_chunks_each_span_overlaps():
    chunks, _ = evaluate.corpus()
    questions = evaluate.load_questions(SMALL)
    qrels = evaluate.judgments(questions, chunks)
    by_id = {c.id: c for c in chunks}
    for q in questions:
        for chunk_id, grade in qrels[q["id"]].items():
            chunk = by_id[chunk_id]
            start = chunk.metadata["start_index"]
            assert any(
                s["doc"] == chunk.metadata["topic"] and s["start"] < start + len(chunk.page_content)
                and start < s["end"] and s["grade"] == grade
                for s in q["relevant"]
            )
        assert bool(qrels[q["id"]]) == bool(q["relevant"])


def test_the_bootstrap_is_seeded_and_brackets_the_mean():
    values = [0.0, 1.0, 0.5, 1.0, 0.25, 0.0, 1.0]
    mean, low, high = evaluate.bootstrap_interval(values, 500, seed=3)
    assert (mean, low, high) == evaluate.bootstrap_interval(values, 500, seed=3)
    assert low <= mean <= high and math.isclose(mean, sum(values) / len(values))
    assert evaluate.bootstrap_interval([0.5] * 5) == (0.5, 0.5, 0.5)


def test_a_paired_difference_needs_the_same_questions_and_speaks_only_when_clear():
    a, b = {"q1": 1.0, "q2": 1.0, "q3": 1.0}, {"q1": 0.0, "q2": 0.0, "q3": 0.0}
    diff, low, high = evaluate.paired_difference(a, b)
    assert (diff, low, high) == (1.0, 1.0, 1.0)
    assert evaluate.verdict("A", "B", low, high) == "A beats B"
    assert evaluate.verdict("A", "B", -0.2, -0.1) == "B beats A"
    assert evaluate.verdict("A", "B", -0.1, 0.2) == "no clear difference"
    assert evaluate.verdict("A", "B", -0.3, -0.0004) == "no clear difference"  # prints 0.000
    with pytest.raises(ValueError, match="same questions"):
        evaluate.paired_difference(a, {"q1": 0.0})


def write(tmp_path: Path, content) -> Path:
    path = tmp_path / "questions.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


def one(**changes):
    question = {"id": "q1", "question": "What does pass do?", "style": "lookup",
                "relevant": [{"doc": "pass", "start": 0, "end": 20, "grade": 2}]}
    question.update(changes)
    return {"questions": [question]}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not a JSON file"),
        ({"qs": []}, 'expected an object {"questions": [...]}'),
        (one(id=""), "question 1 has no id"),
        (one(question=" "), "'q1' has no question text"),
        (one(relevant=None), "write [] for an unanswerable question"),
        (one(relevant=[{"doc": "pas", "start": 0, "end": 5, "grade": 1}]),
         "topic 'pas', which is not in python_reference() (did you mean 'pass'?)"),
        (one(relevant=[{"doc": "pass", "start": 5, "end": 5, "grade": 1}]),
         "not a non-empty span inside topic 'pass'"),
        (one(relevant=[{"doc": "pass", "start": 0, "end": 10**6, "grade": 1}]),
         "not a non-empty span"),
        (one(relevant=[{"doc": "pass", "start": 0, "end": 5, "grade": 0}]), "has grade 0"),
        (one(relevant=[{"doc": "pass", "start": "0", "end": 5, "grade": 1}]),
         "whole numbers"),
        (one(relevant=[{"doc": "pass", "end": 5}]), "has no start, grade"),
        ({"questions": [one()["questions"][0]] * 2}, "question 2 repeats the id 'q1'"),
    ],
)
def test_a_bad_question_file_gets_an_error_naming_the_problem(tmp_path, content, message):
    path = write(tmp_path, content)
    with pytest.raises(evaluate.QuestionFileError) as caught:
        evaluate.load_questions(path)
    assert message in str(caught.value) and str(path) in str(caught.value)


def test_a_missing_file_is_named():
    with pytest.raises(evaluate.QuestionFileError, match="no such file"):
        evaluate.load_questions("nowhere/questions.json")


def rows_of(output: str) -> list[list[str]]:
    lines = output.strip().splitlines()
    return [line.split("  ")[0].strip() for line in lines[2:]], lines


@pytest.mark.parametrize("path", [shipped_or_small(), TINY], ids=["shipped", "tiny"])
def test_the_command_prints_one_row_per_retriever(path, capsys):
    argv = [] if path == evaluate.shipped_questions_path() else ["--questions", str(path)]
    assert evaluate.main([*argv, "--k", "3", "--resamples", "200"]) == 0
    names, lines = rows_of(capsys.readouterr().out)
    assert names == ["keyword", "BagOfWords", "BM25", "MiniLM", "MiniLM + MMR", "hybrid (RRF)"]
    assert lines[1].split() == ["retriever", "hit", "rate@3", "recall@3", "MRR", "nDCG@3"]
    judged = sum(bool(q["relevant"]) for q in evaluate.load_questions(path))
    assert lines[0].startswith(f"{judged} questions with judgments")


def test_the_command_runs_as_a_module_and_reports_a_bad_file(tmp_path):
    bad = write(tmp_path, one(relevant=[{"doc": "iff", "start": 0, "end": 5, "grade": 1}]))
    done = subprocess.run(
        [sys.executable, "-m", "retrieval_lab.evaluate", "--questions", str(bad)],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert "topic 'iff'" in done.stderr and "did you mean 'if'?" in done.stderr


def test_the_table_is_the_same_on_a_second_run():
    questions = evaluate.load_questions(TINY)
    retrievers = evaluate.standard_retrievers([q["question"] for q in questions])
    first = str(evaluate.score_table(questions, retrievers=retrievers, resamples=100))
    assert str(evaluate.score_table(questions, retrievers=retrievers, resamples=100)) == first
    html = evaluate.score_table(questions, retrievers=retrievers, resamples=10)._repr_html_()
    assert "<table>" in html


def test_importing_the_helpers_and_evaluate_imports_no_scratch_module():
    """evaluate sits above scratch, but reaches it only inside its functions."""
    code = (
        "import sys, retrieval_lab, retrieval_lab.evaluate, retrieval_lab.plots\n"
        "print([m for m in sys.modules if m.startswith('retrieval_lab.scratch')])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_the_split_is_fixed_stratified_and_halves_the_shipped_questions():
    import hashlib
    import random
    from collections import Counter

    questions = evaluate.load_questions()
    dev, test = (evaluate.split_questions(questions, part) for part in ("dev", "test"))
    dev_ids, test_ids = [q["id"] for q in dev], [q["id"] for q in test]
    assert not set(dev_ids) & set(test_ids)
    assert sorted(dev_ids + test_ids) == sorted(q["id"] for q in questions)
    assert (len(dev), len(test)) == (73, 74)
    styles = Counter(q["style"] for q in questions)
    for style, n in styles.items():
        assert sum(q["style"] == style for q in dev) == n // 2
    shuffled = list(questions)
    random.Random(1).shuffle(shuffled)
    assert sorted(q["id"] for q in evaluate.split_questions(shuffled, "dev")) == sorted(dev_ids)
    assert evaluate.split_questions(questions, "all") == questions
    # The halves are part of the course's results: a change to them must be deliberate.
    fingerprint = hashlib.sha256(" ".join(sorted(dev_ids)).encode()).hexdigest()[:16]
    assert fingerprint == FIXED_DEV_FINGERPRINT
    with pytest.raises(ValueError, match="dev, test, all"):
        evaluate.split_questions(questions, "train")
