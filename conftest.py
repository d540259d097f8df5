"""Shared pytest set-up: hypothesis profiles and the count of notebooks and cells nbval checked."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import matplotlib
import pytest
from hypothesis import HealthCheck, settings

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



#: The seconds each scope took in the last run (see _ScopeClock): in artifacts/ (not committed),
#: since pyproject's addopts turn pytest's own cache off.
SECONDS_PER_SCOPE = Path(__file__).resolve().parent / "artifacts" / "seconds-per-scope.json"


def _last_seconds() -> dict[str, float]:
    try:
        return json.loads(SECONDS_PER_SCOPE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _scope(nodeid: str) -> str:
    """The unit of work of ``--dist loadscope``, as xdist's LoadScopeScheduling splits it: a module,
    a class, or a notebook (its cells and its solutions' items)."""
    return nodeid.rsplit("::", 1)[0]


class _ScopeClock:
    """Adds up the seconds of every scope in this run and keeps them (``SECONDS_PER_SCOPE``), so
    that the next run hands out the longest scopes first."""

    def __init__(self) -> None:
        self.seconds: Counter[str] = Counter()

    def pytest_runtest_logreport(self, report) -> None:
        self.seconds[_scope(report.nodeid)] += report.duration

    def pytest_sessionfinish(self, session) -> None:
        if not self.seconds:
            return
        known = _last_seconds()
        known.update({scope: round(seconds, 2) for scope, seconds in self.seconds.items()})
        try:
            SECONDS_PER_SCOPE.parent.mkdir(exist_ok=True)
            SECONDS_PER_SCOPE.write_text(json.dumps(known, indent=0, sort_keys=True), encoding="utf-8")
        except OSError:
            pass  # a read-only checkout: the next run orders by kind instead


def pytest_configure(config) -> None:
    if not hasattr(config, "workerinput"):  # the controller (or a run without xdist) sees every report
        config.pluginmanager.register(_ScopeClock(), "retrieval-lab-scope-clock")


def _scope_rank(scope: str, size: int, seconds: dict[str, float] | None = None) -> tuple[int, float]:
    """The order `make test` hands scopes to its workers: the longest first, so no long one starts last.

    A warm run knows how long each scope took last time (``seconds``, ``SECONDS_PER_SCOPE``) and
    orders by that: on two cores the work fits three minutes only if the longest scopes (Qdrant's
    and Postgres's notebooks, the browser halves, the engine suites) do not start near the end.
    A scope the cache does not know yet (a fresh clone, a new test file) goes first, ordered by
    kind: the browser test's halves (they wait on a server and a browser), then the site and
    slides (Chromium again), then the notebooks (nbval, biggest first), then the unit-test modules.
    xdist's own order (most tests first) would start the browser last.
    """
    if seconds and scope in seconds:
        return (4, -seconds[scope])
    if "test_browser.py::" in scope:
        return (0, -size)
    if scope.endswith(("test_site.py", "test_slides.py")):
        return (1, -size)
    if scope.endswith(".ipynb"):
        return (2, -size)
    return (3, -size)


def pytest_xdist_make_scheduler(config, log):
    """LoadScopeScheduling (``--dist loadscope``) with the order above, and no extra work queued
    behind a browser half until it is down to its last test (queued earlier, that work would wait
    a minute or two while another worker sits idle)."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class LongestFirst(LoadScopeScheduling):
        _ordered = False

        def _assign_work_unit(self, node) -> None:
            if not self._ordered:
                seconds = _last_seconds()
                ranked = sorted(self.workqueue.items(),
                                key=lambda unit: _scope_rank(unit[0], len(unit[1]), seconds))
                self.workqueue.clear()
                self.workqueue.update(ranked)
                self._ordered = True
            super()._assign_work_unit(node)

        def _reschedule(self, node) -> None:
            # A worker runs its last queued test only once it knows the next one (or is told to
            # shut down), so a browser half down to its last test must be given work: holding it
            # back then would stall that worker (with -n 2, both halves, for ever).
            busy = self.assigned_work.get(node, {})
            pending = sum(list(done.values()).count(False) for done in busy.values())
            if pending > 1 and any("test_browser.py::" in scope and not all(done.values())
                                   for scope, done in busy.items()):
                return
            super()._reschedule(node)

    return LongestFirst(config, log)


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
