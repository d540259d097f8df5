"""``plots.cosines``: the hits and non-hits picture of notebook 13."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest
from matplotlib.colors import to_rgb

from retrieval_lab.plots._style import COLORS
from retrieval_lab.plots.cosines import hits_and_non_hits


def test_each_group_is_drawn_as_a_share_of_itself_with_its_marks():
    fig = hits_and_non_hits([0.5, 0.6, 0.7], [0.0, 0.1, 0.1, 0.2, 0.5],
                            marks={"threshold 0.455": 0.455})
    ax = fig.axes[0]
    assert len(ax.patches) == 2  # one outline per group (histtype step, stepfilled)
    tallest = max(max(p.get_xy()[:, 1]) for p in ax.patches)
    assert tallest == pytest.approx(0.4)  # 2 of the 5 others share one bin: a share, not 2
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["other passages (5)", "passages that answer (3)"]
    assert [line.get_xdata()[0] for line in ax.get_lines()] == [0.455]
    assert ax.patches[1].get_facecolor()[:3] == pytest.approx(to_rgb(COLORS["mine"]))
    plt.close(fig)


@pytest.mark.parametrize(("hits", "non_hits"), [([], [0.1]), ([0.1], []),
                                                ([float("nan")], [0.1])])
def test_an_empty_group_or_a_nan_is_refused(hits, non_hits):
    with pytest.raises(ValueError, match="hits_and_non_hits"):
        hits_and_non_hits(hits, non_hits)
