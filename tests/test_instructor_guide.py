"""docs/instructor-guide.md is generated from the notebooks: it must be current, and its parts right."""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import nbformat
import pytest

from tools import instructor_guide as guide
from tools.nbtools import course_notebooks, part_of

ROOT = Path(__file__).resolve().parents[1]

NOTEBOOKS = course_notebooks()


@functools.cache
def rendered() -> str:
    """The guide as the notebooks make it now, rendered once for the module (1-2 s each time)."""
    return guide.render()


def test_the_guide_is_not_stale():
    current = guide.GUIDE.read_text(encoding="utf-8") if guide.GUIDE.exists() else ""
    assert current == rendered(), "docs/instructor-guide.md is stale: run `python -m tools.instructor_guide`"


def test_the_learners_set_up_page_is_not_stale():
    page = guide.SETUP_PAGE
    assert page.exists() and page.read_text(encoding="utf-8") == guide.render_setup(), (
        "docs/setup.md is stale: run `python -m tools.instructor_guide`")
    text = page.read_text(encoding="utf-8")
    for needed in ("## Binder", "## Colab", "## Your own machine", "10 minutes without activity",
                   "*File → Download*", "needs Python 3.11 or 3.12", guide.CONDA_ROUTE.split(" && ")[0]):
        assert needed in text, needed


def test_instructor_notes_name_real_notebooks_and_answer_their_questions():
    assert guide.note_problems() == []


@pytest.mark.slow
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
    """A notebook whose spine takes ``minutes``: ten of them its exercise."""
    return guide.Notebook(Path(f"{number}_x.ipynb"), number, "x", "", [], "", 60, 30, [], [], [], [],
                          spine_teach=minutes - 10, spine_exercise=10)


def _path(day_minutes: int, days: int = 1) -> guide.WorkshopPath:
    return guide.WorkshopPath("p", "P", days, day_minutes, [], [])


def test_schedule_starts_with_set_up_breaks_up_long_stretches_and_stops_at_the_end_of_the_day():
    first = ("**Set-up**", "", guide.SETUP, "setup")
    rows, rest = guide.schedule([_nb(60)] * 6, guide.DAY_START, guide.HALF_DAY, first, lunch=False)
    whats = [r.what for r in rows]
    assert whats[0] == "**Set-up**" and rows[0].time == "09:00–09:30"
    assert whats[1:] == ["00 · x", "00 · exercise", "*Break*", "00 · x", "00 · exercise"]
    assert rows[-1].end <= guide.DAY_START + guide.HALF_DAY and len(rest) == 4


def test_full_day_has_lunch_then_a_binder_relaunch_and_no_trailing_break():
    first = ("**Set-up**", "", guide.SETUP, "setup")
    rows, rest = guide.schedule([_nb(45)] * 12, guide.DAY_START, guide.FULL_DAY, first, lunch=True)
    kinds = [r.kind for r in rows]
    assert kinds.count("lunch") == 1 and kinds[kinds.index("lunch") + 1] == "relaunch"
    assert rows[kinds.index("relaunch")].minutes == guide.RELAUNCH_AFTER_LUNCH
    assert kinds[-1] not in {"break", "lunch", "relaunch"}
    assert 11 * 60 + 15 <= rows[kinds.index("lunch")].start <= 13 * 60
    assert rows[-1].end <= guide.DAY_START + guide.FULL_DAY
    assert rest, "twelve 45-minute spines do not fit in a day"


def test_a_later_start_moves_every_row_and_lunch_with_it():
    first = ("**Set-up**", "", guide.SETUP, "setup")
    early, _ = guide.schedule([_nb(40)] * 6, guide.DAY_START, guide.FULL_DAY, first, lunch=True)
    late, _ = guide.schedule([_nb(40)] * 6, guide.DAY_START + 45, guide.FULL_DAY, first, lunch=True)
    assert [(r.start + 45, r.end + 45, r.kind) for r in early] == [(r.start, r.end, r.kind) for r in late]


def test_a_notebook_is_placed_whole_or_not_at_all():
    rows, rest = guide.schedule([_nb(60, "00"), _nb(200, "01")], guide.DAY_START, guide.HALF_DAY, None,
                                lunch=False)
    assert [r.what for r in rows] == ["00 · x", "00 · exercise"] and [nb.number for nb in rest] == ["01"]


def test_hints_are_read_from_the_check_cells():
    assert guide._hint('check_function("E1", f, oracle=g, cases=[1], hint="use yield")') == "use yield"
    assert guide._hint("print('no hint here')") is None


NOTEBOOK_INFO = [guide.read_notebook(p) for p in NOTEBOOKS]
PATHS = guide.workshop_paths()


def test_workshop_paths_keep_every_prerequisite():
    """A path that skips a notebook another one builds on, without importing it finished, would
    leave the room lost; a notebook on a path must have a spine."""
    assert guide.path_problems(NOTEBOOK_INFO) == []
    assert set(PATHS) == {"half_day", "one_day", "two_days"}


