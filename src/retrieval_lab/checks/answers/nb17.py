"""Notebook 17's exercise checks, on a private Postgres server (started by the first check that
needs it, stopped at exit) with the notebook's table - 781 passages, MiniLM vectors, HNSW index - so
a skipped cell cannot make a check agree. It logs each statement it runs with its parameters: the SQL
is judged as the server executed it, not as a client sent it."""

from __future__ import annotations

import functools
import inspect
import json
import random
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from retrieval_lab.checks.allow import Allow
from retrieval_lab.data.corpus import python_reference_chunks, python_reference_vectors
from retrieval_lab.engines.postgres import start_postgres
from retrieval_lab.models.embeddings import LookupEmbeddings, MiniLM

TABLE = "python_reference"
QUESTION = "Is the order of keys in a dictionary kept?"
SEQSCAN_OFF = "enable_seqscan = off"
_EXECUTED = "ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF"  # EXPLAIN of the plan run
LEARNER = "learner"  # the role the learner's SQL runs as


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
    """(server, engine): a private Postgres with the notebook's table and index, logging each statement."""
    from langchain_postgres import Column, PGEngine, PGVectorStore
    from langchain_postgres.v2.indexes import HNSWIndex

    server = start_postgres(settings={"log_statement": "all", "log_line_prefix": ""})
    with server.connect() as conn:  # the learner's SQL runs as a role that may only read the tables
        conn.execute(f"CREATE EXTENSION IF NOT EXISTS vector; CREATE ROLE {LEARNER} LOGIN; "
                     f"ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO {LEARNER}")
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


def _run(query: str, params: Any = None, *, settings: tuple[str, ...] = (), first: tuple[str, ...] = (),
         user: str = "postgres") -> list[tuple]:
    """Rows of ``query`` on the private server after ``SET LOCAL`` of each setting and ``first``, rolled back."""
    server, _ = _mirror()
    server.start()
    with server.connect(autocommit=False, user=user) as conn:
        for statement in [f"SET LOCAL {s}" for s in settings] + list(first):
            conn.execute(statement)
        cursor = conn.execute(query, params)
        rows = cursor.fetchall() if cursor.description else []
        conn.rollback()
    return rows


def _plan(query: str, params: Any = None, explain: str = "COSTS OFF", **kwargs: Any) -> str:
    """The plan of ``query`` on the private server (``_run``'s settings and ``first``)."""
    return "\n".join(row[0] for row in _run(f"EXPLAIN ({explain}) {query}", params, **kwargs))


_ENTRY = re.compile(r"^[A-Z]+:  ", re.M)  # LOG:, DETAIL:, ERROR: ... at the start of a line
_PARAMETER = re.compile(r"\$(\d+) = ('(?:[^']|'')*'|NULL)")


def _executed(position: int) -> list[tuple[str, dict[str, str | None]]]:
    """Each statement the server ran after ``position`` in its log, as psycopg would run it again: text
    ($1 as %(p1)s, % as %%) and parameters ({"p1": "3"}). A continued line starts with a tab: no SQL forges one."""
    ran: list[tuple[str, dict[str, str | None]]] = []
    for entry in _ENTRY.split(_mirror()[0].log_since(position)):
        entry = entry.replace("\n\t", "\n").strip()
        if found := re.match(r"(?:execute [^:]*|statement): (.*)", entry, re.S):
            ran.append((re.sub(r"\$(\d+)", r"%(p\1)s", found.group(1).replace("%", "%%")), {}))
        elif entry.startswith("Parameters: ") and ran:
            ran[-1][1].update({f"p{n}": None if v == "NULL" else v[1:-1].replace("''", "'")
                               for n, v in _PARAMETER.findall(entry)})
    return ran


_ORDERS = {"A": "embedding <-> %s::vector LIMIT 4", "B": "cosine_distance(embedding, %s::vector) LIMIT 4",
           "C": "embedding <=> %s::vector DESC LIMIT 4", "D": "embedding <=> %s::vector LIMIT 50",
           "E": "embedding <=> %s::vector LIMIT 4"}  # E: with the index dropped


