"""Wrong solutions for notebook 09's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): BM25 against counting on four documents
    Wrong.edit(1, "bm25_ranked_like_counting", ('"bm25_first": "s2"', '"bm25_first": "s1"')),
    Wrong.edit(1, "zero_scores_returned", ('"found": 3', '"found": 4')),
    Wrong.edit(1, "b_0_switches_off_repeats", ('"same_at_b_0": False', '"same_at_b_0": True')),
    # Exercise 2 (extend): SQLite's BM25
    Wrong(2, "our_idf_kept", '''def sqlite_bm25_scores(query, docs):
    return bm25_scores(query, docs, k1=1.2)
'''),
    Wrong.edit(2, "k1_left_at_ours", ("bm25_scores(word, docs, k1=1.2)", "bm25_scores(word, docs)")),
    Wrong.edit(2, "no_floor_for_common_words", ("        if theirs <= 0:\n            theirs = 1e-6\n", "")),
    Wrong.edit(2, "floor_only_below_zero", ("theirs <= 0", "theirs < 0")),
    Wrong.edit(2, "repeated_query_word_counted_once", ("in split_terms(query)", "in set(split_terms(query))")),
    Wrong(2, "stub_with_harness_skipped", STUB, forget=("CORPORA", "yours", "same_scores")),
]

EQUIVALENT = {
    "exercise 2, line 13: True -> False": "zip's strict flag: total and the word's scores both "
    "hold one score per document, so their lengths never differ and strict never fires",
}
