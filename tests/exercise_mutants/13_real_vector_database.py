"""Wrong solutions for notebook 13's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): which ids Qdrant takes
    Wrong.edit(1, "any_string_is_an_id", ('"A": "refused"', '"A": "same"'), ('"B": "refused"', '"B": "same"')),
    Wrong.edit(1, "the_server_s_rules_in_local_mode", ('"G": "same"', '"G": "refused"')),
    Wrong.edit(1, "uuid_spellings_refused", ('"E": "changed", "F": "changed"', '"E": "refused", "F": "refused"'),
               ('"H": "refused"', '"H": "changed"')),
    Wrong(1, "computed_by_adding", '''def predictions() -> dict:
    return nb13.what_qdrant_does_with_ids()
'''),
    # Exercise 2 (extend): ids back, Qdrant's keys out
    Wrong(2, "stub_with_the_setup_skipped", STUB, forget=("RealDocument",)),
    Wrong.edit(2, "collection_name_left_in",
               ('qdrant_keys = {"_id", "_collection_name"}\n    return', "return"),
               ("not in qdrant_keys}", '!= "_id"}'), hints=False),
    Wrong.edit(2, "every_underscore_key_dropped",
               ('k != "_id"}', 'not k.startswith("_")}'), like="collection_name_left_in"),
    Wrong.edit(2, "id_left_unset", ('id=doc.metadata["_id"]', "id=doc.id")),
    # Exercise 3 (debug): the threshold from the raw scores
    Wrong(3, "stub_with_the_setup_skipped", STUB, forget=("warnings",)),
    Wrong(3, "as_shipped", '''def kept(query, threshold):
    scored = corpus.similarity_search_with_score(query, k=6)
    return sorted(d.metadata["name"] for d, score in scored if score > threshold)
'''),
    Wrong.edit(3, "cosine_not_relevance", ("score >", "score >="), like="as_shipped"),
    Wrong.edit(3, "equal_left_out", ("score >", "(score + 1) / 2 >"), like="as_shipped"),
    Wrong.edit(3, "default_k", ("k=6)", "k=4)"), ("score >", "(score + 1) / 2 >="), like="as_shipped"),
]

EQUIVALENT = {
    "exercise 3, line 5: 6 -> 7": "corpus holds six documents: k=7 returns the same six hits "
    "as k=6, from the real store as from the check's stand-in",
}
