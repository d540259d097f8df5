"""retrieval_lab.runtime.logcapture: a library's warnings printed in order, once each (notebook 03)."""

from __future__ import annotations

import logging

from retrieval_lab.runtime.logcapture import LogLines


def test_warnings_are_collected_shown_once_and_not_propagated(capsys):
    lines = LogLines("retrieval_lab_test.a", "retrieval_lab_test.b")
    logging.getLogger("retrieval_lab_test.a").warning("chunk of %d", 12)
    logging.getLogger("retrieval_lab_test.b").info("below the level")
    logging.getLogger("retrieval_lab_test.b").error("broken")
    lines.show()
    lines.show()
    assert capsys.readouterr().out.splitlines() == [
        "WARNING retrieval_lab_test.a: chunk of 12",
        "ERROR retrieval_lab_test.b: broken",
        "(nothing logged)",
    ]
    assert logging.getLogger("retrieval_lab_test.a").propagate is False


def test_a_second_collector_replaces_the_first():
    first = LogLines("retrieval_lab_test.c")
    second = LogLines("retrieval_lab_test.c")
    logging.getLogger("retrieval_lab_test.c").warning("once")
    assert (first.lines, second.lines) == ([], ["WARNING retrieval_lab_test.c: once"])
