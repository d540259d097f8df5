"""Notebook 12's HNSW from scratch, held against FAISS's IndexHNSWFlat on real vectors."""

from __future__ import annotations

import ast
import itertools
import json
from functools import cache
from pathlib import Path

import faiss
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from retrieval_lab.checks.answers import nb12
from retrieval_lab.data import realvectors
from retrieval_lab.scratch.approximate_search import HNSW

ROOT = Path(__file__).resolve().parents[1]
EFS = (16, 32, 64, 128)
N, M, EF_CONSTRUCTION = 5000, 16, 40


def recall_at_10(found, truth) -> float:
    return float(np.mean([len(set(f) & set(t)) / 10 for f, t in zip(found, truth, strict=True)]))


@cache
def both_builds() -> dict:
    """The scratch graph and FAISS's on the same 5 000 real vectors, built once per run.

    About 3 s for ours on a quiet core (FAISS: 0.2 s); measured 2026-12-04.
    """
    _, rows = realvectors.load(N)
    _, asked = realvectors.queries(200)
    truth = np.argsort(-(asked @ rows.T), axis=1, kind="stable")[:, :10]
    ours = HNSW(M=M, ef_construction=EF_CONSTRUCTION, seed=0)
    ours.add(rows)
    faiss.omp_set_num_threads(1)
    theirs = faiss.IndexHNSWFlat(rows.shape[1], M, faiss.METRIC_INNER_PRODUCT)
    theirs.hnsw.efConstruction = EF_CONSTRUCTION
    theirs.add(rows)
    table = {}
    for ef in EFS:
        runs = [ours.search(q, 10, ef) for q in asked]
        theirs.hnsw.efSearch = ef
        faiss.cvar.hnsw_stats.reset()
        _, found = theirs.search(asked, 10)
        table[ef] = {
            "ours": recall_at_10([ids for ids, _ in runs], truth),
            "faiss": recall_at_10(found, truth),
            "ours_visits": float(np.mean([v for _, v in runs])),
            "faiss_visits": faiss.cvar.hnsw_stats.ndis / len(asked),
        }
    return {"ours": ours, "table": table}


@pytest.mark.slow
def test_recall_matches_faiss_over_the_curve() -> None:
    table = both_builds()["table"]
    ours = np.mean([table[ef]["ours"] for ef in EFS])
    theirs = np.mean([table[ef]["faiss"] for ef in EFS])
    assert abs(ours - theirs) <= 0.05, table
    rising = [table[a]["ours"] <= table[b]["ours"] + 0.01 for a, b in itertools.pairwise(EFS)]
    assert all(rising), table


@pytest.mark.slow
def test_visits_are_faiss_s_within_a_fifth() -> None:
    table = both_builds()["table"]
    for ef in EFS:
        ratio = table[ef]["ours_visits"] / table[ef]["faiss_visits"]
        assert 0.8 <= ratio <= 1.25, (ef, table[ef])


@pytest.mark.slow  # the 5,000-vector build (3.7 s); hypothesis checks the same invariants on small graphs
def test_real_build_keeps_its_invariants() -> None:
    graph = both_builds()["ours"]
    check_structure(graph)
    assert len(graph.links[0]) == N
    # layer l holds about N / M**l nodes
    assert 0.5 * N / M <= len(graph.links[1]) <= 1.5 * N / M


def check_structure(graph: HNSW) -> None:
    n = len(graph.vectors)
    assert set(graph.links[0]) == set(range(n))
    for layer, links in enumerate(graph.links):
        assert links, f"layer {layer} is empty"
        for node, near in links.items():
            assert len(near) <= graph.max_links(layer)
            assert node not in near and len(set(near)) == len(near)
            assert all(other in links for other in near)  # links stay on their layer
            if layer:
                assert node in graph.links[layer - 1]  # a node is on every layer below its top
    assert graph.entry in graph.links[graph.top] and len(graph.links) == graph.top + 1


def unit_rows(seed: int, n: int, width: int) -> np.ndarray:
    rows = np.random.default_rng(seed).standard_normal((n, width))
    return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


small_graphs = st.tuples(
    st.integers(0, 10_000), st.integers(1, 60), st.integers(2, 8), st.integers(2, 6),
    st.integers(1, 16),
)


