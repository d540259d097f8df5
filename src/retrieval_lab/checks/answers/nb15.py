"""The second-stage notebook's exercise checks: the real reranker's answers, the reference
gradient with its random cases, and what a feature of the learner's own must satisfy."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from scipy.stats import rankdata

from retrieval_lab.checks.allow import Allow
from retrieval_lab.evaluation import evaluate, rerank

# ----------------------------------------------------------------- Exercise 1: predict

#: The exercise's table of scores (by passage text) and the order the documents come in.
TABLE = {"A": 0.9, "B": 0.5, "C": 0.9, "D": 0.1}
ORDER = ("D", "C", "B", "A")


def what_the_reranker_returns() -> dict[str, list[str]]:
    """Run the real CrossEncoderReranker and ContextualCompressionRetriever on the exercise."""
    from langchain_classic.retrievers import ContextualCompressionRetriever
    from langchain_classic.retrievers.document_compressors import CrossEncoderReranker
    from langchain_core.cross_encoders import BaseCrossEncoder
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever

    class Table(BaseCrossEncoder):
        def score(self, text_pairs: list[tuple[str, str]]) -> list[float]:
            return [TABLE[p] for _, p in text_pairs]

    class FirstTwo(BaseCrossEncoder):
        def score(self, text_pairs: list[tuple[str, str]]) -> list[float]:
            return [TABLE[p] for _, p in text_pairs[:2]]

    class Raises(BaseCrossEncoder):
        def score(self, text_pairs: list[tuple[str, str]]) -> list[float]:
            raise RuntimeError("the model was called")

    class Nothing(BaseRetriever):
        def _get_relevant_documents(self, query: str, *, run_manager: Any) -> list[Document]:
            return []

    docs = [Document(text, id=text) for text in ORDER]

    def ids(model: BaseCrossEncoder, top_n: int) -> list[str]:
        reranker = CrossEncoderReranker(model=model, top_n=top_n)
        return [d.id for d in reranker.compress_documents(docs, "which letter?")]

    empty = ContextualCompressionRetriever(
        base_compressor=CrossEncoderReranker(model=Raises(), top_n=3), base_retriever=Nothing()
    )
    return {
        "top2": ids(Table(), 2),
        "minus1": ids(Table(), -1),
        "short": ids(FirstTwo(), 3),
        "empty": [d.id for d in empty.invoke("which letter?")],
    }


# ----------------------------------------------------------------- Exercise 2: debug


def reference_gradient(w: Any, x: Any, y: Any, l2: float) -> tuple[float, np.ndarray]:
    """The course's loss and gradient (``rerank.log_loss_gradient``)."""

    loss, gradient = rerank.log_loss_gradient(
        np.array(w, dtype=float), np.array(x, dtype=float), np.array(y, dtype=float), l2
    )
    return float(loss), np.asarray(gradient)


def gradient_cases(seed: int | None = None) -> list[tuple[Any, ...]]:
    """Random weights, features (column 0 the constant 1), labels and penalties: a non-zero
    intercept always, labels all 0 or all 1 sometimes, sizes from 1 to 60 rows.

    Drawn afresh at every check (a seed from the operating system unless one is given), so a
    table of answers made in advance holds none of them.
    """
    if seed is None:
        import secrets

        seed = secrets.randbits(64)
    rng = np.random.default_rng(seed)
    cases = []
    shapes = [(1, 2), (2, 3), (7, 2), (25, 4), (60, 6), (13, 5), (40, 3), (5, 7)]
    penalties = [0.0, 0.01, 0.5, 1e-3, 2.0, 0.1, 0.0, 0.3]
    for n, (rows, width) in enumerate(shapes):
        x = np.c_[np.ones(rows), rng.normal(size=(rows, width - 1)) * (1 + n % 3)]
        w = rng.normal(size=width) * 1.5
        w[0] = 0.5 + rng.random()  # an intercept the penalty must leave alone
        if n == 3:
            y = np.zeros(rows)
        elif n == 5:
            y = np.ones(rows)
        else:
            y = (rng.random(rows) < 0.4).astype(float)
        cases.append((w, x, y, penalties[n]))
    return cases


def same_loss_and_gradient(got: Any, expected: tuple[float, np.ndarray]) -> bool:
    """The loss to 1e-12 (relative) and the gradient element by element."""
    if not isinstance(got, tuple | list) or len(got) != 2:
        return False
    loss, gradient = got
    try:
        gradient = np.asarray(gradient, dtype=float)
        loss = float(loss)
    except (TypeError, ValueError):
        return False
    return (
        math.isclose(loss, expected[0], rel_tol=1e-12, abs_tol=1e-14)
        and gradient.shape == expected[1].shape
        and bool(np.allclose(gradient, expected[1], rtol=1e-10, atol=1e-14))
    )


