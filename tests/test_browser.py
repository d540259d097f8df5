"""The course in a real browser: JupyterLab + headless Chromium, driven from the UI as a learner does.

It has two depths, because running every notebook twice (nbval here, the browser there) does not
fit `make test`'s three minutes on two cores (each pass of the 18 notebooks costs about 170 s of
kernel CPU, measured 2026-12-05):

- **`make test`** checks JupyterLab as `make lab` starts it (one kernel to pick, the course's;
  no news question) and opens notebook 00, the one its link opens, as a learner first does: the
  course kernel starts, the notebook is not marked modified (no unsaved-changes dot on its tab),
  and the Colab set-up cell's input is collapsed.
- **`make test-browser`** (CI runs it after `make test`) opens every notebook, checks its first
  minute as above, and presses *Restart Kernel and Run All Cells*: no error appears except the
  expected ones (cells tagged ``raises-exception``), on the course kernel, and it is the other-CPU
  pass: the kernels sort as a
  CPU without AVX2 does, and every output JupyterLab holds is compared with the stored one by
  nbval's rules (``tools/outputs.py``), so an output that depends on how ties sort fails. The
  course's content, the outputs of that run included, must have no accessibility violation. It also
  moves the live MMR explorer's slider (in notebook 07's run) and renders live slides (RISE). It
  sets ``RETRIEVAL_LAB_BROWSER=all``.

One server and one browser serve each half (see ``lab_harness.py``); a screenshot of each notebook
lands in ``artifacts/browser/``.

Needs Chromium: Debian's at ``/usr/bin/chromium`` (``apt-get install chromium``; this machine and
``.ci/run``), or else Playwright's own (``python -m playwright install --with-deps chromium``; the
GitHub workflow, where apt's chromium is a snap wrapper). Without either the tests are skipped,
and pytest's summary says why — unless ``RETRIEVAL_LAB_REQUIRE_BROWSER=1`` is set (``.ci/run`` and
the workflow set it), in which case a missing browser is a failure.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import accessibility
import pytest
from lab_harness import ROOT, VENV_BIN, Browser, LabServer, find_chromium, start_browser, start_lab

from tools.nbtools import _read, course_notebooks, tags
from tools.outputs import OTHER_CPU, differences

NOTEBOOKS = course_notebooks()
SCREENSHOTS = ROOT / "artifacts" / "browser"
REQUIRED = os.environ.get("RETRIEVAL_LAB_REQUIRE_BROWSER") == "1"
#: `make test-browser` runs every notebook in full; `make test` opens them and runs one.
RUN_ALL = os.environ.get("RETRIEVAL_LAB_BROWSER") == "all"
RUN_TIMEOUT = 300.0  # seconds for one notebook's Run All; a notebook normally takes a few
LOAD_TIMEOUT = 120_000  # ms for JupyterLab to render a notebook on a busy 2-core machine
_COUNT = re.compile(r"^\[(\d+)\]:$")

def _why_unavailable() -> str | None:
    if find_chromium() is None:
        return (
            "browser test skipped: no Chromium (neither Debian's /usr/bin/chromium nor Playwright's "
            "own). Install one to run it: `sudo apt-get install chromium`, or "
            "`.venv/bin/python -m playwright install --with-deps chromium`; CI installs one and requires it."
        )
    if not (VENV_BIN / "jupyter").exists():
        return f"browser test skipped: {VENV_BIN / 'jupyter'} not found; run the tests with .venv's python."
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "browser test skipped: the playwright package is missing; run `make venv`."
    return None


def _skip_or_fail(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"{reason} (RETRIEVAL_LAB_REQUIRE_BROWSER=1: the browser test may not skip here)")
    pytest.skip(reason)


@pytest.fixture(scope="class")
def timings(request) -> dict[str, dict[str, float]]:
    """Seconds per notebook and phase (open, run all, checks, close), printed at the end of each
    half into its own file (``timings-first-half.txt``, …): under xdist the halves run at once."""
    found: dict[str, dict[str, float]] = {}
    yield found
    if found:
        total = sum(sum(phases.values()) for phases in found.values())
        lines = [f"  {name}: {sum(phases.values()):.1f} s ("
                 + ", ".join(f"{phase} {seconds:.1f} s" for phase, seconds in phases.items()) + ")"
                 for name, phases in found.items()]
        text = "\n".join(
            [f"browser: {len(found)} notebook(s), {total:.0f} s in all, {total / len(found):.1f} s per notebook",
             *lines]
        )
        (SCREENSHOTS / f"timings-{request.cls.HALF}.txt").write_text(text + "\n", encoding="utf-8")
        capture = request.config.pluginmanager.get_plugin("capturemanager")
        with capture.global_and_fixture_disabled():
            print("\n" + text, flush=True)


@pytest.fixture(scope="module")
def lab() -> LabServer:
    reason = _why_unavailable()
    if reason:
        _skip_or_fail(reason)
    # Every kernel runs numpy's sort as a CPU without AVX2 does, and each notebook run here has its
    # outputs compared with the stored ones: nbval ran them on this CPU, so a stored output that
    # depends on how ties sort fails here (with RUN_ALL, this is the other-CPU pass of every
    # notebook). The served notebooks have no outputs: a run clears them anyway, and drawing them
    # on opening is most of what opening costs the browser.
    server = start_lab(extra_env={"NPY_DISABLE_CPU_FEATURES": OTHER_CPU}, outputs=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser(lab: LabServer) -> Browser:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    chromium = start_browser()
    try:
        yield chromium
    finally:
        chromium.stop()


# --------------------------------------------------------------------------- driving the UI

_CELLS = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-WindowedPanel-viewport > .jp-Cell"
_NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook"  # the course's content, not JupyterLab's
# What the open notebook shows, read cheaply (it is polled): how many cells are rendered, the
# prompt of every code cell, and the kernel's status and name.
_STATE_JS = """
(path) => {
  const panel = window.jupyterapp.shell.currentWidget;
  if (!panel || !panel.context || panel.context.path !== path) return null;
  const cells = [...panel.node.querySelectorAll('.jp-WindowedPanel-viewport > .jp-Cell')];
  const model = panel.content.model;
  const indicator = panel.node.querySelector('.jp-Notebook-ExecutionIndicator');
  const kernel = panel.sessionContext.session ? panel.sessionContext.session.kernel : null;
  return {
    rendered: cells.length,
    modelCells: model ? model.cells.length : -1,
    prompts: cells.map((c, i) => {
      if (!c.classList.contains('jp-CodeCell')) return null;
      // A cell whose input is collapsed (the Colab set-up cell) shows no prompt: its count is
      // read from the model instead (it shows no [*] while it runs; the cells after it do).
      const widget = panel.content.widgets[i];
      if (widget && widget.inputHidden) {
        const n = widget.model.executionCount;
        return n ? `[${n}]:` : '[ ]:';
      }
      const p = c.querySelector('.jp-InputPrompt');
      // textContent, not innerText: an offscreen cell is not painted, and innerText reads paint.
      return p ? p.textContent.replace(/\\s+/g, ' ').trim() : null;
    }),
    status: indicator ? indicator.getAttribute('data-status') : null,
    kernelName: kernel ? kernel.name : null,
  };
}
"""
# Which cells hold an error, read once at the end: from the notebook model behind the page (an
# error and a stderr stream render alike), and which cells show stderr/a traceback on the page.
_ERRORS_JS = """
(path) => {
  const panel = window.jupyterapp.shell.currentWidget;
  const cells = [...panel.node.querySelectorAll('.jp-WindowedPanel-viewport > .jp-Cell')];
  const model = panel.content.model;
  const outputs = [...Array(model.cells.length).keys()].map(i => model.cells.get(i).toJSON().outputs || []);
  return {
    errors: outputs.map((o, i) => o.some(x => x.output_type === 'error') ? i : -1).filter(i => i >= 0),
    outputs,
    shownErrors: cells.map((c, i) => c.querySelector(
      '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]') ? i : -1).filter(i => i >= 0),
  };
}
"""


@dataclass
class Run:
    """What a notebook showed after Restart Kernel and Run All Cells."""

    counts: dict[int, int | None]  # cell index -> execution count shown (code cells with source)
    errors: list[int]  # cell indices holding an error output (in the notebook model)
    outputs: list[list[dict]]  # each cell's outputs in the notebook model (nbformat's JSON)
    shown_errors: list[int]  # cell indices whose rendered output area shows stderr/a traceback
    kernel: str | None
    seconds: float


class LabPage:
    """One JupyterLab page for the whole module: notebooks are opened and closed inside it.

    Loading JupyterLab costs several seconds of CPU; opening a notebook in a page that is already
    loaded costs one or two. After a test that went wrong the page is replaced by a fresh one, so
    one notebook's failure cannot spill into the next.
    """

    def __init__(self, lab: LabServer, browser: Browser) -> None:
        self.lab, self.browser, self.page = lab, browser, None

    def fresh(self):
        if self.page is not None and not self.page.is_closed():
            self.page.close(run_before_unload=False)
        self.page = self.browser.context.new_page()
        self.page.goto(f"{self.lab.url}lab?reset&token={self.lab.token}")
        self.page.wait_for_selector(".jp-Launcher", timeout=LOAD_TIMEOUT)
        return self.page

    def current(self):
        return self.page if self.page is not None and not self.page.is_closed() else self.fresh()


def menu(page, menu_label: str, command: str) -> None:
    """Click a main-menu entry the way a learner does (menu bar, then the item)."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(rf"^{menu_label}$")).click()
    page.locator(f'.lm-Menu-item[data-command="{command}"]').click()


