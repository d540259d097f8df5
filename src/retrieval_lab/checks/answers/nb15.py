"""The second-stage notebook's exercise checks: the real reranker's answers, the reference
gradient with its random cases, and what a feature of the learner's own must satisfy."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from scipy.stats import rankdata

from retrieval_lab.checks.allow import Allow
from retrieval_lab.checks.answers import fresh_seed, same_numbers
from retrieval_lab.evaluation import evaluate, rerank

#: Exercise 1 (predict): the exercise's table of scores (by passage text) and the order the documents come in.
TABLE = {"A": 0.9, "B": 0.5, "C": 0.9, "D": 0.1}
ORDER = ("D", "C", "B", "A")


def what_the_reranker_returns() -> dict[str, list[str]]:
    """Run the real CrossEncoderReranker and ContextualCompressionRetriever on the exercise."""
    from langchain_classic.retrievers import ContextualCompressionRetriever
    from langchain_classic.retrievers.document_compressors import CrossEncoderReranker
    from langchain_core.cross_encoders import BaseCrossEncoder
    from langchain_core.documents import Document
    from langchain_core.runnables import RunnableLambda

    class Table(BaseCrossEncoder):
        """The table's scores, for the first ``upto`` pairs only when it is given; called with
        no pairs (an empty first stage), it fails."""

        def __init__(self, upto: int | None = None) -> None:
            self.upto = upto

        def score(self, text_pairs: list[tuple[str, str]]) -> list[float]:
            if not text_pairs:
                raise RuntimeError("the model was called with nothing to score")
            return [TABLE[p] for _, p in text_pairs[: self.upto]]

    docs = [Document(text, id=text) for text in ORDER]

    def ids(top_n: int, upto: int | None = None) -> list[str]:
        reranker = CrossEncoderReranker(model=Table(upto), top_n=top_n)
        return [d.id for d in reranker.compress_documents(docs, "which letter?")]

    empty = ContextualCompressionRetriever(base_compressor=CrossEncoderReranker(model=Table(), top_n=3),
                                           base_retriever=RunnableLambda(lambda _: []))
    return {"top2": ids(2), "minus1": ids(-1), "short": ids(3, upto=2),
            "empty": [d.id for d in empty.invoke("which letter?")]}


def reference_gradient(w: Any, x: Any, y: Any, l2: float) -> tuple[float, np.ndarray]:
    """Exercise 2 (debug)'s oracle: the course's loss and gradient (``rerank.log_loss_gradient``)."""
    loss, gradient = rerank.log_loss_gradient(*(np.array(v, dtype=float) for v in (w, x, y)), l2)
    return float(loss), np.asarray(gradient)


def gradient_cases(seed: int | None = None) -> list[tuple[Any, ...]]:
    """Random weights, features (column 0 the constant 1), labels and penalties (``fresh_seed``):
    a non-zero intercept always, labels all 0 or all 1 sometimes, sizes from 1 to 60 rows."""
    rng = np.random.default_rng(fresh_seed(seed))
    cases = []
    shapes = [(1, 2), (2, 3), (7, 2), (25, 4), (60, 6), (13, 5), (40, 3), (5, 7)]
    penalties = [0.0, 0.01, 0.5, 1e-3, 2.0, 0.1, 0.0, 0.3]
    for n, (rows, width) in enumerate(shapes):
        x = np.c_[np.ones(rows), rng.normal(size=(rows, width - 1)) * (1 + n % 3)]
        w = rng.normal(size=width) * 1.5
        w[0] = 0.5 + rng.random()  # an intercept the penalty must leave alone
        y = np.zeros(rows) if n == 3 else np.ones(rows) if n == 5 else (rng.random(rows) < 0.4).astype(float)
        cases.append((w, x, y, penalties[n]))
    return cases


def same_loss_and_gradient(got: Any, expected: tuple[float, np.ndarray]) -> bool:
    """The loss to 1e-12 (relative) and the gradient element by element, to 1e-10."""
    return (isinstance(got, tuple | list) and len(got) == 2
            and same_numbers(got[0], expected[0], rel=5e-13, absolute=5e-15)
            and same_numbers(got[1], expected[1], rel=1e-10, absolute=1e-14))


#: Exercise 3 (apply): questions the learner has not seen: the feature runs on their candidates.
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
    return 0.0 if a_.std() == 0 or b_.std() == 0 else float(np.corrcoef(a_, b_)[0, 1])


def _auc(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """The chance that a relevant candidate outscores an irrelevant one (ties count half)."""
    relevant, n = np.asarray(labels, dtype=bool), int(sum(labels))
    if n in (0, len(relevant)):
        return 0.5
    return float((rankdata(scores)[relevant].sum() - n * (n + 1) / 2) / (n * (len(relevant) - n)))


def feature_problems(feature: Callable[[str, str], Any]) -> str | None:
    """What is wrong with a seventh feature, or None: a finite number for every candidate of
    unseen questions, the same twice, varying between passages, no copy of the six, and not
    a reader of the judgments."""
    stage = rerank.first_stage()
    pairs = [(q, stage.by_id[i].page_content) for q in UNSEEN_QUESTIONS for i in stage.ranking(q)[:10]]
    values = []
    for question, passage in pairs:
        raw = feature(question, passage)
        value = _number(raw)
        if value is None or not math.isfinite(value):
            return (f"for the question {question!r} it returned {raw!r:.40}: a feature must "
                    "be a finite number (int or float)")
        values.append(value)
    if _number(feature(*pairs[len(pairs) // 2])) != values[len(pairs) // 2]:
        return "it gave two different values for the same pair: a feature must be repeatable"
    by_question: dict[str, set[float]] = {}
    for (q, _), value in zip(pairs, values, strict=True):
        by_question.setdefault(q, set()).add(value)
    if all(len(seen) == 1 for seen in by_question.values()):
        return ("it gives every passage of a question the same value, so it cannot tell "
                "candidates apart")
    six = np.array([rerank.features(q, p) for q, p in pairs], dtype=float)
    for column, name in enumerate(rerank.FEATURES):
        if max(abs(_correlation(values, six[:, column])),
               abs(_correlation(rankdata(values), rankdata(six[:, column])))) > 0.98:
            return f"it is the feature {name!r} again (or a rescaling of it)"
    # R squared of the least-squares fit on the six and a constant: a weighted sum of features the
    # learned reranker has adds nothing it could not learn (values not all equal: refused above)
    v, design = np.asarray(values, dtype=float), np.c_[np.ones(len(values)), six]
    weights, *_ = np.linalg.lstsq(design, v, rcond=None)
    explained = float(1 - ((v - design @ weights) ** 2).sum() / ((v - v.mean()) ** 2).sum())
    if explained > 0.98**2:
        return (f"the six features, weighted and summed, give {explained:.0%} of it: the "
                "learned reranker, a weighted sum, already has it")
    questions = evaluate.load_questions()[:40]
    qrels = evaluate.judgments(questions, evaluate.corpus()[0])
    scores, labels = [], []
    for q in (q for q in questions if qrels[q["id"]]):
        for doc_id in stage.ranking(q["question"])[:20]:
            scores.append(_number(feature(q["question"], stage.by_id[doc_id].page_content)))
            labels.append(qrels[q["id"]].get(doc_id, 0) >= 1)
    if any(s is None for s in scores):
        return "on a shipped question it did not return a number"
    if max(_auc(scores, labels), 1 - _auc(scores, labels)) > 0.97:
        return ("it separates relevant from irrelevant passages almost perfectly on the "
                "shipped questions and not on new ones: does it read the judgments?")
    return None


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="fixed_loss_and_gradient", modules=["numpy", "math"],
                        refuse=["log_loss_gradient", "fit_logistic"]),
    "Exercise 3": Allow(answer="my_feature", modules=["math", "re", "collections", "string"]),
}
