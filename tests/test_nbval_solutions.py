"""tools/nbval_solutions.py: after nbval's cells, the solutions run through their checks, and can fail."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import nbformat

from tools.nbtools import ROOT
from tools.nbval_solutions import solution_run

_STUB = "def double(x: int) -> int:\n    raise NotImplementedError  # your code here"
_CHECK = ('check_value("double", lambda: double(21),\n'
          '            problems=lambda v: None if v == 42 else f"double(21) gave {v!r}, not 42",\n'
          '            hint="twice the number")')


def _exercise(name: str, solution: str) -> list:
    """One exercise in the course's shape: stub, check, then the worked solution."""
    return [
        nbformat.v4.new_code_cell(_STUB.replace("double", name), metadata={"tags": ["exercise"]}),
        nbformat.v4.new_code_cell(_CHECK.replace("double", name), metadata={"tags": ["check"]}),
        nbformat.v4.new_markdown_cell(
            f"<details><summary>Show a solution</summary>\n\n```python\n{solution.replace('double', name)}\n```"
            "\n\n</details>",
            metadata={"tags": ["solution"]},
        ),
    ]


def _notebook(path: Path) -> Path:
    """Two exercises: the first solution is right, the second is wrong."""
    cells = [nbformat.v4.new_code_cell("from retrieval_lab.checks import check_value")]
    cells += _exercise("double", "def double(x: int) -> int:\n    return 2 * x\n")
    cells += _exercise("twice", "def double(x: int) -> int:\n    return x + 2\n")
    nbformat.write(nbformat.v4.new_notebook(cells=cells), path)
    return path


def test_the_run_starts_at_the_first_exercise_with_the_stubs_replaced(tmp_path):
    run = solution_run(_notebook(tmp_path / "exercises.ipynb"))
    assert [(i, is_check) for i, _, is_check, _ in run] == [(1, False), (2, True), (4, False), (5, True)]
    assert "return 2 * x" in run[0][1] and "return x + 2" in run[2][1]


def test_a_wrong_solution_fails_the_item_and_only_it_is_named(tmp_path):
    """One kernel, after nbval's cells: the right solution passes its check, the wrong one is reported."""
    _notebook(tmp_path / "exercises.ipynb")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "tools", "-p", "tools.nbval_solutions",
         "--nbval",
         "--nbval-current-env", "-v", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    out = done.stdout
    assert re.search(r"exercises\W+ipynb::Cell 4 PASSED", out), out[-3000:]  # nbval's cells ran first
    assert re.search(r"exercises\W+ipynb::solutions pass their checks FAILED", out), out[-3000:]
    assert "cell 5: ✗ twice: twice(21) gave 23, not 42" in out, out[-3000:]
    assert "cell 2:" not in out
