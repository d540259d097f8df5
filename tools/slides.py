"""Demo mode: the slide structure of every notebook, and an offline static export of the slides.

Three jobs, one file:

``python -m tools.slides annotate [notebooks…]`` (all course notebooks when none is named)
    Give every cell a ``slideshow`` slide type, so each notebook is a deck, live in JupyterLab
    (jupyterlab-rise: the *Render as Reveal Slideshow* button) and static (``make slides``):

    - a **slide** at the title and at each ``## `` section (Build it, Meet the real one, …);
    - a **subslide** (down arrow) at each step: a ``### `` heading or a numbered surprise
      (``**1. …``);
    - a **fragment** where a reveal helps: the code that answers a surprise's question, a
      picture (ask the room what it will show first), a check's verdict, a solution;
    - ``skip`` for the Colab set-up cell (it does nothing outside Colab), and ``-`` (the same
      slide) for everything else. A cell an author marked ``skip`` or ``notes`` keeps its type.

    A markdown cell with a section, step or surprise heading below its first line is split there
    first (outside code fences), so every heading starts its own cell and so its own slide.
    Nothing else changes: sources (but for those splits), outputs and counts stay, so nbval and the
    stored outputs are unaffected and nothing needs re-executing; after a split, ``make export``
    renumbers the cell markers of the generated modules. Idempotent: a second run changes nothing.

``python -m tools.slides check`` (``tests/test_slides.py`` runs it in ``make test``)
    Exit 1 and say why when a notebook lacks that structure: a cell with no slide type, a
    ``## `` section that is not a slide, a step that is not a subslide, a slide or subslide where
    no heading starts, a heading inside a cell, or a Colab cell shown on a slide.

``python -m tools.slides export [--out build/slides] [notebooks…]`` (``make slides``)
    ``jupyter nbconvert --to slides`` through the template in ``tools/nbconvert-templates/``:
    reveal.js 4.0.2 (the version nbconvert 7 loads from unpkg.com by default) and, for a
    notebook with math, MathJax 3.2.2, both vendored from the npm registry and **inlined**, so
    each ``NN_name.slides.html`` is one file that opens from a USB stick with no network.
    nbconvert's own ``--SlidesExporter.reveal_url_prefix`` can point reveal.js at a local folder,
    but the stock template would still load jQuery, require.js, mermaid and MathJax from CDNs.
"""

from __future__ import annotations

import argparse
import re
from itertools import pairwise
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "tools" / "nbconvert-templates"
TEMPLATE = "retrieval-lab-slides"
DEFAULT_OUT = ROOT / "build" / "slides"
KEEP = {"skip", "notes"}  # an author's explicit choice the tool never overrides
COLAB_TAG = "colab-setup"
REVEALS = {"check", "solution"}  # cell tags whose content is revealed on a key press
_SECTION = re.compile(r"^## ")
_STEP = re.compile(r"^(?:### |\*\*\d+\.)")  # a ### heading, or a numbered surprise **1. …
_SURPRISES = re.compile(r"^##\s+(?:Surprises|A surprise)", re.I)
_FENCE = re.compile(r"^\s*(```|~~~)")
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


# --------------------------------------------------------------------------- slide structure

def _tags(cell) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def _first_line(cell) -> str:
    source = cell.get("source", "")
    return source.lstrip().splitlines()[0] if source.strip() else ""


def _heading_lines(source: str) -> list[int]:
    """Line numbers (after the first) where a section, step or surprise starts, outside fences.

    A numbered surprise counts only at the start of a paragraph (after a blank line)."""
    found, fenced = [], False
    lines = source.splitlines()
    for n, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        if fenced or n == 0 or "<details>" in line:
            continue
        if _SECTION.match(line) or line.startswith("### ") or (
            _STEP.match(line) and not lines[n - 1].strip()
        ):
            found.append(n)
    return found


def split_headings(nb) -> bool:
    """Split every untagged markdown cell (not the title) at the headings below its first line."""
    import nbformat

    changed, cells = False, []
    for i, cell in enumerate(nb.cells):
        cuts = _heading_lines(cell.source) if cell.cell_type == "markdown" and i and not _tags(cell) else []
        if not cuts:
            cells.append(cell)
            continue
        lines = cell.source.splitlines()
        bounds = [0, *cuts, len(lines)]
        parts = ["\n".join(lines[a:b]).strip("\n") for a, b in pairwise(bounds)]
        cell.source = parts[0]
        cells.append(cell)
        cells += [nbformat.v4.new_markdown_cell(part) for part in parts[1:] if part.strip()]
        changed = True
    nb.cells = cells
    return changed


