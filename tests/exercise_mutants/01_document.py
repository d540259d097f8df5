"""Wrong solutions for notebook 01's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): which pairs of real Documents are equal.
    Wrong(1, "computed_answer", '''def predicted_equal() -> dict:
    return {name: left == right for name, (left, right) in pairs.items()}
'''),
    Wrong.edit(1, "all_equal", ('"D": False', '"D": True'), ('"E": False', '"E": True')),
    Wrong.edit(1, "types_matter", ('"A": True', '"A": False'), ('"B": True', '"B": False')),
    Wrong.edit(1, "tuple_equals_list", ('"E": False', '"E": True')),
    # Exercise 2 (debug): remove repeats as == judges them.
    Wrong(2, "harness_skipped", STUB, forget=("pairs",)),
    Wrong.edit(2, "printed_form_key", ("kept = []", "seen, kept = set(), []"),
               ("if doc not in kept:  # `in` asks ==, the equality of Step 5",
                "key = str(doc)\n        if key not in seen:\n            seen.add(key)"), hints=False),
    Wrong.edit(2, "repr_key", ("str(doc)", "repr(doc)"), like="printed_form_key"),
    Wrong.edit(2, "json_sorted_key",
               ("def", "import json\n\n\ndef"),
               ("str(doc)",
                "json.dumps([doc.page_content, doc.metadata, doc.id], sort_keys=True, default=str)"),
               like="printed_form_key"),
    Wrong.edit(2, "freeze_key_writes_lists_as_json",
               ("def",
                "import json\n\n\n"
                "def freeze(value):\n"
                "    if isinstance(value, dict):\n"
                "        return frozenset((k, freeze(v)) for k, v in value.items())\n"
                "    if isinstance(value, list | tuple):\n"
                "        return (type(value).__name__, json.dumps(value, default=str))\n"
                "    return value\n\n\n"
                "def"),
               ("str(doc)", "(doc.page_content, doc.id, freeze(doc.metadata))"), like="printed_form_key"),
    Wrong.edit(2, "freeze_key_lists_as_tuples", ("import json\n\n\n", ""),
               ("(type(value).__name__, json.dumps(value, default=str))", "tuple(freeze(v) for v in value)"),
               like="freeze_key_writes_lists_as_json"),
    Wrong.edit(2, "freeze_key_sets_as_sorted_tuples",
               ("frozenset((k, freeze(v)) for k, v in value.items())",
                '("dict", frozenset((k, freeze(v)) for k, v in value.items()))'),
               ("return tuple(freeze(v) for v in value)",
                "return (type(value).__name__, tuple(freeze(v) for v in value))\n"
                "    if isinstance(value, set | frozenset):\n"
                '        return ("tuple", tuple(sorted(freeze(v) for v in value)))'),
               like="freeze_key_lists_as_tuples"),
    Wrong.edit(2, "keeps_the_last_copy",
               ("if doc not in kept:  # `in` asks ==, the equality of Step 5\n"
                "            kept.append(doc)",
                "kept = [d for d in kept if d != doc] + [doc]"), hints=False),
    # Exercise 3 (extend): a copy whose metadata shares nothing with the original.
    Wrong(3, "harness_skipped", STUB, forget=("RealDocument",)),
    Wrong(3, "same_object", '''def detached(doc):
    return doc
'''),
    Wrong.edit(3, "shallow_copy",
               ("doc\n", "Document(doc.page_content, metadata=dict(doc.metadata), id=doc.id)\n"), like="same_object"),
    Wrong.edit(3, "one_level_deeper",
               ("return Document(doc.page_content, metadata=copy.deepcopy(doc.metadata),",
                "metadata = {key: copy.copy(value) for key, value in doc.metadata.items()}\n"
                "    return Document(doc.page_content, metadata=metadata,"), hints=False),
    Wrong.edit(3, "json_round_trip",
               ("import copy", "import json"),
               ("detached(doc):", "detached(doc):\n    metadata = json.loads(json.dumps(doc.metadata, default=list))"),
               ("metadata=copy.deepcopy(doc.metadata),", "metadata=metadata,"), hints=False),
    Wrong.edit(3, "tuples_left_as_they_are",
               ("import copy",
                "def copied(value):\n"
                "    if isinstance(value, dict):\n"
                "        return {key: copied(item) for key, item in value.items()}\n"
                "    if isinstance(value, list):\n"
                "        return [copied(item) for item in value]\n"
                "    if isinstance(value, set):\n"
                "        return set(value)\n"
                "    return value"),
               ("metadata=copy.deepcopy(doc.metadata),", "metadata=copied(doc.metadata),"), hints=False),
    Wrong.edit(3, "id_forgotten",
               ("metadata=copy.deepcopy(doc.metadata), id=doc.id)",
                "metadata=copy.deepcopy(doc.metadata))"), hints=False),
]
