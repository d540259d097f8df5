"""Demo mode: slide metadata, and an offline static export of the slides (make slides).

The export must load nothing from a network: every script, stylesheet, image and font is inlined.
The scan below reads the HTML; tests/test_browser.py-style proof in a real browser runs too when
Debian's Chromium is installed (it records every request the page makes).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import nbformat
import pytest

from tools.nbtools import course_notebooks

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("retrieval_lab_tools_slides", ROOT / "tools" / "slides.py")
slides = sys.modules[_spec.name] = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(slides)

NOTEBOOKS = course_notebooks()
SLIDE_REPORTS = ROOT / "artifacts" / "slides"  # what axe-core found on each deck


def test_every_notebook_is_a_deck_with_a_slide_per_section():
    """`python -m tools.slides check`, in `make test`: a notebook without the structure fails."""
    problems = slides.check()
    by_notebook: dict[str, list[str]] = {}
    for problem in problems:
        by_notebook.setdefault(problem.split(":", 1)[0], []).append(problem)
    assert not problems, "\n".join(  # the first two problems and the fix, per notebook
        line for found in by_notebook.values()
        for line in [*found[:2], *(["  ..."] if len(found) > 3 else []), found[-1]]
    )


def _math_pick() -> list[Path]:
    """Notebook 14 (its deck was once a single slide), or else the first notebook with math."""
    named = [nb for nb in NOTEBOOKS if nb.stem == "14_measuring_retrieval"]
    for nb in [*named, *(nb for nb in NOTEBOOKS if nb not in named)]:  # read no more than needed
        if slides.has_math(nbformat.read(nb, as_version=4)):
            return [nb]
    return []


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict[str, str]:
    """The first notebook and notebook 14 (it has math), exported once for the module."""
    picks = [NOTEBOOKS[0], *_math_pick()]
    out = tmp_path_factory.mktemp("slides")
    return {path.name: path.read_text(encoding="utf-8") for path in slides.export(picks, out)}


def test_export_loads_nothing_from_the_network(exported):
    for name, html in exported.items():
        assert slides.network_urls(html) == [], f"{name} would fetch {slides.network_urls(html)[:3]}"
        assert "Reveal.initialize" in html and "reveal.js 4.0.2" in html, f"{name}: reveal.js is not inlined"


def test_math_is_rendered_by_an_inlined_mathjax_only_where_needed(exported):
    for name, html in exported.items():
        nb = slides.spine_deck(ROOT / "notebooks" / name.replace(".slides.html", ".ipynb"))
        assert ("window.MathJax" in html) == slides.has_math(nb), name


def test_the_scan_finds_what_a_page_would_fetch():
    page = (
        '<script src="https://cdn.example/x.js"></script><link rel="stylesheet" href="//cdn.example/y.css">'
        '<img alt="b" src="https://mybinder.org/badge_logo.svg"><style>@import url(https://fonts.example/f.css);'
        '</style><script type="module">import m from "https://esm.example/m.js";</script>'
        '<a href="https://example.org/read-more">a link is not fetched</a>'
    )
    assert slides.network_urls(page) == [
        "https://cdn.example/x.js", "//cdn.example/y.css", "https://mybinder.org/badge_logo.svg",
        "https://fonts.example/f.css", "https://esm.example/m.js",
    ]


def _cell(kind: str, source: str, slide_type: str | None = None):
    make = nbformat.v4.new_markdown_cell if kind == "markdown" else nbformat.v4.new_code_cell
    cell = make(source)
    if slide_type:
        cell.metadata["slideshow"] = {"slide_type": slide_type}
    return cell


def test_slide_types_follow_the_headings():
    cells = [
        _cell("markdown", "# 01 · Title"),
        _cell("code", "# Colab only: install"),
        _cell("markdown", "## Build it\n\ntext"),
        _cell("markdown", "### Step 1: a step"),
        _cell("code", "x = 1"),
        _cell("markdown", "## Surprises"),
        _cell("markdown", "**2. A surprise.** What will it print?"),
        _cell("code", "surprise()"),
        _cell("markdown", "plain prose"),
        _cell("markdown", "speaker only", slide_type="notes"),
        _cell("code", "hidden()", slide_type="skip"),
        _cell("code", "check(...)"),
    ]
    cells[1].metadata["tags"] = ["colab-setup"]
    cells[-1].metadata["tags"] = ["check"]
    nb = nbformat.v4.new_notebook(cells=cells)
    assert slides.slide_types(nb) == [
        "slide", "skip", "slide", "subslide", "-", "slide", "subslide", "fragment", "-", "notes", "skip",
        "fragment",
    ]


def _deck(*cells):
    nb = nbformat.v4.new_notebook()
    nb.cells = list(cells)
    return nb


def test_annotate_changes_metadata_only_and_is_idempotent(tmp_path):
    nb = _deck(_cell("markdown", "# 00 · T"), _cell("code", "1 + 1"), _cell("markdown", "## Key points"))
    nb.cells[1].outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "2"}, execution_count=1)]
    nb.cells[1].execution_count = 1
    path = tmp_path / "00_t.ipynb"
    nbformat.write(nb, path)
    assert slides.annotate(path)
    marked = nbformat.read(path, as_version=4)
    for before, after in zip(nb.cells, marked.cells, strict=True):
        assert before.source == after.source and before.get("outputs") == after.get("outputs")
        assert after.get("execution_count") == before.get("execution_count")
    assert [c.metadata.slideshow.slide_type for c in marked.cells] == ["slide", "-", "slide"]
    assert not slides.annotate(path), "annotating twice changes nothing"
    assert slides.unmarked(path) == [] and slides.structure_problems(marked, path.name) == []


def test_annotate_gives_a_heading_inside_a_cell_its_own_cell(tmp_path):
    text = "Prose before.\n\n## Surprises\n\n**1. One.** Text.\n\n```python\n## not a heading\n```"
    path = tmp_path / "00_t.ipynb"
    nbformat.write(_deck(_cell("markdown", "# 00 · T"), _cell("markdown", text)), path)
    assert slides.structure_problems(nbformat.read(path, as_version=4), path.name)
    slides.annotate(path)
    cells = nbformat.read(path, as_version=4).cells
    assert [c.source for c in cells[1:]] == [
        "Prose before.", "## Surprises", "**1. One.** Text.\n\n```python\n## not a heading\n```"]
    assert [c.metadata.slideshow.slide_type for c in cells] == ["slide", "-", "slide", "subslide"]


def test_a_notebook_without_the_structure_fails():
    plain = _deck(_cell("markdown", "# 00 · T"), _cell("markdown", "## Build it"), _cell("code", "x"))
    assert any("no slide type" in p for p in slides.structure_problems(plain, "00_t.ipynb"))
    flat = _deck(_cell("markdown", "# 00 · T", "slide"), _cell("markdown", "## Build it", "fragment"),
                 _cell("markdown", "### Step", "-"), _cell("code", "x", "subslide"))
    problems = slides.structure_problems(flat, "00_t.ipynb")
    assert any("cell 1 starts a section" in p for p in problems)
    assert any("cell 2 starts a step" in p for p in problems)
    assert any("cell 3 is a 'subslide' but starts no section" in p for p in problems)
    assert problems[-1].endswith("run `python -m tools.slides annotate notebooks/00_t.ipynb`")


def test_offline_slides_open_in_chromium_without_a_single_network_request(exported, tmp_path):
    import accessibility
    from lab_harness import find_chromium, start_browser

    if find_chromium() is None:
        pytest.skip("slides browser check skipped: no Chromium (the HTML scan above still ran)")
    browser = start_browser()
    try:
        for name, html in exported.items():
            path = tmp_path / name
            path.write_text(html, encoding="utf-8")
            page = browser.context.new_page()
            fetched: list[str] = []
            page.on("request", lambda r, fetched=fetched: fetched.append(r.url))
            page.goto(path.as_uri())
            page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=60_000)
            if "window.MathJax" in html:
                page.wait_for_function("() => document.querySelectorAll('mjx-container').length > 0",
                                       timeout=60_000)
            remote = [u for u in fetched if not u.startswith(("file:", "data:", "blob:", "about:"))]
            assert remote == [], f"{name} fetched {remote}"
            nb = slides.spine_deck(ROOT / "notebooks" / name.replace(".slides.html", ".ipynb"))
            sections = sum(c.metadata.get("slideshow", {}).get("slide_type") == "slide" for c in nb.cells)
            shown = page.evaluate("() => Reveal.getHorizontalSlides().length")
            assert shown == sections > 1, f"{name}: the deck shows {shown} slides for {sections} sections"
            # axe first, on the still title slide: during a slide transition two slides are
            # half faded, and their text fails the contrast rule for as long as it lasts
            course = accessibility.course_violations(page, ".reveal .slides")
            report = accessibility.record(SLIDE_REPORTS, Path(name).stem, {"slides": course})
            assert not course, f"{name}: accessibility violations (see {report}): " + (
                accessibility.describe(course)
            )
            page.keyboard.press("ArrowRight")
            assert page.evaluate("() => Reveal.getIndices().h") == 1, f"{name}: the right arrow moved nothing"
            page.close()
    finally:
        browser.stop()


# --------------------------------------------------------------------------- spine decks: one idea a slide

SCREEN = (1280, 720)
MAX_SCREENS = 1.2


def all_spine_decks():
    """Every notebook's spine deck, one after another in one deck: one export and one page load
    measure every slide of the course (the slides are the same cells, styled the same)."""
    decks = [slides.spine_deck(path) for path in NOTEBOOKS]
    combined = nbformat.v4.new_notebook()
    combined.metadata = decks[0].metadata
    for deck in decks:
        combined.cells += deck.cells
    return combined


def test_each_deck_follows_its_spine_and_splits_what_would_not_fit():
    for path in NOTEBOOKS:
        deck = slides.spine_deck(path)
        nb = nbformat.read(path, as_version=4)
        spine = [c for c in nb.cells if "spine" in c.metadata.get("tags", [])]
        if spine:
            sources = {c.source for c in deck.cells}
            kept = [c for c in spine if "colab-setup" not in c.metadata.get("tags", [])
                    and c.cell_type == "code"]
            assert all(c.source in sources for c in kept), path.name
        assert max(slides.deck_heights(deck)) <= slides.SLIDE_BUDGET or all(
            len(c.source.splitlines()) > 25 for c in deck.cells if c.cell_type == "code"
            and slides.input_height(c) > slides.SLIDE_BUDGET), path.name


def test_no_slide_is_taller_than_a_screen_and_a_fifth(tmp_path):
    """Every slide of every spine deck in Chromium at 1280x720: its height on the screen (reveal's
    scale applied) at most 1.2 screens; the tallest is printed."""
    from lab_harness import find_chromium, start_browser

    if find_chromium() is None:
        pytest.skip("slide heights need Chromium (/usr/bin/chromium)")
    [page_file] = slides.export([], tmp_path, decks={"all-spines": all_spine_decks()})
    browser = start_browser(viewport=SCREEN)
    try:
        page = browser.context.new_page()
        page.goto(page_file.as_uri())
        page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=60_000)
        if "window.MathJax" in page_file.read_text(encoding="utf-8"):
            page.wait_for_function("() => document.querySelectorAll('mjx-container').length > 0",
                                   timeout=60_000)
        # every slide shown at once (reveal hides the far ones), measured in one layout pass
        heights = page.evaluate("""() => {
            const scale = Reveal.getScale();
            const slides = Reveal.getHorizontalSlides();
            slides.forEach((s) => { s.style.display = "block"; });
            return slides.map((s, i) => [i, Math.round(s.scrollHeight * scale),
                                         (s.textContent || "").trim().slice(0, 60)]);
        }""")
        page.close()
    finally:
        browser.stop()
    limit = MAX_SCREENS * SCREEN[1]
    tallest = max(heights, key=lambda h: h[1])
    print(f"{len(heights)} slides; the tallest {tallest[1]} px of {limit:.0f} (slide {tallest[0]})")
    too_tall = [h for h in heights if h[1] > limit]
    assert not too_tall, f"{len(too_tall)} slides over {limit:.0f} px: {too_tall[:5]}"
