"""``add_to_class``: grow a class across notebook cells, one method per cell (d2l's pattern)."""

from __future__ import annotations

import abc
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def add_to_class(cls: type) -> Callable[[F], F]:
    """Attach the decorated function to ``cls`` under its own name.

    Why: a notebook teaches a class one method at a time, each method in its own cell followed by
    a cell that runs it; the exported module keeps the same cells in order, so the class is whole
    once the module is imported. ``@classmethod``, ``@staticmethod`` and ``@property`` may sit
    under it: the descriptor is attached as it is, under the wrapped function's name.
    """
    if not isinstance(cls, type):
        raise TypeError(f"add_to_class needs a class, got {cls!r}; write @add_to_class(MyClass).")

    def attach(function: F) -> F:
        inner = getattr(function, "fget", None) or getattr(function, "__func__", None)
        name = getattr(function, "__name__", None) or getattr(inner, "__name__", None)
        if name is None:
            raise TypeError(f"add_to_class: {function!r} has no __name__ to attach it under.")
        setattr(cls, name, function)
        if getattr(cls, "__abstractmethods__", None):
            # An ABC computed its abstract methods when the class was made: recount them, so a
            # method added here that implements one lets the class be instantiated.
            abc.update_abstractmethods(cls)
        return function

    return attach
