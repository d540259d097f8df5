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


#: What notebook 02 loads: its parser reads these three kinds of file.
COURSE_FILE_SUFFIXES = (".txt", ".md", ".csv")


def course_data(folder: str | Path = "data") -> Path:
    """The course's small files (notebook 02 loads them), as a folder next to the notebook.

    They ship inside the package, so a pip-installed course (Colab, a fresh clone) has them; the
    first call copies any that are missing into ``folder``, and the path returned stays
    relative, so a loaded document's ``source`` reads ``data/cats.txt`` on every machine.
    """
    target = Path(folder)
    with as_file(files("retrieval_lab") / "data") as shipped:
        for item in sorted(Path(shipped).iterdir()):
            # Only the loader lesson's text files: the package's data folder also holds the
            # Python reference, its vectors and questions, which notebook 02's parser refuses.
            if item.suffix not in COURSE_FILE_SUFFIXES:
                continue
            if item.is_file() and not (target / item.name).exists():
                target.mkdir(parents=True, exist_ok=True)
                shutil.copy2(item, target / item.name)
    return target


# --- A real corpus that no one on this course wrote: Python's Language Reference topics ---------

#: The snapshot of the topics and the MiniLM vectors of their chunks, files of this package.
PYTHON_REFERENCE_FILE = "python_reference_topics.json"
PYTHON_REFERENCE_VECTORS_FILE = "python_reference_minilm.npy"
PYTHON_REFERENCE_VECTORS_ABOUT = "python_reference_minilm.json"

#: How the topics are cut into passages. The course has no single setting (notebooks 00 and 02
#: cut tiny texts at 60 characters, notebook 03 explores many), so these are chosen for MiniLM:
#: 800 characters is about 200 word pieces, inside the model's limit of 256, and an overlap of
#: 100 keeps a sentence cut at a boundary readable in the next passage.
PYTHON_REFERENCE_CHUNK_SIZE = 800
PYTHON_REFERENCE_CHUNK_OVERLAP = 100


def _shipped(name: str) -> bytes:
    """The bytes of one file of ``retrieval_lab/data`` (works from a wheel too)."""
    return (files("retrieval_lab") / "data" / name).read_bytes()


def python_reference_about() -> dict[str, str]:
    """Where the topics come from: source, Python version, licence and copyright notice."""
    import json

    return dict(json.loads(_shipped(PYTHON_REFERENCE_FILE))["about"])


def python_reference() -> list[Document]:
    """The Python Language Reference topics, one Document per topic (79 of them).

    The text is CPython's own: ``pydoc_data.topics.topics``, the pages ``help("if")`` shows,
    which Sphinx generates from the Language Reference. They change between Python versions, so
    the course ships a snapshot taken from Python 3.11.7 (``python_reference_topics.json``,
    made by ``python -m tools.corpus_vectors --snapshot-topics``) and never reads them live.
    Licence: the PSF License Agreement (Python's documentation), code examples in it also under
    the Zero-Clause BSD licence; Copyright (c) 2001-2023 Python Software Foundation; All Rights
    Reserved. ``python_reference_about()`` returns these facts as the file states them.

    Each document's id is the topic's name; its metadata ``{"topic": name, "source":
    "python-reference"}``. Some topics repeat others word for word (``compound`` holds ``if``,
    ``for``, ``while`` and ``try``; ``specialnames`` holds ``customization``), as help() does.
    """
    import json

    topics = json.loads(_shipped(PYTHON_REFERENCE_FILE))["topics"]
    return [
        Document(
            page_content=text,
            metadata={"topic": name, "source": "python-reference"},
            id=name,
        )
        for name, text in sorted(topics.items())
    ]


def python_reference_chunks() -> list[Document]:
    """The topics cut into passages of at most 800 characters, overlapping by up to 100.

    Cut by langchain-text-splitters' ``RecursiveCharacterTextSplitter`` (paragraphs, then
    lines, then words) with ``add_start_index=True``, so ``metadata["start_index"]`` says where
    each passage starts in its topic's text: a passage is the character span ``[start_index,
    start_index + len(page_content))`` of ``python_reference()``'s document of that topic. Ids
    are ``"<topic>#<n>"``, n counting from 0 within a topic. Topics that repeat each other give
    passages with the same text (and so the same vector, and tied scores) under two ids.
    """
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(
        chunk_size=PYTHON_REFERENCE_CHUNK_SIZE,
        chunk_overlap=PYTHON_REFERENCE_CHUNK_OVERLAP,
        add_start_index=True,
    )
    chunks = splitter.split_documents(python_reference())
    counts: dict[str, int] = {}
    for chunk in chunks:
        topic = chunk.metadata["topic"]
        chunk.id = f"{topic}#{counts.get(topic, 0)}"
        counts[topic] = counts.get(topic, 0) + 1
    return chunks


def chunks_sha256(chunks: list[Document]) -> str:
    """A fingerprint of the passages (ids and texts, in order): it changes when any of them does.

    The shipped vectors store the fingerprint of the passages they were made from, so a vector
    file left behind by a change to the text or to the splitter is detected, not used.
    """
    import hashlib
    import json

    rows = [[chunk.id, chunk.page_content] for chunk in chunks]
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode("utf-8")).hexdigest()


def python_reference_vectors() -> Any:
    """MiniLM's vectors of ``python_reference_chunks()``, row i for passage i: float32 (n, 384).

    Embedding 780 passages of about 200 word pieces takes this numpy MiniLM minutes, so the
    vectors ship with the package (``python_reference_minilm.npy``, made by
    ``python -m tools.corpus_vectors``). They are unit vectors: a dot product is a cosine. The
    file is refused, with the command that re-makes it, if the passages changed since.
    """
    import io
    import json

    import numpy as np

    about = json.loads(_shipped(PYTHON_REFERENCE_VECTORS_ABOUT))
    vectors = np.load(io.BytesIO(_shipped(PYTHON_REFERENCE_VECTORS_FILE)), allow_pickle=False)
    chunks = python_reference_chunks()
    if about["chunks_sha256"] != chunks_sha256(chunks) or vectors.shape[0] != len(chunks):
        raise RuntimeError(
            f"The shipped MiniLM vectors ({PYTHON_REFERENCE_VECTORS_FILE}: {vectors.shape[0]} "
            f"rows) were made from other passages than python_reference_chunks() gives today "
            f"({len(chunks)}): the text or the splitter changed since. Re-make them from the "
            "repository root with: python -m tools.corpus_vectors"
        )
    return vectors


def distinct_passages(chunks: list[Document]) -> list[int]:
    """Positions of the passages to keep so that each text appears once, in corpus order.

    Topics that repeat each other give the same passage twice, with the same vector: a search
    would return both, tied. Where a text repeats, the copy kept is the one from the topic with
    the fewest passages, the more specific page (``try#4`` rather than ``compound#13``).
    """
    per_topic: dict[str, int] = {}
    for chunk in chunks:
        per_topic[chunk.metadata["topic"]] = per_topic.get(chunk.metadata["topic"], 0) + 1
    best: dict[str, int] = {}
    for i, chunk in enumerate(chunks):
        kept = best.get(chunk.page_content)
        if kept is None or per_topic[chunk.metadata["topic"]] < per_topic[chunks[kept].metadata["topic"]]:
            best[chunk.page_content] = i
    return sorted(best.values())
