"""Notebook 05's exercise checks: MiniLM's picks, the course's attention, a real store's pairs."""

from __future__ import annotations

import numpy as np
from langchain_core.vectorstores import InMemoryVectorStore

from retrieval_lab.checks.allow import Allow
from retrieval_lab.checks.answers import fresh_seed
from retrieval_lab.models import minilm
from retrieval_lab.models.embeddings import MiniLM

# Exercise 1 (predict): each round's closest candidate, as MiniLM ranks them.
ROUNDS = (
    ("The python swallowed a rabbit.", ("Python raised an exception.",
     "A big snake ate a bunny.", "The rabbit swallowed a python.")),
    ("My flight was cancelled.", ("The airline called off our plane trip.",
     "My flight was delayed.", "My order was cancelled.")),
    ("Cheap flights to Paris", ("Low-cost airfare to France's capital",
     "Cheap hotels in Paris", "Expensive flights to Paris")),
    ("The kernel died.", ("The corn kernel popped.", "My notebook crashed.",
     "The Python process stopped.")),
)


def what_minilm_picks() -> dict[int, str]:
    model, picks = MiniLM(), {}
    for n, (query, candidates) in enumerate(ROUNDS, start=1):
        q, *cands = np.array(model.embed_documents([query, *candidates]))
        picks[n] = "abc"[int(np.argmax(np.array(cands) @ q))]
    return picks


_BATCHES = (["A cat."], ["A cat.", "The cat sat on the mat because it was tired."],
            ["Fix the failing unit test.", "ok", "", "Feed the hamster daily."])
_POOL = ("Dogs bark.", "The stack trace points to line 12.", "Tea?", "I drink green tea every morning.",
         "Rename the variable before you commit the change to the repository.", "Hi", "A kitten naps.",
         "Bake the apple pie for an hour, then let it cool on the windowsill.", "Python raised.")


def attention_problems(attend) -> str | None:
    """Exercise 2 (debug): the attempt against minilm.self_attention on every real piece of batches
    that need padding (and one that does not), at layers 0 and 5, and four drawn with seed 505."""
    cases = [(list(texts), layer) for texts in _BATCHES for layer in (0, 5)]
    rng = np.random.default_rng(505)
    for _ in range(4):
        texts = [str(t) for t in rng.choice(_POOL, size=int(rng.integers(2, 5)), replace=False)]
        cases.append((texts, int(rng.integers(0, 6))))
    w = minilm.load_weights()
    for texts, layer in cases:
        batch = minilm.tokenize(texts)
        x = minilm.embed_tokens(batch.ids, w)
        for earlier in range(layer):  # the layer's real input: scores grow large in later layers
            x = minilm.encoder_layer(x, batch.mask, w, earlier)
        want = minilm.self_attention(x, batch.mask, w, layer)
        got = np.asarray(attend(x.copy(), batch.mask.copy(), layer))
        real_rows = batch.mask[:, :, None] > 0  # nothing reads a padding row
        where = f"on {texts}, layer {layer}"
        if got.shape != want.shape:
            return f"{where}: shape {got.shape}, not {want.shape}"
        if not np.isfinite(np.where(real_rows, got, 0)).all():
            return f"{where}: NaN or inf, which the next layer would spread"
        gap = float(np.abs(np.where(real_rows, got - want, 0)).max())
        if gap > 1e-5:
            return f"{where}: real pieces off by up to {gap:.2f}"
    return None


_SIX = ("The kitten sleeps on the sofa.", "A young cat naps upon a couch.", "The meal was delicious.",
        "We enjoyed a tasty dinner.", "The kernel is busy.", "The corn kernel popped.")
_PAIR_POOL = (
    "My cat sleeps all afternoon.", "The puppy chewed my shoes.", "Our parrot repeats every word.",
    "The kernel died while running the cell.", "Fix the failing unit test.", "This soup needs more salt.",
    "Fresh bread smells wonderful.", "The pasta was overcooked.", "A dog gnawed on my sneakers.",
    "The notebook's kernel crashed mid-run.", "The broth wants a pinch more salt.", "A parakeet copies what we say.",
    "The stock market fell sharply.", "Shares dropped a lot today.", "Crash log", "A puppy.",
)


def store_pairs(texts: list[str]) -> list[tuple[int, int]]:
    """Exercise 3 (apply)'s oracle: the mutual nearest neighbours, as a real store with MiniLM finds them."""
    store = InMemoryVectorStore(MiniLM())
    store.add_texts(texts, ids=[str(i) for i in range(len(texts))])
    nearest = {i: next(int(d.id) for d in store.similarity_search(text, k=2) if d.id != str(i))
               for i, text in enumerate(texts)}  # itself, then its nearest
    return sorted((i, j) for i, j in nearest.items() if i < j and nearest[j] == i)


def pair_cases(fresh: bool = True) -> list[tuple[list[str]]]:
    """The notebook's six sentences, then lists drawn here (with a seed drawn anew at each
    check) from texts the learner never sees."""
    rng = np.random.default_rng(fresh_seed(None if fresh else 5005))
    return [(list(_SIX),), (["A cat.", "A kitten.", "A stack trace.", "A puppy.", "Crash log"],)] + [
        ([str(t) for t in rng.choice(_PAIR_POOL, size=size, replace=False)],) for size in (2, 7, 9)]


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="attention_by_head", modules=["numpy", "math"], names=["linear"],
                        refuse=["self_attention", "attention_weights", "encoder_layer"]),
    "Exercise 3": Allow(answer="paraphrase_pairs", modules=["numpy", "math"], names=["MiniLM"], refuse=[
        "similarity_search", "similarity_search_with_score", "similarity_search_by_vector",
        "similarity_search_with_relevance_scores", "max_marginal_relevance_search", "as_retriever",
        "invoke", "get_by_ids", "add_texts", "add_documents", "from_texts"]),
}
