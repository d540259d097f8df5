"""Wrong solutions for notebook 11's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): rows after deletes and upserts
    Wrong(1, "deletes_shift_rows_like_a_list", '''def rows_predicted() -> dict:
    return {
        "after deleting b": ["a", "c", "d", "e"],
        "after deleting e": ["a", "c", "d"],
        "after adding f": ["a", "c", "d", "f"],
        "after adding a again": ["a", "c", "d", "f"],
    }
'''),
    Wrong(1, "upsert_appends_again", '''def rows_predicted() -> dict:
    return {
        "after deleting b": ["a", "e", "c", "d"],
        "after deleting e": ["a", "d", "c"],
        "after adding f": ["a", "d", "c", "f"],
        "after adding a again": ["d", "c", "f", "a"],
    }
'''),
    Wrong(1, "new_id_fills_the_first_hole", '''def rows_predicted() -> dict:
    return {
        "after deleting b": ["a", "e", "c", "d"],
        "after deleting e": ["a", "d", "c"],
        "after adding f": ["a", "f", "c", "d"],
        "after adding a again": ["a", "f", "c", "d"],
    }
'''),
    Wrong(1, "computed_with_a_store", '''def rows_predicted() -> dict:
    s = MatrixVectorStore(BagOfWords())
    s.add_texts(["cat"] * 5, ids=list("abcde"))
    s.delete(["b"])
    return {"after deleting b": list(s._ids), "after deleting e": [], "after adding f": [],
            "after adding a again": []}
'''),
    # Exercise 2 (debug): positions in the filtered rows
    Wrong(2, "positions_read_as_rows", '''def top_ids(matrix, ids, query, k, keep):
    rows = [row for row, doc_id in enumerate(ids) if keep(doc_id)]
    scores = matrix[rows] @ query
    best = np.argsort(-scores, kind="stable")[:k]
    return [ids[i] for i in best]
'''),
    Wrong(2, "worst_first", '''def top_ids(matrix, ids, query, k, keep):
    rows = [row for row, doc_id in enumerate(ids) if keep(doc_id)]
    scores = matrix[rows] @ query
    best = np.argsort(scores, kind="stable")[:k]
    return [ids[rows[i]] for i in best]
'''),
    Wrong(2, "filter_applied_after_the_top_k", '''def top_ids(matrix, ids, query, k, keep):
    best = np.argsort(-(matrix @ query), kind="stable")[:k]
    return [ids[i] for i in best if keep(ids[i])]
'''),
    Wrong(2, "k_ignored", '''def top_ids(matrix, ids, query, k, keep):
    rows = [row for row, doc_id in enumerate(ids) if keep(doc_id)]
    scores = matrix[rows] @ query
    best = np.argsort(-scores, kind="stable")
    return [ids[rows[i]] for i in best]
'''),
    Wrong(2, "asks_the_real_store", '''def top_ids(matrix, ids, query, k, keep):
    real = RealInMemoryVectorStore(RowEmbeddings(matrix))
    real.add_texts([str(i) for i in range(len(ids))], ids=list(ids))
    found = real.similarity_search_by_vector(query.tolist(), k=k,
                                             filter=lambda doc: keep(doc.id))
    return [doc.id for doc in found]
'''),
    Wrong(2, "asks_the_matrix_store", '''def top_ids(matrix, ids, query, k, keep):
    store = MatrixVectorStore(RowEmbeddings(matrix, as_lists=False))
    store.add_texts([str(i) for i in range(len(ids))], ids=list(ids))
    found = store.similarity_search_by_vector(query, k=k, filter=lambda doc: keep(doc.id))
    return [doc.id for doc in found]
'''),
    Wrong(2, "asks_the_oracle", '''def top_ids(matrix, ids, query, k, keep):
    from retrieval_lab.checks.answers import nb11
    return nb11.real_top_ids(matrix, ids, query, k, keep)
'''),
    Wrong(2, "lookup_of_the_shown_cases", '''def top_ids(matrix, ids, query, k, keep):
    kept = [i for i in ids if keep(i)]
    return kept[:k]
'''),
    Wrong(2, "stub_with_harness_skipped", STUB, forget=("unit_rows", "row_ids", "probe")),
    # Exercise 3 (extend): bytes read per query
    Wrong(3, "binary_row_not_padded", '''def read_ms(n, d, gb_per_s, dtype="float32", batch=1):
    width = {"float32": 4, "float16": 2, "int8": 1, "binary": 1 / 8}
    return n * d * width[dtype] / (gb_per_s * 1e9) * 1e3 / batch
'''),
    Wrong(3, "batch_multiplies", '''def read_ms(n, d, gb_per_s, dtype="float32", batch=1):
    width = {"float32": 4, "float16": 2, "int8": 1}
    row = (d + 7) // 8 if dtype == "binary" else d * width[dtype]
    return n * row / (gb_per_s * 1e9) * 1e3 * batch
'''),
    Wrong(3, "gigabytes_as_gibibytes", '''def read_ms(n, d, gb_per_s, dtype="float32", batch=1):
    width = {"float32": 4, "float16": 2, "int8": 1}
    row = (d + 7) // 8 if dtype == "binary" else d * width[dtype]
    return n * row / (gb_per_s * 2**30) * 1e3 / batch
'''),
    Wrong(3, "seconds_not_milliseconds", '''def read_ms(n, d, gb_per_s, dtype="float32", batch=1):
    width = {"float32": 4, "float16": 2, "int8": 1}
    row = (d + 7) // 8 if dtype == "binary" else d * width[dtype]
    return n * row / (gb_per_s * 1e9) / batch
'''),
    Wrong(3, "asks_the_oracle", '''def read_ms(n, d, gb_per_s, dtype="float32", batch=1):
    from retrieval_lab.checks.answers import nb11
    return nb11.numpy_read_ms(n, d, gb_per_s, dtype, batch)
'''),
]

# Found by a blind review: the oracle reached before the check runs.
WRONG += [
    Wrong(2, "oracle_table_made_before_the_check", '''from retrieval_lab.checks.answers import nb11 as _nb11
_table = {}
for _m, _i, _q, _k, _keep in _nb11.top_ids_cases():
    _table[(_q.tobytes(), _k, tuple(_i), tuple(map(_keep, _i)))] = _nb11.real_top_ids(_m, _i, _q, _k, _keep)

def top_ids(matrix, ids, query, k, keep):
    return _table[(query.tobytes(), k, tuple(ids), tuple(map(keep, ids)))]
'''),
    Wrong(3, "oracle_swapped_for_mine_before_the_check", '''from retrieval_lab.checks.answers import nb11 as _nb11

def read_ms(n, d, gb_per_s, dtype="float32", batch=1):
    return n * d * 4 / (gb_per_s * 1e9) * 1e3 / batch

_nb11.numpy_read_ms = read_ms
'''),
]
WRONG += [
    Wrong(3, "lookup_table_of_the_cases", '''from retrieval_lab.checks.answers import nb11 as _nb11
_table = {case: _nb11.numpy_read_ms(*case) for case in _nb11.read_ms_cases()}

def read_ms(n, d, gb_per_s, dtype="float32", batch=1):
    case = (n, d, gb_per_s) if (dtype, batch) == ("float32", 1) else (n, d, gb_per_s, dtype, batch)
    return _table.get(case, _table.get((n, d, gb_per_s, dtype), 0.0))
'''),
]
WRONG += [
    Wrong(2, "real_search_rebuilt_from_its_code", '''import types as _types
from langchain_core.vectorstores import InMemoryVectorStore as _Real
from retrieval_lab.models.embeddings import RowEmbeddings as _Rows
_code = _Real._similarity_search_with_score_by_vector.__code__


def top_ids(matrix, ids, query, k, keep):
    store = _Real(_Rows(matrix))
    store.add_texts([str(i) for i in range(len(ids))], ids=list(ids))
    search = _types.FunctionType(_code, _Real._similarity_search_with_score_by_vector.__globals__)
    found = search(store, query.tolist(), k=k, filter=lambda d: keep(d.id))
    return [doc.id for doc, *_ in found]
'''),
]
