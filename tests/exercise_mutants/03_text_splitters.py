"""Wrong solutions for notebook 03's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

_MERGE = '''def merge(pieces, separator, chunk_size, chunk_overlap):
    def length(first, last):
        return len(separator.join(pieces[first:last]))

    chunks, start = [], 0
    for end in range(len(pieces)):
        if start < end and length(start, end + 1) > chunk_size:
            chunks.append(separator.join(pieces[start:end]))
            while {condition}:
                start += 1
    if start < len(pieces):
        chunks.append(separator.join(pieces[start:]))
    return chunks
'''

_IDS = '''def split_with_ids(splitter, documents):
    chunks = []
    for parent in documents:
        if parent.id is None:
            raise ValueError("no id")
        for n, text in enumerate(splitter.split_text(parent.page_content)):
            metadata = {metadata}
            chunks.append(Document(text, metadata=metadata, id=f"{parent.id}#{n}"))
    return chunks
'''

WRONG = [
    # Exercise 1 (predict): the real recursive splitter's chunks of MEALS.
    Wrong(1, "computed_answer", '''def prediction() -> dict:
    return {"A": len(RealRecursiveCharacterTextSplitter(chunk_size=30, chunk_overlap=10)
                     .split_text(MEALS)), "B": 4, "C": "is very cold.", "D": 37}
'''),
    Wrong(1, "overlap_repeats_a_paragraph", '''def prediction() -> dict:
    return {"A": 3, "B": 4, "C": "is very cold.", "D": 37}
'''),
    Wrong(1, "no_overlap_kept", '''def prediction() -> dict:
    return {"A": 2, "B": 4, "C": "very cold.", "D": 40}
'''),
    Wrong(1, "search_from_the_end", '''def prediction() -> dict:
    return {"A": 2, "B": 4, "C": "is very cold.", "D": 36}
'''),
    # Exercise 2 (debug): the merge that leaves no room for the next piece.
    Wrong(2, "harness_skipped", STUB, forget=("RealCharacterTextSplitter",)),
    Wrong(2, "the_bug_left_in", _MERGE.replace(
        "{condition}", "start < end and length(start, end) > chunk_overlap")),
    Wrong(2, "room_only", _MERGE.replace(
        "{condition}", "start < end and length(start, end + 1) > chunk_size")),
    Wrong(2, "no_overlap_ever", _MERGE.replace("{condition}", "start < end")),
    Wrong(2, "overlap_limit_off_by_one", _MERGE.replace(
        "{condition}", "start < end and (length(start, end) >= chunk_overlap "
                       "or length(start, end + 1) > chunk_size)")),
    # Exercise 3 (extend): chunks with ids "<parent>#<n>" and a parent_id.
    Wrong(3, "harness_skipped", STUB, forget=("RealRecursiveCharacterTextSplitter",)),
    Wrong(3, "shallow_metadata_copy", _IDS.replace(
        "{metadata}", '{**parent.metadata, "parent_id": parent.id}')),
    Wrong(3, "parents_dict_itself", _IDS.replace(
        "{metadata}", 'parent.metadata\n            metadata["parent_id"] = parent.id')),
    Wrong(3, "start_index_lost", "import copy\n\n\n" + _IDS.replace(
        "{metadata}", '{**copy.deepcopy(parent.metadata), "parent_id": parent.id}')),
    Wrong(3, "counted_across_parents", '''def split_with_ids(splitter, documents):
    chunks, n = [], 0
    for parent in documents:
        if parent.id is None:
            raise ValueError("no id")
        for chunk in splitter.split_documents([parent]):
            chunk.id = f"{parent.id}#{n}"
            chunk.metadata["parent_id"] = parent.id
            chunks.append(chunk)
            n += 1
    return chunks
'''),
    Wrong(3, "orphans_let_through", '''def split_with_ids(splitter, documents):
    chunks = []
    for parent in documents:
        for n, chunk in enumerate(splitter.split_documents([parent])):
            chunk.id = f"{parent.id}#{n}"
            chunk.metadata["parent_id"] = parent.id
            chunks.append(chunk)
    return chunks
'''),
]
