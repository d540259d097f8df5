"""retrieval-lab: helpers for a notebook course on langchain-core's retrieval classes.

The package is in layers, each a subpackage, and an import only points down (``lint-imports``
checks it; docs/design.md explains it):

- ``checks``: the exercises' checks and their answer modules;
- ``evaluation``: measuring retrieval (``python -m retrieval_lab.evaluation``), the second stage;
- ``scratch``: the from-scratch classes, generated from the notebooks;
- ``plots`` (with the widgets) and ``engines`` (PostgreSQL);
- ``data`` (corpus, real vectors) and ``models`` (the toy embeddings, MiniLM in numpy);
- ``runtime``: what the generated code and the notebooks' cells run on.

Nothing is imported eagerly here, so ``import retrieval_lab.scratch`` stays free of langchain.
The old flat names (``retrieval_lab.corpus``, ``retrieval_lab.oop``, …) still import, with a
warning, for one release: a notebook saved from the last release keeps working.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings
from typing import Any

__all__ = ["TAUGHT", "BagOfWords", "MiniLM"]

#: The versions of the library the course teaches, as pinned in requirements/learner.txt (a test
#: keeps them equal). Notebook 00 compares them with what is installed, on any machine.
TAUGHT = {"langchain-core": "1.6.2", "langchain-text-splitters": "1.1.2"}

#: Where each module of the flat layout (release 0.1) lives now.
MOVED = {
    "oop": "runtime.oop", "concurrency": "runtime.concurrency", "_cells": "runtime.cells",
    "vectorstore_async": "runtime.vectorstore_async", "in_memory_async": "runtime.in_memory_async",
    "vectorstore_declared": "runtime.vectorstore_declared", "tempdirs": "runtime.tempdirs",
    "logcapture": "runtime.logcapture", "callbacks": "runtime.callbacks",
    "embeddings": "models.embeddings", "minilm": "models.minilm",
    "corpus": "data.corpus", "realvectors": "data.realvectors",
    "widgets": "plots.widgets", "postgres": "engines.postgres",
    "standard_suite": "checks.standard_suite", "_answers": "checks.answers",
    "evaluate": "evaluation.evaluate", "rerank": "evaluation.rerank",
    "measure": "evaluation.measure", "compare": "evaluation.compare",
}


def _moved(old: str) -> str:
    new = f"{__name__}.{MOVED[old]}"
    warnings.warn(
        f"retrieval_lab.{old} moved to {new}: import it from there (the old name goes in the next release)",
        FutureWarning, stacklevel=3,
    )
    return new


class _MovedFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``import retrieval_lab.corpus`` (and ``retrieval_lab._answers.nb04``) finds the moved module."""

    def find_spec(self, fullname, path=None, target=None):
        parts = fullname.split(".")
        if len(parts) < 2 or parts[0] != __name__ or parts[1] not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec):
        parts = spec.name.split(".")
        new = _moved(parts[1]) if len(parts) == 2 else f"{__name__}.{MOVED[parts[1]]}"
        return importlib.import_module(".".join([new, *parts[2:]]))

    def exec_module(self, module) -> None:
        pass


if not any(isinstance(finder, _MovedFinder) for finder in sys.meta_path):
    sys.meta_path.append(_MovedFinder())


def __getattr__(name: str) -> Any:
    if name in ("BagOfWords", "MiniLM"):
        from retrieval_lab.models import embeddings  # lazy: `import retrieval_lab` stays light

        return getattr(embeddings, name)
    if name in MOVED:
        module = importlib.import_module(_moved(name))
        globals()[name] = module  # warned once: `from retrieval_lab import corpus` asks twice
        return module
    raise AttributeError(f"module 'retrieval_lab' has no attribute {name!r}")
