"""Mine against the real class: run both, compare field by field, show ✓ or ✗ for each.

Notebooks use these to put a from-scratch class beside its langchain-core original; the property
tests use the same functions, so what a table shows a learner is what the tests prove.

The tie rule is explicit: the real InMemoryVectorStore ranks with numpy's unstable argsort, so
documents with equal scores come back in an unspecified order. Two rankings therefore agree when
their scores agree position by position (within ``tol``) and, inside each run of tied scores, they
hold the same ids in any order.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

MISSING = object()


@dataclass(frozen=True)
class Outcome:
    """What calling something did: returned ``value``, or raised ``error`` (type name, message)."""

    value: Any = None
    error: tuple[str, str] | None = None

    def __str__(self) -> str:
        if self.error is not None:
            name, message = self.error
            first_line = message.splitlines()[0] if message else ""
            return f"{name}: {first_line}" if first_line else name
        return repr(self.value)


def outcome(call: Callable[[], Any]) -> Outcome:
    """Run ``call`` and capture its result or its exception, so two calls can be compared."""
    try:
        return Outcome(value=call())
    except Exception as exc:
        return Outcome(error=(type(exc).__name__, str(exc)))


def same_outcome(mine: Outcome, real: Outcome, same: Callable[[Any, Any], bool] | None = None) -> bool:
    """Both returned equal values, or both raised.

    Errors match on *kind*, not text: a scratch class may say more than the real one (and should,
    where the real message is unhelpful). Pydantic's ValidationError is a ValueError, so a scratch
    ValueError or TypeError matches it. A NameError never matches: it means the comparison itself
    names something that does not exist, and two of them would otherwise "agree".
    """
    if "NameError" in {(mine.error or ("",))[0], (real.error or ("",))[0]}:
        return False
    if (mine.error is None) != (real.error is None):
        return False
    if mine.error is not None and real.error is not None:
        return error_family(mine.error[0]) == error_family(real.error[0])
    return (same or _equal)(mine.value, real.value)


def error_family(name: str) -> str:
    """Group exception names that mean 'bad input': ValueError, TypeError and pydantic's ValidationError."""
    return "ValueError" if name in {"ValueError", "ValidationError", "TypeError"} else name


def _equal(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:
        return repr(a) == repr(b)


@dataclass(frozen=True)
class Row:
    label: str
    mine: str
    real: str
    match: bool


@dataclass(frozen=True)
class Comparison:
    """A mine-vs-real table. Prints as text, renders as HTML in a notebook."""

    rows: tuple[Row, ...]
    title: str = "mine vs real"

    @property
    def all_match(self) -> bool:
        return all(row.match for row in self.rows)

    def summary(self) -> str:
        agree = sum(row.match for row in self.rows)
        return f"{agree} of {len(self.rows)} agree" + (" ✓" if self.all_match else " ✗")

    def __str__(self) -> str:
        widths = [max(len(h), *(len(_clip(getattr(r, a))) for r in self.rows)) if self.rows else len(h)
                  for h, a in (("", "label"), ("mine", "mine"), ("real", "real"))]
        lines = [f"{self.title}: {self.summary()}"]
        header = ("", "mine", "real")
        lines.append("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + "  same")
        for r in self.rows:
            cells = (_clip(r.label), _clip(r.mine), _clip(r.real))
            lines.append("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True))
                         + ("  ✓" if r.match else "  ✗"))
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self) -> str:
        body = "".join(
            "<tr>"
            f"<td style='text-align:left'><b>{html.escape(r.label)}</b></td>"
            f"<td style='text-align:left'><code>{html.escape(_clip(r.mine))}</code></td>"
            f"<td style='text-align:left'><code>{html.escape(_clip(r.real))}</code></td>"
            f"<td style='color:{'green' if r.match else 'crimson'}'>{'✓' if r.match else '✗'}</td>"
            "</tr>"
            for r in self.rows
        )
        return (
            f"<p><b>{html.escape(self.title)}</b>: {html.escape(self.summary())}</p>"
            "<table><tr><th>case</th><th>mine</th><th>real</th><th>same</th></tr>"
            f"{body}</table>"
        )


def _clip(text: str, width: int = 70) -> str:
    text = text.replace("\n", "\\n")
    return text if len(text) <= width else text[: width - 1] + "…"


def compare_fields(mine: Any, real: Any, fields: Iterable[str], title: str = "mine vs real") -> Comparison:
    """Compare named attributes of two objects (a missing attribute shows as an error, not a crash)."""
    rows = []
    for name in fields:
        a = outcome(lambda obj=mine, n=name: _field(obj, n))
        b = outcome(lambda obj=real, n=name: _field(obj, n))
        rows.append(Row(name, str(a), str(b), same_outcome(a, b)))
    return Comparison(tuple(rows), title)


def _field(obj: Any, name: str) -> Any:
    """``str()`` and ``repr()`` are fields too: they are part of what a learner sees."""
    if name == "str()":
        return str(obj)
    if name == "repr()":
        return repr(obj)
    return getattr(obj, name)


def compare_calls(
    cases: dict[str, tuple[Callable[[], Any], Callable[[], Any]]],
    title: str = "mine vs real",
    same: Callable[[Any, Any], bool] | None = None,
    show: Callable[[Any], str] = repr,
) -> Comparison:
    """Run each (mine, real) pair of calls and compare what came back, errors included.

    ``show`` turns a returned value into the text a learner reads (e.g. only the ids of documents).
    """
    rows = []
    for label, (call_mine, call_real) in cases.items():
        a, b = outcome(call_mine), outcome(call_real)
        text = [show(o.value) if o.error is None else str(o) for o in (a, b)]
        rows.append(Row(label, text[0], text[1], same_outcome(a, b, same)))
    return Comparison(tuple(rows), title)


def same_ranking(
    mine: Sequence[tuple[str, float]], real: Sequence[tuple[str, float]], tol: float = 1e-9
) -> bool:
    """Do two ranked ``(id, score)`` lists agree under the tie rule of this module?"""
    if len(mine) != len(real):
        return False
    for (_, s1), (_, s2) in zip(mine, real, strict=True):
        if not abs(s1 - s2) <= tol:  # written so, a NaN score never agrees
            return False
    return all(
        sorted(i for i, _ in mine[start:end]) == sorted(i for i, _ in real[start:end])
        for start, end in tie_runs([s for _, s in real], tol)
    )


def tie_runs(scores: Sequence[float], tol: float = 1e-9) -> list[tuple[int, int]]:
    """Split positions of a descending score list into runs of equal scores: ``[(start, end), …]``."""
    runs: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(scores) + 1):
        if i == len(scores) or abs(scores[i] - scores[start]) > tol:
            runs.append((start, i))
            start = i
    return runs


