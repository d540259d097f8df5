"""Self-checks for the exercises: they answer back (… not attempted yet, ✗ with a hint, ✓), and
they never crash: the learner's exception is reported, never re-raised. The expected answers are
never typed in: an oracle, usually the real langchain-core class, computes them from the same
inputs, so a check cannot drift from the library.

The rules that make a check a teacher (docs/design.md): an allowlist reads the cell behind the
answer before it runs (``allow.py``, each answer module's ``ALLOWED``); the expected value exists
only after the attempt returns, and the answer is compared only as plain data (``allow.plain``);
a prediction is a literal, and the message counts right answers without naming them; an
exception agrees with the oracle only when the learner's function raised it, never a
``NameError``; a check gives up after ``TIME_LIMIT`` seconds.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import inspect
import operator
import os
import signal
import sys
import textwrap
import threading
import types
from collections.abc import Callable, Iterator, Sequence
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
    return CheckResult(exercise, "not attempted", f"not attempted yet - replace {stub} and run both cells.")


def _wrong(exercise: str, problem: str, hint: str) -> CheckResult:
    return CheckResult(exercise, "wrong", f"{problem}. Hint: {hint}")


def _not_plain(exercise: str, problem: NotPlainError, hint: str) -> CheckResult:
    return _wrong(exercise, f"your answer {problem}: the check compares plain values (numbers, "
                  "strings, True/False, None, and lists, tuples, dicts and sets of them), so return one "
                  "of those", hint)


def _missing_name(exercise: str, exc: NameError) -> CheckResult:
    return CheckResult(exercise, "error", f"a name this check needs is not defined ({exc}): run the cells "
                       "above this exercise first (Run > Run All Above Selected Cell), then this one again.")


def _learner_error(exercise: str, exc: BaseException, hint: str, where: str = "") -> CheckResult:
    where = f" - on input ({where})" if where else ""
    advice = (" If that name is defined in a cell above, run that cell first."
              if isinstance(exc, NameError) else "")
    return CheckResult(exercise, "error",
                       f"your code raised {type(exc).__name__}: {exc}{where}.{advice} Hint: {hint}")


def _describe(value: Any, width: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"


def _call_args(case: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """A case is a tuple of positional arguments, or a dict of keyword arguments."""
    if isinstance(case, dict):
        return (), case
    return (case, {}) if isinstance(case, tuple) else ((case,), {})


def _show_case(case: Any) -> str:
    args, kwargs = _call_args(case)
    return ", ".join([_describe(a, 60) for a in args] + [f"{k}={_describe(v, 60)}" for k, v in kwargs.items()])


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


def _answer(exercise: str, hint: str, call: Callable[[], Any]) -> Any:
    """What ``call()`` returns, or the CheckResult that says why the learner's code gave no
    answer: the stub untouched, an answer that is not plain data, or their exception."""
    try:
        return call()
    except NotImplementedError:
        return _not_attempted(exercise)
    except NotPlainError as problem:
        return _not_plain(exercise, problem, hint)
    except Exception as exc:
        return _learner_error(exercise, exc, hint)


def _verdict(exercise: str, problem: Any, hint: str) -> CheckResult:
    return _wrong(exercise, problem, hint) if problem else CheckResult(exercise, "ok", "correct.")


def _allowlist(exercise: str, attempt: Any, owner: Any, hint: str) -> CheckResult | None:
    """A CheckResult when the cell behind the answer uses what the exercise does not allow.

    The exercise's :class:`Allow` is in the ``ALLOWED`` of the answer module ``owner`` (the oracle
    or ``problems`` the check cell passes) comes from or, when the cell passed something else, of
    the loaded answer module whose exercise of that name judges an answer the notebook defines.
    """
    namespace = namespace_of(attempt)
    allowed = getattr(sys.modules.get(getattr(owner, "__module__", None) or ""), "ALLOWED", None)
    if isinstance(allowed, dict) and exercise in allowed:
        allow = allowed[exercise]
    else:
        for name, module in sorted(sys.modules.items()):
            allowed = getattr(module, "ALLOWED", None) if name.startswith("retrieval_lab.checks.answers.nb") else None
            allow = allowed.get(exercise) if isinstance(allowed, dict) else None
            if isinstance(allow, Allow) and all(a in namespace for a in allow.answers):
                break
        else:
            return None
    try:
        review(allow, namespace)
    except RefusedError as refusal:
        return CheckResult(exercise, "error", f"{refusal}.") if refusal.missing else _wrong(exercise, refusal, hint)
    except SyntaxError as exc:
        return CheckResult(exercise, "error", f"your cell does not parse ({exc.msg}).")
    return None


#: Seconds a whole check may take, the learner's code and the check's own work together: the
#: slowest shipped solution's check takes a few seconds, so only a loop that never ends (or a
#: search over every combination) meets it.
TIME_LIMIT = 60.0


class TimeLimitError(BaseException):
    """Raised into the learner's code when a check's time is up: a BaseException, so an
    ``except Exception`` in the learner's code cannot swallow it."""


