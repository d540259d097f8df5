"""A pytest plugin: after nbval has run a notebook, its exercise solutions run in the same kernel.

Each exercise ships a stub, a check and a worked solution (``tools.nbtools.exercises``). The
solutions must pass their checks, or the check is wrong or the solution is. Running them needed a
whole extra execution of every notebook; but the exercises come last (the template's *Your turn*),
so once nbval has run every cell, the kernel already holds everything they need. This plugin adds
one item after each notebook's cells, ``…ipynb::solutions pass their checks``, which re-runs the
cells from the first exercise on, with each stub replaced by its solution, in nbval's kernel.

Loaded by the root ``conftest.py``; it adds nothing when nbval is not collecting notebooks.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from queue import Empty

import pytest

from tools.mutants import STUB, Trial, mutant_trials, trials_for
from tools.nbtools import _read, exercises, part_of, tags

ITEM_NAME = "solutions pass their checks"
WRONG_NAME = "wrong solutions are refused"
_MARK = "@@retrieval-lab-solutions@@"
# Runs inside the kernel: every cell through IPython as a learner's Run would, the check cells'
# values kept, one JSON line printed at the end. Outputs of the cells go to nowhere.
_PROGRAM = """
def _retrieval_lab_solutions(runs):
    import contextlib, io, json
    import matplotlib.pyplot as plt
    from retrieval_lab.checks import CheckResult
    shell, reports = get_ipython(), []
    try:
        for run in runs:
            report, ns = [], shell.user_ns
            saved = dict(ns) if run["restore"] else None
            # a wrong solution's cell may rewrite the checks' modules (beyond an in-process
            # check: docs/design.md); each trial starts again from the checks as shipped
            import sys
            checks = {name: dict(vars(m)) for name, m in list(sys.modules.items())
                      if name.startswith("retrieval_lab.checks") and m is not None}
            for name in run["forget"]:
                ns.pop(name, None)
            if run.get("timeout"):
                import signal
                def _alarm(signum, frame):
                    raise TimeoutError("the check ran too long")
                signal.signal(signal.SIGALRM, _alarm)
                signal.setitimer(signal.ITIMER_REAL, run["timeout"])
            try:
                for index, source, is_check, may_raise in run["cells"]:
                    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                        outcome = shell.run_cell(source, store_history=False, silent=False)
                    error = outcome.error_in_exec or outcome.error_before_exec
                    if error is not None and not may_raise:
                        report.append({"cell": index, "error": repr(error)})
                    elif is_check:
                        result = outcome.result
                        report.append({"cell": index, "check": isinstance(result, CheckResult),
                                       "passed": bool(getattr(result, "passed", False)),
                                       "status": getattr(result, "status", None), "says": str(result)})
            finally:
                if run.get("timeout"):
                    signal.setitimer(signal.ITIMER_REAL, 0)
                if saved is not None:
                    ns.clear()
                    ns.update(saved)
                    for name, space in checks.items():
                        module = sys.modules.get(name)
                        if module is not None:
                            vars(module).clear()
                            vars(module).update(space)
            reports.append(report)
    finally:
        plt.close("all")
    print(MARK + json.dumps(reports))
