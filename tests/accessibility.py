"""axe-core, the accessibility engine, on pages a browser test has open.

Why a helper: the browser tests check that every notebook runs and every slide deck loads; this
checks that what they show can be read by everyone. The course's own content (rendered markdown,
outputs, pictures, the comparison tables and check results) must have no violation of the rules
below; JupyterLab's own interface is outside the course's hands, so its violations are written to
``artifacts/browser/`` for the record and never fail a test.

axe-core is vendored in ``tests/vendor/axe-core`` (from the npm registry, with its licence), so the
check runs offline like the rest of the suite.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

AXE = Path(__file__).with_name("vendor") / "axe-core" / "axe.min.js"

#: What the course's own content can get wrong: pictures without a text alternative, text (our
#: HTML tables and check results) without enough contrast, tables and links that say nothing.
COURSE_RULES = (
    "image-alt",
    "role-img-alt",
    "svg-img-alt",
    "object-alt",
    "color-contrast",
    "link-name",
    "empty-table-header",
    "td-headers-attr",
)

_RUN = """async ([context, options]) => {
    const result = await axe.run(context, options);
    return result.violations.map(v => ({
        id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.map(n => ({target: n.target.join(' '), html: n.html.slice(0, 300),
                                  summary: n.failureSummary}))
    }));
}"""


#: Inside the course's content, what is JupyterLab's own: the code editors (CodeMirror), whose
#: text colours are JupyterLab's theme. Leaving their thousands of highlighted spans out also
#: halves axe's time per notebook (measured: 1.2-1.4 s -> 0.5-0.6 s of Chromium CPU).
NOT_COURSE = (".jp-InputArea-editor",)


def violations(page: Any, include: str | None = None, rules: tuple[str, ...] | None = None,
               exclude: tuple[str, ...] = ()) -> list[dict]:
    """axe-core's violations on ``page`` (inside ``include``, a CSS selector, when given; not
    inside any of ``exclude``)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    context: Any = {"include": [[include]]} if include else {}
    context["exclude"] = [[selector] for selector in exclude]
    options: dict[str, Any] = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": list(rules)}
    return page.evaluate(_RUN, [context, options])


def course_violations(page: Any, include: str) -> list[dict]:
    """Violations of the course's rules inside the course's content (code editors left out)."""
    return violations(page, include, COURSE_RULES, exclude=tuple(f"{include} {s}" for s in NOT_COURSE))


def record(folder: Path, name: str, found: dict[str, list[dict]]) -> Path:
    """Write what axe found to ``folder/axe-<name>.json`` (the test's artifacts)."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"axe-{name}.json"
    target.write_text(json.dumps(found, indent=2, ensure_ascii=False), encoding="utf-8")
    return target


def describe(found: list[dict]) -> str:
    """One line per violated rule: which, how many nodes, and the first node's HTML."""
    return "; ".join(
        f"{v['id']} ({v['impact']}, {len(v['nodes'])} node(s), e.g. {v['nodes'][0]['html'][:120]!r}): {v['help']}"
        for v in found
    )
