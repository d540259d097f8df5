"""Compare outputs a notebook showed somewhere else with its stored ones, by nbval's own rules.

nbval checks the stored outputs against a kernel it starts itself. The browser test runs every
notebook a second time, in JupyterLab, with numpy's sort dispatched as a CPU without AVX2 runs it
(``OTHER_CPU``); reading the outputs JupyterLab holds and comparing them here makes that one run
both the learner's-eye check and the other-CPU check, instead of a third execution of the course.

The comparison is nbval's: its ``compare_outputs`` (borrowed, not copied), the same sanitize file,
streams coalesced the same way, the same keys skipped (images, metadata, tracebacks, widget ids),
and cells tagged ``nbval-ignore-output`` or stored without an execution count left out.
"""

from __future__ import annotations

import difflib
from collections import OrderedDict
from pathlib import Path
from types import SimpleNamespace

import nbformat
from nbval.plugin import IPyNbCell, coalesce_streams, get_sanitize_patterns, nocolors

ROOT = Path(__file__).resolve().parents[1]
SANITIZE = ROOT / "tests" / "nbval_sanitize.cfg"
# numpy's SIMD sort breaks ties differently per CPU; these features off = a CPU without AVX2.
# The Makefile reads this line (``make nbval-other-cpu``), so it is the one place the list lives.
OTHER_CPU = "X86_V3 X86_V4 AVX512_ICL AVX512_SPR"
# What nbval 0.11.0 leaves out of a comparison (IPyNbFile.__init__, without --nbdime).
SKIP_COMPARE = ("metadata", "traceback", "prompt_number", "output_type", "name", "execution_count",
                "application/vnd.jupyter.widget-view+json", "image/png", "image/jpeg")


class _Comparison:
    """Just enough of an ``IPyNbCell`` for nbval's ``compare_outputs`` to run outside pytest."""

    compare_outputs = IPyNbCell.compare_outputs
    sanitize = IPyNbCell.sanitize

    def __init__(self, patterns: OrderedDict[str, str]) -> None:
        self.parent = SimpleNamespace(skip_compare=SKIP_COMPARE, sanitize_patterns=patterns)
        self.colors = nocolors
        self.comparison_traceback: list[str] = []

    def format_output_compare(self, key: str, left: object, right: object) -> None:
        """nbval's hook needs pytest's assertion machinery; a unified diff says the same."""
        diff = difflib.unified_diff(str(left).splitlines(), str(right).splitlines(),
                                    "stored", "this run", lineterm="", n=1)
        self.comparison_traceback.append(f"{key} differs:\n" + "\n".join(diff))


def sanitize_patterns(path: Path = SANITIZE) -> OrderedDict[str, str]:
    """The sanitize file as nbval reads it: later sections with the same regex replace earlier."""
    return OrderedDict(get_sanitize_patterns(path.read_text(encoding="utf-8")))


def _joined(value: object) -> object:
    """A multi-line string stored as a list of lines (nbformat on disk, sometimes JupyterLab)."""
    return "".join(value) if isinstance(value, list) and all(isinstance(v, str) for v in value) else value


def _outputs(raw: list[dict]) -> list[nbformat.NotebookNode]:
    """Outputs as nbval sees them: text joined, consecutive streams of one name merged."""
    cleaned = []
    for output in raw:
        output = dict(output)
        if "text" in output:
            output["text"] = _joined(output["text"])
        if "data" in output:
            output["data"] = {key: _joined(value) for key, value in output["data"].items()}
        cleaned.append(nbformat.from_dict(output))
    return coalesce_streams(cleaned)


def differences(stored: nbformat.NotebookNode, shown: list[list[dict]],
                patterns: OrderedDict[str, str] | None = None) -> dict[int, str]:
    """Cell index -> what differs, for each code cell whose ``shown`` outputs differ from ``stored``.

    ``shown[i]`` holds cell ``i``'s outputs (``[]`` for a markdown cell), as JupyterLab's notebook
    model gives them. Cells nbval would not compare are left out here too.
    """
    if len(shown) != len(stored.cells):
        raise ValueError(f"the run shows {len(shown)} cells, the stored notebook has {len(stored.cells)}")
    patterns = sanitize_patterns() if patterns is None else patterns
    found = {}
    for i, cell in enumerate(stored.cells):
        tags = cell.get("metadata", {}).get("tags", [])
        if cell.cell_type != "code" or cell.get("execution_count") is None or "nbval-ignore-output" in tags:
            continue
        comparison = _Comparison(patterns)
        if not comparison.compare_outputs(_outputs(shown[i]), _outputs(cell.outputs)):
            found[i] = "\n".join(comparison.comparison_traceback)
    return found
