"""The exercise checks' rules (DESIGN.md): a computed prediction is refused, the message counts
right answers without naming them, the oracle refuses while the learner's code runs, and a broken
harness is never agreement."""

from __future__ import annotations

import sqlite3

import pytest

from retrieval_lab.checks import (
    Refused,
    check_behaviour,
    check_function,
    check_prediction,
    check_value,
    refusing,
)


def oracle(x: int) -> int:
    return 2 * x


def _closure():
    offset = 0

    def inner(x: int) -> int:
        return 2 * x + offset

    return inner


class Real:
    def method(self, x: int) -> int:
        return 2 * x


def test_a_right_answer_passes_and_the_oracle_works_again_afterwards():
    result = check_function("E", lambda x: x + x, oracle=oracle, cases=[1, 2, -3], hint="h", refuse=[oracle])
    assert result.passed
    assert oracle(4) == 8


@pytest.mark.parametrize("make_call", [
    lambda: (lambda x: oracle(x)),
    lambda: (lambda x: Real().method(x)),
    lambda: (lambda x: (sqlite3.connect(":memory:"), 2 * x)[1]),
])
def test_calling_the_oracle_or_the_real_method_is_refused(make_call):
    refuse = [oracle, Real.method, sqlite3.connect]
    result = check_function("E", make_call(), oracle=oracle, cases=[1], hint="h", refuse=refuse)
    assert not result.passed and "which this exercise asks you to write" in result.message
    assert Real().method(2) == 4 and sqlite3.connect(":memory:") is not None


def test_a_swallowed_refusal_is_still_reported():
    def sneaky(x):
        try:
            return oracle(x)
        except BaseException:
            return 2 * x

    result = check_function("E", sneaky, oracle=oracle, cases=[1], hint="h", refuse=[oracle])
    assert not result.passed and "oracle, which" in result.message


def test_a_closure_refuses_and_is_put_back():
    inner = _closure()
    with refusing(inner) as called, pytest.raises(Refused):
        inner(1)
    assert called and inner(3) == 6


def test_behaviour_and_value_checks_refuse_too():
    def problems(f):
        return None if f() == 2 else "wrong"

    assert not check_behaviour("B", lambda: oracle(1), problems=problems, hint="h", refuse=[oracle]).passed
    assert not check_value("V", lambda: oracle(1), problems=lambda v: None, hint="h", refuse=[oracle]).passed


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


def test_a_frozen_module_keeps_its_oracle():
    import types as _types

    from retrieval_lab.checks import frozen

    module = _types.ModuleType("retrieval_lab_test_frozen")
    module.cases = lambda: [1, 2]
    import sys

    sys.modules[module.__name__] = module
    frozen(module.__name__)
    with pytest.raises(AttributeError, match="cannot be changed"):
        module.cases = lambda: []
    del sys.modules[module.__name__]


def test_a_copy_made_from_the_oracles_code_while_the_check_runs_refuses():
    import types as _types

    from retrieval_lab.checks import CodeGuard

    saved = oracle.__code__

    def copier(x):
        return _types.FunctionType(saved, globals())(x)

    guard = CodeGuard(oracle)
    result = check_function("E", copier, oracle=oracle, cases=[1], hint="h", refuse=[oracle, (guard, "calls")])
    assert not result.passed and "which this exercise asks you to write" in result.message
    assert copier(2) == 4  # put back afterwards


def test_a_c_call_guard_refuses_a_builtin_reached_any_way():
    from retrieval_lab.checks import CallGuard

    guard = CallGuard("math.factorial", lambda f: getattr(f, "__name__", "") == "factorial")

    def sneaky(x):
        import importlib

        return importlib.import_module("math").factorial(x)

    result = check_function("E", sneaky, oracle=lambda x: 1 if x < 2 else 2, cases=[2], hint="h",
                            refuse=[(guard, "calls")])
    assert not result.passed and "math.factorial" in result.message
