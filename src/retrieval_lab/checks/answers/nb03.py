"""Notebook 03's exercise checks: the real splitter's chunks, its merge, and chunks with ids."""

from __future__ import annotations

import copy
import logging
import random
from collections.abc import Callable
from typing import Any
from unittest import mock

from langchain_text_splitters import CharacterTextSplitter
from langchain_text_splitters import RecursiveCharacterTextSplitter as Real

from retrieval_lab.checks.allow import Allow
from retrieval_lab.checks.answers import fresh_seed
from retrieval_lab.scratch.document import Document
from retrieval_lab.scratch.text_splitters import RecursiveCharacterTextSplitter as Ours


def _quiet() -> Any:
    """The real merge logs over-long chunks; a check prints nothing of it."""
    return mock.patch.object(logging.getLogger("langchain_text_splitters.base"), "disabled", True)


MEALS = "Tea is hot.\nSoup is warm.\n\nIce cream is very cold."


def what_the_real_splitter_does() -> dict[str, Any]:
    """Exercise 1 (predict): the real recursive splitter's chunks of MEALS, with each setting."""
    with _quiet():
        wide, narrow = (Real(chunk_size=size, chunk_overlap=overlap, add_start_index=True)
                        .create_documents([MEALS]) for size, overlap in ((30, 10), (14, 6)))
    return {"A": len(wide), "B": len(narrow), "C": narrow[-1].page_content, "D": narrow[-1].metadata["start_index"]}


def real_merge(pieces: list[str], separator: str, size: int, overlap: int) -> list[str]:
    """Exercise 2 (debug)'s oracle: the real splitter's merge of these pieces."""
    with _quiet():
        return CharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)._merge_splits(pieces, separator)


def merge_cases(fresh: bool = True) -> list[tuple[list[str], str, int, int]]:
    """Pieces without spaces at their ends: fixed ones, then ones drawn anew at each check to leave
    an overlap that crowds out the next piece (a few longer than chunk_size, as a text can have)."""
    cases = [
        (["one", "two", "three", "four", "five"], " ", 10, 4), (["ant", "elephants", "ok"], " ", 5, 0),
        (["aaaa", "bb", "ccccccccc"], " ", 10, 5), (["a", "b", "c", "dddddddd", "e"], "-", 9, 4),
        (["Cats purr.", "Dogs bark.", "Fish swim."], "\n", 21, 10), ([], " ", 5, 1), (["solo"], " ", 4, 4),
        (["ab", "toolongpiece", "cd", "ef"], " ", 6, 3), (["toolongpiece", "a", "b"], "-", 5, 5),
    ]
    rng = random.Random(fresh_seed(None if fresh else 3))
    for _ in range(60):
        size = rng.randint(3, 16)
        overlap, separator = rng.randint(0, size), rng.choice([" ", "-", "\n", "", ", "])
        pieces = ["".join(rng.choice("abcdefgh") for _ in range(rng.randint(1, size + 3 * (rng.random() < 0.1))))
                  for _ in range(rng.randint(1, 9))]
        cases.append((pieces, separator, size, overlap))
    return cases


def _parents() -> list[Any]:
    """Exercise 3 (extend)'s parents: fixed ones, then one whose text and id are drawn anew at
    each check, so no table of chunks made with the reference before the check holds it."""
    rng = random.SystemRandom()
    words = ["cats", "purr", "dogs", "bark.", "Kernels", "restart.", "tea", "is", "hot.\n"]
    drawn = " ".join(rng.choice(words) for _ in range(rng.randint(3, 12)))
    return [
        Document("Cats purr.\n\nDogs bark.", metadata={"source": "pets"}, id="p"),
        Document("", metadata={"source": "empty"}, id="e"),
        Document("Fish swim. Birds sing.", metadata={"tags": ["x"], "h": {"l": [1]}}, id="q"),
        Document("Ha ha ha. Ha ha ha. Ha.", metadata={"pages": [1, 2]}, id="r"),
        Document("Kernels restart.\nPython forgets.", id="7"),
        Document(drawn, metadata={"drawn": [rng.randint(0, 9)]}, id=f"x{rng.randrange(10**6)}"),
    ]


def _snapshot(docs: list[Any]) -> list[tuple[Any, str, dict]]:
    return [(d.id, d.page_content, copy.deepcopy(d.metadata)) for d in docs]


def _change_all(metadata: dict, mark: str) -> None:
    """Append to every list and add a key to every dict inside ``metadata``."""
    for value in list(metadata.values()):
        if isinstance(value, list):
            value.append(mark)
        elif isinstance(value, dict):
            value[mark] = True
            _change_all(value, mark)


def id_problems(attempt: Callable[..., Any]) -> str | None:
    """The real splitter's chunks, ids "<parent>#<n>", a parent_id, metadata each chunk's alone."""
    for setting in (dict(chunk_size=12, chunk_overlap=0), dict(chunk_size=10, chunk_overlap=4, add_start_index=True)):
        parents = _parents()
        with _quiet():
            wanted = [(f"{parent.id}#{n}", chunk.page_content,
                       {**copy.deepcopy(parent.metadata), **chunk.metadata, "parent_id": parent.id})
                      for parent in parents for n, chunk in enumerate(Real(**setting).split_documents([parent]))]
        before = [copy.deepcopy(p.metadata) for p in parents]
        got = _snapshot(chunks := attempt(Ours(**setting), parents))
        where = f"for parents {[p.id for p in parents]} split with {setting}"
        if len(got) != len(wanted):
            return f"{where}, you made {len(got)} chunks, the splitter {len(wanted)}"
        for k, (mine, real) in enumerate(zip(got, wanted, strict=True)):
            if mine != real:
                return f"{where}, chunk {k} was {mine}, expected {real}"
        if [p.metadata for p in parents] != before:
            return "the parents' own metadata changed"
        for parent in parents:  # change the parents' nested lists and dicts
            _change_all(parent.metadata, "changed")
        if _snapshot(chunks) != got:
            return ("changing a parent's nested metadata after the split changed its chunks: "
                    "they share a list or dict with the parent")
        for parent in parents:  # change every chunk but a parent's first: the first stays
            family = [c for c in chunks if c.metadata.get("parent_id") == parent.id]
            first = _snapshot(family[:1])
            for sibling in family[1:]:
                _change_all(sibling.metadata, "sibling")
            if _snapshot(family[:1]) != first:
                return f"the chunks of parent {parent.id!r} share metadata objects"
    for orphan in ([Document("no id here")], [_parents()[0], Document("nor here")]):
        try:
            attempt(Ours(chunk_size=12, chunk_overlap=0), orphan)
        except ValueError:
            continue
        return "a parent without an id was not refused with a ValueError"
    return None


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="merge", modules=["itertools", "math"],
                        refuse=["split_text", "split_documents", "create_documents", "merge_splits"]),
    "Exercise 3": Allow(answer="split_with_ids", modules=["copy", "itertools"], names=["Document"]),
}
