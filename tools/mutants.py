"""Wrong solutions for the exercises, and the trials that run them through their checks.

A check is a teacher only if it refuses wrong answers (DESIGN.md). Three sources of wrong answers
are tried, each in the notebook's own kernel right after nbval ran its cells
(``tools/nbval_solutions.py``):

- **hand-written wrong solutions**, one module per notebook in ``tests/exercise_mutants/``, each a
  :class:`Wrong` named for the mistake it makes (the edge inputs the exercise is about, the
  untouched stub with the harness skipped, an empty subclass), most written as an edit of the
  shipped solution (:meth:`Wrong.edit`: "this line, changed so"). Shortcuts that the allowlist refuses
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
import re
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WRONG_DIR = ROOT / "tests" / "exercise_mutants"
STUB = "@@the shipped stub@@"  # a Wrong whose source is the exercise cell as shipped
WRONG_VALUE = "@@a wrong prediction@@"  # equals no real answer


class EditError(ValueError):
    """A wrong solution written as an edit does not fit the text it edits."""


@dataclass(frozen=True)
class Wrong:
    """A wrong solution: it replaces exercise ``exercise``'s stub cell (numbered from 1).

    ``source`` is the whole cell, or :data:`STUB`; or, made with :meth:`edit`, an edit of the
    exercise's solution (or of the wrong solution named ``like``), resolved by
    :func:`wrong_solutions`. ``forget`` names are deleted from the kernel first (a harness cell
    the learner skipped).
    """

    exercise: int
    name: str
    source: str = ""
    forget: tuple[str, ...] = field(default=())
    replace: tuple[tuple[str, str], ...] = field(default=())
    hints: bool = True
    like: str | None = None

    def __post_init__(self) -> None:
        if bool(self.source) == bool(self.replace):
            raise ValueError(f"Wrong {self.name!r}: give a source or replacements, not both or neither")
        if self.like is not None and not self.hints:
            raise ValueError(f"Wrong {self.name!r}: hints=False edits the solution, not {self.like!r}")

    @classmethod
    def edit(cls, exercise: int, name: str, *replace: tuple[str, str], hints: bool = True,
             like: str | None = None, forget: tuple[str, ...] = ()) -> Wrong:
        """The exercise's solution with each ``(old, new)`` replacement made in turn.

        The solution is taken without its docstrings (no wrong solution restates them), and with
        ``hints=False`` without its type hints too; with ``like``, the edit starts from that wrong
        solution of the same exercise instead (an earlier one). Each ``old`` must occur exactly
        once in the text as edited so far, and the result must not be the solution again: an
        edit that no longer fits a changed solution fails loudly instead of testing the wrong
        thing, or the solution itself.
        """
        return cls(exercise, name, forget=forget, replace=tuple(replace), hints=hints, like=like)

    def resolved(self, solution: str, where: str = "", others: dict[str, Wrong] | None = None) -> Wrong:
        """This wrong solution with its source written out, made from ``solution`` if an edit
        (``others``: the wrong solutions of the exercise resolved so far, for ``like``)."""
        if not self.replace:
            return self
        said = f"{where}, exercise {self.exercise}, wrong solution {self.name!r}".lstrip(", ")
        if self.like is not None:
            base = (others or {}).get(self.like)
            if base is None:
                raise EditError(f"{said}: no earlier wrong solution {self.like!r} of this exercise to edit")
            text, edited = base.source, f"wrong solution {self.like!r}"
        else:
            text = plain(solution, hints=self.hints)
            edited = "the solution (docstrings left out" + (")" if self.hints else ", type hints too)")
        start = text
        for old, new in self.replace:
            found = text.count(old) if old else 0
            if found != 1:
                raise EditError(f"{said}: {old!r} occurs {found} times in {edited}, not once "
                                "(has it changed? write the edit against it again)")
            text = text.replace(old, new)
        if _is_solution(text, solution):
            raise EditError(f"{said}: the edit gives back the solution itself")
        if _same_code(text, start):
            raise EditError(f"{said}: the edit changes nothing in {edited}")
        return Wrong(self.exercise, self.name, text, self.forget)


def _is_solution(text: str, solution: str) -> bool:
    """Whether ``text`` is the solution again, docstrings and type hints aside."""
    try:
        return _same_code(plain(text, hints=False), plain(solution, hints=False))
    except SyntaxError:
        return False


def _same_code(a: str, b: str) -> bool:
    """Whether two sources are the same program (comments and layout aside)."""
    try:
        return ast.dump(ast.parse(a)) == ast.dump(ast.parse(b))
    except SyntaxError:
        return a == b


def plain(source: str, hints: bool = True) -> str:
    """``source`` without the docstrings of its functions and classes, and without the type hints
    of its functions' arguments and results when ``hints`` is false; the rest as written."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def at(line: int, col: int) -> int:  # ast's columns count UTF-8 bytes
        return starts[line - 1] + len(lines[line - 1].encode()[:col].decode())

    cuts = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        first = node.body[0]
        if (len(node.body) > 1 and isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)):
            begin, end = at(first.lineno, first.col_offset), at(first.end_lineno, first.end_col_offset)
            if not source[starts[first.lineno - 1]:begin].strip() and source[end:end + 1] in ("\n", ""):
                begin, end = starts[first.lineno - 1], starts[first.end_lineno]  # its whole lines
            cuts.append((begin, end, ""))
        if hints or isinstance(node, ast.ClassDef):
            continue
        arguments = node.args
        for arg in [*arguments.posonlyargs, *arguments.args, arguments.vararg, *arguments.kwonlyargs,
                    arguments.kwarg]:
            if arg is not None and arg.annotation is not None:
                end = at(arg.annotation.end_lineno, arg.annotation.end_col_offset)
                default = re.match(r"\s*=\s*", source[end:])  # `x: int = 0` becomes `x=0`
                cuts.append((at(arg.lineno, arg.col_offset) + len(arg.arg), end + (default.end() if default else 0),
                             "=" if default else ""))
        if node.returns is not None:
            arrow = source.rindex("->", 0, at(node.returns.lineno, node.returns.col_offset))
            while source[arrow - 1] in " \t\n":
                arrow -= 1
            cuts.append((arrow, at(node.returns.end_lineno, node.returns.end_col_offset), ""))
    for begin, end, put in sorted(cuts, reverse=True):
        source = source[:begin] + put + source[end:]
    return source


