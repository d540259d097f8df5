"""Tracebacks into ``retrieval_lab.scratch`` name the notebook cell the failing code came from.

The scratch modules are generated from the notebooks' ``export`` cells, and each part starts with
a marker ``# %% notebooks/NN_name.ipynb, cell K``. A traceback shows a file and a line, though,
not the comment above it, and the file is the one place a learner must not edit. So the scratch
package imports its modules through the loader below, which adds the cell to the file name each
function's code carries; a traceback then reads::

    File ".../scratch/in_memory_vectorstore.py (from notebooks/07_in_memory_vectorstore.ipynb,
    cell 12)", line 149, in __init__

The line numbers are the module's, and the source lines still show: tracebacks, ``inspect`` and
IPython find them through the module's loader. Why the file name and not the function's name:
a function takes its ``__name__`` from its code's name, and ``add_to_class`` attaches methods
under it. The cost: a debugger's breakpoint set by file does not stop in these functions.
"""

from __future__ import annotations

import bisect
import importlib.abc
import importlib.machinery
import re
import sys
import types

MARKER = re.compile(r"^# %% (?P<notebook>\S+\.ipynb), cell (?P<cell>\d+)\s*$", re.M)


def cell_starts(source: str) -> list[tuple[int, str]]:
    """(first line, ``"notebooks/NN_name.ipynb, cell K"``) of each exported part, in file order."""
    return [(source.count("\n", 0, m.start()) + 1, f"{m['notebook']}, cell {m['cell']}")
            for m in MARKER.finditer(source)]


def named_by_cell(code: types.CodeType, starts: list[tuple[int, str]]) -> types.CodeType:
    """``code`` with every function, class body and lambda inside marked with its cell."""
    consts = tuple(named_by_cell(c, starts) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    code = code.replace(co_consts=consts)
    at = bisect.bisect_right([line for line, _ in starts], code.co_firstlineno) - 1
    if code.co_name == "<module>" or at < 0:
        return code
    return code.replace(co_filename=f"{code.co_filename} (from {starts[at][1]})")


class CellNamingLoader(importlib.machinery.SourceFileLoader):
    """Compile a generated module from its source (never a stale .pyc) with cell-named code."""

    def get_code(self, fullname: str) -> types.CodeType:
        source = self.get_source(fullname)
        code = compile(source, self.path, "exec", dont_inherit=True)
        return named_by_cell(code, cell_starts(source))


class _Finder(importlib.abc.MetaPathFinder):
    """Hand the modules under one package to :class:`CellNamingLoader`."""

    def __init__(self, package: str) -> None:
        self.prefix = package + "."

    def find_spec(self, name, path, target=None):
        if not name.startswith(self.prefix):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is not None and type(spec.loader) is importlib.machinery.SourceFileLoader:
            spec.loader = CellNamingLoader(spec.loader.name, spec.loader.path)
        return spec


def install(package: str) -> None:
    """Name cells in the tracebacks of ``package``'s modules (once; later calls change nothing)."""
    if not any(isinstance(f, _Finder) and f.prefix == package + "." for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder(package))
