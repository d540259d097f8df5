"""Shared pytest set-up: hypothesis profiles and the count of notebooks and cells nbval checked."""

from __future__ import annotations

import os
from collections import Counter

import matplotlib
from hypothesis import HealthCheck, settings

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
    for outcome in ("passed", "failed", "error"):
        for report in terminalreporter.stats.get(outcome, []):
            nodeid = getattr(report, "nodeid", "")
            if ".ipynb::" in nodeid and report.when == "call":
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

