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

Three rules make a check a teacher, not a puzzle to game (DESIGN.md, "Rules that make a check a
teacher"):

- a prediction is a literal the learner writes: ``check_prediction`` reads the function's source
  and refuses a computed answer, and its message counts right answers without naming them;
- the oracle is out of reach: while the learner's code runs, every object in ``refuse`` (the
  oracle, the real method the exercise mirrors) raises :class:`Refused`, and the check reports
  the call even when the learner's code swallowed it (``refusing``);
- a broken harness is not agreement: an exception agrees with the oracle only when the learner's
  function raised it for the input under test, and a ``NameError`` never does.
"""

from __future__ import annotations

import ast
import gc
import inspect
import sys
import textwrap
import types
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

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
    except Refused as refusal:
        return _refused(exercise, refusal, hint)
    except Exception as exc:
        return _learner_error(exercise, exc, hint)



# --------------------------------------------------------------------------- the oracle refuses


class Refused(BaseException):
    """Raised when the learner's code calls something the exercise asks them to write.

    A ``BaseException``, not an ``Exception``, so ``except Exception`` in the learner's code (or
    in a library between them and the call) does not swallow it.
    """

    def __init__(self, name: str) -> None:
        super().__init__(f"your function called {name}, which this exercise asks you to write")
        self.name = name


def _display_name(target: Any) -> str:
    if isinstance(target, tuple):
        owner, attr = target
        return f"{getattr(owner, '__name__', type(owner).__name__)}.{attr}"
    target = getattr(target, "__func__", target)
    module = getattr(target, "__module__", "") or ""
    name = getattr(target, "__qualname__", None) or getattr(target, "__name__", repr(target))
    return name if module in ("", "__main__", "builtins") else f"{module.rsplit('.', 1)[-1]}.{name}"


_PLACEHOLDER = "@@retrieval-lab-refuse@@"


def _refusing_code(function: types.FunctionType, refuse: Callable[..., Any]) -> types.CodeType:
    """A code object that calls ``refuse`` instead of the function's body.

    It has as many free variables as the function's closure (Python checks that when
    ``__code__`` is replaced), and holds ``refuse`` as a constant, so it needs no global name in
    the function's module.
    """
    free = [f"_f{i}" for i in range(len(function.__code__.co_freevars))]
    lines = ["def _outer():", *(f"    {name} = None" for name in free), "    def _refused(*a, **k):"]
    if free:
        lines.append(f"        ({', '.join(free)},)")
    lines += [f"        return {_PLACEHOLDER!r}(a, k)", "    return _refused"]
    namespace: dict[str, Any] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)  # "'str' object is not callable"
        exec("\n".join(lines), namespace)  # a fixed template: no learner input
    code = namespace["_outer"]().__code__
    consts = tuple(refuse if c == _PLACEHOLDER else c for c in code.co_consts)
    return code.replace(co_consts=consts, co_name=function.__code__.co_name)


def _namespaces() -> list[dict[str, Any]]:
    """Where a builtin may be bound: the notebook's namespace and every loaded module."""
    spaces = []
    try:
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:
        shell = None
    if shell is not None:
        spaces.append(shell.user_ns)
    for module in list(sys.modules.values()):
        space = getattr(module, "__dict__", None)
        if isinstance(space, dict):
            spaces.append(space)
    return spaces


def code_sharers(targets: Sequence[Any]) -> dict[types.CodeType, list[types.FunctionType]]:
    """For each Python function among ``targets``, the other functions that run its very code.

    A learner can make a second function from the oracle's code object
    (``types.FunctionType(oracle.__code__, oracle.__globals__)``) before the check runs; it
    shares the code object, so one walk of the garbage collector's objects finds it.
    """
    codes = {}
    for target in targets:
        if isinstance(target, tuple):
            continue
        function = getattr(target, "__func__", target)
        if isinstance(function, types.FunctionType):
            codes[id(function.__code__)] = function.__code__
    found: dict[types.CodeType, list[types.FunctionType]] = {}
    if not codes:
        return found
    for referrer in gc.get_referrers(*codes.values()):
        if isinstance(referrer, types.FunctionType) and id(referrer.__code__) in codes:
            found.setdefault(referrer.__code__, []).append(referrer)
    return found


