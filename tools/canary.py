"""``make canary``: is the course still true for the langchain-core a learner installs next month?

Builds a throwaway venv (``.venv-canary``) from the course's pins, except langchain-core and
langchain-text-splitters, which get the newest releases below 2.0 that resolve. It then runs the
equivalence tests (scratch against real) and strict nbval over every notebook, and writes
``docs/drift.md``: the versions, every test and notebook cell that now differs, with the
difference, and one line saying whether the course is still true.
"""

from __future__ import annotations

import argparse
import datetime as dt
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from tools.links import pins

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv-canary"
REPORT = ROOT / "docs" / "drift.md"
MOVING = ("langchain-core", "langchain-text-splitters")
#: The tests that put a scratch class beside the real one on the same inputs.
EQUIVALENCE = sorted(
    str(p.relative_to(ROOT)) for p in (ROOT / "tests").glob("test_*.py")
    if "langchain_core" in p.read_text(encoding="utf-8") and p.name not in {"test_browser.py", "test_site.py"}
)


def run(*command: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(list(command), cwd=ROOT, text=True, **kwargs)


def build() -> Path:
    """The course's pins, with the moving packages replaced by their newest 1.x."""
    if VENV.exists():
        shutil.rmtree(VENV)
    run(sys.executable, "-m", "venv", str(VENV), check=True)
    python = str(VENV / "bin" / "python")
    pinned = [f"{name}=={version}" for name, version in pins().items() if name not in MOVING]
    constraints = VENV / "pins-without-langchain.txt"
    constraints.write_text("\n".join(pinned) + "\n", encoding="utf-8")
    run(python, "-m", "pip", "install", "--quiet", "-r", str(constraints), check=True)
    run(python, "-m", "pip", "install", "--quiet", "--upgrade", *(f"{p}<2" for p in MOVING), check=True)
    run(python, "-m", "pip", "install", "--quiet", "--no-deps", "-e", ".", check=True)
    return VENV


def version_of(package: str, python: str) -> str:
    code = f"from importlib.metadata import version; print(version({package!r}))"
    return run(python, "-c", code, capture_output=True, check=True).stdout.strip()


_ANSI = re.compile(r"(?:\x1b|#x1B)\[[0-9;]*m")


def difference(text: str, limit: int = 12) -> str:
    """The lines of a failure that say what differs: a diff's -/+ lines, else its first lines."""
    lines = [ln.rstrip() for ln in _ANSI.sub("", text).splitlines() if ln.strip()]
    diff = [ln.strip() for ln in lines if ln.strip().startswith(("- ", "+ ", "E "))]
    return "\n".join((diff or lines)[:limit])


def failures(junit: Path) -> list[tuple[str, str]]:
    """(test id, what differs) for each failed or errored test."""
    found = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        for bad in [*case.findall("failure"), *case.findall("error")]:
            text = (bad.get("message") or "") + "\n" + (bad.text or "")
            found.append((f"{case.get('classname')}::{case.get('name')}", difference(text)))
    return found


def only_versions(diff: str) -> bool:
    """True when every changed line just prints a moving package's version (expected to differ)."""
    changed = [ln for ln in diff.splitlines() if ln.startswith(("- ", "+ "))]
    return bool(changed) and all(any(p in ln for p in MOVING) for ln in changed)


def pytest_run(python: str, args: list[str], junit: Path) -> tuple[int, list[tuple[str, str]]]:
    done = run(python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:langsmith_plugin",
               f"--junitxml={junit}", *args, capture_output=True)
    return done.returncode, failures(junit) if junit.exists() else [("pytest", done.stdout[-2000:])]


def report(versions: dict[str, str], tests: list, cells: list, counts: dict[str, int]) -> str:
    today = dt.date.today().isoformat()
    true = not tests and all(only_versions(diff) for _, diff in cells)
    lines = [
        "# Drift report: the course against the newest langchain-core 1.x",
        "",
        f"Made by `make canary` on {today}. The course pins langchain-core 1.6.2 and "
        "langchain-text-splitters 1.1.2; this run replaced them by the newest releases below 2.0 "
        "that install here, kept every other pin, and ran the equivalence tests and strict nbval.",
        "",
        "| package | pinned | newest tried |",
        "|---|---|---|",
        *(f"| {p} | {versions[p + ':pinned']} | {versions[p]} |" for p in MOVING),
        "",
        f"**Still true: {'yes' if true else 'no'}.** "
        f"{counts['tests']} equivalence tests, {len(tests)} differ; "
        f"nbval over {counts['notebooks']} notebooks, {len(cells)} cells differ"
        + (" (only printed version numbers, which must differ)." if cells and true else "."),
        "",
    ]
    for title, rows in (("Equivalence tests that differ", tests), ("Notebook cells that differ", cells)):
        lines += [f"## {title}", ""]
        if not rows:
            lines += ["None.", ""]
        for name, difference in rows:
            lines += [f"- `{name}`", "", "  ```text", *(f"  {ln}" for ln in difference.splitlines()),
                      "  ```", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reuse", action="store_true", help="keep an existing .venv-canary")
    args = parser.parse_args(argv)
    venv = VENV if args.reuse and (VENV / "bin" / "python").exists() else build()
    python = str(venv / "bin" / "python")
    versions = {p: version_of(p, python) for p in MOVING}
    versions.update({f"{p}:pinned": pins().get(p, "?") for p in MOVING})
    _, tests = pytest_run(python, EQUIVALENCE, venv / "equivalence.xml")
    notebooks = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    nbval = ["--nbval", "--nbval-current-env", "--nbval-sanitize-with", "tests/nbval_sanitize.cfg"]
    _, cells = pytest_run(python, [*nbval, *notebooks], venv / "nbval.xml")
    count = run(python, "-m", "pytest", "--collect-only", "-q", "-p", "no:langsmith_plugin", *EQUIVALENCE,
                capture_output=True).stdout.count("::")
    REPORT.write_text(report(versions, tests, cells, {"tests": count, "notebooks": len(notebooks)}),
                      encoding="utf-8")
    print(f"canary: {versions} -> {REPORT.relative_to(ROOT)} ({len(tests)} tests, {len(cells)} cells differ)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
