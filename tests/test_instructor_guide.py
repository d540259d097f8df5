"""docs/instructor-guide.md is generated from the notebooks: it must be current, and its parts right."""

from __future__ import annotations

from pathlib import Path

import nbformat

from tools import instructor_guide as guide
from tools.nbtools import course_notebooks

ROOT = Path(__file__).resolve().parents[1]

NOTEBOOKS = course_notebooks()


def test_the_guide_is_not_stale():
    current = guide.GUIDE.read_text(encoding="utf-8") if guide.GUIDE.exists() else ""
    assert current == guide.render(), "docs/instructor-guide.md is stale: run `python -m tools.instructor_guide`"


def test_instructor_notes_name_real_notebooks_and_answer_their_questions():
    assert guide.note_problems() == []


def test_every_notebook_has_its_minutes_and_a_section_in_the_guide():
    text = guide.render()
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


def _nb(minutes: int):
    return guide.Notebook(Path("x.ipynb"), "00", "x", "", [], "", minutes - 10, 10, [], [], [], [])


def test_schedule_puts_breaks_between_notebooks_and_stops_at_the_end_of_the_day():
    rows, rest = guide.schedule([_nb(60)] * 6, guide.HALF_DAY_END, lunch=False)
    assert [what for _, what, _ in rows] == ["00 · x", "*Break*", "00 · x", "*Break*", "00 · x"]
    assert rows[0][0] == "09:00–10:00" and rows[-1][0] == "11:30–12:30"
    assert len(rest) == 3


def test_full_day_has_lunch_and_no_trailing_break():
    rows, rest = guide.schedule([_nb(45)] * 12, guide.FULL_DAY_END, lunch=True)
    whats = [what for _, what, _ in rows]
    assert whats.count("**Lunch**") == 1
    assert whats[-1] != "*Break*"
    lunch = rows[whats.index("**Lunch**")][0]
    assert guide.LUNCH_FROM <= int(lunch[:2]) * 60 + int(lunch[3:5]) <= 13 * 60
    assert int(rows[-1][0][-5:-3]) * 60 + int(rows[-1][0][-2:]) <= guide.FULL_DAY_END
    assert rest, "twelve 45-minute notebooks do not fit in a day"


def test_hints_are_read_from_the_check_cells():
    assert guide._hint('check_function("E1", f, oracle=g, cases=[1], hint="use yield")') == "use yield"
    assert guide._hint("print('no hint here')") is None


def test_workshop_paths_keep_every_prerequisite():
    """A path that skips a notebook another one builds on would leave the room lost."""
    notebooks = [guide.read_notebook(p) for p in NOTEBOOKS]
    assert guide.path_problems(notebooks) == []
    assert set(guide.workshop_paths()) == {"one_day", "two_days"}


def test_a_path_without_a_prerequisite_fails(monkeypatch):
    notebooks = [guide.read_notebook(p) for p in NOTEBOOKS]
    with_prerequisite = next(nb for nb in notebooks if guide.prerequisites_of(nb))
    monkeypatch.setattr(guide, "workshop_paths", lambda: {"broken": [with_prerequisite.path.stem]})
    problems = guide.path_problems(notebooks)
    assert problems and "which the path leaves out" in problems[0]


def test_each_path_fits_its_days():
    """The one-day path fits one 09:00-17:00 day and the two-day path two, from the core times."""
    notebooks = [guide.read_notebook(p) for p in NOTEBOOKS]
    for name, stems in guide.workshop_paths().items():
        rest = [nb for nb in notebooks if nb.path.stem in stems]
        for _ in range(2 if "two" in name else 1):
            _, rest = guide.schedule(rest, guide.FULL_DAY_END, lunch=True)
        assert not rest, f"path {name!r} does not fit: {[nb.number for nb in rest]} left over"
