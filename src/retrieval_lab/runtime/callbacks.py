"""A callback handler that records what a Runnable reports, and shows it as a timeline table.

Every ``invoke`` of a langchain-core Runnable tells its callback handlers when a run starts, ends or
fails. Those events carry a fresh run id (a uuid) each time, so printing them raw would make a
notebook's output change on every run. ``RecordingHandler`` keeps the events but numbers the runs
in the order it first sees them (run 1, run 2, …): the table shows *which* run an event belongs to
and which run is its parent, and prints the same text on every execution.

The handler subclasses langchain-core's ``BaseCallbackHandler`` so the real callback manager
accepts it; the from-scratch runnables of notebook 08 call the same method names, so one handler
records both, and a test can compare the two timelines row by row.
"""

from __future__ import annotations

import html
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler

#: The columns a timeline can show, in the order they appear.
COLUMNS: tuple[str, ...] = ("step", "event", "kind", "run", "parent", "name", "tags", "metadata", "payload")


@dataclass(frozen=True)
class Event:
    """One callback, with the run ids replaced by small numbers (1 = the first run seen)."""

    event: str  # "start" | "end" | "error"
    kind: str  # "chain" | "retriever"
    name: str
    run: int
    parent: int | None
    tags: tuple[str, ...]
    metadata: tuple[tuple[str, str], ...]
    payload: str

    def row(self) -> tuple[Any, ...]:
        """Everything but the step number: what two timelines must agree on."""
        return (self.event, self.kind, self.name, self.run, self.parent, self.tags, self.metadata, self.payload)


def describe(value: Any, width: int = 60) -> str:
    """A short, stable text for what flowed through a run.

    A list of documents shows as their ids (the text would drown the table); an exception as
    ``Type: message``; everything else as its ``repr``, clipped to ``width`` characters.
    """
    if isinstance(value, BaseException):
        message = str(value)
        text = f"{type(value).__name__}: {message}" if message else type(value).__name__
    elif isinstance(value, list) and value and all(_is_document(v) for v in value):
        text = "docs " + ", ".join(str(v.id) for v in value)
    elif isinstance(value, list) and not value:
        text = "[]"
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{k!r}: {describe(v, width)}" for k, v in value.items()) + "}"
    else:
        text = repr(value)
    text = text.replace("\n", "\\n")
    return text if len(text) <= width else text[: width - 1] + "…"


def _is_document(value: Any) -> bool:
    return hasattr(value, "page_content") and hasattr(value, "metadata")


