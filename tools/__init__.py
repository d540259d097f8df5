"""The maintainers' side of retrieval-lab: the notebook harness and the tools around it.

Learners import ``retrieval_lab`` (``src/``) and never this package: it assumes a source checkout.
Run its modules from the repository root as ``python -m tools.<name>`` (the Makefile does), so no
module edits ``sys.path``. ``tools.nbtools`` is the one notebook reader every tool shares.
"""
