"""Make the real-vector dataset: texts of Python's standard library and their MiniLM vectors.

    python -m tools.real_vectors --snapshot   # 1. take the texts (Python 3.11 only), once
    python -m tools.real_vectors              # 2. embed 30,000 and the queries (resumable)

The texts (``realvectors_texts.json.xz``): every docstring paragraph and every block of ``#``
comments of at least six words, most of them words, in the ``.py`` files of the standard library
of the running Python (tests included), read with ``ast`` and ``tokenize`` (nothing is imported),
whitespace folded, cut to the first 62 word pieces of MiniLM's tokenizer (64 with [CLS] and
[SEP]: a cheaper forward pass, and the same text in the snapshot as in the model), each text
once. They are shuffled with a fixed seed; the first ``QUERIES`` are the held-out queries, the
rest the indexed texts, of which the first ``TEXTS`` are embedded. The standard library differs
between 3.11 and 3.12, so the snapshot is taken once, from 3.11, and shipped.

The vectors (``realvectors_minilm.npz``): each text embedded with ``retrieval_lab.models.minilm``,
stored as int8 codes with one float32 scale per row (a quarter of float32's bytes; the cosine
of a decoded vector with the original is above 0.9999), with the texts' sha256 in
``realvectors_minilm.json`` so that ``retrieval_lab.data.realvectors`` refuses vectors of other texts.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import io
import json
import lzma
import platform
import random
import re
import sys
import sysconfig
import time
import tokenize
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "retrieval_lab" / "data"
TEXTS_FILE = DATA / "realvectors_texts.json.xz"
VECTORS_FILE = DATA / "realvectors_minilm.npz"
ABOUT_FILE = DATA / "realvectors_minilm.json"
CACHE = ROOT / "build" / "realvectors-cache"
SNAPSHOT_PYTHON = (3, 11)
QUERIES = 1000
TEXTS = 30_000  # of the 32,709 in the snapshot: the vectors ship as 31,000 int8 rows, 11 MB
MAX_PIECES = 62
SEED = 0
LICENCE = (
    "PSF License Agreement for Python (https://docs.python.org/3/license.html): the texts are "
    "docstrings and comments of CPython's standard library."
)
WORDLIKE = re.compile(r"^[(\"'`]*[A-Za-z][A-Za-z'-]*[)\"'`.,;:!?]*$")


def is_prose(text: str) -> bool:
    """At least six words, and at least 60 % of the tokens look like words (not code)."""
    tokens = text.split()
    words = sum(bool(WORDLIKE.match(t)) for t in tokens)
    return len(tokens) >= 6 and words >= 6 and words >= 0.6 * len(tokens)


def docstring_paragraphs(tree: ast.AST) -> list[str]:
    """The paragraphs of every module, class and function docstring, whitespace folded."""
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    out = []
    for node in ast.walk(tree):
        doc = ast.get_docstring(node) if isinstance(node, kinds) else None
        for paragraph in re.split(r"\n\s*\n", doc or ""):
            out.append(" ".join(paragraph.split()))
    return out


def comment_blocks(source: str) -> list[str]:
    """Runs of ``#`` comments on consecutive lines, each run joined into one text."""
    blocks, block, last = [], [], -2
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.COMMENT:
            continue
        text = token.string.lstrip("#").strip()
        if token.start[0] != last + 1 and block:
            blocks.append(" ".join(block))
            block = []
        if text:
            block.append(text)
        last = token.start[0]
    if block:
        blocks.append(" ".join(block))
    return [" ".join(b.split()) for b in blocks]


def cut(text: str, tokenizer) -> str:
    """The text up to the end of its ``MAX_PIECES``-th word piece."""
    encoding = tokenizer.encode(text)
    pairs = zip(encoding.offsets, encoding.special_tokens_mask, strict=True)
    spans = [span for span, special in pairs if not special]
    return text if len(spans) <= MAX_PIECES else text[: spans[MAX_PIECES - 1][1]]