@functools.cache
def index_plans_truth() -> dict[str, bool]:
    """Exercise 1 (predict): for each letter, whether EXPLAIN shows an Index Scan (sequential scans off)."""
    vector, drop = str(_question_vector()), (f"DROP INDEX {TABLE}langchainvectorindex",)
    return {letter: "Index Scan" in _plan(f"SELECT langchain_id FROM {TABLE} ORDER BY {order}", (vector,),
                                          settings=(SEQSCAN_OFF,), first=drop if letter == "E" else ())
            for letter, order in _ORDERS.items()}


def nearest_cases() -> list[tuple[str, list[str], int]]:
    """(vector, topics, k): vectors near passages (seeded noise), topics drawn from the table's,
    k from 1 to 9; one topic list is empty, one holds a quote, one topic has fewer rows than k."""
    passages, vectors = _passages()
    topics = sorted({p.metadata["topic"] for p in passages})
    draw, noise, cases = random.Random(1616), np.random.default_rng(1616), []
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
    return (isinstance(got, list) and len(got) == len(ids) == len(set(got)) and all(g in distance for g in got)
            and all(abs(distance[g] - distance[e]) < 1e-5 for g, e in zip(got, ids, strict=True)))


def _sql_problem(ran: list[tuple[str, dict[str, Any]]], case: tuple[str, list[str], int],
                 other: tuple[str, list[str], int]) -> str | None:
    """What is wrong with the SQL the server ran for ``case``: no SELECT on the table, none that got the
    three values as parameters, or none that answers ``other`` run again with its values (a pasted one stays)."""
    searches = [(text, params) for text, params in ran if TABLE in text and re.search(r"\bselect\b", text, re.I)]
    if not searches:
        return "your function ran no SELECT on python_reference through sql(...)"
    [(vector, topics)] = _run("SELECT %s::vector::text, %s::text[]::text", case[:2])  # as the server prints them
    forms, carried = {case[0]: 0, vector: 0, topics: 1, str(case[2]): 2}, False  # value -> its place in a case
    for text, params in searches:
        roles = {name: forms[value] for name, value in params.items() if value in forms}
        if set(roles.values()) == {0, 1, 2}:
            carried = True
            try:
                rows = _run(text, {name: other[roles[name]] if name in roles else value
                                   for name, value in params.items()}, user=LEARNER)
            except Exception:  # a statement that cannot run again answers nothing
                rows = []
            if any(_same_nearest([row[i] for row in rows], nearest_oracle(*other))
                   for i in range(len(rows[0]) if rows else 1)):
                return None
    if not carried:
        return ("your SELECT did not reach the server with the vector, the topics and k as its "
                "parameters: write %s where each value goes and pass the values to sql(...)")
    return ("the server ran your SELECT again with other values as its parameters, and it did not answer "
            "for them: a value is written into its text; write %s where each value goes and pass the "
            "values to sql(...), so no value can change the statement")


def nearest_problems(attempt: Callable[..., Any]) -> str | None:
    """Exercise 2 (apply): the learner's function on every case, with its notebook's ``sql`` (so its cell's
    helpers' too) pointed at the private server as a role that may only read, put back after: its
    answer, and the SQL the server ran for it."""
    server, cases = _mirror()[0], nearest_cases()
    names = getattr(inspect.unwrap(attempt), "__globals__", {})
    saved = {name: names[name] for name in ["sql"] if name in names}
    names["sql"] = lambda query, *params: _run(query, params or None, user=LEARNER)
    try:
        for n, (vector, topics, k) in enumerate(cases):
            start = server.log_position()
            got = attempt(vector, topics, k)
            want = nearest_oracle(vector, topics, k)  # only after the learner's code returned
            shown = f"topics={topics!r}, k={k}"
            if not _same_nearest(got, want):
                return f"on {shown} your function returned {got!r}: not the k nearest of those topics"
            wrong_sql = _sql_problem(_executed(start), cases[n], cases[(n + 1) % len(cases)])
            if wrong_sql:
                return f"{wrong_sql} (on {shown})"
        return None
    finally:
        names.pop("sql")
        names.update(saved)


