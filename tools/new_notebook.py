"""Scaffold a new course notebook: ``make new-notebook N=18 SLUG=chunking TITLE="…"``.

Writes three files from the course's template (docs/design.md, "A notebook, top to bottom"):

- ``notebooks/NN_slug.ipynb``: header, set-up (the Colab cell is filled in by ``tools.links``),
  Build it with one export cell and the cell that runs it, Meet the real one, Surprises, Key
  points, and Your turn with a predict and a debug exercise, each with its check and solution;
- ``tests/test_slug.py``: the equivalence-test file, a hypothesis test of the scratch function
  against the notebook's reference;
- ``src/retrieval_lab/checks/answers/nbNN.py``: the exercises' references and cases.

Every part is a working placeholder (a first-words function) that passes the notebook guard once
executed, so the new notebook starts green and every step after is an edit. The Makefile target
then runs ``tools.links write`` (README row, badges, Colab cell), ``tools.slides annotate`` and
``make execute``; ``tests/test_registry.py`` then names every list the notebook must still join.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_SLUG = re.compile(r"^[a-z][a-z0-9_]*$")


def _cell(kind: str, source: str, *tags: str, **meta):
    from nbformat import v4

    make = v4.new_markdown_cell if kind == "md" else v4.new_code_cell
    cell = make(source.strip("\n"))
    if tags:
        cell.metadata["tags"] = list(tags)
    cell.metadata.update(meta)
    return cell


def notebook_cells(number: str, slug: str, title: str) -> list:
    """The template's cells, with the placeholder function ``first_words``."""
    name = f"{number}_{slug}.ipynb"
    answers = f"nb{number}"
    return [
        _cell("md", f"""
# {number} · {title}

You will build `first_words` (replace it with this notebook's class) and check it against the
real one on the same inputs.

**Objectives**: by the end you can
- say what `first_words` returns, and why

**Time**: teach 5 min · exercises 5 min

**Prerequisites**: [00 · The pipeline](00_the_pipeline.ipynb)

**New words** are explained in the [glossary](../docs/glossary.md) and linked where they first appear.
""", "spine"),
        _cell("md", "## Setup\n\nThis cell imports everything the notebook uses, so it runs on its own.", "spine"),
        _cell("code", "# Colab only: filled in by `python -m tools.links write`.",
              "colab-setup", "hide-input", "spine"),
        _cell("code", "from retrieval_lab.checks import check_function, check_prediction", "spine"),
        _cell("md", "## Build it\n\nThe first step of the class, one idea per cell.", "spine"),
        _cell("code", '''
def first_words(text: str, n: int = 3) -> str:
    """The first ``n`` words of ``text``, joined by single spaces."""
    return " ".join(text.split()[:n])
''', "export", "spine"),
        _cell("code", 'first_words("A cat sleeps most of the day.")', "spine"),
        _cell("md", "## Meet the real one\n\nThe langchain-core class on the same inputs."),
        _cell("md", "## Surprises\n\nWhat the real class does that people do not expect, each shown by running it."),
        _cell("md", "## Key points\n\n- `first_words` keeps the first words, whatever the spacing.", "spine"),
        _cell("md", """
## Your turn

Each exercise has a stub, then a check cell that answers: *not attempted yet*, a hint, or ✓.
"""),
        _cell("md", """
### Exercise 1: what does it keep?

Predict the result for each text **before** you run anything, as plain values in the `return`
line.
"""),
        _cell("code", '''
def prediction() -> dict:
    """first_words of each text, with n = 2."""
    return {
        "spaced": ...,  # first_words("  two   spaces ", 2)
        "short": ...,  # first_words("one", 2)
    }
''', "exercise", retrieval_lab={"kind": "predict"}),
        _cell("code", f'''
from retrieval_lab.checks.answers import {answers}

check_prediction(
    "Exercise 1", prediction, truth={answers}.what_it_keeps,
    hint="split() with no argument splits on any run of whitespace",
)
''', "check"),
        _cell("md", '''
<details><summary>Show a solution</summary>

```python
def prediction() -> dict:
    """first_words of each text, with n = 2."""
    return {
        "spaced": "two spaces",
        "short": "one",
    }
```

`split()` drops leading, trailing and repeated whitespace; a slice past the end is shorter.

</details>
''', "solution"),
        _cell("md", """
### Exercise 2: mend the tie

This version answers right on most texts, but not when two words are as long. Mend it.
"""),
        _cell("code", '''
def longest_word(text: str) -> str:
    """The longest word of ``text``; the first of them when several are as long."""
    raise NotImplementedError  # delete this line, run the check, then mend the code
    best = ""
    for word in text.split():
        if len(word) >= len(best):
            best = word
    return best
''', "exercise", retrieval_lab={"kind": "debug"}),
        _cell("code", f'''
from retrieval_lab.checks.answers import {answers}

check_function(
    "Exercise 2", longest_word, oracle={answers}.longest_word,
    cases={answers}.longest_word_cases(), reveal_expected=True,
    hint="of two words as long as each other, which one does the loop keep?",
)
''', "check"),
        _cell("md", '''
<details><summary>Show a solution</summary>

```python
def longest_word(text: str) -> str:
    """The longest word of ``text``; the first of them when several are as long."""
    best = ""
    for word in text.split():
        if len(word) > len(best):  # only a longer word replaces the best so far
            best = word
    return best
```

With `>=`, a later word as long as the best replaces it: the last of the tied words wins.

</details>
''', "solution"),
    ], name


