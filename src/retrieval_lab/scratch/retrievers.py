# GENERATED from notebooks/08_retrievers.ipynb by `make export`: do not edit.
# Edit the notebook's cells tagged "export", run them, then run `make export`.
# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).

# %% notebooks/08_retrievers.ipynb, cell 5
import asyncio
import copy
import functools
import inspect
import logging
import math
import re
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from retrieval_lab.scratch.document import Document

RunnableConfig = dict[str, Any]

"""A config is a plain dict: ``tags``, ``metadata``, ``callbacks``, ``run_name``,
``max_concurrency``.
"""

_CONFIG_KEYS = ("tags", "metadata", "callbacks", "run_name", "max_concurrency")


# %% notebooks/08_retrievers.ipynb, cell 6
def ensure_config(config: RunnableConfig | None = None) -> RunnableConfig:
    """A fresh config with every key present, so the code below never has to test for
    ``None``.

    Unknown keys are refused: a typo such as ``{"tag": [...]}`` would otherwise be lost
    silently.
    """
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
    fresh: RunnableConfig = {
        "tags": [],
        "metadata": {},
        "callbacks": None,
        "run_name": None,
        "max_concurrency": None,
    }
    for key, value in (config or {}).items():
        if value is not None:
            fresh[key] = (
                list(value)
                if key == "tags"
                else dict(value)
                if key == "metadata"
                else value
            )
    return fresh


# %% notebooks/08_retrievers.ipynb, cell 9
class BaseCallbackHandler:
    """Something that wants to hear about runs. Every method is a no-op: override what
    you need.

    The method names and keyword arguments are langchain-core's, so a handler written
    for the
    real library (a subclass of its ``BaseCallbackHandler``) also works here.
    """

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


# %% notebooks/08_retrievers.ipynb, cell 11
from retrieval_lab.oop import add_to_class


class CallbackManager:
    """Handlers plus the tags and metadata every event of one run carries.

    "Inheritable" tags and metadata travel down to child runs (the steps of a sequence);
    the
    others stay on this run only. Re-adding a tag moves it to the end, as in
    langchain-core.
    """

    def __init__(
        self, handlers: list[Any] | None = None, parent_run_id: uuid.UUID | None = None
    ) -> None:
        self.handlers: list[Any] = list(handlers or [])
        self.parent_run_id = parent_run_id
        self.tags: list[str] = []
        self.inheritable_tags: list[str] = []
        self.metadata: dict[str, Any] = {}
        self.inheritable_metadata: dict[str, Any] = {}


# %% notebooks/08_retrievers.ipynb, cell 12
@add_to_class(CallbackManager)
def add_tags(self, tags: Sequence[str], inherit: bool = True) -> None:
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


# %% notebooks/08_retrievers.ipynb, cell 13
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
    """The manager for one new run: the config's handlers (or a parent's child manager)
    + tags.
    """
    if isinstance(callbacks, CallbackManager):
        manager = cls(callbacks.handlers, parent_run_id=callbacks.parent_run_id)
        manager.tags, manager.inheritable_tags = (
            list(callbacks.tags),
            list(callbacks.inheritable_tags),
        )
        manager.metadata = dict(callbacks.metadata)
        manager.inheritable_metadata = dict(callbacks.inheritable_metadata)
    else:
        manager = cls(callbacks or [])
    if inheritable_tags or local_tags:
        manager.add_tags(list(inheritable_tags or []))
        manager.add_tags(list(local_tags or []), inherit=False)
    if inheritable_metadata or local_metadata:
        manager.add_metadata(dict(inheritable_metadata or {}))
        manager.add_metadata(dict(local_metadata or {}), inherit=False)
    return manager


# %% notebooks/08_retrievers.ipynb, cell 14
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


# %% notebooks/08_retrievers.ipynb, cell 15
class RunManager:
    """One run in progress: it reports the end or the error, and makes managers for
    child runs.
    """

    def __init__(self, manager: CallbackManager, run_id: uuid.UUID) -> None:
        self.manager = manager
        self.run_id = run_id


