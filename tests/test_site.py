"""The course website (``make site``) opened page by page in headless Chromium.

The site is built from the stored notebooks into a temporary folder, served on 127.0.0.1, and every
HTML page is loaded. A page fails on a console error, a request to any address but the local
server, a picture that does not load or has no alt text, or an internal link to a missing file.
Needs Debian's Chromium, like the browser test: without it the browser part skips (or fails
when RETRIEVAL_LAB_REQUIRE_BROWSER=1, as in CI); the link and alt-text checks run either way.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import threading
from pathlib import Path
from urllib.parse import urldefrag, urlparse

import pytest
from lab_harness import ROOT, find_chromium, start_browser

from tools import build_site

REQUIRED = os.environ.get("RETRIEVAL_LAB_REQUIRE_BROWSER") == "1"
_HREF = re.compile(r'(?:href|src)="([^"]+)"')


@pytest.fixture(scope="module")
def site() -> Path:
    """Built into build/site-test, incrementally: a warm run re-reads only the changed pages."""
    return build_site.build(ROOT / "build" / "site-test")


def pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html") if "_static" not in p.parts)


def test_the_site_has_a_page_per_notebook_and_the_guides(site: Path):
    names = {p.relative_to(site).as_posix() for p in pages(site)}
    notebooks = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert {f"notebooks/{n}.html" for n in notebooks} <= names
    assert {"index.html", "search.html", "docs/instructor-guide.html"} <= names


def test_every_internal_link_and_picture_resolves(site: Path):
    broken = []
    for page in pages(site):
        for target in _HREF.findall(page.read_text(encoding="utf-8")):
            url = urlparse(target)
            if url.scheme or target.startswith(("#", "mailto:", "javascript:")):
                continue
            path = urldefrag(target)[0].split("?")[0]
            if path and not (page.parent / path).resolve().exists():
                broken.append(f"{page.relative_to(site)} -> {target}")
    assert not broken, "broken internal links:\n" + "\n".join(broken[:20])


def test_every_notebook_picture_has_its_alt_text(site: Path):
    missing = []
    for page in site.glob("notebooks/*.html"):
        for tag in re.findall(r"<img [^>]*_images/[^>]*>", page.read_text(encoding="utf-8")):
            alt = re.search(r'alt="([^"]*)"', tag)
            if alt is None or not alt.group(1) or "_images/" in alt.group(1):
                missing.append(f"{page.name}: {tag[:90]}")
    assert not missing, "pictures without a description:\n" + "\n".join(missing[:20])


@pytest.fixture(scope="module")
def served(site: Path):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *args: None  # type: ignore[method-assign]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def test_every_page_loads_offline_without_errors(site: Path, served: str):
    if find_chromium() is None:
        reason = "site browser test skipped: no Chromium (apt-get install chromium, or playwright install)"
        pytest.fail(reason) if REQUIRED else pytest.skip(reason)
    browser = start_browser()
    problems: list[str] = []
    try:
        page = browser.context.new_page()
        current = {"url": ""}

        def console(message) -> None:
            # The browser asks every site for /favicon.ico, which Sphinx does not write: a
            # request the page never makes (the route this test used to intercept every request
            # with never saw it), so its 404 is not the page's error.
            if message.type == "error" and message.location.get("url") != f"{served}/favicon.ico":
                problems.append(f"{current['url']}: console error {message.text}")

        def outside(request) -> None:
            if not request.url.startswith((served, "data:")):
                problems.append(f"{current['url']}: request to {request.url}")

        page.on("console", console)
        page.on("pageerror", lambda e: problems.append(f"{current['url']}: page error {e}"))
        # Every request is seen, none is held: intercepting them all (page.route) turned the
        # browser's cache off, so each page fetched and compiled the theme's scripts and
        # MathJax again (a third of the test's CPU). A request elsewhere fails the test either
        # way; offline (CI, this machine) it fails in the browser too.
        page.on("request", outside)
        for html in pages(site):
            current["url"] = html.relative_to(site).as_posix()
            page.goto(f"{served}/{current['url']}", wait_until="load")
            broken = page.evaluate(
                "[...document.images].filter(i => !i.complete || i.naturalWidth === 0)"
                ".map(i => i.getAttribute('src'))"
            )
            problems += [f"{current['url']}: picture did not load: {src}" for src in broken]
    finally:
        browser.stop()
    assert not problems, "\n".join(problems[:30])
