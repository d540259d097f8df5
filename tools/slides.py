"""Demo mode: slide metadata on the notebooks' cells, and an offline static export of the slides.

Two jobs, one file:

``python -m tools.slides mark notebooks/00_the_pipeline.ipynb …``
    Give every cell of the named notebooks a ``slideshow`` slide type, so the notebook can be
    presented as live slides in JupyterLab (jupyterlab-rise: the *Render as Reveal Slideshow*
    button, or Alt+R): a new slide at the title and at each ``##`` heading, a sub-slide (down
    arrow) at each ``###`` heading and each numbered surprise (``**1. …``), and every other
    cell a fragment that appears on the next key press. A cell an author marked ``skip`` or
    ``notes`` keeps its type. Only the metadata changes: sources and outputs are untouched, so
    nbval and the stored outputs are unaffected and no re-execution is needed. Name the notebooks
    explicitly (or ``--all``): it rewrites the files, so run it on finished notebooks only.

``python -m tools.slides export [--out build/slides] [notebooks…]`` (``make slides``)
    ``jupyter nbconvert --to slides`` through the template in ``tools/nbconvert-templates/``:
    reveal.js 4.0.2 (the version nbconvert 7 loads from unpkg.com by default) and, for a
    notebook with math, MathJax 3.2.2, both vendored from the npm registry and **inlined**, so
    each ``NN_name.slides.html`` is one file that opens from a USB stick with no network.
    nbconvert's own ``--SlidesExporter.reveal_url_prefix`` can point reveal.js at a local folder,
    but the stock template would still load jQuery, require.js, mermaid and MathJax from CDNs.

``python -m tools.slides check`` lists course notebooks whose cells have no slide type.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "tools" / "nbconvert-templates"
TEMPLATE = "retrieval-lab-slides"
DEFAULT_OUT = ROOT / "build" / "slides"
KEEP = {"skip", "notes"}  # an author's explicit choice the tool never overrides
_SURPRISE = re.compile(r"^\*\*\d+\.")
_MATH = re.compile(r"\$[^$\s][^$]*\$|\\\(|\\\[")
_REMOTE_IMAGE = re.compile(r"!\[([^\]]*)\]\((?:https?:)?//[^)\s]+\)")
# What a page would fetch over the network: a script, an image or frame, a stylesheet, a font or
# CSS import, an ES module import (links a reader may click, <a href=…>, are not fetched).
_NETWORK = re.compile(
    r"""<[a-z]+[^>]*\b(?:src|srcset|poster|data)\s*=\s*["']?(?P<src>(?:https?:)?//[^"'\s>]+)"""
    r"""|<link[^>]*\bhref\s*=\s*["']?(?P<link>(?:https?:)?//[^"'\s>]+)"""
    r"""|@import\s+(?:url\()?\s*["']?(?P<import>(?:https?:)?//[^"')\s;]+)"""
    r"""|url\(\s*["']?(?P<url>(?:https?:)?//[^"')\s]+)"""
    r"""|\bimport\s[^;]*?\bfrom\s*["'](?P<module>(?:https?:)?//[^"']+)""",
    re.IGNORECASE,
)


def _notebooks():
    from tools.nbtools import course_notebooks

    return course_notebooks()


# --------------------------------------------------------------------------- slide metadata

def slide_type_for(cell, index: int) -> str:
    """The slide type the course gives a cell (see the module docstring for the rule)."""
    current = cell.get("metadata", {}).get("slideshow", {}).get("slide_type")
    if current in KEEP:
        return current
    if index == 0:
        return "slide"
    if cell.get("cell_type") == "markdown":
        first = cell.get("source", "").lstrip().splitlines()[0] if cell.get("source", "").strip() else ""
        if first.startswith("## ") or first.startswith("# "):
            return "slide"
        if first.startswith("### ") or _SURPRISE.match(first):
            return "subslide"
    return "fragment"


