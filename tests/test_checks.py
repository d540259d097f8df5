"""The exercise checks' rules (docs/design.md): the expected value exists only after the attempt
returned, the answer is compared as plain data, a computed prediction is refused, the message
counts right answers without naming them (and only says "not yet" in the student edition), and a
broken harness is never agreement. The allowlist itself: tests/test_allowlist.py and
tests/test_shortcuts.py."""

from __future__ import annotations

import sys

import pytest

import retrieval_lab.checks as checks
from retrieval_lab.checks import CheckResult, check_behaviour, check_function, check_prediction, check_value


def oracle(x: int) -> int:
    return 2 * x


def test_a_right_answer_passes():
    assert check_function("E", lambda x: x + x, oracle=oracle, cases=[1, 2, -3], hint="h").passed


def test_the_expected_value_is_not_there_while_the_attempt_runs():
    def peek(x):
        frame = sys._getframe(1)
        found = [v for k, v in frame.f_locals.items() if k.startswith("expect")]
        return found[0] if found else -1

    result = check_function("E", peek, oracle=oracle, cases=[3], hint="h")
    assert not result.passed and "got -1" in result.message


class _Zero(float):
    def __sub__(self, other):
        return 0.0

    def __eq__(self, other):
        return True

    __hash__ = float.__hash__


class _Same:
    def __eq__(self, other):
        return True


@pytest.mark.parametrize("answer", [_Zero(1.0), _Same(), [_Same()]])
def test_a_value_in_disguise_is_refused_with_the_reason(answer):
    result = check_function("E", lambda x: answer, oracle=oracle, cases=[1], hint="h",
                            same=lambda a, b: a == b)
    assert not result.passed and "plain values" in result.message


def test_behaviour_and_value_checks_see_plain_data():
    seen = []

    def problems(f):
        seen.append(type(f(1)))
        return None

    assert check_behaviour("B", lambda x: _Zero(0.5) * 0 + 0.5, problems=problems, hint="h").passed
    assert seen == [float]
    assert check_value("V", lambda: [1.5], problems=lambda v: None if v == [1.5] else "no",
                       hint="h").passed
    wrong = check_behaviour("B", lambda x: _Zero(2.0), problems=lambda f: f(1) and None, hint="h")
    assert not wrong.passed and "plain values" in wrong.message
    disguised = check_value("V", lambda: {"a": [_Zero(1.0)]}, problems=lambda v: None, hint="h")
    assert not disguised.passed


def test_a_missing_harness_name_is_never_agreement():
    result = check_function("E", lambda x: missing_a, oracle=lambda x: missing_b, cases=[1], hint="h")  # noqa: F821
    assert not result.passed and "run the cells above" in result.message


def test_an_error_at_the_call_is_not_the_oracle_refusing():
    def picky(x):
        if x < 0:
            raise ValueError("negative")
        return x

    assert not check_function("E", lambda: 0, oracle=picky, cases=[-1], hint="h").passed
    assert check_function("E", lambda x: picky(x) + 0, oracle=picky, cases=[-1, 2], hint="h").passed


def right():
    return {"A": 1, "B": 2}


def a_wrong():
    return {"A": 9, "B": 2}


def b_wrong():
    return {"A": 1, "B": 9}


def computed():
    return dict(A=1, B=2)


def with_a_step():
    a = 1
    return {"A": a, "B": 2}


def unfinished():
    return {"A": 1, "B": ...}


def untouched():
    raise NotImplementedError


def truth():
    return {"A": 1, "B": 2}


def test_predictions_count_without_naming():
    assert check_prediction("P", right, truth=truth, hint="h").passed
    first = check_prediction("P", a_wrong, truth=truth, hint="h")
    second = check_prediction("P", b_wrong, truth=truth, hint="h")
    assert not first.passed and first.message == second.message == "1 of 2 predictions right. Hint: h"


@pytest.mark.parametrize("attempt", [computed, with_a_step, lambda: {"A": 1, "B": 2}])
def test_a_computed_prediction_is_refused(attempt):
    result = check_prediction("P", attempt, truth=truth, hint="h")
    assert not result.passed and "running the code comes after" in result.message


@pytest.mark.parametrize("attempt", [unfinished, untouched, ...])
def test_an_unfinished_prediction_is_not_attempted(attempt):
    assert check_prediction("P", attempt, truth=truth, hint="h").status == "not attempted"


def test_same_ranking_never_agrees_with_a_nan_score():
    from retrieval_lab.evaluation.compare import same_ranking

    assert same_ranking([("a", 0.5)], [("a", 0.5)])
    assert not same_ranking([("a", float("nan"))], [("a", 0.5)])


def test_the_student_edition_says_only_not_yet(monkeypatch):
    monkeypatch.setattr(checks, "EDITION", "student")
    result = check_prediction("P", a_wrong, truth=truth, hint="h")
    assert not result.passed and result.message == "not yet. Hint: h"
    assert check_prediction("P", right, truth=truth, hint="h").passed


def test_the_student_edition_follows_the_environment(monkeypatch):
    monkeypatch.setenv("RETRIEVAL_LAB_EDITION", "student")
    assert check_prediction("P", b_wrong, truth=truth, hint="h").message.startswith("not yet")


