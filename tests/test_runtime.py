"""retrieval_lab.runtime: what generated code runs on."""

from __future__ import annotations

import pytest


def test_in_thread_copies_the_context_and_turns_stop_iteration_into_runtime_error():
    import asyncio
    import contextvars

    from retrieval_lab.runtime.concurrency import in_thread

    seen = contextvars.ContextVar("seen", default="unset")

    async def scenario():
        seen.set("from the caller")
        value = await in_thread(seen.get)
        with pytest.raises(RuntimeError):
            await in_thread(next, iter([]))
        keyword = await in_thread(sorted, [3, 1, 2], reverse=True)
        return value, keyword

    assert asyncio.run(scenario()) == ("from the caller", [3, 2, 1])
