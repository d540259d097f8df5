"""Wrong solutions for notebook 00's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): the best chunk for three questions, and one score.
    Wrong(1, "computed_answer", '''def prediction() -> dict:
    return {key: int(store.similarity_search(q, k=1)[0].id[-1])
            for key, q in {"A": "Is my dog a python?", "B": "the python kernel",
                           "C": "Do cats and dogs like python?"}.items()} | {"score": 1.0}
'''),
    Wrong.edit(1, "most_shared_words_wins", ('"A": 1', '"A": 3'), ('"B": 2', '"B": 3')),
    Wrong.edit(1, "plurals_counted", ('"C": 3', '"C": 0')),
    Wrong.edit(1, "score_halved_by_repeats", ('"score": 1.0', '"score": 0.5')),
    # Exercise 2 (debug): every chunk of every file, under ids stable across restarts.
    Wrong(2, "harness_skipped", STUB, forget=("splitter",)),
    Wrong.edit(2, "the_bug_left_in", ('[f"{name}#{n}"', '[f"chunk-{n}"'), hints=False),
    Wrong.edit(2, "ids_from_hash_of_name", ('[f"{name}#{n}"', '[f"{hash(name)}-{n}"'), hints=False),
    Wrong.edit(2, "ids_from_text_only",
               ("def", "import hashlib\n\n\ndef"),
               ('[f"{name}#{n}" for n in range(len(pieces))]',
                "[hashlib.sha1(p.encode()).hexdigest() for p in pieces]"), hints=False),
    Wrong.edit(2, "no_ids_at_all",
               ('        piece_ids = [f"{name}#{n}" for n in range(len(pieces))]  # unique across files\n', ""),
               ("metadatas=metadatas, ids=piece_ids)", "metadatas=metadatas)"), hints=False),
    Wrong.edit(2, "source_dropped",
               ('metadatas = [{"source": name} for _ in pieces]\n'
                "        file_store.add_texts(pieces, metadatas=metadatas)",
                'file_store.add_texts(pieces, ids=[f"{name}#{n}" for n in range(len(pieces))])'), like="no_ids_at_all"),
    Wrong.edit(2, "counter_kept_between_runs",
               ("def", "import itertools\n\n_numbers = itertools.count()\n\n\ndef"),
               ('[f"{name}#{n}" for n in range(len(pieces))]',
                '[f"chunk-{next(_numbers)}" for _ in pieces]'), hints=False),
    Wrong.edit(2, "file_stems_as_ids",
               ('piece_ids = [f"{name}#{n}"',
                'stem = name.rsplit(".", 1)[0]\n'
                '        piece_ids = [f"{stem}#{n}"'), hints=False),
]
