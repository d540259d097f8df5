"""Every list that must name each notebook, derived from the notebooks themselves.

Adding a notebook (``make new-notebook``) touches more than the notebook. Each test here takes the
notebooks in ``notebooks/`` as the truth and fails, naming what to do, when a list misses one:
the README's table, the instructor guide's sections, the Colab installs, the glossary anchors the
notebooks link to, the mutation report, the slides' structure, notebook 00's course map, and an
equivalence-test file for each scratch module. (The site's pages come from the README's table,
and the slides and the site read the notebooks themselves: nothing to keep by hand there.)
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import nbformat
import pytest

from tools import links, nbtools, slides

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = nbtools.course_notebooks()
#: What Colab has already: the notebooks import these without installing them.
COLAB_HAS = {"numpy", "matplotlib", "ipywidgets", "IPython", "google", "scipy", "pytest"}


def _nb(path: Path):
    return nbformat.read(path, as_version=4)


def _titles() -> dict[str, tuple[str, str]]:
    return {p.stem: links.title_of(_nb(p)) for p in NOTEBOOKS}


def missing_from_readme(readme: str, notebooks: list[Path] = NOTEBOOKS) -> list[str]:
    table = readme.split(links.START, 1)[-1].split(links.END, 1)[0]
    return [p.name for p in notebooks if f"](notebooks/{p.name})" not in table]


def test_the_readme_table_has_a_row_for_every_notebook():
    missing = missing_from_readme((ROOT / "README.md").read_text(encoding="utf-8"))
    assert not missing, f"README.md's table misses {missing}: run `python -m tools.links write`"


def test_the_registry_fails_when_a_list_misses_a_notebook():
    """The check above is not vacuous: a README without one row is caught, and named."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    dropped = NOTEBOOKS[7].name
    lines = [ln for ln in readme.splitlines() if f"](notebooks/{dropped})" not in ln]
    assert missing_from_readme("\n".join(lines)) == [dropped]


def missing_from_guide(guide: str) -> list[str]:
    return [f"### {number} · {title}" for number, title in _titles().values()
            if f"\n### {number} · {title}\n" not in guide]


def test_the_instructor_guide_has_a_section_for_every_notebook():
    guide = (ROOT / "docs" / "instructor-guide.md").read_text(encoding="utf-8")
    missing = missing_from_guide(guide)
    assert not missing, (f"docs/instructor-guide.md has no section {missing}: add the notebook to "
                         "tools/instructor_guide.py's inputs and run it")


def _imported(path: Path) -> set[str]:
    names = set()
    for source in links._code_cells(path):
        try:
            tree = ast.parse("\n".join(ln for ln in source.splitlines() if not ln.lstrip().startswith(("%", "!"))))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_colab_installs_every_package_a_notebook_imports(path):
    third_party = _imported(path) - set(sys.stdlib_module_names) - COLAB_HAS - {"retrieval_lab", "tools"}
    readers = set(links.MODEL_READERS) if links.uses_minilm(path) else set()  # installed with the model
    unknown = sorted(third_party - set(links.COLAB_INSTALLS) - readers)
    assert not unknown, (f"{path.name} imports {unknown}, which Colab lacks: add each to "
                         "tools/links.py COLAB_INSTALLS with its pinned distribution")
    pinned = links.pins()
    assert all(links.COLAB_INSTALLS[name] in pinned for name in third_party - readers), "a Colab install is not pinned"


def _slug(heading: str) -> str:
    """A markdown heading's anchor, as GitHub and MyST make it."""
    text = re.sub(r"[^\w\s-]", "", heading.strip().lower())
    return re.sub(r"\s", "-", text)


def test_every_glossary_link_in_a_notebook_has_its_entry():
    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    anchors = {_slug(m) for m in re.findall(r"^#+ (.+)$", glossary, re.M)}
    broken = []
    for path in NOTEBOOKS:
        text = "\n".join(c.source for c in _nb(path).cells if c.cell_type == "markdown")
        broken += [f"{path.name}: #{a}" for a in re.findall(r"glossary\.md#([^)\s]+)", text) if a not in anchors]
    assert not broken, f"links to glossary entries that do not exist: {broken}"


def test_the_mutation_report_has_a_row_for_every_exercise():
    report = (ROOT / "docs" / "mutation.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| (\d\d_[a-z0-9_]+) \| (\d+) \|", report, re.M))
    wanted = {(p.stem, str(n)) for p in NOTEBOOKS for n in range(1, len(nbtools.exercises(p)) + 1)}
    missing = sorted(wanted - rows)
    assert not missing, f"docs/mutation.md has no row for {missing}: run `make mutation NB=…`"


def test_every_notebook_has_its_slide_structure():
    assert slides.check(NOTEBOOKS) == []


def test_notebook_00s_course_map_names_every_notebook():
    zero = _nb(NOTEBOOKS[0])
    shown = "\n".join(
        [c.source for c in zero.cells]
        + [str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
           for c in zero.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    )
    missing = [f"[{t}]({p.name})" for p, (n, t) in zip(NOTEBOOKS, _titles().values(), strict=True)
               if n != "00" and f"[{t}]({p.name})" not in shown]
    assert not missing, f"notebook 00's course map misses {missing}"


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if nbtools.exported_source(p)],
                         ids=lambda p: p.stem)
def test_every_scratch_module_has_its_equivalence_tests(path):
    module = nbtools.module_name(path)
    tests = [t.name for t in (ROOT / "tests").glob("test_*.py")
             if t.stem == f"test_{module}" or f"retrieval_lab.scratch.{module}" in t.read_text(encoding="utf-8")]
    assert tests, (f"nothing in tests/ imports retrieval_lab.scratch.{module} ({path.name}): "
                   f"write tests/test_{module}.py, comparing it with the real class on random input")
