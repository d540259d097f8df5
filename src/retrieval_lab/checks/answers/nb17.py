"""Notebook 17's exercise checks, on a Postgres server of their own.

The checks never touch the notebook's server or names: a private server (started the first time
a check needs it, stopped when Python exits) holds the same table - the 781 passages, their
MiniLM vectors, the same HNSW index - so a skipped cell cannot make a check agree.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from retrieval_lab.checks.allow import Allow
from retrieval_lab.data.corpus import python_reference_chunks, python_reference_vectors
from retrieval_lab.engines.postgres import start_postgres
from retrieval_lab.models.embeddings import LookupEmbeddings, MiniLM

TABLE = "python_reference"
QUESTION = "Is the order of keys in a dictionary kept?"
STORE_QUERY = f"SELECT langchain_id FROM {TABLE} ORDER BY embedding <=> %s::vector LIMIT 4"
FILTERED = STORE_QUERY.replace("ORDER", "WHERE topic = 'debugger' ORDER")
SEQSCAN_OFF = "enable_seqscan = off"


@functools.cache
def _passages() -> tuple[list[Any], np.ndarray]:
    """The passages, and their vectors as notebook 17 stores them (a repeated text: its first)."""

    passages, vectors = python_reference_chunks(), python_reference_vectors()
    first: dict[str, int] = {}
    rows = [first.setdefault(p.page_content, i) for i, p in enumerate(passages)]
    return passages, np.asarray(vectors[rows], dtype=np.float32)


@functools.cache
def _question_vector() -> list[float]:

    return list(MiniLM().embed_query(QUESTION))


@functools.cache
def _mirror() -> tuple[Any, Any]:
    """(server, engine): a private Postgres with the notebook's table and HNSW index."""
    from langchain_postgres import Column, PGEngine, PGVectorStore
    from langchain_postgres.v2.indexes import HNSWIndex


    server = start_postgres()
    with server.connect() as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    engine = PGEngine.from_connection_string(server.url, pool_pre_ping=True)
    engine.init_vectorstore_table(TABLE, vector_size=384, id_column=Column("langchain_id", "VARCHAR"),
                                  metadata_columns=[Column("topic", "TEXT")])
    passages, vectors = _passages()
    store = PGVectorStore.create_sync(engine, embedding_service=LookupEmbeddings({QUESTION: _question_vector()}),
                                      table_name=TABLE, metadata_columns=["topic"])
    store.add_embeddings(texts=[p.page_content for p in passages], embeddings=vectors.tolist(),
                         metadatas=[p.metadata for p in passages], ids=[p.id for p in passages])
    store.apply_vector_index(HNSWIndex(m=16, ef_construction=64))
    return server, engine


def _plan(query: str, *params: Any, settings: tuple[str, ...] = (), first: tuple[str, ...] = ()) -> str:
    """EXPLAIN (COSTS OFF) on the private server, in a transaction rolled back at once."""
    server, _ = _mirror()
    server.start()
    with server.connect(autocommit=False) as conn:
        for statement in [f"SET LOCAL {s}" for s in settings] + list(first):
            conn.execute(statement)
        rows = conn.execute("EXPLAIN (COSTS OFF) " + query, params).fetchall()
        conn.rollback()
    return "\n".join(row[0] for row in rows)


# ----------------------------------------------------------------- Exercise 1: predict

_ORDERS = {
    "A": "embedding <-> %s::vector LIMIT 4",
    "B": "cosine_distance(embedding, %s::vector) LIMIT 4",
    "C": "embedding <=> %s::vector DESC LIMIT 4",
    "D": "embedding <=> %s::vector LIMIT 50",
    "E": "embedding <=> %s::vector LIMIT 4",
}


@functools.cache
def index_plans_truth() -> dict[str, bool]:
    """For each letter, whether EXPLAIN shows an Index Scan (sequential scans switched off)."""
    vector = str(_question_vector())
    answers = {}
    for letter, order in _ORDERS.items():
        drop = (f"DROP INDEX {TABLE}langchainvectorindex",) if letter == "E" else ()
        shown = _plan(f"SELECT langchain_id FROM {TABLE} ORDER BY {order}", vector,
                      settings=(SEQSCAN_OFF,), first=drop)
        answers[letter] = "Index Scan" in shown
    return answers


