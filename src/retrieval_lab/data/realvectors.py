"""Real vectors at a size where an index matters: 30,000 MiniLM vectors of Python's own texts.

The texts are the docstring paragraphs and comment blocks of CPython 3.11's standard library
(each cut to 62 word pieces), a snapshot shipped in ``data/realvectors_texts.json.xz``. The
first 30,000 of its 32,709 indexed texts have vectors, ``retrieval_lab.minilm``'s, shipped as
int8 codes with a scale per row (``data/realvectors_minilm.npz``, made by
``python -m tools.real_vectors``). 1,000 further texts of the same kind are held out as
queries: none of them is in the indexed set.

    texts, vectors = realvectors.load(20_000)   # the first 20,000 (a random sample)
    query_texts, query_vectors = realvectors.queries()

Vectors are float32 unit vectors (a dot product is a cosine). Loading takes well under a second.
Licence of the texts: the PSF License Agreement for Python.
"""

from __future__ import annotations

import hashlib
import io
import json
import lzma
from functools import cache
from importlib.resources import files

import numpy as np

TEXTS_FILE = "realvectors_texts.json.xz"
VECTORS_FILE = "realvectors_minilm.npz"
ABOUT_FILE = "realvectors_minilm.json"
REMAKE = "python -m tools.real_vectors"


def _shipped(name: str) -> bytes:
    return (files("retrieval_lab") / "data" / name).read_bytes()


def texts_sha256(queries: list[str], texts: list[str]) -> str:
    """The fingerprint of the queries and the texts, in order (as the builder computes it)."""
    digest = hashlib.sha256()
    for text in [*queries, "\0", *texts]:
        digest.update(text.encode("utf-8") + b"\n")
    return digest.hexdigest()


@cache
def _snapshot() -> dict:
    return json.loads(lzma.decompress(_shipped(TEXTS_FILE)))


def about() -> dict:
    """What the texts are, where they come from, their licence, and the vectors' fingerprint."""
    return {**_snapshot()["about"], "vectors": json.loads(_shipped(ABOUT_FILE))}


@cache
def _decoded() -> tuple[tuple[str, ...], tuple[str, ...], np.ndarray]:
    """Queries, texts and all vectors (queries' rows first), checked against the fingerprint."""
    body, facts = _snapshot(), json.loads(_shipped(ABOUT_FILE))
    queries, texts = body["queries"], body["texts"][: facts["texts"]]
    stored = np.load(io.BytesIO(_shipped(VECTORS_FILE)), allow_pickle=False)
    vectors = stored["codes"].astype(np.float32) * stored["scale"]
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    if facts["texts_sha256"] != texts_sha256(queries, texts) or len(vectors) != len(
        queries
    ) + len(texts):
        raise RuntimeError(
            f"The shipped vectors ({VECTORS_FILE}, {len(vectors)} rows) were made from other "
            f"texts than {TEXTS_FILE} holds. Re-make them from the repository root: {REMAKE}"
        )
    vectors.setflags(write=False)
    return tuple(queries), tuple(texts), vectors


def size() -> int:
    """How many indexed texts (and vectors) ship."""
    return len(_decoded()[1])


def load(n: int | None = None) -> tuple[list[str], np.ndarray]:
    """The first ``n`` indexed texts (all when None) and their vectors, float32 (n, 384)."""
    queries, texts, vectors = _decoded()
    if n is None:
        n = len(texts)
    if not 1 <= n <= len(texts):
        raise ValueError(f"n must be between 1 and {len(texts)}, got {n}.")
    return list(texts[:n]), vectors[len(queries) : len(queries) + n].copy()


def queries(n: int | None = None) -> tuple[list[str], np.ndarray]:
    """The held-out query texts (1,000; the first ``n`` when given) and their vectors."""
    query_texts, _, vectors = _decoded()
    n = len(query_texts) if n is None else n
    if not 1 <= n <= len(query_texts):
        raise ValueError(f"n must be between 1 and {len(query_texts)}, got {n}.")
    return list(query_texts[:n]), vectors[:n].copy()


def sources(n: int | None = None) -> list[str]:
    """The standard-library file each indexed text comes from (e.g. ``json/tool.py``)."""
    return _snapshot()["sources"][: size() if n is None else n]
