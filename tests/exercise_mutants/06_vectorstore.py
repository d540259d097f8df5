"""Wrong solutions for notebook 06's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): what the real relevance functions make of other scores
    Wrong.edit(1, "clamped_to_0_1", ('"cosine 2.0": -1.0', '"cosine 2.0": 0.0'),
               ('"euclidean 2.0": -0.41', '"euclidean 2.0": 0.0')),
    Wrong.edit(1, "inner_product_one_rule", ('"inner product -0.3": 0.3', '"inner product -0.3": 1.3'),
               ('"inner product -0.9": 0.9', '"inner product -0.9": 1.9')),
    Wrong(1, "scores_passed_through", '''def prediction() -> dict:
    return {"cosine 2.0": 2.0, "euclidean 2.0": 2.0, "inner product 0.3": 0.3,
            "inner product -0.3": -0.3, "inner product -0.9": -0.9}
'''),
    # Exercise 2 (debug): a similarity read as a distance
    Wrong(2, "lookup_table_of_the_weather", '''def similarity_to_relevance(similarity):
    table = {1.0: 1.0, 0.8: 0.9, 0.0: 0.5, -0.6: 0.2, -1.0: 0.0}
    return table.get(round(similarity, 6), 0.5)
'''),
    Wrong.edit(2, "similarity_as_is", ("(similarity + 1.0) / 2.0", "similarity")),
    Wrong.edit(2, "negatives_clipped", ("(similarity + 1.0) / 2.0", "max(0.0, similarity)")),
    Wrong.edit(2, "curved_not_straight", ("(similarity + 1.0) / 2.0", "((similarity + 1.0) / 2.0) ** 2")),
    Wrong.edit(2, "distance_function_kept", ("(similarity + 1.0) / 2.0", "1.0 - similarity")),
    Wrong.edit(2, "nan_at_the_ends", ("return (similarity",  # "outside the open interval": no answer
                                      'if abs(similarity) >= 1.0:\n        return float("nan")\n'
                                      "    return (similarity")),
    # Exercise 3 (apply): the add_texts of a dict store
    Wrong.edit(3, "given_ids_ignored",
               ("texts = list(texts)\n    given = iter(ids or [])\n    stored =", "texts, stored = list(texts),"),
               ("next(given, None) or str(uuid.uuid4())", "str(uuid.uuid4())"), hints=False),
    Wrong.edit(3, "gap_in_the_ids_kept",
               ("text, metadata in zip(texts, metadatas or [{} for _ in texts], strict=True):",
                "n, (text, metadata) in enumerate(\n"
                "            zip(texts, metadatas or [{} for _ in texts], strict=True)):"),
               ("id_ =", "id_ = ids[n] if ids else"), like="given_ids_ignored"),
    Wrong.edit(3, "metadata_dropped",
               ("texts = list(texts)\n    given = iter(ids or [])\n    stored = []",
                "texts, given, stored = list(texts), iter(ids or []), []"),
               ("text, metadata in zip(texts, metadatas or [{} for _ in texts], strict=True):", "text in texts:"),
               ("metadata=metadata, id=id_)", "id=id_)"), hints=False),
    Wrong.edit(3, "counter_ids",
               ("texts = list(texts)\n"
                "    given = iter(ids or [])\n"
                "    stored =",
                "texts, given, stored = list(texts), iter(ids or []),"),
               ("str(uuid.uuid4())", 'f"doc-{len(self.store)}"'), hints=False),
    Wrong.edit(3, "nothing_returned",
               ("texts = list(texts)\n    given = iter(ids or [])\n    stored = []",
                "texts, given = list(texts), iter(ids or [])"),
               ("\n        stored.append(id_)\n    return stored", ""), hints=False),
    Wrong.edit(3, "generator_used_up",
               ("texts = list(texts)\n"
                "    given = iter(ids or [])\n"
                "    stored =",
                "given, stored = iter(ids or []),"), hints=False),
    Wrong.edit(3, "metadata_length_unchecked",
               ("text in texts:",
                "n, text in enumerate(texts):\n"
                "        metadata = metadatas[n] if metadatas and n < len(metadatas) else {}"),
               ("id=id_)", "metadata=metadata, id=id_)"), like="metadata_dropped"),
    Wrong.edit(3, "longer_metadatas_accepted",
               ("for text in texts:",
                "if metadatas is not None and len(metadatas) < len(texts):\n"
                '        raise ValueError("a text without metadata")\n'
                "    for n, text in enumerate(texts):"),
               ("id=id_)", "metadata=metadatas[n] if metadatas else {}, id=id_)"), like="metadata_dropped"),
    Wrong(3, "stub_untouched", STUB),
]
