"""Wrong solutions for the exercises, and the trials that run them through their checks.

A check is a teacher only if it refuses wrong answers (DESIGN.md). Three sources of wrong answers
are tried, each in the notebook's own kernel right after nbval ran its cells
(``tools/nbval_solutions.py``):

- **hand-written wrong solutions**, one module per notebook in ``tests/exercise_mutants/``, each a
  :class:`Wrong` named for the mistake it makes (the edge inputs the exercise is about, and the
  shortcuts: the untouched stub with the harness skipped, the oracle or the real class called, an
  empty subclass, a lookup table of the cases);
- **predict probes**, made here from each predict exercise's solution: one key at a time made
  wrong (the messages must all read the same) and the answer computed instead of written (it must
  be refused with the reason);
- **mutants** (``python -m tools.mutation``): the solution with an operator swapped, a constant
  nudged or a statement dropped; at least 90 % of them must fail the check.
"""

from __future__ import annotations

import ast
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRONG_DIR = ROOT / "tests" / "exercise_mutants"
STUB = "@@the shipped stub@@"  # a Wrong whose source is the exercise cell as shipped
WRONG_VALUE = "@@a wrong prediction@@"  # equals no real answer


@dataclass(frozen=True)
class Wrong:
    """A wrong solution: it replaces exercise ``exercise``'s stub cell (numbered from 1).

    ``forget`` names are deleted from the kernel first (a harness cell the learner skipped).
    """

    exercise: int
    name: str
    source: str
    forget: tuple[str, ...] = field(default=())


@dataclass(frozen=True)
class Trial:
    """One run of an exercise's cells, from its stub to its check, with the stub replaced."""

    exercise: int
    label: str
    source: str
    forget: tuple[str, ...] = ()
    kind: str = "wrong"  # wrong · predict-key · predict-computed · mutant


def wrong_solutions(notebook: Path) -> list[Wrong]:
    """The hand-written wrong solutions of a notebook (``tests/exercise_mutants/<stem>.py``)."""
    path = WRONG_DIR / f"{notebook.stem}.py"
    if not path.exists():
        return []
    spec = importlib.util.spec_from_file_location(f"exercise_mutants_{notebook.stem}", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return list(module.WRONG)


def _prediction_function(source: str) -> tuple[ast.Module, ast.FunctionDef, ast.Dict] | None:
    """The solution's prediction function and the dict literal it returns, if it is one."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            returns = [s for s in node.body if isinstance(s, ast.Return)]
            if len(returns) == 1 and isinstance(returns[0].value, ast.Dict):
                return tree, node, returns[0].value
    return None


def predict_trials(exercise: int, solution: str) -> list[Trial]:
    """One trial per key with that key made wrong, and one with the answer computed."""
    found = _prediction_function(solution)
    if found is None:
        return []
    tree, function, literal = found
    trials = []
    for position, key in enumerate(literal.keys):
        original = literal.values[position]
        literal.values[position] = ast.Constant(WRONG_VALUE)
        label = ast.unparse(key) if key is not None else f"item {position}"
        trials.append(Trial(exercise, f"key {label} wrong", ast.unparse(tree), kind="predict-key"))
        literal.values[position] = original
    computed = ast.Call(ast.Name("dict", ast.Load()), [literal], [])
    body = function.body
    function.body = [ast.Return(computed) if isinstance(s, ast.Return) else s for s in body]
    trials.append(Trial(exercise, "answer computed", ast.unparse(ast.fix_missing_locations(tree)),
                        kind="predict-computed"))
    function.body = body
    return trials


def trials_for(notebook: Path, solutions: list[str], kinds: list[str | None]) -> list[Trial]:
    """Every wrong solution and predict probe of a notebook, in exercise order."""
    trials = [Trial(w.exercise, w.name, w.source, tuple(w.forget)) for w in wrong_solutions(notebook)]
    for number, (solution, kind) in enumerate(zip(solutions, kinds, strict=True), start=1):
        if kind == "predict":
            trials += predict_trials(number, solution)
    return sorted(trials, key=lambda t: t.exercise)
