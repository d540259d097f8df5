"""The course's editions, generated from the notebooks: never edit ``editions/`` by hand.

- ``editions/workshop/NN_name.ipynb``: a notebook's **spine**, its cells tagged ``spine`` in order
  (the 25-35 minutes a workshop teaches live). An ``export`` cell left out of the spine becomes one
  code cell that imports the names it defines, finished, from ``retrieval_lab.scratch``. Stored
  executed (nbval checks it in ``make test``): its outputs come from running it here.
- ``editions/student/NN_name.ipynb``: every notebook with its solutions removed (cells tagged
  ``solution`` dropped) and its outputs cleared, for classes that grade.

Commands (the Makefile's ``make editions`` runs ``write``)::

    python -m tools.editions spine notebooks/NN_x.ipynb   # the spine's minutes, then run it
    python -m tools.editions write [notebooks…]            # regenerate (runs each workshop spine)
    python -m tools.editions check                         # what differs from the notebooks

Why the workshop edition's sources are compared and not its outputs: a re-run gives the same
outputs up to what nbval's sanitize file masks (memory addresses, temporary paths), so the guard
compares the cells and nbval compares the outputs, as for the notebooks themselves.
"""

from __future__ import annotations

import ast
import copy
import math
import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from tools.nbtools import (
    KERNEL_NAME,
    NOTEBOOKS,
    ROOT,
    THINKING_MINUTES,
    _read,
    _reading_minutes,
    course_notebooks,
    module_name,
    normalise,
    part_of,
    public_names,
    tags,
)

EDITIONS = ROOT / "editions"
WORKSHOP = EDITIONS / "workshop"
STUDENT = EDITIONS / "student"
SPINE = "spine"
#: The one line that says why a cell of the workshop edition imports instead of building.
IMPORT_NOTE = "# finished in the full notebook: imported from retrieval_lab.scratch"
#: What the student edition sets first: the checks then answer a prediction with ✓ or "not yet".
STUDENT_SWITCH = "RETRIEVAL_LAB_EDITION"
_TIME = re.compile(r"\*\*Time\*\*: [^\n]*")
_NOTEBOOK_LINK = re.compile(r"(?P<prefix>(?:tree|blob/[^/\s)]+)/)notebooks/(?P<name>\d\d_[a-z0-9_]+\.ipynb)")
_SPINE_TARGET = (25, 35)
MAX_LINE = 88


# --------------------------------------------------------------------------- minutes

@dataclass(frozen=True)
class SpineMinutes:
    """A spine's time at the course's rates: its core cells, and its exercise with thinking time."""

    core: float
    exercise: float

    @property
    def total(self) -> int:
        """Both, rounded up to 5 minutes (as the notebooks' stated times are)."""
        raw = self.core + self.exercise
        return 0 if raw == 0 else max(5, 5 * math.ceil(raw / 5))

    def line(self) -> str:
        return (f"spine {self.total} min: core {self.core:.1f} min (target "
                f"{_SPINE_TARGET[0]}-{_SPINE_TARGET[1]}) + exercise {self.exercise:.1f} min")


def spine_indices(nb) -> list[int]:
    return [i for i, cell in enumerate(nb.cells) if SPINE in tags(cell)]


def spine_minutes(nb) -> SpineMinutes:
    """Minutes of the cells tagged ``spine`` (tools.nbtools' rates: words / 80, code lines / 7,
    output lines / 10, 2 per prediction); the Colab set-up cell and check cells not counted, and
    each spine exercise adds its thinking time by kind (``THINKING_MINUTES``)."""
    parts = part_of(nb)
    core, exercise = [], []
    thinking = 0
    for i in spine_indices(nb):
        cell = nb.cells[i]
        if {"colab-setup", "check"} & set(tags(cell)):
            continue
        (exercise if parts[i] == "exercises" else core).append(cell)
        if "exercise" in tags(cell):
            thinking += THINKING_MINUTES.get(cell.metadata.get("retrieval_lab", {}).get("kind"), 0)
    return SpineMinutes(_reading_minutes(core) if core else 0.0,
                        (_reading_minutes(exercise) if exercise else 0.0) + thinking)


# --------------------------------------------------------------------------- workshop edition

