"""Wrong solutions for notebook 11's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): rows after deletes and upserts
    Wrong.edit(1, "deletes_shift_rows_like_a_list", ('"a", "e", "c", "d"', '"a", "c", "d", "e"'),
               ('e": ["a", "d", "c"]', 'e": ["a", "c", "d"]'), ('f": ["a", "d", "c"', 'f": ["a", "c", "d"'),
               ('again": ["a", "d", "c"', 'again": ["a", "c", "d"')),
    Wrong.edit(1, "upsert_appends_again",
               ('"after adding a again": ["a", "d", "c", "f"]', '"after adding a again": ["d", "c", "f", "a"]')),
    Wrong.edit(1, "new_id_fills_the_first_hole",
               ('"after adding f": ["a", "d", "c", "f"]', '"after adding f": ["a", "f", "c", "d"]'),
               ('"after adding a again": ["a", "d", "c", "f"]', '"after adding a again": ["a", "f", "c", "d"]')),
    # Exercise 2 (debug): positions in the filtered rows
    Wrong.edit(2, "positions_read_as_rows", ("[ids[rows[i]]", "[ids[i]")),
    Wrong.edit(2, "worst_first", ("np.argsort(-scores,", "np.argsort(scores,")),
    Wrong(2, "filter_applied_after_the_top_k", '''def top_ids(matrix, ids, query, k, keep):
    best = np.argsort(-(matrix @ query), kind="stable")[:k]
    return [ids[i] for i in best if keep(ids[i])]
'''),
    Wrong.edit(2, "k_ignored", ('kind="stable")[:k]', 'kind="stable")')),
    Wrong(2, "lookup_of_the_shown_cases", '''def top_ids(matrix, ids, query, k, keep):
    kept = [i for i in ids if keep(i)]
    return kept[:k]
'''),
    Wrong(2, "stub_with_harness_skipped", STUB, forget=("unit_rows", "row_ids", "probe")),
    # Exercise 3 (extend): bytes read per query
    Wrong.edit(3, "binary_row_not_padded", ("(d + 7) // 8", "d / 8")),
    Wrong.edit(3, "batch_multiplies", ("1e3 /", "1e3 *")),
    Wrong.edit(3, "gigabytes_as_gibibytes", ("1e9)", "2**30)")),
    Wrong.edit(3, "seconds_not_milliseconds", ("* 1e3 /", "/")),
]
