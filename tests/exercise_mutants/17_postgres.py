"""Wrong solutions for notebook 17's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

_OPTIONS = '''def options_that_fill_k() -> HNSWQueryOptions:
    class Mine(HNSWQueryOptions):
        def to_parameter(self) -> list[str]:
            return [*super().to_parameter(), {settings}]

    return Mine()
'''

WRONG = [
    # Exercise 1 (predict): which plans the HNSW index answers
    Wrong(1, "the_cosine_function_is_the_operator", '''def index_answers() -> dict[str, bool]:
    return {"A": False, "B": True, "C": False, "D": True, "E": False}
'''),
    Wrong(1, "any_distance_uses_the_index", '''def index_answers() -> dict[str, bool]:
    return {"A": True, "B": False, "C": False, "D": True, "E": False}
'''),
    Wrong(1, "a_bigger_limit_than_ef_search_scans", '''def index_answers() -> dict[str, bool]:
    return {"A": False, "B": False, "C": False, "D": False, "E": False}
'''),
    # Exercise 2 (apply): the SQL of a filtered search
    Wrong(2, "values_pasted_with_quotes_escaped", '''def nearest_in_topics(vector, topics, k):
    listed = ", ".join("'" + t.replace("'", "''") + "'" for t in topics) or "NULL"
    rows = sql(f"SELECT langchain_id FROM python_reference WHERE topic IN ({listed})"
               f" ORDER BY embedding <=> '{vector}'::vector LIMIT {k}")
    return [row[0] for row in rows]
'''),
    Wrong(2, "values_pasted_as_they_are", '''def nearest_in_topics(vector, topics, k):
    listed = ", ".join(f"'{t}'" for t in topics) or "NULL"
    rows = sql(f"SELECT langchain_id FROM python_reference WHERE topic IN ({listed})"
               " ORDER BY embedding <=> %s::vector LIMIT %s", vector, k)
    return [row[0] for row in rows]
'''),
    Wrong(2, "farthest_first", '''def nearest_in_topics(vector, topics, k):
    rows = sql("SELECT langchain_id FROM python_reference WHERE topic = ANY(%s)"
               " ORDER BY embedding <=> %s::vector DESC LIMIT %s", topics, vector, k)
    return [row[0] for row in rows]
'''),
    Wrong(2, "first_topic_only", '''def nearest_in_topics(vector, topics, k):
    if not topics:
        return []
    rows = sql("SELECT langchain_id FROM python_reference WHERE topic = %s"
               " ORDER BY embedding <=> %s::vector LIMIT %s", topics[0], vector, k)
    return [row[0] for row in rows]
'''),
    Wrong(2, "untouched_stub_harness_skipped", STUB, forget=("sql",)),
    # Exercise 3 (debug): keep the index, get k rows
    Wrong(3, "sequential_scans_switched_off", _OPTIONS.format(
        settings='"enable_seqscan = off", "hnsw.iterative_scan = relaxed_order"')),
    Wrong(3, "ef_search_raised_to_1000", '''def options_that_fill_k() -> HNSWQueryOptions:
    return HNSWQueryOptions(ef_search=1000)
'''),
    Wrong(3, "default_options", '''def options_that_fill_k() -> HNSWQueryOptions:
    return HNSWQueryOptions()
'''),
    Wrong(3, "iterative_scan_cut_short", _OPTIONS.format(
        settings='"hnsw.iterative_scan = relaxed_order", "hnsw.max_scan_tuples = 40"')),
    Wrong(3, "index_switched_off", _OPTIONS.format(settings='"enable_indexscan = off"')),
    Wrong(3, "sequential_scans_off_in_capitals", _OPTIONS.format(
        settings='"ENABLE_SEQSCAN TO OFF", "hnsw.iterative_scan = relaxed_order"')),
    Wrong(3, "ef_search_raised_with_to", _OPTIONS.format(settings='"hnsw.ef_search TO 1000"')),
    Wrong(3, "untouched_stub", STUB),
]
