"""One list of exact pins: requirements.txt. Everything else must install from it, unchanged."""

from __future__ import annotations

import re
from importlib.metadata import version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;#]+)$")


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


def conda_pip_pins(path: Path) -> dict[str, str]:
    """The pip: section of environment.yml, read as requirement lines."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.strip() == "- pip:")
    section = []
    for ln in lines[start + 1:]:
        if not ln.startswith("      - "):
            break
        section.append(ln.strip()[2:])
    assert "-e ." in section, "environment.yml's pip section must install the package (-e .)"
    tmp = path.parent / ".conda-pip-section.txt"
    try:
        tmp.write_text("\n".join(s for s in section if s != "-e ."), encoding="utf-8")
        return pins_of(tmp)
    finally:
        tmp.unlink()


PINS = pins_of(ROOT / "requirements.txt")
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
    text = (ROOT / "Makefile").read_text()
    assert "pip install --quiet -r requirements.txt" in text
    assert "pip install --quiet --no-deps -e ." in text


@pytest.mark.parametrize("name", sorted(PINS))
def test_this_environment_has_the_pinned_version(name: str):
    assert version(name) == PINS[name], f"{name}: installed {version(name)}, pinned {PINS[name]}; run make"


def test_the_versions_notebook_00_checks_are_the_pinned_ones():
    from retrieval_lab import TAUGHT

    assert {name: LEARNER[name] for name in TAUGHT} == TAUGHT
