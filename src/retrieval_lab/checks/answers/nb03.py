"""Notebook 03's exercise checks: the real splitter's chunks, its merge, and chunks with ids."""

from __future__ import annotations

import copy
import logging
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from retrieval_lab.checks.allow import Allow
from retrieval_lab.scratch.document import Document
from retrieval_lab.scratch.text_splitters import RecursiveCharacterTextSplitter as Ours

_REAL_LOGGER = "langchain_text_splitters.base"


@contextmanager
def _quiet() -> Iterator[None]:
    """The real merge logs over-long chunks; a check prints nothing of it."""
    logger = logging.getLogger(_REAL_LOGGER)
    before = logger.disabled
    logger.disabled = True
    try:
        yield
    finally:
        logger.disabled = before


# ----------------------------------------------------------------- Exercise 1: predict

MEALS = "Tea is hot.\nSoup is warm.\n\nIce cream is very cold."


def what_the_real_splitter_does() -> dict[str, Any]:
    """Run the real splitter with each setting of the exercise."""
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    def documents(size: int, overlap: int) -> list:
        return RecursiveCharacterTextSplitter(
            chunk_size=size, chunk_overlap=overlap, add_start_index=True
        ).create_documents([MEALS])

    with _quiet():
        wide, narrow = documents(30, 10), documents(14, 6)
    last = narrow[-1]
    return {"A": len(wide), "B": len(narrow), "C": last.page_content,
            "D": last.metadata["start_index"]}


# ----------------------------------------------------------------- Exercise 2: debug


def real_merge(pieces: list[str], separator: str, size: int, overlap: int) -> list[str]:
    """The real splitter's merge of these pieces."""
    from langchain_text_splitters import CharacterTextSplitter

    splitter = CharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)
    with _quiet():
        return splitter._merge_splits(pieces, separator)


def merge_cases(seed: int = 3, count: int = 60, fresh: bool = True
                ) -> list[tuple[list[str], str, int, int]]:
    """Pieces without spaces at their ends: fixed ones, then random ones drawn to leave an
    overlap that crowds out the next piece (a few longer than chunk_size, as a text can have)."""
    cases = [
        (["one", "two", "three", "four", "five"], " ", 10, 4),
        (["ant", "elephants", "ok"], " ", 5, 0),
        (["aaaa", "bb", "ccccccccc"], " ", 10, 5),
        (["a", "b", "c", "dddddddd", "e"], "-", 9, 4),
        (["Cats purr.", "Dogs bark.", "Fish swim."], "\n", 21, 10),
        ([], " ", 5, 1),
        (["solo"], " ", 4, 4),
        (["ab", "toolongpiece", "cd", "ef"], " ", 6, 3),
        (["toolongpiece", "a", "b"], "-", 5, 5),
    ]
    # a seed drawn anew at each check: no table made with the oracle beforehand holds them
    rng = random.Random(random.SystemRandom().randrange(2**32) if fresh else seed)
    for _ in range(count):
        size = rng.randint(3, 16)
        overlap = rng.randint(0, size)
        separator = rng.choice([" ", "-", "\n", "", ", "])
        pieces = [
            "".join(rng.choice("abcdefgh") for _ in range(rng.randint(1, size + 3 * (
                rng.random() < 0.1))))
            for _ in range(rng.randint(1, 9))
        ]
        cases.append((pieces, separator, size, overlap))
    return cases


# ----------------------------------------------------------------- Exercise 3: extend


def _parents() -> list[Any]:

    return [
        Document("Cats purr.\n\nDogs bark.", metadata={"source": "pets"}, id="p"),
        Document("", metadata={"source": "empty"}, id="e"),
        Document("Fish swim. Birds sing.", metadata={"tags": ["x"], "h": {"l": [1]}}, id="q"),
        Document("Ha ha ha. Ha ha ha. Ha.", metadata={"pages": [1, 2]}, id="r"),
        Document("Kernels restart.\nPython forgets.", id="7"),
        _drawn_parent(),
    ]


def _drawn_parent() -> Any:
    """A parent whose text and id are drawn anew at each check, so no table of chunks made
    with the reference before the check holds it."""

    rng = random.SystemRandom()
    words = ["cats", "purr", "dogs", "bark.", "Kernels", "restart.", "tea", "is", "hot.\n"]
    text = " ".join(rng.choice(words) for _ in range(rng.randint(3, 12)))
    return Document(text, metadata={"drawn": [rng.randint(0, 9)]}, id=f"x{rng.randrange(10**6)}")




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
    """Chunks with the real splitter's texts and metadata, ids "<parent>#<n>", a parent_id,
    and metadata that belongs to each chunk alone."""
    from langchain_text_splitters import RecursiveCharacterTextSplitter as Real


    settings = [dict(chunk_size=12, chunk_overlap=0),
                dict(chunk_size=10, chunk_overlap=4, add_start_index=True)]
    for setting in settings:
        parents = _parents()
        with _quiet():
            wanted = [
                (f"{parent.id}#{n}", chunk.page_content,
                 {**copy.deepcopy(parent.metadata), **chunk.metadata, "parent_id": parent.id})
                for parent in parents
                for n, chunk in enumerate(Real(**setting).split_documents([parent]))
            ]
        before = [copy.deepcopy(p.metadata) for p in parents]
        chunks = attempt(Ours(**setting), parents)
        got = _snapshot(chunks)
        if got != wanted:
            if len(got) != len(wanted):
                return (f"for parents {[p.id for p in parents]} split with {setting}, you made "
                        f"{len(got)} chunks, the splitter {len(wanted)}")
            k = next(k for k, pair in enumerate(zip(got, wanted, strict=True))
                     if pair[0] != pair[1])
            return (f"for parents {[p.id for p in parents]} split with {setting}, chunk {k} "
                    f"was {got[k]}, expected {wanted[k]}")
        if [p.metadata for p in parents] != before:
            return "the parents' own metadata changed"
        for parent in parents:  # change the parents' nested lists and dicts
            _change_all(parent.metadata, "changed")
        if _snapshot(chunks) != got:
            return ("changing a parent's nested metadata after the split changed its chunks: "
                    "they share a list or dict with the parent")
        for parent in parents:  # change every chunk but a parent's first: the first stays
            family = [c for c in chunks if c.metadata.get("parent_id") == parent.id]
            if len(family) > 1:
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



#: What each exercise's answer may use (checks/allow.py reads its cell before it runs).
ALLOWED = {
    "Exercise 2": Allow(
        answer="merge",
        modules=["itertools", "math"],
        refuse=["split_text", "split_documents", "create_documents", "merge_splits"],
    ),
    "Exercise 3": Allow(answer="split_with_ids", modules=["copy", "itertools"], names=["Document"]),
}
