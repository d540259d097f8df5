"""Pictures of notebooks 06-07: the VectorStore base class, MMR on a plane and the lambda sweep."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import matplotlib.pyplot as plt
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from retrieval_lab.plots._style import (
    COLORS,
    GREYS,
    OKABE_ITO,
    SERIES,
    _check_known_ids,
    _plane_points,
)


def _draw_plane(
    ax: plt.Axes,
    plane: Mapping[str, tuple[float, float]],
    query: tuple[float, float],
    picks: Sequence[str],
    title: str,
    axis_labels: Sequence[str],
    color: str,
) -> None:
    """One panel: every document as an arrow from the origin, the picks coloured and numbered."""
    reach = max(max(abs(v) for xy in plane.values() for v in xy), 1.0) * 1.25
    groups: dict[tuple[float, float], list[str]] = {}
    for doc_id, xy in plane.items():
        groups.setdefault(xy, []).append(doc_id)
    for xy, ids in groups.items():
        picked = [i for i in ids if i in picks]
        ax.add_patch(FancyArrowPatch((0, 0), xy, arrowstyle="-|>", mutation_scale=14, linewidth=2,
                                     color=color if picked else COLORS["muted"], zorder=2))
        label = " = ".join(f"{i} (#{picks.index(i) + 1})" if i in picks else i for i in ids)
        ax.annotate(label, xy, xytext=(5, 4), textcoords="offset points", fontsize=9,
                    color=color if picked else GREYS["dark_grey"],
                    weight="bold" if picked else "normal")
    norm = (query[0] ** 2 + query[1] ** 2) ** 0.5
    if norm > 0:
        end = (query[0] / norm * reach * 0.95, query[1] / norm * reach * 0.95)
        ax.plot([0, end[0]], [0, end[1]], linestyle="--", color=COLORS["query"], linewidth=1.5, zorder=1)
        ax.annotate("query", end, xytext=(-40, 5), textcoords="offset points", color=COLORS["query"], fontsize=9)
    ax.set_xlim(-0.1, reach)
    ax.set_ylim(-0.1, reach)
    ax.set_aspect("equal")
    ax.set_xlabel(f"count of '{axis_labels[0]}'")
    ax.set_ylabel(f"count of '{axis_labels[1]}'")
    ax.set_title(title, fontsize=11)
    ax.grid(alpha=0.3)


def mmr_plane(
    points: Mapping[str, Sequence[float]],
    query: Sequence[float],
    similarity_ids: Sequence[str],
    mmr_ids: Sequence[str],
    *,
    lambda_mult: float,
    axis_labels: Sequence[str] = ("cat", "dog"),
) -> Figure:
    """Two panels of the same 2-D vectors: plain similarity's top-k beside MMR's picks, numbered.

    Cosine similarity only looks at directions, so a learner can see it: the top-k crowd around
    the query's dashed line, while MMR's later picks fan out. Identical vectors share one arrow
    (labelled ``c1 = c2``), which is exactly the redundancy MMR is built to avoid.
    """
    plane = _plane_points(points, "mmr_plane")
    if len(query) != 2:
        raise ValueError(f"mmr_plane: the query vector must be 2-D like the documents, got {len(query)} numbers.")
    _check_known_ids(similarity_ids, plane, "mmr_plane similarity_ids")
    _check_known_ids(mmr_ids, plane, "mmr_plane mmr_ids")
    q = (float(query[0]), float(query[1]))
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.6))
    _draw_plane(left, plane, q, list(similarity_ids), f"similarity: top {len(similarity_ids)}",
                axis_labels, COLORS["mine"])
    _draw_plane(right, plane, q, list(mmr_ids), f"MMR, λ = {lambda_mult:g}: {len(mmr_ids)} picks in order",
                axis_labels, COLORS["real"])
    fig.tight_layout()
    return fig


def lambda_sweep(
    lambdas: Sequence[float],
    picks: Sequence[Sequence[str]],
    candidates: Sequence[str],
    *,
    title: str = "MMR picks as λ goes from 0 (diverse) to 1 (relevant)",
    labels: Mapping[str, str] | None = None,
) -> Figure:
    """A grid: one column per λ, one row per candidate, the pick order written where it was picked.

    Reading a row left to right shows when a near-duplicate drops out and an outlier comes in.
    ``labels`` maps an id to its text (``{doc.id: doc.page_content}``), so a row reads
    ``c2: cat cat cat dog`` instead of a bare id a learner must look up. The first pick (always
    the most similar document) is a blue circle, later picks orange squares; the legend says so.
    """
    if not lambdas:
        raise ValueError("lambda_sweep: give at least one λ value.")
    if len(lambdas) != len(picks):
        raise ValueError(
            f"lambda_sweep: got {len(lambdas)} λ values but {len(picks)} lists of picks; give one list per λ."
        )
    if not candidates:
        raise ValueError("lambda_sweep: the list of candidate ids is empty.")
    for lam, chosen in zip(lambdas, picks, strict=True):
        _check_known_ids(chosen, dict.fromkeys(candidates), f"lambda_sweep picks at λ={lam:g}")
    if labels is not None:
        if not isinstance(labels, Mapping):
            raise TypeError(
                f"lambda_sweep: labels must be a dict {{id: text}}, got {type(labels).__name__}."
            )
        _check_known_ids(list(labels), dict.fromkeys(candidates), "lambda_sweep labels")
    names = {
        doc_id: doc_id if labels is None or doc_id not in labels else f"{doc_id}: {labels[doc_id]}"
        for doc_id in candidates
    }
    rows = {doc_id: len(candidates) - 1 - r for r, doc_id in enumerate(candidates)}
    (first_color, first_marker, _), (later_color, later_marker, _) = SERIES[0], SERIES[1]
    fig, ax = plt.subplots(figsize=(max(5.0, 0.7 * len(lambdas) + 2), 0.5 * len(candidates) + 2.0))
    for col, chosen in enumerate(picks):
        for order, doc_id in enumerate(chosen, start=1):
            first = order == 1
            ax.scatter(
                col,
                rows[doc_id],
                s=330,
                color=first_color if first else later_color,
                marker=first_marker if first else later_marker,
                zorder=2,
            )
            ax.text(
                col,
                rows[doc_id],
                str(order),
                ha="center",
                va="center",
                color="white" if first else "black",
                fontsize=9,
                weight="bold",
                zorder=3,
            )
    ax.set_xticks(range(len(lambdas)), [f"{lam:g}" for lam in lambdas])
    ax.set_yticks([rows[i] for i in candidates], [names[i] for i in candidates])
    ax.set_xlim(-0.6, len(lambdas) - 0.4)
    ax.set_ylim(-0.6, len(candidates) - 0.4)
    ax.set_xlabel("λ (lambda_mult)")
    ax.set_title(title, fontsize=11)
    ax.grid(alpha=0.3)
    ax.legend(
        handles=[
            Line2D(
                [],
                [],
                marker=first_marker,
                linestyle="none",
                markersize=11,
                color=first_color,
                label="first pick (the most similar)",
            ),
            Line2D(
                [],
                [],
                marker=later_marker,
                linestyle="none",
                markersize=11,
                color=later_color,
                label="later picks (number = order)",
            ),
        ],
        loc="upper center",
        bbox_to_anchor=(0.5, -0.55 / (0.5 * len(candidates) + 2.0) - 0.12),
        ncols=2,
        fontsize=8.5,
        frameon=False,
    )
    fig.tight_layout()
    return fig


def backend_methods_chart(
    works: Sequence[str],
    raises: Sequence[str],
    *,
    backend: str = "a VectorStore subclass",
    title: str = "",
) -> Figure:
    """Which inherited ``VectorStore`` methods work on any backend, which raise until overridden.

    Two columns of method names: on the left those the base class implements on top of the few
    abstract ones (they work as soon as the subclass exists), on the right those whose base version
    raises ``NotImplementedError`` until ``backend`` overrides them. Pass the lists a notebook
    computes, e.g. by calling each method on a minimal subclass, so the chart cannot go stale.
    """
    if isinstance(works, str) or isinstance(raises, str):
        raise TypeError(
            "backend_methods_chart: works and raises are lists of method names, not one str."
        )
    works, raises = list(works), list(raises)
    if not works and not raises:
        raise ValueError(
            "backend_methods_chart: both lists are empty; give the method names to sort."
        )
    both = sorted(set(works) & set(raises))
    if both:
        raise ValueError(
            f"backend_methods_chart: {both} are listed as working and as raising; put each method "
            "in one list."
        )
    rows = max(len(works), len(raises))
    fig, ax = plt.subplots(figsize=(8.0, 0.34 * rows + 1.8))
    columns = (
        (0.0, works, OKABE_ITO["bluish_green"], "-", "✓ works on any backend (inherited)"),
        (
            1.0,
            raises,
            OKABE_ITO["vermillion"],
            "--",
            "✗ raises NotImplementedError until overridden",
        ),
    )
    for x, names, color, linestyle, heading in columns:
        ax.text(
            x + 0.45,
            -0.9,
            f"{heading} ({len(names)})",
            ha="center",
            va="center",
            fontsize=9.5,
            weight="bold",
            color="black",
        )
        for r, name in enumerate(names):
            ax.add_patch(  # a pale fill and a full-strength outline: alpha on the face colour only
                FancyBboxPatch(
                    (x + 0.05, r - 0.38),
                    0.8,
                    0.76,
                    boxstyle="round,pad=0.0,rounding_size=0.1",
                    facecolor=to_rgba(color, 0.18),
                    edgecolor=color,
                    linestyle=linestyle,
                    linewidth=1.3,
                )
            )
            ax.text(x + 0.45, r, name, ha="center", va="center", fontsize=8.5, family="monospace")
    ax.set_xlim(-0.05, 1.95)
    ax.set_ylim(rows - 0.4, -1.4)
    ax.axis("off")
    ax.set_title(title or f"what {backend} inherits from VectorStore", fontsize=11)
    fig.tight_layout()
    return fig