def mark(notebook: Path) -> bool:
    """Write the slide types into one notebook; returns whether the file changed."""
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    changed = False
    for i, cell in enumerate(nb.cells):
        wanted = slide_type_for(cell, i)
        if cell.metadata.get("slideshow", {}).get("slide_type") != wanted:
            cell.metadata.setdefault("slideshow", {})["slide_type"] = wanted
            changed = True
    if "rise" not in nb.metadata:
        nb.metadata["rise"] = {"scroll": True}  # long slides scroll in JupyterLab's RISE too
        changed = True
    if changed:
        nbformat.write(nb, notebook)
    return changed


def unmarked(notebook: Path) -> list[int]:
    """Indices of cells that have no slide type yet."""
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    return [i for i, c in enumerate(nb.cells) if not c.metadata.get("slideshow", {}).get("slide_type")]


# --------------------------------------------------------------------------- offline export

def has_math(nb) -> bool:
    return any(c.cell_type == "markdown" and _MATH.search(c.source) for c in nb.cells)


def export(notebooks: list[Path], out: Path = DEFAULT_OUT) -> list[Path]:
    """Write ``NN_name.slides.html`` for each notebook into ``out``; returns the files written."""
    import nbformat
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    config = Config()
    config.TemplateExporter.extra_template_basedirs = [str(TEMPLATES)]
    config.SlidesExporter.template_name = TEMPLATE
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for notebook in notebooks:
        nb = nbformat.read(notebook, as_version=4)
        for cell in nb.cells:  # e.g. the Binder badge: a remote image becomes its link text
            if cell.cell_type == "markdown":
                cell.source = _REMOTE_IMAGE.sub(lambda m: m.group(1) or "image", cell.source)
        exporter = SlidesExporter(config=config)
        body, _ = exporter.from_notebook_node(
            nb,
            resources={"metadata": {"name": notebook.stem}, "retrieval_lab_math": has_math(nb)},
        )
        target = out / f"{notebook.stem}.slides.html"
        target.write_text(body, encoding="utf-8")
        written.append(target)
    return written


def network_urls(html: str) -> list[str]:
    """Every script, stylesheet, font or module the page would fetch from a network."""
    return [next(v for v in m.groupdict().values() if v) for m in _NETWORK.finditer(html)]


# --------------------------------------------------------------------------- CLI

def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    mark_cmd = sub.add_parser("mark", help="add slide metadata to the named notebooks")
    mark_cmd.add_argument("notebooks", nargs="*", type=Path)
    mark_cmd.add_argument("--all", action="store_true", help="every course notebook")
    export_cmd = sub.add_parser("export", help="offline reveal.js slides into --out")
    export_cmd.add_argument("notebooks", nargs="*", type=Path)
    export_cmd.add_argument("--out", type=Path, default=DEFAULT_OUT)
    sub.add_parser("check", help="list course notebooks with cells that have no slide type")
    args = parser.parse_args(argv)

    if args.command == "mark":
        if not args.notebooks and not args.all:
            parser.error("name the notebooks to mark (finished ones only), or pass --all")
        targets = _notebooks() if args.all else [p.resolve() for p in args.notebooks]
        for notebook in targets:
            print(f"{'marked' if mark(notebook) else 'unchanged'}: {_shown(notebook)}")
        return 0
    if args.command == "export":
        targets = [p.resolve() for p in args.notebooks] or _notebooks()
        for path in export(targets, args.out.resolve()):
            print(f"slides: {_shown(path)}")
        print(f"open them in a browser; they load nothing from the network ({len(targets)} notebook(s))")
        return 0
    missing = {nb.name: unmarked(nb) for nb in _notebooks()}
    missing = {name: cells for name, cells in missing.items() if cells}
    for name, cells in missing.items():
        print(f"{name}: {len(cells)} cell(s) without a slide type: run `python -m tools.slides mark notebooks/{name}`")
    if not missing:
        print("slides: every course notebook has slide metadata")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
