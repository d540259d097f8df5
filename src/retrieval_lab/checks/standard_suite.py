"""LangChain's own standard vector-store tests, run in-process on any store class.

``langchain-tests`` ships ``VectorStoreIntegrationTests``: the suite every vector store that
LangChain lists (Chroma, Qdrant, Pinecone, …) must pass. It is written for pytest: a test class
subclasses it and provides a ``vectorstore`` fixture. A notebook has no pytest run, so
:func:`run_vectorstore_suite` calls the suite's test methods itself, each on a fresh store, and
says for each test whether it passed. :func:`check_standard_suite` turns that into an exercise
check (``retrieval_lab.checks``' style: it answers back, and never crashes on the learner's code).

``tests/test_standard_suites.py`` runs the same suite the ordinary pytest way, and checks that this
runner agrees with it.

Why a thread for the async tests: inside Jupyter an event loop is already running in the main
thread, and ``asyncio.run`` refuses to start a second one there. A worker thread has no loop, so
each async test gets a fresh one of its own, as pytest-asyncio gives each test function.
"""

from __future__ import annotations

import asyncio
import inspect
import traceback
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from retrieval_lab.checks import CheckResult

Status = Literal["passed", "failed", "error", "skipped", "not attempted"]

#: The base class's own guard (no standard test overridden): meaningless outside a test class.
_NOT_A_STORE_TEST = "test_no_overrides_DO_NOT_OVERRIDE"

_INSTALL = "pip install langchain-tests==1.1.9"


@dataclass(frozen=True)
class TestOutcome:
    """What one standard test did on the store: its name, status and (if it did not pass) why."""

    __test__ = False  # not a pytest test class, despite the name

    test: str
    status: Status
    detail: str = ""

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def __str__(self) -> str:
        icon = {"passed": "✓", "skipped": "-", "not attempted": "…"}.get(self.status, "✗")
        return f"{icon} {self.test}" + (f": {self.detail}" if self.detail else "")


def _suite_class() -> type:
    """The suite's class, imported only when a suite runs (langchain-tests is a test tool)."""
    try:
        from langchain_tests.integration_tests import VectorStoreIntegrationTests
    except ImportError as exc:  # a learner environment without the test tools
        raise ImportError(
            f"the standard tests come from the langchain-tests package, which is not installed "
            f"here: run `{_INSTALL}` (in a cell: `%pip install langchain-tests==1.1.9`)."
        ) from exc
    return VectorStoreIntegrationTests


def vectorstore_test_names(*, include_async: bool = True) -> list[str]:
    """The names of the suite's store tests, in the order the suite's source lists them."""
    suite = _suite_class()
    names = [
        name
        for name, member in vars(suite).items()
        if name.startswith("test_") and name != _NOT_A_STORE_TEST and callable(member)
    ]
    if not include_async:
        names = [n for n in names if not inspect.iscoroutinefunction(getattr(suite, n))]
    return names


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _failed_assertion(exc: AssertionError) -> str:
    """The assertion's message, or (a bare ``assert``, outside pytest) the suite's line that
    failed: the learner can look it up in the suite's source."""
    message = str(exc).strip().splitlines()
    if message:
        return message[0]
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "langchain_tests" in f.filename]
    if not frames:
        return "an assertion failed"
    frame = frames[-1]
    return f"failed at `{frame.line}` ({Path(frame.filename).name}, line {frame.lineno})"


def _run_one(suite: Any, name: str, store: Any, pool: ThreadPoolExecutor) -> TestOutcome:
    import pytest  # langchain-tests depends on it, so it is here whenever the suite is

    method = getattr(suite, name)
    try:
        if inspect.iscoroutinefunction(method):
            pool.submit(asyncio.run, method(store)).result()
        else:
            method(store)
    except pytest.skip.Exception as exc:
        return TestOutcome(name, "skipped", str(exc))
    except NotImplementedError:
        return TestOutcome(name, "not attempted", "your code still raises NotImplementedError")
    except AssertionError as exc:
        return TestOutcome(name, "failed", _failed_assertion(exc))
    except Exception as exc:  # the store's own error, reported rather than raised
        return TestOutcome(name, "error", f"your store raised {_first_line(exc)}")
    return TestOutcome(name, "passed")


