"""Rules that keep exercises worth doing: each has a kind, and its solution is not a cell above.

Why a copy measure and not a reviewer's eye: two reviews found half of the course's exercises
solvable by copying a cell above and renaming it. This module measures that the way issue 23
defines it, so a test can hold every notebook to it:

- tokenise the solution and every code cell before the first exercise with Python's ``tokenize``;
- drop comments and layout tokens (newlines, indents);
- fold every string literal to one symbol and every identifier (not keywords) to another, so
  renaming a variable or changing a message does not make code new;
- take 8-token windows; the share of the solution's windows that occur above is its *copy share*.

A share above ``MAX_COPY_SHARE`` (0.35) means the exercise can be solved by copying.
"""

from __future__ import annotations

import io
import keyword
import tokenize
from collections.abc import Iterable

KINDS = ("predict", "debug", "extend", "apply")
#: At least one exercise of each group per notebook: one that asks for a prediction, and one that
#: asks the learner to write or mend code the notebook did not show.
REQUIRED_GROUPS = (("predict",), ("debug", "extend"))
WINDOW = 8
MAX_COPY_SHARE = 0.35
_LAYOUT = {
    tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
    tokenize.ENDMARKER, tokenize.ENCODING,
}
_FSTRING_START = getattr(tokenize, "FSTRING_START", None)  # Python 3.12 splits f-strings up
_FSTRING_END = getattr(tokenize, "FSTRING_END", None)


def _python_lines(source: str) -> str:
    """The cell without IPython's ``%magic`` and ``!shell`` lines, which are not Python."""
    return "\n".join(
        "" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()
    ) + "\n"


def folded_tokens(source: str) -> list[str]:
    """The cell's tokens with layout dropped, strings as ``S`` and identifiers as ``I``."""
    out: list[str] = []
    depth = 0  # inside an f-string (3.12): everything up to its end is one string
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(_python_lines(source)).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return out
    for tok in tokens:
        if _FSTRING_START is not None and tok.type == _FSTRING_START:
            if depth == 0:
                out.append("S")
            depth += 1
            continue
        if _FSTRING_END is not None and tok.type == _FSTRING_END:
            depth -= 1
            continue
        if depth or tok.type in _LAYOUT:
            continue
        if tok.type == tokenize.STRING:
            out.append("S")
        elif tok.type == tokenize.NAME and not keyword.iskeyword(tok.string):
            out.append("I")
        else:
            out.append(tok.string)
    return out


def _windows(tokens: list[str]) -> list[tuple[str, ...]]:
    if not tokens:
        return []
    if len(tokens) < WINDOW:
        return [tuple(tokens)]
    return [tuple(tokens[i : i + WINDOW]) for i in range(len(tokens) - WINDOW + 1)]


def copy_share(solution: str, above: Iterable[str]) -> float:
    """The share of the solution's 8-token windows that occur in the cells above (0 to 1)."""
    mine = _windows(folded_tokens(solution))
    if not mine:
        return 0.0
    seen: set[tuple[str, ...]] = set()
    for cell in above:
        seen.update(_windows(folded_tokens(cell)))
    return sum(window in seen for window in mine) / len(mine)


def kind_of(cell) -> str | None:
    """The exercise's kind, from the cell's ``metadata.retrieval_lab.kind``."""
    return cell.get("metadata", {}).get("retrieval_lab", {}).get("kind")


def exercise_problems(nb, name: str, exercises: list[tuple[int, int, str]]) -> list[str]:
    """What breaks the rules in one notebook (empty when none): kinds, groups, copy shares."""
    problems: list[str] = []
    if not exercises:
        return []  # how many a notebook needs is tests/test_notebooks.py's rule
    first = min(i for i, _, _ in exercises)
    above = [c.source for c in nb.cells[:first] if c.cell_type == "code"]
    kinds = []
    for number, (i, check, solution) in enumerate(exercises, start=1):
        kind = kind_of(nb.cells[i])
        kinds.append(kind)
        if kind not in KINDS:
            problems.append(
                f"{name}: exercise {number} (cell {i}) has kind {kind!r}; set "
                f"metadata.retrieval_lab.kind to one of {', '.join(KINDS)}."
            )
        share = copy_share(solution, above)
        if share > MAX_COPY_SHARE:
            problems.append(
                f"{name}: exercise {number}'s solution is {share:.0%} copied from the cells above "
                f"(8-token windows, names and strings folded; at most {MAX_COPY_SHARE:.0%}): ask for "
                "a prediction, a fix or a feature the notebook did not show."
            )
        if kind == "predict" and "reveal_expected=True" in nb.cells[check].source:
            problems.append(
                f"{name}: exercise {number} is a prediction, but its check (cell {check}) reveals "
                "the expected value: drop reveal_expected=True."
            )
    for group in REQUIRED_GROUPS:
        if not any(k in group for k in kinds):
            problems.append(f"{name}: no exercise of kind {' or '.join(group)}; add one.")
    return problems