@dataclass(frozen=True)
class Trial:
    """One run of an exercise's cells, from its stub to its check, with the stub replaced."""

    exercise: int
    label: str
    source: str
    forget: tuple[str, ...] = ()
    kind: str = "wrong"  # wrong · predict-key · predict-computed · mutant


def wrong_solutions(notebook: Path, solutions: list[str] | None = None) -> list[Wrong]:
    """The hand-written wrong solutions of a notebook (``tests/exercise_mutants/<stem>.py``), each
    with its source written out (edits applied to ``solutions``, read from the notebook if not
    given: its ``solution`` cells in exercise order)."""
    path = WRONG_DIR / f"{notebook.stem}.py"
    if not path.exists():
        return []
    spec = importlib.util.spec_from_file_location(f"exercise_mutants_{notebook.stem}", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    wrong = list(module.WRONG)
    if solutions is None and any(w.replace for w in wrong):
        from tools.nbtools import exercises

        solutions = [solution for _, _, solution in exercises(notebook)]
    resolved: list[Wrong] = []
    for w in wrong:
        if w.replace and not 1 <= w.exercise <= len(solutions or []):
            raise EditError(f"{notebook.name}: wrong solution {w.name!r} edits exercise {w.exercise}, "
                            "which has no solution")
        others = {o.name: o for o in resolved if o.exercise == w.exercise}
        resolved.append(w.resolved(solutions[w.exercise - 1], notebook.name, others) if w.replace else w)
    return resolved


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
    trials = [Trial(w.exercise, w.name, w.source, tuple(w.forget)) for w in wrong_solutions(notebook, solutions)]
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