def _defined_names(source: str) -> tuple[list[str], list[str], list[str]]:
    """(classes and functions, other assigned names, import lines) at a cell's top level."""
    tree = ast.parse(source)
    defined, assigned, imports = [], [], []
    lines = source.splitlines()
    for node in tree.body:
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            decorated = any(isinstance(d, ast.Call) and getattr(d.func, "id", None) == "add_to_class"
                            for d in node.decorator_list)
            if not decorated:
                defined.append(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            assigned += [t.id for t in targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.Import | ast.ImportFrom):
            imports.append("\n".join(lines[node.lineno - 1:node.end_lineno]))
    return defined, assigned, imports


def _import_names(line: str) -> list[str]:
    node = ast.parse(line).body[0]
    return [(a.asname or a.name).split(".")[0] for a in node.names]


def _methods_of(source: str) -> set[str]:
    """Classes a cell adds methods to with ``@add_to_class(C)``."""
    return {
        d.args[0].id
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for d in node.decorator_list
        if isinstance(d, ast.Call) and getattr(d.func, "id", None) == "add_to_class"
        and d.args and isinstance(d.args[0], ast.Name)
    }


def _words(cells) -> set[str]:
    return {w for c in cells if c.cell_type == "code" for w in re.findall(r"[A-Za-z_]\w*", c.source)}


def _from_import(module: str, names: list[str]) -> str:
    line = f"from {module} import {', '.join(names)}"
    if len(line) <= MAX_LINE:
        return line
    return f"from {module} import (\n" + "".join(f"    {n},\n" for n in names) + ")"


def _sort_key(name: str) -> tuple[int, list]:
    """isort's order by type (ruff's default): CONSTANTS, Classes, then the rest."""
    group = 0 if name.isupper() else 1 if name[:1].isupper() else 2
    return group, [int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", name)]


def _import_block(lines: list[str]) -> list[str]:
    """Import statements merged and ordered as ruff's isort wants them in a cell: standard
    library, third party, then the course's package; ``import x`` before ``from x import y``."""
    plain: dict[int, set[str]] = {0: set(), 1: set(), 2: set()}
    froms: dict[int, dict[str, set[str]]] = {0: {}, 1: {}, 2: {}}

    def section(module: str) -> int:
        top = module.split(".")[0]
        return 0 if top in sys.stdlib_module_names else 2 if top == "retrieval_lab" else 1

    for line in lines:
        for node in ast.parse(line).body:
            if isinstance(node, ast.Import):
                for a in node.names:
                    plain[section(a.name)].add(a.name + (f" as {a.asname}" if a.asname else ""))
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = froms[section(node.module)].setdefault(node.module, set())
                names.update(a.name + (f" as {a.asname}" if a.asname else "") for a in node.names)
    blocks = []
    for key in (0, 1, 2):
        block = [f"import {m}" for m in sorted(plain[key], key=str.lower)]
        block += [_from_import(m, sorted(n, key=_sort_key)) for m, n in sorted(froms[key].items())]
        if block:
            blocks.append("\n".join(block))
    return "\n\n".join(blocks).splitlines()


def import_cell_source(notebook: Path, skipped: list, later: list) -> str | None:
    """The one code cell that stands for skipped ``export`` cells: their names, imported finished.

    Public classes and functions always come; a private or assigned name, or an import line of
    the skipped cells, only when a later spine cell mentions it. None when nothing is needed.
    """
    used = _words(later)
    names: list[str] = []
    import_lines: list[str] = []
    for cell in skipped:
        defined, assigned, imports = _defined_names(cell.source)
        public = set(public_names(cell.source))
        names += [n for n in defined + assigned if (n in public or n in used) and n not in names]
        import_lines += [line for line in imports if line not in import_lines
                         and not line.startswith("from __future__")
                         and set(_import_names(line)) & used]
    if not names and not import_lines:
        return None
    module = f"retrieval_lab.scratch.{module_name(notebook)}"
    body = _import_block(import_lines + ([f"from {module} import {', '.join(names)}"] if names else []))
    return "\n".join([IMPORT_NOTE, *body])


def spine_problems(notebook: Path, nb=None) -> list[str]:
    """What makes a spine impossible to generate well (found without running it)."""
    nb = nb if nb is not None else _read(notebook)
    spine = set(spine_indices(nb))
    name = notebook.name
    if not spine:
        return [f"{name}: no cell is tagged `{SPINE}`."]
    problems = []
    if 0 not in spine:
        problems.append(f"{name}: the header (cell 0) is not in the spine.")
    classes_in_spine = {
        n for i in spine if nb.cells[i].cell_type == "code" and "export" in tags(nb.cells[i])
        for n in _defined_names(nb.cells[i].source)[0]
    }
    for i, cell in enumerate(nb.cells):
        if i in spine or cell.cell_type != "code" or "export" not in tags(cell):
            continue
        lost = _methods_of(cell.source) & classes_in_spine
        if lost and any(j > i for j in spine):
            problems.append(
                f"{name}: cell {i} adds methods to {', '.join(sorted(lost))} (add_to_class) but is "
                "not in the spine, while the class's definition is: the spine's class would lack "
                "them. Keep the class's whole build in the spine, or leave its definition out "
                "(it is then imported finished) and keep only the methods you teach."
            )
    return problems


def _workshop_links(text: str) -> str:
    """Links of a cell from notebooks/ made to work from editions/workshop/."""
    text = _NOTEBOOK_LINK.sub(r"\g<prefix>editions/workshop/\g<name>", text)
    return re.sub(r"\]\(\.\./", "](../../", text)


def workshop_notebook(notebook: Path, nb=None):
    """A notebook's spine as a notebook of its own (unexecuted), and where each cell came from
    (``nb``: the notebook as it will be, when it is not yet written)."""
    import nbformat

    nb = _read(notebook) if nb is None else nb
    spine = spine_indices(nb)
    minutes = spine_minutes(nb)
    cells, origins, skipped = [], [], []
    for i, cell in enumerate(nb.cells):
        if i not in spine:
            if cell.cell_type == "code" and "export" in tags(cell):
                skipped.append(cell)
            continue
        later = [nb.cells[j] for j in spine if j >= i and nb.cells[j].cell_type == "code"]
        if skipped and later:
            source = import_cell_source(notebook, skipped, later)
            if source is not None:
                cells.append(nbformat.v4.new_code_cell(source, id=f"workshop-import-{notebook.stem[:2]}-{i}"))
                origins.append(None)
            skipped = []
        new = copy.deepcopy(cell)
        new.metadata["tags"] = [t for t in tags(cell) if t != SPINE]
        if not new.metadata["tags"]:
            del new.metadata["tags"]
        if new.cell_type == "code":
            new.outputs, new.execution_count = [], None
        else:
            new.source = _workshop_links(new.source)
        cells.append(new)
        origins.append(i)
    if cells and origins[0] == 0:
        full = f"../../notebooks/{notebook.name}"
        cells[0].source = _TIME.sub(
            f"**Time**: about {minutes.total} min, the workshop's spine of this notebook "
            f"([the full notebook]({full}) has more: every step, the real class's surprises, "
            "all exercises)", cells[0].source, count=1)
    out = nbformat.v4.new_notebook()
    out.cells = cells
    out.metadata = _metadata(nb, "workshop", notebook, spine_minutes=minutes.total)
    return out, origins


def _metadata(nb, edition: str, notebook: Path, **extra) -> dict:
    meta = {"kernelspec": copy.deepcopy(nb.metadata.get("kernelspec", {})),
            "language_info": {"name": "python"},
            "retrieval_lab": {"edition": edition, "source": f"notebooks/{notebook.name}", **extra}}
    return meta


# --------------------------------------------------------------------------- student edition

def student_notebook(notebook: Path, nb=None):
    """Every cell but the solutions, outputs cleared, the predict checks switched to ✓/not yet."""
    import nbformat

    nb = _read(notebook) if nb is None else nb
    cells = []
    for i, cell in enumerate(nb.cells):
        if "solution" in tags(cell):
            continue
        new = copy.deepcopy(cell)
        if new.cell_type == "code":
            new.outputs, new.execution_count = [], None
        else:
            new.source = _student_links(new.source)
        cells.append(new)
        if i == 0:
            cells.append(nbformat.v4.new_code_cell(
                "# Student edition: the checks say ✓ or \"not yet\", never how many are right.\n"
                "import os\n\n"
                f'os.environ["{STUDENT_SWITCH}"] = "student"', id="student-edition"))
    out = nbformat.v4.new_notebook()
    out.cells = cells
    out.metadata = _metadata(nb, "student", notebook)
    return out


def _student_links(text: str) -> str:
    text = _NOTEBOOK_LINK.sub(r"\g<prefix>editions/student/\g<name>", text)
    return re.sub(r"\]\(\.\./", "](../../", text)


# --------------------------------------------------------------------------- running

@dataclass
class RunResult:
    failed_cell: int | None  # index in the edition's notebook
    error: str = ""


def run(nb, cwd: Path, timeout: int = 600) -> RunResult:
    """Execute a notebook in place in a fresh ``retrieval-lab`` kernel (cells tagged
    ``raises-exception`` may fail); stop at the first other failure."""
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    backend = os.environ.pop("MPLBACKEND", None)  # the kernel must use the inline backend
    client = NotebookClient(nb, timeout=timeout, kernel_name=KERNEL_NAME,
                            resources={"metadata": {"path": str(cwd)}})
    try:
        client.execute()
    except CellExecutionError as error:
        failed = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code" and any(
            o.get("output_type") == "error" for o in c.get("outputs", []))
            and "raises-exception" not in tags(c)), None)
        return RunResult(failed, f"{error.ename}: {error.evalue}")
    finally:
        if backend is not None:
            os.environ["MPLBACKEND"] = backend
    return RunResult(None)


