"""Wrong solutions for notebook 17's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): which plans the HNSW index answers
    Wrong.edit(1, "the_cosine_function_is_the_operator", ('"B": False', '"B": True')),
    Wrong.edit(1, "any_distance_uses_the_index", ('"A": False', '"A": True')),
    Wrong.edit(1, "a_bigger_limit_than_ef_search_scans", ('"D": True', '"D": False')),
    # Exercise 2 (apply): the SQL of a filtered search
    Wrong(2, "values_pasted_with_quotes_escaped", '''def nearest_in_topics(vector, topics, k):
    listed = ", ".join("'" + t.replace("'", "''") + "'" for t in topics) or "NULL"
    rows = sql(f"SELECT langchain_id FROM python_reference WHERE topic IN ({listed})"
               f" ORDER BY embedding <=> '{vector}'::vector LIMIT {k}")
    return [row[0] for row in rows]
'''),
    Wrong.edit(2, "values_pasted_as_they_are",
               ("\".join(\"'\" + t.replace(\"'\", \"''\") + \"'\"", "\".join(f\"'{t}'\""),
               ("'{vector}'::vector LIMIT {k}\")",
                '%s::vector LIMIT %s", vector, k)'), like="values_pasted_with_quotes_escaped"),
    Wrong.edit(2, "farthest_first", ("LIMIT", "DESC LIMIT"), hints=False),
    Wrong.edit(2, "first_topic_only",
               ("k):\n    rows", "k):\n    if not topics:\n        return []\n    rows"),
               ('ANY(%s)"', '%s"'),
               ("topics, vector,", "topics[0], vector,"), hints=False),
    Wrong(2, "untouched_stub_harness_skipped", STUB, forget=("sql",)),
    # Exercise 3 (debug): keep the index, get k rows
    Wrong.edit(3, "sequential_scans_switched_off",
               ("IterativeScan(HNSWQueryOptions):", "Mine(HNSWQueryOptions):"),
               ('"hnsw.iterative_scan', '"enable_seqscan = off", "hnsw.iterative_scan'),
               ("IterativeScan()", "Mine()")),
    Wrong(3, "ef_search_raised_to_1000", '''def options_that_fill_k() -> HNSWQueryOptions:
    return HNSWQueryOptions(ef_search=1000)
'''),
    Wrong.edit(3, "default_options",
               ("HNSWQueryOptions(ef_search=1000)", "HNSWQueryOptions()"), like="ef_search_raised_to_1000"),
    Wrong.edit(3, "iterative_scan_cut_short",
               ('"enable_seqscan = off", "hnsw.iterative_scan = relaxed_order"]',
                '"hnsw.iterative_scan = relaxed_order", "hnsw.max_scan_tuples = 40"]'),
               like="sequential_scans_switched_off"),
    Wrong.edit(3, "index_switched_off",
               ('"enable_seqscan = off", "hnsw.iterative_scan = relaxed_order"]',
                '"enable_indexscan = off"]'), like="sequential_scans_switched_off"),
    Wrong.edit(3, "sequential_scans_off_in_capitals",
               ('"enable_seqscan = off",', '"ENABLE_SEQSCAN TO OFF",'), like="sequential_scans_switched_off"),
    Wrong.edit(3, "ef_search_raised_with_to",
               ('"enable_seqscan = off", "hnsw.iterative_scan = relaxed_order"]',
                '"hnsw.ef_search TO 1000"]'), like="sequential_scans_switched_off"),
    Wrong(3, "untouched_stub", STUB),
]
