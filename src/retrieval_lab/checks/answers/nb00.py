"""Notebook 00's exercise checks: the pipeline's store, and a store built twice in two processes."""

from __future__ import annotations

import ast
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

from retrieval_lab.checks.allow import Allow, cell_of
from retrieval_lab.models.embeddings import BagOfWords

#: The notebook's two files, as its first cells load them.
FILES = {
    "pets.txt": "A cat sleeps most of the day. The cat wakes to eat.\n\n"
    "A dog keeps another rhythm: the dog walks twice a day.",
    "jupyter.md": "A Jupyter kernel runs your python code.\n\n"
    "Restart the kernel: python forgets, python starts afresh.",
}


def _splitter() -> Any:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    return RecursiveCharacterTextSplitter(chunk_size=60, chunk_overlap=0, add_start_index=True)


def _chunks(files: dict[str, str]) -> list[Any]:
    """The notebook's load and split: one Document per file, then chunks of at most 60."""
    from langchain_core.documents import Document

    docs = [Document(page_content=text, metadata={"source": name}) for name, text in files.items()]
    return _splitter().split_documents(docs)


# ----------------------------------------------------------------- Exercise 1: predict

_QUESTIONS = {
    "A": "Is my dog a python?",
    "B": "the python kernel",
    "C": "Do cats and dogs like python?",
}


def best_chunks() -> dict[str, Any]:
    """Build the notebook's store, ask it each question, read the number off the best chunk."""
    from langchain_core.vectorstores import InMemoryVectorStore


    chunks = _chunks(FILES)
    store = InMemoryVectorStore(embedding=BagOfWords())
    store.add_documents(chunks, ids=[f"chunk-{i}" for i in range(len(chunks))])
    best = {
        key: int(store.similarity_search(question, k=1)[0].id.removeprefix("chunk-"))
        for key, question in _QUESTIONS.items()
    }
    scores = {doc.id: s for doc, s in store.similarity_search_with_score("cat", k=4)}
    return best | {"score": round(scores["chunk-0"], 2)}


# ----------------------------------------------------------------- Exercise 2: debug

_NOTES = "Feed the cat at seven, before the morning walk.\n\n" * 2 + "Walk the dog."
LIBRARIES = {
    "FILES": FILES,
    "a third file": {**FILES, "notes.txt": _NOTES},
    "one text in two files": {"a.txt": "Python reads.", "b.txt": "Python reads."},
    "one name, two kinds": {"notes.txt": "Cats purr.", "notes.md": "Dogs bark."},
    "two files, two chunks each": {
        "b.md": "Dogs bark.\n\n" + "Dogs bark at the postman every single morning.",
        "a.md": "Cats purr.\n\n" + "Cats purr when the kernel restarts, they say.",
    },
}

#: What the learner's function may lean on from the notebook, rebuilt in a fresh interpreter.
_PREAMBLE = '''
from collections import Counter
from collections.abc import Iterator
from langchain_core.document_loaders import BaseLoader
from langchain_core.documents import Document
from langchain_core.vectorstores import InMemoryVectorStore
from langchain_text_splitters import RecursiveCharacterTextSplitter
from retrieval_lab.models.embeddings import BagOfWords, words_of
from retrieval_lab.checks.answers.nb00 import FILES
splitter = RecursiveCharacterTextSplitter(chunk_size=60, chunk_overlap=0, add_start_index=True)
class DictLoader(BaseLoader):
    def __init__(self, files):
        self.files = files
    def lazy_load(self):
        for name, text in self.files.items():
            yield Document(page_content=text, metadata={"source": name})
'''

_REPORT = '''
import json as _json
from retrieval_lab.checks.answers.nb00 import LIBRARIES as _LIBRARIES
print("@@ids@@" + _json.dumps({label: sorted(
    [key, entry["text"]] for key, entry in build_store(files).store.items())
    for label, files in _LIBRARIES.items()}))
'''


def _entries(store: Any) -> dict[str, tuple[Any, str]]:
    return {key: (e["metadata"].get("source"), e["text"]) for key, e in store.store.items()}