MAX_EF_SEARCH = 100
_TOPICS = (("debugger", 4), ("import", 4), ("naming", 6), ("compound", 8))


def fill_problems(options: Any) -> str | None:
    """Exercise 3 (debug): the learner's query options on the private table give k rows of the topic,
    served by the HNSW index in the plan the server executed for the store's own SELECT. The table is
    small: the check switches sequential scans off itself, standing in for a big one."""
    from langchain_postgres import PGVectorStore
    from langchain_postgres.v2.indexes import QueryOptions

    if not isinstance(options, QueryOptions):
        return f"expected query options (a QueryOptions, such as HNSWQueryOptions), got {type(options).__name__}"
    settings = [" ".join(str(s).split()) for s in options.to_parameter()]
    try:  # the settings read back after SET LOCAL, so spelling, case and TO make no difference
        [(seqscan, ef)] = _run("SELECT current_setting('enable_seqscan'), "
                               "coalesce(current_setting('hnsw.ef_search', true), '40')",  # 40: pgvector's
                               settings=tuple(settings), user=LEARNER)
    except Exception as exc:  # the server's own complaint about a setting
        return f"the server refused one of your settings ({type(exc).__name__}: {str(exc).splitlines()[0]})"
    if seqscan != "on":
        return ("your options switch sequential scans off, which is never a production setting: the "
                "check does that itself here, standing in for a table big enough that the planner "
                "takes the index")
    if (ef := int(ef)) > MAX_EF_SEARCH:
        return (f"ef_search = {ef}: every search, filtered or not, would then keep {ef} candidates; "
                f"keep it at most {MAX_EF_SEARCH}")
    forced = (SEQSCAN_OFF, *settings)

    class Forced(QueryOptions):
        def to_parameter(self) -> list[str]:
            return list(forced)

        def to_string(self) -> str:
            return ", ".join(forced)

    server, engine = _mirror()
    tested = PGVectorStore.create_sync(
        engine, embedding_service=LookupEmbeddings({QUESTION: _question_vector()}), table_name=TABLE,
        metadata_columns=["topic"], index_query_options=Forced(),
    )
    for topic, k in _TOPICS:
        start = server.log_position()
        hits = tested.similarity_search(QUESTION, k=k, filter={"topic": topic})
        if len(hits) < k or {d.metadata["topic"] for d in hits} != {topic}:
            return f"topic {topic!r}, k={k}: {len(hits)} documents of that topic came back"
        ran = [(text, params) for text, params in _executed(start) if TABLE in text and params]
        plan = _plan(*ran[-1], _EXECUTED, settings=forced) if ran else ""  # the store's SELECT, run again
        served = re.search(rf"Index Scan using \S+ on \S*{TABLE}\S* \(actual rows=([\d.]+)", plan)
        if not served or float(served.group(1)) < k:
            return (f"with your options the index no longer serves the search: the plan the server "
                    f"executed for topic {topic!r}, k={k} reads the rows without it")
    return None


ALLOWED = {  # what each answer may use: checks/allow.py reads its cell before it runs
    "Exercise 2": Allow(answer="nearest_in_topics", names=["sql"],
                        refuse=["similarity_search", "similarity_search_with_score", "similarity_search_by_vector",
                                "similarity_search_with_relevance_scores", "max_marginal_relevance_search",
                                "as_retriever", "invoke", "get_by_ids", "asimilarity_search",
                                "asimilarity_search_by_vector"]),
    "Exercise 3": Allow(answer="options_that_fill_k", names=["HNSWQueryOptions"]),
}
