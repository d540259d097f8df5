"""Every generated scratch module imports on its own, with no langchain inside."""

from __future__ import annotations

import subprocess
import sys

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
