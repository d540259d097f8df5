"""Wrong solutions for notebook 07's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): the real store's surprises
    Wrong.edit(1, "k_counts_before_the_filter", ('"filtered": 3', '"filtered": 4')),
    Wrong.edit(1, "mmr_reaches_past_fetch_k", ('"short": 3', '"short": 4')),
    Wrong.edit(1, "upsert_read_as_append", ('"stored": 7', '"stored": 8')),
    # Exercise 2 (debug): redundancy against the last pick only
    Wrong.edit(2, "last_pick_only_as_shipped",
               ("chosen = [vectors[i] for i in picked]\n"
                "        redundancy = cosine_similarity(vectors, chosen).max(axis=1)",
                "redundancy = cosine_similarity(vectors, [vectors[picked[-1]]])[:, 0]")),
    Wrong.edit(2, "mean_redundancy",
               ("[vectors[picked[-1]]])[:, 0]",
                "[vectors[i] for i in picked]).mean(axis=1)"), like="last_pick_only_as_shipped"),
    Wrong.edit(2, "picks_twice",
               ("chosen = [vectors[i] for i in picked]\n        redundancy = cosine_similarity(vectors, chosen)",
                "redundancy = cosine_similarity(vectors, [vectors[i] for i in picked])"),
               ("scores[picked] = -np.inf  # never pick a document twice", "pass")),
    Wrong.edit(2, "first_pick_only",
               ("[vectors[picked[-1]]])[:,", "[vectors[picked[0]]])[:,"), like="last_pick_only_as_shipped"),
    Wrong(2, "stub_with_cosine_skipped", STUB, forget=("cosine_similarity",)),
    # Exercise 3 (debug): add_documents wrote its ids on the caller's documents
    Wrong(3, "empty_subclass", '''class SafeStore(InMemoryVectorStore):
    pass
'''),
    Wrong.edit(3, "ids_written_back_as_shipped", ("        chosen = []\n", ""), ("doc_id = ids", "doc.id = ids"),
               ("[doc_id] = dict(\n                id=doc_id,", "[doc.id] = dict(\n                id=doc.id,"),
               ("    chosen.append(doc_id)  # the caller's document keeps its own id\n        return chosen",
                "return [doc.id for doc in documents]")),
    Wrong.edit(3, "given_ids_ignored", ("ids[n] if ids else doc.id", "doc.id")),
    Wrong.edit(3, "own_ids_ignored", ("doc.id or str(uuid.uuid4())", "str(uuid.uuid4())")),
    Wrong.edit(3, "counter_not_uuid", ("str(uuid.uuid4())", "f'doc-{len(self.store)}'")),
]
