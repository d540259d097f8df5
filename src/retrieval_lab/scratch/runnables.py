# GENERATED from notebooks/08_runnables.ipynb by `make export`: do not edit.
# Edit the notebook's cells tagged "export", run them, then run `make export`.
# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).

# %% notebooks/08_runnables.ipynb, cell 6
import asyncio
import contextvars
import functools
import logging
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextvars import ContextVar
from typing import Any

from retrieval_lab.runtime.oop import add_to_class
from retrieval_lab.scratch.document import Document

RunnableConfig = dict[str, Any]
"""A config is a plain dict: ``tags``, ``metadata``, ``callbacks``, ``run_name``,
``max_concurrency``; the real config's other keys are passed on untouched."""

_CONFIG_KEYS = ("tags", "metadata", "callbacks", "run_name", "max_concurrency")
_REAL_ONLY_KEYS = ("recursion_limit", "configurable", "run_id")


# %% notebooks/08_runnables.ipynb, cell 7
def _check_config(config: object) -> None:
    """Refuse what is not a config dict, and keys this config does not know."""
    if config is not None and not isinstance(config, dict):
        raise TypeError(
            f"config must be a dict such as {{'tags': ['x']}}, "
            f"not {type(config).__name__}."
        )
    unknown = sorted(set(config or {}) - set(_CONFIG_KEYS + _REAL_ONLY_KEYS))
    if unknown:
        raise ValueError(
            f"unknown config key(s) {unknown}; this scratch config knows "
            f"{list(_CONFIG_KEYS)} and passes on {list(_REAL_ONLY_KEYS)}."
        )


# %% notebooks/08_runnables.ipynb, cell 9
var_child_runnable_config: ContextVar[RunnableConfig | None] = ContextVar(
    "child_runnable_config", default=None
)


def ensure_config(config: RunnableConfig | None = None) -> RunnableConfig:
    """A fresh config with every key present: the enclosing run's, then ``config``'s."""
    _check_config(config)
    fresh: RunnableConfig = {
        "tags": [],
        "metadata": {},
        "callbacks": None,
        "run_name": None,
        "max_concurrency": None,
    }
    for source in (var_child_runnable_config.get(), config):
        for key, value in (source or {}).items():
            if value is None:
                continue
            if key in ("tags", "metadata"):
                value = type(fresh[key])(value)  # a copy: list or dict
            fresh[key] = value
    return fresh


# %% notebooks/08_runnables.ipynb, cell 15
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


# %% notebooks/08_runnables.ipynb, cell 16
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


# %% notebooks/08_runnables.ipynb, cell 17
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


# %% notebooks/08_runnables.ipynb, cell 18
@add_to_class(Runnable)
async def ainvoke(
    self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
) -> Any:
    """The async twin: by default, the sync ``invoke`` in a worker thread (which
    runs in a copy of this context, so a nested run still finds its parent)."""
    context = contextvars.copy_context()
    call = functools.partial(context.run, self.invoke, input, config, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(None, call)


# %% notebooks/08_runnables.ipynb, cell 19
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
def call_in_context(
    config: RunnableConfig, func: Callable[..., Any], *args: Any, **kwargs: Any
) -> Any:
    """``func(*args, **kwargs)`` with ``config`` as the config nested invokes start
    from: set in a copy of the current context, so the caller's is left as it was."""
    context = contextvars.copy_context()
    context.run(var_child_runnable_config.set, config)
    return context.run(func, *args, **kwargs)


# %% notebooks/08_runnables.ipynb, cell 23
@add_to_class(Runnable)
def _call_with_config(
    self, func: Callable[[Any], Any], input: Any, config: RunnableConfig | None
) -> Any:
    """Run ``func(input)`` as one chain run: start event, then end or error event;
    a runnable invoked inside ``func`` is a child run."""
    config = ensure_config(config)
    manager = CallbackManager.configure(
        config["callbacks"],
        inheritable_tags=config["tags"],
        inheritable_metadata=config["metadata"],
    )
    run = manager.on_chain_start(
        None, input, name=config["run_name"] or self.get_name(), run_type=None
    )
    child = {**config, "callbacks": run.get_child(), "run_name": None, "run_id": None}
    try:
        output = call_in_context(child, func, input)
    except Exception as exc:
        run.on_chain_error(exc)
        raise
    run.on_chain_end(output)
    return output


# %% notebooks/08_runnables.ipynb, cell 25
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


# %% notebooks/08_runnables.ipynb, cell 26
def coerce_to_runnable(thing: Any) -> Runnable:
    """What ``|`` accepts: a Runnable (ours, or anything with ``invoke``, such as a
    langchain-core one) as it is, a function wrapped in RunnableLambda."""
    if isinstance(thing, Runnable) or hasattr(thing, "invoke"):
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


# %% notebooks/08_runnables.ipynb, cell 29
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


# %% notebooks/08_runnables.ipynb, cell 30
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
                "run_id": None,
            }
            first = kwargs if i == 0 else {}
            value = call_in_context(child, step.invoke, value, child, **first)
    except Exception as exc:
        run.on_chain_error(exc)
        raise
    run.on_chain_end(value)
    return value