_retrieval_lab_solutions(RUNS)
del _retrieval_lab_solutions
"""


def solution_run(notebook: Path) -> list[tuple[int, str, bool, bool]]:
    """(index, source, is a check, may raise) for each code cell from the first exercise on.

    The deep dives after the exercises are left out: they do not touch the exercises, and running
    their cells twice would only cost time.
    """
    found = exercises(notebook)
    if not found:
        return []
    solutions = {i: source for i, _, source in found}
    checks = {check for _, check, _ in found}
    first = min(solutions)
    nb = _read(notebook)
    return [
        (i, solutions.get(i, cell.source), i in checks, "raises-exception" in tags(cell))
        for i, (cell, part) in enumerate(zip(nb.cells, part_of(nb), strict=True))
        if i >= first and part != "deep" and cell.cell_type == "code" and "widget" not in tags(cell)
    ]


def run_in_kernel(item: pytest.Item, runs: list[dict]) -> list[list[dict]]:
    """Run cell lists in the notebook's nbval kernel; a report per run (errors, check results).

    A run with ``restore`` puts the kernel's namespace back afterwards, and ``forget`` deletes
    names first (a harness cell the learner skipped).
    """
    program = _PROGRAM.replace("MARK", repr(_MARK)).replace("RUNS", repr(runs))
    kernel = item.parent.kernel
    if kernel is None or not kernel.is_alive():
        raise RuntimeError(f"{item.path.name}: nbval's kernel is gone; the solutions need the notebook's state")
    msg_id = kernel.execute_cell_input(program, allow_stdin=False)
    timeout = item.config.option.nbval_cell_timeout
    kernel.await_reply(msg_id, timeout=timeout)
    printed = []
    while True:
        try:
            msg = item.parent.get_kernel_message(timeout=timeout)
        except Empty as exc:
            raise RuntimeError(f"{item.path.name}: the kernel said nothing for {timeout} s") from exc
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "stream" and msg["content"]["name"] == "stdout":
            printed.append(msg["content"]["text"])
        elif msg["msg_type"] == "error":
            printed.append(f"\n{msg['content']['ename']}: {msg['content']['evalue']}\n")
        elif msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            break
    text = "".join(printed)
    line = next((ln for ln in text.splitlines() if ln.startswith(_MARK)), None)
    assert line is not None, f"{item.path.name}: the run printed no report:\n{text[-2000:]}"
    return json.loads(line.removeprefix(_MARK))


def trial_runs(notebook: Path, trials: list[Trial]) -> list[dict]:
    """Each trial as a run: its exercise's cells from the stub to the check, the stub replaced."""
    found = exercises(notebook)
    nb = _read(notebook)
    runs = []
    for trial in trials:
        stub, check, _ = found[trial.exercise - 1]
        source = nb.cells[stub].source if trial.source == STUB else trial.source
        cells = [
            (i, source if i == stub else nb.cells[i].source, i == check,
             i == stub or "raises-exception" in tags(nb.cells[i]))
            for i in range(stub, check + 1)
            if nb.cells[i].cell_type == "code" and "widget" not in tags(nb.cells[i])
        ]
        # The names the stub defines are forgotten first: a wrong solution whose cell fails
        # before defining its function must not be judged by the solution run before it.
        forget = [*trial.forget, *_defined_names(nb.cells[stub].source)]
        runs.append({"cells": cells, "forget": forget, "restore": True})
    return runs


def _defined_names(source: str) -> list[str]:
    """The top-level names a cell's code binds (functions, classes, assignments)."""
    import ast

    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    names = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names += [t.id for t in targets if isinstance(t, ast.Name)]
    return names


def notebook_trials(notebook: Path) -> list[Trial]:
    """The hand-written wrong solutions and the predict probes of one notebook."""
    nb = _read(notebook)
    found = exercises(notebook)
    kinds = [nb.cells[i].metadata.get("retrieval_lab", {}).get("kind") for i, _, _ in found]
    return trials_for(notebook, [solution for _, _, solution in found], kinds)


REPEAT_ENV = "RETRIEVAL_LAB_WRONG_REPEAT"  # a number: each wrong solution runs that many times


class WrongRefused(pytest.Item):
    """Every wrong solution and predict probe of a notebook is refused by its check, kindly.

    Checks that draw fresh cases (``answers.fresh_seed``) must refuse a wrong solution on every
    draw, not most: ``RETRIEVAL_LAB_WRONG_REPEAT=50`` runs each one fifty times to show it.
    """

    def runtest(self) -> None:
        trials = notebook_trials(self.path) * int(os.environ.get(REPEAT_ENV) or 1)
        if not trials:
            return
        reports = run_in_kernel(self, trial_runs(self.path, trials))
        problems = []
        predict_messages: dict[int, set[str]] = {}
        for trial, report in zip(trials, reports, strict=True):
            checks = [r for r in report if "check" in r]
            errors = [r for r in report if "error" in r]
            where = f"exercise {trial.exercise}, {trial.label!r}"
            if errors or not checks or not checks[-1]["check"]:
                problems.append(f"{where}: the check cell did not answer ({errors or checks})")
            elif checks[-1]["passed"]:
                problems.append(f"{where}: a wrong solution got {checks[-1]['says']}")
            elif trial.kind == "predict-key":
                predict_messages.setdefault(trial.exercise, set()).add(checks[-1]["says"])
            elif trial.kind == "predict-computed" and "running the code comes after" not in checks[-1]["says"]:
                problems.append(f"{where}: a computed prediction was not refused as one: {checks[-1]['says']}")
        for exercise, messages in predict_messages.items():
            if len(messages) > 1:
                problems.append(
                    f"exercise {exercise}: the message depends on which prediction is wrong: {sorted(messages)}"
                )
        assert not problems, f"{self.path.name}: " + "\n".join(problems)

    def reportinfo(self):
        return self.path, None, f"{self.path.name}::{WRONG_NAME}"


