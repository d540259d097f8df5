"""The object diagram of notebook 01: what a shallow (or deep) copy of metadata shares."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest
from matplotlib.colors import to_hex
from matplotlib.patches import FancyBboxPatch
from matplotlib.text import Annotation

from retrieval_lab.plots import COLORS, shared_metadata_diagram

METADATA = {"source": "a.txt", "tags": {"pets": True}}


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _boxes(ax) -> list[tuple[str, FancyBboxPatch]]:
    """Each box with the first line of text drawn in it."""
    boxes = [p for p in ax.patches if isinstance(p, FancyBboxPatch)]
    found = {}
    for t in ax.texts:
        if not t.get_text():
            continue  # an arrow (an annotation with no text)
        x, y = t.get_position()
        for box in boxes:
            if (
                box.get_x() < x < box.get_x() + box.get_width()
                and box.get_y() < y < box.get_y() + box.get_height()
            ):
                found.setdefault(id(box), (box, t.get_text()))
    return [(text, box) for box, text in found.values()]


def test_a_shallow_copy_has_two_outer_dicts_and_one_shared_nested_dict():
    fig = shared_metadata_diagram(METADATA, "tags", names=("doc", "copy"))
    ax = fig.axes[0]
    boxes = _boxes(ax)
    assert {"doc", "copy", "doc.metadata", "copy.metadata"} <= {name for name, _ in boxes}
    nested = [(name, box) for name, box in boxes if name.startswith("metadata['tags']")]
    assert [name for name, _ in nested] == ["metadata['tags']  (shared)"]  # one nested dict
    shared = nested[0][1]
    assert shared.get_linestyle() == "--" and to_hex(shared.get_edgecolor()) == COLORS["query"]
    fig.canvas.draw()
    arrows = [t for t in ax.texts if isinstance(t, Annotation) and t.arrow_patch is not None]
    into_shared = [a for a in arrows if abs(a.xy[0] - shared.get_x()) < 0.1]
    assert len(into_shared) == 2  # both outer dicts point at the same nested dict
    for arrow in into_shared:  # each arrow starts at the ● of a 'tags' line
        assert arrow.get_anncoords() in [t for t in ax.texts if t.get_text() == "'tags': ●"]
    assert "'pets': True" in {t.get_text() for t in ax.texts}


def test_a_deep_copy_draws_two_nested_dicts():
    ax = shared_metadata_diagram(METADATA, "tags", deep=True).axes[0]
    nested = [name for name, _ in _boxes(ax) if name.startswith("metadata['tags']")]
    assert len(nested) == 2 and all("shared" not in name for name in nested)
    assert ax.get_title() == "deep copy: nothing shared"


@pytest.mark.parametrize(
    ("metadata", "key", "match"),
    [({"a": 1}, "tags", "holding the key"), ({"tags": [1]}, "tags", "not a dict")],
)
def test_shared_metadata_diagram_refuses_a_missing_nested_dict(metadata, key, match):
    with pytest.raises(ValueError, match=match):
        shared_metadata_diagram(metadata, key)