# %% notebooks/08_retrievers.ipynb, cell 16
@add_to_class(RunManager)
def _emit(self, event: str, *args: Any, **kwargs: Any) -> None:
    """Call ``event`` on every handler. A handler that fails is logged, not raised
    (unless it
    sets ``raise_error = True``): a broken logger must not break the chain it
    watches.
    """
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


# %% notebooks/08_retrievers.ipynb, cell 17
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


@add_to_class(RunManager)
def get_child(self, tag: str | None = None) -> CallbackManager:
    """A manager for a child run: inherits handlers, inheritable tags and metadata, plus
    ``tag``.
    """
    child = CallbackManager(self.manager.handlers, parent_run_id=self.run_id)
    child.add_tags(self.manager.inheritable_tags)
    child.add_metadata(self.manager.inheritable_metadata)
    if tag is not None:
        child.add_tags([tag], inherit=False)
    return child


# %% notebooks/08_retrievers.ipynb, cell 21
from retrieval_lab.oop import add_to_class


def _schema(name: str, json_type: str | None) -> type:
    """A stand-in for the pydantic model the real ``get_input_schema()`` returns: a
    named class
    whose ``model_json_schema()`` gives the title and the JSON type."""
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


# %% notebooks/08_retrievers.ipynb, cell 22
class Runnable(ABC):
    """Anything with ``invoke``. The rest - ``batch``, ``ainvoke``, ``|`` - is built on
    it here.
    """

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
    """What callbacks and schemas call this runnable: ``name`` if set, else the class
    name.
    """
    return self.name or type(self).__name__


# %% notebooks/08_retrievers.ipynb, cell 23
@add_to_class(Runnable)
def batch(
    self,
    inputs: Sequence[Any],
    config: RunnableConfig | Sequence[RunnableConfig] | None = None,
    *,
    return_exceptions: bool = False,
    **kwargs: Any,
) -> list[Any]:
    """``invoke`` on each input, in a thread pool (``max_concurrency`` caps it); results
    in input order.
    """
    inputs = list(inputs)
    if not inputs:
        return []
    if isinstance(config, Sequence):
        if len(config) != len(inputs):
            raise ValueError(
                f"batch got {len(inputs)} inputs but "
                f"{len(config)} configs; give one config "
                "per input, or a single config for all."
            )
        configs = [ensure_config(c) for c in config]
    else:
        configs = [ensure_config(config) for _ in inputs]

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