def _ename(cell) -> str | None:
    return next((o.get("ename") for o in cell.get("outputs", []) if o.get("output_type") == "error"),
                None)


def wrong_errors(source_nb, edition_nb, origins: list) -> list[str]:
    """A cell tagged ``raises-exception`` must raise in the edition what it raised in the notebook
    (a NameError there means the spine lacks a cell, not the surprise the cell shows)."""
    found = []
    for k, (cell, origin) in enumerate(zip(edition_nb.cells, origins, strict=True)):
        if origin is None or "raises-exception" not in tags(cell):
            continue
        want, got = _ename(source_nb.cells[origin]), _ename(cell)
        if want != got:
            found.append(f"notebook cell {origin} (workshop cell {k}) raised {got}, the notebook "
                         f"stores {want}")
    return found


def with_solutions(nb) -> tuple[object, list[tuple[int, int]]]:
    """The notebook with, at its end, each exercise's worked solution and its check again: a spine
    must hold what its solution needs. Returns it and (exercise cell, appended check cell) pairs."""
    import nbformat

    from tools.nbtools import _SOLUTION

    out = copy.deepcopy(nb)
    pairs = []
    for i, cell in enumerate(nb.cells):
        if "exercise" not in tags(cell):
            continue
        check = next((j for j in range(i + 1, len(nb.cells)) if "check" in tags(nb.cells[j])), None)
        solution = next((j for j in range(i + 1, len(nb.cells)) if "solution" in tags(nb.cells[j])), None)
        match = _SOLUTION.search(nb.cells[solution].source) if solution is not None else None
        if check is None or match is None:
            continue
        out.cells.append(nbformat.v4.new_code_cell(match.group(1)))
        out.cells.append(nbformat.v4.new_code_cell(nb.cells[check].source))
        pairs.append((i, len(out.cells) - 1))
    return out, pairs


