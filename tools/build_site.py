"""Build the course website from the stored, executed notebooks: ``make site``.

Sphinx with myst-nb reads the notebooks as they are stored (the outputs nbval checks), so the site
shows exactly what a learner sees, without running anything. The source tree is assembled in
``build/site-src`` (home page = the README's notebook table, then the notebooks, the instructor
guide and the glossary) and the HTML lands in ``build/site``. Why Sphinx + myst-nb and not Jupyter
Book 2: see CONTRIBUTING.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "build" / "site"
_VENDORED = ROOT / "tools" / "nbconvert-templates" / "retrieval-lab-slides" / "static"
_GUIDES = ("instructor-guide.md", "setup.md", "glossary.md")
_TABLE = re.compile(r"<!-- notebooks:start -->\n(.*?)<!-- notebooks:end -->", re.S)


def home_page(readme: str) -> str:
    """The site's index: the README's first paragraph and its notebook table, with a toctree."""
    table = _TABLE.search(readme)
    if table is None:
        raise SystemExit("README.md has no <!-- notebooks:start --> table: run python -m tools.links write")
    intro = readme.split("\n## ", 1)[0]
    rows = table.group(1)
    names = re.findall(r"\]\(notebooks/(\d\d_[a-z0-9_]+)\.ipynb\)", rows)
    toctree = "\n".join(f"notebooks/{name}" for name in dict.fromkeys(names))
    return (
        f"{intro}\n\n## The notebooks\n\n{rows}\n"
        "Read any page here without running anything; the buttons at the top of a notebook page open"
        " it live on Binder or Colab.\n\n"
        f"```{{toctree}}\n:maxdepth: 1\n:caption: Notebooks\n:hidden:\n\n{toctree}\n```\n\n"
        "```{toctree}\n:maxdepth: 1\n:caption: For teachers\n:hidden:\n\n"
        + "".join(f"docs/{page[:-3]}\n" for page in _GUIDES if (ROOT / "docs" / page).exists())
        + "```\n"
    )


_BADGE = re.compile(r"\[!\[([^\]]+)\]\(https://[^)]+\.(?:svg|png)\)\]\((https://[^)]+)\)")


def without_remote_badges(markdown: str) -> str:
    """Badge images load from Binder's and Colab's servers: on the site they become text links."""
    return _BADGE.sub(lambda m: f"[{_launch_text(m.group(1))}]({m.group(2)})", markdown)


def _launch_text(alt: str) -> str:
    """'Binder' -> 'Open on Binder'; 'Open In Colab' stays as it is."""
    return alt if alt.lower().startswith("open") else f"Open on {alt}"


def _write(target: Path, text: str) -> None:
    """Write only what changed: Sphinx rebuilds a page when its source is newer than the HTML."""
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def _localised(notebook: Path) -> str:
    """A notebook with its badge images turned into links (outputs untouched)."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            source = "".join(cell["source"])
            cell["source"] = without_remote_badges(source)
    return json.dumps(nb, ensure_ascii=False, indent=1)


def assemble(source: Path) -> bool:
    """Write what the site shows into ``source``: changed files only, and nothing stale left over.

    Unchanged files keep their time stamps, so a second build (``make test``'s site test, a
    second ``make site``) lets Sphinx re-read only what changed since. Returns whether a file
    had to be removed (a page gone: its old HTML would linger, so the build starts afresh).
    """
    removed = False
    wanted: dict[Path, str] = {}
    for notebook in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        wanted[source / "notebooks" / notebook.name] = _localised(notebook)
    for page in _GUIDES:
        if (ROOT / "docs" / page).exists():
            wanted[source / "docs" / page] = (ROOT / "docs" / page).read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    wanted[source / "index.md"] = without_remote_badges(home_page(readme))
    wanted[source / "conf.py"] = (ROOT / "tools" / "site" / "conf.py").read_text(encoding="utf-8")
    wanted[source / "_static" / "tex-svg.js"] = (_VENDORED / "tex-svg.js").read_text(encoding="utf-8")
    if source.exists():
        for old in source.rglob("*"):
            if old.is_file() and "_doctrees" not in old.parts and old not in wanted:
                old.unlink()
                removed = True
    for target, text in wanted.items():
        _write(target, text)
    return removed


_SPHINX = "import sys, tools; from sphinx.cmd.build import main; sys.exit(main(sys.argv[1:]))"


def build(output: Path = OUTPUT) -> Path:
    """Assemble and run Sphinx; warnings about the course's own pages fail the build.

    The build is incremental (Sphinx's doctrees are kept beside the source), so only the pages
    whose source changed are rebuilt; a fresh checkout builds everything, as CI does.
    """
    from tools.links import repository

    repo = repository()
    source = output.parent / f"{output.name}-src"
    if assemble(source):
        shutil.rmtree(output, ignore_errors=True)
        shutil.rmtree(source / "_doctrees", ignore_errors=True)
    url = f"https://github.com/{repo.owner}/{repo.name}"
    env = dict(os.environ, SITE_REPOSITORY_URL=url, SITE_REF=repo.ref)
    # Sphinx runs in a process of its own, started through ``tools`` so that it too skips
    # rfc3987-syntax's parsers (tools/__init__.py): myst-nb reads notebooks with nbformat, whose
    # schema checks no iri format. 1.2 s of the 2.8 s a build with nothing to rebuild takes.
    command = [sys.executable, "-c", _SPHINX, "-b", "html", "-q", "-W", "--keep-going",
               "-d", str(source / "_doctrees"), str(source), str(output)]
    subprocess.run(command, check=True, env=env, cwd=ROOT)
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    out = build()
    print(f"site: {out.relative_to(ROOT)}/index.html ({sum(1 for _ in out.rglob('*.html'))} pages)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