# ----------------------------------------------------------------- Exercise 2: apply


def nearest_cases() -> list[tuple[str, list[str], int]]:
    """(vector, topics, k): vectors near passages (seeded noise), topics drawn from the table's,
    k from 1 to 9; one topic list is empty, one holds a quote, one topic has fewer rows than k."""
    passages, vectors = _passages()
    topics = sorted({p.metadata["topic"] for p in passages})
    draw = random.Random(1616)
    noise = np.random.default_rng(1616)
    cases = []
    for n in range(7):
        row = vectors[draw.randrange(len(vectors))] + noise.normal(0, 0.02, vectors.shape[1])
        row = (row / np.linalg.norm(row)).astype(np.float32)
        chosen = draw.sample(topics, draw.randint(1, 4))
        if n == 2:
            chosen = [*chosen, "it's"]  # no such topic; pasted into SQL, the quote breaks it
        if n == 5:
            chosen = []
        cases.append((str([round(float(x), 6) for x in row]), chosen, draw.randint(1, 9)))
    rare = min(topics, key=lambda t: sum(p.metadata["topic"] == t for p in passages))
    cases.append((cases[0][0], [rare], 9))
    return cases


def nearest_oracle(vector: str, topics: list[str], k: int) -> tuple[list[str], dict[str, float]]:
    """The ids exact search finds (numpy, float64), and every candidate's cosine distance."""
    passages, vectors = _passages()
    query = np.asarray(json.loads(vector), dtype=np.float64)
    kept = [i for i, p in enumerate(passages) if p.metadata["topic"] in set(topics)]
    rows = vectors[kept].astype(np.float64)
    cosine = rows @ query / (np.linalg.norm(rows, axis=1) * np.linalg.norm(query))
    distance = {passages[i].id: float(1 - c) for i, c in zip(kept, cosine, strict=True)}
    ranked = sorted(distance, key=lambda doc_id: (distance[doc_id], doc_id))
    return ranked[:k], distance


def _same_nearest(got: Any, expected: tuple[list[str], dict[str, float]]) -> bool:
    """The same ids in the same order, or an order that differs only among equal distances."""
    ids, distance = expected
    if not isinstance(got, list) or len(got) != len(ids) or len(set(got)) != len(got):
        return False
    if any(doc_id not in distance for doc_id in got):
        return False
    return all(abs(distance[g] - distance[e]) < 1e-5 for g, e in zip(got, ids, strict=True))


@contextmanager
def _statements() -> Iterator[list[tuple[str, Any]]]:
    """Every (query text, parameters) that psycopg sends while the block runs."""
    import psycopg

    sent: list[tuple[str, Any]] = []
    original = psycopg.Cursor.execute

    def execute(self: Any, query: Any, params: Any = None, **kwargs: Any) -> Any:
        sent.append((query if isinstance(query, str) else repr(query), params))
        return original(self, query, params, **kwargs)

    psycopg.Cursor.execute = execute
    try:
        yield sent
    finally:
        psycopg.Cursor.execute = original


def _pasted(sent: list[tuple[str, Any]], vector: str, topics: list[str], k: int) -> str | None:
    """What is wrong with the SQL sent: no search of the table sent with the values as its
    parameters, or a value pasted into a statement's text."""
    asked = [(q, p) for q, p in sent if re.search(r"\bselect\b", q, re.I)]
    number = re.search(r"-?\d+\.\d{3,}", vector)
    for query, _ in asked:
        pasted = [t for t in topics if len(t) > 2 and t in query]
        if pasted or (number and number.group() in query) or re.search(r"\blimit\s+\d", query, re.I):
            return ("a value is pasted into your SQL's text: write %s where each value goes and "
                    "pass the values to sql(...), so no value can change the statement")
    searches = [(q, list(p.values()) if isinstance(p, dict) else list(p or ())) for q, p in asked
                if TABLE in q]
    if not searches:
        return "your function sent no SELECT on python_reference to the server: run the SQL with sql(...)"
    if not any(vector in p and list(topics) in p and k in p for _, p in searches):
        return "your SELECT was not sent with the vector, the topics and k as its parameters (%s)"
    return None