def _printed(cell) -> str:
    return "".join(o.get("text", "") or str(o.get("data", {}).get("text/plain", ""))
                   for o in cell.get("outputs", []))


def _defined_where(nb, name: str, before: int) -> list[int]:
    pattern = re.compile(rf"^(?:def|class|async def)\s+{re.escape(name)}\b|^{re.escape(name)}\s*[:=]"
                         rf"|^(?:from\s+\S+\s+)?import\s+.*\b{re.escape(name)}\b", re.M)
    return [i for i, c in enumerate(nb.cells[:before]) if c.cell_type == "code"
            and pattern.search(c.source)]


def _finish(nb) -> None:
    """What a run leaves that is not the notebook's: the kernel's versions, timings, paths."""
    normalise(nb)
    nb.metadata["language_info"] = {"name": "python"}


def write_workshop(notebook: Path, target: Path | None = None) -> RunResult:
    """Generate, run and store one workshop notebook; the data files it reads sit beside it."""
    import nbformat

    target = target or WORKSHOP / notebook.name
    target.parent.mkdir(parents=True, exist_ok=True)
    nb, origins = workshop_notebook(notebook)
    result = run(nb, target.parent)
    wrong = wrong_errors(_read(notebook), nb, origins)
    if result.failed_cell is None and wrong:
        result = RunResult(origins.index(int(wrong[0].split()[2])), wrong[0])
    _finish(nb)
    nbformat.write(nb, target)
    return result


