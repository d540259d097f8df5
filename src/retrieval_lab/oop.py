"""``add_to_class``: grow a class across notebook cells, one method per cell (d2l's pattern)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def add_to_class(cls: type) -> Callable[[F], F]:
    """Attach the decorated function to ``cls`` under its own name.

    Why: a notebook teaches a class one method at a time, each method in its own cell followed by
    a cell that runs it; the exported module keeps the same cells in order, so the class is whole
    once the module is imported. Only a plain function is accepted; wrap a property or a
    classmethod yourself before decorating, so the descriptor stays explicit.
    """
    if not isinstance(cls, type):
        raise TypeError(f"add_to_class needs a class, got {cls!r}; write @add_to_class(MyClass).")

    def attach(function: F) -> F:
        name = getattr(function, "__name__", None)
        if name is None:
            raise TypeError(f"add_to_class: {function!r} has no __name__ to attach it under.")
        setattr(cls, name, function)
        return function

    return attach
