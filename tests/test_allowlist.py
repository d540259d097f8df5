"""The allowlist on every exercise (checks/allow.py): each exercise that judges a function or a
class has an ``Allow`` in its answer module, and the shipped solution and the shipped stub of every
exercise pass the reading; a prediction's cell holds its prediction only. Shortcuts that must be
refused: tests/test_shortcuts.py. Wrong solutions, run in the notebook's kernel:
tools/nbval_solutions.py."""

from __future__ import annotations

import importlib

import pytest

from retrieval_lab.checks.allow import Allow, RefusedError, prediction_cell, review_source
from tests.test_shortcuts import EXERCISES, NAMESPACE


@pytest.mark.parametrize(("number", "exercise", "kind", "stub", "solution"),
                         [pytest.param(*e, id=f"{e[0]}-ex{e[1]}") for e in EXERCISES])
def test_the_shipped_solution_and_stub_pass_the_reading(number, exercise, kind, stub, solution):
    allowed = importlib.import_module(f"retrieval_lab.checks.answers.nb{number}").ALLOWED
    for source in (solution, stub):
        if kind == "predict":
            prediction_cell(source)
            continue
        allow = allowed[f"Exercise {exercise}"]
        assert isinstance(allow, Allow)
        review_source(source, allow, NAMESPACE)
        assert any(f"def {name}" in source or f"class {name}" in source for name in allow.answers)


def test_a_refusal_names_the_line_and_what_the_exercise_allows():
    allow = Allow(answer="f", modules=["math"], names=["corpus"])
    source = "def f(x):\n    y = x + 1\n    return vars(y)\n"
    with pytest.raises(RefusedError) as refusal:
        review_source(source, allow, NAMESPACE)
    message = str(refusal.value)
    assert message.startswith("line 3 uses `vars`")
    assert "the modules math" in message and "corpus" in message


def test_helpers_the_learner_wrote_are_judged_by_the_same_rules():
    def helper(x):
        return x

    allow = Allow(answer="f", modules=["math"])
    with pytest.raises(RefusedError, match="reads `helper` from the notebook"):
        review_source("def f(x):\n    return helper(x)\n", allow, {"helper": helper})  # a module's
    helper.__module__ = "__main__"  # a function of the notebook: its source is read
    review_source("def f(x):\n    return helper(x)\n", allow, {"helper": helper})
    with pytest.raises(RefusedError, match="reads `table` from the notebook"):
        review_source("def f(x):\n    return table[x]\n", allow, {"table": {}})
