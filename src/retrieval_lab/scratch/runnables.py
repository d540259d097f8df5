# GENERATED from notebooks/08_runnables.ipynb by `make export`: do not edit.
# Edit the notebook's cells tagged "export", run them, then run `make export`.
# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).

# %% notebooks/08_runnables.ipynb, cell 6
import asyncio
import functools
import logging
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from retrieval_lab.runtime.oop import add_to_class
from retrieval_lab.scratch.document import Document

RunnableConfig = dict[str, Any]
"""A config is a plain dict: ``tags``, ``metadata``, ``callbacks``, ``run_name``,
``max_concurrency``."""

_CONFIG_KEYS = ("tags", "metadata", "callbacks", "run_name", "max_concurrency")


# %% notebooks/08_runnables.ipynb, cell 7
def _check_config(config: object) -> None:
    """Refuse what is not a config dict, and keys this config does not know."""
    if config is not None and not isinstance(config, dict):
        raise TypeError(
            f"config must be a dict such as {{'tags': ['x']}}, "
            f"not {type(config).__name__}."
        )
    unknown = sorted(set(config or {}) - set(_CONFIG_KEYS))
    if unknown:
        raise ValueError(
            f"unknown config key(s) {unknown}; this scratch "
            f"config knows {list(_CONFIG_KEYS)}."
        )


# %% notebooks/08_runnables.ipynb, cell 9
def ensure_config(config: RunnableConfig | None = None) -> RunnableConfig:
    """A fresh config with every key present: code below never tests for ``None``."""
    _check_config(config)
    fresh: RunnableConfig = {
        "tags": [],
        "metadata": {},
        "callbacks": None,
        "run_name": None,
        "max_concurrency": None,
    }
    for key, value in (config or {}).items():
        if value is None:
            continue
        if key == "tags":
            value = list(value)
        elif key == "metadata":
            value = dict(value)
        fresh[key] = value
    return fresh


# %% notebooks/08_runnables.ipynb, cell 15
def _schema(name: str, json_type: str | None) -> type:
    """A stand-in for the pydantic model the real ``get_input_schema()`` returns: a
    named class whose ``model_json_schema()`` gives the title and the JSON type."""
    schema: dict[str, Any] = {"title": name} | (
        {"type": json_type} if json_type else {}
    )
    return type(
        name,
        (),
        {
            "model_json_schema": staticmethod(lambda: dict(schema)),
            "__doc__": f"Schema {name}.",
        },
    )


# %% notebooks/08_runnables.ipynb, cell 16
class Runnable(ABC):
    """Anything with ``invoke``; ``batch``, ``ainvoke`` and ``|`` are built on it."""

    name: str | None = None
    _input_json_type: str | None = None
    _output_json_type: str | None = None

    @abstractmethod
    def invoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Any:
        """Turn one input into one output."""


@add_to_class(Runnable)
def get_name(self) -> str:
    """What callbacks and schemas call this runnable: ``name``, else the class name."""
    return self.name or type(self).__name__


# %% notebooks/08_runnables.ipynb, cell 17
def _batch_configs(
    config: RunnableConfig | Sequence[RunnableConfig] | None, n_inputs: int
) -> list[RunnableConfig]:
    """One config per input: a list is matched to the inputs, one config is shared."""
    if isinstance(config, Sequence):
        if len(config) != n_inputs:
            raise ValueError(
                f"batch got {n_inputs} inputs but {len(config)} configs; give one "
                "config per input, or a single config for all."
            )
        return [ensure_config(c) for c in config]
    return [ensure_config(config) for _ in range(n_inputs)]


# %% notebooks/08_runnables.ipynb, cell 18
@add_to_class(Runnable)
def batch(
    self,
    inputs: Sequence[Any],
    config: RunnableConfig | Sequence[RunnableConfig] | None = None,
    *,
    return_exceptions: bool = False,
    **kwargs: Any,
) -> list[Any]:
    """``invoke`` on each input in a thread pool; the results come in input order."""
    inputs = list(inputs)
    if not inputs:
        return []
    configs = _batch_configs(config, len(inputs))

    def one(item: Any, cfg: RunnableConfig) -> Any:
        try:
            return self.invoke(item, cfg, **kwargs)
        except Exception as exc:
            if return_exceptions:
                return exc
            raise

    if len(inputs) == 1:
        return [one(inputs[0], configs[0])]
    with ThreadPoolExecutor(max_workers=configs[0]["max_concurrency"]) as pool:
        return list(pool.map(one, inputs, configs))