def state(page, notebook: Path) -> dict | None:
    return page.evaluate(f"(path) => ({_STATE_JS})(path)", f"notebooks/{notebook.name}")


def open_notebook(page, notebook: Path) -> None:
    """File → Open from Path…; wait until every cell of the file is rendered and the kernel is idle.

    ``notebook`` is the served copy, so the expected cells are those of the file the browser opens.
    """
    path = f"notebooks/{notebook.name}"
    expected = len(_read(notebook).cells)
    menu(page, "File", "filebrowser:open-path")
    page.locator(".jp-Dialog input").fill(path)
    page.locator(".jp-Dialog .jp-mod-accept").click()
    wait_for(page, notebook, "every cell rendered", lambda s: s["rendered"] == expected == s["modelCells"])
    wait_for(page, notebook, "the kernel idle", lambda s: s["status"] == "idle" and s["kernelName"])


def wait_for(page, notebook: Path, what: str, ready, timeout: float = LOAD_TIMEOUT / 1000) -> dict:
    """Poll the notebook's state until ``ready(state)``; on timeout say what was last seen."""
    deadline = time.monotonic() + timeout
    while True:
        now = state(page, notebook)
        if now is not None and ready(now):
            return now
        if time.monotonic() > deadline:
            seen = now and {k: v for k, v in now.items() if k != "prompts"}
            raise AssertionError(f"{notebook.name}: waited {timeout:.0f} s for {what}; last seen {seen}")
        time.sleep(0.25)


