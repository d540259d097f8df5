"""Wrong solutions for notebook 05's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): MiniLM's closest candidate in four rounds
    Wrong.edit(1, "meaning_always_wins", ('"c", 2: "b", 3: "c", 4: "a"}', '"b", 2: "a", 3: "a", 4: "b"}')),
    Wrong(1, "computed_with_minilm", '''def prediction() -> dict:
    return {n: "abc"[int(np.argmax(np.array(MiniLM().embed_documents(c)) @ np.array(
        MiniLM().embed_query(q))))] for n, (q, c) in enumerate(rounds, start=1)}
'''),
    Wrong.edit(1, "same_letter_everywhere", ('2: "b"', '2: "c"'), ('4: "a"', '4: "c"')),
    # Exercise 2 (debug): the padding mask on the wrong axis
    Wrong.edit(2, "rows_masked_as_shipped",
               ("looked_at = mask[:, None, :]  # (texts, 1, keys): the same for every row\n"
                "        scores = np.where(looked_at == 0, np.float32(-1e9), scores)",
                "scores[mask == 0] = -1e9"), hints=False),
    Wrong.edit(2, "no_mask", ("scores[mask == 0] = -1e9", "pass"), like="rows_masked_as_shipped"),
    Wrong.edit(2, "mask_on_the_rows_by_broadcast",
               ("scores[mask == 0] = -1e9",
                "scores = np.where(mask[:, :, None] == 0, np.float32(-1e9), scores)"), like="rows_masked_as_shipped"),
    Wrong.edit(2, "harness_skipped",
               ("looked_at = mask[:, None, :]  # (texts, 1, keys): the same for every row\n"
                "        scores = np.where(looked_at",
                "scores = np.where(mask[:, None, :]"), hints=False, forget=("linear",)),
    Wrong.edit(2, "scaled_by_all_384", ("math.sqrt(32)", "math.sqrt(384)"), like="harness_skipped"),
    # Exercise 3 (apply): mutual nearest neighbours
    Wrong.edit(3, "nearest_of_one_side_only",
               ("[(i, int(j)) for i, j in enumerate(nearest) if i < j and nearest[j] == i]",
                "sorted({tuple(sorted((i, int(j)))) for i, j in enumerate(nearest)})"), hints=False),
    Wrong.edit(3, "itself_as_neighbour",
               ("similarity = vectors @ vectors.T\n"
                "    np.fill_diagonal(similarity, -np.inf)  # a text is not its own neighbour\n"
                "    nearest = similarity.argmax(1)", "nearest = (vectors @ vectors.T).argmax(1)"), hints=False),
    Wrong.edit(3, "counted_words",
               ("vectors = np.array(MiniLM().embed_documents(texts))",
                "vocabulary = sorted({w for t in texts for w in words_of(t)})\n"
                "    vectors = np.array(BagOfWords(vocabulary).embed_documents(texts))\n"
                "    vectors = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)"),
               hints=False),
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
