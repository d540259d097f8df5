"""Wrong solutions for notebook 00's exercises: every one must be refused by its check."""

from tools.mutants import STUB, Wrong

WRONG = [
    # Exercise 1 (predict): the best chunk for three questions, and one score.
    Wrong(1, "computed_answer", '''def prediction() -> dict:
    return {key: int(store.similarity_search(q, k=1)[0].id[-1])
            for key, q in {"A": "Is my dog a python?", "B": "the python kernel",
                           "C": "Do cats and dogs like python?"}.items()} | {"score": 1.0}
'''),
    Wrong(1, "most_shared_words_wins", '''def prediction() -> dict:
    return {"A": 3, "B": 3, "C": 3, "score": 1.0}
'''),
    Wrong(1, "plurals_counted", '''def prediction() -> dict:
    return {"A": 1, "B": 2, "C": 0, "score": 1.0}
'''),
    Wrong(1, "score_halved_by_repeats", '''def prediction() -> dict:
    return {"A": 1, "B": 2, "C": 3, "score": 0.5}
'''),
    # Exercise 2 (debug): every chunk of every file, under ids stable across restarts.
    Wrong(2, "harness_skipped", STUB, forget=("splitter",)),
    Wrong(2, "the_bug_left_in", '''def build_store(files):
    file_store = InMemoryVectorStore(embedding=BagOfWords())
    for name, text in files.items():
        pieces = splitter.split_text(text)
        piece_ids = [f"chunk-{n}" for n in range(len(pieces))]
        metadatas = [{"source": name} for _ in pieces]
        file_store.add_texts(pieces, metadatas=metadatas, ids=piece_ids)
    return file_store
'''),
    Wrong(2, "ids_from_hash_of_name", '''def build_store(files):
    file_store = InMemoryVectorStore(embedding=BagOfWords())
    for name, text in files.items():
        pieces = splitter.split_text(text)
        piece_ids = [f"{hash(name)}-{n}" for n in range(len(pieces))]
        metadatas = [{"source": name} for _ in pieces]
        file_store.add_texts(pieces, metadatas=metadatas, ids=piece_ids)
    return file_store
'''),
    Wrong(2, "ids_from_text_only", '''import hashlib


def build_store(files):
    file_store = InMemoryVectorStore(embedding=BagOfWords())
    for name, text in files.items():
        pieces = splitter.split_text(text)
        piece_ids = [hashlib.sha1(p.encode()).hexdigest() for p in pieces]
        metadatas = [{"source": name} for _ in pieces]
        file_store.add_texts(pieces, metadatas=metadatas, ids=piece_ids)
    return file_store
'''),
    Wrong(2, "no_ids_at_all", '''def build_store(files):
    file_store = InMemoryVectorStore(embedding=BagOfWords())
    for name, text in files.items():
        pieces = splitter.split_text(text)
        metadatas = [{"source": name} for _ in pieces]
        file_store.add_texts(pieces, metadatas=metadatas)
    return file_store
'''),
    Wrong(2, "source_dropped", '''def build_store(files):
    file_store = InMemoryVectorStore(embedding=BagOfWords())
    for name, text in files.items():
        pieces = splitter.split_text(text)
        file_store.add_texts(pieces, ids=[f"{name}#{n}" for n in range(len(pieces))])
    return file_store
'''),
    Wrong(2, "counter_kept_between_runs", '''import itertools

_numbers = itertools.count()


def build_store(files):
    file_store = InMemoryVectorStore(embedding=BagOfWords())
    for name, text in files.items():
        pieces = splitter.split_text(text)
        piece_ids = [f"chunk-{next(_numbers)}" for _ in pieces]
        metadatas = [{"source": name} for _ in pieces]
        file_store.add_texts(pieces, metadatas=metadatas, ids=piece_ids)
    return file_store
'''),
    Wrong(2, "file_stems_as_ids", '''def build_store(files):
    file_store = InMemoryVectorStore(embedding=BagOfWords())
    for name, text in files.items():
        pieces = splitter.split_text(text)
        stem = name.rsplit(".", 1)[0]
        piece_ids = [f"{stem}#{n}" for n in range(len(pieces))]
        metadatas = [{"source": name} for _ in pieces]
        file_store.add_texts(pieces, metadatas=metadatas, ids=piece_ids)
    return file_store
'''),
]
