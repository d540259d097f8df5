"""Self-checks for the exercises: they answer back, and they never crash.

An exercise is a stub the learner fills in, followed by a check cell. The check says one of:

- ``… not attempted yet`` while the stub still raises ``NotImplementedError`` (or is ``...``);
- ``✗ …`` with a hint when the answer is refused or wrong, naming the input it was tried on (and
  never the expected value unless the exercise opts in: a prediction read off a check is not a
  prediction);
- ``✗ … raised …`` when the learner's code raises: the exception is reported, not re-raised;
- ``✓ …`` when the answer agrees with the oracle on every case.

The expected answers are never typed in: each check computes them from an *oracle* - usually the
real langchain-core class - on the same inputs, so a check cannot drift from the library.

The rules that make a check a teacher (docs/design.md, "Rules that make a check a teacher"):

- an allowlist, decided before the code runs: the check reads the cell behind the learner's answer
  and refuses what the exercise does not allow (``allow.py``; each answer module's ``ALLOWED``);
- nothing for the learner's object to fool: the expected value is computed after the attempt
  returns, and the answer is compared only as plain data (``allow.plain``);
- a prediction is a literal the learner writes, and the message counts right answers without
  naming them (in the student edition it says only ✓ or "not yet");
- a broken harness is not agreement: an exception agrees with the oracle only when the learner's
  function raised it for the input under test, and a ``NameError`` never does;
- a loop that never ends is stopped: a check gives up after ``TIME_LIMIT`` seconds and says so
  (``SIGALRM``, in the kernel's main thread, where cells run).
"""

from __future__ import annotations

import ast
import functools
import inspect
import os
import signal
import sys
import textwrap
import threading
import types
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

from retrieval_lab.checks.allow import (
    Allow,
    NotPlainError,
    RefusedError,
    cell_of,
    namespace_of,
    plain,
    prediction_cell,
    review,
)
from retrieval_lab.evaluation.compare import error_family

Status = Literal["not attempted", "wrong", "error", "ok"]

_ICONS: dict[str, str] = {"not attempted": "…", "wrong": "✗", "error": "✗", "ok": "✓"}


@dataclass(frozen=True)
class CheckResult:
    """What a check found. Shown as one or two lines of plain text in the notebook."""

    exercise: str
    status: Status
    message: str

    @property
    def passed(self) -> bool:
        return self.status == "ok"

    def __str__(self) -> str:
        return f"{_ICONS[self.status]} {self.exercise}: {self.message}"

    __repr__ = __str__


def _not_attempted(exercise: str, stub: str = "the `raise NotImplementedError` line") -> CheckResult:
    return CheckResult(
        exercise, "not attempted", f"not attempted yet - replace {stub} and run both cells."
    )


