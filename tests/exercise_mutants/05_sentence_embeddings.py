"""Wrong solutions for notebook 05's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

_HEADS = '''def attention_by_head(x, mask, layer):
    p = f"encoder.layer.{layer}.attention."
    q, k, v = (linear(x, f"{p}self.{part}") for part in ("query", "key", "value"))
    heads = []
    for head in range(12):
        cols = slice(32 * head, 32 * (head + 1))
        scores = q[..., cols] @ k[..., cols].transpose(0, 2, 1) / math.sqrt(32)
        MASKING
        weights = np.exp(scores - scores.max(-1, keepdims=True))
        weights /= weights.sum(-1, keepdims=True)
        heads.append(weights @ v[..., cols])
    return linear(np.concatenate(heads, axis=-1), p + "output.dense")
'''

WRONG = [
    # Exercise 1 (predict): MiniLM's closest candidate in four rounds
    Wrong(1, "meaning_always_wins", '''def prediction() -> dict:
    return {1: "b", 2: "a", 3: "a", 4: "b"}
'''),
    Wrong(1, "computed_with_minilm", '''def prediction() -> dict:
    return {n: "abc"[int(np.argmax(np.array(MiniLM().embed_documents(c)) @ np.array(
        MiniLM().embed_query(q))))] for n, (q, c) in enumerate(rounds, start=1)}
'''),
    Wrong(1, "same_letter_everywhere", '''def prediction() -> dict:
    return {1: "c", 2: "c", 3: "c", 4: "c"}
'''),
    # Exercise 2 (debug): the padding mask on the wrong axis
    Wrong(2, "rows_masked_as_shipped", _HEADS.replace(
        "MASKING", "scores[mask == 0] = -1e9")),
    Wrong(2, "no_mask", _HEADS.replace("MASKING", "pass")),
    Wrong(2, "mask_on_the_rows_by_broadcast", _HEADS.replace(
        "MASKING", "scores = np.where(mask[:, :, None] == 0, np.float32(-1e9), scores)")),
    Wrong(2, "scaled_by_all_384", _HEADS.replace("math.sqrt(32)", "math.sqrt(384)").replace(
        "MASKING", "scores = np.where(mask[:, None, :] == 0, np.float32(-1e9), scores)")),
    Wrong(2, "harness_skipped", _HEADS.replace(
        "MASKING", "scores = np.where(mask[:, None, :] == 0, np.float32(-1e9), scores)"),
        forget=("linear",)),
    # Exercise 3 (apply): mutual nearest neighbours
    Wrong(3, "nearest_of_one_side_only", '''def paraphrase_pairs(texts):
    vectors = np.array(MiniLM().embed_documents(texts))
    similarity = vectors @ vectors.T
    np.fill_diagonal(similarity, -np.inf)
    nearest = similarity.argmax(1)
    return sorted({tuple(sorted((i, int(j)))) for i, j in enumerate(nearest)})
'''),
    Wrong(3, "itself_as_neighbour", '''def paraphrase_pairs(texts):
    vectors = np.array(MiniLM().embed_documents(texts))
    nearest = (vectors @ vectors.T).argmax(1)
    return [(i, int(j)) for i, j in enumerate(nearest) if i < j and nearest[j] == i]
'''),
    Wrong(3, "counted_words", '''def paraphrase_pairs(texts):
    vocabulary = sorted({w for t in texts for w in words_of(t)})
    vectors = np.array(BagOfWords(vocabulary).embed_documents(texts))
    vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    similarity = vectors @ vectors.T
    np.fill_diagonal(similarity, -np.inf)
    nearest = similarity.argmax(1)
    return [(i, int(j)) for i, j in enumerate(nearest) if i < j and nearest[j] == i]
'''),
    Wrong(3, "stub_untouched", STUB),
]

# Mutants of the solutions that change nothing a check could see (tools/mutation.py).
EQUIVALENT = {
    "exercise 2, line 6: 12 -> 13": (
        "a thirteenth head slices columns 384 to 416 of a 384-wide array: an empty slice, so it "
        "adds a (texts, pieces, 0) block and the concatenation is unchanged"),
    "exercise 2, line 11: Sub -> Add": (
        "softmax is the same whatever constant each row is shifted by; subtracting the row's "
        "maximum only keeps exp from overflowing, which needs float32 scores above about 44; "
        "between real pieces this model's scores stay below 30 (28 in the first layer, under 10 "
        "after it, on the check's batches with each layer's real input)"),
    "exercise 2, line 10: 1000000000.0 -> 1000000001.0": (
        "any large negative score gives a padding key weight 0 after exp: -1e9 and -1e9-1 are "
        "both exactly 0 in float32 arithmetic"),
    "exercise 3, line 7: Lt -> LtE": (
        "i == j cannot happen: the diagonal is -inf, so no text is its own nearest neighbour"),
}
