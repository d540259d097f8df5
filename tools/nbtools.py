"""The notebook harness: export the ``export`` cells, execute notebooks, guard what is stored.

Run as ``python -m tools.nbtools export|check|execute|guard [notebooks…]``; the Makefile's
targets call it. Why not nbdev's exporter: it wants a settings.ini project, its own ``#| export``
comment syntax instead of cell tags, and brings fastcore/execnb/ghapi along; the course needs
forty lines of it, which fit here and are tested.

Conventions it relies on (see CONTRIBUTING.md):

- ``notebooks/NN_name.ipynb`` exports its cells tagged ``export`` to
  ``src/retrieval_lab/scratch/name.py``; ``scratch/__init__.py`` re-exports every public class
  and function of those modules, so ``from retrieval_lab.scratch import Document`` works.
- A notebook is stored executed: code cells counted 1..n in order, errors only in cells tagged
  ``raises-exception``.
"""

from __future__ import annotations

import ast
import math
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SCRATCH = ROOT / "src" / "retrieval_lab" / "scratch"
KERNEL_NAME = "retrieval-lab"
KERNEL_DISPLAY = "Python 3 (retrieval-lab)"
_NOTEBOOK_NAME = re.compile(r"^(\d\d)_([a-z0-9_]+)\.ipynb$")


def course_notebooks(root: Path = NOTEBOOKS) -> list[Path]:
    """The course's notebooks, in teaching order (``NN_name.ipynb``)."""
    return sorted(p for p in root.glob("*.ipynb") if _NOTEBOOK_NAME.match(p.name))


def _read(path: Path):  # -> nbformat.NotebookNode
    import nbformat

    return nbformat.read(path, as_version=4)


def tags(cell) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


# --------------------------------------------------------------------------- exercises

_SOLUTION = re.compile(r"<details>.*?```python\n(.*?)```.*?</details>", re.S)


def exercises(notebook: Path, cells: list | None = None) -> list[tuple[int, int, str]]:
    """(exercise cell index, check cell index, solution source) for each exercise of a notebook
    (its ``cells`` when the caller has read it already)."""
    cells = _read(notebook).cells if cells is None else cells
    found = []
    for i, cell in enumerate(cells):
        if "exercise" not in tags(cell):
            continue
        check = next((j for j in range(i + 1, len(cells)) if "check" in tags(cells[j])), None)
        assert check is not None, f"{notebook.name}: exercise cell {i} has no check cell after it"
        solution_cell = next(
            (j for j in range(check + 1, len(cells)) if "solution" in tags(cells[j])), None
        )
        assert solution_cell is not None, f"{notebook.name}: exercise cell {i} has no solution cell"
        match = _SOLUTION.search(cells[solution_cell].source)
        assert match, f"{notebook.name}: cell {solution_cell} has no <details> ```python block"
        found.append((i, check, match.group(1)))
    return found


# --------------------------------------------------------------------------- export

def module_name(notebook: Path) -> str:
    match = _NOTEBOOK_NAME.match(notebook.name)
    if not match:
        raise ValueError(f"{notebook.name}: course notebooks are named NN_name.ipynb")
    return match.group(2)


def notebook_of(number_or_path: str) -> Path:
    """``07``, ``7`` or ``notebooks/07_x.ipynb`` -> the notebook's path (a clear error otherwise)."""
    given = Path(number_or_path)
    if given.suffix == ".ipynb":
        if not given.is_file():
            raise ValueError(f"{number_or_path}: no such notebook")
        return given.resolve()
    if not number_or_path.isdigit():
        raise ValueError(f"NB={number_or_path!r}: give a notebook's number (NB=07) or its path")
    found = [p for p in course_notebooks() if p.name.startswith(f"{int(number_or_path):02d}_")]
    if not found:
        raise ValueError(f"NB={number_or_path}: no notebook numbered {int(number_or_path):02d} in notebooks/")
    return found[0]