def nearest_problems(attempt: Callable[..., Any]) -> str | None:
    """The learner's function on every case (the store's searches refused by the allowlist),
    its SQL read as psycopg sends it."""
    for vector, topics, k in nearest_cases():
        with _statements() as sent:
            got = attempt(vector, topics, k)
        want = nearest_oracle(vector, topics, k)  # only after the learner's code returned
        shown = f"topics={topics!r}, k={k}"
        wrong_sql = _pasted(sent, vector, topics, k)
        if wrong_sql:
            return f"{wrong_sql} (on {shown})"
        if not _same_nearest(got, want):
            return f"on {shown} your function returned {got!r}: not the k nearest of those topics"
    return None


# ----------------------------------------------------------------- Exercise 3: debug

MAX_EF_SEARCH = 100
_TOPICS = (("debugger", 4), ("import", 4), ("naming", 6), ("compound", 8))


def _applied(settings: list[str]) -> dict[str, str] | str:
    """What the server's settings are after ``SET LOCAL`` of each of the learner's (read back with
    SHOW, so spelling, case and ``TO`` make no difference), or what was wrong with one."""
    server, _ = _mirror()
    server.start()
    with server.connect(autocommit=False) as conn:
        try:
            for setting in settings:
                conn.execute(f"SET LOCAL {setting}")
            return {name: conn.execute(f"SHOW {name}").fetchone()[0]
                    for name in ("enable_seqscan", "hnsw.ef_search")}
        except Exception as exc:  # the server's own complaint about a setting
            return f"the server refused one of your settings ({type(exc).__name__}: {str(exc).splitlines()[0]})"
        finally:
            conn.rollback()


def fill_problems(options: Any) -> str | None:
    """The learner's query options on the private table: the index still used, k rows of the topic.

    The table is small, so the planner would scan it anyway; the check switches sequential scans
    off itself, standing in for a table big enough that the planner takes the index.
    """
    from langchain_postgres import PGVectorStore
    from langchain_postgres.v2.indexes import QueryOptions


    if not isinstance(options, QueryOptions):
        return f"expected query options (a QueryOptions, such as HNSWQueryOptions), got {type(options).__name__}"
    settings = [" ".join(str(s).split()) for s in options.to_parameter()]
    applied = _applied(settings)
    if isinstance(applied, str):
        return applied
    if applied["enable_seqscan"] != "on":
        return ("your options switch sequential scans off, which is never a production setting: the "
                "check does that itself here, standing in for a table big enough that the planner "
                "takes the index")
    ef = int(applied["hnsw.ef_search"])
    if ef > MAX_EF_SEARCH:
        return (f"ef_search = {ef}: every search, filtered or not, would then keep {ef} candidates; "
                f"keep it at most {MAX_EF_SEARCH}")

    class Forced(QueryOptions):
        def to_parameter(self) -> list[str]:
            return [SEQSCAN_OFF, *settings]

        def to_string(self) -> str:
            return ", ".join(self.to_parameter())

    if "Index Scan" not in _plan(FILTERED, str(_question_vector()), settings=tuple(Forced().to_parameter())):
        return "with your options the search no longer uses the index"
    _, engine = _mirror()
    tested = PGVectorStore.create_sync(
        engine, embedding_service=LookupEmbeddings({QUESTION: _question_vector()}), table_name=TABLE,
        metadata_columns=["topic"], index_query_options=Forced(),
    )
    for topic, k in _TOPICS:
        hits = tested.similarity_search(QUESTION, k=k, filter={"topic": topic})
        if len(hits) < k or {d.metadata["topic"] for d in hits} != {topic}:
            return f"topic {topic!r}, k={k}: {len(hits)} documents of that topic came back"
    return None



#: What each exercise's answer may use (checks/allow.py reads its cell before it runs).
ALLOWED = {
    "Exercise 2": Allow(
        answer="nearest_in_topics",
        names=["sql"],
        refuse=["similarity_search", "similarity_search_with_score", "similarity_search_by_vector",
                "similarity_search_with_relevance_scores", "max_marginal_relevance_search",
                "as_retriever", "invoke", "get_by_ids", "asimilarity_search",
                "asimilarity_search_by_vector"],
    ),
    "Exercise 3": Allow(answer="options_that_fill_k", names=["HNSWQueryOptions"]),
}
