"""What the exercise checks compare against: truth functions, oracles, reference answers and case
generators, one module per notebook (``nb08`` for notebook 08).

They live here, not in visible cells, so that skipping a cell can never make a check agree, and
under names no notebook binds. A check cell imports its notebook's module
(``from retrieval_lab.checks.answers import nb08``) and refers to nothing else but the learner's own
names. Nothing here is part of the course's API.
"""


from __future__ import annotations

import random
import uuid
from typing import Any

import numpy as np


def fresh_seed(seed: int | None = None) -> int:
    """``seed``, or a new one from the operating system: cases drawn afresh at every check, so
    that a table of answers made in advance with the oracle holds none of them."""
    return random.SystemRandom().randrange(2**64) if seed is None else seed


def is_uuid4(text: Any) -> bool:
    """Whether ``text`` is what ``str(uuid.uuid4())`` makes: a version-4 UUID in its canonical form."""
    try:
        return uuid.UUID(text).version == 4 and str(uuid.UUID(text)) == text
    except (TypeError, ValueError, AttributeError):
        return False


def same_numbers(mine: Any, expected: Any, rel: float = 1e-9, absolute: float = 1e-15) -> bool:
    """Whether ``mine`` is numbers (one, or a list or array of them) of ``expected``'s shape, each
    within ``rel`` of its expected value (relative) or ``absolute``: never a string or None."""
    try:
        got, want = np.asarray(mine), np.asarray(expected, dtype=float)
    except (TypeError, ValueError):  # a ragged list
        return False
    return (got.dtype.kind in "biuf" and got.shape == want.shape
            and bool(np.allclose(got, want, rtol=rel, atol=absolute)))
