"""The notebook guard's course rules, each shown failing on a small notebook made here."""

from __future__ import annotations

import traceback
from pathlib import Path

import nbformat
import pytest

from tools import nbtools


def notebook(tmp_path: Path, code: list[str], prose: str = "Some words.", teach: int = 5) -> Path:
    """A stored, executed notebook that passes every guard unless ``code`` breaks a rule."""
    header = f"# 99 · Test\n\n**Time**: teach {teach} min · exercises 0 min\n\n{prose}"
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": nbtools.KERNEL_NAME, "display_name": "x", "language": "python"}
    nb.metadata["retrieval_lab"] = {"teach_minutes": teach, "exercise_minutes": 0}
    nb.cells = [nbformat.v4.new_markdown_cell(header)]
    for count, source in enumerate(code, start=1):
        cell = nbformat.v4.new_code_cell(source, execution_count=count)
        nb.cells.append(cell)
    path = tmp_path / "99_test.ipynb"
    nbformat.write(nb, path)
    return path


def test_a_compliant_notebook_passes(tmp_path):
    assert nbtools.guard_problems(notebook(tmp_path, ["x = 1", "print(x)"])) == []


def test_a_31_line_cell_fails(tmp_path):
    long_cell = "\n".join(f"x{i} = {i}" for i in range(31))
    problems = nbtools.guard_problems(notebook(tmp_path, [long_cell], teach=5))
    assert any("31 lines" in p and "limit is 30" in p for p in problems), problems


def test_a_30_line_cell_passes(tmp_path):
    cell = "\n".join(f"x{i} = {i}" for i in range(30))
    assert nbtools.guard_problems(notebook(tmp_path, [cell], teach=5)) == []


def test_an_89_character_line_fails(tmp_path):
    problems = nbtools.guard_problems(notebook(tmp_path, ["x = '" + "a" * 83 + "'"]))
    assert any("over 88 characters" in p for p in problems), problems


def test_a_stated_time_other_than_the_estimate_fails(tmp_path):
    prose = " ".join(["word"] * 600)  # 7.5 minutes of reading: the estimate is 10
    problems = nbtools.guard_problems(notebook(tmp_path, ["x = 1"], prose=prose, teach=5))
    assert any("needs 10 / 0" in p for p in problems), problems
    problems = nbtools.guard_problems(notebook(tmp_path, ["x = 1"], prose=prose, teach=15))
    assert any("needs 10 / 0" in p for p in problems), problems  # too generous is wrong too


def test_header_and_metadata_must_agree_on_the_time(tmp_path):
    path = notebook(tmp_path, ["x = 1"])
    nb = nbformat.read(path, as_version=4)
    nb.metadata["retrieval_lab"]["teach_minutes"] = 15
    nbformat.write(nb, path)
    assert any("states teach None" in p for p in nbtools.guard_problems(path))


@pytest.mark.parametrize(
    ("words", "code_lines", "expected"),
    [(0, 0, 5), (80, 7, 5), (401, 0, 10), (800, 70, 20), (1600, 71, 35)],
)
def test_the_estimate_is_words_over_80_plus_code_over_7_rounded_up_to_5(words, code_lines, expected):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(" ".join(["w"] * words))]
    nb.cells.append(nbformat.v4.new_code_cell("\n".join(["x = 1"] * code_lines)))
    assert nbtools.teach_estimate(nb) == expected


def _with_deep_dive(path: Path, words: int, collapsed: bool = True) -> None:
    nb = nbformat.read(path, as_version=4)
    heading = nbformat.v4.new_markdown_cell("## Deep dive: more\n\n" + " ".join(["w"] * words))
    if collapsed:
        heading.metadata["jp-MarkdownHeadingCollapsed"] = True
    nb.cells.append(heading)
    nbformat.write(nb, path)


def test_a_core_over_75_minutes_fails_and_a_deep_dive_is_timed_apart(tmp_path):
    long = " ".join(["word"] * 6100)  # 76 minutes of reading
    problems = nbtools.guard_problems(notebook(tmp_path, ["x = 1"], prose=long, teach=80))
    assert any("over the course's 75" in p for p in problems), problems
    path = notebook(tmp_path, ["x = 1"], prose="Some words.", teach=5)
    _with_deep_dive(path, 6100)
    nb = nbformat.read(path, as_version=4)
    assert (nbtools.teach_estimate(nb), nbtools.deep_dive_estimate(nb)) == (5, 80)
    nbtools.write_times(path)
    nb = nbformat.read(path, as_version=4)
    assert "deep dives 80 min (optional)" in nb.cells[0].source
    assert nb.metadata["retrieval_lab"]["deep_dive_minutes"] == 80
    assert nbtools.guard_problems(path) == []


def test_a_deep_dive_must_be_collapsed_and_last(tmp_path):
    path = notebook(tmp_path, ["x = 1"])
    _with_deep_dive(path, 10, collapsed=False)
    nbtools.write_times(path)
    assert any("not collapsed" in p for p in nbtools.guard_problems(path))
    nb = nbformat.read(path, as_version=4)
    nb.cells[-1].metadata["jp-MarkdownHeadingCollapsed"] = True
    nb.cells.append(nbformat.v4.new_markdown_cell("## Key points\n\nMore."))
    nbformat.write(nb, path)
    nbtools.write_times(path)
    assert any("must come after everything" in p for p in nbtools.guard_problems(path))
    nb.cells[-1].source = "## Clean up: stop the server\n\nMore."
    nbformat.write(nb, path)
    nbtools.write_times(path)
    assert nbtools.guard_problems(path) == []


