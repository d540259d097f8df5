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
from pathlib import Path
from queue import Empty

import pytest

from tools.nbtools import _read, exercises, part_of, tags

ITEM_NAME = "solutions pass their checks"
_MARK = "@@retrieval-lab-solutions@@"
# Runs inside the kernel: every cell through IPython as a learner's Run would, the check cells'
# values kept, one JSON line printed at the end. Outputs of the cells go to nowhere.
_PROGRAM = """
def _retrieval_lab_solutions(cells):
    import contextlib, io, json
    import matplotlib.pyplot as plt
    from retrieval_lab.checks import CheckResult
    shell, report = get_ipython(), []
    try:
        for index, source, is_check, may_raise in cells:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                outcome = shell.run_cell(source, store_history=False, silent=False)
            error = outcome.error_in_exec or outcome.error_before_exec
            if error is not None and not may_raise:
                report.append({"cell": index, "error": repr(error)})
            elif is_check:
                result = outcome.result
                report.append({"cell": index, "check": isinstance(result, CheckResult),
                               "passed": bool(getattr(result, "passed", False)), "says": str(result)})
    finally:
        plt.close("all")
    print(MARK + json.dumps(report))
_retrieval_lab_solutions(CELLS)
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


class SolutionsPass(pytest.Item):
    """Run a notebook's solutions and checks in the kernel nbval used for its cells."""

    def runtest(self) -> None:
        cells = solution_run(self.path)
        program = _PROGRAM.replace("MARK", repr(_MARK)).replace("CELLS", repr(cells))
        kernel = self.parent.kernel
        if kernel is None or not kernel.is_alive():
            raise RuntimeError(f"{self.path.name}: nbval's kernel is gone; the solutions need the notebook's state")
        msg_id = kernel.execute_cell_input(program, allow_stdin=False)
        timeout = self.config.option.nbval_cell_timeout
        kernel.await_reply(msg_id, timeout=timeout)
        printed = []
        while True:
            try:
                msg = self.parent.get_kernel_message(timeout=timeout)
            except Empty as exc:
                raise RuntimeError(f"{self.path.name}: the kernel said nothing for {timeout} s") from exc
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
        assert line is not None, f"{self.path.name}: the solution run printed no report:\n{text[-2000:]}"
        report = json.loads(line.removeprefix(_MARK))
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
        if exercises(Path(notebook.path)):
            items.insert(position + 1, SolutionsPass.from_parent(notebook, name=ITEM_NAME))
