"""Self-checks for the exercises: they answer back, and they never crash.

An exercise is a stub the learner fills in, followed by a check cell. The check says one of:

- ``… not attempted yet`` while the stub still raises ``NotImplementedError`` (or is ``...``);
- ``✗ …`` with a hint when the answer runs but is wrong, naming the input it was tried on (and
  never the expected value unless the exercise opts in: a prediction read off a check is not a
  prediction);
- ``✗ … raised …`` when the learner's code raises: the exception is reported, not re-raised;
- ``✓ …`` when the answer agrees with the oracle on every case.

The expected answers are never typed in: each check computes them from an *oracle* - usually the
real langchain-core class - on the same inputs, so a check cannot drift from the library.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from retrieval_lab.compare import error_family

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


def _run_stub(exercise: str, attempt: Any, hint: str) -> Any:
    """The learner's value: ``attempt`` itself, or what calling it returns when it is a function.

    Returns a CheckResult instead when the stub is untouched (NotImplementedError) or raises:
    the learner's exception is reported, never re-raised.
    """
    if not callable(attempt) or isinstance(attempt, type):
        return attempt
    try:
        return attempt()
    except NotImplementedError:
        return _not_attempted(exercise)
    except Exception as exc:
        return CheckResult(
            exercise, "error", f"your code raised {type(exc).__name__}: {exc}. Hint: {hint}"
        )


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
    """Call ``attempt`` and ``oracle`` on every case and compare what they return.

    ``same(mine, expected)`` decides equality (default ``==``). If the oracle raises on a case,
    the attempt must raise an exception of the same type there too.

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
    equal = same or (lambda a, b: a == b)
    for case in cases:
        args, kwargs = _call_args(case)
        expected_error: BaseException | None = None
        try:
            expected = oracle(*args, **kwargs)
        except Exception as exc:
            expected_error = exc
        try:
            got = attempt(*args, **kwargs)
        except NotImplementedError:
            return _not_attempted(exercise)
        except Exception as exc:
            if expected_error is not None and error_family(type(exc).__name__) == error_family(
                type(expected_error).__name__
            ):
                continue  # refusing bad input is right; the message may differ from the real one
            return CheckResult(
                exercise,
                "error",
                f"your code raised {type(exc).__name__}: {exc} - on input ({_show_case(case)}). "
                f"Hint: {hint}",
            )
        if expected_error is not None:
            return CheckResult(
                exercise,
                "wrong",
                f"on input ({_show_case(case)}) yours returned {_describe(got)}, but this input "
                + (f"should raise {type(expected_error).__name__}" if reveal_expected
                   else "should be refused")
                + f". Hint: {hint}",
            )
        try:
            agrees = bool(equal(got, expected))
        except Exception as exc:
            agrees = False
            hint = f"{hint} (comparing your answer raised {type(exc).__name__}: {exc})"
        if not agrees:
            wanted = f"expected {_describe(expected)}, " if reveal_expected else "not what it should be: "
            return CheckResult(
                exercise,
                "wrong",
                f"on input ({_show_case(case)}) {wanted}got {_describe(got)}. Hint: {hint}",
            )
    return CheckResult(exercise, "ok", f"correct on all {len(cases)} cases.")


def check_prediction(
    exercise: str,
    attempt: Any,
    *,
    truth: Callable[[], dict[str, Any]],
    hint: str,
    same: Callable[[Any, Any], bool] | None = None,
) -> CheckResult:
    """Check a ``predict`` exercise: the learner's answers, by name, against what running gives.

    ``attempt`` is a dict (or a zero-argument function returning one) of named predictions;
    ``truth()`` runs the real thing and returns the dict of what happened. A wrong answer names
    *which* predictions are wrong and gives the hint, never the right value: the point is to
    think, then run the code and see.
    """
    if attempt is None or attempt is Ellipsis:
        return _not_attempted(exercise, "the `...` with your prediction")
    guess = _run_stub(exercise, attempt, hint)
    if isinstance(guess, CheckResult):
        return guess
    if guess is Ellipsis or (isinstance(guess, dict) and Ellipsis in guess.values()):
        return _not_attempted(exercise, "each `...` with your prediction")  # {"A": ..., ...}
    real = truth()
    if not isinstance(guess, dict) or set(guess) != set(real):
        return CheckResult(
            exercise, "wrong",
            f"answer with a dict of exactly these keys: {sorted(real)}. Hint: {hint}",
        )
    equal = same or (lambda a, b: a == b)
    wrong = []
    for key in sorted(real):
        try:
            agrees = bool(equal(guess[key], real[key]))
        except Exception:
            agrees = False
        if not agrees:
            wrong.append(key)
    if wrong:
        return CheckResult(
            exercise, "wrong",
            f"{len(wrong)} of {len(real)} predictions differ from what the code does: {wrong}. "
            f"Hint: {hint}",
        )
    return CheckResult(exercise, "ok", f"all {len(real)} predictions right.")


def check_value(
    exercise: str,
    attempt: Any,
    *,
    problems: Callable[[Any], str | None],
    hint: str,
) -> CheckResult:
    """Check a value the learner built. ``problems(value)`` returns what is wrong, or None.

    ``attempt`` may be a zero-argument function (so a stub can raise NotImplementedError) or the
    value itself (``...`` meaning not attempted).
    """
    if attempt is None or attempt is Ellipsis:
        return _not_attempted(exercise, "the `...` with your answer")
    value = _run_stub(exercise, attempt, hint)
    if isinstance(value, CheckResult):
        return value
    try:
        problem = problems(value)
    except Exception as exc:
        problem = f"could not inspect {_describe(value)} ({type(exc).__name__}: {exc})"
    if problem:
        return CheckResult(exercise, "wrong", f"{problem}. Hint: {hint}")
    return CheckResult(exercise, "ok", "correct.")


def check_behaviour(
    exercise: str,
    attempt: Any,
    *,
    problems: Callable[[Callable[..., Any]], str | None],
    hint: str,
) -> CheckResult:
    """Check a function by what it does: ``problems(attempt)`` uses it and says what is wrong.

    For exercises whose answer is a behaviour (e.g. "the copy must not share nested dicts")
    rather than a value an oracle can produce. A NotImplementedError from the stub means
    "not attempted"; any other exception from the learner's code is reported, not raised.
    """
    if attempt is None or attempt is Ellipsis:
        return _not_attempted(exercise)
    if not callable(attempt):
        return CheckResult(exercise, "wrong", f"expected a function, got {type(attempt).__name__}. Hint: {hint}")
    try:
        problem = problems(attempt)
    except NotImplementedError:
        return _not_attempted(exercise)
    except Exception as exc:  # reported kindly
        return CheckResult(exercise, "error", f"your code raised {type(exc).__name__}: {exc}. Hint: {hint}")
    if problem:
        return CheckResult(exercise, "wrong", f"{problem}. Hint: {hint}")
    return CheckResult(exercise, "ok", "correct.")