@contextmanager
def refusing(*targets: Any, sharers: dict | None = None) -> Iterator[list[str]]:
    """While the block runs, each target refuses to be called; yields the names of those called.

    A target is a Python function or method (its code is swapped, so every reference to it
    refuses, and so does every function made from the same code: ``sharers``, from
    ``code_sharers(targets)``, found here when not given), a bound method (its function's
    code), an ``(owner, "attr")`` pair (the attribute is
    replaced), or any other callable, such as a builtin (replaced wherever the notebook or a
    loaded module binds it). Everything is put back when the block ends.
    """
    called: list[str] = []
    undo: list[Callable[[], None]] = []
    if sharers is None:
        sharers = code_sharers(targets)

    def refuser(name: str) -> Callable[..., Any]:
        def refuse(*_args: Any, **_kwargs: Any) -> Any:
            called.append(name)
            raise Refused(name)

        return refuse

    try:
        for target in targets:
            name = _display_name(target)
            if isinstance(target, tuple):
                owner, attr = target
                original = owner.__dict__.get(attr, getattr(owner, attr))
                setattr(owner, attr, refuser(name))
                undo.append(lambda o=owner, a=attr, v=original: setattr(o, a, v))
                continue
            function = getattr(target, "__func__", target)
            if isinstance(function, types.FunctionType):
                code = function.__code__
                refuse = lambda a, k, n=name: refuser(n)(*a, **k)  # noqa: E731
                # the function, and every copy made from its code before the check
                # (types.FunctionType(oracle.__code__, ...)): each refuses
                for each in [function, *sharers.get(code, [])]:
                    if each.__code__ is code:
                        each.__code__ = _refusing_code(each, refuse)
                        undo.append(lambda f=each, c=code: setattr(f, "__code__", c))
                continue
            if not callable(target):
                raise TypeError(f"refusing() takes functions, methods or (owner, 'attr') pairs, got {target!r}")
            stand_in = refuser(name)
            for space in _namespaces():
                for key, value in list(space.items()):
                    if value is target:
                        space[key] = stand_in
                        undo.append(lambda s=space, k=key, v=target: s.__setitem__(k, v))
        yield called
    finally:
        for step in reversed(undo):
            step()


def guarded(attempt: Callable[..., Any], refuse: Sequence[Any]) -> Callable[..., Any]:
    """``attempt`` that runs with ``refuse`` refusing, and raises Refused if any was called."""
    if not refuse:
        return attempt
    sharers = code_sharers(refuse)

    def run(*args: Any, **kwargs: Any) -> Any:
        with refusing(*refuse, sharers=sharers) as called:
            value = attempt(*args, **kwargs)
        if called:
            raise Refused(called[0])
        return value

    run.__name__ = getattr(attempt, "__name__", "attempt")
    run.__wrapped__ = attempt  # type: ignore[attr-defined]
    return run


# --------------------------------------------------------------------------- what refusing cannot see
# ``refusing`` swaps functions' code and rebinds names. Three routes around it are closed here,
# all used through the same ``refuse=`` argument (or around an answer module):
#
# - ``frozen``: an answer module whose attributes cannot be set or deleted, so a cell run before
#   the check cannot swap its oracle or its cases (``nbNN.cases = lambda: []``: ✓ on 0 cases);
# - ``no_calls_on``: while a block runs, calling a method of an object of the given C types
#   raises Refused (a SQLite connection the learner opened before the check, or reached through
#   ``object.__subclasses__()``, is no name to rebind, but every use of it is a method call);
# - ``CallGuard`` and ``CodeGuard``: a ``refuse=`` target ``(guard, "calls")``: while refusing
#   holds it, a profile hook refuses a C call the guard matches (every route into FAISS's search
#   ends in one of its C functions) or any function running a refused function's code (a copy
#   made with ``types.FunctionType(saved.__code__, ...)`` while the learner's code runs).