@contextlib.contextmanager
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


def _check(stub: str = "the `raise NotImplementedError` line", *, function: bool = False,
           owner: str = "") -> Callable[[Callable[..., CheckResult]], Callable[..., CheckResult]]:
    """A check's common start, all of it stopped kindly after TIME_LIMIT seconds: None or ``...``
    is not attempted; with ``function`` the answer must be callable; with ``owner`` (the keyword
    that passes the oracle or ``problems``) the allowlist reads the answer's cell first."""

    def decorate(check: Callable[..., CheckResult]) -> Callable[..., CheckResult]:
        @functools.wraps(check)
        def run(exercise: str, attempt: Any, *, hint: str, **kwargs: Any) -> CheckResult:
            try:
                with _time_limit(TIME_LIMIT):
                    if attempt is None or attempt is Ellipsis:
                        return _not_attempted(exercise, stub)
                    if function and not callable(attempt):
                        return _wrong(exercise, f"expected a function, got {type(attempt).__name__}", hint)
                    if _stub_body(attempt):  # as shipped: no case, store or server is made for it
                        return _not_attempted(exercise)
                    if owner and (refused := _allowlist(exercise, attempt, kwargs.get(owner), hint)):
                        return refused
                    return check(exercise, attempt, hint=hint, **kwargs)
            except TimeLimitError:
                return CheckResult(exercise, "error", f"the check stopped your code after {TIME_LIMIT:g} s. A "
                                   "loop whose condition never changes, or one that tries every combination, "
                                   "runs on forever: print what the loop changes at each step on a small input.")

        return run

    return decorate


@_check(function=True, owner="oracle")
def check_function(exercise: str, attempt: Any, *, oracle: Callable[..., Any], cases: Sequence[Any], hint: str,
                   same: Callable[[Any, Any], bool] | None = None, reveal_expected: bool = False) -> CheckResult:
    """Call ``attempt`` on every case, then ``oracle``, and compare what they return.

    On each case the attempt runs on its own copy of the inputs and its answer becomes plain data;
    only then does the oracle compute the expected value, and ``same(mine, expected)`` (default
    ``==``) compares the two. Where the oracle raises, the attempt must raise an exception of the
    same family, from inside its own code. A wrong answer names the case and what the learner's
    code returned, never what was expected, so a ``predict`` exercise cannot be solved by reading
    the message; a ``debug`` or ``extend`` exercise, where it helps, may pass ``reveal_expected``.
    """
    equal = same or operator.eq
    for case in cases:
        args, kwargs = _call_args(_plain_or_raw(case))  # the attempt's own copy of plain inputs
        try:
            got, raised = plain(attempt(*args, **kwargs)), None
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
        shown = f"on input ({_show_case(case)})"
        if raised is not None:
            # refusing bad input is right, whatever the message, if the function's own code raised it:
            # its traceback goes below this frame (an error at the call itself does not)
            inside = getattr(raised.__traceback__, "tb_next", None) is not None
            if (expected_raised and inside and not isinstance(raised, NameError)
                    and error_family(type(raised).__name__) == error_family(type(expected).__name__)):
                continue
            return _learner_error(exercise, raised, hint, _show_case(case))
        if expected_raised:
            should = f"should raise {type(expected).__name__}" if reveal_expected else "should be refused"
            return _wrong(exercise, f"{shown} yours returned {_describe(got)}, but this input {should}", hint)
        try:
            agrees = bool(equal(got, expected))
        except Exception as exc:
            agrees = False
            hint = f"{hint} (comparing your answer raised {type(exc).__name__}: {exc})"
        if not agrees:
            wanted = f"expected {_describe(expected)}, " if reveal_expected else "not what it should be: "
            return _wrong(exercise, f"{shown} {wanted}got {_describe(got)}", hint)
    return CheckResult(exercise, "ok", f"correct on all {len(cases)} cases.")


COMPUTED = "write your prediction as a value; running the code comes after"


def _body(function: ast.FunctionDef) -> list[ast.stmt]:
    """A function's statements past its docstring."""
    return function.body[1:] if ast.get_docstring(function, clean=False) is not None else function.body


def _raises_not_implemented(body: list[ast.stmt]) -> bool:
    return len(body) == 1 and isinstance(body[0], ast.Raise) and "NotImplementedError" in ast.unparse(body[0])