def _source_of(function: types.FunctionType) -> str:
    """The function's source, and the sources of the notebook functions and plain values it
    uses (defined in the same cell, say), so that a fresh interpreter can run it."""
    from IPython import get_ipython

    shell = get_ipython()
    space = shell.user_ns if shell is not None else function.__globals__
    parts: list[str] = []
    seen: set[str] = set()

    def names(code: types.CodeType) -> set[str]:
        found = set(code.co_names)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                found |= names(const)
        return found

    def add(fn: types.FunctionType) -> None:
        for name in sorted(names(fn.__code__)):
            if name in seen or name not in space:
                continue
            seen.add(name)
            value = space[name]
            if isinstance(value, types.ModuleType):  # `import hashlib` in the learner's cell
                parts.append(f"import {value.__name__} as {name}")
            elif isinstance(value, types.FunctionType) and value.__module__ == "__main__":
                add(value)
                parts.append(textwrap.dedent(inspect.getsource(value)))
            elif (isinstance(value, type | types.FunctionType | types.BuiltinFunctionType)
                  and getattr(value, "__module__", "__main__") not in ("__main__", "builtins")
                  and "<" not in getattr(value, "__qualname__", "<")
                  and "." not in value.__qualname__):  # `from uuid import uuid5`
                parts.append(f"from {value.__module__} import {value.__qualname__} as {name}")
            elif isinstance(value, str | int | float | bool | tuple | list | dict):
                try:
                    if ast.literal_eval(repr(value)) == value:
                        parts.append(f"{name} = {value!r}")
                except (ValueError, SyntaxError):
                    pass

    add(function)
    cell = cell_of(function)  # the whole cell: `from uuid import uuid5, NAMESPACE_URL` beside it
    parts.append(cell[0] if cell else textwrap.dedent(inspect.getsource(function)))
    return "\n\n".join(parts)


def _ids_in_a_fresh_interpreter(build: Callable[..., Any]) -> dict[str, list] | str:
    """Run the learner's builder in a new Python with another hash seed: its ids, or why not."""
    learner = getattr(build, "__wrapped__", build)
    try:
        source = _source_of(learner)
    except (OSError, TypeError):
        return "could not read your function's source: define build_store in a cell"
    seed = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    env = {**os.environ, "PYTHONHASHSEED": seed, "MPLBACKEND": "Agg"}
    program = _PREAMBLE + "\n" + source + "\n" + _REPORT
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          env=env, timeout=120)
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("@@ids@@")), None)
    if line is None:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return f"run alone in a fresh Python, your function failed ({last})"
    return json.loads(line.removeprefix("@@ids@@"))


def store_problems(build: Callable[..., Any]) -> str | None:
    """Every chunk of every file, with its source, under ids equal on every run and restart."""
    here: dict[str, list] = {}
    for label, files in LIBRARIES.items():
        pieces = _chunks(files)
        wanted = Counter((c.metadata["source"], c.page_content) for c in pieces)
        first, second = _entries(build(files)), _entries(build(files))
        stored = Counter(first.values())
        if stored != wanted:  # a chunk stored without its source counts as lost
            lost = sum((wanted - stored).values())
            return f"on {label}: {lost} of {len(pieces)} chunks lost or stored without their source"
        if first != second:
            return f"on {label}: two builds of the same files gave different ids"
        here[label] = sorted([key, text] for key, (_, text) in first.items())
    fresh = _ids_in_a_fresh_interpreter(build)
    if isinstance(fresh, str):
        return fresh
    for label, entries in here.items():
        if fresh.get(label) != entries:
            return (f"on {label}: after a restart (a new Python process) the same files got "
                    "other ids")
    return None

#: What each exercise's answer may use (checks/allow.py reads its cell before it runs).
ALLOWED = {
    "Exercise 2": Allow(
        answer="build_store",
        modules=["uuid", "hashlib", "re", "itertools", "collections"],
        names=["BagOfWords", "InMemoryVectorStore", "splitter", "Document"],
    ),
}
