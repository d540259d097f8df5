"""tools.mutants: the mutants and predict probes that try the exercise checks."""

from __future__ import annotations

import ast

from tools.mutants import WRONG_VALUE, mutants, predict_trials

SOLUTION = '''
import math

def angle(a, b):
    """Degrees between two vectors."""
    dot = sum(x * y for x, y in zip(a, b))
    if not dot and a == b:
        return 0.0
    return math.degrees(math.acos(dot / 2))
'''


def test_mutants_swap_nudge_and_drop_but_spare_docstrings_and_imports():
    labels = [label for label, _ in mutants(SOLUTION)]
    assert any("Mult -> Div" in label for label in labels)
    assert any("Eq -> NotEq" in label for label in labels)
    assert any("2 -> 3" in label for label in labels)
    assert any("Not dropped" in label for label in labels)
    assert any("dropped" in label and "dot =" in label for label in labels)
    for _, source in mutants(SOLUTION):
        tree = ast.parse(source)
        assert isinstance(tree.body[0], ast.Import)
        assert ast.get_docstring(tree.body[1]) == "Degrees between two vectors."
        assert source != ast.unparse(ast.parse(SOLUTION))


def test_predict_probes_make_one_key_wrong_at_a_time_and_one_computed():
    solution = 'def prediction() -> dict:\n    return {"A": 1, "B": "x"}\n'
    trials = predict_trials(2, solution)
    assert [t.kind for t in trials] == ["predict-key", "predict-key", "predict-computed"]
    first = ast.literal_eval(ast.parse(trials[0].source).body[0].body[0].value)
    assert first == {"A": WRONG_VALUE, "B": "x"}
    assert "dict({" in trials[2].source and all(t.exercise == 2 for t in trials)
    assert predict_trials(1, "prediction = {'A': 1}") == []
