"""Sphinx configuration of the course website (built by ``make site`` from the stored notebooks).

Nothing here fetches from the network: notebooks are not re-executed, MathJax is the slides' vendored copy,
the widget scripts (which myst-nb loads from a CDN by default) are switched off, and the theme ships its own
fonts and icons. Launch buttons are plain links to Binder and Colab at the course's repository.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from pathlib import Path

from docutils import nodes

project = "retrieval-lab"
author = "the retrieval-lab maintainers"
extensions = ["myst_nb"]
exclude_patterns = ["_build", "_doctrees", "**.ipynb_checkpoints", "notebooks/data"]
master_doc = "index"

nb_execution_mode = "off"  # the stored, nbval-checked outputs are the contract
nb_ipywidgets_js = {}  # no require.js / widget manager from a CDN: the widget's still shows
myst_enable_extensions = ["colon_fence"]
myst_heading_anchors = 3
suppress_warnings = ["mystnb.unknown_mime_type", "myst.header"]

html_theme = "sphinx_book_theme"
html_title = "retrieval-lab"
html_context = {"default_mode": "light"}  # an empty mode makes the theme log a console error
html_theme_options = {
    "repository_url": os.environ["SITE_REPOSITORY_URL"],
    "repository_branch": os.environ.get("SITE_REF", "main"),
    "path_to_docs": "",
    "launch_buttons": {
        "binderhub_url": "https://mybinder.org",
        "colab_url": "https://colab.research.google.com",
        "notebook_interface": "jupyterlab",
    },
    "use_repository_button": True,
    "use_download_button": True,
    "show_toc_level": 2,
}
# MathJax from the copy the offline slides already vendor (the default loads from a CDN).
html_static_path = ["_static"]
mathjax_path = "tex-svg.js"
html_show_sourcelink = False


def _alt_texts(source: Path) -> dict[str, str]:
    """sha256 of each stored PNG -> its alt text (``metadata["image/png"]["alt"]``).

    myst-nb names an output image by the sha256 of its bytes but only copies width and height
    from the output's metadata; this map lets ``_set_alt`` give every picture its description.
    """
    texts: dict[str, str] = {}
    for notebook in source.glob("notebooks/*.ipynb"):
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
            for output in cell.get("outputs", []):
                png = output.get("data", {}).get("image/png")
                alt = output.get("metadata", {}).get("image/png", {}).get("alt")
                if png and alt:
                    digest = hashlib.sha256(base64.b64decode("".join(png))).hexdigest()
                    texts[digest] = alt
    return texts


def _set_alt(app, doctree, docname) -> None:
    texts = app.config._retrieval_lab_alt
    for image in doctree.findall(nodes.image):
        digest = Path(image.get("uri", "")).stem
        if digest in texts:
            image["alt"] = texts[digest]


def setup(app) -> None:
    app.config._retrieval_lab_alt = _alt_texts(Path(app.srcdir))
    app.connect("doctree-resolved", _set_alt)