# ---------------------------------------------------------------- results and statuses

def real_upper(text: str) -> str:
    return text.upper()


def test_check_function_statuses():
    def stub(text):
        raise NotImplementedError

    def wrong(text):
        return text

    def crashes(text):
        return text.nope

    cases = ["cat", "Dog"]
    assert check_function("E", stub, oracle=real_upper, cases=cases, hint="h").status == "not attempted"
    assert check_function("E", wrong, oracle=real_upper, cases=cases, hint="h").status == "wrong"
    result = check_function("E", crashes, oracle=real_upper, cases=cases, hint="h")
    assert result.status == "error" and "AttributeError" in str(result) and "'cat'" in str(result)
    assert check_function("E", str.upper, oracle=real_upper, cases=cases, hint="h").passed
    assert check_function("E", 42, oracle=real_upper, cases=cases, hint="h").status == "wrong"


def test_a_wrong_answer_never_shows_the_expected_value():
    """A predict exercise cannot be solved by reading the check: the message names the case and
    what the learner returned, never the oracle's value (unless a debug check opts in)."""
    def wrong(text):
        return text.lower()

    quiet = str(check_function("E", wrong, oracle=real_upper, cases=["Kiwi"], hint="h"))
    assert "KIWI" not in quiet and "'Kiwi'" in quiet and "'kiwi'" in quiet
    told = str(check_function("E", wrong, oracle=real_upper, cases=["Kiwi"], hint="h",
                              reveal_expected=True))
    assert "KIWI" in told
    refused = str(check_function("E", lambda x: x, oracle=lambda x: x.nope, cases=["a"], hint="h"))
    assert "AttributeError" not in refused and "refused" in refused


def test_check_function_expects_the_oracles_errors():
    def lenient(value):
        return str(value)

    def strict(value):
        if not isinstance(value, str):
            raise TypeError("text only")
        return value

    def oracle(value):
        if not isinstance(value, str):
            raise ValueError("bad")
        return value

    assert check_function("E", strict, oracle=oracle, cases=["a", 1], hint="h").passed
    assert check_function("E", lenient, oracle=oracle, cases=["a", 1], hint="h").status == "wrong"


def test_a_strange_return_value_does_not_crash_the_check():
    class Weird:
        def __eq__(self, other):
            raise RuntimeError("no")

    result = check_function("E", lambda t: Weird(), oracle=real_upper, cases=["a"], hint="h")
    assert result.status == "wrong"


def test_check_value_and_behaviour():
    def problems(v):
        return None if v == 3 else f"got {v}"

    assert check_value("E", ..., problems=problems, hint="h").status == "not attempted"
    assert check_value("E", 3, problems=problems, hint="h").passed
    assert check_value("E", lambda: 4, problems=problems, hint="h").status == "wrong"
    assert check_value("E", lambda: 1 / 0, problems=problems, hint="h").status == "error"

    def stub():
        raise NotImplementedError

    assert check_behaviour("E", stub, problems=lambda f: f(), hint="h").status == "not attempted"
    assert check_behaviour("E", lambda: 1 / 0, problems=lambda f: f(), hint="h").status == "error"
    assert check_behaviour("E", lambda: None, problems=lambda f: f(), hint="h").passed
    assert isinstance(check_behaviour("E", None, problems=lambda f: f(), hint="h"), CheckResult)


def test_an_untouched_stub_is_answered_before_the_check_sets_anything_up():
    """The stub's body is read, not run: no problems() (a server, a store) is started for it,
    and a function that raises NotImplementedError on one branch only is attempted."""
    made = []

    def problems(f):
        made.append("server")
        return f(1)

    def stub(x):
        """Docstring kept."""
        raise NotImplementedError  # your code here

    def started(x):
        if x:
            raise NotImplementedError
        return None

    assert check_behaviour("E", stub, problems=problems, hint="h").status == "not attempted"
    assert made == []
    assert check_behaviour("E", started, problems=lambda f: f(0), hint="h").passed



def _forever(x):
    while True:
        try:
            x += 1
        except Exception:  # an except that cannot swallow the check's stop
            pass


@pytest.mark.parametrize("run", [
    lambda: check_function("E", _forever, oracle=oracle, cases=[1], hint="h"),
    lambda: check_behaviour("E", _forever, problems=lambda f: f(1), hint="h"),
    lambda: check_value("E", lambda: _forever(1), problems=lambda v: None, hint="h"),
])
def test_a_loop_that_never_ends_is_stopped_with_advice(run, monkeypatch):
    monkeypatch.setattr(checks, "TIME_LIMIT", 0.2)
    result = run()
    assert result.status == "error" and "stopped your code after 0.2 s" in result.message


def test_the_time_limit_leaves_no_alarm_behind(monkeypatch):
    import signal

    monkeypatch.setattr(checks, "TIME_LIMIT", 0.2)
    before = signal.getsignal(signal.SIGALRM)
    assert check_function("E", lambda x: x + x, oracle=oracle, cases=[1], hint="h").passed
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is before
