"""Shared pytest set-up: hypothesis profiles and the count of notebooks and cells nbval checked."""

from __future__ import annotations

import gc
import os
from collections import Counter

import matplotlib
import pytest
from hypothesis import HealthCheck, settings

# A young-object collection every 10,000 allocations, not 700: the tests' processes hold about
# 575,000 tracked objects (langchain's pydantic models, hypothesis), and the default thresholds
# spent 10.4 s of CPU in 10,856 collections over the quick tests, 4.2 s in 574 so (measured with
# gc.callbacks, 2026-12-06). Only when garbage is freed changes; every test runs the same.
gc.set_threshold(10_000, 10, 10)

# After nbval runs a notebook, its exercises' solutions run through their checks in that kernel.
pytest_plugins = ["tools.nbval_solutions"]

# Helper tests draw figures without a screen. Not through MPLBACKEND: nbval's kernels inherit the
# environment, and a kernel on Agg would store no figures.
matplotlib.use("Agg")

# No deadline: a shared 2-core machine makes per-example timing meaningless. CI explores as many
# examples as a developer does, so a green run means the same everywhere.
settings.register_profile(
    "course", deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow]
)
# `make quick` only: a developer's edit loop with fewer examples. CI and `make test` never use it.
settings.register_profile(
    "quick", deadline=None, max_examples=15, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "course"))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Say how much of the course nbval really compared: a skipped notebook would be silent."""
    cells: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    solutions: Counter[str] = Counter()
    for outcome in ("passed", "failed", "error"):
        for report in terminalreporter.stats.get(outcome, []):
            nodeid = getattr(report, "nodeid", "")
            if nodeid.endswith("::solutions pass their checks") and report.when == "call":
                solutions[outcome] += 1
            if ".ipynb::Cell " in nodeid and report.when == "call":
                notebook = nodeid.split("::")[0]
                cells[notebook] += 1
                if outcome != "passed":
                    failed[notebook] += 1
    if cells:
        terminalreporter.write_sep("-", "nbval")
        terminalreporter.write_line(
            f"nbval checked {len(cells)} notebooks, {sum(cells.values())} cells "
            f"({sum(failed.values())} failed)"
        )
        for notebook in sorted(cells):
            mark = f"  {failed[notebook]} FAILED" if failed[notebook] else ""
            terminalreporter.write_line(f"  {notebook}: {cells[notebook]} cells{mark}")
        terminalreporter.write_line(
            f"exercise solutions run through their checks in nbval's kernels: {solutions['passed']} notebooks "
            f"passed, {solutions['failed'] + solutions['error']} failed"
        )



#: Where pytest's cache (``.pytest_cache``) keeps the seconds each scope took in the last run.
SECONDS_KEY = "retrieval-lab/seconds-per-scope"


def scope_of(nodeid: str) -> str:
    """The unit of work one xdist worker runs whole under ``--dist loadscope``, as xdist splits
    it: a notebook (its cells in order, then its solutions in the same kernel), a test class
    (the browser test's: one server, one browser), or a test module."""
    return nodeid.rsplit("::", 1)[0]


def _rank(scope: str, seconds: dict[str, float]) -> tuple[int, float]:
    """The order scopes go to the workers: the longest first, so no long one starts last.

    A warm run orders by the seconds each scope took last time (pytest's cache). A scope the
    cache does not know (a fresh clone, a new file) goes first, ordered by kind: the browser
    test's classes (they wait on a server and a browser), the site and slides (Chromium again),
    the notebooks (nbval), then unit-test modules.
    """
    if scope in seconds:
        return (4, -seconds[scope])
    if "test_browser.py::" in scope:
        return (0, 0.0)
    if scope.endswith(("test_site.py", "test_slides.py")):
        return (1, 0.0)
    if scope.endswith(".ipynb"):
        return (2, 0.0)
    return (3, 0.0)


def pytest_collection_modifyitems(config, items) -> None:
    """Put the scopes in the order above (each scope's tests stay together, in their order).

    ``--dist loadscope --no-loadscope-reorder`` then hands them out in this order: public
    options and a public hook, no private method of xdist's scheduler. (``--dist loadgroup``
    with ``xdist_group`` marks would be the other public way, but pytest-xdist 3.8 renames
    ``item._nodeid``, which pytest 9.2 no longer reads: the groups are silently ignored.)
    """
    seconds = config.cache.get(SECONDS_KEY, {}) if config.cache is not None else {}
    first: dict[str, int] = {}
    for i, item in enumerate(items):
        first.setdefault(scope_of(item.nodeid), i)
    items.sort(key=lambda item: (_rank(scope_of(item.nodeid), seconds), first[scope_of(item.nodeid)]))


class _ScopeClock:
    """Adds up the seconds of every scope in this run and keeps them in pytest's cache, so that
    the next run hands out the longest scopes first."""

    def __init__(self) -> None:
        self.seconds: Counter[str] = Counter()

    def pytest_runtest_logreport(self, report) -> None:
        self.seconds[scope_of(report.nodeid)] += report.duration

    def pytest_sessionfinish(self, session) -> None:
        if self.seconds and session.config.cache is not None:
            known = session.config.cache.get(SECONDS_KEY, {})
            known.update({scope: round(s, 2) for scope, s in self.seconds.items()})
            session.config.cache.set(SECONDS_KEY, known)


def pytest_configure(config) -> None:
    if not hasattr(config, "workerinput"):  # the controller (or a run without xdist) sees every report
        config.pluginmanager.register(_ScopeClock(), "retrieval-lab-scope-clock")


@pytest.fixture
def search_scaling():
    """``benchmarks/search_scaling.py`` (``make bench``) as a module, for its tiny-size runs."""
    import importlib.util
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parent / "benchmarks" / "search_scaling.py"
    spec = importlib.util.spec_from_file_location("search_scaling", path)
    bench = importlib.util.module_from_spec(spec)
    sys.modules["search_scaling"] = bench
    spec.loader.exec_module(bench)
    return bench