def tests_for(notebook: Path) -> list[Path]:
    """The unit-test files of what a notebook exports and of its answers: those named after its
    scratch module, or that import the module or its answer module (``make quick NB=07``)."""
    module = module_name(notebook)
    number = notebook.name[:2]
    needles = (f"retrieval_lab.scratch.{module}", f"scratch import {module}", f"answers.nb{number}",
               f"answers import nb{number}", notebook.stem)
    found = []
    for test in sorted((ROOT / "tests").glob("test_*.py")):
        if test.name in {"test_browser.py", "test_site.py", "test_slides.py"}:
            continue  # the browser's: make test runs them
        text = test.read_text(encoding="utf-8")
        if test.stem == f"test_{module}" or any(n in text for n in needles):
            found.append(test)
    return found


def exported_source(notebook: Path) -> str | None:
    """The module a notebook's ``export`` cells make, or None when it has no such cell."""
    numbered = [
        (index, c) for index, c in enumerate(_read(notebook).cells)
        if c.cell_type == "code" and "export" in tags(c)
    ]
    if not numbered:
        return None
    rel = notebook.relative_to(ROOT) if notebook.is_relative_to(ROOT) else notebook
    futures: list[str] = []
    chunks: list[str] = []
    for index, cell in numbered:
        lines = cell.source.strip("\n").splitlines()
        futures += [ln for ln in lines if ln.startswith("from __future__ import")]
        body = "\n".join(ln for ln in lines if not ln.startswith("from __future__ import")).strip("\n")
        if body:
            # Where this part came from: a traceback's file and line lead here (nbdev's marker).
            chunks.append(f"# %% {rel.as_posix()}, cell {index}\n{body}")
    header = [
        f"# GENERATED from {rel.as_posix()} by `make export`: do not edit.",
        '# Edit the notebook\'s cells tagged "export", run them, then run `make export`.',
        "# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).",
        *sorted(set(futures)),
    ]
    return "\n".join(header) + "\n\n" + "\n\n\n".join(chunks) + "\n"


def _added_to_a_class(node: ast.AST) -> bool:
    """A function under ``@add_to_class(C)`` is a method of ``C``, not a name of the module."""
    return any(
        isinstance(d, ast.Call) and getattr(d.func, "id", None) == "add_to_class"
        for d in getattr(node, "decorator_list", [])
    )


def public_names(source: str) -> list[str]:
    """Top-level classes and functions whose names do not start with ``_``."""
    tree = ast.parse(source)
    return [
        node.name
        for node in tree.body
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and not node.name.startswith("_")
        and not _added_to_a_class(node)
    ]


def private_helpers(source: str) -> dict[str, str]:
    """Top-level ``_name`` functions and their bodies (as an AST dump, blind to comments)."""
    return {
        node.name: ast.dump(ast.Module(body=node.body, type_ignores=[]))
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("_") and not node.name.startswith("__")
        and not _added_to_a_class(node)
    }


def planned_exports(notebooks: Iterable[Path] | None = None) -> dict[Path, str]:
    """Every file under ``scratch/`` as the notebooks say it should be."""
    files: dict[Path, str] = {}
    owners: dict[str, str] = {}
    helpers: dict[str, tuple[str, str]] = {}
    init_lines: list[str] = []
    all_names: list[str] = []
    for nb in notebooks if notebooks is not None else course_notebooks():
        source = exported_source(nb)
        if source is None:
            continue
        module = module_name(nb)
        for name, body in private_helpers(source).items():
            seen = helpers.setdefault(name, (nb.name, body))
            if seen[1] != body:
                raise ValueError(
                    f"{name} is defined in both {seen[0]} and {nb.name} with different bodies: "
                    "write it once (a helper module, or the earlier notebook) and import it."
                )
        names = public_names(source)
        for name in names:
            if name in owners:
                raise ValueError(
                    f"{name} is exported by both {owners[name]} and {nb.name}: "
                    "define it once and import it in the later notebook."
                )
            owners[name] = nb.name
        files[SCRATCH / f"{module}.py"] = source
        if names:
            init_lines.append(f"from .{module} import {', '.join(names)}")
            all_names += names
    init = [
        "# GENERATED by `make export` from the notebooks' cells tagged \"export\": do not edit.",
        '"""The from-scratch classes of the course, under the names of the classes they rebuild."""',
        "",
        "# Tracebacks into these modules name the notebook cell each function came from.",
        "from retrieval_lab.runtime.cells import install as _install",
        "",
        "_install(__name__)",
        "",
        *init_lines,
        "",
        f"__all__ = {sorted(all_names, key=_isort_key)!r}",
        "",
    ]
    files[SCRATCH / "__init__.py"] = "\n".join(init)
    return files


