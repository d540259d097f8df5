"""The maintainers' side of retrieval-lab: the notebook harness and the tools around it.

Learners import ``retrieval_lab`` (``src/``) and never this package: it assumes a source checkout.
Run its modules from the repository root as ``python -m tools.<name>`` (the Makefile does), so no
module edits ``sys.path``. ``tools.nbtools`` is the one notebook reader every tool shares.
"""

import sys

# jsonschema (which nbformat, nbval and nbconvert import) imports rfc3987-syntax when it is
# installed (jupyter-events asks for it), and that package builds five Earley parsers at import:
# 1.2 s of every tool process and pytest worker, measured here, for "iri" format checks that
# nbformat's schema never asks for. A None in sys.modules makes that optional import fail, as if
# the package were absent; a process that imported jsonschema already is not touched. The
# JupyterLab server the browser test starts is a process of its own, so it keeps the checks.
sys.modules.setdefault("rfc3987_syntax", None)