def compare_rankings(
    mine: Sequence[tuple[str, float]],
    real: Sequence[tuple[str, float]],
    title: str = "ranking: mine vs real",
    tol: float = 1e-9,
) -> Comparison:
    """A row per rank: id and score from each side; ✓ when they agree under the tie rule.

    Within a run of tied scores each side is shown sorted by id: the order a store gives tied
    documents depends on how numpy's sort breaks ties on this CPU, so it is not part of the
    result, and a printed table must not depend on it.
    """
    mine, real = _ties_sorted(mine, tol), _ties_sorted(real, tol)
    rows = []
    runs = tie_runs([s for _, s in real], tol)
    length = max(len(mine), len(real))
    for rank in range(length):
        a = mine[rank] if rank < len(mine) else None
        b = real[rank] if rank < len(real) else None
        run = next(((s, e) for s, e in runs if s <= rank < e), (rank, rank + 1))
        ok = (
            a is not None
            and b is not None
            and abs(a[1] - b[1]) <= tol
            and a[0] in {i for i, _ in real[run[0]: run[1]]}
        )
        label = f"#{rank + 1}" + (" (tie)" if run[1] - run[0] > 1 else "")
        rows.append(Row(label, _pair(a), _pair(b), ok))
    return Comparison(tuple(rows), title)


def _ties_sorted(ranking: Sequence[tuple[str, float]], tol: float) -> list[tuple[str, float]]:
    """The ranking with each run of tied scores put in id order (a machine-independent order)."""
    out: list[tuple[str, float]] = []
    for start, end in tie_runs([score for _, score in ranking], tol):
        out += sorted(ranking[start:end], key=lambda pair: str(pair[0]))
    return out


def _pair(item: tuple[str, float] | None) -> str:
    return "—" if item is None else f"{item[0]}  {item[1]:.3f}"


def ids(value: Any, digits: int = 6) -> str:
    """A result shown by its documents' ids (and scores rounded to ``digits``), in one line.

    Why: the scratch and the real ``Document`` print differently, but a search is right when it
    returns the same ids in the same order with the same scores; anything else prints as repr.
    """
    if isinstance(value, list) and value and isinstance(value[0], tuple):
        return repr([(doc.id, round(float(score), digits)) for doc, score in value])
    if isinstance(value, list) and value and hasattr(value[0], "page_content"):
        return repr([doc.id for doc in value])
    return repr(value)


def both(call: Callable[[Any], Any], mine: Any, real: Any) -> tuple[Callable[[], Any], Callable[[], Any]]:
    """The same ``call`` on ``mine`` and on ``real``, as the pair of thunks ``compare_calls`` takes.

    ``mine`` and ``real`` may be objects, classes (``call`` gets the class itself, to build it
    with the arguments it chooses), or zero-argument factories (``lambda: Store(...)``) when
    each call must start from a fresh store: a factory is recognised by being callable
    without being a class or a store (it has no ``similarity_search``).
    """

    def thunk(target: Any) -> Callable[[], Any]:
        fresh = (
            callable(target)
            and not isinstance(target, type)
            and not hasattr(target, "similarity_search")
        )
        return lambda: call(target() if fresh else target)

    return thunk(mine), thunk(real)