def slide_types(nb) -> list[str]:
    """The slide type of each cell by the course's rule (see the module docstring)."""
    types, section, previous = [], "", None
    for i, cell in enumerate(nb.cells):
        first = _first_line(cell)
        current = cell.get("metadata", {}).get("slideshow", {}).get("slide_type")
        markdown = cell.get("cell_type") == "markdown"
        if markdown and _SECTION.match(first):
            section = first
        if COLAB_TAG in _tags(cell):
            wanted = "skip"
        elif current in KEEP:
            wanted = current
        elif i == 0 or (markdown and _SECTION.match(first)):
            wanted = "slide"
        elif markdown and _STEP.match(first):
            wanted = "subslide"
        elif _tags(cell) & REVEALS or _has_picture(cell) or (
            cell.get("cell_type") == "code" and _SURPRISES.match(section)
            and previous is not None and previous.get("cell_type") == "markdown"
        ):
            wanted = "fragment"
        else:
            wanted = "-"
        types.append(wanted)
        previous = cell
    return types


def _has_picture(cell) -> bool:
    return any("image/png" in o.get("data", {}) for o in cell.get("outputs", []))


def annotate(notebook: Path) -> bool:
    """Split headings into their own cells and write the slide types; returns whether it changed."""
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    changed = split_headings(nb)
    for cell, wanted in zip(nb.cells, slide_types(nb), strict=True):
        if cell.metadata.get("slideshow", {}).get("slide_type") != wanted:
            cell.metadata["slideshow"] = {**cell.metadata.get("slideshow", {}), "slide_type": wanted}
            changed = True
    if nb.metadata.get("rise") != {**nb.metadata.get("rise", {}), "scroll": True}:
        nb.metadata["rise"] = {**nb.metadata.get("rise", {}), "scroll": True}  # long slides scroll
        changed = True
    if changed:
        nbformat.write(nb, notebook)
    return changed


mark = annotate  # the earlier name


def structure_problems(nb, name: str) -> list[str]:
    """Why a notebook is not a deck with a slide per section and a subslide per step."""
    problems = []
    fix = f"run `python -m tools.slides annotate notebooks/{name}`"
    wanted = slide_types(nb)
    for i, cell in enumerate(nb.cells):
        have = cell.get("metadata", {}).get("slideshow", {}).get("slide_type")
        first = _first_line(cell)
        if have is None:
            problems.append(f"{name}: cell {i} has no slide type")
        elif wanted[i] in {"slide", "subslide", "skip"} and have != wanted[i]:
            what = {"slide": "starts a section or the title", "subslide": "starts a step",
                    "skip": "is the Colab set-up cell"}[wanted[i]]
            problems.append(f"{name}: cell {i} {what} ({first[:40]!r}) but is a {have!r}, not a {wanted[i]!r}")
        elif have in {"slide", "subslide"} and wanted[i] not in {"slide", "subslide"}:
            problems.append(f"{name}: cell {i} is a {have!r} but starts no section or step ({first[:40]!r})")
        if cell.get("cell_type") == "markdown" and i and not _tags(cell) and _heading_lines(cell.source):
            line = cell.source.splitlines()[_heading_lines(cell.source)[0]]
            problems.append(f"{name}: cell {i} has a heading inside it ({line[:40]!r}): it must start a cell")
    if problems:
        problems.append(f"{name}: {fix}")
    return problems


def unmarked(notebook: Path) -> list[int]:
    """Indices of cells that have no slide type yet."""
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    return [i for i, c in enumerate(nb.cells) if not c.metadata.get("slideshow", {}).get("slide_type")]


# --------------------------------------------------------------------------- spine decks

#: A slide is 1280 x 800 reveal pixels (the template), shown scaled on the screen. What the deck
#: aims at: a slide a little shorter than the presentation, so that estimates that run long still
#: stay under the browser test's limit (1.2 screens, tests/test_slides.py).
SLIDE_BUDGET = 760
CODE_LINE = 26  # --jp-code-font-size 19px, at pygments' line height
PROSE_LINE = 30  # 20px prose
PROSE_CHARS = 92  # characters of prose a line holds in the slide's width
CELL_GAP = 40  # a cell's padding and margins
IMAGE_WIDTH = 1100  # an image wider than this is scaled down to it
OUTPUT_ONLY = "retrieval-lab-output-only"  # a deck cell that shows a code cell's output alone


def _png_size(data: str) -> tuple[int, int]:
    """(width, height) of a base64 PNG, read from its header."""
    import base64
    import struct

    head = base64.b64decode(data[:64])
    return struct.unpack(">II", head[16:24])


