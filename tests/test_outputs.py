"""tools.outputs: the browser test's other-CPU check compares outputs by nbval's rules."""

from __future__ import annotations

import copy
import re

import nbformat
import pytest

from tools.nbtools import course_notebooks
from tools.outputs import differences

NOTEBOOK = course_notebooks()[1]


def _shown(nb: nbformat.NotebookNode) -> list[list[dict]]:
    """The outputs as JupyterLab's model hands them over: plain dicts, text as given."""
    return [[dict(o) for o in c.get("outputs", [])] if c.cell_type == "code" else [] for c in nb.cells]


def _first_cell_with(nb, output_type: str) -> int:
    return next(i for i, c in enumerate(nb.cells)
                if c.cell_type == "code" and c.execution_count is not None
                and "nbval-ignore-output" not in c.metadata.get("tags", [])
                and any(o.output_type == output_type for o in c.outputs))


@pytest.fixture
def stored() -> nbformat.NotebookNode:
    return nbformat.read(NOTEBOOK, as_version=4)


def test_a_notebook_agrees_with_itself(stored):
    assert differences(stored, _shown(stored)) == {}


def test_a_changed_line_is_found_and_shown_as_a_diff(stored):
    shown = _shown(stored)
    i = _first_cell_with(stored, "stream")
    k = next(j for j, o in enumerate(shown[i]) if o["output_type"] == "stream")
    shown[i][k] = {**shown[i][k], "text": shown[i][k]["text"] + "one more line\n"}
    found = differences(stored, shown)
    assert list(found) == [i]
    assert "+one more line" in found[i]


def test_split_streams_and_text_as_lines_count_as_the_same(stored):
    shown = _shown(stored)
    i = _first_cell_with(stored, "stream")
    k = next(j for j, o in enumerate(shown[i]) if o["output_type"] == "stream")
    text = shown[i][k]["text"]
    head, tail = text[: len(text) // 2], text[len(text) // 2:]
    shown[i][k: k + 1] = [{**shown[i][k], "text": [head]}, {**shown[i][k], "text": tail}]
    assert differences(stored, shown) == {}


def test_what_nbval_sanitizes_or_skips_does_not_count(stored):
    changed = copy.deepcopy(stored)
    i = _first_cell_with(changed, "stream")
    changed.cells[i].outputs.append(nbformat.v4.new_output(
        "stream", name="stdout", text="id 123e4567-e89b-12d3-a456-426614174000 at 0x7f00\n"))
    shown = _shown(changed)
    shown[i][-1] = {**shown[i][-1], "text": "id 00000000-0000-0000-0000-000000000000 at 0xdead\n"}
    changed.cells[i].outputs.append(nbformat.v4.new_output("display_data", data={"image/png": "AAAA"}))
    shown[i].append({"output_type": "display_data", "data": {"image/png": "BBBB"}, "metadata": {}})
    assert differences(changed, shown) == {}


def test_a_missing_output_is_found(stored):
    shown = _shown(stored)
    i = _first_cell_with(stored, "stream")
    shown[i] = []
    assert list(differences(stored, shown)) == [i]


def test_cells_tagged_ignore_output_are_left_out(stored):
    tagged = copy.deepcopy(stored)
    i = _first_cell_with(tagged, "stream")
    tagged.cells[i].metadata.setdefault("tags", []).append("nbval-ignore-output")
    shown = _shown(tagged)
    shown[i] = [{"output_type": "stream", "name": "stdout", "text": "anything\n"}]
    assert differences(tagged, shown) == {}
    assert list(differences(stored, shown)) == [i]


def test_a_run_of_another_length_is_refused_with_the_counts(stored):
    with pytest.raises(ValueError, match=r"shows 1 cells, the stored notebook has \d+"):
        differences(stored, [[]])


# A path of this machine in a stored output: a home (~/ or /root/, /home/), a temporary or work
# folder, or an interpreter's own install. `make execute` strips site-packages, the standard library
# and the repository root (tools.nbtools._portable); anything else would change on every machine.
_MACHINE_PATH = re.compile(r"(?<![\w.])(~/|/root/|/home/|/tmp/|/work/|/opt/|/usr/lib/python|\.pyenv/)")


def machine_paths(nb) -> list[str]:
    """Each stored text output (pictures aside) that shows a machine path, as 'cell N: …'."""
    found = []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            texts = [out.get("text", ""), out.get("evalue", ""), *out.get("traceback", [])]
            texts += [v for k, v in out.get("data", {}).items() if not k.startswith("image/")]
            for text in texts:
                text = "".join(text) if isinstance(text, list) else str(text)
                if match := _MACHINE_PATH.search(text):
                    found.append(f"cell {i}: …{text[max(0, match.start() - 30):match.end() + 30]}…")
    return found


@pytest.mark.parametrize("notebook", course_notebooks(), ids=lambda p: p.stem)
def test_no_stored_output_shows_a_machine_path(notebook):
    assert machine_paths(nbformat.read(notebook, as_version=4)) == []


def test_a_machine_path_is_found(stored):
    planted = copy.deepcopy(stored)
    cell = next(c for c in planted.cells if c.cell_type == "code")
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="File ~/.pyenv/x/lib/a.py\n")]
    assert machine_paths(planted) and "~/.pyenv" in machine_paths(planted)[0]
