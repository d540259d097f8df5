"""Chunking measured: re-chunk the corpus, embed each chunking once, and score it on the
labelled questions at an equal budget of retrieved text (notebook 03).

Judging a chunk by whether it holds the answer favours big chunks: one 2,000-character chunk
"holds" more answers than four of 500. So, as Chroma's report "Evaluating Chunking Strategies
for Retrieval" (Smith & Troynikov, 2024) does, each ranking is cut to the same budget of text
(its first ``BUDGET`` characters, the last chunk cut short), and the questions' relevant spans
are scored inside it, in characters:

- **recall**: how much of the relevant text the budget holds;
- **precision**: how much of the budget is relevant text;
- **IoU**: the relevant text retrieved over the union of relevant and retrieved text.

A span the question file labels in two topics that repeat each other (``if`` inside
``compound``) counts once: either copy retrieved finds it.

Embedding a whole chunking takes this numpy MiniLM about a minute of CPU, so every chunk
vector is kept in ``chunking_minilm.npz`` (float16), keyed by a SHA-256 of the model and the
chunk's text: any chunking of the corpus whose texts were embedded before is found there, and a
text not in the file is embedded on the spot (slower, never an error). The semantic chunker's
cuts are kept the same way, keyed by its settings and the topic's text. ``python -m
retrieval_lab.evaluation.chunking --make-cache`` re-makes the file from ``strategies()``.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import io
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import numpy as np
from langchain_text_splitters import Language, RecursiveCharacterTextSplitter
from tokenizers import Tokenizer

from retrieval_lab.data.corpus import distinct_passages, python_reference
from retrieval_lab.evaluation import evaluate, knobs
from retrieval_lab.models import minilm
from retrieval_lab.models.embeddings import MiniLM
from retrieval_lab.scratch.document import Document
from retrieval_lab.scratch.text_splitters import SemanticChunker

__all__ = [
    "BUDGET", "CACHE_FILE", "LIMIT", "STRUCTURE", "ChunkCache", "Measured", "budgeted",
    "chunk_corpus", "measure", "span_scores", "strategies", "truncated", "word_pieces",
]

#: Characters of retrieved text every chunking gets: its best chunks, in order, until full.
BUDGET = 1000
#: How deep each ranking goes (enough chunks to fill the budget with the smallest chunks).
DEPTH = 100
#: Word pieces of text MiniLM reads: its 256 positions hold [CLS] and [SEP] too.
LIMIT = minilm.MAX_TOKENS - 2
CACHE_FILE = "chunking_minilm.npz"
#: The span metrics, in the order the tables show them.
SPAN_METRICS = ("recall", "precision", "IoU")

#: This corpus's structure, coarse to fine, as regexes: a blank line before a section title
#: (its line underlined with = or -), a blank line before a paragraph at the margin (so an
#: indented code block stays with the paragraph that introduces it), then the usual cascade.
STRUCTURE = [r"\n\n(?=[^\n]+\n=+\n)", r"\n\n(?=[^\n]+\n-+\n)", r"\n\n(?=\S)", r"\n\n",
             r"\n", r" ", r""]


# --------------------------------------------------------------------------- word pieces


@cache
def _counter() -> Any:  # tokenizers.Tokenizer
    """MiniLM's own WordPiece tokenizer, with no cut and no padding: it counts."""
    tokenizer = Tokenizer.from_file(str(minilm.model_dir() / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


@lru_cache(maxsize=200_000)
def word_pieces(text: str) -> int:
    """How many word pieces MiniLM cuts ``text`` into ([CLS] and [SEP] not counted): a
    ``length_function`` that measures chunks the way the model reads them."""
    if not isinstance(text, str):
        raise TypeError(f"word_pieces counts the pieces of a str, got {type(text).__name__}.")
    return len(_counter().encode(text, add_special_tokens=False).ids)


def truncated(texts: Sequence[str]) -> int:
    """How many of the texts MiniLM cuts short in silence: more than ``LIMIT`` word pieces."""
    encodings = _counter().encode_batch(list(texts), add_special_tokens=False)
    return sum(len(e.ids) > LIMIT for e in encodings)


# --------------------------------------------------------------------------- the cache


def _key(*parts: str) -> str:
    """A fingerprint of the model and the inputs (20 hex digits of a SHA-256)."""
    joined = "\0".join([minilm.FILE_SHA256["model.safetensors"], *parts])
    return hashlib.sha256(joined.encode("utf-8")).hexdigest()[:20]


def _code_of(chunker: Any) -> str:
    """The chunker's settings and the source of its methods: a change to either is a miss."""
    methods = [v for v in vars(type(chunker)).values() if inspect.isfunction(v)]
    return repr(chunker) + "".join(inspect.getsource(m) for m in methods)


class ChunkCache:
    """MiniLM vectors of chunk texts and semantic cuts of topic texts, kept by fingerprint.

    Reads the shipped file (or ``path``); what it lacks is computed and kept in memory, and
    ``save`` writes everything out. ``misses`` counts the texts it had to embed.
    """

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else Path(str(files("retrieval_lab") / "data" / CACHE_FILE))
        self._rows: dict[str, int] = {}
        self._matrix = np.zeros((0, minilm.WIDTH), dtype=np.float16)
        self._cuts: dict[str, list[int]] = {}
        if self.path.exists():
            with np.load(self.path, allow_pickle=False) as stored:
                self._rows = {str(k): i for i, k in enumerate(stored["keys"])}
                self._matrix = stored["vectors"]
                self._cuts = json.loads(bytes(stored["cuts"]).decode("utf-8"))
        self._new: dict[str, np.ndarray] = {}
        self._asked: set[str] = set()
        self.misses = 0

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        """(len(texts), 384) float32 unit vectors (to float16 precision), in order."""
        keys = [_key("text", t) for t in texts]
        missing = sorted({t for t, k in zip(texts, keys, strict=True)
                          if k not in self._rows and k not in self._new})
        if missing:
            self.misses += len(missing)
            made = minilm.encode(missing).astype(np.float16)
            self._new.update((_key("text", t), v) for t, v in zip(missing, made, strict=True))
        rows = [self._matrix[self._rows[k]] if k in self._rows else self._new[k] for k in keys]
        return np.array(rows, dtype=np.float32).reshape(len(texts), minilm.WIDTH)

    def spans(self, chunker: Any, text: str) -> list[tuple[int, int]]:
        """``chunker.chunk_spans(text)``, from the cache when the same settings cut it before."""
        key = _key("cuts", _code_of(chunker), text)
        self._asked.add(key)
        if key not in self._cuts:
            self._cuts[key] = [p for span in chunker.chunk_spans(text) for p in span]
        flat = self._cuts[key]
        return list(zip(flat[0::2], flat[1::2], strict=True))

    def save(self, path: str | Path | None = None, texts: Sequence[str] | None = None) -> Path:
        """Write the cache (what was read and what was made) to ``path`` or where it came from;
        with ``texts``, only their vectors and the cuts asked for since it was read."""
        where = Path(path) if path is not None else self.path
        keep = None if texts is None else {_key("text", t) for t in texts}
        old = [k for k in self._rows if keep is None or k in keep]
        new = [k for k in self._new if keep is None or k in keep]
        extra = np.array([self._new[k] for k in new], dtype=np.float16).reshape(-1, minilm.WIDTH)
        vectors = np.concatenate([self._matrix[[self._rows[k] for k in old]], extra])
        keys = old + new
        cuts = self._cuts if keep is None else {k: self._cuts[k] for k in self._asked}
        cuts = np.frombuffer(json.dumps(cuts, sort_keys=True).encode("utf-8"), np.uint8)
        buffer = io.BytesIO()
        np.savez_compressed(buffer, keys=np.array(keys), vectors=vectors, cuts=cuts)
        where.write_bytes(buffer.getvalue())
        return where


@cache
def shipped_cache() -> ChunkCache:
    """The shipped cache, read once per process."""
    return ChunkCache()


# --------------------------------------------------------------------------- chunkings


def _semantic(chunker: Any, documents: Sequence[Any], store: ChunkCache) -> list[Document]:
    chunks = []
    for doc in documents:
        for start, end in store.spans(chunker, doc.page_content):
            metadata = {**doc.metadata, "start_index": start}
            chunks.append(Document(page_content=doc.page_content[start:end], metadata=metadata))
    return chunks


def chunk_corpus(
    splitter: Any, documents: Sequence[Any] | None = None, store: ChunkCache | None = None
) -> list[Any]:
    """The topics cut by ``splitter`` (made with ``add_start_index=True``), with ids
    ``"<topic>#<n>"``, each text once (``corpus.distinct_passages``), as ``evaluate.corpus``.

    A semantic chunker's cuts come from the cache when its settings cut the same text before.
    """
    documents = python_reference() if documents is None else list(documents)
    if hasattr(splitter, "chunk_spans"):
        chunks = _semantic(splitter, documents, store or shipped_cache())
    else:
        chunks = splitter.split_documents(documents)
    texts = {d.metadata["topic"]: d.page_content for d in documents}
    counts: dict[str, int] = {}
    for chunk in chunks:
        topic, start = chunk.metadata["topic"], chunk.metadata.get("start_index")
        if start is None or texts[topic][start : start + len(chunk.page_content)] != chunk.page_content:
            raise ValueError(f"a chunk of {topic!r} has start_index {start!r}, which is not where "
                             "its text is: make the splitter with add_start_index=True.")
        chunk.id = f"{topic}#{counts.get(topic, 0)}"
        counts[topic] = counts.get(topic, 0) + 1
    return [chunks[i] for i in distinct_passages(chunks)]


def strategies(embeddings: Any = None) -> dict[str, Any]:
    """The chunkings notebook 03 measures, by name: four families."""
    found: dict[str, Any] = {}
    for size in (400, 800, 1600):
        for overlap in (0, size // 4):
            name = f"characters {size}" + (f", overlap {overlap}" if overlap else "")
            found[name] = RecursiveCharacterTextSplitter(
                chunk_size=size, chunk_overlap=overlap, add_start_index=True)
    for pieces in (128, 256, 512):
        found[f"word pieces {pieces}"] = RecursiveCharacterTextSplitter(
            chunk_size=pieces, chunk_overlap=0, length_function=word_pieces,
            add_start_index=True)
    found["RST separators 800"] = RecursiveCharacterTextSplitter.from_language(
        Language.RST, chunk_size=800, chunk_overlap=0, add_start_index=True)
    found["titles and code 800"] = RecursiveCharacterTextSplitter(
        separators=STRUCTURE, is_separator_regex=True, chunk_size=800, chunk_overlap=0,
        add_start_index=True)
    for percentile in (95, 80):
        found[f"semantic p{percentile}"] = SemanticChunker(
            embeddings if embeddings is not None else MiniLM(),
            breakpoint_threshold_amount=percentile, add_start_index=True)
    return found


# --------------------------------------------------------------------------- scores


def budgeted(
    ranked: Sequence[str], chunks: Mapping[str, Any], budget: int = BUDGET
) -> list[tuple[str, int, int]]:
    """(topic, start, end) of the retrieved text: the ranked chunks in order, the last one cut
    short, until ``budget`` characters."""
    found, left = [], budget
    for chunk_id in ranked:
        if left <= 0:
            break
        chunk = chunks[chunk_id]
        start = chunk.metadata["start_index"]
        taken = min(len(chunk.page_content), left)
        found.append((chunk.metadata["topic"], start, start + taken))
        left -= taken
    return found


def _covered(start: int, end: int, ranges: Sequence[tuple[int, int]]) -> int:
    """Characters of [start, end) inside the union of ``ranges`` (sorted, merged)."""
    return sum(max(0, min(end, e) - max(start, s)) for s, e in ranges)


def _merged(ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for s, e in sorted(ranges):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def span_scores(
    relevant: Sequence[Mapping[str, Any]], retrieved: Sequence[tuple[str, int, int]],
    topics: Mapping[str, str],
) -> dict[str, float]:
    """Recall, precision and IoU of the relevant spans inside the retrieved text, in characters.

    Spans with the same text (copies in topics that repeat each other) are one span, found
    where any copy is retrieved. Retrieved text counts every character the budget spent.
    """
    copies: dict[str, list[Mapping[str, Any]]] = {}
    for span in relevant:
        copies.setdefault(topics[span["doc"]][span["start"] : span["end"]], []).append(span)
    by_topic: dict[str, list[tuple[int, int]]] = {}
    for topic, start, end in retrieved:
        by_topic.setdefault(topic, []).append((start, end))
    union = {topic: _merged(ranges) for topic, ranges in by_topic.items()}
    wanted = sum(len(text) for text in copies)
    spent = sum(end - start for _, start, end in retrieved)
    found = sum(max(_covered(s["start"], s["end"], union.get(s["doc"], [])) for s in group)
                for group in copies.values())
    found = min(found, wanted, spent)
    return {
        "recall": found / wanted if wanted else 0.0,
        "precision": found / spent if spent else 0.0,
        "IoU": found / (wanted + spent - found) if wanted + spent else 0.0,
    }


@dataclass
class Measured:
    """One chunking, ready to measure: its chunks, their vectors and a MiniLM ranker."""

    chunks: list[Any]
    vectors: np.ndarray
    ranker: evaluate.DenseRanker

    @property
    def setting(self) -> knobs.Setting:
        return knobs.Setting(self.ranker, self.chunks)

    def truncated(self) -> int:
        """How many of its chunks MiniLM cuts short."""
        return truncated([c.page_content for c in self.chunks])


def prepare(
    chunkings: Mapping[str, Any], store: ChunkCache | None = None,
    questions: Sequence[Mapping[str, Any]] | None = None,
) -> dict[str, Measured]:
    """Each splitter's chunks of the corpus, embedded (from the cache when it can), and a
    MiniLM ranker over them; a list of chunks may be given instead of a splitter."""
    store = store or shipped_cache()
    asked = [q["question"] for q in (questions or evaluate.load_questions())]
    prepared = {}
    for name, splitter in chunkings.items():
        chunks = splitter if isinstance(splitter, list) else chunk_corpus(splitter, store=store)
        vectors = store.vectors([c.page_content for c in chunks])
        ranker = evaluate.DenseRanker(chunks, vectors, depth=DEPTH)
        ranker.prepare(asked)
        prepared[name] = Measured(chunks, vectors, ranker)
    return prepared


def per_question(
    measured: Measured, questions: Sequence[Mapping[str, Any]], budget: int = BUDGET
) -> dict[str, dict[str, float]]:
    """``{metric: {question id: value}}`` of the span metrics, for questions with spans."""
    topics = {d.metadata["topic"]: d.page_content for d in python_reference()}
    by_id = {c.id: c for c in measured.chunks}
    out: dict[str, dict[str, float]] = {m: {} for m in SPAN_METRICS}
    for q in questions:
        if not q["relevant"]:
            continue
        retrieved = budgeted(measured.ranker(q["question"]), by_id, budget)
        for metric, value in span_scores(q["relevant"], retrieved, topics).items():
            out[metric][q["id"]] = value
    return out


def measure(
    prepared: Mapping[str, Measured], pairs: Sequence[tuple[str, str]] | None = None, *,
    split: str = "dev", budget: int = BUDGET, guide: bool = False,
    metrics: Sequence[str] = ("nDCG@10", *SPAN_METRICS),
) -> dict[str, knobs.Report]:
    """A report per metric: nDCG@10 on chunk labels, and the span metrics at ``budget``."""
    reports = {}
    if "nDCG@10" in metrics:
        settings = {name: m.setting for name, m in prepared.items()}
        reports["nDCG@10"] = knobs.measure(settings, pairs, split=split, guide=guide)
    asked = evaluate.split_questions(evaluate.load_questions(), split)
    spans = {name: per_question(m, asked, budget) for name, m in prepared.items()}
    for metric in SPAN_METRICS:
        if metric in metrics:
            scores = {name: spans[name][metric] for name in prepared}
            reports[metric] = knobs.compare(scores, pairs, metric=f"span {metric} @{budget} chars",
                                            split=split)
    return reports


def table(
    reports: Mapping[str, knobs.Report], extra: Mapping[str, Callable[[str], Any]] | None = None
) -> evaluate.ScoreTable:
    """One row per chunking: each metric's mean with its interval, and any extra columns."""
    first = next(iter(reports.values()))
    names = list(first.scores)
    extra = dict(extra or {})
    rows = []
    for name in names:
        cells = [evaluate._cell(r.mean(name), *r.interval(name)) for r in reports.values()]
        rows.append([name, *[str(f(name)) for f in extra.values()], *cells])
    n = len(next(iter(first.scores.values())))
    return evaluate.ScoreTable(["chunking", *extra, *reports], rows,
                               f"{first.split} questions ({n}): mean [95% bootstrap interval]")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--make-cache", action="store_true",
                        help="embed every chunking of strategies() and write the cache file")
    args = parser.parse_args(argv)
    if not args.make_cache:
        parser.print_help()
        return 0
    store, texts = ChunkCache(), []
    for name, splitter in strategies().items():
        chunks = chunk_corpus(splitter, store=store)
        texts += [c.page_content for c in chunks]
        store.vectors([c.page_content for c in chunks])
        print(f"{name}: {len(chunks)} chunks, {store.misses} texts embedded so far", flush=True)
    print(f"wrote {store.save(texts=texts)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
