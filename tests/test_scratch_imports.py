"""Every generated scratch module imports on its own, with no langchain inside."""

from __future__ import annotations

import subprocess
import sys

import pytest

import retrieval_lab.scratch as scratch


def test_every_exported_name_imports():
    for name in scratch.__all__:
        assert getattr(scratch, name) is not None


def test_scratch_does_not_import_langchain():
    """The from-scratch classes are built from plain Python and numpy alone."""
    code = (
        "import sys, retrieval_lab.scratch\n"
        "bad = sorted(m for m in sys.modules if m.startswith('langchain'))\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"retrieval_lab.scratch imported {out.stdout.strip()}"


@pytest.mark.slow
def test_the_learner_package_imports_nothing_of_the_maintainers_tools():
    """Layers: notebooks -> scratch -> helpers -> tools, with no arrow back into tools/."""
    code = (
        "import sys, retrieval_lab, retrieval_lab.scratch, retrieval_lab.plots, retrieval_lab.checks\n"
        "print(','.join(sorted(m for m in sys.modules if m == 'tools' or m.startswith('tools.'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"retrieval_lab imported {out.stdout.strip()}"


def test_cell_names_leave_names_and_source_as_they_were():
    import inspect

    from retrieval_lab.scratch import InMemoryVectorStore, RecursiveCharacterTextSplitter

    assert InMemoryVectorStore.similarity_search.__name__ == "similarity_search"
    assert RecursiveCharacterTextSplitter.split_text.__qualname__.endswith("split_text")
    assert inspect.getsource(InMemoryVectorStore.__init__).lstrip().startswith("def __init__(self")