# %% notebooks/08_runnables.ipynb, cell 19
@add_to_class(Runnable)
async def ainvoke(
    self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
) -> Any:
    """The async twin: by default, the sync ``invoke`` in a worker thread."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(
        None, functools.partial(self.invoke, input, config, **kwargs)
    )


# %% notebooks/08_runnables.ipynb, cell 20
@add_to_class(Runnable)
def __or__(self, other: Any) -> "RunnableSequence":
    return RunnableSequence(self, coerce_to_runnable(other))


@add_to_class(Runnable)
def __ror__(self, other: Any) -> "RunnableSequence":
    return RunnableSequence(coerce_to_runnable(other), self)


@add_to_class(Runnable)
def pipe(self, *others: Any) -> "RunnableSequence":
    return RunnableSequence(self, *(coerce_to_runnable(o) for o in others))


# %% notebooks/08_runnables.ipynb, cell 21
@add_to_class(Runnable)
def get_input_schema(self) -> type:
    return _schema(self.get_name() + "Input", self._input_json_type)


@add_to_class(Runnable)
def get_output_schema(self) -> type:
    return _schema(self.get_name() + "Output", self._output_json_type)


# %% notebooks/08_runnables.ipynb, cell 22
@add_to_class(Runnable)
def _call_with_config(
    self, func: Callable[[Any], Any], input: Any, config: RunnableConfig | None
) -> Any:
    """Run ``func(input)`` as one chain run: start event, then end or error event."""
    config = ensure_config(config)
    manager = CallbackManager.configure(
        config["callbacks"],
        inheritable_tags=config["tags"],
        inheritable_metadata=config["metadata"],
    )
    run = manager.on_chain_start(
        None, input, name=config["run_name"] or self.get_name(), run_type=None
    )
    try:
        output = func(input)
    except Exception as exc:
        run.on_chain_error(exc)
        raise
    run.on_chain_end(output)
    return output


# %% notebooks/08_runnables.ipynb, cell 24
class RunnableLambda(Runnable):
    """A plain function as a Runnable: its name is the function's (``RunnableLambda``
    for a lambda).
    """

    def __init__(self, func: Callable[[Any], Any], name: str | None = None) -> None:
        if not callable(func):
            raise TypeError(
                f"RunnableLambda wraps a function, got {type(func).__name__} {func!r}."
            )
        self.func = func
        func_name = getattr(func, "__name__", "<lambda>")
        self.name = name or (None if func_name == "<lambda>" else func_name)

    def invoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Any:
        """Extra keyword arguments go to the function, as in langchain-core."""
        return self._call_with_config(lambda v: self.func(v, **kwargs), input, config)

    def __repr__(self) -> str:
        return f"RunnableLambda({self.name or '...'})"


# %% notebooks/08_runnables.ipynb, cell 25
def coerce_to_runnable(thing: Any) -> Runnable:
    """What ``|`` accepts: a Runnable as it is, a function wrapped in RunnableLambda."""
    if isinstance(thing, Runnable):
        return thing
    if callable(thing):
        return RunnableLambda(thing)
    if isinstance(thing, dict):
        raise TypeError(
            "a dict in a chain means 'run these in parallel': "
            "this scratch `|` does not build one "
            "for you - write RunnableParallel(key=runnable, "
            "...) explicitly (notebook 10)."
        )
    raise TypeError(
        f"cannot put {type(thing).__name__} {thing!r} in a "
        "chain: use a Runnable or a function."
    )


# %% notebooks/08_runnables.ipynb, cell 28
class RunnableSequence(Runnable):
    """``a | b | c``: each step's output is the next step's input, recorded as one
    parent run.
    """

    def __init__(self, *steps: Any, name: str | None = None) -> None:
        flat: list[Runnable] = []
        for step in map(coerce_to_runnable, steps):
            flat.extend(step.steps if isinstance(step, RunnableSequence) else [step])
        if len(flat) < 2:
            raise ValueError(
                f"RunnableSequence needs at least 2 steps, got {len(flat)}."
            )
        self.steps = flat
        self.name = name


# %% notebooks/08_runnables.ipynb, cell 29
@add_to_class(RunnableSequence)
def invoke(
    self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
) -> Any:
    """Extra ``kwargs`` go to the first step only, as in langchain-core."""
    config = ensure_config(config)
    manager = CallbackManager.configure(
        config["callbacks"],
        inheritable_tags=config["tags"],
        inheritable_metadata=config["metadata"],
    )
    run = manager.on_chain_start(
        None, input, name=config["run_name"] or self.get_name()
    )
    value = input
    try:
        for i, step in enumerate(self.steps):
            child = {
                **config,
                "callbacks": run.get_child(f"seq:step:{i + 1}"),
                "run_name": None,
            }
            value = step.invoke(value, child, **(kwargs if i == 0 else {}))
    except Exception as exc:
        run.on_chain_error(exc)
        raise
    run.on_chain_end(value)
    return value


# %% notebooks/08_runnables.ipynb, cell 30
@add_to_class(RunnableSequence)
def get_input_schema(self) -> type:
    return self.steps[0].get_input_schema()


@add_to_class(RunnableSequence)
def get_output_schema(self) -> type:
    return self.steps[-1].get_output_schema()


@add_to_class(RunnableSequence)
def __repr__(self) -> str:
    return " | ".join(repr(s) for s in self.steps)


# %% notebooks/08_runnables.ipynb, cell 65
class BaseCallbackHandler:
    """Something that wants to hear about runs. Every method is a no-op: override what
    you need. The names and keyword arguments are langchain-core's, so a handler written
    for the real library also works here."""

    def on_chain_start(
        self, serialized: Any, inputs: Any, *, run_id: uuid.UUID, **kwargs: Any
    ) -> None: ...
    def on_chain_end(
        self, outputs: Any, *, run_id: uuid.UUID, **kwargs: Any
    ) -> None: ...
    def on_chain_error(
        self, error: BaseException, *, run_id: uuid.UUID, **kwargs: Any
    ) -> None: ...
    def on_retriever_start(
        self, serialized: Any, query: str, *, run_id: uuid.UUID, **kwargs: Any
    ) -> None: ...
    def on_retriever_end(
        self, documents: Any, *, run_id: uuid.UUID, **kwargs: Any
    ) -> None: ...
    def on_retriever_error(
        self, error: BaseException, *, run_id: uuid.UUID, **kwargs: Any
    ) -> None: ...


# %% notebooks/08_runnables.ipynb, cell 67
class CallbackManager:
    """Handlers plus the tags and metadata every event of one run carries.

    "Inheritable" tags and metadata travel down to child runs (the steps of a sequence);
    the others stay on this run only."""

    def __init__(
        self, handlers: list[Any] | None = None, parent_run_id: uuid.UUID | None = None
    ) -> None:
        self.handlers: list[Any] = list(handlers or [])
        self.parent_run_id = parent_run_id
        self.tags: list[str] = []
        self.inheritable_tags: list[str] = []
        self.metadata: dict[str, Any] = {}
        self.inheritable_metadata: dict[str, Any] = {}


# %% notebooks/08_runnables.ipynb, cell 68
@add_to_class(CallbackManager)
def add_tags(self, tags: Sequence[str], inherit: bool = True) -> None:
    """Re-adding a tag moves it to the end, as in langchain-core."""
    for tag in tags:
        for bucket in (self.tags, self.inheritable_tags):
            if tag in bucket:
                bucket.remove(tag)
    self.tags.extend(tags)
    if inherit:
        self.inheritable_tags.extend(tags)


@add_to_class(CallbackManager)
def add_metadata(self, metadata: dict[str, Any], inherit: bool = True) -> None:
    self.metadata = {**self.metadata, **metadata}
    if inherit:
        self.inheritable_metadata = {**self.inheritable_metadata, **metadata}


# %% notebooks/08_runnables.ipynb, cell 69
@add_to_class(CallbackManager)
@classmethod
def configure(
    cls,
    callbacks: "list[Any] | CallbackManager | None",
    *,
    inheritable_tags: Sequence[str] = (),
    local_tags: Sequence[str] | None = None,
    inheritable_metadata: dict[str, Any] | None = None,
    local_metadata: dict[str, Any] | None = None,
) -> "CallbackManager":
    """The manager of one new run: the config's handlers, or a parent's child one."""
    if isinstance(callbacks, CallbackManager):
        manager = cls(callbacks.handlers, parent_run_id=callbacks.parent_run_id)
        manager.tags = list(callbacks.tags)
        manager.inheritable_tags = list(callbacks.inheritable_tags)
        manager.metadata = dict(callbacks.metadata)
        manager.inheritable_metadata = dict(callbacks.inheritable_metadata)
    else:
        manager = cls(callbacks or [])
    manager.add_tags(list(inheritable_tags or []))
    manager.add_tags(list(local_tags or []), inherit=False)
    manager.add_metadata(dict(inheritable_metadata or {}))
    manager.add_metadata(dict(local_metadata or {}), inherit=False)
    return manager


# %% notebooks/08_runnables.ipynb, cell 70
@add_to_class(CallbackManager)
def _start(self, event: str, payload: Any, name: str, **extra: Any) -> "RunManager":
    run = RunManager(self, uuid.uuid4())
    run._emit(
        event,
        None,
        payload,
        tags=list(self.tags),
        metadata=dict(self.metadata),
        name=name,
        **extra,
    )
    return run


@add_to_class(CallbackManager)
def on_chain_start(
    self, serialized: Any, inputs: Any, *, name: str, **extra: Any
) -> "RunManager":
    return self._start("on_chain_start", inputs, name, **extra)


@add_to_class(CallbackManager)
def on_retriever_start(self, serialized: Any, query: str, *, name: str) -> "RunManager":
    return self._start("on_retriever_start", query, name)


# %% notebooks/08_runnables.ipynb, cell 72
class RunManager:
    """One run in progress: it reports the end or the error, and makes managers for
    child runs.
    """

    def __init__(self, manager: CallbackManager, run_id: uuid.UUID) -> None:
        self.manager = manager
        self.run_id = run_id


# %% notebooks/08_runnables.ipynb, cell 73
@add_to_class(RunManager)
def _emit(self, event: str, *args: Any, **kwargs: Any) -> None:
    """Call ``event`` on every handler. A handler that fails is logged, not raised
    (unless it sets ``raise_error = True``): a broken logger must not break the chain it
    watches."""
    for handler in self.manager.handlers:
        try:
            getattr(handler, event)(
                *args,
                run_id=self.run_id,
                parent_run_id=self.manager.parent_run_id,
                **kwargs,
            )
        except Exception as exc:
            if getattr(handler, "raise_error", False):
                raise
            logging.getLogger(__name__).warning(
                "Error in %s.%s callback: %r", type(handler).__name__, event, exc
            )


@add_to_class(RunManager)
def _finish(self, event: str, payload: Any) -> None:
    self._emit(event, payload, tags=list(self.manager.tags))


# %% notebooks/08_runnables.ipynb, cell 74
@add_to_class(RunManager)
def on_chain_end(self, outputs: Any) -> None:
    self._finish("on_chain_end", outputs)


@add_to_class(RunManager)
def on_chain_error(self, error: BaseException) -> None:
    self._finish("on_chain_error", error)


@add_to_class(RunManager)
def on_retriever_end(self, documents: list[Document]) -> None:
    self._finish("on_retriever_end", documents)


@add_to_class(RunManager)
def on_retriever_error(self, error: BaseException) -> None:
    self._finish("on_retriever_error", error)


# %% notebooks/08_runnables.ipynb, cell 76
@add_to_class(RunManager)
def get_child(self, tag: str | None = None) -> CallbackManager:
    """A child run's manager: the handlers, inheritable tags and metadata, + ``tag``."""
    child = CallbackManager(self.manager.handlers, parent_run_id=self.run_id)
    child.add_tags(self.manager.inheritable_tags)
    child.add_metadata(self.manager.inheritable_metadata)
    if tag is not None:
        child.add_tags([tag], inherit=False)
    return child
