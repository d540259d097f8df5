"""tools.mutants: the mutants, predict probes and wrong solutions (as edits) that try the exercise checks."""

from __future__ import annotations

import ast

import pytest

from tools.mutants import WRONG_VALUE, EditError, Wrong, mutants, predict_trials

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


# --------------------------------------------------------------------------- wrong solutions as edits

EDITED = '''def relevance(similarity: float) -> float:
    """A cosine in [-1, 1] as a relevance in [0, 1]."""
    return (similarity + 1.0) / 2.0  # a straight line
'''


def _resolve(*wrong, solution=EDITED):
    """The wrong solutions of one exercise, resolved as ``wrong_solutions`` does."""
    done = {}
    for w in wrong:
        done[w.name] = w.resolved(solution, "99_demo.ipynb", dict(done))
    return list(done.values())


def test_an_edit_changes_the_solution_without_its_docstrings_and_if_asked_its_hints():
    [clipped] = _resolve(Wrong.edit(1, "clipped", ("(similarity + 1.0) / 2.0", "max(0.0, similarity)")))
    assert clipped.source == ("def relevance(similarity: float) -> float:\n"
                              "    return max(0.0, similarity)  # a straight line\n")
    [bare] = _resolve(Wrong.edit(1, "bare", ("/ 2.0", "/ 3.0"), hints=False))
    assert bare.source.startswith("def relevance(similarity):\n    return (similarity + 1.0) / 3.0")
    first, second = _resolve(Wrong.edit(1, "first", ("+ 1.0", "- 1.0"), hints=False, forget=("np",)),
                             Wrong.edit(1, "second", ("/ 2.0", "* 2.0"), like="first"))
    assert first.forget == ("np",) and not first.replace
    assert "(similarity - 1.0) * 2.0" in second.source


def test_an_edit_whose_text_is_missing_or_found_twice_names_where_and_what():
    with pytest.raises(EditError, match=r"99_demo\.ipynb, exercise 1, wrong solution 'gone': 'similarity \* 2' "
                                        r"occurs 0 times in the solution"):
        _resolve(Wrong.edit(1, "gone", ("similarity * 2", "similarity")))
    with pytest.raises(EditError, match=r"wrong solution 'twice': 'similarity' occurs 2 times in the solution"):
        _resolve(Wrong.edit(1, "twice", ("similarity", "x")))
    with pytest.raises(EditError, match=r"'A cosine' occurs 0 times in the solution \(docstrings left out\)"):
        _resolve(Wrong.edit(1, "docstring", ("A cosine", "A sine")))
    with pytest.raises(EditError, match=r"'-> float' occurs 0 times in the solution \(docstrings left out, type "):
        _resolve(Wrong.edit(1, "hint", ("-> float", "-> int"), hints=False))
    with pytest.raises(EditError, match="no earlier wrong solution 'later'"):
        _resolve(Wrong.edit(1, "early", ("/ 2.0", "/ 3.0"), like="later"))


def test_an_edit_that_gives_back_the_solution_is_refused():
    for wrong in (
        Wrong.edit(1, "layout_only", ("(similarity + 1.0) / 2.0", "(similarity+1.0)/2.0")),
        Wrong.edit(1, "comment_only", ("# a straight line", "# a line")),
        Wrong.edit(1, "there_and_back", ("/ 2.0", "/ 3.0"), ("/ 3.0", "/ 2.0")),
        Wrong.edit(1, "hint_only", ("similarity: float", "similarity: int")),
    ):
        with pytest.raises(EditError, match=f"wrong solution '{wrong.name}': the edit gives back the solution"):
            _resolve(wrong)
    with pytest.raises(EditError, match="changes nothing in wrong solution 'base'"):
        _resolve(Wrong.edit(1, "base", ("/ 2.0", "/ 3.0")), Wrong.edit(1, "same", ("3.0", "3.00"), like="base"))
    with pytest.raises(ValueError, match="a source or replacements"):
        Wrong(1, "neither", "")


def test_wrong_solutions_resolves_edits_against_the_notebooks_solutions(tmp_path, monkeypatch):
    import tools.mutants as mutants

    (tmp_path / "99_demo.py").write_text(
        "from tools.mutants import STUB, Wrong\n\n"
        "WRONG = [\n"
        '    Wrong(1, "stub", STUB, forget=("np",)),\n'
        '    Wrong.edit(1, "halved", ("/ 2.0", "/ 4.0")),\n'
        '    Wrong.edit(2, "tripled", ("n * 2", "n * 3")),\n'
        "]\n")
    monkeypatch.setattr(mutants, "WRONG_DIR", tmp_path)
    notebook = tmp_path / "99_demo.ipynb"
    double = "def double(n):\n    return n * 2\n"
    stub, halved, tripled = mutants.wrong_solutions(notebook, [EDITED, double])
    assert (stub.source, stub.forget) == (mutants.STUB, ("np",))
    assert "(similarity + 1.0) / 4.0" in halved.source and tripled.source == "def double(n):\n    return n * 3\n"
    trials = mutants.trials_for(notebook, [EDITED, double], [None, None])
    assert [(t.exercise, t.label) for t in trials] == [(1, "stub"), (1, "halved"), (2, "tripled")]
    with pytest.raises(mutants.EditError, match=r"99_demo\.ipynb, exercise 2, wrong solution 'tripled': 'n \* 2'"):
        mutants.trials_for(notebook, [EDITED, "def double(n):\n    return 2 * n\n"], [None, None])
    with pytest.raises(mutants.EditError, match="edits exercise 2, which has no solution"):
        mutants.wrong_solutions(notebook, [EDITED])
