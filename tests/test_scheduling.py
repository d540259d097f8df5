"""The order `make test` hands its work to pytest-xdist's workers (conftest.py)."""

from __future__ import annotations

import conftest


def test_a_warm_run_hands_out_the_longest_scopes_first():
    seconds = {"notebooks/16_qdrant_engine.ipynb": 49.0, "tests/test_postgres.py": 24.0,
               "tests/test_browser.py::TestInJupyterLabFirstHalf": 43.0}
    order = sorted(seconds, key=lambda scope: conftest._rank(scope, seconds))
    assert order == ["notebooks/16_qdrant_engine.ipynb", "tests/test_browser.py::TestInJupyterLabFirstHalf",
                     "tests/test_postgres.py"]


def test_a_scope_the_last_run_did_not_see_goes_first_ordered_by_kind():
    seconds = {"tests/test_postgres.py": 24.0}
    scopes = ["tests/test_postgres.py", "tests/test_new.py", "notebooks/18_new.ipynb",
              "tests/test_browser.py::TestInJupyterLabSecondHalf", "tests/test_site.py"]
    order = sorted(scopes, key=lambda scope: conftest._rank(scope, seconds))
    assert order == ["tests/test_browser.py::TestInJupyterLabSecondHalf", "tests/test_site.py",
                     "notebooks/18_new.ipynb", "tests/test_new.py", "tests/test_postgres.py"]


class _Item:
    def __init__(self, nodeid: str) -> None:
        self.nodeid = nodeid


class _Config:
    def __init__(self, seconds: dict[str, float]) -> None:
        self.cache = self
        self.seconds = seconds

    def get(self, key: str, default):
        return self.seconds if key == conftest.SECONDS_KEY else default


def test_the_collection_is_reordered_by_scope_and_each_scope_keeps_its_order():
    ids = ["tests/test_a.py::test_1", "notebooks/05_x.ipynb::Cell 0", "tests/test_a.py::test_2",
           "notebooks/05_x.ipynb::Cell 1", "notebooks/05_x.ipynb::solutions pass their checks",
           "tests/test_b.py::test_1"]
    items = [_Item(i) for i in ids]
    conftest.pytest_collection_modifyitems(_Config({"tests/test_b.py": 9.0, "tests/test_a.py": 1.0}), items)
    assert [i.nodeid for i in items] == [
        "notebooks/05_x.ipynb::Cell 0", "notebooks/05_x.ipynb::Cell 1",
        "notebooks/05_x.ipynb::solutions pass their checks",
        "tests/test_b.py::test_1", "tests/test_a.py::test_1", "tests/test_a.py::test_2",
    ]


def test_the_clock_adds_up_each_scope_as_xdist_splits_it():
    class Report:
        def __init__(self, nodeid: str, duration: float) -> None:
            self.nodeid, self.duration = nodeid, duration

    clock = conftest._ScopeClock()
    reports = [("notebooks/05_x.ipynb::Cell 0", 1.5), ("notebooks/05_x.ipynb::solutions pass their checks", 2.0),
               ("tests/test_browser.py::TestA::test_b[07_x]", 3.0), ("tests/test_y.py::test_z", 0.5)]
    for nodeid, duration in reports:
        clock.pytest_runtest_logreport(Report(nodeid, duration))
    assert clock.seconds == {"notebooks/05_x.ipynb": 3.5, "tests/test_browser.py::TestA": 3.0, "tests/test_y.py": 0.5}
