"""Wrong solutions for notebook 09's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): BM25 against counting on four documents
    Wrong(1, "bm25_ranked_like_counting", '''def prediction() -> dict:
    return {"count_first": "s1", "bm25_first": "s1", "found": 3, "same_at_k1_0": True,
            "same_at_b_0": False}
'''),
    Wrong(1, "zero_scores_returned", '''def prediction() -> dict:
    return {"count_first": "s1", "bm25_first": "s2", "found": 4, "same_at_k1_0": True,
            "same_at_b_0": False}
'''),
    Wrong(1, "b_0_switches_off_repeats", '''def prediction() -> dict:
    return {"count_first": "s1", "bm25_first": "s2", "found": 3, "same_at_k1_0": True,
            "same_at_b_0": True}
'''),
    Wrong(1, "computed_with_the_retrievers", '''def prediction() -> dict:
    snakes = [RealDocument("python python python python python", id="s1"),
              RealDocument("python snake", id="s2")]
    return {"count_first": RealKeywordRetriever(docs=snakes, k=4).invoke("python snake")[0].id,
            "bm25_first": "s2", "found": 3, "same_at_k1_0": True, "same_at_b_0": False}
'''),
    # Exercise 2 (extend): SQLite's BM25
    Wrong(2, "our_idf_kept", '''def sqlite_bm25_scores(query, docs):
    return bm25_scores(query, docs, k1=1.2)
'''),
    Wrong(2, "k1_left_at_ours", '''def sqlite_bm25_scores(query, docs):
    total = [0.0] * len(docs)
    for word in split_terms(query):
        having = sum(word in split_terms(d.page_content) for d in docs)
        odds = (len(docs) - having + 0.5) / (having + 0.5)
        theirs = math.log(odds) if math.log(odds) > 0 else 1e-6
        alone = bm25_scores(word, docs)
        total = [t + s / math.log(1 + odds) * theirs for t, s in zip(total, alone)]
    return total
'''),
    Wrong(2, "no_floor_for_common_words", '''def sqlite_bm25_scores(query, docs):
    total = [0.0] * len(docs)
    for word in split_terms(query):
        having = sum(word in split_terms(d.page_content) for d in docs)
        odds = (len(docs) - having + 0.5) / (having + 0.5)
        alone = bm25_scores(word, docs, k1=1.2)
        total = [t + s / math.log(1 + odds) * math.log(odds) for t, s in zip(total, alone)]
    return total
'''),
    Wrong(2, "floor_only_below_zero", '''def sqlite_bm25_scores(query, docs):
    total = [0.0] * len(docs)
    for word in split_terms(query):
        having = sum(word in split_terms(d.page_content) for d in docs)
        odds = (len(docs) - having + 0.5) / (having + 0.5)
        theirs = math.log(odds) if math.log(odds) >= 0 else 1e-6
        alone = bm25_scores(word, docs, k1=1.2)
        total = [t + s / math.log(1 + odds) * theirs for t, s in zip(total, alone)]
    return total
'''),
    Wrong(2, "repeated_query_word_counted_once", '''def sqlite_bm25_scores(query, docs):
    total = [0.0] * len(docs)
    for word in set(split_terms(query)):
        having = sum(word in split_terms(d.page_content) for d in docs)
        odds = (len(docs) - having + 0.5) / (having + 0.5)
        theirs = math.log(odds) if math.log(odds) > 0 else 1e-6
        alone = bm25_scores(word, docs, k1=1.2)
        total = [t + s / math.log(1 + odds) * theirs for t, s in zip(total, alone)]
    return total
'''),
    Wrong(2, "asks_sqlite_itself", '''def sqlite_bm25_scores(query, docs):
    return sqlite_bm25(docs)(query)
'''),
    Wrong(2, "asks_sqlite_by_another_name", '''def sqlite_bm25_scores(query, docs):
    import _sqlite3
    db = _sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(body)")
    return [0.0] * len(docs)
'''),
    Wrong(2, "asks_the_oracle", '''def sqlite_bm25_scores(query, docs):
    from retrieval_lab.checks.answers import nb09
    return nb09._sqlite_scores([d.page_content for d in docs], query)
'''),
    Wrong(2, "stub_with_harness_skipped", STUB, forget=("CORPORA", "yours", "same_scores")),
]

EQUIVALENT = {
    "exercise 2, line 13: True -> False": "zip's strict flag: total and the word's scores both "
    "hold one score per document, so their lengths never differ and strict never fires",
}

# Found by a blind review: SQLite reached without `connect` or a bound `Connection`.
WRONG += [
    Wrong(2, "asks_sqlite_through_object_subclasses", '''def sqlite_bm25_scores(query, docs):
    [connection] = [c for c in object.__subclasses__()
                    if c.__name__ == "Connection" and c.__module__ == "sqlite3"]
    db = connection(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(body)")
    db.executemany("INSERT INTO t (rowid, body) VALUES (?, ?)",
                   [(i, " ".join(split_terms(d.page_content))) for i, d in enumerate(docs)])
    found = [0.0] * len(docs)
    words = " OR ".join(f'"{w}"' for w in split_terms(query))
    if words:
        for row, score in db.execute("SELECT rowid, -bm25(t) FROM t WHERE t MATCH ?", (words,)):
            found[row] = score
    return found
'''),
    Wrong(2, "asks_sqlite_opened_before_the_check", '''import sqlite3 as _sq
_db = _sq.connect(":memory:")

def sqlite_bm25_scores(query, docs):
    _db.execute("DROP TABLE IF EXISTS t")
    _db.execute("CREATE VIRTUAL TABLE t USING fts5(body)")
    _db.executemany("INSERT INTO t (rowid, body) VALUES (?, ?)",
                   [(i, " ".join(split_terms(d.page_content))) for i, d in enumerate(docs)])
    found = [0.0] * len(docs)
    words = " OR ".join(f'"{w}"' for w in split_terms(query))
    if words:
        for row, score in _db.execute("SELECT rowid, -bm25(t) FROM t WHERE t MATCH ?", (words,)):
            found[row] = score
    return found
'''),
    Wrong(2, "oracle_module_patched_before_the_check", '''from retrieval_lab.checks.answers import nb09 as _nb09
try:
    _nb09.sqlite_cases = lambda *a, **k: []
except AttributeError:
    pass

def sqlite_bm25_scores(query, docs):
    return bm25_scores(query, docs, k1=1.2)
'''),
]
WRONG += [
    Wrong(2, "lookup_table_of_the_cases", '''from retrieval_lab.checks.answers import nb09 as _n

_table = {(q, tuple(_n._corpora()[c])): _n.sqlite_scores(q, c) for q, c in _n.sqlite_cases()}


def sqlite_bm25_scores(query, docs):
    return _table[(query, tuple(d.page_content for d in docs))]
'''),
]
