"""Wrong solutions for notebook 07's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

_FAST = '''def fast_mmr(query_vector, vectors, k, lambda_mult):
    relevance = cosine_similarity([query_vector], vectors)[0]
    picked = [int(relevance.argmax())]
    while len(picked) < min(k, len(vectors)):
        REDUNDANCY
        scores = lambda_mult * relevance - (1 - lambda_mult) * redundancy
        EXCLUDE
        picked.append(int(scores.argmax()))
    return picked
'''
_ANY = "redundancy = cosine_similarity(vectors, [vectors[i] for i in picked]).max(axis=1)"
_NOT_TWICE = "scores[picked] = -np.inf"

_STORE = '''class SafeStore(InMemoryVectorStore):
    def add_documents(self, documents, ids=None, **kwargs):
        vectors = self.embedding.embed_documents([d.page_content for d in documents])
        chosen = []
        for n, doc in enumerate(documents):
            doc_id = CHOICE
            self.store[doc_id] = dict(
                id=doc_id, vector=vectors[n], text=doc.page_content, metadata=doc.metadata,
            )
            chosen.append(doc_id)
        return chosen
'''

WRONG = [
    # Exercise 1 (predict): the real store's surprises
    Wrong(1, "k_counts_before_the_filter", '''def prediction() -> dict:
    return {"filtered": 4, "sliced": 4, "short": 3, "second": "c6", "stored": 7}
'''),
    Wrong(1, "mmr_reaches_past_fetch_k", '''def prediction() -> dict:
    return {"filtered": 3, "sliced": 4, "short": 4, "second": "c6", "stored": 7}
'''),
    Wrong(1, "upsert_read_as_append", '''def prediction() -> dict:
    return {"filtered": 3, "sliced": 4, "short": 3, "second": "c6", "stored": 8}
'''),
    # Exercise 2 (debug): redundancy against the last pick only
    Wrong(2, "last_pick_only_as_shipped", _FAST.replace(
        "REDUNDANCY", "redundancy = cosine_similarity(vectors, [vectors[picked[-1]]])[:, 0]")
        .replace("EXCLUDE", _NOT_TWICE)),
    Wrong(2, "mean_redundancy", _FAST.replace(
        "REDUNDANCY", _ANY.replace(".max(axis=1)", ".mean(axis=1)")).replace("EXCLUDE", _NOT_TWICE)),
    Wrong(2, "picks_twice", _FAST.replace("REDUNDANCY", _ANY).replace("EXCLUDE", "pass")),
    Wrong(2, "first_pick_only", _FAST.replace(
        "REDUNDANCY", "redundancy = cosine_similarity(vectors, [vectors[picked[0]]])[:, 0]")
        .replace("EXCLUDE", _NOT_TWICE)),
    Wrong(2, "stub_with_cosine_skipped", STUB, forget=("cosine_similarity",)),
    # Exercise 3 (debug): add_documents wrote its ids on the caller's documents
    Wrong(3, "empty_subclass", '''class SafeStore(InMemoryVectorStore):
    pass
'''),
    Wrong(3, "ids_written_back_as_shipped", '''class SafeStore(InMemoryVectorStore):
    def add_documents(self, documents, ids=None, **kwargs):
        vectors = self.embedding.embed_documents([d.page_content for d in documents])
        for n, doc in enumerate(documents):
            doc.id = ids[n] if ids else doc.id or str(uuid.uuid4())
            self.store[doc.id] = dict(
                id=doc.id, vector=vectors[n], text=doc.page_content, metadata=doc.metadata,
            )
        return [doc.id for doc in documents]
'''),
    Wrong(3, "given_ids_ignored", _STORE.replace("CHOICE", "doc.id or str(uuid.uuid4())")),
    Wrong(3, "own_ids_ignored", _STORE.replace("CHOICE", "ids[n] if ids else str(uuid.uuid4())")),
    Wrong(3, "counter_not_uuid", _STORE.replace(
        "CHOICE", "ids[n] if ids else doc.id or f'doc-{len(self.store)}'")),
]