# %% notebooks/08_retrievers.ipynb, cell 24
@add_to_class(Runnable)
async def ainvoke(
    self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
) -> Any:
    """The async twin: by default, the sync ``invoke`` in a worker thread."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(
        None, functools.partial(self.invoke, input, config, **kwargs)
    )


@add_to_class(Runnable)
def __or__(self, other: Any) -> "RunnableSequence":
    return RunnableSequence(self, coerce_to_runnable(other))


@add_to_class(Runnable)
def __ror__(self, other: Any) -> "RunnableSequence":
    return RunnableSequence(coerce_to_runnable(other), self)


@add_to_class(Runnable)
def pipe(self, *others: Any) -> "RunnableSequence":
    return RunnableSequence(self, *(coerce_to_runnable(o) for o in others))


@add_to_class(Runnable)
def get_input_schema(self) -> type:
    return _schema(self.get_name() + "Input", self._input_json_type)


# %% notebooks/08_retrievers.ipynb, cell 25
@add_to_class(Runnable)
def get_output_schema(self) -> type:
    return _schema(self.get_name() + "Output", self._output_json_type)


# %% notebooks/08_retrievers.ipynb, cell 26
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


# %% notebooks/08_retrievers.ipynb, cell 28
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
        return self._call_with_config(self.func, input, config)

    def __repr__(self) -> str:
        return f"RunnableLambda({self.name or '...'})"


# %% notebooks/08_retrievers.ipynb, cell 29
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
            "...) explicitly (notebook 09)."
        )
    raise TypeError(
        f"cannot put {type(thing).__name__} {thing!r} in a "
        "chain: use a Runnable or a function."
    )


# %% notebooks/08_retrievers.ipynb, cell 32
from retrieval_lab.oop import add_to_class


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


# %% notebooks/08_retrievers.ipynb, cell 33
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


# %% notebooks/08_retrievers.ipynb, cell 34
@add_to_class(RunnableSequence)
def get_input_schema(self) -> type:
    return self.steps[0].get_input_schema()


@add_to_class(RunnableSequence)
def get_output_schema(self) -> type:
    return self.steps[-1].get_output_schema()


@add_to_class(RunnableSequence)
def __repr__(self) -> str:
    return " | ".join(repr(s) for s in self.steps)


# %% notebooks/08_retrievers.ipynb, cell 39
def _field_defaults(cls: type) -> dict[str, Any]:
    """The fields a class declares by annotation (``k: int = 2``), base classes first,
    with their
    defaults (``_REQUIRED`` when there is none). ClassVars and ``_private`` names are
    not fields.
    """
    fields: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        for name, annotation in vars(klass).get("__annotations__", {}).items():
            text = annotation if isinstance(annotation, str) else repr(annotation)
            if name.startswith("_") or "ClassVar" in text:
                continue
            fields[name] = vars(klass).get(name, _REQUIRED)
    return fields


_REQUIRED = object()


# %% notebooks/08_retrievers.ipynb, cell 41
from retrieval_lab.oop import add_to_class


# %% notebooks/08_retrievers.ipynb, cell 42
class BaseRetriever(Runnable):
    """String in, documents out. A subclass declares its fields and writes
    ``_get_relevant_documents``.

    Fields work like the real (pydantic) ones - ``KeywordRetriever(docs=[...], k=3)`` -
    but are not
    type-checked; an unknown field name is refused (the real class drops it silently).
    """

    tags: list[str] | None = None
    metadata: dict[str, Any] | None = None
    _input_json_type = "string"
    _output_json_type = "array"
    _new_arg_supported: bool = True
    _expects_other_args: bool = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Read the subclass's method signature once: does it take ``run_manager``?
        other kwargs?
        """
        super().__init_subclass__(**kwargs)
        parameters = inspect.signature(cls._get_relevant_documents).parameters
        cls._new_arg_supported = "run_manager" in parameters
        cls._expects_other_args = bool(
            set(parameters) - {"self", "query", "run_manager"}
        )

    def __init__(self, **values: Any) -> None:
        fields = _field_defaults(type(self))
        unknown = sorted(set(values) - set(fields))
        if unknown:
            raise TypeError(
                f"{type(self).__name__} has no field(s) {unknown}; "
                f"its fields are {list(fields)}."
            )
        missing = [n for n, d in fields.items() if d is _REQUIRED and n not in values]
        if missing:
            raise TypeError(
                f"{type(self).__name__} needs field(s) "
                f"{missing}: pass them as keywords."
            )
        for name, default in fields.items():
            setattr(
                self, name, values[name] if name in values else copy.deepcopy(default)
            )

    @abstractmethod
    def _get_relevant_documents(
        self, query: str, *, run_manager: RunManager
    ) -> list[Document]:
        """The one method a subclass writes."""


# %% notebooks/08_retrievers.ipynb, cell 43
@add_to_class(BaseRetriever)
def _shown_fields(self) -> list[str]:
    """Fields that differ from their defaults (the real repr hides the others too)."""
    fields = _field_defaults(type(self))
    return [
        f"{n}={getattr(self, n)!r}"
        for n, d in fields.items()
        if d is _REQUIRED or getattr(self, n) != d
    ]


@add_to_class(BaseRetriever)
def __repr__(self) -> str:
    return f"{type(self).__name__}({', '.join(self._shown_fields())})"


@add_to_class(BaseRetriever)
def __str__(self) -> str:
    return " ".join(self._shown_fields())


