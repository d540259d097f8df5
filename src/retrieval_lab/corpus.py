"""The small document sets the notebooks share.

Each function returns *new* Document objects on every call: the real InMemoryVectorStore keeps a
reference to each document's metadata dict, so handing two stores the same objects would let one
notebook cell change what another store holds.
"""

from __future__ import annotations

import shutil
from importlib.resources import as_file, files
from pathlib import Path
from typing import Any

from langchain_core.documents import Document

#: (id, text, metadata) rows: four words of the default BagOfWords vocabulary, in varied mixes, so
#: that every query has a visible best match, a near miss and an unrelated document.
PETS_AND_CODE: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("d1", "cat cat", {"topic": "pets", "source": "notes.txt"}),
    ("d2", "cat dog", {"topic": "pets", "source": "notes.txt"}),
    ("d3", "python kernel", {"topic": "code", "source": "jupyter.md"}),
    ("d4", "dog dog dog", {"topic": "pets", "source": "walks.txt"}),
    ("d5", "the python kernel restarted", {"topic": "code", "source": "jupyter.md"}),
    ("d6", "a cat watched the python", {"topic": "zoo", "source": "zoo.txt"}),
)

#: Documents on a two-word vocabulary (cat, dog): a vector is an arrow in the plane, so a picture
#: can show every vector exactly, with no projection. Three near-duplicates of "cat" compete with
#: two documents that mix in "dog" - the case MMR exists for.
CAT_DOG_PLANE: tuple[tuple[str, str], ...] = (
    ("c1", "cat cat cat dog"),
    ("c2", "cat cat cat dog"),
    ("c3", "cat cat dog"),
    ("c4", "cat dog"),
    ("c5", "dog dog dog cat"),
    ("c6", "dog"),
)

#: A short text with paragraphs, lines and long sentences: enough structure for every separator
#: a text splitter tries.
ARTICLE = (
    "Cats sleep for most of the day. A house cat may sleep sixteen hours, waking to eat and to "
    "watch the window.\n\n"
    "Dogs keep a different rhythm.\nThey wake early, walk twice and nap in between.\n\n"
    "A Jupyter kernel runs your Python code. When the kernel restarts, every variable is gone, "
    "so a notebook that runs top to bottom is one you can trust."
)


def pets_and_code(doc_class: type = Document) -> list[Any]:
    """The six-document corpus most notebooks search (fresh objects each call).

    ``doc_class`` lets a notebook build the same corpus from its scratch ``Document``, so the two
    stores it compares hold equal inputs.
    """
    return [doc_class(page_content=t, metadata=dict(m), id=i) for i, t, m in PETS_AND_CODE]


def pets(doc_class: type = Document) -> list[Any]:
    """The three-document corpus of notebook 06: two about pets, one about code."""
    return [doc for doc in pets_and_code(doc_class) if doc.id in ("d1", "d2", "d3")]


def cat_dog_plane(doc_class: type = Document) -> list[Any]:
    """Documents whose BagOfWords vectors on the vocabulary (cat, dog) are arrows in the plane."""
    return [doc_class(page_content=t, id=i) for i, t in CAT_DOG_PLANE]


def course_data(folder: str | Path = "data") -> Path:
    """The course's small files (notebook 02 loads them), as a folder next to the notebook.

    They ship inside the package, so a pip-installed course (Colab, a fresh clone) has them; the
    first call copies any that are missing into ``folder``, and the path returned stays
    relative, so a loaded document's ``source`` reads ``data/cats.txt`` on every machine.
    """
    target = Path(folder)
    with as_file(files("retrieval_lab") / "data") as shipped:
        for item in sorted(Path(shipped).iterdir()):
            if item.is_file() and not (target / item.name).exists():
                target.mkdir(parents=True, exist_ok=True)
                shutil.copy2(item, target / item.name)
    return target
