"""Notebook 10's exercise checks: what real retrievers do, scores kept, and a safe threshold."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from functools import lru_cache
from typing import Any
from unittest import mock

from langchain_core.documents import Document
from langchain_core.vectorstores import InMemoryVectorStore, VectorStoreRetriever

from retrieval_lab.checks.allow import Allow
from retrieval_lab.models.embeddings import BagOfWords, words_of

#: Build it's three documents.
ROWS = (
    ("cat", "A cat sleeps sixteen hours a day."),
    ("dog", "A dog needs a walk every day."),
    ("os", "The kernel schedules every python thread."),
)

#: Exercise 1's retrievers: the keyword arguments besides ``vectorstore=real_store``.
RETRIEVERS: dict[str, dict[str, Any]] = {
    "A": {"search_type": "similarity_search"}, "B": {"search_type": "similarity_score_threshold"},
    "C": {"search_type": "similarity_score_threshold", "search_kwargs": {"score_threshold": 2.0}},
    "D": {"search_kwargs": {"score_threshold": 0.9}}, "E": {"search_kwargs": {"k": 2, "filter": "pets"}},
    "F": {"search_type": "mmr", "search_kwargs": {"fetch_k": 1}}, "G": {"search_kwargs": {"k": 10}},
}

#: Surprise 3's FAQ and its twelve questions (the dev half: the threshold is read off them).
FAQ = (
    ("cat-sleep", "A cat sleeps twelve to sixteen hours a day."),
    ("cat-food", "Cats are carnivores and need meat in their diet."),
    ("cat-purr", "A cat purrs when it is relaxed, and sometimes when it is hurt."),
    ("cat-claws", "Scratching posts keep a cat's claws short and healthy."),
    ("cat-water", "Many cats drink little, so wet food helps them stay hydrated."),
    ("cat-age", "Indoor cats often live fifteen years or more."),
    ("dog-walk", "Most dogs need at least one long walk every day."),
    ("dog-food", "Grapes and chocolate are poisonous to dogs."),
    ("dog-train", "Reward a puppy right away when it obeys a command."),
    ("dog-bark", "Dogs bark to warn, to greet, or because they are bored."),
    ("dog-teeth", "Brushing a dog's teeth prevents gum disease."),
    ("dog-age", "Small dog breeds usually live longer than large ones."),
    ("py-list", "A Python list keeps its items in order and can grow."),
    ("py-dict", "A dictionary maps keys to values and looks keys up quickly."),
    ("py-venv", "A virtual environment keeps one project's packages apart."),
    ("py-except", "Use try and except to handle an error without crashing."),
    ("py-gil", "The global interpreter lock lets one thread run Python bytecode at a time."),
    ("py-format", "An f-string puts the value of an expression inside a string."),
    ("bread-yeast", "Yeast makes bread dough rise by producing gas."),
    ("bread-knead", "Kneading dough develops gluten, which gives bread its chew."),
    ("bread-oven", "Bake a loaf in a hot oven until it sounds hollow when tapped."),
    ("bread-sour", "A sourdough starter is flour and water fermented by wild yeast."),
    ("bread-store", "Keep bread in a paper bag; the fridge makes it stale faster."),
    ("bread-salt", "Salt slows yeast down and strengthens the dough."),
)
QUESTIONS: dict[str, frozenset[str]] = {
    "How many hours a day do cats sleep?": frozenset({"cat-sleep"}),
    "What should I feed my cat?": frozenset({"cat-food", "cat-water"}),
    "Which foods are dangerous for dogs?": frozenset({"dog-food"}),
    "How often should I walk my dog?": frozenset({"dog-walk"}),
    "How do I stop my program crashing on an error?": frozenset({"py-except"}),
    "How can I keep packages separate between projects?": frozenset({"py-venv"}),
    "Why does my bread dough not rise?": frozenset({"bread-yeast", "bread-sour"}),
    "How should I store a loaf?": frozenset({"bread-store"}),
    "How long do pets live?": frozenset({"cat-age", "dog-age"}),
    "What is the capital of Peru?": frozenset(),
    "How do I change a flat tyre?": frozenset(),
    "Who painted the Mona Lisa?": frozenset(),
}


def quiet() -> Any:
    """The real store's "No relevant docs were retrieved ..." (nothing passed a threshold), silenced."""
    return mock.patch.object(logging.getLogger("langchain_core.vectorstores.base"), "disabled", True)


