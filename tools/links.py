"""Binder links: one repository address, every link generated from it, and a check that they agree.

The address lives in one place, ``pyproject.toml``::

    [tool.retrieval_lab]
    repository = "https://github.com/OWNER/NAME"
    branch = "main"

From it come the README's notebook table (between ``<!-- notebooks:start -->`` and
``<!-- notebooks:end -->``), every other Binder link in the README, and the Binder badge in the
first cell of each notebook. Commands::

    python tools/links.py check      # what is missing or wrong (exit 1 if anything); tests run this
    python tools/links.py write      # regenerate the README table and fix every badge and link
    python tools/links.py workshop --ref v2025.03   # links pinned to a tag, to hand out in a workshop

``write`` only edits the markdown of a notebook's first cell (no outputs change, nothing to
re-execute), and only when you run it.
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
START, END = "<!-- notebooks:start -->", "<!-- notebooks:end -->"
BADGE_IMAGE = "https://mybinder.org/badge_logo.svg"
_GITHUB = re.compile(r"^https://github\.com/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?/?$")
_REF = re.compile(r"^[A-Za-z0-9._/-]+$")
# Any Binder launch link for a GitHub repository: the part up to the ref, then the rest.
_BINDER_LINK = re.compile(r"https://mybinder\.org/v2/gh/[^/\s)]+/[^/\s)]+/[^?\s)]+(?P<rest>\?[^\s)]*)?")
_BADGE_LINE = re.compile(r"^\[!\[[^\]]*\]\([^)]*mybinder\.org[^)]*\)\]\([^)]*\)[ \t]*$", re.M)
_TITLE = re.compile(r"^#\s+(\d\d)\s*·\s*(.+?)\s*$", re.M)


@dataclass(frozen=True)
class Repository:
    """Where Binder builds the course from: a GitHub repository and a branch or tag."""

    owner: str
    name: str
    ref: str

    def binder(self, notebook: str | None = None) -> str:
        """The launch URL, opening ``notebooks/<notebook>`` in JupyterLab when a name is given."""
        base = f"https://mybinder.org/v2/gh/{self.owner}/{self.name}/{self.ref}"
        return f"{base}?urlpath=lab/tree/notebooks/{notebook}" if notebook else base

    def badge(self, notebook: str) -> str:
        return f"[![Binder]({BADGE_IMAGE})]({self.binder(notebook)})"


def repository(pyproject: Path = ROOT / "pyproject.toml", ref: str | None = None) -> Repository:
    """Read ``[tool.retrieval_lab]``; refuse an address Binder could not use, saying what to write."""
    settings = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {}).get("retrieval_lab", {})
    url, branch = settings.get("repository"), settings.get("branch")
    if not isinstance(url, str) or not (match := _GITHUB.match(url)):
        raise ValueError(
            f"{pyproject.name}: [tool.retrieval_lab] repository is {url!r}; write the GitHub address, "
            'e.g. repository = "https://github.com/OWNER/NAME".'
        )
    ref = ref if ref is not None else branch
    if not isinstance(ref, str) or not _REF.match(ref):
        raise ValueError(
            f"{pyproject.name}: the branch or tag is {ref!r}; write e.g. branch = \"main\" "
            "(letters, digits, '.', '_', '-', '/')."
        )
    return Repository(match.group(1), match.group(2), ref)


# --------------------------------------------------------------------------- notebooks

def _read(path: Path):
    import nbformat

    return nbformat.read(path, as_version=4)


def _notebooks() -> list[Path]:
    sys.path.insert(0, str(ROOT / "src"))
    from retrieval_lab.nbtools import course_notebooks

    return course_notebooks()


def header_problems(notebook: Path, repo: Repository) -> list[str]:
    """What is wrong with the Binder badge in the notebook's first cell (empty when it is right)."""
    cells = _read(notebook).cells
    if not cells or cells[0].cell_type != "markdown":
        return [f"{notebook.name}: the first cell is not the markdown header (CONTRIBUTING.md, Header)."]
    header = cells[0].source
    links = [m.group(0) for m in _BINDER_LINK.finditer(header)]
    expected = repo.binder(notebook.name)
    if not links:
        return [f"{notebook.name}: the header has no Binder link; run `python tools/links.py write`."]
    wrong = [link for link in links if link != expected]
    if wrong:
        return [
            f"{notebook.name}: the header's Binder link is {wrong[0]}, expected {expected}; "
            "run `python tools/links.py write`."
        ]
    if repo.badge(notebook.name) not in header:
        return [f"{notebook.name}: the Binder link is not the badge line {repo.badge(notebook.name)}."]
    return []


def fixed_header(source: str, notebook: str, repo: Repository) -> str:
    """The header with its badge line replaced (or, when missing, put before **Objectives**)."""
    badge = repo.badge(notebook)
    if _BADGE_LINE.search(source):
        return _BADGE_LINE.sub(lambda _: badge, source, count=1)
    lines = source.splitlines()
    at = next((i for i, ln in enumerate(lines) if ln.startswith("**Objectives")), len(lines))
    return "\n".join([*lines[:at], badge, "", *lines[at:]]).rstrip("\n")


