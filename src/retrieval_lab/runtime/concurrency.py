"""One way to run a blocking call from async code, shared by every scratch class's async twin.

The course's async methods (``aload``, ``aembed_documents``, ``asimilarity_search`` …) teach
nothing new: each runs its sync twin in a worker thread, as langchain-core's do. Defining that
once keeps the three notebooks that need it from growing three slightly different copies.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextvars import copy_context
from functools import partial
from typing import Any, TypeVar

_T = TypeVar("_T")


async def in_thread(func: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """Run ``func(*args, **kwargs)`` in the event loop's default thread pool.

    As langchain-core's ``run_in_executor`` does: the caller's context is copied, so context
    variables (callbacks, config) are seen in the thread; a StopIteration becomes a
    RuntimeError, because an asyncio Future cannot carry a StopIteration out of the thread.
    """

    def call() -> _T:
        try:
            return func(*args, **kwargs)
        except StopIteration as exc:
            raise RuntimeError from exc

    return await asyncio.get_running_loop().run_in_executor(None, partial(copy_context().run, call))
