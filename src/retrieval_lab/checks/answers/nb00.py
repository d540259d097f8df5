"""Notebook 00's exercise checks: the pipeline's store, and a store built twice in two processes."""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import sys
import textwrap
import types
from collections import Counter
from collections.abc import Callable
from typing import Any

from langchain_core.documents import Document
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_text_splitters import RecursiveCharacterTextSplitter

from retrieval_lab.checks.allow import Allow, cell_of, namespace_of
from retrieval_lab.models.embeddings import BagOfWords

#: The notebook's two files, as its first cells load them.
FILES = {
    "pets.txt": "A cat sleeps most of the day. The cat wakes to eat.\n\n"
    "A dog keeps another rhythm: the dog walks twice a day.",
    "jupyter.md": "A Jupyter kernel runs your python code.\n\n"
    "Restart the kernel: python forgets, python starts afresh.",
}


def _chunks(files: dict[str, str]) -> list[Any]:
    """The notebook's load and split: one Document per file, then chunks of at most 60."""
    docs = [Document(page_content=text, metadata={"source": name}) for name, text in files.items()]
    return RecursiveCharacterTextSplitter(chunk_size=60, chunk_overlap=0, add_start_index=True).split_documents(docs)


def best_chunks() -> dict[str, Any]:
    """Exercise 1 (predict): the notebook's store's best chunk for each question, and one score."""
    chunks = _chunks(FILES)
    store = InMemoryVectorStore(embedding=BagOfWords())
    store.add_documents(chunks, ids=[f"chunk-{i}" for i in range(len(chunks))])
    questions = {"A": "Is my dog a python?", "B": "the python kernel", "C": "Do cats and dogs like python?"}
    best = {key: int(store.similarity_search(question, k=1)[0].id.removeprefix("chunk-"))
            for key, question in questions.items()}
    scores = {doc.id: s for doc, s in store.similarity_search_with_score("cat", k=4)}
    return best | {"score": round(scores["chunk-0"], 2)}


LIBRARIES = {
    "FILES": FILES,
    "a third file": {**FILES, "notes.txt": "Feed the cat at seven, before the morning walk.\n\n" * 2 + "Walk the dog."},
    "one text in two files": {"a.txt": "Python reads.", "b.txt": "Python reads."},
    "one name, two kinds": {"notes.txt": "Cats purr.", "notes.md": "Dogs bark."},
    "two files, two chunks each": {"b.md": "Dogs bark.\n\n" + "Dogs bark at the postman every single morning.",
                                   "a.md": "Cats purr.\n\n" + "Cats purr when the kernel restarts, they say."},
}

#: What the allowlist lets build_store read, rebuilt in a fresh interpreter (annotations unread).
_PREAMBLE = '''from __future__ import annotations
from langchain_core.documents import Document
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_text_splitters import RecursiveCharacterTextSplitter
from retrieval_lab.models.embeddings import BagOfWords
splitter = RecursiveCharacterTextSplitter(chunk_size=60, chunk_overlap=0, add_start_index=True)
'''

_REPORT = '''
import json as _json
from retrieval_lab.checks.answers.nb00 import LIBRARIES as _LIBRARIES
print("@@ids@@" + _json.dumps({label: sorted([key, entry["text"]] for key, entry in build_store(files).store.items())
                               for label, files in _LIBRARIES.items()}))'''


def store_problems(build: Callable[..., Any]) -> str | None:
    """Exercise 2 (debug): every chunk of every file, with its source, under ids equal on every run
    and after a restart, when the builder runs again in a new Python with another hash seed."""
    here: dict[str, list] = {}
    for label, files in LIBRARIES.items():
        pieces = _chunks(files)
        wanted = Counter((c.metadata["source"], c.page_content) for c in pieces)
        first, second = ({key: (e["metadata"].get("source"), e["text"]) for key, e in build(files).store.items()}
                         for _ in range(2))  # two builds
        stored = Counter(first.values())
        if stored != wanted:  # a chunk stored without its source counts as lost
            lost = sum((wanted - stored).values())
            return f"on {label}: {lost} of {len(pieces)} chunks lost or stored without their source"
        if first != second:
            return f"on {label}: two builds of the same files gave different ids"
        here[label] = sorted([key, text] for key, (_, text) in first.items())
    # Its cell, after the modules and notebook functions it uses from other cells: all that the
    # allowlist lets it read besides the preamble's names, run again in a fresh Python.
    function = getattr(build, "__wrapped__", build)
    space, parts, seen = namespace_of(function), [], set()

    def add(code: types.CodeType) -> None:
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                add(const)
        for name in sorted(set(code.co_names) - seen):
            seen.add(name)
            value = space.get(name)
            if isinstance(value, types.ModuleType):  # `import hashlib` in another cell
                parts.append(f"import {value.__name__} as {name}")
            elif isinstance(value, types.FunctionType) and value.__module__ == "__main__":
                add(value.__code__)
                parts.append(textwrap.dedent(inspect.getsource(value)))

    try:
        add(function.__code__)
        cell = cell_of(function)  # the whole cell: `from uuid import uuid5, NAMESPACE_URL` beside it
        parts.append(cell[0] if cell else textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError):
        return "could not read your function's source: define build_store in a cell"
    env = {**os.environ, "PYTHONHASHSEED": "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1", "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, "-c", _PREAMBLE + "\n" + "\n\n".join(parts) + "\n" + _REPORT],
                          capture_output=True, text=True, env=env, timeout=120)
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("@@ids@@")), None)
    if line is None:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return f"run alone in a fresh Python, your function failed ({last})"
    fresh = json.loads(line.removeprefix("@@ids@@"))
    for label, entries in here.items():
        if fresh.get(label) != entries:
            return f"on {label}: after a restart (a new Python process) the same files got other ids"
    return None


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="build_store", modules=["uuid", "hashlib", "re", "itertools", "collections"],
                        names=["BagOfWords", "InMemoryVectorStore", "splitter", "Document"]),
}