def take_snapshot() -> dict[str, object]:
    """Read the texts of this Python's standard library; write the shuffled snapshot."""
    if sys.version_info[:2] != SNAPSHOT_PYTHON:
        raise SystemExit("the course's snapshot is Python 3.11's standard library: run with 3.11")
    from retrieval_lab.models import minilm

    lib = Path(sysconfig.get_paths()["stdlib"])
    tokenizer = minilm.load_tokenizer()
    found: dict[str, str] = {}
    for path in sorted(lib.rglob("*.py")):
        name = path.relative_to(lib).as_posix()
        if "site-packages" in name:
            continue
        try:
            source = path.read_text(encoding="utf-8")
            texts = docstring_paragraphs(ast.parse(source)) + comment_blocks(source)
        except (SyntaxError, UnicodeDecodeError, tokenize.TokenError, ValueError):
            continue
        for text in texts:
            if is_prose(text):
                found.setdefault(cut(text, tokenizer), name)
    pairs = sorted(found.items())
    random.Random(SEED).shuffle(pairs)
    about = {
        "what": "Docstring paragraphs and comment blocks of CPython's standard library, cut "
        f"to {MAX_PIECES} MiniLM word pieces, shuffled (seed {SEED}); the first {QUERIES} "
        "are held-out queries, the rest the indexed texts.",
        "python": platform.python_version(),
        "licence": LICENCE,
        "made_by": "python -m tools.real_vectors --snapshot",
    }
    body = {
        "about": about,
        "queries": [t for t, _ in pairs[:QUERIES]],
        "query_sources": [s for _, s in pairs[:QUERIES]],
        "texts": [t for t, _ in pairs[QUERIES:]],
        "sources": [s for _, s in pairs[QUERIES:]],
    }
    raw = json.dumps(body, ensure_ascii=False, indent=0).encode("utf-8")
    TEXTS_FILE.write_bytes(lzma.compress(raw, preset=9))
    return {"texts": len(pairs)}


def texts_sha256(queries: list[str], texts: list[str]) -> str:
    """One fingerprint of the queries and the texts, in order."""
    digest = hashlib.sha256()
    for text in [*queries, "\0", *texts]:
        digest.update(text.encode("utf-8") + b"\n")
    return digest.hexdigest()


def quantize(vectors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """int8 codes and the per-row float32 scale that decodes them (codes * scale)."""
    scale = np.abs(vectors).max(axis=1, keepdims=True) / 127
    codes = np.round(vectors / scale).astype(np.int8)
    return codes, scale.astype(np.float32)


def embed_all(limit: int | None, batch: int = 1000) -> dict[str, object]:
    """Embed queries then texts in blocks cached under build/ (resumable), write the vectors."""
    from retrieval_lab.models import minilm

    body = json.loads(lzma.decompress(TEXTS_FILE.read_bytes()))
    queries, texts = body["queries"], body["texts"][:limit]
    every = [*queries, *texts]
    fingerprint = texts_sha256(queries, texts)
    CACHE.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    blocks = []
    for first in range(0, len(every), batch):
        chunk = every[first : first + batch]
        key = hashlib.sha256("\n".join(chunk).encode()).hexdigest()[:16]
        path = CACHE / f"{first:06d}-{key}.npy"
        if not path.exists():
            np.save(path, minilm.encode(chunk, 32))
            done = first + len(chunk)
            rate = done / (time.perf_counter() - start)
            print(f"{done}/{len(every)} ({rate:.1f} texts/s)", flush=True)
        blocks.append(np.load(path))
    vectors = np.concatenate(blocks)
    codes, scale = quantize(vectors)
    np.savez_compressed(VECTORS_FILE, codes=codes, scale=scale)
    about = {
        "what": "MiniLM (all-MiniLM-L6-v2, retrieval_lab.models.minilm) vectors of "
        "realvectors_texts.json.xz: the queries' rows first, then the texts'; int8 codes "
        "with a float32 scale per row.",
        "queries": len(queries),
        "texts": len(texts),
        "dim": int(vectors.shape[1]),
        "texts_sha256": fingerprint,
        "made_by": "python -m tools.real_vectors",
    }
    ABOUT_FILE.write_text(json.dumps(about, indent=1) + "\n", encoding="utf-8")
    return {"rows": len(every), "seconds": time.perf_counter() - start}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--snapshot", action="store_true", help="re-take the texts (3.11)")
    parser.add_argument("--limit", type=int, default=TEXTS, help="how many texts to embed")
    args = parser.parse_args(argv)
    if args.snapshot:
        print(f"snapshot: {take_snapshot()['texts']} texts")
    done = embed_all(args.limit)
    print(f"embedded {done['rows']} rows in {done['seconds']:.0f} s")


if __name__ == "__main__":
    main()
