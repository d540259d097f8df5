"""Wrong solutions for notebook 08's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): what two real chains do
    Wrong.edit(1, "nested_sequence_not_flattened", ('"steps": 4', '"steps": 2'), ('"events": 10', '"events": 6')),
    Wrong.edit(1, "kwargs_reach_every_step", ('"repeated": "ababab"', '"repeated": "ababababababababab"')),
    Wrong.edit(1, "error_reported_once", ('"errors": 2', '"errors": 1')),
    # Exercise 2 (debug): the fallback chain's two bugs
    Wrong.edit(2, "colleagues_code_as_given",
               ("**kwargs):\n        first_error =", "**kwargs):\n        error ="),
               ("config, **kwargs)", "config)"),
               ("if first_error is None:\n"
                "                    first_error = exc\n"
                "        raise first_error",
                "error = exc\n"
                "        raise error")),
    Wrong.edit(2, "last_error_raised", ("config)", "config, **kwargs)"), like="colleagues_code_as_given"),
    Wrong.edit(2, "kwargs_to_the_primary_only",
               ("runnable in self.runnables:", "i, runnable in enumerate(self.runnables):"),
               ("config, **kwargs)", "config, **(kwargs if i == 0 else {}))"),
               ("if first_error is None:\n                    first_error =", "first_error = first_error or")),
    Wrong.edit(2, "config_dropped",
               ("config, **kwargs)", "**kwargs)"),
               ("if first_error is None:\n                    first_error =", "first_error = first_error or")),
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