MUTATION_ENV = "RETRIEVAL_LAB_MUTATION"  # a folder: `python -m tools.mutation` sets it
MUTANT_NAME = "mutants of the solutions are scored"
MUTANT_TIMEOUT = 20.0  # seconds: a mutant that makes a check hang counts as refused


class MutantsScored(pytest.Item):
    """Run every mutant of every solution through its check; write what each check said.

    Only under ``python -m tools.mutation`` (it is minutes of work): the score is read from the
    files this writes, not asserted here.
    """

    def runtest(self) -> None:
        found = exercises(self.path)
        trials = mutant_trials([solution for _, _, solution in found])
        runs = trial_runs(self.path, trials)
        for run in runs:
            run["timeout"] = MUTANT_TIMEOUT
        reports = run_in_kernel(self, runs) if runs else []
        rows = []
        for trial, report in zip(trials, reports, strict=True):
            checks = [r for r in report if "check" in r]
            answered = bool(checks) and checks[-1]["check"]
            rows.append({
                "exercise": trial.exercise, "label": trial.label, "source": trial.source,
                "survived": answered and checks[-1]["passed"],
                "says": checks[-1]["says"] if answered else str(report)[:300],
            })
        out = Path(os.environ[MUTATION_ENV]) / f"{self.path.stem}.json"
        out.write_text(json.dumps(rows, indent=1))

    def reportinfo(self):
        return self.path, None, f"{self.path.name}::{MUTANT_NAME}"


class SolutionsPass(pytest.Item):
    """Run a notebook's solutions and checks in the kernel nbval used for its cells."""

    def runtest(self) -> None:
        cells = solution_run(self.path)
        [report] = run_in_kernel(self, [{"cells": cells, "forget": [], "restore": False}])
        errors = [f"cell {r['cell']} raised {r['error']}" for r in report if "error" in r]
        assert not errors, f"{self.path.name}, with the solutions in: " + "; ".join(errors)
        results = [r for r in report if "check" in r]
        assert all(r["check"] for r in results), (
            f"{self.path.name}: check cells {[r['cell'] for r in results if not r['check']]} show no CheckResult"
        )
        failing = [f"cell {r['cell']}: {r['says']}" for r in results if not r["passed"]]
        assert not failing, f"{self.path.name}: solutions that fail their checks: {failing}"
        assert len(results) == len(exercises(self.path))

    def reportinfo(self):
        return self.path, None, f"{self.path.name}::{ITEM_NAME}"


def pytest_collection_modifyitems(session, config, items) -> None:
    """Put a ``SolutionsPass`` right after the last nbval cell of each notebook with exercises."""
    if not config.pluginmanager.has_plugin("nbval"):
        return  # `make quick` runs without nbval (-p no:nbval): no notebook, and no import of it
    from nbval.plugin import IPyNbFile

    last: dict[IPyNbFile, int] = {}
    for position, item in enumerate(items):
        if isinstance(item.parent, IPyNbFile):
            last[item.parent] = position
    for notebook, position in sorted(last.items(), key=lambda pair: -pair[1]):
        if "editions" in Path(notebook.path).parts:
            continue  # a generated edition: its notebook's exercises run from notebooks/
        if exercises(Path(notebook.path)):
            if os.environ.get(MUTATION_ENV):
                items.insert(position + 1, MutantsScored.from_parent(notebook, name=MUTANT_NAME))
            items.insert(position + 1, WrongRefused.from_parent(notebook, name=WRONG_NAME))
            items.insert(position + 1, SolutionsPass.from_parent(notebook, name=ITEM_NAME))
