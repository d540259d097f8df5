"""The labelled questions on the Python Language Reference: their format, their spans and their mix.

The file is ``retrieval_lab/data/python_reference_questions.json`` (docs/questions.md says how it was
written). Relevant passages are character spans of a topic, so these tests read the topics' text and
check every span against it. The paraphrase rule is defined here, once: the maintainer tool
(``python -m tools.questions``) imports it from this file.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from importlib.resources import files

import pytest

from retrieval_lab.data import corpus

QUESTIONS_FILE = "python_reference_questions.json"
STYLES = {"paraphrase", "keyword", "mixed", "unanswerable"}
MIN_QUESTIONS, MIN_UNANSWERABLE, MIN_PARAPHRASE_SHARE = 80, 8, 0.5
#: The longest span: a sentence or a paragraph that answers, shorter than one 800-character chunk.
MAX_SPAN = 600

# --- The paraphrase rule --------------------------------------------------------------------------
#: A short list of English function words, plus the words questions are made of (how, does, can...).
STOP_WORDS = frozenset(
    """
    a about above after again against all also am an and any are as at be because been before being
    below between both but by can could did do does doing done down during each either else ever
    every few for from further get gets got had has have having he her here hers herself him himself
    his how i if in into is it its itself just let like may me might more most must my myself no nor
    not now of off on once only or other our ours ourselves out over own same shall she should so
    some such than that the their theirs them themselves then there these they this those through to
    too under until up upon us very was we were what whatever when whenever where whether which while
    who whom whose why will with would yet you your yours yourself yourselves
    """.split()
)
WORD = re.compile(r"[a-z0-9]+")


def content_words(text: str) -> set[str]:
    """Lower-cased ``[a-z0-9]+`` words longer than two characters that are not stop words."""
    return {word for word in WORD.findall(text.lower()) if len(word) > 2 and word not in STOP_WORDS}


def same_word(a: str, b: str) -> bool:
    """Equal, or one starts with the other and the shorter has 4+ letters (loop/loops, name/named)."""
    short, long = sorted((a, b), key=len)
    return short == long or (len(short) >= 4 and long.startswith(short))


def shared_words(question: str, passage: str) -> list[str]:
    """The question's content words that the passage also has (by ``same_word``), sorted."""
    passage_words = content_words(passage)
    return sorted(w for w in content_words(question) if any(same_word(w, p) for p in passage_words))


def is_paraphrase(question: dict, texts: dict[str, str]) -> bool:
    """True when the question has grade-2 spans and shares no content word with any of them."""
    best = [texts[r["doc"]][r["start"] : r["end"]] for r in question["relevant"] if r["grade"] == 2]
    return bool(best) and not any(shared_words(question["question"], text) for text in best)


# --- Fixtures -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def data() -> dict:
    return json.loads((files("retrieval_lab") / "data" / QUESTIONS_FILE).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def questions(data) -> list[dict]:
    return data["questions"]


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    return {doc.id: doc.page_content for doc in corpus.python_reference()}


def spans(questions):
    for question in questions:
        for span in question["relevant"]:
            yield question, span


# --- The rule itself ------------------------------------------------------------------------------


def test_the_paraphrase_rule_on_small_cases():
    assert content_words("How do I use the walrus := operator?") == {"use", "walrus", "operator"}
    assert shared_words("Why do my loops stop?", "A loop terminates.") == ["loops"]
    assert shared_words("Is it named?", "the name of") == ["named"]
    assert shared_words("What is an int?", "the integer type") == []  # 3 letters match only exactly
    assert shared_words("When is it set?", "settings") == []


# --- Format ---------------------------------------------------------------------------------------


def test_the_file_says_what_it_labels(data):
    assert set(data) == {"about", "questions"}
    about = data["about"]
    assert set(about) >= {"corpus", "python", "written", "how"}
    assert about["corpus"] == "python-reference"
    assert about["python"] == corpus.python_reference_about()["python"]
    assert all(isinstance(value, str) and value.strip() for value in about.values())


def test_each_question_has_the_documented_fields(questions):
    ids = [q["id"] for q in questions]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"q\d{3}", i) for i in ids)
    texts = [q["question"].strip().lower() for q in questions]
    assert all(texts) and len(set(texts)) == len(texts)
    for q in questions:
        assert set(q) == {"id", "question", "style", "relevant"}, q["id"]
        assert q["style"] in STYLES, q["id"]
        assert isinstance(q["relevant"], list), q["id"]


