"""Notebook guards: what nbval cannot see for itself.

nbval silently skips a cell stored without an execution count, so an unexecuted notebook would
"pass". These tests fail instead. Every exercise's worked solution is run through its check by
``tools/nbval_solutions.py``, in nbval's own kernel right after the notebook's cells.
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest

from tools.nbtools import _read, course_notebooks, exercises, export_problems, guard_problems

NOTEBOOKS = course_notebooks()
IDS = [nb.stem for nb in NOTEBOOKS]


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebooks/NN_name.ipynb found"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_stored_fully_executed(notebook: Path):
    assert guard_problems(notebook) == []


def test_scratch_matches_the_notebooks():
    assert export_problems() == []


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_each_notebook_has_its_parts(notebook: Path):
    """DESIGN.md's template: objectives, time, exercises with checks, key points."""
    nb = _read(notebook)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    for part in ("Objectives", "Time", "Key points"):
        assert part in text, f"{notebook.name} has no '{part}'"
    minutes = nb.metadata.get("retrieval_lab", {})
    assert {"teach_minutes", "exercise_minutes"} <= minutes.keys(), (
        f"{notebook.name}: metadata.retrieval_lab needs teach_minutes and exercise_minutes"
    )
    header = nb.cells[0].source
    assert f"teach {minutes['teach_minutes']} min" in header
    assert f"exercises {minutes['exercise_minutes']} min" in header
    if notebook.name != "00_the_pipeline.ipynb":
        assert 2 <= len(exercises(notebook)) <= 4, f"{notebook.name}: DESIGN asks for 2-4 exercises"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_stub_checks_say_not_attempted(notebook: Path):
    """As shipped, each check answers the untouched stub with 'not attempted yet'."""
    cells = _read(notebook).cells
    for _, check, _ in exercises(notebook):
        shown = "".join(
            o.get("text", "") or o.get("data", {}).get("text/plain", "")
            for o in cells[check].get("outputs", [])
        )
        assert "not attempted yet" in shown, f"{notebook.name}: check cell {check} shows {shown!r}"


def test_tests_draw_headless_but_leave_the_kernels_inline():
    import matplotlib

    assert matplotlib.get_backend().lower() == "agg"
    assert "MPLBACKEND" not in os.environ, "nbval's kernels would inherit it and store no figures"


def _hints(source: str) -> list[str]:
    """The text of every ``hint=`` argument in a check cell (f-string literal parts included)."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        for keyword in getattr(node, "keywords", []):
            if keyword.arg == "hint":
                parts = [n.value for n in ast.walk(keyword.value)
                         if isinstance(n, ast.Constant) and isinstance(n.value, str)]
                found.append("".join(parts))
    return found


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_hints_point_to_the_idea_not_the_code(notebook: Path):
    """No line of a worked solution (12 characters or more, not a comment) appears in its hint."""
    cells = _read(notebook).cells
    for _, check, solution in exercises(notebook):
        hints = " ".join(_hints(cells[check].source))
        flat = " ".join(hints.split())
        for line in solution.splitlines():
            code = " ".join(line.split())
            if len(code) >= 12 and not code.startswith(("#", "def ", "return ", "pass")):
                assert code not in flat, f"{notebook.name}: the hint of check cell {check} gives away {code!r}"


_TOKEN = re.compile(r"\w+|[^\w\s]")


def _code_shingles(code: str, size: int = 4) -> set[tuple[str, ...]]:
    """Runs of ``size`` tokens of a solution's code, its comments and strings left out."""
    import tokenize

    kept: list[str] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type in (tokenize.NAME, tokenize.OP, tokenize.NUMBER):
                kept.append(tok.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        kept = _TOKEN.findall(code)
    return {tuple(kept[i : i + size]) for i in range(len(kept) - size + 1)}


def _reads_as_code(run: tuple[str, ...]) -> bool:
    """A run of tokens is code, not prose, when it holds an operator or a call."""
    return any(not t.isalnum() and t not in {",", ".", ";", ":", "-", "'", '"'} for t in run) or (
        "." in run and "(" in run
    )


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_hints_hold_no_expression_of_the_solution(notebook: Path):
    """Stronger than the line test: no four-token run of the solution's code that reads as
    code (an operator, a call, an index) appears in its hint, however it is spaced."""
    cells = _read(notebook).cells
    for _, check, solution in exercises(notebook):
        hint_tokens = _TOKEN.findall(" ".join(_hints(cells[check].source)))
        hint_runs = {tuple(hint_tokens[i : i + 4]) for i in range(len(hint_tokens) - 3)}
        shared = sorted(r for r in hint_runs & _code_shingles(solution) if _reads_as_code(r))
        assert not shared, (
            f"{notebook.name}: the hint of check cell {check} holds solution code "
            f"{[' '.join(r) for r in shared]}: point to the idea instead"
        )


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_every_exercise_has_three_wrong_solutions(notebook: Path):
    """Issue 30: each exercise keeps at least three hand-written wrong solutions in
    tests/exercise_mutants/<notebook>.py (the nbval run refuses each through its check)."""
    from collections import Counter

    from tools.mutants import wrong_solutions

    counts = Counter(w.exercise for w in wrong_solutions(notebook))
    names = Counter((w.exercise, w.name) for w in wrong_solutions(notebook))
    assert not [k for k, n in names.items() if n > 1], f"{notebook.name}: two wrong solutions share a name"
    short = {n: counts[n] for n in range(1, len(exercises(notebook)) + 1) if counts[n] < 3}
    assert not short, f"{notebook.name}: exercises with fewer than 3 wrong solutions: {short}"
    assert set(counts) <= set(range(1, len(exercises(notebook)) + 1)), f"{notebook.name}: a Wrong names no exercise"


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=IDS)
def test_predictions_are_written_literals(notebook: Path):
    """Every predict exercise is a function returning a dict literal, checked by check_prediction."""
    from tools.mutants import predict_trials

    cells = _read(notebook).cells
    for number, (stub, check, solution) in enumerate(exercises(notebook), start=1):
        if cells[stub].metadata.get("retrieval_lab", {}).get("kind") != "predict":
            continue
        where = f"{notebook.name}: exercise {number}"
        assert "check_prediction(" in cells[check].source, f"{where} is a predict not checked by check_prediction"
        assert predict_trials(number, solution), f"{where}'s solution is not a function returning a dict literal"