def write_student(notebook: Path, target: Path | None = None) -> None:
    import nbformat

    target = target or STUDENT / notebook.name
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(student_notebook(notebook), target)


def copy_data(folder: Path) -> None:
    """The course's small files beside an edition, as notebook 02 finds them next to itself."""
    source = NOTEBOOKS / "data"
    shutil.copytree(source, folder / "data", dirs_exist_ok=True)


def _strip(nb) -> list:
    """A notebook's cells without what running it adds (to compare generated with stored)."""
    out = []
    for cell in nb.cells:
        c = copy.deepcopy(cell)
        if c.cell_type == "code":
            c.outputs, c.execution_count = [], None
        out.append(c)
    return out


def _text(nb) -> str:
    """A notebook as nbformat.write stores it."""
    import nbformat

    text = nbformat.writes(nb)
    return text if text.endswith("\n") else text + "\n"


def _shape(cell) -> tuple:
    """What a new header or Colab set-up cell may not change: every code cell but the set-up."""
    if cell.cell_type == "markdown" or "colab-setup" in tags(cell):
        return (cell.cell_type,)
    return (cell.cell_type, cell.source, tuple(tags(cell)))


def refreshed_editions(notebooks: dict[Path, object]) -> dict[Path, str]:
    """The edition files as they must be once ``notebooks`` (path -> notebook to be written) are:
    student notebooks regenerated; a workshop notebook keeps its stored outputs and takes its
    notebook's new markdown and Colab set-up cell, which print nothing a test compares (what
    ``tools.links pin`` changes). A change to any other code cell needs ``make editions``."""
    import nbformat

    out: dict[Path, str] = {}
    for notebook, nb in notebooks.items():
        if STUDENT.is_dir():
            out[STUDENT / notebook.name] = _text(student_notebook(notebook, nb))
        stored_path = WORKSHOP / notebook.name
        if not stored_path.exists() or not spine_indices(nb):
            continue
        stored = nbformat.read(stored_path, as_version=4)
        generated, _ = workshop_notebook(notebook, nb)
        if [_shape(c) for c in stored.cells] != [_shape(c) for c in generated.cells]:
            raise ValueError(f"{stored_path.relative_to(ROOT)} is out of date with its notebook: run "
                             "`make editions` first.")
        for have, want in zip(stored.cells, generated.cells, strict=True):
            if _shape(have) == (have.cell_type,):
                have.source, have.metadata = want.source, want.metadata
        stored.metadata = generated.metadata
        out[stored_path] = _text(stored)
    return out


def edition_problems() -> list[str]:
    """What differs between ``editions/`` and the notebooks (empty when in sync)."""
    import nbformat

    problems = []
    planned_workshop = {nb.name: nb for nb in course_notebooks() if spine_indices(_read(nb))}
    for folder, planned, make in (
        (WORKSHOP, planned_workshop, lambda p: workshop_notebook(p)[0]),
        (STUDENT, {nb.name: nb for nb in course_notebooks()}, student_notebook),
    ):
        for name, notebook in planned.items():
            path = folder / name
            rel = path.relative_to(ROOT)
            if not path.exists():
                problems.append(f"{rel} is missing: run `make editions`.")
                continue
            stored = nbformat.read(path, as_version=4)
            generated = make(notebook)
            if _strip(stored) != _strip(generated) or stored.metadata != generated.metadata:
                problems.append(f"{rel} differs from {notebook.relative_to(ROOT)}: the editions are "
                                "generated, never edited: run `make editions`.")
            elif folder == WORKSHOP and any(
                c.cell_type == "code" and c.source.strip() and c.execution_count is None
                for c in stored.cells
            ):
                problems.append(f"{rel} is not stored executed: run `make editions`.")
        for path in sorted(folder.glob("*.ipynb")):
            if path.name not in planned:
                problems.append(f"{path.relative_to(ROOT)} comes from no notebook's spine: delete it.")
    return problems


# --------------------------------------------------------------------------- CLI