def reachable_on_layer_0(graph: HNSW, query: np.ndarray) -> list[int]:
    """The nodes a layer-0 search can reach from where the greedy descent lands."""
    entries = [graph.entry]
    for layer in range(graph.top, 0, -1):
        entries = [graph.search_layer(query, entries, 1, layer)[0][1]]
    seen, todo = set(entries), list(entries)
    while todo:
        for near in graph.links[0][todo.pop()]:
            if near not in seen:
                seen.add(near)
                todo.append(near)
    return sorted(seen)


@settings(deadline=None)
@given(small_graphs, st.integers(1, 12))
def test_ef_at_least_n_is_exact_over_what_it_can_reach(params, k) -> None:
    """With a beam as wide as the collection, nothing is dropped: the answer is the exact
    top k of the nodes the walk can reach (in 2-D with M = 2 a few nodes may have no link in)."""
    seed, n, width, m, ef_construction = params
    rows = unit_rows(seed, n + 1, width)
    graph = HNSW(M=m, ef_construction=ef_construction, seed=seed)
    graph.add(rows[:n])
    check_structure(graph)
    query = rows[n]
    reach = np.array(reachable_on_layer_0(graph, query))
    ids, visits = graph.search(query, k=k, ef=n)
    exact = reach[np.argsort(-(rows[reach] @ query), kind="stable")[:k]]
    assert ids == exact.tolist()
    assert visits >= len(reach)


def test_ef_at_least_n_is_exact_on_real_vectors() -> None:
    _, rows = realvectors.load(300)
    _, asked = realvectors.queries(20)
    graph = HNSW(M=8, ef_construction=20)
    graph.add(rows)
    for query in asked:
        assert graph.search(query, 10, ef=300)[0] == np.argsort(-(rows @ query))[:10].tolist()


@settings(deadline=None)
@given(small_graphs, st.integers(1, 12), st.integers(1, 40))
def test_answers_are_best_first_and_distinct(params, k, ef) -> None:
    seed, n, width, m, ef_construction = params
    rows = unit_rows(seed, n + 1, width)
    graph = HNSW(M=m, ef_construction=ef_construction, seed=seed)
    graph.add(rows[:n])
    ids, _ = graph.search(rows[n], k=k, ef=ef)
    scores = rows[ids] @ rows[n]
    # k answers unless the walk can reach fewer nodes (with M = 2 a node may have no link in)
    reach = reachable_on_layer_0(graph, rows[n])
    assert len(ids) == min(k, len(reach)) and len(set(ids)) == len(ids)
    assert np.all(np.diff(scores) <= 1e-6)


@settings(deadline=None, max_examples=20)
@given(small_graphs, st.integers(1, 59))
def test_adding_in_two_batches_builds_the_same_graph(params, cut) -> None:
    seed, n, width, m, ef_construction = params
    rows = unit_rows(seed, n, width)
    once = HNSW(M=m, ef_construction=ef_construction, seed=seed)
    once.add(rows)
    twice = HNSW(M=m, ef_construction=ef_construction, seed=seed)
    twice.add(rows[: min(cut, n)])
    if cut < n:
        twice.add(rows[cut:])
    assert once.links == twice.links and once.entry == twice.entry


def test_levels_follow_m_to_the_minus_l() -> None:
    draws = HNSW(M=16)
    levels = np.bincount([draws.draw_level() for _ in range(100_000)])
    assert abs(levels[1] / 100_000 - (1 / 16 - 1 / 256)) < 0.005


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="M >= 2"):
        HNSW(M=1)
    graph = HNSW()
    with pytest.raises(ValueError, match="2-D array"):
        graph.add(np.zeros(4))
    assert graph.search(np.zeros(3), k=3) == ([], 0)
    graph.add(unit_rows(0, 5, 3))
    with pytest.raises(ValueError, match="one width"):
        graph.add(unit_rows(0, 5, 4))


def test_notebook_toy_is_the_checks_toy() -> None:
    """Exercise 1's truth walks nb12.TOY: the notebook must draw the same ten points."""
    cells = json.loads((ROOT / "notebooks" / "12_approximate_search.ipynb").read_text())["cells"]
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and source.startswith("positions = {"):
            literal = source.split("=", 1)[1].split("}", 1)[0] + "}"
            assert ast.literal_eval(literal) == nb12.TOY
            return
    raise AssertionError("no cell of notebook 12 defines the toy positions")


def test_toy_graph_links_both_ways() -> None:
    """The toy graph is drawn as undirected edges: every link of it has its twin."""
    entry, layers = nb12.toy_layers()
    assert entry in {a for a, _ in layers[-1]} | {b for _, b in layers[-1]}
    assert [len(edges) for edges in layers] == sorted((len(e) for e in layers), reverse=True)