# The first minute, read once the kernel has answered (JupyterLab writes the kernel's language_info
# into the notebook then: a stored language_info that differs marks the notebook modified).
_FIRST_MINUTE_JS = """
async (path) => {
  const panel = window.jupyterapp.shell.currentWidget;
  if (!panel || !panel.context || panel.context.path !== path) return null;
  const kernel = panel.sessionContext.session ? panel.sessionContext.session.kernel : null;
  if (kernel) await kernel.info;
  await new Promise(resolve => setTimeout(resolve, 100));
  const cells = panel.content.widgets;
  const hidden = cells.filter(c => c.model.type === 'code' && c.inputHidden).map(c => cells.indexOf(c));
  const dirtyTab = [...document.querySelectorAll('.lm-TabBar-tab.jp-mod-current')]
    .some(tab => tab.classList.contains('jp-mod-dirty'));
  return {dirty: panel.context.model.dirty, dirtyTab, inputHidden: hidden,
          languageInfo: panel.context.model.getMetadata('language_info')};
}
"""


def first_minute(page, notebook: Path) -> dict:
    """What a learner sees on opening: the modified mark, and which code cells hide their input."""
    return page.evaluate(f"(path) => ({_FIRST_MINUTE_JS})(path)", f"notebooks/{notebook.name}")


def first_minute_problems(seen: dict, cells) -> list[str]:
    """Why the notebook does not open clean: marked modified, or the Colab cell's code on show."""
    problems = []
    if seen["dirty"] or seen["dirtyTab"]:
        problems.append(
            "opened untouched, it is marked modified (the unsaved-changes dot): JupyterLab changed "
            f"the notebook on opening; its language_info is now {seen['languageInfo']} (the stored "
            "one must be the kernel's, as `make execute` writes it)"
        )
    colab = [i for i, c in enumerate(cells) if "colab-setup" in tags(c)]
    shown = [i for i in colab if i not in seen["inputHidden"]]
    if shown:
        problems.append(f"the Colab set-up cell {shown} shows its code: `python -m tools.links write` "
                        'sets "jupyter": {"source_hidden": true} on it')
    return problems