# ----------------------------------------------------------------- Exercise 3: apply

#: Questions the learner has not seen: the feature runs on their candidates.
UNSEEN_QUESTIONS = (
    "How do I leave a loop before it has finished?",
    "What does a star in front of a parameter name collect?",
    "When does the code in a finally clause run?",
    "When are the default values of a function's arguments computed?",
    "What happens when a function body contains yield?",
    "Can a class inherit from two classes at once?",
)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        return None
    return float(value)


def _correlation(a: Sequence[float], b: Sequence[float]) -> float:
    a_, b_ = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a_.std() == 0 or b_.std() == 0:
        return 0.0
    return float(np.corrcoef(a_, b_)[0, 1])


def _explained(values: Sequence[float], six: Sequence[Sequence[float]]) -> float:
    """R squared of the least-squares fit of ``values`` on the six features and a constant:
    a weighted sum of features the learned reranker has adds nothing it could not learn."""
    v = np.asarray(values, dtype=float)
    if v.std() == 0:
        return 0.0
    design = np.c_[np.ones(len(v)), np.asarray(six, dtype=float)]
    weights, *_ = np.linalg.lstsq(design, v, rcond=None)
    return float(1 - ((v - design @ weights) ** 2).sum() / ((v - v.mean()) ** 2).sum())


def _auc(scores: Sequence[float], labels: Sequence[float]) -> float:
    """The chance that a relevant candidate outscores an irrelevant one (ties count half)."""
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg)) if pos and neg else 0.5


def _pairs(per_question: int = 10) -> list[tuple[str, str]]:

    stage = rerank.first_stage()
    return [
        (q, stage.by_id[i].page_content)
        for q in UNSEEN_QUESTIONS for i in stage.ranking(q)[:per_question]
    ]


def feature_problems(feature: Callable[[str, str], Any]) -> str | None:
    """What is wrong with a seventh feature, or None: a finite number for every candidate of
    unseen questions, the same twice, varying between passages, no copy of the six, and not
    a reader of the judgments."""

    pairs = _pairs()
    values = []
    for question, passage in pairs:
        raw = feature(question, passage)
        value = _number(raw)
        if value is None or not math.isfinite(value):
            return (f"for the question {question!r} it returned {raw!r:.40}: a feature must "
                    "be a finite number (int or float)")
        values.append(value)
    question, passage = pairs[len(pairs) // 2]
    if _number(feature(question, passage)) != values[len(pairs) // 2]:
        return "it gave two different values for the same pair: a feature must be repeatable"
    by_question: dict[str, set[float]] = {}
    for (q, _), value in zip(pairs, values, strict=True):
        by_question.setdefault(q, set()).add(value)
    if all(len(seen) == 1 for seen in by_question.values()):
        return ("it gives every passage of a question the same value, so it cannot tell "
                "candidates apart")
    six = [rerank.features(q, p) for q, p in pairs]
    for column, name in enumerate(rerank.FEATURES):
        if abs(_correlation(values, [row[column] for row in six])) > 0.98 or abs(
            _correlation(rankdata(values), rankdata([row[column] for row in six]))
        ) > 0.98:
            return f"it is the feature {name!r} again (or a rescaling of it)"
    explained = _explained(values, six)
    if explained > 0.98**2:
        return (f"the six features, weighted and summed, give {explained:.0%} of it: the "
                "learned reranker, a weighted sum, already has it")
    questions = evaluate.load_questions()[:40]
    qrels = evaluate.judgments(questions, evaluate.corpus()[0])
    stage = rerank.first_stage()
    scores, labels = [], []
    for q in questions:
        if qrels[q["id"]]:
            for doc_id in stage.ranking(q["question"])[:20]:
                scores.append(_number(feature(q["question"], stage.by_id[doc_id].page_content)))
                labels.append(qrels[q["id"]].get(doc_id, 0) >= 1)
    if any(s is None for s in scores):
        return "on a shipped question it did not return a number"
    if max(_auc(scores, labels), 1 - _auc(scores, labels)) > 0.97:
        return ("it separates relevant from irrelevant passages almost perfectly on the "
                "shipped questions and not on new ones: does it read the judgments?")
    return None



#: What each exercise's answer may use (checks/allow.py reads its cell before it runs).
ALLOWED = {
    "Exercise 2": Allow(
        answer="fixed_loss_and_gradient",
        modules=["numpy", "math"],
        refuse=["log_loss_gradient", "fit_logistic"],
    ),
    "Exercise 3": Allow(answer="my_feature", modules=["math", "re", "collections", "string"]),
}
