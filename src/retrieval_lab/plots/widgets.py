"""Interactive explorers, and the plain functions behind them.

A live widget cannot be checked by nbval (its output is a moving target), so everything it shows
comes from the functions here, which are unit-tested: ``mmr_picks`` is exactly what the MMR
explorer writes in its ``picks: …`` line, so a test (or a browser test) can predict the widget.

The default store is the **real** ``InMemoryVectorStore`` over ``corpus.cat_dog_plane()`` embedded
with ``BagOfWords(["cat", "dog"])``: every vector is an arrow in the plane, so the picture is exact.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from retrieval_lab.data.corpus import cat_dog_plane
from retrieval_lab.models.embeddings import BagOfWords
from retrieval_lab.plots import mmr_plane, show
from retrieval_lab.plots._style import png_bundle

#: The two-word vocabulary of the explorer: a document's vector is (count of cat, count of dog).
CAT_DOG_VOCABULARY: tuple[str, str] = ("cat", "dog")


def cat_dog_store() -> Any:
    """A fresh real InMemoryVectorStore holding the six cat/dog documents (ids c1..c6)."""
    from langchain_core.vectorstores import InMemoryVectorStore

    store = InMemoryVectorStore(BagOfWords(CAT_DOG_VOCABULARY))
    store.add_documents(cat_dog_plane())
    return store


def _checked(query: Any, k: Any, fetch_k: Any = 1, lambda_mult: Any = 0.5) -> None:
    """The explorer's inputs, refused early with a message that says what to change."""
    if not isinstance(query, str):
        raise TypeError(f"query must be a str, got {type(query).__name__} {query!r}.")
    for name, value in (("k", k), ("fetch_k", fetch_k)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a whole number >= 1, got {value!r}.")
    if isinstance(lambda_mult, bool) or not isinstance(lambda_mult, int | float) or not 0 <= lambda_mult <= 1:
        raise ValueError(f"lambda_mult must be a number from 0 to 1, got {lambda_mult!r}.")


def mmr_picks(query: str, lambda_mult: float = 0.5, k: int = 3, fetch_k: int = 6, *, store: Any = None) -> list[str]:
    """The ids MMR picks for ``query``, in the order it picks them.

    ``store`` is any vector store with ``max_marginal_relevance_search`` (the real one by default).
    A query with no vocabulary word embeds to the zero vector and the real store raises
    ``ValueError: NaN values found…``; that error is passed on.
    """
    _checked(query, k, fetch_k, lambda_mult)
    store = cat_dog_store() if store is None else store
    docs = store.max_marginal_relevance_search(query, k=k, fetch_k=fetch_k, lambda_mult=lambda_mult)
    return [doc.id for doc in docs]


def similarity_picks(query: str, k: int = 3, *, store: Any = None) -> list[str]:
    """The ids plain similarity search returns for ``query``: the baseline MMR is compared with."""
    _checked(query, k)
    store = cat_dog_store() if store is None else store
    return [doc.id for doc in store.similarity_search(query, k=k)]


def lambda_sweep_picks(
    query: str, lambdas: Sequence[float], k: int = 3, fetch_k: int = 6, *, store: Any = None
) -> list[list[str]]:
    """``mmr_picks`` for each λ in turn: the data of ``plots.lambda_sweep``."""
    if not lambdas:
        raise ValueError("lambdas is empty: give the λ values to sweep, e.g. [0, 0.25, 0.5, 0.75, 1].")
    store = cat_dog_store() if store is None else store
    return [mmr_picks(query, lam, k, fetch_k, store=store) for lam in lambdas]


def picks_line(picks: Sequence[str], label: str = "picks") -> str:
    """The plain-text line the explorer shows, e.g. ``picks: c2, c6, c4``."""
    return f"{label}: {', '.join(picks) if picks else '(none)'}"


@dataclass(frozen=True)
class ExplorerView:
    """What the explorer shows for one setting of its controls."""

    mmr: tuple[str, ...]
    similarity: tuple[str, ...]
    error: str | None = None

    @property
    def mmr_line(self) -> str:
        return f"picks: error: {self.error}" if self.error else picks_line(self.mmr)

    @property
    def similarity_line(self) -> str:
        return picks_line(self.similarity, f"similarity top-{len(self.similarity)}") if not self.error else ""


def explorer_view(query: str, lambda_mult: float, k: int, fetch_k: int, *, store: Any = None) -> ExplorerView:
    """Compute what the explorer shows; an error (e.g. a zero query vector) becomes a message."""
    store = cat_dog_store() if store is None else store
    try:
        mmr = mmr_picks(query, lambda_mult, k, fetch_k, store=store)
        similarity = similarity_picks(query, k, store=store)
    except (ValueError, TypeError) as exc:
        return ExplorerView((), (), f"{type(exc).__name__}: {exc}")
    return ExplorerView(tuple(mmr), tuple(similarity))


class MMRExplorer:
    """Sliders for λ, k and fetch_k, a query box, the picks as text, and the picture.

    Displaying the object shows the widget. The text lines carry the CSS classes
    ``mmr-picks`` and ``mmr-similarity`` so a browser test can find and read them.
    """

    def __init__(self, store: Any = None, *, query: str = "cat", lambda_mult: float = 0.5, k: int = 3,
                 fetch_k: int = 6, draw: bool = True) -> None:
        import ipywidgets as w

        self.store = cat_dog_store() if store is None else store
        self.draw = draw  # False: text lines only (what a unit test reads; drawing is the slow part)
        size = max(len(self.store.store), 1)
        self.query = w.Text(value=query, description="query", continuous_update=False)
        self.lambda_mult = w.FloatSlider(value=lambda_mult, min=0.0, max=1.0, step=0.05, description="λ")
        self.k = w.IntSlider(value=k, min=1, max=size, description="k")
        self.fetch_k = w.IntSlider(value=fetch_k, min=1, max=size, description="fetch_k")
        self.picks_html = w.HTML()
        self.picks_html.add_class("mmr-picks")
        self.similarity_html = w.HTML()
        self.similarity_html.add_class("mmr-similarity")
        self.output = w.Output()
        for control in (self.query, self.lambda_mult, self.k, self.fetch_k):
            control.observe(self._on_change, names="value")
        self.widget = w.VBox([
            w.HBox([self.query, self.lambda_mult]),
            w.HBox([self.k, self.fetch_k]),
            self.picks_html,
            self.similarity_html,
            self.output,
        ])
        self.view = self.refresh()
        #: The controls' first setting and what it showed: the still a static page falls back to.
        self.first = (query, lambda_mult, k, fetch_k, self.view)
        self._still: tuple[str, str] | None = None

    def _on_change(self, _change: dict[str, Any]) -> None:
        self.view = self.refresh()

    def refresh(self) -> ExplorerView:
        """Recompute the picks from the controls and redraw the text and the picture."""
        view = explorer_view(self.query.value, round(self.lambda_mult.value, 2), self.k.value,
                             self.fetch_k.value, store=self.store)
        self.picks_html.value = f"<code>{html.escape(view.mmr_line)}</code>"
        self.similarity_html.value = f"<code>{html.escape(view.similarity_line)}</code>"
        self._draw(view)
        return view

    def _draw(self, view: ExplorerView) -> None:

        self.output.clear_output(wait=True)
        if view.error or not self.draw:
            return
        points = {doc_id: entry["vector"] for doc_id, entry in self.store.store.items()}
        if any(len(vector) != 2 for vector in points.values()):
            return  # the picture needs a two-word vocabulary; the text lines still work
        fig = mmr_plane(points, self.store.embeddings.embed_query(self.query.value), view.similarity, view.mmr,
                        lambda_mult=round(self.lambda_mult.value, 2))
        alt = (
            f"MMR explorer at query {self.query.value!r}, λ = {self.lambda_mult.value:g}: two "
            f"cat/dog planes, plain similarity's top {len(view.similarity)} "
            f"({', '.join(view.similarity)}) beside MMR's picks in order ({', '.join(view.mmr)})."
        )
        with self.output:
            show(fig, alt=alt)  # the live picture carries its alt text too (and is closed)

    def still(self) -> tuple[str, str]:
        """The first state as a base64 PNG and its alt text (drawn once, then kept).

        Why: where no kernel runs the widget (a static page, nbconvert, the slides, a notebook
        viewer) the stored output is all a reader gets; a picture of the explorer's first state
        with a description says what it does, where ``VBox(children=…)`` says nothing.
        """
        if self._still is None:
            self._still = _explorer_still(self.store, *self.first)
        return self._still

    def _repr_mimebundle_(self, **kwargs: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        """The live widget view for JupyterLab, plus a still and its description for the rest.

        A front end shows the richest type it can render: JupyterLab the widget view, a static
        renderer (which has no widget state) the ``image/png``, a terminal the ``text/plain`` line.
        The alt text travels in the PNG's metadata, as ``plots.show`` stores it.
        """
        data = dict(self.widget._repr_mimebundle_(**kwargs) or {})
        png, alt = self.still()
        if png:
            data.update(png_bundle(png, alt))
        data["text/plain"] = f"[figure] {alt}"
        include, exclude = kwargs.get("include"), kwargs.get("exclude")
        data = {mime: value for mime, value in data.items()
                if (not include or mime in include) and (not exclude or mime not in exclude)}
        return data, ({"image/png": {"alt": alt}} if "image/png" in data else {})


def _explorer_still(
    store: Any, query: str, lambda_mult: float, k: int, fetch_k: int, view: ExplorerView
) -> tuple[str, str]:
    """Draw ``view`` as ``plots.mmr_plane`` does in the explorer; return (base64 PNG, alt text).

    The PNG is empty when there is no picture to draw (an error, or vectors that are not 2-D);
    the alt text then says what the explorer shows in words.
    """
    import base64
    import io

    import matplotlib.pyplot as plt


    setting = f"query {query!r}, λ = {lambda_mult:g}, k = {k}, fetch_k = {fetch_k}"
    if view.error:
        return (
            "",
            f"MMR explorer (interactive; run the notebook to use it). At {setting} it shows "
            f"{view.mmr_line}.",
        )
    alt = (
        f"MMR explorer, a still of its first setting ({setting}); run the notebook to move "
        "the sliders. "
        f"Two cat/dog planes: plain similarity's top {len(view.similarity)} "
        f"({', '.join(view.similarity)}) beside MMR's picks in order ({', '.join(view.mmr)})."
    )
    points = {doc_id: entry["vector"] for doc_id, entry in store.store.items()}
    if any(len(vector) != 2 for vector in points.values()):
        return "", alt
    fig = mmr_plane(
        points,
        store.embeddings.embed_query(query),
        view.similarity,
        view.mmr,
        lambda_mult=round(lambda_mult, 2),
    )
    fig.suptitle(f"{view.mmr_line}    {view.similarity_line}", fontsize=10, family="monospace")
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80, bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buffer.getvalue()).decode("ascii"), alt


def mmr_explorer(store: Any = None, **settings: Any) -> MMRExplorer:
    """The MMR explorer of notebook 07 (the real cat/dog store unless ``store`` is given)."""
    return MMRExplorer(store, **settings)