def restart_and_run_all(page, notebook: Path, started: float) -> Run:
    """Clear the outputs, press Restart Kernel and Run All, confirm, and wait until the run ends.

    Outputs are cleared first so that a shown execution count can only come from this run. The
    run has ended when the kernel is idle, no cell waits (``[*]``), at least one count is shown,
    and that picture holds for two polls in a row.
    """
    menu(page, "Edit", "editmenu:clear-all")
    cleared = state(page, notebook)
    assert all(p in (None, "[ ]:") for p in cleared["prompts"]), f"outputs not cleared: {cleared['prompts']}"
    page.locator('.jp-NotebookPanel-toolbar [data-command="notebook:restart-run-all"]').click()
    page.locator(".jp-Dialog .jp-mod-accept").click()
    deadline = time.monotonic() + RUN_TIMEOUT
    previous = None
    while True:
        now = state(page, notebook)
        prompts = now["prompts"]
        finished = (
            now["status"] == "idle"
            and "[*]:" not in prompts
            and any(p and _COUNT.match(p) for p in prompts)
        )
        if finished and now == previous:
            break
        if time.monotonic() > deadline:
            raise AssertionError(f"{notebook.name}: still running after {RUN_TIMEOUT:.0f} s: {now}")
        previous = now if finished else None
        time.sleep(0.5)
    counts = {}
    for i, cell in enumerate(_read(notebook).cells):
        if cell.cell_type == "code" and cell.source.strip():
            match = _COUNT.match(prompts[i] or "")
            counts[i] = int(match.group(1)) if match else None
    found = page.evaluate(f"(path) => ({_ERRORS_JS})(path)", f"notebooks/{notebook.name}")
    return Run(counts, found["errors"], found["outputs"], found["shownErrors"], now["kernelName"],
               time.monotonic() - started)


def screenshot(page, notebook: Path, focus: int | None = None) -> Path:
    """Save what the learner sees: the first cell that went wrong, else the first picture drawn."""
    cells = page.locator(_CELLS)
    if focus is None:
        pictures = page.locator(f"{_CELLS}:has(.jp-OutputArea-output img)")
        cell = pictures.first if pictures.count() else cells.first
    else:
        cell = cells.nth(focus)
    if cell.is_visible():  # a cell under a folded heading (a deep dive) cannot be scrolled to
        cell.scroll_into_view_if_needed()
    target = SCREENSHOTS / f"{notebook.stem}.png"
    page.screenshot(path=str(target))
    return target


def close_tabs(page, command: str = "application:close") -> None:
    """File → Close Tab (or Close All Tabs), answering *Discard* if JupyterLab asks to save.

    Nothing the browser ran is ever saved. Waits until no notebook tab is left open when closing
    all, or until the closed notebook is no longer the current widget.
    """
    before = page.evaluate("() => { const w = window.jupyterapp.shell.currentWidget;"
                           " return w && w.context ? w.context.path : null; }")
    menu(page, "File", command)
    discard = page.locator(".jp-Dialog .jp-Dialog-button", has_text="Discard")
    deadline = time.monotonic() + 30
    while True:
        if discard.count() and discard.first.is_visible():
            discard.first.click()
        still_open = page.evaluate(
            "([before, all]) => { const shell = window.jupyterapp.shell;"
            " if (all) return [...shell.widgets('main')].some(w => w.context && w.context.path);"
            " const w = shell.currentWidget; return !!(w && w.context && w.context.path === before); }",
            [before, command == "application:close-all"],
        )
        if not still_open and not page.locator(".jp-Dialog").count():
            return
        assert time.monotonic() < deadline, f"could not close {before!r}: a dialog or the tab is still open"
        time.sleep(0.25)


def shut_down_kernel(lab: LabServer, notebook: Path) -> None:
    """Stop the notebook's kernel through the server (frees memory for the next notebook)."""
    lab.remember_kernels()
    for session in lab.api("sessions"):
        if session["path"] == f"notebooks/{notebook.name}":
            lab.api(f"sessions/{session['id']}", method="DELETE")


@pytest.fixture(scope="module")
def lab_page(lab: LabServer, browser: Browser) -> LabPage:
    pages = LabPage(lab, browser)
    pages.fresh()
    return pages


# --------------------------------------------------------------------------- the tests

