"""retrieval-lab: helpers for a notebook course on langchain-core's retrieval classes.

``retrieval_lab.scratch`` holds the from-scratch classes the notebooks build; the modules beside
it (embeddings, corpus, compare, plots, checks, widgets) are the shared tools of every notebook.
Nothing is imported eagerly here, so ``import retrieval_lab.scratch`` stays free of langchain.
"""

from __future__ import annotations

from typing import Any

__all__ = ["TAUGHT", "BagOfWords"]

#: The versions of the library the course teaches, as pinned in requirements/learner.txt (a test
#: keeps them equal). Notebook 00 compares them with what is installed, on any machine.
TAUGHT = {"langchain-core": "1.6.2", "langchain-text-splitters": "1.1.2"}


def __getattr__(name: str) -> Any:
    if name == "BagOfWords":
        from retrieval_lab.embeddings import BagOfWords

        return BagOfWords
    raise AttributeError(f"module 'retrieval_lab' has no attribute {name!r}")
