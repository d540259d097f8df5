"""Wrong solutions for notebook 16's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): which searches are exact
    Wrong.edit(1, "a_graph_is_always_walked", ('"b": True', '"b": False')),
    Wrong.edit(1, "hnsw_ef_1_is_taken_as_exact", ('"c": False', '"c": True')),
    Wrong.edit(1, "exact_true_ignored_on_a_walked_graph", ('"d": True', '"d": False')),
    Wrong(1, "untouched_stub", STUB),
    # Exercise 2 (extend): count by a metadata key, in the engine
    Wrong.edit(2, "facet_default_limit_of_10",
               ("hits = store.shard.facet(edge.FacetRequest(key=field, limit=10_000, exact=True)).hits\n"
                "    return {hit.value: hit.count for hit in hits}",
                "return {hit.value: hit.count for hit in store.shard.facet(edge.FacetRequest(key=field)).hits}"),
               hints=False),
    Wrong.edit(2, "facet_without_a_payload_index", ("    store.shard.update(index)\n", ""), hints=False),
    Wrong(2, "untouched_stub_harness_skipped", STUB, forget=("edge",)),
]

EQUIVALENT = {
    "exercise 2, line 6: 10000 -> 10001": "any facet limit above the number of distinct values (76 at most "
    "in the check's stores) returns every value: 10,000 and 10,001 give the same counts",
    "exercise 2, line 6: True -> False": "a facet request without a filter reads each value's count off the "
    "keyword index, exact either way (checked on all 20,000 real vectors, optimised or not); exact=True "
    "matters only for a facet that carries a filter, which count_by does not",
}
