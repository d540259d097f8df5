"""retrieval-lab: helpers for a notebook course on langchain-core's retrieval classes.

``retrieval_lab.scratch`` holds the from-scratch classes the notebooks build; the modules beside
it (embeddings, corpus, compare, plots, checks, widgets) are the shared tools of every notebook.
"""

from retrieval_lab.embeddings import BagOfWords

__all__ = ["BagOfWords"]