def test_without_chromium_the_browser_test_skips_and_says_why_or_fails_in_ci(monkeypatch):
    """A learner without Chromium gets a skip with the reason; CI (RETRIEVAL_LAB_REQUIRE_BROWSER=1) fails."""
    monkeypatch.setattr(sys.modules[__name__], "find_chromium", lambda: None)
    reason = _why_unavailable()
    assert reason and "apt-get install chromium" in reason and "playwright install" in reason
    monkeypatch.setattr(sys.modules[__name__], "REQUIRED", False)
    with pytest.raises(pytest.skip.Exception, match="browser test skipped"):
        _skip_or_fail(reason)
    monkeypatch.setattr(sys.modules[__name__], "REQUIRED", True)
    with pytest.raises(pytest.fail.Exception, match="may not skip"):
        _skip_or_fail(reason)


def _server_offers_the_course_kernel_from_the_venv(lab: LabServer):
    """The kernel the notebooks ask for is the Makefile's, registered in .venv (--sys-prefix)."""
    specs = lab.api("kernelspecs")["kernelspecs"]
    assert "retrieval-lab" in specs, f"the course kernel is not registered: {sorted(specs)}; run `make venv`"
    argv = specs["retrieval-lab"]["spec"]["argv"]
    assert Path(argv[0]) == VENV_BIN / "python", f"retrieval-lab runs {argv[0]}, not .venv's python"
    # The first minute: one kernel to pick, and no news question covering the notebook.
    assert sorted(specs) == ["retrieval-lab"], f"the Launcher offers {sorted(specs)}: see jupyter-prefix/"
    news = lab.settings("@jupyterlab/apputils-extension:notification")
    assert (news["fetchNews"], news["checkForUpdates"]) == ("false", False), news


@contextlib.contextmanager
def opened_clean(notebook: Path, lab: LabServer, lab_page: LabPage, marks: dict[str, float]):
    """Open the served copy of ``notebook`` and assert its first minute (not marked modified, the
    Colab cell collapsed); yield the page and that copy; then close the tab (never saving) and
    shut its kernel down, with a fresh page after a failure so it cannot spill into the next
    notebook. ``marks`` gets the times it was asked for, opened and checked (the body's end)."""
    marks["started"] = time.monotonic()
    notebook = lab.root / "notebooks" / notebook.name  # the copy the server serves
    page = lab_page.current()
    ok = False
    try:
        open_notebook(page, notebook)
        seen = first_minute(page, notebook)
        marks["opened"] = time.monotonic()
        first = first_minute_problems(seen, _read(notebook).cells)
        assert not first, f"{notebook.name}, the first minute: " + "; ".join(first)
        yield page, notebook
        marks["checked"] = time.monotonic()
        close_tabs(page)
        ok = True
    finally:
        shut_down_kernel(lab, notebook)
        if not ok:
            lab_page.fresh()
    marks["closed"] = time.monotonic()


def _notebook_runs_in_jupyterlab(notebook: Path, lab: LabServer, lab_page: LabPage, timings):
    """Open, Restart Kernel and Run All from the UI: every cell runs, errors only where tagged."""
    marks: dict[str, float] = {}
    with opened_clean(notebook, lab, lab_page, marks) as (page, notebook):
        cells = _read(notebook).cells
        run = restart_and_run_all(page, notebook, marks["opened"])
        expected_errors = [i for i, c in enumerate(cells) if "raises-exception" in tags(c)]
        unexpected = [i for i in run.errors if i not in expected_errors]
        missing = [i for i, n in run.counts.items() if n is None]
        shot = screenshot(page, notebook, focus=(unexpected or missing or [None])[0])
        marks["ran"] = time.monotonic()
        where = f"(see {shot.relative_to(ROOT)})"
        assert run.kernel == "retrieval-lab", f"{notebook.name} ran on kernel {run.kernel!r}"
        assert not unexpected, (
            f"{notebook.name}: cells {unexpected} show an error but are not tagged raises-exception {where}"
        )
        assert not missing, f"{notebook.name}: cells {missing} did not run (Run All stopped early?) {where}"
        assert list(run.counts.values()) == list(range(1, len(run.counts) + 1)), (
            f"{notebook.name}: execution counts {list(run.counts.values())} are not 1..{len(run.counts)} {where}"
        )
        assert set(run.errors) <= set(run.shown_errors), f"{notebook.name}: errors not shown on the page {where}"
        assert run.errors == expected_errors, (
            f"{notebook.name}: cells tagged raises-exception {expected_errors}, cells with an error {run.errors}"
        )
        differ = differences(_read(ROOT / "notebooks" / notebook.name), run.outputs)
        assert not differ, (
            f"{notebook.name}: with numpy's sort as a CPU without AVX2 runs it "
            f"(NPY_DISABLE_CPU_FEATURES={OTHER_CPU!r}), cells {sorted(differ)} show other outputs than "
            f"the stored ones (make nbval-other-cpu NB=notebooks/{notebook.name} says the same):\n"
            + "\n".join(f"cell {i}: {text}" for i, text in differ.items())
        )
        _assert_accessible(page, notebook)
        for explorer_notebook, index in explorer_cells():
            if explorer_notebook.name == notebook.name:
                explorer_follows_the_lambda_slider(page, notebook, index, run)
    timings[notebook.stem] = {"open": marks["opened"] - marks["started"],
                              "restart + run all": marks["ran"] - marks["opened"],
                              "checks": marks["checked"] - marks["ran"],
                              "close": marks["closed"] - marks["checked"]}