def _output_text(output) -> str:
    kind = output.get("output_type")
    if kind == "stream":
        return output.get("text", "")
    if kind == "error":
        return "\n".join(output.get("traceback", []))
    data = output.get("data", {})
    return "" if "image/png" in data or "text/html" in data else str(data.get("text/plain", ""))


def output_height(outputs) -> int:
    """Estimated reveal pixels of a code cell's outputs."""
    height = 0
    for output in outputs:
        data = output.get("data", {})
        if "image/png" in data:
            width, tall = _png_size(data["image/png"])
            height += int(tall * min(1.0, IMAGE_WIDTH / width)) + 20
        elif "text/html" in data:
            html = str(data["text/html"])
            height += 36 * max(1, html.count("<tr")) + 20
        else:
            height += CODE_LINE * len(_output_text(output).splitlines())
    return height + (CELL_GAP // 2 if height else 0)


def input_height(cell) -> int:
    """Estimated reveal pixels of a cell's source as the slide shows it."""
    if cell.cell_type == "code":
        return CODE_LINE * len(cell.source.splitlines()) + CELL_GAP
    height, fenced = 0, False
    for line in cell.source.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            height += CODE_LINE
        elif line.startswith("# "):
            height += 60
        elif line.startswith(("## ", "### ")):
            height += 48
        elif not line.strip():
            height += 12
        else:
            height += PROSE_LINE * max(1, -(-len(line) // PROSE_CHARS))
    return height + CELL_GAP


def _paragraph_chunks(source: str, budget: int) -> list[str]:
    """A markdown text cut at blank lines (outside code fences) into parts that fit ``budget``."""
    import nbformat

    blocks, current, fenced = [], [], False
    for line in source.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if not line.strip() and not fenced and current:
            blocks.append("\n".join(current))
            current = []
        else:
            current.append(line)
    if current:
        blocks.append("\n".join(current))
    chunks: list[str] = []
    for block in blocks:
        joined = f"{chunks[-1]}\n\n{block}" if chunks else block
        if chunks and input_height(nbformat.v4.new_markdown_cell(joined)) <= budget:
            chunks[-1] = joined
        else:
            chunks.append(block)
    return chunks


def _output_chunks(outputs, budget: int) -> list[list]:
    """Outputs in groups that fit ``budget``; a long text output is cut into runs of lines."""
    import copy

    groups: list[list] = [[]]
    for output in outputs:
        pieces = [output]
        text_key = "text" if output.get("output_type") == "stream" else None
        if text_key and output_height([output]) > budget:
            lines = output["text"].splitlines(keepends=True)
            per = max(1, (budget - CELL_GAP) // CODE_LINE)
            pieces = []
            for start in range(0, len(lines), per):
                piece = copy.deepcopy(output)
                piece["text"] = "".join(lines[start:start + per])
                pieces.append(piece)
        for piece in pieces:
            if groups[-1] and output_height(groups[-1] + [piece]) > budget:
                groups.append([])
            groups[-1].append(piece)
    return [g for g in groups if g]


def spine_deck(notebook: Path):
    """The deck a workshop shows for a notebook: its spine (the workshop edition's cells, with the
    notebook's stored outputs), one idea a slide. A markdown cell starts a slide and the code it
    introduces joins it when both fit; code and its output are split when they would not fit
    together, and a long output or text is cut across slides. Without a spine: every cell."""
    import copy

    import nbformat

    from tools import editions

    source = nbformat.read(notebook, as_version=4)
    if editions.spine_indices(source):
        workshop, origins = editions.workshop_notebook(notebook)
        cells = [copy.deepcopy(source.cells[o]) if o is not None else c
                 for c, o in zip(workshop.cells, origins, strict=True)]
        for cell, edition_cell in zip(cells, workshop.cells, strict=True):
            cell.source = edition_cell.source
    else:
        cells = [copy.deepcopy(c) for c in source.cells]
    deck: list = []
    room = 0  # reveal pixels left on the current slide

    def start(cell, height: int) -> None:
        nonlocal room
        cell.metadata["slideshow"] = {"slide_type": "slide"}
        deck.append(cell)
        room = SLIDE_BUDGET - height

    for cell in cells:
        if COLAB_TAG in _tags(cell):
            continue
        cell.metadata.pop("slideshow", None)
        if cell.cell_type == "markdown":
            parts = _paragraph_chunks(cell.source, SLIDE_BUDGET) if input_height(cell) > SLIDE_BUDGET \
                else [cell.source]
            for part in parts:
                start(nbformat.v4.new_markdown_cell(part, metadata=copy.deepcopy(cell.metadata)),
                      input_height(nbformat.v4.new_markdown_cell(part)))
            continue
        code, shown = input_height(cell), output_height(cell.get("outputs", []))
        if code + shown <= room and deck and deck[-1].cell_type == "markdown":
            cell.metadata["slideshow"] = {"slide_type": "-"}
            deck.append(cell)
            room -= code + shown
        elif code + shown <= SLIDE_BUDGET:
            start(cell, code + shown)
        else:
            outputs = cell.get("outputs", [])
            cell.outputs = []
            if code <= room and deck and deck[-1].cell_type == "markdown":
                cell.metadata["slideshow"] = {"slide_type": "-"}
                deck.append(cell)
            else:
                start(cell, code)
            for group in _output_chunks(outputs, SLIDE_BUDGET):
                only = nbformat.v4.new_code_cell(cell.source, execution_count=cell.execution_count,
                                                 outputs=group)
                only.metadata["tags"] = [OUTPUT_ONLY]
                start(only, output_height(group))
    out = nbformat.v4.new_notebook()
    out.cells = deck
    out.metadata = copy.deepcopy(source.metadata)
    return out


def deck_heights(nb) -> list[int]:
    """Each slide's estimated height in reveal pixels (the cells from one slide start to the next)."""
    heights: list[int] = []
    for cell in nb.cells:
        height = (output_height(cell.get("outputs", [])) if OUTPUT_ONLY in _tags(cell)
                  else input_height(cell) + (output_height(cell.get("outputs", []))
                                             if cell.cell_type == "code" else 0))
        if cell.metadata.get("slideshow", {}).get("slide_type") == "slide" or not heights:
            heights.append(height)
        else:
            heights[-1] += height
    return heights


# --------------------------------------------------------------------------- offline export

def has_math(nb) -> bool:
    return any(c.cell_type == "markdown" and _MATH.search(c.source) for c in nb.cells)


def export(notebooks: list[Path], out: Path = DEFAULT_OUT, decks: dict[str, object] | None = None) -> list[Path]:
    """Write ``NN_name.slides.html`` for each notebook into ``out`` (its spine deck; ``decks``:
    name -> a deck notebook made otherwise); returns the files written."""
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    config = Config()
    config.TemplateExporter.extra_template_basedirs = [str(TEMPLATES)]
    config.SlidesExporter.template_name = TEMPLATE
    config.TagRemovePreprocessor.enabled = True
    config.TagRemovePreprocessor.remove_input_tags = {OUTPUT_ONLY}
    out.mkdir(parents=True, exist_ok=True)
    written = []
    made = dict(decks or {})
    for notebook in notebooks:
        made.setdefault(notebook.stem, None)
    paths = {p.stem: p for p in notebooks}
    for name, deck in made.items():
        nb = deck if deck is not None else spine_deck(paths[name])
        notebook = paths.get(name, Path(f"{name}.ipynb"))
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


def check(notebooks: list[Path] | None = None) -> list[str]:
    """Every structure problem of the course notebooks (empty when each one is a proper deck)."""
    import nbformat

    paths = _notebooks() if notebooks is None else notebooks
    return [p for path in paths for p in structure_problems(nbformat.read(path, as_version=4), path.name)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("annotate", "mark"):
        cmd = sub.add_parser(name, help="give the named notebooks (default: all) their slide structure")
        cmd.add_argument("notebooks", nargs="*", type=Path)
        cmd.add_argument("--all", action="store_true", help="every course notebook (the default)")
    export_cmd = sub.add_parser("export", help="offline reveal.js slides into --out")
    export_cmd.add_argument("notebooks", nargs="*", type=Path)
    export_cmd.add_argument("--out", type=Path, default=DEFAULT_OUT)
    sub.add_parser("check", help="exit 1 when a course notebook lacks the slide structure")
    args = parser.parse_args(argv)

    if args.command in {"annotate", "mark"}:
        targets = [p.resolve() for p in args.notebooks] or _notebooks()
        for notebook in targets:
            print(f"{'annotated' if annotate(notebook) else 'unchanged'}: {_shown(notebook)}")
        return 0
    if args.command == "export":
        targets = [p.resolve() for p in args.notebooks] or _notebooks()
        for path in export(targets, args.out.resolve()):
            print(f"slides: {_shown(path)}")
        print(f"open them in a browser; they load nothing from the network ({len(targets)} notebook(s))")
        return 0
    problems = check()
    print("\n".join(problems) if problems else
          "slides: every course notebook has a slide per section and a subslide per step")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