def spine_report(notebook: Path) -> int:
    """Print a spine's minutes and cells, run it, and say which cell fails first."""
    nb = _read(notebook)
    problems = spine_problems(notebook, nb)
    if not spine_indices(nb):
        print("\n".join(problems))
        return 1
    minutes = spine_minutes(nb)
    print(f"{notebook.name}: {minutes.line()}")
    workshop, origins = workshop_notebook(notebook)
    shown = ", ".join("import" if o is None else str(o) for o in origins)
    print(f"  cells: {shown}")
    for problem in problems:
        print(f"  PROBLEM {problem}")
    low, high = _SPINE_TARGET
    if not low <= minutes.core <= high + 5:
        print(f"  NOTE core {minutes.core:.1f} min is outside {low}-{high}")
    import tempfile

    solved, pairs = with_solutions(workshop)
    with tempfile.TemporaryDirectory() as tmp:
        result = run(solved, Path(tmp))
    if result.failed_cell is not None and result.failed_cell >= len(workshop.cells):
        exercise = max(i for i, check in pairs if check >= result.failed_cell - 1)
        print(f"  SOLUTION of the exercise in notebook cell {origins[exercise]} fails in the spine: "
              f"{result.error} (the spine lacks a cell its solution needs)")
        return 1
    for exercise, check in pairs:
        if "✓" not in _printed(solved.cells[check]):
            print(f"  SOLUTION of the exercise in notebook cell {origins[exercise]} does not pass its "
                  f"check in the spine: {_printed(solved.cells[check]).strip()[:200]}")
            return 1
    solved.cells = solved.cells[:len(workshop.cells)]
    workshop = solved
    wrong = wrong_errors(nb, workshop, origins)
    for line in wrong:
        print(f"  WRONG ERROR {line}")
        k = int(line.split("(workshop cell ")[1].split(")")[0])
        evalue = next(o.get("evalue", "") for o in workshop.cells[k].outputs
                      if o.get("output_type") == "error")
        _hint(nb, f"NameError: {evalue}", origins[k])
    if result.failed_cell is None and wrong:
        return 1
    if result.failed_cell is None:
        print(f"  ran top to bottom: {sum(c.cell_type == 'code' for c in workshop.cells)} code cells, "
              f"no unexpected error; {len(pairs)} exercise solution(s) pass their checks")
        return 1 if problems else 0
    origin = origins[result.failed_cell]
    where = "the import cell" if origin is None else f"notebook cell {origin}"
    print(f"  FAILED at {where} (workshop cell {result.failed_cell}): {result.error}")
    _hint(nb, result.error, origin)
    return 1


def _hint(nb, error: str, origin: int | None) -> None:
    """For a name the spine lacks: the cells of the full notebook that define it."""
    missing = re.match(r"NameError: name '(\w+)' is not defined", error)
    if missing and origin is not None:
        found = [i for i in _defined_where(nb, missing[1], origin) if i not in spine_indices(nb)]
        if found:
            print(f"  `{missing[1]}` is defined in notebook cell(s) {found}, not in the spine: tag "
                  "one of them spine, or stop using the name")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in {"spine", "write", "check", "minutes"}:
        print("usage: python -m tools.editions spine NB | write [NB…] | check | minutes [NB…]")
        return 2
    command, rest = argv[0], [Path(a).resolve() for a in argv[1:]]
    if command == "spine":
        if not rest:
            print("usage: python -m tools.editions spine notebooks/NN_x.ipynb")
            return 2
        return max(spine_report(p) for p in rest)
    if command == "minutes":
        for path in rest or course_notebooks():
            nb = _read(path)
            print(f"{path.name:<36} " + (spine_minutes(nb).line() if spine_indices(nb) else "no spine"))
        return 0
    if command == "check":
        problems = edition_problems()
        print("\n".join(problems) if problems else "editions: match the notebooks")
        return 1 if problems else 0
    status = 0
    targets = rest or course_notebooks()
    for folder in (WORKSHOP, STUDENT):
        copy_data(folder)
    for path in targets:
        write_student(path)
        if not spine_indices(_read(path)):
            print(f"{path.name}: no spine yet, no workshop notebook")
            continue
        result = write_workshop(path)
        if result.failed_cell is not None:
            status = 1
            print(f"{path.name}: workshop cell {result.failed_cell} failed: {result.error}")
        else:
            print(f"{path.name}: written")
    if not rest:  # a full run removes what no notebook makes any more
        names = {p.name for p in course_notebooks()}
        for folder in (WORKSHOP, STUDENT):
            for path in folder.glob("*.ipynb"):
                if path.name not in names or (folder == WORKSHOP and not spine_indices(
                        _read(NOTEBOOKS / path.name))):
                    path.unlink()
    return status


if __name__ == "__main__":
    raise SystemExit(main())