def _notebook_opens_clean_in_jupyterlab(notebook: Path, lab: LabServer, lab_page: LabPage, timings):
    """Open a notebook as a learner first does: on the course kernel, not marked modified, the
    Colab cell collapsed. (Its content's accessibility, outputs included, is checked on the
    outputs of its full run, in `make test-browser`.)"""
    marks: dict[str, float] = {}
    with opened_clean(notebook, lab, lab_page, marks) as (page, notebook):
        kernel = state(page, notebook)["kernelName"]
        assert kernel == "retrieval-lab", f"{notebook.name} opened on kernel {kernel!r}"
    timings[notebook.stem] = {"open": marks["opened"] - marks["started"],
                              "checks": marks["checked"] - marks["opened"],
                              "close": marks["closed"] - marks["checked"]}


def _assert_accessible(page, notebook: Path) -> None:
    """axe-core on the course's content as the page shows it (JupyterLab's own interface is
    recorded once, for the first notebook, and never failed)."""
    course = accessibility.course_violations(page, _NOTEBOOK)
    found = {"course content": course}
    if notebook.stem == NOTEBOOKS[0].stem:
        found["whole page (JupyterLab's own, not failed)"] = accessibility.violations(page)
    report = accessibility.record(SCREENSHOTS, notebook.stem, found)
    assert not course, (
        f"{notebook.name}: accessibility violations in course content (see {report.relative_to(ROOT)}): "
        + accessibility.describe(course)
    )


# --------------------------------------------------------------------------- the MMR explorer

@functools.cache
def explorer_cells() -> tuple[tuple[Path, int], ...]:
    """(notebook, cell index) of each live cell (tag ``widget``) that shows the MMR explorer
    (read once: collecting the tests asks for it several times, and reading 18 notebooks costs)."""
    found = []
    for notebook in NOTEBOOKS:
        for i, cell in enumerate(_read(notebook).cells):
            if "widget" in tags(cell) and re.search(r"\b(mmr_explorer|MMRExplorer)\(", cell.source):
                found.append((notebook, i))
    return tuple(found)


def explorer_controls(cell) -> dict:
    """What the explorer's controls show: the query box and each slider's readout, by label."""
    values = {"query": cell.locator(".widget-text input").first.input_value()}
    for slider in cell.locator(".widget-slider").all():
        label = slider.locator(".widget-label").text_content().strip()
        values[label] = slider.locator(".widget-readout").text_content().strip()
    return values


def predicted_line(controls: dict) -> str:
    """The picks line retrieval_lab.plots.widgets says the explorer shows for these control values."""
    from retrieval_lab.plots.widgets import explorer_view

    view = explorer_view(controls["query"], float(controls["λ"]), int(controls["k"]), int(controls["fetch_k"]))
    return view.mmr_line


def explorer_settles(cell, lam: str, timeout: float = 60.0) -> tuple[dict, str]:
    """Wait until the λ readout shows ``lam`` and the picks shown are the predicted ones."""
    picks = cell.locator(".mmr-picks")
    deadline = time.monotonic() + timeout
    while True:
        controls = explorer_controls(cell)
        shown = picks.text_content().strip()
        if controls["λ"] == lam and shown == predicted_line(controls):
            return controls, shown
        assert time.monotonic() < deadline, (
            f"after moving λ to {lam}: controls {controls}, shows {shown!r}, predicted {predicted_line(controls)!r}"
        )
        time.sleep(0.25)