def test_each_span_lies_inside_an_existing_topic(questions, texts):
    for q, span in spans(questions):
        assert set(span) == {"doc", "start", "end", "grade"}, q["id"]
        assert span["doc"] in texts, (q["id"], span["doc"])
        assert span["grade"] in (1, 2), q["id"]
        assert all(type(span[key]) is int for key in ("start", "end")), q["id"]
        assert 0 <= span["start"] < span["end"] <= len(texts[span["doc"]]), (q["id"], span)


def test_spans_are_tight_and_cut_no_word(questions, texts):
    for q, span in spans(questions):
        text, start, end = texts[span["doc"]], span["start"], span["end"]
        assert end - start <= MAX_SPAN, (q["id"], span)
        assert not text[start].isspace() and not text[end - 1].isspace(), (q["id"], span)
        assert not (start > 0 and text[start - 1].isalnum() and text[start].isalnum()), (q["id"], span)
        assert not (end < len(text) and text[end - 1].isalnum() and text[end].isalnum()), (q["id"], span)


def test_no_span_is_listed_twice_or_overlaps_another_of_its_question(questions):
    for q in questions:
        by_doc: dict[str, list[tuple[int, int]]] = {}
        for span in q["relevant"]:
            by_doc.setdefault(span["doc"], []).append((span["start"], span["end"]))
        for doc, ranges in by_doc.items():
            ranges.sort()
            assert len(set(ranges)) == len(ranges), (q["id"], doc)
            assert all(a[1] <= b[0] for a, b in itertools.pairwise(ranges)), (q["id"], doc)


def test_text_repeated_in_another_topic_is_labelled_there_too(questions, texts):
    """help() repeats some topics inside others (compound holds if, for, try...), so a passage can
    have the same text under two topics; both copies carry the same grade, and no ranking is
    judged by which copy a tie put first."""
    for q in questions:
        labelled = {(s["doc"], s["start"], s["end"]): s["grade"] for s in q["relevant"]}
        for (doc, start, end), grade in labelled.items():
            piece = texts[doc][start:end]
            for other, text in texts.items():
                found = text.find(piece)
                while found != -1:
                    where = (other, found, found + len(piece))
                    assert labelled.get(where) == grade, (
                        f"{q['id']}: the text of {doc} [{start}, {end}) is also {other} "
                        f"[{found}, {where[2]}), not labelled with grade {grade} there "
                        "(python -m tools.questions copies --write adds it)"
                    )
                    found = text.find(piece, found + 1)


# --- The mix --------------------------------------------------------------------------------------


def test_enough_questions_and_enough_without_an_answer(questions):
    styles = Counter(q["style"] for q in questions)
    assert len(questions) >= MIN_QUESTIONS
    assert styles["unanswerable"] >= MIN_UNANSWERABLE
    assert styles["keyword"] >= 1 and styles["mixed"] >= 1


def test_an_empty_list_means_unanswerable_and_every_other_question_has_an_answer(questions):
    for q in questions:
        assert (q["style"] == "unanswerable") == (not q["relevant"]), q["id"]
        if q["relevant"]:
            assert any(span["grade"] == 2 for span in q["relevant"]), q["id"]


def test_at_least_half_are_paraphrases_by_measurement(questions, texts):
    measured = [q["id"] for q in questions if is_paraphrase(q, texts)]
    assert len(measured) / len(questions) >= MIN_PARAPHRASE_SHARE, len(measured)


def test_every_question_written_as_a_paraphrase_measures_as_one(questions, texts):
    failing = {
        q["id"]: [
            w
            for r in q["relevant"]
            if r["grade"] == 2
            for w in shared_words(q["question"], texts[r["doc"]][r["start"] : r["end"]])
        ]
        for q in questions
        if q["style"] == "paraphrase" and not is_paraphrase(q, texts)
    }
    assert not failing