def run_vectorstore_suite(
    make_store: Callable[[Any], Any],
    *,
    tests: Iterable[str] | None = None,
    include_async: bool = True,
    embeddings: Any = None,
) -> list[TestOutcome]:
    """Run LangChain's ``VectorStoreIntegrationTests`` on stores built by ``make_store``.

    ``make_store(embeddings)`` must return an empty store (a store class itself will do: it is
    called with the embeddings). Each test gets a fresh store, as the suite's fixture would give
    it. ``embeddings`` defaults to the suite's own (``DeterministicFakeEmbedding``, 6 numbers a
    text). ``tests`` picks some tests by name; by default all of them, async ones included.
    An exception from the store is an ``error`` outcome, never raised from here; so is a
    ``make_store`` that fails.
    """
    suite_class = _suite_class()
    names = vectorstore_test_names(include_async=include_async)
    if tests is not None:
        wanted = list(tests)
        unknown = sorted(set(wanted) - set(names))
        if unknown:
            raise ValueError(f"no standard test named {unknown}; the suite has {names}")
        names = [n for n in names if n in wanted]
    suite = suite_class()
    embedding = embeddings if embeddings is not None else suite_class.get_embeddings()
    outcomes = []
    with ThreadPoolExecutor(max_workers=1) as pool:
        for name in names:
            try:
                store = make_store(embedding)
            except NotImplementedError:
                outcomes.append(TestOutcome(name, "not attempted", "building the store"))
                continue
            except Exception as exc:
                outcomes.append(
                    TestOutcome(name, "error", f"building the store raised {_first_line(exc)}")
                )
                continue
            outcomes.append(_run_one(suite, name, store, pool))
    return outcomes


def suite_report(outcomes: Sequence[TestOutcome], *, only_failed: bool = False) -> str:
    """One line per test (✓ passed, ✗ failed with the first line of why), under a count."""
    passed = sum(o.passed for o in outcomes)
    lines = [f"{passed} of {len(outcomes)} standard tests pass"]
    lines += [f"  {o}" for o in outcomes if not (only_failed and o.passed)]
    return "\n".join(lines)


def run_and_report(make_store: Callable[[Any], Any], *, only_failed: bool = False) -> str:
    """:func:`run_vectorstore_suite`, then :func:`suite_report`; never raises, even without
    langchain-tests (the report then says how to install it)."""
    try:
        return suite_report(run_vectorstore_suite(make_store), only_failed=only_failed)
    except ImportError as exc:
        return str(exc)


def check_standard_suite(
    exercise: str,
    make_store: Any,
    *,
    hint: str,
    include_async: bool = True,
) -> CheckResult:
    """An exercise check: ✓ when the learner's store passes every standard test.

    Otherwise the message lists every test, passed or failed, with the reason for each failure.
    A stub that still raises NotImplementedError is "not attempted yet"; a missing langchain-tests
    is said kindly, with the command that installs it.
    """
    if make_store is None or make_store is Ellipsis:
        return CheckResult(exercise, "not attempted", _NOT_ATTEMPTED)
    if not callable(make_store):
        return CheckResult(
            exercise, "wrong", f"expected a store class, got {type(make_store).__name__}. "
            f"Hint: {hint}"
        )
    try:
        outcomes = run_vectorstore_suite(make_store, include_async=include_async)
    except ImportError as exc:
        return CheckResult(exercise, "error", str(exc))
    if any(o.status == "not attempted" for o in outcomes):
        return CheckResult(exercise, "not attempted", _NOT_ATTEMPTED)
    report = suite_report(outcomes)
    if all(o.status in ("passed", "skipped") for o in outcomes):
        return CheckResult(exercise, "ok", report)
    status = "error" if any(o.status == "error" for o in outcomes) else "wrong"
    return CheckResult(exercise, status, f"{report}\nHint: {hint}")


_NOT_ATTEMPTED = (
    "not attempted yet - replace the `raise NotImplementedError` line and run both cells."
)