def explorer_follows_the_lambda_slider(page, notebook: Path, index: int, run: Run) -> None:
    """Move the explorer's λ slider in the browser: it shows the picks retrieval_lab.plots.widgets predicts.

    Called inside the run of the notebook that shows the explorer, while it is still open with
    its kernel alive, so the notebook is not run a second time for it.
    """
    assert index not in run.errors, f"{notebook.name}: the explorer cell {index} raised"
    cell = page.locator(_CELLS).nth(index)
    cell.scroll_into_view_if_needed()
    picks = cell.locator(".mmr-picks")
    picks.wait_for(timeout=60_000)
    before = explorer_controls(cell)
    shown_before = picks.text_content().strip()
    assert shown_before == predicted_line(before), f"before moving λ: shows {shown_before!r} for {before}"
    # Move λ to whichever end changes the picks (1 is plain relevance, 0 is the most diverse):
    # focus the slider's handle and press Home or End, as a keyboard user does. (A mouse drag
    # depends on pixel positions, which shift while offscreen cells are painted in.)
    ends = {"0.00": dict(before, **{"λ": "0.00"}), "1.00": dict(before, **{"λ": "1.00"})}
    target = next((end for end, c in ends.items() if predicted_line(c) != shown_before), None)
    assert target, f"moving λ to 0 or 1 would not change the picks {shown_before!r}: nothing to show"
    slider = cell.locator(".widget-slider", has=page.locator(".widget-label", has_text="λ"))
    handle = slider.locator(".noUi-handle")
    handle.focus()
    page.keyboard.press("Home" if target == "0.00" else "End")
    _, shown_after = explorer_settles(cell, target)
    assert shown_after != shown_before
    # And back across to the other end: the picks follow the prediction again.
    other = "1.00" if target == "0.00" else "0.00"
    page.keyboard.press("End" if other == "1.00" else "Home")
    explorer_settles(cell, other)
    wait_for(page, notebook, "the explorer to redraw", lambda s: s["status"] == "idle")
    page.screenshot(path=str(SCREENSHOTS / "mmr_explorer.png"))


def test_some_notebook_shows_the_mmr_explorer():
    """The slider check runs inside that notebook's browser run: make sure there is one to run."""
    assert explorer_cells(), "no notebook shows the MMR explorer (a cell tagged widget calling mmr_explorer())"


# --------------------------------------------------------------------------- live slides (RISE)

def _rise_renders_a_notebook_as_live_slides(lab: LabServer, lab_page: LabPage):
    """jupyterlab-rise works in this JupyterLab: its toolbar button renders the notebook as reveal.js slides."""
    notebook = lab.root / "notebooks" / NOTEBOOKS[0].name
    page = lab_page.current()
    ok = False
    try:
        open_notebook(page, notebook)
        assert page.evaluate("() => ['RISE:preview', 'RISE:slideshow'].every("
                             "c => window.jupyterapp.commands.hasCommand(c))"), "RISE's commands are missing"
        # RISE saves the notebook before rendering it, without asking: no stray key may do that
        # (jupyter-prefix/ switches Alt+R off); the toolbar button below still renders.
        bound = page.evaluate("() => window.jupyterapp.commands.keyBindings"
                              ".filter(b => b.command === 'RISE:preview').map(b => b.keys.join(' '))")
        assert bound == [], f"RISE:preview is bound to {bound}: it saves without asking (see jupyter-prefix/)"
        button = page.locator('.jp-NotebookPanel-toolbar [data-command="RISE:preview"]')
        assert button.is_visible(), "the RISE button is not in the notebook toolbar"
        button.click()  # RISE saves first: it writes the served copy, never the repository's notebook
        frame = page.frame_locator("iframe[src*='/rise/']")
        frame.locator(".reveal .slides section").first.wait_for(timeout=LOAD_TIMEOUT)
        page.wait_for_timeout(1000)
        sections = frame.locator(".reveal .slides > section").count()
        slides = sum(
            c.metadata.get("slideshow", {}).get("slide_type") == "slide" for c in _read(notebook).cells
        )
        assert sections >= max(slides, 1), f"RISE shows {sections} slides, the notebook marks {slides}"
        page.screenshot(path=str(SCREENSHOTS / "rise.png"))
        close_tabs(page, "application:close-all")
        ok = True
    finally:
        shut_down_kernel(lab, notebook)
        lab_page.fresh() if not ok else None