class RecordingHandler(BaseCallbackHandler):
    """Record chain and retriever events; ``handler.timeline()`` shows them as a table.

    Pass it in a config: ``runnable.invoke(x, config={"callbacks": [handler]})``. Events from
    threads (``batch`` runs its inputs in a thread pool) are recorded safely, but their order then
    depends on the scheduler: use ``max_concurrency=1`` in the config for a stable timeline.
    """

    def __init__(self) -> None:
        self.events: list[Event] = []
        self._numbers: dict[UUID, int] = {}
        self._names: dict[UUID, tuple[str, str]] = {}
        self._lock = threading.Lock()

    def clear(self) -> None:
        """Forget every event and run number, to record a new call from run 1."""
        with self._lock:
            self.events.clear()
            self._numbers.clear()
            self._names.clear()

    # ------------------------------------------------------------------ the callbacks

    def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None,
                       tags: list[str] | None = None, metadata: dict[str, Any] | None = None,
                       **kwargs: Any) -> None:
        self._start("chain", inputs, run_id, parent_run_id, tags, metadata, kwargs)

    def on_chain_end(self, outputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any) -> None:
        self._finish("end", outputs, run_id, parent_run_id)

    def on_chain_error(self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None,
                       **kwargs: Any) -> None:
        self._finish("error", error, run_id, parent_run_id)

    def on_retriever_start(self, serialized: Any, query: str, *, run_id: UUID, parent_run_id: UUID | None = None,
                           tags: list[str] | None = None, metadata: dict[str, Any] | None = None,
                           **kwargs: Any) -> None:
        self._start("retriever", query, run_id, parent_run_id, tags, metadata, kwargs)

    def on_retriever_end(self, documents: Any, *, run_id: UUID, parent_run_id: UUID | None = None,
                         **kwargs: Any) -> None:
        self._finish("end", documents, run_id, parent_run_id)

    def on_retriever_error(self, error: BaseException, *, run_id: UUID, parent_run_id: UUID | None = None,
                           **kwargs: Any) -> None:
        self._finish("error", error, run_id, parent_run_id)

    # ------------------------------------------------------------------ bookkeeping

    def _number(self, run_id: UUID | None) -> int | None:
        if run_id is None:
            return None
        return self._numbers.setdefault(run_id, len(self._numbers) + 1)

    def _start(self, kind: str, payload: Any, run_id: UUID, parent_run_id: UUID | None,
               tags: list[str] | None, metadata: dict[str, Any] | None, kwargs: dict[str, Any]) -> None:
        name = str(kwargs.get("name") or "?")
        with self._lock:
            self._names[run_id] = (kind, name)
            self.events.append(Event(
                "start", kind, name, self._number(run_id), self._number(parent_run_id),
                tuple(tags or ()), tuple(sorted((str(k), repr(v)) for k, v in (metadata or {}).items())),
                describe(payload),
            ))

    def _finish(self, event: str, payload: Any, run_id: UUID, parent_run_id: UUID | None) -> None:
        with self._lock:
            kind, name = self._names.get(run_id, ("?", "?"))
            self.events.append(Event(
                event, kind, name, self._number(run_id), self._number(parent_run_id), (), (), describe(payload),
            ))

    # ------------------------------------------------------------------ showing

    def rows(self) -> list[tuple[Any, ...]]:
        """The events as plain tuples (no step numbers), for comparing two timelines."""
        return [e.row() for e in self.events]

    def timeline(self, columns: Sequence[str] = ("step", "event", "kind", "run", "parent", "name", "tags",
                                                   "payload")) -> Timeline:
        """The recorded events as a table; add ``"metadata"`` to ``columns`` to see it too."""
        return Timeline(tuple(self.events), tuple(columns))


@dataclass(frozen=True)
class Timeline:
    """Recorded events as a table: plain text when printed, HTML in a notebook."""

    events: tuple[Event, ...]
    columns: tuple[str, ...] = ("step", "event", "kind", "run", "parent", "name", "tags", "payload")

    def __post_init__(self) -> None:
        unknown = [c for c in self.columns if c not in COLUMNS]
        if unknown:
            raise ValueError(f"unknown timeline column(s) {unknown}; choose from {list(COLUMNS)}.")
        if not self.columns:
            raise ValueError(f"a timeline needs at least one column; choose from {list(COLUMNS)}.")

    def cells(self) -> list[list[str]]:
        """One list of cell texts per event, in the order of ``columns``."""
        return [[_cell(i + 1, e, c) for c in self.columns] for i, e in enumerate(self.events)]

    def __str__(self) -> str:
        body = self.cells()
        widths = [max([len(c)] + [len(row[j]) for row in body]) for j, c in enumerate(self.columns)]
        lines = ["  ".join(c.ljust(w) for c, w in zip(self.columns, widths, strict=True)).rstrip()]
        lines += ["  ".join(x.ljust(w) for x, w in zip(row, widths, strict=True)).rstrip() for row in body]
        return "\n".join(lines) if body else "(no events recorded)"

    __repr__ = __str__

    def _repr_html_(self) -> str:
        head = "".join(f"<th style='text-align:left'>{html.escape(c)}</th>" for c in self.columns)
        body = "".join(
            "<tr>" + "".join(f"<td style='text-align:left'><code>{html.escape(x)}</code></td>" for x in row) + "</tr>"
            for row in self.cells()
        )
        return f"<table><tr>{head}</tr>{body}</table>" if body else "<p>(no events recorded)</p>"


def _cell(step: int, event: Event, column: str) -> str:
    if column == "step":
        return str(step)
    if column == "parent":
        return "-" if event.parent is None else str(event.parent)
    if column == "tags":
        return ", ".join(event.tags) if event.event == "start" else ""
    if column == "metadata":
        return ", ".join(f"{k}={v}" for k, v in event.metadata) if event.event == "start" else ""
    return str(getattr(event, column))


def event_names(events: Iterable[Event]) -> list[str]:
    """``['start chain RunnableSequence', …]``: the shape of a timeline in one line each."""
    return [f"{e.event} {e.kind} {e.name}" for e in events]