def _describe(value: Any, width: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def _call_args(case: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """A case is a tuple of positional arguments, or a dict of keyword arguments."""
    if isinstance(case, dict):
        return (), case
    if isinstance(case, tuple):
        return case, {}
    return (case,), {}


def _show_case(case: Any) -> str:
    args, kwargs = _call_args(case)
    parts = [_describe(a, 60) for a in args] + [f"{k}={_describe(v, 60)}" for k, v in kwargs.items()]
    return ", ".join(parts)


def _plain_or_raw(value: Any) -> Any:
    """``value`` as plain data when it is data; an object the check inspects itself (a store,
    a class's instance) as it is; a generator as a generator of plain items. A number, string
    or container of a type made from a builtin one is refused (NotPlainError)."""
    if isinstance(value, types.GeneratorType):
        return (_plain_or_raw(item) for item in value)
    try:
        return plain(value)
    except NotPlainError as problem:
        if problem.disguised:
            raise
        return value  # a store, an instance of the learner's vetted class: the check looks


def _plain_calls(attempt: Callable[..., Any]) -> Callable[..., Any]:
    """``attempt``, answering plain data: what the check's code compares is never the learner's
    own object."""

    def run(*args: Any, **kwargs: Any) -> Any:
        return _plain_or_raw(attempt(*args, **kwargs))

    run.__name__ = getattr(attempt, "__name__", "attempt")
    run.__wrapped__ = attempt  # type: ignore[attr-defined]
    return run


def _run_stub(exercise: str, attempt: Any, hint: str) -> Any:
    """The learner's value: ``attempt`` itself, or what calling it returns when it is a function.

    Returns a CheckResult instead when the stub is untouched (NotImplementedError) or raises:
    the learner's exception is reported, never re-raised.
    """
    try:
        if not callable(attempt) or isinstance(attempt, type):
            return _plain_or_raw(attempt)
        return _plain_or_raw(attempt())
    except NotImplementedError:
        return _not_attempted(exercise)
    except NotPlainError as problem:
        return _not_plain(exercise, problem, hint)
    except Exception as exc:
        return _learner_error(exercise, exc, hint)


# --------------------------------------------------------------------------- the allowlist


def _allow_for(exercise: str, owner: Any, namespace: dict[str, Any]) -> Allow | None:
    """The exercise's :class:`Allow`: from the ``ALLOWED`` of the answer module that ``owner``
    (the oracle, ``problems`` or ``truth`` a check cell passes) comes from, or, when a cell put
    something else in its place, from the loaded answer module whose exercise of that name
    judges an answer the notebook defines."""
    module = sys.modules.get(getattr(owner, "__module__", None) or "")
    allowed = getattr(module, "ALLOWED", None)
    if isinstance(allowed, dict) and exercise in allowed:
        return allowed[exercise]
    for name, module in sorted(sys.modules.items()):
        allowed = getattr(module, "ALLOWED", None) if name.startswith(_ANSWERS) else None
        allow = allowed.get(exercise) if isinstance(allowed, dict) else None
        if isinstance(allow, Allow) and all(a in namespace for a in allow.answers):
            return allow
    return None


_ANSWERS = "retrieval_lab.checks.answers.nb"


def _allowlist(exercise: str, attempt: Any, owner: Any, hint: str) -> CheckResult | None:
    """A CheckResult when the cell behind the answer uses what the exercise does not allow."""
    namespace = namespace_of(attempt)
    allow = _allow_for(exercise, owner, namespace)
    if allow is None:
        return None
    try:
        review(allow, namespace)
    except RefusedError as refusal:
        if refusal.missing:
            return CheckResult(exercise, "error", f"{refusal}.")
        return CheckResult(exercise, "wrong", f"{refusal}. Hint: {hint}")
    except SyntaxError as exc:
        return CheckResult(exercise, "error", f"your cell does not parse ({exc.msg}).")
    return None


def _not_plain(exercise: str, problem: NotPlainError, hint: str) -> CheckResult:
    return CheckResult(
        exercise, "wrong",
        f"your answer {problem}: the check compares plain values (numbers, strings, True/False, "
        f"None, and lists, tuples, dicts and sets of them), so return one of those. Hint: {hint}",
    )


def _missing_name(exercise: str, exc: NameError) -> CheckResult:
    return CheckResult(
        exercise, "error",
        f"a name this check needs is not defined ({exc}): run the cells above this exercise "
        "first (Run > Run All Above Selected Cell), then this one again.",
    )


def _raised_inside(exc: BaseException) -> bool:
    """Whether ``exc`` came from inside the called function, not from the call itself.

    Called from the frame that made the call: the traceback's first entry is that frame, so a
    second entry means the function's own code (or code it called) raised.
    """
    tb = exc.__traceback__
    return tb is not None and tb.tb_next is not None


def _learner_error(exercise: str, exc: BaseException, hint: str, where: str = "") -> CheckResult:
    where = f" - on input ({where})" if where else ""
    advice = (" If that name is defined in a cell above, run that cell first."
              if isinstance(exc, NameError) else "")
    return CheckResult(
        exercise, "error",
        f"your code raised {type(exc).__name__}: {exc}{where}.{advice} Hint: {hint}",
    )


#: Seconds a whole check may take, the learner's code and the check's own work together: the
#: slowest shipped solution's check takes a few seconds, so only a loop that never ends (or a
#: search over every combination) meets it.
TIME_LIMIT = 60.0


class TimeLimitError(BaseException):
    """Raised into the learner's code when a check's time is up: a BaseException, so an
    ``except Exception`` in the learner's code cannot swallow it."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise TimeLimitError after ``seconds`` (only in the main thread, where SIGALRM arrives)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def stop(_signum: int, _frame: Any) -> None:
        raise TimeLimitError

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _limited(check: Callable[..., CheckResult]) -> Callable[..., CheckResult]:
    """The check, stopped kindly after TIME_LIMIT seconds."""

    @functools.wraps(check)
    def run(exercise: str, *args: Any, **kwargs: Any) -> CheckResult:
        try:
            with _time_limit(TIME_LIMIT):
                return check(exercise, *args, **kwargs)
        except TimeLimitError:
            return CheckResult(
                exercise, "error",
                f"the check stopped your code after {TIME_LIMIT:g} s. A loop whose condition never "
                "changes, or one that tries every combination, runs on forever: print what the "
                "loop changes at each step on a small input.",
            )

    return run


@_limited
def check_function(
    exercise: str,
    attempt: Any,
    *,
    oracle: Callable[..., Any],
    cases: Sequence[Any],
    hint: str,
    same: Callable[[Any, Any], bool] | None = None,
    reveal_expected: bool = False,
) -> CheckResult:
    """Call ``attempt`` on every case, then ``oracle``, and compare what they return.

    First the exercise's allowlist reads the cell behind the answer (nothing runs before). On
    each case the attempt runs on its own copy of the inputs and its answer becomes plain data;
    only then does the oracle compute the expected value, and ``same(mine, expected)`` (default
    ``==``) compares the two. If the oracle raises on a case, the attempt must raise an exception
    of the same family there too, from inside its own code.

    A wrong answer names the case and shows what the learner's code returned, never what was
    expected, so a ``predict`` exercise cannot be solved by reading the check's message. A
    ``debug`` or ``extend`` exercise, where the expected value helps and gives nothing away, may
    pass ``reveal_expected=True``.
    """
    if attempt is None or attempt is Ellipsis:
        return _not_attempted(exercise)
    if not callable(attempt):
        return CheckResult(
            exercise, "wrong", f"expected a function, got {type(attempt).__name__}. Hint: {hint}"
        )
    refused = _allowlist(exercise, attempt, oracle, hint)
    if refused is not None:
        return refused
    equal = same or (lambda a, b: a == b)
    for case in cases:
        args, kwargs = _call_args(_plain_or_raw(case))  # the attempt's own copy of plain inputs
        raised: BaseException | None = None
        try:
            got = plain(attempt(*args, **kwargs))
        except NotImplementedError:
            return _not_attempted(exercise)
        except NotPlainError as problem:
            return _not_plain(exercise, problem, hint)
        except Exception as exc:
            raised = exc
        args, kwargs = _call_args(case)
        try:  # only now: nothing of the learner's ran while the expected value existed
            expected, expected_raised = oracle(*args, **kwargs), False
        except NameError as exc:
            return _missing_name(exercise, exc)
        except Exception as exc:
            expected, expected_raised = exc, True
        if raised is not None:
            if (expected_raised and _raised_inside(raised) and not isinstance(raised, NameError)
                    and error_family(type(raised).__name__)
                    == error_family(type(expected).__name__)):
                continue  # refusing bad input is right; the message may differ from the real one
            return _learner_error(exercise, raised, hint, _show_case(case))
        if expected_raised:
            return CheckResult(
                exercise,
                "wrong",
                f"on input ({_show_case(case)}) yours returned {_describe(got)}, but this input "
                + (f"should raise {type(expected).__name__}" if reveal_expected
                   else "should be refused")
                + f". Hint: {hint}",
            )
        try:
            agrees = bool(equal(got, expected))
        except Exception as exc:
            agrees = False
            hint = f"{hint} (comparing your answer raised {type(exc).__name__}: {exc})"
        if not agrees:
            wanted = (f"expected {_describe(expected)}, " if reveal_expected
                      else "not what it should be: ")
            return CheckResult(
                exercise,
                "wrong",
                f"on input ({_show_case(case)}) {wanted}got {_describe(got)}. Hint: {hint}",
            )
    return CheckResult(exercise, "ok", f"correct on all {len(cases)} cases.")


COMPUTED = "write your prediction as a value; running the code comes after"


def prediction_literal(attempt: Callable[[], Any]) -> Any:
    """The literal a prediction function returns, read from its source (never by calling it).

    Raises ValueError with the reason when the body is anything but one ``return`` of a literal
    (a docstring allowed): a computed answer is not a prediction.
    """
    if not isinstance(attempt, types.FunctionType) or attempt.__name__ == "<lambda>":
        raise ValueError(f"define your prediction with `def` and one `return` of a value ({COMPUTED})")
    try:
        source = textwrap.dedent(inspect.getsource(attempt))
    except (OSError, TypeError) as exc:
        raise ValueError(f"could not read your prediction's source ({exc}): define it in a cell") from exc
    tree = ast.parse(source)
    function = tree.body[0]
    if not isinstance(function, ast.FunctionDef):
        raise ValueError(f"define your prediction with `def` ({COMPUTED})")
    body = list(function.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]  # the docstring
    if len(body) == 1 and isinstance(body[0], ast.Raise) and "NotImplementedError" in ast.unparse(body[0]):
        raise NotImplementedError  # the untouched stub
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        raise ValueError(f"the function's body must be one `return` of your answer ({COMPUTED})")
    try:
        return ast.literal_eval(body[0].value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as exc:
        raise ValueError(
            f"your answer must be written out as plain values - numbers, strings, True/False, "
            f"None, lists, tuples, dicts, sets ({COMPUTED})"
        ) from exc


def _holds_ellipsis(value: Any) -> bool:
    if value is Ellipsis:
        return True
    if isinstance(value, dict):
        return any(_holds_ellipsis(v) for v in value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(_holds_ellipsis(v) for v in value)
    return False


#: Set to "student" (the environment variable RETRIEVAL_LAB_EDITION, or this module's EDITION)
#: in an edition without solutions below the checks: a prediction then hears only ✓ or "not yet",
#: never a count that could be probed one value at a time.
EDITION = os.environ.get("RETRIEVAL_LAB_EDITION", "self-study")


def _student_edition() -> bool:
    return "student" in (EDITION, os.environ.get("RETRIEVAL_LAB_EDITION"))


@_limited
def check_prediction(
    exercise: str,
    attempt: Any,
    *,
    truth: Callable[[], dict[str, Any]],
    hint: str,
    same: Callable[[Any, Any], bool] | None = None,
) -> CheckResult:
    """Check a ``predict`` exercise: named predictions against what running the code gives.

    ``attempt`` is a zero-argument function whose body is one ``return`` of a dict literal; its
    source is read, never run, so a computed answer is refused, and its cell holds nothing but
    the prediction (a loop over guesses is refused). ``truth()`` runs the real thing and returns
    a dict with the same keys. A wrong answer says how many predictions are right - never which,
    never the right values - and in the student edition only "not yet".
    """
    if attempt is None or attempt is Ellipsis:
        return _not_attempted(exercise, "the `...` with your prediction")
    try:
        guess = prediction_literal(attempt)
        cell = cell_of(attempt) if getattr(attempt, "__module__", None) == "__main__" else None
        if cell is not None:
            prediction_cell(cell[0])
    except NotImplementedError:
        return _not_attempted(exercise)
    except (ValueError, RefusedError) as exc:
        return CheckResult(exercise, "wrong", f"{exc}.")
    except SyntaxError as exc:
        return CheckResult(exercise, "error", f"your prediction does not parse ({exc.msg}).")
    if _holds_ellipsis(guess):
        return _not_attempted(exercise, "each `...` with your prediction")
    try:
        real = truth()
    except NameError as exc:
        return _missing_name(exercise, exc)
    if not isinstance(guess, dict) or set(guess) != set(real):
        return CheckResult(
            exercise, "wrong",
            f"answer with a dict of exactly these keys: {sorted(real, key=str)}. Hint: {hint}",
        )
    equal = same or (lambda a, b: a == b)
    right = 0
    for key in real:
        try:
            right += bool(equal(guess[key], real[key]))
        except Exception:
            pass
    if right < len(real):
        told = "not yet" if _student_edition() else f"{right} of {len(real)} predictions right"
        return CheckResult(exercise, "wrong", f"{told}. Hint: {hint}")
    return CheckResult(exercise, "ok", f"all {len(real)} predictions right.")


@_limited
def check_value(
    exercise: str,
    attempt: Any,
    *,
    problems: Callable[[Any], str | None],
    hint: str,
) -> CheckResult:
    """Check a value the learner built. ``problems(value)`` returns what is wrong, or None.

    ``attempt`` may be a zero-argument function (so a stub can raise NotImplementedError) or the
    value itself (``...`` meaning not attempted); ``problems`` sees it as plain data when it is
    data. Not for predictions: those go through ``check_prediction``.
    """
    if attempt is None or attempt is Ellipsis:
        return _not_attempted(exercise, "the `...` with your answer")
    refused = _allowlist(exercise, attempt, problems, hint)
    if refused is not None:
        return refused
    value = _run_stub(exercise, attempt, hint)
    if isinstance(value, CheckResult):
        return value
    try:
        problem = problems(value)
    except NameError as exc:
        return _missing_name(exercise, exc)
    except Exception as exc:
        problem = f"could not inspect {_describe(value)} ({type(exc).__name__}: {exc})"
    if problem:
        return CheckResult(exercise, "wrong", f"{problem}. Hint: {hint}")
    return CheckResult(exercise, "ok", "correct.")


@_limited
def check_behaviour(
    exercise: str,
    attempt: Any,
    *,
    problems: Callable[[Callable[..., Any]], str | None],
    hint: str,
) -> CheckResult:
    """Check a function by what it does: ``problems(attempt)`` uses it and says what is wrong.

    For exercises whose answer is a behaviour (e.g. "the copy must not share nested dicts")
    rather than a value an oracle can produce. The allowlist reads the answer's cell first; a
    function ``attempt`` is handed to ``problems`` answering plain data. A NotImplementedError
    from the stub means "not attempted"; any other exception from the learner's code is
    reported, not raised.
    """
    if attempt is None or attempt is Ellipsis:
        return _not_attempted(exercise)
    if not callable(attempt):
        return CheckResult(exercise, "wrong",
                           f"expected a function, got {type(attempt).__name__}. Hint: {hint}")
    refused = _allowlist(exercise, attempt, problems, hint)
    if refused is not None:
        return refused
    if not isinstance(attempt, type):
        attempt = _plain_calls(attempt)
    try:
        problem = problems(attempt)
    except NotImplementedError:
        return _not_attempted(exercise)
    except NotPlainError as exc:
        return _not_plain(exercise, exc, hint)
    except Exception as exc:  # reported kindly
        return _learner_error(exercise, exc, hint)
    if problem:
        return CheckResult(exercise, "wrong", f"{problem}. Hint: {hint}")
    return CheckResult(exercise, "ok", "correct.")
