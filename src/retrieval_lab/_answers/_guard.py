"""Two guards for the answer modules, against shortcuts ``checks.refusing`` cannot see.

- ``frozen``: an answer module whose attributes cannot be set or deleted, so a cell run before
  the check cannot swap its oracle or its cases (``nb09.sqlite_cases = lambda: []`` made a
  check pass on zero cases).
- ``no_calls_on``: while a block runs, a call of any method of an object of the given C types
  raises ``Refused``. ``refusing`` replaces functions and names; an object the learner made
  *before* the check (a SQLite connection opened in the exercise cell) or reached another way
  (``object.__subclasses__()``) is neither, but every use of it is a method call.
- ``CallGuard``: the same kind of profile hook as a ``refuse=`` target, ``(guard, "calls")``,
  for a check cell that hands the learner's function to ``check_function`` as it is: while
  ``refusing`` has replaced the guard's attribute, a C call the guard matches raises
  ``Refused``. A library such as FAISS has many routes to one search (``search``,
  ``search_c``, ``search_and_reconstruct``, the SWIG function itself); all of them end in a
  call of one of its C functions.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Callable, Iterator
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


def _profile(refusal: Callable[[Any, str, Any], str | None]) -> Callable[..., None]:
    """A profile function that raises Refused(name) when ``refusal(frame, event, arg)`` names
    something, and passes every event on to the profile function set before it."""
    previous = sys.getprofile()

    def profile(frame: Any, event: str, arg: Any) -> None:
        name = refusal(frame, event, arg)
        if name is not None:
            raise Refused(name)  # CPython unsets the hook, and the call raises this
        if previous is not None:
            previous(frame, event, arg)

    return profile


def _c_calls(matches: Callable[[Any], bool], name: str) -> Callable[[Any, str, Any], str | None]:
    return lambda frame, event, arg: name if event == "c_call" and matches(arg) else None


@contextmanager
def no_calls_on(kinds: tuple[type, ...], name: str) -> Iterator[None]:
    """While the block runs, calling a method of an instance of ``kinds`` raises Refused(name)."""
    previous = sys.getprofile()
    sys.setprofile(_profile(_c_calls(lambda f: isinstance(getattr(f, "__self__", None), kinds),
                                     name)))
    try:
        yield
    finally:
        sys.setprofile(previous)


class CallGuard:
    """A ``refuse=`` target ``(guard, "calls")``: C calls that ``matches`` raise Refused(name)
    while ``checks.refusing`` has the attribute replaced (it sets it, then puts back None)."""

    def __init__(self, name: str, matches: Callable[[Any], bool]) -> None:
        self.__dict__.update(__name__=name, _refusal=_c_calls(matches, name), _previous=None,
                             calls=None)

    def __setattr__(self, attr: str, value: Any) -> None:
        if attr != "calls":
            raise AttributeError(attr)
        if value is not None and self.__dict__["calls"] is None:
            self.__dict__["_previous"] = sys.getprofile()
            sys.setprofile(_profile(self._refusal))
        elif value is None:
            sys.setprofile(self.__dict__["_previous"])
        self.__dict__["calls"] = value


class CodeGuard(CallGuard):
    """A ``refuse=`` target ``(guard, "calls")`` for Python functions: any function that runs
    the code of one of them refuses, a copy made while the learner's code runs included
    (``types.FunctionType(saved.__code__, ...)``, which swapping the originals' code misses)."""

    def __init__(self, *functions: Any) -> None:
        codes = {f.__code__: f.__name__ for f in functions}
        super().__init__("a copy of " + ", ".join(codes.values()), lambda f: False)

        def refusal(frame: Any, event: str, arg: Any) -> str | None:
            return codes.get(frame.f_code) if event == "call" else None

        self.__dict__["_refusal"] = refusal