def test_a_path_without_a_prerequisite_fails(monkeypatch):
    with_prerequisite = next(nb for nb in NOTEBOOK_INFO if guide.prerequisites_of(nb))
    broken = guide.WorkshopPath("broken", "B", 1, guide.FULL_DAY, [with_prerequisite.path.stem], [])
    monkeypatch.setattr(guide, "workshop_paths", lambda: {"broken": broken})
    problems = guide.path_problems(NOTEBOOK_INFO)
    assert problems and any("neither teaches nor lists as finished" in p for p in problems)


def _stems_of(numbers: str) -> set[str]:
    return {nb.path.stem for nb in NOTEBOOK_INFO if nb.number in numbers.split()}


def test_the_paths_reach_their_goals():
    """Half a day builds a retriever; one day builds a vector store retriever and measures it
    (through 09-10, ending on 14); two days add MiniLM, the matrix store or approximate search, and
    a real engine."""
    half, one, two = PATHS["half_day"], PATHS["one_day"], PATHS["two_days"]
    assert _stems_of("09 10") & set(half.notebooks)
    assert _stems_of("09 10") <= set(one.notebooks) and one.notebooks[-1] == "14_measuring_retrieval"
    assert _stems_of("05") <= set(two.notebooks) and _stems_of("11 12") & set(two.notebooks)
    assert _stems_of("13 16 17") & set(two.notebooks)


def test_each_path_fits_its_days_with_set_up_breaks_lunch_and_a_relaunch():
    """From the spines' minutes: every notebook of a path is placed, each day starts with set-up
    (or a relaunch), ends by its end, has lunch and a Binder relaunch after it when it is a full
    day, and no stretch of work passes BLOCK minutes unless a single part is that long."""
    assert guide.fit_problems(NOTEBOOK_INFO) == []
    for name, path in PATHS.items():
        plan, rest = guide.plan(path, NOTEBOOK_INFO)
        assert not rest and 1 <= len(plan) <= path.days, name
        taught = [r.notebook for rows in plan for r in rows if r.kind == "teach"]
        assert taught == [nb.number for nb in NOTEBOOK_INFO if nb.path.stem in path.notebooks], name
        minutes = {nb.number: nb.spine_teach for nb in NOTEBOOK_INFO}
        assert all(r.minutes == minutes[r.notebook] for rows in plan for r in rows if r.kind == "teach")
        for day, rows in enumerate(plan):
            assert rows[0].kind == ("setup" if day == 0 else "relaunch"), name
            end = guide.DAY_START + path.day_minutes
            assert rows[-1].end <= end and rows[-1].kind in {"teach", "exercise"}, name
            assert guide.unplanned(rows, guide.DAY_START, path) == end - rows[-1].end >= 0
            kinds = [r.kind for r in rows]
            if path.day_minutes == guide.FULL_DAY and rows[-1].end > 13 * 60:
                assert kinds.count("lunch") == 1 and kinds[kinds.index("lunch") + 1] == "relaunch", name
            stretch = 0
            for row in rows[1:]:
                stretch = 0 if row.kind in {"break", "lunch", "relaunch"} else stretch + row.minutes
                assert stretch <= max(guide.BLOCK, row.minutes), f"{name}: {stretch} min without a break at {row}"


def test_a_path_too_long_for_its_days_fails(monkeypatch):
    everything = guide.WorkshopPath("half_day", "H", 1, guide.HALF_DAY,
                                    [nb.path.stem for nb in NOTEBOOK_INFO], [])
    monkeypatch.setattr(guide, "workshop_paths", lambda: {"half_day": everything})
    assert guide.fit_problems(NOTEBOOK_INFO) and "does not fit" in guide.fit_problems(NOTEBOOK_INFO)[0]


def test_the_guide_names_each_days_unplanned_time_and_a_cut_list():
    text = rendered()
    days = sum(len(guide.plan(p, NOTEBOOK_INFO)[0]) for p in PATHS.values())
    assert text.count("Unplanned: **") == days and text.count("cut in this order") == days


def test_the_event_sheet_is_one_html_page_with_minutes_and_cuts_for_any_start():
    sheet = guide.event_sheet("one_day", "10:15", NOTEBOOK_INFO)
    plan, _ = guide.plan(PATHS["one_day"], NOTEBOOK_INFO, guide.parse_clock("10:15"))
    assert sheet.startswith("<!DOCTYPE html>") and "@page" in sheet
    assert f'<td class="t">{plan[0][0].time}</td>' in sheet and plan[0][0].time.startswith("10:15")
    for row in plan[0]:
        assert f'<td class="m">{row.minutes}</td>' in sheet
    assert "Unplanned:" in sheet and sheet.count("<li>") == len(guide.cut_list(plan[0], PATHS["one_day"],
                                                                                NOTEBOOK_INFO))
    with pytest.raises(ValueError, match="HH:MM"):
        guide.event_sheet("one_day", "9.30", NOTEBOOK_INFO)
    with pytest.raises(ValueError, match="no path"):
        guide.event_sheet("three_days", "09:00", NOTEBOOK_INFO)


