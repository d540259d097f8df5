# GENERATED from notebooks/09_retrievers.ipynb by `make export`: do not edit.
# Edit the notebook's cells tagged "export", run them, then run `make export`.
# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).

# %% notebooks/09_retrievers.ipynb, cell 5
import copy
import inspect
import math
import re
from abc import abstractmethod
from collections.abc import Sequence
from typing import Any

from retrieval_lab.runtime.oop import add_to_class
from retrieval_lab.scratch.document import Document
from retrieval_lab.scratch.runnables import (
    CallbackManager,
    RunManager,
    Runnable,
    RunnableConfig,
    ensure_config,
)


# %% notebooks/09_retrievers.ipynb, cell 8
class BaseRetriever(Runnable):
    """String in, documents out. A subclass declares its fields and writes
    ``_get_relevant_documents``."""

    tags: list[str] | None = None
    metadata: dict[str, Any] | None = None
    _input_json_type = "string"
    _output_json_type = "array"
    _new_arg_supported: bool = True
    _expects_other_args: bool = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Read the subclass's signature once: does it take ``run_manager``? More?"""
        super().__init_subclass__(**kwargs)
        parameters = inspect.signature(cls._get_relevant_documents).parameters
        cls._new_arg_supported = "run_manager" in parameters
        cls._expects_other_args = bool(
            set(parameters) - {"self", "query", "run_manager"}
        )

    @abstractmethod
    def _get_relevant_documents(
        self, query: str, *, run_manager: RunManager
    ) -> list[Document]:
        """The one method a subclass writes."""


# %% notebooks/09_retrievers.ipynb, cell 11
@add_to_class(BaseRetriever)
def _get_ls_params(self, **kwargs: Any) -> dict[str, str]:
    """The name tracing shows: ``KeywordRetriever`` -> ``{'ls_retriever_name':
    'keyword'}``."""
    name = self.get_name()
    if name.startswith("Retriever"):
        name = name[len("Retriever") :]
    elif name.endswith("Retriever"):
        name = name[: -len("Retriever")]
    return {"ls_retriever_name": name.lower()}


# %% notebooks/09_retrievers.ipynb, cell 12
@add_to_class(BaseRetriever)
def invoke(
    self, input: str, config: RunnableConfig | None = None, **kwargs: Any
) -> list[Document]:
    config = ensure_config(config)
    manager = CallbackManager.configure(
        config["callbacks"],
        inheritable_tags=config["tags"],
        local_tags=self.tags,
        inheritable_metadata={**config["metadata"], **self._get_ls_params(**kwargs)},
        local_metadata=self.metadata,
    )
    run = manager.on_retriever_start(
        None, input, name=config["run_name"] or self.get_name()
    )
    # extra keyword arguments reach the method only if it declares them
    extra = kwargs if self._expects_other_args else {}
    if self._new_arg_supported:
        extra = {**extra, "run_manager": run}
    try:
        result = self._get_relevant_documents(input, **extra)
    except Exception as exc:
        run.on_retriever_error(exc)
        raise
    run.on_retriever_end(result)
    return result


# %% notebooks/09_retrievers.ipynb, cell 14
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


# %% notebooks/09_retrievers.ipynb, cell 15
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


# %% notebooks/09_retrievers.ipynb, cell 18
def top_k(docs: Sequence[Document], scores: Sequence[float], k: int) -> list[Document]:
    """The ``k`` best documents with a positive score, best first; equal scores keep
    corpus order.
    """
    if len(docs) != len(scores):
        raise ValueError(f"got {len(docs)} documents but {len(scores)} scores.")
    order = sorted(range(len(docs)), key=lambda i: -scores[i])
    return [docs[i] for i in order if scores[i] > 0][: max(k, 0)]


# %% notebooks/09_retrievers.ipynb, cell 78
def _field_defaults(cls: type) -> dict[str, Any]:
    """The fields a class declares by annotation (``k: int = 2``), base classes first,
    with their defaults (``_REQUIRED`` when there is none). ClassVars and ``_private``
    names are not fields."""
    fields: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        for name, annotation in vars(klass).get("__annotations__", {}).items():
            text = annotation if isinstance(annotation, str) else repr(annotation)
            if name.startswith("_") or "ClassVar" in text:
                continue
            fields[name] = vars(klass).get(name, _REQUIRED)
    return fields


_REQUIRED = object()


# %% notebooks/09_retrievers.ipynb, cell 80
@add_to_class(BaseRetriever)
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
        value = values[name] if name in values else copy.deepcopy(default)
        setattr(self, name, value)


# %% notebooks/09_retrievers.ipynb, cell 81
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
