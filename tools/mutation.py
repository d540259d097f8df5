"""Mutation testing of the exercise checks: ``python -m tools.mutation [NB ...]`` (``make mutation``).

Each solution is mutated the way mutation-testing tools do (``tools.mutants.mutants``: an
operator swapped, a number nudged, a boolean flipped, a statement dropped; at most
``MAX_MUTANTS`` per solution, an evenly spread sample), and every mutant runs through its check
in the notebook's own kernel, right after nbval ran the notebook. A mutant the check still
passes *survived*. The rule (issue 30): at least 90 % of every solution's mutants are refused,
and each survivor is shown equivalent - listed in ``EQUIVALENT`` of the notebook's
``tests/exercise_mutants`` module with the reason it changes nothing a check could see.

Writes ``docs/mutation.md`` (the score per exercise and every survivor) and exits 1 when an
exercise is under 90 % with its equivalents left out.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from tools.mutants import equivalent_mutants
from tools.nbtools import ROOT, _read, course_notebooks, exercises

REPORT = ROOT / "docs" / "mutation.md"
THRESHOLD = 0.90


def run(notebooks: list[Path], folder: Path) -> int:
    """nbval on the notebooks, with the mutants scored into ``folder`` (two workers)."""
    env = dict(os.environ, RETRIEVAL_LAB_MUTATION=str(folder), OPENBLAS_NUM_THREADS="1",
               OMP_NUM_THREADS="1")
    command = [sys.executable, "-m", "pytest", "-p", "tools", "--nbval", "--nbval-current-env",
               "--nbval-sanitize-with", "tests/nbval_sanitize.cfg", "-q", "-n", "2",
               "--dist", "loadscope", *map(str, notebooks)]
    return subprocess.call(command, cwd=ROOT, env=env)


def score(notebooks: list[Path], folder: Path) -> tuple[list[str], bool]:
    """The report's lines, and whether every exercise reaches the threshold."""
    lines = ["# Mutation score of the exercise checks", "",
             "Made by `make mutation` (`python -m tools.mutation`): each solution mutated (an operator",
             "swapped, a number nudged, a boolean flipped, a statement dropped; at most 60 mutants a",
             "solution, evenly spread), each mutant run through its check in the notebook's kernel.",
             "A mutant the check passes survived; a survivor shown equivalent (it changes nothing a",
             "check could see) is listed with its reason and left out of the score.", "",
             "| notebook | exercise | kind | mutants | refused | equivalent | score |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    survivors: list[str] = []
    ok = True
    for notebook in notebooks:
        path = folder / f"{notebook.stem}.json"
        if not path.exists():
            lines.append(f"| {notebook.stem} | - | - | not run | | | |")
            ok = False
            continue
        rows = json.loads(path.read_text())
        equivalent = equivalent_mutants(notebook)
        cells = _read(notebook).cells
        for number, (stub, _, _) in enumerate(exercises(notebook), start=1):
            kind = cells[stub].metadata.get("retrieval_lab", {}).get("kind", "?")
            mine = [r for r in rows if r["exercise"] == number]
            shown = [r for r in mine if r["survived"] and f"exercise {number}, {r['label']}" in equivalent]
            alive = [r for r in mine if r["survived"] and r not in shown]
            counted = len(mine) - len(shown)
            refused = counted - len(alive)
            ratio = refused / counted if counted else 1.0
            ok = ok and ratio >= THRESHOLD
            lines.append(f"| {notebook.stem} | {number} | {kind} | {len(mine)} | {refused} | {len(shown)} "
                         f"| {ratio:.0%}{'' if ratio >= THRESHOLD else ' (under 90 %)'} |")
            survivors += [f"- {notebook.stem}, exercise {number}, {r['label']}" + (
                f": equivalent - {equivalent[f'exercise {number}, ' + r['label']]}" if r in shown else "")
                for r in mine if r["survived"]]
    lines += ["", "## Survivors", "", *(survivors or ["None."]), ""]
    return lines, ok


def main(argv: list[str]) -> int:
    notebooks = [next((ROOT / "notebooks").glob(f"{a}_*.ipynb")) if a.isdigit() else Path(a).resolve()
                 for a in argv] or course_notebooks()  # `07` or a path
    with tempfile.TemporaryDirectory() as tmp:
        run(notebooks, Path(tmp))
        lines, ok = score(notebooks, Path(tmp))
    if not argv:
        REPORT.write_text("\n".join(lines))
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
