"""Collect what a library logs, so that a notebook cell prints it in order, not on stderr.

The text splitters report an over-long chunk through ``logging`` (a warning, not an exception).
Printed on stderr, the warning would land beside a cell's output in no fixed order; collected
here, a cell prints it where it belongs (notebook 03).
"""

from __future__ import annotations

import logging


class LogLines(logging.Handler):
    """Collect the warnings of some loggers; ``show()`` prints and forgets them."""

    def __init__(self, *logger_names: str) -> None:
        super().__init__(level=logging.WARNING)
        self.lines: list[str] = []
        for name in logger_names:  # [self] alone: made again, no line is printed twice
            logging.getLogger(name).handlers = [self]
            logging.getLogger(name).propagate = False

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.levelname} {record.name}: {record.getMessage()}")

    def show(self) -> None:
        """Print what was logged since the last call, or say that nothing was."""
        print("\n".join(self.lines) or "(nothing logged)")
        self.lines.clear()