def test_every_course_notebook_states_an_honest_time_and_a_core_of_75_minutes():
    for path in nbtools.course_notebooks():
        nb = nbformat.read(path, as_version=4)
        assert nbtools.time_problems(nb, path.name) == []


def test_a_traceback_from_a_scratch_class_names_its_notebook_cell():
    from retrieval_lab.scratch import Document

    with pytest.raises(TypeError) as raised:
        Document(page_content=3)
    frame = traceback.extract_tb(raised.value.__traceback__)[-1]
    # The traceback itself names the cell (retrieval_lab.runtime.cells), after the module's own path ...
    module, _, named = frame.filename.partition(" (from ")
    where = named.removesuffix(")")
    assert where.startswith("notebooks/01_document.ipynb, cell "), frame.filename
    # ... and the marker in the generated module, read by `python -m tools.nbtools where`, agrees.
    assert nbtools.cell_of(Path(module), frame.lineno) == where
    index = int(where.rsplit(" ", 1)[1])
    cell = nbformat.read(nbtools.NOTEBOOKS / "01_document.ipynb", as_version=4).cells[index]
    assert "export" in nbtools.tags(cell) and frame.line.strip() in cell.source


def test_export_refuses_two_private_helpers_of_one_name_with_different_bodies(tmp_path):
    def exporting(name: str, source: str) -> Path:
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(source, metadata={"tags": ["export"]})]
        path = tmp_path / name
        nbformat.write(nb, path)
        return path

    same = "def _helper(x):\n    return x + 1\n"
    first, second = exporting("01_a.ipynb", same), exporting("02_b.ipynb", same + "\n# a comment\n")
    nbtools.planned_exports([first, second])  # the same body twice is allowed (comments are not code)
    third = exporting("03_c.ipynb", "def _helper(x):\n    return x + 2\n")
    with pytest.raises(ValueError, match=r"_helper is defined in both 01_a\.ipynb and 03_c\.ipynb"):
        nbtools.planned_exports([first, third])


def test_a_picture_without_alt_text_fails_and_one_with_it_passes(tmp_path):
    path = notebook(tmp_path, ["x = 1"])
    nb = nbformat.read(path, as_version=4)
    picture = nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo=", "text/plain": "x"})
    nb.cells[1].outputs = [picture]
    nbformat.write(nb, path)
    assert any("no alt text" in p for p in nbtools.guard_problems(path))
    nb.cells[1].outputs[0].metadata = {"image/png": {"alt": "a red dot"}}
    nbformat.write(nb, path)
    assert nbtools.guard_problems(path) == []


def test_exercise_minutes_are_reading_plus_thinking_by_kind(tmp_path):
    """Issue 34: an exercise's minutes are its cells read at the core's rates plus thinking time
    by kind (predict 5, debug 10, extend 10, apply 15); check cells are run, not read."""
    path = notebook(tmp_path, ["x = 1"])
    nb = nbformat.read(path, as_version=4)
    nb.cells.append(nbformat.v4.new_markdown_cell("## Your turn\n\n" + " ".join(["w"] * 160)))
    for kind in ("predict", "apply"):
        stub = nbformat.v4.new_code_cell("def f():\n    raise NotImplementedError", execution_count=None)
        stub.metadata = {"tags": ["exercise"], "retrieval_lab": {"kind": kind}}
        check = nbformat.v4.new_code_cell("\n".join(["check = 1"] * 70))
        check.metadata = {"tags": ["check"]}
        nb.cells += [stub, check]
    assert nbtools.exercise_estimate(nb) == 25  # 2 + 4/7 minutes of reading, 20 of thinking
    nb.cells[-2].metadata["retrieval_lab"]["kind"] = "debug"
    assert nbtools.exercise_estimate(nb) == 20


def test_normalise_makes_stored_outputs_portable():
    """What make execute stores must not depend on the machine, the path or the load."""
    from nbformat.v4 import new_code_cell, new_notebook, new_output

    from tools.nbtools import ROOT, normalise

    cell = new_code_cell("print('a'); print('b'); 1/0", execution_count=1)
    cell.metadata["execution"] = {"iopub.execute_input": "2026-12-02T10:00:00"}
    cell.outputs = [
        new_output("stream", name="stdout", text="a\n"),
        new_output("stream", name="stdout", text="b\n"),
        new_output("error", ename="ZeroDivisionError", evalue="division by zero",
                   traceback=["File /opt/x/.venv/lib/python3.12/site-packages/m.py:1", f"File {ROOT}/src/m.py:2",
                              "File ~/.pyenv/versions/3.11.7/lib/python3.11/pathlib.py:1058, in Path.read_text"]),
    ]
    nb = new_notebook(cells=[cell], metadata={"widgets": {"state": {}}})
    normalise(nb)
    assert [o["output_type"] for o in cell.outputs] == ["stream", "error"]
    assert cell.outputs[0]["text"] == "a\nb\n"
    assert cell.outputs[1]["traceback"] == [
        "File site-packages/m.py:1", "File src/m.py:2", "File python3.11/pathlib.py:1058, in Path.read_text"
    ]
    assert "execution" not in cell.metadata and "widgets" not in nb.metadata
    assert nb.metadata["kernelspec"]["name"] == "retrieval-lab"