# %% notebooks/08_runnables.ipynb, cell 31
@add_to_class(RunnableSequence)
def __repr__(self) -> str:
    return " | ".join(repr(s) for s in self.steps)


# %% notebooks/08_runnables.ipynb, cell 70
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


# %% notebooks/08_runnables.ipynb, cell 72
class CallbackManager:
    """Handlers plus the tags and metadata every event of one run carries.

    "Inheritable" tags and metadata travel down to child runs (the steps of a sequence);
    the others stay on this run only. The attribute names are langchain-core's, so the
    real manager can build a child from ours, and ours from a real one."""

    def __init__(
        self, handlers: list[Any] | None = None, parent_run_id: uuid.UUID | None = None
    ) -> None:
        self.handlers: list[Any] = list(handlers or [])
        self.inheritable_handlers: list[Any] = list(self.handlers)
        self.parent_run_id = parent_run_id
        self.tags: list[str] = []
        self.inheritable_tags: list[str] = []
        self.metadata: dict[str, Any] = {}
        self.inheritable_metadata: dict[str, Any] = {}


# %% notebooks/08_runnables.ipynb, cell 73
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


# %% notebooks/08_runnables.ipynb, cell 74
@add_to_class(CallbackManager)
def copy(self) -> "CallbackManager":
    """A copy with lists and dicts of its own (the real ``ensure_config`` calls it)."""
    twin = CallbackManager(self.handlers, parent_run_id=self.parent_run_id)
    for name in _MANAGER_FIELDS:
        setattr(twin, name, _fresh(getattr(self, name)))
    return twin


_MANAGER_FIELDS = (
    "inheritable_handlers", "tags", "inheritable_tags", "metadata",
    "inheritable_metadata",
)  # fmt: skip


def _fresh(value: list[Any] | dict[str, Any]) -> list[Any] | dict[str, Any]:
    return list(value) if isinstance(value, list) else dict(value)


# %% notebooks/08_runnables.ipynb, cell 75
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
    """The manager of one new run: the config's handlers, or a parent's child manager
    (ours or langchain-core's: anything with ``handlers`` is read as a manager)."""
    if hasattr(callbacks, "handlers"):
        manager = cls(callbacks.handlers, parent_run_id=callbacks.parent_run_id)
        for name in _MANAGER_FIELDS:
            setattr(manager, name, _fresh(getattr(callbacks, name)))
    else:
        manager = cls(callbacks or [])
    manager.add_tags(list(inheritable_tags or []))
    manager.add_tags(list(local_tags or []), inherit=False)
    manager.add_metadata(dict(inheritable_metadata or {}))
    manager.add_metadata(dict(local_metadata or {}), inherit=False)
    return manager


# %% notebooks/08_runnables.ipynb, cell 76
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


# %% notebooks/08_runnables.ipynb, cell 78
class RunManager:
    """One run in progress: it reports the end or the error, and makes managers for
    child runs.
    """

    def __init__(self, manager: CallbackManager, run_id: uuid.UUID) -> None:
        self.manager = manager
        self.run_id = run_id


# %% notebooks/08_runnables.ipynb, cell 79
@add_to_class(RunManager)
def _emit(self, event: str, *args: Any, **kwargs: Any) -> None:
    """Call ``event`` on every handler that does not ignore its kind (``ignore_chain``,
    ``ignore_retriever``, as a real handler says). A handler that fails is logged, not
    raised (unless it sets ``raise_error = True``): a broken logger must not break the
    chain it watches."""
    ignore = "ignore_retriever" if "retriever" in event else "ignore_chain"
    for handler in self.manager.handlers:
        if getattr(handler, ignore, False):
            continue
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


# %% notebooks/08_runnables.ipynb, cell 80
@add_to_class(RunManager)
def _finish(self, event: str, payload: Any) -> None:
    self._emit(event, payload, tags=list(self.manager.tags))


# %% notebooks/08_runnables.ipynb, cell 81
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


# %% notebooks/08_runnables.ipynb, cell 83
@add_to_class(RunManager)
def get_child(self, tag: str | None = None) -> CallbackManager:
    """A child run's manager: the handlers, inheritable tags and metadata, + ``tag``."""
    child = CallbackManager(
        self.manager.inheritable_handlers, parent_run_id=self.run_id
    )
    child.add_tags(self.manager.inheritable_tags)
    child.add_metadata(self.manager.inheritable_metadata)
    if tag is not None:
        child.add_tags([tag], inherit=False)
    return child


# %% notebooks/08_runnables.ipynb, cell 91
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


# %% notebooks/08_runnables.ipynb, cell 92
@add_to_class(Runnable)
def get_input_schema(self) -> type:
    return _schema(self.get_name() + "Input", self._input_json_type)


@add_to_class(Runnable)
def get_output_schema(self) -> type:
    return _schema(self.get_name() + "Output", self._output_json_type)


# %% notebooks/08_runnables.ipynb, cell 93
@add_to_class(RunnableSequence)
def get_input_schema(self) -> type:
    return self.steps[0].get_input_schema()


@add_to_class(RunnableSequence)
def get_output_schema(self) -> type:
    return self.steps[-1].get_output_schema()
