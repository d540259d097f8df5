"""docs/instructor-guide.md is generated from the notebooks: it must be current, and its parts right."""

from __future__ import annotations

import functools
from pathlib import Path

import nbformat

from tools import instructor_guide as guide
from tools.nbtools import course_notebooks

ROOT = Path(__file__).resolve().parents[1]

NOTEBOOKS = course_notebooks()


@functools.cache
def rendered() -> str:
    """The guide as the notebooks make it now, rendered once for the module (1-2 s each time)."""
    return guide.render()


def test_the_guide_is_not_stale():
    current = guide.GUIDE.read_text(encoding="utf-8") if guide.GUIDE.exists() else ""
    assert current == rendered(), "docs/instructor-guide.md is stale: run `python -m tools.instructor_guide`"


def test_instructor_notes_name_real_notebooks_and_answer_their_questions():
    assert guide.note_problems() == []


def test_every_notebook_has_its_minutes_and_a_section_in_the_guide():
    text = rendered()
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        minutes = nb.metadata["retrieval_lab"]
        info = guide.read_notebook(path)
        assert (info.teach, info.exercises_minutes) == (minutes["teach_minutes"], minutes["exercise_minutes"])
        assert f"### {info.number} · {info.title}" in text
        assert f"teach {info.teach} min · exercises {info.exercises_minutes} min" in text


def test_surprises_come_from_each_notebooks_surprises_section():
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        has_section = any(
            c.cell_type == "markdown" and guide._SURPRISE_SECTION.match(line)
            for c in nb.cells for line in c.source.splitlines()
        )
        assert bool(guide.read_notebook(path).surprises) == has_section, path.name


def _nb(minutes: int, number: str = "00"):
    return guide.Notebook(Path(f"{number}_x.ipynb"), number, "x", "", [], "", minutes - 10, 10, [], [], [], [])


def _end(row) -> int:
    return int(row[0][-5:-3]) * 60 + int(row[0][-2:])


def test_schedule_starts_with_set_up_breaks_up_long_stretches_and_stops_at_the_end_of_the_day():
    rows, rest = guide.schedule([_nb(60)] * 6, guide.HALF_DAY_END, lunch=False, setup=guide.SETUP)
    whats = [what for _, what, _ in rows]
    assert whats[0] == "**Set-up**" and rows[0][0] == "09:00–09:30"
    assert whats[1:] == ["00 · x", "00 · exercises", "*Break*", "00 · x", "00 · exercises"]
    assert _end(rows[-1]) <= guide.HALF_DAY_END and len(rest) == 4


def test_full_day_has_lunch_and_no_trailing_break():
    rows, rest = guide.schedule([_nb(45)] * 12, guide.FULL_DAY_END, lunch=True, setup=guide.SETUP)
    whats = [what for _, what, _ in rows]
    assert whats.count("**Lunch**") == 1
    assert whats[-1] != "*Break*"
    lunch = rows[whats.index("**Lunch**")][0]
    assert 11 * 60 + 15 <= int(lunch[:2]) * 60 + int(lunch[3:5]) <= 13 * 60
    assert _end(rows[-1]) <= guide.FULL_DAY_END
    assert rest, "twelve 45-minute notebooks do not fit in a day"


def test_a_notebook_is_placed_whole_or_not_at_all():
    rows, rest = guide.schedule([_nb(60, "00"), _nb(200, "01")], guide.HALF_DAY_END, lunch=False)
    assert [what for _, what, _ in rows] == ["00 · x", "00 · exercises"] and [nb.number for nb in rest] == ["01"]


def test_hints_are_read_from_the_check_cells():
    assert guide._hint('check_function("E1", f, oracle=g, cases=[1], hint="use yield")') == "use yield"
    assert guide._hint("print('no hint here')") is None


NOTEBOOK_INFO = [guide.read_notebook(p) for p in NOTEBOOKS]


def test_workshop_paths_keep_every_prerequisite():
    """A path that skips a notebook another one builds on would leave the room lost."""
    assert guide.path_problems(NOTEBOOK_INFO) == []
    assert set(guide.workshop_paths()) == {"half_day", "one_day", "two_days"} == set(guide.PATHS)


def test_a_path_without_a_prerequisite_fails(monkeypatch):
    with_prerequisite = next(nb for nb in NOTEBOOK_INFO if guide.prerequisites_of(nb))
    monkeypatch.setattr(guide, "workshop_paths", lambda: {"broken": [with_prerequisite.path.stem]})
    problems = guide.path_problems(NOTEBOOK_INFO)
    assert problems and "which the path leaves out" in problems[0]


