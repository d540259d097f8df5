"""Wrong solutions for notebook 08's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): what two real chains do
    Wrong(1, "nested_sequence_not_flattened", '''def prediction() -> dict:
    return {"steps": 2, "events": 6, "repeated": "ababab", "starts": 3, "errors": 2}
'''),
    Wrong(1, "kwargs_reach_every_step", '''def prediction() -> dict:
    return {"steps": 4, "events": 10, "repeated": "ababababababababab", "starts": 3,
            "errors": 2}
'''),
    Wrong(1, "error_reported_once", '''def prediction() -> dict:
    return {"steps": 4, "events": 10, "repeated": "ababab", "starts": 3, "errors": 1}
'''),
    # Exercise 2 (debug): the fallback chain's two bugs
    Wrong(2, "colleagues_code_as_given", '''class Fallbacks(Runnable):
    def __init__(self, primary, *fallbacks):
        self.runnables = [coerce_to_runnable(r) for r in (primary, *fallbacks)]

    def invoke(self, input, config=None, **kwargs):
        error = None
        for runnable in self.runnables:
            try:
                return runnable.invoke(input, config)
            except Exception as exc:
                error = exc
        raise error
'''),
    Wrong(2, "last_error_raised", '''class Fallbacks(Runnable):
    def __init__(self, primary, *fallbacks):
        self.runnables = [coerce_to_runnable(r) for r in (primary, *fallbacks)]

    def invoke(self, input, config=None, **kwargs):
        error = None
        for runnable in self.runnables:
            try:
                return runnable.invoke(input, config, **kwargs)
            except Exception as exc:
                error = exc
        raise error
'''),
    Wrong(2, "kwargs_to_the_primary_only", '''class Fallbacks(Runnable):
    def __init__(self, primary, *fallbacks):
        self.runnables = [coerce_to_runnable(r) for r in (primary, *fallbacks)]

    def invoke(self, input, config=None, **kwargs):
        first_error = None
        for i, runnable in enumerate(self.runnables):
            try:
                return runnable.invoke(input, config, **(kwargs if i == 0 else {}))
            except Exception as exc:
                first_error = first_error or exc
        raise first_error
'''),
    Wrong(2, "config_dropped", '''class Fallbacks(Runnable):
    def __init__(self, primary, *fallbacks):
        self.runnables = [coerce_to_runnable(r) for r in (primary, *fallbacks)]

    def invoke(self, input, config=None, **kwargs):
        first_error = None
        for runnable in self.runnables:
            try:
                return runnable.invoke(input, **kwargs)
            except Exception as exc:
                first_error = first_error or exc
        raise first_error
'''),
    Wrong(2, "real_fallbacks_run_asynchronously", '''import asyncio
import concurrent.futures

from langchain_core.runnables.fallbacks import RunnableWithFallbacks


class Fallbacks(Runnable):
    def __init__(self, primary, *fallbacks):
        self.runnables = [coerce_to_runnable(r) for r in (primary, *fallbacks)]

    def invoke(self, input, config=None, **kwargs):
        first, *rest = [
            RealRunnableLambda(lambda x, r=r, **kw: r.invoke(x, config, **kw))
            for r in self.runnables
        ]
        chain = RunnableWithFallbacks(runnable=first, fallbacks=rest)
        with concurrent.futures.ThreadPoolExecutor(1) as pool:  # a loop of its own
            return pool.submit(asyncio.run, chain.ainvoke(input, **kwargs)).result()
'''),
    Wrong(2, "stub_with_harness_skipped", STUB, forget=("coerce_to_runnable",)),
]
