# GENERATED from notebooks/10_vectorstore_retriever.ipynb by `make export`: do not edit.
# Edit the notebook's cells tagged "export", run them, then run `make export`.
# Each part starts with `# %% <notebook>, cell K` (K counts every cell from 0).

# %% notebooks/10_vectorstore_retriever.ipynb, cell 5
from typing import Any, ClassVar

from retrieval_lab.runtime.oop import add_to_class
from retrieval_lab.scratch.document import Document
from retrieval_lab.scratch.retrievers import BaseRetriever
from retrieval_lab.scratch.runnables import (
    CallbackManager,
    RunManager,
    Runnable,
    RunnableConfig,
    call_in_context,
    coerce_to_runnable,
    ensure_config,
)


# %% notebooks/10_vectorstore_retriever.ipynb, cell 7
class VectorStoreRetriever(BaseRetriever):
    """A vector store behind the retriever interface: the search is fixed at
    construction; keyword arguments of ``invoke`` override ``search_kwargs`` once."""

    vectorstore: Any
    search_type: str = "similarity"
    search_kwargs: dict[str, Any] = {}  # noqa: RUF012 (each instance gets a copy)
    allowed_search_types: ClassVar[tuple[str, ...]] = (
        "similarity", "similarity_score_threshold", "mmr"
    )  # fmt: skip

    def _get_relevant_documents(
        self, query: str, *, run_manager: RunManager, **kwargs: Any
    ) -> list[Document]:
        """This call's kwargs over ``search_kwargs``, then the store's search."""
        merged = self.search_kwargs | kwargs
        if self.search_type == "similarity":
            return self.vectorstore.similarity_search(query, **merged)
        if self.search_type == "similarity_score_threshold":
            pairs = self.vectorstore.similarity_search_with_relevance_scores(
                query, **merged
            )
            return [doc for doc, _ in pairs]
        if self.search_type == "mmr":
            return self.vectorstore.max_marginal_relevance_search(query, **merged)
        # only reachable when search_type was changed after construction
        raise ValueError(f"search_type of {self.search_type} not allowed.")


# %% notebooks/10_vectorstore_retriever.ipynb, cell 9
@add_to_class(VectorStoreRetriever)
def __init__(self, **values: Any) -> None:
    BaseRetriever.__init__(self, **values)  # the fields, as every retriever
    self._validate_search()


# %% notebooks/10_vectorstore_retriever.ipynb, cell 10
@add_to_class(VectorStoreRetriever)
def _validate_search(self) -> None:
    """Refuse, at construction, a search the retriever could never run."""
    if self.search_type not in self.allowed_search_types:
        raise ValueError(
            f"search_type of {self.search_type} not allowed. Valid "
            f"values are: {self.allowed_search_types}"
        )
    if not isinstance(self.search_kwargs, dict):
        raise TypeError(
            f"search_kwargs must be a dict such as {{'k': 2}}, "
            f"got {self.search_kwargs!r}."
        )
    if self.search_type == "similarity_score_threshold":
        threshold = self.search_kwargs.get("score_threshold")
        if not isinstance(threshold, float):
            raise ValueError(
                "`score_threshold` is not specified with a float "
                "value(0~1) in `search_kwargs` "
                f"(got {threshold!r}); write e.g. "
                f"search_kwargs={{'score_threshold': 0.5}}."
            )


# %% notebooks/10_vectorstore_retriever.ipynb, cell 11
@add_to_class(VectorStoreRetriever)
def _get_ls_params(self, **kwargs: Any) -> dict[str, str]:
    """What tracing shows: the retriever, the store's class and the embedder's class."""
    params = super(VectorStoreRetriever, self)._get_ls_params(**kwargs)
    params["ls_vector_store_provider"] = type(self.vectorstore).__name__
    if self.vectorstore.embeddings:
        params["ls_embedding_provider"] = type(self.vectorstore.embeddings).__name__
    return params


@add_to_class(VectorStoreRetriever)
def add_documents(self, documents: list[Document], **kwargs: Any) -> list[str]:
    """Add to the underlying store, so code holding only the retriever can still index.
    """
    return self.vectorstore.add_documents(documents, **kwargs)


# %% notebooks/10_vectorstore_retriever.ipynb, cell 83
class RunnablePassthrough(Runnable):
    """Its output is its input: the branch of a parallel step that carries the question
    along.
    """

    def invoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> Any:
        return self._call_with_config(lambda value: value, input, config)

    def __repr__(self) -> str:
        return "RunnablePassthrough()"


# %% notebooks/10_vectorstore_retriever.ipynb, cell 84
class RunnableParallel(Runnable):
    """Give the same input to several runnables; return their outputs as a dict, one key
    each.

    Each branch is a child run tagged ``map:key:<key>``. The real class runs the
    branches in threads; this one runs them one after the other, so its events always
    come in key order.
    """

    def __init__(self, steps: dict[str, Any] | None = None, /, **kwargs: Any) -> None:
        merged = {**(steps or {}), **kwargs}
        if not merged:
            raise ValueError(
                "RunnableParallel needs at least one branch, e.g. "
                "RunnableParallel(question=...)."
            )
        self.steps: dict[str, Runnable] = {
            key: coerce_to_runnable(step) for key, step in merged.items()
        }
        self.name: str | None = None


@add_to_class(RunnableParallel)
def get_name(self) -> str:
    return self.name or f"RunnableParallel<{','.join(self.steps)}>"


# %% notebooks/10_vectorstore_retriever.ipynb, cell 85
@add_to_class(RunnableParallel)
def invoke(
    self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
) -> dict[str, Any]:
    config = ensure_config(config)
    manager = CallbackManager.configure(
        config["callbacks"],
        inheritable_tags=config["tags"],
        inheritable_metadata=config["metadata"],
    )
    run = manager.on_chain_start(
        None, input, name=config["run_name"] or self.get_name()
    )
    try:
        output = {}
        for key, step in self.steps.items():
            child = {
                **config,
                "callbacks": run.get_child(f"map:key:{key}"),
                "run_name": None,
                "run_id": None,
            }
            output[key] = call_in_context(child, step.invoke, input, child)
    except Exception as exc:
        run.on_chain_error(exc)
        raise
    run.on_chain_end(output)
    return output


# %% notebooks/10_vectorstore_retriever.ipynb, cell 86
@add_to_class(RunnableParallel)
def __repr__(self) -> str:
    inner = ",\n  ".join(f"{key}: {step!r}" for key, step in self.steps.items())
    return "{\n  " + inner + "\n}"