# --------------------------------------------------------------------------- run live

_RUN_LIVE = re.compile(r"^- cell (\d+) \(\*[^)]*\*\): line (\d+), `(.*?)`, raises \*\*([^*]+)\*\* on purpose", re.M)


def run_live_problems(text: str) -> list[str]:
    """Every "Run live" error line of a guide, checked against the stored outputs: the cell must
    be one the room sees (not a deep dive), its stored traceback must name that line, the line
    must hold that code, and the error must be the one stored."""
    problems = []
    sections = re.split(r"^### (\d\d) · ", text, flags=re.M)
    by_number = {p.name[:2]: p for p in NOTEBOOKS}
    for number, body in zip(sections[1::2], sections[2::2], strict=True):
        if number not in by_number:
            continue
        nb = nbformat.read(by_number[number], as_version=4)
        parts = part_of(nb)
        for cell_no, line, code, errors in _RUN_LIVE.findall(body.split("**Surprises to show**")[0]):
            k = int(cell_no) - 1
            cell = nb.cells[k]
            named = guide.traceback_line(cell)
            if parts[k] == "deep":
                problems.append(f"{number}: cell {cell_no} is in a deep dive")
            if named != int(line):
                problems.append(f"{number}: cell {cell_no}: the guide says line {line}, the traceback names {named}")
            if cell.source.splitlines()[int(line) - 1].strip() != code:
                problems.append(f"{number}: cell {cell_no} line {line} is not `{code}`")
            stored = [o["ename"] for o in cell.outputs if o.get("output_type") == "error"]
            if ", ".join(stored) != errors:
                problems.append(f"{number}: cell {cell_no} stores {stored}, the guide says {errors}")
    return problems


def test_run_live_quotes_the_line_each_stored_traceback_names():
    text = guide.GUIDE.read_text(encoding="utf-8")
    assert _RUN_LIVE.search(text), "the guide lists no error to run live"
    assert run_live_problems(text) == []


def test_the_run_live_check_catches_a_wrong_line():
    """Notebook 00's surprise, quoted by its first line (the guide once said embed_query fails;
    it returns [0.0, 0.0, 0.0, 0.0], and the search on the next line raises)."""
    text = guide.GUIDE.read_text(encoding="utf-8")
    right = re.search(r'line 2, `store\.similarity_search\("hello world"\)`', text)
    assert right, "notebook 00's surprise is not quoted by its search line"
    wrong = text.replace(right.group(0), 'line 1, `print(embedder.embed_query("hello world"))`', 1)
    problems = run_live_problems(wrong)
    assert len(problems) == 1 and "the traceback names 2" in problems[0], problems


def test_run_live_lists_only_cells_the_room_sees():
    for path, info in zip(NOTEBOOKS, NOTEBOOK_INFO, strict=True):
        nb = nbformat.read(path, as_version=4)
        parts = part_of(nb)
        for item in info.live:
            assert parts[item.cell - 1] != "deep", (path.name, item.cell)
            if info.spine:
                assert item.cell in info.spine, (path.name, item.cell)


def test_the_live_code_path_includes_the_class_each_spine_builds():
    """06's live-code path once left out the class it builds."""
    for path, info in zip(NOTEBOOKS, NOTEBOOK_INFO, strict=True):
        nb = nbformat.read(path, as_version=4)
        parts = part_of(nb)
        built = [c for i, c in enumerate(nb.cells) if "export" in c.metadata.get("tags", [])
                 and (i + 1 in info.spine if info.spine else parts[i] != "deep")]
        classes = [n.name for c in built for n in ast.parse(c.source).body if isinstance(n, ast.ClassDef)]
        for name in classes:
            assert f"class `{name}`" in info.steps, (path.name, name)


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
    expected = {paths[name]: [nb.number for nb in NOTEBOOK_INFO if nb.path.stem in path.notebooks]
                for name, path in guide.workshop_paths().items()}
    assert claims == expected
    assert not re.search(r"full-day|three-day", section)


def test_the_guide_warns_that_rise_saves_without_asking():
    text = rendered()
    assert "saves the notebook first, without asking" in text and "Alt+R" in text


def test_the_guide_says_what_presentation_mode_does_and_where_the_wheel_folder_works():
    text = rendered()
    assert "*View → Appearance → Presentation Mode* enlarges the font; it does not hide the side bars" in text
    assert "same operating system, processor type and Python version" in text
    assert "Python 3.10 or older is refused" in text


def test_readme_guide_and_environment_yml_give_one_conda_route():
    """The route is CONDA_ROUTE, word for word, in all three (environment.yml: in its comment)."""
    for name in ("README.md", "environment.yml"):
        flat = " ".join((ROOT / name).read_text(encoding="utf-8").replace("#", " ").split())
        assert guide.CONDA_ROUTE in flat, f"{name} describes the conda route otherwise than the guide"
    assert guide.CONDA_ROUTE in rendered()
