"""The package's layers (docs/design.md): what lint-imports cannot see, and the old names.

``lint-imports`` (pyproject's ``[tool.importlinter]``, run by ``make lint``) checks that every
import points down, function bodies included. What it cannot say is whether an import sits in a
function body for a reason: this file lists the ones that remain, each with its reason, and fails
on a new one until it is listed here or moved to the module's top.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import retrieval_lab

PACKAGE = Path(retrieval_lab.__file__).parent

#: (module file, imported module) -> why it is imported inside a function.
LAZY = {
    ("__init__.py", "retrieval_lab.models"):
        "`import retrieval_lab` stays light: BagOfWords and MiniLM load on first use",
    ("models/embeddings.py", "retrieval_lab.models"):
        "MiniLM's forward pass reads tokenizers' and safetensors' weights: only when a model is built",
}


def _lazy_imports() -> set[tuple[str, str]]:
    found = set()
    for path in PACKAGE.rglob("*.py"):
        if "scratch" in path.parts:  # generated from the notebooks: their cells import where they teach
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(func):
                names = ([node.module] if isinstance(node, ast.ImportFrom) and node.module
                         else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
                found |= {(path.relative_to(PACKAGE).as_posix(), n) for n in names if n.startswith("retrieval_lab")}
    return found


@pytest.mark.slow
def test_every_import_inside_a_function_has_its_reason():
    assert _lazy_imports() == set(LAZY), (
        "an import of retrieval_lab inside a function: move it to the module's top (lint-imports "
        "checks the direction either way), or add it to LAZY with the reason it must wait"
    )


def test_the_package_holds_only_subpackages():
    modules = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert modules == ["__init__.py"], f"a module of its own in src/retrieval_lab/: {modules}"


@pytest.mark.slow
def test_a_helper_layer_imports_no_layer_above_it():
    code = (
        "import sys, retrieval_lab.plots, retrieval_lab.plots.widgets, retrieval_lab.data.corpus, "
        "retrieval_lab.models.embeddings, retrieval_lab.runtime.oop\n"
        "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('retrieval_lab.')}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == str(["data", "models", "plots", "runtime"])


@pytest.mark.slow
def test_a_notebook_saved_from_the_last_release_still_imports():
    """Every flat name of release 0.1 imports the moved module, with a FutureWarning naming the
    new place (one fresh interpreter, so no earlier import hides the warning)."""
    code = (
        "import importlib, json, warnings, retrieval_lab\n"
        "found = {}\n"
        "for old in sorted(retrieval_lab.MOVED):\n"
        "    with warnings.catch_warnings(record=True) as seen:\n"
        "        warnings.simplefilter('always')\n"
        "        module = importlib.import_module(f'retrieval_lab.{old}')\n"
        "    found[old] = [module.__name__, [str(w.message) for w in seen if w.category is FutureWarning]]\n"
        "print(json.dumps(found))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    found = json.loads(done.stdout)
    assert set(found) == set(retrieval_lab.MOVED)
    for old, (name, warned) in found.items():
        new = f"retrieval_lab.{retrieval_lab.MOVED[old]}"
        assert name == new
        assert any(f"retrieval_lab.{old} moved to {new}" in w for w in warned), (old, warned)


def test_the_old_attribute_form_warns_once_and_gives_the_new_module():
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        from retrieval_lab import compare  # the 0.1 spelling
    from retrieval_lab.evaluation import compare as new

    assert compare is new
    assert len([w for w in seen if w.category is FutureWarning]) <= 1
