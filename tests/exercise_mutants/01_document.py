"""Wrong solutions for notebook 01's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

_UNIQUE = '''def unique(docs):
    seen, kept = set(), []
    for doc in docs:
        key = {key}
        if key not in seen:
            seen.add(key)
            kept.append(doc)
    return kept
'''

WRONG = [
    # Exercise 1 (predict): which pairs of real Documents are equal.
    Wrong(1, "computed_answer", '''def predicted_equal() -> dict:
    return {name: left == right for name, (left, right) in pairs.items()}
'''),
    Wrong(1, "all_equal", '''def predicted_equal() -> dict:
    return {"A": True, "B": True, "C": True, "D": True, "E": True, "F": True}
'''),
    Wrong(1, "types_matter", '''def predicted_equal() -> dict:
    return {"A": False, "B": False, "C": True, "D": False, "E": False, "F": True}
'''),
    Wrong(1, "tuple_equals_list", '''def predicted_equal() -> dict:
    return {"A": True, "B": True, "C": True, "D": False, "E": True, "F": True}
'''),
    # Exercise 2 (debug): remove repeats as == judges them.
    Wrong(2, "harness_skipped", STUB, forget=("pairs",)),
    Wrong(2, "printed_form_key", _UNIQUE.replace("{key}", "str(doc)")),
    Wrong(2, "repr_key", _UNIQUE.replace("{key}", "repr(doc)")),
    Wrong(2, "json_sorted_key", "import json\n\n\n" + _UNIQUE.replace(
        "{key}", "json.dumps([doc.page_content, doc.metadata, doc.id], sort_keys=True, "
                 "default=str)")),
    Wrong(2, "freeze_key_writes_lists_as_json", '''import json


def freeze(value):
    if isinstance(value, dict):
        return frozenset((k, freeze(v)) for k, v in value.items())
    if isinstance(value, list | tuple):
        return (type(value).__name__, json.dumps(value, default=str))
    return value


def unique(docs):
    seen, kept = set(), []
    for doc in docs:
        key = (doc.page_content, doc.id, freeze(doc.metadata))
        if key not in seen:
            seen.add(key)
            kept.append(doc)
    return kept
'''),
    Wrong(2, "freeze_key_lists_as_tuples", '''def freeze(value):
    if isinstance(value, dict):
        return frozenset((k, freeze(v)) for k, v in value.items())
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    return value


def unique(docs):
    seen, kept = set(), []
    for doc in docs:
        key = (doc.page_content, doc.id, freeze(doc.metadata))
        if key not in seen:
            seen.add(key)
            kept.append(doc)
    return kept
'''),
    Wrong(2, "freeze_key_sets_as_sorted_tuples", '''def freeze(value):
    if isinstance(value, dict):
        return ("dict", frozenset((k, freeze(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(freeze(v) for v in value))
    if isinstance(value, set | frozenset):
        return ("tuple", tuple(sorted(freeze(v) for v in value)))
    return value


def unique(docs):
    seen, kept = set(), []
    for doc in docs:
        key = (doc.page_content, doc.id, freeze(doc.metadata))
        if key not in seen:
            seen.add(key)
            kept.append(doc)
    return kept
'''),
    Wrong(2, "keeps_the_last_copy", '''def unique(docs):
    kept = []
    for doc in docs:
        kept = [d for d in kept if d != doc] + [doc]
    return kept
'''),
    # Exercise 3 (extend): a copy whose metadata shares nothing with the original.
    Wrong(3, "harness_skipped", STUB, forget=("RealDocument",)),
    Wrong(3, "same_object", '''def detached(doc):
    return doc
'''),
    Wrong(3, "shallow_copy", '''def detached(doc):
    return Document(doc.page_content, metadata=dict(doc.metadata), id=doc.id)
'''),
    Wrong(3, "one_level_deeper", '''import copy


def detached(doc):
    metadata = {key: copy.copy(value) for key, value in doc.metadata.items()}
    return Document(doc.page_content, metadata=metadata, id=doc.id)
'''),
    Wrong(3, "json_round_trip", '''import json


def detached(doc):
    metadata = json.loads(json.dumps(doc.metadata, default=list))
    return Document(doc.page_content, metadata=metadata, id=doc.id)
'''),
    Wrong(3, "tuples_left_as_they_are", '''def copied(value):
    if isinstance(value, dict):
        return {key: copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [copied(item) for item in value]
    if isinstance(value, set):
        return set(value)
    return value


def detached(doc):
    return Document(doc.page_content, metadata=copied(doc.metadata), id=doc.id)
'''),
    Wrong(3, "id_forgotten", '''import copy


def detached(doc):
    return Document(doc.page_content, metadata=copy.deepcopy(doc.metadata))
'''),
]
