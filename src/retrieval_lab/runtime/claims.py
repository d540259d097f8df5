"""``claim``: the one-line check that ends a cell whose numbers a sentence of the notebook states.

The sentence after the cell says what was measured ("BM25 beats raw counts", "a slope of about
½"); the cell ends in ``claim(...)``, which prints ✓ or ✗ with the measured value. The stored
output holds ✓, so when the data stop backing the sentence the output changes and nbval fails
the notebook, and the notebook guard refuses any stored ✗ (docs/design.md, "Claims").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from numbers import Real
from typing import Any

__all__ = ["claim"]


def _shown(value: Any, digits: int) -> str:
    if isinstance(value, bool) or not isinstance(value, Real):
        if isinstance(value, Sequence) and not isinstance(value, str):
            return "[" + ", ".join(_shown(v, digits) for v in value) + "]"
        return repr(value) if isinstance(value, str) else str(value)
    number = float(value)
    return f"{number:.{digits}f}" if math.isfinite(number) else str(number)


def claim(
    sentence: str,
    value: Any,
    *,
    within: tuple[float, float] | None = None,
    above: float | None = None,
    below: float | None = None,
    equals: Any = None,
    digits: int = 3,
) -> None:
    """Print ``✓ claim: sentence (measured value)`` when ``value`` backs the sentence, else ✗.

    Give exactly one test: ``within=(low, high)`` (both inclusive), ``above=x`` or ``below=x``
    (strict), or ``equals=x`` (for a verdict's words, a count, a list of ids). The value is
    shown rounded to ``digits`` decimals, so the stored output is the same on every machine.
    It returns nothing, so a cell may end with it: the printed line is the cell's output (nbval
    runs cells without history, where a trailing ``;`` would not hide a returned value).
    """
    if not isinstance(sentence, str) or not sentence.strip():
        raise ValueError("claim needs the sentence it checks, as the notebook states it, e.g. "
                         "claim('BM25 beats raw counts', verdict, equals='BM25 beats counts').")
    tests = {"within": within, "above": above, "below": below, "equals": equals}
    given = [name for name, test in tests.items() if test is not None]
    if len(given) != 1:
        raise ValueError(f"claim takes exactly one of within=, above=, below= or equals=; got "
                         f"{', '.join(given) or 'none'}.")
    if given[0] != "equals" and (isinstance(value, bool) or not isinstance(value, Real)):
        raise TypeError(f"{given[0]}= compares numbers; the measured value is {value!r}. Use "
                        f"equals= for words or ids.")
    if within is not None:
        low, high = within
        if low > high:
            raise ValueError(f"within=({low}, {high}): the low bound is above the high one.")
        held, test = low <= float(value) <= high, f"expected {_shown(low, digits)}..{_shown(high, digits)}"
    elif above is not None:
        held, test = float(value) > above, f"expected above {_shown(above, digits)}"
    elif below is not None:
        held, test = float(value) < below, f"expected below {_shown(below, digits)}"
    else:
        held, test = value == equals, f"expected {_shown(equals, digits)}"
    mark = "✓" if held else "✗"
    detail = f"measured {_shown(value, digits)}" + ("" if held else f"; {test}")
    print(f"{mark} claim: {sentence} ({detail})")