# --------------------------------------------------------------------------- two halves
# Each class is one scope for pytest-xdist's --dist loadscope: the halves run on two workers, each
# with its own server and browser. Run alone, one server and one browser serve both halves
# (module-scoped fixtures).


def _half(which: int) -> list[Path]:
    """Notebooks 0, 3, 4, 7, 8, … (which=0) or 1, 2, 5, 6, 9, … (which=1): a snake order, since
    the later notebooks are the heavier (real models, engines, a server) and alternating ones
    gave one half 05, 07, 11, 13 and 15 (139 s against 116 s, measured 2026-12-04)."""
    return [nb for i, nb in enumerate(NOTEBOOKS) if (i % 4 in (0, 3)) == (which == 0)]


def _explorer_notebooks() -> list[Path]:
    """The notebooks with the live MMR explorer, whose slider their full run moves."""
    return sorted({notebook for notebook, _ in explorer_cells()})


def runs(which: int) -> list[Path]:
    """The notebooks this half runs in full: its half with RUN_ALL (`make test-browser`), else
    none (`make test` opens them)."""
    return _half(which) if RUN_ALL else []


def opens(which: int) -> list[Path]:
    """The notebooks this half only opens: none with RUN_ALL (a full run opens each one and checks
    its first minute too), else notebook 00, the one `make lab`'s link opens. Opening all 18 here
    cost 62 s of CPU (JupyterLab draws each notebook and starts its kernel), a third of what
    `make test` may spend; tools/links.py and test_first_minute.py check every notebook's cause of
    a clean first minute statically, and `make test-browser` opens every one."""
    return [] if RUN_ALL or which == 1 else [NOTEBOOKS[0]]


def _ids(notebooks: list[Path]) -> list[str]:
    return [nb.stem for nb in notebooks]


def _half_tests(which: int, name: str, half: str) -> type:
    """One half's tests: one xdist scope, with its own server and browser. A half defines a test
    only when it has notebooks for it (an empty parametrize would show as a skip that means
    nothing)."""

    class Half:
        HALF = half

        if runs(which):
            @pytest.mark.parametrize("notebook", runs(which), ids=_ids(runs(which)))
            def test_notebook_runs_in_jupyterlab(self, notebook: Path, lab: LabServer, lab_page: LabPage,
                                                 timings):
                """Open, Restart Kernel and Run All from the UI: every cell runs, errors only where tagged."""
                _notebook_runs_in_jupyterlab(notebook, lab, lab_page, timings)

        if opens(which):
            @pytest.mark.parametrize("notebook", opens(which), ids=_ids(opens(which)))
            def test_notebook_opens_clean_in_jupyterlab(self, notebook: Path, lab: LabServer, lab_page: LabPage,
                                                        timings):
                """Opened untouched: course kernel, not modified, Colab cell collapsed."""
                _notebook_opens_clean_in_jupyterlab(notebook, lab, lab_page, timings)

        if which == 0:
            def test_server_offers_the_course_kernel_from_the_venv(self, lab: LabServer):
                _server_offers_the_course_kernel_from_the_venv(lab)

        if which == 1 and RUN_ALL:  # with the full runs (and the explorer's slider, in 07's run)
            def test_rise_renders_a_notebook_as_live_slides(self, lab: LabServer, lab_page: LabPage):
                _rise_renders_a_notebook_as_live_slides(lab, lab_page)

    Half.__name__ = Half.__qualname__ = name
    return Half


TestInJupyterLabFirstHalf = _half_tests(0, "TestInJupyterLabFirstHalf", "first-half")
TestInJupyterLabSecondHalf = _half_tests(1, "TestInJupyterLabSecondHalf", "second-half")


def test_make_test_opens_notebook_00_and_make_test_browser_runs_every_notebook():
    """`make test` opens notebook 00 and `make test-browser` runs every notebook in full, whichever
    mode this run is in: the lists are computed, not typed, so a new notebook cannot slip out."""
    global RUN_ALL
    saved = RUN_ALL
    try:
        RUN_ALL = False
        assert runs(0) + runs(1) == [] and opens(0) + opens(1) == [NOTEBOOKS[0]]
        RUN_ALL = True
        assert sorted(runs(0) + runs(1)) == sorted(NOTEBOOKS) and opens(0) + opens(1) == []
        assert set(_explorer_notebooks()) <= set(runs(0) + runs(1)) and _explorer_notebooks()
    finally:
        RUN_ALL = saved