def test_each_path_fits_its_days_with_set_up_and_breaks():
    """From the notebooks' stated minutes: every notebook of a path is placed, each day starts with
    set-up (or a relaunch), ends by its end, has lunch when it is a full day, and no stretch of
    work passes BLOCK minutes unless a single part is that long."""
    assert guide.fit_problems(NOTEBOOK_INFO) == []
    for name, stems in guide.workshop_paths().items():
        _, days, end = guide.PATHS[name]
        plan, rest = guide.plan(name, NOTEBOOK_INFO)
        assert not rest and 1 <= len(plan) <= days, name
        placed = [what.split(" · ")[0] for rows in plan for _, what, _ in rows if " · x" not in what]
        assert {nb.number for nb in NOTEBOOK_INFO if nb.path.stem in stems} <= set(placed), name
        for day, rows in enumerate(plan):
            assert rows[0][1] == ("**Set-up**" if day == 0 else "**Relaunch and recap**"), name
            assert _end(rows[-1]) <= end and rows[-1][1] not in {"*Break*", "**Lunch**"}, name
            whats = [what for _, what, _ in rows]
            assert ("**Lunch**" in whats) == (end == guide.FULL_DAY_END and _end(rows[-1]) > 13 * 60), name
            stretch = 0
            for row in rows[1:]:
                minutes = _end(row) - (int(row[0][:2]) * 60 + int(row[0][3:5]))
                stretch = 0 if row[1] in {"*Break*", "**Lunch**"} else stretch + minutes
                assert stretch <= max(guide.BLOCK, minutes), f"{name}: {stretch} min without a break at {row}"


def test_a_path_too_long_for_its_days_fails(monkeypatch):
    monkeypatch.setattr(guide, "workshop_paths", lambda: {"half_day": [nb.path.stem for nb in NOTEBOOK_INFO]})
    assert guide.fit_problems(NOTEBOOK_INFO) and "does not fit" in guide.fit_problems(NOTEBOOK_INFO)[0]


# --------------------------------------------------------------------------- no cut sentence

def test_objectives_and_prerequisites_are_whole_sentences():
    """A wrapped bullet is kept whole: the guide's objective is the header's bullet, every line."""
    text = rendered()
    for path, info in zip(NOTEBOOKS, NOTEBOOK_INFO, strict=True):
        header = nbformat.read(path, as_version=4).cells[0].source
        block = header.split("**Objectives", 1)[1].split("\n\n", 1)[0]
        bullets = [" ".join(b.split()) for b in block.split("\n- ")[1:]]
        assert info.objectives == bullets, path.name
        for item in [*info.objectives, info.prerequisites]:
            assert not item.rstrip().endswith((",", ";", ":", " and", " or", " a", " the", "(")), (path.name, item)
            assert item.count("(") == item.count(")") and item.count("`") % 2 == 0, (path.name, item)
            assert item in text, (path.name, item)


def test_wrapped_bullets_are_joined():
    header = ("# 00 · T\n\n**Objectives**: by the end you can\n- one that wraps,\n  onto a second line\n"
              "- two\n\n**Time**")
    assert guide.header_bullets(header) == ["one that wraps, onto a second line", "two"]


# --------------------------------------------------------------------------- references

def test_every_reference_in_the_notes_is_in_the_notebooks():
    """Surprises, exercises, steps, knobs, sections and environment facts the notes cite."""
    assert guide.reference_problems(NOTEBOOK_INFO) == []


def test_the_reference_check_catches_what_moved():
    nb04 = next(nb for nb in NOTEBOOK_INFO if nb.path.stem == "04_embeddings")
    real = nb04.surprises[0].title
    notes = {"04_embeddings": {"questions": [
        {"q": "Why?", "a": f"Because (surprise {len(nb04.surprises) + 2})."},
        {"q": "A question about nothing in particular?", "a": "See surprise 1 for zebras."},
        {"q": "Where?", "a": 'In the section "A heading no notebook has at all".'},
        {"q": "Exercise?", "a": f"Exercise {len(nb04.exercises) + 1} does it."},
        {"q": "Tests?", "a": "Binder does not install `langchain-tests`, so run pip."},
        {"q": "Step?", "a": "Step 99 shows it."},
        {"q": real, "a": f"Surprise 1 shows it: {real}."},
    ]}}
    problems = guide.reference_problems(NOTEBOOK_INFO, notes)
    assert len(problems) == 6, problems
    for words in ("which has", "not what the answer is about", "A heading no notebook has", "exercises",
                  "lacks langchain-tests", "step 99"):
        assert any(words in p for p in problems), (words, problems)


def test_readme_claims_the_paths_the_guide_has():
    """README.md names each path of the guide with its notebooks, and no other."""
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Teaching with it", 1)[1].split("\n## ", 1)[0]
    claims = {m.group(1): re.findall(r"\d\d", m.group(2))
              for m in re.finditer(r"\b(half-day|one-day|two-day)\b[^(]*\(([^)]*)\)", section)}
    paths = {"half_day": "half-day", "one_day": "one-day", "two_days": "two-day"}
    expected = {paths[name]: [nb.number for nb in NOTEBOOK_INFO if nb.path.stem in stems]
                for name, stems in guide.workshop_paths().items()}
    assert claims == expected
    assert not re.search(r"full-day|three-day", section)


def test_the_guide_warns_that_rise_saves_without_asking():
    text = rendered()
    assert "saves the notebook first, without asking" in text and "Alt+R" in text