def fix_header(notebook: Path, repo: Repository) -> bool:
    """Rewrite the notebook's badge line if it is missing or wrong; returns whether it changed."""
    import nbformat

    nb = _read(notebook)
    if not nb.cells or nb.cells[0].cell_type != "markdown":
        raise ValueError(f"{notebook.name}: the first cell is not the markdown header; add one first.")
    new = fixed_header(nb.cells[0].source, notebook.name, repo)
    if new == nb.cells[0].source:
        return False
    nb.cells[0].source = new
    nbformat.write(nb, notebook)
    return True


# --------------------------------------------------------------------------- README

def title_of(nb) -> tuple[str, str]:
    """(number, title) from the header's ``# NN · Title`` line."""
    match = _TITLE.search(nb.cells[0].source) if nb.cells else None
    if not match:
        raise ValueError("the first cell does not start with '# NN · Title' (CONTRIBUTING.md, Header)")
    return match.group(1), match.group(2)


def built_classes(notebook: Path) -> list[str]:
    """The classes the notebook exports to ``retrieval_lab.scratch``, in the order it defines them."""
    import ast

    sys.path.insert(0, str(ROOT / "src"))
    from retrieval_lab.nbtools import exported_source

    source = exported_source(notebook)
    if source is None:
        return []
    return [n.name for n in ast.parse(source).body if isinstance(n, ast.ClassDef) and not n.name.startswith("_")]


def notebook_table(notebooks: list[Path], repo: Repository) -> str:
    """The README's table: one row per notebook with what you build, the time and its launch link."""
    rows = ["| # | notebook | you build | time (teach + exercises) | launch |", "|---|---|---|---|---|"]
    for path in notebooks:
        nb = _read(path)
        number, title = title_of(nb)
        classes = built_classes(path)
        built = ", ".join(f"`{c}`" for c in classes) if classes else "nothing yet: the real classes, end to end"
        minutes = nb.metadata.get("retrieval_lab", {})
        time = f"{minutes.get('teach_minutes', '?')} + {minutes.get('exercise_minutes', '?')} min"
        rows.append(f"| {number} | [{title}](notebooks/{path.name}) | {built} | {time} | {repo.badge(path.name)} |")
    return "\n".join(rows)


def readme_with_table(text: str, table: str) -> str:
    if text.count(START) != 1 or text.count(END) != 1 or text.index(START) > text.index(END):
        raise ValueError(f"README.md needs exactly one {START} … {END} region for the notebook table.")
    before, rest = text.split(START)
    _, after = rest.split(END)
    return f"{before}{START}\n{table}\n{END}{after}"


def readme_with_links(text: str, repo: Repository) -> str:
    """Every Binder link in the text pointed at the configured repository and ref."""
    return _BINDER_LINK.sub(lambda m: repo.binder() + (m.group("rest") or ""), text)


def expected_readme(text: str, notebooks: list[Path], repo: Repository) -> str:
    return readme_with_table(readme_with_links(text, repo), notebook_table(notebooks, repo))


def readme_problems(notebooks: list[Path], repo: Repository, readme: Path = README) -> list[str]:
    text = readme.read_text(encoding="utf-8")
    problems = []
    stale = [m.group(0) for m in _BINDER_LINK.finditer(text) if not m.group(0).startswith(repo.binder() + "?")
             and m.group(0) != repo.binder()]
    if stale:
        problems.append(f"README.md: Binder link {stale[0]} does not point at {repo.binder()}.")
    try:
        wanted = expected_readme(text, notebooks, repo)
    except ValueError as exc:
        return [*problems, f"README.md: {exc}"]
    if wanted != text:
        problems.append("README.md: the notebook table is out of date; run `python tools/links.py write`.")
    return problems


def all_problems(notebooks: list[Path] | None = None, repo: Repository | None = None) -> list[str]:
    notebooks = _notebooks() if notebooks is None else notebooks
    repo = repository() if repo is None else repo
    return [p for nb in notebooks for p in header_problems(nb, repo)] + readme_problems(notebooks, repo)


# --------------------------------------------------------------------------- CLI

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Binder links from [tool.retrieval_lab] in pyproject.toml")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("check", help="report missing or wrong links (exit 1 if any)")
    sub.add_parser("write", help="regenerate the README table and fix every badge and link")
    workshop = sub.add_parser("workshop", help="print launch links pinned to a tag, for a workshop")
    workshop.add_argument("--ref", required=True, help="the git tag (or commit) Binder should build")
    args = parser.parse_args(argv)

    notebooks = _notebooks()
    if args.command == "workshop":
        repo = repository(ref=args.ref)
        print(f"Binder, pinned to {args.ref}: {repo.binder()}")
        for path in notebooks:
            print(f"  {path.name}: {repo.binder(path.name)}")
        return 0
    repo = repository()
    if args.command == "write":
        for path in notebooks:
            if fix_header(path, repo):
                print(f"links: fixed the Binder badge of {path.relative_to(ROOT)}")
        text = README.read_text(encoding="utf-8")
        new = expected_readme(text, notebooks, repo)
        if new != text:
            README.write_text(new, encoding="utf-8")
            print("links: README.md updated")
    problems = all_problems(notebooks, repo)
    done = f"links: {len(notebooks)} notebook(s) and README.md point at {repo.binder()}"
    print("\n".join(problems) if problems else done)
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