class _CosineStore(InMemoryVectorStore):
    """The real store with surprise 2's relevance function, (cos + 1) / 2 (the class has none)."""

    def _select_relevance_score_fn(self) -> Callable[[float], float]:
        return lambda cosine: (cosine + 1) / 2


def _build_it(cls: type = _CosineStore) -> Any:
    """Build it's rows in a real store, each labelled ``{"row": n}``."""
    return cls.from_documents(
        [Document(text, id=i, metadata={"row": n}) for n, (i, text) in enumerate(ROWS)], BagOfWords())


def what_the_retrievers_do() -> dict[str, Any]:
    """Exercise 1 (predict): for each retriever, "refused", "fails", or how many documents."""
    store = _build_it(InMemoryVectorStore)

    def outcome(arguments: dict) -> str | int:
        try:
            retriever = VectorStoreRetriever(vectorstore=store, **arguments)
        except ValueError:  # pydantic's ValidationError is a ValueError
            return "refused"
        try:
            return len(retriever.invoke("cat"))
        except Exception:
            return "fails"

    return {name: outcome(arguments) for name, arguments in RETRIEVERS.items()}


_labelled = lru_cache(maxsize=1)(_build_it)


def scored_runs(retriever_class: type) -> Callable[[dict, str, list], list]:
    """Exercise 2 (extend): (id, metadata) of each call's documents, every call on one retriever of the
    learner's class over ``_labelled()``."""

    def run(search_kwargs: dict, query: str, calls: list[dict]) -> list:
        retriever = retriever_class(vectorstore=_labelled(), search_kwargs=dict(search_kwargs))
        with quiet():
            return [[(d.id, d.metadata) for d in retriever.invoke(query, **c)] for c in calls]

    run.__name__ = getattr(retriever_class, "__name__", "ScoredRetriever")
    return run


def real_scored(search_kwargs: dict, query: str, calls: list[dict]) -> list:
    """The oracle: the store's own search with relevance scores, call by call."""
    with quiet():
        return [[(d.id, {**d.metadata, "relevance": score})
                 for d, score in _labelled().similarity_search_with_relevance_scores(
                     query, **{**search_kwargs, **call})]
                for call in calls]


def scored_cases(seed: int = 10, drawn: int = 10) -> list[tuple[dict, str, list]]:
    """Fixed cases (an override that must not last, a threshold, none) and drawn ones."""
    cases: list[tuple[dict, str, list]] = [
        ({"score_threshold": 0.6}, "cat", [{}]), ({"score_threshold": 0.7}, "cat python", [{}]),
        ({"score_threshold": 0.5}, "cat python", [{"k": 1}, {}]), ({"k": 1}, "dog", [{"score_threshold": 0.9}, {}]),
        ({}, "kernel", [{}]), ({"k": 2}, "dog python", [{"k": 3}, {}, {"k": 1}]),
        ({"k": 3, "score_threshold": 0.8}, "kernel python", [{"score_threshold": 0.5}, {}]),
    ]
    rng = random.Random(seed)
    words = ["cat", "dog", "kernel", "python"]
    for _ in range(drawn):
        query = " ".join(rng.choice(words) for _ in range(rng.randint(1, 3)))
        own = {"k": rng.randint(1, 3)} if rng.random() < 0.5 else {}
        if rng.random() < 0.6:
            own["score_threshold"] = rng.choice([0.5, 0.55, 0.7, 0.75, 0.9])
        calls = [{"k": rng.randint(1, 3)} if rng.random() < 0.5 else {} for _ in range(2)]
        cases.append((own, query, calls))
    return cases


