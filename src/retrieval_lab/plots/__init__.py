"""Pictures the notebooks share, one module per course topic, all re-exported here.

Each function draws one idea and returns the Figure, so a test can inspect what was drawn; a
notebook cell ends in ``plt.show()`` so the stored output is one PNG.
"""

from retrieval_lab.plots._style import COLORS, GREYS, OKABE_ITO, SERIES, show
from retrieval_lab.plots.embeddings import similarity_heatmaps, vector_arrows
from retrieval_lab.plots.pipeline import pipeline_diagram, score_bars
from retrieval_lab.plots.retrievers import grouped_bars, run_timeline, runnable_graph
from retrieval_lab.plots.scaling import latency_vs_n, recall_vs_latency
from retrieval_lab.plots.splitters import chunk_map, chunk_spans
from retrieval_lab.plots.stores import lambda_sweep, mmr_plane

__all__ = [
    "COLORS",
    "GREYS",
    "OKABE_ITO",
    "SERIES",
    "chunk_map",
    "chunk_spans",
    "grouped_bars",
    "lambda_sweep",
    "latency_vs_n",
    "mmr_plane",
    "pipeline_diagram",
    "recall_vs_latency",
    "run_timeline",
    "runnable_graph",
    "score_bars",
    "show",
    "similarity_heatmaps",
    "vector_arrows",
]
