"""Wrong solutions for notebook 03's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): the real recursive splitter's chunks of MEALS.
    Wrong(1, "computed_answer", '''def prediction() -> dict:
    return {"A": len(RealRecursiveCharacterTextSplitter(chunk_size=30, chunk_overlap=10)
                     .split_text(MEALS)), "B": 4, "C": "is very cold.", "D": 37}
'''),
    Wrong.edit(1, "overlap_repeats_a_paragraph", ('"A": 2', '"A": 3')),
    Wrong.edit(1, "no_overlap_kept", ('"C": "is very cold."', '"C": "very cold."'), ('"D": 37', '"D": 40')),
    Wrong.edit(1, "search_from_the_end", ('"D": 37', '"D": 36')),
    # Exercise 2 (debug): the merge that leaves no room for the next piece.
    Wrong(2, "harness_skipped", STUB, forget=("RealCharacterTextSplitter",)),
    Wrong.edit(2, "the_bug_left_in", (" or length(start, end + 1) > chunk_size", ""), hints=False),
    Wrong.edit(2, "room_only", ("length(start, end) > chunk_overlap or ", ""), hints=False),
    Wrong.edit(2, "no_overlap_ever",
               ("while start < end and (\n"
                "                length(start, end) > chunk_overlap or length(start, end + 1) > chunk_size\n"
                "            ):",
                "while start < end:"), hints=False),
    Wrong.edit(2, "overlap_limit_off_by_one", ("end) >", "end) >="), hints=False),
    # Exercise 3 (extend): chunks with ids "<parent>#<n>" and a parent_id.
    Wrong(3, "harness_skipped", STUB, forget=("RealRecursiveCharacterTextSplitter",)),
    Wrong.edit(3, "shallow_metadata_copy", ('"a chunk can point back only to a parent with an id"', '"no id"'),
               ("chunk in enumerate(splitter.split_documents([parent])):\n"
                '            chunk.id = f"{parent.id}#{n}"\n'
                '            chunk.metadata["parent_id"] = parent.id\n'
                "            chunks.append(chunk)",
                "text in enumerate(splitter.split_text(parent.page_content)):\n"
                '            metadata = {**parent.metadata, "parent_id": parent.id}\n'
                '            chunks.append(Document(text, metadata=metadata, id=f"{parent.id}#{n}"))'), hints=False),
    Wrong.edit(3, "parents_dict_itself",
               ('{**parent.metadata, "parent_id": parent.id}',
                "parent.metadata\n"
                '            metadata["parent_id"] = parent.id'), like="shallow_metadata_copy"),
    Wrong.edit(3, "start_index_lost",
               ("def", "import copy\n\n\ndef"),
               ("{**parent.metadata,", "{**copy.deepcopy(parent.metadata),"), like="shallow_metadata_copy"),
    Wrong.edit(3, "counted_across_parents",
               ("chunks = []", "chunks, n = [], 0"),
               ('ValueError("a chunk can point back only to a parent with an id")\n'
                "        for n, chunk in enumerate(splitter.split_documents([parent])):",
                'ValueError("no id")\n'
                "        for chunk in splitter.split_documents([parent]):"),
               ("return", "        n += 1\n    return"), hints=False),
    Wrong.edit(3, "orphans_let_through",
               ("        if parent.id is None:\n"
                '            raise ValueError("a chunk can point back only to a parent with an id")\n',
                ""), hints=False),
]
