"""``retrieval_lab.evaluation.evaluate``: question files, labels, the fast rankers, intervals, the command.

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

from retrieval_lab.evaluation import evaluate
from retrieval_lab.models.embeddings import BagOfWords
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


@pytest.mark.slow
def test_dense_scores_tie_exactly_for_passages_with_the_same_text():
    from retrieval_lab.data.corpus import python_reference_chunks, python_reference_vectors

    chunks, vectors = python_reference_chunks(), python_reference_vectors()
    dense = evaluate.DenseRanker(chunks, vectors)
    scores = dense.scores("What does the for statement's else clause do?")
    by_text: dict[str, set[float]] = {}
    for chunk, score in zip(chunks, scores.tolist(), strict=True):
        by_text.setdefault(chunk.page_content, set()).add(score)
    assert all(len(s) == 1 for s in by_text.values())
    assert len(by_text) < len(chunks), "the corpus has repeated passages (compound holds for)"


def test_copies_are_collapsed_and_the_copy_kept_carries_every_copy_s_label():
    from retrieval_lab.data.corpus import python_reference_chunks

    everything, (kept, vectors) = python_reference_chunks(), evaluate.corpus()
    assert len({c.page_content for c in kept}) == len(kept) == len(vectors) < len(everything)
    questions = evaluate.load_questions()
    one_each = evaluate.judgments(questions, kept)
    kept_id = {c.page_content: c.id for c in kept}
    for q, labels in evaluate.judgments(questions, everything).items():
        collapsed: dict[str, int] = {}
        for chunk_id, grade in labels.items():
            text = next(c.page_content for c in everything if c.id == chunk_id)
            collapsed[kept_id[text]] = max(collapsed.get(kept_id[text], 0), grade)
        assert one_each[q] == collapsed, q


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
    assert evaluate.verdict("A", "B", -0.3, -0.0004) == "B beats A"  # the bound, not its print
    with pytest.raises(ValueError, match="same questions"):
        evaluate.paired_difference(a, {"q1": 0.0})


def test_bounds_are_printed_rounded_outward_so_the_print_holds_the_interval():
    assert evaluate.outward(-0.11512, -0.00012) == "[-0.1152, -0.0001]"
    assert evaluate.outward(0.00003, 0.2) == "[0.0000, 0.2000]"
    assert evaluate.outward(-0.00003, 0.1) == "[-0.0001, 0.1000]"
    assert evaluate.outward(-0.2, -0.00003) == "[-0.2000, 0.0000]"


def test_holm_multiplies_the_sorted_p_values_and_never_lets_them_fall():
    assert evaluate.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert evaluate.holm([0.5, 0.0001]) == pytest.approx([0.5, 0.0002])
    assert evaluate.holm([0.9, 0.8]) == [1.0, 1.0]


@pytest.mark.slow
def test_the_randomization_p_value_is_the_exact_sign_flip_test_within_monte_carlo_error():
    import numpy as np
    from scipy import stats

    rng = np.random.default_rng(3)
    for _ in range(4):
        d = rng.choice([-1.0, -0.5, 0.0, 0.25, 0.5, 1.0], size=12)
        a = {f"q{i}": max(v, 0.0) for i, v in enumerate(d)}
        b = {f"q{i}": max(-v, 0.0) for i, v in enumerate(d)}
        diffs = np.array([a[q] - b[q] for q in sorted(a)])
        exact = stats.permutation_test(  # 2**12 sign patterns: scipy enumerates them all
            (diffs,), lambda x, axis: np.mean(x, axis=axis), permutation_type="samples",
        ).pvalue
        p = evaluate.randomization_p_value(a, b, 10_000, seed=0)
        assert abs(p - exact) < 4 * math.sqrt(exact * (1 - exact) / 10_000) + 1e-4
    one_sided = {f"q{i}": 1.0 for i in range(20)}
    zeros = dict.fromkeys(one_sided, 0.0)
    assert evaluate.randomization_p_value(one_sided, zeros, 10_000) == 1 / 10_001  # never 0


@pytest.fixture(scope="module")
def test_half():
    """The test half's runs, labels and pairs, the second stage's rows included, whichever
    test imported retrieval_lab.evaluation.rerank first in this process (or none did)."""
    import retrieval_lab.evaluation.rerank  # noqa: F401  (registers the second stage's rows)

    questions = evaluate.split_questions(evaluate.load_questions(), "test")
    second_stage = [name for name, row in evaluate.EXTRA_RETRIEVERS.items()
                    if row.module == "retrieval_lab.evaluation.rerank"]
    retrievers, pairs = evaluate.retrievers_and_pairs([q["question"] for q in questions],
                                                      extra=second_stage)
    runs = evaluate.run_all(retrievers, questions)
    return runs, evaluate.judgments(questions, evaluate.corpus()[0]), pairs


@pytest.mark.slow
def test_the_verdicts_of_the_paired_table_are_the_same_at_seeds_0_to_9(test_half):
    """Both tables the command prints: the course's pairs, then the second stage's (a family
    of their own for Holm)."""
    runs, qrels, pairs = test_half
    standard = [pair for pair in pairs if pair in evaluate.STANDARD_PAIRS]
    added = [pair for pair in pairs if pair not in evaluate.STANDARD_PAIRS]
    assert standard == list(evaluate.STANDARD_PAIRS) and added
    for metric in ("nDCG@10", "recall@5"):
        for family in (standard, added):
            verdicts = {
                tuple(row[-1] for row in evaluate.paired_table(runs, qrels, family, metric,
                                                               seed=seed).rows)
                for seed in range(10)
            }
            assert len(verdicts) == 1, (metric, family, verdicts)
            assert "too close to call" not in next(iter(verdicts))


@pytest.mark.parametrize(("resamples", "most"), [(10_000, 10_000), (7, 7 * 64), (200, 3200)])
def test_a_table_s_numbers_are_those_of_its_pairs_computed_one_by_one(resamples, most):
    """significance and score_runs draw once for all their pairs and rows, and draw more
    resamples on from the rows already drawn: the numbers must be those of
    paired_difference, randomization_p_value and bootstrap_interval called for each."""
    import random

    rng = random.Random(resamples)
    grid = [0.0, 0.1, 0.25, 1 / 3, 0.5, 1.0]
    scores = {}
    for name, n in (("a", 13), ("b", 13), ("c", 13), ("d", 13), ("e", 5), ("f", 5)):
        scores[name] = {f"{name in 'ef'}{i}": rng.choice(grid) for i in range(n)}
    scores["d"] = {q: v + 0.3 * (v < 0.9) for q, v in scores["b"].items()}  # d clearly beats b
    pairs = [("a", "b"), ("d", "b"), ("e", "f"), ("c", "a"), ("a", "d")]
    found = evaluate.significance(pairs, scores, resamples, seed=3, alpha=0.2, most=most)
    drawn = found[0].resamples
    assert {c.resamples for c in found} == {drawn}
    if resamples < 10_000:
        assert drawn > resamples  # the test covers drawing more
    for (a, b), c in zip(pairs, found, strict=True):
        assert (c.difference, c.low, c.high) == evaluate.paired_difference(
            scores[a], scores[b], resamples, seed=3)
        assert c.p_value == evaluate.randomization_p_value(scores[a], scores[b], drawn, seed=3)
    runs = {name: {q: sorted(scores["a"], key=lambda q, s=scores[name]: -s.get(q, 0))[:4]
                   for q in scores["a"]} for name in "abcd"}
    qrels = {q: ({q: 1} if scores["a"][q] > 0.2 else {}) for q in scores["a"]}
    table = evaluate.score_runs(runs, qrels, 3, resamples, seed=3)
    for name, row in zip(runs, table.rows, strict=True):
        assert row == [name, *(
            evaluate._cell(*evaluate.bootstrap_interval(
                list(evaluate.per_question(metric, runs[name], qrels).values()), resamples, 3))
            for metric in evaluate.metric_functions(3).values())]


@pytest.mark.slow
def test_trec_eval_reads_the_written_files_and_finds_the_table_s_means(test_half, tmp_path):
    import pytrec_eval

    runs, qrels, _ = test_half
    files = evaluate.write_trec_files(runs, qrels, tmp_path)
    assert sorted(p.name for p in files) == sorted(
        ["qrels.txt", *(f"{evaluate._slug(name)}.run" for name in runs)]
    )
    with open(tmp_path / "qrels.txt") as f:
        judged = pytrec_eval.parse_qrel(f)
    assert judged == {q: labels for q, labels in qrels.items() if labels}
    measures = {"success_5": "hit rate@5", "recall_5": "recall@5", "recip_rank": "MRR",
                "ndcg_cut_5": "nDCG@5", "ndcg_cut_10": "nDCG@10"}
    ours = evaluate.metric_functions(5)
    evaluator = pytrec_eval.RelevanceEvaluator(judged, {"success.5", "recall.5", "recip_rank",
                                                        "ndcg_cut.5,10"})
    for name, run in runs.items():
        with open(tmp_path / f"{evaluate._slug(name)}.run") as f:
            found = evaluator.evaluate(pytrec_eval.parse_run(f))
        for measure, column in measures.items():
            # trec_eval -c: a judged question with no line in the run counts 0
            theirs = math.fsum(found.get(q, {}).get(measure, 0.0) for q in judged) / len(judged)
            mine = evaluate._mean(list(evaluate.per_question(ours[column], run, qrels).values()))
            assert math.isclose(theirs, mine, abs_tol=1e-9), (name, measure)


def test_another_module_adds_a_row_and_its_pairs(monkeypatch):
    monkeypatch.setattr(evaluate, "EXTRA_RETRIEVERS", {})
    evaluate.register_retriever(
        "BM25 twice", lambda standard, chunks: standard["BM25"], compare_with=("BM25",)
    )
    with pytest.raises(ValueError, match="already in the table"):
        evaluate.register_retriever("MiniLM", lambda standard, chunks: standard["MiniLM"])
    retrievers, pairs = evaluate.retrievers_and_pairs(["What does pass do?"])
    assert list(retrievers)[-1] == "BM25 twice" and pairs[-1] == ("BM25 twice", "BM25")
    assert retrievers["BM25 twice"]("What does pass do?") == retrievers["BM25"](
        "What does pass do?")


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
        (one(style=None), "question 1 'q1' has no style"),
        (one(style="unanswerable"), "'q1' has the style 'unanswerable' but lists relevant"),
        (one(relevant=[]), "'q1' has an empty 'relevant' list: give it the style"),
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


def rows_of(output: str) -> tuple[list[str], list[str]]:
    lines = output.strip().split("\n\n")[1].splitlines()  # the score table
    return [line.split("  ")[0].strip() for line in lines[2:]], lines


@pytest.mark.slow
@pytest.mark.parametrize("path", [shipped_or_small(), TINY], ids=["shipped", "tiny"])
def test_the_command_prints_one_row_per_retriever(path, capsys):
    argv = [] if path == evaluate.shipped_questions_path() else ["--questions", str(path)]
    assert evaluate.main([*argv, "--k", "3", "--resamples", "200", "--no-rerank"]) == 0
    output = capsys.readouterr().out
    names, lines = rows_of(output)
    assert names == ["keyword", "BagOfWords", "BM25", "MiniLM", "MiniLM + MMR", "hybrid (RRF)"]
    assert lines[1].split() == ["retriever", "hit", "rate@3", "recall@3", "MRR", "nDCG@3",
                                "nDCG@10"]
    judged = sum(bool(q["relevant"]) for q in evaluate.load_questions(path))
    assert lines[0].startswith(f"{judged} questions with judgments")
    paired = output.strip().split("\n\n")[2].splitlines()
    assert paired[1].split()[:6] == ["a", "b", "a", "−", "b", "95%"]
    assert len(paired) == 2 + len(evaluate.STANDARD_PAIRS)


@pytest.mark.slow
@pytest.mark.parametrize("path", [shipped_or_small(), TINY], ids=["shipped", "tiny"])
def test_the_command_adds_the_second_stage_by_default(path, capsys):
    """Issue 33: the table answers "does a second stage pay here?" on any question file."""
    argv = [] if path == evaluate.shipped_questions_path() else ["--questions", str(path)]
    assert evaluate.main([*argv, "--resamples", "200"]) == 0
    output = capsys.readouterr().out
    names, _ = rows_of(output)
    reranked = [f"{name}@{depth}" for name in ("best sentence", "learned") for depth in (20, 50, 100)]
    assert names[:6] == ["keyword", "BagOfWords", "BM25", "MiniLM", "MiniLM + MMR", "hybrid (RRF)"]
    assert set(reranked) <= set(names) and "hybrid (RRF), 100 deep" in names
    standard, added = output.strip().split("\n\n")[2:4]
    assert "Holm-adjusted over 6 pairs" in standard  # adding rows changes no first-table verdict
    assert all(f"{row}  " in added for row in reranked)


def test_the_command_takes_a_split(capsys):
    assert evaluate.main(["--questions", str(SMALL), "--split", "dev", "--resamples", "100",
                          "--no-rerank"]) == 0
    dev = sum(bool(q["relevant"]) for q in evaluate.split_questions(
        evaluate.load_questions(SMALL), "dev"))
    assert rows_of(capsys.readouterr().out)[1][0].startswith(f"{dev} questions with judgments")


@pytest.mark.slow
def test_the_command_runs_as_a_module_and_reports_a_bad_file(tmp_path):
    bad = write(tmp_path, one(relevant=[{"doc": "iff", "start": 0, "end": 5, "grade": 1}]))
    done = subprocess.run(
        [sys.executable, "-m", "retrieval_lab.evaluation.evaluate", "--questions", str(bad)],
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


@pytest.mark.slow
def test_a_module_given_with_with_adds_its_rows_to_the_command(tmp_path):
    plugin = tmp_path / "extra_rows_for_test.py"
    plugin.write_text(
        "from retrieval_lab import evaluate\n"
        "evaluate.register_retriever('BM25 again', lambda standard, chunks: standard['BM25'],"
        " compare_with=('BM25',))\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "retrieval_lab.evaluation.evaluate", "--questions", str(TINY),
         "--resamples", "50", "--with", "extra_rows_for_test", "--no-rerank"],
        capture_output=True, text=True, check=False,
        env={**__import__("os").environ, "PYTHONPATH": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    assert "BM25 again" in done.stdout.split("\n\n")[1]  # a row of the score table
    added = done.stdout.split("\n\n")[3]  # the added rows' pairs: a family of their own
    assert "Holm-adjusted over" in added and "BM25 again" not in done.stdout.split("\n\n")[2]
    assert any(line.split()[:4] == ["BM25", "again", "BM25", "+0.0000"]
               for line in added.splitlines())  # and a pair
