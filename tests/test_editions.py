"""The editions (tools/editions.py) are generated from the notebooks and never edited by hand.

The workshop edition's outputs are checked by nbval in `make test` (it runs editions/workshop);
here: the stored editions are what the notebooks make now, the student edition holds no solution,
and the generator's rules hold on small notebooks made for the test.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import nbformat
import pytest

from tools import editions
from tools.nbtools import course_notebooks, planned_exports, tags

NOTEBOOKS = course_notebooks()


def test_the_editions_are_what_the_notebooks_make():
    """As the scratch export is guarded: regenerate in memory, compare with the committed files."""
    assert editions.edition_problems() == []


def test_the_student_edition_holds_no_solution_and_switches_the_checks():
    for path in sorted(editions.STUDENT.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        assert not [c for c in nb.cells if "solution" in tags(c)], path.name
        assert not any("<summary>Show a solution" in c.source for c in nb.cells), path.name
        switch = next(c for c in nb.cells if c.cell_type == "code")
        assert editions.STUDENT_SWITCH in switch.source and '"student"' in switch.source, path.name
        assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), path.name


def test_each_workshop_import_names_what_the_scratch_module_holds():
    """The one-line imports of the workshop edition import names that exist, finished."""
    for path in sorted(editions.WORKSHOP.glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code" or not cell.source.startswith(editions.IMPORT_NOTE):
                continue
            for node in ast.parse(cell.source).body:
                if isinstance(node, ast.ImportFrom) and node.module.startswith("retrieval_lab.scratch."):
                    module = importlib.import_module(node.module)
                    missing = [a.name for a in node.names if not hasattr(module, a.name)]
                    assert not missing, (path.name, node.module, missing)


def test_every_workshop_notebook_comes_from_a_spine():
    made = {p.name for p in NOTEBOOKS if editions.spine_indices(nbformat.read(p, as_version=4))}
    assert {p.name for p in editions.WORKSHOP.glob("*.ipynb")} == made


# --------------------------------------------------------------------------- the generator's rules

def _notebook(tmp_path: Path, cells: list[tuple[str, str, list[str]]], name: str = "01_document.ipynb"):
    nb = nbformat.v4.new_notebook()
    for kind, source, cell_tags in cells:
        make = nbformat.v4.new_markdown_cell if kind == "md" else nbformat.v4.new_code_cell
        cell = make(source)
        if cell_tags:
            cell.metadata["tags"] = cell_tags
        nb.cells.append(cell)
    nb.metadata["kernelspec"] = {"name": "retrieval-lab", "display_name": "Python 3 (retrieval-lab)",
                                 "language": "python"}
    path = tmp_path / name
    nbformat.write(nb, path)
    return path


HEADER = ("md", "# 01 · Document\n\n**Time**: teach 50 min · exercises 40 min\n\n"
          "[glossary](../docs/glossary.md)", ["spine"])


def test_an_export_cell_left_out_becomes_one_import_of_its_finished_names(tmp_path):
    path = _notebook(tmp_path, [
        HEADER,
        ("code", "from collections.abc import Mapping\nfrom typing import Any\n\n"
                 "def _checked(value: Any) -> Mapping:\n    return value\n\n"
                 "class Document:\n    pass\n\nLIMIT = 3", ["export"]),
        ("code", "_helper = 1", ["export"]),
        ("code", "doc = Document()\nprint(_checked(Any), LIMIT)", ["spine"]),
    ])
    nb, origins = editions.workshop_notebook(path)
    assert origins == [0, None, 3]
    assert nb.cells[1].source == (
        f"{editions.IMPORT_NOTE}\n"
        "from typing import Any\n\n"
        "from retrieval_lab.scratch.document import LIMIT, Document, _checked"
    ), "public names always; a private name, a constant or an import only when a later cell uses it"
    assert "../../docs/glossary.md" in nb.cells[0].source, "links made to work from editions/workshop/"
    assert "**Time**: about" in nb.cells[0].source and "teach 50 min" not in nb.cells[0].source
    assert nb.cells[2].outputs == [] and nb.cells[2].execution_count is None
    assert "spine" not in nb.cells[2].metadata.get("tags", [])


def test_a_method_left_out_of_a_spine_that_defines_its_class_is_refused(tmp_path):
    path = _notebook(tmp_path, [
        HEADER,
        ("code", "class Document:\n    pass", ["export", "spine"]),
        ("code", "@add_to_class(Document)\ndef __eq__(self, other):\n    return True", ["export"]),
        ("code", "Document() == Document()", ["spine"]),
    ])
    [problem] = editions.spine_problems(path)
    assert "cell 2 adds methods to Document" in problem and "whole build" in problem


def test_a_notebook_without_a_spine_says_so(tmp_path):
    path = _notebook(tmp_path, [("md", "# 01 · Document", []), ("code", "1", [])])
    assert editions.spine_problems(path) == ["01_document.ipynb: no cell is tagged `spine`."]


def test_the_spine_minutes_count_spine_cells_at_the_course_rates(tmp_path):
    words = " ".join(["word"] * 160)  # 2 minutes of prose
    code = "\n".join(f"x{n} = {n}" for n in range(14))  # 2 minutes of code
    path = _notebook(tmp_path, [
        ("md", f"# 01 · Document\n\n{words}", ["spine"]),
        ("code", code, ["spine"]),
        ("md", words, []),  # not in the spine: not counted
        ("md", "**Predict** what it prints.", ["spine"]),
    ])
    minutes = editions.spine_minutes(nbformat.read(path, as_version=4))
    assert minutes.core == pytest.approx(2 + 2 + 2 + 8 / 80)  # + the title and "Predict" lines
    assert minutes.exercise == 0 and minutes.total == 10


def test_a_wrong_error_in_a_raises_exception_cell_is_named(tmp_path):
    """A NameError where the notebook stores the surprise's error means the spine lacks a cell."""
    path = _notebook(tmp_path, [HEADER, ("code", "real.delete(None)", ["raises-exception", "spine"])])
    source = nbformat.read(path, as_version=4)
    source.cells[1].outputs = [nbformat.v4.new_output("error", ename="NotImplementedError", evalue="",
                                                      traceback=[])]
    edition, origins = editions.workshop_notebook(path)
    edition.cells[1].outputs = [nbformat.v4.new_output("error", ename="NameError", evalue="", traceback=[])]
    [wrong] = editions.wrong_errors(source, edition, origins)
    assert "raised NameError, the notebook stores NotImplementedError" in wrong


def test_generation_is_byte_for_byte_the_same_twice():
    for path in NOTEBOOKS[:3]:
        first, second = (editions._text(editions.student_notebook(path)) for _ in range(2))
        assert first == second
        if editions.spine_indices(nbformat.read(path, as_version=4)):
            a, b = (editions._text(editions.workshop_notebook(path)[0]) for _ in range(2))
            assert a == b


def test_every_export_a_workshop_import_may_need_is_planned():
    """The imports come from the modules the notebooks export (planned_exports)."""
    modules = {p.stem for p in planned_exports()}
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        if any("export" in tags(c) for c in nb.cells):
            assert editions.module_name(path) in modules
