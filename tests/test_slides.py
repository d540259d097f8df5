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


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict[str, str]:
    """The first notebook and the first one with math, exported once for the module."""
    picks = [NOTEBOOKS[0]]
    picks += [nb for nb in NOTEBOOKS if slides.has_math(nbformat.read(nb, as_version=4))][:1]
    out = tmp_path_factory.mktemp("slides")
    return {path.name: path.read_text(encoding="utf-8") for path in slides.export(picks, out)}


def test_export_loads_nothing_from_the_network(exported):
    for name, html in exported.items():
        assert slides.network_urls(html) == [], f"{name} would fetch {slides.network_urls(html)[:3]}"
        assert "Reveal.initialize" in html and "reveal.js 4.0.2" in html, f"{name}: reveal.js is not inlined"


def test_math_is_rendered_by_an_inlined_mathjax_only_where_needed(exported):
    for name, html in exported.items():
        nb = nbformat.read(ROOT / "notebooks" / name.replace(".slides.html", ".ipynb"), as_version=4)
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
        _cell("markdown", "## Build it\n\ntext"),
        _cell("markdown", "### Step 1: a step"),
        _cell("code", "x = 1"),
        _cell("markdown", "**2. A surprise.** It does this:"),
        _cell("markdown", "plain prose"),
        _cell("markdown", "speaker only", slide_type="notes"),
        _cell("code", "hidden()", slide_type="skip"),
    ]
    assert [slides.slide_type_for(c, i) for i, c in enumerate(cells)] == [
        "slide", "slide", "subslide", "fragment", "subslide", "fragment", "notes", "skip",
    ]


def test_mark_changes_metadata_only_and_is_idempotent(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [_cell("markdown", "# 00 · T"), _cell("code", "1 + 1"), _cell("markdown", "## Key points")]
    nb.cells[1].outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "2"}, execution_count=1)]
    nb.cells[1].execution_count = 1
    path = tmp_path / "00_t.ipynb"
    nbformat.write(nb, path)
    assert slides.mark(path)
    marked = nbformat.read(path, as_version=4)
    for before, after in zip(nb.cells, marked.cells, strict=True):
        assert before.source == after.source and before.get("outputs") == after.get("outputs")
        assert after.get("execution_count") == before.get("execution_count")
    assert [c.metadata.slideshow.slide_type for c in marked.cells] == ["slide", "fragment", "slide"]
    assert not slides.mark(path), "marking twice changes nothing"
    assert slides.unmarked(path) == []


def test_offline_slides_open_in_chromium_without_a_single_network_request(exported, tmp_path):
    import accessibility
    from lab_harness import CHROMIUM, start_browser

    if not CHROMIUM.exists():
        pytest.skip(f"slides browser check skipped: {CHROMIUM} not found (the HTML scan above still ran)")
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
            assert page.evaluate("() => Reveal.getTotalSlides()") >= 1
            course = accessibility.course_violations(page, ".reveal .slides")
            report = accessibility.record(SLIDE_REPORTS, Path(name).stem, {"slides": course})
            assert not course, f"{name}: accessibility violations (see {report}): " + (
                accessibility.describe(course)
            )
            page.close()
    finally:
        browser.stop()
