"""Notebook 08's exercise checks: what the real chains do, and the fallback harness."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from langchain_core.runnables import RunnableLambda

from retrieval_lab.checks.allow import Allow
from retrieval_lab.checks.answers import fresh_seed
from retrieval_lab.runtime.callbacks import RecordingHandler


def what_the_chains_do() -> dict[str, Any]:
    """Exercise 1 (predict): run the exercise's two real chains with a recorder each, and count."""
    def exclaim(text: str) -> str:
        return text + "!"

    def refuse_empty(text: str) -> str:
        if not text.strip():
            raise ValueError("empty input: give me some text")
        return text

    def repeat(text: str, times: int = 1) -> str:
        return text * times

    nested = (RunnableLambda(str.upper) | exclaim) | (RunnableLambda(exclaim) | len)
    broken = RunnableLambda(str.strip) | refuse_empty | exclaim | len
    heard, heard_broken = RecordingHandler(), RecordingHandler()
    nested.invoke("cat", config={"callbacks": [heard]})
    try:
        broken.invoke("  ", config={"callbacks": [heard_broken]})
    except ValueError:
        pass  # the error reaches the caller: the events are what we count
    kinds = [e.event for e in heard_broken.events]
    return {"steps": len(nested.steps), "events": len(heard.events),
            "repeated": (RunnableLambda(repeat) | repeat).invoke("ab", times=3),
            "starts": kinds.count("start"), "errors": kinds.count("error")}


#: Exercise 2 (debug): a fallback chain against the real with_fallbacks. The fallbacks' own run:
#: the real one reports it, the exercise's class need not.
_OWN_RUNS = {"RunnableWithFallbacks", "Fallbacks"}


def _run(make_chain: Callable[[list], Any], plan: str, kwargs: dict) -> tuple:
    """What a fallback chain returns (or raises) for "ab", which steps ran with what, and its steps'
    events, heard through the config. ``plan`` names the steps; a name ending in ! raises."""
    ran: list[tuple[str, Any]] = []

    def make_step(name: str) -> Callable[..., str]:
        clean = name.rstrip("!")

        def step(text: str, times: int = 1) -> str:
            ran.append((clean, times))
            if name.endswith("!"):
                raise RuntimeError(f"{clean} is down")
            return f"{clean} says {text * times}"

        step.__name__ = step.__qualname__ = clean
        return step

    heard = RecordingHandler()
    chain = make_chain([make_step(n) for n in plan.split()])
    try:
        result = chain.invoke("ab", {"tags": ["watched"], "callbacks": [heard]}, **kwargs)
    except NotImplementedError:
        raise  # the stub: not attempted yet
    except Exception as exc:
        result = f"{type(exc).__name__}: {exc}"
    return result, ran, [(e.event, e.name, e.tags, e.payload) for e in heard.events if e.name not in _OWN_RUNS]


def real_fallbacks(plan: str, kwargs: dict) -> tuple:
    """The oracle: the same steps behind langchain-core's ``with_fallbacks``."""
    return _run(lambda steps: RunnableLambda(steps[0]).with_fallbacks([RunnableLambda(s) for s in steps[1:]]),
                plan, kwargs)


def fallbacks_run(fallbacks_class: type) -> Callable[[str, dict], tuple]:
    """The learner's class in the same harness: ``Fallbacks(*steps)``."""
    def run(plan: str, kwargs: dict) -> tuple:
        return _run(lambda steps: fallbacks_class(*steps), plan, kwargs)

    run.__name__ = "Fallbacks"
    return run


def fallback_cases(fresh: bool = True) -> list[tuple[str, dict]]:
    """Fixed cases (a working primary, every step failing, keyword arguments) plus plans drawn with
    a seed drawn anew at each check (``fresh=False``: seed 8): a table of the fixed ones fails."""
    cases = [("primary backup", {}), ("primary! backup", {}), ("primary! backup", {"times": 2}),
             ("primary! backup!", {}), ("primary! backup! local", {"times": 3}),
             ("primary! backup! local!", {"times": 2}), ("only!", {}), ("only", {"times": 4})]
    rng = random.Random(fresh_seed(None if fresh else 8))
    for _ in range(12):
        names = ["alpha", "beta", "gamma", "delta"][:rng.randint(1, 4)]
        plan = " ".join(n + ("!" if rng.random() < 0.6 else "") for n in names)
        cases.append((plan, {"times": rng.randint(1, 3)} if rng.random() < 0.6 else {}))
    return cases


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="Fallbacks", names=["Runnable", "coerce_to_runnable"],
                        refuse=["with_fallbacks", "RunnableWithFallbacks"]),
}
