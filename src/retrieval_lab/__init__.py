"""retrieval-lab: helpers for a notebook course on langchain-core's retrieval classes.

``retrieval_lab.scratch`` holds the from-scratch classes the notebooks build; the modules beside
it (embeddings, corpus, compare, plots, checks, widgets) are the shared tools of every notebook.
Nothing is imported eagerly here, so ``import retrieval_lab.scratch`` stays free of langchain.
"""

from __future__ import annotations

from typing import Any

__all__ = ["TAUGHT", "BagOfWords", "MiniLM"]

#: The versions of the library the course teaches, as pinned in requirements/learner.txt (a test
#: keeps them equal). Notebook 00 compares them with what is installed, on any machine.
TAUGHT = {"langchain-core": "1.6.2", "langchain-text-splitters": "1.1.2"}


def __getattr__(name: str) -> Any:
    if name in ("BagOfWords", "MiniLM"):
        from retrieval_lab import embeddings

        return getattr(embeddings, name)
    raise AttributeError(f"module 'retrieval_lab' has no attribute {name!r}")