# %% notebooks/08_retrievers.ipynb, cell 44
@add_to_class(BaseRetriever)
def _get_ls_params(self, **kwargs: Any) -> dict[str, str]:
    """``KeywordRetriever`` -> ``{'ls_retriever_name': 'keyword'}``: the name tracing
    shows.
    """
    name = self.get_name()
    if name.startswith("Retriever"):
        name = name[len("Retriever") :]
    elif name.endswith("Retriever"):
        name = name[: -len("Retriever")]
    return {"ls_retriever_name": name.lower()}


# %% notebooks/08_retrievers.ipynb, cell 45
@add_to_class(BaseRetriever)
def invoke(
    self, input: str, config: RunnableConfig | None = None, **kwargs: Any
) -> list[Document]:
    config = ensure_config(config)
    manager = CallbackManager.configure(
        config["callbacks"],
        inheritable_tags=config["tags"],
        local_tags=self.tags,
        inheritable_metadata={
            **config["metadata"],
            **self._get_ls_params(**kwargs),
        },
        local_metadata=self.metadata,
    )
    run = manager.on_retriever_start(
        None, input, name=config["run_name"] or self.get_name()
    )
    try:
        extra = (
            kwargs if self._expects_other_args else {}
        )  # the silent drop, as in langchain-core
        if self._new_arg_supported:
            result = self._get_relevant_documents(input, run_manager=run, **extra)
        else:
            result = self._get_relevant_documents(input, **extra)
    except Exception as exc:
        run.on_retriever_error(exc)
        raise
    run.on_retriever_end(result)
    return result


# %% notebooks/08_retrievers.ipynb, cell 47
def split_terms(text: str) -> list[str]:
    """Lowercase words and numbers: "Cats, cat!" -> ['cats', 'cat']."""
    if not isinstance(text, str):
        raise TypeError(f"expected text (str), got {type(text).__name__} {text!r}.")
    return re.findall(r"[a-z0-9]+", text.lower())


def keyword_scores(query: str, docs: Sequence[Document]) -> list[int]:
    """How many times the query's words occur in each document (a word repeated in the
    query counts twice).
    """
    terms = split_terms(query)
    return [sum(split_terms(d.page_content).count(t) for t in terms) for d in docs]


# %% notebooks/08_retrievers.ipynb, cell 48
def bm25_scores(
    query: str, docs: Sequence[Document], k1: float = 1.5, b: float = 0.75
) -> list[float]:
    """Okapi BM25: for each query word, idf (rare words weigh more) x a saturating term
    frequency.

    ``k1`` says how fast repeats stop helping; ``b`` how much long documents are
    penalised (0: not at all).
    """
    if k1 < 0 or not 0 <= b <= 1:
        raise ValueError(f"BM25 needs k1 >= 0 and 0 <= b <= 1, got k1={k1}, b={b}.")
    bags = [split_terms(d.page_content) for d in docs]
    n_docs = len(bags)
    avg_len = sum(map(len, bags)) / n_docs if n_docs else 0.0
    scores = [0.0] * n_docs
    if avg_len == 0:
        return scores
    for term in split_terms(query):
        having = sum(term in bag for bag in bags)
        idf = math.log(1 + (n_docs - having + 0.5) / (having + 0.5))
        for i, bag in enumerate(bags):
            tf = bag.count(term)
            if tf:
                scores[i] += (
                    idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len(bag) / avg_len))
                )
    return scores


# %% notebooks/08_retrievers.ipynb, cell 49
def top_k(docs: Sequence[Document], scores: Sequence[float], k: int) -> list[Document]:
    """The ``k`` best documents with a positive score, best first; equal scores keep
    corpus order.
    """
    if len(docs) != len(scores):
        raise ValueError(f"got {len(docs)} documents but {len(scores)} scores.")
    order = sorted(range(len(docs)), key=lambda i: -scores[i])
    return [docs[i] for i in order if scores[i] > 0][: max(k, 0)]
