"""Make the vectors notebook 05 measures its two shortcuts with, so that it needs not embed
the corpus twice more on every run (about 75 s of CPU).

    python -m tools.minilm_variants

Writes ``src/retrieval_lab/data/python_reference_minilm_variants.npz``, for the distinct passages
of ``evaluate.corpus()`` (680, in that order):

- ``ids``: the passages' ids, and ``chunks_sha256``: their fingerprint (``corpus.chunks_sha256``),
  so a file left behind by a change to the passages is noticed, not used;
- ``cut_rows`` and ``cut128``: the positions of the passages longer than 128 word pieces and
  their MiniLM vectors when the text is cut at 128 pieces, as the shipped ``tokenizer.json``
  alone does (float32); the other passages are not cut, so their vectors are the shipped ones;
- ``tanh_delta``: every passage's vector with the tanh GELU minus the shipped (exact GELU)
  vector, in float16. The differences are below 1e-3, where float16 keeps about 1e-7: the
  shipped vector plus this difference is the tanh vector to float32's own rounding.

``tests/test_minilm.py`` re-embeds a few passages both ways and checks them against the file.
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import numpy as np

from retrieval_lab.data import corpus
from retrieval_lab.evaluation import evaluate
from retrieval_lab.models import minilm

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "src" / "retrieval_lab" / "data" / "python_reference_minilm_variants.npz"
CUT = 128


def tanh_gelu(x: np.ndarray) -> np.ndarray:
    """The tanh approximation of GELU many BERT codes use (notebook 05, Step 4)."""
    c = np.float32(np.sqrt(2 / np.pi))
    inner = c * (x + np.float32(0.044715) * x * x * x)
    return np.float32(0.5) * x * (1 + np.tanh(inner))


def pieces(texts: list[str]) -> np.ndarray:
    """Word pieces of each text, [CLS] and [SEP] included (padding left out), cut at 256."""
    encodings = minilm.load_tokenizer().encode_batch(texts)
    return np.array([sum(e.attention_mask) for e in encodings])


def encode_cut(texts: list[str], cut: int = CUT) -> np.ndarray:
    """MiniLM's vectors of texts cut at ``cut`` word pieces."""
    tokenizer = minilm.load_tokenizer()
    tokenizer.enable_truncation(max_length=cut)
    try:
        return minilm.encode(texts)
    finally:
        tokenizer.enable_truncation(max_length=minilm.MAX_TOKENS)


def encode_tanh(texts: list[str]) -> np.ndarray:
    """MiniLM's vectors with the tanh GELU in every layer."""
    with mock.patch.object(minilm, "gelu", tanh_gelu):
        return minilm.encode(texts)


def main() -> None:
    passages, vectors = evaluate.corpus()
    texts = [p.page_content for p in passages]
    long = np.flatnonzero(pieces(texts) > CUT)
    cut = encode_cut([texts[i] for i in long])
    delta = (encode_tanh(texts) - vectors).astype(np.float16)
    np.savez(
        FILE,
        ids=np.array([p.id for p in passages]),
        chunks_sha256=np.array(corpus.chunks_sha256(passages)),
        cut_rows=long.astype(np.int32),
        cut128=cut.astype(np.float32),
        tanh_delta=delta,
    )
    print(f"wrote {FILE.relative_to(ROOT)}: {len(long)} of {len(texts)} passages cut at {CUT}, "
          f"largest tanh difference {np.abs(delta).max():.1e}")


if __name__ == "__main__":
    main()
