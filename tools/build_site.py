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
_GUIDES = ("instructor-guide.md", "glossary.md")
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


def _localised(notebook: Path, target: Path) -> None:
    """Copy a notebook with its badge images turned into links (outputs untouched)."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "markdown":
            source = "".join(cell["source"])
            cell["source"] = without_remote_badges(source)
    target.write_text(json.dumps(nb, ensure_ascii=False, indent=1), encoding="utf-8")


def assemble(source: Path) -> Path:
    """Copy what the site shows into ``source`` (a fresh tree each build)."""
    if source.exists():
        shutil.rmtree(source)
    (source / "notebooks").mkdir(parents=True)
    (source / "docs").mkdir()
    for notebook in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        _localised(notebook, source / "notebooks" / notebook.name)
    for page in _GUIDES:
        if (ROOT / "docs" / page).exists():
            text = (ROOT / "docs" / page).read_text(encoding="utf-8")
            (source / "docs" / page).write_text(text.replace("](../notebooks/", "](../notebooks/"))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (source / "index.md").write_text(without_remote_badges(home_page(readme)), encoding="utf-8")
    shutil.copy2(ROOT / "tools" / "site" / "conf.py", source / "conf.py")
    (source / "_static").mkdir()
    shutil.copy2(_VENDORED / "tex-svg.js", source / "_static" / "tex-svg.js")
    return source


def build(output: Path = OUTPUT) -> Path:
    """Assemble and run Sphinx; warnings about the course's own pages fail the build."""
    from tools.links import repository

    repo = repository()
    source = assemble(output.parent / f"{output.name}-src")
    url = f"https://github.com/{repo.owner}/{repo.name}"
    env = dict(os.environ, SITE_REPOSITORY_URL=url, SITE_REF=repo.ref)
    if output.exists():
        shutil.rmtree(output)
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "--keep-going",
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