class _Frozen(types.ModuleType):
    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{self.__name__} is what the checks compare with: it cannot be changed")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{self.__name__} is what the checks compare with: it cannot be changed")


def frozen(name: str) -> None:
    """Make the module ``name`` refuse attribute assignment (call at the end of the module)."""
    sys.modules[name].__class__ = _Frozen


def _profile(refusal: Callable[[Any, str, Any], str | None]) -> Callable[..., None]:
    """A profile function that raises Refused(name) when ``refusal(frame, event, arg)`` names
    something, and passes every event on to the profile function set before it."""
    previous = sys.getprofile()

    def profile(frame: Any, event: str, arg: Any) -> None:
        name = refusal(frame, event, arg)
        if name is not None:
            raise Refused(name)  # CPython unsets the hook, and the call raises this
        if previous is not None:
            previous(frame, event, arg)

    return profile


def _c_calls(matches: Callable[[Any], bool], name: str) -> Callable[[Any, str, Any], str | None]:
    return lambda frame, event, arg: name if event == "c_call" and matches(arg) else None


@contextmanager
def no_calls_on(kinds: tuple[type, ...], name: str) -> Iterator[None]:
    """While the block runs, calling a method of an instance of ``kinds`` raises Refused(name)."""
    previous = sys.getprofile()
    sys.setprofile(_profile(_c_calls(lambda f: isinstance(getattr(f, "__self__", None), kinds),
                                     name)))
    try:
        yield
    finally:
        sys.setprofile(previous)


class CallGuard:
    """A ``refuse=`` target ``(guard, "calls")``: C calls that ``matches`` raise Refused(name)
    while ``checks.refusing`` has the attribute replaced (it sets it, then puts back None)."""

    def __init__(self, name: str, matches: Callable[[Any], bool]) -> None:
        self.__dict__.update(__name__=name, _refusal=_c_calls(matches, name), _previous=None,
                             calls=None)

    def __setattr__(self, attr: str, value: Any) -> None:
        if attr != "calls":
            raise AttributeError(attr)
        if value is not None and self.__dict__["calls"] is None:
            self.__dict__["_previous"] = sys.getprofile()
            sys.setprofile(_profile(self._refusal))
        elif value is None:
            sys.setprofile(self.__dict__["_previous"])
        self.__dict__["calls"] = value


class CodeGuard(CallGuard):
    """A ``refuse=`` target ``(guard, "calls")`` for Python functions: any function that runs
    the code of one of them refuses, a copy made while the learner's code runs included
    (``types.FunctionType(saved.__code__, ...)``, which swapping the originals' code misses)."""

    def __init__(self, *functions: Any) -> None:
        codes = {f.__code__: f.__name__ for f in functions}
        super().__init__("a copy of " + ", ".join(codes.values()), lambda f: False)

        def refusal(frame: Any, event: str, arg: Any) -> str | None:
            return codes.get(frame.f_code) if event == "call" else None

        self.__dict__["_refusal"] = refusal


def _refused(exercise: str, refusal: Refused, hint: str) -> CheckResult:
    return CheckResult(exercise, "wrong", f"{refusal}. Hint: {hint}")


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


