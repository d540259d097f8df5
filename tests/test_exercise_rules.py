"""Exercises worth doing: each has a kind, and no solution is a cell above renamed (issue 23)."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from tools import nbtools
from tools.exercise_rules import MAX_COPY_SHARE, copy_share, exercise_problems, folded_tokens

NOTEBOOKS = nbtools.course_notebooks()
IDS = [p.stem[:2] for p in NOTEBOOKS]

SHOWN = '''def similarity(a: list[float], b: list[float]) -> float:
    """Cosine similarity."""
    dot = sum(x * y for x, y in zip(a, b))
    norm = (sum(x * x for x in a) ** 0.5) * (sum(y * y for y in b) ** 0.5)
    return dot / norm if norm else 0.0
'''


def _renamed(source: str) -> str:
    """The same code with every name changed and the messages reworded: what copying looks like."""
    names = {"similarity": "my_cos", "a": "left", "b": "right", "dot": "top", "norm": "bottom",
             "x": "p", "y": "q"}
    source = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: names.get(m.group(0), m.group(0)), source)
    return source.replace("Cosine similarity.", "Mine.")


def test_folding_ignores_names_strings_comments_and_layout():
    assert folded_tokens("x = 'a'  # note\n") == folded_tokens("total = \"other\"\n")
    assert folded_tokens("if x:\n    y = f'{x}'\n") == ["if", "I", ":", "I", "=", "S"]


def test_a_renamed_copy_scores_one_and_new_code_scores_low():
    assert copy_share(_renamed(SHOWN), [SHOWN]) == 1.0
    fresh = "def overlap(a, b):\n    return len(set(a) & set(b)) / max(1, len(set(a) | set(b)))\n"
    assert copy_share(fresh, [SHOWN]) <= MAX_COPY_SHARE
    assert copy_share("%time x = 1\n", ["y = 2"]) == 0.0  # a magic is not Python: dropped


def _plant(path: Path, tmp_path: Path, kind: str | None, solution: str) -> Path:
    """The notebook with one more exercise (stub, check, solution) appended after the others."""
    nb = nbformat.read(path, as_version=4)
    stub = nbformat.v4.new_code_cell("def planted():\n    raise NotImplementedError")
    stub.metadata["tags"] = ["exercise"]
    if kind:
        stub.metadata["retrieval_lab"] = {"kind": kind}
    check = nbformat.v4.new_code_cell("print('check')")
    check.metadata["tags"] = ["check"]
    shown = nbformat.v4.new_markdown_cell(
        f"<details><summary>Show a solution</summary>\n\n```python\n{solution}```\n\n</details>"
    )
    shown.metadata["tags"] = ["solution"]
    nb.cells += [stub, check, shown]
    out = tmp_path / path.name
    nbformat.write(nb, out)
    return out


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_each_exercise_has_a_kind_and_is_not_copied(notebook: Path):
    nb = nbformat.read(notebook, as_version=4)
    assert exercise_problems(nb, notebook.name, nbtools.exercises(notebook)) == []


def test_the_rules_fail_a_planted_copy_and_a_missing_kind(tmp_path):
    """A shown code cell of the notebook, renamed, planted as a solution: the copy test fails it."""
    source = NOTEBOOKS[1]
    nb = nbformat.read(source, as_version=4)
    first = min(i for i, _, _ in nbtools.exercises(source))
    shown = max((c.source for c in nb.cells[:first] if c.cell_type == "code"), key=len)
    planted = _plant(source, tmp_path, "apply", _renamed(shown) + "\n")
    problems = exercise_problems(nbformat.read(planted, as_version=4), planted.name,
                                 nbtools.exercises(planted))
    assert any("copied from the cells above" in p for p in problems), problems
    unkinded = _plant(source, tmp_path, None, "print(1)\n")
    problems = exercise_problems(nbformat.read(unkinded, as_version=4), unkinded.name,
                                 nbtools.exercises(unkinded))
    assert any("has kind None" in p for p in problems), problems


def test_a_notebook_needs_a_prediction_and_a_fix_or_feature(tmp_path):
    nb = nbformat.v4.new_notebook()
    stub = nbformat.v4.new_code_cell("x = 1")
    stub.metadata["retrieval_lab"] = {"kind": "apply"}
    nb.cells = [stub]
    problems = exercise_problems(nb, "t", [(0, 0, "y = 2\n")])
    assert any("predict" in p for p in problems) and any("debug or extend" in p for p in problems)
