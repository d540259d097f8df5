"""Notebook 01's exercise checks: equality of real Documents, de-duplication, detached copies."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from langchain_core.documents import Document as D  # noqa: N817

from retrieval_lab.checks.allow import Allow
from retrieval_lab.checks.answers import fresh_seed
from retrieval_lab.scratch.document import Document as Ours


def equal_pairs() -> dict[str, bool]:
    """Exercise 1 (predict): ``left == right`` for each of six pairs, as the real class answers."""
    pairs = {
        "A": (D("Cats purr.", metadata={"page": 1}), D("Cats purr.", metadata={"page": 1.0})),
        "B": (D("hi", id=5), D("hi", id="5")),
        "C": (D("hi", metadata={"a": 1, "b": 2}), D("hi", metadata={"b": 2, "a": 1})),
        "D": (D("hi", id="d1"), D("hi")),
        "E": (D("hi", metadata={"tags": ["a", "b"]}), D("hi", metadata={"tags": ("a", "b")})),
        "F": (D("hi", metadata={}), D("hi")),
    }
    return {name: left == right for name, (left, right) in pairs.items()}


def kept_by_equality(docs: list) -> list:
    """Exercise 2 (debug): the first of each group of equal documents (list.index compares with ==)."""
    return [doc for n, doc in enumerate(docs) if docs.index(doc) == n]


#: Values that == calls equal though they print (or JSON-encode, or hash by type) apart.
_EQUAL_BUT_WRITTEN_APART = [
    (1, 1.0), (1, True), (0, False), (2, 2.0), ([1], [1.0]), ([1, 2], [1.0, 2]),
    ({"a": 1, "b": 2}, {"b": 2, "a": 1}), ({"x": [1]}, {"x": [1.0]}),
    ([{"p": 1, "q": [0]}], [{"q": [False], "p": 1.0}]), ((1, 2), (1.0, 2)),
    ({"k": (0, [1])}, {"k": (0.0, [True])}), ({1, 2}, {2.0, 1}),
]
#: Values that == tells apart though a careless key merges them.
_UNEQUAL = [
    (["x"], ("x",)), ([1], (1,)), ({"a": [1]}, {"a": (1,)}), ([[1]], [(1,)]),
    ("1", 1), (None, "None"), ([1, 2], [2, 1]), ({1, 2}, (1, 2)), ({"x"}, ["x"]),
]
#: repr of a value -> an equal value written another way (the first pair naming it wins).
_TWINS = {repr(a): b for pair in reversed(_EQUAL_BUT_WRITTEN_APART) for a, b in (pair[::-1], pair)}


def unique_cases(fresh: bool = True) -> list[tuple[list[Any]]]:
    """Lists with repeats that only == judges right: hand-picked ones, then 40 drawn with a seed
    drawn anew at each check (``fresh=False``: the fixed seed 1)."""
    lists: list[list[Any]] = [
        [D("Cats purr."), D("Dogs bark."), D("Cats purr.")],
        [D("Cats purr.", id="d1"), D("Cats purr.", id="d2"), D("Cats purr.", id="d1")],
        [D("hi", metadata={"a": 1, "b": 2}), D("hi", metadata={"b": 2, "a": 1})],
        [D("p", metadata={"page": 1}), D("p", metadata={"page": 1.0})],
        [D("hi", metadata={"tags": [1]}), D("hi", metadata={"tags": [1.0]})],
        [D("hi", metadata={"tags": ["x"]}), D("hi", metadata={"tags": ("x",)})],
        [Ours("ours", id="o"), D("ours", id="o"), D("ours")],
        [D("x", metadata={"n": Decimal("1")}), D("x", metadata={"n": 1})],
        [D("s", metadata={"s": {1, 2}}), D("s", metadata={"s": (1, 2)}),
         D("s", metadata={"s": {2.0, 1}}), D("s", metadata={"s": [1, 2]})],
    ]
    rng = random.Random(fresh_seed(None if fresh else 1))
    for _ in range(40):
        docs = []
        for _ in range(rng.randint(2, 6)):
            text = rng.choice(["a", "b", "it's", 'say "hi"'])
            value = copy.deepcopy(rng.choice(rng.choice(_EQUAL_BUT_WRITTEN_APART + _UNEQUAL)))
            metadata = {"v": value} if rng.random() < 0.8 else {}
            if rng.random() < 0.3:
                metadata["w"] = rng.choice([0, 1, 1.0])
            doc_id = rng.choice([None, None, "d1", "d2"])
            docs.append(rng.choice([D, D, Ours])(text, metadata=metadata, id=doc_id))
            if rng.random() < 0.5:  # an equal copy, written another way most of the time
                twin_meta = {k: copy.deepcopy(_TWINS.get(repr(v), v) if rng.random() < 0.7 else v)
                             for k, v in reversed(metadata.items())}
                docs.append(rng.choice([D, Ours])(text, metadata=twin_meta, id=doc_id))
        rng.shuffle(docs)
        lists.append(docs)
    return [(docs,) for docs in lists]


def same_documents(mine: Any, expected: list) -> bool:
    """The same documents, in the same order, each the very object of the input."""
    return (isinstance(mine, list) and len(mine) == len(expected)
            and all(a is b for a, b in zip(mine, expected, strict=True)))


def _nested(rng: random.Random, depth: int = 0) -> Any:
    """Random metadata values: dicts, lists, tuples and sets within each other."""
    if depth >= 3 or rng.random() < 0.25:
        return rng.choice([1, 2.5, "x", None, True])
    kind = rng.choice(["dict", "list", "tuple", "set"])
    if kind == "set":
        return {rng.randint(0, 9) for _ in range(rng.randint(1, 3))}
    items = [_nested(rng, depth + 1) for _ in range(rng.randint(1, 3))]
    if kind == "dict":
        return {f"k{i}": item for i, item in enumerate(items)}
    return items if kind == "list" else (*items, [depth])  # a tuple holding a list


def _mutable_parts(value: Any, path: tuple = ()) -> list[tuple[tuple, Any]]:
    """Every list, dict and set inside ``value``, with where it sits."""
    found = [(path, value)] if isinstance(value, list | dict | set) else []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(
        value, list | tuple) else ()
    for key, item in items:
        found += _mutable_parts(item, (*path, key))
    return found


def detached_problems(make_copy: Callable[[Any], Any]) -> str | None:
    """Exercise 3 (extend): copy documents, change every mutable part of each original: the copies
    must stay, sharing nothing with their originals."""
    rng = random.Random(7)
    shapes = [
        {"source": "cats.txt", "pages": [1, 2], "span": (0, 10),
         "headers": {"h1": "Cats", "h2": {"title": "Purring", "lines": [3, 4]}}},
        {"where": ({"line": [1]}, 2), "tags": {"a", "b"}},
    ] + [{f"m{i}": _nested(rng) for i in range(rng.randint(1, 3))} for _ in range(12)]
    for n, metadata in enumerate(shapes):
        original = Ours("Cats purr.", metadata=metadata, id=f"d{n}")
        copied = make_copy(original)
        if copied is original:
            return "you returned the same object; build a new Document"
        if copied != D("Cats purr.", metadata=copy.deepcopy(metadata), id=f"d{n}"):
            return f"the copy should equal the original field by field, got {copied!r}"
        before = repr(copied.metadata)
        for path, part in _mutable_parts(original.metadata):
            if isinstance(part, dict):
                part["changed"] = True
            else:
                (part.append if isinstance(part, list) else part.add)("changed")
            if repr(copied.metadata) != before:
                where = "".join(f"[{p!r}]" for p in path)
                return (f"changing the original's metadata{where} changed your copy too "
                        "(they share that object)")
    return None


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="unique", modules=["itertools", "json"], names=["Document"]),
    "Exercise 3": Allow(answer="detached", modules=["copy"], names=["Document"]),
}