def answers_source(number: str, title: str) -> str:
    return f'''"""Notebook {number}'s exercise checks ({title}): references and cases."""

from __future__ import annotations


def first_words(text: str, n: int = 3) -> str:
    """The reference the notebook's `first_words` is checked against."""
    return " ".join(text.split()[:n])


# ----------------------------------------------------------------- Exercise 1: predict


def what_it_keeps() -> dict[str, str]:
    """Run the real thing on the exercise's texts."""
    return {{"spaced": first_words("  two   spaces ", 2), "short": first_words("one", 2)}}


# ----------------------------------------------------------------- Exercise 2: debug


def longest_word(text: str) -> str:
    """The longest word of ``text``, the first of them on a tie ("" for no word)."""
    return max(text.split(), key=len, default="")


def longest_word_cases() -> list[tuple[str]]:
    """Texts with ties (where ``>=`` keeps the last), without, and with no word at all."""
    return [("ab cd",), ("a bb cc d",), ("one three five",), ("x",), ("",), ("  spaced   out ",)]
'''


def test_source(number: str, slug: str) -> str:
    return f'''"""Notebook {number}'s scratch code against its reference, on random input."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from retrieval_lab.checks.answers import nb{number}
from retrieval_lab.scratch.{slug} import first_words


@given(st.text(alphabet=st.sampled_from("ab \\t\\n"), max_size=30), st.integers(0, 5))
def test_first_words_is_the_reference_on_random_text(text, n):
    assert first_words(text, n) == nb{number}.first_words(text, n)
'''


def scaffold(number: int, slug: str, title: str, root: Path = ROOT) -> list[Path]:
    """Write the three files under ``root``; refuse to overwrite anything."""
    import nbformat

    if not 0 <= number <= 99:
        raise ValueError(f"N={number}: a notebook's number has two digits, 00 to 99")
    if not _SLUG.match(slug):
        raise ValueError(f"SLUG={slug!r}: lower-case letters, digits and _, starting with a letter")
    if not title.strip():
        raise ValueError('TITLE is empty: give the notebook\'s title, e.g. TITLE="Chunking, measured"')
    nn = f"{number:02d}"
    taken = sorted((root / "notebooks").glob(f"{nn}_*.ipynb")) + sorted((root / "notebooks").glob(f"*_{slug}.ipynb"))
    if taken:
        raise ValueError(f"{taken[0].name} already exists: choose another N or SLUG")
    cells, name = notebook_cells(nn, slug, title.strip())
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (retrieval-lab)", "language": "python",
                                 "name": "retrieval-lab"}
    nb.metadata["retrieval_lab"] = {"teach_minutes": 5, "exercise_minutes": 5}
    files = {
        root / "notebooks" / name: None,
        root / "tests" / f"test_{slug}.py": test_source(nn, slug),
        root / "src" / "retrieval_lab" / "checks" / "answers" / f"nb{nn}.py": answers_source(nn, title.strip()),
    }
    for path in files:
        if path.exists():
            raise ValueError(f"{path.relative_to(root)} already exists: choose another N or SLUG")
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if text is None:
            nbformat.write(nb, path)
        else:
            path.write_text(text, encoding="utf-8")
    return list(files)


NEXT_STEPS = """
Next:
  1. write the notebook; `make execute NB={nb}` then `make quick NB={nn}` after each step;
  2. `python -m pytest -p tools -p no:nbval -q tests/test_registry.py` names every list it must
     still join (the instructor guide's section, glossary words, the mutation report, ...).
"""


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 3 or not argv[0].isdigit():
        print('usage: python -m tools.new_notebook N SLUG "TITLE"   (make new-notebook N=18 SLUG=x TITLE="…")')
        return 2
    try:
        written = scaffold(int(argv[0]), argv[1], argv[2])
    except ValueError as error:
        print(f"new-notebook: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path.relative_to(ROOT)}")
    print(NEXT_STEPS.format(nb=written[0].relative_to(ROOT), nn=f"{int(argv[0]):02d}").rstrip())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
