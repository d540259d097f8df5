"""retrieval_lab.evaluation.knobs: a knob measured in a few lines, with notebook 14's statistics."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from retrieval_lab.evaluation import evaluate, knobs

SCORES = st.lists(st.floats(0, 1, allow_nan=False), min_size=3, max_size=12)


@settings(max_examples=20)
@given(SCORES, st.data())
def test_compare_gives_evaluates_means_intervals_and_verdicts(a, data):
    b = data.draw(st.lists(st.floats(0, 1, allow_nan=False), min_size=len(a), max_size=len(a)))
    scores = {"a": {f"q{i}": v for i, v in enumerate(a)}, "b": {f"q{i}": v for i, v in enumerate(b)}}
    report = knobs.compare(scores, resamples=500)
    assert report.mean("a") == pytest.approx(sum(a) / len(a))
    low, high = report.interval("b")
    assert low <= report.mean("b") + 1e-12 and report.mean("b") <= high + 1e-12
    expected = evaluate.significance([("b", "a")], scores, 500, 0)[0]
    assert report.comparison("a", "b") == expected
    assert report.verdict("b", "a") == expected.verdict


def test_the_report_prints_the_guide_both_tables_and_names_a_missing_setting():
    scores = {"base": {"q1": 0.1, "q2": 0.2, "q3": 0.3}, "new": {"q1": 0.9, "q2": 0.8, "q3": 0.7}}
    report = knobs.compare(scores, guide=True, resamples=200)
    text = str(report)
    assert text.startswith(knobs.GUIDE) and "new  base" in text and "3 with judgments" in text
    assert "<table>" in report._repr_html_()
    with pytest.raises(KeyError, match="no setting named 'other'"):
        report.mean("other")
    with pytest.raises(KeyError, match="was not compared"):
        report.verdict("base", "other")


@pytest.mark.parametrize(("scores", "message"), [
    ({}, "at least one"),
    ({"a": {"q1": 1.0}, "b": {"q2": 1.0}}, "other questions"),
    ({"a": {}}, "no judged questions"),
])
def test_scores_a_paired_test_cannot_use_are_refused(scores, message):
    with pytest.raises(ValueError, match=message):
        knobs.compare(scores)


def test_measure_judges_each_setting_by_the_question_spans_and_refuses_a_non_ranker():
    chunks = evaluate.corpus()[0]
    questions = [q for q in evaluate.load_questions() if q["relevant"]][:6]
    qrels = evaluate.judgments(questions, chunks)
    perfect = {q["question"]: sorted(qrels[q["id"]], key=lambda c: -qrels[q["id"]][c]) for q in questions}
    report = knobs.measure({"nothing": lambda q: [], "oracle": perfect.__getitem__}, split="all",
                           questions=questions, resamples=200)
    assert report.mean("nothing") == 0.0 and report.mean("oracle") == pytest.approx(1.0)
    with pytest.raises(TypeError, match="a ranker is a function"):
        knobs.measure({"bad": 3}, questions=questions)
    with pytest.raises(ValueError, match="metric must be one of"):
        knobs.measure({"nothing": lambda q: []}, metric="F1", questions=questions)
