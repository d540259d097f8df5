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
    Wrong(2, "cases_swapped_before_the_check", '''from retrieval_lab.checks.answers import nb01 as _nb01

try:
    _nb01.unique_cases = lambda *a, **k: []
except AttributeError:
    pass


def unique(docs):
    return list(docs)
'''),
    Wrong(2, "lookup_table_of_the_cases", '''from retrieval_lab.checks.answers import nb01 as _n

_table = {repr(docs): [docs.index(d) for d in _n.kept_by_equality(docs)]
          for (docs,) in _n.unique_cases()}


def unique(docs):
    return [docs[i] for i in _table[repr(docs)]]
'''),
    Wrong(2, "keeps_the_last_copy", '''def unique(docs):
    kept = []
    for doc in docs:
        kept = [d for d in kept if d != doc] + [doc]
    return kept
'''),
    Wrong(2, "calls_the_oracle", '''from retrieval_lab.checks.answers import nb01


def unique(docs):
    return nb01.kept_by_equality(docs)
'''),
    Wrong(2, "oracle_code_copied_into_a_new_function", '''import types

from retrieval_lab.checks.answers import nb01

_kept = types.FunctionType(nb01.kept_by_equality.__code__, nb01.kept_by_equality.__globals__)


def unique(docs):
    return _kept(docs)
'''),
    # Exercise 3 (extend): a copy whose metadata shares nothing with the original.
    Wrong(3, "harness_skipped", STUB, forget=("RealDocument",)),
    Wrong(3, "a_class_whose_new_calls_the_reference", '''from retrieval_lab.checks.answers import nb01


class detached:  # noqa: N801 - called like the function it stands in for
    def __new__(cls, doc):
        return nb01.reference_detached(doc)
'''),
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
