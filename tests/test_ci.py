"""CI in two places: .ci/run on the maintainers' machine and .github/workflows/test.yml on GitHub.

They differ only in how the browser is installed (Debian's chromium with apt; Playwright's own on
GitHub, where apt's chromium is a snap wrapper). Both must run the same make targets in the same
order, and both must make the browser test mandatory.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "test.yml"
CI_RUN = ROOT / ".ci" / "run"


def _make_targets(text: str) -> list[str]:
    """The make targets a script or workflow runs, in order (``make venv`` is set-up, not a check)."""
    lines = [ln.split("#", 1)[0] for ln in text.splitlines()]
    targets = [m.group(1) for ln in lines for m in re.finditer(r"\bmake\s+([a-z][a-z0-9-]*)", ln)]
    return [t for t in targets if t != "venv"]


def test_the_workflow_runs_what_ci_runs():
    runs = "\n".join(ln for ln in WORKFLOW.read_text().splitlines() if ln.strip().startswith("run:"))
    assert _make_targets(runs) == _make_targets(CI_RUN.read_text()) != []


def test_the_browser_test_is_mandatory_in_both():
    assert "export RETRIEVAL_LAB_REQUIRE_BROWSER=1" in CI_RUN.read_text()
    assert re.search(r'^\s+RETRIEVAL_LAB_REQUIRE_BROWSER: "1"$', WORKFLOW.read_text(), re.M)


def test_github_installs_playwright_s_chromium_and_the_tests_find_it():
    """On GitHub apt's chromium is a snap wrapper: the workflow installs Playwright's own, and the
    harness launches it when Debian's /usr/bin/chromium is absent."""
    workflow = WORKFLOW.read_text()
    assert "python -m playwright install --with-deps chromium" in workflow
    assert not re.search(r"^\s+run:.*apt-get install", workflow, re.M), "apt's chromium is a snap on Ubuntu"
    assert workflow.index("playwright install") < workflow.index("run: make test")
    harness = (ROOT / "tests" / "lab_harness.py").read_text()
    assert "executable_path=str(CHROMIUM) if CHROMIUM.exists() else None" in harness


def test_ci_runs_every_notebook_in_the_browser_after_make_test():
    """`make test` opens every notebook in JupyterLab; the full run of each, on the second CPU, is
    `make test-browser`, which CI must run (else the course's other CPU goes unchecked)."""
    targets = _make_targets(CI_RUN.read_text())
    assert targets.index("test") < targets.index("test-browser")
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\ntest-browser:", 1)[1].split("\n\n", 1)[0]
    assert "RETRIEVAL_LAB_BROWSER=all" in recipe and "tests/test_browser.py" in recipe
    assert "nbval-other-cpu" in recipe  # without Chromium, the same comparison as nbval
