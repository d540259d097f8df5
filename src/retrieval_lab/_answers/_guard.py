"""Two guards for the answer modules, against shortcuts ``checks.refusing`` cannot see.

- ``frozen``: an answer module whose attributes cannot be set or deleted, so a cell run before
  the check cannot swap its oracle or its cases (``nb09.sqlite_cases = lambda: []`` made a
  check pass on zero cases).
- ``no_calls_on``: while a block runs, a call of any method of an object of the given C types
  raises ``Refused``. ``refusing`` replaces functions and names; an object the learner made
  *before* the check (a SQLite connection opened in the exercise cell) or reached another way
  (``object.__subclasses__()``) is neither, but every use of it is a method call.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from retrieval_lab.checks import Refused


class _Frozen(types.ModuleType):
    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{self.__name__} is what the checks compare with: it cannot be changed")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{self.__name__} is what the checks compare with: it cannot be changed")


def frozen(name: str) -> None:
    """Make the module ``name`` refuse attribute assignment (call at the end of the module)."""
    sys.modules[name].__class__ = _Frozen


@contextmanager
def no_calls_on(kinds: tuple[type, ...], name: str) -> Iterator[None]:
    """While the block runs, calling a method of an instance of ``kinds`` raises Refused(name)."""
    previous = sys.getprofile()

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "c_call" and isinstance(getattr(arg, "__self__", None), kinds):
            raise Refused(name)

    sys.setprofile(profile)
    try:
        yield
    finally:
        sys.setprofile(previous)