def _isort_key(name: str) -> tuple[int, list]:
    """ruff's RUF022 order for ``__all__``: CONSTANTS, then CamelCase, then the rest, each group
    in natural order (digits compared as numbers), so the generated file stays ruff-clean."""
    group = 0 if name.isupper() else 1 if name[:1].isupper() else 2
    return group, [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


_MARKER = re.compile(r"^# %% (?P<notebook>\S+), cell (?P<cell>\d+)$")


def cell_of(module: Path, line: int) -> str | None:
    """The notebook cell a line of a generated ``scratch/`` module came from (``None`` if none)."""
    lines = Path(module).read_text(encoding="utf-8").splitlines()[:line]
    for text in reversed(lines):
        match = _MARKER.match(text)
        if match:
            return f"{match['notebook']}, cell {match['cell']}"
    return None


def export() -> list[Path]:
    """Write the planned files, remove stale generated ones; return what changed."""
    planned = planned_exports()
    changed = []
    SCRATCH.mkdir(parents=True, exist_ok=True)
    for path, text in planned.items():
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(path)
    for path in SCRATCH.glob("*.py"):
        if path not in planned:
            path.unlink()
            changed.append(path)
    return changed


def export_problems() -> list[str]:
    """What differs between ``scratch/`` and the notebooks (empty when in sync)."""
    planned = planned_exports()
    problems = []
    for path, text in planned.items():
        if not path.exists():
            problems.append(f"{path.relative_to(ROOT)} is missing: run `make export`.")
        elif path.read_text(encoding="utf-8") != text:
            problems.append(
                f"{path.relative_to(ROOT)} differs from its notebook's export cells: "
                "edit the notebook, not the file, then run `make export`."
            )
    for path in sorted(SCRATCH.glob("*.py")):
        if path not in planned:
            problems.append(f"{path.relative_to(ROOT)} comes from no notebook: delete it or export it.")
    return problems


# --------------------------------------------------------------------------- guard

MAX_CELL_LINES = 30
MAX_LINE = 88
WORDS_PER_MINUTE = 80
CODE_LINES_PER_MINUTE = 7
OUTPUT_LINES_PER_MINUTE = 10  # text a learner reads in the stored outputs (pictures not counted)
PREDICTION_MINUTES = 2  # each "**Predict**" a core asks for: time to think before running
#: A markdown cell that asks the learner to predict before running the next cell.
PREDICT = re.compile(r"\*\*Predict\b")
MAX_CORE_MINUTES = 75
# Minutes of thinking an exercise needs beyond reading its cells, by kind (issue 34: three blind
# reviews timed the exercises at about twice the reading alone).
THINKING_MINUTES = {"predict": 5, "debug": 10, "extend": 10, "apply": 15}
DEEP_DIVE = "## Deep dive: "
YOUR_TURN = "## Your turn"
CLEAN_UP = "## Clean up"  # e.g. stopping a server: after the deep dives, which may still need it
_TIME_LINE = re.compile(
    r"\*\*Time\*\*: teach (\d+) min · exercises (\d+) min(?: · deep dives (\d+) min \(optional\))?"
)


def part_of(nb) -> list[str]:
    """Each cell's part of the notebook: ``core``, ``exercises`` or ``deep`` (a deep dive).

    A ``## `` heading starts a part: ``## Your turn`` the exercises, ``## Deep dive: …`` a deep
    dive, any other the core. Cells tagged exercise, check or solution are exercises wherever
    they stand.
    """
    parts, current = [], "core"
    for cell in nb.cells:
        first = cell.source.lstrip().splitlines()[0] if cell.source.strip() else ""
        if cell.cell_type == "markdown" and first.startswith("## "):
            current = (
                "deep" if first.startswith(DEEP_DIVE)
                else "exercises" if first.startswith(YOUR_TURN) else "core"
            )
        exercise = {"exercise", "check", "solution"} & set(tags(cell))
        parts.append("exercises" if exercise else current)
    return parts


def _minutes(cells) -> int:
    """Prose words / 80 + non-blank code lines / 7, rounded up to 5 (0 for no cells).

    The Colab set-up cell is left out: its input is hidden, and outside Colab it does nothing.
    """
    cells = [c for c in cells if "colab-setup" not in tags(c)]
    if not cells:
        return 0
    return max(5, 5 * math.ceil(_reading_minutes(cells) / 5))


def output_lines(cell) -> int:
    """Lines of text a learner reads in a code cell's stored outputs: streams, plain-text
    results, tracebacks (a picture's text/plain fallback is not read)."""
    lines = 0
    for output in cell.get("outputs", []):
        kind = output.get("output_type")
        if kind == "stream":
            lines += len(output.get("text", "").splitlines())
        elif kind == "error":
            lines += sum(len(str(frame).splitlines()) for frame in output.get("traceback", []))
        else:
            data = output.get("data", {})
            if "image/png" not in data and "text/plain" in data:
                lines += len(str(data["text/plain"]).splitlines())
    return lines


def predictions(cells) -> int:
    """How many times these cells ask the learner to predict (a ``**Predict**`` in markdown)."""
    return sum(len(PREDICT.findall(c.source)) for c in cells if c.cell_type == "markdown")


def _reading_minutes(cells) -> float:
    """Unrounded time of some cells: prose words / 80 + non-blank code lines / 7 + output lines
    / 10 + 2 minutes per prediction asked."""
    cells = list(cells)
    words = sum(len(c.source.split()) for c in cells if c.cell_type == "markdown")
    code = sum(1 for c in cells if c.cell_type == "code" for ln in c.source.splitlines() if ln.strip())
    shown = sum(output_lines(c) for c in cells if c.cell_type == "code")
    return (words / WORDS_PER_MINUTE + code / CODE_LINES_PER_MINUTE
            + shown / OUTPUT_LINES_PER_MINUTE + predictions(cells) * PREDICTION_MINUTES)


def exercise_estimate(nb) -> int:
    """Minutes for ``## Your turn``: reading its cells (check cells, which run rather than
    teach, left out) at the core's rates, plus thinking time per exercise by its kind
    (``THINKING_MINUTES``), rounded up to 5."""
    cells = [c for c, part in zip(nb.cells, part_of(nb), strict=True)
             if part == "exercises" and "check" not in tags(c)]
    if not cells:
        return 0
    thinking = sum(
        THINKING_MINUTES.get(c.metadata.get("retrieval_lab", {}).get("kind"), 0)
        for c in cells if "exercise" in tags(c)
    )
    return max(5, 5 * math.ceil((_reading_minutes(cells) + thinking) / 5))


def teach_estimate(nb) -> int:
    """Honest minutes for the core path: prose words / 80 + code lines / 7, rounded up to 5.

    Why these rates: three blind reviews timed a careful learner at 1.37x the earlier 110 words
    and 10 code lines a minute; 80 and 7 are those rates divided by it. Exercises and deep dives
    are timed apart, so the core is what the objectives need.
    """
    return _minutes(c for c, part in zip(nb.cells, part_of(nb), strict=True) if part == "core")


def deep_dive_estimate(nb) -> int:
    """Minutes for the optional deep dives at the end, by the same rates (0 when there are none)."""
    return _minutes(c for c, part in zip(nb.cells, part_of(nb), strict=True) if part == "deep")


def stated_teach_minutes(nb) -> int | None:
    """The teaching time a notebook states, when its metadata and its header agree."""
    meta = nb.metadata.get("retrieval_lab", {}).get("teach_minutes")
    header = _TIME_LINE.search(nb.cells[0].source) if nb.cells else None
    if meta is None or header is None or int(header.group(1)) != meta:
        return None
    return int(meta)


def stated_deep_dive_minutes(nb) -> int | None:
    """The deep-dive time a notebook states (0 for none), when its metadata and header agree."""
    meta = int(nb.metadata.get("retrieval_lab", {}).get("deep_dive_minutes", 0))
    header = _TIME_LINE.search(nb.cells[0].source) if nb.cells else None
    if header is None or int(header.group(3) or 0) != meta:
        return None
    return meta


def time_line(teach: int, exercises: int, deep: int) -> str:
    line = f"**Time**: teach {teach} min · exercises {exercises} min"
    return line + (f" · deep dives {deep} min (optional)" if deep else "")


def write_times(notebook: Path) -> tuple[int, int]:
    """Set the stated times to the estimates, in the metadata and the header line."""
    import nbformat

    nb = _read(notebook)
    estimate, deep = teach_estimate(nb), deep_dive_estimate(nb)
    settings = nb.metadata.setdefault("retrieval_lab", {})
    stated = settings.get("teach_minutes") or 0
    before = dict(settings)
    settings["teach_minutes"] = estimate
    settings["exercise_minutes"] = exercise_estimate(nb)
    if deep:
        settings["deep_dive_minutes"] = deep
    else:
        settings.pop("deep_dive_minutes", None)
    header = _TIME_LINE.sub(time_line(estimate, settings.get("exercise_minutes", 0), deep),
                            nb.cells[0].source)
    if settings != before or header != nb.cells[0].source:  # untouched files stay untouched
        nb.cells[0].source = header
        nbformat.write(nb, notebook)
    return stated, estimate


def time_problems(nb, name: str) -> list[str]:
    """Stated times equal to the estimates, a core of at most an hour, deep dives last and folded."""
    problems = []
    stated, estimate = stated_teach_minutes(nb), teach_estimate(nb)
    deep_stated, deep = stated_deep_dive_minutes(nb), deep_dive_estimate(nb)
    if stated != estimate or deep_stated != deep:
        problems.append(
            f"{name}: states teach {stated} / deep dives {deep_stated} minutes, but the content "
            f"needs {estimate} / {deep} (prose words / {WORDS_PER_MINUTE} + code lines / "
            f"{CODE_LINES_PER_MINUTE} + output lines / {OUTPUT_LINES_PER_MINUTE} + "
            f"{PREDICTION_MINUTES} per prediction, rounded up to 5): run "
            "`python -m tools.nbtools times --write`."
        )
    exercise_meta = nb.metadata.get("retrieval_lab", {}).get("exercise_minutes")
    header = _TIME_LINE.search(nb.cells[0].source) if nb.cells else None
    exercise_stated = int(header.group(2)) if header and header.group(2) else None
    if exercise_stated != exercise_meta or exercise_meta != exercise_estimate(nb):
        problems.append(
            f"{name}: states exercises {exercise_stated} minutes (metadata {exercise_meta}), but "
            f"they need {exercise_estimate(nb)} (reading at the core's rates plus thinking per "
            f"kind: {THINKING_MINUTES}): run `python -m tools.nbtools times --write`."
        )
    if estimate > MAX_CORE_MINUTES:
        problems.append(
            f"{name}: its core path takes {estimate} minutes, over the course's "
            f"{MAX_CORE_MINUTES}: move what the objectives do not need into `{DEEP_DIVE}…` "
            "sections at the end."
        )
    parts = part_of(nb)
    if "deep" in parts:
        after = [
            c for c, p in zip(nb.cells[parts.index("deep"):], parts[parts.index("deep"):], strict=True)
            if p != "deep"
        ]
        headings = [c.source.lstrip() for c in after if c.cell_type == "markdown"
                    and c.source.lstrip().startswith("## ")]
        if after and not (headings and after[0].source.lstrip().startswith(CLEAN_UP)
                          and len(headings) == 1):
            problems.append(
                f"{name}: a deep dive must come after everything else (after Key points); only a "
                f"final `{CLEAN_UP}…` section may follow the deep dives."
            )
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "markdown" and cell.source.lstrip().startswith(DEEP_DIVE) and not (
            cell.metadata.get("jp-MarkdownHeadingCollapsed")
        ):
            problems.append(
                f"{name}: deep dive heading in cell {i} is not collapsed: set its metadata "
                '"jp-MarkdownHeadingCollapsed": true (JupyterLab then folds the section).'
            )
    return problems


def guard_problems(notebook: Path) -> list[str]:
    """Why nbval could not trust this stored notebook (empty when it can)."""
    nb = _read(notebook)
    name = notebook.name
    problems = []
    code = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    counts = [c.get("execution_count") for c in code]
    if counts != list(range(1, len(code) + 1)):
        problems.append(
            f"{name}: stored execution counts are {counts[:12]}…, not 1..{len(code)} - "
            "it is unexecuted or half-executed (nbval skips cells without a count): run `make execute`."
        )
    for i, cell in enumerate(nb.cells):
        has_error = any(o.get("output_type") == "error" for o in cell.get("outputs", []))
        expects_error = "raises-exception" in tags(cell)
        if has_error and not expects_error:
            problems.append(f"{name}: cell {i} stores an error but is not tagged raises-exception.")
        if expects_error and not has_error:
            problems.append(f"{name}: cell {i} is tagged raises-exception but stores no error.")
        if cell.cell_type == "code" and "nbval-ignore-output" in tags(cell) and "widget" not in tags(cell) \
                and "timing" not in tags(cell):
            problems.append(
                f"{name}: cell {i} ignores its output; only live widgets (tag widget) and "
                "timings (tag timing) may - make the output deterministic instead."
            )
        for output in cell.get("outputs", []):
            if "image/png" in output.get("data", {}):
                alt = output.get("metadata", {}).get("image/png", {}).get("alt", "")
                if not str(alt).strip():
                    problems.append(
                        f"{name}: cell {i} shows a picture with no alt text: display it with "
                        "retrieval_lab.plots.show(fig, alt='what it shows')."
                    )
        if cell.cell_type == "code" and "execution" in cell.get("metadata", {}):
            problems.append(f"{name}: cell {i} stores timing metadata: run `make execute` to strip it.")
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        lines = cell.source.splitlines()
        if len(lines) > MAX_CELL_LINES:
            problems.append(
                f"{name}: cell {i} has {len(lines)} lines; the course's limit is {MAX_CELL_LINES}: "
                "split it, one idea per cell (grow a class with add_to_class)."
            )
        wide = [n for n, ln in enumerate(lines, 1) if len(ln) > MAX_LINE]
        if wide:
            problems.append(
                f"{name}: cell {i} has {len(wide)} line(s) over {MAX_LINE} characters "
                f"(first: line {wide[0]}); wrap them."
            )
    problems += time_problems(nb, name)
    problems += claim_problems(nb, name)
    from tools.exercise_rules import exercise_problems

    problems += exercise_problems(nb, name, exercises(notebook))
    spec = nb.metadata.get("kernelspec", {})
    if spec.get("name") != KERNEL_NAME:
        problems.append(f"{name}: kernelspec is {spec.get('name')!r}, expected {KERNEL_NAME!r}.")
    if "widgets" in nb.metadata:
        problems.append(f"{name}: stores widget state: run `make execute` to strip it.")
    return problems


# --------------------------------------------------------------------------- claims

#: Words that make a sentence of a core state a measured comparison (docs/design.md, "Claims").
COMPARING = re.compile(
    r"\b(beats?|outperforms?|faster|slower|flatters?|wins?|loses|better than|worse than|"
    r"higher than|lower than|more accurate|less accurate|grows? like|slope|"
    r"same (?:row|numbers?|scores?) as|no clear difference)\b",
    re.I,
)
CLAIM_OK, CLAIM_FAILED = "✓ claim:", "✗ claim:"


def _output_text(cell) -> str:
    parts = []
    for output in cell.get("outputs", []):
        parts.append(output.get("text", "") if output.get("output_type") == "stream"
                     else str(output.get("data", {}).get("text/plain", "")))
    return "".join(parts)


def unbacked_sentences(nb) -> list[tuple[int, str]]:
    """(cell, sentence) for each comparing sentence in a core's prose that no claim backs: the
    code cell just before its markdown cell must print a ``✓ claim:`` line."""
    found = []
    last_code = None
    for i, (cell, part) in enumerate(zip(nb.cells, part_of(nb), strict=True)):
        if cell.cell_type == "code":
            last_code = cell
            continue
        if part != "core" or cell.cell_type != "markdown" or i == 0:
            continue
        backed = last_code is not None and CLAIM_OK in _output_text(last_code)
        for sentence in re.split(r"(?<=[.!?])\s+", cell.source):
            if COMPARING.search(sentence) and not backed:
                found.append((i, " ".join(sentence.split())))
    return found


def claim_problems(nb, name: str) -> list[str]:
    """A stored ✗ claim, and comparing sentences in the core that no claim check backs."""
    problems = [
        f"{name}: cell {i} stores a failed claim ({line.strip()}): the data no longer back the "
        "sentence after it; change the sentence to what the numbers show, or the claim's test."
        for i, cell in enumerate(nb.cells) if cell.cell_type == "code"
        for line in _output_text(cell).splitlines() if line.startswith(CLAIM_FAILED)
    ]
    problems += [
        f"{name}: cell {i} states a measured comparison that no claim backs: {sentence!r} - end "
        "the code cell before it with claim(...) (retrieval_lab.runtime.claims), or say it "
        "without comparing"
        for i, sentence in unbacked_sentences(nb)
    ]
    return problems


# --------------------------------------------------------------------------- execute

_SITE_PACKAGES = re.compile(r"/[^\s\x1b\"']*?/site-packages/")
# The standard library, as IPython prints it (home shortened to ~): ~/.pyenv/…/lib/python3.11/.
_STDLIB = re.compile(r"(?:~|/)[^\s\x1b\"']*?/lib/(python3\.\d+)/")


def _portable(line: str) -> str:
    """A traceback line without this machine's paths, so a re-run elsewhere gives the same file."""
    line = _SITE_PACKAGES.sub("site-packages/", line)
    return _STDLIB.sub(r"\1/", line).replace(f"{ROOT}/", "")


def _coalesced(outputs: list) -> list:
    """Join consecutive stdout (or stderr) chunks: how a print is split depends on the load."""
    merged: list = []
    for out in outputs:
        previous = merged[-1] if merged else None
        if (
            previous is not None
            and out.get("output_type") == "stream"
            and previous.get("output_type") == "stream"
            and out.get("name") == previous.get("name")
        ):
            previous["text"] += out["text"]
        else:
            merged.append(out)
    return merged


def normalise(nb) -> None:
    """Strip what changes from run to run but teaches nothing: timings, widget state, paths."""
    nb.metadata.pop("widgets", None)
    nb.metadata["kernelspec"] = {"name": KERNEL_NAME, "display_name": KERNEL_DISPLAY, "language": "python"}
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = _coalesced(cell.outputs)
            for out in cell.get("outputs", []):
                out.get("metadata", {}).pop("execution", None)
                # A live widget's model id is random and its state is not stored: keep the text.
                out.get("data", {}).pop("application/vnd.jupyter.widget-view+json", None)
                if out.get("output_type") == "error":
                    out["traceback"] = [_portable(line) for line in out["traceback"]]


def execute(notebook: Path, timeout: int = 600) -> None:
    """Run a notebook top to bottom in a fresh kernel of this environment and store the result."""
    import nbformat
    from nbclient import NotebookClient

    nb = _read(notebook)
    env_backend = os.environ.pop("MPLBACKEND", None)  # the kernel must use the inline backend
    try:
        client = NotebookClient(
            nb,
            timeout=timeout,
            kernel_name="python3",
            resources={"metadata": {"path": str(notebook.parent)}},
        )
        client.execute()
    finally:
        if env_backend is not None:
            os.environ["MPLBACKEND"] = env_backend
    normalise(nb)
    nbformat.write(nb, notebook)


# --------------------------------------------------------------------------- CLI

def _paths(args: list[str]) -> list[Path]:
    return [Path(a).resolve() for a in args] if args else course_notebooks()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    commands = {"export", "check", "execute", "guard", "lint", "times", "where", "notebook", "tests-for"}
    if not argv or argv[0] not in commands:
        print("usage: python -m tools.nbtools export|check|execute|guard|lint|times [--write]|where FILE:LINE"
              "|notebook NN|tests-for NN")
        return 2
    command, rest = argv[0], argv[1:]
    if command in {"notebook", "tests-for"}:  # make quick NB=07
        try:
            notebook = notebook_of(rest[0] if rest else "")
        except ValueError as error:
            print(error, file=sys.stderr)
            return 2
        found = [notebook] if command == "notebook" else tests_for(notebook)
        print(" ".join(str(p.relative_to(ROOT)) for p in found))
        return 0
    if command == "export":
        changed = export()
        print(f"export: {len(changed)} file(s) written" + "".join(f"\n  {p.relative_to(ROOT)}" for p in changed))
        return 0
    if command == "check":
        return _report_export()
    if command == "lint":  # guard and check in one process: each start that reads notebooks costs time
        guarded = _report_guard(rest)
        return max(guarded, _report_export())
    if command == "where":
        file, _, line = rest[0].rpartition(":")
        print(cell_of(Path(file), int(line)) or f"{file}: no notebook marker above line {line}")
        return 0
    if command == "times":
        write = "--write" in rest
        rows = []
        for nb_path in _paths([a for a in rest if a != "--write"]):
            if write:
                write_times(nb_path)
            nb = _read(nb_path)
            stated, estimate = stated_teach_minutes(nb), teach_estimate(nb)
            deep = deep_dive_estimate(nb)
            ok = stated == estimate and stated_deep_dive_minutes(nb) == deep
            ok = ok and estimate <= MAX_CORE_MINUTES
            rows.append(
                f"{nb_path.name:<36} stated {stated!s:>4}  core {estimate:>4}  deep {deep:>3}  "
                f"exercises {exercise_estimate(nb):>3}  " + ("ok" if ok else "FIX")
            )
            from tools.exercise_rules import copy_share, kind_of

            cells = nb.cells
            found = exercises(nb_path)
            above = [c.source for c in cells[: min((i for i, _, _ in found), default=0)]
                     if c.cell_type == "code"]
            for n, (i, _, solution) in enumerate(found, start=1):
                rows.append(f"    exercise {n} (cell {i}) kind {kind_of(cells[i])!s:<8} "
                            f"copied {copy_share(solution, above):.0%}")
        print("\n".join(rows))
        return 0
    if command == "execute":
        for nb in _paths(rest):
            print(f"execute: {nb.relative_to(ROOT)}", flush=True)
            execute(nb)
            write_times(nb)  # the estimate counts the outputs just stored
        return 0
    return _report_guard(rest)


def _report_export() -> int:
    problems = export_problems()
    print("\n".join(problems) if problems else "export: scratch/ matches the notebooks")
    return 1 if problems else 0


def _report_guard(args: list[str]) -> int:
    problems = [p for nb in _paths(args) for p in guard_problems(nb)]
    print("\n".join(problems) if problems else f"guard: {len(_paths(args))} notebook(s) stored fully executed")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