GRID = tuple(round(0.5 + i / 100, 2) for i in range(51))


@lru_cache(maxsize=1)
def _bow_faq() -> tuple[Any, tuple[list[float], list[float]]]:
    """The FAQ in a real BagOfWords store with (cos + 1) / 2, and the relevance scores of its
    pairs with the questions, split by the labels."""
    vocabulary = {w for text in [*dict(FAQ).values(), *QUESTIONS] for w in words_of(text)}
    store = _CosineStore.from_documents([Document(text, id=i) for i, text in FAQ], BagOfWords(sorted(vocabulary)))
    relevant: list[float] = []
    irrelevant: list[float] = []
    for question, answers in QUESTIONS.items():
        for doc, score in store.similarity_search_with_relevance_scores(question, k=len(FAQ)):
            (relevant if doc.id in answers else irrelevant).append(score)
    return store, (relevant, irrelevant)


def threshold_problems(choose: Callable[[list[float], list[float]], float]) -> str | None:
    """Exercise 3 (apply): what is wrong with ``choose`` as the lowest safe threshold of the grid, or None,
    on named (relevant, irrelevant) score lists: the BagOfWords FAQ, surprise 2's "cat", and lists drawn
    at random, some with a score exactly on the grid."""
    sets = {
        "BagOfWords FAQ": _bow_faq()[1],
        "surprise 2, 'cat'": ([1.0], [0.5, 0.5]),
        "one irrelevant pair at 0.58": ([0.9], [0.58]),
        "one irrelevant pair at 0.29": ([0.9], [0.29]),
        "irrelevant at 0.995": ([0.999], [0.995, 0.1]),
        "no irrelevant pair": ([0.9, 0.7], []),  # nothing to keep out: the lowest, 0.5
    }
    rng = random.Random(11)
    for n in range(8):
        irrelevant = [round(rng.uniform(0.3, 0.95), rng.choice([2, 3, 6])) for _ in range(20)]
        sets[f"drawn set {n + 1}"] = ([round(rng.uniform(0.6, 1.0), 3) for _ in range(5)], irrelevant)
    for name, (relevant, irrelevant) in sets.items():
        threshold = choose(list(relevant), list(irrelevant))
        if threshold not in GRID:
            return f"{name}: {threshold!r} is not one of 0.50, 0.51, ..., 1.00"
        if any(score >= threshold for score in irrelevant):
            return f"{name}: {threshold} keeps an irrelevant pair"
        if threshold > 0.5 and not any(score >= GRID[GRID.index(threshold) - 1] for score in irrelevant):
            return f"{name}: a lower threshold of the grid keeps none either"
    try:
        hopeless = choose([0.9], [1.0])
    except ValueError:
        pass
    else:
        return (f"an irrelevant pair scores 1.0, which no threshold of the grid keeps out: "
                f"raise ValueError instead of returning {hopeless!r}")
    store, (relevant, irrelevant) = _bow_faq()
    chosen = choose(list(relevant), list(irrelevant))
    retriever = store.as_retriever(search_type="similarity_score_threshold",
                                   search_kwargs={"score_threshold": chosen, "k": len(FAQ)})
    with quiet():
        leaks = [d.id for q, ok in QUESTIONS.items() for d in retriever.invoke(q) if d.id not in ok]
    if leaks:
        return f"the real retriever at {chosen} returns irrelevant texts {leaks}"
    return None


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="ScoredRetriever", names=["VectorStoreRetriever", "Document", "RealDocument"],
                        refuse=["invoke", "ainvoke", "batch", "get_relevant_documents"]),
    "Exercise 3": Allow(answer="safe_threshold", modules=["math"]),
}