def check_function(
    exercise: str,
    attempt: Any,
    *,
    oracle: Callable[..., Any],
    cases: Sequence[Any],
    hint: str,
    same: Callable[[Any, Any], bool] | None = None,
    reveal_expected: bool = False,
    refuse: Sequence[Any] = (),
) -> CheckResult:
    """Call ``attempt`` and ``oracle`` on every case and compare what they return.

    ``same(mine, expected)`` decides equality (default ``==``). If the oracle raises on a case,
    the attempt must raise an exception of the same family there too, from inside its own code.
    The oracle runs on every case first; then the attempt runs with ``refuse`` refusing.

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
    expectations: list[tuple[bool, Any]] = []  # (raised, value or exception)
    for case in cases:
        args, kwargs = _call_args(case)
        try:
            expectations.append((False, oracle(*args, **kwargs)))
        except NameError as exc:
            return _missing_name(exercise, exc)
        except Exception as exc:
            expectations.append((True, exc))
    sharers = code_sharers(refuse)
    for case, (expected_raised, expected) in zip(cases, expectations, strict=True):
        args, kwargs = _call_args(case)
        try:
            with refusing(*refuse, sharers=sharers) as called:
                got = attempt(*args, **kwargs)
        except NotImplementedError:
            return _not_attempted(exercise)
        except Refused as refusal:
            return _refused(exercise, refusal, hint)
        except Exception as exc:
            if (expected_raised and _raised_inside(exc) and not isinstance(exc, NameError)
                    and error_family(type(exc).__name__) == error_family(type(expected).__name__)):
                continue  # refusing bad input is right; the message may differ from the real one
            return _learner_error(exercise, exc, hint, _show_case(case))
        if called:
            return _refused(exercise, Refused(called[0]), hint)
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
            wanted = f"expected {_describe(expected)}, " if reveal_expected else "not what it should be: "
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
    source is read, never run, so a computed answer is refused. ``truth()`` runs the real thing
    and returns a dict with the same keys. A wrong answer says how many predictions are right -
    never which, never the right values - so the message reads the same whichever is wrong and
    the learner thinks again, then runs the code to see.
    """
    if attempt is None or attempt is Ellipsis:
        return _not_attempted(exercise, "the `...` with your prediction")
    try:
        guess = prediction_literal(attempt)
    except NotImplementedError:
        return _not_attempted(exercise)
    except ValueError as exc:
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
        return CheckResult(
            exercise, "wrong",
            f"{right} of {len(real)} predictions right. Hint: {hint}",
        )
    return CheckResult(exercise, "ok", f"all {len(real)} predictions right.")


def check_value(
    exercise: str,
    attempt: Any,
    *,
    problems: Callable[[Any], str | None],
    hint: str,
    refuse: Sequence[Any] = (),
) -> CheckResult:
    """Check a value the learner built. ``problems(value)`` returns what is wrong, or None.

    ``attempt`` may be a zero-argument function (so a stub can raise NotImplementedError; it runs
    with ``refuse`` refusing) or the value itself (``...`` meaning not attempted). Not for
    predictions: those go through ``check_prediction``.
    """
    if attempt is None or attempt is Ellipsis:
        return _not_attempted(exercise, "the `...` with your answer")
    if callable(attempt) and not isinstance(attempt, type):
        attempt = guarded(attempt, refuse)
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


def check_behaviour(
    exercise: str,
    attempt: Any,
    *,
    problems: Callable[[Callable[..., Any]], str | None],
    hint: str,
    refuse: Sequence[Any] = (),
) -> CheckResult:
    """Check a function by what it does: ``problems(attempt)`` uses it and says what is wrong.

    For exercises whose answer is a behaviour (e.g. "the copy must not share nested dicts")
    rather than a value an oracle can produce. A function ``attempt`` is handed to ``problems``
    wrapped so that ``refuse`` refuses while it runs (a class too, when ``refuse`` is given:
    a class whose ``__new__`` returns the oracle's answer is no way around it); for a class
    exercise, which passes no ``refuse``, ``problems`` uses ``refusing`` itself around the
    learner's code. A NotImplementedError from the stub means
    "not attempted"; any other exception from the learner's code is reported, not raised.
    """
    if attempt is None or attempt is Ellipsis:
        return _not_attempted(exercise)
    if not callable(attempt):
        return CheckResult(exercise, "wrong", f"expected a function, got {type(attempt).__name__}. Hint: {hint}")
    if not isinstance(attempt, type) or refuse:
        # a class in place of the function (its __new__ calling the oracle) refuses too
        attempt = guarded(attempt, refuse)
    try:
        problem = problems(attempt)
    except NotImplementedError:
        return _not_attempted(exercise)
    except Refused as refusal:
        return _refused(exercise, refusal, hint)
    except Exception as exc:  # reported kindly
        return _learner_error(exercise, exc, hint)
    if problem:
        return CheckResult(exercise, "wrong", f"{problem}. Hint: {hint}")
    return CheckResult(exercise, "ok", "correct.")