def _stub_body(attempt: Any) -> bool:
    """Whether ``attempt`` is a function whose body is still the stub's one ``raise
    NotImplementedError``: read from its source, not run."""
    if not isinstance(attempt, types.FunctionType):
        return False
    try:
        function = ast.parse(textwrap.dedent(inspect.getsource(attempt))).body[0]
    except (OSError, TypeError, SyntaxError, IndexError):
        return False
    return isinstance(function, ast.FunctionDef) and _raises_not_implemented(_body(function))


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
    function = ast.parse(source).body[0]
    if not isinstance(function, ast.FunctionDef):
        raise ValueError(f"define your prediction with `def` ({COMPUTED})")
    body = _body(function)
    if _raises_not_implemented(body):
        raise NotImplementedError  # the untouched stub
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        raise ValueError(f"the function's body must be one `return` of your answer ({COMPUTED})")
    try:
        return ast.literal_eval(body[0].value)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as exc:
        raise ValueError(f"your answer must be written out as plain values - numbers, strings, True/False, "
                         f"None, lists, tuples, dicts, sets ({COMPUTED})") from exc


def _holds_ellipsis(value: Any) -> bool:
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(map(_holds_ellipsis, value))
    return value is Ellipsis


#: Set to "student" (the environment variable RETRIEVAL_LAB_EDITION, or this module's EDITION)
#: in an edition without solutions below the checks: a prediction then hears only ✓ or "not yet",
#: never a count that could be probed one value at a time.
EDITION = os.environ.get("RETRIEVAL_LAB_EDITION", "self-study")


@_check("the `...` with your prediction")
def check_prediction(exercise: str, attempt: Any, *, truth: Callable[[], dict[str, Any]], hint: str,
                     same: Callable[[Any, Any], bool] | None = None) -> CheckResult:
    """Check a ``predict`` exercise: named predictions against what running the code gives.

    ``attempt`` is a zero-argument function whose body is one ``return`` of a dict literal; its
    source is read, never run, so a computed answer is refused, and its cell holds nothing but
    the prediction (a loop over guesses is refused). ``truth()`` runs the real thing and returns
    a dict with the same keys. A wrong answer says how many predictions are right - never which,
    never the right values - and in the student edition only "not yet".
    """
    try:
        guess = prediction_literal(attempt)
        if getattr(attempt, "__module__", None) == "__main__" and (cell := cell_of(attempt)):
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
        return _wrong(exercise, f"answer with a dict of exactly these keys: {sorted(real, key=str)}", hint)
    right = 0
    for key in real:
        with contextlib.suppress(Exception):
            right += bool((same or operator.eq)(guess[key], real[key]))
    if right < len(real):
        student = "student" in (EDITION, os.environ.get("RETRIEVAL_LAB_EDITION"))
        return _wrong(exercise, "not yet" if student else f"{right} of {len(real)} predictions right", hint)
    return CheckResult(exercise, "ok", f"all {len(real)} predictions right.")


@_check("the `...` with your answer", owner="problems")
def check_value(exercise: str, attempt: Any, *, problems: Callable[[Any], str | None], hint: str) -> CheckResult:
    """Check a value the learner built. ``problems(value)`` returns what is wrong, or None.

    ``attempt`` may be a zero-argument function (so a stub can raise NotImplementedError) or the
    value itself (``...`` meaning not attempted); ``problems`` sees it as plain data when it is
    data. Not for predictions: those go through ``check_prediction``.
    """
    value = _answer(exercise, hint, lambda: _plain_or_raw(
        attempt if not callable(attempt) or isinstance(attempt, type) else attempt()))
    if isinstance(value, CheckResult):
        return value
    try:
        problem = problems(value)
    except NameError as exc:
        return _missing_name(exercise, exc)
    except Exception as exc:
        problem = f"could not inspect {_describe(value)} ({type(exc).__name__}: {exc})"
    return _verdict(exercise, problem, hint)


@_check(function=True, owner="problems")
def check_behaviour(exercise: str, attempt: Any, *, problems: Callable[[Callable[..., Any]], str | None],
                    hint: str) -> CheckResult:
    """Check a function by what it does: ``problems(attempt)`` uses it and says what is wrong.

    For exercises whose answer is a behaviour (e.g. "the copy must not share nested dicts")
    rather than a value an oracle can produce. A function ``attempt`` is handed to ``problems``
    answering plain data, so what the check compares is never the learner's own object.
    """
    if not isinstance(attempt, type):
        learner = attempt

        def attempt(*args: Any, **kwargs: Any) -> Any:
            return _plain_or_raw(learner(*args, **kwargs))

        functools.update_wrapper(attempt, learner, assigned=("__name__",), updated=())  # and __wrapped__
    problem = _answer(exercise, hint, lambda: problems(attempt))
    return problem if isinstance(problem, CheckResult) else _verdict(exercise, problem, hint)
