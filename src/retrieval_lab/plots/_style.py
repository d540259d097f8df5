"""What every picture of the course shares: the palette and the argument checks."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.figure import Figure

#: Okabe & Ito's colour-blind-safe palette (2008): the only colours a course picture may use.
OKABE_ITO = {
    "black": "#000000",
    "orange": "#e69f00",
    "sky_blue": "#56b4e9",
    "bluish_green": "#009e73",
    "yellow": "#f0e442",
    "blue": "#0072b2",
    "vermillion": "#d55e00",
    "reddish_purple": "#cc79a7",
}
#: Greys are allowed too (for muted, inactive things): they carry no hue to confuse.
#: ``dark_grey`` is for secondary text: 7.5:1 against white, where ``grey`` (2.8:1) is too faint.
GREYS = {"grey": "#999999", "light_grey": "#dddddd", "white": "#ffffff", "dark_grey": "#555555"}

#: Roles, so "mine" and "real" look the same in every notebook. Series told apart by colour
#: must also differ by marker or line style: see SERIES.
COLORS = {
    "mine": OKABE_ITO["blue"],
    "real": OKABE_ITO["orange"],
    "query": OKABE_ITO["vermillion"],
    "muted": GREYS["grey"],
    "third": OKABE_ITO["bluish_green"],
    "fourth": OKABE_ITO["reddish_purple"],
}
#: Series order for pictures with several series: colour, marker and line style together.
SERIES = [
    (OKABE_ITO["blue"], "o", "-"),
    (OKABE_ITO["orange"], "s", "--"),
    (OKABE_ITO["bluish_green"], "^", "-."),
    (OKABE_ITO["reddish_purple"], "D", ":"),
    (OKABE_ITO["vermillion"], "v", (0, (5, 1))),
    (OKABE_ITO["sky_blue"], "P", (0, (3, 1, 1, 1))),
]

#: Similarity from -1 to 1: blue through white to vermillion, the two ends of Okabe-Ito that
#: colour-blind readers tell apart best. NaN cells (undefined cosines) are light grey. An odd
#: number of levels (255), so 0, the middle, is exactly white.
DIVERGING = LinearSegmentedColormap.from_list(
    "okabe_ito_diverging", [OKABE_ITO["blue"], GREYS["white"], OKABE_ITO["vermillion"]], N=255
).with_extremes(bad=GREYS["light_grey"])


def show(fig: Figure, alt: str, *, dpi: int = 100) -> None:
    """Display ``fig`` as one PNG that carries ``alt`` text, then close it.

    Why not ``plt.show()``: a screen reader and a static page need a description of the
    picture. The alt text travels in the output's ``image/png`` metadata (JupyterLab, nbconvert
    and the slides read it there) and as its ``text/plain`` fallback, which nbval compares, so
    a changed description is caught like any other output.
    """
    import base64
    import io

    from IPython.display import display

    alt = " ".join(str(alt).split())
    if not alt:
        raise ValueError("show: give the picture a short description (alt text), not an empty string.")
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
    plt.close(fig)
    png = base64.b64encode(buffer.getvalue()).decode("ascii")
    display(png_bundle(png, alt), raw=True, metadata={"image/png": {"alt": alt}})


def png_bundle(png: str, alt: str) -> dict[str, str]:
    """The output bundle of a picture: the PNG, the same PNG as an ``<img>`` with its alt
    text, and the alt text as plain text.

    Why the ``<img>``: JupyterLab draws a trusted output's ``text/html`` in preference to its
    ``image/png``, and its image renderer drops the alt text in the metadata, so without it a
    screen reader in JupyterLab hears nothing (the accessibility check in the browser test
    found this). nbconvert, the website and the slides read the same ``<img>``.
    """
    import html

    return {
        "image/png": png,
        "text/html": f'<img src="data:image/png;base64,{png}" alt="{html.escape(alt)}">',
        "text/plain": f"[figure] {alt}",
    }


def _check_same_length(labels: Sequence[str], values: Sequence[float], what: str) -> None:
    if len(labels) != len(values):
        raise ValueError(
            f"{what}: got {len(labels)} labels but {len(values)} scores; give one score per label."
        )
    if not labels:
        raise ValueError(f"{what}: nothing to draw - the list of labels is empty.")


def _plane_points(points: Mapping[str, Sequence[float]], what: str) -> dict[str, tuple[float, float]]:
    """Validate ``{id: [x, y]}``: MMR pictures draw vectors of a two-word vocabulary exactly."""
    if not points:
        raise ValueError(f"{what}: no documents to draw - give at least one id: [x, y] entry.")
    plane = {}
    for doc_id, vector in points.items():
        if len(vector) != 2:
            raise ValueError(
                f"{what}: document {doc_id!r} has a {len(vector)}-dimensional vector; this picture draws "
                "2-D vectors only - embed with a two-word vocabulary, e.g. BagOfWords(['cat', 'dog'])."
            )
        plane[doc_id] = (float(vector[0]), float(vector[1]))
    return plane


def _check_known_ids(ids: Sequence[str], known: Mapping[str, object], what: str) -> None:
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise ValueError(f"{what}: {unknown} are not among the documents drawn ({sorted(known)}).")


def _check_positive_series(series: Mapping[object, float], name: str, what: str) -> None:
    if not series:
        raise ValueError(f"{what}: the series {name!r} has no points; give at least one (x, value) pair.")
    bad = {x: v for x, v in series.items() if not (isinstance(v, int | float) and math.isfinite(v) and v > 0)}
    if bad or any(not (isinstance(x, int | float) and x > 0) for x in series):
        raise ValueError(
            f"{what}: the series {name!r} has points {bad or dict(series)} that a log axis cannot show; "
            "every n and every value must be a positive finite number."
        )
