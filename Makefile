# retrieval-lab: the only entry points. `make lab` to learn, `make test` to check everything.
# Needs python3 (>= 3.11) and make; everything else is installed into .venv from requirements.txt.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8888
NB     ?=
# The venv is rebuilt when the pins or the package metadata change: the stamp's name is their hash.
PINS_HASH := $(shell cat requirements.txt pyproject.toml | $(PYTHON) -c "import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest()[:12])")
STAMP  := $(VENV)/.installed-$(PINS_HASH)
ALLOW_ROOT := $(if $(filter 0,$(shell id -u)),--allow-root,)
PYTEST := $(BIN)/python -m pytest
NBVAL  := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg

.PHONY: venv lab test test-one lint execute export check-export help slides bench

help:
	@echo "make lab      start JupyterLab on the course (first run builds .venv)"
	@echo "make test     everything: ruff, helper and equivalence tests, notebook guards, strict nbval"
	@echo "make lint     the fast checks: ruff, notebook guards, export sync (no kernel)"
	@echo "make execute  re-run notebooks in place (NB=notebooks/01_document.ipynb for one)"
	@echo "make export   write the notebooks' export cells to src/retrieval_lab/scratch/"

venv: $(STAMP)

$(STAMP): requirements.txt pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/python -m ipykernel install --sys-prefix --name retrieval-lab --display-name "Python 3 (retrieval-lab)" >/dev/null
	@rm -f $(VENV)/.installed-*
	@touch $@
	@echo "environment ready: $(VENV) (pins $(PINS_HASH))"

lab: venv
	@echo "JupyterLab on http://127.0.0.1:$(PORT)/lab  (the tokenised link is printed below; stop with Ctrl-C twice)"
	$(BIN)/jupyter lab --ip=127.0.0.1 --port=$(PORT) $(ALLOW_ROOT) notebooks/00_the_pipeline.ipynb

lint: venv
	$(BIN)/ruff check .
	$(BIN)/python -m retrieval_lab.nbtools guard
	$(BIN)/python -m retrieval_lab.nbtools check

export: venv
	$(BIN)/python -m retrieval_lab.nbtools export

check-export: venv
	$(BIN)/python -m retrieval_lab.nbtools check

execute: venv
	$(BIN)/python -m retrieval_lab.nbtools export
	$(BIN)/python -m retrieval_lab.nbtools execute $(NB)

test: lint
	$(PYTEST) $(NBVAL) $(if $(NB),$(NB),tests notebooks)

# One notebook while you work on it: its guard, its nbval, and the solutions of its exercises.
test-one: venv
	@test -n "$(NB)" || (echo "usage: make test-one NB=notebooks/NN_name.ipynb" && exit 2)
	$(BIN)/python -m retrieval_lab.nbtools guard $(NB)
	$(PYTEST) $(NBVAL) $(NB)
	$(PYTEST) tests/test_notebooks.py -k "$(notdir $(basename $(NB)))"

# Offline slides (reveal.js and MathJax inlined, nothing fetched) into build/slides/: tools/slides.py.
slides: venv
	$(BIN)/python tools/slides.py export $(NB)

# Search latency against store size (notebook 09): real/scratch InMemoryVectorStore, MatrixVectorStore,
# FAISS flat and HNSW, up to 1 000 000 vectors (peak about 5 GB of RAM, a few minutes on 2 idle cores).
bench: venv
	$(BIN)/python benchmarks/search_scaling.py
