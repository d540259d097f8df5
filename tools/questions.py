"""Review and edit the labelled questions on the Python Language Reference (a maintainer's tool).

    python -m tools.questions show [q001 q002 ...]   # each question with the text of its spans
    python -m tools.questions find TOPIC "first words" ["last words"]   # offsets of a passage
    python -m tools.questions copies [--write]       # spans repeated word for word in other topics
    python -m tools.questions stats                  # counts, paraphrase share, topics used
    python -m tools.questions --file my.json check   # another question file: the format checks

The file is ``src/retrieval_lab/data/python_reference_questions.json`` (docs/questions.md). Never
type an offset: ``find`` searches the quoted words (any run of spaces and line breaks in them
matches any other) and prints the ``{"doc", "start", "end"}`` to paste, with the passage to read.
``show`` is the review: read each span against its question. The paraphrase rule comes from
``tests/test_questions.py``, where it is defined, so the tool and the test measure alike; ``check``
runs that file's format tests (not its counts, which are the course file's) on any question file.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT / "src" / "retrieval_lab" / "data" / "python_reference_questions.json"
RULE_FILE = ROOT / "tests" / "test_questions.py"
#: The tests of RULE_FILE that any question file must pass (the others count the course's file).
FORMAT_CHECKS = (
    "test_the_file_says_what_it_labels",
    "test_each_question_has_the_documented_fields",
    "test_each_span_lies_inside_an_existing_topic",
    "test_spans_are_tight_and_cut_no_word",
    "test_no_span_is_listed_twice_or_overlaps_another_of_its_question",
    "test_text_repeated_in_another_topic_is_labelled_there_too",
    "test_an_empty_list_means_unanswerable_and_every_other_question_has_an_answer",
    "test_every_question_written_as_a_paraphrase_measures_as_one",
)


def rule() -> ModuleType:
    """The test module, for its paraphrase rule (``shared_words``, ``is_paraphrase``)."""
    spec = importlib.util.spec_from_file_location("_questions_rule", RULE_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def topics() -> dict[str, str]:
    """Topic id -> the text every span indexes into."""
    from retrieval_lab.data import corpus

    return {doc.id: doc.page_content for doc in corpus.python_reference()}


def load(path: Path = QUESTIONS) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))


def dump(data: dict) -> str:
    """The file's layout: indented JSON with each span on one line, so a diff shows one span."""
    text = json.dumps(data, indent=1, ensure_ascii=False)
    one_line = r'\{\n\s+"doc": ("[^"]+"),\n\s+"start": (\d+),\n\s+"end": (\d+),\n\s+"grade": (\d)\n\s+\}'
    return re.sub(one_line, r'{"doc": \1, "start": \2, "end": \3, "grade": \4}', text) + "\n"


def locate(text: str, first: str, last: str | None = None) -> tuple[int, int]:
    """[start, end) from the start of ``first`` to the end of ``last`` (the first one after it)."""

    def pattern(words: str) -> re.Pattern[str]:
        return re.compile(r"\s+".join(re.escape(w) for w in words.split()))

    hits = list(pattern(first).finditer(text))
    if len(hits) != 1:
        raise SystemExit(f"{first!r} occurs {len(hits)} times in the topic; quote more words")
    start = hits[0].start()
    if last is None:
        return start, hits[0].end()
    tail = pattern(last).search(text, start)
    if tail is None:
        raise SystemExit(f"{last!r} does not occur after {first!r}")
    return start, tail.end()


def missing_copies(question: dict, texts: dict[str, str]) -> list[dict]:
    """Spans whose exact text occurs in a topic where the question does not label it."""
    labelled = {(s["doc"], s["start"], s["end"]) for s in question["relevant"]}
    missing = []
    for span in question["relevant"]:
        piece = texts[span["doc"]][span["start"] : span["end"]]
        for doc, text in texts.items():
            found = text.find(piece)
            while found != -1:
                key = (doc, found, found + len(piece))
                if key not in labelled:
                    labelled.add(key)
                    missing.append({"doc": doc, "start": found, "end": key[2], "grade": span["grade"]})
                found = text.find(piece, found + 1)
    return missing


def check(path: Path) -> int:
    """Run the format tests on the file at ``path``; the number that failed."""
    import inspect

    data, texts, tests = load(path), topics(), rule()
    given = {"data": data, "questions": data.get("questions", []), "texts": texts}
    failed = 0
    for name in FORMAT_CHECKS:
        test = getattr(tests, name)
        try:
            test(*(given[p] for p in inspect.signature(test).parameters))
        except (AssertionError, KeyError, TypeError) as problem:
            failed += 1
            print(f"✗ {name}: {problem!r}"[:400])
        else:
            print(f"✓ {name}")
    return failed


def show(ids: list[str], path: Path = QUESTIONS) -> None:
    texts, measure = topics(), rule()
    for question in load(path)["questions"]:
        if ids and question["id"] not in ids:
            continue
        verdict = "paraphrase" if measure.is_paraphrase(question, texts) else "not a paraphrase"
        print("=" * 88)
        print(f"{question['id']} ({question['style']}; measured: {verdict}) {question['question']}")
        seen: set[str] = set()
        for span in question["relevant"]:
            piece = texts[span["doc"]][span["start"] : span["end"]]
            where = f"{span['doc']} [{span['start']}, {span['end']}) grade {span['grade']}"
            if piece in seen:
                print(f"--- {where}: the same text again")
                continue
            seen.add(piece)
            shared = measure.shared_words(question["question"], piece)
            print(f"--- {where}, {len(piece)} characters, words shared with the question: {shared}")
            print(piece)


def stats(path: Path = QUESTIONS) -> None:
    texts, measure = topics(), rule()
    questions = load(path)["questions"]
    styles = Counter(q["style"] for q in questions)
    measured = sum(measure.is_paraphrase(q, texts) for q in questions)
    used = {s["doc"] for q in questions for s in q["relevant"]}
    print(f"{len(questions)} questions: " + ", ".join(f"{n} {s}" for s, n in sorted(styles.items())))
    print(f"measured paraphrases: {measured} ({measured / len(questions):.1%} of all questions)")
    print(f"{sum(len(q['relevant']) for q in questions)} spans over {len(used)} of {len(texts)} topics")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=QUESTIONS, help="a question file (default: the course's)")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("show").add_argument("ids", nargs="*")
    find = commands.add_parser("find")
    find.add_argument("topic")
    find.add_argument("first")
    find.add_argument("last", nargs="?")
    commands.add_parser("copies").add_argument("--write", action="store_true")
    commands.add_parser("stats")
    commands.add_parser("check")
    args = parser.parse_args(argv)

    if args.command == "show":
        show(args.ids, args.file)
    elif args.command == "stats":
        stats(args.file)
    elif args.command == "check":
        return 1 if check(args.file) else 0
    elif args.command == "find":
        text = topics()[args.topic]
        start, end = locate(text, args.first, args.last)
        print(text[start:end])
        print(json.dumps({"doc": args.topic, "start": start, "end": end, "grade": 2}))
    elif args.command == "copies":
        data, texts = load(args.file), topics()
        added = 0
        for question in data["questions"]:
            for span in missing_copies(question, texts):
                print(question["id"], "needs", span)
                question["relevant"].append(span)
                added += 1
        if args.write and added:
            Path(args.file).write_text(dump(data), encoding="utf-8")
            print(f"added {added} spans to {args.file}")
        return 1 if added and not args.write else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
