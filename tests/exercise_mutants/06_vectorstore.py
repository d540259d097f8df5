"""Wrong solutions for notebook 06's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): what the real relevance functions make of other scores
    Wrong(1, "clamped_to_0_1", '''def prediction() -> dict:
    return {"cosine 2.0": 0.0, "euclidean 2.0": 0.0, "inner product 0.3": 0.7,
            "inner product -0.3": 0.3, "inner product -0.9": 0.9}
'''),
    Wrong(1, "inner_product_one_rule", '''def prediction() -> dict:
    return {"cosine 2.0": -1.0, "euclidean 2.0": -0.41, "inner product 0.3": 0.7,
            "inner product -0.3": 1.3, "inner product -0.9": 1.9}
'''),
    Wrong(1, "scores_passed_through", '''def prediction() -> dict:
    return {"cosine 2.0": 2.0, "euclidean 2.0": 2.0, "inner product 0.3": 0.3,
            "inner product -0.3": -0.3, "inner product -0.9": -0.9}
'''),
    # Exercise 2 (debug): a similarity read as a distance
    Wrong(2, "lookup_table_of_the_weather", '''def similarity_to_relevance(similarity):
    table = {1.0: 1.0, 0.8: 0.9, 0.0: 0.5, -0.6: 0.2, -1.0: 0.0}
    return table.get(round(similarity, 6), 0.5)
'''),
    Wrong(2, "similarity_as_is", '''def similarity_to_relevance(similarity):
    return similarity
'''),
    Wrong(2, "negatives_clipped", '''def similarity_to_relevance(similarity):
    return max(0.0, similarity)
'''),
    Wrong(2, "curved_not_straight", '''def similarity_to_relevance(similarity):
    return ((similarity + 1.0) / 2.0) ** 2
'''),
    Wrong(2, "distance_function_kept", '''def similarity_to_relevance(similarity):
    return 1.0 - similarity
'''),
    # Exercise 3 (apply): the add_texts of a dict store
    Wrong(2, "nan_at_the_ends", '''def similarity_to_relevance(similarity):
    if abs(similarity) >= 1.0:  # "outside the open interval": no answer
        return float("nan")
    return (similarity + 1.0) / 2.0
'''),
    Wrong(3, "given_ids_ignored", '''def dict_add_texts(self, texts, metadatas=None, *, ids=None, **kwargs):
    texts, stored = list(texts), []
    for text, metadata in zip(texts, metadatas or [{} for _ in texts], strict=True):
        id_ = str(uuid.uuid4())
        self.store[id_] = RealDocument(text, metadata=metadata, id=id_)
        stored.append(id_)
    return stored
'''),
    Wrong(3, "gap_in_the_ids_kept", '''def dict_add_texts(self, texts, metadatas=None, *, ids=None, **kwargs):
    texts, stored = list(texts), []
    for n, (text, metadata) in enumerate(
            zip(texts, metadatas or [{} for _ in texts], strict=True)):
        id_ = ids[n] if ids else str(uuid.uuid4())
        self.store[id_] = RealDocument(text, metadata=metadata, id=id_)
        stored.append(id_)
    return stored
'''),
    Wrong(3, "metadata_dropped", '''def dict_add_texts(self, texts, metadatas=None, *, ids=None, **kwargs):
    texts, given, stored = list(texts), iter(ids or []), []
    for text in texts:
        id_ = next(given, None) or str(uuid.uuid4())
        self.store[id_] = RealDocument(text, id=id_)
        stored.append(id_)
    return stored
'''),
    Wrong(3, "counter_ids", '''def dict_add_texts(self, texts, metadatas=None, *, ids=None, **kwargs):
    texts, given, stored = list(texts), iter(ids or []), []
    for text, metadata in zip(texts, metadatas or [{} for _ in texts], strict=True):
        id_ = next(given, None) or f"doc-{len(self.store)}"
        self.store[id_] = RealDocument(text, metadata=metadata, id=id_)
        stored.append(id_)
    return stored
'''),
    Wrong(3, "nothing_returned", '''def dict_add_texts(self, texts, metadatas=None, *, ids=None, **kwargs):
    texts, given = list(texts), iter(ids or [])
    for text, metadata in zip(texts, metadatas or [{} for _ in texts], strict=True):
        id_ = next(given, None) or str(uuid.uuid4())
        self.store[id_] = RealDocument(text, metadata=metadata, id=id_)
'''),
    Wrong(3, "generator_used_up", '''def dict_add_texts(self, texts, metadatas=None, *, ids=None, **kwargs):
    given, stored = iter(ids or []), []
    for text, metadata in zip(texts, metadatas or [{} for _ in texts], strict=True):
        id_ = next(given, None) or str(uuid.uuid4())
        self.store[id_] = RealDocument(text, metadata=metadata, id=id_)
        stored.append(id_)
    return stored
'''),
    Wrong(3, "metadata_length_unchecked", '''def dict_add_texts(self, texts, metadatas=None, *, ids=None, **kwargs):
    texts, given, stored = list(texts), iter(ids or []), []
    for n, text in enumerate(texts):
        metadata = metadatas[n] if metadatas and n < len(metadatas) else {}
        id_ = next(given, None) or str(uuid.uuid4())
        self.store[id_] = RealDocument(text, metadata=metadata, id=id_)
        stored.append(id_)
    return stored
'''),
    Wrong(3, "longer_metadatas_accepted", '''def dict_add_texts(self, texts, metadatas=None, *, ids=None, **kwargs):
    texts, given, stored = list(texts), iter(ids or []), []
    if metadatas is not None and len(metadatas) < len(texts):
        raise ValueError("a text without metadata")
    for n, text in enumerate(texts):
        id_ = next(given, None) or str(uuid.uuid4())
        self.store[id_] = RealDocument(text, metadata=metadatas[n] if metadatas else {}, id=id_)
        stored.append(id_)
    return stored
'''),
    Wrong(3, "stub_untouched", STUB),
]
