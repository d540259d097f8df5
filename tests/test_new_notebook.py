"""``make new-notebook``: the scaffold passes the notebook guard once executed, and refuses clashes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tools import links, nbtools, new_notebook, slides

ROOT = Path(__file__).resolve().parents[1]


def _package_copy(tmp: Path) -> Path:
    """src/retrieval_lab as links to the real files, in which the scaffold can add its own."""
    shutil.copytree(ROOT / "src" / "retrieval_lab", tmp / "src" / "retrieval_lab", copy_function=os.symlink,
                    ignore=shutil.ignore_patterns("__pycache__"))
    return tmp / "src"


@pytest.mark.slow
def test_the_scaffold_executes_and_passes_the_guard(tmp_path, monkeypatch):
    src = _package_copy(tmp_path)
    written = new_notebook.scaffold(98, "scaffold_probe", "A scaffold, probed", root=tmp_path)
    notebook, test_file, answers = written
    assert notebook == tmp_path / "notebooks" / "98_scaffold_probe.ipynb"
    assert links.fix_header(notebook, links.repository()) in (True, False)
    links.fix_colab_cell(notebook, links.repository())
    slides.annotate(notebook)
    monkeypatch.setenv("PYTHONPATH", str(src))  # the kernel imports the scaffold's answer module
    nbtools.execute(notebook)
    nbtools.write_times(notebook)
    assert nbtools.guard_problems(notebook) == []
    assert nbtools.exported_source(notebook) is not None
    # the equivalence-test file runs against the exported module, and passes
    scratch = src / "retrieval_lab" / "scratch" / "scaffold_probe.py"
    scratch.write_text(nbtools.exported_source(notebook), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:nbval",
                           str(test_file)], capture_output=True, text=True, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(src)})
    assert done.returncode == 0, done.stdout[-2000:]
    assert answers.read_text(encoding="utf-8").startswith('"""Notebook 98')


@pytest.mark.parametrize(("args", "message"), [
    ((7, "again", "T"), "07_"),
    ((18, "in_memory_vectorstore", "T"), "in_memory_vectorstore"),
    ((18, "Bad-Slug", "T"), "lower-case"),
    ((180, "x", "T"), "two digits"),
    ((18, "x", " "), "TITLE is empty"),
])
def test_a_clash_or_a_bad_name_is_refused_before_anything_is_written(tmp_path, args, message):
    shutil.copytree(ROOT / "notebooks", tmp_path / "notebooks", ignore=shutil.ignore_patterns("*.py"))
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    with pytest.raises(ValueError, match=message):
        new_notebook.scaffold(*args, root=tmp_path)
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
