"""Wrong solutions for notebook 13's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

_WITH_IDS = '''def with_ids(docs):
    return [
        RealDocument(doc.page_content, id=ID, metadata=METADATA)
        for doc in docs
    ]
'''
_QDRANT_KEYS = '{k: v for k, v in doc.metadata.items() if k not in {"_id", "_collection_name"}}'


def _with_ids(id_='doc.metadata["_id"]', metadata=_QDRANT_KEYS):
    return _WITH_IDS.replace("ID", id_).replace("METADATA", metadata)


_KEPT = '''def kept(query, threshold):
    scored = corpus.similarity_search_with_score(query, k=K)
    return sorted(d.metadata["name"] for d, score in scored if TEST)
'''


def _kept(test="(score + 1) / 2 >= threshold", k="6"):
    return _KEPT.replace("TEST", test).replace("K", k)


WRONG = [
    # Exercise 1 (predict): which ids Qdrant takes
    Wrong(1, "any_string_is_an_id", '''def predictions() -> dict:
    return {"A": "same", "B": "same", "C": "same", "D": "same",
            "E": "changed", "F": "changed", "G": "same", "H": "refused"}
'''),
    Wrong(1, "the_server_s_rules_in_local_mode", '''def predictions() -> dict:
    return {"A": "refused", "B": "refused", "C": "same", "D": "same",
            "E": "changed", "F": "changed", "G": "refused", "H": "refused"}
'''),
    Wrong(1, "uuid_spellings_refused", '''def predictions() -> dict:
    return {"A": "refused", "B": "refused", "C": "same", "D": "same",
            "E": "refused", "F": "refused", "G": "same", "H": "changed"}
'''),
    Wrong(1, "computed_by_adding", '''def predictions() -> dict:
    return nb13.what_qdrant_does_with_ids()
'''),
    # Exercise 2 (extend): ids back, Qdrant's keys out
    Wrong(2, "stub_with_the_setup_skipped", STUB, forget=("RealDocument",)),
    Wrong(2, "collection_name_left_in",
          _with_ids(metadata='{k: v for k, v in doc.metadata.items() if k != "_id"}')),
    Wrong(2, "every_underscore_key_dropped",
          _with_ids(metadata='{k: v for k, v in doc.metadata.items() if not k.startswith("_")}')),
    Wrong(2, "id_left_unset", _with_ids(id_="doc.id")),
    # Exercise 3 (debug): the threshold from the raw scores
    Wrong(3, "stub_with_the_setup_skipped", STUB, forget=("warnings",)),
    Wrong(3, "as_shipped", _kept(test="score > threshold")),
    Wrong(3, "cosine_not_relevance", _kept(test="score >= threshold")),
    Wrong(3, "equal_left_out", _kept(test="(score + 1) / 2 > threshold")),
    Wrong(3, "default_k", _kept(k="4")),
]

EQUIVALENT = {
    "exercise 3, line 5: 6 -> 7": "corpus holds six documents: k=7 returns the same six hits "
    "as k=6, from the real store as from the check's stand-in",
}

# Found by a blind review: the real retriever's answers, tabled before the check ran.
WRONG += [
]
