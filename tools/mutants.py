"""Wrong solutions for the exercises, and the trials that run them through their checks.

A check is a teacher only if it refuses wrong answers (DESIGN.md). Three sources of wrong answers
are tried, each in the notebook's own kernel right after nbval ran its cells
(``tools/nbval_solutions.py``):

- **hand-written wrong solutions**, one module per notebook in ``tests/exercise_mutants/``, each a
  :class:`Wrong` named for the mistake it makes (the edge inputs the exercise is about, the
  untouched stub with the harness skipped, an empty subclass). Shortcuts that the allowlist refuses
  before anything runs (the oracle or the real class called, a lookup table of the cases, the
  checks rewritten from the cell) are tried by reading alone, in ``tests/test_shortcuts.py``;
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


# --------------------------------------------------------------------------- mutation

_SWAPS: dict[type, type] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult,
    ast.FloorDiv: ast.Mult, ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult,
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is, ast.And: ast.Or, ast.Or: ast.And,
}
MAX_MUTANTS = 60  # per solution: a fixed, evenly spread sample when there are more


def _in_functions(tree: ast.Module) -> list[ast.AST]:
    """Nodes inside the solution's function and class bodies (imports and docstrings left out)."""
    found = []
    for top in tree.body:
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found += [node for node in ast.walk(top) if node not in top.decorator_list]
    return found


def _is_docstring(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    parent = parents.get(node)
    return isinstance(parent, ast.Expr) and isinstance(node, ast.Constant) and isinstance(node.value, str)


def mutants(solution: str) -> list[tuple[str, str]]:
    """(label, source) for each first-order mutant of a solution: an operator swapped, a number
    nudged, a boolean flipped, or a statement dropped, as mutation testing tools do."""
    try:
        tree = ast.parse(solution)
    except SyntaxError:
        return []
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    out: list[tuple[str, str]] = []

    def emit(label: str) -> None:
        out.append((label, ast.unparse(tree)))

    for node in _in_functions(tree):
        line = getattr(node, "lineno", getattr(parents.get(node), "lineno", 0))
        if isinstance(node, (ast.BinOp, ast.AugAssign, ast.BoolOp)) and type(node.op) in _SWAPS:
            old = node.op
            node.op = _SWAPS[type(old)]()
            emit(f"line {line}: {type(old).__name__} -> {type(node.op).__name__}")
            node.op = old
        elif isinstance(node, ast.Compare):
            for i, op in enumerate(node.ops):
                if type(op) in _SWAPS:
                    node.ops[i] = _SWAPS[type(op)]()
                    emit(f"line {line}: {type(op).__name__} -> {type(node.ops[i]).__name__}")
                    node.ops[i] = op
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
            parent = parents[node]
            for field_name, value in ast.iter_fields(parent):
                if value is node:
                    setattr(parent, field_name, node.operand)
                    emit(f"line {line}: {type(node.op).__name__} dropped")
                    setattr(parent, field_name, node)
                elif isinstance(value, list) and any(v is node for v in value):
                    i = next(i for i, v in enumerate(value) if v is node)
                    value[i] = node.operand
                    emit(f"line {line}: {type(node.op).__name__} dropped")
                    value[i] = node
        elif isinstance(node, ast.Constant) and not _is_docstring(node, parents):
            old_value = node.value
            if isinstance(old_value, bool):
                node.value = not old_value
            elif isinstance(old_value, (int, float)):
                node.value = old_value + 1
            else:
                continue
            emit(f"line {line}: {old_value!r} -> {node.value!r}")
            node.value = old_value
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.For, ast.While,
                             ast.If, ast.With, ast.Try)):
            for body_name in ("body", "orelse", "finalbody"):
                body = getattr(node, body_name, None)
                if not body:
                    continue
                for i, statement in enumerate(list(body)):
                    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                        continue  # a docstring
                    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                        continue
                    body[i] = ast.Pass(lineno=statement.lineno, col_offset=statement.col_offset)
                    emit(f"line {statement.lineno}: `{ast.unparse(statement).splitlines()[0][:50]}` dropped")
                    body[i] = statement
    if len(out) > MAX_MUTANTS:
        step = len(out) / MAX_MUTANTS
        out = [out[int(i * step)] for i in range(MAX_MUTANTS)]
    return out


def equivalent_mutants(notebook: Path) -> dict[str, str]:
    """Mutants shown equivalent (they change nothing a check could see), with the reason:
    ``EQUIVALENT = {"exercise N, line L: ...": "why"}`` in the notebook's wrong-solutions module."""
    path = WRONG_DIR / f"{notebook.stem}.py"
    if not path.exists():
        return {}
    spec = importlib.util.spec_from_file_location(f"exercise_mutants_{notebook.stem}_eq", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return dict(getattr(module, "EQUIVALENT", {}))


def mutant_trials(solutions: list[str]) -> list[Trial]:
    """Every mutant of every solution of a notebook."""
    return [
        Trial(number, label, source, kind="mutant")
        for number, solution in enumerate(solutions, start=1)
        for label, source in mutants(solution)
    ]
